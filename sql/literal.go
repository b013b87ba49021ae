package sql

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/test_driver"
	pt "github.com/sqlgate/sqlgate/sql/tree"
)

// LiteralKind is the lexical kind of a literal in the AST (the tree's).
type LiteralKind = pt.LiteralKind

// Literal kinds. A number with a '.' is Decimal (PostgreSQL's numeric), one
// with an exponent is Float, an integer too large for int64 is Uint or
// Decimal, TRUE/FALSE are Bool, X'..'/B'..' are Bytes.
const (
	LitUnknown LiteralKind = 0
	LitNull                = pt.LitNull
	LitBool                = pt.LitBool
	LitInt                 = pt.LitInt
	LitUint                = pt.LitUint
	LitFloat               = pt.LitFloat
	LitDecimal             = pt.LitDecimal
	LitString              = pt.LitString
	LitBytes               = pt.LitBytes
)

// Literal is the value of a literal (the tree's Value): which field holds
// it depends on Kind: Bool/Int -> Int (Bool: 1 or 0), Uint -> Uint, Float
// -> Float, Decimal/String -> Text (the decimal's digits as written), Bytes
// -> Bytes.
type Literal = pt.Value

// LiteralOf reads a literal from an AST expression. It reports false for
// anything that is not a value expression (parameter markers included).
func LiteralOf(e ast.ExprNode) (Literal, bool) {
	if _, isParam := e.(*test_driver.ParamMarkerExpr); isParam {
		return Literal{}, false
	}
	v, ok := e.(*test_driver.ValueExpr)
	if !ok || v == nil {
		return Literal{}, false
	}
	switch v.Kind() {
	case test_driver.KindNull:
		return Literal{Kind: LitNull}, true
	case test_driver.KindInt64:
		if v.Type.GetFlag()&mysql.IsBooleanFlag != 0 {
			b := int64(0)
			if v.GetInt64() != 0 {
				b = 1
			}
			return Literal{Kind: LitBool, Int: b}, true
		}
		return Literal{Kind: LitInt, Int: v.GetInt64()}, true
	case test_driver.KindUint64:
		return Literal{Kind: LitUint, Uint: v.GetUint64()}, true
	case test_driver.KindFloat32, test_driver.KindFloat64:
		return Literal{Kind: LitFloat, Float: v.GetFloat64()}, true
	case test_driver.KindMysqlDecimal:
		return Literal{Kind: LitDecimal, Text: v.GetMysqlDecimal().String()}, true
	case test_driver.KindString:
		return Literal{Kind: LitString, Text: v.GetString()}, true
	case test_driver.KindBytes:
		return Literal{Kind: LitBytes, Bytes: append([]byte(nil), v.GetBytes()...)}, true
	case test_driver.KindBinaryLiteral:
		return Literal{Kind: LitBytes, Bytes: append([]byte(nil), v.GetBinaryLiteral()...)}, true
	}
	return Literal{Kind: LitUnknown}, true
}

// ParamOrder returns the Order of a parameter marker (index into
// Statement.ParamNumbers), or false if e is not a marker.
func ParamOrder(e ast.ExprNode) (int, bool) {
	m, ok := e.(*test_driver.ParamMarkerExpr)
	if !ok || m == nil {
		return 0, false
	}
	return m.Order, true
}
