package sql

import (
	"strings"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"
)

// restore renders a TiDB AST node back to SQL (canonical form, so tests can
// check the structure TiDB built: precedence, literal kinds).
func restore(t *testing.T, n ast.Node) string {
	t.Helper()
	var b strings.Builder
	ctx := format.NewRestoreCtx(format.DefaultRestoreFlags, &b)
	if err := n.Restore(ctx); err != nil {
		t.Fatalf("restore: %v", err)
	}
	return b.String()
}

// parseOne parses text and requires exactly one statement.
func parseOne(t *testing.T, text string) *Statement {
	t.Helper()
	stmts, err := NewParser().Parse(text)
	if err != nil {
		t.Fatalf("Parse(%q): %v", text, err)
	}
	if len(stmts) != 1 {
		t.Fatalf("Parse(%q): %d statements, want 1", text, len(stmts))
	}
	return stmts[0]
}

// whereOf returns the restored WHERE clause of a SELECT.
func whereOf(t *testing.T, st *Statement) string {
	t.Helper()
	sel, ok := st.AST.(*ast.SelectStmt)
	if !ok || sel.Where == nil {
		t.Fatalf("%q: not a SELECT with WHERE (%T)", st.Text, st.AST)
	}
	return restore(t, sel.Where)
}

// fieldsOf returns the restored select list.
func fieldsOf(t *testing.T, st *Statement) []string {
	t.Helper()
	sel, ok := st.AST.(*ast.SelectStmt)
	if !ok {
		t.Fatalf("%q: not a SELECT (%T)", st.Text, st.AST)
	}
	var out []string
	for _, f := range sel.Fields.Fields {
		out = append(out, restore(t, f.Expr))
	}
	return out
}

// tree renders an expression with explicit parentheses around every
// operator, so precedence mistakes in the rewrite show up in tests.
func tree(t *testing.T, e ast.ExprNode) string {
	t.Helper()
	switch x := e.(type) {
	case *ast.BinaryOperationExpr:
		return "(" + tree(t, x.L) + " " + x.Op.String() + " " + tree(t, x.R) + ")"
	case *ast.UnaryOperationExpr:
		return "(" + x.Op.String() + " " + tree(t, x.V) + ")"
	case *ast.PatternRegexpExpr:
		op := " regexp "
		if x.Not {
			op = " not regexp "
		}
		return "(" + tree(t, x.Expr) + op + tree(t, x.Pattern) + ")"
	case *ast.ParenthesesExpr:
		return tree(t, x.Expr)
	case *ast.FuncCallExpr:
		args := make([]string, len(x.Args))
		for i, a := range x.Args {
			args[i] = tree(t, a)
		}
		name := x.FnName.L
		if x.Schema.L != "" {
			name = x.Schema.L + "." + name
		}
		return name + "(" + strings.Join(args, ", ") + ")"
	case *ast.ColumnNameExpr:
		return x.Name.String()
	}
	if lit, ok := LiteralOf(e); ok {
		switch lit.Kind {
		case LitString:
			return "'" + lit.Text + "'"
		case LitInt, LitBool:
			return restore(t, e)
		}
	}
	if n, ok := ParamOrder(e); ok {
		return "?" + string(rune('0'+n))
	}
	return restore(t, e)
}

// foldOutsideQuotes lower-cases ASCII letters outside '...' and "...", as
// the rewrite folds unquoted words.
func foldOutsideQuotes(s string) string {
	b := []byte(s)
	var q byte
	for i, c := range b {
		switch {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '\'' || c == '"':
			q = c
		case c >= 'A' && c <= 'Z':
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
