package sql

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// dmlRestored writes a clause the tree carries as TiDB's node (INSERT's
// query, FROM / USING, WITH) as TiDB restores it, with PostgreSQL's
// quoting: its own round trip is the queries' stage, not this one's.
func dmlRestored(q *pt.Subquery) string {
	n, ok := q.Query.(ast.Node)
	if !ok {
		return "SELECT 1"
	}
	var sb strings.Builder
	ctx := format.NewRestoreCtx(format.RestoreStringSingleQuotes|format.RestoreNameDoubleQuotes|format.RestoreKeyWordUppercase|
		format.RestoreNameLowercase|format.RestoreStringWithoutCharset, &sb)
	if err := n.Restore(ctx); err != nil {
		return "SELECT 1"
	}
	// TiDB's VALUES ROW(..) is the rewrite's spelling of PostgreSQL's
	// VALUES (..)
	text := strings.ReplaceAll(strings.ReplaceAll(sb.String(), "VALUES ROW(", "VALUES ("), "), ROW(", "), (")
	if _, ok := q.Src.(*ast.SubqueryExpr); ok {
		return "(" + text + ")" // an expression's subquery
	}
	return text
}

// dmlWritable reports whether FormatStatement's text of a write reads back
// as the same tree: the MySQL forms the binder refuses are transformed
// only.
func dmlWritable(s pt.Statement) bool {
	switch n := s.(type) {
	case *pt.Insert:
		// MySQL's ON DUPLICATE KEY UPDATE names no arbiter, which
		// PostgreSQL's DO UPDATE must: it has no PostgreSQL spelling
		oc := n.OnConflict
		mysqlUpsert := oc != nil && len(oc.Update) > 0 && oc.Target == nil && oc.Constraint == ""
		return n.Refused == "" && n.Table != nil && !mysqlUpsert
	case *pt.Update:
		return n.Refused == "" && n.Table != nil
	case *pt.Delete:
		return n.Refused == "" && n.Table != nil
	}
	return false
}

func dmlIsWrite(s ast.StmtNode) bool {
	switch s.(type) {
	case *ast.InsertStmt, *ast.UpdateStmt, *ast.DeleteStmt:
		return true
	}
	return false
}

// dmlSame compares two trees of a write as sameStatement does, also
// ignoring ON CONFLICT's target position (a character position in the
// text, which the written text moves).
func dmlSame(a, b pt.Statement) string {
	for _, s := range []pt.Statement{a, b} {
		if ins, ok := s.(*pt.Insert); ok && ins.OnConflict != nil {
			ins.OnConflict.TargetPos = 0
		}
		var with *pt.With // a WITH in front of UPDATE or DELETE
		switch n := s.(type) {
		case *pt.Update:
			with = n.With
		case *pt.Delete:
			with = n.With
		}
		stripPositions(&pt.Select{QueryClauses: pt.QueryClauses{With: with}})
		pt.Inspect(s, func(n pt.Node) bool {
			if q, ok := n.(pt.Query); ok {
				stripPositions(q)
			}
			return true
		})
	}
	return sameStatement(a, b)
}

// TestDMLTreeRoundTripsCorpus: every INSERT, UPDATE and DELETE of the
// sqllogictest corpus that parses transforms into the tree, and the tree
// written back (pt.FormatStatement) and parsed again is the same tree.
func TestDMLTreeRoundTripsCorpus(t *testing.T) {
	p := NewParser()
	stmts, tripped, carried := 0, 0, 0
	kinds := map[string]int{}
	var failures []string
	for _, in := range corpusInputs(t) {
		parsed, err := p.Parse(in)
		if err != nil {
			continue
		}
		for _, st := range parsed {
			if st.AST == nil || !dmlIsWrite(st.AST) {
				continue
			}
			stmts++
			t1, err := DMLToTree(st, nil)
			if err != nil {
				failures = append(failures, fmt.Sprintf("%q does not transform: %v", st.Text, err))
				continue
			}
			kinds[fmt.Sprintf("%T", t1)]++
			if !dmlWritable(t1) {
				carried++
				continue
			}
			text := pt.FormatStatement(t1, dmlRestored)
			again, err := p.Parse(text)
			if err != nil || len(again) != 1 || again[0].AST == nil {
				failures = append(failures, fmt.Sprintf("%q: written back as %q, which does not parse: %v", st.Text, text, err))
				continue
			}
			t2, err := DMLToTree(again[0], nil)
			if err != nil {
				failures = append(failures, fmt.Sprintf("%q: written back as %q: %v", st.Text, text, err))
				continue
			}
			if d := dmlSame(t1, t2); d != "" {
				failures = append(failures, fmt.Sprintf("%q: written back as %q: %s", st.Text, text, d))
				continue
			}
			tripped++
		}
	}
	t.Logf("%d writes (%v): %d round-tripped, %d transformed only", stmts, kinds, tripped, carried)
	if stmts < 500 || tripped < stmts*9/10 || len(kinds) != 3 {
		t.Errorf("the corpus walk saw too little: %d writes of %d kinds, %d round-tripped", stmts, len(kinds), tripped)
	}
	for i, f := range failures {
		if i == 40 {
			t.Errorf("... and %d more", len(failures)-40)
			break
		}
		t.Error(f)
	}
}

// TestDMLToTree: each write becomes its node with the clauses the rewrite
// keeps in Statement, written back by FormatStatement.
func TestDMLToTree(t *testing.T) {
	cases := []struct{ in, want string }{
		{"INSERT INTO t VALUES (1, 'a'), (2, DEFAULT)", `INSERT INTO "t" VALUES (1, 'a'), (2, DEFAULT)`},
		{"insert into S.T (A, \"B\") values (-1.5, null)", `INSERT INTO "s"."t" ("a", "B") VALUES ((-1.5), NULL)`},
		{"INSERT INTO t DEFAULT VALUES", `INSERT INTO "t" DEFAULT VALUES`},
		{"INSERT INTO t AS x (a) OVERRIDING SYSTEM VALUE VALUES (1) RETURNING x.a, *",
			`INSERT INTO "t" AS "x" ("a") OVERRIDING SYSTEM VALUE VALUES (1) RETURNING "x"."a", *`},
		{"INSERT INTO t (a, b) VALUES (1, 2) ON CONFLICT (a) DO UPDATE SET b = EXCLUDED.b + 1 RETURNING b AS bee",
			`INSERT INTO "t" ("a", "b") VALUES (1, 2) ON CONFLICT ("a") DO UPDATE SET "b" = (EXCLUDED."b" + 1) RETURNING "b" AS "bee"`},
		{"INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING", `INSERT INTO "t" VALUES (1) ON CONFLICT DO NOTHING`},
		{"INSERT INTO t SELECT a FROM u", `INSERT INTO "t" SELECT "a" FROM "u"`},
		{"UPDATE t AS x SET a = DEFAULT, b = b * 2 WHERE a > 1 RETURNING t.*",
			`UPDATE "t" AS "x" SET "a" = DEFAULT, "b" = ("b" * 2) WHERE ("a" > 1) RETURNING "t".*`},
		{"UPDATE t SET a = o.a FROM o WHERE o.id = t.id", `UPDATE "t" SET "a" = "o"."a" FROM "o" WHERE ("o"."id" = "t"."id")`},
		{"DELETE FROM t USING o WHERE o.id = t.id RETURNING 1", `DELETE FROM "t" USING "o" WHERE ("o"."id" = "t"."id") RETURNING 1`},
		{"DELETE FROM t WHERE CURRENT OF c", `DELETE FROM "t" WHERE CURRENT OF "c"`},
		{"WITH w AS (SELECT 1 AS k) DELETE FROM t WHERE a IN (SELECT k FROM w)",
			`WITH "w" AS (SELECT 1 AS "k") DELETE FROM "t" WHERE ("a" IN (SELECT "k" FROM "w"))`},
		{"WITH w AS (SELECT 1 AS k) INSERT INTO t SELECT k FROM w RETURNING a",
			`WITH "w" AS (SELECT 1 AS "k") INSERT INTO "t" SELECT "k" FROM "w" RETURNING "a"`},
		{"UPDATE t SET a = s.b FROM (SELECT 1 AS b) AS s JOIN u ON u.x = s.b WHERE t.id = u.id",
			`UPDATE "t" SET "a" = "s"."b" FROM (SELECT 1 AS "b") AS "s" JOIN "u" ON ("u"."x" = "s"."b") WHERE ("t"."id" = "u"."id")`},
		{"INSERT INTO t SELECT 1 UNION SELECT 2", `INSERT INTO "t" SELECT 1 UNION SELECT 2`},
		{"DELETE FROM t USING u, v WHERE t.a = u.a AND u.b = (SELECT max(b) FROM v)",
			`DELETE FROM "t" USING "u" CROSS JOIN "v" WHERE (("t"."a" = "u"."a") AND ("u"."b" = (SELECT max("b") FROM "v")))`},
	}
	p := NewParser()
	for _, c := range cases {
		stmts, err := p.Parse(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		s, err := DMLToTree(stmts[0], nil)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if got := pt.FormatStatement(s, dmlRestored); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}

// TestDMLTreeKeepsWhatTheBinderReads: the parts the binder reads from a
// write's tree, the refused MySQL forms it must name, and the positions of
// the names TiDB keeps none for.
func TestDMLTreeKeepsWhatTheBinderReads(t *testing.T) {
	p := NewParser()
	tree := func(in string) (pt.Statement, *Statement) {
		t.Helper()
		stmts, err := p.Parse(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		s, err := DMLToTree(stmts[0], nil)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		return s, stmts[0]
	}
	in := "INSERT INTO t (a, bb) VALUES (1, 2), (3, DEFAULT)"
	s, st := tree(in)
	ins := s.(*pt.Insert)
	if pos := st.Position(ins.Columns[1].Pos()); pos != strings.Index(in, "bb")+1 {
		t.Errorf("column bb's position %d", pos)
	}
	if _, ok := ins.Rows[1][1].(*pt.Default); !ok || len(ins.Rows) != 2 {
		t.Errorf("rows %+v", ins.Rows)
	}
	if lit, ok := ins.Rows[1][0].(*pt.Literal); !ok || lit.Kind != pt.LitInt || lit.Int != 3 || st.Position(lit.Pos()) != strings.Index(in, "3")+1 {
		t.Errorf("row 2's first value: %+v", ins.Rows[1][0])
	}
	if s, _ := tree("INSERT INTO t SELECT DISTINCT a FROM u"); s.(*pt.Insert).PlainQuery || s.(*pt.Insert).Query == nil {
		t.Errorf("SELECT DISTINCT taken as a plain select list: %+v", s)
	}
	if s, _ := tree("INSERT INTO t SELECT a, 'x' FROM u"); !s.(*pt.Insert).PlainQuery {
		t.Errorf("a plain select list not seen: %+v", s)
	}
	if s, _ := tree("WITH w AS (SELECT 1) INSERT INTO t SELECT * FROM w"); s.(*pt.Insert).With == nil {
		t.Errorf("WITH in front of INSERT not kept: %+v", s)
	}
	if s, _ := tree("INSERT INTO t SELECT * FROM w"); s.(*pt.Insert).With != nil {
		t.Errorf("a WITH where none was written: %+v", s)
	}
	// the WITH in front is the query's own clause (one set of items, whose
	// identity the binder keys its WITH state by), and every subquery of a
	// write holds its tree
	if s, _ := tree("WITH w AS (SELECT 1) INSERT INTO t SELECT * FROM w RETURNING (SELECT 1)"); s.(*pt.Insert).With != s.(*pt.Insert).Query.Clauses().With {
		t.Errorf("INSERT's WITH is not its query's: %+v", s)
	}
	for _, in := range []string{"UPDATE t SET a = (SELECT 1) FROM u WHERE u.a IN (SELECT 2) RETURNING (SELECT 3)",
		"DELETE FROM t USING (SELECT 1) AS u WHERE EXISTS (SELECT 2) RETURNING ARRAY(SELECT 3)",
		"INSERT INTO t VALUES ((SELECT 1)) ON CONFLICT (a) DO UPDATE SET b = (SELECT 2) RETURNING (SELECT 3)"} {
		s, _ := tree(in)
		subs := 0
		pt.Inspect(s, func(n pt.Node) bool {
			if q, ok := n.(*pt.Subquery); ok {
				subs++
				if q.Tree == nil {
					t.Errorf("%s: subquery without its tree: %+v", in, q)
				}
			}
			return true
		})
		if subs < 2 {
			t.Errorf("%s: %d subqueries seen", in, subs)
		}
	}
	if s, _ := tree("UPDATE t SET a = 1 FROM u"); s.(*pt.Update).NoFromList || s.(*pt.Update).From == nil {
		t.Errorf("UPDATE ... FROM u: %+v", s)
	}
	refused := map[string]string{
		"REPLACE INTO t VALUES (1)":          "REPLACE",
		"INSERT INTO t SET a = 1":            "INSERT ... SET",
		"UPDATE t SET a = 1 ORDER BY a":      "UPDATE ... ORDER BY / LIMIT",
		"DELETE FROM t LIMIT 1":              "DELETE ... ORDER BY / LIMIT",
		"DELETE t FROM t, u WHERE t.a = u.a": "MySQL's multiple-table DELETE",
	}
	for in, want := range refused {
		s, _ := tree(in)
		got := reflect.ValueOf(s).Elem().FieldByName("Refused").String()
		if got != want {
			t.Errorf("%s: Refused %q, want %q", in, got, want)
		}
	}
	if s, _ := tree("UPDATE t, u SET t.a = 1"); s.(*pt.Update).Table != nil {
		t.Errorf("UPDATE of two tables names one: %+v", s)
	}
	stmts, err := p.Parse("SELECT 1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DMLToTree(stmts[0], nil); sqlerr.CodeOf(err) != sqlerr.FeatureNotSupported {
		t.Errorf("SELECT: %v, want 0A000", err)
	}
}
