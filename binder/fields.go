package binder

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Field selection from a composite value, PostgreSQL's (expr).field: the
// rewrite turns it into pg__field((expr), 'field'), since TiDB's grammar
// has no such syntax. pgJDBC's metadata queries select the fields of the
// composite (x, n) that information_schema._pg_expandarray returns.

// bindFieldSelect binds pg__field(e, 'name'); ok is false for other calls.
func (b *binder) bindFieldSelect(s *scope, n *ast.FuncCallExpr) (Expr, bool, error) {
	if n.FnName.L != "pg__field" {
		return nil, false, nil
	}
	if len(n.Args) != 2 {
		return nil, true, b.errAt(n, sqlerr.New(sqlerr.SyntaxError, "malformed field selection"))
	}
	name := literalString(n.Args[1])
	if name == "*" {
		return nil, true, b.errAt(n, sqlerr.NotSupported("(expression).* outside a SELECT list"))
	}
	e, err := b.bindExpr(s, n.Args[0])
	if err != nil {
		return nil, true, err
	}
	t := e.Type()
	if t.Kind != types.Row {
		return nil, true, b.errAt(n, sqlerr.New(sqlerr.WrongObjectType, "column notation .%s applied to type %s, which is not a composite type", name, t.PGName()))
	}
	for k, f := range t.Fields {
		if f.Name == name {
			ft := f.Type.Nullable()
			return &FuncCall{Name: "fieldselect", Args: []Expr{e}, T: ft, Kernel: functions.FieldSelectKernel(ft, k)}, true, nil
		}
	}
	return nil, true, b.errAt(n, sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" not found in data type record", name))
}

// fieldSelectName is PostgreSQL's output column name for (expr).field:
// the field's name.
func fieldSelectName(f *ast.FuncCallExpr) (string, bool) {
	if f.FnName.L != "pg__field" || len(f.Args) != 2 {
		return "", false
	}
	return literalString(f.Args[1]), true
}

// rowExpansion reports whether a select-list item is (expr).*, and returns
// expr.
func rowExpansion(e ast.ExprNode) (ast.ExprNode, bool) {
	f, ok := e.(*ast.FuncCallExpr)
	if !ok || f.FnName.L != "pg__field" || len(f.Args) != 2 || literalString(f.Args[1]) != "*" {
		return nil, false
	}
	return f.Args[0], true
}

// expandRow is (expr).* in a select list: one column per field of the
// composite value e, named after the field, as PostgreSQL expands it (e is
// evaluated once per field, as PostgreSQL does for a function call).
func (b *binder) expandRow(n sourceNode, e Expr, p *Project) error {
	t := e.Type()
	if t.Kind != types.Row {
		return b.errAt(n, sqlerr.New(sqlerr.WrongObjectType, "type %s is not composite", t.PGName()))
	}
	for k, f := range t.Fields {
		ft := f.Type.Nullable()
		p.Exprs = append(p.Exprs, &FuncCall{Name: "fieldselect", Args: []Expr{e}, T: ft, Kernel: functions.FieldSelectKernel(ft, k)})
		p.Cols = append(p.Cols, Column{Name: f.Name, T: ft})
	}
	return nil
}
