package binder

import (
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// The writes' edge with the queries' binder. INSERT, UPDATE and DELETE
// bind from sqlgate's tree (insert.go, update.go, returning.go), the
// clauses of theirs that are the queries' (the target table, UPDATE ...
// FROM's and DELETE ... USING's tables, a WITH, RETURNING's select list,
// INSERT's query) with the queries' binders (from.go, select.go, setop.go).

// bindWriteTarget binds the table a write names as FROM binds it: a view
// or a CTE of that name is found, and refused by the caller as not a
// table.
func (b *binder) bindWriteTarget(target pt.FromItem, verb string) (Node, error) {
	if _, join := target.(*pt.Join); join || target == nil {
		return nil, sqlerr.NotSupported(verb + " with several tables")
	}
	b.writeTarget = true // a data-modifying WITH query's name is no target
	defer b.throughView()()
	defer func() { b.writeTarget = false }()
	return b.bindFromItem(target)
}

// bindInsertTarget is bindWriteTarget for INSERT, which binds its target
// whatever its shape (a join is refused as not a table).
func (b *binder) bindInsertTarget(target pt.FromItem) (Node, error) {
	if target == nil {
		return nil, sqlerr.NotSupported("INSERT into this target")
	}
	b.writeTarget = true
	defer b.throughView()()
	defer func() { b.writeTarget = false }()
	return b.bindFromItem(target)
}

// bindWriteWith binds a WITH clause that the whole statement (owner: the
// write) sees; nothing when w is nil.
func (b *binder) bindWriteWith(w *pt.With, owner pt.Statement) error {
	if w == nil {
		return nil
	}
	return b.bindWith(w, owner) // cte.go
}

// bindWriteFrom binds UPDATE ... FROM's (DELETE ... USING's) tables;
// noList: the keyword was written without a table list. stmt is the
// write, whose SET, WHERE and RETURNING may read the tables' whole rows
// (wholeRowNames).
func (b *binder) bindWriteFrom(from pt.FromItem, noList bool, stmt pt.Node) (Node, error) {
	if noList || from == nil {
		return nil, sqlerr.New(sqlerr.SyntaxError, "syntax error: a table list must follow FROM / USING")
	}
	return b.bindFromItemIn(from, wholeRowNames(from, stmt))
}

// bindReturningList binds RETURNING's list over s with the SELECT-list
// rules; aggregates and window functions are not allowed there, as in
// PostgreSQL.
func (b *binder) bindReturningList(s *scope, r *pt.Returning) (*Project, error) {
	targets := make([]*pt.Target, len(r.Items))
	for i, it := range r.Items {
		switch {
		case it.Star:
			targets[i] = &pt.Target{At: it.At, X: &pt.Star{At: it.At, Table: it.Table}}
			continue
		case b.containsAggregateTree(it.X):
			return nil, b.errAt(it.X, sqlerr.New(sqlerr.GroupingError, "aggregate functions are not allowed in RETURNING"))
		case b.containsWindowTree(it.X):
			return nil, b.errAt(it.X, sqlerr.New(sqlerr.WindowingError, "window functions are not allowed in RETURNING"))
		}
		targets[i] = &pt.Target{At: it.At, X: it.X, Alias: it.Alias}
	}
	return b.bindTargets(s, targets, func(e pt.Expr) (Expr, error) { return b.bindTree(s, e) }, false)
}
