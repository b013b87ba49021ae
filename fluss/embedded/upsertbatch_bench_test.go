package embedded

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/fluss"
)

// BenchmarkUpsertBatchOnLargeTable upserts 1000-row batches into a
// primary-key table that already holds 200,000 rows (flushed and
// compacted): what an INSERT of 1000-row statements costs the commit once
// the table is large. "new" batches take keys above the stored ones (each
// new, but interleaved with stored keys in the key encoding's byte order);
// "existing" batches rewrite random stored keys.
func BenchmarkUpsertBatchOnLargeTable(b *testing.B) {
	for _, mode := range []string{"new", "existing"} {
		b.Run(mode, func(b *testing.B) {
			// Syncs skipped: the commit's CPU is measured, not the disk's.
			s, err := Open(b.TempDir(), Options{Syncer: skipSyncs{}})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			tb := createTable(b, s, "u", benchDesc(true))
			const stored = 200_000
			rec := benchRecord(tb.Info().ArrowSchema(), 0, stored)
			if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
				b.Fatal(err)
			}
			rec.Release()
			if err := s.db.Flush(); err != nil {
				b.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			recs := make([]arrow.RecordBatch, 64)
			for i := range recs {
				from := int64(stored + i*1000)
				if mode == "existing" {
					from = rng.Int64N(stored - 1000)
				}
				recs[i] = benchRecord(tb.Info().ArrowSchema(), from, 1000)
				defer recs[i].Release()
			}
			b.ResetTimer()
			cpu0 := processCPU()
			for i := 0; i < b.N; i++ {
				if mode == "new" && i > 0 && i%len(recs) == 0 {
					b.StopTimer()
					for j := range recs {
						recs[j].Release()
						recs[j] = benchRecord(tb.Info().ArrowSchema(), int64(stored+(i+j)*1000), 1000)
					}
					b.StartTimer()
				}
				if _, err := tb.Upsert(ctx, recs[i%len(recs)], fluss.UpsertOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)*1000/b.Elapsed().Seconds(), "rows/s")
			// The process's CPU (pebble's compactions included) per row: on
			// a shared machine it moves far less than the elapsed time.
			b.ReportMetric(float64((processCPU()-cpu0).Nanoseconds())/float64(b.N)/1000, "cpu-ns/row")
		})
	}
}

// skipSyncs is a Syncer that makes no sync.
type skipSyncs struct{}

func (skipSyncs) Sync(string, SyncKind, func() error) error { return nil }
