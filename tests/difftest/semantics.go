package difftest

import (
	"strings"
)

// SemanticDifference is a documented way in which sqlgate's answer may
// differ from PostgreSQL's. Applies is a rule over the generated query's
// AST and the two outcomes — never over the query's text — so that it
// excuses a whole class of queries for a stated reason, and nothing else.
type SemanticDifference struct {
	Name string
	Why  string
	// AfterMinimise rules are judged on the minimised query, where only the
	// constructs needed for the mismatch are left; the others on the
	// generated query, before any shrinking.
	AfterMinimise bool
	Applies       func(q *Query, sg, pg Outcome) bool
}

// SemanticDifferences returns the ONE list of documented differences. Keep
// every entry narrow: a rule that matches too much hides bugs.
func SemanticDifferences() []SemanticDifference {
	return []SemanticDifference{
		{
			Name: "not-yet-implemented",
			Why: "sqlgate reports 0A000 (feature_not_supported) for a construct it has not built yet " +
				"(e.g. NaN as numeric(p,s): a Fluss DECIMAL has none) while PostgreSQL " +
				"runs it; the generator only emits families whose probe succeeded, so these are gaps, " +
				"counted and printed, not wrong answers",
			Applies: func(q *Query, sg, pg Outcome) bool {
				return sg.Err != nil && sg.Err.Code == "0A000" && pg.Err == nil
			},
		},
		{
			Name: "signed-zero-representative",
			Why: "-0 and 0 are equal (PostgreSQL semantics, which sqlgate follows), so when a set " +
				"operation, DISTINCT or GROUP BY keeps one of several equal values, either sign is a " +
				"correct answer; only non-aggregate columns are excused (an aggregate's -0 is computed, " +
				"not chosen)",
			Applies: func(q *Query, sg, pg Outcome) bool {
				if sg.Err != nil || pg.Err != nil || (q.SetOp == "" && !q.Distinct && len(q.GroupBy) == 0) {
					return false
				}
				chosen := func(col int) bool { return col < len(q.Items) && !hasAgg(q.Items[col]) }
				same, _ := compareRows(sg, pg, q.CompletelyOrdered(), q.hasAnyAggregate(), false, chosen)
				if !same && q.CompletelyOrdered() {
					// Ties between -0 and 0 may also reorder rows.
					same, _ = compareRows(sg, pg, false, q.hasAnyAggregate(), false, chosen)
				}
				return same
			},
		},
		{
			Name: "intersect-representative",
			Why: "equal numerics may print with different scales (0.00 and 0.000); an INTERSECT " +
				"returns one of each group of equal rows, from the input the plan reads first, and " +
				"PostgreSQL puts the input with fewer estimated groups first (prepunion.c's " +
				"generate_nonunion_paths), a choice of its statistics; sqlgate returns the left " +
				"input's. Excused when the rows are equal by value",
			Applies: func(q *Query, sg, pg Outcome) bool {
				if sg.Err != nil || pg.Err != nil || !strings.HasPrefix(q.SetOp, "INTERSECT") {
					return false
				}
				same, _ := compareOutcomes(sg, pg, q.CompletelyOrdered(), q.hasAnyAggregate(), true)
				return same
			},
		},
		{
			Name: "avg-float-overflow",
			Why: "PostgreSQL's avg(float) keeps the sum of squares too (the state it shares with " +
				"variance) and fails with 22003 when that overflows, e.g. avg over 1.7e308; sqlgate " +
				"keeps only the sum and the count and returns the average",
			Applies: func(q *Query, sg, pg Outcome) bool {
				return sg.Err == nil && pg.Err != nil && pg.Err.Code == "22003" && q.anyExpr(func(e *Expr) bool {
					return e.Kind == KAgg && e.Op == "avg" && len(e.Args) == 1 && e.Args[0].Type.isFloat()
				})
			},
		},
		{
			Name: "evaluation-order-two-errors",
			Why: "a query that fails on two rows (or in two expressions) with different errors fails in " +
				"both systems, but which error is reported depends on the order rows and columns are " +
				"computed in: PostgreSQL computes a row at a time in its plan's row order, sqlgate a " +
				"column of a batch at a time in its own (SQL leaves both open, PostgreSQL docs §4.2.14). " +
				"Only a failure on both sides with different data exceptions is excused; a failure on " +
				"one side only is never (a guard — WHERE, a join, HAVING, CASE, COALESCE, AND/OR — " +
				"must decide as in PostgreSQL)",
			AfterMinimise: true,
			Applies: func(q *Query, sg, pg Outcome) bool {
				return runtimeError(sg) && runtimeError(pg) && hazards(q) >= 1
			},
		},
		{
			Name: "empty-join-input",
			Why: "when one input of a join is empty (t0), which input PostgreSQL reads first, and how " +
				"far, depends on its plan's costs (a hash join reads the first outer row before building, " +
				"then stops when the hash table is empty); sqlgate builds one side and skips the other " +
				"when the built side is empty. So an error computing the non-empty side (its pushed-down " +
				"conditions or keys) may be raised by one system only, the other answering no rows. " +
				"An IN subquery is such a join (PostgreSQL pulls it up into a semi join, merge or hash, " +
				"whose first input it chooses by cost). Judged on the minimised query: it joins t0, or " +
				"reads t0 or a subquery over t0 with an IN, and one side failed with a data exception " +
				"while the other answered no rows",
			AfterMinimise: true,
			Applies: func(q *Query, sg, pg Outcome) bool {
				if !readsEmptyInput(q) {
					return false
				}
				return runtimeError(sg) && pg.Err == nil && len(pg.Rows) == 0 ||
					runtimeError(pg) && sg.Err == nil && len(sg.Rows) == 0
			},
		},
		{
			Name: "limit-early-stop",
			Why: "under ORDER BY of a table's primary key and LIMIT, PostgreSQL reads the rows through " +
				"the key's index and stops at the limit, so it never computes the WHERE clause or the " +
				"select list of the rows past it; sqlgate reads and filters every row before its top-N " +
				"sort, so an error on a row past the limit fails only in sqlgate. Judged on the minimised " +
				"query: only sqlgate fails, with a data exception, and the query keeps its ORDER BY and " +
				"LIMIT",
			AfterMinimise: true,
			Applies: func(q *Query, sg, pg Outcome) bool {
				return runtimeError(sg) && pg.Err == nil && q.Limit >= 0 && len(q.OrderBy) > 0
			},
		},
		{
			Name: "exists-early-stop",
			Why: "PostgreSQL runs an EXISTS subquery a row at a time and stops at its first row, so " +
				"the rows after it are never filtered or computed; sqlgate filters the subquery's rows " +
				"a batch at a time, so an error on a later row fails only in sqlgate. Judged on the " +
				"minimised query: only sqlgate fails, with a data exception, and an EXISTS is left",
			AfterMinimise: true,
			Applies: func(q *Query, sg, pg Outcome) bool {
				return runtimeError(sg) && pg.Err == nil && q.anyExpr(func(e *Expr) bool { return e.Kind == KExists })
			},
		},
		{
			Name: "full-join-any-condition",
			Why: "PostgreSQL runs a FULL JOIN only on a merge- or hash-joinable condition (0A000 " +
				"otherwise); sqlgate runs it on any condition. Excused when PostgreSQL refuses a FULL " +
				"JOIN with 0A000 and sqlgate ran it (or failed computing it)",
			Applies: func(q *Query, sg, pg Outcome) bool {
				return pg.Err != nil && pg.Err.Code == "0A000" && q.Join != nil && q.Join.Kind == "FULL" &&
					(sg.Err == nil || runtimeError(sg))
			},
		},
	}
}

// readsEmptyInput reports whether the query joins the empty table t0, or
// has an IN subquery whose outer or inner side is t0.
func readsEmptyInput(q *Query) bool {
	isT0 := func(fs []FromItem) bool { return len(fs) > 0 && fs[0].Table == "t0" }
	if q.Join != nil && (q.Join.Right.Table == "t0" || isT0(q.From)) {
		return true
	}
	return q.anyExpr(func(e *Expr) bool {
		return e.Kind == KInSub && (isT0(q.From) || isT0(e.Sub.From))
	})
}

// runtimeError reports a failure that depends on the data evaluated: a data
// exception (class 22), or 0A000 for a value a type cannot hold (NaN as
// integer in PostgreSQL, NaN as numeric in sqlgate).
func runtimeError(o Outcome) bool {
	return o.Err != nil && (strings.HasPrefix(o.Err.Code, "22") || o.Err.Code == "0A000")
}

// hazards counts the nodes that can raise a data exception: arithmetic,
// negation and casts.
func hazards(q *Query) int {
	n := 0
	q.walkExprs(func(e *Expr) {
		switch e.Kind {
		case KArith, KNeg, KCast, KFunc:
			n++
		}
	})
	return n
}

// KnownBug is a sqlgate bug this tester found, tracked here until it is
// fixed (this package must not fix sqlgate). Repro is the minimal query that
// shows it (it may read the fixture tables); Matches recognises minimised
// generated queries that show it. TestDifferential fails when Repro stops
// mismatching, so that a fixed bug leaves the list.
type KnownBug struct {
	Name  string
	Repro string
	// Ordered compares the reproduction's rows in order.
	Ordered bool
	Matches func(q *Query, sg, pg Outcome) bool
}

// KnownBugs returns the open sqlgate bugs, each with its reproduction.
// None is open: the last ones (outer joins not reduced, date infinity,
// float output digits, sum of -0, min/max over varchar) were fixed.
func KnownBugs() []KnownBug {
	return []KnownBug{}
}

// onlyOrderDiffers reports whether both succeeded with the same rows in a
// different order.
func onlyOrderDiffers(sg, pg Outcome) bool {
	if sg.Err != nil || pg.Err != nil {
		return false
	}
	same, _ := Compare(sg, pg, false, false)
	return same
}

// explainedBy returns the semantic difference of the given stage that
// excuses the mismatch, or nil.
func explainedBy(q *Query, sg, pg Outcome, afterMinimise bool) *SemanticDifference {
	for _, d := range SemanticDifferences() {
		if d.AfterMinimise == afterMinimise && d.Applies(q, sg, pg) {
			return &d
		}
	}
	return nil
}

// knownBugFor returns the known bug a minimised mismatching query shows, or
// nil.
func knownBugFor(q *Query, sg, pg Outcome) *KnownBug {
	for _, kb := range KnownBugs() {
		if kb.Matches(q, sg, pg) {
			return &kb
		}
	}
	return nil
}
