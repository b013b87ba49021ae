package types

import "testing"

// TestSame checks T.Same (and Equal, which is Same of a copy) on every pair
// of a set of scalar and nested types, NOT NULL and variants included: a
// type is the same only as itself, except that a top-level NOT NULL does
// not count (a nested one does).
func TestSame(t *testing.T) {
	i32, str := Int32Type, StringType
	notNull := Int32Type
	notNull.NotNull = true
	ts := []T{
		i32, notNull, Int64Type, str, BoolType, UnknownType, NullType,
		{Kind: String, Length: 20}, {Kind: String, Length: -1},
		{Kind: Decimal, Precision: 10, Scale: 2}, {Kind: Decimal, Precision: 10, Scale: 3}, {Kind: Decimal, Scale: 2},
		{Kind: Timestamp, Precision: 3}, {Kind: Timestamp, Precision: 6},
		{Kind: String, Variant: JSON}, {Kind: String, Variant: JSONB},
		{Kind: Array, Elem: &i32}, {Kind: Array, Elem: &notNull}, {Kind: Array, Elem: &str},
		{Kind: Map, Key: &str, Elem: &i32}, {Kind: Map, Key: &i32, Elem: &i32},
		{Kind: Row, Fields: []Field{{Name: "a", Type: i32}}}, {Kind: Row, Fields: []Field{{Name: "b", Type: i32}}},
		{Kind: Row},
	}
	for i := range ts {
		for j := range ts {
			want := i == j || i <= 1 && j <= 1 // ts[0] and ts[1] differ only by NOT NULL
			if got := ts[i].Same(&ts[j]); got != want {
				t.Errorf("%s.Same(%s) = %v, want %v", ts[i], ts[j], got, want)
			}
			if got := ts[i].Equal(ts[j]); got != want {
				t.Errorf("%s.Equal(%s) = %v, want %v", ts[i], ts[j], got, want)
			}
		}
	}
}
