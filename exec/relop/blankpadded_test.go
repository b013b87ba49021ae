package relop

import (
	"bytes"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// TestBlankPaddedKeyEncoding: a bpchar key (SortKey.BlankPadded) encodes
// values that differ only in trailing blanks alike, in both orders, as a
// scalar and as an array's elements, and keeps every other difference
// (a leading blank, a tab, a NUL); a text key keeps the blanks.
func TestBlankPaddedKeyEncoding(t *testing.T) {
	t.Parallel()
	cases := []struct {
		x, y   string
		padded bool
		equal  bool
	}{
		{"a", "a  ", true, true},
		{"", "   ", true, true},
		{"a", "a  ", false, false},
		{"a", " a", true, false},
		{"a\t", "a", true, false},
		{"a\x00", "a", true, false},
		{"a b", "a b ", true, true},
		{"a b", "ab", true, false},
	}
	for _, c := range cases {
		for _, desc := range []bool{false, true} {
			k := SortKey{Desc: desc, Form: formOf(c.padded)}
			scalar := encodePair(t, stringArray(c.x, c.y), k)
			list := encodePair(t, stringListArray([]string{c.x, "z"}, []string{c.y, "z"}), k)
			for what, enc := range map[string][2][]byte{"scalar": scalar, "array": list} {
				if got := bytes.Equal(enc[0], enc[1]); got != c.equal {
					t.Errorf("%s %q vs %q padded=%v desc=%v: equal %v, want %v", what, c.x, c.y, c.padded, desc, got, c.equal)
				}
			}
		}
	}
}

// TestBlankPaddedOperators: every keyed operator told that its key is
// bpchar makes 'a' and 'a  ' one key (the aggregation in memory and
// spilled), and keeps them two when it is text.
func TestBlankPaddedOperators(t *testing.T) {
	t.Parallel()
	in := schemaOf(types.StringType, types.Int32Type)
	rows := [][]any{{"a", 1}, {"a  ", 2}, {"b", 4}, {"a ", 8}, {nil, 16}}
	right := [][]any{{"a", 1}, {"a", 2}, {"c", 4}}
	aggs := []AggSpec{agg("count", -1), agg("sum", 1)}
	out := outSchema(t, []types.T{types.StringType, types.Int32Type}, []int{0}, aggs)
	for _, padded := range []bool{false, true} {
		flags := []types.KeyForm{formOf(padded)}
		groupsWant, distinctWant, interWant, exceptWant := 5, 5, 1, 4
		if padded {
			groupsWant, distinctWant, interWant, exceptWant = 3, 3, 2, 3
		}
		for _, spill := range []bool{false, true} {
			op := &HashAggregate{Input: rowsSource(t, in, rows, 2), GroupBy: []int{0}, Forms: flags, Aggs: aggs, Out: out}
			if spill {
				op.Mem, op.SpillDir = NewMemoryAccount(1<<8), tempDir(t)
			}
			if got := len(drain(t, op)); got != groupsWant {
				t.Errorf("aggregate padded=%v spill=%v: %d groups, want %d", padded, spill, got, groupsWant)
			}
		}
		d := &Distinct{Input: rowsSource(t, in, rows, 2), Columns: []int{0}, Forms: flags}
		if got := len(drain(t, d)); got != distinctWant {
			t.Errorf("distinct padded=%v: %d rows, want %d", padded, got, distinctWant)
		}
		both := []types.KeyForm{formOf(padded), types.KeyAsStored}
		key := func(r [][]any) [][]any { // the key column only, for the set operations
			out := make([][]any, len(r))
			for i, x := range r {
				out[i] = []any{x[0], 0}
			}
			return out
		}
		for kind, want := range map[SetOpKind]int{Intersect: interWant, Except: exceptWant} {
			s := &SetOp{Left: rowsSource(t, in, key(rows), 2), Right: rowsSource(t, in, key(right), 2), Kind: kind, All: true, Forms: both}
			if got := len(drain(t, s)); got != want {
				t.Errorf("set operation %d ALL padded=%v: %d rows, want %d", kind, padded, got, want)
			}
		}
	}
}

func encodePair(t *testing.T, a arrow.Array, k SortKey) [2][]byte {
	t.Helper()
	defer a.Release()
	out := [][]byte{nil, nil}
	if err := encodeColumn(a, k, out); err != nil {
		t.Fatal(err)
	}
	return [2][]byte{out[0], out[1]}
}

func stringArray(vs ...string) arrow.Array {
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues(vs, nil)
	return b.NewArray()
}

func stringListArray(lists ...[]string) arrow.Array {
	b := array.NewListBuilder(memory.DefaultAllocator, arrow.BinaryTypes.String)
	defer b.Release()
	vb := b.ValueBuilder().(*array.StringBuilder)
	for _, l := range lists {
		b.Append(true)
		vb.AppendValues(slices.Clone(l), nil)
	}
	return b.NewArray()
}

// formOf is the key form of a bpchar key (padded) or a text key.
func formOf(padded bool) types.KeyForm {
	if padded {
		return types.KeyBlankPadded
	}
	return types.KeyAsStored
}
