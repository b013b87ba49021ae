package binder

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Returning is the RETURNING list of INSERT, UPDATE or DELETE: the rows
// the statement wrote, projected like a SELECT list.
type Returning struct {
	// Cols are the output columns, named as PostgreSQL names them.
	Cols []Column
	// Exprs (INSERT) compute Cols over each row as written (the table's
	// columns in table order: after ON CONFLICT DO UPDATE, the merged row).
	Exprs []Expr
	// At (UPDATE, DELETE) is the first column of Source (Keys) holding Cols:
	// those statements compute them in the same projection as their writes,
	// so they can also name the FROM (USING) tables' columns.
	At int
}

// bindReturning binds a RETURNING list over s with the SELECT-list rules
// (wildcards, output names); aggregates and window functions are not
// allowed there, as in PostgreSQL.
func (b *binder) bindReturning(s *scope, fields *ast.FieldList) (*Project, error) {
	for _, f := range fields.Fields {
		switch {
		case f.Expr == nil:
		case b.containsAggregate(f.Expr):
			return nil, b.errAt(f.Expr, sqlerr.New(sqlerr.GroupingError, "aggregate functions are not allowed in RETURNING"))
		case b.containsWindow(f.Expr):
			return nil, b.errAt(f.Expr, sqlerr.New(sqlerr.WindowingError, "window functions are not allowed in RETURNING"))
		}
	}
	return b.bindSelectList(s, fields, func(e ast.ExprNode) (Expr, error) { return b.bindExpr(s, e) }, false)
}
