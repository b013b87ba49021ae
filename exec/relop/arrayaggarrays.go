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

// checkStackable applies those rules to one group's rows, in order.
func (a *collectAcc) checkStackable(refs []rowRef) error {
	first := -1
	var firstDims []int
	for _, ref := range refs {
		l, ok := a.srcArg[ref.b].(*array.List)
		if !ok {
			return nil
		}
		i := int(ref.r)
		if l.IsNull(i) {
			return sqlerr.New(sqlerr.NullValueNotAllowed, "cannot accumulate null arrays")
		}
		if depth := listDepth(l.DataType()); depth > 1 {
			v, _ := types.ValueAt(l, i).([]any)
			dims := types.ArrayDims(v, depth)
			switch {
			case firstDims == nil && len(dims) == 0:
				return sqlerr.New(sqlerr.Code("2202E"), "cannot accumulate empty arrays")
			case firstDims == nil:
				firstDims = dims
			case !slices.Equal(dims, firstDims):
				return sqlerr.New(sqlerr.Code("2202E"), "cannot accumulate arrays of different dimensionality")
			}
			continue
		}
		start, end := l.ValueOffsets(i)
		n := int(end - start)
		switch {
		case first < 0 && n == 0:
			return sqlerr.New(sqlerr.Code("2202E"), "cannot accumulate empty arrays")
		case first < 0:
			first = n
		case n != first:
			return sqlerr.New(sqlerr.Code("2202E"), "cannot accumulate arrays of different dimensionality")
		}
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
