package server

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// BenchmarkPreparedPointLookup is bench's W1 in one process: a pgx client
// running the prepared `SELECT * FROM events WHERE id = $1` over loopback
// against a server on a 1000-row table of the harness's shape. Its
// allocs/op are the client's and the server's together per lookup; run it
// with -memprofile to see the server's share.
func BenchmarkPreparedPointLookup(b *testing.B) {
	ctx := context.Background()
	srv, err := Start(ctx, Config{Listen: "127.0.0.1:0", DataDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Stop(ctx)
	}()
	conn, err := pgx.Connect(ctx, srv.ConnString())
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(ctx)
	const rows = 1000
	for _, q := range []string{
		"CREATE TABLE events (id BIGINT PRIMARY KEY, user_id INT, amount DOUBLE PRECISION, qty INT, name VARCHAR, ts TIMESTAMP(6))",
		"INSERT INTO events SELECT g, g % 97, g * 0.5, g % 7, 'name-' || g, TIMESTAMP '2026-01-01 00:00:00' + g * INTERVAL '1 second' FROM generate_series(1, 1000) AS g",
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			b.Fatalf("%s: %v", q, err)
		}
	}
	if _, err := conn.Prepare(ctx, "w1", "SELECT * FROM events WHERE id = $1"); err != nil {
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
	cpu0 := processCPU(b)
	n := 0
	for i := 0; b.Loop(); i++ {
		n++
		want := int64(i%rows) + 1
		if err := conn.QueryRow(ctx, "w1", want).Scan(&id, &uid, &amount, &qty, &name, &ts); err != nil {
			b.Fatal(err)
		}
		if id.Int64 != want || qty.Int32 != int32(want%7) {
			b.Fatalf("id %d: got id %d qty %d", want, id.Int64, qty.Int32)
		}
	}
	// CPU time rather than wall time: the machine is shared, and a busy
	// neighbour stretches the wall time of each round trip far more than
	// the CPU it takes.
	b.ReportMetric(float64((processCPU(b)-cpu0).Nanoseconds())/1e3/float64(n), "cpu-µs/op")
}

// processCPU is the user and system CPU time this process has used: the
// client's and the server's together.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
