package binder

import (
	"slices"

	"github.com/sqlgate/sqlgate/types"
)

// Grouping over bpchar without a length. PostgreSQL's bpchar equality
// (bpchareq, hashbpchar) ignores trailing blanks, so 'a' and 'a  ' are one
// group of GROUP BY, one row of DISTINCT and UNION, and INTERSECT/EXCEPT
// match them. exec's keys (relop/keys.go) see only Arrow strings and keep
// every byte, which is right for text and for character(n) (whose values
// all hold n characters, so they differ in trailing blanks only when they
// are the same value) but not for bpchar without a length, whose values
// keep the blanks they were written with. The plan therefore groups such
// a column by its value without trailing blanks (looseKey) and prints one
// of the group's own values, as PostgreSQL does (min over the group: a
// member, since PostgreSQL prints whichever member its hash table or sort
// met first, the choice is the plan's; a group of one prints its value
// unchanged). The keyed types whose equality is their key's (tsquery,
// the ranges: textorder.go) have the same problem and take the same plans,
// grouped by their key (looseEquality).

// looseBpchar reports bpchar without a length: values that may differ only
// in trailing blanks and still be equal.
func looseBpchar(t types.T) bool { return t.Kind == types.Char && t.Length <= 0 }

// looseEquality reports a type whose equal values may have two texts:
// loose bpchar, and the keyed types whose equality is their key's
// (textorder.go: tsquery's 'a:A' = 'a', numrange's [1.0,2) = [1,2)). The
// same plans group them by their key and show a member of each group.
func looseEquality(t types.T) bool {
	if looseBpchar(t) {
		return true
	}
	o, ok := textOrderOf(t)
	return ok && o.keyedEquality
}

// looseKey is e's grouping key: bpchar through text, which drops the
// trailing blanks (exec's cast, as PostgreSQL's rtrim), and back; a keyed
// type's key.
func looseKey(e Expr) Expr {
	t := e.Type().Nullable()
	if o, ok := textOrderOf(t); ok {
		return textKeyExpr(e, o)
	}
	return &Cast{X: &Cast{X: e, T: types.StringType}, T: t}
}

// looseAggregate is NewAggregate(input, keys, calls) where a key of loose
// bpchar groups by looseKey and shows the group's min: an Aggregate with
// one more min call per such key under a Project that puts each in its
// key's place, so the output columns are NewAggregate's.
func looseAggregate(input Node, keys []Expr, calls []AggCall) Node {
	plain := NewAggregate(input, keys, calls)
	if !slices.ContainsFunc(keys, func(k Expr) bool { return looseEquality(k.Type()) }) {
		return plain
	}
	keys2, calls2 := slices.Clone(keys), slices.Clone(calls)
	src := make([]int, len(plain.cols))
	for i := range src {
		src[i] = i
	}
	for i, k := range keys {
		if looseEquality(k.Type()) {
			keys2[i] = looseKey(k)
			src[i] = len(keys) + len(calls2)
			calls2 = append(calls2, AggCall{Func: "min", Args: []Expr{k}, T: k.Type().Nullable()})
		}
	}
	return showColumns(NewAggregate(input, keys2, calls2), src, plain.cols)
}

// showColumns projects columns src of n as cols.
func showColumns(n Node, src []int, cols []Column) *Project {
	in := n.Columns()
	p := &Project{Input: n, Cols: cols}
	for _, s := range src {
		p.Exprs = append(p.Exprs, &ColumnRef{Index: s, Name: in[s].Name, T: in[s].T})
	}
	return p
}

// looseDistinct is DISTINCT over n: a Distinct node, or, when a column is
// loose bpchar, looseAggregate grouping by every column.
func looseDistinct(n Node) Node {
	cols := n.Columns()
	if !slices.ContainsFunc(cols, func(c Column) bool { return looseEquality(c.T) }) {
		return &Distinct{Input: n}
	}
	return looseAggregate(n, columnRefs(cols, 0), nil)
}

// columnRefs refers to cols, the first at index base.
func columnRefs(cols []Column, base int) []Expr {
	refs := make([]Expr, len(cols))
	for i, c := range cols {
		refs[i] = &ColumnRef{Index: base + i, Name: c.Name, T: c.T}
	}
	return refs
}

// looseSetOp rewrites a set operation that compares loose bpchar columns
// (UNION, INTERSECT and EXCEPT without ALL). UNION is DISTINCT over UNION
// ALL. INTERSECT and EXCEPT group both sides' rows, told apart by a marker
// column, and keep the groups the left side has and the right side has
// (INTERSECT) or has not (EXCEPT), showing a left row's value as
// PostgreSQL's SetOp shows its first (left) row. INTERSECT ALL and EXCEPT
// ALL need no rewrite: exec's keys compare bpchar without its trailing
// blanks (lower/keyforms.go), as for every other keyed operator.
func looseSetOp(n Node) Node {
	s, ok := n.(*SetOp)
	if !ok || !slices.ContainsFunc(s.cols, func(c Column) bool { return looseEquality(c.T) }) {
		return n
	}
	if s.All {
		return keyedSetOpAll(s)
	}
	if s.Kind == Union {
		return looseDistinct(&SetOp{Left: s.Left, Right: s.Right, Kind: Union, All: true, Mixed: s.Mixed, cols: s.cols})
	}
	// Each side is its columns, then the markers L and R (1 on the own
	// side, NULL on the other), then for each loose column its value on
	// the left side and NULL on the right (the group's shown value).
	width := len(s.cols)
	var loose []int
	for i, c := range s.cols {
		if looseEquality(c.T) {
			loose = append(loose, i)
		}
	}
	one, none := &Const{Value: int64(1), T: types.Int64Type}, &Const{Value: nil, T: types.Int64Type}
	side := func(in Node, left bool) *Project {
		p := &Project{Input: in, Exprs: columnRefs(in.Columns(), 0), Cols: slices.Clone(s.cols)}
		for i, e := range p.Exprs {
			if !e.Type().Nullable().Equal(s.cols[i].T.Nullable()) {
				p.Exprs[i] = &Cast{X: e, T: s.cols[i].T.Nullable()}
			}
		}
		l, r := Expr(one), Expr(none)
		if !left {
			l, r = none, one
		}
		p.Exprs = append(p.Exprs, l, r)
		p.Cols = append(p.Cols, Column{Name: "l", T: types.Int64Type}, Column{Name: "r", T: types.Int64Type})
		for _, i := range loose {
			t := s.cols[i].T.Nullable()
			var v Expr = &Const{Value: nil, T: t}
			if left {
				v = p.Exprs[i]
			}
			p.Exprs = append(p.Exprs, v)
			p.Cols = append(p.Cols, Column{Name: s.cols[i].Name, T: t})
		}
		return p
	}
	lp, rp := side(s.Left, true), side(s.Right, false)
	both := &SetOp{Left: lp, Right: rp, Kind: Union, All: true, Mixed: s.Mixed, cols: lp.Cols}
	keys := columnRefs(s.cols, 0)
	for _, i := range loose {
		keys[i] = looseKey(keys[i])
	}
	count := func(col int) AggCall {
		return AggCall{Func: "count", Args: []Expr{&ColumnRef{Index: col, Name: lp.Cols[col].Name, T: types.Int64Type}}, T: types.T{Kind: types.Int64, NotNull: true}}
	}
	calls := []AggCall{count(width), count(width + 1)}
	for j, i := range loose {
		t := s.cols[i].T.Nullable()
		calls = append(calls, AggCall{Func: "min", Args: []Expr{&ColumnRef{Index: width + 2 + j, Name: s.cols[i].Name, T: t}}, T: t})
	}
	agg := NewAggregate(both, keys, calls)
	counted := func(k int) Expr {
		return &ColumnRef{Index: width + k, Name: "count", T: types.T{Kind: types.Int64, NotNull: true}}
	}
	zero := &Const{Value: int64(0), T: types.Int64Type}
	rightOp := OpGt // INTERSECT: the right side has the group
	if s.Kind == Except {
		rightOp = OpEq // EXCEPT: it has not
	}
	cond := &BinaryOp{Op: OpAnd, T: types.BoolType,
		L: &BinaryOp{Op: OpGt, L: counted(0), R: zero, T: types.BoolType},
		R: &BinaryOp{Op: rightOp, L: counted(1), R: zero, T: types.BoolType}}
	src := make([]int, width)
	for i := range src {
		src[i] = i
	}
	for j, i := range loose {
		src[i] = width + 2 + j
	}
	return showColumns(&Filter{Input: agg, Cond: cond}, src, s.cols)
}

// keyedSetOpAll rewrites INTERSECT ALL and EXCEPT ALL over a keyed type
// whose equality is its key's (tsquery, the ranges: exec's keys compare
// their text, which bpchar's do not). Both sides' rows, told apart by a
// marker, show for each keyed column the least text of its row's group
// (a window min partitioned by the row's keys over both sides), so that
// equal rows have one text; the set operation then runs on them, each
// side a scan of that one evaluation.
func keyedSetOpAll(s *SetOp) Node {
	if s.Kind == Union || !slices.ContainsFunc(s.cols, func(c Column) bool {
		o, ok := textOrderOf(c.T)
		return ok && o.keyedEquality
	}) {
		return s // UNION ALL keeps every row; bpchar's keys are exec's
	}
	width := len(s.cols)
	side := func(in Node, marker int64) *Project {
		p := &Project{Input: in, Exprs: columnRefs(in.Columns(), 0), Cols: slices.Clone(s.cols)}
		for i, e := range p.Exprs {
			if !e.Type().Nullable().Equal(s.cols[i].T.Nullable()) {
				p.Exprs[i] = &Cast{X: e, T: s.cols[i].T.Nullable()}
			}
		}
		p.Exprs = append(p.Exprs, &Const{Value: marker, T: types.Int64Type})
		p.Cols = append(p.Cols, Column{Name: "m", T: types.Int64Type})
		return p
	}
	lp, rp := side(s.Left, 1), side(s.Right, 2)
	var w Node = &SetOp{Left: lp, Right: rp, Kind: Union, All: true, Mixed: s.Mixed, cols: lp.Cols}
	keys := columnRefs(s.cols, 0)
	for i, c := range s.cols {
		if looseEquality(c.T) {
			keys[i] = looseKey(keys[i])
		}
	}
	shown := make([]int, width) // each column's shown value in w
	for i, c := range s.cols {
		shown[i] = i
		if !looseEquality(c.T) {
			continue
		}
		t := c.T.Nullable()
		cols := append(slices.Clone(w.Columns()), Column{Name: c.Name, T: t})
		w = &Window{Input: w, Call: WindowCall{Func: "min", Args: []Expr{&ColumnRef{Index: i, Name: c.Name, T: t}}, Partition: keys, T: t}, cols: cols}
		shown[i] = len(cols) - 1
	}
	// both sides read one evaluation of w, as a WITH query read twice
	shared := &SharedCTE{Name: "keyed_setop", Body: w}
	wcols := w.Columns()
	pick := func(marker int64) Node {
		f := &Filter{Input: NewCTEScan(shared, w), Cond: &BinaryOp{Op: OpEq, L: &ColumnRef{Index: width, Name: "m", T: types.Int64Type}, R: &Const{Value: marker, T: types.Int64Type}, T: types.BoolType}}
		p := &Project{Input: f, Cols: slices.Clone(s.cols)}
		for _, j := range shown {
			p.Exprs = append(p.Exprs, &ColumnRef{Index: j, Name: wcols[j].Name, T: wcols[j].T})
		}
		return p
	}
	return &SetOp{Left: pick(1), Right: pick(2), Kind: s.Kind, All: true, Mixed: s.Mixed, cols: s.cols}
}
