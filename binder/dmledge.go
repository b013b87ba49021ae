package binder

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// The writes' edge with the queries' binder. INSERT, UPDATE and DELETE
// bind from sqlgate's tree (insert.go, update.go, returning.go); the
// clauses of theirs that are the queries' (the target table, UPDATE ...
// FROM's and DELETE ... USING's tables, a WITH, RETURNING's select list,
// INSERT's query) reach the tree as pt.WriteClause / pt.Returning holding
// TiDB's node, which the query binder (from.go, subquery.go, select.go)
// still reads. These few calls are the only place the writes touch TiDB's
// AST; they go when the queries move onto the tree (issue 32).

// bindWriteTarget binds the table a write names (TiDB's TableRefsClause
// in c.Src) as FROM binds it: a view or a CTE of that name is found, and
// refused by the caller as not a table.
func (b *binder) bindWriteTarget(c *pt.WriteClause, verb string) (Node, error) {
	var refs *ast.TableRefsClause
	if c != nil {
		refs, _ = c.Src.(*ast.TableRefsClause)
	}
	if refs == nil || refs.TableRefs == nil || refs.TableRefs.Right != nil {
		return nil, sqlerr.NotSupported(verb + " with several tables")
	}
	return b.bindResultSet(refs.TableRefs)
}

// bindInsertTarget is bindWriteTarget for INSERT, which binds its target
// whatever its shape (a join is refused as not a table).
func (b *binder) bindInsertTarget(c *pt.WriteClause) (Node, error) {
	var refs *ast.TableRefsClause
	if c != nil {
		refs, _ = c.Src.(*ast.TableRefsClause)
	}
	if refs == nil {
		return nil, sqlerr.NotSupported("INSERT into this target")
	}
	return b.bindResultSet(refs.TableRefs)
}

// bindWriteWith binds a WITH clause (c.Src) that the whole statement
// (owner: its TiDB node) sees; nil when c is nil.
func (b *binder) bindWriteWith(c *pt.WriteClause, owner any) error {
	if c == nil {
		return nil
	}
	w, _ := c.Src.(*ast.WithClause)
	o, _ := owner.(ast.Node)
	return b.bindWith(w, o)
}

// bindWriteFrom binds UPDATE ... FROM's (DELETE ... USING's) tables.
func (b *binder) bindWriteFrom(c *pt.WriteClause) (Node, error) {
	refs, _ := c.Src.(*ast.TableRefsClause)
	if refs == nil || refs.TableRefs == nil {
		return nil, sqlerr.New(sqlerr.SyntaxError, "syntax error: a table list must follow FROM / USING")
	}
	return b.bindFrom(refs)
}

// bindReturningList binds RETURNING's list (r.Src, TiDB's FieldList) over
// s with the SELECT-list rules; aggregates and window functions are not
// allowed there, as in PostgreSQL.
func (b *binder) bindReturningList(s *scope, r *pt.Returning) (*Project, error) {
	fields, _ := r.Src.(*ast.FieldList)
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
