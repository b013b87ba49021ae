// Package deparse prints the expressions the catalog keeps - CHECK
// constraints, column defaults, generated columns' expressions, domains'
// CHECKs - as PostgreSQL 15's ruleutils.c prints its parsed trees
// (pg_get_constraintdef, pg_get_expr, information_schema's
// column_default, check_clause and generation_expression, psql's \d):
// CHECK ((v < 100)), 'x'::text, ((name)::text = ANY (ARRAY['a'::text,
// 'b'::text])), (i4)::numeric(10,2). ORMs compare these strings with the
// ones their models would give to decide whether a migration is needed,
// so a difference is a spurious migration on every run.
//
// It owns: the analysis of a stored expression's syntax tree (sql/tree,
// parsed from the stored text) into the tree PostgreSQL's parse analysis
// would make of it (analyze.go: literals typed as make_const types them,
// BETWEEN and IN expanded as PostgreSQL expands them, casts inserted
// where operator and function resolution coerces an argument), the
// resolution itself over PostgreSQL 15's operators, functions, implicit
// casts and type categories (resolve.go over pgcatalog_gen.go, generated
// from a PostgreSQL 15 server by testdata/gen_catalog.sql), and the
// printer (print.go: get_rule_expr's parentheses, constants'
// decoration, casts shown where showimplicit is set, the pretty form's
// isSimpleNode rules, CASE laid out on lines).
//
// Why the text as written is kept, and printed at catalog read time:
// sqlgate stores a DEFAULT's and a CHECK's text (fluss.ColumnMeta,
// fluss.CheckConstraint) and binds it again for every write; that text
// is what sqlgate's binder reads best, and storing the deparsed form
// instead would make the binder re-read PostgreSQL's output (= ANY
// (ARRAY[..]), ~~, casts on every literal) on every write and freeze the
// deparser's mistakes into the metadata. Printing when the catalog is
// read keeps a deparser fix effective for tables made before it.
//
// It must not: bind for execution (the binder does; deparse only reads
// type names through binder.ParseType), or fail a catalog query: an
// expression it cannot reproduce is an error, and the catalog shows the
// text as written instead.
//
// Known differences from PostgreSQL 15: the operators and functions are
// those of pgcatalog_gen.go's list (others show as written); BETWEEN
// SYMMETRIC, LIKE .. ESCAPE, SIMILAR TO, subqueries and user-defined
// types are not deparsed; substring(x, 1, 2) prints as SUBSTRING(x FROM
// 1 FOR 2) and timezone(z, x) as x AT TIME ZONE z (the tree holds both
// spellings alike); NOT (x IS NOT DISTINCT FROM y) prints as x IS
// DISTINCT FROM y (the parsed tree does not tell them apart).
package deparse
