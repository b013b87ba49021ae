package difftest

// MismatchClass names the kind of a disagreement, so that shrinking keeps
// the same mismatch instead of wandering to another one.
func MismatchClass(sg, pg Outcome) string {
	switch {
	case sg.Err != nil && pg.Err != nil:
		return "sqlstate " + sg.Err.Code + "/" + pg.Err.Code
	case sg.Err != nil:
		return "sqlgate error " + sg.Err.Code
	case pg.Err != nil:
		return "postgres error " + pg.Err.Code
	}
	return "results"
}

// stillMismatches reports whether q still shows the mismatch being shrunk.
type stillMismatches func(q *Query) bool

// Minimise shrinks q while still reports the mismatch: it drops clauses,
// select items, order keys and conjuncts, lowers LIMIT/OFFSET, and replaces
// subexpressions by one of their operands or by a simple literal, greedily,
// until no candidate keeps the mismatch or budget checks are spent.
func Minimise(q *Query, still stillMismatches, budget int) *Query {
	cur := q.clone()
	for budget > 0 {
		improved := false
		for _, c := range candidates(cur) {
			if budget == 0 {
				break
			}
			if !wellFormed(c) {
				continue
			}
			budget--
			if still(c) {
				cur = c
				improved = true
				break
			}
		}
		if !improved {
			break
		}
	}
	return cur
}

// wellFormed rejects candidates whose result would be nondeterministic:
// LIMIT or OFFSET without a complete order.
func wellFormed(q *Query) bool {
	if (q.Limit >= 0 || q.Offset >= 0) && !q.CompletelyOrdered() {
		return false
	}
	return len(q.Items) > 0
}

// candidates lists smaller variants of q, biggest reductions first.
func candidates(q *Query) []*Query {
	var out []*Query
	with := func(f func(c *Query)) {
		c := q.clone()
		f(c)
		out = append(out, c)
	}
	if q.SetOp != "" {
		with(func(c *Query) { c.SetOp, c.Right = "", nil })
	}
	out = append(out, hoists(q)...)
	if q.Join != nil && q.Join.On != nil {
		for _, part := range conjuncts(q.Join.On) {
			if len(conjuncts(q.Join.On)) > 1 {
				p := part
				with(func(c *Query) { c.Join.On = p.clone() })
			}
		}
	}
	if q.Where != nil {
		with(func(c *Query) { c.Where = nil })
		if q.Where.Kind == KAnd || q.Where.Kind == KOr || q.Where.Kind == KNot {
			for _, a := range q.Where.Args {
				a := a
				with(func(c *Query) { c.Where = a.clone() })
			}
		}
	}
	if q.Having != nil {
		with(func(c *Query) { c.Having = nil })
	}
	if q.Distinct {
		with(func(c *Query) { c.Distinct = false })
	}
	if len(q.OrderBy) > 0 {
		with(func(c *Query) { c.OrderBy, c.Limit, c.Offset = nil, -1, -1 })
	}
	if q.Offset >= 0 {
		with(func(c *Query) { c.Offset = -1 })
		if q.Offset > 1 {
			with(func(c *Query) { c.Offset /= 2 })
		}
	}
	if q.Limit >= 0 {
		with(func(c *Query) { c.Limit = -1 })
		if q.Limit > 1 {
			with(func(c *Query) { c.Limit /= 2 })
		}
	}
	if len(q.Items) > 1 {
		for i := range q.Items {
			i := i
			with(func(c *Query) { dropItem(c, i) })
		}
	}
	for i := range q.OrderBy {
		i := i
		with(func(c *Query) { c.OrderBy = append(c.OrderBy[:i:i], c.OrderBy[i+1:]...) })
	}
	for i, o := range q.OrderBy {
		if o.Nulls != "" || o.Desc {
			i := i
			with(func(c *Query) { c.OrderBy[i].Nulls, c.OrderBy[i].Desc = "", false })
		}
	}
	// Expression replacements, outermost first: a node becomes one of its
	// operands of the same type, or a simple literal of its type.
	n := len(q.slots())
	for i := 0; i < n; i++ {
		node := *q.slots()[i]
		for _, r := range replacements(node) {
			i, r := i, r
			with(func(c *Query) { *c.slots()[i] = r })
		}
	}
	return out
}

func conjuncts(e *Expr) []*Expr {
	if e.Kind == KAnd {
		var out []*Expr
		for _, a := range e.Args {
			out = append(out, conjuncts(a)...)
		}
		return out
	}
	return []*Expr{e}
}

// dropItem removes select item i (from both sides of a set operation) and
// renumbers ORDER BY positions.
func dropItem(c *Query, i int) {
	c.Items = append(c.Items[:i:i], c.Items[i+1:]...)
	if c.Right != nil && len(c.Right.Items) > i {
		c.Right.Items = append(c.Right.Items[:i:i], c.Right.Items[i+1:]...)
	}
	var order []OrderItem
	for _, o := range c.OrderBy {
		switch {
		case o.Pos == i+1:
			continue
		case o.Pos > i+1:
			o.Pos--
		}
		order = append(order, o)
	}
	c.OrderBy = order
}

// replacements lists simpler expressions of node's type.
func replacements(node *Expr) []*Expr {
	var out []*Expr
	if node.Kind == KCol || node.Kind == KNull {
		return nil
	}
	for _, a := range node.Args {
		if a.Type == node.Type || (node.Type == Text && a.Type == Varchar) {
			out = append(out, a.clone())
		}
	}
	if node.Kind != KLit {
		out = append(out, simpleLiteral(node.Type), &Expr{Kind: KNull, Type: node.Type})
	}
	return out
}

func simpleLiteral(t Type) *Expr {
	switch {
	case t.isInt():
		return intLit(t, 1)
	case t == Bool:
		return &Expr{Kind: KLit, Type: Bool, Text: "true"}
	case t == Text || t == Varchar:
		return &Expr{Kind: KLit, Type: Text, Text: "'a'::text"}
	case t == Date:
		return &Expr{Kind: KLit, Type: Date, Text: "'2024-01-02'::date"}
	case t == Timestamp:
		return &Expr{Kind: KLit, Type: Timestamp, Text: "'2024-01-02 00:00:00'::timestamp"}
	case t == Numeric:
		return &Expr{Kind: KLit, Type: Numeric, Text: "1"}
	}
	one := 1.0
	return &Expr{Kind: KLit, Type: t, Text: "(1)::" + string(t), FloatValue: &one}
}

// slots returns a pointer to every expression position of the query, in a
// fixed pre-order, so that a candidate can replace the i-th node of a clone.
// Keys are not slots: they describe the query, they are not part of it.
func (q *Query) slots() []**Expr {
	var out []**Expr
	var add func(p **Expr)
	add = func(p **Expr) {
		if *p == nil {
			return
		}
		out = append(out, p)
		for i := range (*p).Args {
			add(&(*p).Args[i])
		}
		if (*p).Sub != nil {
			out = append(out, (*p).Sub.slots()...)
		}
	}
	for i := range q.Items {
		add(&q.Items[i])
	}
	if q.Join != nil {
		add(&q.Join.On)
	}
	add(&q.Where)
	add(&q.Having)
	for i := range q.OrderBy {
		add(&q.OrderBy[i].Expr)
	}
	if q.Right != nil {
		out = append(out, q.Right.slots()...)
	}
	return out
}

// hoists lists queries that select one subexpression of q on its own, over
// the same FROM and nothing else: an error or a wrong value inside a
// predicate or a CASE arm then shows without the guard around it (if the
// mismatch needs the guard, the candidate is simply rejected).
func hoists(q *Query) []*Query {
	if q.SetOp != "" || len(q.GroupBy) > 0 || q.hasAggregate() {
		return nil
	}
	var out []*Query
	seen := map[string]bool{}
	for _, p := range q.slots() {
		e := *p
		if e.Kind == KCol || e.Kind == KLit || e.Kind == KNull || e.Kind == KAgg {
			continue
		}
		if hasAgg(e) {
			continue
		}
		sql := e.SQL()
		if seen[sql] || (len(q.Items) == 1 && q.Items[0].SQL() == sql && q.Where == nil && len(q.OrderBy) == 0) {
			continue
		}
		seen[sql] = true
		c := &Query{Items: []*Expr{e.clone()}, From: append([]FromItem(nil), q.From...), Limit: -1, Offset: -1,
			Keys: cloneExprs(q.Keys), Shape: q.Shape}
		if q.Join != nil {
			j := *q.Join
			j.On = q.Join.On.clone()
			c.Join = &j
		}
		out = append(out, c)
	}
	return out
}

func hasAgg(e *Expr) bool {
	found := false
	e.walk(func(x *Expr) {
		if x.Kind == KAgg {
			found = true
		}
	})
	return found
}
