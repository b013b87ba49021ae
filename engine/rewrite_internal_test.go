package engine

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// rewriteEngine is an engine over a fresh embedded store whose rewrites
// call copied after each copy, before the swap, and a session opener.
func rewriteEngine(t *testing.T, copied func()) (*Engine, func() pgwire.Session) {
	t.Helper()
	store, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	eng := New(store, Options{})
	eng.rewriteCopied = copied
	return eng, func() pgwire.Session {
		s, err := eng.NewSession(context.Background(), pgwire.SessionInfo{User: "u"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		return s
	}
}

// first is the text of the first column of the last result's first row
// ("" for none).
func first(s pgwire.Session, text string) (string, error) {
	ctx := context.Background()
	stmts, err := s.Prepare(ctx, text, nil)
	if err != nil {
		return "", err
	}
	out := ""
	for _, st := range stmts {
		res, err := st.Execute(ctx, nil)
		if err != nil {
			return "", err
		}
		out = ""
		for {
			b, err := res.Next(ctx)
			if err != nil {
				res.Close()
				return "", err
			}
			if b == nil {
				break
			}
			if out == "" && b.NumRows() > 0 {
				out = b.Column(0).ValueStr(0)
			}
			b.Release()
		}
		res.Close()
	}
	return out, nil
}

type firstResult struct {
	v   string
	err error
}

func firstAsync(s pgwire.Session, text string) <-chan firstResult {
	ch := make(chan firstResult, 1)
	go func() {
		v, err := first(s, text)
		ch <- firstResult{v, err}
	}()
	return ch
}

func await(t *testing.T, ch <-chan firstResult, what string) firstResult {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(20 * time.Second):
		t.Fatalf("%s: no answer", what)
	}
	return firstResult{}
}

func must(t *testing.T, s pgwire.Session, text string) string {
	t.Helper()
	v, err := first(s, text)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return v
}

// TestRewriteCopiesOutsideDDLLock: while ALTER TABLE's rewrite is held
// between its copy and its swap, another session reads and writes other
// tables and runs DDL on them (statement after statement: the rewrite
// holds no server-wide lock), while a writer and a reader of the
// rewritten table wait; the writer then writes the new table: its row is
// in the table after the ALTER, converted to the new type.
func TestRewriteCopiesOutsideDDLLock(t *testing.T) {
	copied, release := make(chan struct{}), make(chan struct{})
	calls := 0
	eng, open := rewriteEngine(t, func() {
		calls++
		if calls == 1 {
			close(copied)
			<-release
		}
	})
	a, b, c := open(), open(), open()
	must(t, a, "CREATE TABLE t (id int PRIMARY KEY, v int)")
	must(t, a, "INSERT INTO t SELECT g, g FROM generate_series(1, 1000) g")
	must(t, a, "CREATE TABLE other (id int PRIMARY KEY, n int)")
	alter := firstAsync(a, "ALTER TABLE t ALTER COLUMN v TYPE bigint USING v * 10")
	select {
	case <-copied:
	case r := <-alter:
		t.Fatalf("ALTER answered before its copy was held: %v", r.err)
	case <-time.After(20 * time.Second):
		t.Fatal("the rewrite did not copy")
	}
	writer := firstAsync(c, "INSERT INTO t VALUES (5000, 7)")
	for i := 1; i <= 40; i++ {
		for _, q := range []string{
			fmt.Sprintf("INSERT INTO other VALUES (%d, %d)", i, i),
			"UPDATE other SET n = n + 1 WHERE id = 1",
			"SELECT count(*) FROM other",
		} {
			r := await(t, firstAsync(b, q), q+" during the rewrite")
			if r.err != nil {
				t.Fatalf("%s during the rewrite: %v", q, r.err)
			}
		}
	}
	if r := await(t, firstAsync(b, "CREATE TABLE other2 (x int)"), "CREATE TABLE during the rewrite"); r.err != nil {
		t.Fatalf("CREATE TABLE during the rewrite: %v", r.err)
	}
	// A reader of the table waits for the ALTER's ACCESS EXCLUSIVE lock,
	// as in PostgreSQL (a session of its own: b must go on).
	reader := firstAsync(open(), "SELECT count(*) FROM t")
	select {
	case r := <-writer:
		t.Fatalf("a writer of the rewritten table did not wait: %v", r.err)
	case r := <-reader:
		t.Fatalf("a reader of the rewritten table did not wait: %q, %v", r.v, r.err)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	if r := await(t, alter, "ALTER"); r.err != nil {
		t.Fatalf("ALTER: %v", r.err)
	}
	if calls != 1 {
		t.Errorf("the rewrite copied %d times, want once (the other tables' DDL does not touch it)", calls)
	}
	if r := await(t, writer, "the waiting writer"); r.err != nil {
		t.Fatalf("the writer that waited for the rewrite: %v", r.err)
	}
	// (before or after the writer's row: they waited together)
	if r := await(t, reader, "the waiting reader"); r.err != nil || r.v != "1000" && r.v != "1001" {
		t.Fatalf("the reader that waited for the rewrite: %q, %v; want 1000 or 1001 rows", r.v, r.err)
	}
	if got := must(t, b, "SELECT count(*) FROM t"); got != "1001" {
		t.Errorf("rows after the rewrite: %s, want 1001", got)
	}
	if got := must(t, b, "SELECT sum(v) FROM t"); got != fmt.Sprint(500500*10+7) {
		t.Errorf("sum(v) after the rewrite: %s", got)
	}
	if got := columnType(t, eng, "v"); got != "bigint" {
		t.Errorf("type after the rewrite: %s", got)
	}
}

// TestRewriteCopiesAgainAfterWrite: rows written to the table during the
// copy by a writer that did not wait (here: straight to the store, as a
// transaction that opened the table before the rewrite commits) make the
// copy run again, and they are in the new table; written during every
// copy, the ALTER fails with 40001 and the table keeps every row.
func TestRewriteCopiesAgainAfterWrite(t *testing.T) {
	for _, c := range []struct {
		name   string
		writes int // copies followed by a write
		fails  bool
	}{
		{"once", 1, false},
		{"every copy", rewriteAttempts, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			var eng *Engine
			calls, next := 0, 100
			eng, open := rewriteEngine(t, func() {
				calls++
				if calls > c.writes {
					return
				}
				next++
				tbl, err := eng.store.Table(ctx, fluss.TablePath{Database: fluss.DefaultDatabase, Table: "t"})
				if err != nil {
					t.Error(err)
					return
				}
				rec, err := buildRows(tbl.Info().ArrowSchema(), [][]any{{int64(next), int64(next)}})
				if err != nil {
					t.Error(err)
					return
				}
				defer rec.Release()
				if _, err := tbl.Append(ctx, rec); err != nil {
					t.Error(err)
				}
			})
			a := open()
			must(t, a, "CREATE TABLE t (id int, v int)")
			must(t, a, "INSERT INTO t SELECT g, g FROM generate_series(1, 100) g")
			_, err := first(a, "ALTER TABLE t ALTER COLUMN v TYPE text")
			if c.fails {
				if sqlerr.CodeOf(err) != sqlerr.SerializationFailure {
					t.Fatalf("ALTER under writes at every copy: %v, want 40001", err)
				}
			} else if err != nil {
				t.Fatalf("ALTER: %v", err)
			}
			if want := min(c.writes+1, rewriteAttempts); calls != want {
				t.Errorf("%d copies, want %d", calls, want)
			}
			if got, want := must(t, a, "SELECT count(*) FROM t"), fmt.Sprint(100+c.writes); got != want {
				t.Errorf("rows after the ALTER: %s, want %s", got, want)
			}
			wantType := "text"
			if c.fails {
				wantType = "integer"
			}
			if got := columnType(t, eng, "v"); got != wantType {
				t.Errorf("v's type: %s, want %s", got, wantType)
			}
		})
	}
}

// columnType is the PostgreSQL type of column name of table t.
func columnType(t *testing.T, eng *Engine, name string) string {
	t.Helper()
	info, err := eng.storeTable(context.Background(), fluss.TablePath{Database: fluss.DefaultDatabase, Table: "t"})
	if err != nil {
		t.Fatal(err)
	}
	i := info.ColumnIndex(name)
	if i < 0 {
		t.Fatalf("no column %s", name)
	}
	return info.Descriptor.Schema.Columns[i].Type.Nullable().PGName()
}

// TestRewriteMovesIndexTables: a rewrite of a table with UNIQUE
// constraints leaves the index tables of the new table id alone (the old
// id's are dropped), and one that fails (two values made equal) leaves
// the table's as they were, and no other.
func TestRewriteMovesIndexTables(t *testing.T) {
	ctx := context.Background()
	eng, open := rewriteEngine(t, nil)
	a := open()
	must(t, a, "CREATE TABLE t (id int PRIMARY KEY, x numeric UNIQUE, y int, UNIQUE (y))")
	must(t, a, "INSERT INTO t VALUES (1, 1.2, 1), (2, 1.4, 2)")
	indexes := func() []string { // (hidden from ListTables: every id so far)
		var out []string
		for id := int64(1); id <= 10; id++ {
			for c := 1; c <= 3; c++ {
				p := fluss.IndexTablePath(id, c)
				if _, err := eng.storeTable(ctx, p); err == nil {
					out = append(out, p.Table)
				}
			}
		}
		return out
	}
	want := func() []string {
		info, err := eng.storeTable(ctx, fluss.TablePath{Database: fluss.DefaultDatabase, Table: "t"})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, p := range uniqueIndexPaths(info) {
			out = append(out, p.Table)
		}
		return out
	}
	check := func(when string) {
		t.Helper()
		got, exp := indexes(), want()
		if fmt.Sprint(got) != fmt.Sprint(exp) || len(exp) != 2 {
			t.Errorf("%s: index tables %v, want %v", when, got, exp)
		}
	}
	check("before")
	must(t, a, "ALTER TABLE t ALTER COLUMN y TYPE bigint")
	check("after a rewrite")
	if _, err := first(a, "ALTER TABLE t ALTER COLUMN x TYPE int"); sqlerr.CodeOf(err) != sqlerr.UniqueViolation {
		t.Fatalf("a conversion making two values equal: %v, want 23505", err)
	}
	check("after a failed rewrite")
}
