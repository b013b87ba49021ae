package engine

import (
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Whether a cursor declared with neither SCROLL nor NO SCROLL scrolls.
//
// PostgreSQL 15 (PerformCursorOpen) makes such a cursor SCROLL when its
// plan has no row marks (FOR UPDATE / FOR SHARE) and
// ExecSupportsBackwardScan(plan) holds, and NO SCROLL otherwise; backward
// motion on it then fails with 55000 "cursor can only scan forward". The
// plan's nodes decide: scans of tables (sequential and B-tree index
// scans), of functions, of VALUES and of CTEs, Material and Sort can run
// backward; Limit, LockRows and SubqueryScan can when their input can;
// Append (UNION ALL, a partitioned table) when every input can; a Result
// when it has an input that can (a SELECT without FROM has none);
// everything else — aggregation, Unique (DISTINCT), joins, window
// functions, set operations other than UNION ALL, ProjectSet (a
// set-returning function in the select list), recursive unions — cannot.
//
// sqlgate has its own plans, so backwardScan applies that rule to the
// bound query, whose nodes stand for the ones PostgreSQL plans for the
// same query: a Filter or Project is part of the node below it (PostgreSQL
// evaluates quals and target lists inside scans and joins), a subquery in
// FROM or a CTE used once is inlined into the plan as PostgreSQL pulls it
// up, ORDER BY is a Sort on top (even over an aggregation or a join, whose
// output it sorts) and DISTINCT under an ORDER BY on the same columns is
// PostgreSQL's Unique over that Sort. Where PostgreSQL's choice depends on
// costs (a bitmap scan instead of an index scan, an incremental sort) the
// rule takes the plan PostgreSQL makes for tables of the sizes it assumes
// before ANALYZE.
//
// A cursor that scrolls keeps the rows it has read (cursorstore.go), so
// that FETCH can return to them.
func backwardScan(n binder.Node) bool {
	switch n := n.(type) {
	case *binder.Scan, *binder.TableFunc, *binder.UDFTable, *binder.FileTable:
		return true
	case *binder.RecursiveUnion, *binder.CTEScan:
		return true // read through a CteScan
	case *binder.Sort:
		// No Sort when a window function's sort already gives the order.
		return !windowSorted(n)
	case *binder.Values:
		return len(n.Cols) > 0 // a SELECT without FROM is a Result without input
	case *binder.Filter:
		if alwaysFalse(n.Cond) || pulledUpSublink(n.Cond) {
			return false
		}
		return backwardScan(n.Input)
	case *binder.Project:
		return backwardScan(n.Input)
	case *binder.UDFBatch:
		return backwardScan(n.Input)
	case *binder.Limit:
		return backwardScan(n.Input)
	case *binder.SetOp:
		return n.Kind == binder.Union && n.All && backwardScan(n.Left) && backwardScan(n.Right)
	}
	// Aggregate, Distinct, DistinctOn, Join, Lateral, Window, ProjectSet
	// and LockRows (row marks make PostgreSQL's cursor NO SCROLL whatever
	// the plan).
	return false
}

// alwaysFalse: a WHERE that is constant false or NULL, which PostgreSQL
// plans as a Result with no input.
func alwaysFalse(e binder.Expr) bool {
	c, ok := e.(*binder.Const)
	return ok && (c.Value == nil || c.Value == false)
}

// pulledUpSublink: a WHERE with, among its AND-ed conditions, a sublink
// PostgreSQL turns into a join (pull_up_sublinks): EXISTS or NOT EXISTS
// over a correlated subquery, x IN / op ANY over an uncorrelated one. The
// plan's top is then a semi- or anti-join, which cannot run backward
// (uncorrelated EXISTS is a one-time filter, correlated IN and NOT IN a
// filter of the scan: those can).
func pulledUpSublink(e binder.Expr) bool {
	switch e := e.(type) {
	case *binder.BinaryOp:
		return e.Op == binder.OpAnd && (pulledUpSublink(e.L) || pulledUpSublink(e.R))
	case *binder.UnaryOp:
		sq, ok := e.X.(*binder.Subquery)
		return e.Op == binder.OpNot && ok && sq.Mode == binder.ExistsSubquery && len(sq.Outer) > 0
	case *binder.Subquery:
		switch e.Mode {
		case binder.ExistsSubquery:
			return len(e.Outer) > 0
		case binder.AnySubquery:
			return len(e.Outer) == 0
		}
	}
	return false
}

// windowSorted reports whether ORDER BY s and the order a window
// function's input is sorted in (its PARTITION BY keys, then its ORDER BY
// keys) are one a prefix of the other: PostgreSQL then sorts the window's
// input by the longer of the two and plans no Sort above the WindowAgg,
// which is the plan's top.
func windowSorted(s *binder.Sort) bool {
	in := s.Input
	var proj *binder.Project
	for {
		switch n := in.(type) {
		case *binder.Project:
			if proj == nil {
				proj = n
			}
			in = n.Input
			continue
		case *binder.Filter:
			in = n.Input
			continue
		}
		break
	}
	w, ok := in.(*binder.Window)
	if !ok {
		return false
	}
	var wkeys []binder.SortKey
	for _, p := range w.Call.Partition {
		wkeys = append(wkeys, binder.SortKey{Expr: p})
	}
	wkeys = append(wkeys, w.Call.Order...)
	for i, k := range s.Keys[:min(len(s.Keys), len(wkeys))] {
		e := k.Expr
		if ref, ok := e.(*binder.ColumnRef); ok && proj != nil && ref.Index < len(proj.Exprs) {
			e = proj.Exprs[ref.Index]
		}
		if e.String() != wkeys[i].Expr.String() || k.Desc != wkeys[i].Desc || k.NullsFirst != wkeys[i].NullsFirst {
			return false
		}
	}
	return true
}

// lockedRows returns the row-locking clause (FOR UPDATE, FOR SHARE, ...)
// of a query, if it has one: PostgreSQL's row marks.
func lockedRows(n binder.Node) (string, bool) {
	if l, ok := n.(*binder.LockRows); ok {
		return l.Mode.String(), true
	}
	for _, c := range n.Children() {
		if m, ok := lockedRows(c); ok {
			return m, true
		}
	}
	return "", false
}

// checkCursorLocks refuses what PostgreSQL's transformDeclareCursorStmt
// refuses for a query that locks rows: a cursor WITH HOLD or SCROLL must
// be read only.
func checkCursorLocks(q *binder.Query, hold, scroll bool) error {
	clause, ok := lockedRows(q.Plan)
	switch {
	case !ok:
		return nil
	case hold:
		return sqlerr.NotSupported("DECLARE CURSOR WITH HOLD ... " + clause).
			WithDetail("Holdable cursors must be READ ONLY.")
	case scroll:
		return sqlerr.NotSupported("DECLARE SCROLL CURSOR ... " + clause).
			WithDetail("Scrollable cursors must be READ ONLY.")
	}
	return nil
}
