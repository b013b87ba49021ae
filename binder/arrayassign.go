package binder

import (
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
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

// applySubscripted is base, an array of type t, with steps' values
// assigned at their subscripts in order: one call, so that an item may
// leave for the next an array that starts at another subscript than 1
// (functions/arrayassign.go).
func applySubscripted(base Expr, steps []*subscriptedStep, t types.T) Expr {
	args := []Expr{base}
	ks := make([]functions.AssignStep, len(steps))
	for i, st := range steps {
		args = append(append(args, st.value), st.bounds...)
		ks[i] = functions.AssignStep{Subs: st.subs, SrcDims: st.srcDims}
	}
	return &FuncCall{Name: "array_assign", Args: args, T: t.Nullable(), Kernel: functions.ArrayAssignKernel(t, ks)}
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

// mergeSubscriptedInsert merges INSERT INTO t (.., col[i], col[j], ..)
// VALUES ..'s items of one column (the rewrite's tree.SubscriptedValue
// cells) into one column whose cell applies them in order over a NULL
// array, as PostgreSQL's rewriter does (process_matched_tle); a column
// named twice where either is no subscripted item is 42701, at the
// second. ins itself is left as it is (a prepared statement binds its
// tree again).
func (b *binder) mergeSubscriptedInsert(ins *pt.Insert) (*pt.Insert, error) {
	if len(ins.Rows) == 0 || len(ins.Columns) == 0 {
		return ins, nil
	}
	width := len(ins.Columns)
	subscripted := make([]bool, width)
	found := false
	for _, row := range ins.Rows {
		if len(row) != width {
			return ins, nil // the count is refused as usual
		}
	}
	for k, cell := range ins.Rows[0] {
		_, subscripted[k] = cell.(*pt.SubscriptedValue)
		found = found || subscripted[k]
	}
	if !found {
		return ins, nil
	}
	first := map[string]int{} // column name -> its first position
	keep := make([]bool, width)
	for k, c := range ins.Columns {
		j, seen := first[c.Name]
		if !seen {
			first[c.Name], keep[k] = k, true
			continue
		}
		if !subscripted[k] || !subscripted[j] {
			return nil, b.errAt(c, sqlerr.New(sqlerr.DuplicateColumn, "column %q specified more than once", c.Name))
		}
	}
	out := *ins
	out.Columns = nil
	for k, c := range ins.Columns {
		if keep[k] {
			out.Columns = append(out.Columns, c)
		}
	}
	out.Rows = make([][]pt.Expr, len(ins.Rows))
	for r, row := range ins.Rows {
		merged := make(map[string]pt.Expr, width)
		for k, cell := range row {
			name := ins.Columns[k].Name
			sv, ok := cell.(*pt.SubscriptedValue)
			if !ok {
				merged[name] = cell
				continue
			}
			merged[name] = &pt.SubscriptedValue{At: sv.At, Column: name, Target: sv.Target, Value: sv.Value, Base: merged[name]}
		}
		for _, c := range out.Columns {
			out.Rows[r] = append(out.Rows[r], merged[c.Name])
		}
	}
	return &out, nil
}

// bindSubscriptedValue binds a merged INSERT cell (mergeSubscriptedInsert):
// its Value assigned at its Target of its Base, a NULL array of the
// column's type when none.
func (b *binder) bindSubscriptedValue(s *scope, n *pt.SubscriptedValue) (Expr, error) {
	into := b.assignInto
	if into == nil {
		return nil, b.errAt(n, sqlerr.New(sqlerr.SyntaxError, "syntax error at or near %q", "["))
	}
	info := into.Table
	idx := info.ColumnIndex(n.Column)
	if idx < 0 {
		return nil, b.errAt(n, sqlerr.New(sqlerr.UndefinedColumn, "column %q of relation %q does not exist", n.Column, info.Path.Table))
	}
	colType := info.Descriptor.Schema.Columns[idx].Type
	var chain []*pt.SubscriptedValue // the column's items, first first
	for e := pt.Expr(n); e != nil; {
		sv, ok := e.(*pt.SubscriptedValue)
		if !ok {
			break
		}
		chain = append([]*pt.SubscriptedValue{sv}, chain...)
		e = sv.Base
	}
	steps := make([]*subscriptedStep, len(chain))
	for i, sv := range chain {
		v, err := b.bindTree(s, sv.Value)
		if err != nil {
			return nil, err
		}
		a := &pt.Assignment{At: sv.At, Column: sv.Column, Value: sv.Value, Target: sv.Target}
		if steps[i], err = b.bindSubscriptedTarget(s, a, v, colType, info.Path.Table); err != nil {
			return nil, err
		}
	}
	return applySubscripted(&Const{T: colType.Nullable()}, steps, colType), nil
}

// fieldTargetError refuses SET c.f = x, which PostgreSQL reads as an
// assignment to field f of column c: 42703 when c is no column of the
// table, else 0A000 (composite field targets are not there yet).
func fieldTargetError(b *binder, a *pt.Assignment, info fluss.TableInfo) error {
	if info.ColumnIndex(a.Table) < 0 {
		return b.errAt(a, sqlerr.New(sqlerr.UndefinedColumn, "column %q of relation %q does not exist", a.Table, info.Path.Table))
	}
	return b.errAt(a, sqlerr.NotSupported("assignment to a field of a composite column"))
}
