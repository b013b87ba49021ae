package flightsql_test

import (
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/sqlgate/sqlgate/flightsql"
	"google.golang.org/grpc"
)

// BenchmarkQuery streams SELECT * of a benchRows-row primary-key table of
// bench/'s events shape through Flight SQL into Arrow (every value read)
// and through the PostgreSQL protocol with pgx (every value decoded),
// reporting rows/s. bench/ (W2) compares them with PostgreSQL; this one is
// for profiling both paths in process:
// go test ./flightsql -run '^$' -bench Query -cpuprofile /tmp/cpu.prof
func BenchmarkQuery(b *testing.B) {
	n := benchRows(b)
	recs, _ := benchEvents(n)
	ts := startServer(b)
	cl, ctx := ts.client(b, "admin", adminPassword, benchDialOptions()...)
	conn, err := pgx.Connect(context.Background(), ts.pg)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), "CREATE TABLE events (id BIGINT PRIMARY KEY, user_id INT, amount DOUBLE PRECISION, qty INT, name VARCHAR, ts TIMESTAMP(6))"); err != nil {
		b.Fatal(err)
	}
	got, err := ingest(ctx, cl, "events", recs...)
	for _, r := range recs {
		r.Release()
	}
	if err != nil || got != n {
		b.Fatalf("load: %d rows, %v", got, err)
	}
	const query = "SELECT * FROM events"
	// The table's columnar image is built in the background once a full
	// scan asks for it: measure the scans that read it, as bench/'s W2
	// does after its load.
	imageReady(b, conn, query)
	b.Run("flight", func(b *testing.B) {
		var elapsed, first time.Duration
		cpu0 := processCPU(b)
		for i := 0; i < b.N; i++ {
			start := time.Now()
			info, err := cl.Execute(ctx, query)
			if err != nil {
				b.Fatal(err)
			}
			rdr, err := cl.DoGet(ctx, info.Endpoint[0].Ticket)
			if err != nil {
				b.Fatal(err)
			}
			var rows, sum int64
			for rdr.Next() {
				if rows == 0 {
					first += time.Since(start)
				}
				rec := rdr.RecordBatch()
				id := rec.Column(0).(*array.Int64)
				uid := rec.Column(1).(*array.Int32)
				amount := rec.Column(2).(*array.Float64)
				qty := rec.Column(3).(*array.Int32)
				name := rec.Column(4).(*array.String)
				ts := rec.Column(5).(*array.Timestamp)
				for r := 0; r < int(rec.NumRows()); r++ {
					sum += id.Value(r) + int64(uid.Value(r)) + int64(amount.Value(r)) + int64(qty.Value(r)) + int64(len(name.Value(r))) + int64(ts.Value(r))
				}
				rows += rec.NumRows()
			}
			err = rdr.Err()
			rdr.Release()
			elapsed += time.Since(start)
			if err != nil || rows != n || sum == 0 {
				b.Fatalf("%d rows, %v", rows, err)
			}
		}
		b.ReportMetric(float64(n)*float64(b.N)/elapsed.Seconds(), "rows/s")
		b.ReportMetric(float64(first.Microseconds())/float64(b.N), "µs-to-first-batch")
		b.ReportMetric(float64(processCPU(b)-cpu0)/float64(n*int64(b.N)), "cpu-ns/row")
	})
	b.Run("pgx", func(b *testing.B) {
		var elapsed time.Duration
		cpu0 := processCPU(b)
		var (
			id     pgtype.Int8
			uid    pgtype.Int4
			amount pgtype.Float8
			qty    pgtype.Int4
			name   pgtype.Text
			ts     pgtype.Timestamp
		)
		for i := 0; i < b.N; i++ {
			start := time.Now()
			rs, err := conn.Query(context.Background(), query)
			if err != nil {
				b.Fatal(err)
			}
			var rows, sum int64
			for rs.Next() {
				if err := rs.Scan(&id, &uid, &amount, &qty, &name, &ts); err != nil {
					b.Fatal(err)
				}
				sum += id.Int64 + int64(uid.Int32) + int64(amount.Float64) + int64(qty.Int32) + int64(len(name.String)) + ts.Time.UnixMicro()
				rows++
			}
			rs.Close()
			elapsed += time.Since(start)
			if rs.Err() != nil || rows != n || sum == 0 {
				b.Fatalf("%d rows, %v", rows, rs.Err())
			}
		}
		b.ReportMetric(float64(n)*float64(b.N)/elapsed.Seconds(), "rows/s")
		b.ReportMetric(float64(processCPU(b)-cpu0)/float64(n*int64(b.N)), "cpu-ns/row")
	})
}

// benchDialOptions are the Flight client's options: flightsql.DialOptions,
// as bench/ uses, unless SQLGATE_BENCH_DEFAULT_CLIENT is set (arrow-go's
// defaults, to compare).
func benchDialOptions() []grpc.DialOption {
	if os.Getenv("SQLGATE_BENCH_DEFAULT_CLIENT") != "" {
		return nil
	}
	return flightsql.DialOptions()
}

// processCPU is the CPU time (user and system) of this process, server and
// client together: per row, a figure the machine's other load disturbs less
// than the wall clock.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// imageReady waits until query's scan reads the table's columnar image.
func imageReady(b *testing.B, conn *pgx.Conn, query string) {
	deadline := time.Now().Add(60 * time.Second)
	for {
		var plan []string
		rows, err := conn.Query(context.Background(), "EXPLAIN ANALYZE "+query)
		if err != nil {
			b.Fatal(err)
		}
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				b.Fatal(err)
			}
			plan = append(plan, line)
		}
		if rows.Err() != nil {
			b.Fatal(rows.Err())
		}
		if strings.Contains(strings.Join(plan, "\n"), "columnar image") {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("no columnar image after 60s:\n%s", strings.Join(plan, "\n"))
		}
		time.Sleep(200 * time.Millisecond)
	}
}
