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
