package engine

import "testing"

// TestPlainIndexColumn: CREATE UNIQUE INDEX's elements that are a column
// (with an ordering, which a unique index's equality ignores) and those
// that are not (an expression, refused).
func TestPlainIndexColumn(t *testing.T) {
	for _, c := range []struct {
		text string
		name string
		ok   bool
	}{
		{"a", "a", true},
		{"A DESC", "a", true},
		{`"Mixed Case"`, "Mixed Case", true},
		{"b ASC NULLS FIRST", "b", true},
		{"lower(b)", "", false},
		{"(a + 1)", "", false},
		{"a COLLATE \"C\"", "", false},
	} {
		name, ok := plainIndexColumn(c.text)
		if name != c.name || ok != c.ok {
			t.Errorf("plainIndexColumn(%q) = %q, %v; want %q, %v", c.text, name, ok, c.name, c.ok)
		}
	}
}

// TestUniqueKeyText: the value texts an index compares are distinct for
// distinct values of every kind (and "" for a null).
func TestUniqueKeyText(t *testing.T) {
	u := &uniqueTable{}
	seen := map[string][]any{}
	for _, vals := range [][]any{
		// (one column's values are all of one type: int32(1) and int64(1)
		// never meet)
		{int64(1), "x"}, {int64(1), "x\x00"}, {int64(11), ""}, {int64(1), "1x"},
		{"1", "x"}, {1.5, "x"}, {true, "x"}, {"i1", "x"},
	} {
		k := u.keyOf(vals, []int{0, 1})
		if prev, dup := seen[k]; dup {
			t.Errorf("%v and %v have one key text %q", prev, vals, k)
		}
		seen[k] = vals
	}
	if k := u.keyOf([]any{int64(1), nil}, []int{0, 1}); k != "" {
		t.Errorf("a null's key text is %q, want none", k)
	}
}
