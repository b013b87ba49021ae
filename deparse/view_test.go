package deparse

import (
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/types"
)

// testRelations are the tables of TestView's views (as testdata's oracle
// made them on PostgreSQL 15).
func testRelations(t *testing.T) Relations {
	tables := map[string][][2]string{
		"t1": {{"a", "int4"}, {"b", "text"}, {"c", "numeric(10,2)"}, {"d", "varchar(10)"}},
		"t2": {{"a", "int4"}, {"x", "int8"}, {"y", "date"}},
	}
	return func(schema, name string) ([]Column, string, bool) {
		defs, ok := tables[name]
		if !ok || schema != "" && schema != "public" {
			return nil, "", false
		}
		var out []Column
		for _, d := range defs {
			typ, err := binder.ParseType(d[1])
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, Column{Name: d[0], Type: typ})
		}
		return out, "public", true
	}
}

// TestView compares with PostgreSQL 15's pg_get_viewdef(v) and
// pg_get_viewdef(v, true) of the same views over the same tables
// (recorded from the server; names are the views' column names).
func TestView(t *testing.T) {
	rels := testRelations(t)
	for _, c := range []struct{ query, names, plain, pretty string }{
		{"SELECT t1.a, count(*) AS n, sum(t2.x) FROM t1 JOIN t2 ON t1.a = t2.a LEFT JOIN t2 z ON z.x = t1.a WHERE t2.y > '2020-01-01' GROUP BY t1.a HAVING count(*) > 1 ORDER BY 2 DESC, t1.a LIMIT 10 OFFSET 2", "a,n,sum", " SELECT t1.a,\n    count(*) AS n,\n    sum(t2.x) AS sum\n   FROM ((t1\n     JOIN t2 ON ((t1.a = t2.a)))\n     LEFT JOIN t2 z ON ((z.x = t1.a)))\n  WHERE (t2.y > '2020-01-01'::date)\n  GROUP BY t1.a\n HAVING (count(*) > 1)\n  ORDER BY (count(*)) DESC, t1.a\n OFFSET 2\n LIMIT 10;", " SELECT t1.a,\n    count(*) AS n,\n    sum(t2.x) AS sum\n   FROM t1\n     JOIN t2 ON t1.a = t2.a\n     LEFT JOIN t2 z ON z.x = t1.a\n  WHERE t2.y > '2020-01-01'::date\n  GROUP BY t1.a\n HAVING count(*) > 1\n  ORDER BY (count(*)) DESC, t1.a\n OFFSET 2\n LIMIT 10;"},
		{"SELECT a FROM t1 UNION SELECT a FROM t2 UNION ALL SELECT 3 ORDER BY 1", "a", "(\n         SELECT t1.a\n           FROM t1\n        UNION\n         SELECT t2.a\n           FROM t2\n) UNION ALL\n SELECT 3 AS a\n  ORDER BY 1;", "(\n         SELECT t1.a\n           FROM t1\n        UNION\n         SELECT t2.a\n           FROM t2\n) UNION ALL\n SELECT 3 AS a\n  ORDER BY 1;"},
		{"SELECT s.a, s.m FROM (SELECT a, max(b) AS m FROM t1 GROUP BY a) s, t2 WHERE s.a = t2.a", "a,m", " SELECT s.a,\n    s.m\n   FROM ( SELECT t1.a,\n            max(t1.b) AS m\n           FROM t1\n          GROUP BY t1.a) s,\n    t2\n  WHERE (s.a = t2.a);", " SELECT s.a,\n    s.m\n   FROM ( SELECT t1.a,\n            max(t1.b) AS m\n           FROM t1\n          GROUP BY t1.a) s,\n    t2\n  WHERE s.a = t2.a;"},
		{"WITH w AS (SELECT a, b FROM t1) SELECT * FROM w WHERE a IN (SELECT a FROM t2) AND EXISTS (SELECT 1 FROM t2 WHERE t2.a = w.a)", "a,b", " WITH w AS (\n         SELECT t1.a,\n            t1.b\n           FROM t1\n        )\n SELECT w.a,\n    w.b\n   FROM w\n  WHERE ((w.a IN ( SELECT t2.a\n           FROM t2)) AND (EXISTS ( SELECT 1\n           FROM t2\n          WHERE (t2.a = w.a))));", " WITH w AS (\n         SELECT t1.a,\n            t1.b\n           FROM t1\n        )\n SELECT w.a,\n    w.b\n   FROM w\n  WHERE (w.a IN ( SELECT t2.a\n           FROM t2)) AND (EXISTS ( SELECT 1\n           FROM t2\n          WHERE t2.a = w.a));"},
		{"SELECT DISTINCT b, lower(d), d::text, c::int FROM t1 ORDER BY b", "b,lower,d,c", " SELECT DISTINCT t1.b,\n    lower((t1.d)::text) AS lower,\n    (t1.d)::text AS d,\n    (t1.c)::integer AS c\n   FROM t1\n  ORDER BY t1.b;", " SELECT DISTINCT t1.b,\n    lower(t1.d::text) AS lower,\n    t1.d::text AS d,\n    t1.c::integer AS c\n   FROM t1\n  ORDER BY t1.b;"},
		{"SELECT * FROM t1 NATURAL JOIN t2", "a,b,c,d,x,y", " SELECT t1.a,\n    t1.b,\n    t1.c,\n    t1.d,\n    t2.x,\n    t2.y\n   FROM (t1\n     JOIN t2 USING (a));", " SELECT t1.a,\n    t1.b,\n    t1.c,\n    t1.d,\n    t2.x,\n    t2.y\n   FROM t1\n     JOIN t2 USING (a);"},
		{"SELECT a, b AS bb, a + 1, c * 2 AS cc, 'lit' AS l, -1 AS m, 2.5 AS f, 'x'::varchar AS vv, ARRAY[1,2] AS arr, '{1,2}'::int[] AS arr2 FROM t1 WHERE a > 1 AND b = 'x' OR d IS NULL", "a,bb,?column?,cc,l,m,f,vv,arr,arr2", " SELECT t1.a,\n    t1.b AS bb,\n    (t1.a + 1) AS \"?column?\",\n    (t1.c * (2)::numeric) AS cc,\n    'lit'::text AS l,\n    '-1'::integer AS m,\n    2.5 AS f,\n    'x'::character varying AS vv,\n    ARRAY[1, 2] AS arr,\n    '{1,2}'::integer[] AS arr2\n   FROM t1\n  WHERE (((t1.a > 1) AND (t1.b = 'x'::text)) OR (t1.d IS NULL));", " SELECT t1.a,\n    t1.b AS bb,\n    t1.a + 1 AS \"?column?\",\n    t1.c * 2::numeric AS cc,\n    'lit'::text AS l,\n    '-1'::integer AS m,\n    2.5 AS f,\n    'x'::character varying AS vv,\n    ARRAY[1, 2] AS arr,\n    '{1,2}'::integer[] AS arr2\n   FROM t1\n  WHERE t1.a > 1 AND t1.b = 'x'::text OR t1.d IS NULL;"},
		{"SELECT t1.a FROM t1 WHERE t1.a IN (SELECT a FROM t1 WHERE b LIKE 'x%') ORDER BY 1 NULLS FIRST", "a", " SELECT t1.a\n   FROM t1\n  WHERE (t1.a IN ( SELECT t1_1.a\n           FROM t1 t1_1\n          WHERE (t1_1.b ~~ 'x%'::text)))\n  ORDER BY t1.a NULLS FIRST;", " SELECT t1.a\n   FROM t1\n  WHERE (t1.a IN ( SELECT t1_1.a\n           FROM t1 t1_1\n          WHERE t1_1.b ~~ 'x%'::text))\n  ORDER BY t1.a NULLS FIRST;"},
		{"SELECT t1.a, t2.x FROM t1 CROSS JOIN t2 WHERE t1.b SIMILAR TO 'a%' OR t2.x BETWEEN SYMMETRIC 5 AND 1", "a,x", " SELECT t1.a,\n    t2.x\n   FROM (t1\n     CROSS JOIN t2)\n  WHERE ((t1.b ~ similar_to_escape('a%'::text)) OR (((t2.x >= 5) AND (t2.x <= 1)) OR ((t2.x >= 1) AND (t2.x <= 5))));", " SELECT t1.a,\n    t2.x\n   FROM t1\n     CROSS JOIN t2\n  WHERE t1.b ~ similar_to_escape('a%'::text) OR t2.x >= 5 AND t2.x <= 1 OR t2.x >= 1 AND t2.x <= 5;"},
		{"SELECT c::numeric(12,3) AS n FROM t1 ORDER BY 1 OFFSET 3", "n", " SELECT (t1.c)::numeric(12,3) AS n\n   FROM t1\n  ORDER BY ((t1.c)::numeric(12,3))\n OFFSET 3;", " SELECT t1.c::numeric(12,3) AS n\n   FROM t1\n  ORDER BY (t1.c::numeric(12,3))\n OFFSET 3;"},
		{"SELECT a, row_number() OVER (PARTITION BY b ORDER BY c DESC) AS rn, sum(c) OVER (PARTITION BY a + 1) AS s, count(*) OVER () AS n FROM t1 ORDER BY 2", "a,rn,s,n", " SELECT t1.a,\n    row_number() OVER (PARTITION BY t1.b ORDER BY t1.c DESC) AS rn,\n    sum(t1.c) OVER (PARTITION BY (t1.a + 1)) AS s,\n    count(*) OVER () AS n\n   FROM t1\n  ORDER BY (row_number() OVER (PARTITION BY t1.b ORDER BY t1.c DESC));", " SELECT t1.a,\n    row_number() OVER (PARTITION BY t1.b ORDER BY t1.c DESC) AS rn,\n    sum(t1.c) OVER (PARTITION BY (t1.a + 1)) AS s,\n    count(*) OVER () AS n\n   FROM t1\n  ORDER BY (row_number() OVER (PARTITION BY t1.b ORDER BY t1.c DESC));"},
	} {
		names := strings.Split(c.names, ",")
		for _, pretty := range []bool{false, true} {
			want := c.plain
			if pretty {
				want = c.pretty
			}
			got, err := View(c.query, rels, names, pretty, 0, Scope{})
			if err != nil || got != want {
				t.Errorf("%s (pretty %v):\n got %q, %v\nwant %q", c.query, pretty, got, err, want)
			}
		}
	}
}

// TestViewRefused: what the deparser does not reproduce is an error (the
// catalog shows the text as written), never a wrong text.
func TestViewRefused(t *testing.T) {
	rels := testRelations(t)
	for _, c := range []struct{ query, names string }{
		{"SELECT a FROM nosuch", "a"},
		{"SELECT * FROM t1", "a,b"}, // a column was added under SELECT *
		{"SELECT a FROM t1, t2 CROSS JOIN t1 x", "a"},
		{"WITH RECURSIVE r AS (SELECT 1 AS n) SELECT n FROM r", "n"},
		{"SELECT sum(a) OVER w FROM t1 WINDOW w AS (PARTITION BY b)", "sum"},
		{"SELECT sum(a) OVER (ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t1", "sum"},
		{"SELECT x FROM t1 FULL JOIN t2 USING (a)", "x"},
	} {
		if got, err := View(c.query, rels, strings.Split(c.names, ","), false, 0, Scope{}); err == nil {
			t.Errorf("%s: printed %q", c.query, got)
		}
	}
}

// TestViewCommaBesideCrossJoinText: FROM a, b is a comma whatever a string
// literal of the query says (the tree holds CROSS JOIN and the comma
// alike; the text decides).
func TestViewCommaBesideCrossJoinText(t *testing.T) {
	got, err := View("SELECT x FROM t1, t2 WHERE b <> 'cross join'", testRelations(t), []string{"x"}, true, 0, Scope{})
	want := " SELECT t2.x\n   FROM t1,\n    t2\n  WHERE t1.b <> 'cross join'::text;"
	if err != nil || got != want {
		t.Errorf("got %q, %v\nwant %q", got, err, want)
	}
}

// TestUserFunctionsAndPath: a user function's call and a relation print
// schema-qualified when their schema is not on the search path (pg_dump's
// is empty), bare when it is, as PostgreSQL 15's generate_function_name
// and generate_relation_name print them (the texts are its
// pg_get_viewdef's and pg_get_constraintdef's of the same objects); a
// call of a function Scope does not list shows as written.
func TestUserFunctionsAndPath(t *testing.T) {
	funcs := []Function{
		{Schema: "public", Name: "f", Args: []types.T{{Kind: types.Int32}}, Ret: types.T{Kind: types.Bool}},
		{Schema: "public", Name: "g", Args: []types.T{{Kind: types.Int32}, {Kind: types.String}}, Ret: types.T{Kind: types.Int32}},
	}
	none := func(string) bool { return false }
	for _, c := range []struct {
		visible         func(string) bool
		query, names    string
		view            string
		check, checkOut string
	}{
		{nil, "SELECT f(a) AS fa, public.g(a, b) AS gab, g(1, 'z') AS gz FROM t1 WHERE public.f(a)", "fa,gab,gz",
			" SELECT f(t1.a) AS fa,\n    g(t1.a, t1.b) AS gab,\n    g(1, 'z'::text) AS gz\n   FROM t1\n  WHERE f(t1.a);",
			"f(a) AND a > 2", "CHECK ((f(a) AND (a > 2)))"},
		{none, "SELECT f(a) AS fa, public.g(a, b) AS gab, g(1, 'z') AS gz FROM t1 WHERE public.f(a)", "fa,gab,gz",
			" SELECT public.f(t1.a) AS fa,\n    public.g(t1.a, t1.b) AS gab,\n    public.g(1, 'z'::text) AS gz\n   FROM public.t1\n  WHERE public.f(t1.a);",
			"public.g(a, b) < 100 OR lower(b) = 'y'", "CHECK (((public.g(a, b) < 100) OR (lower(b) = 'y'::text)))"},
	} {
		sc := Scope{Visible: c.visible, Functions: funcs}
		if got, err := View(c.query, testRelations(t), strings.Split(c.names, ","), false, 0, sc); err != nil || got != c.view {
			t.Errorf("%s: got %q, %v\nwant %q", c.query, got, err, c.view)
		}
		sc.Columns = []Column{{Name: "a", Type: types.T{Kind: types.Int32}}, {Name: "b", Type: types.T{Kind: types.String}}}
		if got, err := Check(c.check, sc, false, false); err != nil || got != c.checkOut {
			t.Errorf("CHECK (%s): got %q, %v\nwant %q", c.check, got, err, c.checkOut)
		}
	}
	if got, err := Check("h(a)", Scope{Columns: []Column{{Name: "a", Type: types.T{Kind: types.Int32}}}, Functions: funcs}, false, false); err == nil {
		t.Errorf("CHECK (h(a)) of an unknown function: printed %q", got)
	}
}

// TestUserCallForms: calls in named notation, with DEFAULTs left out and
// of a VARIADIC function print as PostgreSQL 15's pg_get_viewdef printed
// the same view (usercall.go).
func TestUserCallForms(t *testing.T) {
	i4, num, txt := types.T{Kind: types.Int32}, types.T{Kind: types.Decimal}, types.T{Kind: types.String}
	funcs := []Function{
		{Schema: "public", Name: "cf3", Args: []types.T{i4, i4, i4}, Ret: i4, ArgNames: []string{"a", "b", "c"}},
		{Schema: "public", Name: "cfv", Args: []types.T{i4, types.ArrayOf(i4)}, Ret: i4, ArgNames: []string{"n", "r"}, Variadic: true},
		{Schema: "public", Name: "cfd", Args: []types.T{num, txt, i4}, Ret: i4, ArgNames: []string{"a", "b", "c"}, Defaults: 2},
	}
	query := "SELECT cf3(a, c => 1, b := 2) AS x, cfv(1, 2, a) AS y, cfv(a, VARIADIC ARRAY[1]) AS z, cfd(a, c => 2) AS w, cfd(c, 'k') AS v FROM t1"
	want := " SELECT cf3(t1.a, c => 1, b => 2) AS x,\n    cfv(1, VARIADIC ARRAY[2, t1.a]) AS y,\n    cfv(t1.a, VARIADIC ARRAY[1]) AS z,\n" +
		"    cfd((t1.a)::numeric, c => 2) AS w,\n    cfd(t1.c, 'k'::text) AS v\n   FROM t1;"
	got, err := View(query, testRelations(t), strings.Split("x,y,z,w,v", ","), false, 0, Scope{Functions: funcs})
	if err != nil || got != want {
		t.Errorf("got %q, %v\nwant %q", got, err, want)
	}
	// a call no form of the function fits shows as written
	if got, err := View("SELECT cfd() AS q FROM t1", testRelations(t), []string{"q"}, false, 0, Scope{Functions: funcs}); err == nil {
		t.Errorf("cfd() printed %q", got)
	}
}
