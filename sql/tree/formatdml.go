package tree

// FormatStatement's writers of INSERT, UPDATE and DELETE. A WriteClause (the
// queries' part: INSERT's query, FROM / USING, WITH) is written by the
// caller's sub, handed a Subquery whose Query is the clause's TiDB node;
// without sub it is a stand-in of its kind.

func (f *formatter) clause(c *WriteClause, standIn string) {
	if f.sub != nil {
		f.WriteString(f.sub(&Subquery{At: c.At, Query: c.Src}))
		return
	}
	f.WriteString(standIn)
}

func (f *formatter) insert(n *Insert) {
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
		names := make([]string, len(n.Columns))
		for i, c := range n.Columns {
			names[i] = c.Name
		}
		f.names(names)
	}
	if n.Overriding != "" {
		f.WriteString(map[string]string{"system": " OVERRIDING SYSTEM VALUE", "user": " OVERRIDING USER VALUE"}[n.Overriding])
	}
	switch {
	case n.Query != nil:
		f.WriteString(" ")
		f.clause(n.Query, "SELECT 1")
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
		if oc.DoNothing || oc.Update == nil {
			f.WriteString(" DO NOTHING")
		} else {
			f.WriteString(" DO UPDATE SET ")
			f.assignments(oc.Update)
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
		f.WriteString(QuoteIdent(a.Column) + " = ")
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

func (f *formatter) writeWith(c *WriteClause) {
	if c != nil {
		f.clause(c, "WITH pg__w AS (SELECT 1)")
		f.WriteString(" ")
	}
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
		f.clause(n.From, `"pg__from"`)
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
		f.clause(n.Using, `"pg__using"`)
	}
	f.where(n.Where, n.CurrentOf)
	f.returning(n.Returning)
}
