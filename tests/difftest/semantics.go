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
			Name: "evaluation-order",
			Why: "SQL leaves the order of evaluation open (PostgreSQL docs §4.2.14): PostgreSQL folds " +
				"constant subexpressions at plan time (so an error fires even over an empty table, " +
				"under LIMIT 0 or in a CASE arm never taken), short-circuits AND/OR and drops " +
				"constant-false WHERE clauses; sqlgate evaluates column at a time, so when a query " +
				"holds an error that only some of these paths reach, or several errors, the two may " +
				"report different data exceptions or only one may fail. Judged on the minimised " +
				"query: the mismatch must survive only with a guard (AND/OR/BETWEEN/CASE/COALESCE/IN, " +
				"a WHERE, LIMIT 0, the empty table) or with two failing expressions, never alone",
			AfterMinimise: true,
			Applies: func(q *Query, sg, pg Outcome) bool {
				if !runtimeError(sg) && !runtimeError(pg) {
					return false
				}
				// The other side must have failed at run time too, or
				// succeeded: a syntax or internal error is never excused.
				for _, o := range []Outcome{sg, pg} {
					if o.Err != nil && !runtimeError(o) {
						return false
					}
				}
				if hasGuard(q) {
					return true
				}
				// Two expressions that can fail, on different rows: which
				// error is reported depends on the order rows and columns are
				// evaluated in. One failing expression must agree.
				return sg.Err != nil && pg.Err != nil && hazards(q) >= 2
			},
		},
	}
}

// runtimeError reports a failure that depends on the data evaluated: a data
// exception (class 22), or 0A000 for a value a type cannot hold (NaN as
// integer in PostgreSQL, NaN as numeric in sqlgate).
func runtimeError(o Outcome) bool {
	return o.Err != nil && (strings.HasPrefix(o.Err.Code, "22") || o.Err.Code == "0A000")
}

// hasGuard reports whether the query holds a construct that decides which
// expressions are evaluated for which rows, or more than one select item
// (two expressions that may each fail).
func hasGuard(q *Query) bool {
	if len(q.Items) > 1 || q.Where != nil || q.Having != nil || q.Limit >= 0 || q.Offset >= 0 || q.Join != nil || q.SetOp != "" {
		return true
	}
	for _, f := range q.From {
		if f.Table == "t0" {
			return true
		}
	}
	return q.anyExpr(func(e *Expr) bool {
		switch e.Kind {
		case KAnd, KOr, KBetween, KCase, KCoalesce, KIn, KInSub, KExists, KScalarSq:
			return true
		}
		// PostgreSQL folds a strict operator with a NULL constant operand to
		// NULL at plan time, without evaluating the other operand.
		for _, a := range e.Args {
			if a.Kind == KNull {
				return true
			}
		}
		return false
	})
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
func KnownBugs() []KnownBug {
	return []KnownBug{
		{
			// sqlgate: 2.6512143575277e+17; PostgreSQL: 2.6512143575276998e+17
			// (the nearest double to the exact decimal).
			Name:  "numeric to double precision is not correctly rounded",
			Repro: "SELECT ((123456789.123)::numeric * 2147483647)::double precision",
			Matches: func(q *Query, sg, pg Outcome) bool {
				return sg.Err == nil && pg.Err == nil && q.anyExpr(func(e *Expr) bool {
					return e.Kind == KCast && e.Type.isFloat() && e.Args[0].Type == Numeric
				})
			},
		},
		{
			// sqlgate: 0; PostgreSQL: -0 (the sum of a group holding only -0;
			// sqlgate seems to start the sum at +0).
			Name:    "sum over floats of a group holding only -0 returns 0",
			Repro:   "SELECT a.s, sum(a.d) FROM t1 a GROUP BY a.s ORDER BY 1",
			Ordered: true,
			Matches: func(q *Query, sg, pg Outcome) bool {
				if sg.Err != nil || pg.Err != nil {
					return false
				}
				same, _ := compareRows(sg, pg, false, true, false, allColumns)
				return same && q.anyExpr(func(e *Expr) bool { return e.Kind == KAgg && e.Op == "sum" && e.Type.isFloat() })
			},
		},
		{
			// sqlgate: varchar (1043); PostgreSQL: text (25) — min/max have
			// no varchar version, the argument is cast to text.
			Name:  "min/max over varchar yields varchar",
			Repro: "SELECT max(a.v) FROM t1 a",
			Matches: func(q *Query, sg, pg Outcome) bool {
				return sg.Err == nil && pg.Err == nil && !equalOIDs(sg.OIDs, pg.OIDs) && q.anyExpr(func(e *Expr) bool {
					return e.Kind == KAgg && (e.Op == "min" || e.Op == "max") && len(e.Args) == 1 && e.Args[0].Type == Varchar
				})
			},
		},
	}
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

func equalOIDs(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
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
