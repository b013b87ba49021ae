package deparse

import (
	"strconv"
	"strings"

	pt "github.com/sqlgate/sqlgate/sql/tree"
)

// The printer of a view's query: ruleutils.c's get_query_def with
// PRETTYFLAG_INDENT (every pg_get_viewdef form sets it): each query level
// indented by PRETTYINDENT_STD, its clauses on lines of their own
// (appendContextKeyword), target-list items and FROM items wrapped at
// wrap columns (0: every item on its own line, -1: none), and PRETTY_PAREN
// (p.pretty) deciding the parentheses of expressions and joins.

// prettyIndentStd and prettyIndentJoin are PRETTYINDENT_STD and
// PRETTYINDENT_JOIN.
const (
	prettyIndentStd  = 8
	prettyIndentJoin = 4
)

// View is pg_get_viewdef's text of a view: text is its query as written,
// rels finds the relations it names, names are the view's column names
// (they win over the query's: a view's columns may be renamed). pretty is
// pg_get_viewdef(v, true)'s PRETTY_PAREN, wrap the wrap column
// (pg_get_viewdef(v, n); 0 for the other forms). An error says the query
// holds something the deparser does not reproduce. sc's Visible and
// Functions are the search path it prints under and the user functions
// it may call (its other fields are unused).
func View(text string, rels Relations, names []string, pretty bool, wrap int, sc Scope) (string, error) {
	tree, rewritten, err := parseView(text)
	if err != nil {
		return "", err
	}
	qa := &queryAnalyzer{rels: rels, text: rewritten, funcs: sc.Functions}
	qa.countCrossJoins(tree)
	q, err := qa.query(tree, nil, nil)
	if err != nil {
		return "", err
	}
	if len(q.colNames) != len(names) {
		// columns added to a table under SELECT *: PostgreSQL's tree keeps
		// the columns it had
		return "", errUnsupported("the view's columns changed")
	}
	for i, te := range q.targets {
		if te.star && i < len(names) && te.name != names[i] && q.setop == nil {
			// a * that names other columns today than when the view was made
			return "", errUnsupported("the view's columns changed")
		}
	}
	p := &printer{pretty: pretty, wrap: wrap, visible: sc.Visible}
	// the view's rule query ranges over OLD and NEW first (PostgreSQL 15)
	p.query(q, []string{"old", "new"}, names, true, 0)
	p.sb.WriteByte(';')
	return p.sb.String(), nil
}

// query is get_query_def: q printed at startIndent, its range-table
// entries named after the names taken by the enclosing levels,
// resultNames the output names (nil: the query's own) and colNamesVisible
// whether every non-column target shows its name.
func (p *printer) query(q *query, taken []string, resultNames []string, colNamesVisible bool, startIndent int) {
	save, saveTaken, saveQ := p.indent, p.taken, p.q
	p.indent, p.q = startIndent, q
	names := setRtableNames(q, taken)
	inner := append(append([]string{}, taken...), names...)
	p.taken = inner
	if len(q.with) > 0 {
		p.withClause(q, inner)
	}
	if q.setop != nil {
		p.setOp(q.setop, inner, resultNames, colNamesVisible)
	} else {
		p.basicSelect(q, inner, resultNames, colNamesVisible)
	}
	if len(q.orderBy) > 0 {
		p.contextKeyword(" ORDER BY ", -prettyIndentStd, prettyIndentStd, 1)
		p.orderBy(q, q.orderBy, q.setop != nil)
	}
	if q.offset != nil {
		p.contextKeyword(" OFFSET ", -prettyIndentStd, prettyIndentStd, 0)
		p.expr(q.offset, false)
	}
	if q.limit != nil && q.withTies {
		// get_select_query_def: the count parenthesised (its own
		// parentheses from get_rule_expr kept)
		p.contextKeyword(" FETCH FIRST ", -prettyIndentStd, prettyIndentStd, 0)
		p.sb.WriteString("(")
		p.expr(q.limit, false)
		p.sb.WriteString(") ROWS WITH TIES")
	} else if q.limit != nil {
		p.contextKeyword(" LIMIT ", -prettyIndentStd, prettyIndentStd, 0)
		if k, ok := q.limit.(*constNode); ok && k.isNull {
			p.sb.WriteString("ALL")
		} else {
			p.expr(q.limit, false)
		}
	}
	p.indent, p.taken, p.q = save, saveTaken, saveQ
}

// setRtableNames is set_rtable_names: each entry's alias, relation name
// or CTE name, made unique against the enclosing levels' names and the
// earlier entries' by a _n suffix; an unnamed join has none. It returns
// the names it gave.
func setRtableNames(q *query, taken []string) []string {
	counters := map[string]int{}
	for _, n := range taken {
		counters[n] = 0
	}
	var out []string
	for _, r := range q.rtable {
		var ref string
		switch {
		case r.kind == rteJoin:
			continue
		case r.alias != "":
			ref = r.alias
		default:
			ref = r.name
		}
		if _, used := counters[ref]; used {
			base := ref
			for {
				counters[base]++
				ref = base + "_" + strconv.Itoa(counters[base])
				if _, used := counters[ref]; !used {
					break
				}
			}
		}
		counters[ref] = 0
		r.refname = ref
		r.uniqueColumns()
		out = append(out, ref)
	}
	return out
}

// uniqueColumns is set_relation_column_names' make_colname_unique: a
// column name an earlier column of the entry has takes a _n suffix.
func (r *rangeEntry) uniqueColumns() {
	seen := map[string]bool{}
	for i, c := range r.cols {
		name := c
		for n := 1; seen[name]; n++ {
			name = c + "_" + strconv.Itoa(n)
		}
		seen[name] = true
		r.cols[i] = name
	}
}

// withClause is get_with_clause.
func (p *printer) withClause(q *query, taken []string) {
	p.indent += prettyIndentStd
	p.sb.WriteByte(' ')
	sep := "WITH "
	if q.recursive {
		sep = "WITH RECURSIVE "
	}
	for _, c := range q.with {
		p.sb.WriteString(sep + quoteIdent(c.name))
		if len(c.cols) > 0 {
			p.sb.WriteByte('(')
			for i, n := range c.cols {
				if i > 0 {
					p.sb.WriteString(", ")
				}
				p.sb.WriteString(quoteIdent(n))
			}
			p.sb.WriteByte(')')
		}
		p.sb.WriteString(" AS ")
		switch c.materialized {
		case pt.Materialized:
			p.sb.WriteString("MATERIALIZED ")
		case pt.NotMaterialized:
			p.sb.WriteString("NOT MATERIALIZED ")
		}
		p.sb.WriteByte('(')
		p.contextKeyword("", 0, 0, 0)
		p.query(c.q, taken, nil, true, p.indent)
		p.contextKeyword("", 0, 0, 0)
		p.sb.WriteByte(')')
		sep = ", "
	}
	p.indent -= prettyIndentStd
	p.contextKeyword("", 0, 0, 0)
}

// setOp is get_setop_query.
func (p *printer) setOp(s *setOpItem, taken []string, resultNames []string, colNamesVisible bool) {
	if s.q != nil {
		paren := len(s.q.with) > 0 || len(s.q.orderBy) > 0 || s.q.limit != nil || s.q.offset != nil
		if paren {
			p.sb.WriteByte('(')
		}
		p.query(s.q, taken, resultNames, colNamesVisible, p.indent)
		if paren {
			p.sb.WriteByte(')')
		}
		return
	}
	paren := s.l.q == nil && !(s.l.op == s.op && s.l.all == s.all)
	sub := 0
	if paren {
		p.sb.WriteByte('(')
		sub = prettyIndentStd
		p.contextKeyword("", sub, 0, 0)
	}
	p.setOp(s.l, taken, resultNames, colNamesVisible)
	if paren {
		p.contextKeyword(") ", -sub, 0, 0)
	} else {
		p.contextKeyword("", -sub, 0, 0)
	}
	p.sb.WriteString(s.op.String() + " ")
	if s.all {
		p.sb.WriteString("ALL ")
	}
	paren = s.r.q == nil
	sub = 0
	if paren {
		p.sb.WriteByte('(')
		sub = prettyIndentStd
	}
	p.contextKeyword("", sub, 0, 0)
	p.setOp(s.r, taken, resultNames, false)
	p.indent -= sub
	if paren {
		p.contextKeyword(")", 0, 0, 0)
	}
}

// basicSelect is get_basic_select_query.
func (p *printer) basicSelect(q *query, taken []string, resultNames []string, colNamesVisible bool) {
	p.indent += prettyIndentStd
	p.sb.WriteString(" SELECT")
	if q.distinct {
		p.sb.WriteString(" DISTINCT")
	}
	p.targetList(q, taken, resultNames, colNamesVisible)
	p.fromClause(q, taken)
	if q.where != nil {
		p.contextKeyword(" WHERE ", -prettyIndentStd, prettyIndentStd, 1)
		p.expr(q.where, false)
	}
	if len(q.groupBy) > 0 {
		p.contextKeyword(" GROUP BY ", -prettyIndentStd, prettyIndentStd, 1)
		for i, g := range q.groupBy {
			if i > 0 {
				p.sb.WriteString(", ")
			}
			p.sortGroupClause(q, g, false, taken)
		}
	}
	if q.having != nil {
		p.contextKeyword(" HAVING ", -prettyIndentStd, prettyIndentStd, 0)
		p.expr(q.having, false)
	}
}

// sub is a printer for a piece printed apart (a target, a FROM item):
// the same flags and level, its own buffer.
func (p *printer) sub() *printer {
	return &printer{pretty: p.pretty, indent: p.indent, wrap: p.wrap, taken: p.taken, q: p.q, visible: p.visible}
}

// lastLine is the length of the buffer's text after its last new line.
func (p *printer) lastLine() int {
	s := p.sb.String()
	return len(s) - (strings.LastIndexByte(s, '\n') + 1)
}

// targetList is get_target_list.
func (p *printer) targetList(q *query, taken []string, resultNames []string, colNamesVisible bool) {
	sep := " "
	colno := 0
	lastMultiline := false
	for _, te := range q.targets {
		if te.junk {
			continue
		}
		p.sb.WriteString(sep)
		sep = ", "
		colno++
		tp := p.sub()
		tp.taken = taken
		var attname string
		hasAttname := false
		if v, ok := te.n.(*varNode); ok && v.rte != nil {
			tp.expr(te.n, true)
			attname, hasAttname = v.rte.cols[v.col], true
		} else {
			tp.expr(te.n, true)
			if !colNamesVisible {
				attname, hasAttname = "?column?", true
			}
		}
		colname := te.name
		if colno <= len(resultNames) {
			colname = resultNames[colno-1]
		}
		if !hasAttname || attname != colname {
			tp.sb.WriteString(" AS " + quoteIdent(colname))
		}
		item := tp.sb.String()
		if p.wrap >= 0 {
			if strings.HasPrefix(item, "\n") {
				p.trimTrailingSpaces()
			} else if colno > 1 && (p.lastLine()+len(item) > p.wrap || lastMultiline) {
				p.contextKeyword("", -prettyIndentStd, prettyIndentStd, prettyIndent)
			}
			lastMultiline = strings.Contains(strings.TrimPrefix(item, "\n"), "\n")
		}
		p.sb.WriteString(item)
	}
}

func (p *printer) trimTrailingSpaces() {
	s := strings.TrimRight(p.sb.String(), " ")
	p.sb.Reset()
	p.sb.WriteString(s)
}

// fromClause is get_from_clause.
func (p *printer) fromClause(q *query, taken []string) {
	for i, it := range q.from {
		if i == 0 {
			p.contextKeyword(" FROM ", -prettyIndentStd, prettyIndentStd, 2)
			p.fromItem(it, taken)
			continue
		}
		p.sb.WriteString(", ")
		ip := p.sub()
		ip.fromItem(it, taken)
		item := ip.sb.String()
		if p.wrap >= 0 {
			if strings.HasPrefix(item, "\n") {
				p.trimTrailingSpaces()
			} else if p.lastLine()+len(item) > p.wrap {
				p.contextKeyword("", -prettyIndentStd, prettyIndentStd, prettyIndent)
			}
		}
		p.sb.WriteString(item)
	}
}

// fromItem is get_from_clause_item.
func (p *printer) fromItem(it fromItem, taken []string) {
	switch x := it.(type) {
	case *rangeEntry:
		printAlias := false
		switch x.kind {
		case rteRelation:
			// generate_relation_name: qualified when its schema is not
			// on the search path (pg_dump's is empty)
			if x.schema != "" && !p.isVisible(x.schema) {
				p.sb.WriteString(quoteIdent(x.schema) + ".")
			}
			p.sb.WriteString(quoteIdent(x.name))
			if x.alias != "" || x.refname != x.name {
				p.sb.WriteString(" " + quoteIdent(x.refname))
				printAlias = true
			}
		case rteCTE:
			p.sb.WriteString(quoteIdent(x.name))
			if x.alias != "" || x.refname != x.name {
				p.sb.WriteString(" " + quoteIdent(x.refname))
				printAlias = true
			}
		case rteSubquery:
			p.sb.WriteByte('(')
			p.query(x.sub, taken, nil, true, p.indent)
			p.sb.WriteString(") " + quoteIdent(x.refname))
			printAlias = true
		}
		if printAlias && x.printColumnAliases() {
			p.sb.WriteByte('(')
			for i, c := range x.cols {
				if i > 0 {
					p.sb.WriteString(", ")
				}
				p.sb.WriteString(quoteIdent(c))
			}
			p.sb.WriteByte(')')
		}
	case *joinItem:
		parenRight := p.pretty && func() bool { _, leaf := x.r.(*rangeEntry); return !leaf }()
		if !p.pretty {
			p.sb.WriteByte('(')
		}
		p.fromItem(x.l, taken)
		kw := map[pt.JoinKind]string{pt.InnerJoin: " JOIN ", pt.CrossJoin: " CROSS JOIN ", pt.LeftJoin: " LEFT JOIN ",
			pt.RightJoin: " RIGHT JOIN ", pt.FullJoin: " FULL JOIN "}[x.kind]
		if x.kind == pt.InnerJoin && x.on == nil && len(x.using) == 0 {
			kw = " CROSS JOIN "
		}
		if x.kind == pt.CrossJoin && (x.on != nil || len(x.using) > 0) {
			kw = " JOIN "
		}
		p.contextKeyword(kw, -prettyIndentStd, prettyIndentStd, prettyIndentJoin)
		if parenRight {
			p.sb.WriteByte('(')
		}
		p.fromItem(x.r, taken)
		if parenRight {
			p.sb.WriteByte(')')
		}
		switch {
		case len(x.using) > 0:
			p.sb.WriteString(" USING (")
			for i, c := range x.using {
				if i > 0 {
					p.sb.WriteString(", ")
				}
				p.sb.WriteString(quoteIdent(c))
			}
			p.sb.WriteByte(')')
		case x.on != nil:
			p.sb.WriteString(" ON ")
			p.open()
			p.expr(x.on, false)
			p.close()
		case x.kind != pt.InnerJoin && x.kind != pt.CrossJoin:
			p.sb.WriteString(" ON TRUE")
		}
		if !p.pretty {
			p.sb.WriteByte(')')
		}
	}
}

// printColumnAliases is set_relation_column_names' printaliases: a
// relation's when a column's name is not its own, a subquery's or CTE's
// when aliases were written or a name was changed.
func (r *rangeEntry) printColumnAliases() bool {
	if len(r.aliasCols) > 0 {
		return true
	}
	return false
}

// sortGroupClause is get_rule_sortgroupclause: a key by its output
// column's number (a set operation's ORDER BY), a constant with its type,
// a column as it is, anything else in parentheses where the pretty form
// (or a function-like node) needs them.
func (p *printer) sortGroupClause(q *query, tle int, forceColno bool, taken []string) {
	te := q.targets[tle]
	switch x := te.n.(type) {
	case *constNode:
		if !forceColno {
			p.constant(x, 1)
			return
		}
	case *varNode:
		if !forceColno {
			p.expr(x, true)
			return
		}
	}
	if forceColno {
		p.sb.WriteString(strconv.Itoa(visibleNumber(q, tle)))
		return
	}
	need := p.pretty
	switch x := te.n.(type) {
	case *funcNode, *aggNode, *winNode:
		need = true
	case *coerceNode:
		need = need || isFuncCast(x)
	}
	if need {
		p.sb.WriteByte('(')
	}
	p.expr(te.n, true)
	if need {
		p.sb.WriteByte(')')
	}
}

// visibleNumber is the output column number of target entry i.
func visibleNumber(q *query, i int) int {
	n := 0
	for j := 0; j <= i; j++ {
		if !q.targets[j].junk {
			n++
		}
	}
	return n
}

// subLink is get_sublink_expr.
func (p *printer) subLink(x *subLinkNode) {
	p.sb.WriteByte('(')
	if x.test != nil {
		p.expr(x.test, true)
	}
	paren := true
	switch x.kind {
	case subLinkExists:
		p.sb.WriteString("EXISTS ")
	case subLinkAny:
		if x.op == "=" {
			p.sb.WriteString(" IN ")
		} else {
			p.sb.WriteString(" " + x.op + " ANY ")
		}
	case subLinkAll:
		p.sb.WriteString(" " + x.op + " ALL ")
	default:
		paren = false
	}
	if paren {
		p.sb.WriteByte('(')
	}
	p.query(x.q, p.taken, nil, false, p.indent)
	if paren {
		p.sb.WriteString("))")
	} else {
		p.sb.WriteByte(')')
	}
}
