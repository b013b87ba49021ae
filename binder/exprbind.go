package binder

import (
	"errors"
	"strings"

	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// The binder's entry from the parser (issue 32): every statement, query
// and stored expression arrives in sqlgate's tree, transformed once in
// sql/ (sql.Transformer.BindStatement, BindQuery, ParseExprText); a
// transformer's refusal is positioned here. No binder file names TiDB's
// AST (tests/imports).

// bindSubqueryQuery binds the query a subquery carries: its tree where the
// transformer made one (pt.Subquery.Tree, sql.QueryToTree), else its query
// transformed now (bindQueryNode: a subquery of an ORDER BY or LIMIT
// outside a parenthesised query, of a stored expression, a query a
// statement-level file parsed itself); this is
// the one place an expression's subquery hands it over (subquery.go's
// bindSubqueryPlan).
func (b *binder) bindSubqueryQuery(q any) (Node, error) {
	for {
		x, ok := q.(*pt.Subquery)
		if !ok {
			break
		}
		if x.Tree != nil {
			return b.bindQueryTree(x.Tree)
		}
		q = x.Query
	}
	n, ok, err := b.bindQueryNode(q)
	if !ok {
		return nil, sqlerr.NotSupported("this kind of subquery")
	}
	return n, err
}

// bindQueryTree binds a query of sqlgate's tree: a SELECT (select.go),
// VALUES (values.go), a set operation, its own WITH included (setop.go),
// or a parenthesised query with clauses after it (bindParenQuery).
func (b *binder) bindQueryTree(q pt.Query) (Node, error) {
	switch x := q.(type) {
	case *pt.Select:
		return b.bindSelectTree(x)
	case *pt.Values:
		return b.bindValuesTree(x)
	case *pt.SetOp:
		return b.bindSetOpTree(x) // setop.go, its WITH included
	case *pt.ParenQuery:
		return b.bindParenQuery(x)
	}
	return nil, sqlerr.NotSupported("this kind of query")
}

// transformError positions a transformer's refusal at the node it refused
// (the one place that does): its offset, or where TiDB recorded none the
// node's name found in the text, as errAt finds a table's.
func (b *binder) transformError(err error) error {
	var te *sql.TransformError
	if !errors.As(err, &te) {
		return err
	}
	off, name, ok := te.At()
	if !ok || b.stmt == nil {
		return te.Err
	}
	if off == 0 && name != "" {
		off = identOffset(b.stmt.Rewritten, name)
	}
	return te.Err.WithPosition(b.stmt.Position(off))
}

// bindBridged binds the tree nodes whose binders live apart (rows.go's
// ROW constructor, fields.go's field selection, groupingsets.go's
// GROUPING(..) and misplaced grouping constructs), and refuses the rest.
func (b *binder) bindBridged(s *scope, e pt.Expr) (Expr, error) {
	switch n := e.(type) {
	case *pt.Row:
		return b.bindRowConstructor(s, n, n.Fields) // rows.go
	case *pt.FieldSelect:
		return b.bindFieldSelectTree(s, n) // fields.go
	case *pt.GroupingSet:
		return nil, b.misplacedGroupingConstruct(s, n, groupingMarker(n.Kind), n.Items) // groupingsets.go
	case *pt.FuncCall:
		switch {
		case n.Name == "grouping":
			return b.bindGrouping(n) // groupingsets.go
		case isGroupingConstruct(n.Name):
			return nil, b.misplacedGroupingConstruct(s, n, n.Name, n.Args)
		case n.Name == "pg__field":
			return b.bindFieldSelectCall(s, n)
		}
	}
	return nil, b.errAt(e, sqlerr.New(sqlerr.FeatureNotSupported, "expression %s is not supported", sql.NodeKind(e))) // named by the transformer
}

// bindFieldSelectCall binds a pg__field marker call the transformer left
// a call (a function in FROM named so, whose call the binder builds; any
// other is malformed): pg__field(e, 'name') is the tree's field selection
// (fields.go's bindFieldSelectTree), as the transformer reads it.
func (b *binder) bindFieldSelectCall(s *scope, n *pt.FuncCall) (Expr, error) {
	if len(n.Args) == 2 {
		if lit, ok := n.Args[1].(*pt.Literal); ok && lit.Kind == pt.LitString {
			return b.bindFieldSelectTree(s, &pt.FieldSelect{At: n.At, X: n.Args[0], Field: lit.Text})
		}
	}
	return nil, b.errAt(n, sqlerr.New(sqlerr.SyntaxError, "malformed field selection"))
}

// relabelAliases is from.go's relabelNames.
func relabelAliases(n Node, alias string, colNames []string) (Node, error) {
	return relabelNames(n, alias, colNames)
}

// srfState collects the set-returning calls of the SELECT list being
// bound (srf.go); nil where such calls are not allowed. bind is
// select.go's binding function of the list's expressions (the aggregate's
// rebasing included).
type srfState struct {
	calls  []SetCall
	names  []string
	bind   func(pt.Expr) (Expr, error)
	inCall bool
	// refuse, when set, is the clause where a set-returning call is an
	// error (srf.go's refuseSetCalls)
	refuse string
	// grouped are the set-returning calls GROUP BY evaluates below the
	// aggregation, which a call of the select list may be (srf.go)
	grouped *groupedSetCalls
}

// bindTree binds a set-returning call's argument with bind.
func (st *srfState) bindTree(e pt.Expr) (Expr, error) { return st.bind(e) }

// exprText is a stored (or clause) expression as parseExprText reads it:
// the statement it was parsed as (for positions), its tree, and whether
// it is written as a binary operator (PostgreSQL's deparser brackets one:
// coldefs.go's DEFAULT display).
type exprText struct {
	st       *sql.Statement
	tree     pt.Expr
	operator bool
}

// parseExprText parses a stored (or clause) expression
// (sql.ParseExprText).
func parseExprText(text string) (exprText, error) {
	x, err := sql.ParseExprText(text)
	if err != nil {
		return exprText{}, err
	}
	return exprText{st: x.Statement, tree: x.Tree, operator: x.Operator}, nil
}

// bindStatement binds the statements that Bind does not dispatch
// among the DDL (bindStatementTree): a query, a write, EXPLAIN, TRUNCATE,
// DESCRIBE, all of them in sqlgate's tree (sql.Transformer.BindStatement);
// ok is false for another statement.
func (b *binder) bindStatement(st pt.Statement) (Statement, bool, error) {
	switch node := st.(type) {
	case pt.Query:
		plan, err := b.bindQueryTree(node)
		if err == nil {
			err = refuseRecordOutput(plan) // searchcycle.go
		}
		if err != nil {
			return nil, true, err
		}
		return &Query{Plan: b.finishParams(plan), params: b.params}, true, nil
	case *pt.Insert:
		out, err := b.bindInsertTree(node)
		return out, true, err
	case *pt.Update:
		out, err := b.bindUpdateTree(node)
		return out, true, err
	case *pt.Delete:
		out, err := b.bindDeleteTree(node)
		return out, true, err
	case *pt.Merge:
		out, err := b.bindMergeTree(node) // merge.go
		return out, true, err
	case *pt.Explain:
		out, err := b.bindExplain(node)
		return out, true, err
	case *pt.Describe:
		out, err := b.bindDescribe(node)
		return out, true, err
	}
	return nil, false, nil
}

// bindDescribe binds DESCRIBE t: a view's columns, else the table's.
func (b *binder) bindDescribe(d *pt.Describe) (Statement, error) {
	if out, ok, err := b.describeView(b.treePath(d.Table)); ok {
		return out, err
	}
	info, err := b.cat.GetTable(b.ctx, b.treePath(d.Table))
	if err != nil {
		if se := sqlerr.As(err); se != nil {
			return nil, b.errAt(d.Table, se)
		}
		return nil, err
	}
	return &Describe{Table: info}, nil
}

// bindExplain binds EXPLAIN [ANALYZE] [(FORMAT JSON)] of a query or a
// write.
func (b *binder) bindExplain(node *pt.Explain) (Statement, error) {
	var plan Node
	var dml Statement // EXPLAIN of INSERT, UPDATE or DELETE
	var err error
	switch inner := node.Stmt.(type) {
	case pt.Query:
		plan, err = b.bindQueryTree(inner)
	case *pt.Insert:
		dml, err = b.bindInsertTree(inner)
	case *pt.Update:
		dml, err = b.bindUpdateTree(inner)
	case *pt.Delete:
		dml, err = b.bindDeleteTree(inner)
	case *pt.Merge:
		dml, err = b.bindMergeTree(inner)
	default:
		return nil, sqlerr.NotSupported("EXPLAIN of this statement")
	}
	if err != nil {
		return nil, err
	}
	format := "text"
	analyze := node.Analyze
	if b.stmt != nil {
		if f, ok := b.stmt.ExplainOptions["format"]; ok {
			format = strings.ToLower(f)
		}
		if v, ok := b.stmt.ExplainOptions["analyze"]; ok {
			analyze = v == "true" || v == "on" || v == "1"
		}
	}
	if format != "text" && format != "json" {
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "EXPLAIN format %q is not supported (text and json are)", format)
	}
	level, err := b.explainMetrics(analyze) // explainmetrics.go
	if err != nil {
		return nil, err
	}
	if dml != nil {
		return &Explain{Statement: dml, Analyze: analyze, Format: format, Metrics: level}, nil
	}
	return &Explain{Statement: &Query{Plan: b.finishParams(plan), params: b.params}, Analyze: analyze, Format: format, Metrics: level}, nil
}

// bindDerivedQuery binds a derived table's query (its tree) with s as
// the enclosing scope (nil: none).
func (b *binder) bindDerivedQuery(s *scope, d *pt.DerivedTable) (Node, []Expr, error) {
	if d.Query == nil {
		return nil, nil, sqlerr.NotSupported("this FROM item")
	}
	return b.bindSubqueryPlan(s, &pt.Subquery{At: d.At, Tree: d.Query})
}

// bindQueryNode binds a query the binder holds as the parser left it (a
// view's definition, CREATE TABLE AS's or CREATE VIEW's query),
// transformed into the tree (sql.Transformer.BindQuery); ok is false for
// another kind of node.
func (b *binder) bindQueryNode(q any) (Node, bool, error) {
	t, ok, err := b.trees.BindQuery(q, b.stmt)
	if !ok {
		return nil, false, nil
	}
	if err != nil {
		return nil, true, b.transformError(err)
	}
	n, err := b.bindQueryTree(t)
	return n, true, err
}

// bindParenQuery binds one parenthesised query with clauses after it as
// the binder always has (pt.ParenQuery): its WITH, then the query, ordered
// by its output columns and limited; a second ORDER BY or LIMIT inside
// refused (the tree would give it to the query itself, which PostgreSQL
// does but this binder never has).
func (b *binder) bindParenQuery(p *pt.ParenQuery) (Node, error) {
	if p.With != nil {
		saved := b.ctes
		defer func() { b.ctes = saved }()
		var owner pt.Node // the references are counted over the operand
		if p.Query != nil {
			owner = p.Query
		}
		if err := b.bindWith(p.With, owner); err != nil { // cte.go
			return nil, err
		}
	}
	if p.Refused != nil {
		return nil, b.transformError(p.Refused)
	}
	n, err := b.bindSetOpBody(p.Query)
	if err != nil {
		return nil, err
	}
	if p.HasOrder {
		if p.OrderRefused != nil {
			return nil, b.transformError(p.OrderRefused)
		}
		if n, err = b.bindSetOpOrder(n, p.OrderBy); err != nil {
			return nil, err
		}
	}
	if p.HasLimit {
		if p.LimitRefused != nil {
			return nil, b.transformError(p.LimitRefused)
		}
		return b.bindLimitClauses(n, &p.QueryClauses, nil) // order.go
	}
	return n, nil
}
