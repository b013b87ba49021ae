package sql

import "strings"

// FULL [OUTER] JOIN: TiDB's grammar has no full outer join (MySQL has
// none), so the rewrite hands TiDB a LEFT JOIN whose join condition carries
// a marker the binder unwraps (binder.joinSpecOf):
//
//	a FULL JOIN b ON cond        -> a LEFT JOIN b ON pg__full_join((cond))
//	a FULL JOIN b USING (x, y)   -> a LEFT JOIN b ON pg__full_join_using('x', 'y')
//	a NATURAL FULL JOIN b        -> a LEFT JOIN b ON pg__full_join_natural()
//
// A marker function rather than a side table, because the AST is all that
// reaches the binder. (A query that writes the marker itself just gets the
// full join it spells.)

// joinClauseStops are the words that end a join's right-hand table or its
// ON condition at bracket depth 0.
var joinClauseStops = map[string]bool{
	"JOIN": true, "INNER": true, "LEFT": true, "RIGHT": true, "FULL": true, "CROSS": true, "NATURAL": true,
	"WHERE": true, "GROUP": true, "HAVING": true, "WINDOW": true, "ORDER": true, "LIMIT": true, "OFFSET": true,
	"FETCH": true, "UNION": true, "INTERSECT": true, "EXCEPT": true, "RETURNING": true, "FOR": true,
	"ON": true, "USING": true,
}

// isFullJoinAt reports whether tokens k.. start [NATURAL] FULL [OUTER] JOIN,
// returning the index after JOIN.
func (r *rewriter) isFullJoinAt(k, j int) (next int, natural, ok bool) {
	q := k
	if q < j && r.toks[q].is(r.src, "NATURAL") {
		natural = true
		q++
	}
	if q >= j || !r.toks[q].is(r.src, "FULL") {
		return 0, false, false
	}
	q++
	if q < j && r.toks[q].is(r.src, "OUTER") {
		q++
	}
	if q >= j || !r.toks[q].is(r.src, "JOIN") {
		return 0, false, false
	}
	return q + 1, natural, true
}

func (r *rewriter) startsFullJoin(k, j int) bool {
	_, _, ok := r.isFullJoinAt(k, j)
	return ok
}

// clauseEnd finds, from k, the first token at bracket depth 0 that ends a
// join's table or condition (a stop word, a closing bracket, a comma or a
// semicolon), or j.
func (r *rewriter) clauseEnd(k, j int, stopAtOn bool) int {
	for q := k; q < j; q++ {
		t := r.toks[q]
		switch {
		case t.isPunct(r.src, "(") || t.isPunct(r.src, "["):
			if m := r.matchClose(q, j); m > q {
				q = m
			}
		case t.isPunct(r.src, ")") || t.isPunct(r.src, "]") || t.isPunct(r.src, ",") || t.isPunct(r.src, ";"):
			return q
		case t.kind == tkIdent && t.synth == "":
			w := t.word(r.src)
			if joinClauseStops[w] && (stopAtOn || (w != "ON" && w != "USING")) {
				return q
			}
		}
	}
	return j
}

// fullJoin rewrites the full join starting at k (NATURAL or FULL) and
// returns its items and the index after it.
func (r *rewriter) fullJoin(k, afterJoin, j int, natural bool) ([]item, int, error) {
	t := r.toks[k]
	tableEnd := r.clauseEnd(afterJoin, j, true)
	if tableEnd == afterJoin {
		return nil, 0, r.errNear(afterJoin)
	}
	// the table is rewritten as the item after JOIN it is: a derived
	// table's column aliases, a function or ROWS FROM (srf.go) look back
	// for the word that allows a FROM item
	table, err := r.runAfter([]item{r.simple(r.toks[afterJoin-1])}, afterJoin, tableEnd)
	if err != nil {
		return nil, 0, err
	}
	b := newComposite(r.leadOf(t))
	b.add("left join", t.start)
	b.addItems(table, false)
	switch {
	case natural:
		b.add(" on pg__full_join_natural()", r.toks[tableEnd-1].end)
		return []item{b.it}, tableEnd, nil
	case tableEnd < j && r.toks[tableEnd].is(r.src, "ON"):
		on := tableEnd
		condEnd := r.clauseEnd(on+1, j, false)
		if condEnd == on+1 {
			return nil, 0, r.errNear(condEnd)
		}
		cond, err := r.runAfter([]item{r.simple(r.toks[on])}, on+1, condEnd)
		if err != nil {
			return nil, 0, err
		}
		b.add(" on pg__full_join((", r.toks[on].start)
		b.addItems(cond, true)
		b.add("))", r.toks[condEnd-1].end)
		return []item{b.it}, condEnd, nil
	case tableEnd < j && r.toks[tableEnd].is(r.src, "USING"):
		open := tableEnd + 1
		if open >= j || !r.toks[open].isPunct(r.src, "(") {
			return nil, 0, r.errNear(open)
		}
		close := r.matchClose(open, j)
		if close < 0 {
			return nil, 0, r.errNear(j)
		}
		var names []string
		for q := open + 1; q < close; q++ {
			c := r.toks[q]
			switch {
			case c.kind == tkIdent && (q-open)%2 == 1:
				names = append(names, sqlQuote(foldASCII(c.text(r.src))))
			case c.kind == tkQIdent && (q-open)%2 == 1:
				names = append(names, sqlQuote(unquoteIdent(c.text(r.src))))
			case c.isPunct(r.src, ",") && (q-open)%2 == 0:
			default:
				return nil, 0, r.errNear(q)
			}
		}
		if len(names) == 0 {
			return nil, 0, r.errNear(close)
		}
		b.add(" on pg__full_join_using("+strings.Join(names, ", ")+")", r.toks[tableEnd].start)
		return []item{b.it}, close + 1, nil
	}
	// PostgreSQL: a FULL JOIN needs ON, USING or NATURAL
	return nil, 0, r.errNear(tableEnd)
}
