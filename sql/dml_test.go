package sql

import (
	"reflect"
	"strings"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/sqlgate/sqlgate/sqlerr"
)

func TestDMLClausesMoveIntoExtraStatements(t *testing.T) {
	tests := []struct {
		in        string
		kind      Kind
		rewritten string // lower-cased, spaces as emitted
		returning int    // fields of Returning, -1 for none
		from      bool   // DMLFrom set
		params    []int
	}{
		{"INSERT INTO t VALUES (1) RETURNING *", Insert, "insert into t values (1) ; select *", 1, false, nil},
		{"insert into t values ($1) returning id AS \"Id\", v || 'x'", Insert, `insert into t values (?) ; select id as "Id", v | pg__pipes() | 'x'`, 2, false, []int{1}},
		{"INSERT INTO t VALUES (1) ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v RETURNING v", Insert,
			"insert into t values (1) on duplicate key update v = values (v ) ; select v", 1, false, nil},
		{"INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING RETURNING id", Insert, "insert into t values (1) ; select id", 1, false, nil},
		{"UPDATE t SET a = $2 FROM o, p WHERE o.id = t.id AND p.x = $1 RETURNING t.*, $3", Update,
			"update t set a = ? ; select * from o, p where o.id = t.id and p.x = ? ; select t.*, ?", 2, true, []int{2, 1, 3}},
		{"UPDATE t SET a = (SELECT b FROM o) WHERE c RETURNING a", Update, "update t set a = (select b from o) where c ; select a", 1, false, nil},
		{"UPDATE t SET a = substring(b FROM 2) WHERE c", Update, "update t set a = substring(b from 2) where c", -1, false, nil},
		{"DELETE FROM t RETURNING a IS DISTINCT FROM b, extract(year FROM d), (SELECT x FROM o ORDER BY x LIMIT 1)", Delete,
			"delete from t ; select not a <=> b, pg__extract('year', d), (select x from o order by x limit 1)", 3, false, nil},
		{"DELETE FROM t USING o WHERE o.id = t.id RETURNING *", Delete, "delete from t ; select * from o where o.id = t.id ; select *", 1, true, nil},
		{"DELETE FROM t AS x USING o", Delete, `delete from t as "x" ; select * from o`, -1, true, nil},
		{"DELETE FROM t WHERE id IN (SELECT id FROM o)", Delete, "delete from t where id in (select id from o)", -1, false, nil},
		{"WITH x AS (SELECT 1) UPDATE t SET v = 'z' RETURNING *", Update, "with x as (select 1) update t set v = 'z' ; select *", 1, false, nil},
		{"WITH x AS (SELECT 1 AS k) DELETE FROM t USING x WHERE x.k = t.k", Delete, `with x as (select 1 as "k") delete from t ; select * from x where x.k = t.k`, -1, true, nil},
		// RETURNING and USING only mean something at the top level
		{"SELECT 1 FROM t JOIN o USING (id)", Select, "select 1 from t join o using (id)", -1, false, nil},
		// the write EXPLAIN explains is rewritten as on its own
		{"EXPLAIN UPDATE t SET a = o.a FROM o WHERE o.id = t.id RETURNING t.*", Explain,
			"explain update t set a = o.a ; select * from o where o.id = t.id ; select t.*", 1, true, nil},
		{"EXPLAIN (ANALYZE, FORMAT JSON) DELETE FROM t RETURNING 1", Explain, "explain analyze delete from t ; select 1", 1, false, nil},
		{"EXPLAIN INSERT INTO t SELECT id FROM o RETURNING id * 10", Explain, "explain insert into t select id from o ; select id * 10", 1, false, nil},
		{"EXPLAIN ANALYZE INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING", Explain, "explain analyze insert into t values (1)", -1, false, nil},
	}
	p := NewParser()
	for _, tc := range tests {
		stmts, err := p.Parse(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		st := stmts[0]
		if st.Kind != tc.kind {
			t.Errorf("%s: kind %v, want %v", tc.in, st.Kind, tc.kind)
		}
		if got := strings.ToLower(st.Rewritten); got != strings.ToLower(tc.rewritten) {
			t.Errorf("%s: rewritten\n got %q\nwant %q", tc.in, st.Rewritten, tc.rewritten)
		}
		n := -1
		if st.Returning != nil {
			n = len(st.Returning.Fields)
		}
		if n != tc.returning {
			t.Errorf("%s: %d RETURNING fields, want %d", tc.in, n, tc.returning)
		}
		if (st.DMLFrom != nil) != tc.from {
			t.Errorf("%s: DMLFrom = %v, want %v", tc.in, st.DMLFrom != nil, tc.from)
		}
		if len(st.ParamNumbers) != len(tc.params) || (len(tc.params) > 0 && !reflect.DeepEqual(st.ParamNumbers, tc.params)) {
			t.Errorf("%s: params %v, want %v", tc.in, st.ParamNumbers, tc.params)
		}
	}
}

func TestInsertAlias(t *testing.T) {
	tests := []struct{ in, alias, rewritten string }{
		{"INSERT INTO t AS x VALUES (1) RETURNING x.id", "x", "insert into t values (1) ; select x.id"},
		{`INSERT INTO public.t AS "X" (id) VALUES (1)`, "X", "insert into public.t (id) values (1)"},
		{"INSERT INTO t VALUES (1)", "", "insert into t values (1)"},
		{"INSERT INTO t (a) SELECT b AS a FROM o", "", `insert into t (a) select b as "a" from o`},
	}
	p := NewParser()
	for _, tc := range tests {
		stmts, err := p.Parse(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if stmts[0].InsertAlias != tc.alias || !strings.EqualFold(stmts[0].Rewritten, tc.rewritten) {
			t.Errorf("%s: alias %q, rewritten %q; want %q, %q", tc.in, stmts[0].InsertAlias, stmts[0].Rewritten, tc.alias, tc.rewritten)
		}
	}
}

func TestDMLParamOrderSpansTheExtraStatements(t *testing.T) {
	stmts, err := NewParser().Parse("UPDATE t SET a = $2 FROM o WHERE o.id = $1 RETURNING $3")
	if err != nil {
		t.Fatal(err)
	}
	st := stmts[0]
	c := &paramCollector{}
	st.AST.Accept(c)
	st.DMLFrom.Accept(c)
	st.Returning.Accept(c)
	if len(c.markers) != 3 {
		t.Fatalf("%d markers", len(c.markers))
	}
	for i, m := range c.markers {
		if m.Order != i {
			t.Errorf("marker %d has order %d", i, m.Order)
		}
	}
	if st.NumParams != 3 {
		t.Errorf("NumParams = %d", st.NumParams)
	}
}

func TestReturningPositionsMapToTheOriginalText(t *testing.T) {
	in := "UPDATE t SET a = 1 FROM o WHERE o.x = t.x RETURNING é, nope"
	stmts, err := NewParser().Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	st := stmts[0]
	col := st.Returning.Fields[1].Expr.(*ast.ColumnNameExpr)
	want := len([]rune(in[:strings.Index(in, "nope")])) + 1
	if got := st.Position(col.OriginTextPosition()); got != want {
		t.Errorf("position of nope = %d, want %d", got, want)
	}
	where := st.DMLFrom.Where.(*ast.BinaryOperationExpr).L.(*ast.ColumnNameExpr)
	want = strings.Index(in, "o.x") + 1
	if got := st.Position(where.OriginTextPosition()); got != want {
		t.Errorf("position of o.x = %d, want %d", got, want)
	}
}

func TestDMLSyntaxErrors(t *testing.T) {
	tests := []struct {
		in  string
		msg string
		pos int
	}{
		{"INSERT INTO t VALUES (1) RETURNING", "syntax error at end of input", 35},
		{"UPDATE t SET a = 1 FROM", "syntax error at end of input", 24},
		{"DELETE FROM t USING WHERE true", `syntax error at or near "WHERE"`, 21},
		{"INSERT INTO t VALUES (1) RETURNING id,", "syntax error at end of input", 39},
		{"INSERT INTO t VALUES (1) RETURNING 1 UNION SELECT 2", `syntax error at or near "UNION"`, 38},
		{"DELETE FROM t RETURNING * FROM o", `syntax error at or near "FROM"`, 27},
		{"UPDATE t SET a = 1 FROM o ORDER BY a", `syntax error at or near "ORDER"`, 27},
		{"UPDATE t SET a = 1 FROM o GROUP BY a RETURNING a", `syntax error at or near "GROUP"`, 27},
		{"DELETE FROM t RETURNING a WHERE b", `syntax error at or near "WHERE"`, 27},
		{"DELETE FROM t RETURNING a LIMIT 1", `syntax error at or near "LIMIT"`, 27},
		{"DELETE FROM t WHERE a USING o", `syntax error at or near "USING"`, 23},
		{"UPDATE t SET a = 1 WHERE b FROM o", `syntax error at or near "FROM"`, 28},
		{"EXPLAIN COPY t FROM STDIN", `syntax error at or near "COPY"`, 9},
		{"EXPLAIN ANALYZE COPY t FROM STDIN", `syntax error at or near "COPY"`, 17},
		{"EXPLAIN (ANALYZE) COPY t FROM STDIN", `syntax error at or near "COPY"`, 19},
	}
	p := NewParser()
	for _, tc := range tests {
		_, err := p.Parse(tc.in)
		e := sqlerr.As(err)
		if e == nil {
			t.Errorf("%s: error %v", tc.in, err)
			continue
		}
		if e.Code != sqlerr.SyntaxError || e.Message != tc.msg || e.Position != tc.pos {
			t.Errorf("%s: got %s %q @%d, want 42601 %q @%d", tc.in, e.Code, e.Message, e.Position, tc.msg, tc.pos)
		}
	}
}

func TestBetweenSymmetricMarksTheLowerBound(t *testing.T) {
	tests := []struct{ in, want string }{
		{"SELECT a BETWEEN SYMMETRIC 3 AND 1", "select a between pg__symmetric ( 3 ) and 1"},
		{"SELECT a NOT BETWEEN SYMMETRIC b + 1 AND c", "select a not between pg__symmetric ( b + 1 ) and c"},
		{"SELECT a BETWEEN ASYMMETRIC 1 AND 3", "select a between 1 and 3"},
		{"SELECT a BETWEEN SYMMETRIC (CASE WHEN p AND q THEN 1 END) AND 2 AND r", "select a between pg__symmetric ( (case when p and q then 1 end) ) and 2 and r"},
		{"SELECT a BETWEEN SYMMETRIC CASE WHEN p AND q THEN 1 END AND 2", "select a between pg__symmetric ( case when p and q then 1 end ) and 2"},
		{"SELECT 'BETWEEN SYMMETRIC' AS x", `select 'BETWEEN SYMMETRIC' as "x"`},
	}
	p := NewParser()
	for _, tc := range tests {
		stmts, err := p.Parse(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if got := stmts[0].Rewritten; !strings.EqualFold(got, tc.want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
	if _, err := p.Parse("SELECT a BETWEEN SYMMETRIC 1"); sqlerr.CodeOf(err) != sqlerr.SyntaxError {
		t.Errorf("BETWEEN SYMMETRIC without AND: %v", err)
	}
}
