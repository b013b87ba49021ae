package sql

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// QueryToTree transforms one of TiDB's queries (*ast.SelectStmt,
// *ast.SetOprStmt, as Parse leaves them) into sqlgate's parsed tree. The
// rewrite's statement-clause markers become what they stand for: pg__srf
// derived tables a FuncTable, pg__colalias derived tables a DerivedTable's
// column aliases, pg__nocols an empty select list, pg__distinct_on
// DISTINCT ON, pg__group_distinct GROUP BY DISTINCT, the FULL JOIN
// markers a FullJoin, a WITH item's [NOT] MATERIALIZED and SEARCH / CYCLE
// markers the CTE's fields. st is the statement the query belongs to (for
// the SEARCH / CYCLE clauses and the locking strength the rewrite keeps
// there); nil for a query without them. A MySQL-only form is 0A000.
func QueryToTree(q ast.Node, st *Statement) (pt.Query, error) {
	var t Transformer
	return t.QueryToTree(q, st)
}

// QueryToTree is the package's QueryToTree.
func (t *Transformer) QueryToTree(q ast.Node, st *Statement) (pt.Query, error) {
	qt := queryTransformer{Transformer: t, st: st}
	out, err := qt.query(q)
	if err != nil {
		return nil, err
	}
	if err := qt.subqueries(out); err != nil {
		return nil, err
	}
	return out, nil
}

// subqueries transforms the subqueries inside n's expressions (ToTree
// leaves them TiDB's), each once: Inspect goes into the tree just made.
func (t queryTransformer) subqueries(n pt.Node) error {
	var err error
	pt.Inspect(n, func(n pt.Node) bool {
		if err != nil {
			return false
		}
		if s, ok := n.(*pt.Subquery); ok && s.Tree == nil && s.Query != nil {
			sq, ok := s.Query.(ast.Node)
			if !ok {
				err = sqlerr.New(sqlerr.InternalError, "a subquery of type %T", s.Query)
				return false
			}
			s.Tree, err = t.query(sq)
		}
		return err == nil
	})
	return err
}

// queryTransformer is a Transformer with the statement a query belongs to.
type queryTransformer struct {
	*Transformer
	st *Statement
}

func refuse(n ast.Node, what string) error {
	return refusal(n, sqlerr.New(sqlerr.FeatureNotSupported, "%s is not supported", what))
}

func (t queryTransformer) query(q ast.Node) (pt.Query, error) {
	switch n := q.(type) {
	case *ast.SelectStmt:
		return t.selectStmt(n)
	case *ast.SetOprStmt:
		out, err := t.setOprList(n.SelectList)
		if err != nil {
			return nil, err
		}
		c := out.Clauses()
		if n.With != nil || n.OrderBy != nil || n.Limit != nil {
			if c.With != nil || c.OrderBy != nil || c.Limit != nil || c.Offset != nil {
				return nil, refuse(n, "a set operation with clauses inside and outside its parentheses")
			}
			if err := t.clauses(c, n.With, n.OrderBy, n.Limit); err != nil {
				return nil, err
			}
		}
		return out, nil
	case *ast.SetOprSelectList:
		return t.setOprList(n)
	case *ast.SubqueryExpr:
		return t.query(n.Query)
	}
	return nil, refuse(q, "query "+strings.TrimPrefix(fmt.Sprintf("%T", q), "*ast."))
}

// setOprList reads a chain of set operations as PostgreSQL's grammar
// groups it (binder's bindSetOprList does the same): INTERSECT binds
// tighter than UNION and EXCEPT, each left-associative, where TiDB's list
// holds the chain left to right whatever its operators. A run of
// INTERSECTs folds into the last term; the terms fold from the left.
func (t queryTransformer) setOprList(l *ast.SetOprSelectList) (pt.Query, error) {
	if len(l.Selects) == 0 {
		return nil, refuse(l, "an empty set operation")
	}
	var terms []pt.Query
	var joins []*pt.SetOp // joins[i] joins terms i and i+1 (L and R filled by the fold)
	for _, s := range l.Selects {
		var op *ast.SetOprType
		switch x := s.(type) {
		case *ast.SelectStmt:
			op = x.AfterSetOperator
		case *ast.SetOprSelectList:
			op = x.AfterSetOperator
		}
		q, err := t.query(s)
		if err != nil {
			return nil, err
		}
		if terms == nil {
			terms = append(terms, q)
			continue
		}
		so := &pt.SetOp{At: at(s), Op: pt.Union}
		if op != nil {
			switch *op {
			case ast.UnionAll:
				so.All = true
			case ast.Except:
				so.Op = pt.Except
			case ast.ExceptAll:
				so.Op, so.All = pt.Except, true
			case ast.Intersect:
				so.Op = pt.Intersect
			case ast.IntersectAll:
				so.Op, so.All = pt.Intersect, true
			}
		}
		if so.Op == pt.Intersect {
			so.L, so.R = terms[len(terms)-1], q
			terms[len(terms)-1] = so
			continue
		}
		terms = append(terms, q)
		joins = append(joins, so)
	}
	acc := terms[0]
	for i, so := range joins {
		so.L, so.R = acc, terms[i+1]
		acc = so
	}
	with := l.With
	if c := acc.Clauses(); with != nil && c.With != nil && c.With.Src == any(with) {
		with = nil // TiDB hangs (WITH .. SELECT ..)'s WITH on the list and the SELECT
	}
	if with != nil || l.OrderBy != nil || l.Limit != nil {
		c := acc.Clauses()
		if len(l.Selects) == 1 && (c.With != nil || c.OrderBy != nil || c.Limit != nil || c.Offset != nil) {
			return nil, refuse(l, "a set operation with clauses inside and outside its parentheses")
		}
		if err := t.clauses(c, with, l.OrderBy, l.Limit); err != nil {
			return nil, err
		}
	}
	return acc, nil
}

// clauses fills a query's WITH, ORDER BY, LIMIT and OFFSET.
func (t queryTransformer) clauses(c *pt.QueryClauses, with *ast.WithClause, order *ast.OrderByClause, limit *ast.Limit) error {
	var err error
	if with != nil {
		if c.With, err = t.with(with); err != nil {
			return err
		}
	}
	order, marker := splitLimitMarker(order) // limit.go
	if marker != nil {
		if err := t.limitMarkerToTree(c, marker); err != nil {
			return err
		}
	}
	if order != nil {
		if c.OrderBy, err = t.byItems(order.Items); err != nil {
			return err
		}
	}
	if limit != nil {
		c.LimitAt = limit.OriginTextPosition()
		if c.Limit, err = t.ToTree(limit.Count); err != nil {
			return err
		}
		if c.Offset, err = t.ToTree(limit.Offset); err != nil {
			return err
		}
	}
	return nil
}

func (t queryTransformer) with(w *ast.WithClause) (*pt.With, error) {
	out := &pt.With{At: at(w), Recursive: w.IsRecursive, CTEs: make([]*pt.CTE, len(w.CTEs))}
	for i, c := range w.CTEs {
		cte := &pt.CTE{At: at(c), Name: c.Name.O}
		for _, col := range c.ColNameList {
			switch name := col.O; {
			case name == MaterializedMarker:
				cte.Materialized = pt.Materialized
			case name == NotMaterializedMarker:
				cte.Materialized = pt.NotMaterialized
			case strings.HasPrefix(name, SearchCycleMarker):
				k, err := strconv.Atoi(strings.TrimPrefix(name, SearchCycleMarker))
				if err != nil || t.st == nil || k < 0 || k >= len(t.st.SearchCycle) {
					return nil, refusal(c, sqlerr.New(sqlerr.InternalError, "a SEARCH or CYCLE clause the statement does not hold"))
				}
				sc := t.st.SearchCycle[k]
				cte.ClauseAt = sc.ClausePos
				if sc.Search {
					cte.Search = &pt.SearchClause{Breadth: sc.BreadthFirst, By: sc.SearchBy, Set: sc.SearchSet}
				}
				if sc.Cycle {
					cte.Cycle = &pt.CycleClause{Columns: sc.CycleCols, Mark: sc.CycleMark, MarkValue: sc.MarkValue, MarkDefault: sc.MarkDflt, Path: sc.CyclePath}
				}
			default:
				cte.Columns = append(cte.Columns, name)
			}
		}
		if c.Query == nil {
			return nil, refuse(c, "a WITH item without a query")
		}
		q, err := t.query(c.Query.Query)
		if err != nil {
			return nil, err
		}
		cte.Query = q
		out.CTEs[i] = cte
	}
	return out, nil
}

func (t queryTransformer) selectStmt(sel *ast.SelectStmt) (pt.Query, error) {
	switch {
	case len(sel.TableHints) > 0:
		return nil, refuse(sel, "an optimizer hint")
	case sel.SelectIntoOpt != nil:
		return nil, refuse(sel, "SELECT INTO")
	case sel.Kind == ast.SelectStmtKindValues:
		v := &pt.Values{At: at(sel), Rows: make([][]pt.Expr, len(sel.Lists))}
		for i, r := range sel.Lists {
			var err error
			if v.Rows[i], err = t.exprs(r.Values); err != nil {
				return nil, err
			}
		}
		return v, t.clauses(&v.QueryClauses, sel.With, sel.OrderBy, sel.Limit)
	case sel.Kind != ast.SelectStmtKindSelect && sel.Kind != ast.SelectStmtKindTable:
		return nil, refuse(sel, "this kind of SELECT")
	}
	var fields []*ast.SelectField
	if sel.Fields != nil {
		fields = sel.Fields.Fields
	}
	s, room, ptrs := newSelect(len(fields))
	s.At, s.Distinct, s.Table = at(sel), sel.Distinct, sel.Kind == ast.SelectStmtKindTable
	if err := t.clauses(&s.QueryClauses, sel.With, sel.OrderBy, sel.Limit); err != nil {
		return nil, err
	}
	if sel.Fields != nil {
		if len(fields) > 0 {
			if f, ok := fields[0].Expr.(*ast.FuncCallExpr); ok {
				switch {
				case f.FnName.L == "pg__nocols" && len(fields) == 1:
					fields = nil // SELECT FROM t
				case f.FnName.L == "pg__distinct_on":
					var err error
					if s.DistinctOn, err = t.exprs(f.Args); err != nil {
						return nil, err
					}
					if s.DistinctOn == nil {
						s.DistinctOn = []pt.Expr{}
					}
					s.Distinct = true
					fields = fields[1:]
				}
			}
		}
		if len(fields) <= len(ptrs) {
			s.Targets = ptrs[:len(fields):len(fields)]
		} else {
			s.Targets = make([]*pt.Target, len(fields))
		}
		for i, f := range fields {
			var tg *pt.Target
			if i < len(room) {
				tg = &room[i]
				*tg = pt.Target{At: at(f), Alias: f.AsName.O}
			} else {
				tg = &pt.Target{At: at(f), Alias: f.AsName.O}
			}
			if f.WildCard != nil {
				tg.X = &pt.Star{At: at(f.WildCard), Schema: f.WildCard.Schema.O, Table: f.WildCard.Table.O}
			} else {
				x, err := t.toTree(f.Expr)
				if err != nil {
					return nil, err
				}
				tg.X = x
			}
			s.Targets[i] = tg
		}
	}
	if sel.From != nil && sel.From.TableRefs != nil {
		var err error
		if s.From, err = t.from(sel.From.TableRefs); err != nil {
			return nil, err
		}
	}
	var err error
	if s.Where, err = t.ToTree(sel.Where); err != nil {
		return nil, err
	}
	if g := sel.GroupBy; g != nil {
		if g.Rollup {
			return nil, refuse(g, "GROUP BY ... WITH ROLLUP")
		}
		items := g.Items
		if len(items) > 0 {
			if f, ok := items[0].Expr.(*ast.FuncCallExpr); ok && f.FnName.L == "pg__group_distinct" && len(f.Args) == 0 {
				s.GroupDistinct, items = true, items[1:]
			}
		}
		s.GroupBy = make([]pt.Expr, len(items))
		for i, it := range items {
			if s.GroupBy[i], err = t.toTree(it.Expr); err != nil {
				return nil, err
			}
		}
	}
	if sel.Having != nil {
		if s.Having, err = t.ToTree(sel.Having.Expr); err != nil {
			return nil, err
		}
	}
	for i := range sel.WindowSpecs {
		w, err := t.WindowToTree(&sel.WindowSpecs[i])
		if err != nil {
			return nil, err
		}
		s.Windows = append(s.Windows, w)
	}
	if li := sel.LockInfo; li != nil && li.LockType != ast.SelectLockNone {
		if s.Locking, err = t.locking(sel, li); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// smallSelect is a SELECT with room for a short select list: one
// allocation for the node and its targets where a list of n targets would
// take n+2 (every statement's SELECT makes one; the front-end benchmark
// counts allocations).
type smallSelect struct {
	sel     pt.Select
	targets [4]pt.Target
	ptrs    [4]*pt.Target
}

// newSelect returns a Select and, for a list of at most four targets
// (fields, which the pg__distinct_on or pg__nocols marker may shorten),
// the room for them and for the list; a longer list gets none.
func newSelect(fields int) (*pt.Select, []pt.Target, []*pt.Target) {
	if fields > 4 {
		return &pt.Select{}, nil, nil
	}
	x := &smallSelect{}
	return &x.sel, x.targets[:], x.ptrs[:]
}

func (t queryTransformer) locking(sel *ast.SelectStmt, li *ast.SelectLockInfo) (*pt.Locking, error) {
	l := &pt.Locking{Strength: pt.ForUpdate}
	switch li.LockType {
	case ast.SelectLockForUpdate:
	case ast.SelectLockForUpdateNoWait:
		l.Wait = pt.LockNoWait
	case ast.SelectLockForUpdateSkipLocked:
		l.Wait = pt.LockSkipLocked
	case ast.SelectLockForShare:
		l.Strength = pt.ForShare
	case ast.SelectLockForShareNoWait:
		l.Strength, l.Wait = pt.ForShare, pt.LockNoWait
	case ast.SelectLockForShareSkipLocked:
		l.Strength, l.Wait = pt.ForShare, pt.LockSkipLocked
	default:
		return nil, refuse(sel, "this locking clause")
	}
	if t.st != nil {
		switch t.st.RowLockStrength {
		case "no key update":
			l.Strength = pt.ForNoKeyUpdate
		case "key share":
			l.Strength = pt.ForKeyShare
		}
	}
	for _, tn := range li.Tables {
		l.Of = append(l.Of, tableName(tn))
	}
	return l, nil
}

// from transforms a FROM clause's join tree (a single item is a Join
// without a right side in TiDB's AST).
func (t queryTransformer) from(j *ast.Join) (pt.FromItem, error) {
	if j.Right == nil {
		return t.fromItem(j.Left)
	}
	if j.StraightJoin {
		return nil, refuse(j, "STRAIGHT_JOIN")
	}
	l, err := t.fromItem(j.Left)
	if err != nil {
		return nil, err
	}
	r, err := t.fromItem(j.Right)
	if err != nil {
		return nil, err
	}
	out := &pt.Join{At: at(j), L: l, R: r, Natural: j.NaturalJoin}
	for _, c := range j.Using {
		out.Using = append(out.Using, c.Name.O)
	}
	var on ast.ExprNode
	if j.On != nil {
		on = j.On.Expr
	}
	switch j.Tp {
	case ast.CrossJoin:
		out.Kind = pt.CrossJoin
		if on != nil || j.Using != nil || j.NaturalJoin {
			out.Kind = pt.InnerJoin
		}
	case ast.LeftJoin:
		out.Kind = pt.LeftJoin
		if f, ok := on.(*ast.FuncCallExpr); ok {
			switch f.FnName.L {
			case "pg__full_join":
				if len(f.Args) != 1 {
					return nil, refuse(f, "a malformed FULL JOIN")
				}
				out.Kind, on = pt.FullJoin, f.Args[0]
			case "pg__full_join_using":
				out.Kind, on = pt.FullJoin, nil
				for _, a := range f.Args {
					s, ok := markerString(a)
					if !ok {
						return nil, refuse(f, "a malformed FULL JOIN USING")
					}
					out.Using = append(out.Using, s)
				}
			case "pg__full_join_natural":
				out.Kind, on, out.Natural = pt.FullJoin, nil, true
			}
		}
	case ast.RightJoin:
		out.Kind = pt.RightJoin
	default: // NATURAL [INNER] JOIN's (0), read as the binder reads it
		out.Kind = pt.CrossJoin
		if on != nil || j.Using != nil || j.NaturalJoin {
			out.Kind = pt.InnerJoin
		}
	}
	if out.On, err = t.ToTree(on); err != nil {
		return nil, err
	}
	return out, nil
}

func (t queryTransformer) fromItem(rs ast.ResultSetNode) (pt.FromItem, error) {
	switch n := rs.(type) {
	case *ast.TableSource:
		return t.tableSource(n)
	case *ast.TableName:
		return t.tableRef(n, pt.Alias{})
	case *ast.Join:
		return t.from(n)
	}
	return nil, refuse(rs, "this FROM item")
}

func (t queryTransformer) tableRef(n *ast.TableName, a pt.Alias) (pt.FromItem, error) {
	switch {
	case len(n.IndexHints) > 0:
		return nil, refuse(n, "an index hint")
	case len(n.PartitionNames) > 0:
		return nil, refuse(n, "PARTITION (..) in FROM")
	case n.TableSample != nil:
		return nil, refuse(n, "TABLESAMPLE")
	case n.AsOf != nil:
		return nil, refuse(n, "AS OF")
	}
	// one allocation for the reference and its name: every query with a
	// FROM makes one (the front-end benchmark counts allocations)
	x := &struct {
		ref  pt.TableRef
		name pt.TableName
	}{}
	x.name = pt.TableName{At: at(n), Schema: n.Schema.O, Name: n.Name.O}
	x.ref = pt.TableRef{At: at(n), Name: &x.name, Alias: a}
	return &x.ref, nil
}

func names(cs []ast.CIStr) []string {
	if len(cs) == 0 {
		return nil
	}
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.O
	}
	return out
}

func (t queryTransformer) tableSource(ts *ast.TableSource) (pt.FromItem, error) {
	a := pt.Alias{Name: ts.AsName.O, Columns: names(ts.ColumnNames)}
	switch src := ts.Source.(type) {
	case *ast.TableName:
		if ts.Lateral {
			return nil, refuse(ts, "LATERAL before a table name")
		}
		return t.tableRef(src, a)
	case *ast.SelectStmt:
		if f, ok := srfMarker(src); ok {
			return t.funcTable(ts, f, a)
		}
		if inner, cols, ok := colAliasMarker(src); ok {
			if len(a.Columns) > 0 {
				return nil, refuse(ts, "two column alias lists")
			}
			a.Columns = cols
			q, err := t.query(inner)
			if err != nil {
				return nil, err
			}
			return &pt.DerivedTable{At: at(ts), Query: q, Lateral: ts.Lateral, Alias: a}, nil
		}
		q, err := t.query(src)
		if err != nil {
			return nil, err
		}
		return &pt.DerivedTable{At: at(ts), Query: q, Lateral: ts.Lateral, Alias: a}, nil
	case *ast.SetOprStmt:
		q, err := t.query(src)
		if err != nil {
			return nil, err
		}
		return &pt.DerivedTable{At: at(ts), Query: q, Lateral: ts.Lateral, Alias: a}, nil
	case *ast.Join:
		if a.Name != "" || ts.Lateral {
			return nil, refuse(ts, "an aliased join") // the rewrite makes it a derived table
		}
		return t.from(src)
	}
	return nil, refuse(ts, "this FROM item")
}

// srfMarker recognizes the derived table the rewrite makes of a function
// in FROM: (SELECT pg__srf('f', ord, explicit, pg__cols(..), args..)).
func srfMarker(sel *ast.SelectStmt) (*ast.FuncCallExpr, bool) {
	if sel.From != nil || sel.Fields == nil || len(sel.Fields.Fields) != 1 || sel.Where != nil {
		return nil, false
	}
	f, ok := sel.Fields.Fields[0].Expr.(*ast.FuncCallExpr)
	if !ok || f.FnName.L != "pg__srf" || len(f.Args) < 4 {
		return nil, false
	}
	return f, true
}

// colAliasMarker recognizes the derived table the rewrite makes of a
// derived table's column alias list (values.go): (SELECT
// pg__colalias('x', ...) FROM (query) AS pg__colalias).
func colAliasMarker(sel *ast.SelectStmt) (ast.ResultSetNode, []string, bool) {
	if sel.Fields == nil || len(sel.Fields.Fields) != 1 || sel.From == nil || sel.From.TableRefs == nil ||
		sel.From.TableRefs.Right != nil || sel.Where != nil || sel.With != nil {
		return nil, nil, false
	}
	f, ok := sel.Fields.Fields[0].Expr.(*ast.FuncCallExpr)
	if !ok || f.FnName.L != "pg__colalias" {
		return nil, nil, false
	}
	ts, ok := sel.From.TableRefs.Left.(*ast.TableSource)
	if !ok || ts.AsName.L != "pg__colalias" {
		return nil, nil, false
	}
	cols := make([]string, len(f.Args))
	for i, a := range f.Args {
		s, ok := markerString(a)
		if !ok {
			return nil, nil, false
		}
		cols[i] = s
	}
	return ts.Source, cols, true
}

func markerInt(e ast.ExprNode) (int64, bool) {
	lit, ok := LiteralOf(e)
	switch {
	case !ok:
		return 0, false
	case lit.Kind == LitInt:
		return lit.Int, true
	case lit.Kind == LitUint:
		return int64(lit.Uint), true
	}
	return 0, false
}

func (t queryTransformer) funcTable(ts *ast.TableSource, f *ast.FuncCallExpr, a pt.Alias) (pt.FromItem, error) {
	schema, name, ok1 := srfName(f.Args[0])
	ord, ok2 := markerInt(f.Args[1])
	explicit, ok3 := markerInt(f.Args[2])
	cols, ok4 := f.Args[3].(*ast.FuncCallExpr)
	if !ok1 || !ok2 || !ok3 || !ok4 || cols.FnName.L != "pg__cols" {
		return nil, refuse(f, "a malformed function in FROM")
	}
	ft := &pt.FuncTable{At: at(ts), Ordinality: ord == 1, Lateral: ts.Lateral, AliasExplicit: explicit == 1, Alias: a}
	if len(a.Columns) > 0 {
		return nil, refuse(ts, "two column alias lists")
	}
	for _, c := range cols.Args {
		if d, ok := c.(*ast.FuncCallExpr); ok && d.FnName.L == "pg__coldef" && len(d.Args) == 2 {
			n, ok1 := markerString(d.Args[0])
			typ, ok2 := markerString(d.Args[1])
			if !ok1 || !ok2 {
				return nil, refuse(d, "a malformed column definition")
			}
			ft.ColumnDefs = append(ft.ColumnDefs, pt.FuncColumn{At: at(d), Name: n, Type: typ})
			continue
		}
		s, ok := markerString(c)
		if !ok {
			return nil, refuse(c, "a malformed column alias")
		}
		ft.Columns = append(ft.Columns, s)
	}
	args, err := t.exprs(f.Args[4:])
	if err != nil {
		return nil, err
	}
	ft.Call = &pt.FuncCall{At: at(f), Schema: schema, Name: name, Args: args}
	if name == rowsFromMarker {
		if err := rowsFromFuncs(ft, f); err != nil {
			return nil, err
		}
	}
	return ft, nil
}

// srfName reads the name of a pg__srf marker: 'f', or pg__schema('s',
// 'f') for a function qualified by another schema than pg_catalog.
func srfName(e ast.ExprNode) (schema, name string, ok bool) {
	if q, isCall := e.(*ast.FuncCallExpr); isCall && q.FnName.L == SchemaMarker && len(q.Args) == 2 {
		schema, ok1 := markerString(q.Args[0])
		name, ok2 := markerString(q.Args[1])
		return schema, name, ok1 && ok2
	}
	name, ok = markerString(e)
	return "", name, ok
}

// rowsFromMarker is the name the rewrite gives ROWS FROM (..) in its
// pg__srf marker (srf.go), whose arguments are one pg__rowsfn('f',
// pg__cols(definitions), args..) per function.
const rowsFromMarker = "pg__rowsfrom"

// rowsFromFuncs reads ROWS FROM's functions from the pg__rowsfn calls of
// ft.Call (transformed: the calls stay calls) into ft.Funcs, as the binder
// read them: a column definition is a pg__coldef call of two arguments in
// the call's second argument; anything but such calls is a malformed
// ROWS FROM, at the marker f.
func rowsFromFuncs(ft *pt.FuncTable, f *ast.FuncCallExpr) error {
	ft.RowsFrom = true
	ft.Funcs = make([]pt.RowsFromFunc, 0, len(ft.Call.Args))
	for _, a := range ft.Call.Args {
		c, ok := a.(*pt.FuncCall)
		if !ok || c.Name != "pg__rowsfn" || len(c.Args) < 2 {
			return refusal(f, sqlerr.New(sqlerr.InternalError, "malformed ROWS FROM"))
		}
		fn := pt.RowsFromFunc{At: c.At, Call: &pt.FuncCall{At: c.At, Name: treeText(c.Args[0]), Args: c.Args[2:]}}
		if q, ok := c.Args[0].(*pt.FuncCall); ok && q.Name == SchemaMarker && len(q.Args) == 2 {
			// pg__schema('s', 'f'): a function of another schema (srf.go)
			fn.Call.Schema, fn.Call.Name = treeText(q.Args[0]), treeText(q.Args[1])
		}
		if cols, ok := c.Args[1].(*pt.FuncCall); ok {
			for _, d := range cols.Args {
				if d, ok := d.(*pt.FuncCall); ok && d.Name == "pg__coldef" && len(d.Args) == 2 {
					fn.ColumnDefs = append(fn.ColumnDefs, pt.FuncColumn{At: d.At, Name: treeText(d.Args[0]), Type: treeText(d.Args[1])})
				}
			}
		}
		ft.Funcs = append(ft.Funcs, fn)
	}
	return nil
}

// treeText is a string literal's text ("" for another node).
func treeText(e pt.Expr) string {
	if l, ok := e.(*pt.Literal); ok && l.Kind == pt.LitString {
		return l.Text
	}
	return ""
}

// WithToTree transforms a WITH clause of TiDB's AST on its own (a
// parenthesised set operation's, whose one operand the binder binds
// apart), the subqueries of its items included; st as for QueryToTree.
func (t *Transformer) WithToTree(w *ast.WithClause, st *Statement) (*pt.With, error) {
	qt := queryTransformer{Transformer: t, st: st}
	out, err := qt.with(w)
	if err != nil {
		return nil, err
	}
	for _, c := range out.CTEs {
		if err := qt.subqueries(c.Query); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// OrderItemToTree transforms one ORDER BY item, reading the rewrite's
// pg__nulls(e, 'first'|'last') as NULLS FIRST | LAST: OrderItemsToTree
// one item at a time, for a binder that binds each as it goes (no list
// to allocate).
func (t *Transformer) OrderItemToTree(it *ast.ByItem) (pt.OrderItem, error) {
	var out pt.OrderItem
	e := orderItemMarkers(it.Expr, &out)
	x, err := t.toTree(e)
	if err != nil {
		return out, err
	}
	out.X, out.Desc = x, it.Desc
	return out, nil
}
