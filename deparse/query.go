package deparse

import (
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/types"
)

// The analysis of a view's query (sql/tree, parsed from the stored text)
// into the shape of PostgreSQL's Query tree that ruleutils.c's
// get_query_def prints: a range table per query level (relations,
// subqueries in FROM, joins, CTE references), the target list with each
// column's name, the join tree, and the expressions analysed as a stored
// expression's are, column references resolved to a range-table entry
// and column. Anything else is an error, and the catalog shows the text
// as written.

// Relations finds a relation a view's query names: its columns and the
// schema it is in (resolved: the printer qualifies the name by it when
// that schema is not on the search path), ok false when there is none.
// schema is "" when the name is not qualified.
type Relations func(schema, name string) (columns []Column, resolved string, ok bool)

// rteKind is a range-table entry's kind.
type rteKind uint8

const (
	rteRelation rteKind = iota + 1
	rteSubquery
	rteJoin
	rteCTE
)

// rangeEntry is a range-table entry (RangeTblEntry).
type rangeEntry struct {
	kind rteKind
	// name is a relation's or CTE's own name; schema a relation's schema
	// (as Relations resolved it, else as written: "" unqualified).
	name, schema string
	// alias is the alias written ("" none); aliasCols its column list.
	alias     string
	aliasCols []string
	// cols and types are the entry's columns (the alias list's names
	// first).
	cols  []string
	types []typ
	sub   *query // a subquery's or CTE's query
	// refname is the name set_rtable_names gives it when printed.
	refname string
	// join: a join's entry (unnamed: its columns print as the inputs').
	join *joinItem
}

// joinItem is a JoinExpr of the join tree.
type joinItem struct {
	kind    pt.JoinKind
	comma   bool // FROM a, b: two items of the FROM list, not a join
	l, r    fromItem
	on      node
	using   []string
	natural bool
	rte     *rangeEntry
}

// fromItem is a join tree node: a *rangeEntry or a *joinItem.
type fromItem interface{}

// nsColumn is a column a FROM item makes visible: its name and the node a
// reference to it is.
type nsColumn struct {
	name string
	n    node
}

// nsItem is a FROM item's namespace entry: the range-table entry its
// qualified references name (nil for an unnamed join) and the columns
// its unqualified references find.
type nsItem struct {
	rte  *rangeEntry
	cols []nsColumn
}

// level is one query level's scope: its FROM items (for unqualified
// names), every range-table entry a qualified name may name, the CTEs
// visible, and the enclosing level.
type level struct {
	parent *level
	items  []nsItem
	named  []nsItem // the entries qualified names find (leaves of joins too)
	ctes   []*cteDef
}

// cteDef is a WITH item.
type cteDef struct {
	name         string
	cols         []string
	materialized pt.Materialization
	q            *query
}

// targetEntry is one output column of a query: its expression and name;
// varName is the column's own name when the expression is a column.
type targetEntry struct {
	n       node
	name    string
	isVar   bool
	varName string
	junk    bool
	star    bool // expanded from * or t.*
}

// sortItem is an ORDER BY key: the target entry it sorts by.
type sortItem struct {
	tle        int
	desc       bool
	nullsFirst bool
}

// query is a Query: a SELECT (from, targets ...) or a set operation
// (setop, with its leaves' queries).
type query struct {
	with      []*cteDef
	recursive bool
	distinct  bool
	targets   []targetEntry
	from      []fromItem
	where     node
	groupBy   []int
	having    node
	orderBy   []sortItem
	limit     node
	offset    node
	withTies  bool // FETCH FIRST limit ROWS WITH TIES
	rtable    []*rangeEntry
	setop     *setOpItem
	windows   []*winNode
	// colNames are the output column names (the setop's first leaf's).
	colNames []string
	colTypes []typ
}

// setOpItem is a SetOperationStmt, or a leaf (q set).
type setOpItem struct {
	op   pt.SetOpKind
	all  bool
	l, r *setOpItem
	q    *query
}

// queryAnalyzer analyses a view's query over rels.
type queryAnalyzer struct {
	rels Relations
	// funcs are the user functions the query may call (Scope.Functions).
	funcs []Function
	text  string // the text the parser read (node offsets are into it)
	// crossWritten counts CROSS JOIN in the text, crossJoins the tree's
	// cross joins (isComma)
	crossWritten, crossJoins int
}

// parseView parses a view's stored text into the tree.
func parseView(text string) (pt.Query, string, error) {
	p := sql.NewParser()
	p.AcceptAnyCatalog()
	sts, err := p.Parse(text)
	if err != nil {
		return nil, "", err
	}
	if len(sts) != 1 || sts[0].AST == nil {
		return nil, "", errUnsupported("a view of %d statements", len(sts))
	}
	q, err := sql.QueryToTree(sts[0].AST, sts[0])
	if err != nil {
		return nil, "", err
	}
	return q, sts[0].Rewritten, nil
}

// query analyses q at a new level under parent.
func (qa *queryAnalyzer) query(q pt.Query, parent *level, ctes []*cteDef) (*query, error) {
	switch x := q.(type) {
	case *pt.Select:
		return qa.selectQuery(x, parent, ctes, false)
	case *pt.SetOp:
		return qa.setOpQuery(x, parent, ctes)
	}
	return nil, errUnsupported("query %T", q)
}

// with analyses a WITH clause; the CTEs it defines come first in the
// list the query's own level sees.
func (qa *queryAnalyzer) with(w *pt.With, parent *level, ctes []*cteDef) ([]*cteDef, []*cteDef, error) {
	if w == nil {
		return nil, ctes, nil
	}
	if w.Recursive {
		return nil, nil, errUnsupported("WITH RECURSIVE")
	}
	var defs []*cteDef
	for _, c := range w.CTEs {
		if c.Search != nil || c.Cycle != nil {
			return nil, nil, errUnsupported("SEARCH / CYCLE")
		}
		sub, err := qa.query(c.Query, parent, ctes)
		if err != nil {
			return nil, nil, err
		}
		if len(c.Columns) > len(sub.colNames) {
			return nil, nil, errUnsupported("CTE column list")
		}
		d := &cteDef{name: c.Name, cols: c.Columns, materialized: c.Materialized, q: sub}
		defs = append(defs, d)
		ctes = append([]*cteDef{d}, ctes...)
	}
	return defs, ctes, nil
}

func (qa *queryAnalyzer) setOpQuery(s *pt.SetOp, parent *level, ctes []*cteDef) (*query, error) {
	out := &query{}
	defs, ctes, err := qa.with(s.With, parent, ctes)
	if err != nil {
		return nil, err
	}
	out.with = defs
	var leaf func(q pt.Query) (*setOpItem, error)
	leaf = func(q pt.Query) (*setOpItem, error) {
		if so, ok := q.(*pt.SetOp); ok && so.With == nil && len(so.OrderBy) == 0 && so.Limit == nil && so.QueryClauses.Offset == nil {
			l, err := leaf(so.L)
			if err != nil {
				return nil, err
			}
			r, err := leaf(so.R)
			if err != nil {
				return nil, err
			}
			return &setOpItem{op: so.Op, all: so.All, l: l, r: r}, nil
		}
		sel, ok := q.(*pt.Select)
		if !ok {
			return nil, errUnsupported("set operation over %T", q)
		}
		sub, err := qa.selectQuery(sel, parent, ctes, true)
		if err != nil {
			return nil, err
		}
		return &setOpItem{q: sub}, nil
	}
	l, err := leaf(s.L)
	if err != nil {
		return nil, err
	}
	r, err := leaf(s.R)
	if err != nil {
		return nil, err
	}
	out.setop = &setOpItem{op: s.Op, all: s.All, l: l, r: r}
	if err := qa.setOpTypes(out.setop); err != nil {
		return nil, err
	}
	first := out.setop
	for first.q == nil {
		first = first.l
	}
	out.colNames = append(out.colNames, first.q.colNames...)
	out.colTypes = setOpTypesOf(out.setop)
	// ORDER BY of a set operation: output columns by name or number
	for _, o := range s.OrderBy {
		if o.Using != "" {
			return nil, errUnsupported("ORDER BY USING")
		}
		idx := -1
		switch x := o.X.(type) {
		case *pt.Ordinal:
			idx = x.N - 1
		case *pt.ColumnRef:
			if x.Table == "" {
				for i, n := range out.colNames {
					if n == x.Name {
						idx = i
						break
					}
				}
			}
		}
		if idx < 0 || idx >= len(out.colNames) {
			return nil, errUnsupported("ORDER BY of a set operation")
		}
		out.orderBy = append(out.orderBy, sortItem{tle: idx, desc: o.Desc, nullsFirst: nullsFirst(o)})
	}
	for i := range out.colNames {
		out.targets = append(out.targets, targetEntry{n: &varNode{name: out.colNames[i], t: out.colTypes[i]}, name: out.colNames[i]})
	}
	out.withTies = s.WithTies
	if out.limit, out.offset, err = qa.limits(&s.QueryClauses, parent, ctes); err != nil {
		return nil, err
	}
	return out, nil
}

// setOpTypes checks a set operation's columns and gives unknown literals
// of a leaf the column's common type (transformSetOperationTree coerces
// an unknown Const in a leaf's target list).
func (qa *queryAnalyzer) setOpTypes(s *setOpItem) error {
	if s.q != nil {
		return nil
	}
	if err := qa.setOpTypes(s.l); err != nil {
		return err
	}
	if err := qa.setOpTypes(s.r); err != nil {
		return err
	}
	lt, rt := setOpTypesOf(s.l), setOpTypesOf(s.r)
	if len(lt) != len(rt) {
		return errUnsupported("set operation of different widths")
	}
	a := &analyzer{}
	for i := range lt {
		common, ok := commonType([]typ{lt[i], rt[i]})
		if !ok {
			return errUnsupported("set operation column without a common type")
		}
		for _, side := range []*setOpItem{s.l, s.r} {
			if side.q == nil {
				continue
			}
			te := &side.q.targets[visibleIndex(side.q, i)]
			if k, ok := te.n.(*constNode); ok && k.t.oid == oidUnknown {
				c, err := a.coerce(k, common, castImplicit)
				if err != nil {
					return err
				}
				te.n = c
				side.q.colTypes[i] = common
			}
		}
	}
	return nil
}

// visibleIndex is the index in q.targets of its i-th output column.
func visibleIndex(q *query, i int) int {
	for j, te := range q.targets {
		if te.junk {
			continue
		}
		if i == 0 {
			return j
		}
		i--
	}
	return -1
}

func setOpTypesOf(s *setOpItem) []typ {
	if s.q != nil {
		return s.q.colTypes
	}
	lt, rt := setOpTypesOf(s.l), setOpTypesOf(s.r)
	out := make([]typ, len(lt))
	for i := range lt {
		out[i], _ = commonType([]typ{lt[i], rt[i]})
	}
	return out
}

func nullsFirst(o pt.OrderItem) bool {
	switch o.Nulls {
	case "first":
		return true
	case "last":
		return false
	}
	return o.Desc
}

// limits analyses LIMIT and OFFSET (bigint: an integer literal is cast).
func (qa *queryAnalyzer) limits(c *pt.QueryClauses, lv *level, ctes []*cteDef) (limit, offset node, err error) {
	a := &analyzer{lv: lv, qa: qa, ctes: ctes}
	conv := func(e pt.Expr) (node, error) {
		if e == nil {
			return nil, nil
		}
		if l, ok := e.(*pt.Literal); ok && l.Kind == pt.LitNull {
			return &constNode{t: typeOfOID(oidInt8), isNull: true}, nil
		}
		if l, ok := e.(*pt.Literal); ok && (l.Kind == pt.LitInt && l.Int == math.MaxInt64 || l.Kind == pt.LitUint && l.Uint >= math.MaxInt64) {
			return nil, nil // OFFSET without LIMIT: TiDB's grammar reads LIMIT max
		}
		x, err := a.expr(e)
		if err != nil {
			return nil, err
		}
		return a.coerce(x, typeOfOID(oidInt8), castImplicit)
	}
	if limit, err = conv(c.Limit); err != nil {
		return nil, nil, err
	}
	offset, err = conv(c.Offset)
	return limit, offset, err
}

// selectQuery analyses a SELECT; leaf says it is a set operation's
// operand, whose unknown literals its column's common type resolves
// (resolveTargetListUnknowns makes them text elsewhere).
func (qa *queryAnalyzer) selectQuery(s *pt.Select, parent *level, ctes []*cteDef, leaf bool) (*query, error) {
	if s.Table || len(s.DistinctOn) > 0 || s.GroupDistinct || len(s.Windows) > 0 || s.Locking != nil {
		return nil, errUnsupported("SELECT clause")
	}
	out := &query{distinct: s.Distinct}
	defs, ctes, err := qa.with(s.With, parent, ctes)
	if err != nil {
		return nil, err
	}
	out.with = defs
	lv := &level{parent: parent, ctes: ctes}
	if s.From != nil {
		items, err := qa.fromList(s.From, lv, out)
		if err != nil {
			return nil, err
		}
		out.from = items
	}
	a := &analyzer{lv: lv, qa: qa, ctes: ctes, q: out}
	for _, t := range s.Targets {
		if st, ok := t.X.(*pt.Star); ok {
			cols, err := lv.star(st)
			if err != nil {
				return nil, err
			}
			for _, c := range cols {
				v, _ := c.n.(*varNode)
				out.targets = append(out.targets, targetEntry{n: c.n, name: c.name, isVar: v != nil, varName: c.name, star: true})
			}
			continue
		}
		x, err := a.expr(t.X)
		if err != nil {
			return nil, err
		}
		if k, ok := x.(*constNode); ok && k.t.oid == oidUnknown && !leaf {
			if x, err = a.coerce(k, typeOfOID(oidText), castImplicit); err != nil {
				return nil, err
			}
		}
		te := targetEntry{n: x, name: t.Alias}
		if v, ok := x.(*varNode); ok && v.rte != nil {
			te.isVar, te.varName = true, v.rte.cols[v.col]
		}
		if te.name == "" {
			te.name = figureColname(t.X)
		}
		out.targets = append(out.targets, te)
	}
	for _, te := range out.targets {
		out.colNames = append(out.colNames, te.name)
		out.colTypes = append(out.colTypes, outputType(te.n))
	}
	if s.Where != nil {
		if out.where, err = a.boolArg(s.Where); err != nil {
			return nil, err
		}
	}
	for _, g := range s.GroupBy {
		idx, err := qa.groupTarget(g, out, a)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out.groupBy, idx) { // addTargetToGroupList skips a repeated key
			out.groupBy = append(out.groupBy, idx)
		}
	}
	if s.Having != nil {
		if out.having, err = a.boolArg(s.Having); err != nil {
			return nil, err
		}
	}
	for _, o := range s.OrderBy {
		if o.Using != "" {
			return nil, errUnsupported("ORDER BY USING")
		}
		idx, err := qa.orderTarget(o.X, out, a)
		if err != nil {
			return nil, err
		}
		if !slices.ContainsFunc(out.orderBy, func(s sortItem) bool { return s.tle == idx }) { // addTargetToSortList skips a repeated key
			out.orderBy = append(out.orderBy, sortItem{tle: idx, desc: o.Desc, nullsFirst: nullsFirst(o)})
		}
	}
	if err := qa.resolveWindows(out, a); err != nil {
		return nil, err
	}
	out.withTies = s.WithTies
	if out.limit, out.offset, err = qa.limits(&s.QueryClauses, lv, ctes); err != nil {
		return nil, err
	}
	return out, nil
}

// outputType is an output column's type: an unknown literal's is text
// for a view's column (but stays unknown in the tree).
func outputType(n node) typ { return n.typeOf() }

// orderTarget finds (or adds, as a junk entry) the target entry an ORDER
// BY key sorts by: an output column's name or number, else an
// expression equal to a target's (findTargetlistEntrySQL92/SQL99).
func (qa *queryAnalyzer) orderTarget(e pt.Expr, q *query, a *analyzer) (int, error) {
	switch x := e.(type) {
	case *pt.Ordinal:
		return ordinalTarget(x, q)
	case *pt.Literal:
		if x.Kind == pt.LitInt {
			return ordinalTarget(&pt.Ordinal{N: int(x.Int)}, q)
		}
	case *pt.ColumnRef:
		if x.Table == "" {
			found := -1
			for i, te := range q.targets {
				if !te.junk && te.name == x.Name {
					if found >= 0 {
						return 0, errUnsupported("ambiguous ORDER BY name")
					}
					found = i
				}
			}
			if found >= 0 {
				return found, nil
			}
		}
	}
	return qa.exprTarget(e, q, a)
}

// groupTarget is orderTarget for GROUP BY: an input column first, then an
// output column's name.
func (qa *queryAnalyzer) groupTarget(e pt.Expr, q *query, a *analyzer) (int, error) {
	switch x := e.(type) {
	case *pt.Ordinal:
		return ordinalTarget(x, q)
	case *pt.Literal:
		if x.Kind == pt.LitInt {
			return ordinalTarget(&pt.Ordinal{N: int(x.Int)}, q)
		}
	case *pt.GroupingSet:
		return 0, errUnsupported("grouping sets")
	case *pt.ColumnRef:
		if x.Table == "" {
			if _, err := a.column(x); err != nil {
				for i, te := range q.targets {
					if !te.junk && te.name == x.Name {
						return i, nil
					}
				}
			}
		}
	}
	return qa.exprTarget(e, q, a)
}

func ordinalTarget(x *pt.Ordinal, q *query) (int, error) {
	if x.Param != nil || x.N < 1 {
		return 0, errUnsupported("ordinal")
	}
	i := visibleIndex(q, x.N-1)
	if i < 0 {
		return 0, errUnsupported("ordinal out of range")
	}
	return i, nil
}

// exprTarget is the target entry whose expression is e's, or a junk one
// added for it.
func (qa *queryAnalyzer) exprTarget(e pt.Expr, q *query, a *analyzer) (int, error) {
	x, err := a.expr(e)
	if err != nil {
		return 0, err
	}
	key := exprKey(x)
	for i, te := range q.targets {
		if exprKey(te.n) == key {
			return i, nil
		}
	}
	q.targets = append(q.targets, targetEntry{n: x, junk: true})
	return len(q.targets) - 1, nil
}

// exprKey is a node's text, for comparing two analysed expressions.
func exprKey(n node) string {
	p := &printer{identity: true}
	p.expr(n, true)
	return p.sb.String()
}

// fromList analyses FROM: its comma-separated items (a cross join written
// with a comma) and the joins of each.
func (qa *queryAnalyzer) fromList(f pt.FromItem, lv *level, q *query) ([]fromItem, error) {
	if j, ok := f.(*pt.Join); ok && j.Kind == pt.CrossJoin && j.On == nil && len(j.Using) == 0 && !j.Natural {
		if comma, err := qa.isComma(j); err != nil || !comma {
			if err != nil {
				return nil, err
			}
			it, err := qa.fromItem(f, lv, q)
			return []fromItem{it}, err
		}
		l, err := qa.fromList(j.L, lv, q)
		if err != nil {
			return nil, err
		}
		r, err := qa.fromItem(j.R, lv, q)
		if err != nil {
			return nil, err
		}
		return append(l, r), nil
	}
	it, err := qa.fromItem(f, lv, q)
	if err != nil {
		return nil, err
	}
	return []fromItem{it}, nil
}

// isComma reports whether a cross join was written FROM a, b: the tree
// holds CROSS JOIN and the comma alike, and keeps no place for either, so
// the text decides when it is unambiguous - no CROSS JOIN written (every
// one is a comma) or as many as the tree's cross joins (none is).
func (qa *queryAnalyzer) isComma(*pt.Join) (bool, error) {
	switch qa.crossWritten {
	case 0:
		return true, nil
	case qa.crossJoins:
		return false, nil
	}
	return false, errUnsupported("FROM mixing commas and CROSS JOIN")
}

var (
	crossJoinWords = regexp.MustCompile(`(?i)\bcross\s+join\b`)
	quotedText     = regexp.MustCompile(`'(?:[^']|'')*'|"(?:[^"]|"")*"`)
)

// countCrossJoins sets the counts isComma compares.
func (qa *queryAnalyzer) countCrossJoins(q pt.Query) {
	// the words inside a string literal or quoted name are no join
	text := quotedText.ReplaceAllString(qa.text, "''")
	qa.crossWritten = len(crossJoinWords.FindAllStringIndex(text, -1))
	pt.Inspect(q, func(n pt.Node) bool {
		if j, ok := n.(*pt.Join); ok && j.Kind == pt.CrossJoin && j.On == nil && len(j.Using) == 0 && !j.Natural {
			qa.crossJoins++
		}
		return true
	})
}

// fromItem analyses one FROM item, adding its namespace entry to lv.
func (qa *queryAnalyzer) fromItem(f pt.FromItem, lv *level, q *query) (fromItem, error) {
	switch x := f.(type) {
	case *pt.TableRef:
		rte, err := qa.tableRef(x, lv)
		if err != nil {
			return nil, err
		}
		q.rtable = append(q.rtable, rte)
		lv.addLeaf(rte)
		return rte, nil
	case *pt.DerivedTable:
		if x.Lateral || x.Alias.Name == "" {
			return nil, errUnsupported("LATERAL or unnamed subquery")
		}
		sub, err := qa.query(x.Query, lv.parent, lv.ctes)
		if err != nil {
			return nil, err
		}
		rte := &rangeEntry{kind: rteSubquery, alias: x.Alias.Name, aliasCols: x.Alias.Columns, sub: sub}
		if err := rte.setColumns(sub.colNames, sub.colTypes); err != nil {
			return nil, err
		}
		q.rtable = append(q.rtable, rte)
		lv.addLeaf(rte)
		return rte, nil
	case *pt.Join:
		return qa.join(x, lv, q)
	}
	return nil, errUnsupported("FROM item %T", f)
}

// setColumns names an entry's columns: the alias list's names, then the
// source's own.
func (r *rangeEntry) setColumns(names []string, ts []typ) error {
	if len(r.aliasCols) > len(names) {
		return errUnsupported("too many column aliases")
	}
	r.cols = append(append([]string{}, r.aliasCols...), names[len(r.aliasCols):]...)
	r.types = ts
	return nil
}

func (qa *queryAnalyzer) tableRef(x *pt.TableRef, lv *level) (*rangeEntry, error) {
	if x.Name == nil {
		return nil, errUnsupported("table reference")
	}
	if x.Name.Schema == "" {
		// lv.ctes are the level's and its ancestors' WITH items, nearest first
		for _, c := range lv.ctes {
			if c.name == x.Name.Name {
				rte := &rangeEntry{kind: rteCTE, name: c.name, alias: x.Alias.Name, aliasCols: x.Alias.Columns, sub: c.q}
				names := c.q.colNames
				if len(c.cols) > 0 {
					names = append(append([]string{}, c.cols...), names[len(c.cols):]...)
				}
				return rte, rte.setColumns(names, c.q.colTypes)
			}
		}
	}
	cols, resolved, ok := qa.rels(x.Name.Schema, x.Name.Name)
	if !ok {
		return nil, errUnsupported("relation %q", x.Name.Name)
	}
	if resolved == "" {
		resolved = x.Name.Schema
	}
	rte := &rangeEntry{kind: rteRelation, name: x.Name.Name, schema: resolved, alias: x.Alias.Name, aliasCols: x.Alias.Columns}
	names := make([]string, len(cols))
	ts := make([]typ, len(cols))
	for i, c := range cols {
		names[i], ts[i] = c.Name, columnType(c)
	}
	return rte, rte.setColumns(names, ts)
}

// addLeaf makes a FROM item's entry visible: by qualified name, and by
// unqualified column names when it is a top-level FROM item (join.go
// replaces a join's inputs' entries by the join's).
func (lv *level) addLeaf(r *rangeEntry) {
	item := nsItem{rte: r}
	for i, c := range r.cols {
		item.cols = append(item.cols, nsColumn{name: c, n: &varNode{name: c, t: r.types[i], rte: r, col: i}})
	}
	lv.items = append(lv.items, item)
	lv.named = append(lv.named, item)
}

func (qa *queryAnalyzer) join(x *pt.Join, lv *level, q *query) (fromItem, error) {
	if x.Natural && x.Kind == pt.FullJoin || len(x.Using) > 0 && x.Kind == pt.FullJoin {
		return nil, errUnsupported("FULL JOIN USING")
	}
	start := len(lv.items)
	l, err := qa.fromItem(x.L, lv, q)
	if err != nil {
		return nil, err
	}
	mid := len(lv.items)
	r, err := qa.fromItem(x.R, lv, q)
	if err != nil {
		return nil, err
	}
	var lcols, rcols []nsColumn
	for _, it := range lv.items[start:mid] {
		lcols = append(lcols, it.cols...)
	}
	for _, it := range lv.items[mid:] {
		rcols = append(rcols, it.cols...)
	}
	j := &joinItem{kind: x.Kind, l: l, r: r, natural: x.Natural}
	using := x.Using
	if x.Natural {
		for _, c := range lcols {
			for _, d := range rcols {
				if c.name == d.name {
					using = append(using, c.name)
				}
			}
		}
	}
	var cols []nsColumn
	taken := map[string]bool{}
	if len(using) > 0 || x.Natural {
		j.using = using
		for _, name := range using {
			lc, lok := findCol(lcols, name)
			rc, rok := findCol(rcols, name)
			if !lok || !rok {
				return nil, errUnsupported("USING column %q", name)
			}
			if lc.n.typeOf().oid != rc.n.typeOf().oid {
				return nil, errUnsupported("USING columns of different types")
			}
			merged := lc
			if x.Kind == pt.RightJoin {
				merged = rc
			}
			cols = append(cols, nsColumn{name: name, n: merged.n})
			taken[name] = true
		}
	}
	for _, c := range append(append([]nsColumn{}, lcols...), rcols...) {
		if !taken[c.name] || !inList(using, c.name) {
			cols = append(cols, c)
		}
	}
	// the inputs' columns are found through the join now
	lv.items = append(lv.items[:start], nsItem{cols: cols})
	if x.On != nil {
		a := &analyzer{lv: lv, qa: qa, ctes: lv.ctes}
		if j.on, err = a.boolArg(x.On); err != nil {
			return nil, err
		}
	}
	j.rte = &rangeEntry{kind: rteJoin, join: j}
	q.rtable = append(q.rtable, j.rte)
	return j, nil
}

func inList(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func findCol(cols []nsColumn, name string) (nsColumn, bool) {
	for _, c := range cols {
		if c.name == name {
			return c, true
		}
	}
	return nsColumn{}, false
}

// star expands * or t.* over the level's FROM items.
func (lv *level) star(st *pt.Star) ([]nsColumn, error) {
	if st.Schema != "" {
		return nil, errUnsupported("schema.table.*")
	}
	if st.Table == "" {
		var out []nsColumn
		for _, it := range lv.items {
			out = append(out, it.cols...)
		}
		if len(out) == 0 {
			return nil, errUnsupported("* without FROM")
		}
		return out, nil
	}
	for _, it := range lv.named {
		if it.rte.visibleName() == st.Table {
			return it.cols, nil
		}
	}
	return nil, errUnsupported("%s.*", st.Table)
}

// visibleName is the name a qualified reference names the entry by.
func (r *rangeEntry) visibleName() string {
	if r.alias != "" {
		return r.alias
	}
	return r.name
}

// lookup resolves a column reference in lv and its ancestors.
func (lv *level) lookup(c *pt.ColumnRef) (node, error) {
	for l := lv; l != nil; l = l.parent {
		if c.Table != "" {
			for _, it := range l.named {
				r := it.rte
				if r.visibleName() != c.Table || c.Schema != "" && (r.alias != "" || r.schema != c.Schema) {
					continue
				}
				if cl, ok := findCol(it.cols, c.Name); ok {
					return cl.n, nil
				}
				return nil, errUnsupported("column %s.%s", c.Table, c.Name)
			}
			continue
		}
		var found node
		for _, it := range l.items {
			for _, cl := range it.cols {
				if cl.name == c.Name {
					if found != nil {
						return nil, errUnsupported("ambiguous column %q", c.Name)
					}
					found = cl.n
				}
			}
		}
		if found != nil {
			return found, nil
		}
	}
	return nil, errUnsupported("column %q", c.Name)
}

// figureColname is FigureColname: the name PostgreSQL gives an output
// column written without an alias.
func figureColname(e pt.Expr) string {
	switch x := e.(type) {
	case *pt.ColumnRef:
		return x.Name
	case *pt.FuncCall:
		switch n := strings.ToLower(x.Name); n {
		case "current_date", "current_time", "current_timestamp", "localtime", "localtimestamp", "current_role",
			"current_user", "session_user", "user", "current_catalog", "current_schema", "coalesce", "greatest",
			"least", "nullif":
			if n == "user" {
				return "current_user"
			}
			return n
		}
		return strings.ToLower(x.Name)
	case *pt.Cast:
		if n := figureColname(x.X); n != "?column?" {
			return n
		}
		if tn, err := sql.ParseTypeName(x.Type); err == nil && len(tn.Name) > 0 {
			return typeColname(tn.Name)
		}
	case *pt.Case:
		if x.Else != nil {
			if n := figureColname(x.Else); n != "?column?" {
				return n
			}
		}
		return "case"
	case *pt.Array:
		return "array"
	case *pt.Exists:
		return "exists"
	case *pt.Subquery:
		if x.Tree != nil {
			if sel, ok := x.Tree.(*pt.Select); ok && len(sel.Targets) == 1 {
				if sel.Targets[0].Alias != "" {
					return sel.Targets[0].Alias
				}
				return figureColname(sel.Targets[0].X)
			}
		}
	case *pt.Extract:
		return "extract"
	case *pt.Position:
		return "position"
	case *pt.Trim:
		return "btrim"
	}
	return "?column?"
}

// typeColname is the column name of a cast to a type (its last name
// part, as the grammar's canonical name: int4 for integer ...).
func typeColname(name string) string {
	if n := types.KeywordTypeName(strings.Fields(strings.ToLower(name)), ""); n != "" {
		return n
	}
	if i := strings.LastIndex(name, "."); i >= 0 {
		name = name[i+1:]
	}
	return strings.ToLower(name)
}
