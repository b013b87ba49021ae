// Package binder turns parsed statements (sql.Statement: a TiDB AST of the
// rewritten text, and for the statements that have moved, sqlgate's own
// tree made from it) into bound statements: every name resolved against the
// catalog, every expression typed with PostgreSQL 15's rules, every mistake
// reported before any data is read (42P01, 42703, 42702, 42804, 42883, 23502,
// 0A000 ...), and the output schema and parameter types known without
// executing anything, since Describe needs them.
//
// One binder per clause, as DuckDB does: select.go binds the SELECT list and
// the WHERE clause (a boolean target type), order.go ORDER BY (ordinals,
// output aliases, then input expressions) and LIMIT/OFFSET, insert.go the
// INSERT source against the table's columns, update.go UPDATE and DELETE
// (with FROM / USING), returning.go their RETURNING lists, ddl.go CREATE
// TABLE [AS] and DROP TABLE | VIEW, coldefs.go CREATE TABLE's DEFAULT,
// identity, SERIAL and CHECK, schemas.go relation names over the
// search_path, binlog.go a table's $binlog,
// arrays.go PostgreSQL's array syntax (the rewrite's pg__array,
// pg__subscript, pg__slice, pg__any/pg__all, pg__array_subquery
// markers; array comparison and ||), srf.go functions in FROM (the
// pg__srf marker, bound to a TableFunc node, or for a plain function a
// one-row Project) and set-returning functions in the SELECT list (a
// ProjectSet node under the projection), fields.go field selection from
// a ROW value (pg__field), bitwise.go the integer & | << >>, udf.go the
// server's Go UDFs (scalar calls and record-batch UDFs in FROM, found
// through the optional UDFCatalog and resolved with the built-ins' rules),
// filetables.go read_parquet / read_arrow / read_csv in FROM (a FileTable
// whose columns the optional FileCatalog reads from the file),
// batchudf.go batch UDFs in FROM over a relation argument (fn(TABLE t),
// fn((SELECT ...))) checked against their declared input schema,
// maps.go MAP lookup by key, rows.go ROW(...) record constructors (the
// rewrite's pg__row and TiDB's RowExpr) and assignment of ROW and MAP
// values, nestednotnull.go a null visible at bind time where a column's
// ROW field, ARRAY element or MAP value is NOT NULL (the store's 23502), mapvalues.go MAP[...] (pg__map) and cardinality/map_keys/
// map_values, wholerow.go a table alias used as a value (the whole row as
// a composite, row_to_json(t)), fulljoin.go FULL JOIN markers, values.go VALUES queries (a
// Values node, types resolved across rows) and the pg__colalias marker of
// a derived table's column alias list, view.go
// CREATE VIEW and the expansion of views named in FROM (ViewCatalog),
// recursive.go WITH RECURSIVE (PostgreSQL's checks of a recursive item's
// form, a RecursiveUnion whose recursive term reads a WorkTableScan) and
// groupingsets.go GROUP BY with ROLLUP, CUBE, GROUPING SETS, () and
// GROUPING(..) (one Aggregate per grouping set under UNION ALL),
// operators.go the operators resolved by operand type (@> <@ ? ?| ?&
// over jsonb and arrays, || of bytea and of jsonb), orderedset.go ordered-set and hypothetical-set aggregates WITHIN GROUP
// (array_agg in the sort order with a finishing function, or counts of
// the rows before the hypothetical row), lateral.go LATERAL items and functions in FROM that read the items
// before them (a Lateral join whose right side is a correlated plan),
// searchcycle.go its SEARCH and CYCLE clauses (record keys that sort and
// compare as PostgreSQL's records; never sent to a client), ctecorr.go a
// WITH query that reads the rows enclosing its level, insertselect.go
// INSERT ... SELECT's unknown outputs typed by their target columns,
// createlike.go CREATE TABLE (LIKE source), arrayfuncs.go the polymorphic
// array functions (array_append ... width_bucket over thresholds) whose
// array and element arguments unify as anycompatible, jsonbops.go jsonb -
// text|integer|text[] (jsonb_delete).
//
// The parsed tree is moving from TiDB's AST onto sqlgate's own (sql/tree,
// issue 32): exprtree.go binds expressions of sql/tree, switching on node
// types (column references, literals, parameters, the unary and binary
// operators, IS [NOT] NULL/TRUE, BETWEEN [SYMMETRIC], IN lists, CASE,
// LIKE/ILIKE, regular expressions, casts, and, in calls.go, function
// calls, PostgreSQL's operators TiDB lacks, aggregates with DISTINCT,
// ORDER BY and FILTER, aggregate.go registering them from tree nodes, and
// window calls, window.go binding their OVER clause from the tree's
// Window); CREATE TABLE, DROP TABLE | VIEW and CREATE VIEW bind from the
// statement's tree (Bind takes it from sql.Transformer.StatementTree and
// dispatches on the tree node, bindStatementTree; the other statements
// still go by TiDB's statement type; the query of CREATE VIEW and CREATE
// TABLE AS is still TiDB's, bound by view.go's bindQuery); INSERT, UPDATE
// and DELETE bind from their tree (sql.Transformer.DMLTree, which Bind's
// and EXPLAIN's bindInsert / bindUpdate / bindDelete call on TiDB's
// statement): values, SET, WHERE, ON CONFLICT and the column lists are the
// tree's, and dmledge.go is their one edge with the query binder, handing
// it the clauses that are still TiDB's (the target table, FROM / USING,
// WITH, RETURNING's select list; INSERT ... SELECT's query goes through
// view.go's bindQueryNode). insert.go reads a VALUES cell that is a plain
// literal of a scalar column straight into the column's type
// (literalCell), the 1000-row INSERT's commonest case (issue 33);
// exprbind.go's bindExpr takes TiDB's nodes at the statement-level files'
// edge, binds the leaves directly and the moved kinds through sql.ToTree,
// and binds the kinds not moved yet (ordered-set aggregates,
// set-returning functions in the SELECT list, GROUPING(..), subqueries,
// the array, map, row and field markers and the operators resolved by
// operand kind) from TiDB's nodes as before (bindUnmoved); a tree node of
// such a kind goes back to the TiDB node it was made from
// (bindUntransformed, calls.go's bridgedCall). Helpers that only position
// errors take sourceNode, which nodes of either tree satisfy. tests/imports
// lists the files that still import TiDB's AST; the list only shrinks.
//
// The bound tree (expr.go, plan.go) is separate from the parsed tree: the planner
// (lower/) sees column indexes and types, never names.
//
// It sees the catalog through the narrow Catalog interface and must not touch
// data, kernels or the wire.
package binder
