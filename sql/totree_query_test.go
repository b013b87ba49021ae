package sql

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/ast"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// stripPositions zeroes what a round trip does not keep: the positions a
// query holds outside At (LIMIT's, SEARCH/CYCLE's).
func stripPositions(q pt.Query) {
	pt.Inspect(q, func(n pt.Node) bool {
		if x, ok := n.(pt.Query); ok {
			c := x.Clauses()
			c.LimitAt = 0
			if c.With != nil {
				for _, cte := range c.With.CTEs {
					cte.ClauseAt = 0
				}
			}
		}
		return true
	})
}

func sameQuery(a, b pt.Query) string {
	stripPositions(a)
	stripPositions(b)
	return sameTree(reflect.ValueOf(&a).Elem(), reflect.ValueOf(&b).Elem(), "query")
}

// corpusQuery is the query a statement of the corpus is or holds (a
// SELECT, a set operation, CREATE VIEW's and CREATE TABLE AS's query).
func corpusQuery(st *Statement) ast.Node {
	switch n := st.AST.(type) {
	case *ast.SelectStmt, *ast.SetOprStmt:
		return n
	case *ast.CreateViewStmt:
		return n.Select
	case *ast.CreateTableStmt:
		if n.Select != nil {
			return n.Select
		}
	}
	return nil
}

// queryRefusal names the kind of form QueryToTree refused, for the
// test's tally of refusals.
func queryRefusal(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, " is not supported"); i > 0 {
		return msg[:i]
	}
	return msg
}

// TestQueryTreeRoundTripsCorpus: every query of the sqllogictest corpus
// (and of the package's tests) that parses transforms into the tree, and
// the tree written back (pt.FormatQuery) and parsed again is the same
// tree. The forms refused are MySQL's (hints, STRAIGHT_JOIN, WITH ROLLUP,
// SELECT INTO ...), which PostgreSQL's grammar lacks: they are tallied.
func TestQueryTreeRoundTripsCorpus(t *testing.T) {
	p := NewParser()
	queries, tripped := 0, 0
	refused := map[string]int{}
	kinds := map[string]int{}
	var failures []string
	for _, in := range corpusInputs(t) {
		parsed, err := p.Parse(in)
		if err != nil {
			continue
		}
		for _, st := range parsed {
			q := corpusQuery(st)
			if q == nil {
				continue
			}
			queries++
			t1, err := QueryToTree(q, st)
			if err != nil {
				if sqlerr.CodeOf(err) != sqlerr.FeatureNotSupported {
					failures = append(failures, fmt.Sprintf("%q does not transform: %v", st.Text, err))
				}
				refused[queryRefusal(err)]++
				t.Logf("refused: %s: %v", st.Text, err)
				continue
			}
			kinds[fmt.Sprintf("%T", t1)]++
			text := pt.FormatQuery(t1, nil)
			again, err := p.Parse(text)
			if err != nil || len(again) != 1 || corpusQuery(again[0]) == nil {
				failures = append(failures, fmt.Sprintf("%q: written back as %q, which does not parse: %v", st.Text, text, err))
				continue
			}
			t2, err := QueryToTree(corpusQuery(again[0]), again[0])
			if err != nil {
				failures = append(failures, fmt.Sprintf("%q: written back as %q: %v", st.Text, text, err))
				continue
			}
			if d := sameQuery(t1, t2); d != "" {
				failures = append(failures, fmt.Sprintf("%q: written back as %q: %s", st.Text, text, d))
				continue
			}
			tripped++
		}
	}
	var rs []string
	for k, n := range refused {
		rs = append(rs, fmt.Sprintf("%s: %d", k, n))
	}
	sort.Strings(rs)
	t.Logf("%d queries (%v): %d round-tripped; refused: %s", queries, kinds, tripped, strings.Join(rs, "; "))
	if queries < 2000 || tripped < queries*95/100 || len(kinds) < 3 {
		t.Errorf("the corpus walk saw too little: %d queries of %d kinds, %d round-tripped", queries, len(kinds), tripped)
	}
	for i, f := range failures {
		if i == 60 {
			t.Errorf("... and %d more", len(failures)-60)
			break
		}
		t.Error(f)
	}
}

// TestQueryToTree: each clause and FROM item reaches its node (written back
// by FormatQuery), the rewrite's markers read as what they stand for.
func TestQueryToTree(t *testing.T) {
	cases := []struct{ in, want string }{
		{"SELECT 1", `SELECT 1`},
		{"SELECT a AS x, t.*, * FROM s.t", `SELECT "a" AS "x", "t".*, * FROM "s"."t"`},
		{"SELECT DISTINCT a FROM t WHERE a > 1", `SELECT DISTINCT "a" FROM "t" WHERE ("a" > 1)`},
		{"SELECT DISTINCT ON (a, b) a, c FROM t ORDER BY a, b DESC NULLS LAST",
			`SELECT DISTINCT ON ("a", "b") "a", "c" FROM "t" ORDER BY "a", "b" DESC NULLS LAST`},
		{"SELECT FROM t", `SELECT FROM "t"`},
		{"SELECT a, count(*) FROM t GROUP BY a HAVING count(*) > 1", `SELECT "a", count(1) FROM "t" GROUP BY "a" HAVING (count(1) > 1)`},
		{"SELECT a FROM t GROUP BY DISTINCT ROLLUP (a, b), ()", `SELECT "a" FROM "t" GROUP BY DISTINCT ROLLUP ("a", "b"), ()`},
		{"SELECT a FROM t LIMIT 2 OFFSET 1", `SELECT "a" FROM "t" LIMIT 2 OFFSET 1`},
		{"SELECT a FROM t FOR UPDATE", `SELECT "a" FROM "t" FOR UPDATE`},
		{"SELECT a FROM t FOR NO KEY UPDATE NOWAIT", `SELECT "a" FROM "t" FOR NO KEY UPDATE NOWAIT`},
		{"SELECT a FROM t FOR KEY SHARE SKIP LOCKED", `SELECT "a" FROM "t" FOR KEY SHARE SKIP LOCKED`},
		{"SELECT a FROM t FOR SHARE OF t", `SELECT "a" FROM "t" FOR SHARE OF "t"`},
		{"SELECT sum(a) OVER w FROM t WINDOW w AS (PARTITION BY b ORDER BY a)",
			`SELECT sum("a") OVER "w" FROM "t" WINDOW "w" AS (PARTITION BY "b" ORDER BY "a")`},
		{"SELECT 1 UNION SELECT 2 EXCEPT ALL SELECT 3 ORDER BY 1 LIMIT 1", `SELECT 1 UNION SELECT 2 EXCEPT ALL SELECT 3 ORDER BY 1 LIMIT 1`},
		{"SELECT 1 INTERSECT (SELECT 2 UNION ALL SELECT 3)", `SELECT 1 INTERSECT (SELECT 2 UNION ALL SELECT 3)`},
		{"(SELECT 1 LIMIT 1) UNION SELECT 2", `(SELECT 1 LIMIT 1) UNION SELECT 2`},
		// INTERSECT binds tighter than UNION and EXCEPT, as in
		// PostgreSQL's grammar (TiDB's list holds the chain left to right)
		{"SELECT 1 UNION SELECT 2 INTERSECT SELECT 3", `SELECT 1 UNION (SELECT 2 INTERSECT SELECT 3)`},
		{"SELECT 1 INTERSECT SELECT 2 EXCEPT SELECT 3 INTERSECT SELECT 4", `SELECT 1 INTERSECT SELECT 2 EXCEPT (SELECT 3 INTERSECT SELECT 4)`},
		{"SELECT 1 EXCEPT SELECT 2 UNION ALL SELECT 3", `SELECT 1 EXCEPT SELECT 2 UNION ALL SELECT 3`},
		{"VALUES (1, 'a'), (2, 'b') ORDER BY 1", `VALUES (1, 'a'), (2, 'b') ORDER BY 1`},
		{"TABLE t", `TABLE "t"`},
		{"WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT n FROM r",
			`WITH RECURSIVE "r" ("n") AS (SELECT 1 UNION ALL SELECT ("n" + 1) FROM "r" WHERE ("n" < 3)) SELECT "n" FROM "r"`},
		{"WITH c AS MATERIALIZED (SELECT 1), d AS NOT MATERIALIZED (SELECT 2) SELECT * FROM c, d",
			`WITH "c" AS MATERIALIZED (SELECT 1), "d" AS NOT MATERIALIZED (SELECT 2) SELECT * FROM "c" CROSS JOIN "d"`},
		{"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SEARCH DEPTH FIRST BY n SET ord CYCLE n SET done USING path SELECT * FROM r",
			`WITH RECURSIVE "r" ("n") AS (SELECT 1 UNION ALL SELECT ("n" + 1) FROM "r") SEARCH DEPTH FIRST BY "n" SET "ord" CYCLE "n" SET "done" USING "path" SELECT * FROM "r"`},
		{"SELECT * FROM a JOIN b ON a.x = b.x LEFT JOIN c USING (y) RIGHT JOIN d ON true",
			`SELECT * FROM "a" JOIN "b" ON ("a"."x" = "b"."x") LEFT JOIN "c" USING ("y") RIGHT JOIN "d" ON TRUE`},
		{"SELECT * FROM a FULL JOIN b ON a.x = b.x", `SELECT * FROM "a" FULL JOIN "b" ON ("a"."x" = "b"."x")`},
		{"SELECT * FROM a FULL JOIN b USING (x)", `SELECT * FROM "a" FULL JOIN "b" USING ("x")`},
		{"SELECT * FROM a NATURAL FULL JOIN b", `SELECT * FROM "a" NATURAL FULL JOIN "b"`},
		{"SELECT * FROM a NATURAL JOIN b", `SELECT * FROM "a" NATURAL JOIN "b"`},
		{"SELECT * FROM a, (b JOIN c ON true)", `SELECT * FROM "a" CROSS JOIN ("b" JOIN "c" ON TRUE)`},
		{"SELECT * FROM (SELECT 1) AS s (x)", `SELECT * FROM (SELECT 1) AS "s" ("x")`},
		{"SELECT * FROM t, LATERAL (SELECT t.a) AS s", `SELECT * FROM "t" CROSS JOIN LATERAL (SELECT "t"."a") AS "s"`},
		{"SELECT * FROM generate_series(1, 3) WITH ORDINALITY AS g (v, o)", `SELECT * FROM generate_series(1, 3) WITH ORDINALITY AS "g" ("v", "o")`},
		{"SELECT * FROM unnest(ARRAY[1])", `SELECT * FROM unnest(ARRAY[1])`},
		{"SELECT * FROM json_to_record(j) AS r (a int, b text)", `SELECT * FROM json_to_record("j") AS "r" ("a" int, "b" text)`},
		{"SELECT (SELECT max(a) FROM t) AS m WHERE EXISTS (SELECT 1 FROM u)", `SELECT (SELECT max("a") FROM "t") AS "m" WHERE (EXISTS (SELECT 1 FROM "u"))`},
	}
	p := NewParser()
	for _, c := range cases {
		stmts, err := p.Parse(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		q, err := QueryToTree(stmts[0].AST, stmts[0])
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if got := pt.FormatQuery(q, nil); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.in, got, c.want)
		}
		if got := pt.FormatStatement(q, nil); got != c.want {
			t.Errorf("%s: FormatStatement %s", c.in, got)
		}
	}
}

// TestQueryToTreeRefusesMySQLForms: the forms of TiDB's grammar that
// PostgreSQL's lacks are 0A000, positioned at their node.
func TestQueryToTreeRefusesMySQLForms(t *testing.T) {
	cases := []struct{ in, want string }{
		{"SELECT a FROM t GROUP BY a WITH ROLLUP", "GROUP BY ... WITH ROLLUP"},
		{"SELECT * FROM a STRAIGHT_JOIN b", "STRAIGHT_JOIN"},
		{"SELECT * FROM t USE INDEX (i)", "an index hint"},
	}
	p := NewParser()
	for _, c := range cases {
		stmts, err := p.Parse(c.in)
		if err != nil {
			t.Logf("%s: refused before the tree: %v", c.in, err)
			continue
		}
		_, err = QueryToTree(stmts[0].AST, stmts[0])
		var te *TransformError
		if sqlerr.CodeOf(err) != sqlerr.FeatureNotSupported || !strings.Contains(fmt.Sprint(err), c.want) || !errorsAs(err, &te) || !teHasNode(te) {
			t.Errorf("%s: %v, want a 0A000 naming %s", c.in, err, c.want)
		}
	}
}

func errorsAs(err error, te **TransformError) bool {
	x, ok := err.(*TransformError)
	*te = x
	return ok
}

// TestQueryTreePositions: nodes keep their offsets in the rewritten text
// (the binder's errors point there), and the SEARCH / CYCLE clause its
// character position in the user's text.
func TestQueryTreePositions(t *testing.T) {
	p := NewParser()
	in := "SELECT a, b FROM t WHERE c > 1 LIMIT 5"
	stmts, err := p.Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	q, err := QueryToTree(stmts[0].AST, stmts[0])
	if err != nil {
		t.Fatal(err)
	}
	s := q.(*pt.Select)
	pos := func(n pt.Node) int { return stmts[0].Position(n.Pos()) }
	if got := pos(s.Targets[1].X); got != strings.Index(in, "b")+1 {
		t.Errorf("b at %d", got)
	}
	if got := pos(s.Where.(*pt.Binary).L); got != strings.Index(in, "c")+1 {
		t.Errorf("c at %d", got)
	}
	in = "WITH RECURSIVE r(n) AS (SELECT 1) CYCLE n SET m USING p SELECT * FROM r"
	if stmts, err = p.Parse(in); err != nil {
		t.Fatal(err)
	}
	if q, err = QueryToTree(stmts[0].AST, stmts[0]); err != nil {
		t.Fatal(err)
	}
	if got := q.Clauses().With.CTEs[0].ClauseAt; got != strings.Index(in, "CYCLE")+1 {
		t.Errorf("CYCLE at %d", got)
	}
}

// TestOrderItemToTreeAgrees: OrderItemToTree, item by item, is
// OrderItemsToTree.
func TestOrderItemToTreeAgrees(t *testing.T) {
	p := NewParser()
	for _, in := range []string{
		"SELECT a FROM t ORDER BY a DESC NULLS FIRST, 2, b + 1 NULLS LAST, c",
		"SELECT a FROM t ORDER BY (a) ASC",
	} {
		stmts, err := p.Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		ob := stmts[0].AST.(*ast.SelectStmt).OrderBy
		var tr Transformer
		want, err := tr.OrderItemsToTree(ob)
		if err != nil {
			t.Fatal(err)
		}
		for i, it := range ob.Items {
			got, err := tr.OrderItemToTree(it)
			if err != nil {
				t.Fatal(err)
			}
			if d := sameTree(reflect.ValueOf(got), reflect.ValueOf(want[i]), "item"); d != "" {
				t.Errorf("%s: item %d: %s", in, i, d)
			}
		}
		if want[0].Nulls == "" && strings.Contains(in, "NULLS FIRST") {
			t.Errorf("%s: NULLS FIRST lost", in)
		}
	}
}

func teHasNode(te *TransformError) bool {
	_, _, ok := te.At()
	return ok
}
