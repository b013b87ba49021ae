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

// pullUpValues rewrites each single-row VALUES list below n (not n
// itself, whose every column is read) into a projection of its row over
// the one empty row, as PostgreSQL's pull_up_simple_values replaces such
// a VALUES by a RESULT and substitutes its expressions into the query
// above: the row's cells are then a derived table's outputs, folded late
// and computed only when read (SELECT a FROM (VALUES (1, 1/0)) v(a, b) is
// 1). A list with a volatile cell stays (is_simple_values), and so does
// one whose cells fold in an order of their own (an INSERT's, FoldOrder).
// A VALUES list of several rows is a Values Scan in PostgreSQL, which
// computes every cell of the rows it reads.
func pullUpValues(n binder.Node) binder.Node {
	return rewriteChildren(n, pullUpValuesAt)
}

func pullUpValuesAt(n binder.Node) binder.Node {
	v, ok := n.(*binder.Values)
	if !ok {
		return pullUpValues(n)
	}
	if len(v.Rows) != 1 || len(v.Cols) == 0 || v.FoldOrder != nil || len(v.Rows[0]) != len(v.Cols) {
		return v
	}
	for _, e := range v.Rows[0] {
		if mustCompute(e) {
			return v
		}
	}
	return &binder.Project{Input: &binder.Values{Rows: [][]binder.Expr{{}}}, Exprs: v.Rows[0], Cols: v.Cols}
}
