// Package relop holds the relational operators of the executor: hash
// aggregation, sort and top-N, hash / nested-loop / cross joins, distinct,
// set operations and window functions. Each implements exec.Operator over
// input column indexes and Arrow schemas; the planner (lower/) builds them.
//
// Every operator pulls its input batch by batch, checks ctx at least once per
// batch, and charges the bytes it holds to a shared *MemoryAccount. When the
// account's limit is reached, HashAggregate, Distinct, Sort and HashJoin spill
// to Arrow IPC files in their SpillDir (external merge sort, hash-partitioned
// aggregation, grace hash join with chunked build fallback) so that large
// inputs finish within the limit; without a SpillDir they fail with 53200.
//
// Semantics are PostgreSQL 15's: NULL keys group together but never join,
// floats compare with NaN equal to NaN and above every number and -0 = +0,
// text compares bytewise (C collation).
//
// It must not parse or bind SQL: it must not import binder/, lower/, sql/ or
// pgwire/.
package relop
