package tree

// FormatQuery writes q as PostgreSQL text that reads back as the same
// tree (the transformer's round trip over the sqllogictest corpus rests on
// it): names double-quoted, expressions as Format writes them, a subquery
// that holds its Tree written from it (sub writes the others, as for
// Format).
func FormatQuery(q Query, sub func(*Subquery) string) string {
	f := queryFormatter(sub)
	f.queryBody(q)
	return f.String()
}

// queryFormatter is a formatter whose subqueries are written from their
// trees where they have one.
func queryFormatter(sub func(*Subquery) string) *formatter {
	f := &formatter{}
	f.sub = func(q *Subquery) string {
		if q.Tree != nil {
			g := queryFormatter(sub)
			g.WriteString("(")
			g.queryBody(q.Tree)
			g.WriteString(")")
			return g.String()
		}
		if sub != nil {
			return sub(q)
		}
		return "(SELECT 1)"
	}
	return f
}

// needsParens reports whether q, as an operand of a set operation, must be
// parenthesised: its own WITH, ORDER BY, LIMIT or locking clause would
// otherwise bind to the whole.
func needsParens(q Query) bool {
	c := q.Clauses()
	if c.With != nil || len(c.OrderBy) > 0 || c.Limit != nil || c.Offset != nil {
		return true
	}
	s, ok := q.(*Select)
	return ok && s.Locking != nil
}

// operand writes a set operation's operand: parenthesised when it has
// clauses of its own, when it is a set operation on the right (the chain
// folds from the left), and when it is a UNION or EXCEPT under an
// INTERSECT, which binds tighter in PostgreSQL's grammar (TiDB's folds a
// chain from the left whatever its operators: the tree keeps that reading,
// the text says it in PostgreSQL's).
func (f *formatter) operand(q Query, parent SetOpKind, right bool) {
	so, setop := q.(*SetOp)
	if needsParens(q) || (right && setop) || (setop && parent == Intersect && so.Op != Intersect) {
		f.WriteString("(")
		f.queryBody(q)
		f.WriteString(")")
		return
	}
	f.queryBody(q)
}

func (f *formatter) queryBody(q Query) {
	c := q.Clauses()
	if c.With != nil {
		f.with(c.With)
	}
	switch n := q.(type) {
	case *Select:
		f.selectCore(n)
	case *SetOp:
		f.operand(n.L, n.Op, false)
		f.WriteString(" " + n.Op.String() + " ")
		if n.All {
			f.WriteString("ALL ")
		}
		f.operand(n.R, n.Op, true)
	case *ParenQuery:
		if n.Query != nil {
			f.WriteString("(")
			f.queryBody(n.Query)
			f.WriteString(")")
		}
	case *Values:
		f.WriteString("VALUES ")
		for i, r := range n.Rows {
			if i > 0 {
				f.WriteString(", ")
			}
			f.WriteString("(")
			f.list(r)
			f.WriteString(")")
		}
	}
	if len(c.OrderBy) > 0 {
		f.WriteString(" ORDER BY ")
		f.orderBy(c.OrderBy)
	}
	if c.WithTies {
		if c.Offset != nil {
			f.WriteString(" OFFSET ")
			f.expr(c.Offset)
		}
		f.WriteString(" FETCH FIRST (")
		f.expr(c.Limit)
		f.WriteString(") ROWS WITH TIES")
	} else {
		if c.Limit != nil {
			f.WriteString(" LIMIT ")
			f.expr(c.Limit)
		}
		if c.Offset != nil {
			f.WriteString(" OFFSET ")
			f.expr(c.Offset)
		}
	}
	if s, ok := q.(*Select); ok && s.Locking != nil {
		f.locking(s.Locking)
	}
}

func (f *formatter) with(w *With) {
	f.WriteString("WITH ")
	if w.Recursive {
		f.WriteString("RECURSIVE ")
	}
	for i, c := range w.CTEs {
		if i > 0 {
			f.WriteString(", ")
		}
		f.WriteString(QuoteIdent(c.Name))
		f.names(c.Columns)
		f.WriteString(" AS ")
		switch c.Materialized {
		case Materialized:
			f.WriteString("MATERIALIZED ")
		case NotMaterialized:
			f.WriteString("NOT MATERIALIZED ")
		}
		f.WriteString("(")
		f.queryBody(c.Query)
		f.WriteString(")")
		if s := c.Search; s != nil {
			f.WriteString(map[bool]string{false: " SEARCH DEPTH FIRST BY ", true: " SEARCH BREADTH FIRST BY "}[s.Breadth])
			f.identList(s.By)
			f.WriteString(" SET " + QuoteIdent(s.Set))
		}
		if y := c.Cycle; y != nil {
			f.WriteString(" CYCLE ")
			f.identList(y.Columns)
			f.WriteString(" SET " + QuoteIdent(y.Mark))
			if y.MarkValue != "" || y.MarkDefault != "" {
				f.WriteString(" TO " + y.MarkValue + " DEFAULT " + y.MarkDefault)
			}
			f.WriteString(" USING " + QuoteIdent(y.Path))
		}
	}
	f.WriteString(" ")
}

func (f *formatter) identList(ns []string) {
	for i, n := range ns {
		if i > 0 {
			f.WriteString(", ")
		}
		f.WriteString(QuoteIdent(n))
	}
}

func (f *formatter) selectCore(n *Select) {
	if n.Table {
		f.WriteString("TABLE ")
		f.fromItem(n.From)
		return
	}
	f.WriteString("SELECT")
	if n.Distinct {
		f.WriteString(" DISTINCT")
		if n.DistinctOn != nil {
			f.WriteString(" ON (")
			f.list(n.DistinctOn)
			f.WriteString(")")
		}
	}
	for i, t := range n.Targets {
		if i > 0 {
			f.WriteString(",")
		}
		f.WriteString(" ")
		f.target(t)
	}
	if n.From != nil {
		f.WriteString(" FROM ")
		f.fromItem(n.From)
	}
	if n.Where != nil {
		f.WriteString(" WHERE ")
		f.expr(n.Where)
	}
	if n.GroupBy != nil {
		f.WriteString(" GROUP BY ")
		if n.GroupDistinct {
			f.WriteString("DISTINCT ")
		}
		f.list(n.GroupBy)
	}
	if n.Having != nil {
		f.WriteString(" HAVING ")
		f.expr(n.Having)
	}
	for i, w := range n.Windows {
		if i == 0 {
			f.WriteString(" WINDOW ")
		} else {
			f.WriteString(", ")
		}
		f.WriteString(QuoteIdent(w.Name) + " AS ")
		f.window(&Window{Ref: w.Ref, PartitionBy: w.PartitionBy, OrderBy: w.OrderBy, Frame: w.Frame})
	}
}

func (f *formatter) target(t *Target) {
	if s, ok := t.X.(*Star); ok {
		f.star(s)
	} else {
		f.expr(t.X)
	}
	if t.Alias != "" {
		f.WriteString(" AS " + QuoteIdent(t.Alias))
	}
}

func (f *formatter) star(s *Star) {
	if s.Schema != "" {
		f.WriteString(QuoteIdent(s.Schema) + ".")
	}
	if s.Table != "" {
		f.WriteString(QuoteIdent(s.Table) + ".")
	}
	f.WriteString("*")
}

func (f *formatter) locking(l *Locking) {
	f.WriteString(" " + l.Strength.String())
	for i, t := range l.Of {
		if i == 0 {
			f.WriteString(" OF ")
		} else {
			f.WriteString(", ")
		}
		f.tableName(t)
	}
	switch l.Wait {
	case LockNoWait:
		f.WriteString(" NOWAIT")
	case LockSkipLocked:
		f.WriteString(" SKIP LOCKED")
	}
}

func (f *formatter) alias(a Alias) {
	if a.Name == "" {
		return
	}
	f.WriteString(" AS " + QuoteIdent(a.Name))
	f.names(a.Columns)
}

// funcName writes a function's name in FROM: bare when it reads back as
// itself (the rewrite recognizes a function in FROM by a name before
// "("), else quoted.
func funcName(name string) string {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c == '_' || c == '.' || i > 0 && c >= '0' && c <= '9') {
			return QuoteIdent(name)
		}
	}
	return name
}

func (f *formatter) fromItem(it FromItem) {
	switch n := it.(type) {
	case *TableRef:
		f.tableName(n.Name)
		f.alias(n.Alias)
	case *DerivedTable:
		if n.Lateral {
			f.WriteString("LATERAL ")
		}
		f.WriteString("(")
		f.queryBody(n.Query)
		f.WriteString(")")
		f.alias(n.Alias)
	case *FuncTable:
		if n.Lateral {
			f.WriteString("LATERAL ")
		}
		if n.Call.Name == "pg__rowsfrom" {
			f.rowsFrom(n.Call.Args)
		} else {
			if n.Call.Schema != "" {
				f.WriteString(QuoteIdent(n.Call.Schema) + ".")
			}
			f.WriteString(funcName(n.Call.Name) + "(")
			f.list(n.Call.Args)
			f.WriteString(")")
		}
		if n.Ordinality {
			f.WriteString(" WITH ORDINALITY")
		}
		if n.AliasExplicit {
			f.WriteString(" AS " + QuoteIdent(n.Alias.Name))
		}
		switch {
		case len(n.ColumnDefs) > 0:
			if !n.AliasExplicit {
				f.WriteString(" AS")
			}
			f.WriteString(" (")
			for i, d := range n.ColumnDefs {
				if i > 0 {
					f.WriteString(", ")
				}
				f.WriteString(QuoteIdent(d.Name) + " " + d.Type)
			}
			f.WriteString(")")
		case len(n.Alias.Columns) > 0:
			if !n.AliasExplicit {
				f.WriteString(" AS " + QuoteIdent(n.Alias.Name))
			}
			f.names(n.Alias.Columns)
		}
	case *Join:
		f.fromItem(n.L)
		f.WriteString(" ")
		if n.Natural {
			f.WriteString("NATURAL ")
		}
		if n.Natural && n.Kind == CrossJoin {
			f.WriteString("JOIN ")
		} else {
			f.WriteString(n.Kind.String() + " ")
		}
		if _, nested := n.R.(*Join); nested {
			f.WriteString("(")
			f.fromItem(n.R)
			f.WriteString(")")
		} else {
			f.fromItem(n.R)
		}
		switch {
		case n.On != nil:
			f.WriteString(" ON ")
			f.expr(n.On)
		case len(n.Using) > 0:
			f.WriteString(" USING (")
			f.identList(n.Using)
			f.WriteString(")")
		case n.Kind == InnerJoin && !n.Natural:
			f.WriteString(" ON TRUE")
		}
	}
}

// rowsFrom writes ROWS FROM (f(args) [AS (definitions)], ..) from the
// rewrite's pg__rowsfn('f', pg__cols(pg__coldef('c', 'type'), ..), args)
// calls (sql/srf.go; 'f' is pg__schema('s', 'f') for a function of
// another schema than pg_catalog).
func (f *formatter) rowsFrom(fns []Expr) {
	f.WriteString("ROWS FROM (")
	for i, e := range fns {
		if i > 0 {
			f.WriteString(", ")
		}
		c, ok := e.(*FuncCall)
		if !ok || c.Name != "pg__rowsfn" || len(c.Args) < 2 {
			f.expr(e)
			continue
		}
		name, _ := c.Args[0].(*Literal)
		schema := ""
		if q, ok := c.Args[0].(*FuncCall); ok && q.Name == "pg__schema" && len(q.Args) == 2 {
			// pg__schema('s', 'f'): a function of another schema
			s, _ := q.Args[0].(*Literal)
			if name, _ = q.Args[1].(*Literal); s != nil {
				schema = QuoteIdent(s.Text) + "."
			}
		}
		if name == nil {
			f.expr(e)
			continue
		}
		f.WriteString(schema + funcName(name.Text) + "(")
		f.list(c.Args[2:])
		f.WriteString(")")
		if cols, ok := c.Args[1].(*FuncCall); ok && len(cols.Args) > 0 {
			f.WriteString(" AS (")
			for k, d := range cols.Args {
				if k > 0 {
					f.WriteString(", ")
				}
				def, ok := d.(*FuncCall)
				if !ok || len(def.Args) != 2 {
					f.expr(d)
					continue
				}
				cn, _ := def.Args[0].(*Literal)
				ct, _ := def.Args[1].(*Literal)
				if cn == nil || ct == nil {
					f.expr(d)
					continue
				}
				f.WriteString(QuoteIdent(cn.Text) + " " + ct.Text)
			}
			f.WriteString(")")
		}
	}
	f.WriteString(")")
}
