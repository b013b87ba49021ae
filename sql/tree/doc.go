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
// the TiDB node it was made from, for the kinds the binder has not moved
// yet. AtTimeZone is for a parser that reads PostgreSQL's grammar
// directly: the rewrite spells x AT TIME ZONE z as timezone(z, x), an
// ordinary FuncCall.
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
// The writes (dml.go) are in the tree too: INSERT (VALUES rows with
// DEFAULT, column list, alias, OVERRIDING, ON CONFLICT's target, DO
// NOTHING and DO UPDATE SET, RETURNING), UPDATE (SET, WHERE, WHERE CURRENT
// OF, RETURNING) and DELETE, built by sql.DMLToTree with the clauses the
// rewrite keeps in sql.Statement, and written back by FormatStatement
// (formatdml.go; TestDMLTreeRoundTripsCorpus in sql). Their expressions are
// the tree's; the clauses that are the queries' (INSERT's query, UPDATE ...
// FROM's and DELETE ... USING's tables, a WITH in front, RETURNING's list
// as a select list) are carried as WriteClause / Returning with TiDB's node in
// Src until the queries move.
//
// The package is syntax only: no catalog, no types.T, no TiDB import. The
// queries are still TiDB's: a Subquery carries the TiDB query it stands
// for (an expression's subquery, CREATE VIEW's and CREATE TABLE AS's
// query) until they move into the tree (issue 32's next stages).
package tree
