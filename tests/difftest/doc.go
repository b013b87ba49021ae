// Package difftest is sqlgate's differential tester: a random query
// generator, deterministic by seed, whose every query runs on sqlgate and on
// a real PostgreSQL 15; the two answers are compared (as multisets unless
// the query orders its rows completely), each mismatch is shrunk to a small
// reproduction, and the run ends with a coverage summary (node kinds, types,
// functions, query shapes and outcomes).
//
// Layout:
//   - schema.go: the fixture tables (every scalar type; NULLs, integer
//     bounds, NaN, ±Infinity, -0, float extremes, empty strings; t0 is
//     empty), created identically on both systems.
//   - ast.go: the query AST the generator builds and the minimiser shrinks.
//     Everything is rendered fully parenthesised.
//   - gen.go: the generator. The core (scalar expressions over every type,
//     WHERE, ORDER BY with NULLS FIRST/LAST, LIMIT/OFFSET only under a
//     complete order, primary-key lookups) is always on; each optional
//     family (aggregates, DISTINCT, joins, subqueries, set operations,
//     scalar functions...) is switched on only when its probe query
//     succeeds on sqlgate, so the test grows as sqlgate does.
//   - evalorder.go: queries whose outcome depends on what PostgreSQL
//     computes, observable through errors: an overflow or division by zero
//     in the select list (or ORDER BY) over rows that WHERE, a join's ON
//     condition or HAVING removes, or that a CASE, COALESCE, AND or OR
//     branch does not reach; arithmetic with a NULL operand of every
//     integer width. Built over t1's boundary rows so that the guard
//     decides between rows and an error.
//   - run.go: executing a query on one system (pgconn, simple protocol,
//     text results) and comparing two outcomes: same SQLSTATE when both
//     fail, else same column types and rows.
//   - minimise.go: shrinking a mismatching query (hoisting a subexpression
//     into a query of its own, dropping clauses, items, order keys and
//     conjuncts, lowering LIMIT/OFFSET, replacing nodes by an operand or a
//     simple literal) while the same class of mismatch persists.
//   - semantics.go: the ONE list of documented semantic differences (rules
//     over the AST and the outcome pair, never over query text) and the list
//     of known sqlgate bugs, each with its reproduction.
//   - driver.go: the run: probe, generate, compare, classify, report.
//   - coverage.go: counting what was generated.
//
// A mismatch is judged in this order: documented differences that apply to
// the generated query (not-yet-implemented 0A000, a FULL JOIN condition PostgreSQL refuses) → minimise →
// differences judged on the minimised query (two different errors on both
// sides, an error past an ordered LIMIT, an empty join input) → known bugs
// → unexplained (the test fails). A guard that sqlgate honours differently
// from PostgreSQL (an error on one side only) is never excused.
//
// numgen.go and TestNumericDifferential are the numeric generator: random
// NUMERIC expressions (every operator and numeric function, mixed scales and
// typmods, 1e-100 .. 1e100, NaN and infinities, division chains, casts,
// aggregates over a table of DECIMAL columns) whose text output and
// SQLSTATEs must equal PostgreSQL's exactly: numeric has no documented
// difference. SQLGATE_DIFF_NUMERIC_QUERIES sets its count (default 300, as
// make test runs it; .ci/run runs 20,000).
//
// groupgen.go and lateralgen.go are generators of one class each, over
// GroupSchema's table tg: random GROUP BY clauses of nested ROLLUP, CUBE,
// GROUPING SETS and () with GROUPING(..) (TestGroupingSetsDifferential,
// SQLGATE_DIFF_GROUP_QUERIES, default 150), and LATERAL subqueries and
// functions in FROM under every join kind (TestLateralDifferential,
// SQLGATE_DIFF_LATERAL_QUERIES, default 150); rows are compared as
// multisets and there is no allowance.
//
// commontype_test.go (TestCommonTypeDifferential,
// SQLGATE_DIFF_COMMONTYPE_QUERIES, default 300) draws three inputs of
// every type category into CASE, COALESCE, GREATEST, LEAST, VALUES and
// UNION: result types and values, or SQLSTATE, message and position
// (select_common_type's 42804 and coerce_to_common_type's 42846), UNION's
// class left under a ratchet. aggdecor_test.go
// (TestAggregateDecorationsDifferential, SQLGATE_DIFF_AGGDECOR_ROUNDS,
// default 1) calls every plain aggregate signature of PostgreSQL's
// pg_proc with DISTINCT, ORDER BY and FILTER, grouped or not.
//
// callforms_test.go (TestCallFormsDifferential, SQLGATE_DIFF_CALL_FORMS,
// default 600) draws function calls in every form PostgreSQL's grammar
// has (unqualified or schema-qualified, no arguments, *, DISTINCT, ORDER
// BY inside the call, VARIADIC, OVER, FILTER, WITHIN GROUP; ROW(..),
// row() and COLLATE arguments) over aggregates, ordered-set, window and
// plain functions, and operator runs after numbers and strings: answers,
// or SQLSTATE, message and position, under a per-mille ratchet that names
// the classes left.
//
// usercalls_test.go (TestUserCallDeparseDifferential,
// SQLGATE_DIFF_USERCALL_FUNCS, default 12) makes random LANGUAGE sql
// functions (up to five parameters, names, DEFAULTs, VARIADIC,
// overloads) and views calling them positionally, in named notation, with
// defaults left out and VARIADIC either way: pg_get_viewdef's text, plain
// and pretty, must be PostgreSQL's.
//
// regconfig_test.go (TestRegConfigAsOIDDifferential,
// SQLGATE_DIFF_REGCONFIG_ROUNDS, default 40) compares regconfig with oid,
// the integers, unknown literals, text and other reg* types (operators,
// IN, ANY/ALL, BETWEEN, CASE, COALESCE, GREATEST/LEAST, UNION, ORDER BY):
// answers, types, or SQLSTATE and message.
//
// regexgen_test.go (TestRegexDifferential, SQLGATE_DIFF_REGEX_QUERIES,
// default 400) draws regular expressions from a grammar of ARE, ERE and
// BRE syntax (back-references, lookaround, word constraints, greedy and
// non-greedy quantifiers mixed) with faults of every REG_* class, flags
// and subjects (up to 60 characters, with runs), through ~, the regexp_*
// functions, substring and SIMILAR's substring: answers, or SQLSTATE and
// message; nothing may be refused. TestRegexBackrefDifferential
// (SQLGATE_DIFF_REGEX_BACKREF_QUERIES, default 40) runs patterns of groups
// and back-references over subjects of 50 to 500 characters: answers and
// groups, no "too complex" where PostgreSQL answers.
//
// iocastfold_test.go (TestIOCastFoldDifferential) casts constants of
// name, char, "char", uuid, inet, json, date and other types through
// their text to each of fifteen targets, over no row, one and none at
// all: SQLSTATEs, as PostgreSQL folds a CoerceViaIO between immutable
// output and input functions while planning. qualcostcasts_test.go
// (TestQualCostCastsDifferential, SQLGATE_DIFF_QUALCAST_QUERIES, default
// 150, row and columnar paths) draws WHERE clauses over mixed integer
// types where a condition that divides by zero is reached or not by
// order_qual_clauses' costs: a widening cast is a call except as the
// operand of a cross-type comparison or + - * / (not %).
//
// srfgen.go generates set-returning function calls of every kind in FROM
// (alone, ROWS FROM, WITH ORDINALITY, column alias lists of every length),
// LATERAL after a VALUES list, in the SELECT list (zipped and nested) and
// where PostgreSQL refuses them (TestSetReturningDifferential,
// SQLGATE_DIFF_SRF_QUERIES, default 300): rows in order where PostgreSQL
// defines it, column types and names, SQLSTATE and message, no allowance.
//
// queryshapes_test.go (TestQueryShapesDifferential,
// SQLGATE_DIFF_SHAPES_QUERIES, default 400, on the row and the columnar
// path) draws query shapes over small tables with NULLs and an empty one:
// outer joins with ON conditions of constants, one side's columns and
// subqueries, three-table joins nested in parentheses (FULL JOINs that
// outer-join reduction makes acceptable), USING and NATURAL, IN / NOT IN /
// ANY / ALL / EXISTS with NULLs and empty subqueries in WHERE, the select
// list, CASE and ON, correlated subqueries, DISTINCT ON under its ORDER BY
// rule, GROUP BY and ORDER BY positions, set operations, recursive CTEs,
// VALUES aliases and arrays of records; rows, SQLSTATEs, messages and
// positions, no allowance.
//
// smith_test.go (TestSmithDifferential, SQLGATE_DIFF_SMITH_QUERIES,
// default 1000) is a small sqlsmith: random tables of every common scalar
// type (NULLs, duplicate rows, bounds, collation-sensitive strings, one
// empty table) and random queries over them of every clause (joins of
// every kind with USING, NATURAL and LATERAL, subqueries, grouping sets,
// DISTINCT ON, window frames, set operations, casts, aggregates with
// FILTER, ORDER BY and DISTINCT); rows, column names, type OIDs and
// SQLSTATEs. Counted apart, not failed: a float aggregate's overflow that
// depends on the order rows come in, and a join's GROUP BY, DISTINCT,
// UNION, min or max that kept another of equal numerics of different
// scales (the join's row order is the plan's). SQLGATE_DIFF_SMITH_LOG and
// SQLGATE_DIFF_SMITH_FIXTURE write
// every difference and the fixture to files, for long hunts by seed.
//
// interleave_test.go (TestInterleavingDifferential,
// SQLGATE_DIFF_INTERLEAVE_SCHEDULES, default 150) runs generated schedules
// of two or three concurrent transactions (READ COMMITTED, REPEATABLE
// READ; writes by key, range and subquery (IN, EXISTS), key moves, ON
// CONFLICT, FOR UPDATE/SHARE with NOWAIT and SKIP LOCKED, a foreign key's
// check, savepoints) step by step on both servers: a step ends when every running
// statement has answered or waits (pg_blocking_pids), and answers, waits
// and the tables after are compared. Different deadlock victims are
// counted apart; known bugs are rules over the minimised schedule.
//
// dmlgen_test.go (TestDMLDifferential, SQLGATE_DIFF_DML_ROUNDS rounds,
// default 36, of SQLGATE_DIFF_DML_STATEMENTS statements, default 40) is
// the generator of writes: random tables (a keyed parent, a child keyed or
// not referencing it with random ON DELETE / ON UPDATE actions, a log
// table; columns of every common type with DEFAULTs, NOT NULL, CHECK,
// UNIQUE, identity, serial and stored generated columns) and random
// INSERT (VALUES, DEFAULT, SELECT), ON CONFLICT, UPDATE (FROM, subqueries,
// the key moved), DELETE (USING) with RETURNING, in transaction blocks
// with savepoints; after every statement the command tag, rows, SQLSTATE,
// message and DETAIL, and every table's rows. SQLGATE_DIFF_DML_LOG writes
// every difference to a file, for hunts by seed. Its allowances (fresh
// keys for plain INSERTs, sequences re-set after a failed statement, a
// multi-row statement's error for another row) are in its comment.
//
// ddlerrors_test.go (TestDDLErrorsDifferential,
// SQLGATE_DIFF_DDL_STATEMENTS, default 400) draws DDL statements and their
// error cases: CREATE [UNIQUE] INDEX with elements and WHERE predicates
// of every kind PostgreSQL refuses, DROP / ALTER ... [IF EXISTS] of
// missing objects named bare, qualified and in a missing schema, DROP
// FUNCTION with argument types of every spelling, reg* literals and
// nextval('...') anywhere in a select list, and a type moved out of the
// search path; SQLSTATE, message, position and notices, no allowance but
// the unique indexes sqlgate refuses (0A000, counted).
//
// ddltx_test.go (TestDDLTransactionDifferential,
// SQLGATE_DIFF_DDLTX_BLOCKS, default 16) runs random transaction blocks of
// creations, ALTER TABLE additions and renames, DROP TABLE and INSERTs,
// with savepoints, ROLLBACK TO and failing statements, ended by COMMIT or
// ROLLBACK: each statement's SQLSTATE, then the catalog (tables, columns,
// constraints, indexes, sequences, views, schemas, functions, types,
// comments) and the rows after each block, as PostgreSQL's undo them.
//
// constraintorder_test.go (TestConstraintOrderDifferential,
// SQLGATE_DIFF_CO_STATEMENTS, default 150) draws INSERTs, UPDATEs (in
// place and of a referenced table's keys) and ON CONFLICT writes whose
// rows break a foreign key, UNIQUE, NOT NULL and CHECK together, in an
// order both visit alike: PostgreSQL checks a row's NOT NULL, CHECK and
// unique indexes as it writes it and a foreign key at the statement's
// end, so the error is the first row's of the first three kinds, and a
// 23503 only when none failed; no allowance.
//
// upsertwhere_test.go (TestUpsertWhereDifferential,
// SQLGATE_DIFF_UPSERTWHERE_STATEMENTS, default 300) draws INSERT ... ON
// CONFLICT DO UPDATE [... WHERE] statements into tables with a primary key
// and one or two UNIQUE columns, the arbiter on any, whose rows propose a
// value again (repeated, crossed), held by an existing row, by a row the
// command wrote or moved a value onto, or by none, under SETs that move
// UNIQUE values and WHEREs true for some proposals, EXCLUDED of every
// column: 21000 only when the command wrote the row, as PostgreSQL's
// ExecOnConflictUpdate, EXCLUDED the row as proposed; RETURNING and the
// table after are compared; no allowance.
//
// setitems_test.go (TestSetItemOperatorsDifferential, a fixed table)
// assigns in UPDATE's SET list (alone, after an item, after a
// multi-column item) and ON CONFLICT DO UPDATE's the value of each
// operator whose rewrite scans back for its left operand (IS [NOT]
// DISTINCT FROM, IS TRUE/UNKNOWN, BETWEEN, LIKE/ILIKE/SIMILAR, IN, AT
// TIME ZONE, COLLATE, ::) with comparisons on either side: the item's =
// is no operator; the table after each is compared; no allowance.
//
// booltest_test.go (TestBoolTestDifferential,
// SQLGATE_DIFF_BOOLTEST_QUERIES, default 600) draws x IS [NOT] TRUE |
// FALSE | UNKNOWN over operands of every type and source (derived tables'
// untyped outputs, comparisons around IS's level, rows, subqueries, a
// set-returning call) in the select list, WHERE and CASE: names, types,
// rows, SQLSTATE, message and position, no allowance.
//
// dttokens_test.go (TestDateTimeTokenDifferential and
// TestAtTimeZoneDifferential, SQLGATE_DIFF_DTINPUT, default 1500) casts
// runs of date/time tokens (labelled fields, T joins, special words,
// zone names and abbreviations, dynamic ones too, eras, Julian days, odd
// separators) to date, time, timetz, timestamp and timestamptz, and
// applies AT TIME ZONE with listed and generated zones (POSIX zones with
// DST rules, empty names, blanks) to each date/time type: values or
// SQLSTATE and message, no allowance.
//
// unreadagg_test.go (TestUnreadAggregateDifferential,
// SQLGATE_DIFF_UNREADAGG_QUERIES, default 400) draws derived tables that
// aggregate, group by nothing or have a HAVING, over one table, a join, a
// function, VALUES or a derived table PostgreSQL does not pull up, with a
// WHERE that fails on one row, read or not by the query above (in FROM,
// under count(*), CROSS and LEFT JOIN LATERAL, scalar and EXISTS
// subqueries): rows and SQLSTATEs, no allowance.
//
// foldnested_test.go (TestFoldNestedDifferential,
// SQLGATE_DIFF_FOLDNESTED_QUERIES, default 200) nests immutable and
// stable calls, operators of every spelling and casts over constants and
// a column under CASE, COALESCE, NULLIF, AND and OR, over WHERE false, an
// empty table and a row: PostgreSQL computes what eval_const_expressions
// folds while planning, so its error is raised though no row is read;
// SQLSTATEs and rows, no allowance.
//
// foldpullup_test.go (TestFoldPullUpDifferential,
// SQLGATE_DIFF_FOLDPULLUP_QUERIES, default 150) reads those nested
// expressions over a derived table of two constants (bad text, NULLs,
// bounds) in the select list, WHERE, ORDER BY, an aggregate, GROUP BY
// and ROLLUP, a scalar subquery, ON conditions and above derived tables
// PostgreSQL pulls up or keeps (DISTINCT, LIMIT, UNION ALL, a volatile
// output, WITH and WITH MATERIALIZED, either side of outer joins):
// pull_up_simple_subquery replaces the references before folding, so a
// constant output is folded with what reads it, a LATERAL item's
// references too, except under a PlaceHolderVar (which a strict WHERE
// that reduces the outer join leaves one: computed per row, no one-time
// filter); SQLSTATEs and rows, no allowance.
//
// intinput_test.go (TestIntegerInputDifferential, SQLGATE_DIFF_INTINPUT,
// default 400) casts integer texts (spaces, signs, digits around every
// range's bounds, junk after them) to smallint, integer and bigint, as
// constants and from a column: pg_strtoint32 finds a value out of range
// before what follows the digits; SQLSTATE and message, no allowance.
//
// semijoinstop_test.go (TestSemiJoinStopDifferential,
// SQLGATE_DIFF_SEMISTOP_QUERIES, default 150) draws IN / = ANY subqueries
// of constant outputs (or operands that folding makes constants, rows of
// constants, NULLs), EXISTS and NOT EXISTS with outer-only, mixed or no
// conditions, and correlated SubPlans (ANY, ALL, scalar and row
// comparison, in WHERE and the select list) over an inner table whose
// rows fail at chosen places: PostgreSQL's semi join without a join
// clause is a nested loop that reads the inner side up to its first
// match, and a SubPlan reads it up to the row that decides; rows and
// SQLSTATEs, no allowance.
//
// TestDifferential runs SQLGATE_DIFF_QUERIES queries (default 2000; 300
// under -race) with seed SQLGATE_DIFF_SEED (default 1) against a throwaway
// PostgreSQL (internal/pgtest) and an in-process sqlgate. The CI run:
//
//	SQLGATE_DIFF_QUERIES=20000 go test ./tests/difftest/ -run TestDifferential -count=1 -v -timeout 60m
//
// cmd/difftest runs the same against two servers given by URL.
//
// representative_test.go compares which of equal values that print
// differently (numeric scales, intervals, -0 and 0, jsonb numbers) a
// DISTINCT or ORDER BY aggregate, SELECT DISTINCT and GROUP BY keep, and
// where an aggregate's ORDER BY leaves its ties
// (SQLGATE_DIFF_REPR_QUERIES, default 300); the plans it matches are in
// its comment.
//
// minmaxconst_test.go (TestMinMaxConstantsDifferential,
// SQLGATE_DIFF_MINMAX_QUERIES, default 300) draws min and max of
// constants, constant arrays and subscripts, uncorrelated and correlated
// subqueries (some failing) and columns over a log table whose rows, in a
// drawn order, pass and fail a guard, under quals with one-time conjuncts
// too: PostgreSQL's planagg.c reads up to the first row the quals pass,
// one initplan per aggregate, and the error or value must be its; no
// allowance.
//
// missingrel_test.go (TestMissingRelationDifferential) runs every
// statement kind that names a relation (DML, subqueries, WITH, EXPLAIN,
// TRUNCATE, ALTER TABLE, CREATE INDEX, COMMENT, ANALYZE, LOCK, LIKE,
// REFERENCES, CREATE VIEW, DROP) with a missing relation written every way
// (unqualified, qualified, quoted, spaced, in a missing schema): SQLSTATE,
// message and position must be PostgreSQL's, no allowance.
//
// Every generated test draws its seed from diffSeed: its own fixed seed,
// moved by SQLGATE_DIFF_SEED's distance from its default 1, so that
// setting the variable changes every test's inputs at once.
//
// This package must not change sqlgate: a mismatch that is a sqlgate bug is
// recorded in KnownBugs with its reproduction, and the test fails when a
// known bug stops reproducing so that the list stays honest.
package difftest
