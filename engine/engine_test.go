package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// run executes every statement of sql and returns the text of the last
// result's first column, one line per row.
func run(t *testing.T, s pgwire.Session, sql string) ([]string, string, error) {
	t.Helper()
	ctx := context.Background()
	stmts, err := s.Prepare(ctx, sql, nil)
	if err != nil {
		return nil, "", err
	}
	var lines []string
	var tag string
	for _, st := range stmts {
		res, err := st.Execute(ctx, nil)
		if err != nil {
			return nil, "", err
		}
		lines = nil
		for {
			b, err := res.Next(ctx)
			if err != nil {
				return nil, "", err
			}
			if b == nil {
				break
			}
			col := b.Column(0)
			for i := 0; i < col.Len(); i++ {
				if s, ok := col.(*array.String); ok {
					lines = append(lines, s.Value(i))
				} else {
					lines = append(lines, col.ValueStr(i))
				}
			}
			b.Release()
		}
		tag = res.Tag()
		res.Close()
	}
	return lines, tag, nil
}

func newSession(t *testing.T) pgwire.Session {
	t.Helper()
	store, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	s, err := engine.New(store, engine.Options{}).NewSession(context.Background(), pgwire.SessionInfo{User: "u"})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestExplainIsPlanOnlyAndAnalyzeCounts(t *testing.T) {
	s := newSession(t)
	if _, _, err := run(t, s, "CREATE TABLE t (id BIGINT PRIMARY KEY, v INT); INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)"); err != nil {
		t.Fatal(err)
	}
	lines, tag, err := run(t, s, "EXPLAIN SELECT v * 2 FROM t WHERE v > 10")
	if err != nil {
		t.Fatal(err)
	}
	if tag != "EXPLAIN" || len(lines) != 3 {
		t.Fatalf("tag %q lines %q", tag, lines)
	}
	for i, want := range []string{"projection:", "  filter:", "    scan: table=t columns=[v]"} {
		if !strings.HasPrefix(lines[i], want) || !strings.Contains(lines[i], "lowerable=true") || strings.Contains(lines[i], "actual") {
			t.Errorf("line %d %q, want prefix %q, report fields and no metrics", i, lines[i], want)
		}
	}
	lines, _, err = run(t, s, "EXPLAIN ANALYZE SELECT v * 2 FROM t WHERE v > 10")
	if err != nil {
		t.Fatal(err)
	}
	wantCounts := []string{"rows_in=2 rows_out=2", "rows_in=3 rows_out=2", "rows_in=0 rows_out=3"}
	for i, w := range wantCounts {
		if !strings.Contains(lines[i], w) {
			t.Errorf("line %d %q lacks %q", i, lines[i], w)
		}
	}
	// A point query on the full primary key is a lookup, not a scan.
	// The lookup answers the predicate itself: no filter is left over it.
	lines, _, _ = run(t, s, "EXPLAIN SELECT v FROM t WHERE id = 2")
	plan := strings.Join(lines, "\n")
	if !strings.Contains(plan, "lookup: table=t") || strings.Contains(plan, "filter") || strings.Contains(plan, "scan") {
		t.Errorf("point query plan %q", lines)
	}
}

func TestSetShowAndParameterStatus(t *testing.T) {
	s := newSession(t)
	if _, tag, err := run(t, s, "SET application_name TO 'app1'"); err != nil || tag != "SET" {
		t.Fatalf("SET: %q %v", tag, err)
	}
	if got := s.StatusChanges(); got["application_name"] != "app1" {
		t.Errorf("status changes %v", got)
	}
	lines, _, err := run(t, s, "SHOW application_name")
	if err != nil || len(lines) != 1 || lines[0] != "app1" {
		t.Errorf("SHOW: %q %v", lines, err)
	}
	_, _, err = run(t, s, "SHOW no_such_setting")
	if sqlerr.CodeOf(err) != sqlerr.UndefinedObject {
		t.Errorf("unknown setting: %v", err)
	}
}

func TestTransactionBlockStates(t *testing.T) {
	s := newSession(t)
	run(t, s, "CREATE TABLE t (a INT)")
	if _, tag, _ := run(t, s, "BEGIN"); tag != "BEGIN" || s.TxStatus() != 'T' {
		t.Fatalf("BEGIN: %q %c", tag, s.TxStatus())
	}
	if _, _, err := run(t, s, "INSERT INTO t VALUES (1)"); err != nil {
		t.Errorf("write in a block: %v", err)
	}
	if _, _, err := run(t, s, "SELECT 1/0"); sqlerr.CodeOf(err) != sqlerr.DivisionByZero {
		t.Errorf("error in a block: %v", err)
	}
	if s.TxStatus() != 'E' {
		t.Errorf("status after an error in a block: %c", s.TxStatus())
	}
	if _, _, err := run(t, s, "SELECT 1"); sqlerr.CodeOf(err) != sqlerr.InFailedSQLTransaction {
		t.Errorf("statement in a failed block: %v", err)
	}
	if _, tag, _ := run(t, s, "COMMIT"); tag != "ROLLBACK" || s.TxStatus() != 'I' {
		t.Errorf("COMMIT of a failed block: %q %c", tag, s.TxStatus())
	}
	if lines, _, _ := run(t, s, "SELECT count(*) FROM t"); len(lines) != 1 || lines[0] != "0" {
		t.Errorf("the failed block's insert survived: %v", lines)
	}
	if _, _, err := run(t, s, "BEGIN; VACUUM t"); sqlerr.CodeOf(err) != sqlerr.ActiveSQLTransaction {
		t.Errorf("VACUUM in a block: %v", err)
	}
	run(t, s, "ROLLBACK")
}
