// Package pyudf is sqlgate's out-of-process UDF tier (seed 002's Connect
// UDF workers): functions written in Python by CREATE FUNCTION ... LANGUAGE
// python, run in a pool of worker processes that exchange Arrow IPC record
// batches with sqlgate over a unix socket pair.
//
// A Function is the declaration (arguments, RETURNS type or RETURNS TABLE
// columns, the body); Pool.Scalar and Pool.Batch turn it into a udf.Scalar
// or udf.Batch whose calls are round trips to a worker, so the binder,
// the blueprint and exec treat it as any UDF, with the same checks of
// every batch against the declaration (exec/udf.go, exec/batchudf.go).
//
// The worker (worker.py, embedded and written to a temporary file) wraps
// the body as the body of a Python function of batch (the
// pyarrow.RecordBatch of the arguments, or of the input relation) and of
// each argument column by name, with pa and pc (pyarrow.compute) in scope,
// and caches it by a hash of the code. Failure isolation, each case
// failing only its own statement:
//   - a Python exception: 38000, the traceback in DETAIL; the worker stays;
//   - a worker that dies (SIGKILL, a crash): 38000 naming the exit, and the
//     pool starts a new worker for the next call;
//   - a worker stuck past the statement's deadline or cancelled (a cancel
//     request, statement_timeout): the call's context kills it (SIGKILL)
//     and the statement fails with 57014; the pool replaces it;
//   - memory: each worker runs under RLIMIT_AS (Config.MemoryLimit, set by
//     the worker itself before importing pyarrow); going over it is a
//     MemoryError, reported as 38000 "out of memory".
//
// Workers run in their own process group and end when their socket closes
// (sqlgate ended); Close ends the idle ones.
package pyudf
