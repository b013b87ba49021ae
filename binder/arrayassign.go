package binder

import (
	"strings"

	"github.com/sqlgate/sqlgate/functions"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Subscripted assignment targets: UPDATE's (ON CONFLICT DO UPDATE's,
// MERGE's) SET col[i] = x, col[lo:hi] = arr, col[i][j] = x
// (pt.Assignment.Target). As PostgreSQL's transformAssignmentIndirection
// does, the subscripts are bound over the statement's scope and the value
// is converted to the array's element type (to the array type when a
// subscript is a slice); several such items on one column apply in the
// order written, each over the one before (rewriteTargetListIU's
// process_matched_tle), the first over the column's old value. The array
// itself is built by functions.ArrayAssignKernel.

// subscriptedStep is one subscripted item bound: its subscripts' bounds
// (omitted slice bounds have none), what each subscript is, and its value
// converted.
type subscriptedStep struct {
	bounds []Expr
	subs   []functions.AssignSubscript
	value  Expr
	// srcDims: a slice's source's dimensions
	srcDims int
}

// sourceDims is the number of dimensions of a slice's source value e: its
// array type's, or for an unknown literal the braces it opens with (0:
// not known).
func sourceDims(e Expr) int {
	if t := e.Type(); t.Kind == types.Array {
		return arrayDims(t)
	}
	c, ok := e.(*Const)
	if !ok || !isUnknown(c.T) {
		return 0
	}
	text, ok := c.Value.(string)
	if !ok {
		return 0
	}
	d := 0
	for _, r := range text {
		switch r {
		case '{':
			d++
		case ' ', '\t', '\n', '\r', '\v', '\f':
		default:
			return d
		}
	}
	return d
}

// bindSubscriptedTarget binds a's target subscripts over s and converts
// value, a.Value bound, for the array column of type colType.
func (b *binder) bindSubscriptedTarget(s *scope, a *pt.Assignment, value Expr, colType types.T, table string) (*subscriptedStep, error) {
	if colType.Kind != types.Array {
		return nil, b.errAt(a, sqlerr.New(sqlerr.DatatypeMismatch, "cannot subscript type %s because it does not support subscripting", colType.PGName()))
	}
	_, chain := subscriptChain(a.Target)
	step := &subscriptedStep{}
	bind := func(n pt.Expr) error {
		e, err := b.bindTree(s, n)
		if err == nil {
			e, err = b.subscriptIndex(n, e)
		}
		if err != nil {
			return err
		}
		step.bounds = append(step.bounds, e)
		return nil
	}
	slice := false
	for _, f := range chain {
		var sub functions.AssignSubscript
		switch f := f.(type) {
		case *pt.Slice:
			sub.Slice, slice = true, true
			if f.Lo != nil {
				if err := bind(f.Lo); err != nil {
					return nil, err
				}
				sub.HasLo = true
			}
			if f.Hi != nil {
				if err := bind(f.Hi); err != nil {
					return nil, err
				}
				sub.HasHi = true
			}
		case *pt.Subscript:
			if err := bind(f.Index); err != nil {
				return nil, err
			}
		}
		step.subs = append(step.subs, sub)
	}
	want := functions.ArrayLeaf(colType)
	if slice {
		// a slice's source is an array of the element type of any number
		// of dimensions (int[] is int[][] in PostgreSQL), read in storage
		// order: of its own dimensions here
		want = colType
		if d := sourceDims(value); d > 0 && d != arrayDims(colType) {
			want = arrayOfDims(functions.ArrayLeaf(colType), d)
		}
		step.srcDims = arrayDims(want)
	}
	v, err := b.assign(a.Value, value, a.Column, want, table)
	if err != nil {
		if e := sqlerr.As(err); e != nil && e.Code == sqlerr.DatatypeMismatch && strings.HasPrefix(e.Message, "column ") {
			return nil, b.errAt(a, sqlerr.New(sqlerr.DatatypeMismatch, "subscripted assignment to %q requires type %s but expression is of type %s", a.Column, want.PGName(), value.Type().PGName()).
				WithHint("You will need to rewrite or cast the expression."))
		}
		return nil, err
	}
	step.value = v
	return step, nil
}

// applySubscripted is base, an array of type t, with step's value
// assigned at its subscripts.
func applySubscripted(base Expr, step *subscriptedStep, t types.T) Expr {
	args := append([]Expr{base, step.value}, step.bounds...)
	return &FuncCall{Name: "array_assign", Args: args, T: t.Nullable(), Kernel: functions.ArrayAssignKernel(t, step.subs, step.srcDims)}
}

// sameColumnItems groups the assignments of list by the column each
// names (at[k]): for each column, the items in order, the first refused
// (42601) when a column is named twice and either item is no subscripted
// one. cols is the table's column count.
func (b *binder) sameColumnItems(list []*pt.Assignment, at []int, cols int) ([][]int, error) {
	named := make([][]int, cols)
	for k, a := range list {
		if prev := named[at[k]]; len(prev) > 0 && (a.Target == nil || list[prev[0]].Target == nil) {
			return nil, b.errAt(a, sqlerr.New(sqlerr.SyntaxError, "multiple assignments to same column %q", a.Column))
		}
		named[at[k]] = append(named[at[k]], k)
	}
	return named, nil
}
