// Package deparse prints the expressions the catalog keeps - CHECK
// constraints, column defaults, generated columns' expressions, domains'
// CHECKs - as PostgreSQL 15's ruleutils.c prints its parsed trees
// (pg_get_constraintdef, pg_get_expr, information_schema's
// column_default, check_clause and generation_expression, psql's \d):
// CHECK ((v < 100)), 'x'::text, ((name)::text = ANY (ARRAY['a'::text,
// 'b'::text])), (i4)::numeric(10,2). ORMs compare these strings with the
// ones their models would give to decide whether a migration is needed,
// so a difference is a spurious migration on every run. It prints
// views' queries too (View: pg_get_viewdef in its plain, pretty and
// wrapped forms, pg_views.definition, information_schema.views, psql's
// \d+ and \sv), as get_query_def does: " SELECT t.a,\n    t.b AS x\n
// FROM t\n  WHERE (t.a > 1);".
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
// isSimpleNode rules, CASE laid out on lines). For views: the analysis
// of a view's query (query.go: range tables of relations, subqueries,
// joins and CTE references, column references resolved to an entry and
// qualified by it, * expanded, ORDER BY and GROUP BY keys matched to
// target entries, set operations' leaves; queryexpr.go: aggregates and
// subqueries in expressions) and its printer (queryprint.go:
// get_query_def's clauses on indented lines, set_rtable_names' unique
// names (t1_1), the target list's AS names against the view's column
// names, joins parenthesised unless pretty, the wrap column); arrays.go
// holds array constants and subscripts, window.go window functions
// (f(..) OVER (PARTITION BY .. ORDER BY ..), its keys target entries),
// usercall.go calls of user functions (any number of arguments, named
// notation printed name => value, VARIADIC ARRAY[..] for the elements
// a variadic call gathers, DEFAULTs left out; FuncnameGetCandidates'
// forms resolved as the built-ins are). A domain-typed column (Column.Domain)
// converts as its base type, with the relabelling shown ((p)::integer).
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
// A view's query is analysed from its stored text at catalog read time
// too, over the relations it named when it was made (their columns as
// they are now); a view whose * now names other columns, or that holds
// what the analysis does not know, shows as written.
//
// Names print as ruleutils.c's generate_relation_name and
// generate_function_name print them: a relation, and a call of a user's
// function (Scope.Functions: pgcatalog's UDFs), schema-qualified when
// its schema is not on the search path the catalog is read under
// (Scope.Visible; pg_dump's is empty, so that its dump restores).
//
// Known differences from PostgreSQL 15: the operators and functions are
// those of pgcatalog_gen.go's list and the user functions (those with
// polymorphic parameters, schema-qualified calls in named notation and
// overloads a call finds alike in two forms show as written); subqueries
// in stored expressions (PostgreSQL refuses them in CHECK), arrays of
// domains and enums, and constants typed as a domain are not deparsed; substring(x, 1, 2) prints as SUBSTRING(x FROM 1 FOR
// 2) and timezone(z, x) as x AT TIME ZONE z (the tree holds both
// spellings alike); NOT (x IS NOT DISTINCT FROM y) prints as x IS
// DISTINCT FROM y (the parsed tree does not tell them apart). Views not
// reproduced (shown as written): WITH RECURSIVE, SEARCH / CYCLE, VALUES,
// LATERAL, functions in FROM, named windows (WINDOW w, OVER w) and frame
// clauses, FILTER / ORDER BY in an aggregate, DISTINCT ON, GROUP BY DISTINCT and grouping sets, locking
// clauses, FULL JOIN USING, a join with an alias, a FROM list that mixes
// commas with CROSS JOIN (the tree holds both alike), a column list on
// CREATE VIEW over *; after a rename of a relation a view names, its
// stored text names the new relation with the old name as alias, which
// prints as such (PostgreSQL prints the new name alone).
package deparse
