package binder

import (
	"github.com/sqlgate/sqlgate/types"
)

// jsonb - x is PostgreSQL's jsonb_delete: jsonb - text (a key, or string
// elements), jsonb - integer (an element by index), jsonb - text[] (keys).
// An unknown literal on the right is text, as PostgreSQL's resolution
// prefers the string category.

func isJSONBType(t types.T) bool { return t.Kind == types.String && t.Variant == types.JSONB }

func (b *binder) bindJSONBDelete(n sourceNode, l, r Expr) (Expr, error) {
	rt := r.Type()
	switch {
	case isUnknown(rt):
		r = b.resolveUnknown(r, types.StringType)
	case rt.Kind == types.Int8 || rt.Kind == types.Int16 || rt.Kind == types.Int32:
		r = b.castTo(r, types.Int32Type)
	case textOperand(rt) || rt.Kind == types.Array && rt.Elem != nil && textOperand(*rt.Elem):
	default:
		// jsonb - text, jsonb - text[] and jsonb - integer are all there
		// is (a bigint does not cast to integer implicitly)
		return nil, b.operatorError(n, "-", l.Type(), rt)
	}
	return b.callFunction(n, "jsonb_delete", []Expr{l, r})
}

// bindJSONBCompare binds jsonb < <= = <> >= > jsonb as jsonb_cmp(l, r) op
// 0: jsonb orders by its own rules (functions/jsonbcmp.go), not by
// its text ('{}' < '{"a": 1}', '1.0' = '1'). An unknown literal side is
// read as jsonb.
func (b *binder) bindJSONBCompare(n sourceNode, op Op, l, r Expr) (Expr, error) {
	var err error
	if isUnknown(l.Type()) {
		if l, err = b.coerceUnknown(n, l, types.JSONBType); err != nil {
			return nil, err
		}
	}
	if isUnknown(r.Type()) {
		if r, err = b.coerceUnknown(n, r, types.JSONBType); err != nil {
			return nil, err
		}
	}
	c, err := b.callFunction(n, "jsonb_cmp", []Expr{l, r})
	if err != nil {
		return nil, err
	}
	return b.makeBinary(n, op, c, &Const{Value: int64(0), T: types.Int32Type})
}

// isJSONBComparison reports whether op between types lt and rt is a jsonb
// comparison (jsonb on one side, jsonb or an unknown literal on the other).
// noJSONComparison reports operands that PostgreSQL has no comparison
// operator for: json has none at all, and jsonb compares only with jsonb
// (an unknown literal becoming jsonb); text = jsonb would otherwise be
// bound as a comparison of the texts.
func noJSONComparison(lt, rt types.T) bool {
	isJSON := func(t types.T) bool { return t.Kind == types.String && t.Variant == types.JSON }
	if isJSON(lt) || isJSON(rt) {
		return true
	}
	return isJSONBType(lt) != isJSONBType(rt) && !isUnknown(lt) && !isUnknown(rt)
}

func isJSONBComparison(op Op, lt, rt types.T) bool {
	if op < OpEq || op > OpGe {
		return false
	}
	return isJSONBType(lt) && (isJSONBType(rt) || isUnknown(rt)) || isUnknown(lt) && isJSONBType(rt)
}
