package embedded

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/fluss"
)

// BenchmarkSingleRowUpdate rewrites one existing key of a 100k-row
// primary-key table per synced write, from one writer (the commit of
// W10's transaction at one client): the write's latency, and the CPU
// time the process spent per write.
func BenchmarkSingleRowUpdate(b *testing.B) {
	b.Run("sync", func(b *testing.B) { benchSingleRowUpdate(b, ctx) })
	b.Run("nosyncwait", func(b *testing.B) { benchSingleRowUpdate(b, fluss.WithoutSyncWait(ctx)) })
}

func benchSingleRowUpdate(b *testing.B, ctx context.Context) {
	s := openStore(b, b.TempDir())
	defer s.Close()
	tb := createTable(b, s, "u", benchDesc(true))
	load := benchRecord(tb.Info().ArrowSchema(), 0, 100_000)
	if _, err := tb.Upsert(ctx, load, fluss.UpsertOptions{}); err != nil {
		b.Fatal(err)
	}
	load.Release()
	recs := make([]interface{ Release() }, 0, 64)
	rows := make([]fluss.TableWrite, 64)
	for i := range rows {
		rec := benchRecord(tb.Info().ArrowSchema(), int64(i*1543%100_000), 1)
		rows[i].Rec = rec
		recs = append(recs, rec)
	}
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	before := processCPU()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := tb.Upsert(ctx, rows[i%len(rows)].Rec, fluss.UpsertOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64((processCPU()-before).Microseconds())/float64(b.N), "cpu-us/op")
}

// processCPU is the process's user and system CPU time so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
