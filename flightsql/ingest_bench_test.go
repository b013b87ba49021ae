package flightsql_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/jackc/pgx/v5"
)

// benchRows is how many rows each BenchmarkIngest load writes
// (SQLGATE_BENCH_ROWS, 100k by default so that a plain -bench run is short).
func benchRows(b *testing.B) int64 {
	if s := os.Getenv("SQLGATE_BENCH_ROWS"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			b.Fatalf("SQLGATE_BENCH_ROWS=%q", s)
		}
		return n
	}
	return 100_000
}

// benchEvents are rows 1..n of bench/'s events table shape as Arrow
// batches of 65536 rows, and the same rows for pgx's COPY.
func benchEvents(n int64) ([]arrow.RecordBatch, [][]any) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "user_id", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "amount", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "qty", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond}, Nullable: true},
	}, nil)
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	bld := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer bld.Release()
	var recs []arrow.RecordBatch
	rows := make([][]any, 0, n)
	for id := int64(1); id <= n; id++ {
		h := uint64(id) * 0x9E3779B97F4A7C15
		user, qty, amount := int32(h%10000)+1, int32(h>>20%50)+1, float64(h>>24%1_000_000)/100
		name := "n" + strconv.FormatUint(h>>(h%40), 36)
		ts := base.Add(time.Duration(id) * time.Second)
		bld.Field(0).(*array.Int64Builder).Append(id)
		bld.Field(1).(*array.Int32Builder).Append(user)
		bld.Field(2).(*array.Float64Builder).Append(amount)
		bld.Field(3).(*array.Int32Builder).Append(qty)
		bld.Field(4).(*array.StringBuilder).Append(name)
		bld.Field(5).(*array.TimestampBuilder).Append(arrow.Timestamp(ts.UnixMicro()))
		rows = append(rows, []any{id, user, amount, qty, name, ts})
		if id%65536 == 0 || id == n {
			recs = append(recs, bld.NewRecordBatch())
		}
	}
	return recs, rows
}

// BenchmarkIngest loads benchRows rows into a fresh primary-key table and
// a fresh log table, through Flight SQL ingest and through COPY FROM STDIN
// binary (pgx), reporting rows/s. bench/ (W8) compares them with
// PostgreSQL's COPY; this one is for profiling the server in process:
// go test ./flightsql -run '^$' -bench Ingest -cpuprofile /tmp/cpu.prof
func BenchmarkIngest(b *testing.B) {
	n := benchRows(b)
	recs, rows := benchEvents(n)
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	ts := startServer(b)
	cl, ctx := ts.client(b, "admin", adminPassword)
	conn, err := pgx.Connect(context.Background(), ts.pg)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(context.Background())
	tables := map[string]string{
		"pk":  "CREATE TABLE %s (id BIGINT PRIMARY KEY, user_id INT, amount DOUBLE PRECISION, qty INT, name VARCHAR, ts TIMESTAMP(6))",
		"log": "CREATE TABLE %s (id BIGINT, user_id INT, amount DOUBLE PRECISION, qty INT, name VARCHAR, ts TIMESTAMP(6))",
	}
	seq := 0
	for _, kind := range []string{"pk", "log"} {
		for _, path := range []string{"flight", "copy"} {
			b.Run(kind+"/"+path, func(b *testing.B) {
				var elapsed time.Duration
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					seq++
					table := fmt.Sprintf("bench_%s_%d", kind, seq)
					if _, err := conn.Exec(context.Background(), fmt.Sprintf(tables[kind], table)); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					start := time.Now()
					var got int64
					if path == "flight" {
						got, err = ingest(ctx, cl, table, recs...)
					} else {
						got, err = conn.CopyFrom(context.Background(), pgx.Identifier{table}, []string{"id", "user_id", "amount", "qty", "name", "ts"}, pgx.CopyFromRows(rows))
					}
					elapsed += time.Since(start)
					b.StopTimer()
					if err != nil || got != n {
						b.Fatalf("%d rows, %v", got, err)
					}
					if _, err := conn.Exec(context.Background(), "DROP TABLE "+table); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				b.ReportMetric(float64(n)*float64(b.N)/elapsed.Seconds(), "rows/s")
			})
		}
	}
}
