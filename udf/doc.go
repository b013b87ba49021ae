// Package udf is sqlgate's opaque tier: Go functions an embedding program
// registers on a server before it starts, callable from SQL by name.
//
// Three kinds exist. A scalar UDF (Scalar) maps the argument columns of one
// batch, as Arrow arrays, to one Arrow array of the same length; SQL calls it
// like a built-in function (SELECT my_fn(col) FROM t). A record-batch UDF
// (Table) is a table function: called in FROM with arguments evaluated once
// (SELECT * FROM my_gen(3)), it emits Arrow record batches of its declared
// output schema. A batch UDF (Batch, seed 002's map_batches) maps a
// relation's record batches to record batches of another schema and any
// row count: called in FROM with the relation first (SELECT * FROM
// my_map(TABLE t) or my_map((SELECT a, b FROM t), 10)), it reads the input
// batch by batch (BatchInput, under its declared input schema, checked
// when the query is bound) and emits output batches, each checked against
// the declared output columns (names, types, nullability; 39000 naming the
// field). The registry's UDFs are listed in pg_proc (psql's \df).
//
// Both declare their argument types (and the return type or output schema)
// with sqlgate's SQL types (types.T); the binder resolves a call against the
// declarations with PostgreSQL's function-resolution rules (implicit casts,
// 42883 when nothing matches), and the Arrow arrays a UDF sees and returns
// have the Arrow types DESIGN.md's type table gives those SQL types
// (types.T.ArrowType).
//
// A UDF is never rewritten, folded or lowered to the kernel tier: in the
// blueprint it is its own node (EXPLAIN: kind=opaque_udf, lowerable=false,
// executor_tier=go_udf). Its output is checked against the declaration
// (type, length, column count) and a mismatch fails the statement naming the
// UDF; an error it returns becomes SQLSTATE 38000 (with, in DETAIL, the
// stack of where it was made when it was made by Errorf or WithStack), a
// panic 39000 with the stack in DETAIL, and the server and the session go
// on. Its context is the
// statement's: statement_timeout and cancel requests reach it there.
//
// A scalar UDF runs over whole batches before the expression around it: a
// CASE, AND or OR around a call does not keep rows from it, so a UDF must
// accept every row of its input (NULLs included) without failing. Calls
// are allowed in SELECT lists, WHERE, HAVING, ORDER BY, GROUP BY and
// aggregate arguments; elsewhere (join conditions, INSERT ... VALUES) they
// fail with 0A000. A UDF that starts goroutines must recover their panics
// itself: only the calling goroutine's are caught. Sessions run statements
// concurrently, so a UDF's function must be safe for concurrent calls.
//
// The package holds only declarations and the Registry; exec/ runs them,
// binder/ resolves them, server.Config carries them. It must not import the
// engine.
package udf
