package binder

import (
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// scope resolves column names against the columns of one input node.
type scope struct {
	// parent is the enclosing query's scope (for subqueries).
	parent *scope
	cols   []Column
	// tables are the aliases visible in this scope, for "missing FROM-clause
	// entry" errors; nil when they are exactly the columns' tables
	// (newScope), which hasTable then reads from cols.
	tables map[string]bool
}

// newScope is the scope of n's columns. It builds no alias set: a scope is
// made for every SELECT, and a qualified name looks its table up once.
func newScope(n Node) *scope {
	return &scope{cols: n.Columns()}
}

// hasTable reports whether table is an alias visible in s.
func (s *scope) hasTable(table string) bool {
	if s.tables != nil {
		return s.tables[table]
	}
	for i := range s.cols {
		if s.cols[i].Table == table {
			return true
		}
	}
	return false
}

// resolve finds the column a (possibly qualified) name refers to: in s, or
// in the query directly enclosing a subquery (a correlated reference).
func (b *binder) resolve(s *scope, cn sourceNode, table, name string) (Expr, error) {
	if table != "" && !s.hasTable(table) {
		if ref, ok, err := b.outerRef(cn, table, name); ok || err != nil {
			return ref, err
		}
		if alias := b.aliasHiding(s, table); alias != "" {
			return nil, b.errAt(cn, invalidFromEntry(sqlerr.UndefinedTable, table).
				WithHint("Perhaps you meant to reference the table alias %q.", alias))
		}
		return nil, b.errAt(cn, missingFromEntry(table))
	}
	found := -1
	for i := range s.cols {
		c := &s.cols[i] // a Column is over 100 bytes: no copy per column
		if c.Name != name || (table != "" && c.Table != table) || table == "" && c.Hidden {
			continue
		}
		if found >= 0 {
			return nil, b.errAt(cn, sqlerr.New(sqlerr.AmbiguousColumn, "column reference %q is ambiguous", name))
		}
		found = i
	}
	if found < 0 && table == "" {
		// (a qualified name whose table s names is s's column or
		// none: PostgreSQL does not look further out for it)
		if ref, ok, err := b.outerRef(cn, table, name); ok || err != nil {
			return ref, err
		}
	}
	if found < 0 {
		if e, ok, err := b.systemColumn(s, cn, table, name); ok || err != nil {
			return e, err // systemcols.go
		}
		if table != "" {
			return nil, b.errAt(cn, sqlerr.New(sqlerr.UndefinedColumn, "column %s.%s does not exist", table, name))
		}
		return nil, b.errAt(cn, sqlerr.New(sqlerr.UndefinedColumn, "column %q does not exist", name))
	}
	e := b.mergedExpr(s.cols, found)
	if c := s.cols[found].Collation; c != "" {
		if _, ok := e.(*ColumnRef); ok {
			e = b.markCollation(e, collMark{name: c, at: cn}) // collate.go
		}
	}
	return e, nil
}

// mergedExpr is the expression column i of cols stands for: a USING
// join's merged column (Column.Merge) is its side's column, a cast of it,
// or the COALESCE of both sides' (through nested USING joins); any other
// column is itself.
func (b *binder) mergedExpr(cols []Column, i int) Expr {
	c := &cols[i]
	side := func(k int) Expr {
		j := i + k
		if j <= i || j >= len(cols) || cols[j].Name != c.Name {
			return nil
		}
		return b.mergedExpr(cols, j)
	}
	implicit := func(e Expr) Expr {
		if ref, ok := e.(*ColumnRef); ok {
			if b.implicitRefs == nil {
				b.implicitRefs = map[*ColumnRef]bool{}
			}
			b.implicitRefs[ref] = true
		}
		return e
	}
	switch {
	case c.Merge[0] == 0:
	case c.Merge[1] != 0:
		l, r := side(c.Merge[0]), side(c.Merge[1])
		if l != nil && r != nil {
			t := c.T.Nullable()
			return &Coalesce{Args: []Expr{b.castTo(implicit(l), t), b.castTo(implicit(r), t)}, T: t}
		}
	default:
		if e := side(c.Merge[0]); e != nil {
			if t := e.Type(); !t.Same(&c.T) {
				e = b.castTo(implicit(e), c.T)
			}
			return e
		}
	}
	return b.newColumnRef(i, c.Name, c.T)
}

// mergedColumn is the column a USING join's merged column i of cols is
// when it is a side's column itself (no cast, not FULL), else i: an
// enclosing query's reference reads one column (outerRefIn).
func mergedColumn(cols []Column, i int) int {
	for cols[i].Merge[0] != 0 && cols[i].Merge[1] == 0 {
		j := i + cols[i].Merge[0]
		if j <= i || j >= len(cols) || cols[j].Name != cols[i].Name || !cols[j].T.Same(&cols[i].T) {
			break
		}
		i = j
	}
	return i
}

// has reports whether a (possibly qualified) column name resolves in s
// itself (not in an enclosing query): what an aggregate's level is read
// from (agglevels.go).
func (s *scope) has(table, name string) bool {
	if table != "" && !s.hasTable(table) {
		return false
	}
	for i := range s.cols {
		c := &s.cols[i]
		if c.Name == name && (table == "" && !c.Hidden || table != "" && c.Table == table) {
			return true
		}
	}
	return false
}

// outerRef resolves a name in the scope enclosing the subquery being bound.
// A reference to the directly enclosing query becomes an OuterRef slot of
// the subquery. A reference further out goes through every query between:
// each enclosing subquery gets a slot for the column, and the inner one's
// slot reads the outer one's (its ref is an OuterRef), so at run time the
// value travels down one level per subquery.
func (b *binder) outerRef(cn sourceNode, table, name string) (Expr, bool, error) {
	return b.outerRefIn(b.corr, cn, table, name)
}

func (b *binder) outerRefIn(c *corrState, cn sourceNode, table, name string) (Expr, bool, error) {
	if c == nil || c.outer == nil {
		return nil, false, nil
	}
	found := -1
	for i, col := range c.outer.cols {
		if col.Name != name || (table != "" && col.Table != table) || table == "" && col.Hidden {
			continue
		}
		if found >= 0 {
			return nil, true, b.errAt(cn, sqlerr.New(sqlerr.AmbiguousColumn, "column reference %q is ambiguous", name))
		}
		found = i
	}
	if found < 0 && table != "" && c.outer.hasTable(table) {
		// PostgreSQL looks a qualified name's table up level by level
		// and the column in the nearest level naming it
		// (refnameNamespaceItem): the column is missing, not the table
		return nil, true, b.errAt(cn, sqlerr.New(sqlerr.UndefinedColumn, "column %s.%s does not exist", table, name))
	}
	if found < 0 {
		// the query enclosing this subquery is itself a subquery: resolve
		// there, and pass the value down through a slot of this one
		outer, ok, err := b.outerRefIn(c.parent, cn, table, name)
		if !ok || err != nil {
			return nil, ok, err
		}
		return c.passDown(outer.(*OuterRef)), true, nil
	}
	found = mergedColumn(c.outer.cols, found)
	var ref *OuterRef
	if m := c.outer.cols[found].Merge; m[0] != 0 {
		// a merged column that is a cast or a COALESCE of the sides'
		// columns: the slot reads that expression, as the enclosing
		// query's own reference would (mergedExpr)
		e := b.mergedExpr(c.outer.cols, found)
		slot := corrSlot(c, &c.slots, found, func() Expr {
			Walk(e, func(x Expr) {
				if col, ok := x.(*ColumnRef); ok {
					if b.outerRefAt == nil {
						b.outerRefAt = map[*ColumnRef]sourceNode{}
					}
					b.outerRefAt[col] = cn // (rebase: an ungrouped one's error)
				}
			})
			return e
		})
		ref = &OuterRef{Slot: slot, Name: c.outer.cols[found].Name, T: e.Type()}
	} else {
		ref = c.slotOf(found)
	}
	if col, ok := c.refs[ref.Slot].(*ColumnRef); ok {
		if _, seen := b.outerRefAt[col]; !seen {
			if b.outerRefAt == nil {
				b.outerRefAt = map[*ColumnRef]sourceNode{}
			}
			b.outerRefAt[col] = cn // the first use, for an ungrouped column's error (rebase)
		}
	}
	return ref, true, nil
}

// slotOf is the OuterRef reading column found of the enclosing query's
// scope (c.outer), given a slot the first time it is read.
func (c *corrState) slotOf(found int) *OuterRef {
	col := c.outer.cols[found]
	slot := corrSlot(c, &c.slots, found, func() Expr { return &ColumnRef{Index: found, Name: col.Name, T: col.T} })
	return &OuterRef{Slot: slot, Name: col.Name, T: col.T}
}

// rowSlot is the OuterRef reading w, a whole row of a FROM item of the
// enclosing query's scope (wholeRowOf), one slot per item.
func (c *corrState) rowSlot(w *FuncCall) *OuterRef {
	slot := corrSlot(c, &c.rowSlots, w.Name, func() Expr { return w })
	return &OuterRef{Slot: slot, Name: w.Name, T: w.T}
}

// passDown is the OuterRef of this subquery that carries o, a slot of the
// enclosing subquery, down to it (one slot per value passed).
func (c *corrState) passDown(o *OuterRef) *OuterRef {
	slot := corrSlot(c, &c.passSlots, o.Slot, func() Expr { return o })
	return &OuterRef{Slot: slot, Name: o.Name, T: o.T}
}

// aggSlot is the OuterRef reading e, the result of an aggregate of the
// enclosing query's level bound in that query's aggregate binder
// (agglevels.go): a slot of its own per call.
func (c *corrState) aggSlot(e Expr) *OuterRef {
	slot := len(c.refs)
	c.refs = append(c.refs, e)
	return &OuterRef{Slot: slot, Name: e.String(), T: e.Type()}
}

// corrSlot is the slot of key in *slots, appending ref() to c.refs as a
// new slot the first time key is seen.
func corrSlot[K comparable](c *corrState, slots *map[K]int, key K, ref func() Expr) int {
	if slot, ok := (*slots)[key]; ok {
		return slot
	}
	slot := len(c.refs)
	c.refs = append(c.refs, ref())
	if *slots == nil {
		*slots = map[K]int{}
	}
	(*slots)[key] = slot
	return slot
}

// corrState collects a subquery's references to its enclosing query.
type corrState struct {
	outer *scope
	refs  []Expr // over the outer scope, one per slot
	slots map[int]int
	// parent is the enclosing subquery's state (nil at the top query);
	// passSlots maps a slot of the parent to the slot of this subquery that
	// passes its value down.
	parent    *corrState
	passSlots map[int]int
	// rowSlots are the slots of whole rows of the outer scope's FROM
	// items, by the whole row's name (t.*).
	rowSlots map[string]int
	// level is the enclosing query's, for its aggregates met in this
	// subquery (agglevels.go); nil when it is not a SELECT.
	level *queryLevel
}

// OuterRef reads, inside a correlated subquery, the value of the enclosing
// query's current row for one of the subquery's outer slots.
type OuterRef struct {
	Slot int
	Name string
	T    types.T
}

func (e *OuterRef) Type() types.T  { return e.T }
func (e *OuterRef) String() string { return "outer." + e.Name }

// aliasHiding is the alias under which the query being bound, or one
// enclosing it, reads the relation that table names, when table itself is
// no visible name: "SELECT t.a FROM t x" names the table where only its
// alias may be used, which PostgreSQL's errorMissingRTE words as an
// invalid reference with a hint of the alias. "" when there is none.
func (b *binder) aliasHiding(s *scope, table string) string {
	path, err := b.resolvePath("", table, false)
	if err != nil {
		return ""
	}
	in := func(cols []Column) string {
		for i := range cols {
			if a := cols[i].Table; a != "" && a != table {
				if sc := b.scanOf(a); sc != nil && sc.Table.Path == path {
					return a
				}
			}
		}
		return ""
	}
	if a := in(s.cols); a != "" {
		return a
	}
	for c := b.corr; c != nil; c = c.parent {
		if c.outer != nil {
			if a := in(c.outer.cols); a != "" {
				return a
			}
		}
	}
	return ""
}

// missingFromEntry is PostgreSQL's error for a qualified name whose table
// no FROM item of the query (or of an enclosing one) names.
func missingFromEntry(table string) *sqlerr.Error {
	return sqlerr.New(sqlerr.UndefinedTable, "missing FROM-clause entry for table %q", table)
}
