package relop

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sqlgate/sqlgate/types"
)

// TestTextKeysShortAndLong: one text group key whose values of at most 7
// bytes are looked up as words (shortKey) and longer ones by their bytes:
// values that differ only by a trailing NUL byte or by length, the empty
// string, 7- and 8-byte values and NULL each are one group, in memory and
// when new groups spill (the lookup without insertion), against counts and
// sums made here.
func TestTextKeysShortAndLong(t *testing.T) {
	t.Parallel()
	keys := []any{"", "a", "a\x00", "\x00", "ab", "abcdefg", "abcdefh", "abcdefgh", "abcdefg\x00", "a longer country name", "é", nil}
	rng := rand.New(rand.NewPCG(3, 3))
	var rows [][]any
	counts, sums := map[string]int64{}, map[string]int64{}
	for i := range 5000 {
		k := keys[rng.IntN(len(keys))]
		// a batch of a few keys first, so that later batches bring new ones
		if i < 300 {
			k = keys[i%3]
		}
		v := rng.IntN(1000)
		rows = append(rows, []any{k, v})
		name := fmt.Sprintf("%q", k)
		if k == nil {
			name = "NULL"
		}
		counts[name]++
		sums[name] += int64(v)
	}
	in := schemaOf(types.StringType, types.Int32Type)
	aggs := []AggSpec{agg("count", -1), agg("sum", 1)}
	out := outSchema(t, []types.T{types.StringType, types.Int32Type}, []int{0}, aggs)
	for _, spill := range []bool{false, true} {
		op := &HashAggregate{Input: rowsSource(t, in, rows, 100), GroupBy: []int{0}, Aggs: aggs, Out: out}
		if spill {
			op.Mem, op.SpillDir = NewMemoryAccount(1<<10), tempDir(t)
		}
		got := map[string]string{}
		for _, r := range drain(t, op) {
			var k string
			var c, s int64
			// the key may hold | and NUL: split from the right
			j := len(r)
			for n := 0; n < 2; n++ {
				for j--; r[j] != '|'; j-- {
				}
			}
			k = r[:j]
			if _, err := fmt.Sscanf(r[j:], "|%d|%d", &c, &s); err != nil {
				t.Fatalf("row %q: %v", r, err)
			}
			if k != "NULL" {
				k = fmt.Sprintf("%q", k)
			}
			if _, dup := got[k]; dup {
				t.Fatalf("spill=%v: key %s twice", spill, k)
			}
			got[k] = fmt.Sprintf("%d|%d", c, s)
		}
		if len(got) != len(counts) {
			t.Fatalf("spill=%v: %d groups, want %d: %v", spill, len(got), len(counts), got)
		}
		for k, c := range counts {
			if want := fmt.Sprintf("%d|%d", c, sums[k]); got[k] != want {
				t.Errorf("spill=%v: key %s: %s, want %s", spill, k, got[k], want)
			}
		}
		if spill && !op.Spilled() {
			t.Errorf("expected a spill with a 1 KiB limit")
		}
	}
}
