package tree

// FormatStatement's writers of INSERT, UPDATE and DELETE. The queries'
// parts (INSERT's query, FROM / USING, WITH) are written as queries are
// (formatquery.go), the formatter being a queryFormatter.

// formatWrite writes INSERT, UPDATE or DELETE with a queryFormatter: the
// subqueries the transformer made trees of are written from them.
func formatWrite(s Statement, sub func(*Subquery) string) string {
	f := queryFormatter(sub)
	switch n := s.(type) {
	case *Insert:
		f.insert(n)
	case *Update:
		f.update(n)
	case *Delete:
		f.delete(n)
	}
	return f.String()
}

func (f *formatter) insert(n *Insert) {
	if n.With != nil {
		// written in front, where it was (the rewrite moves it onto the
		// query again)
		f.with(n.With)
	}
	if n.Refused == "REPLACE" {
		f.WriteString("REPLACE INTO ")
	} else {
		f.WriteString("INSERT INTO ")
	}
	f.tableName(n.Table)
	if n.Alias != "" {
		f.WriteString(" AS " + QuoteIdent(n.Alias))
	}
	if len(n.Columns) > 0 {
		f.WriteString(" (")
		for i, c := range n.Columns {
			if i > 0 {
				f.WriteString(", ")
			}
			// a subscripted target (INSERT INTO t (a[1])) rides in the
			// cells: the first row's says it
			if len(n.Rows) > 0 && i < len(n.Rows[0]) {
				if sv, ok := n.Rows[0][i].(*SubscriptedValue); ok {
					f.subscriptedTarget(c.Name, sv.Target)
					continue
				}
			}
			f.WriteString(QuoteIdent(c.Name))
		}
		f.WriteString(")")
	}
	if n.Overriding != "" {
		f.WriteString(map[string]string{"system": " OVERRIDING SYSTEM VALUE", "user": " OVERRIDING USER VALUE"}[n.Overriding])
	}
	switch {
	case n.Query != nil:
		f.WriteString(" ")
		q := n.Query
		if n.With != nil && q.Clauses().With == n.With {
			q = withoutWith(q)
		}
		f.queryBody(q)
	case len(n.Columns) == 0 && len(n.Rows) == 1 && len(n.Rows[0]) == 0:
		f.WriteString(" DEFAULT VALUES")
	default:
		f.WriteString(" VALUES ")
		for i, r := range n.Rows {
			if i > 0 {
				f.WriteString(", ")
			}
			f.WriteString("(")
			f.list(r)
			f.WriteString(")")
		}
	}
	if oc := n.OnConflict; oc != nil {
		f.WriteString(" ON CONFLICT")
		f.names(oc.Target)
		if oc.TargetWhere != nil {
			f.WriteString(" WHERE ")
			f.expr(oc.TargetWhere)
		}
		if oc.Constraint != "" {
			f.WriteString(" ON CONSTRAINT " + QuoteIdent(oc.Constraint))
		}
		if oc.DoNothing || oc.Update == nil {
			f.WriteString(" DO NOTHING")
		} else {
			f.WriteString(" DO UPDATE SET ")
			f.assignments(oc.Update)
			if oc.Where != nil {
				f.WriteString(" WHERE ")
				f.expr(oc.Where)
			}
		}
	}
	f.returning(n.Returning)
}

func (f *formatter) assignments(list []*Assignment) {
	for i, a := range list {
		if i > 0 {
			f.WriteString(", ")
		}
		if a.Table != "" {
			f.WriteString(QuoteIdent(a.Table) + ".")
		}
		if a.Target != nil {
			f.subscriptedTarget(a.Column, a.Target)
			f.WriteString(" = ")
		} else {
			f.WriteString(QuoteIdent(a.Column) + " = ")
		}
		f.expr(a.Value)
	}
}

func (f *formatter) returning(r *Returning) {
	if r == nil {
		return
	}
	f.WriteString(" RETURNING ")
	for i, it := range r.Items {
		if i > 0 {
			f.WriteString(", ")
		}
		switch {
		case it.Star && it.Table != "":
			f.WriteString(QuoteIdent(it.Table) + ".*")
		case it.Star:
			f.WriteString("*")
		default:
			f.expr(it.X)
			if it.Alias != "" {
				f.WriteString(" AS " + QuoteIdent(it.Alias))
			}
		}
	}
}

func (f *formatter) writeWith(w *With) {
	if w != nil {
		f.with(w)
	}
}

// withoutWith is a shallow copy of q without its WITH (written in front
// of INSERT).
func withoutWith(q Query) Query {
	switch x := q.(type) {
	case *Select:
		c := *x
		c.With = nil
		return &c
	case *SetOp:
		c := *x
		c.With = nil
		return &c
	case *Values:
		c := *x
		c.With = nil
		return &c
	}
	return q
}

func (f *formatter) writeTarget(t *TableName, alias string) {
	f.tableName(t)
	if alias != "" {
		f.WriteString(" AS " + QuoteIdent(alias))
	}
}

func (f *formatter) where(w Expr, cursor string) {
	switch {
	case cursor != "":
		f.WriteString(" WHERE CURRENT OF " + QuoteIdent(cursor))
	case w != nil:
		f.WriteString(" WHERE ")
		f.expr(w)
	}
}

func (f *formatter) update(n *Update) {
	f.writeWith(n.With)
	f.WriteString("UPDATE ")
	f.writeTarget(n.Table, n.Alias)
	f.WriteString(" SET ")
	f.assignments(n.Set)
	if n.From != nil {
		f.WriteString(" FROM ")
		f.fromItem(n.From)
	}
	f.where(n.Where, n.CurrentOf)
	f.returning(n.Returning)
}

func (f *formatter) delete(n *Delete) {
	f.writeWith(n.With)
	f.WriteString("DELETE FROM ")
	f.writeTarget(n.Table, n.Alias)
	if n.Using != nil {
		f.WriteString(" USING ")
		f.fromItem(n.Using)
	}
	f.where(n.Where, n.CurrentOf)
	f.returning(n.Returning)
}

// subscriptedTarget writes a subscripted assignment target col[i][lo:hi] (target
// its chain over the column), which takes no parentheses.
func (f *formatter) subscriptedTarget(column string, target Expr) {
	var chain []Expr
	for e := target; ; {
		switch n := e.(type) {
		case *Subscript:
			chain, e = append([]Expr{n}, chain...), n.X
			continue
		case *Slice:
			chain, e = append([]Expr{n}, chain...), n.X
			continue
		}
		break
	}
	f.WriteString(QuoteIdent(column))
	for _, e := range chain {
		f.WriteString("[")
		f.subscriptBody(e)
		f.WriteString("]")
	}
}
