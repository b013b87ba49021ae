package relop

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRadixSort checks the radix sort against a stable comparison sort on
// key distributions that exercise its skipping of constant digits.
func TestRadixSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	gens := map[string]func(i int) uint64{
		"uniform":  func(int) uint64 { return rng.Uint64() },
		"small":    func(int) uint64 { return uint64(rng.IntN(100)) },
		"constant": func(int) uint64 { return 42 },
		"skew90": func(int) uint64 {
			if rng.IntN(10) < 9 {
				return 7
			}
			return rng.Uint64()
		},
		"highbits":  func(int) uint64 { return uint64(rng.IntN(4)) << 62 },
		"ascending": func(i int) uint64 { return uint64(i) },
		"extremes":  func(i int) uint64 { return []uint64{0, ^uint64(0), 1 << 63, 1<<63 - 1}[i%4] },
	}
	for name, gen := range gens {
		for _, n := range []int{0, 1, 255, 256, 1000, 100_000} {
			a := make([]keyRow, n)
			for i := range a {
				a[i] = keyRow{gen(i), uint32(i)}
			}
			want := slices.Clone(a)
			slices.SortStableFunc(want, func(x, y keyRow) int {
				switch {
				case x.key < y.key:
					return -1
				case x.key > y.key:
					return 1
				}
				return 0
			})
			radixSort(a)
			if !slices.Equal(a, want) {
				t.Fatalf("%s n=%d: radix sort differs from a stable sort", name, n)
			}
		}
	}
}
