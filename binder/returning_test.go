package binder_test

import (
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// returningOf returns a bound write's RETURNING list.
func returningOf(st binder.Statement) *binder.Returning {
	switch s := st.(type) {
	case *binder.Insert:
		return s.Returning
	case *binder.Update:
		return s.Returning
	case *binder.Delete:
		return s.Returning
	}
	return nil
}

func TestReturningColumnsNamedAndTypedAsPostgres(t *testing.T) {
	cases := []struct {
		sql   string
		names []string
		types []string
		at    int // Returning.At (UPDATE, DELETE); -1 for INSERT (Exprs instead)
	}{
		{"INSERT INTO t VALUES (1, 'a', 1.5, 2) RETURNING *", []string{"id", "name", "score", "n"}, []string{"bigint", "string", "double", "int"}, -1},
		{"INSERT INTO t (id) VALUES (1) RETURNING id AS new_id, n + 1, upper(name), 'x'", []string{"new_id", "?column?", "upper", "?column?"}, []string{"bigint", "int", "string", "string"}, -1},
		{"INSERT INTO t (id) VALUES (1) ON CONFLICT (id) DO UPDATE SET n = EXCLUDED.n + 1 RETURNING t.n", []string{"n"}, []string{"int"}, -1},
		{"INSERT INTO t (id) VALUES (1) ON CONFLICT DO NOTHING RETURNING id", []string{"id"}, []string{"bigint"}, -1},
		{"INSERT INTO t AS x (id) VALUES (1) ON CONFLICT (id) DO UPDATE SET n = x.n + 1 RETURNING x.n, x.*", []string{"n", "id", "name", "score", "n"}, []string{"int", "bigint", "string", "double", "int"}, -1},
		// UPDATE: table columns, then RETURNING at 4
		{"UPDATE t SET n = n + 1 RETURNING *", []string{"id", "name", "score", "n"}, []string{"bigint", "string", "double", "int"}, 4},
		// the key moves: table columns, the old key, then RETURNING at 5
		{"UPDATE t SET id = id + 1 RETURNING id", []string{"id"}, []string{"bigint"}, 5},
		{"UPDATE t SET n = u.id FROM u WHERE u.label = t.name RETURNING t.id, u.label, *", []string{"id", "label", "id", "name", "score", "n", "id", "label"}, []string{"bigint", "string", "bigint", "string", "double", "int", "int", "string"}, 4},
		// DELETE: the key, then RETURNING at 1
		{"DELETE FROM t WHERE id = 1 RETURNING name, score * 2 AS double_score", []string{"name", "double_score"}, []string{"string", "double"}, 1},
		{"DELETE FROM t USING u WHERE u.id = t.n RETURNING u.*", []string{"id", "label"}, []string{"int", "string"}, 1},
	}
	for _, c := range cases {
		st, err := bind(t, c.sql)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		r := returningOf(st)
		if r == nil {
			t.Errorf("%s: no RETURNING bound", c.sql)
			continue
		}
		if len(r.Cols) != len(c.names) {
			t.Errorf("%s: %d columns, want %d", c.sql, len(r.Cols), len(c.names))
			continue
		}
		for i, col := range r.Cols {
			if col.Name != c.names[i] || col.T.Nullable().String() != c.types[i] {
				t.Errorf("%s: column %d is %s %s, want %s %s", c.sql, i, col.Name, col.T, c.names[i], c.types[i])
			}
		}
		if c.at < 0 {
			if len(r.Exprs) != len(r.Cols) {
				t.Errorf("%s: %d expressions for %d columns", c.sql, len(r.Exprs), len(r.Cols))
			}
			continue
		}
		if r.At != c.at {
			t.Errorf("%s: RETURNING at column %d, want %d", c.sql, r.At, c.at)
		}
		var src binder.Node
		switch s := st.(type) {
		case *binder.Update:
			src = s.Source
		case *binder.Delete:
			src = s.Keys
		}
		// a joined write's rows carry the other tables' columns after
		// RETURNING's (binder.Recheck.At)
		end := len(src.Columns())
		if re := recheckOf(st); re != nil {
			end = re.At
		}
		if end != c.at+len(c.names) {
			t.Errorf("%s: RETURNING ends at column %d, want %d", c.sql, end, c.at+len(c.names))
		}
	}
}

func recheckOf(st binder.Statement) *binder.Recheck {
	switch s := st.(type) {
	case *binder.Update:
		return s.Recheck
	case *binder.Delete:
		return s.Recheck
	}
	return nil
}

func TestReturningWithoutTheClauseDescribesNoRows(t *testing.T) {
	for _, q := range []string{"INSERT INTO t (id) VALUES (1)", "UPDATE t SET n = 1", "DELETE FROM t", "UPDATE t SET n = u.id FROM u"} {
		st, err := bind(t, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if r := returningOf(st); r != nil {
			t.Errorf("%s: RETURNING %v bound without the clause", q, r.Cols)
		}
	}
}

func TestUpdateFromAndDeleteUsingJoinTheTarget(t *testing.T) {
	cases := []struct {
		sql    string
		joined bool
	}{
		{"UPDATE t SET n = u.id FROM u WHERE u.label = t.name", true},
		{"UPDATE t AS x SET name = u.label FROM u, t AS y WHERE u.id = x.n AND y.id = x.id", true},
		{"UPDATE t SET n = 1 WHERE id = 2", false},
		{"DELETE FROM t USING u WHERE u.id = t.n", true},
		{"DELETE FROM t WHERE n IN (SELECT id FROM u)", false},
	}
	for _, c := range cases {
		st, err := bind(t, c.sql)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		var joined bool
		var plan binder.Node
		switch s := st.(type) {
		case *binder.Update:
			joined, plan = s.Joined, s.Source
		case *binder.Delete:
			joined, plan = s.Joined, s.Keys
		}
		if joined != c.joined {
			t.Errorf("%s: Joined = %v, want %v", c.sql, joined, c.joined)
		}
		if hasJoin(plan) != c.joined {
			t.Errorf("%s: plan has a join: %v, want %v", c.sql, hasJoin(plan), c.joined)
		}
	}
}

func hasJoin(n binder.Node) bool {
	if _, ok := n.(*binder.Join); ok {
		return true
	}
	for _, c := range n.Children() {
		if hasJoin(c) {
			return true
		}
	}
	return false
}

func TestDMLErrorsAsPostgres(t *testing.T) {
	cases := []struct {
		sql  string
		code sqlerr.Code
		pos  int
	}{
		{"INSERT INTO t (id) VALUES (1) RETURNING nope", sqlerr.UndefinedColumn, 41},
		{"UPDATE t SET n = 1 RETURNING nope", sqlerr.UndefinedColumn, 30},
		{"DELETE FROM t RETURNING t.nope", sqlerr.UndefinedColumn, 25},
		{"DELETE FROM t RETURNING u.id", sqlerr.UndefinedTable, 25},
		{"DELETE FROM t RETURNING count(*)", sqlerr.GroupingError, 25},
		{"DELETE FROM t RETURNING row_number() OVER ()", sqlerr.WindowingError, 25},
		{"INSERT INTO t (id) VALUES (1) ON CONFLICT (id) DO UPDATE SET n = 1 RETURNING excluded.n", sqlerr.UndefinedTable, 0},
		{"UPDATE u SET label = 'x' FROM t WHERE t.n = u.id", sqlerr.FeatureNotSupported, 0},
		{"INSERT INTO t AS x (id) VALUES (1) RETURNING t.id", sqlerr.UndefinedTable, 46},
		{"DELETE FROM u USING t WHERE t.n = u.id", sqlerr.FeatureNotSupported, 0},
		{"UPDATE t SET n = 1 FROM t", sqlerr.DuplicateAlias, 0},
		{"UPDATE t SET n = 1 FROM u WHERE id = 1", sqlerr.AmbiguousColumn, 0},
		{"DELETE FROM t USING missing WHERE true", sqlerr.UndefinedTable, 21},
		{"UPDATE t SET n = 1 FROM u WHERE u.nope = 1", sqlerr.UndefinedColumn, 33},
		{"UPDATE t SET n = 1 FROM u WHERE u.label", sqlerr.DatatypeMismatch, 0},
		{"INSERT INTO t$changelog (id) VALUES (1)", sqlerr.FeatureNotSupported, 0},
	}
	for _, c := range cases {
		_, err := bind(t, c.sql)
		e := sqlerr.As(err)
		if e == nil {
			t.Errorf("%s: want %s, got %v", c.sql, c.code, err)
			continue
		}
		if e.Code != c.code {
			t.Errorf("%s: code %s (%s), want %s", c.sql, e.Code, e.Message, c.code)
		}
		if c.pos != 0 && e.Position != c.pos {
			t.Errorf("%s: position %d, want %d", c.sql, e.Position, c.pos)
		}
	}
}

func TestBetweenSymmetricTriesBothOrders(t *testing.T) {
	cases := []struct {
		sql  string
		want []string // in the bound WHERE condition
		not  []string
	}{
		{"SELECT id FROM t WHERE n BETWEEN SYMMETRIC 5 AND 1", []string{"OR"}, nil},
		// PostgreSQL's NOT BETWEEN SYMMETRIC: (n < 5 OR n > 1) AND (n < 1 OR n > 5)
		{"SELECT id FROM t WHERE n NOT BETWEEN SYMMETRIC 5 AND 1", []string{"OR", "AND", "<", ">"}, []string{"NOT"}},
		{"SELECT id FROM t WHERE n BETWEEN ASYMMETRIC 1 AND 5", nil, []string{"OR"}},
		{"SELECT id FROM t WHERE n BETWEEN 1 AND 5", nil, []string{"OR"}},
	}
	for _, c := range cases {
		st, err := bind(t, c.sql)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		cond := ""
		var find func(n binder.Node)
		find = func(n binder.Node) {
			if f, ok := n.(*binder.Filter); ok {
				cond = f.Cond.String()
			}
			for _, ch := range n.Children() {
				find(ch)
			}
		}
		find(st.(*binder.Query).Plan)
		up := strings.ToUpper(cond)
		for _, w := range c.want {
			if !strings.Contains(up, w) {
				t.Errorf("%s: condition %s lacks %s", c.sql, cond, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(up, w) {
				t.Errorf("%s: condition %s has %s", c.sql, cond, w)
			}
		}
	}
}

func TestBinlogViewColumns(t *testing.T) {
	st, err := bind(t, "SELECT * FROM t$binlog")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range st.(*binder.Query).Plan.Columns() {
		got = append(got, c.Name+" "+c.T.String())
	}
	want := []string{"_change_type string NOT NULL", "_log_offset bigint NOT NULL", "_commit_timestamp timestamp_ltz(3) NOT NULL",
		"before row<id bigint NOT NULL, name string, score double, n int>", "after row<id bigint NOT NULL, name string, score double, n int>"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("t$binlog columns:\n got %v\nwant %v", got, want)
	}
	for _, q := range []string{"SELECT * FROM u$binlog", "UPDATE t$binlog SET _log_offset = 1", "DELETE FROM t$binlog"} {
		_, err := bind(t, q)
		if e := sqlerr.As(err); e == nil || e.Code != sqlerr.FeatureNotSupported {
			t.Errorf("%s: want 0A000, got %v", q, err)
		}
	}
	_, err = bind(t, "SELECT * FROM u$binlog")
	if e := sqlerr.As(err); e == nil || !strings.Contains(e.Message, "only supported for primary key tables") || e.Position != 15 {
		t.Errorf("u$binlog: %v", err)
	}
}
