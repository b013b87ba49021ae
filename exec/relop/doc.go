// Package relop holds the relational operators of the executor: hash
// aggregation, sort and top-N, hash / nested-loop / cross joins, distinct,
// set operations, window functions and the recursive union of WITH
// RECURSIVE (recursive.go: a working table that spills, UNION's set of
// rows seen, an iteration bound). Each implements exec.Operator over
// input column indexes and Arrow schemas; the planner (lower/) builds them.
// A semi or anti join without keys or condition reads its build side up to
// its first row only, as PostgreSQL's nested loop stops its inner scan at
// the first match (hashjoin.go's firstRowDecides).
//
// Every operator pulls its input batch by batch, checks ctx at least once per
// batch, and charges the bytes it holds to a shared *MemoryAccount. When the
// account's limit is reached, HashAggregate, Distinct, Sort and HashJoin spill
// to Arrow IPC files in their SpillDir (external merge sort, hash-partitioned
// aggregation, grace hash join with chunked build fallback) so that large
// inputs finish within the limit; without a SpillDir they fail with 53200.
// Window spills a partition that does not fit and computes the functions
// whose frames only move forward by passes over the file, aggregates over
// sliding frames from a buffer of the frame (windowspill.go); frames are
// ROWS, RANGE or GROUPS with PostgreSQL's EXCLUDE (window.go; GROUPS
// offsets and EXCLUDE only in memory, 53200 when such a partition spills).
// Every aggregate of HashAggregate's accumulators runs as a window
// function (IsWindowAggregate), with FILTER and its second argument
// (WindowAggArgs: in memory only, as is every aggregate beyond count, sum,
// avg, min and max).
// The time a
// spilling operator's batches wait on its files' I/O is its stall time
// (StallNs, exec.Staller: EXPLAIN ANALYZE's stall_time_ns).
//
// HashJoin reads its first probe batch before building, as PostgreSQL's
// hash join fetches its first outer tuple: over an empty probe side it
// builds nothing (but for a right or full join), so an error the build
// side would raise is not the statement's; over an empty hash table it
// reads no probe row (inner and semi joins).
//
// Semantics are PostgreSQL 15's: NULL keys group together but never join,
// floats compare with NaN equal to NaN and above every number and -0 = +0,
// text compares bytewise (C collation), bpchar without its trailing
// blanks and jsonb in jsonb's btree order: a key the planner marks with
// its form (exec.SortKey.Form, the operators' Forms lists) is encoded by
// it, so 'a' and 'a  ' are one group, one DISTINCT row, one partition and
// peers, as bpchareq and bpcharcmp make them, and jsonb '1' and '1.0' are
// one (types.AppendJSONBKey); the rows keep their values.
//
// Keys are byte-encoded (keys.go) for grouping, joins and sorting, except a
// single fixed-width key (integers, dates, times, timestamps, floats via an
// order-preserving uint64): it groups and joins through an open-addressing
// int64 table (inttable.go; grouping indexes small non-negative keys in a
// dense array that grows while the keys are dense), sorts by a radix sort
// of (key, row) pairs and feeds top-N a typed heap, with the same results
// as the encoded path (grouping reads an integer key column at its own
// width, without an int64 copy). A single text or bytea group key groups by
// its value's bytes; a value of at most 7 bytes as one word (its bytes and
// length) in an integer table. The group table counts each group's rows as it assigns
// them, once for all the aggregates without FILTER or DISTINCT (count(*), and
// count(x), sum, avg and integer min/max less their NULLs: aggfuncs.go's
// groupCounts); integer
// sums skip their per-row overflow check for a batch whose bound (largest
// |value| times rows) cannot take a sum out of int64, and check row by row
// otherwise, so 22003 and numeric's exact sums are as PostgreSQL's;
// sum(double precision) adds a batch of finite values unchecked and tests
// its sums for an overflow after it, in the same order, so bit for bit.
// bit_and, bit_or and bit_xor fold integers (bitagg.go) and bit strings
// (bitstringagg.go). An aggregate's ORDER BY sorts as PostgreSQL's
// tuplesort quicksort does, ties included (pgqsort.go). A DISTINCT
// aggregate over values whose equal ones print alike keeps the first it
// meets; over the others (floats, numerics, intervals, jsonb, bpchar) it
// holds its groups' rows and, when they finish, sorts them as PostgreSQL
// does, keeps the first of each run of equal values (PostgreSQL's
// representative) and feeds them in sorted order, so float sums round
// as PostgreSQL's do (sortdistinct.go). Which of several failing
// aggregates' errors is the statement's follows PostgreSQL: a row's
// transition errors the first row's, that row's first aggregate's
// (consumeBatch, rowError); with an ordered aggregate, group by group in
// the GroupAggregate's sort order, its aggregates in order, before any
// result is built (groupfinish.go).
// One integer key whose groups are in the dense array, with count and one
// integer sum (or avg), is aggregated in one pass a row (fusedsum.go: key,
// group, count and sum together) while the batch's bound allows. Without
// GROUP BY, over a filter (exec.Selector), the aggregates add the rows of
// the filter's selection in the input batches instead of a filtered copy.
// A join build of such a key whose values span a small
// range (under 4 values a row, as a primary key's ids do) is a dense array
// indexed by key (jointable.go); otherwise a
// large build of such a key is a radix-partitioned table of cache-sized
// partitions, probed in chunks scattered by partition; both sides' rows are
// put in partition order, so such a join emits its rows in that order
// (radixjoin.go). A join's output batch whose probe rows are consecutive,
// each matched once, slices the probe batch's columns instead of copying;
// a build text column of values of at most 7 bytes is gathered from a
// view of one word a row (gather.go: shortTextView).
//
// It must not parse or bind SQL: it must not import binder/, lower/, sql/ or
// pgwire/.
package relop
