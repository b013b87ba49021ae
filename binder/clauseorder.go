package binder

import (
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/types"
)

// The order in which a SELECT's clauses are checked decides which error a
// statement with several reports. PostgreSQL's transformSelectStmt binds
// FROM, the select list, WHERE, HAVING, ORDER BY, GROUP BY, DISTINCT [ON],
// OFFSET, LIMIT, the window definitions and the locking clause, then
// looks for ungrouped columns (parseCheckAggregates). sqlgate binds WHERE
// and GROUP BY before the select list (the Aggregate node's keys must be
// known to rebase the list over them), so when one of those two fails,
// the clauses PostgreSQL binds before it are bound again, over the same
// input but into a throwaway state, and the first error among them is the
// statement's (earlierClauseError). Nothing is rebased there, so no
// ungrouped column is reported before its time. The rest of the order is
// kept where the clauses are bound (select.go): an ORDER BY item outside a
// DISTINCT list is refused after the whole ORDER BY (and GROUP BY, bound
// earlier), as transformDistinctClause does, OFFSET before LIMIT, the
// window definitions after both, and the locking clause's refusals last.

// selectClause names the clause of a SELECT that failed.
type selectClause int

const (
	whereClause selectClause = iota + 1
	groupByClause
)

// earlierClauseError is err, the error of clause failed, unless a clause
// PostgreSQL binds before it fails (above): the select list for WHERE; the
// select list, HAVING and ORDER BY for GROUP BY. in is the input those
// clauses see (the FROM items, filtered by WHERE when GROUP BY failed);
// aggregating, windows and keepUnknown are bindSelectLevel's.
func (b *binder) earlierClauseError(sel *pt.Select, targets []*pt.Target, in *scope, aggregating, windows, keepUnknown bool, failed selectClause, err error) error {
	prevAgg, prevWin, prevSrf, prevPlace := b.agg, b.win, b.srf, b.winPlace
	defer func() { b.agg, b.win, b.srf, b.winPlace = prevAgg, prevWin, prevSrf, prevPlace }()
	raw := func(e pt.Expr) (Expr, error) { return b.bindTree(in, e) }
	var st *aggState
	if aggregating {
		st = &aggState{input: in, keysUnbound: true}
	}
	var win *winState
	if windows || len(sel.Windows) > 0 {
		win = &winState{bind: raw, defs: sel.Windows, srf: &srfState{bind: raw}}
		if len(win.defs) > 0 {
			win.defOffsets = windowClauseOffsets(b.stmtText(), lastClauseOffset(sel), len(win.defs))
		}
	}
	b.agg, b.win, b.srf, b.winPlace = st, win, &srfState{bind: raw}, ""
	if lvl := b.level; lvl != nil && st != nil {
		// a subquery's aggregate of this level binds into st as it
		// would into the level's own (bindOuterAggregate), not refused
		// as one of a query that does not aggregate
		prevLevelAgg := lvl.agg
		lvl.agg = st
		defer func() { lvl.agg = prevLevelAgg }()
	}
	proj, perr := b.bindTargets(in, targets, raw, keepUnknown)
	if perr != nil {
		return perr
	}
	if failed == whereClause {
		return err
	}
	if sel.Having != nil && st != nil {
		b.win, b.winPlace, b.srf = nil, "HAVING", &srfState{refuse: "HAVING"}
		st.inHaving = true
		h, perr := raw(sel.Having)
		st.inHaving = false
		if perr == nil {
			_, perr = b.coerce(sel.Having, h, types.BoolType, "argument of HAVING")
		}
		if perr != nil {
			return perr
		}
		b.win, b.winPlace = win, ""
	}
	if sel.OrderBy != nil {
		b.srf = &srfState{bind: raw}
		if _, perr := b.bindOrderItems(proj, sel.OrderBy, raw, false); perr != nil {
			return perr
		}
	}
	return err
}
