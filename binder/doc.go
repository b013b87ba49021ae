// Package binder turns parsed statements (sql.Statement, a TiDB AST of the
// rewritten text) into bound statements: every name resolved against the
// catalog, every expression typed with PostgreSQL 15's rules, every mistake
// reported before any data is read (42P01, 42703, 42702, 42804, 42883, 23502,
// 0A000 ...), and the output schema and parameter types known without
// executing anything, since Describe needs them.
//
// One binder per clause, as DuckDB does: select.go binds the SELECT list,
// where.go the WHERE clause (a boolean target type), order.go ORDER BY (ordinals,
// output aliases, then input expressions), limit.go LIMIT/OFFSET, insert.go the
// INSERT source against the table's columns, ddl.go CREATE/DROP TABLE,
// arrays.go PostgreSQL's array syntax (the rewrite's __pg_array,
// __pg_subscript, __pg_slice, __pg_any/__pg_all, __pg_array_subquery
// markers; array comparison and ||), srf.go set-returning functions in
// FROM (the __pg_srf marker, bound to a TableFunc node) and in the SELECT
// list (a ProjectSet node under the projection), view.go CREATE VIEW and
// the expansion of views named in FROM (ViewCatalog). The
// bound tree (expr.go, plan.go) is separate from the parsed tree: the planner
// (lower/) sees column indexes and types, never names.
//
// It sees the catalog through the narrow Catalog interface and must not touch
// data, kernels or the wire.
package binder
