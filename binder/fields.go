package binder

import (
	"github.com/sqlgate/sqlgate/functions"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Field selection from a composite value, PostgreSQL's (expr).field: the
// rewrite turns it into pg__field((expr), 'field'), since TiDB's grammar
// has no such syntax. pgJDBC's metadata queries select the fields of the
// composite (x, n) that information_schema._pg_expandarray returns.

// bindFieldSelectTree binds (x).field.
func (b *binder) bindFieldSelectTree(s *scope, n *pt.FieldSelect) (Expr, error) {
	name := n.Field
	if name == "*" {
		return nil, b.errAt(n, sqlerr.NotSupported("(expression).* outside a SELECT list"))
	}
	e, err := b.bindTree(s, n.X)
	if err != nil {
		return nil, err
	}
	t := e.Type()
	if t.Kind != types.Row {
		return nil, b.errAt(n, sqlerr.New(sqlerr.WrongObjectType, "column notation .%s applied to type %s, which is not a composite type", name, t.PGName()))
	}
	return b.selectField(fieldSelectPlace(n), e, name)
}

// selectField is field name of e, a composite value; at is where a
// missing field's error points.
func (b *binder) selectField(at sourceNode, e Expr, name string) (Expr, error) {
	t := e.Type()
	for k, f := range t.Fields {
		if f.Name == name {
			ft := f.Type.Nullable()
			return &FuncCall{Name: "fieldselect", Args: []Expr{e}, T: ft, Kernel: functions.FieldSelectKernel(ft, k)}, nil
		}
	}
	return nil, b.errAt(at, unknownField(name, t)) // composite.go
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
