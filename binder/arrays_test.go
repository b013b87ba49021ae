package binder_test

import (
	"testing"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestArraysBindAsPostgres checks the output names and types of array
// expressions and table functions (PostgreSQL 15's names: "array" for
// constructors, the element type for a cast to T[], the relation alias for
// a table function's column), and their bind-time errors.
func TestArraysBindAsPostgres(t *testing.T) {
	cases := []struct {
		sql   string
		names []string
		types []string
		code  sqlerr.Code
	}{
		{sql: "SELECT ARRAY[1, 2], ARRAY['a'], ARRAY[n, 2.5] FROM t", names: []string{"array", "array", "array"},
			types: []string{"array<int>", "array<string>", "array<numeric>"}},
		{sql: "SELECT '{1,2}'::int[], ARRAY[1]::text[], '{a}'::varchar(3)[]", names: []string{"int4", "array", "varchar"},
			types: []string{"array<int>", "array<string>", "array<string>"}},
		{sql: "SELECT (ARRAY[1, 2])[1], (ARRAY[1, 2])[1:1], (ARRAY[n])[:1] FROM t", names: []string{"array", "array", "array"},
			types: []string{"int", "array<int>", "array<int>"}},
		{sql: "SELECT n = ANY (ARRAY[1, 2]), 'x' = ANY ('{a}'), id <> ALL ('{1}') FROM t", names: []string{"?column?", "?column?", "?column?"},
			types: []string{"boolean", "boolean", "boolean"}},
		{sql: "SELECT ARRAY(SELECT label FROM u), ARRAY(SELECT id FROM u WHERE u.id = t.n) FROM t", names: []string{"array", "array"},
			types: []string{"array<string>", "array<int>"}},
		{sql: "SELECT ARRAY[1] = ARRAY[2], ARRAY[1] || ARRAY[2], ARRAY[1] || 2, ARRAY[]::int[]", names: []string{"?column?", "?column?", "?column?", "array"},
			types: []string{"boolean", "array<int>", "array<int>", "array<int>"}},
		{sql: "SELECT array_to_string(ARRAY[1], ','), cardinality(ARRAY[1]), array_upper(ARRAY[1], 1)",
			names: []string{"array_to_string", "cardinality", "array_upper"}, types: []string{"string", "int", "int"}},
		{sql: "SELECT * FROM unnest(ARRAY[1, 2])", names: []string{"unnest"}, types: []string{"int"}},
		{sql: "SELECT * FROM unnest(ARRAY['a']) WITH ORDINALITY", names: []string{"unnest", "ordinality"}, types: []string{"string", "bigint NOT NULL"}},
		{sql: "SELECT * FROM unnest(ARRAY['a']) WITH ORDINALITY AS x(v)", names: []string{"v", "ordinality"}, types: []string{"string", "bigint NOT NULL"}},
		{sql: "SELECT x.* FROM pg_catalog.generate_series(1, 3) x", names: []string{"x"}, types: []string{"int"}},
		{sql: "SELECT * FROM generate_series(1, 3::bigint) AS g(v)", names: []string{"v"}, types: []string{"bigint"}},
		{sql: "SELECT s FROM t, generate_subscripts(ARRAY[1], 1) s", names: []string{"s"}, types: []string{"int"}},
		{sql: "SELECT (SELECT count(*) FROM unnest(ARRAY[t.n]) v) FROM t", names: []string{"count"}, types: []string{"bigint"}},
		{sql: "SELECT u FROM t, unnest(ARRAY[t.n]) u", names: []string{"u"}, types: []string{"int"}}, // a function in FROM is lateral

		{sql: "SELECT (ARRAY[1])[1][2], (ARRAY[1])[1:1][2], ARRAY[[1], [2]], (ARRAY[[1], [2]])[1][1]", names: []string{"array", "array", "array", "array"},
			types: []string{"int", "array<int>", "array<array<int>>", "int"}},

		// arrays of several dimensions: PostgreSQL's element type is the
		// innermost one (array_append onto one answers a one-dimensional
		// array, when it answers)
		{sql: "SELECT array_replace(ARRAY[[1, 2]], 1, 2.5), array_position(ARRAY[[1]], 1), array_append(ARRAY[[1]], 2), 3 = ANY (ARRAY[[1], [2]]), ARRAY[[1]] || ARRAY[2]",
			names: []string{"array_replace", "array_position", "array_append", "?column?", "?column?"},
			types: []string{"array<array<numeric>>", "int", "array<int>", "boolean", "array<array<int>>"}},
		{sql: "SELECT array_fill(7, ARRAY[2, 2]), array[1] IN (SELECT array[n] FROM t), '{}'::jsonb < ALL (SELECT '[]'::jsonb)",
			names: []string{"array_fill", "?column?", "?column?"}, types: []string{"array<array<int>>", "boolean", "boolean"}},
		{sql: "SELECT ARRAY[1] = ANY (ARRAY[[1], [2]])", code: sqlerr.UndefinedFunction},
		{sql: "SELECT array_append(ARRAY[[1]], ARRAY[2])", code: sqlerr.UndefinedFunction},
		{sql: "SELECT ARRAY[ARRAY[1], NULL]", code: sqlerr.Code("2202E")},
		{sql: "SELECT ARRAY[ARRAY[1, 2], ARRAY[3]]", code: sqlerr.Code("2202E")},
		{sql: "SELECT x FROM (VALUES (ARRAY['{}'::json])) v(x) ORDER BY x", code: sqlerr.UndefinedFunction},
		{sql: "SELECT generate_series(1, 2), unnest(ARRAY['a']) AS u, n FROM t", names: []string{"generate_series", "u", "n"}, types: []string{"int", "string", "int"}},
		{sql: "SELECT unnest(array_agg(n)) + 1 FROM t GROUP BY id", names: []string{"?column?"}, types: []string{"int"}},

		{sql: "SELECT (information_schema._pg_expandarray(ARRAY[1])).n, (_pg_expandarray(ARRAY['a'])).x, (_pg_expandarray(ARRAY[1])).x AS v",
			names: []string{"n", "x", "v"}, types: []string{"int", "string", "int"}},
		{sql: "SELECT (k).x, (s.k).n FROM (SELECT information_schema._pg_expandarray(ARRAY[n]) AS k FROM t) s", names: []string{"x", "n"}, types: []string{"int", "int"}},
		{sql: "SELECT n & 1, n | 2::int8, 1::int2 & 3::int2, n << 1, '6' >> 1 FROM t", names: []string{"?column?", "?column?", "?column?", "?column?", "?column?"},
			types: []string{"int", "bigint", "smallint", "int", "int"}},

		{sql: "SELECT * FROM string_to_array('a,b', ',') s, current_schema(), lower('A') AS x(y), upper('b') WITH ORDINALITY",
			names: []string{"s", "current_schema", "y", "upper", "ordinality"}, types: []string{"array<string>", "name", "string", "string", "bigint NOT NULL"}},
		{sql: "SELECT s[2], x.* FROM string_to_array('a,b', ',') s, pg_catalog.lower('Q') x", names: []string{"s", "x"}, types: []string{"string", "string"}},
		{sql: "SELECT * FROM information_schema._pg_expandarray(ARRAY['a']) WITH ORDINALITY AS e(v)", names: []string{"v", "n", "ordinality"},
			types: []string{"string", "int", "bigint NOT NULL"}},
		{sql: "SELECT * FROM sum(1)", code: sqlerr.GroupingError},
		{sql: "SELECT * FROM nosuchfunc(1)", code: sqlerr.UndefinedFunction},
		{sql: "SELECT * FROM lower('a') AS x(a, b)", code: sqlerr.InvalidColumnReference},

		{sql: "SELECT (1).x", code: sqlerr.WrongObjectType},
		{sql: "SELECT (_pg_expandarray(ARRAY[1])).z", code: sqlerr.UndefinedColumn},
		{sql: "SELECT (n).* FROM t", code: sqlerr.WrongObjectType},
		{sql: "SELECT '1' & '2'", code: sqlerr.Code("42725")},
		{sql: "SELECT 1.5 & 1", code: sqlerr.UndefinedFunction},
		{sql: "SELECT 1 FROM t WHERE unnest(ARRAY[true])", code: sqlerr.FeatureNotSupported},
		{sql: "SELECT sum(unnest(ARRAY[1])) FROM t", code: sqlerr.FeatureNotSupported},
		{sql: "SELECT count(*) FROM t HAVING unnest(ARRAY[true])", code: sqlerr.FeatureNotSupported},
		{sql: "SELECT unnest(unnest(ARRAY[1]))", code: sqlerr.UndefinedFunction}, // unnest(integer), as PostgreSQL
		{sql: "SELECT ARRAY[]", code: sqlerr.IndeterminateDatatype},
		{sql: "SELECT (ARRAY[[1], [2]])[1:1][1]", code: sqlerr.FeatureNotSupported},
		{sql: "SELECT (ARRAY[1])[1]['x']", code: sqlerr.InvalidTextRepresentation},
		{sql: "SELECT ARRAY[1, 'x']", code: sqlerr.InvalidTextRepresentation},
		{sql: "SELECT ARRAY[1, true]", code: sqlerr.DatatypeMismatch},
		{sql: "SELECT '{1,x}'::int[]", code: sqlerr.InvalidTextRepresentation},
		{sql: "SELECT n[1] FROM t", code: sqlerr.DatatypeMismatch},
		{sql: "SELECT (ARRAY[1])['a']", code: sqlerr.InvalidTextRepresentation},
		{sql: "SELECT (ARRAY[1])[true]", code: sqlerr.DatatypeMismatch},
		{sql: "SELECT 1 = ANY (1)", code: sqlerr.WrongObjectType},
		{sql: "SELECT true = ANY (ARRAY[1])", code: sqlerr.UndefinedFunction},
		{sql: "SELECT ARRAY[1] = 1", code: sqlerr.UndefinedFunction},
		{sql: "SELECT ARRAY(SELECT id, label FROM u)", code: sqlerr.SyntaxError},
		{sql: "SELECT * FROM unnest(1)", code: sqlerr.UndefinedFunction},
		{sql: "SELECT * FROM unnest('{1}')", code: sqlerr.AmbiguousFunction}, // unnest(anyarray) or unnest(tsvector)
		{sql: "SELECT * FROM generate_series(1, 'x')", code: sqlerr.InvalidTextRepresentation},
		{sql: "SELECT * FROM unnest(ARRAY[1]) AS x(a, b)", code: sqlerr.InvalidColumnReference},
		{sql: "SELECT * FROM t RIGHT JOIN unnest(ARRAY[t.n]) ON true", code: sqlerr.InvalidColumnReference}, // lateral, but not from a RIGHT JOIN
	}
	for _, c := range cases {
		st, err := bind(t, c.sql)
		if c.code != "" {
			if se := sqlerr.As(err); se == nil || se.Code != c.code {
				t.Errorf("%s: err %v, want %s", c.sql, err, c.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		cols := st.(*binder.Query).Plan.Columns()
		if len(cols) != len(c.names) {
			t.Errorf("%s: %d columns, want %d", c.sql, len(cols), len(c.names))
			continue
		}
		for i, col := range cols {
			if col.Name != c.names[i] || col.T.String() != c.types[i] {
				t.Errorf("%s: column %d is %s %s, want %s %s", c.sql, i, col.Name, col.T, c.names[i], c.types[i])
			}
		}
	}
}

// TestProjectSetPlan: set-returning calls of a SELECT list become a
// ProjectSet under the projection, with the calls' arguments over its input.
func TestProjectSetPlan(t *testing.T) {
	st, err := bind(t, "SELECT n, generate_series(1, n), unnest(ARRAY[name]) FROM t")
	if err != nil {
		t.Fatal(err)
	}
	p, ok := st.(*binder.Query).Plan.(*binder.Project)
	if !ok {
		t.Fatalf("plan %T", st.(*binder.Query).Plan)
	}
	ps, ok := p.Input.(*binder.ProjectSet)
	if !ok {
		t.Fatalf("projection input %T", p.Input)
	}
	if len(ps.Calls) != 2 || ps.Calls[0].Func.Name != "generate_series" || ps.Calls[1].Func.Name != "unnest" {
		t.Fatalf("calls %+v", ps.Calls)
	}
	in := len(ps.Input.Columns())
	if got := len(ps.Columns()); got != in+2 {
		t.Errorf("ProjectSet has %d columns, want %d", got, in+2)
	}
	if got := p.Exprs[1].String(); got != "generate_series" {
		t.Errorf("projection reads %s", got)
	}
	if ref, ok := p.Exprs[2].(*binder.ColumnRef); !ok || ref.Index != in+1 {
		t.Errorf("unnest is read as %#v", p.Exprs[2])
	}
}
