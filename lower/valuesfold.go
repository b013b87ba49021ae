package lower

import (
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/types"
)

// foldConstCast folds a cast of a constant to t the way evalIfConst does
// when the cast succeeds, without lowering it and evaluating a one-row
// batch: evalIfConst's lowering of a Cast of a Const (exprSlab.raw) is
// exec.CastValue of the value, and EvalScalar of the resulting constant is
// that value. INSERT ... VALUES casts a constant per cell for every column
// whose type is not the literal's (a bigint or double column), and that
// detour cost a tenth of a 1000-row INSERT (issue 33). ok false leaves the
// cast to evalIfConst: a failing cast (whose error, or its deferral to
// execution, evalIfConst decides) and the record casts exprSlab.raw refuses.
// The cast runs in fo's session (a float's text, extra_float_digits).
func (fo *folder) foldConstCast(in binder.Expr, t types.T, assign bool) (*binder.Const, bool) {
	k, ok := in.(*binder.Const)
	if !ok {
		return nil, false
	}
	if from := k.T; from.Variant.IsRecord() && from.Variant != t.Variant {
		return nil, false
	}
	cast := exec.CastValueStyle
	if assign {
		cast = exec.AssignValueStyle
	}
	v, err := cast(k.Value, k.T, t, fo.loc, fo.st)
	if err != nil {
		return nil, false
	}
	return &binder.Const{Value: v, T: t}, true
}

// foldRow is foldList of one VALUES row, its cells folded in order (a
// permutation of the row's columns; nil: left to right), so that the first
// error is that of the first failing cell in that order.
func (fo *folder) foldRow(r []binder.Expr, order []int) ([]binder.Expr, bool, error) {
	if order == nil || len(order) != len(r) {
		return fo.foldList(r)
	}
	var out []binder.Expr
	for _, i := range order {
		f, err := fo.foldTop(r[i])
		if err != nil {
			return nil, false, err
		}
		if f != r[i] && out == nil {
			out = append([]binder.Expr(nil), r...)
		}
		if out != nil {
			out[i] = f
		}
	}
	if out == nil {
		return r, false, nil
	}
	return out, true, nil
}
