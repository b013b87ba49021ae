package relop

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// ---- bit_and / bit_or / bit_xor ----

// bitAcc is PostgreSQL's bit_and, bit_or and bit_xor over smallint,
// integer and bigint: the bitwise fold of the non-NULL values, in the
// argument's type, NULL for a group with none.
type bitAcc struct {
	arg   int
	op    byte // '&', '|' or '#'
	out   arrow.DataType
	state []int64
	seen  []bool
}

func (a *bitAcc) resize(n int) { a.state, a.seen = grow(a.state, n), grow(a.seen, n) }
func (a *bitAcc) size() int64  { return int64(cap(a.state)) * 9 }
func (a *bitAcc) update(cols []arrow.Array, groups []uint32, rows []int32) error {
	var get func(int) int64
	switch x := cols[a.arg].(type) {
	case *array.Int16:
		get = func(i int) int64 { return int64(x.Value(i)) }
	case *array.Int32:
		get = func(i int) int64 { return int64(x.Value(i)) }
	case *array.Int64:
		get = x.Value
	}
	x := cols[a.arg]
	forRows(len(groups), rows, func(i int) {
		if x.IsNull(i) {
			return
		}
		g, v := groups[i], get(i)
		switch {
		case !a.seen[g]:
			a.state[g], a.seen[g] = v, true
		case a.op == '&':
			a.state[g] &= v
		case a.op == '|':
			a.state[g] |= v
		default:
			a.state[g] ^= v
		}
	})
	return nil
}
func (a *bitAcc) finish(mem memory.Allocator, groups []uint32) (arrow.Array, error) {
	b := array.NewBuilder(mem, a.out)
	defer b.Release()
	for _, g := range groups {
		if !a.seen[g] {
			b.AppendNull()
			continue
		}
		switch x := b.(type) {
		case *array.Int16Builder:
			x.Append(int16(a.state[g]))
		case *array.Int32Builder:
			x.Append(int32(a.state[g]))
		case *array.Int64Builder:
			x.Append(a.state[g])
		}
	}
	return b.NewArray(), nil
}

// isBitAggArg reports whether bit_and/bit_or/bit_xor take t.
func isBitAggArg(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT16, arrow.INT32, arrow.INT64:
		return true
	}
	return false
}
