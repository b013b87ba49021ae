// Package binder turns parsed statements (sql.Statement: a TiDB AST of the
// rewritten text, and for the statements that have moved, sqlgate's own
// tree made from it) into bound statements: every name resolved against the
// catalog, every expression typed with PostgreSQL 15's rules, every mistake
// reported before any data is read (42P01, 42703, 42702, 42804, 42883, 23502,
// 0A000 ...), and the output schema and parameter types known without
// executing anything, since Describe needs them.
//
// One binder per clause, as DuckDB does: select.go binds the SELECT list and
// the WHERE clause (a boolean target type), clauseorder.go keeps the
// error a SELECT with several reports PostgreSQL's (the clauses it binds
// before a failed WHERE or GROUP BY, bound again), order.go ORDER BY
// (ordinals, output aliases, then input expressions; constants as
// PostgreSQL's findTargetlistEntrySQL92 reads them, for GROUP BY and
// DISTINCT ON too) and LIMIT/OFFSET, typeops.go which
// types have ordering and equality operators (sort, group, DISTINCT and set
// operation keys, GREATEST/LEAST, an aggregate's DISTINCT argument, PARTITION
// BY) and ORDER BY .. USING op, window.go window calls and their
// frames (ROWS, RANGE, GROUPS, EXCLUDE; an aggregate's FILTER and
// arguments typed as aggregate.go types them, the JSON aggregates over
// array_agg windows), insert.go the
// INSERT source against the table's columns, upsert.go ON CONFLICT's
// DO UPDATE ... WHERE and inference WHERE, update.go UPDATE and DELETE
// (with FROM / USING), merge.go MERGE (its join with each row's WHEN
// clause, and the DELETE, UPDATE and INSERT writes over those rows, the
// SET lists bound by update.go's bindSetList), returning.go their RETURNING lists, executeargs.go EXECUTE's arguments
// (each coerced to its parameter's type with assignment rules, as
// PostgreSQL's EvaluateParams), ddl.go CREATE
// TABLE [AS] and DROP TABLE | VIEW, coldefs.go CREATE TABLE's DEFAULT,
// identity, SERIAL and CHECK (addcolumn.go ALTER TABLE ... ADD COLUMN's
// DEFAULT and its volatility; altertype.go ALTER COLUMN ... TYPE's
// conversion, USING or the assignment cast, over the stored rows), fkeys.go FOREIGN KEY constraints (CREATE
// TABLE's and ALTER TABLE ... ADD's, resolved against the referenced
// primary key and named as PostgreSQL names them), unique.go UNIQUE
// constraints (CREATE TABLE's, ALTER TABLE ... ADD's, CREATE UNIQUE
// INDEX's: their columns, PostgreSQL's names, ON CONFLICT's arbiter),
// indexdef.go CREATE INDEX's elements and WHERE predicate, checked in
// PostgreSQL's transformIndexStmt / DefineIndex order, indexelem.go its
// elements' COLLATE, operator class and ordering and the access methods'
// capabilities, and PostgreSQL's names of unnamed indexes,
// reglit.go a reg* literal looked up as it is bound (its position),
// generated.go stored generated columns
// (GENERATED ALWAYS AS (expr) STORED: CREATE TABLE's checks, and the
// projection that computes them over every new row once it is built,
// UPDATE's over its SET values' own projection; ON CONFLICT DO UPDATE's
// merged rows are the executor's), schemas.go relation names over the
// search_path, tempfuncs.go calls of the session's temporary functions
// (pg_temp.f(..), the only way to reach them), binlog.go a table's $binlog,
// arrays.go PostgreSQL's array syntax (the rewrite's pg__array,
// pg__subscript, pg__slice, pg__any/pg__all, pg__array_subquery
// markers; array comparison and ||; quantpattern.go LIKE's and ~'s
// families over ANY/ALL, an array or a subquery's rows), arrayassign.go
// subscripted assignment targets (UPDATE / ON CONFLICT / MERGE SET
// col[..] = v, INSERT INTO t (col[..]) VALUES: one column's items merged
// into one array_assign call, over the old value or a NULL array; SET
// c.f = v on a column c is 0A000), srf.go functions in FROM (the
// tree's FuncTable, bound to a TableFunc node, or for a plain function a
// one-row Project) and set-returning functions in the SELECT list (a
// ProjectSet node under the projection per level of nesting; the
// placements PostgreSQL refuses), jsonpopulate.go json[b]_populate_record[set]
// (the first argument's row type, or a column definition list's for a
// record; in FROM one column per field), rowsfrom.go ROWS FROM (..) and unnest
// of several arrays (a RowsFrom node over one plan per function), fields.go field selection from
// a ROW value (the tree's FieldSelect, bindFieldSelectTree; exprbind.go's
// bindFieldSelectCall reads a pg__field call the transformer left a call
// as one), bitwise.go the integer & | << >> (bitstring.go those of bit
// strings, their type names and casts; netops.go those of inet, with its
// <<= >>= + -, and inet's order by network_cmp's key; smalltypes.go
// money's arithmetic, which meets no number but through cash.c's
// operators, the mac types' & | and the casts of both; ranges.go those of
// the range types, @> <@ << >> -|- &< &> + * -, and multirange.go names
// the multirange functions they bind to; geometric.go the geometric
// types' operators (every one, resolved by functions' GeometricOperator)
// and casts; textorder.go the types
// kept as text whose order or equality is not the text's (inet, pg_lsn,
// tsvector, tsquery, regconfig by OID, the ranges: comparisons, GREATEST/LEAST, = ANY,
// array comparisons by keys; bpchargroups.go groups bpchar, tsquery and
// the ranges by their equality in GROUP BY, DISTINCT, set operations and
// count(DISTINCT)), regconfigops.go regconfig's comparisons and common
// types as oid's (PostgreSQL's regconfig converts to oid implicitly and
// has no operators of its own), udf.go the
// server's Go UDFs (scalar calls and record-batch UDFs in FROM, found
// through the optional UDFCatalog and resolved with the built-ins' rules),
// operfuncs.go the functions implementing operators (int4pl(1, 2): bound
// as the operator, internal/pgoper), sqlfunc.go LANGUAGE sql functions (registered as scalar UDFs with their
// body: a call is bound as the body's final query with the parameters as
// its outer scope, inlined as its one expression where PostgreSQL's
// inline_function would, else a correlated first-row subquery; the
// parameters' defaults, calls in named notation, OUT parameters' record;
// CREATE FUNCTION's check of a body, CheckSQLFunction), sqlsetfunc.go
// the set-returning ones (RETURNS SETOF, RETURNS TABLE: the body's rows
// collected and given back by a set function, in FROM and select lists),
// variadic.go a call's VARIADIC argument (the rewrite's pg__variadic: a
// SQL function's VARIADIC parameter, a built-in's array elements, bound
// or read per row), a SQL function's composite result (a table's row
// type: sqlsetfunc.go's rowResult),
// collate.go COLLATE clauses and the collations PostgreSQL's
// parse_collate.c derives (a clause on a type without collations, an
// unknown collation, explicit collations that meet, a sort or group key
// of conflicting implicit ones: each PostgreSQL's error; every collation
// sqlgate has orders by bytes) and ALTER COLUMN ... TYPE's COLLATE,
// enumtypes.go the user-defined types a type name may name (the optional
// TypeCatalog), enumops.go enum values' order (comparisons, ORDER BY,
// min/max by declaration order) and enum_first/last/range, domains.go
// domains (a type name naming one is its base type; CREATE TABLE notes a
// domain column in the table's metadata, which also gives it the domain's
// default; a cast to a domain checks its constraints), composite.go
// composite types (a table's row type, which a whole-row reference of a
// table scan has, and CREATE TYPE ... AS (...)'s through the optional
// CompositeCatalog: casts to them, record_in literals, a column of one
// refused; a table's row type is published to the catalog's registry of
// user-defined types, reached through the optional TypesCatalog, which
// also binds the enum columns of the tables a CHECK or a default is
// bound over, tableScope),
// filetables.go read_parquet / read_arrow / read_csv in FROM (a FileTable
// whose columns the optional FileCatalog reads from the file),
// modifyingwith.go the names of a statement's data-modifying WITH queries
// (a FileTable over the RETURNING rows the engine keeps, through the
// optional ModifyingCatalog; 0A000 for one without RETURNING),
// batchudf.go batch UDFs in FROM over a relation argument (fn(TABLE t),
// fn((SELECT ...))) checked against their declared input schema,
// maps.go MAP lookup by key, rows.go ROW(...) record constructors (the
// tree's Row: ROW(a, b) or a bare (a, b)) and assignment of ROW and MAP
// values, recordmix.go records of dissimilar field types met at run time
// (GREATEST/LEAST, a set operation's MixedRecords, a ROW constructor
// against a subquery), nestednotnull.go a null visible at bind time where a column's
// ROW field, ARRAY element or MAP value is NOT NULL (the store's 23502), mapvalues.go MAP[...] (pg__map) and cardinality/map_keys/
// map_values, wholerow.go a table alias used as a value (the whole row as
// a composite, row_to_json(t); of an enclosing query's FROM item too; NULL
// where an outer join made the row up, told by the item's row marker
// column), values.go VALUES queries (the
// tree's Values, bound to a Values node, types resolved across rows), view.go
// CREATE VIEW and the expansion of views named in FROM (ViewCatalog;
// PartitionCatalog: the partitions systemcols.go's tableoid reads),
// viewwrite.go INSERT / UPDATE / DELETE through an automatically updatable
// view, rewritten onto its base table before they bind, viewcheck.go the
// WITH CHECK OPTION conditions that rewrite collects (Insert.ViewChecks,
// Update.ViewChecks, which exec evaluates on each row written; a
// partition's constraint for an UPDATE through it, View.Partition) and
// ViewUpdatability (a view's updatability from its definition),
// viewdef.go pg_get_viewdef's text of a simple view, printed from the
// view query's tree (sql.Transformer.SubqueryTree), setop.go UNION,
// INTERSECT and EXCEPT from the tree's SetOp (grouped as PostgreSQL's
// grammar groups them; a parenthesised operation keeps its ORDER BY and
// LIMIT, and its own WITH binds first; a statement's parenthesised single
// query with clauses after it is the tree's ParenQuery, which exprbind.go's
// bindParenQuery binds as the binder always has),
// cte.go WITH queries (the items of the tree's WITH lists, each
// transformed once with its statement, key the binder's WITH state:
// visibility, reference counts, which are evaluated once), recursive.go
// WITH RECURSIVE (PostgreSQL's checks of a recursive item's form, a walk
// of the tree over pt.Inspect; a RecursiveUnion whose terms bind from the
// tree's top UNION, the SEARCH / CYCLE columns added to the tree's
// recursive SELECT, and whose recursive term reads a WorkTableScan) and
// groupingsets.go GROUP BY with ROLLUP, CUBE, GROUPING SETS, () and
// GROUPING(..) (one Aggregate per grouping set under UNION ALL),
// funcdeps.go the columns a grouped primary key determines (PostgreSQL's
// functional dependency: each becomes one more group key),
// operators.go the operators resolved by operand type (@> <@ ? ?| ?&
// over jsonb and arrays, || of bytea and of jsonb; a failed lookup of an
// operator bound to a function named as the operator; prefix + of
// numeric types only, - of an untyped operand ambiguous), orderedset.go ordered-set and hypothetical-set aggregates WITHIN GROUP
// (array_agg in the sort order with a finishing function, or counts of
// the rows before the hypothetical row), lateral.go LATERAL items and functions in FROM that read the items
// before them (a Lateral join whose right side is a correlated plan; with USING or
// NATURAL the merged columns over it, as over a join),
// searchcycle.go its SEARCH and CYCLE clauses (record keys that sort and
// compare as PostgreSQL's records; never sent to a client), ctecorr.go a
// WITH query that reads the rows enclosing its level, insertselect.go
// INSERT ... SELECT's unknown outputs typed by their target columns,
// createlike.go CREATE TABLE (LIKE source), arrayfuncs.go the polymorphic
// array functions (array_append ... width_bucket over thresholds) whose
// array and element arguments unify as anycompatible, jsonbops.go jsonb -
// text|integer|text[] (jsonb_delete).
//
// An array of several dimensions (int[][], a nested list) is PostgreSQL's
// ONE array (functions/mdarray.go): the element functions, op ANY/ALL
// (array) and || type its element as the innermost type
// (functions.ArrayElementType) and call the kernels that read it so;
// ORDER BY sorts it by relop's key encoding of lists, which orders as
// array_cmp. x op ANY|ALL (SELECT ...) whose comparison is a function
// (arrays, jsonb) compares x with ARRAY(SELECT ...)'s values through that
// function (subquery.go quantifiedByFunction).
//
// The parsed tree is moving from TiDB's AST onto sqlgate's own (sql/tree,
// issue 32): exprtree.go binds expressions of sql/tree, switching on node
// types (column references, literals, parameters, the unary and binary
// operators, IS [NOT] NULL/TRUE, BETWEEN [SYMMETRIC], IN lists, CASE,
// LIKE/ILIKE, regular expressions, casts, and, in calls.go, function
// calls (funccast.go: a call of one argument named by a type is the cast
// PostgreSQL's func_get_detail makes of it, or, where the cast is by a
// function of another name or there is none, the type-named function its
// lookup finds; emptycall.go: calls without arguments, f() and f(*),
// refused by their kind as ParseFuncOrColumn does), PostgreSQL's
// operators TiDB lacks, aggregates with DISTINCT,
// ORDER BY and FILTER, aggregate.go registering them from tree nodes, and
// window calls, window.go binding their OVER clause from the tree's
// Window, windownamed.go folding the WINDOW clause's named windows into
// OVER w and OVER (w ..) by PostgreSQL's rules); CREATE TABLE, DROP TABLE | VIEW and CREATE VIEW bind from the
// statement's tree (Bind takes it from sql.Transformer.StatementTree and
// dispatches on the tree node, bindStatementTree; the query of CREATE
// VIEW and CREATE TABLE AS, and a view's, is transformed when bound, by
// view.go's bindQuery through exprbind.go's bindQueryNode); INSERT, UPDATE
// and DELETE bind from their tree (sql.Transformer.DMLToTree, through
// Bind's sql.Transformer.BindStatement, as EXPLAIN's): values, SET, WHERE, ON CONFLICT, the column lists, the
// target table, FROM / USING, WITH, RETURNING's list and INSERT ...
// SELECT's query are the tree's, and dmledge.go hands the queries' parts
// to the query binder (from.go's bindFromItem, select.go's bindTargets,
// bindQueryTree). insert.go reads a VALUES cell that is a plain
// literal of a scalar column straight into the column's type
// (literalCell), the 1000-row INSERT's commonest case (issue 33);
// the FROM
// clause binds from the tree (from.go: tables, views and WITH queries by
// name, derived tables, functions in FROM, joins of every kind with ON,
// USING, NATURAL, and FULL JOIN, which sql's transformer reads from the
// rewrite's markers; lateral.go LATERAL items), taken from
// the query's or the write's tree; a derived table's query binds from its
// tree (exprbind.go's bindDerivedQuery), a function in FROM from the
// tree's FuncTable (srf.go's bindFuncTable; ROWS FROM's functions are its
// Funcs, rowsfrom.go);
// lockrows.go binds the locking clause from the tree's Locking; order.go
// binds ORDER BY from the tree's OrderItems (ordinals, output names, NULLS
// FIRST | LAST) and LIMIT from tree expressions (bindLimitTree);
// the expressions' remaining kinds bind from the tree too: arrays.go
// ARRAY[..], subscripts and slices, ANY/ALL over an array and ARRAY(..),
// subquery.go scalar subqueries, EXISTS, IN and ANY/ALL over a query
// (agglevels.go an aggregate inside one that reads only an enclosing
// query's columns: that query's, PostgreSQL's agglevelsup, with 42803
// where that query's clause refuses aggregates),
// exprtree.go EXTRACT, position, TRIM, ^, MySQL's time units and
// VALUES(col), calls.go the rewrite's markers the transformer leaves as
// calls (bindMarkerCall), exprops.go the leaves (columns, parameters,
// literals), the unary and binary operators and the common type of one
// result's inputs (selectCommonType: CASE, COALESCE, VALUES, set
// operations), mapvalues.go MAP[..], srf.go functions in FROM
// (the tree's FuncTable, with udf.go, filetables.go and batchudf.go)
// and set-returning calls in the SELECT list, coldefs.go DEFAULT and CHECK
// expressions (their refusals found with tree.Walk), orderedset.go
// WITHIN GROUP aggregates (the hypothetical-set expansion built as tree
// nodes).
// A SELECT binds from the tree (select.go's bindSelectTree: the select
// list with * / t.* and (x).*, DISTINCT and DISTINCT ON, WHERE, GROUP BY
// with groupingsets.go's ROLLUP / CUBE / GROUPING SETS / () and
// GROUPING(..), HAVING, the WINDOW clause, the aggregate and window
// finders over tree.Walk, and the column labels, PostgreSQL's
// FigureColname read from the tree's nodes), as do VALUES (values.go) and
// ROW constructors (rows.go); binder.go's Bind transforms every statement
// once (sql.Transformer.BindStatement: a query with its subqueries,
// derived tables, WITH and window definitions, a write, EXPLAIN (the
// tree's Explain), DESCRIBE (Describe)) and binds
// that tree, switching on its node types (bindStatementTree, exprbind.go's
// bindStatement). exprbind.go is the binder's entry from the parser:
// bindQueryTree binds a query of the tree (a set operation, its WITH
// included, by setop.go; a ParenQuery by bindParenQuery), bindQueryNode a
// query held as the parser left it (a view's, CREATE TABLE AS's),
// transformed by sql.Transformer.BindQuery, bindSubqueryQuery a
// subquery's tree (or its query, transformed then, where only sql.ToTree
// made the node), transformError positions a transformer's refusal
// (sql.TransformError.At), parseExprText reads a stored expression
// (sql.ParseExprText). No binder file imports TiDB's AST
// (tests/imports); helpers that only position errors take sourceNode.
//
// The bound tree (expr.go, plan.go) is separate from the parsed tree: the planner
// (lower/) sees column indexes and types, never names.
//
// It sees the catalog through the narrow Catalog interface and must not touch
// data, kernels or the wire.
package binder
