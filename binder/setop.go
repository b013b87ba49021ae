package binder

import (
	"github.com/sqlgate/sqlgate/pgtypes"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// SetOpKind is UNION, INTERSECT or EXCEPT.
type SetOpKind uint8

// The set operations.
const (
	Union SetOpKind = iota
	Intersect
	Except
)

var setOpNames = [...]string{"UNION", "INTERSECT", "EXCEPT"}

func (k SetOpKind) String() string { return setOpNames[k] }

// SetOp combines two inputs with the same column types; without All the
// result has no duplicates.
type SetOp struct {
	Left, Right Node
	Kind        SetOpKind
	All         bool
	// Mixed is set when the branches' records differ in a field's type
	// (recordmix.go): the rows are checked as PostgreSQL's sort meets them.
	Mixed *MixedRecords
	// Kept is set on a query's set operation that PostgreSQL does not
	// flatten into an append relation (prepjointree.c's
	// is_simple_union_all fails: not UNION ALL throughout, a branch's
	// column of another type than the result's, or its own ORDER BY,
	// LIMIT, OFFSET or WITH): as a derived table it is planned as a
	// subquery whose every output is computed
	// (remove_unused_subquery_outputs does nothing for set operations),
	// so lower's narrowThrough does not drop its branches' unread
	// columns. The UNION ALLs rules and the binder build themselves
	// (grouping sets) leave it unset.
	Kept bool
	cols []Column
}

func (n *SetOp) Columns() []Column { return n.cols }
func (n *SetOp) Children() []Node  { return []Node{n.Left, n.Right} }

// bindSetOpTree binds a set operation of sqlgate's tree: the operation
// itself (operands, which the tree groups as PostgreSQL's grammar does:
// INTERSECT binds tighter than UNION and EXCEPT), then its ORDER BY
// (output columns only) and LIMIT. Column types are resolved per column as
// PostgreSQL's UNION resolution does; names come from the first query. Its
// WITH binds first (bindWithTree).
func (b *binder) bindSetOpTree(q *pt.SetOp) (Node, error) {
	if q.With != nil {
		saved := b.ctes
		defer func() { b.ctes = saved }()
		if err := b.bindWithTree(q.With, q); err != nil { // exprbind.go
			return nil, err
		}
	}
	n, err := b.bindSetOpBody(q)
	if err != nil {
		return nil, err
	}
	if q.With != nil {
		n = keptSetOp(n) // is_simple_union_all: no cteList
	}
	return b.bindSetOpClauses(n, &q.QueryClauses)
}

// keptSetOp is n marked Kept when it is a set operation: its query has
// a clause PostgreSQL's is_simple_union_all refuses to flatten.
func keptSetOp(n Node) Node {
	if s, ok := n.(*SetOp); ok && !s.Kept {
		c := *s
		c.Kept = true
		return &c
	}
	return n
}

// bindSetOpClauses binds a set operation's ORDER BY and LIMIT over its
// result n.
func (b *binder) bindSetOpClauses(n Node, c *pt.QueryClauses) (Node, error) {
	var err error
	if len(c.OrderBy) > 0 || c.Limit != nil || c.Offset != nil {
		n = keptSetOp(n) // is_simple_union_all: no ORDER BY, LIMIT or OFFSET
	}
	if len(c.OrderBy) > 0 {
		if n, err = b.bindSetOpOrder(n, c.OrderBy); err != nil {
			return nil, err
		}
	}
	return b.bindLimitClauses(n, c, nil)
}

// bindSetOpBody binds a set operation's tree of operands, each bound
// before the operation that joins it is checked (as PostgreSQL's
// transformSetOperationTree goes); a query that is no set operation (the
// one operand of a parenthesised query) binds as itself. A SELECT or
// VALUES operand leaves its unknown literals for the operation to type
// (setOpBranch).
func (b *binder) bindSetOpBody(q pt.Query) (Node, error) {
	so, ok := q.(*pt.SetOp)
	if !ok {
		b.setOpBranch = false     // a parenthesised query alone is no branch
		return b.bindSetOpLeaf(q) // cte.go
	}
	operand := func(q pt.Query) (Node, error) {
		if inner, ok := q.(*pt.SetOp); ok {
			// a parenthesised operation orders and limits its own rows
			n, err := b.bindSetOpBody(inner)
			if err != nil {
				return nil, err
			}
			return b.bindSetOpClauses(n, &inner.QueryClauses)
		}
		b.setOpBranch = true
		return b.bindSetOpLeaf(q)
	}
	l, err := operand(so.L)
	if err != nil {
		return nil, err
	}
	r, err := operand(so.R)
	if err != nil {
		return nil, err
	}
	kind := Union
	switch so.Op {
	case pt.Intersect:
		kind = Intersect
	case pt.Except:
		kind = Except
	}
	m, col, typeErr := b.makeSetOpAt(l, r, kind, so.All)
	if typeErr != nil {
		return nil, b.setOpColumnError(so.R, col, typeErr)
	}
	if err := b.checkSetOpKeys(so, m.Columns()); err != nil { // typeops.go
		return nil, err
	}
	return looseSetOp(m), nil // bpchar compared without trailing blanks (bpchargroups.go)
}

// setOpColumnError positions makeSetOpAt's error of column col (-1: of
// no column) where PostgreSQL's transformSetOperationTree does: at that
// column of the right operand (setOpColumn).
func (b *binder) setOpColumnError(right pt.Query, col int, err *sqlerr.Error) error {
	if col < 0 || err.Position > 0 {
		return err // none, or a literal's own (checkLeafLiteral)
	}
	if at := setOpColumn(right, col); at != nil && at.Pos() > 0 {
		return b.errAt(at, err)
	}
	return err
}

// setOpColumn is the expression that stands for column i of a set
// operation's operand: of a SELECT its target, of a set operation its
// left operand's (PostgreSQL's location of the column is its first
// input's when their types agree).
func setOpColumn(q pt.Query, i int) pt.Expr {
	switch x := q.(type) {
	case *pt.SetOp:
		return setOpColumn(x.L, i)
	case *pt.ParenQuery:
		return setOpColumn(x.Query, i)
	case *pt.Select:
		if i < len(x.Targets) {
			if _, star := x.Targets[i].X.(*pt.Star); !star {
				return x.Targets[i].X
			}
		}
	}
	return nil // VALUES: PostgreSQL's column has no location
}

// makeSetOp is makeSetOpAt without the column of its error.
func (b *binder) makeSetOp(l, r Node, kind SetOpKind, all bool) (Node, error) {
	n, _, err := b.makeSetOpAt(l, r, kind, all)
	if err != nil {
		return nil, err
	}
	return n, nil
}

// makeSetOpAt joins l and r by the set operation, its columns' types
// resolved across the two; an error says which column it is about (-1:
// none).
func (b *binder) makeSetOpAt(l, r Node, kind SetOpKind, all bool) (Node, int, *sqlerr.Error) {
	lc, rc := l.Columns(), r.Columns()
	if len(lc) != len(rc) {
		return nil, -1, sqlerr.New(sqlerr.SyntaxError, "each %s query must have the same number of columns", kind)
	}
	ts := make([]types.T, len(lc))
	needL, needR := false, false
	for i := range lc {
		// an unknown literal takes the other branch's type ('x' UNION a
		// varchar column is varchar, '1' UNION 2 is integer) without its
		// type modifier (the literal has none)
		t, _, err := selectCommonType(kind.String(), []types.T{lc[i].T, rc[i].T}, false) // exprops.go
		if err != nil {
			return nil, i, err
		}
		ts[i] = t
		// an operand's untyped literal is converted in its own target
		// list (transformSetOperationTree's coerce_to_common_type of a
		// leaf's Const), column by column: a value the type refuses fails
		// there, at the literal
		for _, op := range []Node{l, r} {
			if err := b.checkLeafLiteral(op, i, t); err != nil {
				return nil, i, err
			}
		}
		needL = needL || !lc[i].T.Nullable().Equal(ts[i])
		needR = needR || !rc[i].T.Nullable().Equal(ts[i])
	}
	conv := func(n Node, cols []Column) Node {
		p := &Project{Input: n}
		for i, c := range cols {
			p.Exprs = append(p.Exprs, b.castTo(&ColumnRef{Index: i, Name: c.Name, T: c.T}, ts[i]))
			p.Cols = append(p.Cols, Column{Name: lc[i].Name, T: ts[i]})
		}
		return p
	}
	if needL {
		l = conv(l, lc)
	}
	if needR {
		r = conv(r, rc)
	}
	out := &SetOp{Left: l, Right: r, Kind: kind, All: all, Kept: !flattens(l, r, kind, all, lc, rc, ts)}
	if !all {
		out.Mixed = mixedRecords(lc, rc) // recordmix.go
	}
	for i, c := range lc {
		out.cols = append(out.cols, Column{Name: c.Name, T: ts[i]})
	}
	return out, -1, nil
}

// flattens reports whether PostgreSQL's is_simple_union_all holds for the
// set operation of l and r (columns lc and rc) whose columns' types are
// ts: UNION ALL over operands that are such operations (not Kept) or
// leaves whose columns have the result's types (typmods aside, as
// tlist_same_datatypes; an untyped literal is typed in its leaf).
func flattens(l, r Node, kind SetOpKind, all bool, lc, rc []Column, ts []types.T) bool {
	if kind != Union || !all {
		return false
	}
	for _, op := range []Node{l, r} {
		if s, ok := op.(*SetOp); ok && s.Kept {
			return false
		}
	}
	same := func(t, res types.T) bool {
		if isUnknown(t) {
			return true
		}
		a, _, _ := pgtypes.OIDOf(t)
		b, _, _ := pgtypes.OIDOf(res)
		return a == b
	}
	for i := range ts {
		if !same(lc[i].T, ts[i]) || !same(rc[i].T, ts[i]) {
			return false
		}
	}
	return true
}

// bindSetOpOrder orders a set operation's result by output columns
// (ordinals or names), the only keys PostgreSQL allows there.
func (b *binder) bindSetOpOrder(n Node, items []pt.OrderItem) (Node, error) {
	cols := n.Columns()
	proj := &Project{Input: n}
	for i, c := range cols {
		proj.Exprs = append(proj.Exprs, &ColumnRef{Index: i, Name: c.Name, T: c.T})
		proj.Cols = append(proj.Cols, c)
	}
	s := &Sort{Input: n}
	for i, item := range items {
		expr := item.X
		idx, err := b.orderKeyColumn(proj, expr, orderAt{visible: len(proj.Cols), place: listPlace{order: items[:i], kw: "order"}})
		if err != nil {
			return nil, err
		}
		if idx < 0 {
			return nil, b.errAt(expr, sqlerr.New(sqlerr.FeatureNotSupported, "ORDER BY on a UNION/INTERSECT/EXCEPT result is only supported on result columns"))
		}
		c := cols[idx]
		if err := b.applyUsing(&item, c.T); err != nil { // typeops.go
			return nil, err
		}
		nullsFirst := nullsFirst(item)
		if _, ok := enumLeaf(c.T); ok || hasTextOrder(c.T) {
			// by the enum's declaration order: its rank, a hidden column
			// (enumops.go) the projection above the sort drops; inet by
			// a key (textorder.go)
			r := b.enumKey(&ColumnRef{Index: idx, Name: c.Name, T: c.T})
			proj.Exprs = append(proj.Exprs, r)
			proj.Cols = append(proj.Cols, Column{Name: "?sort?", T: r.Type()})
			idx = len(proj.Cols) - 1
			c = proj.Cols[idx]
		}
		s.Keys = append(s.Keys, SortKey{Expr: &ColumnRef{Index: idx, Name: c.Name, T: c.T}, Desc: item.Desc, NullsFirst: nullsFirst})
	}
	if len(proj.Cols) > len(cols) {
		s.Input = proj
		out := &Project{Input: s}
		for i, c := range cols {
			out.Exprs = append(out.Exprs, &ColumnRef{Index: i, Name: c.Name, T: c.T})
			out.Cols = append(out.Cols, c)
		}
		return out, nil
	}
	return s, nil
}

// Narrowed is n over left and right, whose columns are n's columns keep
// (in order): the set operation of a rule that narrows both branches
// (lower's narrowThrough).
func (n *SetOp) Narrowed(left, right Node, keep []int) *SetOp {
	c := *n
	c.Left, c.Right = left, right
	c.cols = make([]Column, len(keep))
	for i, k := range keep {
		c.cols[i] = n.cols[k]
	}
	return &c
}

// checkLeafLiteral converts column i of set operation operand op to t
// when it is an untyped literal of the operand's own select list, only
// for the conversion's error, which is positioned at the literal (the
// operation's cast of the column gives the value).
func (b *binder) checkLeafLiteral(op Node, i int, t types.T) *sqlerr.Error {
	p, ok := op.(*Project)
	if !ok || i >= len(p.Exprs) || isUnknown(t) {
		return nil
	}
	c, ok := p.Exprs[i].(*Const)
	if !ok || !isUnknown(c.T) || c.Value == nil || c.At <= 0 {
		return nil
	}
	if _, err := b.coerceUnknown(nil, c, t); err != nil {
		if se := sqlerr.As(err); se != nil && se.Position > 0 {
			return se
		}
	}
	return nil
}
