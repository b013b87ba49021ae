package relop

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
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

// w7Batches makes W7's two sides as the scans hand them to the join:
// users(user_id int32 1..100k in key order, country text of 2 bytes, tier
// int32) and events(user_id int32 uniform in 1..100k, qty int32, amount
// float64 with 1% NULLs), in batches of 8192.
func w7Batches(events int) (us *arrow.Schema, ub []arrow.RecordBatch, es *arrow.Schema, eb []arrow.RecordBatch) {
	countries := []string{"AR", "AU", "BR", "CA", "CN", "DE", "EG", "ES", "FR", "GB",
		"ID", "IN", "IT", "JP", "KR", "MX", "NG", "RU", "US", "ZA"}
	rng := rand.New(rand.NewPCG(27, 7))
	us = schemaOf(types.Int32Type, types.StringType, types.Int32Type)
	es = schemaOf(types.Int32Type, types.Int32Type, types.Float64Type)
	const users = 100_000
	for lo := 0; lo < users; lo += defaultBatchRows {
		n := min(defaultBatchRows, users-lo)
		id, c, tier := array.NewInt32Builder(memory.DefaultAllocator), array.NewStringBuilder(memory.DefaultAllocator), array.NewInt32Builder(memory.DefaultAllocator)
		for i := range n {
			id.Append(int32(lo + i + 1))
			c.Append(countries[rng.IntN(len(countries))])
			tier.Append(int32(rng.IntN(3)))
		}
		ub = append(ub, newBatch(us, id, c, tier))
	}
	for lo := 0; lo < events; lo += defaultBatchRows {
		n := min(defaultBatchRows, events-lo)
		uid, qty, amt := array.NewInt32Builder(memory.DefaultAllocator), array.NewInt32Builder(memory.DefaultAllocator), array.NewFloat64Builder(memory.DefaultAllocator)
		for range n {
			uid.Append(int32(rng.IntN(users) + 1))
			qty.Append(int32(rng.IntN(50) + 1))
			if rng.IntN(100) == 0 {
				amt.AppendNull()
			} else {
				amt.Append(float64(rng.IntN(1_000_000)) / 100)
			}
		}
		eb = append(eb, newBatch(es, uid, qty, amt))
	}
	return us, ub, es, eb
}

func newBatch(s *arrow.Schema, bs ...array.Builder) arrow.RecordBatch {
	cols := make([]arrow.Array, len(bs))
	for i, b := range bs {
		cols[i] = b.NewArray()
		b.Release()
	}
	out := array.NewRecordBatch(s, cols, int64(cols[0].Len()))
	releaseAll(cols)
	return out
}

// BenchmarkJoinW7: W7's join at 1M events (events JOIN users ON user_id,
// every event matching one user), the operator alone: build, probe and
// the gathers of the output columns (the text country among them).
func BenchmarkJoinW7(b *testing.B) {
	us, ub, es, eb := w7Batches(1_000_000)
	cpu0 := cpuTime()
	for b.Loop() {
		op := &HashJoin{Left: benchSource(es, eb), Right: benchSource(us, ub), LeftKeys: []int{0}, RightKeys: []int{0}}
		if n := drainCount(b, op); n != 1_000_000 {
			b.Fatalf("%d rows", n)
		}
	}
	reportCPU(b, cpu0)
	b.ReportMetric(1e6*float64(b.N)/b.Elapsed().Seconds(), "probe-rows/s")
}

// BenchmarkJoinTableW7Keys: the table work of W7's join, 100k unique keys
// 1..100k built, 1M uniform such keys looked up in batches of 8192.
func BenchmarkJoinTableW7Keys(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 27))
	build := make([]int64, 100_000)
	probe := make([]int64, 1<<20)
	for i := range build {
		build[i] = int64(i + 1)
	}
	for i := range probe {
		probe[i] = int64(rng.IntN(len(build)) + 1)
	}
	v, n := make([]uint32, defaultBatchRows), make([]uint32, defaultBatchRows)
	cfg := defaultRadix
	b.Run("build", func(b *testing.B) {
		for b.Loop() {
			t := &joinTable{cfg: &cfg}
			for lo := 0; lo < len(build); lo += defaultBatchRows {
				t.add(build[lo:min(lo+defaultBatchRows, len(build))], nil)
			}
			t.finish()
		}
	})
	t := &joinTable{cfg: &cfg}
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
