// Package functions is sqlgate's scalar function library: the overload
// catalog, PostgreSQL 15's function-resolution rules (Resolve) and type
// unification for CASE/COALESCE/UNION-like contexts (CommonType), and the
// kernels that evaluate each function over Arrow arrays, NULL-correct and
// with PostgreSQL's results and SQLSTATEs.
//
// It owns: the list of built-in scalar functions, their declared argument
// and result types, and their kernels; LIKE/ILIKE matching; the `~` regular
// expression helper.
//
// It must not: import exec, binder, lower or sql (exec calls into this
// package, so importing it back would be a cycle); parse SQL; cast
// arguments (the caller casts every argument to the types Resolve returns
// before calling a kernel); keep package-level mutable state.
//
// Session state the kernels need (the transaction and statement start
// times for now() and friends) arrives through the context (WithClock).
// The session time zone is UTC, as everywhere else in sqlgate.
package functions
