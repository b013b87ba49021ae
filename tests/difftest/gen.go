package difftest

import (
	"fmt"
	"math/rand/v2"
	"strconv"
)

// Feature names a family of SQL that sqlgate may not support yet. The core
// (scalar expressions, WHERE, ORDER BY, LIMIT/OFFSET, point lookups) is
// always on; each Feature is turned on only when its Probe runs on sqlgate.
type Feature struct {
	Name  string
	Probe string
}

// Features lists the optional families, each with the probe query that
// proves sqlgate runs it. The probes read the fixture of DefaultSchema.
func Features() []Feature {
	return []Feature{
		{"agg", "SELECT a.s, count(*), count(a.i), sum(a.i), min(a.t), max(a.d) FROM t1 a GROUP BY a.s HAVING count(*) > 0"},
		{"agg.avg", "SELECT avg(a.i), avg(a.d), avg(a.n) FROM t1 a"},
		{"distinct", "SELECT DISTINCT a.f FROM t1 a"},
		{"join.inner", "SELECT a.id, b.id FROM t1 a INNER JOIN t2 b ON (a.id = b.id)"},
		{"join.left", "SELECT a.id, b.id FROM t1 a LEFT JOIN t2 b ON (a.id = b.id)"},
		{"join.right", "SELECT a.id, b.id FROM t1 a RIGHT JOIN t2 b ON (a.id = b.id)"},
		{"join.full", "SELECT a.id, b.id FROM t1 a FULL JOIN t2 b ON (a.id = b.id)"},
		{"join.cross", "SELECT a.id, b.id FROM t1 a CROSS JOIN t2 b"},
		{"subquery.in", "SELECT a.id FROM t1 a WHERE (a.i IN (SELECT sq.i FROM t2 sq))"},
		{"subquery.exists", "SELECT a.id FROM t1 a WHERE (EXISTS (SELECT sq.id FROM t2 sq WHERE (sq.i > 1)))"},
		{"subquery.scalar", "SELECT (SELECT sq.t FROM t2 sq WHERE (sq.id = 1)) FROM t1 a"},
		{"setop.union", "SELECT a.i FROM t1 a UNION SELECT b.i FROM t2 b"},
		{"setop.unionall", "SELECT a.i FROM t1 a UNION ALL SELECT b.i FROM t2 b"},
		{"setop.intersect", "SELECT a.i FROM t1 a INTERSECT SELECT b.i FROM t2 b"},
		{"setop.except", "SELECT a.i FROM t1 a EXCEPT SELECT b.i FROM t2 b"},
		{"orderby.expr", "SELECT a.id FROM t1 a ORDER BY (a.s + 1), a.id"},
		{"numeric.div", "SELECT (a.n / 3) FROM t1 a"},
		{"func.lower", "SELECT lower(a.t) FROM t1 a"},
		{"func.upper", "SELECT upper(a.t) FROM t1 a"},
		{"func.length", "SELECT length(a.t) FROM t1 a"},
		{"func.substr", "SELECT substr(a.t, 2, 2) FROM t1 a"},
		{"func.trim", "SELECT trim(a.t) FROM t1 a"},
		{"func.replace", "SELECT replace(a.t, 'b', 'xx') FROM t1 a"},
		{"func.abs", "SELECT abs(a.i), abs(a.d), abs(a.n) FROM t2 a"},
		{"func.round", "SELECT round(a.d), round(a.n, 1) FROM t1 a"},
		{"func.ceil", "SELECT ceil(a.d), ceil(a.n) FROM t1 a"},
		{"func.floor", "SELECT floor(a.d), floor(a.n) FROM t1 a"},
	}
}

// scopeCol is a column visible to the expression being generated.
type scopeCol struct {
	alias string
	col   Column
}

// Generator builds random queries over a Schema. The same seed, schema and
// feature set give the same sequence of queries.
type Generator struct {
	rng      *rand.Rand
	schema   *Schema
	features map[string]bool
	maxDepth int
	// nested stops subqueries from nesting.
	nested bool
}

// NewGenerator returns a generator for schema with the given features on.
func NewGenerator(seed uint64, schema *Schema, features map[string]bool) *Generator {
	return &Generator{
		rng:      rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		schema:   schema,
		features: features,
		maxDepth: 4,
	}
}

func (g *Generator) on(name string) bool { return g.features[name] }

func (g *Generator) intn(n int) int { return g.rng.IntN(n) }

func (g *Generator) chance(p float64) bool { return g.rng.Float64() < p }

func pick[T any](g *Generator, xs []T) T { return xs[g.rng.IntN(len(xs))] }

// scopeOf returns the columns of table under alias.
func (g *Generator) scopeOf(table, alias string) []scopeCol {
	t, _ := g.schema.table(table)
	out := make([]scopeCol, len(t.Columns))
	for i, c := range t.Columns {
		out[i] = scopeCol{alias, c}
	}
	return out
}

func colExpr(sc scopeCol) *Expr {
	return &Expr{Kind: KCol, Type: sc.col.Type, Text: sc.alias + "." + sc.col.Name, Table: sc.alias}
}

// Query generates the next query.
func (g *Generator) Query() *Query {
	type shape struct {
		name   string
		weight int
		build  func() *Query
	}
	shapes := []shape{
		{"nofrom", 10, g.noFromQuery},
		{"single", 45, g.singleTableQuery},
		{"pointlookup", 10, g.pointLookupQuery},
		// evalorder.go: errors that depend on what PostgreSQL computes
		{"evalorder", 15, g.evalOrderQuery},
	}
	if g.on("agg") {
		shapes = append(shapes, shape{"grouped", 15, g.groupedQuery})
	}
	if len(g.joinKinds()) > 0 {
		shapes = append(shapes, shape{"join", 15, g.joinQuery})
	}
	if len(g.setOps()) > 0 {
		shapes = append(shapes, shape{"setop", 10, g.setOpQuery})
	}
	total := 0
	for _, s := range shapes {
		total += s.weight
	}
	r := g.intn(total)
	for _, s := range shapes {
		if r < s.weight {
			q := s.build()
			q.Shape = s.name
			return q
		}
		r -= s.weight
	}
	q := shapes[0].build()
	q.Shape = shapes[0].name
	return q
}

func (g *Generator) randomType() Type { return pick(g, allTypes) }

func (g *Generator) selectItems(scope []scopeCol) []*Expr {
	n := 1 + g.intn(4)
	out := make([]*Expr, n)
	for i := range out {
		out[i] = g.expr(g.randomType(), scope, 0)
	}
	return out
}

func (g *Generator) noFromQuery() *Query {
	q := &Query{Limit: -1, Offset: -1, Items: g.selectItems(nil)}
	if g.chance(0.2) {
		q.Where = g.expr(Bool, nil, 1)
	}
	return q
}

func (g *Generator) pickTable() string {
	r := g.intn(10)
	switch {
	case r < 7:
		return "t1"
	case r < 9:
		return "t2"
	}
	return "t0"
}

func keyOf(alias string) *Expr {
	return &Expr{Kind: KCol, Type: Int8, Text: alias + ".id", Table: alias}
}

func (g *Generator) singleTableQuery() *Query {
	table := g.pickTable()
	scope := g.scopeOf(table, "a")
	q := &Query{Limit: -1, Offset: -1, From: []FromItem{{table, "a"}}, Keys: []*Expr{keyOf("a")}}
	q.Items = g.selectItems(scope)
	if g.chance(0.7) {
		q.Where = g.expr(Bool, scope, 0)
	}
	if g.on("distinct") && g.chance(0.1) {
		q.Distinct = true
		q.Keys = nil
		if g.chance(0.5) {
			q.OrderBy = positionsOrder(g, len(q.Items))
			g.limitOffset(q)
		}
		return q
	}
	g.order(q, scope)
	return q
}

// order adds an ORDER BY (complete, by ending with the keys, or partial)
// and, when the order is complete, maybe LIMIT and OFFSET.
func (g *Generator) order(q *Query, scope []scopeCol) {
	if g.chance(0.4) {
		return
	}
	n := g.intn(3)
	for i := 0; i < n; i++ {
		o := OrderItem{Desc: g.chance(0.5)}
		switch {
		case g.chance(0.4):
			o.Pos = 1 + g.intn(len(q.Items))
		case g.on("orderby.expr"):
			// A constant key is a position (an integer) or an error (other
			// constants) in PostgreSQL: keys always read a column.
			o.Expr = g.expr(g.randomType(), scope, 2)
			if !readsColumn(o.Expr) {
				o.Expr = colExpr(pick(g, scope))
			}
		default:
			sc := pick(g, scope)
			o.Expr = colExpr(sc)
		}
		if g.chance(0.4) {
			o.Nulls = pick(g, []string{"FIRST", "LAST"})
		}
		q.OrderBy = append(q.OrderBy, o)
	}
	if g.chance(0.8) {
		for _, k := range q.Keys {
			q.OrderBy = append(q.OrderBy, OrderItem{Expr: k.clone(), Desc: g.chance(0.3)})
		}
	}
	if q.CompletelyOrdered() {
		g.limitOffset(q)
	}
}

func (g *Generator) limitOffset(q *Query) {
	if g.chance(0.4) {
		q.Limit = g.intn(7)
	}
	if g.chance(0.25) {
		q.Offset = g.intn(5)
	}
}

func positionsOrder(g *Generator, n int) []OrderItem {
	var out []OrderItem
	for _, p := range g.rng.Perm(n) {
		o := OrderItem{Pos: p + 1, Desc: g.chance(0.4)}
		if g.chance(0.3) {
			o.Nulls = pick(g, []string{"FIRST", "LAST"})
		}
		out = append(out, o)
	}
	return out
}

// pointLookupQuery filters on the full primary key, which sqlgate turns
// into a lookup instead of a scan.
func (g *Generator) pointLookupQuery() *Query {
	table := pick(g, []string{"t1", "t1", "t2", "t0"})
	scope := g.scopeOf(table, "a")
	q := &Query{Limit: -1, Offset: -1, From: []FromItem{{table, "a"}}, Keys: []*Expr{keyOf("a")}}
	q.Items = g.selectItems(scope)
	k := int64(pick(g, []int{1, 2, 3, 4, 5, 7, 12, 20, 22, 99}))
	key := &Expr{Kind: KCmp, Op: "=", Type: Bool, Args: []*Expr{keyOf("a"), intLit(Int8, k)}}
	if g.chance(0.5) {
		key.Args[1] = intLit(Int4, k)
	}
	q.Where = key
	if g.chance(0.3) {
		q.Where = &Expr{Kind: KAnd, Type: Bool, Args: []*Expr{key, g.expr(Bool, scope, 1)}}
	}
	return q
}

// groupedQuery is SELECT keys..., aggregates... FROM t GROUP BY keys
// [HAVING ...] ORDER BY the key positions, or an ungrouped aggregate.
func (g *Generator) groupedQuery() *Query {
	table := pick(g, []string{"t1", "t1", "t2", "t0"})
	scope := g.scopeOf(table, "a")
	q := &Query{Limit: -1, Offset: -1, From: []FromItem{{table, "a"}}}
	if g.chance(0.5) {
		q.Where = g.expr(Bool, scope, 1)
	}
	nkeys := g.intn(3)
	for i := 0; i < nkeys; i++ {
		var k *Expr
		if g.chance(0.7) {
			k = colExpr(pick(g, scope))
		} else {
			k = g.expr(g.randomType(), scope, 2)
		}
		if !readsColumn(k) {
			// A constant GROUP BY key is a position (integer) or an error.
			k = colExpr(pick(g, scope))
		}
		q.GroupBy = append(q.GroupBy, k)
		q.Items = append(q.Items, k.clone())
		q.Keys = append(q.Keys, k.clone())
	}
	naggs := 1 + g.intn(3)
	for i := 0; i < naggs; i++ {
		q.Items = append(q.Items, g.aggregate(scope))
	}
	if nkeys > 0 && g.chance(0.4) {
		q.Having = g.havingPredicate(scope)
	}
	if g.chance(0.7) {
		for i := 0; i < nkeys; i++ {
			o := OrderItem{Pos: i + 1, Desc: g.chance(0.4)}
			if g.chance(0.3) {
				o.Nulls = pick(g, []string{"FIRST", "LAST"})
			}
			q.OrderBy = append(q.OrderBy, o)
		}
		if q.CompletelyOrdered() {
			g.limitOffset(q)
		}
	}
	return q
}

// aggregate returns an aggregate call over a row expression of scope.
func (g *Generator) aggregate(scope []scopeCol) *Expr {
	name := pick(g, []string{"count", "count", "sum", "min", "max", "avg"})
	if name == "avg" && !g.on("agg.avg") {
		name = "sum"
	}
	if name == "count" && g.chance(0.4) {
		return &Expr{Kind: KAgg, Op: "count", Type: Int8}
	}
	var argType Type
	switch name {
	case "sum", "avg":
		argType = pick(g, []Type{Int2, Int4, Int8, Float4, Float8, Numeric})
	case "min", "max":
		argType = pick(g, []Type{Int2, Int4, Int8, Float4, Float8, Numeric, Text, Date, Timestamp})
	default:
		argType = g.randomType()
	}
	arg := g.expr(argType, scope, 2)
	return &Expr{Kind: KAgg, Op: name, Type: aggResultType(name, argType), Args: []*Expr{arg}}
}

// aggResultType follows PostgreSQL's aggregate signatures.
func aggResultType(name string, arg Type) Type {
	switch name {
	case "count":
		return Int8
	case "sum":
		switch arg {
		case Int2, Int4:
			return Int8
		case Int8, Numeric:
			return Numeric
		}
		return arg
	case "avg":
		if arg.isFloat() {
			return Float8
		}
		return Numeric
	}
	if arg == Varchar {
		return Text
	}
	return arg
}

func (g *Generator) havingPredicate(scope []scopeCol) *Expr {
	agg := g.aggregate(scope)
	var other *Expr
	switch agg.Type {
	case Int8:
		other = intLit(Int8, int64(g.intn(4)))
	default:
		other = g.literal(agg.Type)
	}
	return &Expr{Kind: KCmp, Op: pick(g, cmpOps), Type: Bool, Args: []*Expr{agg, other}}
}

func (g *Generator) joinKinds() []string {
	var out []string
	for _, k := range []string{"inner", "left", "right", "full", "cross"} {
		if g.on("join." + k) {
			out = append(out, k)
		}
	}
	return out
}

func (g *Generator) joinQuery() *Query {
	kind := pick(g, g.joinKinds())
	right := pick(g, []string{"t2", "t2", "t0", "t1"})
	ls, rs := g.scopeOf("t1", "a"), g.scopeOf(right, "b")
	scope := append(append([]scopeCol(nil), ls...), rs...)
	q := &Query{
		Limit: -1, Offset: -1,
		From: []FromItem{{"t1", "a"}},
		Join: &Join{Kind: map[string]string{"inner": "INNER", "left": "LEFT", "right": "RIGHT", "full": "FULL", "cross": "CROSS"}[kind], Right: FromItem{right, "b"}},
		Keys: []*Expr{keyOf("a"), keyOf("b")},
	}
	if kind != "cross" {
		q.Join.On = g.joinCondition(ls, rs, scope)
	}
	q.Items = g.selectItems(scope)
	if g.chance(0.5) {
		q.Where = g.expr(Bool, scope, 1)
	}
	g.order(q, scope)
	return q
}

// joinCondition compares a column of each side with the same category,
// sometimes with an extra predicate.
func (g *Generator) joinCondition(ls, rs, scope []scopeCol) *Expr {
	for tries := 0; tries < 20; tries++ {
		l, r := pick(g, ls), pick(g, rs)
		if l.col.Type.category() != r.col.Type.category() {
			continue
		}
		on := &Expr{Kind: KCmp, Op: "=", Type: Bool, Args: []*Expr{colExpr(l), colExpr(r)}}
		if g.chance(0.2) {
			on.Op = pick(g, cmpOps)
		}
		if g.chance(0.3) {
			return &Expr{Kind: KAnd, Type: Bool, Args: []*Expr{on, g.expr(Bool, scope, 2)}}
		}
		return on
	}
	return &Expr{Kind: KCmp, Op: "=", Type: Bool, Args: []*Expr{keyOf("a"), keyOf("b")}}
}

func (g *Generator) setOps() []string {
	var out []string
	for _, s := range []struct{ feature, sql string }{
		{"setop.union", "UNION"}, {"setop.unionall", "UNION ALL"},
		{"setop.intersect", "INTERSECT"}, {"setop.intersect", "INTERSECT ALL"},
		{"setop.except", "EXCEPT"}, {"setop.except", "EXCEPT ALL"},
	} {
		if g.on(s.feature) {
			out = append(out, s.sql)
		}
	}
	return out
}

func (g *Generator) setOpQuery() *Query {
	lt, rt := g.pickTable(), g.pickTable()
	ls, rs := g.scopeOf(lt, "a"), g.scopeOf(rt, "b")
	left := &Query{Limit: -1, Offset: -1, From: []FromItem{{lt, "a"}}}
	right := &Query{Limit: -1, Offset: -1, From: []FromItem{{rt, "b"}}}
	n := 1 + g.intn(2)
	for i := 0; i < n; i++ {
		t := g.randomType()
		left.Items = append(left.Items, g.expr(t, ls, 2))
		right.Items = append(right.Items, g.expr(t, rs, 2))
	}
	if g.chance(0.5) {
		left.Where = g.expr(Bool, ls, 2)
	}
	if g.chance(0.5) {
		right.Where = g.expr(Bool, rs, 2)
	}
	left.SetOp = pick(g, g.setOps())
	left.Right = right
	if g.chance(0.5) {
		left.OrderBy = positionsOrder(g, n)
		g.limitOffset(left)
	}
	return left
}

var cmpOps = []string{"=", "<>", "<", "<=", ">", ">="}

// expr generates an expression of type t over scope. Deeper nodes are
// likelier to be leaves, so trees stay small.
func (g *Generator) expr(t Type, scope []scopeCol, depth int) *Expr {
	if depth >= g.maxDepth || g.chance(0.25+0.15*float64(depth)) {
		return g.leaf(t, scope)
	}
	if e := g.inner(t, scope, depth+1); e != nil {
		return e
	}
	return g.leaf(t, scope)
}

func (g *Generator) leaf(t Type, scope []scopeCol) *Expr {
	var cols []scopeCol
	for _, sc := range scope {
		if sc.col.Type == t || (t == Text && sc.col.Type == Varchar) {
			cols = append(cols, sc)
		}
	}
	if len(cols) > 0 && g.chance(0.65) {
		return colExpr(pick(g, cols))
	}
	if g.chance(0.08) {
		return &Expr{Kind: KNull, Type: t}
	}
	return g.literal(t)
}

func intLit(t Type, v int64) *Expr {
	e := &Expr{Kind: KLit, Type: t, IntValue: &v}
	s := strconv.FormatInt(v, 10)
	switch {
	case t == Int8 && (v > 2147483647 || v < -2147483648) && v != -9223372036854775808:
		// A literal outside int4's range is int8 by itself.
		if v < 0 {
			e.Text = "(" + s + ")"
		} else {
			e.Text = s
		}
	case v == -2147483648 || v == -9223372036854775808:
		// The minimum has no positive counterpart to negate.
		e.Text = fmt.Sprintf("'%s'::%s", s, t)
	case t == Int4 && v < 0:
		e.Text = "(" + s + ")"
	case t == Int4:
		e.Text = s
	default:
		e.Text = fmt.Sprintf("(%s)::%s", s, t)
	}
	return e
}

var (
	int2Values   = []int64{0, 1, 2, -1, 7, 100, 32767, -32768}
	int4Values   = []int64{0, 1, 2, 3, -1, 7, 42, -7, 2147483647, -2147483648, 65536}
	int8Values   = []int64{0, 1, 3, -1, 20, 4294967296, 9223372036854775807, -9223372036854775808, 3037000500}
	float8Texts  = []string{"0", "1.5", "-2.5", "0.1", "3", "'NaN'", "'Infinity'", "'-Infinity'", "'-0'", "1e308", "5e-324", "1e15"}
	float4Texts  = []string{"0", "1.5", "-2.5", "0.1", "'NaN'", "'Infinity'", "'-Infinity'", "'-0'", "3.4e38", "1e-45"}
	numericTexts = []string{"0.0", "1.5", "(-0.01)", "12.34", "99999999.99", "0.001", "(-7.0)", "123456789.123", "2.50"}
	textTexts    = []string{"'abc'", "''", "'ABC'", "'A b'", "'x''y'", "' '", "'%'", "'b'", "'  pad '"}
	dateTexts    = []string{"'2024-01-02'", "'1970-01-01'", "'2000-02-29'", "'1999-12-31'", "'1678-01-01'"}
	// Dates outside the fixture's 1678..2261 come only from these rare literals.
	extremeDateTexts = []string{"'9999-12-31'", "'0001-01-01'"}
	timestampTexts   = []string{"'2024-01-02 03:04:05'", "'2000-01-01 00:00:00'", "'1970-01-01 00:00:00.5'", "'1999-12-31 23:59:59.999999'"}
)

func (g *Generator) literal(t Type) *Expr {
	switch t {
	case Int2:
		return intLit(Int2, pick(g, int2Values))
	case Int4:
		return intLit(Int4, pick(g, int4Values))
	case Int8:
		return intLit(Int8, pick(g, int8Values))
	case Float8, Float4:
		texts := float8Texts
		if t == Float4 {
			texts = float4Texts
		}
		s := pick(g, texts)
		v, err := strconv.ParseFloat(trimQuotes(s), 64)
		e := &Expr{Kind: KLit, Type: t, Text: fmt.Sprintf("(%s)::%s", s, t)}
		if err == nil {
			e.FloatValue = &v
		}
		return e
	case Numeric:
		// Every text has a point: PostgreSQL types 7 as integer, 7.0 as numeric.
		s := pick(g, numericTexts)
		if g.chance(0.3) {
			s = "(" + s + ")::numeric"
		}
		return &Expr{Kind: KLit, Type: Numeric, Text: s}
	case Bool:
		return &Expr{Kind: KLit, Type: Bool, Text: pick(g, []string{"true", "false"})}
	case Text, Varchar:
		s := pick(g, textTexts)
		if g.chance(0.5) {
			s += "::text"
		}
		return &Expr{Kind: KLit, Type: Text, Text: s}
	case Date:
		s := pick(g, dateTexts)
		if g.chance(0.03) {
			s = pick(g, extremeDateTexts)
		}
		return &Expr{Kind: KLit, Type: Date, Text: s + "::date"}
	case Timestamp:
		return &Expr{Kind: KLit, Type: Timestamp, Text: pick(g, timestampTexts) + "::timestamp"}
	}
	return &Expr{Kind: KNull, Type: t}
}

func trimQuotes(s string) string {
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		return s[1 : len(s)-1]
	}
	return s
}

// inner returns a non-leaf expression of type t, or nil when the chosen
// construct does not apply to t.
func (g *Generator) inner(t Type, scope []scopeCol, depth int) *Expr {
	type option struct {
		weight int
		build  func() *Expr
	}
	var opts []option
	add := func(w int, f func() *Expr) { opts = append(opts, option{w, f}) }
	generic := func() {
		add(2, func() *Expr { return g.caseExpr(t, scope, depth) })
		add(2, func() *Expr {
			n := 2 + g.intn(2)
			e := &Expr{Kind: KCoalesce, Type: t}
			for i := 0; i < n; i++ {
				e.Args = append(e.Args, g.expr(t, scope, depth))
			}
			return e
		})
		add(1, func() *Expr {
			return &Expr{Kind: KNullif, Type: t, Args: []*Expr{g.expr(t, scope, depth), g.expr(t, scope, depth)}}
		})
		add(2, func() *Expr { return g.castTo(t, scope, depth) })
		if !g.nested && g.on("subquery.scalar") {
			add(1, func() *Expr { return g.scalarSubquery(t) })
		}
	}
	switch {
	case t.isInt():
		add(8, func() *Expr { return g.arith(t, scope, depth) })
		add(1, func() *Expr { return &Expr{Kind: KNeg, Type: t, Args: []*Expr{g.expr(t, scope, depth)}} })
		generic()
		if g.on("func.abs") {
			add(1, func() *Expr { return &Expr{Kind: KFunc, Op: "abs", Type: t, Args: []*Expr{g.expr(t, scope, depth)}} })
		}
		if t == Int4 && g.on("func.length") {
			add(1, func() *Expr {
				return &Expr{Kind: KFunc, Op: "length", Type: Int4, Args: []*Expr{g.expr(Text, scope, depth)}}
			})
		}
	case t.isFloat() || t == Numeric:
		add(8, func() *Expr { return g.arith(t, scope, depth) })
		add(1, func() *Expr { return &Expr{Kind: KNeg, Type: t, Args: []*Expr{g.expr(t, scope, depth)}} })
		generic()
		if g.on("func.abs") {
			add(1, func() *Expr { return &Expr{Kind: KFunc, Op: "abs", Type: t, Args: []*Expr{g.expr(t, scope, depth)}} })
		}
		for _, f := range []string{"round", "ceil", "floor"} {
			if g.on("func."+f) && t != Float4 {
				f := f
				add(1, func() *Expr { return &Expr{Kind: KFunc, Op: f, Type: t, Args: []*Expr{g.expr(t, scope, depth)}} })
			}
		}
		if t == Numeric && g.on("func.round") {
			add(1, func() *Expr {
				return &Expr{Kind: KFunc, Op: "round", Type: Numeric, Args: []*Expr{g.expr(Numeric, scope, depth), intLit(Int4, int64(g.intn(4)))}}
			})
		}
	case t == Bool:
		add(10, func() *Expr { return g.comparison(scope, depth) })
		add(3, func() *Expr {
			k := pick(g, []Kind{KAnd, KOr})
			return &Expr{Kind: k, Type: Bool, Args: []*Expr{g.expr(Bool, scope, depth), g.expr(Bool, scope, depth)}}
		})
		add(2, func() *Expr { return &Expr{Kind: KNot, Type: Bool, Args: []*Expr{g.expr(Bool, scope, depth)}} })
		add(2, func() *Expr {
			return &Expr{Kind: KIsNull, Op: pick(g, []string{"IS NULL", "IS NOT NULL"}), Type: Bool, Args: []*Expr{g.expr(g.randomType(), scope, depth)}}
		})
		add(2, func() *Expr {
			a, b := g.comparablePair(scope, depth)
			return &Expr{Kind: KDistinct, Op: pick(g, []string{"IS DISTINCT FROM", "IS NOT DISTINCT FROM"}), Type: Bool, Args: []*Expr{a, b}}
		})
		add(2, func() *Expr {
			t := g.randomType()
			e := &Expr{Kind: KIn, Op: pick(g, []string{"IN", "NOT IN"}), Type: Bool, Args: []*Expr{g.expr(t, scope, depth)}}
			n := 1 + g.intn(4)
			for i := 0; i < n; i++ {
				e.Args = append(e.Args, g.expr(t, scope, depth+1))
			}
			return e
		})
		add(2, func() *Expr {
			t := pick(g, []Type{Int4, Int8, Float8, Numeric, Text, Date, Timestamp, Int2})
			return &Expr{Kind: KBetween, Op: pick(g, []string{"BETWEEN", "NOT BETWEEN"}), Type: Bool,
				Args: []*Expr{g.expr(t, scope, depth), g.expr(t, scope, depth+1), g.expr(t, scope, depth+1)}}
		})
		add(1, func() *Expr { return g.caseExpr(Bool, scope, depth) })
		add(1, func() *Expr {
			return &Expr{Kind: KCoalesce, Type: Bool, Args: []*Expr{g.expr(Bool, scope, depth), g.expr(Bool, scope, depth)}}
		})
		if !g.nested && g.on("subquery.in") {
			add(1, func() *Expr { return g.inSubqueryExpr(scope, depth) })
		}
		if !g.nested && g.on("subquery.exists") {
			add(1, func() *Expr { return g.existsSubquery() })
		}
	case t == Text:
		add(5, func() *Expr {
			return &Expr{Kind: KConcat, Type: Text, Args: []*Expr{g.expr(Text, scope, depth), g.expr(Text, scope, depth)}}
		})
		generic()
		for _, f := range []string{"lower", "upper", "trim"} {
			if g.on("func." + f) {
				f := f
				add(1, func() *Expr { return &Expr{Kind: KFunc, Op: f, Type: Text, Args: []*Expr{g.expr(Text, scope, depth)}} })
			}
		}
		if g.on("func.substr") {
			add(1, func() *Expr {
				return &Expr{Kind: KFunc, Op: "substr", Type: Text, Args: []*Expr{g.expr(Text, scope, depth),
					intLit(Int4, int64(g.intn(5)-1)), intLit(Int4, int64(g.intn(4)))}}
			})
		}
		if g.on("func.replace") {
			add(1, func() *Expr {
				return &Expr{Kind: KFunc, Op: "replace", Type: Text, Args: []*Expr{g.expr(Text, scope, depth), g.literal(Text), g.literal(Text)}}
			})
		}
	default: // date, timestamp
		generic()
	}
	total := 0
	for _, o := range opts {
		total += o.weight
	}
	r := g.intn(total)
	for _, o := range opts {
		if r < o.weight {
			return o.build()
		}
		r -= o.weight
	}
	return nil
}

// arith builds a binary arithmetic expression whose PostgreSQL result type
// is t: integers combine with integers no wider than t (one of them exactly
// t); float8 takes any number on the other side; float4 and numeric only
// their own kind or integers (numeric).
func (g *Generator) arith(t Type, scope []scopeCol, depth int) *Expr {
	ops := []string{"+", "-", "*", "/"}
	if t.isInt() || t == Numeric {
		ops = append(ops, "%")
	}
	op := pick(g, ops)
	if t == Numeric && op == "/" && !g.on("numeric.div") {
		op = "*"
	}
	var other Type
	switch {
	case t.isInt():
		var narrower []Type
		for _, x := range []Type{Int2, Int4, Int8} {
			if intRank(x) <= intRank(t) {
				narrower = append(narrower, x)
			}
		}
		other = pick(g, narrower)
	case t == Float8:
		other = pick(g, []Type{Float8, Float8, Float4, Int4, Int8, Int2})
	case t == Numeric:
		other = pick(g, []Type{Numeric, Numeric, Int4, Int8})
	default:
		other = t
	}
	a, b := g.expr(t, scope, depth), g.expr(other, scope, depth)
	if g.chance(0.5) {
		a, b = b, a
	}
	return &Expr{Kind: KArith, Op: op, Type: t, Args: []*Expr{a, b}}
}

func (g *Generator) comparablePair(scope []scopeCol, depth int) (*Expr, *Expr) {
	var ta, tb Type
	switch pick(g, []string{"number", "number", "text", "time", "bool"}) {
	case "number":
		nums := []Type{Int2, Int4, Int8, Float4, Float8, Numeric}
		ta, tb = pick(g, nums), pick(g, nums)
	case "text":
		ta, tb = Text, Text
	case "time":
		ta, tb = pick(g, []Type{Date, Timestamp}), pick(g, []Type{Date, Timestamp})
	default:
		ta, tb = Bool, Bool
	}
	return g.expr(ta, scope, depth), g.expr(tb, scope, depth)
}

func (g *Generator) comparison(scope []scopeCol, depth int) *Expr {
	a, b := g.comparablePair(scope, depth)
	return &Expr{Kind: KCmp, Op: pick(g, cmpOps), Type: Bool, Args: []*Expr{a, b}}
}

func (g *Generator) caseExpr(t Type, scope []scopeCol, depth int) *Expr {
	e := &Expr{Kind: KCase, Type: t}
	n := 1 + g.intn(3)
	for i := 0; i < n; i++ {
		e.Args = append(e.Args, g.expr(Bool, scope, depth), g.expr(t, scope, depth))
	}
	if g.chance(0.7) {
		e.Op = "else"
		e.Args = append(e.Args, g.expr(t, scope, depth))
	}
	return e
}

// castSources lists, per target, the source types whose cast to it both
// systems define.
var castSources = map[Type][]Type{
	Int2:      {Int4, Int8, Float4, Float8, Numeric},
	Int4:      {Int2, Int8, Float4, Float8, Numeric, Bool, Text},
	Int8:      {Int2, Int4, Float4, Float8, Numeric},
	Float4:    {Int2, Int4, Int8, Float8, Numeric},
	Float8:    {Int2, Int4, Int8, Float4, Numeric, Text},
	Numeric:   {Int2, Int4, Int8, Float4, Float8},
	Bool:      {Int4, Text},
	Text:      {Int2, Int4, Int8, Float4, Float8, Numeric, Bool, Date, Timestamp},
	Date:      {Timestamp, Text},
	Timestamp: {Date},
}

func (g *Generator) castTo(t Type, scope []scopeCol, depth int) *Expr {
	if t == Varchar {
		t = Text
	}
	from := pick(g, castSources[t])
	return &Expr{Kind: KCast, Type: t, Args: []*Expr{g.expr(from, scope, depth)}}
}

// subquery scopes: uncorrelated, over t2 (or the empty t0) under alias sq.
func (g *Generator) subScope() (string, []scopeCol) {
	table := pick(g, []string{"t2", "t2", "t1", "t0"})
	return table, g.scopeOf(table, "sq")
}

func (g *Generator) withinSubquery(f func()) {
	g.nested = true
	defer func() { g.nested = false }()
	f()
}

func (g *Generator) inSubqueryExpr(scope []scopeCol, depth int) *Expr {
	t := pick(g, []Type{Int4, Int8, Text, Float8, Numeric, Date})
	x := g.expr(t, scope, depth)
	var sub *Query
	g.withinSubquery(func() {
		table, ss := g.subScope()
		sub = &Query{Limit: -1, Offset: -1, From: []FromItem{{table, "sq"}}, Items: []*Expr{g.expr(t, ss, 2)}}
		if g.chance(0.5) {
			sub.Where = g.expr(Bool, ss, 2)
		}
	})
	return &Expr{Kind: KInSub, Op: pick(g, []string{"IN", "NOT IN"}), Type: Bool, Args: []*Expr{x}, Sub: sub}
}

func (g *Generator) existsSubquery() *Expr {
	var sub *Query
	g.withinSubquery(func() {
		table, ss := g.subScope()
		sub = &Query{Limit: -1, Offset: -1, From: []FromItem{{table, "sq"}}, Items: []*Expr{keyOf("sq")}, Where: g.expr(Bool, ss, 1)}
	})
	return &Expr{Kind: KExists, Op: pick(g, []string{"", "NOT "}), Type: Bool, Sub: sub}
}

// scalarSubquery selects one value by primary key, so at most one row.
func (g *Generator) scalarSubquery(t Type) *Expr {
	var sub *Query
	g.withinSubquery(func() {
		table, ss := g.subScope()
		k := int64(pick(g, []int{1, 3, 5, 20, 99}))
		sub = &Query{Limit: -1, Offset: -1, From: []FromItem{{table, "sq"}}, Items: []*Expr{g.expr(t, ss, 2)},
			Where: &Expr{Kind: KCmp, Op: "=", Type: Bool, Args: []*Expr{keyOf("sq"), intLit(Int8, k)}}}
	})
	return &Expr{Kind: KScalarSq, Type: t, Sub: sub}
}

func readsColumn(e *Expr) bool {
	found := false
	e.walk(func(x *Expr) {
		if x.Kind == KCol {
			found = true
		}
	})
	return found
}
