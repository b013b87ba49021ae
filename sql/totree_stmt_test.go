package sql

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/ast"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// movedStatement reports a TiDB statement kind that StatementToTree takes.
func movedStatement(s ast.StmtNode) bool {
	switch s.(type) {
	case *ast.CreateTableStmt, *ast.DropTableStmt, *ast.CreateViewStmt:
		return true
	}
	return false
}

// userQueryText writes a statement's query back as the user wrote it in
// st (the query is still TiDB's: its own round trip is not the tree's, and
// the rewritten text TiDB keeps is not PostgreSQL's): from where its
// rewritten text starts (CREATE VIEW's), or from the AS that starts it
// (CREATE TABLE AS's, whose text TiDB keeps only when parenthesised, and
// then without the parentheses).
func userQueryText(st *Statement) func(*pt.Subquery) string {
	_, ctas := st.AST.(*ast.CreateTableStmt)
	return func(q *pt.Subquery) string {
		if q.Text != "" && !ctas {
			if start := strings.LastIndex(st.Rewritten, strings.TrimSpace(q.Text)); start >= 0 {
				return st.OriginalFrom(start)
			}
		}
		if m := queryAfterAS.FindStringSubmatchIndex(st.Text); m != nil {
			return st.Text[m[2]:]
		}
		return "SELECT 1"
	}
}

var queryAfterAS = regexp.MustCompile(`(?is)\bAS\s+((?:SELECT|VALUES|WITH|TABLE)\b.*|\(.*)$`)

// writable reports whether FormatStatement's text of s reads back as s:
// the MySQL forms the binder refuses are written as stand-ins of their
// kind, which the rewrite in front of TiDB may take before TiDB sees them.
func writable(s pt.Statement) bool {
	c, ok := s.(*pt.CreateTable)
	if !ok {
		return true
	}
	if c.Temporary || c.Partitioned || c.Like != nil {
		return false
	}
	for _, d := range c.Columns {
		for _, o := range d.Options {
			switch o.Kind {
			case pt.ColNotNull, pt.ColNull, pt.ColPrimaryKey, pt.ColComment, pt.ColUnique:
			default:
				return false
			}
		}
	}
	for _, k := range c.Constraints {
		if k.Kind == pt.ConOther || k.KeyExpr {
			return false
		}
	}
	return true
}

// sameStatement compares two statement trees as sameTree does, also
// ignoring a Subquery's text (TiDB's rendering of a query that is not the
// tree's yet).
func sameStatement(a, b pt.Statement) string {
	strip := func(s pt.Statement) {
		visit(reflect.ValueOf(&s).Elem(), func(v reflect.Value) {
			if q, ok := v.Interface().(*pt.Subquery); ok {
				q.Text = ""
			}
		})
	}
	strip(a)
	strip(b)
	return sameTree(reflect.ValueOf(&a).Elem(), reflect.ValueOf(&b).Elem(), "stmt")
}

// TestStatementTreeRoundTripsCorpus: every CREATE TABLE, DROP TABLE | VIEW
// and CREATE VIEW of the sqllogictest corpus that parses transforms into
// the tree, and the tree written back (pt.FormatStatement) and parsed again
// is the same tree.
func TestStatementTreeRoundTripsCorpus(t *testing.T) {
	p := NewParser()
	stmts, tripped, refusedForms := 0, 0, 0
	kinds := map[string]int{}
	var failures []string
	for _, in := range corpusInputs(t) {
		parsed, err := p.Parse(in)
		if err != nil {
			continue
		}
		for _, st := range parsed {
			if st.AST == nil || !movedStatement(st.AST) {
				continue
			}
			stmts++
			t1, err := StatementToTree(st.AST)
			if err != nil {
				failures = append(failures, fmt.Sprintf("%q does not transform: %v", st.Text, err))
				continue
			}
			kinds[fmt.Sprintf("%T", t1)]++
			if !writable(t1) {
				refusedForms++
				continue
			}
			text := pt.FormatStatement(t1, userQueryText(st))
			again, err := p.Parse(text)
			if err != nil || len(again) != 1 || again[0].AST == nil {
				failures = append(failures, fmt.Sprintf("%q: written back as %q, which does not parse: %v", st.Text, text, err))
				continue
			}
			t2, err := StatementToTree(again[0].AST)
			if err != nil {
				failures = append(failures, fmt.Sprintf("%q: written back as %q: %v", st.Text, text, err))
				continue
			}
			if d := sameStatement(t1, t2); d != "" {
				failures = append(failures, fmt.Sprintf("%q: written back as %q: %s", st.Text, text, d))
				continue
			}
			tripped++
		}
	}
	t.Logf("%d statements (%v): %d round-tripped, %d in refused MySQL forms (transformed only)", stmts, kinds, tripped, refusedForms)
	if stmts < 200 || tripped < stmts*9/10 || len(kinds) < 3 {
		t.Errorf("the corpus walk saw too little: %d statements of %d kinds, %d round-tripped", stmts, len(kinds), tripped)
	}
	for i, f := range failures {
		if i == 40 {
			t.Errorf("... and %d more", len(failures)-40)
			break
		}
		t.Error(f)
	}
}

// TestStatementToTree: each statement that has moved becomes its node
// (written back by FormatStatement), names as PostgreSQL folds them.
func TestStatementToTree(t *testing.T) {
	cases := []struct{ in, want string }{
		{"CREATE TABLE t (a int PRIMARY KEY, b text NOT NULL)", `CREATE TABLE "t" ("a" text PRIMARY KEY, "b" text NOT NULL)`},
		{"create table if not exists S.T (A bigint, \"B\" text, primary key (A, \"B\"))",
			`CREATE TABLE IF NOT EXISTS "s"."t" ("a" text, "B" text, PRIMARY KEY ("a", "B"))`},
		// UNIQUE is taken out before TiDB parses (Statement.Uniques, unique.go)
		{"CREATE TABLE t (a int UNIQUE, b int NULL)", `CREATE TABLE "t" ("a" text, "b" text NULL)`},
		{"CREATE TABLE t (a int, UNIQUE (a))", `CREATE TABLE "t" ("a" text)`},
		// foreign keys are the rewrite's (foreignkey.go): TiDB sees none
		{"CREATE TABLE t (a int, FOREIGN KEY (a) REFERENCES u (b))", `CREATE TABLE "t" ("a" text)`},
		{"CREATE TABLE t (a int REFERENCES u (b) NOT NULL)", `CREATE TABLE "t" ("a" text NOT NULL)`},
		{"CREATE TABLE t AS SELECT 1 AS x", `CREATE TABLE "t" AS SELECT 1 AS x`},
		{"DROP TABLE IF EXISTS a, s.b", `DROP TABLE IF EXISTS "a", "s"."b"`},
		{"DROP VIEW v", `DROP VIEW "v"`},
		{"CREATE OR REPLACE VIEW v (x, y) AS SELECT 1, 2", `CREATE OR REPLACE VIEW "v" ("x", "y") AS SELECT 1, 2`},
	}
	p := NewParser()
	for _, c := range cases {
		stmts, err := p.Parse(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		s, err := StatementToTree(stmts[0].AST)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if got := pt.FormatStatement(s, userQueryText(stmts[0])); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}

// TestStatementTreeKeepsWhatTheBinderReads: the parts the binder reads
// from CREATE TABLE's tree, including the refused forms it must name, and
// each node's position in the rewritten text.
func TestStatementTreeKeepsWhatTheBinderReads(t *testing.T) {
	p := NewParser()
	var last *Statement
	tree := func(in string) pt.Statement {
		t.Helper()
		stmts, err := p.Parse(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		s, err := StatementToTree(stmts[0].AST)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		last = stmts[0]
		return s
	}
	in := "CREATE TABLE t (a int, b int AUTO_INCREMENT, PRIMARY KEY ((a + 1)))"
	c := tree(in).(*pt.CreateTable)
	if got := c.Columns[1].Options[0].Kind; got != pt.ColAutoIncrement {
		t.Errorf("AUTO_INCREMENT: kind %d", got)
	}
	if k := c.Constraints[0]; k.Kind != pt.ConPrimaryKey || !k.KeyExpr {
		t.Errorf("PRIMARY KEY over an expression: %+v", k)
	}
	// TiDB keeps no offset for a column definition: the column's refusal
	// points at the statement's start, as it did from TiDB's node
	if pos := last.Position(c.Columns[1].Pos()); pos != 1 {
		t.Errorf("column b's position %d, want 1", pos)
	}
	if q := tree("CREATE TABLE t AS SELECT 1").(*pt.CreateTable).Query; q == nil || q.Query == nil {
		t.Errorf("CREATE TABLE AS: no query: %+v", q)
	}
	if v := tree("CREATE VIEW v AS SELECT 1 AS x").(*pt.CreateView); v.Query == nil || v.Query.Text != `select 1 as "x"` {
		t.Errorf("CREATE VIEW: query %+v", v.Query)
	}
	stmts, err := p.Parse("SELECT 1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := StatementToTree(stmts[0].AST); sqlerr.CodeOf(err) != sqlerr.FeatureNotSupported {
		t.Errorf("SELECT: %v, want 0A000 (queries have not moved)", err)
	}
}

// TestStatementTreeTakesOnlyMoved: StatementTree, which the binder's Bind
// asks first, takes the moved statements and leaves every other (and no
// statement at all) to TiDB's nodes, agreeing with StatementToTree.
func TestStatementTreeTakesOnlyMoved(t *testing.T) {
	cases := []struct {
		in    string
		moved bool
	}{
		{"CREATE TABLE t (a int)", true},
		{"CREATE TABLE t AS SELECT 1", true},
		{"DROP TABLE t", true},
		{"DROP VIEW v", true},
		{"CREATE VIEW v AS SELECT 1", true},
		{"SELECT 1", false},
		{"SELECT 1 UNION SELECT 2", false},
		{"INSERT INTO t VALUES (1)", false},
		{"UPDATE t SET a = 1", false},
		{"DELETE FROM t", false},
		{"TRUNCATE t", false},
		{"EXPLAIN SELECT 1", false},
	}
	p := NewParser()
	var tr Transformer
	for _, c := range cases {
		stmts, err := p.Parse(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		s, ok := tr.StatementTree(stmts[0].AST)
		if ok != c.moved || (s != nil) != c.moved {
			t.Errorf("%s: StatementTree = %T, %v; want moved %v", c.in, s, ok, c.moved)
		}
		if _, err := StatementToTree(stmts[0].AST); (err == nil) != c.moved {
			t.Errorf("%s: StatementToTree's error %v disagrees (moved %v)", c.in, err, c.moved)
		}
	}
	if s, ok := tr.StatementTree(nil); ok || s != nil {
		t.Errorf("no statement: %T, %v", s, ok)
	}
}
