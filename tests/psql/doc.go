// Package psql drives psql 15 (psql -X) against an in-process sqlgate and a
// throwaway PostgreSQL 15 holding the same tables, and compares what the
// describe commands (\dt, \d, \di, \dn, \l, \df, \dv, \dt+, \d TABLE, \d+
// TABLE) print, and the results of each catalog query psql sends for
// \d TABLE.
//
// It owns: those end-to-end comparisons. It must not: hold logic that the
// server needs (everything here is test code), or assume fixed ports.
//
// Cases that the binder cannot run yet are listed with the exact error
// sqlgate gives today ("blocked"), so that the list stays true: when the
// binder learns the construct, the case fails and asks to be turned into a
// comparison.
package psql
