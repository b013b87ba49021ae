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
