// Package tree is sqlgate's own parsed tree: the statements' expressions as
// PostgreSQL writes them, built by sql.ToTree from TiDB's AST (TiDB's parser
// stays the grammar) and read by the binder. It owns the node types and
// Format, which writes a tree back as PostgreSQL text that reads back as
// the same tree (the transformer's round-trip test over the sqllogictest
// corpus rests on it).
//
// Unlike TiDB's MySQL AST it has real nodes for what PostgreSQL has and
// MySQL lacks, which the rewrite in front of TiDB hands over as pg__*
// marker calls: Cast, Subscript, Slice, Array, ArraySubquery, Row, Map,
// FieldSelect, Quantified (ANY/ALL over an array or a subquery), Extract,
// Position, Trim, Operator (PostgreSQL's -> ->> #> @> ? ~<~ ... and the
// prefix |/ @ ~), Pow, IS [NOT] DISTINCT FROM, FuncCall's aggregate ORDER
// BY, WITHIN GROUP, FILTER and OVER, and GROUP BY's GroupingSet. The binder
// moves onto these types (binder/exprtree.go) so that it switches on node
// types rather than on function-name strings; each node keeps, in At.Src,
// the TiDB node it was made from, for the kinds the binder has not moved
// yet. AtTimeZone is
// for a parser that reads PostgreSQL's grammar directly: the rewrite spells
// x AT TIME ZONE z as timezone(z, x), an ordinary FuncCall.
//
// Every node keeps its byte offset in the text the parser read (Pos), so
// errors keep their cursor (sql.Statement.Position maps it to the user's
// text). Parentheses leave no node.
//
// The package is syntax only: no catalog, no types.T, no TiDB import. The
// statement level is still TiDB's: a Subquery carries the TiDB query it
// stands for until statements move into the tree (issue 32's next stage).
package tree
