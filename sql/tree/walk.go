package tree

// Walk calls visit on e and, while visit returns true, on every
// expression under it, in the order the text writes them (a call's
// arguments, then its ORDER BY keys, FILTER and window; position(sub IN
// str)'s str first, as the call it stands for takes it). A Subquery is a
// leaf: its query is not walked. nil expressions are skipped.
func Walk(e Expr, visit func(Expr) bool) {
	if e == nil || !visit(e) {
		return
	}
	walk := func(es ...Expr) {
		for _, x := range es {
			Walk(x, visit)
		}
	}
	switch n := e.(type) {
	case *Unary:
		walk(n.X)
	case *Binary:
		walk(n.L, n.R)
	case *Operator:
		walk(n.L, n.R)
	case *Cast:
		walk(n.X)
	case *IsNull:
		walk(n.X)
	case *IsBool:
		walk(n.X)
	case *Between:
		walk(n.X, n.Lo, n.Hi)
	case *InList:
		walk(n.X)
		walk(n.List...)
	case *Like:
		walk(n.X, n.Pattern)
	case *Regexp:
		walk(n.X, n.Pattern)
	case *Case:
		walk(n.Operand)
		for _, w := range n.Whens {
			walk(w.Cond, w.Result)
		}
		walk(n.Else)
	case *Exists:
		walk(query(n.Query))
	case *InSubquery:
		walk(n.X, query(n.Query))
	case *Quantified:
		walk(n.X, n.Right)
	case *ArraySubquery:
		walk(query(n.Query))
	case *Array:
		walk(n.Elems...)
	case *Subscript:
		walk(n.X, n.Index)
	case *Slice:
		walk(n.X, n.Lo, n.Hi)
	case *SubscriptedValue:
		walk(n.Target, n.Value, n.Base)
	case *Row:
		walk(n.Fields...)
	case *Map:
		walk(n.KeysValues...)
	case *FieldSelect:
		walk(n.X)
	case *Collate:
		walk(n.X)
	case *Extract:
		walk(n.X)
	case *AtTimeZone:
		walk(n.X, n.Zone)
	case *Position:
		walk(n.Str, n.Sub)
	case *Trim:
		walk(n.X, n.Chars)
	case *Ordinal:
		walk(n.Param)
	case *GroupingSet:
		walk(n.Items...)
	case *FuncCall:
		walk(n.Args...)
		for _, o := range n.OrderBy {
			walk(o.X)
		}
		walk(n.Filter)
		if n.Over != nil {
			Walk(n.Over, visit)
		}
	case *Window:
		walk(n.PartitionBy...)
		for _, o := range n.OrderBy {
			walk(o.X)
		}
		if n.Frame != nil {
			walk(n.Frame.Start.Offset, n.Frame.End.Offset)
		}
	}
}

// query is q as an Expr, nil (not a typed nil) when q is.
func query(q *Subquery) Expr {
	if q == nil {
		return nil
	}
	return q
}
