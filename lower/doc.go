// Package lower turns a bound logical plan (binder.Node) into a blueprint:
// an immutable tree of physical nodes whose expressions are already the
// lowerable expression tier of exec/, built once per prepared statement and
// instantiated into running operators once per execution.
//
// Before any rule, plan_time_folding (pgfold.go) simplifies every
// expression as PostgreSQL's planner does (eval_const_expressions), which
// is observable through errors: a constant that fails fails the statement
// whatever rows there are, while a strict operator with a NULL constant, a
// CASE branch whose condition is constant false, COALESCE arguments after a
// constant and AND/OR operands after the deciding constant are never
// computed. A function call or an I/O cast is computed when PostgreSQL's
// pg_proc row for the chosen overload (pgcatalog.Volatility) is
// immutable (a call by a name of sqlgate's own, with no pg_proc row, as
// the PostgreSQL functions it stands for: synthcalls.go; any other cast
// as its pg_cast row's function), a strict call or a cast with a NULL
// constant argument is NULL whatever its volatility, and an IN list's items that read no column are computed
// together (binder.BinaryOp's Eager), as PostgreSQL's array of them is.
// A single-row VALUES list below the plan's root is first a projection
// over one empty row (valuesfold.go's pullUpValues, PostgreSQL's
// pull_up_simple_values), so that its cells are a derived table's
// outputs; a VALUES of several rows computes every cell, as a Values Scan.
// A reference to a constant output of a derived table PostgreSQL pulls up
// (pull_up_simple_subquery: no aggregation, window, DISTINCT, ORDER BY,
// LIMIT, FOR UPDATE, set operation, set-returning or volatile output) is
// folded as that constant (pullupconst.go), so SELECT c0::boolean FROM
// (SELECT 'AB' FROM t WHERE false) s(c0) fails, and a CASE the constant
// decides drops its other branches unread; not above an outer join that
// NULL-extends the derived table, nor under grouping sets (PostgreSQL's
// PlaceHolderVars), and into a correlated subquery through its Outer
// values.
// Before that fold, subquery_push_qual (pushsubquery.go) moves each
// restriction clause of a derived table PostgreSQL does not pull up
// (DISTINCT, GROUP BY or aggregates, a window, ORDER BY, UNION or
// INTERSECT, a volatile output; the branches of a flattened UNION ALL)
// into its WHERE or HAVING, as set_subquery_pathlist does when it is
// safe (subquery_is_pushdown_safe, qual_is_pushdown_safe: not through
// LIMIT, EXCEPT or grouping sets, not on a window's output outside its
// PARTITION BY, a DISTINCT ON non-key, a volatile or set-returning
// output), folded first at the clause's own level: so SELECT * FROM
// (SELECT DISTINCT 'AB' FROM t) s(c) WHERE c::boolean fails while
// planning, and filter_pushdown does not move a clause it left through
// a derived table's constants, where it would become a one-time filter.
// A function in FROM (LATERAL too) has its arguments folded.
// A derived table's output (or aggregate) that fails to fold is left
// unfolded (deferOutputs), as PostgreSQL pulls the derived table up or
// removes its unread outputs before it folds: the rules below may drop
// it unread, and the plan they keep is folded again, raising the error
// of one they kept (a set operation's branch outputs raise at once).
// It computes in the session of the planning (Options.Ctx,
// PlanIn): a float's text folds under its extra_float_digits, and the
// engine plans a prepared statement again when such a setting changes.
// Filter conditions are lowered with their conjuncts in
// PostgreSQL's order (one-time conjuncts that read no column first and
// once, then by PostgreSQL's per-row cost), each computed only for the
// rows the ones before it kept.
//
// Optimisation happens here as small named rules applied in order (rules.go),
// each checked to keep the plan's output schema. The first rules choose the
// access path: a WHERE clause that fixes the full primary key becomes a point
// lookup instead of a scan, one that fixes a bucket key narrower than the
// primary key a prefix lookup, a changelog filter bounding _log_offset or
// _commit_timestamp from below a scan that skips the log batches before the
// bound (accesspath.go), and a scan decodes only the columns the plan
// reads. Before them, subquery decorrelation (decorrelate.go) turns WHERE
// conjuncts EXISTS / IN / NOT IN into semi and anti joins (x IN (S) whose
// S outputs a constant c into x = c over every outer row, under a semi
// join without a key, as PostgreSQL's pull-up makes it; an x that read
// columns until folding made it a constant, binder.Subquery's FoldedX,
// too, as PostgreSQL pulls sublinks up before it folds) and correlated
// scalar aggregates into a left join with a grouped aggregate (not when
// its outer key is a derived table's expression that can fail; an
// uncorrelated x <> ALL stays a subquery unless PostgreSQL would hash it,
// NOT IN of hashable types: subplanhash.go, which also marks the
// quantified subqueries exec reads all of at once, exec.SubqueryExpr's
// Hashed); the rest
// keeps the per-outer-row apply. (x1, ..., xn) IN (SELECT c1, ..., cn
// ...) of constants is x1 = c1 AND ... the same way, and a constant NULL
// through strict operators a NULL filter that reads nothing. A [NOT]
// EXISTS correlated without an equality stays the apply, rewritten as
// PostgreSQL's nested loop semi (anti) join computes it (nestLoopExists):
// the subquery's own conditions on every inner row read, the join filter
// after them as its select list under ANY (ALL), which stops at the row
// that decides; an anti join's condition on the outer row alone among
// that filter. A sublink that only plan-time folding's
// NOT pushing made a conjunct (binder.Subquery's SubPlan) stays a
// subquery, as PostgreSQL pulls sublinks up before it folds; a WHERE
// conjunct holding a subquery goes below a join to the one input it reads
// (filter_into_join), where PostgreSQL's SubPlan runs, at that scan. An
// aggregation without GROUP BY whose
// aggregates are all min or max of constants (an uncorrelated subquery
// among them; of arrays too) over one table reads only the first row its quals pass
// (planagg.go, PostgreSQL's planagg.c LIMIT 1 rewrite, which needs no
// index for a constant), computing every argument as its initplans do,
// one per aggregate, even when the scan found no row. Other rules simplify
// constant conditions (a join with an empty input it needs is empty and
// reads neither input, as PostgreSQL's dummy relations),
// reduce outer joins whose WHERE, or the condition of the join above them,
// rejects the NULL-extended side to inner ones (outerjoin.go, PostgreSQL's
// reduce_outer_joins), push predicates (with the column = constant
// equalities an inner join's column equalities imply, equivconst.go, as
// PostgreSQL's equivalence classes: into a grouped derived table below
// its aggregation) and
// LIMITs down, order inner joins greedily over their
// equality graph by estimated rows (joinorder.go; table sizes and, through
// DistinctStats, per-column distinct counts come from Stats, estimate.go),
// build outer hash joins on their smaller input (buildside.go),
// pre-aggregate a join input below the join when the other input is unique
// on the join key (aggpush.go), narrow an aggregation's input to the
// columns it reads and drop a derived table's aggregates nothing reads
// (aggprune.go, as PostgreSQL's remove_unused_subquery_outputs; one left
// with none over one table, binder.Aggregate's OneRelation, is one row
// read from nothing, planagg.c's Result, and so is an aggregation with no
// aggregate and no grouping key, degenerate_grouping: planner.c's
// is_degenerate_grouping), remove a LEFT JOIN that reads nothing of a
// right side of at most one row (prune.go, join_is_removable), and drop
// a window function nothing reads (its PARTITION BY and ORDER BY keys
// stay when they may fail, windowKeysOnly: PostgreSQL keeps the targets
// a window clause sorts by), and sorts and projections that do
// nothing (rewrite.go); a derived table's output that nothing reads
// (through its LIMIT, ORDER BY, WHERE, windows and the branches of a
// UNION ALL that PostgreSQL flattens, is_simple_union_all: not
// binder.SetOp's Kept; a flattened branch may give rows of no columns,
// also under count(*) and below a merged projection), and in a
// subquery's plan: narrowThrough; under a join, a LATERAL join's two
// inputs (its right side when it is a derived table's projection) and a
// window's input, through the filters and projections over
// them: pruneJoinInputs) is not computed unless it calls a
// volatile function (mustCompute, the one test of every rule that drops
// an expression). A derived table PostgreSQL pulls up into the join above
// it (no aggregation, DISTINCT, ORDER BY, LIMIT or set operation, no
// volatile output) has the outputs its join keys do not read computed over
// the join's output rows, after the join and the WHERE (lateproject.go's
// late_projection; from a NULL-extended side only the strict ones, a
// function call as strict as pg_proc's proisstrict says; not in a query
// with grouping sets, whose pulled-up expressions PostgreSQL computes at
// their scan as PlaceHolderVars: binder.Aggregate's GroupingSet), so
// that a row the join drops raises nothing; the left input of a LATERAL
// join is pulled up so too, and an expression of a pulled-up derived
// table that a correlated subquery or a LATERAL item reads is computed
// inside it, where it reads it (inlineOuter, PostgreSQL's
// pullup_replace_vars into the SubPlan). An ON condition's conjuncts over
// one input go below the join before WHERE's (on_condition_pushdown), in
// PostgreSQL's order of equal-cost quals. An aggregation over filters, projections and
// joins of a large table runs, outside transactions, as partial
// aggregations over the parts of a split scan on GOMAXPROCS workers and a
// final one (parallelagg.go), decided when the plan is built; a join's
// other side is read once and replayed to every part, and only a side the
// join distributes over is split. A filter
// over a scan hands the scan its bounds on integer columns (chunkranges.go),
// by which a store skips stored chunks; a sort under a LIMIT is a top-N,
// of the execution's LIMIT + OFFSET when they are parameters (limitNode
// builds it), and a top-N of one integer, date or timestamp key over a
// scan (through projections, or a filter of ranges alone) hands the scan a
// fluss.TopHint by which a store reads only the rows it keeps (topscan.go);
// the embedded store's key order is not SQL order, so ORDER BY <primary
// key> has no key-order scan; count(*), count(col) and min/max
// of integer columns over a whole table are answered from a store's
// statistics when it has them exactly (statsagg.go). Explain renders the blueprint without running anything,
// with each node's estimated rows and labels computed from the kernels its
// operator binds (backend.go): lowerable, executor_tier (arrow_batch_kernel
// with kernels, go_operator without, the UDF tier for opaque nodes), and
// the requested and selected backend per kernel family, as the
// statement's backend request resolves it for that node (a hint may name
// a node kind or a family: Build gives such a node's operator its own
// evaluation context). EXPLAIN ANALYZE adds what each node's kernels did
// run. The EXPLAIN of a write is a modifyNode over its rows' plan
// (modify.go).
//
// A hash join hashes on the equalities PostgreSQL can hash (pgHashable:
// not its cross-type date/timestamp ones) and computes the others with
// its residual, for the pairs the keys matched; with no hashable one it
// hashes on them all. When the probe keys are computed (a projection
// under the probe side), relop.HashJoin reads the probe's first batch
// from under that projection before building, as PostgreSQL computes its
// outer keys only over a built hash table.
//
// A set operation whose branches' records differ in a field's type
// (binder.MixedRecords) checks its inputs' rows as PostgreSQL's sort and
// neighbour comparisons meet them (recordmix.go).
//
// A LATERAL join (lateral.go) lowers to a nested-loop apply that builds
// its right plan again for each left row, as a correlated subquery does;
// the rules rewrite its left input only, and join_input_pruning narrows
// its right side to the columns read.
//
// A recursive WITH query (recursive.go) lowers to a recursive union whose
// recursive term is instantiated again for each iteration over the working
// table; the rules rewrite its two terms as plans of their own.
//
// A WITH query evaluated once (cte.go) is a cte_scan: the first scan built
// in an execution builds its plan, every scan reads its one evaluation,
// and the rows are held on the Runtime (shared by the copies subqueries
// and LATERAL items build with) until the caller's Runtime.Close at the
// end of the execution.
//
// A projection over a point lookup (the prepared UPDATE or SELECT by key)
// builds both operators in one allocation, the first such pair of an
// execution in the caller's Runtime.Scratch (blueprint.go).
//
// Go UDFs (package udf) are the opaque tier (udf.go): each call is its own
// node (a batch UDF's over its input relation's node), never lowered,
// folded or rewritten, and the report shows it as kind=opaque_udf,
// lowerable=false, executor_tier=go_udf.
//
// A table function over a server-side file (binder.FileTable: read_parquet
// and the like) is a file_scan node (filetables.go) that opens the file
// when the executor first pulls.
//
// It must not run kernels or touch data: instantiating reads nothing until
// the executor pulls.
//
// Where PostgreSQL's answer shows the order its Sort left equal rows in,
// the plan sorts as PostgreSQL 15's quicksort does (relop.Sort's
// PostgresTies): a grouped aggregation whose aggregates show their
// input's order (showsInputOrder: ORDER BY ties, DISTINCT over values
// whose equal ones print differently; ordersGroups: an unordered
// string_agg or array_agg beside an aggregate with ORDER BY or DISTINCT)
// first sorts by its group keys, as PostgreSQL's Sort under
// GroupAggregate, in the direction and order the ORDER BY above gives
// the keys it names (grouporder.go); a SELECT DISTINCT under an
// ORDER BY over such values, as its Unique over Sort (uniqueSortKeys).
// Neither shows in EXPLAIN.
//
// The plans each rule makes are data: testdata/plans/*.plans hold queries
// with their expected EXPLAIN lines (TestPlanShapes, plans_test.go); after
// a deliberate plan change, `go test ./lower -run TestPlanShapes -rewrite`
// rewrites them, and the diff is what a reviewer reads.
package lower
