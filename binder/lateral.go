package binder

import (
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
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
// derived table marked LATERAL, or a function in FROM.
func lateralItem(it pt.FromItem) bool {
	switch x := it.(type) {
	case *pt.DerivedTable:
		return x.Lateral
	case *pt.FuncTable:
		return true
	}
	return false
}

// bindJoinRight binds a join's right input. A LATERAL item sees the left
// input's columns: outer lists the values of them it reads (empty when
// none, and for any other item). rowNames are bindFromItemIn's.
func (b *binder) bindJoinRight(j *pt.Join, left Node, rowNames map[string]bool) (right Node, outer []Expr, err error) {
	if !lateralItem(j.R) {
		right, err = b.bindFromItemIn(j.R, rowNames)
		return right, nil, invalidFromReference(err, left)
	}
	ls := newScope(left)
	switch x := j.R.(type) {
	case *pt.FuncTable:
		right, outer, err = b.withOuterScope(ls, func() (Node, error) { return b.bindFuncTable(x) })
	case *pt.DerivedTable:
		right, outer, err = b.bindLateralSubquery(ls, x)
	}
	if err != nil || len(outer) == 0 {
		return right, nil, err
	}
	if j.Kind == pt.RightJoin || j.Kind == pt.FullJoin {
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
func (b *binder) bindLateralSubquery(s *scope, d *pt.DerivedTable) (Node, []Expr, error) {
	inner, outer, err := b.bindDerivedQuery(s, d) // binder.go
	if err != nil {
		return nil, nil, err
	}
	n, err := relabelNames(inner, d.Alias.Name, d.Alias.Columns)
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
func (b *binder) lateralJoin(j *pt.Join, left, right Node, outer []Expr) (Node, error) {
	jt := InnerJoin
	if j.Kind == pt.LeftJoin {
		jt = LeftJoin
	} else if j.On == nil && len(j.Using) == 0 && !j.Natural {
		jt = CrossJoin
	}
	n := NewLateral(left, right, outer, jt, nil)
	if len(j.Using) > 0 || j.Natural {
		// the merged columns over the apply, as over a join (from.go)
		p, cond, err := b.usingColumns(n, len(left.Columns()), jt, usingNames(j, left, right))
		if err != nil {
			return nil, err
		}
		n.Cond = cond
		return p, nil
	}
	if j.On == nil {
		return n, nil
	}
	cond, err := b.bindJoinOn(n, j.On) // from.go
	if err != nil {
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
