package e2e

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/sqlgate/sqlgate/tests/testbin"
)

// Wire-level benchmarks of issue 8's acceptance 3 (the W1, W2 and W8 shapes
// of bench/), in process: pgx and the server share the process, so ns/op and
// allocs/op count both sides; compare before and after with benchstat.
//
//	go test ./tests/e2e -run '^$' -bench Wire -benchmem -count 5

const benchEventsDDL = `CREATE TABLE events (id BIGINT PRIMARY KEY, user_id INT, amount DOUBLE PRECISION, qty INT, name VARCHAR, ts TIMESTAMP(6))`

var benchTS = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// benchEvents is a CopyFromSource of n deterministic events rows.
type benchEvents struct {
	n, i int64
	row  []any
}

func (s *benchEvents) Next() bool { s.i++; return s.i <= s.n }
func (s *benchEvents) Err() error { return nil }
func (s *benchEvents) Values() ([]any, error) {
	id := s.i
	var amount any
	if id%100 != 0 {
		amount = float64(id%1_000_000) / 100
	}
	s.row = append(s.row[:0], id, int32(id%100_000), amount, int32(id%50), "n"+strconv.FormatInt(id*7919, 36), benchTS.Add(time.Duration(id)*time.Second))
	return s.row, nil
}

func benchConn(b *testing.B, rows int64) *pgx.Conn {
	b.Helper()
	srv := testbin.StartServer(b, b.TempDir())
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, srv.ConnString())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { conn.Close(context.Background()) })
	if _, err := conn.Exec(ctx, benchEventsDDL); err != nil {
		b.Fatal(err)
	}
	if rows > 0 {
		n, err := conn.CopyFrom(ctx, pgx.Identifier{"events"}, []string{"id", "user_id", "amount", "qty", "name", "ts"}, &benchEvents{n: rows})
		if err != nil || n != rows {
			b.Fatalf("loading: %d rows, %v", n, err)
		}
	}
	return conn
}

// BenchmarkWirePreparedLookup is W1 with one client: a prepared
// primary-key lookup, binary results, one round trip per query.
func BenchmarkWirePreparedLookup(b *testing.B) {
	const rows = 100_000
	conn := benchConn(b, rows)
	ctx := context.Background()
	if _, err := conn.Prepare(ctx, "w1", `SELECT * FROM events WHERE id = $1`); err != nil {
		b.Fatal(err)
	}
	var (
		id       pgtype.Int8
		uid, qty pgtype.Int4
		amount   pgtype.Float8
		name     pgtype.Text
		ts       pgtype.Timestamp
	)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		want := int64(i*7919%rows) + 1
		if err := conn.QueryRow(ctx, "w1", want).Scan(&id, &uid, &amount, &qty, &name, &ts); err != nil {
			b.Fatal(err)
		}
		if id.Int64 != want {
			b.Fatalf("got id %d, want %d", id.Int64, want)
		}
	}
}

// BenchmarkWireSelectAll is W2: SELECT * streamed to pgx in binary, raw
// values (the server's side of the stream). One op is one row.
func BenchmarkWireSelectAll(b *testing.B) {
	const rows = 200_000
	conn := benchConn(b, rows)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for done := 0; done < b.N; {
		res, err := conn.Query(ctx, `SELECT * FROM events`, pgx.QueryResultFormats{pgx.BinaryFormatCode})
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for res.Next() {
			if len(res.RawValues()) != 6 {
				b.Fatal("want 6 values")
			}
			n++
		}
		res.Close()
		if err := res.Err(); err != nil {
			b.Fatal(err)
		}
		if n != rows {
			b.Fatalf("got %d rows", n)
		}
		done += n
	}
}

// BenchmarkWireCopyFrom is W8: COPY FROM STDIN binary (pgx CopyFrom) into a
// fresh primary-key table. One op is one row.
func BenchmarkWireCopyFrom(b *testing.B) {
	const rows = 200_000
	conn := benchConn(b, 0)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i*rows < b.N; i++ {
		b.StopTimer()
		table := fmt.Sprintf("events_%d", i)
		if _, err := conn.Exec(ctx, `CREATE TABLE `+table+` (id BIGINT PRIMARY KEY, user_id INT, amount DOUBLE PRECISION, qty INT, name VARCHAR, ts TIMESTAMP(6))`); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		n, err := conn.CopyFrom(ctx, pgx.Identifier{table}, []string{"id", "user_id", "amount", "qty", "name", "ts"}, &benchEvents{n: rows})
		if err != nil || n != rows {
			b.Fatalf("%d rows, %v", n, err)
		}
	}
}

// BenchmarkPointSelectBySize is issue 7's access-path check: a prepared
// primary-key point SELECT on a 10M-row table costs about what it costs on
// a 1k-row table (the plan is a lookup, never a scan). Run both sizes in one
// run and compare ns/op:
//
//	go test ./tests/e2e -run '^$' -bench PointSelectBySize -benchtime 20000x
func BenchmarkPointSelectBySize(b *testing.B) {
	for _, rows := range []int64{1_000, 10_000_000} {
		b.Run(strconv.FormatInt(rows, 10), func(b *testing.B) {
			conn := benchConn(b, 0)
			ctx := context.Background()
			// COPY in pieces of 1M rows: one COPY is held until it commits.
			for first := int64(0); first < rows; first += 1_000_000 {
				n := min(1_000_000, rows-first)
				src := &benchEvents{n: first + n, i: first}
				got, err := conn.CopyFrom(ctx, pgx.Identifier{"events"}, []string{"id", "user_id", "amount", "qty", "name", "ts"}, src)
				if err != nil || got != n {
					b.Fatalf("loading: %d rows, %v", got, err)
				}
			}
			lines, err := conn.Query(ctx, "EXPLAIN SELECT * FROM events WHERE id = $1", int64(42))
			if err != nil {
				b.Fatal(err)
			}
			plan, err := pgx.CollectRows(lines, pgx.RowTo[string])
			if err != nil || !strings.Contains(strings.Join(plan, "\n"), "lookup") {
				b.Fatalf("plan is not a lookup: %v %v", plan, err)
			}
			if _, err := conn.Prepare(ctx, "point", `SELECT * FROM events WHERE id = $1`); err != nil {
				b.Fatal(err)
			}
			var id int64
			var rest [5]any
			b.ResetTimer()
			for i := range b.N {
				want := int64(i)*7919%rows + 1
				if err := conn.QueryRow(ctx, "point", want).Scan(&id, &rest[0], &rest[1], &rest[2], &rest[3], &rest[4]); err != nil {
					b.Fatal(err)
				}
				if id != want {
					b.Fatalf("got id %d, want %d", id, want)
				}
			}
		})
	}
}
