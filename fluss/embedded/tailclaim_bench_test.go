package embedded

import (
	"context"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/types"
)

// BenchmarkBulkAppendMillion is a COPY of 1M W8 events into a log table
// through the store: BeginAppend, 8192-row parts, Commit, on a fresh
// table each time. ns/row is the whole; commit-ms the Commit alone (what a
// client waits for after its last row); bytes/row the log's growth.
// bench/LEDGER.md records figures, never assertions.
func BenchmarkBulkAppendMillion(b *testing.B) {
	const part, parts = 8192, 122
	ctx := context.Background()
	s := openStore(b, b.TempDir())
	defer s.Close()
	desc := fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{
		{Name: "id", Type: types.Int64Type}, {Name: "user_id", Type: types.Int32Type}, {Name: "amount", Type: types.Float64Type},
		{Name: "qty", Type: types.Int32Type}, {Name: "name", Type: types.StringType}, {Name: "ts", Type: types.TimestampTZType(6)},
	}}, BucketCount: 1}
	recs := make([]arrow.RecordBatch, 8)
	for i := range recs {
		recs[i] = eventsPart(i*part, part)
		defer recs[i].Release()
	}
	var commit time.Duration
	var bytes int64
	i := 0
	for b.Loop() {
		b.StopTimer()
		name := "events_" + string(rune('a'+i%26)) + string(rune('a'+i/26))
		i++
		if _, err := s.CreateTable(ctx, path(name), desc, false); err != nil {
			b.Fatal(err)
		}
		tb, err := s.Table(ctx, path(name))
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		ap, err := tb.(fluss.BulkAppender).BeginAppend(ctx)
		if err != nil {
			b.Fatal(err)
		}
		for p := range parts {
			if err := ap.Add(ctx, recs[p%len(recs)]); err != nil {
				b.Fatal(err)
			}
		}
		t0 := time.Now()
		if _, err := ap.Commit(ctx); err != nil {
			b.Fatal(err)
		}
		commit += time.Since(t0)
		b.StopTimer()
		ts := tb.(*tableHandle).t
		ts.mu.RLock()
		bytes += ts.buckets[0].committed
		ts.mu.RUnlock()
		if err := s.DropTable(ctx, path(name), false); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	rows := float64(i * part * parts)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/rows, "ns/row")
	b.ReportMetric(float64(commit.Milliseconds())/float64(i), "commit-ms")
	b.ReportMetric(float64(bytes)/rows, "bytes/row")
}
