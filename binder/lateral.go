package binder

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// LATERAL: a FROM item that reads the columns of the FROM items before it
// in its join (PostgreSQL's LATERAL (subquery), and a function in FROM,
// which is lateral without the word). Such an item binds as a correlated
// subquery whose outer scope is the join's left input; when it reads
// none of its columns it is an ordinary join input. Otherwise the join is
// a Lateral node, which runs the right plan once per left row (a
// nested-loop apply, exec.LateralJoin), as PostgreSQL's nested loop with
// a parameterised inner side does: the right side is no decorrelated
// join, so an item that reads the left row costs one execution per row.

// Lateral joins each row of Left with the rows Right returns for it, Right
// reading the row's values through its OuterRef slots (Outer, over Left's
// columns). Type is InnerJoin, CrossJoin or LeftJoin (a left row for which
// no right row passes Cond is kept, padded with NULLs); Cond is over the
// output columns, nil meaning true.
type Lateral struct {
	Left, Right Node
	Outer       []Expr
	Type        JoinType
	Cond        Expr
	cols        []Column
}

func (n *Lateral) Columns() []Column { return n.cols }
func (n *Lateral) Children() []Node  { return []Node{n.Left, n.Right} }

// NewLateral builds a Lateral node.
func NewLateral(left, right Node, outer []Expr, t JoinType, cond Expr) *Lateral {
	j := NewJoin(left, right, t, nil) // the same columns as the join
	return &Lateral{Left: left, Right: right, Outer: outer, Type: t, Cond: cond, cols: j.cols}
}

// lateralItem reports whether a join's right input is a LATERAL item: a
// derived table marked LATERAL, or a function in FROM (sql's pg__srf
// derived table).
func lateralItem(rs ast.ResultSetNode) (*ast.TableSource, bool) {
	ts, ok := rs.(*ast.TableSource)
	if !ok {
		return nil, false
	}
	if ts.Lateral {
		return ts, true
	}
	if sel, ok := ts.Source.(*ast.SelectStmt); ok {
		if _, ok := setFuncMarker(sel); ok {
			return ts, true
		}
	}
	return nil, false
}

// bindJoinRight binds a join's right input. A LATERAL item sees the left
// input's columns: outer lists the values of them it reads (empty when
// none, and for any other item).
func (b *binder) bindJoinRight(j *ast.Join, left Node) (right Node, outer []Expr, err error) {
	ts, ok := lateralItem(j.Right)
	if !ok {
		right, err = b.bindResultSet(j.Right)
		return right, nil, invalidFromReference(err, left)
	}
	ls := newScope(left)
	if sel, ok := ts.Source.(*ast.SelectStmt); ok {
		if f, ok := setFuncMarker(sel); ok {
			right, outer, err = b.withOuterScope(ls, func() (Node, error) { return b.bindTableFunc(f, ident(ts.AsName)) })
		} else {
			right, outer, err = b.bindLateralSubquery(ls, ts)
		}
	} else {
		right, outer, err = b.bindLateralSubquery(ls, ts)
	}
	if err != nil || len(outer) == 0 {
		return right, nil, err
	}
	if j.Tp == ast.RightJoin || isFullJoin(j) {
		table := "?"
		for _, o := range outer {
			if c, ok := o.(*ColumnRef); ok {
				table = left.Columns()[c.Index].Table
				break
			}
		}
		return nil, nil, invalidFromEntry(sqlerr.InvalidColumnReference, table).
			WithDetail("The combining JOIN type must be INNER or LEFT for a LATERAL reference.")
	}
	return right, outer, nil
}

// bindLateralSubquery binds LATERAL (subquery) [AS] alias [(names)] with s
// as its outer scope.
func (b *binder) bindLateralSubquery(s *scope, ts *ast.TableSource) (Node, []Expr, error) {
	alias := ident(ts.AsName)
	var q ast.ResultSetNode
	var names []ast.CIStr
	switch src := ts.Source.(type) {
	case *ast.SelectStmt:
		if inner, cols, ok := colAliasMarker(src); ok {
			q, names = inner, cols
		} else {
			q, names = src, ts.ColumnNames
		}
	case *ast.SetOprStmt:
		q, names = src, ts.ColumnNames
	default:
		return nil, nil, sqlerr.NotSupported("LATERAL before this FROM item")
	}
	inner, outer, err := b.bindSubqueryPlan(s, q)
	if err != nil {
		return nil, nil, err
	}
	n, err := relabel(inner, alias, names)
	return n, outer, err
}

// withOuterScope runs fn (which binds a FROM item) with s as the scope
// of the enclosing row, as a correlated subquery's, and returns the values
// of s the item reads.
func (b *binder) withOuterScope(s *scope, fn func() (Node, error)) (Node, []Expr, error) {
	prevOuter, prevCorr := b.outer, b.corr
	ns := *s
	ns.parent = b.outer
	b.outer = &ns
	corr := &corrState{outer: &ns, slots: map[int]int{}, parent: prevCorr}
	b.corr = corr
	defer func() { b.outer, b.corr = prevOuter, prevCorr }()
	n, err := fn()
	if err != nil {
		return nil, nil, err
	}
	return n, corr.refs, nil
}

// lateralJoin finishes a join whose right input reads the left's row:
// JOIN/CROSS JOIN/, and LEFT JOIN ... ON cond.
func (b *binder) lateralJoin(j *ast.Join, left, right Node, outer []Expr) (Node, error) {
	spec, err := joinSpecOf(j)
	if err != nil {
		return nil, err
	}
	if len(spec.using) > 0 || spec.natural {
		return nil, sqlerr.NotSupported("USING or NATURAL with a LATERAL item that reads the left input")
	}
	jt := InnerJoin
	if j.Tp == ast.LeftJoin {
		jt = LeftJoin
	} else if spec.on == nil {
		jt = CrossJoin
	}
	n := NewLateral(left, right, outer, jt, nil)
	if spec.on == nil {
		return n, nil
	}
	cond, err := b.bindExpr(newScope(n), spec.on)
	if err != nil {
		return nil, err
	}
	if cond, err = b.coerce(spec.on, cond, types.BoolType, "argument of JOIN/ON"); err != nil {
		return nil, err
	}
	n.Cond = cond
	return n, nil
}

// invalidFromReference is PostgreSQL's wording when a FROM item that is
// not LATERAL names a table of the FROM items before it: the entry exists
// but cannot be referenced there.
func invalidFromReference(err error, left Node) error {
	e := sqlerr.As(err)
	if e == nil || e.Code != sqlerr.UndefinedTable {
		return err
	}
	for _, c := range left.Columns() {
		if c.Table != "" && e.Message == missingFromEntry(c.Table).Message {
			out := invalidFromEntry(sqlerr.UndefinedTable, c.Table).
				WithHint("There is an entry for table %q, but it cannot be referenced from this part of the query.", c.Table)
			out.Position = e.Position
			return out
		}
	}
	return err
}

func invalidFromEntry(code sqlerr.Code, table string) *sqlerr.Error {
	return sqlerr.New(code, "invalid reference to FROM-clause entry for table %q", table)
}
