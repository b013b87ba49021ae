package binder

import (
	"context"
	"errors"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Catalog is what the binder needs to know about tables.
type Catalog interface {
	// GetTable returns a table's info or a 42P01 error.
	GetTable(ctx context.Context, path fluss.TablePath) (fluss.TableInfo, error)
}

// binder holds the state of binding one statement.
type binder struct {
	ctx    context.Context
	cat    Catalog
	stmt   *sql.Statement
	params []types.T
	// setOpBranch is set while the SELECT about to be bound is a branch of
	// a set operation, whose unknown literals stay unknown for the set
	// operation to type (select.go, setop.go).
	setOpBranch bool
	// keepUnknownOutputs is set while INSERT's SELECT is about to be
	// bound: its unknown outputs stay unknown for the target columns to
	// type (insertselect.go).
	keepUnknownOutputs bool
	// agg is the aggregate binder's state while an aggregating query's
	// SELECT list, HAVING and ORDER BY are bound; nil elsewhere.
	agg *aggState
	// win is the window binder's state while a SELECT list and ORDER BY
	// with window functions are bound; nil elsewhere.
	win *winState
	// srf collects the set-returning calls of the SELECT list being bound
	// (see ProjectSet); nil where they are not allowed.
	srf *srfState
	// outer is the scope of the query enclosing the subquery being bound
	// (nil at the top level), used to recognise correlated references.
	outer *scope
	// corr collects the outer references of the subquery being bound.
	corr *corrState
	// ctes are the WITH queries visible to the query being bound.
	ctes map[string]*ast.CommonTableExpression
	// cteCorr is the correlation state of the query level that defined
	// each WITH query (nil at the top level): a reference at that level
	// binds the body seeing the same outer queries (ctecorr.go).
	cteCorr map[*ast.CommonTableExpression]*corrState
	// cteRefs count the references to each WITH query; sharedCTEs are
	// those evaluated once (nil: decided to be inlined) (cte.go).
	cteRefs    map[*ast.CommonTableExpression]int
	sharedCTEs map[*ast.CommonTableExpression]*SharedCTE
	// rec is the WITH RECURSIVE state (recursive.go); nil until needed.
	rec *recState
	// excludedScope is the scope of ON CONFLICT DO UPDATE, where VALUES(x)
	// names the proposed row's column x.
	excludedScope *scope
	// uses collects the relations a CREATE VIEW query names (view.go);
	// viewStack are the views being expanded, innermost last.
	uses      *[]ViewRelation
	viewStack []fluss.TablePath
	// ctors are the ROW(...) and MAP[...] constructors bound so far, with
	// their arguments as written (rows.go), so an assignment can re-type them.
	ctors map[Expr]*ctorInfo
	// arena allocates the commonest bound expression nodes (arena.go).
	arena arena
	// trees transforms the expressions that bind through sql/tree
	// (bindViaTree), its nodes from chunks like arena's.
	trees sql.Transformer
	// finders are the visitors of containsAggregate and containsWindow
	// (TiDB's AST) and of their tree versions (select.go).
	finders struct {
		agg  aggFinder
		win  winFinder
		tree treeFinder
	}
}

// Bind binds one parsed statement. declared holds the parameter types the
// client declared (Kind Unknown where it declared none); the bound statement's
// Params() extends it with inferred types.
func Bind(ctx context.Context, cat Catalog, stmt *sql.Statement, declared []types.T) (Statement, error) {
	n := stmt.NumParams
	if len(declared) > n {
		n = len(declared)
	}
	b := &binder{ctx: ctx, cat: cat, stmt: stmt, params: make([]types.T, n)}
	copy(b.params, declared)
	if st, ok := b.trees.StatementTree(stmt.AST); ok {
		return b.bindStatementTree(st)
	}
	switch node := stmt.AST.(type) {
	case *ast.SelectStmt:
		plan, err := b.bindSelect(node)
		if err == nil {
			err = refuseRecordOutput(plan) // searchcycle.go
		}
		if err != nil {
			return nil, err
		}
		return &Query{Plan: b.finishParams(plan), params: b.params}, nil
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

// bindStatementTree binds a statement that has moved onto sqlgate's parsed
// tree (sql.Transformer.StatementTree: CREATE TABLE [AS], DROP TABLE |
// VIEW, CREATE VIEW; issue 32). A query inside one is still TiDB's
// (view.go's bindQuery).
func (b *binder) bindStatementTree(st pt.Statement) (Statement, error) {
	switch s := st.(type) {
	case *pt.CreateTable:
		out, err := b.bindCreateTable(s) // ddl.go
		if ct, ok := out.(*CreateTable); ok && err == nil && ct.Source != nil {
			err = refusePseudoColumns(ct.Source) // searchcycle.go
		}
		if err != nil {
			return nil, err
		}
		return out, nil
	case *pt.DropTable:
		return b.bindDropTable(s) // ddl.go
	case *pt.CreateView:
		return b.bindCreateView(s) // view.go
	}
	return nil, sqlerr.New(sqlerr.InternalError, "statement %T has no binder", st)
}

// finishParams stamps the final parameter types into every Param node, since
// a parameter's type may have been inferred after its first use.
func (b *binder) finishParams(n Node) Node {
	if len(b.params) == 0 {
		return n // no parameter: no Param node anywhere, subqueries included
	}
	visitExprs(n, func(e Expr) {
		Walk(e, func(x Expr) {
			switch p := x.(type) {
			case *Param:
				p.T = b.params[p.Index]
			case *Subquery:
				b.finishParams(p.Plan)
			}
		})
	})
	return n
}

// visitExprs calls fn on every expression held by n and its inputs.
func visitExprs(n Node, fn func(Expr)) {
	nodeExprs(n, fn)
	for _, c := range n.Children() {
		visitExprs(c, fn)
	}
}

// nodeExprs calls fn on the expressions n itself holds (not its inputs').
func nodeExprs(n Node, fn func(Expr)) {
	switch x := n.(type) {
	case *Values:
		for _, r := range x.Rows {
			for _, e := range r {
				fn(e)
			}
		}
	case *Filter:
		fn(x.Cond)
	case *Join:
		if x.Cond != nil {
			fn(x.Cond)
		}
	case *Window:
		for _, e := range x.Call.Args {
			fn(e)
		}
		for _, e := range x.Call.Partition {
			fn(e)
		}
		for _, k := range x.Call.Order {
			fn(k.Expr)
		}
	case *Aggregate:
		for _, k := range x.GroupBy {
			fn(k)
		}
		for _, a := range x.Aggs {
			for _, e := range a.Args {
				fn(e)
			}
			if a.Filter != nil {
				fn(a.Filter)
			}
		}
	case *Project:
		for _, e := range x.Exprs {
			fn(e)
		}
	case *Sort:
		for _, k := range x.Keys {
			fn(k.Expr)
		}
	case *Limit:
		if x.Count != nil {
			fn(x.Count)
		}
		if x.Offset != nil {
			fn(x.Offset)
		}
	}
}

// sourceNode is what an error cursor needs of a syntax node: its byte
// offset in the statement's rewritten text. TiDB's nodes have it; the
// helpers that only position errors take this rather than TiDB's ast.Node,
// so that they serve sql/tree's nodes as the binder moves onto them.
type sourceNode interface{ OriginTextPosition() int }

// errAt returns err with the position of node in the original text.
func (b *binder) errAt(node sourceNode, err *sqlerr.Error) *sqlerr.Error {
	if node == nil || b.stmt == nil {
		return err
	}
	off := node.OriginTextPosition()
	if off == 0 {
		// TiDB records no offset for table names and INSERT column lists;
		// find the identifier in the text instead (its first occurrence as
		// a whole word outside quotes, which is where these names stand).
		switch x := node.(type) {
		case *ast.TableName:
			off = identOffset(b.stmt.Rewritten, x.Name.O)
		case *pt.TableName:
			off = identOffset(b.stmt.Rewritten, x.Name)
		case *ast.ColumnName:
			off = identOffset(b.stmt.Rewritten, x.Name.O)
		}
	}
	return err.WithPosition(b.stmt.Position(off))
}

// identOffset returns the byte offset of the first whole-word, unquoted-
// string occurrence of name in text (case-insensitive), or 0.
func identOffset(text, name string) int {
	lower, lname := strings.ToLower(text), strings.ToLower(name)
	inString := false
	for i := 0; i < len(lower); i++ {
		c := lower[i]
		if c == '\'' {
			inString = !inString
			continue
		}
		if inString || !strings.HasPrefix(lower[i:], lname) {
			continue
		}
		before := i == 0 || !isIdentByte(lower[i-1])
		after := i+len(lname) >= len(lower) || !isIdentByte(lower[i+len(lname)])
		if before && after {
			return i
		}
	}
	return 0
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c == '"' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 0x80
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

func firstWords(s string) string {
	f := strings.Fields(s)
	if len(f) > 2 {
		f = f[:2]
	}
	return strings.Join(f, " ")
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

// operatorError is noBinaryOperator positioned at the operator token, where
// PostgreSQL's parser records an operator expression's location: the last
// spelling of op between the expression's start and its right operand's
// (so a literal of the left operand holding the same characters is never
// taken). Without a right operand's offset it falls back to the node's.
func (b *binder) operatorError(n sourceNode, op string, l, r types.T) *sqlerr.Error {
	return b.errAtOperator(n, op, noBinaryOperator(op, l, r))
}

// errAtOperator positions err at operator op of the two-operand expression n.
func (b *binder) errAtOperator(n sourceNode, op string, err *sqlerr.Error) *sqlerr.Error {
	if n == nil || b.stmt == nil {
		return err
	}
	start, end := n.OriginTextPosition(), rightOperandOffset(n)
	text := b.stmt.Rewritten
	if start < end && end <= len(text) {
		if i := strings.LastIndex(strings.ToLower(text[start:end]), strings.ToLower(op)); i >= 0 {
			return err.WithPosition(b.stmt.Position(start + i))
		}
	}
	return b.errAt(n, err)
}

// rightOperandOffset is the text offset of a two-operand expression's right
// operand (0 when n has none or TiDB recorded none).
func rightOperandOffset(n sourceNode) int {
	switch x := n.(type) {
	case *pt.Binary:
		return x.R.Pos()
	case *ast.BinaryOperationExpr:
		return x.R.OriginTextPosition()
	case *ast.FuncCallExpr: // a || b, rewritten to concat(a, b)
		if len(x.Args) == 2 {
			return x.Args[1].OriginTextPosition()
		}
	case *pt.FuncCall: // the same on sql/tree
		if len(x.Args) == 2 {
			return x.Args[1].Pos()
		}
	case *pt.Operator: // an infix operator TiDB's grammar lacks
		if x.L != nil {
			return x.R.Pos()
		}
	}
	return 0
}

// The bridges between the binder's files that have moved onto sqlgate's
// tree and those still on TiDB's AST (issue 32): FROM binds from the tree
// (from.go, lateral.go), the queries inside it and the functions in it
// from the TiDB nodes the tree's nodes were made from. They go as the
// queries move.

// bindFrom binds a FROM clause of TiDB's AST: transformed by
// sql.Transformer.FromToTree, then bound from the tree (from.go).
func (b *binder) bindFrom(from *ast.TableRefsClause) (Node, error) {
	if from == nil || from.TableRefs == nil {
		return b.bindFromTree(nil)
	}
	return b.bindResultSet(from.TableRefs)
}

// bindResultSet binds one FROM item of TiDB's AST (an INSERT's or
// UPDATE's table reference, a FROM clause's join tree).
func (b *binder) bindResultSet(rs ast.ResultSetNode) (Node, error) {
	it, err := b.trees.FromToTree(rs, b.stmt)
	if err != nil {
		var te *sql.TransformError
		if errors.As(err, &te) {
			return nil, b.errAt(te.Node, te.Err)
		}
		return nil, err
	}
	return b.bindFromItem(it)
}

// bindDerivedQuery binds a derived table's query with s as the enclosing
// scope (nil: none): its tree where QueryToTree made one, else the TiDB
// query FromToTree left in its Src.
func (b *binder) bindDerivedQuery(s *scope, d *pt.DerivedTable) (Node, []Expr, error) {
	if d.Query != nil {
		return b.bindSubqueryPlan(s, &pt.Subquery{At: d.At, Tree: d.Query, Query: derivedSource(d)})
	}
	q, ok := d.Src.(ast.ResultSetNode)
	if !ok {
		return nil, nil, sqlerr.NotSupported("this FROM item")
	}
	return b.bindSubqueryPlan(s, q)
}

// derivedSource is the TiDB query a derived table's tree was made from
// (inside the rewrite's column alias marker where it has one).
func derivedSource(d *pt.DerivedTable) any {
	ts, ok := d.Src.(*ast.TableSource)
	if !ok {
		return d.Src
	}
	if inner, _, ok := colAliasMarker(ts.Source); ok {
		return inner
	}
	return ts.Source
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

// relabel is relabelNames (from.go) for a list of TiDB's names.
func relabel(n Node, alias string, names []ast.CIStr) (Node, error) {
	var ns []string
	if len(names) > 0 {
		ns = make([]string, len(names))
		for i, c := range names {
			ns[i] = ident(c)
		}
	}
	return relabelNames(n, alias, ns)
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

// bindOrderBy is bindOrderItems (order.go) for TiDB's ORDER BY clause
// and a bindOut over TiDB's nodes: the items transform into the tree, and
// an item that is an expression binds from the TiDB node it was made
// from.
func (b *binder) bindOrderBy(proj *Project, ob *ast.OrderByClause, bindOut func(ast.ExprNode) (Expr, error), distinct bool) ([]SortKey, error) {
	bindSrc := func(e pt.Expr) (Expr, error) {
		src, ok := e.(interface{ Source() any }).Source().(ast.ExprNode)
		if !ok {
			return b.bindTree(nil, e)
		}
		return bindOut(src)
	}
	keys := make([]SortKey, 0, len(ob.Items))
	for _, it := range ob.Items {
		// one item at a time: no list of tree items to allocate
		item, err := b.trees.OrderItemToTree(it)
		if err != nil {
			var te *sql.TransformError
			if errors.As(err, &te) {
				return nil, b.errAt(te.Node, te.Err)
			}
			return nil, err
		}
		k, err := b.bindOrderItem(proj, item, bindSrc, distinct)
		if err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	return keys, nil
}

// bindLimit is bindLimitTree (order.go) for TiDB's LIMIT clause: its
// operands bind from TiDB's nodes (a literal count binds without a tree
// node, as the leaves do in bindExpr).
func (b *binder) bindLimit(input Node, l *ast.Limit) (Node, error) {
	lim := &Limit{Input: input}
	bind := func(e ast.ExprNode) (Expr, error) {
		x, err := b.bindExpr(nil, e)
		if err != nil {
			return nil, err
		}
		return b.limitOperand(e, x)
	}
	var err error
	if l.Count != nil {
		if lim.Count, err = bind(l.Count); err != nil {
			return nil, err
		}
	}
	if l.Offset != nil {
		if lim.Offset, err = bind(l.Offset); err != nil {
			return nil, err
		}
	}
	return lim, nil
}

// unwrapNulls reads the pg__nulls(e, 'first'|'last') marker the rewrite
// makes of e NULLS FIRST|LAST (sql's transformer reads it as
// OrderItem.Nulls). Without one, PostgreSQL's default applies: NULLs sort
// as larger than every value, so they come last ascending and first
// descending. (TiDB's ByItem.NullOrder only says no ASC/DESC was
// written.)
func unwrapNulls(e ast.ExprNode, desc bool) (ast.ExprNode, bool) {
	f, ok := e.(*ast.FuncCallExpr)
	if !ok || f.FnName.L != "pg__nulls" || len(f.Args) != 2 {
		return e, desc
	}
	return f.Args[0], literalString(f.Args[1]) == "first"
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
