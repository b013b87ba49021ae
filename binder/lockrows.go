package binder

import (
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/rowlock"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// LockRows locks the table rows its input yields (SELECT ... FOR UPDATE,
// FOR NO KEY UPDATE, FOR SHARE, FOR KEY SHARE). It sits where PostgreSQL's
// LockRows node does: above ORDER BY, below LIMIT, so that LIMIT counts
// only rows locked (a row skipped by SKIP LOCKED does not count).
//
// A row that changed after the statement read it (another transaction
// held its lock, or committed a change meanwhile) is read again by key and
// re-evaluated, as PostgreSQL's EvalPlanQual does: Cond (the WHERE; nil for
// none) decides whether it still qualifies and Exprs (the select list,
// hidden columns included) compute its output from the new version. Both
// are over the table's columns in table order.
type LockRows struct {
	Input Node
	Table fluss.TableInfo
	// KeyAt are the input columns holding the table's primary key, in key
	// order (hidden columns of the select list).
	KeyAt []int
	Mode  rowlock.Mode
	Wait  rowlock.Wait
	Cond  Expr
	Exprs []Expr
}

func (n *LockRows) Columns() []Column { return n.Input.Columns() }
func (n *LockRows) Children() []Node  { return []Node{n.Input} }

// LockedTable returns the table a query's LockRows node locks, if it has one.
func LockedTable(n Node) (fluss.TableInfo, bool) {
	if l, ok := n.(*LockRows); ok {
		return l.Table, true
	}
	for _, c := range n.Children() {
		if info, ok := LockedTable(c); ok {
			return info, true
		}
	}
	return fluss.TableInfo{}, false
}

// rowLockClause reads SELECT's locking clause: its mode and wait policy.
func (b *binder) rowLockClause(l *pt.Locking) (rowlock.Mode, rowlock.Wait, error) {
	mode, wait := rowlock.Update, rowlock.Block
	switch l.Strength {
	case pt.ForNoKeyUpdate:
		mode = rowlock.NoKeyUpdate
	case pt.ForShare:
		mode = rowlock.Share
	case pt.ForKeyShare:
		mode = rowlock.KeyShare
	}
	switch l.Wait {
	case pt.LockNoWait:
		wait = rowlock.NoWait
	case pt.LockSkipLocked:
		wait = rowlock.SkipLocked
	}
	return mode, wait, nil
}

// lockedSelect is what checkRowLock needs to know of the SELECT a locking
// clause belongs to.
type lockedSelect struct {
	aggregating, grouped, having, distinct, windows bool
}

// lockClauseName is how PostgreSQL names a locking clause in its errors.
func lockClauseName(m rowlock.Mode) string { return m.String() }

// checkRowLock refuses the SELECTs PostgreSQL refuses a locking clause
// for, and the ones sqlgate cannot lock: anything but rows of one table
// with a primary key, read directly.
func (b *binder) checkRowLock(sel lockedSelect, from Node, mode rowlock.Mode, setOpBranch bool) (*Scan, error) {
	name := lockClauseName(mode)
	// in the order of PostgreSQL's CheckSelectLocking
	switch {
	case setOpBranch:
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "%s is not allowed with UNION/INTERSECT/EXCEPT", name)
	case sel.distinct:
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "%s is not allowed with DISTINCT clause", name)
	case sel.grouped:
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "%s is not allowed with GROUP BY clause", name)
	case sel.having:
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "%s is not allowed with HAVING clause", name)
	case sel.aggregating:
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "%s is not allowed with aggregate functions", name)
	case sel.windows:
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "%s is not allowed with window functions", name)
	}
	scan, ok := from.(*Scan)
	if !ok || scan.Changelog || !scan.Table.HasPrimaryKey() {
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "%s is supported on one table with a primary key", name).
			WithHint("Lock the rows of one table, without joins, views or subqueries in FROM.")
	}
	return scan, nil
}

// lockRows puts the LockRows node over out (the select list, sorted): the
// table's key columns are appended to proj as hidden columns for it.
func (b *binder) lockRows(scan *Scan, cond Expr, proj *Project, out Node, mode rowlock.Mode, wait rowlock.Wait) (Node, error) {
	hasSub := cond != nil && containsSubquery(cond)
	for _, e := range proj.Exprs {
		hasSub = hasSub || containsSubquery(e)
	}
	if hasSub || len(proj.Exprs) != len(proj.Cols) {
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "%s with subqueries is not supported", lockClauseName(mode))
	}
	lr := &LockRows{Table: scan.Table, Mode: mode, Wait: wait, Cond: cond}
	cols := scan.Columns()
	for _, k := range scan.Table.Descriptor.Schema.PrimaryKey {
		i := scan.Table.ColumnIndex(k)
		lr.KeyAt = append(lr.KeyAt, len(proj.Exprs))
		proj.Exprs = append(proj.Exprs, &ColumnRef{Index: i, Name: cols[i].Name, T: cols[i].T})
		proj.Cols = append(proj.Cols, Column{Name: cols[i].Name, T: cols[i].T})
	}
	lr.Exprs = proj.Exprs
	lr.Input = out
	return lr, nil
}
