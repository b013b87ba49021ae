package binder

import (
	"errors"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/sqlgate/sqlgate/sql"
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
	cols        []Column
}

func (n *SetOp) Columns() []Column { return n.cols }
func (n *SetOp) Children() []Node  { return []Node{n.Left, n.Right} }

// bindSetOpr binds a chain of UNION / INTERSECT / EXCEPT, then its ORDER BY
// (output columns only) and LIMIT. Column types are resolved per column as
// PostgreSQL's UNION resolution does; names come from the first query.
func (b *binder) bindSetOpr(st *ast.SetOprStmt) (Node, error) {
	if st.With != nil {
		saved := b.ctes
		defer func() { b.ctes = saved }()
		if err := b.bindWith(st.With, st); err != nil {
			return nil, err
		}
	}
	n, err := b.bindSetOprList(st.SelectList)
	if err != nil {
		return nil, err
	}
	if st.OrderBy != nil {
		if n, err = b.bindSetOpOrder(n, st.OrderBy); err != nil {
			return nil, err
		}
	}
	if st.Limit != nil {
		if n, err = b.bindLimit(n, st.Limit); err != nil {
			return nil, err
		}
	}
	return n, nil
}

func (b *binder) bindSetOprList(list *ast.SetOprSelectList) (Node, error) {
	if list.OrderBy != nil || list.Limit != nil {
		return nil, sqlerr.NotSupported("ORDER BY or LIMIT inside a parenthesised set operation")
	}
	// PostgreSQL's grammar binds INTERSECT tighter than UNION and EXCEPT
	// (each left-associative); TiDB's list reads a chain left to right
	// whatever its operators, so the chain is regrouped as it folds: an
	// INTERSECT joins the last term, a UNION or EXCEPT starts a new one,
	// and the terms fold from the left (setOpTerms).
	var terms setOpTerms
	for _, sel := range list.Selects {
		var (
			n   Node
			err error
			op  *ast.SetOprType
		)
		switch x := sel.(type) {
		case *ast.SelectStmt:
			op = x.AfterSetOperator
			b.setOpBranch = len(list.Selects) > 1
			n, err = b.bindSelect(x)
		case *ast.SetOprSelectList:
			op = x.AfterSetOperator
			n, err = b.bindSetOprList(x)
		default:
			return nil, sqlerr.NotSupported("this set operation operand")
		}
		if err != nil {
			return nil, err
		}
		if len(terms.nodes) == 0 {
			terms.nodes = append(terms.nodes, n)
			continue
		}
		kind, all := Union, false
		if op != nil {
			switch *op {
			case ast.UnionAll:
				all = true
			case ast.Except:
				kind = Except
			case ast.ExceptAll:
				kind, all = Except, true
			case ast.Intersect:
				kind = Intersect
			case ast.IntersectAll:
				kind, all = Intersect, true
			}
		}
		if err := terms.add(b, n, kind, all); err != nil {
			return nil, err
		}
	}
	return terms.fold(b)
}

// setOpTerms is a set-operation chain as PostgreSQL groups it: terms
// joined by UNION or EXCEPT (ops[i] joins terms i and i+1), each term a
// run of INTERSECTs already folded.
type setOpTerms struct {
	nodes []Node
	ops   []setOpJoin
}

type setOpJoin struct {
	kind SetOpKind
	all  bool
}

// add joins n to the chain with kind: INTERSECT into the last term, the
// others as a new term.
func (t *setOpTerms) add(b *binder, n Node, kind SetOpKind, all bool) error {
	if kind == Intersect {
		last := len(t.nodes) - 1
		m, err := b.makeSetOp(t.nodes[last], n, kind, all)
		if err != nil {
			return err
		}
		t.nodes[last] = looseSetOp(m) // bpchar compared without trailing blanks (bpchargroups.go)
		return nil
	}
	t.nodes = append(t.nodes, n)
	t.ops = append(t.ops, setOpJoin{kind, all})
	return nil
}

// fold joins the terms from the left.
func (t *setOpTerms) fold(b *binder) (Node, error) {
	if len(t.nodes) == 0 {
		return nil, sqlerr.NotSupported("an empty set operation")
	}
	acc := t.nodes[0]
	for i, op := range t.ops {
		m, err := b.makeSetOp(acc, t.nodes[i+1], op.kind, op.all)
		if err != nil {
			return nil, err
		}
		acc = looseSetOp(m)
	}
	return acc, nil
}

func (b *binder) makeSetOp(l, r Node, kind SetOpKind, all bool) (Node, error) {
	lc, rc := l.Columns(), r.Columns()
	if len(lc) != len(rc) {
		return nil, sqlerr.New(sqlerr.SyntaxError, "each %s query must have the same number of columns", kind)
	}
	ts := make([]types.T, len(lc))
	needL, needR := false, false
	for i := range lc {
		t, ok := commonType(lc[i].T, rc[i].T)
		switch lu, ru := isUnknown(lc[i].T), isUnknown(rc[i].T); {
		case lu && ru:
			t, ok = types.StringType, true
		case lu != ru:
			// PostgreSQL's select_common_type: an unknown literal takes the
			// other branch's type ('x' UNION a varchar column is varchar,
			// '1' UNION 2 is integer), and a length limit does not survive
			// (the literal has none)
			t, ok = rc[i].T, true
			if ru {
				t = lc[i].T
			}
			if t.Kind == types.String && t.Length != 0 {
				t.Length = -1
			}
			if t.Kind == types.Char {
				t.Length = 0 // bpchar without a length
			}
		}
		if !ok {
			return nil, noCommonType(kind.String(), lc[i].T, rc[i].T)
		}
		if t.Kind == types.Int8 {
			t = types.Int16Type
		}
		ts[i] = t.Nullable()
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
	out := &SetOp{Left: l, Right: r, Kind: kind, All: all}
	for i, c := range lc {
		out.cols = append(out.cols, Column{Name: c.Name, T: ts[i]})
	}
	return out, nil
}

// bindSetOpOrder orders a set operation's result by output columns
// (ordinals or names), the only keys PostgreSQL allows there.
func (b *binder) bindSetOpOrder(n Node, ob *ast.OrderByClause) (Node, error) {
	cols := n.Columns()
	proj := &Project{Input: n}
	for i, c := range cols {
		proj.Exprs = append(proj.Exprs, &ColumnRef{Index: i, Name: c.Name, T: c.T})
		proj.Cols = append(proj.Cols, c)
	}
	s := &Sort{Input: n}
	items, err := b.trees.OrderItemsToTree(ob)
	if err != nil {
		var te *sql.TransformError
		if errors.As(err, &te) {
			return nil, b.errAt(te.Node, te.Err)
		}
		return nil, err
	}
	for _, item := range items {
		expr, nullsFirst := item.X, item.Desc
		if item.Nulls != "" {
			nullsFirst = item.Nulls == "first"
		}
		idx, err := b.orderKeyColumn(proj, expr)
		if err != nil {
			return nil, err
		}
		if idx < 0 {
			return nil, b.errAt(expr, sqlerr.New(sqlerr.FeatureNotSupported, "ORDER BY on a UNION/INTERSECT/EXCEPT result is only supported on result columns"))
		}
		c := cols[idx]
		s.Keys = append(s.Keys, SortKey{Expr: &ColumnRef{Index: idx, Name: c.Name, T: c.T}, Desc: item.Desc, NullsFirst: nullsFirst})
	}
	return s, nil
}
