package sql

import (
	"errors"

	"github.com/pingcap/tidb/pkg/parser/ast"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// The binder's entry into the tree (issue 32): every statement, query and
// stored expression the binder binds is transformed here, once, so that
// the binder switches on sql/tree's node types only and names none of
// TiDB's.

// BindStatement transforms the statement the binder binds (st.AST) into
// sqlgate's tree: the statements StatementTree moves, a query (BindQuery),
// an INSERT, UPDATE or DELETE (DMLToTree), EXPLAIN (pt.Explain) and
// DESCRIBE (pt.Describe, which TiDB parses as EXPLAIN of SHOW COLUMNS).
// TRUNCATE never comes here: ddlstmts.go parses it (Statement.DDL). Any other statement, and none, is a nil tree without an
// error: the binder refuses it by its text.
func (t *Transformer) BindStatement(st *Statement) (pt.Statement, error) {
	if s, ok, err := t.mergeStatement(st); ok { // merge.go
		return s, err
	}
	if s, ok := t.StatementTree(st.AST); ok {
		return s, nil
	}
	switch n := st.AST.(type) {
	case *ast.SelectStmt, *ast.SetOprStmt:
		return t.bindQueryStatement(n, st)
	case *ast.InsertStmt, *ast.UpdateStmt, *ast.DeleteStmt:
		return t.DMLToTree(st, n)
	case *ast.ExplainStmt:
		return t.explain(n, st)
	}
	return nil, nil
}

// bindQueryStatement is BindQuery as a statement (nil, not a nil Query in
// a Statement, where it makes none).
func (t *Transformer) bindQueryStatement(n ast.Node, st *Statement) (pt.Statement, error) {
	q, _, err := t.BindQuery(n, st)
	if err != nil || q == nil {
		return nil, err
	}
	return q, nil
}

// explain transforms EXPLAIN [ANALYZE] of a query or a write; DESCRIBE t
// is TiDB's EXPLAIN of SHOW COLUMNS.
func (t *Transformer) explain(n *ast.ExplainStmt, st *Statement) (pt.Statement, error) {
	if show, ok := n.Stmt.(*ast.ShowStmt); ok && show.Tp == ast.ShowColumns && show.Table != nil {
		return &pt.Describe{At: at(n), Table: tableName(show.Table)}, nil
	}
	e := &pt.Explain{At: at(n), Analyze: n.Analyze}
	switch inner := n.Stmt.(type) {
	case *ast.SelectStmt, *ast.SetOprStmt:
		q, _, err := t.BindQuery(inner, st)
		if err != nil {
			return nil, err
		}
		e.Stmt = q
	case *ast.InsertStmt, *ast.UpdateStmt, *ast.DeleteStmt:
		w, err := t.DMLToTree(st, inner)
		if err != nil {
			return nil, err
		}
		e.Stmt = w
	}
	return e, nil
}

// BindQuery transforms a query the binder holds as TiDB's (a statement's,
// a view's definition, CREATE TABLE AS's or CREATE VIEW's query, a
// subquery's the transformer left TiDB's): ok is false for anything but a
// SELECT or a set operation. A SELECT's refusal of itself as a whole
// (SELECT INTO, a locking clause PostgreSQL lacks) has no position, as
// the binder has always reported it; a set operation's refusals are
// positioned. A set operation that is one parenthesised query with
// clauses after it (or whose parenthesised list has clauses of its own)
// is a pt.ParenQuery (parenQuery).
func (t *Transformer) BindQuery(q any, st *Statement) (pt.Query, bool, error) {
	switch n := q.(type) {
	case *ast.SelectStmt:
		out, err := t.QueryToTree(n, st)
		if err != nil {
			return nil, true, unpositionedQueryRefusal(err)
		}
		return out, true, nil
	case *ast.SetOprStmt:
		l := n.SelectList
		if l != nil && len(l.Selects) > 1 && l.OrderBy == nil && l.Limit == nil {
			out, err := t.QueryToTree(n, st)
			if err != nil {
				return nil, true, err
			}
			return out, true, nil
		}
		out, err := t.parenQuery(n, st)
		return out, true, err
	}
	return nil, false, nil
}

// unpositionedQueryRefusal drops the position of a refusal about a whole
// SELECT or set operation (its Err alone).
func unpositionedQueryRefusal(err error) error {
	var te *TransformError
	if errors.As(err, &te) && te.query {
		return te.Err
	}
	return err
}

// parenQuery transforms a set operation TiDB makes of one parenthesised
// query, or of a parenthesised list with its own ORDER BY or LIMIT: its
// WITH, the query (its refusal kept for the binder to report after the
// WITH binds) and the ORDER BY and LIMIT outside the parentheses (their
// refusals kept likewise). Their subqueries stay TiDB's (pt.Subquery.Tree
// nil), transformed where the binder meets them.
func (t *Transformer) parenQuery(n *ast.SetOprStmt, st *Statement) (pt.Query, error) {
	p := &pt.ParenQuery{At: at(n)}
	var q pt.Query
	var qerr error
	if n.SelectList != nil {
		q, qerr = t.QueryToTree(n.SelectList, st)
	}
	if n.With != nil {
		w, err := t.WithToTree(n.With, st)
		if err != nil {
			return nil, err
		}
		p.With = w
	}
	switch {
	case n.SelectList == nil:
		p.Refused = sqlerr.NotSupported("an empty set operation")
	case n.SelectList.OrderBy != nil || n.SelectList.Limit != nil:
		p.Refused = sqlerr.NotSupported("ORDER BY or LIMIT inside a parenthesised set operation")
	case qerr != nil:
		p.Refused = qerr
	default:
		p.Query = q
	}
	orderBy, marker := splitLimitMarker(n.OrderBy) // limit.go
	if orderBy != nil {
		order, err := t.OrderItemsToTree(orderBy)
		p.HasOrder, p.OrderBy, p.OrderRefused = true, order, err
	}
	if marker != nil {
		p.HasLimit = true
		if err := t.limitMarkerToTree(&p.QueryClauses, marker); err != nil {
			p.LimitRefused = err
		}
	}
	if n.Limit != nil {
		p.HasLimit, p.LimitAt = true, n.Limit.OriginTextPosition()
		var err error
		if p.Limit, err = t.ToTree(n.Limit.Count); err == nil {
			p.QueryClauses.Offset, err = t.ToTree(n.Limit.Offset)
		}
		if err != nil {
			p.LimitRefused = err
		}
	}
	return p, nil
}

// ExprText is a stored (or clause) expression read by ParseExprText.
type ExprText struct {
	// Statement is "SELECT <text>" as parsed (for positions)
	Statement *Statement
	Tree      pt.Expr
	// Operator: the expression is written as a binary operator (which
	// PostgreSQL's deparser brackets)
	Operator bool
}

// ParseExprText parses a stored (or clause) expression as the select list
// of "SELECT <text>", refusing anything but one expression, and
// transforms it into sql/tree. A refusal of the transformer has no
// position: it is not in the statement the client sent.
func ParseExprText(text string) (ExprText, error) {
	sts, err := NewParser().Parse("SELECT " + text)
	if err != nil {
		return ExprText{}, err
	}
	if len(sts) != 1 {
		return ExprText{}, sqlerr.New(sqlerr.SyntaxError, "syntax error in expression %q", text)
	}
	sel, ok := sts[0].AST.(*ast.SelectStmt)
	if !ok || sel.From != nil || sel.Where != nil || sel.GroupBy != nil || sel.Having != nil || sel.OrderBy != nil || sel.Limit != nil ||
		sel.Fields == nil || len(sel.Fields.Fields) != 1 || sel.Fields.Fields[0].Expr == nil || sel.Fields.Fields[0].AsName.O != "" {
		return ExprText{}, sqlerr.New(sqlerr.SyntaxError, "syntax error in expression %q", text)
	}
	node := sel.Fields.Fields[0].Expr
	tree, err := ToTree(node)
	if err != nil {
		var te *TransformError
		if errors.As(err, &te) {
			return ExprText{}, te.Err
		}
		return ExprText{}, err
	}
	_, operator := node.(*ast.BinaryOperationExpr)
	return ExprText{Statement: sts[0], Tree: tree, Operator: operator}, nil
}
