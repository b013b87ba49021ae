package sql

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/ast"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// exprRoots collects the expressions of a statement that stand directly
// under a non-expression node (a clause of a statement, a BY item, a
// window, a subquery's statement): each whole expression once, and the
// ones inside subqueries as their own roots.
type exprRoots struct {
	stack []bool // per open node: is it an expression
	roots []ast.ExprNode
}

func (v *exprRoots) Enter(n ast.Node) (ast.Node, bool) {
	e, isExpr := n.(ast.ExprNode)
	if isExpr && (len(v.stack) == 0 || !v.stack[len(v.stack)-1]) {
		v.roots = append(v.roots, e)
	}
	if _, sub := n.(*ast.SubqueryExpr); sub {
		isExpr = false // the query inside starts new roots
	}
	v.stack = append(v.stack, isExpr)
	return n, false
}

func (v *exprRoots) Leave(n ast.Node) (ast.Node, bool) {
	v.stack = v.stack[:len(v.stack)-1]
	return n, true
}

func statementRoots(st *Statement) []ast.ExprNode {
	var v exprRoots
	for _, n := range []ast.Node{st.AST, st.Returning, st.DMLFrom} {
		if n != nil && !reflect.ValueOf(n).IsNil() {
			n.Accept(&v)
		}
	}
	return v.roots
}

// sameTree compares two trees, ignoring positions and the TiDB statement a
// Subquery still carries (the corpus walk reaches its expressions as roots
// of their own).
func sameTree(a, b reflect.Value, path string) string {
	if a.Kind() != b.Kind() {
		return path + ": kinds differ"
	}
	switch a.Kind() {
	case reflect.Interface, reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return fmt.Sprintf("%s: nil vs non-nil", path)
			}
			return ""
		}
		if a.Kind() == reflect.Interface && a.Elem().Type() != b.Elem().Type() {
			return fmt.Sprintf("%s: %s vs %s", path, a.Elem().Type(), b.Elem().Type())
		}
		return sameTree(a.Elem(), b.Elem(), path)
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			name := a.Type().Field(i).Name
			if a.Type().Field(i).Type == reflect.TypeOf(pt.At{}) || (a.Type() == reflect.TypeOf(pt.Subquery{}) && name == "Query") {
				continue
			}
			if d := sameTree(a.Field(i), b.Field(i), path+"."+name); d != "" {
				return d
			}
		}
	case reflect.Slice:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: %d vs %d elements", path, a.Len(), b.Len())
		}
		for i := 0; i < a.Len(); i++ {
			if d := sameTree(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
	default:
		if !reflect.DeepEqual(a.Interface(), b.Interface()) {
			return fmt.Sprintf("%s: %v vs %v", path, a.Interface(), b.Interface())
		}
	}
	return ""
}

// visit calls f on every node of a tree value (reflection: the test must
// not depend on a walker of the package it checks).
func visit(v reflect.Value, f func(reflect.Value)) {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if !v.IsNil() {
			if v.Kind() == reflect.Pointer {
				f(v)
			}
			visit(v.Elem(), f)
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(pt.Subquery{}) || v.Type() == reflect.TypeOf(pt.At{}) {
			return // the TiDB nodes behind the tree are not walked
		}
		for i := 0; i < v.NumField(); i++ {
			visit(v.Field(i), f)
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			visit(v.Index(i), f)
		}
	}
}

// reparseable reports whether a tree can stand alone as a SELECT list item
// (the round trip writes it there); the rest are clause-bound.
func reparseable(e pt.Expr) bool {
	ok := true
	visit(reflect.ValueOf(&e).Elem(), func(v reflect.Value) {
		if x, isExpr := v.Interface().(pt.Expr); isExpr && !reparseableNode(x) {
			ok = false
		}
	})
	return ok
}

func reparseableNode(e pt.Expr) bool {
	switch n := e.(type) {
	case *pt.Default, *pt.Excluded, *pt.TimeUnit, *pt.Ordinal, *pt.GroupingSet, *pt.SubscriptedValue:
		return false
	case *pt.Row:
		return n.Explicit || len(n.Fields) != 1 // VALUES (x): a one-field row only there
	case *pt.FuncCall:
		// statement markers that only their clause accepts
		return !strings.HasPrefix(n.Name, "pg__")
	}
	return true
}

// TestTreeRoundTripsCorpus: every expression of every statement of the
// sqllogictest corpus that parses transforms into the tree, and the tree
// written back as PostgreSQL text (pt.Format) and parsed again gives the
// same tree: the transformer loses nothing the binder could need.
func TestTreeRoundTripsCorpus(t *testing.T) {
	p := NewParser()
	stmts, roots, tripped, clauseBound := 0, 0, 0, 0
	var failures []string
	for _, in := range corpusInputs(t) {
		parsed, err := p.Parse(in)
		if err != nil {
			continue
		}
		for _, st := range parsed {
			if st.AST == nil {
				continue
			}
			stmts++
			for _, r := range statementRoots(st) {
				roots++
				t1, err := ToTree(r)
				if err != nil {
					failures = append(failures, fmt.Sprintf("%q: %T does not transform: %v", st.Text, r, err))
					continue
				}
				// Src is the TiDB node each tree node stands for whole (the
				// binder binds the kinds it has not moved from it): it
				// transforms into the same node
				visit(reflect.ValueOf(&t1).Elem(), func(v reflect.Value) {
					x, ok := v.Interface().(pt.Expr)
					if !ok {
						return
					}
					if _, window := x.(*pt.Window); window {
						return // not an expression of its own (its Src is the WindowSpec)
					}
					src, ok := x.(interface{ Source() any }).Source().(ast.ExprNode)
					if !ok {
						failures = append(failures, fmt.Sprintf("%q: %T has no TiDB source", st.Text, x))
						return
					}
					again, err := ToTree(src)
					if err != nil {
						failures = append(failures, fmt.Sprintf("%q: the source of %T does not transform: %v", st.Text, x, err))
						return
					}
					if d := sameTree(reflect.ValueOf(&x).Elem(), reflect.ValueOf(&again).Elem(), "expr"); d != "" {
						failures = append(failures, fmt.Sprintf("%q: %T is not its source's tree: %s", st.Text, x, d))
					}
				})
				// tree.Walk reaches every expression node reflection does
				var reached, walked int
				visit(reflect.ValueOf(&t1).Elem(), func(v reflect.Value) {
					if _, ok := v.Interface().(pt.Expr); ok {
						reached++
					}
				})
				pt.Walk(t1, func(pt.Expr) bool { walked++; return true })
				if reached != walked {
					failures = append(failures, fmt.Sprintf("%q: tree.Walk visits %d nodes of %d", st.Text, walked, reached))
				}
				if !reparseable(t1) {
					clauseBound++
					continue
				}
				text := pt.Format(t1, nil)
				again, err := p.Parse("SELECT " + text)
				if err != nil || len(again) != 1 {
					failures = append(failures, fmt.Sprintf("%q: written back as %q, which does not parse: %v", st.Text, text, err))
					continue
				}
				sel, ok := again[0].AST.(*ast.SelectStmt)
				if !ok || sel.Fields == nil || len(sel.Fields.Fields) != 1 {
					failures = append(failures, fmt.Sprintf("%q: written back as %q, not one SELECT item", st.Text, text))
					continue
				}
				t2, err := ToTree(sel.Fields.Fields[0].Expr)
				if err != nil {
					failures = append(failures, fmt.Sprintf("%q: written back as %q: %v", st.Text, text, err))
					continue
				}
				// the text says $n: a marker's Order counts the markers of
				// its own statement
				visit(reflect.ValueOf(&t2).Elem(), func(v reflect.Value) {
					if p, ok := v.Interface().(*pt.Param); ok {
						p.Order = again[0].ParamNumbers[p.Order] - 1
					}
				})
				if d := sameTree(reflect.ValueOf(&t1).Elem(), reflect.ValueOf(&t2).Elem(), "expr"); d != "" {
					failures = append(failures, fmt.Sprintf("%q: written back as %q: %s", st.Text, text, d))
					continue
				}
				tripped++
			}
		}
	}
	t.Logf("%d statements, %d expressions: %d round-tripped, %d clause-bound (transformed only)", stmts, roots, tripped, clauseBound)
	if stmts < 1000 || tripped < roots/2 {
		t.Errorf("the corpus walk saw too little: %d statements, %d of %d expressions", stmts, tripped, roots)
	}
	for i, f := range failures {
		if len(f) > 400 {
			f = f[len(f)-400:]
		}
		if i == 60 {
			t.Errorf("... and %d more", len(failures)-40)
			break
		}
		t.Error(f)
	}
}

// TestToTree: each PostgreSQL construct that reaches TiDB as a pg__*
// marker or a MySQL form becomes its own node (written back by Format).
func TestToTree(t *testing.T) {
	cases := []struct{ in, want string }{
		{"x::int", `CAST("x" AS int)`},
		{"CAST(x AS varchar(3)[])", `CAST("x" AS varchar(3)[])`},
		{"DATE '2020-01-02'", `CAST('2020-01-02' AS date)`},
		{"a[1]", `("a")[1]`},
		{"a[1:2]", `("a")[1:2]`},
		{"a[:2]", `("a")[:2]`},
		{"a[1:]", `("a")[1:]`},
		{"a[1][2]", `("a")[1][2]`},
		{"(a[1])[2]", `(("a")[1])[2]`},
		{"a[1][2:3]", `("a")[1][2:3]`},
		{"(a[1:2])[1]", `(("a")[1:2])[1]`},
		{"ARRAY[1, 2]", `ARRAY[1, 2]`},
		{"ARRAY(SELECT 1)", `ARRAY(SELECT 1)`},
		{"a IS DISTINCT FROM b", `(NOT ("a" IS NOT DISTINCT FROM "b"))`},
		{"a IS NOT DISTINCT FROM b", `("a" IS NOT DISTINCT FROM "b")`},
		{"EXTRACT(year FROM d)", `EXTRACT(year FROM "d")`},
		{"x = ANY(arr)", `("x" = ANY ("arr"))`},
		{"x <> ALL(arr)", `("x" <> ALL ("arr"))`},
		{"x = ANY(SELECT 1)", `("x" = ANY (SELECT 1))`},
		{"x IN (SELECT 1)", `("x" IN (SELECT 1))`},
		{"NOT EXISTS (SELECT 1)", `(NOT EXISTS (SELECT 1))`},
		{"(r).f", `("r")."f"`},
		{"(r).*", `("r").*`},
		{"ROW(1, 'a')", `ROW(1, 'a')`},
		{"(1, 'a')", `(1, 'a')`},
		{"MAP['a', 1]", `MAP['a', 1]`},
		{"2 ^ 3", `(2 ^ 3)`},
		{"position('b' IN s)", `position('b' IN "s")`},
		{"j -> 'k'", `("j" -> 'k')`},
		{"j ->> 'k'", `("j" ->> 'k')`},
		{"j #> '{a}'", `("j" #> '{a}')`},
		{"j @> k", `("j" @> "k")`},
		{"j ? 'k'", `("j" ? 'k')`},
		{"|/ x", `(|/ "x")`},
		{"~ x", `(~ "x")`},
		{"s ~ 'a.*'", `("s" ~ 'a.*')`},
		{"s !~* 'a'", `("s" !~* 'a')`},
		{"s ILIKE 'a%'", `("s" ILIKE 'a%')`},
		{"s NOT LIKE 'a!%' ESCAPE '!'", `("s" NOT LIKE 'a!%' ESCAPE '!')`},
		{"x BETWEEN SYMMETRIC 1 AND 2", `("x" BETWEEN SYMMETRIC 1 AND 2)`},
		{"x NOT BETWEEN 1 AND 2", `("x" NOT BETWEEN 1 AND 2)`},
		{"x IS NOT TRUE", `("x" IS NOT TRUE)`},
		{"x IS NULL", `("x" IS NULL)`},
		{"CASE WHEN a THEN 1 ELSE 2 END", `CASE WHEN "a" THEN 1 ELSE 2 END`},
		{"CASE a WHEN 1 THEN 'x' END", `CASE "a" WHEN 1 THEN 'x' END`},
		{"trim(LEADING 'x' FROM s)", `trim(LEADING 'x' FROM "s")`},
		{"count(DISTINCT x)", `count(DISTINCT "x")`},
		{"string_agg(s, ',' ORDER BY s DESC NULLS FIRST)", `string_agg("s", ',' ORDER BY "s" DESC NULLS FIRST)`},
		{"percentile_cont(0.5) WITHIN GROUP (ORDER BY x)", `percentile_cont(0.5) WITHIN GROUP (ORDER BY "x")`},
		{"sum(x) FILTER (WHERE x > 0)", `sum("x") FILTER (WHERE ("x" > 0))`},
		{"rank() OVER (PARTITION BY a ORDER BY b ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)",
			`rank() OVER (PARTITION BY "a" ORDER BY "b" ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)`},
		{"sum(x) OVER w", `sum("x") OVER "w"`},
		{"t.\"Mixed\"", `"t"."Mixed"`},
		{"$1 + 1.50", `($1 + 1.50)`},
		{"1e3", `1e+03`},
		{"'it''s'", `'it''s'`},
		{"-9223372036854775808", `(-9223372036854775808)`},
		{"NULL", `NULL`},
		{"true AND NOT false", `(TRUE AND (NOT FALSE))`},
	}
	p := NewParser()
	for _, c := range cases {
		stmts, err := p.Parse("SELECT " + c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		e, err := ToTree(stmts[0].AST.(*ast.SelectStmt).Fields.Fields[0].Expr)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		sub := func(q *pt.Subquery) string { return "(SELECT 1)" }
		if got := pt.Format(e, sub); got != c.want {
			t.Errorf("%s: got %s, want %s", c.in, got, c.want)
		}
	}
}

// TestToTreePositions: a node's offset, mapped through the statement,
// points at the construct in the user's text (the error cursor).
func TestToTreePositions(t *testing.T) {
	cases := []struct {
		in   string
		find func(pt.Expr) pt.Node
		want string // the user's text from the node's position on
	}{
		{"SELECT 1 + x::int", func(e pt.Expr) pt.Node { return e.(*pt.Binary).R }, "x::int"},
		{"SELECT a[2] FROM t", func(e pt.Expr) pt.Node { return e.(*pt.Subscript).Index }, "2] FROM t"},
		{"SELECT  ARRAY[1]", func(e pt.Expr) pt.Node { return e }, "ARRAY[1]"},
		{"SELECT x >= ANY(a)", func(e pt.Expr) pt.Node { return e.(*pt.Quantified).OpAt }, ">= ANY(a)"},
		{"SELECT $1 IS DISTINCT FROM b", func(e pt.Expr) pt.Node { return e.(*pt.Unary).X.(*pt.Binary).R }, "b"},
	}
	p := NewParser()
	for _, c := range cases {
		stmts, err := p.Parse(c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		e, err := ToTree(stmts[0].AST.(*ast.SelectStmt).Fields.Fields[0].Expr)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		pos := stmts[0].Position(c.find(e).Pos()) // 1-based characters; ASCII here
		if pos < 1 || pos > len(c.in) || c.in[pos-1:] != c.want {
			t.Errorf("%s: position %d, want the text %q", c.in, pos, c.want)
		}
	}
}

// TestToTreeRefusesWhatItCannotCarry: a MySQL construct with no tree node
// is 0A000, not a silently dropped part.
func TestToTreeRefusesWhatItCannotCarry(t *testing.T) {
	p := NewParser()
	reached := 0
	// (split, so that the corpus walk, which reads this file's string
	// literals, does not take them for statements that must transform)
	// (@@version no longer reaches TiDB as a system variable: @@ is a
	// PostgreSQL operator with no prefix form, rewrite.go)
	for _, in := range []string{"SELECT MATCH (a) " + "AGAINST ('x')"} {
		stmts, err := p.Parse(in)
		if err != nil {
			continue // refused before the tree: fine
		}
		reached++
		if _, err := ToTree(stmts[0].AST.(*ast.SelectStmt).Fields.Fields[0].Expr); sqlerr.CodeOf(err) != sqlerr.FeatureNotSupported {
			t.Errorf("%s: %v, want 0A000", in, err)
		}
	}
	if reached == 0 {
		t.Error("every case was refused by the parser: the test checks nothing")
	}
}
