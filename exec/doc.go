// Package exec runs blueprints: trees of operators over arrow.RecordBatch
// streams (scan, lookup, values, table functions, filter, project, project
// set, lateral join, limit, insert; sorting, aggregation and joins are in
// exec/relop) and
// the lowerable expression tier evaluated with kernels over Arrow buffers.
//
// ParallelUnion (parallel.go) runs pipelines over the parts of a split scan
// on goroutines of their own, each with its own EvalContext (Fork), and
// returns their batches in part order.
//
// Operators pull: Next(ctx) returns the next batch or (nil, nil) at the end,
// and checks ctx between batches, so cancellation reaches every operator
// within one batch. Every expression node has a known Arrow type when the
// blueprint is built; kernels are typed Go loops over Arrow buffers (the
// "native" backend): integer arithmetic is checked (22003 on overflow, 22012
// on division by zero, for floating division too, as PostgreSQL raises it),
// floating comparison
// follows PostgreSQL (NaN equals NaN and sorts above every number, -0 = +0),
// NULLs propagate and a NULL filter mask entry drops the row. A kernel
// never raises for the value under a NULL slot (Arrow leaves it arbitrary;
// nullslots_test.go puts each type's worst values there for every checked
// family). CASE, COALESCE, AND and OR compute a branch only for the rows
// that reach it, as PostgreSQL does, so its error on other rows is not the
// statement's. Across rows, a batch evaluates each expression over every
// row first, where PostgreSQL finishes a row before the next: when a
// projection's or filter's batch fails, it finds the first failing row and
// returns the rows before it, that row's own error next (roworder.go), so
// the error is PostgreSQL's and a cursor fetches what PostgreSQL's does.
// A subquery expression (subquery.go) reads its plan no further than
// PostgreSQL's SubPlan does: EXISTS to its first row, a scalar subquery
// to its second, a correlated x op ANY | ALL per outer row to the row
// that decides it, and an uncorrelated one PostgreSQL does not hash
// across the outer rows up to the furthest row one needs
// (subplanscan.go, its Material node's reading).
// Expressions calling something volatile are not evaluated again as they
// are: such a batch journals its sequence calls (the session's, through
// package functions), and on failure takes them back and runs a row at a
// time; a consumer wanting only some rows (a cursor, a portal's row
// limit) tells a volatile projection or filter so (Demander), which then
// evaluates no further; an INSERT failing at row k takes back the
// nextval calls of the rows after it (roworder.go).
// The hottest
// bigint loops (fused x*c ± y, column ± column, compare with a scalar,
// filter compaction)
// have AVX2 assembly on amd64 (simd_amd64.s; the Go loops remain the
// fallback and the reference, and -tags purego selects them).
//
// udf.go runs the opaque tier, Go UDFs (package udf): their output is
// checked against the declaration, an error becomes 38000 and a panic 39000
// with its stack, and the UDF gets the statement's context. batchudf.go
// runs batch UDFs over an input relation, checking every emitted batch's
// names, types and nullability on the UDF's own stack.
//
// Kernels come in families (backend.go) that run on one of two backends:
// native (the Go loops above) or arrow (arrow-go compute), for the families
// arrow-go serves with identical results; the others always run natively,
// for a reason the execution report shows. EvalContext.Backend carries the
// statement's request (auto by default: the committed ledger.json, written
// by `make ledger`, picks per family), EvalContext.Families its per-family
// entries; a plan node named by a hint gets a context of its own
// (EvalContext.ForNode, BackendRequest). Every kernel resolves its family
// through the context, which records what ran in EvalContext.Kernels when
// set (EXPLAIN ANALYZE's kernels_ran, the check of the report's labels).
// PoolAllocator recycles the buffers kernels write, so a steady stream of
// batches allocates nothing new.
//
// A Filter (and a Project of plain columns over one) is a Selector: an
// aggregation above it may take each input batch with the rows kept
// (NextSelected) instead of a batch of their copies (W4's count, sum and
// avg over a WHERE read three columns of half the rows in place).
//
// Casts follow PostgreSQL's (cast.go); those to and from bit strings, with
// their typmod rules for explicit casts and assignments, are bitcast.go's,
// jsonb's to numbers and boolean jsonbcast.go's, "char"'s byte casts
// with int4 qcharcast.go's, and regconfig's (a configuration's name) to
// and from oid and the integers regconfigcast.go's.
//
// metrics.go counts EXPLAIN ANALYZE's batches, rows and own time per node;
// stalls are measured where batches wait on something other than the
// node's inputs: a read-ahead scan's queue, the exchange of ParallelUnion
// (its consumer waiting for the workers), and a relop operator's spill
// files (the disk).
//
// rowlocks.go makes the write operators (Insert, Update, Delete) lock the
// rows they write when their table is a RowLocker (the engine's view of a
// store this server alone writes), and holds LockRows, SELECT ... FOR
// UPDATE's operator; a row that changed after it was read is left for a
// second pass of the statement (Recheck) or re-read and re-evaluated, as
// PostgreSQL's EvalPlanQual does; a row a concurrent UPDATE moved to
// another key is followed there (RowLocker.Follow, Recheck.Moved), as
// EvalPlanQual follows a row's update chain. The locks themselves are
// package rowlock.
// merge.go holds MERGE's parts around those writes (MergeRows): the check
// that no target row is changed twice (21000), the rows its second pass
// re-checks (each deferred target's newest version with the source row it
// joined, or, gone or no longer joining, that source row as NOT MATCHED);
// its INSERT is Insert with RefuseExisting (an existing key is 23505).
// recheck.go builds a joined UPDATE's or DELETE's second-pass rows the
// same way (RecheckRows).
// viewcheck.go holds the WITH CHECK OPTION conditions of the views an
// INSERT or UPDATE writes through (ViewCheck): each row written must meet
// them (44000 otherwise, its base row in the DETAIL), checked after the
// row's own constraints, as PostgreSQL's ExecWithCheckOptions.
//
// It must not parse or bind SQL; lower/ builds its blueprints.
package exec
