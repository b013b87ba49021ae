package relop

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkJoinTable1M builds a joinTable of 1M uniform keys in [0, 1M)
// and looks up 1M such keys in batches of 8192: the hash join's table
// work without the operator around it.
func BenchmarkJoinTable1M(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 7))
	build := make([]int64, 1<<20)
	probe := make([]int64, 1<<20)
	for i := range build {
		build[i] = int64(rng.IntN(1 << 20))
		probe[i] = int64(rng.IntN(1 << 20))
	}
	v, n := make([]uint32, defaultBatchRows), make([]uint32, defaultBatchRows)
	b.Run("build", func(b *testing.B) {
		for b.Loop() {
			t := &joinTable{}
			for lo := 0; lo < len(build); lo += defaultBatchRows {
				t.add(build[lo:lo+defaultBatchRows], nil)
			}
			t.finish()
		}
	})
	t := &joinTable{}
	t.add(build, nil)
	t.finish()
	b.Run("lookup", func(b *testing.B) {
		for b.Loop() {
			for lo := 0; lo < len(probe); lo += defaultBatchRows {
				t.lookup(probe[lo:lo+defaultBatchRows], v, n)
			}
		}
	})
}
