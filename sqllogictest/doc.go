// Package sqllogictest is a sqllogictest runner: it parses SQLite-format .test
// files and sqllogictest-rs .slt files, runs them against anything that
// speaks the PostgreSQL wire protocol (sqlgate, or a real PostgreSQL as the
// oracle) through pgx's simple protocol, renders the text results the way
// SQLite's reference runner does (T/I/R, NULL, (empty), @ for non-printable
// bytes, %.3f with 16 significant digits) and counts one record as one
// passed, failed or skipped test.
//
// It owns the file format (parse.go), rendering, sorting and hashing
// (render.go, result.go) and execution (runner.go). It must not know
// sqlgate's engine: the caller supplies a connection string per file through
// Options.Connect, and decides what a failure means for its exit status.
// With Options.Restart the caller also restarts a file's target after its
// records, and restartcheck.go compares the catalogs before and after.
// Failures are written to Options.Out as "file:line: message".
//
// Entry points: Run (the library; `sqlgate slt` prints Summary.String()),
// slttest.RunT (one go test subtest per file, in a package of its own so
// the binary does not link package testing), SameTarget (one shared target for
// every file, instead of a fresh one per file).
//
// Format notes (see shared/reference/engines.md §4):
//   - Result layout is detected per query: if every result line holds at
//     least as many space-separated fields as there are type letters (and
//     there is more than one letter) the block is rowwise (sqllogictest-rs),
//     else valuewise (SQLite). "control resultmode" overrides the guess.
//   - Expected results stored as plain values are compared as values even
//     when they exceed the hash threshold; the threshold matters when the
//     file stores "N values hashing to H" and for failure messages.
//   - For rowsort and valuesort both the actual and the expected results are
//     sorted before comparison, so hand-written expectations need not be
//     pre-sorted.
//   - Control records (hash-threshold, halt, control, include) are not
//     counted; statement and query records, and records the parser could not
//     understand, are. Records after a halt are not counted.
package sqllogictest
