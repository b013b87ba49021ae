package binder

import (
	"math"
	"strconv"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/sqlgate/sqlgate/sql"
)

// decimalText is a numeric literal's digits as written.
type decimalText string

// literalValue reads a literal as a Go value: nil (NULL), bool, int64,
// float64, decimalText, string or []byte. ok is false for non-literals.
func literalValue(e ast.ExprNode) (v any, ok bool) {
	lit, ok := sql.LiteralOf(e)
	if !ok {
		return nil, false
	}
	return goValue(lit)
}

// goValue is a literal's value as a Go value (literalValue's).
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

// literalString reads a string literal ("" when e is none).
func literalString(e ast.ExprNode) string {
	v, _ := literalValue(e)
	s, _ := v.(string)
	return s
}
