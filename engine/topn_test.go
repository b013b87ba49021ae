package engine_test

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/pgwire"
)

// TestLimitParamTopN: an ORDER BY whose LIMIT (or OFFSET) is a parameter,
// as ORMs and keyset pagination send it, keeps only LIMIT + OFFSET rows
// (a top-N) instead of sorting every row, and answers what the sort did.
func TestLimitParamTopN(t *testing.T) {
	ctx := context.Background()
	store, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	s, err := engine.New(store, engine.Options{}).NewSession(ctx, pgwire.SessionInfo{User: "u"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, q := range []string{
		"CREATE TABLE t (id BIGINT PRIMARY KEY, x INT)",
		"INSERT INTO t SELECT g, ((g * 7919) % 20011)::int FROM generate_series(1::bigint, 20000) AS g",
	} {
		if err := runQuery(ctx, s, q, nil); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for _, c := range []struct {
		sql    string
		params []any
		want   string // the first column's values
		topN   int    // rows the top-N keeps; 0: no top-N line; -1: a sort under a top_n line (not checked)
	}{
		{"SELECT id::text AS v FROM t ORDER BY id LIMIT $1", []any{int64(3)}, "1 2 3", 3},
		{"SELECT id::text AS v FROM t ORDER BY id DESC LIMIT $1 OFFSET $2", []any{int64(2), int64(5)}, "19995 19994", 7},
		{"SELECT id::text FROM t WHERE id > $1 ORDER BY id LIMIT $2", []any{int64(15000), int64(3)}, "15001 15002 15003", 3},
		{"SELECT x::text AS v FROM t ORDER BY x LIMIT $1", []any{int64(4)}, "1 2 3 4", 4},
		// an OFFSET only: no limit to keep, the sort stays
		{"SELECT id::text AS v FROM t ORDER BY id OFFSET $1", []any{int64(19998)}, "19999 20000", 0},
		// a limit beyond the top-N's bound sorts (and spills if it must)
		{"SELECT id::text AS v FROM t ORDER BY id LIMIT $1 OFFSET 19999", []any{int64(1 << 20)}, "20000", -1},
		{"SELECT id::text AS v FROM t ORDER BY id LIMIT $1", []any{int64(0)}, "", -1},
		{"SELECT id::text AS v FROM t ORDER BY id LIMIT $1", []any{nil}, "", -1},
	} {
		st, err := s.Prepare(ctx, c.sql, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		var out strings.Builder
		if err := runStatement(ctx, st[0], c.params, &out); err != nil {
			t.Fatalf("%s %v: %v", c.sql, c.params, err)
		}
		got := strings.Join(strings.Fields(out.String()), " ")
		if c.params[0] == nil {
			if n := len(strings.Fields(got)); n != 20000 {
				t.Errorf("%s with NULL: %d rows, want all 20000", c.sql, n)
			}
		} else if got != c.want {
			t.Errorf("%s %v = %q, want %q", c.sql, c.params, got, c.want)
		}
		st, err = s.Prepare(ctx, "EXPLAIN ANALYZE "+c.sql, nil)
		if err != nil {
			t.Fatalf("EXPLAIN ANALYZE %s: %v", c.sql, err)
		}
		var plan strings.Builder
		if err := runStatement(ctx, st[0], c.params, &plan); err != nil {
			t.Fatalf("EXPLAIN ANALYZE %s %v: %v", c.sql, c.params, err)
		}
		kept := topNKept(t, plan.String())
		if c.topN >= 0 && kept != c.topN {
			t.Errorf("%s %v: top-N kept %d rows, want %d:\n%s", c.sql, c.params, kept, c.topN, plan.String())
		}
	}
}

// topNKept returns the rows_out of the plan's top_n line (the rows it
// kept), 0 when the plan has none.
func topNKept(t *testing.T, plan string) int {
	t.Helper()
	for _, l := range strings.Split(plan, "\n") {
		if !strings.Contains(strings.TrimSpace(l), "top_n:") {
			continue
		}
		m := regexp.MustCompile(`rows_out=(\d+)`).FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("top_n line without rows_out: %s", l)
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

// TestTopNScanBounded: ORDER BY <key or integer column> LIMIT 10 over a
// large primary-key table read from its columnar image reads only the
// rows its top-N could keep (the scan's rows_out), not the table, and
// answers as a sort of every row would; a filter in between reads them
// all (the hint would be wrong there).
func TestTopNScanBounded(t *testing.T) {
	ctx := context.Background()
	store, err := embedded.Open(t.TempDir(), embedded.Options{ColumnarMinRows: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	s, err := engine.New(store, engine.Options{}).NewSession(ctx, pgwire.SessionInfo{User: "u"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const rows = 200000
	for _, q := range []string{
		"CREATE TABLE big (id BIGINT PRIMARY KEY, x INT, d DATE, s VARCHAR)",
		"INSERT INTO big SELECT g, ((g * 7919) % 200003)::int - 100000, DATE '2000-01-01' + (g % 5000)::int, 'v' || g FROM generate_series(1::bigint, 200000) AS g",
	} {
		if err := runQuery(ctx, s, q, nil); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	var b testing.B
	waitImage(&b, ctx, s, "SELECT id, x, d, s FROM big")
	for _, c := range []struct {
		sql     string
		params  []any
		want    string
		bounded bool
	}{
		{"SELECT id::text AS v FROM big ORDER BY id LIMIT 10", nil, "1 2 3 4 5 6 7 8 9 10", true},
		{"SELECT s FROM big ORDER BY id DESC LIMIT 3 OFFSET 2", nil, "v199998 v199997 v199996", true},
		{"SELECT s FROM big ORDER BY id LIMIT $1", []any{int64(2)}, "v1 v2", true},
		{"SELECT x::text AS v FROM big ORDER BY x LIMIT 3", nil, "-99999 -99998 -99997", true},
		{"SELECT d::text AS v FROM big ORDER BY d DESC LIMIT 2", nil, "2013-09-08 2013-09-08", true},
		// keyset pages: a filter of ranges alone passes the hint
		{"SELECT s FROM big WHERE id > $1 ORDER BY id LIMIT $2", []any{int64(150000), int64(3)}, "v150001 v150002 v150003", true},
		{"SELECT s FROM big WHERE id < 1000 AND x >= 0 ORDER BY id DESC LIMIT 2", nil, "v999 v998", true},
		{"SELECT s FROM big WHERE id > $1 ORDER BY id LIMIT 2", []any{nil}, "", false},
		{"SELECT s FROM big WHERE s <> 'v1' ORDER BY id LIMIT 2", nil, "v2 v3", false},
	} {
		st, err := s.Prepare(ctx, c.sql, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		var out strings.Builder
		if err := runStatement(ctx, st[0], c.params, &out); err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		if got := strings.Join(strings.Fields(out.String()), " "); got != c.want {
			t.Errorf("%s = %q, want %q", c.sql, got, c.want)
		}
		if st, err = s.Prepare(ctx, "EXPLAIN ANALYZE "+c.sql, nil); err != nil {
			t.Fatal(err)
		}
		var plan strings.Builder
		if err := runStatement(ctx, st[0], c.params, &plan); err != nil {
			t.Fatal(err)
		}
		read := scanRowsOut(t, plan.String())
		if c.bounded && read > 10 {
			t.Errorf("%s: the scan read %d rows of %d:\n%s", c.sql, read, rows, plan.String())
		}
		if !c.bounded && read != rows {
			t.Errorf("%s: the scan read %d rows, want all %d (a filter sits between):\n%s", c.sql, read, rows, plan.String())
		}
	}
}

// scanRowsOut returns the rows_out of the plan's scan line.
func scanRowsOut(t *testing.T, plan string) int {
	t.Helper()
	for _, l := range strings.Split(plan, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "scan:") {
			m := regexp.MustCompile(`rows_out=(\d+)`).FindStringSubmatch(l)
			if m == nil {
				t.Fatalf("scan line without rows_out: %s", l)
			}
			n, _ := strconv.Atoi(m[1])
			return n
		}
	}
	t.Fatalf("no scan line in:\n%s", plan)
	return 0
}
