package binder

import (
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// The WHERE clauses of INSERT ... ON CONFLICT: DO UPDATE's condition,
// which decides per conflicting row whether it is updated, and the
// inference clause's index predicate (ON CONFLICT (cols) WHERE pred).

// bindConflictWhere binds ON CONFLICT DO UPDATE ... WHERE cond over the
// DO UPDATE scope sc (the existing row, then EXCLUDED): a boolean, as
// PostgreSQL's WHERE.
func (b *binder) bindConflictWhere(sc *scope, where pt.Expr) (Expr, error) {
	if err := b.refuseAggregateIn(where, "WHERE"); err != nil {
		return nil, err
	}
	defer b.refuseSetCalls("WHERE")()
	defer b.refuseAggregates("WHERE")() // agglevels.go
	cond, err := b.bindTree(sc, where)
	if err != nil {
		return nil, err
	}
	if cond, err = b.coerce(where, cond, types.BoolType, "argument of WHERE"); err != nil {
		return nil, err
	}
	return finishParamsExpr(b, cond), nil
}

// checkTargetWhere checks the inference clause's predicate over the
// table's columns (EXCLUDED is not there). sqlgate's unique indexes are
// all whole-table ones, which PostgreSQL infers whatever the predicate,
// so the predicate is checked and then dropped.
func (b *binder) checkTargetWhere(scan *Scan, pred pt.Expr) error {
	if err := b.refuseAggregateIn(pred, "index predicates"); err != nil {
		return err
	}
	defer b.refuseSetCalls("index predicates")()
	defer b.refuseAggregates("index predicates")() // agglevels.go
	e, err := b.bindTree(newScope(scan), pred)
	if err != nil {
		return err
	}
	var sub Expr
	Walk(e, func(x Expr) {
		if s, ok := x.(*Subquery); ok && sub == nil {
			sub = s
		}
	})
	if sub != nil {
		return b.errAt(pred, sqlerr.New(sqlerr.FeatureNotSupported, "cannot use subquery in index predicate"))
	}
	return nil
}

// excludedOutsideUpdate words a RETURNING's reference to EXCLUDED as
// PostgreSQL does: the table exists in the statement (DO UPDATE's) but
// RETURNING cannot see it.
func excludedOutsideUpdate(err error) error {
	e := sqlerr.As(err)
	if e == nil || e.Code != sqlerr.UndefinedTable || e.Message != missingFromEntry("excluded").Message {
		return err
	}
	out := invalidFromEntry(sqlerr.UndefinedTable, "excluded").
		WithHint("There is an entry for table %q, but it cannot be referenced from this part of the query.", "excluded")
	out.Position = e.Position
	return out
}

// refuseAggregateIn is PostgreSQL's 42803 for an aggregate call in e, a
// clause of the INSERT (place names it), which has no query level to
// aggregate at.
func (b *binder) refuseAggregateIn(e pt.Expr, place string) error {
	if !b.containsAggregateTree(e) {
		return nil
	}
	return b.errAt(b.finders.tree.at, sqlerr.New(sqlerr.GroupingError, "aggregate functions are not allowed in %s", place))
}
