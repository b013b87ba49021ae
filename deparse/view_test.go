package deparse

import (
	"testing"

	"github.com/sqlgate/sqlgate/binder"
)

// testRelations are the tables of TestView's views (as testdata's oracle
// made them on PostgreSQL 15).
func testRelations(t *testing.T) Relations {
	tables := map[string][][2]string{
		"t1": {{"a", "int4"}, {"b", "text"}, {"c", "numeric(10,2)"}, {"d", "varchar(10)"}},
		"t2": {{"a", "int4"}, {"x", "int8"}, {"y", "date"}},
	}
	return func(schema, name string) ([]Column, bool) {
		defs, ok := tables[name]
		if !ok || schema != "" && schema != "public" {
			return nil, false
		}
		var out []Column
		for _, d := range defs {
			typ, err := binder.ParseType(d[1])
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, Column{Name: d[0], Type: typ})
		}
		return out, true
	}
}

func TestViewAdhoc(t *testing.T) {
	rels := testRelations(t)
	for _, c := range []struct {
		text  string
		names []string
	}{
		{"SELECT t1.a, count(*) AS n, sum(t2.x) FROM t1 JOIN t2 ON t1.a = t2.a LEFT JOIN t2 z ON z.x = t1.a WHERE t2.y > '2020-01-01' GROUP BY t1.a HAVING count(*) > 1 ORDER BY 2 DESC, t1.a LIMIT 10 OFFSET 2", []string{"a", "n", "sum"}},
		{"SELECT a FROM t1 UNION SELECT a FROM t2 UNION ALL SELECT 3 ORDER BY 1", []string{"a"}},
		{"SELECT s.a, s.m FROM (SELECT a, max(b) AS m FROM t1 GROUP BY a) s, t2 WHERE s.a = t2.a", []string{"a", "m"}},
		{"WITH w AS (SELECT a, b FROM t1) SELECT * FROM w WHERE a IN (SELECT a FROM t2) AND EXISTS (SELECT 1 FROM t2 WHERE t2.a = w.a)", []string{"a", "b"}},
		{"SELECT DISTINCT b, lower(d), d::text, c::int FROM t1 ORDER BY b", []string{"b", "lower", "d", "c"}},
		{"SELECT * FROM t1 NATURAL JOIN t2", []string{"a", "b", "c", "d", "x", "y"}},
		{"SELECT a, b AS bb, a + 1, c * 2 AS cc, 'lit' as l, -1 as m, 2.5 as f, 'x'::varchar as vv, ARRAY[1,2] as arr, '{1,2}'::int[] as arr2 FROM t1 WHERE a > 1 AND b = 'x' OR d IS NULL", []string{"a", "bb", "?column?", "cc", "l", "m", "f", "vv", "arr", "arr2"}},
	} {
		for _, pretty := range []bool{false, true} {
			out, err := View(c.text, rels, c.names, pretty, 0)
			t.Logf("%v\n%s\n%v", pretty, out, err)
		}
	}
}
