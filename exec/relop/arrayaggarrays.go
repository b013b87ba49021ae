package relop

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// array_agg(anyarray) (AggSpec.Arrays) stacks arrays into an array of one
// more dimension, so PostgreSQL's array_agg_array_transfn refuses, in the
// order the rows are aggregated: a NULL array (22004), an empty first
// array, and an array whose length differs from the first's (2202E).
// json_agg and the ordered-set aggregates, which the binder also builds
// on array_agg, keep NULLs and do not set the flag.

// An array of several dimensions (a nested list) is one array in
// PostgreSQL: its dimensions, not its outer length, must be the first's
// ({{1}} and {{1,2,3}} do not stack).

// Without ORDER BY or DISTINCT, PostgreSQL's transition function applies
// them as each row comes (advance_aggregates), so the accumulator checks
// each row as it takes it (collectAcc.rowChecks) and its error names the
// row (rowError): the statement's error is the first row's, and for one
// row the first aggregate's (HashAggregate.consumeBatch). Sorted rows
// (ORDER BY, DISTINCT) are checked when the group finishes, in their
// sorted order (groupfinish.go).

// checkStackable applies those rules to one group's rows, in order.
func (a *collectAcc) checkStackable(refs []rowRef) error {
	var st stacking
	for _, ref := range refs {
		l, ok := a.srcArg[ref.b].(*array.List)
		if !ok {
			return nil
		}
		if err := st.next(l, int(ref.r)); err != nil {
			return err
		}
	}
	return nil
}

// stacking is what those rules remember of a group's rows so far: the
// first array's length, or its dimensions when it has several.
type stacking struct {
	seen      bool
	first     int
	firstDims []int
}

// next applies the rules to row i of l, the group's next row.
func (s *stacking) next(l *array.List, i int) error {
	if l.IsNull(i) {
		return sqlerr.New(sqlerr.NullValueNotAllowed, "cannot accumulate null arrays")
	}
	if depth := listDepth(l.DataType()); depth > 1 {
		v, _ := types.ValueAt(l, i).([]any)
		dims := types.ArrayDims(v, depth)
		switch {
		case !s.seen && len(dims) == 0:
			return sqlerr.New(sqlerr.Code("2202E"), "cannot accumulate empty arrays")
		case !s.seen:
			s.seen, s.firstDims = true, dims
		case !slices.Equal(dims, s.firstDims):
			return sqlerr.New(sqlerr.Code("2202E"), "cannot accumulate arrays of different dimensionality")
		}
		return nil
	}
	start, end := l.ValueOffsets(i)
	n := int(end - start)
	switch {
	case !s.seen && n == 0:
		return sqlerr.New(sqlerr.Code("2202E"), "cannot accumulate empty arrays")
	case !s.seen:
		s.seen, s.first = true, n
	case n != s.first:
		return sqlerr.New(sqlerr.Code("2202E"), "cannot accumulate arrays of different dimensionality")
	}
	return nil
}

// isListType reports whether t is an Arrow list (a SQL array).
func isListType(t arrow.DataType) bool {
	_, ok := t.(*arrow.ListType)
	return ok
}

// listDepth is the number of dimensions of list type t (2 for a list of
// lists).
func listDepth(t arrow.DataType) int {
	d := 0
	for {
		lt, ok := t.(*arrow.ListType)
		if !ok {
			return d
		}
		d, t = d+1, lt.Elem()
	}
}
