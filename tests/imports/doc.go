// Package imports holds the test that keeps the package graph the shape the
// architecture asks for (issue 32): the binder works on sqlgate's own parsed
// tree and bound kernels, not on TiDB's AST, Arrow compute or the executor;
// the executor and the wire protocol do not know each other; the shipped
// binary depends on no test code; internal/ holds leaf packages that import
// nothing of sqlgate's (the server-starting test harness is tests/testbin).
//
// The edges that still break a rule are listed in the test as known
// violations, by importing file (binder/select.go -> TiDB's ast), so that
// the list shrinks file by file as the binder moves onto sql/tree. The list
// must be exact: a new violating edge fails the test, and so does a listed
// edge that no longer exists, so the list only shrinks as the refactor
// lands and stays true meanwhile.
package imports
