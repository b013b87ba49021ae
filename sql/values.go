package sql

import "strings"

// VALUES lists as queries and column alias lists on derived tables.
//
// TiDB's grammar knows VALUES only as INSERT's row source and as MySQL 8's
// VALUES ROW(..), ROW(..) statement, so a VALUES that starts a query (a
// statement, a derived table, a CTE body, a set operation's operand, an
// IN (VALUES ..) subquery) gets ROW before each row:
//
//	VALUES (1, 'a'), (2, 'b')  ->  values row(1, 'a'), row(2, 'b')
//
// (SelectStmt.Kind == SelectStmtKindValues, bound by binder/values.go).
// INSERT ... VALUES is left as it is.
//
// TiDB accepts a column alias list only after LATERAL (subquery) AS t, so
// a derived table's list becomes a marker the binder reads
// (binder.colAliasMarker):
//
//	(query) [AS] t(x, y)  ->  (select pg__colalias('x', 'y') from (query) as pg__colalias) [AS] t
//
// Function calls in FROM carry their own list (srf.go); WITH t(x) AS (..)
// is TiDB's own syntax.

// valuesStartWords are the words after which VALUES starts a query.
var valuesStartWords = map[string]bool{
	"UNION": true, "INTERSECT": true, "EXCEPT": true, "ALL": true, "DISTINCT": true,
	"EXPLAIN": true, "ANALYZE": true, "VERBOSE": true, "AS": true,
}

// valuesIsQueryAt reports whether the VALUES token k, after out, starts a
// query rather than INSERT's row list (INSERT INTO t [(cols)] VALUES ..).
// The VALUES(col) that the ON CONFLICT rewrite writes for EXCLUDED.col (a
// synthesised token, ddl.go) is MySQL's function, never a VALUES list.
func (r *rewriter) valuesIsQueryAt(out []item, k int) bool {
	return r.toks[k].synth == "" && (r.valuesQueryAfter(out) || r.afterWithList(k))
}

// afterWithList reports whether token k follows a WITH list: the ")" of a
// common table expression's body (name AS [[NOT] MATERIALIZED] (..)),
// after which PostgreSQL's grammar reads the statement's query, VALUES
// too (WITH c AS (..) VALUES (1), in a derived table, a subquery, an
// INSERT's source).
func (r *rewriter) afterWithList(k int) bool {
	if k < 1 || !r.toks[k-1].isPunct(r.src, ")") {
		return false
	}
	depth := 0
	for o := k - 1; o >= 0; o-- {
		switch {
		case r.toks[o].isPunct(r.src, ")"):
			depth++
		case r.toks[o].isPunct(r.src, "("):
			if depth--; depth == 0 {
				return o > 0 && (r.toks[o-1].is(r.src, "AS") || r.toks[o-1].is(r.src, "MATERIALIZED"))
			}
		}
	}
	return false
}

// valuesQueryAfter: after out, a VALUES starts a query.
func (r *rewriter) valuesQueryAfter(out []item) bool {
	if len(out) == 0 {
		return true
	}
	last := out[len(out)-1]
	if last.composite {
		return false
	}
	if r.itemIs(last, "(") {
		return true
	}
	return valuesStartWords[last.tok.word(r.src)]
}

// valuesRows rewrites the rows of a VALUES query whose VALUES word is
// token k: each parenthesised row gets ROW in front. It returns the items
// and the index after the last row.
func (r *rewriter) valuesRows(k, j int) ([]item, int, error) {
	out := []item{r.simple(r.toks[k])}
	q := k + 1
	for {
		if q >= j || !r.toks[q].isPunct(r.src, "(") {
			return nil, 0, r.errNear(q)
		}
		m := r.matchClose(q, j)
		if m < 0 {
			return nil, 0, syntaxErrorAt(r.src, r.toks, j)
		}
		if m == q+1 {
			return nil, 0, r.errNear(m) // VALUES () is a syntax error in PostgreSQL too
		}
		inner, err := r.run(q+1, m)
		if err != nil {
			return nil, 0, err
		}
		b := newComposite(r.leadOf(r.toks[q]))
		b.add("row(", r.toks[q].start)
		b.addItems(inner, false)
		b.add(")", r.toks[m].start)
		out = append(out, b.it)
		q = m + 1
		if q+1 < j && r.toks[q].isPunct(r.src, ",") && r.toks[q+1].isPunct(r.src, "(") {
			out = append(out, r.simple(r.toks[q]))
			q++
			continue
		}
		return out, q, nil
	}
}

// ctasValues wraps the VALUES query that ends a CREATE TABLE .. AS (items,
// the rewritten rows, up to rowsEnd) and the rest of the statement in
// SELECT * FROM (..) AS "*VALUES*" (PostgreSQL's name for it): TiDB's CREATE
// TABLE .. AS takes no VALUES statement. ok is false for other statements.
func (r *rewriter) ctasValues(out, items []item, rowsEnd, j int) ([]item, bool, error) {
	if len(out) < 3 || out[0].composite || !out[0].tok.is(r.src, "CREATE") || !out[len(out)-1].tok.is(r.src, "AS") {
		return nil, false, nil
	}
	table := false
	for _, it := range out[1:] {
		if !it.composite && it.tok.is(r.src, "TABLE") {
			table = true
			break
		}
	}
	if !table {
		return nil, false, nil
	}
	rest, err := r.run(rowsEnd, j)
	if err != nil {
		return nil, false, err
	}
	b := newComposite(items[0].lead)
	b.add("select * from (", items[0].firstOrig())
	b.addItems(items, true)
	b.addItems(rest, false)
	b.add(`) as "*VALUES*"`, r.toks[j-1].end)
	return []item{b.it}, true, nil
}

// derivedQueryWords are the words that may follow the "(" of a derived
// table (a join in parentheses takes no column alias list here).
var derivedQueryWords = map[string]bool{"SELECT": true, "WITH": true, "VALUES": true, "TABLE": true}

// columnAliasList handles a "(" at token k that may open the column alias
// list of a derived table: out ends with ( query ) [AS] alias. ok is false
// when it does not (out is then unchanged).
func (r *rewriter) columnAliasList(out []item, k, j int) (_ []item, next int, ok bool, err error) {
	n := len(out)
	if n < 3 || out[n-1].composite {
		return out, k, false, nil
	}
	alias := out[n-1].tok
	if alias.kind != tkQIdent && (alias.kind != tkIdent || clauseEndWords[alias.word(r.src)] || nonOperandWords[alias.word(r.src)]) {
		return out, k, false, nil
	}
	close := n - 2
	if !out[close].composite && out[close].tok.is(r.src, "AS") {
		close--
	}
	if close < 1 || !r.itemIs(out[close], ")") {
		return out, k, false, nil
	}
	open := r.matchOpenItem(out, close, "(", ")")
	if open < 0 || open+1 >= close || !r.fromItemHere(out[:open]) {
		return out, k, false, nil
	}
	first := out[open+1]
	if first.composite && !first.derived || !first.composite && !(derivedQueryWords[first.tok.word(r.src)] || r.itemIs(first, "(")) {
		return out, k, false, nil
	}
	m := r.matchClose(k, j)
	if m < 0 {
		return nil, 0, false, syntaxErrorAt(r.src, r.toks, j)
	}
	var names []string
	for q := k + 1; q < m; q++ {
		tq := r.toks[q]
		switch {
		case (tq.kind == tkIdent || tq.kind == tkQIdent) && (q-k)%2 == 1:
			names = append(names, sqlQuote(r.identName(tq)))
		case tq.isPunct(r.src, ",") && (q-k)%2 == 0:
			if q+1 == m {
				return nil, 0, false, r.errNear(m)
			}
		default:
			return nil, 0, false, r.errNear(q)
		}
	}
	if len(names) == 0 {
		return nil, 0, false, r.errNear(m)
	}
	b := newComposite(out[open].lead)
	b.add("(select pg__colalias("+strings.Join(names, ", ")+") from ", out[open].firstOrig())
	b.addItems(out[open:close+1], true)
	b.add(" as pg__colalias)", r.toks[m].start)
	res := append(out[:open:open], b.it)
	res = append(res, out[close+1:]...)
	return res, m + 1, true, nil
}
