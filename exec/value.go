package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// valueAt returns row i of a as the physical value of its type.
func valueAt(a arrow.Array, i int) any { return types.ValueAt(a, i) }

// appendValue appends a physical value to a builder of its type. The
// planner typed every value, so a mismatch is a bug: it panics, and the
// wire server turns the panic into XX000 for that statement.
func appendValue(b array.Builder, v any) {
	if err := types.AppendValue(b, v); err != nil {
		panic(err)
	}
}

// constArray returns an array of n copies of v typed t.
func constArray(mem memory.Allocator, v any, t types.T, n int) arrow.Array {
	a, err := types.ConstArray(mem, v, t, n)
	if err != nil {
		panic(err)
	}
	return a
}
