package binder

import (
	"strings"

	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// bindFromTree is the FROM-clause binder: nothing (one empty row), a
// table, a derived table, a function, or joins of them, from sqlgate's
// tree (a query's or a write's FROM items).
// sel is the query whose FROM it is: the names its whole-row references
// may use decide which outer joins' nullable sides carry row markers
// (wholeRowNames).
func (b *binder) bindFromTree(from pt.FromItem, sel *pt.Select) (Node, error) {
	if from == nil {
		return &Values{Rows: [][]Expr{{}}}, nil
	}
	return b.bindFromItemIn(from, wholeRowNames(from, sel))
}

// bindFromItem binds a FROM item whose query makes no whole-row
// references to it (a write's target or FROM items).
func (b *binder) bindFromItem(it pt.FromItem) (Node, error) {
	return b.bindFromItemIn(it, nil)
}

// bindFromItemIn binds a FROM item; rowNames are the FROM items whose
// whole row the query may read (wholeRowNames), given row markers where
// an outer join may null-extend them.
func (b *binder) bindFromItemIn(it pt.FromItem, rowNames map[string]bool) (Node, error) {
	switch x := it.(type) {
	case *pt.Join:
		return b.bindJoin(x, rowNames)
	case *pt.TableRef:
		return b.bindTableRef(x)
	case *pt.DerivedTable:
		inner, _, err := b.bindDerivedQuery(nil, x) // binder.go
		if err != nil {
			return nil, err
		}
		return relabelNames(inner, x.Alias.Name, x.Alias.Columns)
	case *pt.FuncTable:
		return b.bindFuncTable(x) // binder.go
	}
	return nil, sqlerr.NotSupported("this FROM item")
}

// bindTableRef binds a name in FROM: a WITH query's, a view's or a
// table's.
func (b *binder) bindTableRef(ref *pt.TableRef) (Node, error) {
	src, alias := ref.Name, ref.Alias.Name
	if cte, ok := b.ctes[src.Name]; ok && src.Schema == "" {
		return b.bindCTERef(cte, alias) // cte.go
	}
	if n, ok, err := b.bindModifyingRef(ref); ok { // modifyingwith.go
		return n, err
	}
	if n, ok, err := b.bindViewRef(src, alias); ok {
		return n, err
	}
	path := b.treePath(src)
	changelog, binlog := false, false
	if base, ok := strings.CutSuffix(path.Table, "$changelog"); ok {
		path.Table, changelog = base, true
	} else if base, ok := strings.CutSuffix(path.Table, "$binlog"); ok {
		path.Table, binlog = base, true
	}
	info, err := b.cat.GetTable(b.ctx, path)
	if err != nil {
		if se := sqlerr.As(err); se != nil {
			return nil, b.errAt(src, se)
		}
		return nil, err
	}
	// The catalog answers an unqualified name from pg_catalog when no
	// table has it; a name qualified with a schema must come from that
	// schema (public.pg_class is no table on PostgreSQL either).
	if src.Schema != "" && info.Path.Database != path.Database {
		return nil, b.errAt(src, sqlerr.New(sqlerr.UndefinedTable, "relation \"%s.%s\" does not exist", path.Database, path.Table))
	}
	if alias == "" {
		alias = src.Name
	}
	b.noteUse(ViewRelation{Path: info.Path, TableID: info.TableID})
	if changelog {
		return NewChangelogScan(info, alias), nil
	}
	if binlog {
		return b.binlogScan(src, info, alias)
	}
	sc := NewScan(info, alias)
	b.noteScan(sc) // a whole-row reference's row type (composite.go)
	return sc, nil
}

// relabelNames qualifies a derived table's columns with its alias (and
// renames them when a column alias list is given).
func relabelNames(n Node, alias string, names []string) (Node, error) {
	cols := n.Columns()
	if len(names) > len(cols) {
		return nil, sqlerr.New(sqlerr.InvalidColumnReference, "table %q has %d columns available but %d columns specified", alias, len(cols), len(names))
	}
	p := &Project{Input: n}
	for i, c := range cols {
		p.Exprs = append(p.Exprs, &ColumnRef{Index: i, Name: c.Name, T: c.T})
		c.Table = alias
		c.TableID, c.Ordinal = 0, 0
		c.Merge = [2]int{} // its names may change
		if i < len(names) {
			c.Name = names[i]
		}
		p.Cols = append(p.Cols, c)
	}
	return p, nil
}

// bindJoin binds a JOIN with ON, USING or NATURAL.
func (b *binder) bindJoin(j *pt.Join, rowNames map[string]bool) (Node, error) {
	left, err := b.bindFromItemIn(j.L, rowNames)
	if err != nil {
		return nil, err
	}
	right, outer, err := b.bindJoinRight(j, left, rowNames) // lateral.go
	if err != nil {
		return nil, err
	}
	if err := checkDuplicateAliases(left, right); err != nil {
		return nil, err
	}
	// an outer join's nullable side carries row markers (wholerow.go)
	if j.Kind == pt.RightJoin || j.Kind == pt.FullJoin {
		left = b.markNullable(left, rowNames)
	}
	if j.Kind == pt.LeftJoin || j.Kind == pt.FullJoin {
		right = b.markNullable(right, rowNames)
	}
	if len(outer) > 0 {
		return b.lateralJoin(j, left, right, outer)
	}
	jt := InnerJoin
	switch j.Kind {
	case pt.FullJoin:
		jt = FullJoin
	case pt.LeftJoin:
		jt = LeftJoin
	case pt.RightJoin:
		jt = RightJoin
	case pt.CrossJoin:
		jt = CrossJoin
	}
	join := NewJoin(left, right, jt, nil)
	switch {
	case j.On != nil:
		cond, err := b.bindJoinOn(join, j.On)
		if err != nil {
			return nil, err
		}
		join.Cond = cond
		return join, nil
	case len(j.Using) > 0 || j.Natural:
		return b.bindUsing(join, usingNames(j, left, right))
	}
	return join, nil
}

// bindJoinOn binds a join's ON condition over join's columns (a join, or
// a lateral one): a boolean ("argument of JOIN/ON"), without
// set-returning functions.
func (b *binder) bindJoinOn(join Node, on pt.Expr) (Expr, error) {
	restore := b.refuseSetCalls("JOIN conditions")      // srf.go
	restoreAgg := b.refuseAggregates("JOIN conditions") // agglevels.go
	cond, err := b.bindTree(newScope(join), on)
	restoreAgg()
	restore()
	if err != nil {
		return nil, err
	}
	return b.coerce(on, cond, types.BoolType, "argument of JOIN/ON")
}

// usingNames are the columns a USING or NATURAL join merges: USING's list,
// or for NATURAL the names visible on both sides, in the left's order.
func usingNames(j *pt.Join, left, right Node) []string {
	names := j.Using
	if j.Natural {
		names = append([]string(nil), names...)
		rightNames := map[string]bool{}
		for _, c := range right.Columns() {
			// a nested USING join lists its merged column and,
			// hidden, each side's: a visible one makes the name
			rightNames[c.Name] = rightNames[c.Name] || !c.Hidden
		}
		for _, c := range left.Columns() {
			if rightNames[c.Name] && !c.Hidden {
				names = append(names, c.Name)
			}
		}
	}
	return names
}

func checkDuplicateAliases(left, right Node) error {
	seen := map[string]bool{}
	for _, c := range left.Columns() {
		if c.Table != "" {
			seen[c.Table] = true
		}
	}
	done := map[string]bool{}
	for _, c := range right.Columns() {
		if c.Table != "" && seen[c.Table] && !done[c.Table] {
			return sqlerr.New(sqlerr.DuplicateAlias, "table name %q specified more than once", c.Table)
		}
		done[c.Table] = true
	}
	return nil
}

// bindUsing joins on equality of the named columns and, as PostgreSQL does,
// shows each of them once, first, followed by the other columns of each side;
// each side's own column stays, Hidden, where it was (l.x, r.x, l.*).
func (b *binder) bindUsing(join *Join, names []string) (Node, error) {
	p, cond, err := b.usingColumns(join, len(join.Left.Columns()), join.Type, names)
	if err != nil {
		return nil, err
	}
	join.Cond = cond
	if join.Type == CrossJoin {
		join.Type = InnerJoin
	}
	return p, nil
}

// usingColumns is the equality condition of a USING join over input (a
// Join or a Lateral of type jt whose left side has nl columns) and the
// projection above it that shows the merged columns.
func (b *binder) usingColumns(input Node, nl int, jt JoinType, names []string) (*Project, Expr, error) {
	cols := input.Columns()
	find := func(name string, from, to int) (int, error) {
		found := -1
		side := "left"
		if from > 0 {
			side = "right"
		}
		for i := from; i < to; i++ {
			if cols[i].Name == name && !cols[i].Hidden {
				if found >= 0 {
					return 0, sqlerr.New(sqlerr.AmbiguousColumn, "common column name %q appears more than once in %s table", name, side)
				}
				found = i
			}
		}
		if found < 0 {
			return 0, sqlerr.New(sqlerr.UndefinedColumn, "column %q specified in USING clause does not exist in %s table", name, side)
		}
		return found, nil
	}
	var cond Expr
	merged := map[int]bool{}
	p := &Project{Input: input}
	for _, name := range names {
		li, err := find(name, 0, nl)
		if err != nil {
			return nil, nil, err
		}
		ri, err := find(name, nl, len(cols))
		if err != nil {
			return nil, nil, err
		}
		eq, err := b.makeBinary(nil, OpEq, &ColumnRef{Index: li, Name: name, T: cols[li].T}, &ColumnRef{Index: ri, Name: name, T: cols[ri].T})
		if err != nil {
			return nil, nil, err
		}
		if cond == nil {
			cond = eq
		} else {
			cond = &BinaryOp{Op: OpAnd, L: cond, R: eq, T: types.BoolType}
		}
		merged[li], merged[ri] = true, true
		// The merged column has the type both sides take (PostgreSQL's
		// buildMergedJoinVar: select_common_type and
		// select_common_typmod), whichever side it shows: int USING an
		// int and a numeric(5,1) is numeric.
		t, _, cerr := selectCommonType("JOIN/USING", []types.T{cols[li].T, cols[ri].T}, false)
		if cerr != nil {
			return nil, nil, noBinaryOperator("=", cols[li].T, cols[ri].T)
		}
		// It shows the left side's column (the right's for a RIGHT join);
		// an inner join's shows the right's when only the left's needs a
		// cast to t, as buildMergedJoinVar prefers a side's Var: int4
		// USING int8 is the int8 side's column itself.
		src := li
		if jt == RightJoin || (jt == InnerJoin || jt == CrossJoin) && !t.Same(&cols[li].T) && t.Same(&cols[ri].T) {
			src = ri
		}
		c := cols[src]
		var shown Expr = &ColumnRef{Index: src, Name: name, T: c.T}
		if !t.Same(&c.T) {
			shown = b.castTo(shown, t)
			t.NotNull = c.T.NotNull
			c.T = t
		}
		if jt == FullJoin {
			// the column of whichever side has the row, as PostgreSQL's
			// COALESCE(l.x, r.x)
			shown = &Coalesce{Args: []Expr{b.castTo(&ColumnRef{Index: li, Name: name, T: cols[li].T}, t),
				b.castTo(&ColumnRef{Index: ri, Name: name, T: cols[ri].T}, t)}, T: t.Nullable()}
			c.T = t.Nullable()
		}
		// the sides' columns follow the merged ones (below)
		at := len(p.Exprs)
		c.Merge = [2]int{len(names) + src - at, 0}
		if jt == FullJoin {
			c.Merge = [2]int{len(names) + li - at, len(names) + ri - at}
		}
		p.Exprs = append(p.Exprs, shown)
		c.Table = ""
		p.Cols = append(p.Cols, c)
	}
	for i, c := range cols {
		c.Hidden = c.Hidden || merged[i]
		p.Exprs = append(p.Exprs, &ColumnRef{Index: i, Name: c.Name, T: c.T})
		p.Cols = append(p.Cols, c)
	}
	return p, cond, nil
}
