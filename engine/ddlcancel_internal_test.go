package engine

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// A cancelled DDL statement leaves its table as it was or as the
// statement makes it, never broken (PostgreSQL's DDL is atomic: a cancel
// rolls it back). The statement runs under a context that ends after its
// n-th look (Done or Err: every blocking call and every loop that checks
// for a cancel looks), for n from 1 until the statement finishes before
// its context ends; after each, a fresh session reads and writes the
// table and its catalog, which must hold the rows before or after the
// statement.

// countdownCtx is a context that ends at its n-th look.
type countdownCtx struct {
	context.Context // (Background: values and deadline)
	mu              sync.Mutex
	left            int
	done            chan struct{}
}

func newCountdown(n int) *countdownCtx {
	return &countdownCtx{Context: context.Background(), left: n, done: make(chan struct{})}
}

func (c *countdownCtx) look() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.left > 0 {
		if c.left--; c.left == 0 {
			close(c.done)
		}
	}
}

func (c *countdownCtx) Done() <-chan struct{} { c.look(); return c.done }

func (c *countdownCtx) Err() error {
	c.look()
	select {
	case <-c.done:
		return context.Canceled
	default:
		return nil
	}
}

// ended reports whether the context ended (without looking).
func (c *countdownCtx) ended() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.left == 0
}

// execUnder runs text in s under ctx.
func execUnder(ctx context.Context, s pgwire.Session, text string) error {
	stmts, err := s.Prepare(context.Background(), text, nil)
	if err != nil {
		return err
	}
	for _, st := range stmts {
		res, err := st.Execute(ctx, nil)
		if err != nil {
			return err
		}
		for {
			b, err := res.Next(ctx)
			if err != nil {
				res.Close()
				return err
			}
			if b == nil {
				break
			}
			b.Release()
		}
		res.Close()
	}
	return nil
}

// ddlCancelSetup is the table every case starts from: t with a primary
// key, a UNIQUE column, a default, a CHECK, a view over it and a table
// referencing it; enough rows that the copy looks at its context often.
var ddlCancelSetup = []string{
	"CREATE TABLE t (id int PRIMARY KEY, a int UNIQUE, b text DEFAULT 'x', c int CHECK (c >= 0))",
	"INSERT INTO t SELECT g, g, 'r' || g, g FROM generate_series(1, 3000) g",
	"CREATE TABLE r (tid int REFERENCES t (id))",
	"INSERT INTO r VALUES (1), (2)",
	"CREATE VIEW tv AS SELECT id, a FROM t",
	"CREATE TABLE l (k int, v text)", // a log table (ADD PRIMARY KEY)
	"INSERT INTO l SELECT g, 'v' || g FROM generate_series(1, 3000) g",
	"CREATE TABLE k (id int PRIMARY KEY, v text)", // TRUNCATE by deletes
	"INSERT INTO k SELECT g, 'v' || g FROM generate_series(1, 3000) g",
}

// ddlCancelCases: each statement, the table it changes and its columns
// before and after, and what must hold afterwards either way.
var ddlCancelCases = []struct {
	name, stmt, table string
	oldCols, newCols  string
	insert            string // works on the old table and the new
	count             string // the rows after insert
}{
	{"drop column", "ALTER TABLE t DROP COLUMN c", "t", "id,a,b,c", "id,a,b", "INSERT INTO t (id, a) VALUES (5001, 5001)", "3001"},
	{"drop column cascade", "ALTER TABLE t DROP COLUMN a CASCADE", "t", "id,a,b,c", "id,b,c", "INSERT INTO t (id) VALUES (5001)", "3001"},
	{"add column default", "ALTER TABLE t ADD COLUMN d int DEFAULT 7", "t", "id,a,b,c", "id,a,b,c,d", "INSERT INTO t (id, a) VALUES (5001, 5001)", "3001"},
	{"column type", "ALTER TABLE t ALTER COLUMN c TYPE bigint", "t", "id,a,b,c", "id,a,b,c", "INSERT INTO t (id, a, c) VALUES (5001, 5001, 1)", "3001"},
	{"column type using", "ALTER TABLE t ALTER COLUMN b TYPE varchar(10) USING upper(b)", "t", "id,a,b,c", "id,a,b,c", "INSERT INTO t (id, a, b) VALUES (5001, 5001, 'q')", "3001"},
	{"rename column", "ALTER TABLE t RENAME COLUMN b TO b2", "t", "id,a,b,c", "id,a,b2,c", "INSERT INTO t (id, a) VALUES (5001, 5001)", "3001"},
	{"add primary key", "ALTER TABLE l ADD PRIMARY KEY (k)", "l", "k,v", "k,v", "INSERT INTO l (k) VALUES (5001)", "3001"},
	{"set not null", "ALTER TABLE t ALTER COLUMN c SET NOT NULL", "t", "id,a,b,c", "id,a,b,c", "INSERT INTO t (id, a, c) VALUES (5001, 5001, 1)", "3001"},
	{"truncate", "TRUNCATE l", "l", "k,v", "k,v", "INSERT INTO l (k) VALUES (5001)", ""},
	{"truncate primary key", "TRUNCATE k", "k", "id,v", "id,v", "INSERT INTO k (id) VALUES (5001)", ""},
	{"create unique index", "CREATE UNIQUE INDEX ON l (k)", "l", "k,v", "k,v", "INSERT INTO l (k) VALUES (5001)", "3001"},
	{"add unique", "ALTER TABLE l ADD CONSTRAINT lk UNIQUE (k)", "l", "k,v", "k,v", "INSERT INTO l (k) VALUES (5001)", "3001"},
}

// TestDDLCancelAtRewriteSteps cancels each rewrite at each of its steps
// (Engine.rewriteStep, and the copy's end): past the swap the statement
// finishes (the new table, its follow-ups done), before it nothing
// changed.
func TestDDLCancelAtRewriteSteps(t *testing.T) {
	all := os.Getenv(ddlCancelAllEnv) != ""
	for i, c := range ddlCancelCases {
		for _, block := range ddlCancelModes(all, i) {
			for _, step := range rewriteCrashSteps {
				if !all && step != stepCopied && step != stepSwapped && step != stepSequences {
					continue // (the default run: before, at and near the end)
				}
				t.Run(fmt.Sprintf("%s/block=%v/%s", c.name, block, step), func(t *testing.T) {
					ctx, cancel := context.WithCancel(context.Background())
					defer cancel()
					at := func(s string) {
						if s == step {
							cancel()
						}
					}
					ddlCancelCheck(t, ctx, func() bool { return ctx.Err() != nil }, func(e *Engine) {
						e.rewriteCopied = func() { at(stepCopied) }
						e.rewriteStep = at
					}, block, c.stmt, c.table, c.oldCols, c.newCols, c.insert, c.count)
				})
			}
		}
	}
}

// ddlCancelAllEnv, set, runs every case at every cancellation point,
// outside a block and in one; the default run (make test's time budget)
// takes every ddlCancelStride-th point and one of the two modes a case.
const (
	ddlCancelAllEnv = "SQLGATE_DDLCANCEL_ALL"
	ddlCancelStride = 6
)

// ddlCancelModes are the modes (in a transaction block or not) case i
// runs in.
func ddlCancelModes(all bool, i int) []bool {
	if all {
		return []bool{false, true}
	}
	return []bool{i%2 == 1}
}

func TestDDLCancelAtomic(t *testing.T) {
	all := os.Getenv(ddlCancelAllEnv) != ""
	for i, c := range ddlCancelCases {
		for _, block := range ddlCancelModes(all, i) {
			t.Run(fmt.Sprintf("%s/block=%v", c.name, block), func(t *testing.T) {
				n := 1
				if !all {
					n = 1 + i%ddlCancelStride // (the cases between them cover every point)
				}
				for {
					finished := false
					t.Run(strconv.Itoa(n), func(t *testing.T) {
						finished = ddlCancelAt(t, block, c.stmt, c.table, c.oldCols, c.newCols, c.insert, c.count, n)
					})
					if finished || t.Failed() || n > 1<<20 {
						break
					}
					n = next(n, all)
				}
			})
		}
	}
}

// next is the look to cancel at after n: every one at first, then
// spaced out (a rewrite of thousands of rows looks thousands of times).
func next(n int, all bool) int {
	if !all {
		return n + ddlCancelStride
	}
	if n < 64 {
		return n + 1
	}
	return n + n/4
}

// ddlCancelAt runs stmt under a context that ends at its n-th look and
// checks the table; it reports whether the statement finished before
// its context ended (the last n to try).
func ddlCancelAt(t *testing.T, block bool, stmt, table, oldCols, newCols, insert, count string, n int) bool {
	ctx := newCountdown(n)
	ddlCancelCheck(t, ctx, ctx.ended, nil, block, stmt, table, oldCols, newCols, insert, count)
	return !ctx.ended()
}

// ddlCancelCheck runs stmt under ctx (ended: whether it ended) over a
// fresh database (hook set on its engine) and checks the table
// afterwards.
func ddlCancelCheck(t *testing.T, ctx context.Context, ended func() bool, hook func(*Engine), block bool, stmt, table, oldCols, newCols, insert, count string) {
	eng, open, closeAll := openLikeServer(t, t.TempDir(), hook) // rewritecrash_internal_test.go
	defer closeAll()
	s := open()
	for _, q := range ddlCancelSetup {
		must(t, s, q)
	}
	state := func(s pgwire.Session) string {
		t.Helper()
		var parts []string
		for _, q := range []string{
			"SELECT string_agg(column_name::text || ' ' || data_type::text || ' ' || is_nullable::text, ',' ORDER BY ordinal_position) FROM information_schema.columns WHERE table_name = '" + table + "'",
			"SELECT count(*) FROM " + table,
			"SELECT count(*) FROM pg_indexes WHERE tablename = '" + table + "'",
		} {
			v, err := first(s, q)
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			parts = append(parts, v)
		}
		return strings.Join(parts, "; ")
	}
	before := state(s)
	if block {
		must(t, s, "BEGIN")
	}
	err := execUnder(ctx, s, stmt)
	if block && err != nil { // the cancel aborted the block: its ROLLBACK undoes the DDL
		must(t, s, "ROLLBACK")
	} else if block {
		must(t, s, "COMMIT")
	}
	if err != nil && ended() && sqlerr.CodeOf(err) != sqlerr.QueryCanceled {
		t.Errorf("%s cancelled: %v (SQLSTATE %s), want 57014", stmt, err, sqlerr.CodeOf(err))
	}
	s2 := open()
	// all or nothing: an error leaves the table as it was, success as
	// the statement makes it
	if after := state(s2); err != nil && after != before {
		t.Fatalf("%s failed (%v) but changed the table: %s, was %s", stmt, err, after, before)
	} else if err == nil && after == before {
		t.Fatalf("%s succeeded but left the table as it was: %s", stmt, after)
	}
	checkIndexTables(t, eng) // rewritecrash_internal_test.go
	for _, s := range []pgwire.Session{s, s2} {
		cols, err := first(s, "SELECT string_agg(column_name::text, ',' ORDER BY ordinal_position) FROM information_schema.columns WHERE table_name = '"+table+"'")
		if err != nil {
			t.Fatalf("information_schema after the cancel: %v", err)
		}
		if cols != oldCols && cols != newCols {
			t.Fatalf("columns after the cancel: %s, want %s or %s", cols, oldCols, newCols)
		}
	}
	for _, q := range []string{"SELECT * FROM " + table, "SELECT count(*) FROM tv", "SELECT count(*) FROM r"} {
		if _, err := first(s2, q); err != nil && !(q == "SELECT count(*) FROM tv" && strings.Contains(stmt, "CASCADE") && sqlerr.CodeOf(err) == "42P01") {
			t.Fatalf("%s after the cancel: %v", q, err)
		}
	}
	rows, err := first(s2, "SELECT count(*) FROM "+table)
	if err != nil {
		t.Fatal(err)
	}
	if rows != "3000" && rows != "0" || rows == "0" && count != "" {
		t.Fatalf("rows after the cancel: %s", rows)
	}
	if _, err := first(s2, insert); err != nil {
		t.Fatalf("%s after the cancel: %v", insert, err)
	}
	if count != "" {
		if got := must(t, s2, "SELECT count(*) FROM "+table); got != count {
			t.Fatalf("rows after an insert: %s, want %s", got, count)
		}
	}
	if table == "t" {
		if _, err := first(s2, "INSERT INTO r VALUES (999999)"); sqlerr.CodeOf(err) != "23503" {
			t.Fatalf("the foreign key into t after the cancel: %v, want 23503", err)
		}
		if _, err := first(s2, "INSERT INTO t (id, a) VALUES (5002, 5001)"); sqlerr.CodeOf(err) != sqlerr.UniqueViolation && !strings.Contains(stmt, "DROP COLUMN a") && !strings.Contains(stmt, "SET NOT NULL") {
			t.Fatalf("a's UNIQUE after the cancel: %v, want 23505", err)
		}
	}
	// the statement again, uncancelled, finishes
	if _, err := first(s2, stmt); err != nil && !strings.Contains(stmt, "ADD") && !strings.Contains(stmt, "INDEX") {
		t.Logf("%s again: %v", stmt, err)
	}
}
