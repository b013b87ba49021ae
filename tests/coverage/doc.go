// Package coverage measures how much of PostgreSQL 15's built-in function
// and operator library sqlgate runs, and proves it by running it.
//
// The catalog side (catalog.go) reads pg_proc, pg_aggregate and pg_operator
// of a running PostgreSQL 15, keeps the categories that BI tools and
// analysts call (string, regex, math, date/time and interval, JSON/JSONB,
// arrays, aggregates including ordered-set and hypothetical-set ones, window
// functions, statistics, UUID, encoding, formatting, conditional, and the
// system information functions clients call) and drops PostgreSQL's
// internals (type I/O, index and planner support, aggregate support
// functions, operator implementation functions, cast functions, and
// functions over types outside those categories: geometry, networks, text
// search, ranges, XML, large objects, replication, statistics views).
//
// The probe side (probe.go) builds one call per signature with a sample
// value of each argument type (calls.go), runs it on sqlgate and on the
// same PostgreSQL, and decides: implemented (sqlgate answers, or fails with
// the SQLSTATE PostgreSQL fails with), refused (0A000, 42883 or 42704:
// sqlgate's own message says why), or wrong (any other failure). Nothing
// is taken from a hand-kept list, so the table cannot claim what sqlgate
// does not do.
//
// `go run ./tests/coverage/gen` writes the committed table
// (tests/coverage/functions.tsv and docs/functions.md);
// TestCoverageTableCurrent fails when the committed table no longer says
// what sqlgate does. TestFunctionsMatchPostgres (diff_test.go) walks the
// table's implemented signatures with generated arguments (NULLs,
// boundaries, empty values, Unicode, negative and huge numbers) and
// compares text output and SQLSTATE with PostgreSQL 15.
//
// It must not know sqlgate's engine: it talks to both systems over the
// wire (tests/difftest's Session).
package coverage
