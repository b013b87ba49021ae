// Package tree is sqlgate's own parsed tree: expressions, and so far the
// DDL-side statements, as PostgreSQL writes them, built by sql.ToTree and
// sql.StatementToTree from TiDB's AST (TiDB's parser stays the grammar) and
// read by the binder. It owns the node types and Format and
// FormatStatement, which write a tree back as PostgreSQL text that reads
// back as the same tree (the transformer's round-trip tests over the
// sqllogictest corpus rest on them).
//
// Unlike TiDB's MySQL AST it has real nodes for what PostgreSQL has and
// MySQL lacks, which the rewrite in front of TiDB hands over as pg__*
// marker calls: Cast, Subscript, Slice, Array, ArraySubquery, Row, Map,
// FieldSelect, Quantified (ANY/ALL over an array or a subquery), Extract,
// Position, Trim, Operator (PostgreSQL's -> ->> #> @> ? ~<~ ... and the
// prefix |/ @ ~), Pow, IS [NOT] DISTINCT FROM, FuncCall's aggregate ORDER
// BY, WITHIN GROUP, FILTER and OVER, and GROUP BY's GroupingSet. The
// binder moves onto these types (its exprtree.go) so that it switches on
// node types rather than on function-name strings; each node keeps, in At.Src,
// the TiDB node it was made from, for the few binders still reading
// TiDB's AST (a query the binder holds as TiDB's, transformed through
// sql.Transformer.BindQuery). Subscript and Slice say whether
// they continue a chain written without parentheses (x[a][b], one
// subscript of two dimensions), Quantified where its operator stands. AtTimeZone is for a parser that reads PostgreSQL's grammar
// directly: the rewrite spells x AT TIME ZONE z as timezone(z, x), an
// ordinary FuncCall.
//
// Merge (merge.go) is PostgreSQL 15's MERGE: its target, source, ON
// condition and WHEN clauses.
//
// Walk visits an expression's nodes in the order the text writes them.
//
// Every node keeps its byte offset in the text the parser read (Pos), so
// errors keep their cursor (sql.Statement.Position maps it to the user's
// text). Parentheses leave no node.
//
// Statements (stmt.go) are moving in too: CREATE TABLE (columns with
// their constraints, table constraints, CREATE TABLE AS), DROP TABLE |
// VIEW and CREATE VIEW are Statement nodes, written back by FormatStatement
// (TestStatementTreeRoundTripsCorpus in sql). What the rewrite in front of
// TiDB takes out of CREATE TABLE (column types, DEFAULT, CHECK, identity,
// WITH properties, PARTITIONED BY) stays in sql.Statement until a parser
// of PostgreSQL's grammar fills the tree directly.
//
// Queries (query.go) are in the tree too: Select (WITH [RECURSIVE] with
// [NOT] MATERIALIZED, SEARCH and CYCLE; DISTINCT [ON]; the select list with
// aliases and * / t.* as Star; FROM; WHERE; GROUP BY [DISTINCT] with
// GroupingSets; HAVING; WINDOW; ORDER BY; LIMIT / OFFSET; FOR UPDATE | NO
// KEY UPDATE | SHARE | KEY SHARE [OF ..] [NOWAIT | SKIP LOCKED]; TABLE
// name), SetOp (UNION / INTERSECT / EXCEPT [ALL], folded from the left as
// TiDB's grammar reads a chain) and Values, each a Query whose
// QueryClauses are its WITH, ORDER BY, LIMIT and OFFSET; FROM items are
// TableRef, DerivedTable ([LATERAL] (query) AS alias (columns)), FuncTable
// (a function in FROM, WITH ORDINALITY, column aliases or a column
// definition list) and Join (CROSS, INNER, LEFT, RIGHT, FULL; ON, USING,
// NATURAL). sql.QueryToTree builds them, reading the rewrite's statement
// markers (pg__srf, pg__colalias, pg__nocols, pg__distinct_on,
// pg__group_distinct, the FULL JOIN and WITH item markers) as these nodes;
// FormatQuery writes them back (TestQueryTreeRoundTripsCorpus in sql) and
// Inspect walks a tree, queries included. A Subquery carries the TiDB
// query it stands for in Query, and the tree's in Tree where QueryToTree
// made it (the subqueries of a query it transformed; ToTree alone leaves
// Tree nil). The binder binds SELECT and VALUES from the tree (a SELECT of
// up to four targets is one allocation with them: newSelect in
// sql/totree_query.go), as it does set operations, WITH queries and
// ParenQuery, a statement's one parenthesised query with clauses after
// it. Statements besides the queries: CreateTable, DropTable, CreateView,
// Insert, Update, Delete (dml.go), Explain and Describe (TRUNCATE is
// sql.Statement.DDL: the DDL parser takes every statement that starts
// with it).
//
// The writes (dml.go) are in the tree too: INSERT (VALUES rows with
// DEFAULT, column list, alias, OVERRIDING, ON CONFLICT's target, DO
// NOTHING and DO UPDATE SET, RETURNING), UPDATE (SET, WHERE, WHERE CURRENT
// OF, RETURNING) and DELETE, built by sql.DMLToTree with the clauses the
// rewrite keeps in sql.Statement, and written back by FormatStatement
// (formatdml.go; TestDMLTreeRoundTripsCorpus in sql). Their expressions,
// and the clauses that are the queries' (the target table, INSERT's query,
// UPDATE ... FROM's and DELETE ... USING's tables, a WITH in front), are
// the tree's nodes, the queries' own (Query, FromItem, With).
//
// The package is syntax only: no catalog, no types.T, no TiDB import.
package tree
