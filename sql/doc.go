// Package sql turns PostgreSQL statement text into TiDB ASTs plus the
// PostgreSQL facts TiDB's MySQL grammar cannot carry. It owns:
//
//   - a tokenizer that follows PostgreSQL's lexical rules ('...' strings, E'...'
//     strings, $$ and $tag$ dollar quotes, "quoted" identifiers, nested /* */
//     and -- comments, $n parameters), so no rewrite ever fires inside a
//     string, identifier or comment;
//   - statement splitting on top-level ';';
//   - interception of session statements TiDB cannot parse or parses with
//     MySQL meaning (SET/RESET/SHOW, BEGIN/START/COMMIT/END/ROLLBACK/ABORT,
//     SAVEPOINT/RELEASE, DISCARD, DEALLOCATE, COPY, LISTEN / UNLISTEN /
//     NOTIFY in notify.go: Statement.Notify, and LOCK [TABLE] in lock.go:
//     Statement.Lock): AST nil, details in
//     Statement.Set/Show/Tx/...;
//   - the same for the schema-management statements tools send
//     (ddlstmts.go, altertable.go, altercolumn.go, renametype.go (a type's or
//     function's rename in stored texts), renamesequence.go (a sequence's
//     in regclass constants): CREATE/DROP SCHEMA, CREATE/DROP INDEX,
//     COMMENT ON, ANALYZE, VACUUM, PREPARE, EXECUTE, ALTER TABLE, ALTER
//     VIEW and RENAME TO (rename.go; ALTER VIEW ... SET | RESET (..) in
//     AlterAction.ViewOptions), CREATE VIEW's WITH (..) options and WITH
//     [LOCAL | CASCADED] CHECK OPTION taken off its text into
//     Statement.ViewOptions (viewopts.go), SHOW DATABASES / CREATE TABLE /
//     PARTITIONS, CLUSTER, REINDEX, CREATE / DROP EXTENSION, ALTER DEFAULT
//     PRIVILEGES, CREATE / DROP / REFRESH / ALTER MATERIALIZED VIEW
//     (matview.go: Statement.DDL.Matview), CREATE TABLE ... PARTITION OF
//     (partitions.go: Statement.DDL.PartitionOf; CREATE TABLE's PARTITION
//     BY LIST (col) is Statement.PartitionKeys and PartitionStrategy); DO
//     is refused; ALTER INDEX's RENAME TO, SET | RESET (..), SET
//     TABLESPACE, OWNER TO, SET STATISTICS and DEPENDS ON EXTENSION
//     (alterindex.go: Statement.DDL.IndexAction); ALTER TABLE ... RENAME
//     CONSTRAINT and ADD [CONSTRAINT c] UNIQUE USING INDEX i as actions):
//     details in Statement.DDL; CREATE TEMP
//     TABLE sets Statement.Temporary, its ON COMMIT clause Statement.OnCommit; the cursor statements DECLARE,
//     FETCH, MOVE and CLOSE (cursorstmts.go) in Statement.DDL.Cursor;
//     UPDATE / DELETE ... WHERE CURRENT OF (currentof.go) parsed with
//     WHERE false and the clause in Statement.CurrentOf;
//     SUBSCRIBE (subscribe.go) in Statement.DDL.Subscribe;
//     CREATE TYPE ... AS ENUM | AS (f type, ...), DROP TYPE and ALTER TYPE
//     ... ADD VALUE | RENAME VALUE | RENAME TO | ADD, DROP, RENAME
//     ATTRIBUTE (typestmts.go) in Statement.Type; CREATE / ALTER / DROP
//     DOMAIN (domains.go) in Statement.Domain (the text a PREPARE,
//     DECLARE CURSOR or CREATE MATERIALIZED VIEW holds, and a domain's
//     DEFAULT and CHECK expressions, is parsed with the statement for its
//     syntax errors only, at their places in the input: checkInner in
//     parser.go; the engine parses it again when the statement runs);
//     ALTER TABLE | VIEW |
//     SEQUENCE | TYPE | SCHEMA ... OWNER TO (owner.go) in Statement.Owner;
//     ALTER TABLE's identity actions (identity.go) and its catalog-only
//     actions, REPLICA IDENTITY, CLUSTER ON, SET STATISTICS / STORAGE /
//     COMPRESSION (pgstorage.go), in Statement.DDL's actions; CREATE TABLE's REFERENCES
//     and FOREIGN KEY clauses, ALTER TABLE ... ADD FOREIGN KEY and SET
//     CONSTRAINTS (foreignkey.go) in Statement.ForeignKeys,
//     AlterAction.ForeignKey and Statement.Set.Constraints; CREATE TABLE's
//     and ALTER TABLE ... ADD's UNIQUE clauses (unique.go) in
//     Statement.Uniques and AlterAction.Unique;
//   - the statements of PostgreSQL's grammar that sqlgate does not run
//     (unsupported.go: CREATE POLICY, TRIGGER, AGGREGATE, OPERATOR, CAST,
//     COLLATION, RULE, STATISTICS, TABLESPACE, ..., SECURITY LABEL, the
//     CREATE TABLE clauses it lacks): a syntax error of one becomes 0A000
//     naming the feature, with a hint where there is a way, never 42601
//     (tests/difftest's TestDDLCorpusNoSyntaxError checks a corpus of
//     PostgreSQL 15's DDL);
//   - catalog-qualified names (catalogs.go): db.schema.relation and
//     db.schema.table.column lose the db part when it is the session's
//     database (Parser.SetDatabase), else 0A000;
//   - the token-level rewrite in front of TiDB: $n -> ? (Statement.ParamNumbers
//     maps markers back), x::type and CAST(x AS type) -> pg__cast(x, 'type')
//     (the binder parses 'type' with ParseTypeName), typed literals DATE '..',
//     INTERVAL '..' -> pg__cast('..', 'interval'), E'...' and $$...$$ strings -> standard
//     literals, IS NOT DISTINCT FROM -> <=>, IS DISTINCT FROM -> NOT a <=> b
//     (the left operand's scan back stops at a SET item's =, read from the
//     tokens as written by nonassoc.go's setAssignments),
//     x IS [NOT] UNKNOWN -> pg__is_[not_]unknown(x) (TiDB's is IS NULL, of any type),
//     ~ / !~ -> REGEXP / NOT REGEXP, ~* / !~* -> REGEXP pg__ci(pattern),
//     ^ -> pg__power(a, b), position(x IN y) -> pg__position(y, x), a -> b / ->> / #> / #>> -> pg__json_get(a, b) /
//     pg__json_get_text / pg__json_path / pg__json_path_text (left
//     operand the preceding primary, so chains nest), ARRAY[..] -> pg__array(..), x[i] -> pg__subscript(x, i),
//     MAP[k, v, ..] -> pg__map(k, v, ..) and ROW(..) -> pg__row(..) (mapctor.go),
//     OPERATOR(pg_catalog.op) -> op, an expression's x COLLATE name ->
//     pg__collate(x, 'name'[, ..]) (one string per part of the name;
//     tree.Collate), a type's COLLATE (CREATE TABLE's, ALTER COLUMN
//     TYPE's, CREATE DOMAIN's) removed, its name checked (a CREATE TABLE
//     column's kept in Statement.Collations first: collations.go),
//     (expr).field -> pg__field((expr), 'field'), any function call as a
//     FROM item -> a pg__srf derived table (srf.go; a first argument
//     TABLE name, a batch UDF's relation, -> (select * from name)),
//     ROWS FROM (f(..) [AS (defs)], ..) -> the pg__srf marker of
//     pg__rowsfrom with one pg__rowsfn('f', pg__cols(defs), args) each
//     ('f' is pg__schema('s', 'f') for s.f(..) of another schema than
//     pg_catalog),
//     x op ANY|ALL (array) -> pg__any|pg__all(x, 'op', array) (op ANY
//     (subquery) is left to TiDB for the comparisons; [NOT] LIKE | ILIKE,
//     ~~ !~~ ~~* !~~* and ~ ~* !~ !~* ANY (subquery) -> pg__any(x, 'op',
//     (subquery)), LIKE's words as their operators), ARRAY(SELECT ..) -> pg__array_subquery((..)),
//     e [ASC|DESC] NULLS FIRST|LAST -> pg__nulls(e, 'first'|'last') [ASC|DESC],
//     e USING op -> pg__using(e, 'op') (orderusing.go),
//     x[lo:hi] -> pg__slice(x, lo, hi) (an omitted bound pg__open()),
//     agg(args) FILTER (WHERE c) -> pg__filter(agg(args), c), and
//     agg(args) [FILTER (WHERE c)] OVER w where TiDB takes no OVER after
//     agg or there is a FILTER -> group_concat(args,
//     pg__window_filter([c]) SEPARATOR 'pg__agg:agg') OVER w (windowagg.go;
//     agg(x ORDER BY y) OVER w is PostgreSQL's 0A000), EXTRACT(f
//     FROM x) -> pg__extract('f', x), EXPLAIN (opts) ->
//     EXPLAIN [ANALYZE] with Statement.ExplainOptions (an explained INSERT,
//     UPDATE or DELETE gets the rewrites below; EXPLAIN COPY is PostgreSQL's
//     syntax error);
//   - keywords as names (names.go): a word standing where PostgreSQL's
//     grammar takes a name, by PostgreSQL's keyword categories
//     (pgkeywords.go, generated from pg_get_keywords()), is quoted for
//     TiDB, or is PostgreSQL's syntax error when its category allows no
//     name there;
//   - identifier case: every unquoted word is folded to lower case (ASCII,
//     as PostgreSQL does) in the rewritten text, so CIStr.O in the AST is
//     the PostgreSQL name and a quoted "Name" keeps its case;
//   - CREATE TABLE column types (all Fluss and PostgreSQL spellings, ARRAY<T>,
//     T[], MAP<K,V>, ROW<..>) parsed into Statement.ColumnTypes and replaced
//     by TEXT for TiDB; WITH (...) properties; NOT ENFORCED stripped;
//   - INSERT ... ON CONFLICT DO NOTHING / DO UPDATE SET x = EXCLUDED.x;
//     DO UPDATE's WHERE and the inference clause's (cols) WHERE ride as
//     marker assignments into the tree's OnConflict.Where / TargetWhere,
//     and UPDATE's and DO UPDATE's multiple-column SET (a, b) = (..) |
//     ROW(..) | (SELECT ..) becomes one assignment per column, a
//     subscripted item col[i][lo:hi] = v becomes col = pg__indirect(
//     col[i][lo:hi], (v)) (tree.Assignment.Target), and INSERT's
//     subscripted target columns (a[1], a[3]) become bare columns whose
//     VALUES cells are pg__indirect(a[1], (cell)) (tree.SubscriptedValue;
//     INSERT ... SELECT into them is 0A000) (upsert.go;
//     one PostgreSQL refuses while analysing, marker assignments that
//     carry its error to the binder: DeferredSetError);
//   - data-modifying WITH queries (modifyingwith.go): an INSERT, UPDATE or
//     DELETE in a statement's top-level WITH list is taken out of it into
//     Statement.ModifyingWith (its text, blanked outside it and the plain
//     WITH queries before it, so that positions stay the input's), the
//     statement reading it by name; one anywhere else is PostgreSQL's
//     0A000 (not at the top level, in a view or a materialized view);
//   - MERGE (merge.go): its clauses read by the rewrite, their pieces
//     handed to TiDB as statements where they stand (the join as a SELECT
//     of the target and the source WHERE the ON condition, each WHEN
//     condition a SELECT, each UPDATE SET and INSERT VALUES an UPDATE and
//     an INSERT of their own), Statement.Merge saying which clause each
//     belongs to; the transformer builds the tree's Merge from them;
//   - RETURNING, UPDATE ... FROM and DELETE ... USING (dml.go): moved into
//     extra SELECT statements after the main one in the same rewritten text
//     (Statement.Returning, Statement.DMLFrom), INSERT INTO t AS alias
//     (Statement.InsertAlias), and x BETWEEN SYMMETRIC a AND b -> x BETWEEN
//     pg__symmetric(a) AND b;
//   - a call of a type name TiDB reads as its type keyword (int4(x),
//     float8(x), text(x), bool(x), json(x): funccast.go) passed to TiDB as
//     a quoted name, an ordinary call the binder takes as a cast; a keyword
//     type written as a call in an expression (int('1'), numeric(1),
//     timestamp('x'), char('a')) is PostgreSQL's 42601 at the token its
//     grammar stops at;
//   - two string constants in a row that PostgreSQL's lexer does not join
//     (no newline between them, or a second one that is not a plain
//     '...': strconcat.go) are its 42601 at the second, read from the
//     tokens before any rewrite (TiDB joins any two); a string constant
//     after an operand that is no type's name (a number, a ']', a cast's
//     type, an empty or parenthesised-expression ')') is its 42601 at the
//     string when no earlier error precedes it (strconcat.go);
//   - schema-qualified calls in the forms TiDB's grammar takes only
//     unqualified (OVER, FILTER, WITHIN GROUP, DISTINCT, *, ORDER BY,
//     VARIADIC, named arguments, and TiDB's aggregates) ->
//     pg__schema('s', f(..) ..), read back as the call with its Schema
//     (qualifiedcall.go); a function in FROM under any schema carries it
//     as pg__srf(pg__schema('s', 'f'), ..) (srf.go); f() of TiDB's
//     aggregates and window functions and f(*) of any f but count ->
//     "f"() and f(pg__star()), the call's Star (emptycall.go), for the
//     binder's answers to calls without arguments (parse_func.c); a run
//     of > is one operator but where it closes type arguments (lexer.go);
//   - INSERT's MySQL forms (mysqlforms.go): INSERT without INTO and the
//     empty lists VALUES (), INSERT INTO t () and ON CONFLICT () are
//     PostgreSQL's 42601, read from the tokens before any rewrite;
//   - PostgreSQL's syntax-error wording (42601, "syntax error at or near")
//     with the position in the user's original text, mapped back through the
//     rewrite's offset map; a number followed by an identifier's characters
//     (1abc, 1.5e) is PostgreSQL 15's "trailing junk after numeric literal"
//     (lexer.go); a closing bracket that closes nothing, or one of the other
//     kind, is where the rewrite's "at end of input" moves to (rewrite.go's
//     badCloser); a statement with an unclosed ( or [ is parsed again with
//     the closers appended, and an error at one of its own tokens is
//     PostgreSQL's (unclosed.go; so for a statement refused at its end,
//     parsed without its last token, and one refused at a string constant
//     or a query's comma, parsed without it and what follows), as is a data-modifying WITH query's
//     error before the statement's (parser.go's modifyingWithError); a keyword refused as a name is refused at the token after
//     it where PostgreSQL's grammar reads it as the start of a longer form
//     (a type/function-name keyword, ARRAY, CAST, LATERAL ...: names.go's
//     keywordNameError), a new table's or WITH query's name and a named
//     argument's name (namedargs.go's paramNameError) by its category, and
//     each part of a SET / SHOW / RESET setting name and a savepoint's name
//     is a ColId (session.go);
//   - a subquery or VALUES list in FROM without an alias is PostgreSQL
//     15's 42601 "subquery in FROM must have an alias" at its "(" with
//     the hint (fromalias.go); COLLATION FOR (x) -> pg_collation_for(x),
//     TREAT(x AS int) -> pg_catalog."int4"(x) (funccast.go); x LIKE p ESCAPE e with e no string constant -> x
//     LIKE like_escape(p, e); a comma in a CHECK's, GENERATED ALWAYS AS's
//     or an index element's parentheses is the 42601 at the comma
//     (singleexpr.go's ddlSingleExprError);
//   - (t.*) and ((t.*)) are t.* (starparens.go: the parentheses are
//     dropped, not before a . or [ that selects from them);
//   - GROUP BY's ROLLUP (..), CUBE (..), GROUPING SETS (..), () and
//     DISTINCT/ALL (groupingsets.go) -> pg__rollup(..), pg__cube(..),
//     pg__grouping_sets(..), pg__empty_set(), pg__group_distinct(); ROLLUP
//     and CUBE elsewhere are quoted function names; LATERAL f(..) is a
//     function in FROM like f(..);
//   - x [NOT] SIMILAR TO p [ESCAPE e] -> x [NOT] REGEXP
//     similar_to_escape(p [, e]) (p and e take || and the other
//     operators that bind tighter than SIMILAR, as LIKE's pattern does), substring(x SIMILAR p ESCAPE e) and
//     overlay(x PLACING y FROM n [FOR m]) -> plain calls (similar.go); @>
//     <@ ? ?| ?& -> pg__op_contains(a, b) and friends, as -> is;
//   - the operators TiDB's grammar lacks (operators.go): ~~ !~~ ~~* !~~*
//     -> [NOT] LIKE/ILIKE, ~<~ ~<=~ ~>=~ ~>~ ^@ # #- && and the prefix
//     operators ~ @ |/ ||/ -> pg__op_* calls (functions/opfuncs.go);
//   - B'101' and X'1F', bit string constants in PostgreSQL (TiDB reads
//     bytes) -> pg__cast('b101', 'pg__bit') (bitstring.go);
//   - f(args) WITHIN GROUP (ORDER BY keys) (withingroup.go) ->
//     group_concat(pg__within_group(args) ORDER BY keys SEPARATOR
//     'pg__agg:f'); the call's own ORDER BY, DISTINCT or VARIADIC with
//     WITHIN GROUP is PostgreSQL's 42601 at WITHIN, read from the tokens
//     before any rewrite (withinGroupError);
//   - an empty select list (SELECT FROM t) -> the marker column
//     pg__nocols(), which the binder drops; (a JOIN b ..) AS j -> (SELECT *
//     FROM a JOIN b ..) AS j; WITH ... INSERT INTO t SELECT -> INSERT INTO t
//     WITH ... SELECT, and WITH ... INSERT ... VALUES (DEFAULT VALUES) ->
//     INSERT INTO t WITH ... SELECT * FROM (VALUES ..) AS pg__insert_values
//     (pg__default_values), read back as the rows (withdml.go); trim(..) in
//     PostgreSQL's forms -> pg__btrim / pg__ltrim / pg__rtrim(list, chars),
//     read as tree.Trim (trim.go); f(a => 1, b := 2) -> f(1, 2) for the
//     built-ins with parameter names, skipped defaults filled in, a call no
//     overload matches -> pg__named_nomatch(...) for the binder's 42883
//     (namedargs.go); f(x, VARIADIC arr) -> f(x, pg__variadic(arr)), VARIADIC
//     elsewhere than before a call's last argument 42601 (variadic.go);
//     CREATE TABLE's LIKE element -> a
//     placeholder column, details in Statement.CreateLike (createlike.go);
//   - the SEARCH and CYCLE clauses of a WITH item (cte.go): removed, kept in
//     Statement.SearchCycle, the item marked by an extra column alias
//     "pg__search_cycle_<i>" (WITH RECURSIVE itself is TiDB's grammar; the
//     binder checks PostgreSQL's rules);
//   - a WITH item's [NOT] MATERIALIZED (cte.go): removed, the item marked by
//     an extra column alias "pg__materialized" or "pg__not_materialized";
//   - a query's LIMIT / OFFSET / FETCH tail TiDB cannot read (limit.go:
//     expressions, LIMIT ALL / NULL, OFFSET n ROWS, either order, FETCH
//     FIRST | NEXT [n] ROW | ROWS ONLY | WITH TIES) -> the marker
//     pg__limit('only' | 'ties', count, offset) as the ORDER BY's last item,
//     which QueryToTree takes back out into QueryClauses (Limit, Offset,
//     WithTies); LIMIT n [OFFSET m] of integers or parameters stays TiDB's;
//   - a || b -> a | pg__pipes() | b (pipes.go): PostgreSQL's || binds
//     looser than + - * / and tighter than comparisons, as TiDB's | does
//     (TiDB's own || binds tighter than *); ToTree reads the pair back as
//     the concat call; a LIKE / ILIKE / ~ pattern with an operator in it
//     is parenthesised (TiDB takes a SimpleExpr there); the fast path
//     reads | (bitOrExpr);
//   - a comma at the top level of a construct whose brackets hold one
//     expression in PostgreSQL's grammar (op ANY (..), CAST, EXTRACT,
//     POSITION, a subscript, FILTER (WHERE ..), a frame's bounds, OFFSET,
//     SUBSTRING / OVERLAY after their keywords, a keyword type's one
//     modifier, ..) and the grammar's other fixed shapes (NULLIF's two
//     arguments, COALESCE's one or more, NORMALIZE's form, ARRAY's query,
//     CURRENT_DATE and the other niladic keywords) are its 42601 at that
//     token (singleexpr.go), read from the tokens before any rewrite;
//     TiDB's one-argument aggregates given several arguments go to the
//     binder as group_concat's marker (aggorder.go), for PostgreSQL's 42883;
//   - PostgreSQL's non-associative levels (nonassoc.go: comparisons;
//     LIKE, ILIKE, SIMILAR, BETWEEN, IN; IS, ISNULL, NOTNULL): two
//     operators of one level in a row are its 42601 at the second
//     (1 < 2 < 3), read from the tokens before any rewrite;
//   - the forms that end in no expression (closedforms.go: x IS TRUE,
//     x IS NULL, ISNULL, NOTNULL, x [NOT] IN (..)) parenthesised when an
//     operator follows them ((x IS TRUE) + 1); a prefix NOT as an
//     operator's right operand parenthesised to the next AND or OR
//     (x = (NOT y)); IS [NOT] DISTINCT FROM's right operand, with a
//     comparison or LIKE's level in it, parenthesised for <=>; a
//     comparison's op ANY (array) takes a LIKE-level form as its left
//     operand;
//   - PostgreSQL's "other" operators (oplevel.go: || & | # << >> ~ ->
//     @> ..., one left-associative level below + - * /): at each, its
//     left operand back to the nearest lower-level operator is
//     parenthesised when an operator stands in it, so TiDB's own levels
//     for & | << >> and REGEXP do not regroup it; LIKE's pattern takes
//     the level's operators, ~'s ends at the next one;
//   - substring(x [FROM n] FOR m) and substring(x FOR m FROM n) ->
//     substring(x, n | 1, m) (similar.go);
//   - alias.* as an item of ROW(..) or of a parenthesised list of two
//     items or more -> pg__field(alias, '*'), which the binder's row
//     constructor expands into alias's columns (f(alias.*) stays f(alias),
//     the whole row);
//   - a window's frame clause (frame.go: ROWS | RANGE | GROUPS, any offset
//     expression, the single-bound form, EXCLUDE) -> the marker
//     pg__frame('unit', 'exclusion', 'kind', [offset, ] ..) first in the
//     window's PARTITION BY, which WindowToTree reads back as tree.Frame;
//
// The synthetic functions the binder must know: pg__cast(x, 'type'),
// pg__rollup, pg__cube, pg__grouping_sets, pg__empty_set,
// pg__group_distinct, pg__within_group, pg__nulls, pg__slice and
// pg__open, pg__filter, pg__extract, pg__symmetric,
// pg__ci(pattern) (case-insensitive regex pattern), pg__array(elems...),
// pg__array_subquery((subquery)), pg__subscript(array, index),
// pg__map(k1, v1, ..), pg__row(fields..), pg__json_get(j, key) and
// pg__json_get_text, pg__json_path(j, path) and pg__json_path_text,
// pg__any(x, 'op', array), pg__all(x, 'op', array), pg__field(x,
// 'field'), pg__srf('f', ord, explicit, pg__cols(..), args..),
// pg__colalias('c1', ..) (values.go: a derived table's column alias list;
// a VALUES query reaches TiDB as VALUES ROW(..), ..), pg__power(a, b)
// (PostgreSQL's ^) and pg__position(y, x) (position(x IN y)), named apart
// from power and strpos for the column label. A TiDB AST offset (node.OriginTextPosition()) maps to the
// user's text with Statement.Position; an operator the rewrite made a call
// is found in the user's text with Statement.OperatorPosition
// (operatorpos.go), where PostgreSQL points its "operator does not exist".
//
// ToTree (totree.go) transforms TiDB's expressions into sqlgate's own
// parsed tree (package sql/tree): the pg__* markers above become real nodes
// (Cast, Subscript, Array, Quantified, FieldSelect, Extract, Operator ...),
// each keeping its offset in the rewritten text. StatementToTree
// (totree_stmt.go) does the same for the statements that have moved: CREATE
// TABLE, DROP TABLE | VIEW and CREATE VIEW (a query inside one stays TiDB's,
// carried by a tree.Subquery, whose tree SubqueryTree makes on demand), and DMLToTree (totree_dml.go) for INSERT,
// UPDATE and DELETE with the clauses the rewrite keeps in Statement
// (RETURNING, FROM / USING, ON CONFLICT, the INSERT alias, OVERRIDING,
// WHERE CURRENT OF; TestDMLTreeRoundTripsCorpus round-trips the corpus's
// writes). The binder moves onto that tree stage by
// stage (issue 32; expressions, function calls, aggregates, window calls,
// those statements, and SELECT and VALUES queries so far, see binder's
// doc); QueryToTree
// (totree_query.go) transforms a query (SELECT, set operations, VALUES,
// with their WITH lists and FROM items, the statement markers above read
// as tree nodes: pg__srf a FuncTable, pg__colalias column aliases,
// pg__distinct_on, pg__nocols, the FULL JOIN and WITH item markers), and
// TestQueryTreeRoundTripsCorpus checks every query of the corpus round
// trips through tree.FormatQuery; TestTreeRoundTripsCorpus
// checks that every expression of the sqllogictest corpus transforms, and
// that the tree written back as text (tree.Format) and parsed again is the
// same tree, and TestStatementTreeRoundTripsCorpus the same of the corpus's
// moved statements (tree.FormatStatement). totree_bind.go is the
// binder's entry: BindStatement transforms whatever statement it binds
// (the moved DDL, a query, a write, EXPLAIN, TRUNCATE, DESCRIBE), BindQuery
// a query the binder holds as TiDB's (a view's definition), ParseExprText
// a stored expression;
// a refusal is a TransformError, which carries the refused node's
// position (At), never the node, so that the binder names no TiDB type.
//
// It must not know about tables, catalogs or types.T: it is syntax only.
//
// Literal values: the package uses TiDB's parser/test_driver as the value
// driver (it registers ast.NewValueExpr and friends at init). Writing our own
// driver would duplicate ~1,500 lines of datum and decimal code for no gain:
// the binder reads literals only through LiteralOf and ParamOrder, which
// hide the driver, so it can be replaced later without touching callers.
// Decimal literals keep their digits as text (LitDecimal), so no precision is
// lost on the way to the binder.
//
// Why these rewrite forms: MySQL's NOT binds looser than <=> and tighter
// than AND, so "NOT a <=> b" is exactly "a IS DISTINCT FROM b" once the
// left operand's start is found (scanning back to the nearest keyword of
// lower precedence than IS); only the left extent is needed. MySQL's REGEXP
// sits at comparison precedence, close to PostgreSQL's ~ (which binds a bit
// tighter), and needs no operand extents at all; ~* wraps only its pattern
// (a primary in practice) with pg__ci, meaning "prefix (?i)", which is also
// valid ARE syntax. :: binds tighter than any operator, so its operand is
// the preceding primary, found on the output item list (so a::text::int
// nests).
//
// Fast path (fastparse.go): the rewritten text of a statement in the common
// SELECT subset (select list, FROM with [LEFT|RIGHT|INNER] JOIN .. ON,
// WHERE, GROUP BY, HAVING, ORDER BY, LIMIT/OFFSET; literals, ?, column
// refs, calls, count/sum/avg/min/max, arithmetic, comparisons, AND/OR/NOT,
// IN lists, BETWEEN, LIKE, REGEXP, IS [NOT] NULL, ||) is parsed by a
// hand-written recursive-descent parser that builds exactly TiDB's AST
// (reflect.DeepEqual, offsets and node texts included: fastparse_test.go
// over the sqllogictest corpus, FuzzFastPath); anything else, and every
// error, goes to TiDB. Its common nodes (values, column references, binary
// operators, select fields, ORDER BY items) come from slabs sized by the
// lexer's counts, and it sets each node's flag as it builds it, so no
// ast.SetFlag walk follows. The marker functions are spelled pg__* rather than
// __pg_* because TiDB's lexer looks up every word starting with '_' as a
// charset introducer (and builds a stack-traced error when it is none).
// It also takes INSERT INTO name [(names)] VALUES (expr | default, ...), ...
// (insertfast.go); when every value is a literal, a signed number or
// DEFAULT it reads the rows straight into sqlgate's tree (directRows) and
// the AST keeps only the table and columns: Statement.fastInsert holds the
// rows, which DMLToTree takes instead of transforming TiDB's (a 1000-row
// INSERT builds one tree, not TiDB's nodes and then the tree's;
// insertfast_tree_test.go checks the tree equals the general path's over
// the corpus's INSERTs and generated ones).
//
// One lexing pass per statement (fasttoks.go; issue 32): lexInto reads the
// text once, and its tokens feed the statement splitter, every
// token-level rewrite, the plain shortcut, the error positions
// (syntaxError, dataModifyingWith) and the fast path; TiDB's lexer runs
// only when the fast path declines. The fast parser keeps its own token
// type (ftok) but no lexer of its own for the user's text: its tokens are
// built from the lexer's, at their offsets in the rewritten text (the
// plain shortcut's output is the tokens shifted by its labels' quotes;
// the general rewrite's emit marks where each copied token, "?" marker
// and run of text it wrote lands), and only the runs the rewrite wrote
// (pg__cast(, quoted names, re-spelled literals) are read by the fast
// lexer. One token type cannot serve both, for three reasons read in the
// code: the fast parser's offsets are the rewritten text's (TiDB's AST
// offsets and node texts point into Rewritten, checked by DeepEqual with
// TiDB's), not the input's that the rewrite, the offset map and error
// positions need; its parser peeks tokens at every precedence level, and
// a 12-byte ftok (kind, TiDB keyword id and class, follow bits) keeps a
// statement's tokens in a few cache lines where a token (48 bytes, with
// lead, synth text and comment flags the rewrite needs) would not; and
// its words are TiDB's keywords while the rewrite's are PostgreSQL's. So
// what the fast path needs of a token's bytes is computed in the one
// lexing pass and carried by the token (token.flags: a number's form,
// doubled quotes, bytes it refuses; token.hash: the lower-cased word's
// hash for TiDB's keyword table), and turning tokens into ftoks reads no
// byte twice but those next to a token. Parser.passes counts the passes;
// TestLexOncePerStatement checks one per statement over the corpus, and
// TestFastTokensMatchLexer / FuzzFastTokens that the built tokens are the
// fast lexer's reading of the rewritten text.
//
// Plain shortcut (plain.go): a SELECT whose tokens the rewrite would only
// case-fold (and whose AS labels it would quote) is rewritten in one pass,
// with a one-segment offset map when nothing is quoted; a whitelist that
// declines anything else, checked against the general rewrite over the
// corpus, mutations of it and FuzzPlainRewrite. Likewise an INSERT of
// literal rows (insertfast.go: plainInsert; a keyword as a table or column
// name quoted as quoteNames decides), checked by insertfast_test.go's
// generated statements and their mutations.
//
// A Parser wraps a TiDB parser and the rewrite's reusable scratch, and is
// not goroutine-safe: one per session.
package sql
