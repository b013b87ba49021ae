package relop

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// sortedFloats holds a DISTINCT float aggregate's values (sum, avg and
// the variance family) until its groups finish, then feeds them to the
// aggregate in ascending order (NaN last). PostgreSQL removes duplicates
// by sorting, so its float8_accum and float8pl meet the values sorted:
// the additions round in that order, and an overflow of finite values
// is an error only where the sorted order reaches one (avg(DISTINCT x)
// over 1e308, -1e308 and -Infinity is NaN, not 22003, because -Infinity
// comes first).
type sortedFloats struct {
	is32 bool
	vals [][]float64
	fed  []bool
}

func (s *sortedFloats) resize(n int) { s.vals, s.fed = grow(s.vals, n), grow(s.fed, n) }

// add keeps the values of rows sel of arr (float4 or float8) for their
// groups.
func (s *sortedFloats) add(arr arrow.Array, groups []uint32, sel []int32) {
	for _, i := range sel {
		if arr.IsNull(int(i)) {
			continue // the aggregates skip NULLs
		}
		var v float64
		switch x := arr.(type) {
		case *array.Float32:
			v = float64(x.Value(int(i)))
		case *array.Float64:
			v = x.Value(int(i))
		}
		g := groups[i]
		s.vals[g] = append(s.vals[g], v)
	}
}

// feed passes the values of the groups not yet fed to inner, each
// group's sorted, as one column at position arg.
func (s *sortedFloats) feed(mem memory.Allocator, inner accumulator, arg int, groups []uint32) error {
	var b array.Builder
	var app func(float64)
	if s.is32 {
		fb := array.NewFloat32Builder(mem)
		b, app = fb, func(v float64) { fb.Append(float32(v)) }
	} else {
		fb := array.NewFloat64Builder(mem)
		b, app = fb, fb.Append
	}
	defer b.Release()
	var of []uint32
	for _, g := range groups {
		if s.fed[g] {
			continue
		}
		s.fed[g] = true
		vs := s.vals[g]
		slices.SortFunc(vs, types.CompareFloat64)
		for _, v := range vs {
			app(v)
			of = append(of, g)
		}
		s.vals[g] = nil
	}
	if len(of) == 0 {
		return nil
	}
	col := b.NewArray()
	defer col.Release()
	cols := make([]arrow.Array, arg+1)
	cols[arg] = col
	return inner.update(cols, of, nil)
}
