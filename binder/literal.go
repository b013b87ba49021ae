package binder

import (
	"math"
	"strconv"

	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
)

// decimalText is a numeric literal's digits as written.
type decimalText string

// goValue is a literal's value as a Go value: nil (NULL), bool, int64,
// float64, decimalText, string or []byte.
func goValue(lit sql.Literal) (v any, ok bool) {
	switch lit.Kind {
	case sql.LitNull:
		return nil, true
	case sql.LitBool:
		return lit.Int != 0, true
	case sql.LitInt:
		return lit.Int, true
	case sql.LitUint:
		// TiDB reads LIMIT/OFFSET counts as unsigned; any integer that fits
		// is an ordinary integer literal in PostgreSQL.
		if lit.Uint <= math.MaxInt64 {
			return int64(lit.Uint), true
		}
		return decimalText(strconv.FormatUint(lit.Uint, 10)), true
	case sql.LitFloat:
		return lit.Float, true
	case sql.LitDecimal:
		return decimalText(lit.Text), true
	case sql.LitString:
		return lit.Text, true
	case sql.LitBytes:
		return lit.Bytes, true
	}
	return nil, false
}

// treeValue reads a literal of sql/tree as a Go value (goValue's); ok is
// false for anything else.
func treeValue(e pt.Expr) (v any, ok bool) {
	lit, ok := e.(*pt.Literal)
	if !ok {
		return nil, false
	}
	return goValue(lit.Value)
}

// treeString reads a string literal of sql/tree ("" when e is none).
func treeString(e pt.Expr) string {
	v, _ := treeValue(e)
	s, _ := v.(string)
	return s
}
