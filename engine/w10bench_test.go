package engine_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/pgwire"
)

// BenchmarkW10: bench's W10 transaction (BEGIN; UPDATE ledger SET bal =
// bal + $1 WHERE id = $2; SELECT bal FROM ledger WHERE id = $2; COMMIT,
// the two statements prepared) on a 100k-row table, engine and store in
// process (no wire), from 1 and 8 sessions, with synchronous_commit on and
// off: the time per transaction, and
// the process's CPU time per transaction, which a shared machine
// disturbs less.
func BenchmarkW10(b *testing.B) {
	for _, mode := range []string{"on", "off"} {
		for _, clients := range []int{1, 8} {
			b.Run(fmt.Sprintf("synchronous_commit=%s/clients=%d", mode, clients), func(b *testing.B) { benchW10(b, clients, mode) })
		}
	}
}

func benchW10(b *testing.B, clients int, mode string) {
	ctx := context.Background()
	store, err := embedded.Open(b.TempDir(), embedded.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	eng := engine.New(store, engine.Options{})
	type client struct {
		s                       pgwire.Session
		begin, upd, sel, commit pgwire.Statement
	}
	cs := make([]*client, clients)
	for i := range cs {
		s, err := eng.NewSession(ctx, pgwire.SessionInfo{User: "u", ProcessID: uint32(100 + i),
			Params: map[string]string{"synchronous_commit": mode}})
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		if i == 0 {
			for _, q := range []string{"CREATE TABLE ledger (id BIGINT PRIMARY KEY, bal BIGINT NOT NULL)",
				"INSERT INTO ledger SELECT g, 0 FROM generate_series(1, 100000) AS g"} {
				if _, err := execB(s, q); err != nil {
					b.Fatal(err)
				}
			}
		}
		c := &client{s: s}
		for _, p := range []struct {
			dst *pgwire.Statement
			sql string
		}{{&c.begin, "BEGIN"}, {&c.upd, "UPDATE ledger SET bal = bal + $1 WHERE id = $2"}, {&c.sel, "SELECT bal FROM ledger WHERE id = $1"}, {&c.commit, "COMMIT"}} {
			st, err := s.Prepare(ctx, p.sql, nil)
			if err != nil {
				b.Fatal(err)
			}
			*p.dst = st[0]
		}
		cs[i] = c
	}
	run := func(st pgwire.Statement, params ...any) error { return runStatement(ctx, st, params, nil) }
	var next sync.Mutex
	n := 0
	before := cpuTime()
	b.ReportAllocs()
	b.ResetTimer()
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for i, c := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := int64(i*7919) % 100_000
			for {
				next.Lock()
				if n == b.N {
					next.Unlock()
					return
				}
				n++
				next.Unlock()
				id = (id*48271 + 1) % 100_000
				err := run(c.begin)
				if err == nil {
					err = run(c.upd, int64(1), id+1)
				}
				if err == nil {
					err = run(c.sel, id+1)
				}
				if err == nil {
					err = run(c.commit)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	b.ReportMetric(float64((cpuTime()-before).Microseconds())/float64(b.N), "cpu-us/op")
}
