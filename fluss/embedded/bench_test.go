package embedded

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/types"
)

func benchDesc(pk bool) fluss.TableDescriptor {
	d := fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{
		{Name: "id", Type: types.Int64Type}, {Name: "name", Type: types.StringType},
		{Name: "score", Type: types.Float64Type}, {Name: "ts", Type: types.TimestampType(6)},
	}}, BucketCount: 4}
	if pk {
		d.Schema.PrimaryKey = []string{"id"}
	}
	return d
}

func benchRecord(s *arrow.Schema, first int64, n int) arrow.RecordBatch {
	rb := array.NewRecordBuilder(memory.DefaultAllocator, s)
	defer rb.Release()
	for i := int64(0); i < int64(n); i++ {
		rb.Field(0).(*array.Int64Builder).Append(first + i)
		rb.Field(1).(*array.StringBuilder).Append("name-of-some-length")
		rb.Field(2).(*array.Float64Builder).Append(float64(i) * 0.5)
		rb.Field(3).(*array.TimestampBuilder).Append(arrow.Timestamp(1_700_000_000_000_000 + i))
	}
	return rb.NewRecordBatch()
}

// BenchmarkDurableAppend10k appends fsynced 10,000-row batches to a
// 4-bucket log table (the rows go to one bucket, as a sticky writer's do).
func BenchmarkDurableAppend10k(b *testing.B) {
	s := openStore(b, b.TempDir())
	defer s.Close()
	tb := createTable(b, s, "a", benchDesc(false))
	rec := benchRecord(tb.Info().ArrowSchema(), 0, 10_000)
	defer rec.Release()
	b.SetBytes(10_000 * 8 * 4)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := tb.Append(ctx, rec); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)*10_000/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkDurableUpsert10k upserts fsynced 10,000-row batches of new keys.
func BenchmarkDurableUpsert10k(b *testing.B) {
	s := openStore(b, b.TempDir())
	defer s.Close()
	tb := createTable(b, s, "u", benchDesc(true))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		rec := benchRecord(tb.Info().ArrowSchema(), int64(i)*10_000, 10_000)
		b.StartTimer()
		if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
			b.Fatal(err)
		}
		rec.Release()
	}
	b.ReportMetric(float64(b.N)*10_000/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkPointLookup looks up one key of a 100k-row PK table.
func BenchmarkPointLookup(b *testing.B) {
	s := openStore(b, b.TempDir())
	defer s.Close()
	tb := createTable(b, s, "p", benchDesc(true))
	for i := 0; i < 10; i++ {
		rec := benchRecord(tb.Info().ArrowSchema(), int64(i)*10_000, 10_000)
		if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
			b.Fatal(err)
		}
		rec.Release()
	}
	kb := array.NewInt64Builder(memory.DefaultAllocator)
	defer kb.Release()
	keySchema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		kb.Append(int64(i*7919) % 100_000)
		col := kb.NewArray()
		keys := array.NewRecordBatch(keySchema, []arrow.Array{col}, 1)
		col.Release()
		rec, err := tb.Lookup(ctx, keys, nil)
		keys.Release()
		if err != nil || rec.NumRows() != 1 {
			b.Fatalf("lookup: %v", err)
		}
		rec.Release()
	}
}

// BenchmarkProjectedScan scans one column of a 100k-row log table.
func BenchmarkProjectedScan(b *testing.B) {
	for _, pk := range []bool{false, true} {
		name := map[bool]string{false: "log", true: "pk"}[pk]
		b.Run(name, func(b *testing.B) {
			s := openStore(b, b.TempDir())
			defer s.Close()
			tb := createTable(b, s, "s", benchDesc(pk))
			for i := 0; i < 10; i++ {
				rec := benchRecord(tb.Info().ArrowSchema(), int64(i)*10_000, 10_000)
				var err error
				if pk {
					_, err = tb.Upsert(ctx, rec, fluss.UpsertOptions{})
				} else {
					_, err = tb.Append(ctx, rec)
				}
				if err != nil {
					b.Fatal(err)
				}
				rec.Release()
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r, err := tb.Scan(ctx, fluss.ScanOptions{Projection: []int{2}})
				if err != nil {
					b.Fatal(err)
				}
				var rows int64
				for {
					rec, err := r.Next(ctx)
					if err != nil {
						b.Fatal(err)
					}
					if rec == nil {
						break
					}
					rows += rec.NumRows()
					rec.Release()
				}
				r.Close()
				if rows != 100_000 {
					b.Fatalf("%d rows", rows)
				}
			}
			b.ReportMetric(float64(b.N)*100_000/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
