package relop

import (
	"fmt"
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
