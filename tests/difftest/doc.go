// Package difftest is sqlgate's differential tester: a random query
// generator, deterministic by seed, whose every query runs on sqlgate and on
// a real PostgreSQL 15; the two answers are compared (as multisets unless
// the query orders its rows completely), each mismatch is shrunk to a small
// reproduction, and the run ends with a coverage summary (node kinds, types,
// functions and query shapes produced).
//
// Layout:
//   - schema.go: the fixture tables and rows, created identically on both.
//   - ast.go: the query AST the generator builds and the minimiser shrinks.
//   - gen.go: the generator; feature families beyond the core (aggregates,
//     joins, subqueries, set operations, scalar functions...) are switched on
//     only after a probe query succeeds on sqlgate, so the test grows as
//     sqlgate does.
//   - run.go: executing a query on one system (pgconn, text results) and
//     comparing two outcomes.
//   - semantics.go: the ONE list of documented semantic differences (rules
//     over the AST or the error pair, never over query text) and the list of
//     known sqlgate bugs, each with its reproduction.
//   - minimise.go: shrinking a mismatching query while the mismatch persists.
//   - coverage.go: counting what was generated.
//
// TestDifferential (difftest_test.go) runs SQLGATE_DIFF_QUERIES queries
// (default 2000) with seed SQLGATE_DIFF_SEED (default 1).
//
// This package must not change sqlgate: a mismatch that is a sqlgate bug is
// recorded in knownBugs with its reproduction, and the test fails when a
// known bug stops reproducing so that the list stays honest.
package difftest
