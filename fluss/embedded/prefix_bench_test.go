package embedded

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/types"
)

// BenchmarkPrefixLookup1M compares, on a 1M-row table with PRIMARY KEY
// (tenant, id) and bucket.key = tenant (1,000 tenants of 1,000 rows, 4
// buckets), reading one tenant's rows by prefix lookup with finding them
// by a full scan of the tenant column (the filter's cheapest input).
func BenchmarkPrefixLookup1M(b *testing.B) {
	ctx := context.Background()
	s := openStore(b, b.TempDir())
	defer s.Close()
	tb := createTable(b, s, "mt", fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{
		{Name: "tenant", Type: types.Int32Type}, {Name: "id", Type: types.Int64Type},
		{Name: "name", Type: types.StringType}, {Name: "score", Type: types.Float64Type},
	}, PrimaryKey: []string{"tenant", "id"}}, BucketCount: 4, BucketKey: []string{"tenant"}})
	schema := tb.Info().ArrowSchema()
	for chunk := 0; chunk < 10; chunk++ {
		rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for tenant := int32(chunk * 100); tenant < int32(chunk*100+100); tenant++ {
			for id := int64(0); id < 1000; id++ {
				rb.Field(0).(*array.Int32Builder).Append(tenant)
				rb.Field(1).(*array.Int64Builder).Append(id)
				rb.Field(2).(*array.StringBuilder).Append("name-of-some-length")
				rb.Field(3).(*array.Float64Builder).Append(float64(id) * 0.5)
			}
		}
		rec := rb.NewRecordBatch()
		rb.Release()
		if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
			b.Fatal(err)
		}
		rec.Release()
	}
	keyOf := func(tenant int32) arrow.RecordBatch {
		kb := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema([]arrow.Field{schema.Field(0)}, nil))
		defer kb.Release()
		kb.Field(0).(*array.Int32Builder).Append(tenant)
		return kb.NewRecordBatch()
	}
	drain := func(r fluss.RecordReader, tenant int32) int {
		defer r.Close()
		n := 0
		for {
			rec, err := r.Next(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if rec == nil {
				return n
			}
			for _, v := range rec.Column(0).(*array.Int32).Int32Values() {
				if v == tenant {
					n++
				}
			}
			rec.Release()
		}
	}
	b.Run("prefix", func(b *testing.B) {
		i := 0
		for b.Loop() {
			tenant := int32(i * 7919 % 1000)
			keys := keyOf(tenant)
			r, err := tb.(fluss.PrefixScanner).ScanPrefix(ctx, keys, fluss.ScanOptions{Projection: []int{0, 1, 2, 3}})
			if err != nil {
				b.Fatal(err)
			}
			if n := drain(r, tenant); n != 1000 {
				b.Fatalf("tenant %d: %d rows", tenant, n)
			}
			keys.Release()
			i++
		}
	})
	b.Run("fullscan", func(b *testing.B) {
		i := 0
		for b.Loop() {
			tenant := int32(i * 7919 % 1000)
			r, err := tb.Scan(ctx, fluss.ScanOptions{Projection: []int{0}})
			if err != nil {
				b.Fatal(err)
			}
			if n := drain(r, tenant); n != 1000 {
				b.Fatalf("tenant %d: %d rows", tenant, n)
			}
			i++
		}
	})
}
