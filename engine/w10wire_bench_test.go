package engine_test

import (
	"context"
	"net"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/pgwire"
)

// BenchmarkW10Wire: BenchmarkW10's transaction at one client through the
// wire: a pgwire server on the loopback in front of the engine, and pgx as
// bench's W10 drives it (simple Query "begin", the prepared UPDATE and
// SELECT each as Bind/Execute/Sync, simple Query "commit"), with
// synchronous_commit off. cpu-us/op is the process's CPU per transaction,
// client and server together: what pgwire's reading and writing of
// messages, its waits for the next one and the engine's statement path
// cost, with the client's share the same on both sides of a comparison.
func BenchmarkW10Wire(b *testing.B) {
	ctx := context.Background()
	store, err := embedded.Open(b.TempDir(), embedded.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	eng := engine.New(store, engine.Options{})
	srv := pgwire.NewServer(pgwire.Config{Backend: eng})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go func() { _ = srv.Serve(ctx, ln) }()
	defer srv.Shutdown(ctx)
	c, err := pgx.Connect(ctx, "postgres://u@"+ln.Addr().String()+"/u?sslmode=disable&synchronous_commit=off")
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close(ctx)
	for _, q := range []string{"CREATE TABLE ledger (id BIGINT PRIMARY KEY, bal BIGINT NOT NULL)",
		"INSERT INTO ledger SELECT g, 0 FROM generate_series(1, 100000) AS g"} {
		if _, err := c.Exec(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	for name, sql := range map[string]string{"w10u": "UPDATE ledger SET bal = bal + $1 WHERE id = $2", "w10s": "SELECT bal FROM ledger WHERE id = $1"} {
		if _, err := c.Prepare(ctx, name, sql); err != nil {
			b.Fatal(err)
		}
	}
	tx := func(id int64) error {
		t, err := c.Begin(ctx)
		if err != nil {
			return err
		}
		if _, err := t.Exec(ctx, "w10u", int64(1), id); err != nil {
			return err
		}
		var bal int64
		if err := t.QueryRow(ctx, "w10s", id).Scan(&bal); err != nil {
			return err
		}
		return t.Commit(ctx)
	}
	id := int64(1)
	b.ReportAllocs()
	before := cpuTime()
	b.ResetTimer()
	for range b.N {
		id = (id*48271 + 1) % 100_000
		if err := tx(id + 1); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64((cpuTime()-before).Microseconds())/float64(b.N), "cpu-us/op")
}
