package relop

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// The keys added in pieces come back in order from flatKeys, in segments
// filled one after the other (no key is copied twice) whose unused room is
// at most a quarter of the keys, or 1,024 keys.
func TestJoinTableAppendKeys(t *testing.T) {
	for _, pieces := range [][]int{
		{1},
		{1024, 1},
		{8192, 8192, 8192, 8192, 8192, 8192, 8192, 17},
		{3, 5000, 1, 70000, 2, 9},
		{0, 0, 4},
	} {
		t.Run(fmt.Sprint(pieces), func(t *testing.T) {
			var jt joinTable
			var want []int64
			for _, m := range pieces {
				ks := make([]int64, m)
				for i := range ks {
					ks[i] = int64(len(want) + i)
				}
				want = append(want, ks...)
				jt.add(ks, nil)
			}
			if jt.nkeys != len(want) || !slices.Equal(jt.flatKeys(), want) {
				t.Fatalf("nkeys %d, keys %v", jt.nkeys, jt.flatKeys())
			}
			room := 0
			for i, seg := range jt.keys {
				room += cap(seg)
				if i < len(jt.keys)-1 && len(seg) != cap(seg) {
					t.Fatalf("segment %d left with room: %d of %d", i, len(seg), cap(seg))
				}
			}
			if room > len(want)+max(len(want)/4, 1024) {
				t.Fatalf("capacity %d for %d keys", room, len(want))
			}
		})
	}
}

// TestRadixPartSizes: each partition's table has compactCap of its
// distinct keys' slots, whether the distinct keys per row foreseen from the
// partitions before it were right, too few (a partition of distinct keys
// after one of a single key: built again) or too many (the other way
// round: compacted), and finds every key's rows.
func TestRadixPartSizes(t *testing.T) {
	cfg := radixConfig{minBuild: 2, partRows: 64, minProbe: 128, maxChunk: 2000}
	const n = 64 * 16 // 16 partitions
	pb := cfg.bits(n)
	part := func(k int64) int { return int((uint64(k) * hashMul) >> (64 - pb)) }
	for _, c := range []struct {
		name string
		dup  func(p int) bool // partition p holds one key, many times
	}{
		{"alternating", func(p int) bool { return p%2 == 0 }},
		{"single key first", func(p int) bool { return p < 3 }},
		{"distinct first", func(p int) bool { return p >= 5 }},
	} {
		t.Run(c.name, func(t *testing.T) {
			var keys []int64
			first := map[int]int64{}
			for k := int64(1); len(keys) < n; k++ {
				p := part(k)
				if c.dup(p) {
					if _, ok := first[p]; !ok {
						first[p] = k
					}
					keys = append(keys, first[p], first[p]) // two rows per new key seen
					continue
				}
				keys = append(keys, k)
			}
			want := map[int64]int{}
			distinct := make([]int, 1<<pb)
			for _, k := range keys {
				if want[k] == 0 {
					distinct[part(k)]++
				}
				want[k]++
			}
			for _, renumber := range []bool{false, true} {
				jt := &joinTable{cfg: &cfg, renumber: renumber}
				jt.add(keys, nil)
				jt.finish()
				for p, d := range distinct {
					if got := len(jt.parts[p].slots); got != compactCap(d) {
						t.Fatalf("partition %d: %d slots for %d keys, want %d", p, got, d, compactCap(d))
					}
				}
				for k, m := range want {
					if _, got := jt.find(k); int(got) != m {
						t.Fatalf("key %d: %d rows, want %d", k, got, m)
					}
				}
			}
		})
	}
}

// TestJoinTableDense: a table whose keys span few values is a dense array
// (finishDense), else the hash table, and either way lookup finds each
// key's non-NULL build rows in build order: unique and duplicated keys,
// negative ones, NULL rows (whose key slot holds a value a probe uses)
// never matching, the int64 extremes and the bounds of denseLimit and of
// the span (denseRatio keys a row) on either side. Every key of the table
// is probed, and the values around it and the int64 extremes.
func TestJoinTableDense(t *testing.T) {
	const null = math.MinInt64 + 12345 // a marker: this row's key is NULL
	seq := func(lo int64, n int) []int64 {
		ks := make([]int64, n)
		for i := range ks {
			ks[i] = lo + int64(i)
		}
		return ks
	}
	for _, c := range []struct {
		name  string
		keys  []int64
		dense bool
		runs  bool
	}{
		{"unique", []int64{5, 1, 4, 2, 3, 9}, true, false},
		{"negative", []int64{-3, -1, 0, 2, -7, 1}, true, false},
		{"duplicates", []int64{3, 3, -1, 7, 3, -1, 0, 3}, true, true},
		{"one key many times", []int64{42, 42, 42, 42}, true, true},
		{"nulls never match", []int64{null, 1, null, 2, 3, null}, true, false},
		{"nulls and duplicates", []int64{2, null, 2, 0, null, 1}, true, true},
		{"all NULL", []int64{null, null}, false, false},
		{"int64 extremes", []int64{math.MaxInt64 - 1, math.MaxInt64, math.MaxInt64}, false, false},
		{"MinInt64", []int64{math.MinInt64, math.MinInt64 + 1}, false, false},
		{"just inside denseLimit", []int64{-denseLimit + 1, -denseLimit + 2}, true, false},
		{"on denseLimit below", []int64{-denseLimit, -denseLimit + 1}, false, false},
		{"just inside denseLimit above", []int64{denseLimit - 2, denseLimit - 1, denseLimit - 1}, true, true},
		{"on denseLimit above", []int64{denseLimit - 1, denseLimit}, false, false},
		// 4 rows spanning 16 keys (denseRatio 4): dense; 17: not
		{"span at the bound", []int64{0, 15, 7, 8}, true, false},
		{"span past the bound", []int64{0, 16, 7, 8}, false, false},
		{"span past the bound, NULLs not counted", []int64{0, 15, 7, 8, null}, true, false},
		{"large", seq(-500, 3000), true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := defaultRadix
			jt := &joinTable{cfg: &cfg}
			want := map[int64][]int32{}
			keys := make([]int64, len(c.keys))
			isNull := make([]bool, len(c.keys))
			for r, k := range c.keys {
				if k == null {
					isNull[r] = true
					keys[r] = 1 // a key a probe looks for
					continue
				}
				keys[r] = k
				want[k] = append(want[k], int32(r))
			}
			// two pieces, each with or without NULLs, as batches
			half := len(keys) / 2
			for _, p := range [][2]int{{0, half}, {half, len(keys)}} {
				var f func(int) bool
				if slices.Contains(isNull[p[0]:p[1]], true) {
					f = func(i int) bool { return isNull[p[0]+i] }
				}
				jt.add(keys[p[0]:p[1]], f)
			}
			jt.finish()
			if (jt.dense != nil) != c.dense || jt.denseRuns != c.runs {
				t.Fatalf("dense %v (runs %v), want %v (%v)", jt.dense != nil, jt.denseRuns, c.dense, c.runs)
			}
			probes := []int64{math.MinInt64, math.MinInt64 + 1, math.MaxInt64, math.MaxInt64 - 1, 0, 1, -1}
			for _, k := range keys {
				probes = append(probes, k-1, k, k+1)
			}
			v, n := make([]uint32, len(probes)), make([]uint32, len(probes))
			jt.lookup(probes, v, n)
			for i, k := range probes {
				var got []int32
				for j := range n[i] {
					got = append(got, jt.row(v[i], n[i], j))
				}
				if !slices.Equal(got, want[k]) {
					t.Fatalf("key %d: rows %v, want %v", k, got, want[k])
				}
			}
		})
	}
}
