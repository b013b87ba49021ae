package binder_test

import (
	"testing"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestNamedWindowErrorsAsPostgres: the WINDOW clause's errors carry
// PostgreSQL 15's SQLSTATEs, messages, hints and cursor positions (the
// positions psql shows for the same statements).
func TestNamedWindowErrorsAsPostgres(t *testing.T) {
	const gs = " FROM generate_series(1,3) x"
	cases := []struct {
		sql  string
		code sqlerr.Code
		msg  string
		hint string
		pos  int
	}{
		{"SELECT sum(x) OVER w" + gs, sqlerr.UndefinedObject, `window "w" does not exist`, "", 20},
		{"SELECT sum(x) OVER (nosuch ORDER BY x)" + gs + " WINDOW w AS (ORDER BY x)", sqlerr.UndefinedObject, `window "nosuch" does not exist`, "", 20},
		{"SELECT sum(x) OVER w" + gs + " WINDOW w AS (ORDER BY x), w AS (ORDER BY x)", sqlerr.WindowingError, `window "w" is already defined`, "", 81},
		{"SELECT sum(x) OVER (w PARTITION BY x)" + gs + " WINDOW w AS (PARTITION BY x)", sqlerr.WindowingError, `cannot override PARTITION BY clause of window "w"`, "", 20},
		{"SELECT sum(x) OVER (w ORDER BY x)" + gs + " WINDOW w AS (ORDER BY x)", sqlerr.WindowingError, `cannot override ORDER BY clause of window "w"`, "", 20},
		{"SELECT sum(x) OVER (w ORDER BY x)" + gs + " WINDOW w AS (ROWS UNBOUNDED PRECEDING)", sqlerr.WindowingError, `cannot copy window "w" because it has a frame clause`, "", 20},
		{"SELECT sum(x) OVER (w)" + gs + " WINDOW w AS (ORDER BY x ROWS UNBOUNDED PRECEDING)", sqlerr.WindowingError, `cannot copy window "w" because it has a frame clause`, "Omit the parentheses in this OVER clause.", 20},
		{"SELECT sum(x) OVER w2" + gs + " WINDOW w1 AS (PARTITION BY x), w2 AS (w1 PARTITION BY x)", sqlerr.WindowingError, `cannot override PARTITION BY clause of window "w1"`, "", 88},
		{"SELECT sum(x) OVER w2" + gs + " WINDOW w1 AS (ORDER BY x), w2 AS (w1 ORDER BY x)", sqlerr.WindowingError, `cannot override ORDER BY clause of window "w1"`, "", 84},
		{"SELECT sum(x) OVER w2" + gs + " WINDOW w1 AS (ORDER BY x ROWS 1 PRECEDING), w2 AS (w1)", sqlerr.WindowingError, `cannot copy window "w1" because it has a frame clause`, "", 101},
		{"SELECT sum(x) OVER w1" + gs + " WINDOW w1 AS (w2 ORDER BY x), w2 AS (PARTITION BY x)", sqlerr.UndefinedObject, `window "w2" does not exist`, "", 64},
		{"SELECT x" + gs + " WINDOW w AS (ORDER BY nosuch)", sqlerr.UndefinedColumn, `column "nosuch" does not exist`, "", 60},
		{"SELECT 1" + gs + " GROUP BY x+1 WINDOW w AS (ORDER BY x)", sqlerr.GroupingError, `column "x.x" must appear in the GROUP BY clause or be used in an aggregate function`, "", 73},
		{"SELECT sum(x) OVER W" + gs, sqlerr.UndefinedObject, `window "w" does not exist`, "", 20},
		{"SELECT sum(x) OVER w" + gs + " WINDOW w AS (ORDER BY sum(x) OVER ())", sqlerr.WindowingError, "window functions are not allowed in window definitions", "", 72},
		// the WINDOW clause is found after the SELECT's own clauses, not in
		// a WITH query or a subquery that uses the same names
		{"WITH w AS (SELECT 1) SELECT sum(x) OVER w" + gs + " WINDOW w AS (ORDER BY x), w AS (ORDER BY x)", sqlerr.WindowingError, `window "w" is already defined`, "", 102},
		{"SELECT sum(y) OVER w FROM (SELECT x AS y, sum(x) OVER w" + gs + " WINDOW w AS (ORDER BY x)) s WINDOW w AS (ORDER BY y), w AS (ORDER BY y)", sqlerr.WindowingError, `window "w" is already defined`, "", 144},
		{"SELECT sum(x) OVER w" + gs + " WHERE x IN (SELECT sum(y) OVER w FROM generate_series(1,3) y WINDOW w AS (ORDER BY y)) WINDOW w AS (ORDER BY x), w AS (ORDER BY x)", sqlerr.WindowingError, `window "w" is already defined`, "", 168},
		{"SELECT (SELECT max(y) OVER v FROM generate_series(1,3) y WINDOW v AS (ORDER BY y), v AS (ORDER BY y) LIMIT 1)" + gs + " WINDOW v AS (ORDER BY x)", sqlerr.WindowingError, `window "v" is already defined`, "", 89},
		{"SELECT sum(x) OVER w2" + gs + ` WINDOW "w1" AS (ORDER BY x), w2 AS (w1 ORDER BY x)`, sqlerr.WindowingError, `cannot override ORDER BY clause of window "w1"`, "", 86},
		// an aggregate in a window call's arguments or window (named or not)
		// groups the query
		{"SELECT x" + gs + " WINDOW w AS (ORDER BY sum(x))", sqlerr.GroupingError, `column "x.x" must appear in the GROUP BY clause or be used in an aggregate function`, "", 8},
		{"SELECT x, sum(sum(x)) OVER ()" + gs, sqlerr.GroupingError, `column "x.x" must appear in the GROUP BY clause or be used in an aggregate function`, "", 8},
		{"SELECT x" + gs + " WHERE sum(sum(x)) OVER () > 0", sqlerr.GroupingError, "aggregate functions are not allowed in WHERE", "", 48},
		{"SELECT x" + gs + " WHERE x > 0 AND count(*) > 1", sqlerr.GroupingError, "aggregate functions are not allowed in WHERE", "", 54},
	}
	for _, c := range cases {
		_, err := bind(t, c.sql)
		e := sqlerr.As(err)
		if e == nil || e.Code != c.code || e.Message != c.msg || e.Hint != c.hint || e.Position != c.pos {
			t.Errorf("%s: got %v (hint %q, position %d), want %s %q at %d", c.sql, err, hintOf(e), posOf(e), c.code, c.msg, c.pos)
		}
	}
}

func hintOf(e *sqlerr.Error) string {
	if e == nil {
		return ""
	}
	return e.Hint
}

func posOf(e *sqlerr.Error) int {
	if e == nil {
		return 0
	}
	return e.Position
}

// TestNamedWindowsBind: named windows, refined and chained, bind to the
// Window nodes an inline spec gives.
func TestNamedWindowsBind(t *testing.T) {
	cases := []struct{ named, inline string }{
		{"SELECT sum(x) OVER w FROM generate_series(1,3) x WINDOW w AS (ORDER BY x)",
			"SELECT sum(x) OVER (ORDER BY x) FROM generate_series(1,3) x"},
		{"SELECT sum(x) OVER (w ORDER BY x DESC ROWS 1 PRECEDING) FROM generate_series(1,3) x WINDOW w AS (PARTITION BY x % 2)",
			"SELECT sum(x) OVER (PARTITION BY x % 2 ORDER BY x DESC ROWS 1 PRECEDING) FROM generate_series(1,3) x"},
		{"SELECT sum(x) OVER w2 FROM generate_series(1,3) x WINDOW w1 AS (PARTITION BY x % 2), w2 AS (w1 ORDER BY x)",
			"SELECT sum(x) OVER (PARTITION BY x % 2 ORDER BY x) FROM generate_series(1,3) x"},
		{"SELECT sum(x) OVER w FROM generate_series(1,3) x WINDOW w AS (ORDER BY x ROWS 1 PRECEDING)",
			"SELECT sum(x) OVER (ORDER BY x ROWS 1 PRECEDING) FROM generate_series(1,3) x"},
	}
	for _, c := range cases {
		got, err := bind(t, c.named)
		if err != nil {
			t.Errorf("%s: %v", c.named, err)
			continue
		}
		want, err := bind(t, c.inline)
		if err != nil {
			t.Fatalf("%s: %v", c.inline, err)
		}
		g, w := windowOf(got), windowOf(want)
		if g == nil || w == nil || g.Call.Frame == nil != (w.Call.Frame == nil) || len(g.Call.Partition) != len(w.Call.Partition) || len(g.Call.Order) != len(w.Call.Order) {
			t.Errorf("%s: window %+v, want %+v", c.named, g, w)
			continue
		}
		if g.Call.Frame != nil && *g.Call.Frame != *w.Call.Frame {
			t.Errorf("%s: frame %+v, want %+v", c.named, *g.Call.Frame, *w.Call.Frame)
		}
		for i := range g.Call.Order {
			if g.Call.Order[i].Desc != w.Call.Order[i].Desc || g.Call.Order[i].Expr.String() != w.Call.Order[i].Expr.String() {
				t.Errorf("%s: order key %d %v, want %v", c.named, i, g.Call.Order[i], w.Call.Order[i])
			}
		}
	}
}

// windowOf finds the first Window node of a bound query.
func windowOf(s binder.Statement) *binder.Window {
	q, ok := s.(*binder.Query)
	if !ok {
		return nil
	}
	var find func(n binder.Node) *binder.Window
	find = func(n binder.Node) *binder.Window {
		if w, ok := n.(*binder.Window); ok {
			return w
		}
		for _, c := range n.Children() {
			if w := find(c); w != nil {
				return w
			}
		}
		return nil
	}
	return find(q.Plan)
}
