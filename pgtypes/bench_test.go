package pgtypes

import (
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// benchColumns are the six columns of the DataRow benchmark.
var benchColumns = []types.T{types.Int64Type, types.Int32Type, types.Float64Type, types.StringType, types.TimestampType(6), types.BoolType}

func benchBatches(b *testing.B, rows, batchRows int) []arrow.RecordBatch {
	b.Helper()
	fields := make([]arrow.Field, len(benchColumns))
	for i, t := range benchColumns {
		fields[i] = arrow.Field{Name: "c" + strconv.Itoa(i), Type: t.ArrowType(), Nullable: true}
	}
	schema := arrow.NewSchema(fields, nil)
	var out []arrow.RecordBatch
	for start := 0; start < rows; start += batchRows {
		bld := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for r := start; r < min(start+batchRows, rows); r++ {
			bld.Field(0).(*array.Int64Builder).Append(int64(r) * 7919)
			bld.Field(1).(*array.Int32Builder).Append(int32(r))
			bld.Field(2).(*array.Float64Builder).Append(float64(r) / 3)
			if r%10 == 0 {
				bld.Field(3).(*array.StringBuilder).AppendNull()
			} else {
				bld.Field(3).(*array.StringBuilder).Append("customer-" + strconv.Itoa(r))
			}
			bld.Field(4).(*array.TimestampBuilder).Append(arrow.Timestamp(1_700_000_000_000_000 + int64(r)*1_000_123))
			bld.Field(5).(*array.BooleanBuilder).Append(r%2 == 0)
		}
		out = append(out, bld.NewRecordBatch())
		bld.Release()
	}
	return out
}

// BenchmarkDataRows encodes a 1M-row x 6-column result, streamed as 8192-row
// batches, into DataRow messages; the buffer is "flushed" (reset) at 64 KiB
// as the server does. One op is the whole million rows.
func BenchmarkDataRows(b *testing.B) {
	const rows = 1_000_000
	batches := benchBatches(b, rows, 8192)
	defer func() {
		for _, rec := range batches {
			rec.Release()
		}
	}()
	for _, tc := range []struct {
		name    string
		formats []int16
	}{{"text", nil}, {"binary", []int16{FormatBinary}}} {
		b.Run(tc.name, func(b *testing.B) {
			buf := make([]byte, 0, 128<<10)
			var bytes int64
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				enc, err := NewRowEncoder(benchColumns, tc.formats)
				if err != nil {
					b.Fatal(err)
				}
				bytes = 0
				for _, rec := range batches {
					if err := enc.Reset(rec); err != nil {
						b.Fatal(err)
					}
					n := int(rec.NumRows())
					for r := 0; r < n; r++ {
						buf = enc.AppendDataRow(buf, r)
						if len(buf) >= 64<<10 {
							bytes += int64(len(buf))
							buf = buf[:0]
						}
					}
				}
				bytes += int64(len(buf))
				buf = buf[:0]
			}
			b.SetBytes(bytes)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/rows, "ns/row")
		})
	}
}
