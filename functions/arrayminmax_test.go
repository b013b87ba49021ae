package functions

import (
	"reflect"
	"testing"

	"github.com/sqlgate/sqlgate/types"
)

// TestArrayMinMax: pg__array_min and pg__array_max over the arrays one
// group collected (array_agg), in PostgreSQL's array order.
func TestArrayMinMax(t *testing.T) {
	ints := types.ArrayOf(types.Int32Type)
	of := types.ArrayOf(ints)
	a := func(vs ...any) []any { return vs }
	one, two, three := int64(1), int64(2), int64(3)
	for _, tc := range []struct {
		items    any
		min, max any
	}{
		{a(a(one, two), a(one), a(two)), a(one), a(two)},
		{a(a(one, nil), a(one, three)), a(one, three), a(one, nil)},
		{a(nil, a(three), nil), a(three), a(three)},
		{a(nil, nil), nil, nil},
		{a([]any{}, a(one)), []any{}, a(one)},
		{nil, nil, nil},
	} {
		for fn, want := range map[string]any{"pg__array_min": tc.min, "pg__array_max": tc.max} {
			fs := Lookup(fn)
			if len(fs) != 1 {
				t.Fatalf("%s: %d overloads", fn, len(fs))
			}
			ret, k := fs[0].Bind([]types.T{of}, nil)
			if !ret.Equal(ints) {
				t.Errorf("%s: result type %s, want %s", fn, ret, ints)
			}
			if got := runKernel(t, k, ret, []types.T{of}, tc.items); !reflect.DeepEqual(got, want) {
				t.Errorf("%s(%v) = %#v, want %#v", fn, tc.items, got, want)
			}
		}
	}
}
