package binder

import (
	"errors"
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// The binder's edge with TiDB's AST (issue 32): the only binder file that
// imports it. What is left here: Bind's dispatch on the TiDB statement
// types not in the tree yet (a set operation, EXPLAIN, TRUNCATE,
// DESCRIBE; the writes transform here), the TiDB queries other files
// still hold (a view's or CREATE TABLE AS's query, a subquery ToTree left
// TiDB's, a parenthesised one-operand set operation), the rewrite's marker
// calls whose binders read TiDB's call (functions in FROM, pg__field,
// ROW keys of hypothetical-set aggregates), stored expressions parsed
// from their text (parseExprText), and the TiDB nodes an error position
// may be found from. Each piece goes when its caller moves onto the tree.

// toTree transforms node into sql/tree, a refusal positioned at the node
// refused.
func (b *binder) toTree(node ast.ExprNode) (pt.Expr, error) {
	t, err := b.trees.ToTree(node)
	if err != nil {
		return nil, b.transformError(err)
	}
	return t, nil
}

// bindSubqueryQuery binds the query a subquery carries: its tree where the
// transformer made one (pt.Subquery.Tree, sql.QueryToTree), else TiDB's
// statement, transformed here (the statement-level files that still read
// TiDB's AST hand theirs over); this is the one place an expression's
// subquery hands it over (subquery.go's bindSubqueryPlan).
func (b *binder) bindSubqueryQuery(q any) (Node, error) {
	switch x := q.(type) {
	case *pt.Subquery:
		if x.Tree != nil {
			return b.bindQueryTree(x.Tree, x.Query)
		}
		return b.bindSubqueryQuery(x.Query)
	case *ast.SelectStmt:
		return b.bindSelect(x)
	case *ast.SetOprStmt:
		return b.bindSetOpr(x)
	}
	return nil, sqlerr.NotSupported("this kind of subquery")
}

// bindQueryTree binds a query of sqlgate's tree: a SELECT (select.go),
// VALUES (values.go) or a set operation, its own WITH included (setop.go);
// src, the TiDB query the tree was made from, binds only where the tree
// holds no query.
func (b *binder) bindQueryTree(q pt.Query, src any) (Node, error) {
	switch x := q.(type) {
	case *pt.Select:
		return b.bindSelectTree(x)
	case *pt.Values:
		return b.bindValuesTree(x)
	case *pt.SetOp:
		return b.bindSetOpTree(x) // setop.go, its WITH included
	}
	switch x := src.(type) {
	case *ast.SetOprStmt:
		return b.bindSetOpr(x)
	case *ast.SelectStmt:
		return b.bindSelect(x)
	}
	return nil, sqlerr.NotSupported("this kind of query")
}

// bindSelect binds a SELECT of TiDB's AST (a set operation's branch, a
// WITH query's body, a view's definition): transformed into the tree
// (sql.Transformer.QueryToTree, its subqueries and derived tables
// included), then bound from there (select.go, values.go).
func (b *binder) bindSelect(sel *ast.SelectStmt) (Node, error) {
	q, err := b.trees.QueryToTree(sel, b.stmt)
	if err != nil {
		return nil, b.queryTransformError(err)
	}
	return b.bindQueryTree(q, sel)
}

// queryTransformError positions a refusal of QueryToTree at the node
// refused, except one about a whole SELECT (SELECT INTO, a locking clause
// PostgreSQL lacks, another kind of SELECT), which the binder has always
// reported without a position.
func (b *binder) queryTransformError(err error) error {
	var te *sql.TransformError
	if errors.As(err, &te) {
		switch te.Node.(type) {
		case *ast.SelectStmt, *ast.SetOprStmt:
			return te.Err
		}
	}
	return b.transformError(err)
}

// transformError positions a transformer's error at the TiDB node it
// refused (the one place that does).
func (b *binder) transformError(err error) error {
	var te *sql.TransformError
	if errors.As(err, &te) {
		return b.errAt(te.Node, te.Err)
	}
	return err
}

// bindBridged binds the tree nodes whose binders live in files that still
// read TiDB's AST (rows.go's ROW constructor, fields.go's field
// selection, groupingsets.go's GROUPING(..) and misplaced grouping
// constructs) from the TiDB node the tree node was made from (At.Src). The bridge goes when those files move
// onto the tree (issue 32).
func (b *binder) bindBridged(s *scope, e pt.Expr) (Expr, error) {
	switch n := e.(type) {
	case *pt.Row:
		return b.bindRowConstructor(s, n, n.Fields) // rows.go
	case *pt.GroupingSet:
		return nil, b.misplacedGroupingConstruct(s, n, groupingMarker(n.Kind), n.Items) // groupingsets.go
	case *pt.FuncCall:
		switch {
		case n.Name == "grouping":
			return b.bindGrouping(n) // groupingsets.go
		case isGroupingConstruct(n.Name):
			return nil, b.misplacedGroupingConstruct(s, n, n.Name, n.Args)
		}
	}
	switch n := e.(interface{ Source() any }).Source().(type) {
	case *ast.FuncCallExpr:
		if n.FnName.L == "pg__field" {
			e, _, err := b.bindFieldSelect(s, n)
			return e, err
		}
	}
	return nil, b.errAt(e, sqlerr.New(sqlerr.FeatureNotSupported, "expression %s is not supported", treeKind(e)))
}

// treeKind names a tree node's kind in a 0A000 as the TiDB node it was
// made from is named (the message the binder has always given).
func treeKind(e pt.Expr) string {
	if src := e.(interface{ Source() any }).Source(); src != nil {
		return strings.TrimPrefix(fmt.Sprintf("%T", src), "*ast.")
	}
	return strings.TrimPrefix(fmt.Sprintf("%T", e), "*tree.")
}

// bindTableFunc binds the table function marker of a FROM item (from.go
// and lateral.go find it in TiDB's derived table, setFuncMarker) under
// alias, from its tree (srf.go's bindTableFuncCall).
func (b *binder) bindTableFunc(f *ast.FuncCallExpr, alias string) (Node, error) {
	t, err := b.toTree(f)
	if err != nil {
		return nil, err
	}
	call, ok := t.(*pt.FuncCall)
	if !ok || call.Name != "pg__srf" || len(call.Args) < 4 {
		return nil, b.errAt(f, sqlerr.New(sqlerr.InternalError, "malformed function in FROM"))
	}
	return b.bindTableFuncCall(call, alias)
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
}

// bindTree binds a set-returning call's argument with bind.
func (st *srfState) bindTree(e pt.Expr) (Expr, error) { return st.bind(e) }

// scalarCallSource is the TiDB call f(args) that a function in FROM used
// as a one-row table stands for (srf.go's bindScalarFromItem builds its
// tree): the source of the tree's call, for the calls bound through
// bindBridged.
func scalarCallSource(marker *pt.FuncCall, name string) any {
	m, ok := marker.Source().(*ast.FuncCallExpr)
	if !ok || len(m.Args) < 4 {
		return nil
	}
	call := &ast.FuncCallExpr{FnName: ast.NewCIStr(name), Args: m.Args[4:]}
	call.SetOriginTextPosition(m.OriginTextPosition())
	return call
}

// exprText is a stored (or clause) expression as parseExprText reads it:
// the statement it was parsed as (for positions), its tree, and whether
// it is written as a binary operator (PostgreSQL's deparser brackets one:
// coldefs.go's DEFAULT display).
type exprText struct {
	st       *sql.Statement
	tree     pt.Expr
	operator bool
}

// parseExprText parses a stored (or clause) expression as the select list
// of "SELECT <text>", refusing anything but one expression, and
// transforms it into sql/tree.
func parseExprText(text string) (exprText, error) {
	sts, err := sql.NewParser().Parse("SELECT " + text)
	if err != nil {
		return exprText{}, err
	}
	if len(sts) != 1 {
		return exprText{}, sqlerr.New(sqlerr.SyntaxError, "syntax error in expression %q", text)
	}
	sel, ok := sts[0].AST.(*ast.SelectStmt)
	if !ok || sel.From != nil || sel.Where != nil || sel.GroupBy != nil || sel.Having != nil || sel.OrderBy != nil || sel.Limit != nil ||
		sel.Fields == nil || len(sel.Fields.Fields) != 1 || sel.Fields.Fields[0].Expr == nil || sel.Fields.Fields[0].AsName.O != "" {
		return exprText{}, sqlerr.New(sqlerr.SyntaxError, "syntax error in expression %q", text)
	}
	node := sel.Fields.Fields[0].Expr
	t, err := sql.ToTree(node)
	if err != nil {
		// the refusal of a stored expression has no position in the
		// statement the client sent
		var te *sql.TransformError
		if errors.As(err, &te) {
			return exprText{}, te.Err
		}
		return exprText{}, err
	}
	_, operator := node.(*ast.BinaryOperationExpr)
	return exprText{st: sts[0], tree: t, operator: operator}, nil
}

// rowSource is the TiDB ROW(keys..) a ROW the binder builds on the tree
// stands for (orderedset.go's hypothetical dense_rank): rows.go binds a
// ROW from its TiDB node (bindBridged) until it moves onto the tree.
func rowSource(fields []pt.Expr) any {
	values := make([]ast.ExprNode, len(fields))
	for i, f := range fields {
		src, ok := f.(interface{ Source() any }).Source().(ast.ExprNode)
		if lit, isLit := f.(*pt.Literal); !ok && isLit && lit.Kind == pt.LitInt {
			// WITHIN GROUP's integer key, a constant (sortKeyOf)
			src, ok = ast.NewValueExpr(lit.Int, "", ""), true
		}
		if !ok {
			return nil
		}
		values[i] = src
	}
	return &ast.RowExpr{Values: values}
}

// The statement dispatch's edge (binder.go's Bind): a SELECT or VALUES
// statement transforms once into the tree (queryTree) and binds from it;
// the statements not in the tree yet dispatch on TiDB's types here.

// queryTree transforms a SELECT or VALUES statement (ok false for any
// other: a set operation binds through setop.go, which transforms its
// own).
func (b *binder) queryTree(node any) (pt.Query, bool, error) {
	sel, ok := node.(*ast.SelectStmt)
	if !ok {
		return nil, false, nil
	}
	q, err := b.trees.QueryToTree(sel, b.stmt)
	if err != nil {
		return nil, true, b.queryTransformError(err)
	}
	return q, true, nil
}

// bindStatementAST binds the statements that Bind still dispatches on
// TiDB's statement types.
func (b *binder) bindStatementAST(stmt *sql.Statement) (Statement, error) {
	switch node := stmt.AST.(type) {
	case *ast.SetOprStmt:
		plan, err := b.bindSetOpr(node)
		if err == nil {
			err = refuseRecordOutput(plan)
		}
		if err != nil {
			return nil, err
		}
		return &Query{Plan: b.finishParams(plan), params: b.params}, nil
	case *ast.InsertStmt:
		return b.bindInsert(node)
	case *ast.UpdateStmt:
		return b.bindUpdate(node)
	case *ast.DeleteStmt:
		return b.bindDelete(node)
	case *ast.ExplainStmt:
		return b.bindExplain(node)
	case *ast.TruncateTableStmt:
		info, err := b.cat.GetTable(b.ctx, b.tablePath(node.Table))
		if err != nil {
			if se := sqlerr.As(err); se != nil {
				return nil, b.errAt(node.Table, se)
			}
			return nil, err
		}
		return &Truncate{Table: info}, nil
	case nil:
		return nil, sqlerr.New(sqlerr.InternalError, "statement has no syntax tree")
	}
	return nil, sqlerr.New(sqlerr.FeatureNotSupported, "statement %q is not supported", firstWords(stmt.Text))
}

// astIdentName is the name of a TiDB table or column name node, which
// records no text offset (errAt finds the name in the text instead).
func astIdentName(node sourceNode) (string, bool) {
	switch x := node.(type) {
	case *ast.TableName:
		return x.Name.O, true
	case *ast.ColumnName:
		return x.Name.O, true
	}
	return "", false
}

// astRightOperandOffset is rightOperandOffset for TiDB's two-operand
// expressions (binder.go's errAtOperator).
func astRightOperandOffset(n sourceNode) int {
	switch x := n.(type) {
	case *ast.BinaryOperationExpr:
		return x.R.OriginTextPosition()
	case *ast.FuncCallExpr: // a || b, rewritten to concat(a, b)
		if len(x.Args) == 2 {
			return x.Args[1].OriginTextPosition()
		}
	}
	return 0
}

// ident is the one place that decides how an identifier is folded.
// PostgreSQL folds unquoted identifiers to lower case and keeps quoted ones;
// the sql/ rewrite already lower-cased the unquoted ones, so the name as
// written in the rewritten text (CIStr.O) is PostgreSQL's name.
func ident(s ast.CIStr) string { return s.O }

// tablePath is schemas.go's treePath for a name of TiDB's AST (FROM,
// TRUNCATE, DESCRIBE, a view reference), here at the AST's edge so that
// schemas.go reads only the tree.
func (b *binder) tablePath(tn *ast.TableName) fluss.TablePath {
	p, _ := b.resolvePath(ident(tn.Schema), ident(tn.Name), false)
	return p
}

// bindExplain binds EXPLAIN [ANALYZE] [(FORMAT JSON)] of a query, and
// DESCRIBE t, which TiDB parses as EXPLAIN of SHOW COLUMNS.
func (b *binder) bindExplain(node *ast.ExplainStmt) (Statement, error) {
	if show, ok := node.Stmt.(*ast.ShowStmt); ok && show.Tp == ast.ShowColumns && show.Table != nil {
		if d, ok, err := b.describeView(b.tablePath(show.Table)); ok {
			return d, err
		}
		info, err := b.cat.GetTable(b.ctx, b.tablePath(show.Table))
		if err != nil {
			if se := sqlerr.As(err); se != nil {
				return nil, b.errAt(show.Table, se)
			}
			return nil, err
		}
		return &Describe{Table: info}, nil
	}
	var plan Node
	var dml Statement // EXPLAIN of INSERT, UPDATE or DELETE
	var err error
	switch inner := node.Stmt.(type) {
	case *ast.SelectStmt:
		plan, err = b.bindSelect(inner)
	case *ast.SetOprStmt:
		plan, err = b.bindSetOpr(inner)
	case *ast.InsertStmt:
		dml, err = b.bindInsert(inner)
	case *ast.UpdateStmt:
		dml, err = b.bindUpdate(inner)
	case *ast.DeleteStmt:
		dml, err = b.bindDelete(inner)
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

// The bridges between the binder's files that have moved onto sqlgate's
// tree and those still on TiDB's AST (issue 32): FROM binds from the tree
// (from.go, lateral.go), the queries inside it and the functions in it
// from the TiDB nodes the tree's nodes were made from. They go as the
// queries move.

// bindDerivedQuery binds a derived table's query (its tree) with s as
// the enclosing scope (nil: none).
func (b *binder) bindDerivedQuery(s *scope, d *pt.DerivedTable) (Node, []Expr, error) {
	if d.Query == nil {
		return nil, nil, sqlerr.NotSupported("this FROM item")
	}
	return b.bindSubqueryPlan(s, &pt.Subquery{At: d.At, Tree: d.Query})
}

// bindFuncTable binds a function in FROM from the rewrite's marker call
// its Call was made from (srf.go).
func (b *binder) bindFuncTable(ft *pt.FuncTable) (Node, error) {
	f, ok := ft.Call.Src.(*ast.FuncCallExpr)
	if !ok {
		return nil, sqlerr.NotSupported("this function in FROM")
	}
	return b.bindTableFunc(f, ft.Alias.Name)
}

// bindQueryNode binds a query of TiDB's AST (a view's definition, CREATE
// TABLE AS's query); ok is false for another kind of node.
func (b *binder) bindQueryNode(q any) (Node, bool, error) {
	var n Node
	var err error
	switch x := q.(type) {
	case *ast.SelectStmt:
		n, err = b.bindSelect(x)
	case *ast.SetOprStmt:
		n, err = b.bindSetOpr(x)
	default:
		return nil, false, nil
	}
	return n, true, err
}

// bindFieldSelect binds pg__field(e, 'name') of TiDB's AST through the
// tree (fields.go's bindFieldSelectTree); ok is false for other calls.
func (b *binder) bindFieldSelect(s *scope, n *ast.FuncCallExpr) (Expr, bool, error) {
	if n.FnName.L != "pg__field" {
		return nil, false, nil
	}
	if len(n.Args) != 2 {
		return nil, true, b.errAt(n, sqlerr.New(sqlerr.SyntaxError, "malformed field selection"))
	}
	t, err := b.toTree(n)
	if err != nil {
		return nil, true, err
	}
	fs, ok := t.(*pt.FieldSelect)
	if !ok {
		return nil, true, b.errAt(n, sqlerr.New(sqlerr.SyntaxError, "malformed field selection"))
	}
	e, err := b.bindFieldSelectTree(s, fs)
	return e, true, err
}

// bindSetOpr binds a set operation of TiDB's AST (a statement, a view's
// definition, EXPLAIN's query): a chain of two or more queries transforms
// into the tree whole (its WITH, ORDER BY and LIMIT included) and binds
// from there (setop.go). One parenthesised query, which TiDB makes a set
// operation of one operand, binds as it always has: ordered by its output
// columns, a second ORDER BY or LIMIT inside refused (the tree would give
// it to the query itself, which PostgreSQL does but this binder never has).
func (b *binder) bindSetOpr(st *ast.SetOprStmt) (Node, error) {
	if st.SelectList != nil && len(st.SelectList.Selects) > 1 && st.SelectList.OrderBy == nil && st.SelectList.Limit == nil {
		q, err := b.trees.QueryToTree(st, b.stmt)
		if err != nil {
			return nil, b.transformError(err)
		}
		return b.bindQueryTree(q, st)
	}
	var q pt.Query
	var qerr error
	if st.SelectList != nil {
		q, qerr = b.trees.QueryToTree(st.SelectList, b.stmt)
	}
	if st.With != nil {
		w, err := b.trees.WithToTree(st.With, b.stmt)
		if err != nil {
			return nil, b.transformError(err)
		}
		saved := b.ctes
		defer func() { b.ctes = saved }()
		var owner pt.Node // the references are counted over the operand
		if q != nil {
			owner = q
		}
		if err := b.bindWith(w, owner); err != nil { // cte.go
			return nil, err
		}
	}
	if st.SelectList == nil {
		return nil, sqlerr.NotSupported("an empty set operation")
	}
	if st.SelectList.OrderBy != nil || st.SelectList.Limit != nil {
		return nil, sqlerr.NotSupported("ORDER BY or LIMIT inside a parenthesised set operation")
	}
	if qerr != nil {
		return nil, b.transformError(qerr)
	}
	n, err := b.bindSetOpBody(q)
	if err != nil {
		return nil, err
	}
	if st.OrderBy != nil {
		order, err := b.trees.OrderItemsToTree(st.OrderBy)
		if err != nil {
			return nil, b.transformError(err)
		}
		if n, err = b.bindSetOpOrder(n, order); err != nil {
			return nil, err
		}
	}
	if st.Limit != nil {
		count, err := b.trees.ToTree(st.Limit.Count)
		if err != nil {
			return nil, b.transformError(err)
		}
		offset, err := b.trees.ToTree(st.Limit.Offset)
		if err != nil {
			return nil, b.transformError(err)
		}
		return b.bindLimitTree(n, count, offset) // order.go
	}
	return n, nil
}

// rowsFnSource is the TiDB call f(args) a function of ROWS FROM stands for
// (its pg__rowsfn marker without the name and definitions), where the
// marker stands: here, the binder's one edge with TiDB's nodes, for the
// scalar-call bridge.
func rowsFnSource(c *pt.FuncCall) any {
	m, ok := c.Source().(*ast.FuncCallExpr)
	if !ok || len(m.Args) < 2 {
		return nil
	}
	call := &ast.FuncCallExpr{FnName: ast.NewCIStr(treeString(c.Args[0])), Args: m.Args[2:]}
	call.SetOriginTextPosition(m.OriginTextPosition())
	return call
}
