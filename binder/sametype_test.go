package binder

import (
	"testing"

	"github.com/sqlgate/sqlgate/types"
)

// TestSameTypeIsEqual checks SameType against types.T.Equal on every pair
// of a set of scalar and nested types, NOT NULL and variants included.
func TestSameTypeIsEqual(t *testing.T) {
	i32, str := types.Int32Type, types.StringType
	notNull := types.Int32Type
	notNull.NotNull = true
	ts := []types.T{
		i32, notNull, types.Int64Type, str, types.BoolType, types.UnknownType, types.NullType,
		{Kind: types.String, Length: 20}, {Kind: types.String, Length: -1},
		{Kind: types.Decimal, Precision: 10, Scale: 2}, {Kind: types.Decimal, Precision: 10, Scale: 3}, {Kind: types.Decimal, Scale: 2},
		{Kind: types.Timestamp, Precision: 3}, {Kind: types.Timestamp, Precision: 6},
		{Kind: types.String, Variant: types.JSON}, {Kind: types.String, Variant: types.JSONB},
		{Kind: types.Array, Elem: &i32}, {Kind: types.Array, Elem: &notNull}, {Kind: types.Array, Elem: &str},
		{Kind: types.Map, Key: &str, Elem: &i32}, {Kind: types.Map, Key: &i32, Elem: &i32},
		{Kind: types.Row, Fields: []types.Field{{Name: "a", Type: i32}}}, {Kind: types.Row, Fields: []types.Field{{Name: "b", Type: i32}}},
		{Kind: types.Row},
	}
	for i := range ts {
		for j := range ts {
			if got, want := SameType(&ts[i], &ts[j]), ts[i].Equal(ts[j]); got != want {
				t.Errorf("SameType(%s, %s) = %v, Equal says %v", ts[i], ts[j], got, want)
			}
		}
	}
}
