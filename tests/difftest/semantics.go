package difftest

import (
	"math/big"
	"regexp"
	"slices"
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
				"(e.g. NaN or ±Infinity as numeric: Arrow decimal128 has no such values) while PostgreSQL " +
				"runs it; the generator only emits families whose probe succeeded, so these are gaps, " +
				"counted and printed, not wrong answers",
			Applies: func(q *Query, sg, pg Outcome) bool {
				return sg.Err != nil && sg.Err.Code == "0A000" && pg.Err == nil
			},
		},
		{
			Name: "numeric-precision-38",
			Why: "sqlgate's numeric is Arrow decimal128, at most 38 digits; PostgreSQL's numeric has " +
				"up to 131072 digits before the point, so casting a huge float (1e308) to numeric, or " +
				"a numeric product or sum past 38 digits, overflows (22003) only in sqlgate",
			Applies: func(q *Query, sg, pg Outcome) bool {
				return sg.Err != nil && sg.Err.Code == "22003" && pg.Err == nil && q.anyExpr(func(e *Expr) bool {
					return (e.Kind == KCast || e.Kind == KArith || e.Kind == KAgg) && e.Type == Numeric
				})
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
			Name: "numeric-display-scale",
			Why: "a sqlgate numeric column has one scale (Arrow decimal128(p,s)), so COALESCE(n, 1) " +
				"prints 1.00 where PostgreSQL keeps each value's own scale and prints 1; the values are equal",
			Applies: func(q *Query, sg, pg Outcome) bool {
				if sg.Err != nil || pg.Err != nil {
					return false
				}
				same, _ := compareOutcomes(sg, pg, q.CompletelyOrdered(), q.hasAnyAggregate(), true)
				return same
			},
		},
		{
			// The same rule judged after minimising: shrinking a query whose
			// quotients differed in scale can leave only a display-scale
			// difference (a UNION of a numeric column and a constant).
			Name:          "numeric-display-scale-minimised",
			AfterMinimise: true,
			Why: "a sqlgate numeric column has one scale (Arrow decimal128(p,s)), so COALESCE(n, 1) " +
				"prints 1.00 where PostgreSQL keeps each value's own scale and prints 1; the values are equal",
			Applies: func(q *Query, sg, pg Outcome) bool {
				if sg.Err != nil || pg.Err != nil {
					return false
				}
				same, _ := compareOutcomes(sg, pg, q.CompletelyOrdered(), q.hasAnyAggregate(), true)
				return same
			},
		},
		{
			Name: "numeric-division-scale",
			Why: "PostgreSQL picks a quotient's scale per value from the operands' magnitudes (at " +
				"least 16 significant digits: 1/3 has 20 decimals, 4294967296/3 has 8); a sqlgate numeric " +
				"column has one scale, so a numeric division keeps 16 decimals (or the operands' larger " +
				"scale). The values agree once each column is rounded to the fewer decimals of the two. " +
				"Judged on the minimised query: further arithmetic on a quotient carries the difference " +
				"past any rounding. A quotient cast to text is compared the same way when every value " +
				"of that text column on both sides is a decimal number",
			AfterMinimise: true,
			Applies: func(q *Query, sg, pg Outcome) bool {
				if sg.Err != nil || pg.Err != nil || !q.anyExpr(func(e *Expr) bool {
					return e.Kind == KArith && e.Op == "/" && e.Type == Numeric
				}) {
					return false
				}
				a, b := roundNumericColumns(sg, pg)
				same, _ := compareOutcomes(a, b, q.CompletelyOrdered(), q.hasAnyAggregate(), true)
				return same
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
				"Judged on the minimised query: it joins t0, and one side failed with a data exception " +
				"while the other answered no rows",
			AfterMinimise: true,
			Applies: func(q *Query, sg, pg Outcome) bool {
				if q.Join == nil || (q.Join.Right.Table != "t0" && (len(q.From) == 0 || q.From[0].Table != "t0")) {
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
func KnownBugs() []KnownBug {
	return []KnownBug{
		{
			// sqlgate: 1.234, 1.234, 12.340...; PostgreSQL: 12.34, -0.001, 12.340.
			Name:    "CASE/COALESCE over numerics of different scales returns wrong values",
			Repro:   "SELECT CASE WHEN a.f THEN 12.34 ELSE a.n END FROM t2 a ORDER BY a.id",
			Ordered: true,
			Matches: func(q *Query, sg, pg Outcome) bool {
				return sg.Err == nil && pg.Err == nil && q.anyExpr(func(e *Expr) bool {
					return (e.Kind == KCase || e.Kind == KCoalesce || e.Kind == KNullif) && e.Type == Numeric
				})
			},
		},
		{
			// sqlgate: 0 and -2147483648; PostgreSQL: 0.1 and -2147480000
			// (float8 -> numeric keeps 15 significant digits, float4 6).
			Name:  "float to numeric casts lose the fraction or keep excess digits",
			Repro: "SELECT ((0.1)::double precision)::numeric, (('-2147483648'::integer)::real)::numeric",
			// A fraction lost this way can also turn into a division by zero.
			Matches: func(q *Query, sg, pg Outcome) bool {
				sgWrong := sg.Err == nil || sg.Err.Code == "22012"
				return sgWrong && pg.Err == nil && q.anyExpr(func(e *Expr) bool {
					return e.Kind == KCast && e.Type == Numeric && e.Args[0].Type.isFloat()
				})
			},
		},
		{
			// sqlgate: 9850989726180525031799596641844985.8560 (wrong sign and
			// digits); PostgreSQL: -92233720350101014007212785587685477.5808.
			// A product past decimal128's 38 digits wraps instead of failing
			// (other overflowing products do fail with 22003).
			Name:    "numeric multiplication past 38 digits wraps silently",
			Repro:   "SELECT ((4294967296 * (a.n * a.i)) * a.n) FROM t1 a WHERE a.id = 4",
			Ordered: true,
			Matches: func(q *Query, sg, pg Outcome) bool {
				return sg.Err == nil && pg.Err == nil && q.anyExpr(func(e *Expr) bool {
					return e.Kind == KArith && e.Op == "*" && e.Type == Numeric
				})
			},
		},
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
			// sqlgate: 715827880.3333333333333333; PostgreSQL:
			// 715827880.33333333 (numeric division picks its result scale
			// from the operands' weights).
			Name:  "avg over integers has a different result scale",
			Repro: "SELECT avg(a.i) FROM t1 a WHERE (a.b > a.id)",
			Matches: func(q *Query, sg, pg Outcome) bool {
				return sg.Err == nil && pg.Err == nil && q.anyExpr(func(e *Expr) bool { return e.Kind == KAgg && e.Op == "avg" })
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

// roundNumericColumns rounds every numeric cell of both outcomes to the
// fewest decimals any cell of its column shows in either (half away from
// zero, as numeric rounds).
// decimalText is a decimal number as numeric's text output prints one.
var decimalText = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)

func roundNumericColumns(sg, pg Outcome) (Outcome, Outcome) {
	if len(sg.OIDs) != len(pg.OIDs) {
		return sg, pg
	}
	// numeric columns, and text columns holding only decimal numbers on
	// both sides (a quotient cast to text)
	numeric := make([]bool, len(pg.OIDs))
	for j, oid := range pg.OIDs {
		numeric[j] = oid == oidNumeric
		if oid != oidText || sg.OIDs[j] != oidText {
			continue
		}
		all := true
		for _, o := range []Outcome{sg, pg} {
			for _, r := range o.Rows {
				if j < len(r) && !r[j].Null && !decimalText.MatchString(r[j].Text) {
					all = false
				}
			}
		}
		numeric[j] = all
	}
	scale := make([]int, len(pg.OIDs))
	for j := range scale {
		scale[j] = -1
	}
	for _, o := range []Outcome{sg, pg} {
		for _, r := range o.Rows {
			for j, c := range r {
				if j >= len(pg.OIDs) || !numeric[j] || c.Null {
					continue
				}
				d := 0
				if k := strings.IndexByte(c.Text, '.'); k >= 0 {
					d = len(c.Text) - k - 1
				}
				if scale[j] < 0 || d < scale[j] {
					scale[j] = d
				}
			}
		}
	}
	round := func(o Outcome) Outcome {
		out := o
		out.Rows = make([][]Cell, len(o.Rows))
		for i, r := range o.Rows {
			out.Rows[i] = slices.Clone(r)
			for j, c := range r {
				if j >= len(scale) || scale[j] < 0 || c.Null || !numeric[j] {
					continue
				}
				v, ok := new(big.Rat).SetString(c.Text)
				if !ok {
					continue
				}
				t := v.FloatString(scale[j])
				if strings.Trim(t, "-0.") == "" {
					t = strings.TrimPrefix(t, "-")
				}
				out.Rows[i][j].Text = t
			}
		}
		return out
	}
	return round(sg), round(pg)
}
