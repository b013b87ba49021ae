package difftest

// Queries whose outcome depends on the order in which PostgreSQL computes
// things, observable through errors: an overflow in the select list over
// rows that WHERE, a join's ON condition or HAVING removes, or that a CASE,
// COALESCE, AND or OR branch does not reach; arithmetic with a NULL operand
// of every integer width (PostgreSQL folds a strict operator with a NULL
// constant to NULL without computing the other operand, and a kernel must
// not raise for the value under a NULL slot). Each hazard is built to fail
// on the fixture's boundary rows (t1 holds every integer type's minimum
// and maximum) and each guard to remove exactly those rows, so that the
// answer is rows in PostgreSQL and an error only where the guard is not
// honoured; a guard that keeps the failing rows is generated too.

// intCols are the integer columns of t1 and their types.
var intCols = []struct {
	name string
	t    Type
}{{"i", Int4}, {"s", Int2}, {"b", Int8}}

var intTypes = []Type{Int2, Int4, Int8}

// intBound is the largest value of t.
func intBound(t Type) int64 {
	switch t {
	case Int2:
		return 32767
	case Int4:
		return 2147483647
	}
	return 9223372036854775807
}

func col(alias, name string, t Type) *Expr {
	return &Expr{Kind: KCol, Type: t, Text: alias + "." + name, Table: alias}
}

func arith(op string, t Type, l, r *Expr) *Expr {
	return &Expr{Kind: KArith, Op: op, Type: t, Args: []*Expr{l, r}}
}

func cmp(op string, l, r *Expr) *Expr {
	return &Expr{Kind: KCmp, Op: op, Type: Bool, Args: []*Expr{l, r}}
}

// hazard is an expression over column c (of type t) that fails on the
// fixture's extreme rows of c (|c| near t's bound, or c = 0) and on no row
// with |c| <= 100.
func (g *Generator) hazard(c *Expr, t Type) *Expr {
	switch g.intn(5) {
	case 0: // c * 2 overflows at the bounds
		return arith("*", t, c, intLit(t, 2))
	case 1: // c + k overflows at the maximum
		return arith("+", t, c, intLit(t, intBound(t)-100))
	case 2: // c - k overflows at the minimum
		return arith("-", t, c, intLit(t, intBound(t)-100))
	case 3: // 1000 / c divides by zero at 0
		return arith("/", t, intLit(t, 1000), c)
	}
	// the narrowest type's cast fails for wide values
	if t == Int2 {
		return arith("*", t, c, c)
	}
	return &Expr{Kind: KCast, Type: Int2, Args: []*Expr{c}}
}

// safe is a condition true exactly for the rows whose c is small and not
// zero (where hazard does not fail); unsafe is its opposite.
func (g *Generator) safe(c *Expr, t Type) *Expr {
	switch g.intn(4) {
	case 0:
		return &Expr{Kind: KBetween, Op: "BETWEEN", Type: Bool, Args: []*Expr{c, intLit(t, 1), intLit(t, 100)}}
	case 1:
		return &Expr{Kind: KAnd, Type: Bool, Args: []*Expr{cmp(">", c, intLit(t, 0)), cmp("<", c, intLit(t, 101))}}
	case 2:
		return &Expr{Kind: KIn, Op: "IN", Type: Bool, Args: []*Expr{c, intLit(t, 1), intLit(t, 2), intLit(t, 3), intLit(t, 7), intLit(t, 42), intLit(t, 100)}}
	}
	return &Expr{Kind: KAnd, Type: Bool, Args: []*Expr{cmp("<>", c, intLit(t, 0)), cmp("<", c, intLit(t, 101)), cmp(">", c, intLit(t, -101))}}
}

// evalOrderQuery builds one query of the family.
func (g *Generator) evalOrderQuery() *Query {
	ic := pick(g, intCols)
	a := col("a", ic.name, ic.t)
	q := &Query{Limit: -1, Offset: -1, From: []FromItem{{"t1", "a"}}, Keys: []*Expr{keyOf("a")}}
	honest := !g.chance(0.15) // else the guard keeps a failing row: both must fail alike
	guard := g.safe(a, ic.t)
	if !honest {
		guard = cmp("<>", a, intLit(ic.t, 1))
	}
	switch g.intn(8) {
	case 0: // WHERE removes the rows the select list fails on
		q.Items = []*Expr{keyOf("a"), g.hazard(a.clone(), ic.t)}
		q.Where = guard
	case 1: // a join's ON condition removes them (inner), or NULL-extends them (left)
		if !g.on("join.inner") {
			q.Items = []*Expr{g.hazard(a.clone(), ic.t)}
			q.Where = guard
			break
		}
		kind := "INNER"
		if g.on("join.left") && g.chance(0.5) {
			kind = "LEFT"
		}
		b := col("b", ic.name, ic.t)
		on := &Expr{Kind: KAnd, Type: Bool, Args: []*Expr{cmp("=", keyOf("a"), keyOf("b")), g.safeOn(b, ic.t, honest)}}
		q.Join = &Join{Kind: kind, Right: FromItem{"t1", "b"}, On: on}
		q.Items = []*Expr{keyOf("a"), g.hazard(b, ic.t)}
		q.Keys = []*Expr{keyOf("a"), keyOf("b")}
	case 2: // HAVING removes the groups whose aggregate the select list or ORDER BY overflows
		if !g.on("agg") {
			q.Items = []*Expr{g.hazard(a.clone(), ic.t)}
			q.Where = guard
			break
		}
		agg := &Expr{Kind: KAgg, Op: pick(g, []string{"max", "min"}), Type: ic.t, Args: []*Expr{a.clone()}}
		q.GroupBy = []*Expr{keyOf("a")}
		q.Items = []*Expr{keyOf("a"), g.hazard(agg, ic.t)}
		q.Keys = []*Expr{keyOf("a")}
		q.Having = g.safe(agg.clone(), ic.t)
		if !honest {
			q.Having = cmp("<>", agg.clone(), intLit(ic.t, 1))
		}
		if g.on("orderby.expr") && g.chance(0.5) {
			q.OrderBy = []OrderItem{{Expr: g.hazard(agg.clone(), ic.t)}, {Expr: keyOf("a")}}
		}
	case 3: // CASE: the failing branch is reached only by the safe rows
		e := &Expr{Kind: KCase, Type: ic.t, Args: []*Expr{guard, g.hazard(a.clone(), ic.t), intLit(ic.t, 0)}, Op: "else"}
		if g.chance(0.5) {
			// the failing branch in ELSE, after a branch that takes the unsafe rows
			e.Args = []*Expr{{Kind: KNot, Type: Bool, Args: []*Expr{guard}}, intLit(ic.t, 0), g.hazard(a.clone(), ic.t)}
			e.Args[0] = &Expr{Kind: KOr, Type: Bool, Args: []*Expr{e.Args[0], &Expr{Kind: KIsNull, Op: "IS NULL", Type: Bool, Args: []*Expr{a.clone()}}}}
		}
		q.Items = []*Expr{keyOf("a"), e}
	case 4: // AND / OR: the failing operand is reached only by the safe rows
		h := cmp(">", g.hazard(a.clone(), ic.t), intLit(ic.t, 0))
		var e *Expr
		if g.chance(0.5) {
			e = &Expr{Kind: KAnd, Type: Bool, Args: []*Expr{guard, h}}
		} else {
			e = &Expr{Kind: KOr, Type: Bool, Args: []*Expr{&Expr{Kind: KNot, Type: Bool, Args: []*Expr{guard}}, h}}
		}
		if g.chance(0.5) {
			q.Items = []*Expr{keyOf("a"), e}
		} else {
			q.Items = []*Expr{keyOf("a")}
			q.Where = e
		}
	case 5: // COALESCE: the failing argument is reached only by the safe rows
		safeOrNull := &Expr{Kind: KCase, Type: ic.t, Args: []*Expr{guard, &Expr{Kind: KNull, Type: ic.t}, intLit(ic.t, 0)}, Op: "else"}
		q.Items = []*Expr{keyOf("a"), {Kind: KCoalesce, Type: ic.t, Args: []*Expr{safeOrNull, g.hazard(a.clone(), ic.t)}}}
	default: // arithmetic with a NULL operand of each integer width
		nt := pick(g, intTypes)
		wide := ic.t
		if intRank(nt) > intRank(wide) {
			wide = nt
		}
		null := &Expr{Kind: KNull, Type: nt}
		var x *Expr = a.clone()
		if g.chance(0.5) {
			x = g.hazard(a.clone(), ic.t) // never computed: PostgreSQL folds x op NULL to NULL
		}
		if g.on("agg") && g.chance(0.3) {
			x = &Expr{Kind: KAgg, Op: "max", Type: ic.t, Args: []*Expr{a.clone()}}
			q.Keys = nil
		}
		op := pick(g, []string{"+", "-", "*", "/", "%"})
		e := arith(op, wide, x, null)
		if g.chance(0.5) {
			e = arith(op, wide, null, x)
		}
		q.Items = []*Expr{e}
		if q.Keys != nil {
			q.Items = append(q.Items, keyOf("a"))
		}
		if g.chance(0.3) {
			q.Where = guard
		}
		return q
	}
	if len(q.OrderBy) == 0 && q.Keys != nil && g.chance(0.5) {
		for _, k := range q.Keys {
			q.OrderBy = append(q.OrderBy, OrderItem{Expr: k.clone()})
		}
	}
	return q
}

// safeOn is a join condition's guard on the right side's column.
func (g *Generator) safeOn(b *Expr, t Type, honest bool) *Expr {
	if honest {
		return g.safe(b.clone(), t)
	}
	return cmp("<>", b.clone(), intLit(t, 1))
}
