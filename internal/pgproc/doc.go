// Package pgproc holds what PostgreSQL 15's pg_proc says of the built-in
// functions sqlgate has, beyond their types: volatility, strictness,
// parallel safety, source, language, support function, cost, SQL body,
// leakproofness and argument text, per signature (procprops.go, generated
// from PostgreSQL by pgcatalog's TestProcPropsMatchPostgres, which also
// checks it). It sits below every stage so that each reads PostgreSQL's
// own answer: pgcatalog serves it as pg_proc's rows, and lower's
// late_projection asks proisstrict as PostgreSQL's planner does
// (contain_nonstrict_functions). It also holds PostgreSQL's pg_proc and
// pg_aggregate rows of the built-ins sqlgate's binder resolves a call of
// (rows.go's Row and Agg; procrows.go, generated and checked in both
// directions by tests/difftest's TestProcRowsMatchPostgres), which
// pgcatalog lists under PostgreSQL's OIDs, and the argument defaults of
// those rows (proargdefaults' node tree and pg_get_expr's text of it:
// argdefaults.go, generated and checked by pgcatalog's
// TestProcArgDefaultsMatchPostgres).
package pgproc
