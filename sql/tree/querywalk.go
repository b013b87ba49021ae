package tree

// Inspect calls fn on n and, while fn returns true, on every node below it
// in depth-first order: expressions, the queries of subqueries (a
// Subquery's Tree), a query's clauses and FROM items, and a write's
// clauses, queries and expressions. It goes into a
// Subquery's Tree only, never into the TiDB node of Subquery.Query.
func Inspect(n Node, fn func(Node) bool) {
	if n == nil || !fn(n) {
		return
	}
	w := walker(fn)
	switch x := n.(type) {
	case *Unary:
		w.expr(x.X)
	case *Binary:
		w.expr(x.L)
		w.expr(x.R)
	case *Operator:
		w.expr(x.L)
		w.expr(x.R)
	case *Cast:
		w.expr(x.X)
	case *IsNull:
		w.expr(x.X)
	case *IsBool:
		w.expr(x.X)
	case *Between:
		w.exprs(x.X, x.Lo, x.Hi)
	case *InList:
		w.expr(x.X)
		w.exprs(x.List...)
	case *Like:
		w.exprs(x.X, x.Pattern)
	case *Regexp:
		w.exprs(x.X, x.Pattern)
	case *Case:
		w.expr(x.Operand)
		for _, wh := range x.Whens {
			w.exprs(wh.Cond, wh.Result)
		}
		w.expr(x.Else)
	case *Subquery:
		if x.Tree != nil {
			Inspect(x.Tree, fn)
		}
	case *Exists:
		w.sub(x.Query)
	case *InSubquery:
		w.expr(x.X)
		w.sub(x.Query)
	case *Quantified:
		w.exprs(x.X, x.Right)
	case *ArraySubquery:
		w.sub(x.Query)
	case *Array:
		w.exprs(x.Elems...)
	case *Subscript:
		w.exprs(x.X, x.Index)
	case *Slice:
		w.exprs(x.X, x.Lo, x.Hi)
	case *SubscriptedValue:
		w.exprs(x.Target, x.Value, x.Base)
	case *Row:
		w.exprs(x.Fields...)
	case *Map:
		w.exprs(x.KeysValues...)
	case *FieldSelect:
		w.expr(x.X)
	case *Collate:
		w.expr(x.X)
	case *Extract:
		w.expr(x.X)
	case *AtTimeZone:
		w.exprs(x.X, x.Zone)
	case *Position:
		w.exprs(x.Sub, x.Str)
	case *Trim:
		w.exprs(x.Chars, x.X)
	case *Ordinal:
		w.expr(x.Param)
	case *FuncCall:
		w.exprs(x.Args...)
		w.order(x.OrderBy)
		w.expr(x.Filter)
		if x.Over != nil {
			Inspect(x.Over, fn)
		}
	case *Window:
		w.exprs(x.PartitionBy...)
		w.order(x.OrderBy)
		if x.Frame != nil {
			w.exprs(x.Frame.Start.Offset, x.Frame.End.Offset)
		}
	case *GroupingSet:
		w.exprs(x.Items...)
	case *Select:
		w.clauses(&x.QueryClauses)
		w.exprs(x.DistinctOn...)
		for _, t := range x.Targets {
			Inspect(t, fn)
		}
		if x.From != nil {
			Inspect(x.From, fn)
		}
		w.exprs(x.Where)
		w.exprs(x.GroupBy...)
		w.expr(x.Having)
		for _, win := range x.Windows {
			Inspect(win, fn)
		}
		w.tail(&x.QueryClauses)
	case *SetOp:
		w.clauses(&x.QueryClauses)
		Inspect(x.L, fn)
		Inspect(x.R, fn)
		w.tail(&x.QueryClauses)
	case *ParenQuery:
		w.clauses(&x.QueryClauses)
		if x.Query != nil {
			Inspect(x.Query, fn)
		}
		w.tail(&x.QueryClauses)
	case *Values:
		w.clauses(&x.QueryClauses)
		for _, r := range x.Rows {
			w.exprs(r...)
		}
		w.tail(&x.QueryClauses)
	case *Target:
		w.expr(x.X)
	case *DerivedTable:
		Inspect(x.Query, fn)
	case *FuncTable:
		if x.Call != nil {
			Inspect(x.Call, fn)
		}
	case *Join:
		Inspect(x.L, fn)
		Inspect(x.R, fn)
		w.expr(x.On)
	case *Insert:
		// its WITH is its query's (Query.Clauses().With)
		if x.Target != nil {
			Inspect(x.Target, fn)
		}
		for _, r := range x.Rows {
			w.exprs(r...)
		}
		if x.Query != nil {
			Inspect(x.Query, fn)
		}
		if x.OnConflict != nil {
			w.assignments(x.OnConflict.Update)
		}
		w.returning(x.Returning)
	case *Update:
		w.clauses(&QueryClauses{With: x.With})
		if x.Target != nil {
			Inspect(x.Target, fn)
		}
		w.assignments(x.Set)
		if x.From != nil {
			Inspect(x.From, fn)
		}
		w.expr(x.Where)
		w.returning(x.Returning)
	case *Delete:
		w.clauses(&QueryClauses{With: x.With})
		if x.Target != nil {
			Inspect(x.Target, fn)
		}
		if x.Using != nil {
			Inspect(x.Using, fn)
		}
		w.expr(x.Where)
		w.returning(x.Returning)
	case *Merge:
		w.clauses(&QueryClauses{With: x.With})
		if x.Target != nil {
			Inspect(x.Target, fn)
		}
		if x.Source != nil {
			Inspect(x.Source, fn)
		}
		w.expr(x.On)
		for _, c := range x.Clauses {
			w.expr(c.Cond)
			w.assignments(c.Set)
			w.exprs(c.Values...)
		}
	case *CreateTable:
		w.sub(x.Query)
	case *CreateView:
		w.sub(x.Query)
	}
}

type walker func(Node) bool

func (w walker) expr(e Expr) {
	if e != nil {
		Inspect(e, w)
	}
}

func (w walker) exprs(es ...Expr) {
	for _, e := range es {
		w.expr(e)
	}
}

func (w walker) sub(q *Subquery) {
	if q != nil {
		Inspect(q, w)
	}
}

func (w walker) order(items []OrderItem) {
	for _, it := range items {
		w.expr(it.X)
	}
}

func (w walker) assignments(list []*Assignment) {
	for _, a := range list {
		w.expr(a.Value)
	}
}

func (w walker) returning(r *Returning) {
	if r == nil {
		return
	}
	for _, it := range r.Items {
		w.expr(it.X)
	}
}

// clauses walks a query's WITH list (before its body).
func (w walker) clauses(c *QueryClauses) {
	if c.With == nil {
		return
	}
	for _, cte := range c.With.CTEs {
		if cte.Query != nil {
			Inspect(cte.Query, w)
		}
	}
}

// tail walks a query's ORDER BY, LIMIT and OFFSET (after its body).
func (w walker) tail(c *QueryClauses) {
	w.order(c.OrderBy)
	w.exprs(c.Limit, c.Offset)
}
