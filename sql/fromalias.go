package sql

import "github.com/sqlgate/sqlgate/sqlerr"

// A subquery in FROM without an alias. PostgreSQL 15's grammar (gram.y's
// table_ref: select_with_parens opt_alias_clause) refuses one in the rule's
// action, with 42601 "subquery in FROM must have an alias" (or "VALUES in
// FROM must have an alias" when the query is a VALUES list) at the
// subquery's "(" and a hint; TiDB's grammar takes it. The action runs when
// the rule is reduced, which its default reduction does whatever token
// follows the ")" that is no alias (WHERE, a number, the end), so a
// syntax error at or before that ")" is reported first and any later one
// after it; the first subquery to close is the first refused
// (FROM (SELECT 1 FROM (SELECT 1)) x: the inner one).
//
// fromAliasError reads the statement's tokens for it: a "(" holding a
// query (subqueryIn) stands where a FROM item does when it follows JOIN,
// LATERAL, MERGE's or DELETE's USING, or FROM or a comma of a FROM list
// at a query's level, or opens a parenthesised joined table's first item.

// fromItemCut are the words that end a FROM list at a query's level.
var fromItemCut = map[string]bool{
	"WHERE": true, "GROUP": true, "HAVING": true, "WINDOW": true, "ORDER": true, "LIMIT": true, "OFFSET": true,
	"FETCH": true, "FOR": true, "UNION": true, "INTERSECT": true, "EXCEPT": true, "RETURNING": true, "SET": true,
	"WHEN": true, "SELECT": true, "VALUES": true, "INTO": true,
}

// fromAliasError is PostgreSQL's error for the statement's first subquery
// in FROM without an alias, and the index of its ")" (the error stands if
// no syntax error lies at or before it); nil, -1 when there is none.
func fromAliasError(src string, toks []token) (*sqlerr.Error, int) {
	type frame struct {
		query    bool // a query's level: FROM starts a FROM list
		fromList bool // in a FROM list: a comma starts an item
		joined   bool // a parenthesised joined table: its first item is one
	}
	var frames [16]frame // every statement passes here: no allocation unless nested deeper
	stack := append(frames[:0], frame{query: true})
	open, close := -1, -1
	for k := 0; k < len(toks); k++ {
		t := toks[k]
		top := &stack[len(stack)-1]
		switch {
		case t.isPunct(src, ")"):
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
			continue
		case t.isPunct(src, "("):
		case t.kind == tkIdent && t.synth == "":
			if !top.query {
				continue
			}
			switch {
			case t.is(src, "FROM"):
				// not IS [NOT] DISTINCT FROM, DELETE FROM's table
				top.fromList = k == 0 || !toks[k-1].is(src, "DISTINCT") && !toks[k-1].is(src, "DELETE")
			default:
				if _, cut := lookupWord(src, t, fromItemCut); cut {
					top.fromList = false
				}
			}
			continue
		default:
			continue
		}
		// a "(": a FROM item's?
		item := false
		if k > 0 {
			switch p := toks[k-1]; {
			case p.is(src, "JOIN"), p.is(src, "LATERAL"):
				item = true
			case p.is(src, "FROM"), p.isPunct(src, ","):
				item = top.fromList
			case p.is(src, "USING"):
				item = toks[0].is(src, "MERGE") || toks[0].is(src, "DELETE")
			case p.isPunct(src, "("):
				item = top.joined
			}
		}
		m := matchParen(src, toks, k)
		query := k+1 < len(toks) && startsQuery(src, toks[k+1])
		switch {
		case m < 0:
			stack = append(stack, frame{query: query})
		case item && subqueryIn(src, toks, k, m):
			stack = append(stack, frame{query: query})
			if (close < 0 || m < close) && !aliasFollows(src, toks, m+1) {
				open, close = k, m
			}
		case item:
			stack = append(stack, frame{query: true, fromList: true, joined: true})
		default:
			stack = append(stack, frame{query: query})
		}
	}
	if open < 0 {
		return nil, -1
	}
	pos := charPos(src, toks[open].start)
	if valuesQuery(src, toks, open, close) {
		return sqlerr.New(sqlerr.SyntaxError, "VALUES in FROM must have an alias").
			WithHint("For example, FROM (VALUES ...) [AS] foo.").WithPosition(pos), close
	}
	return sqlerr.New(sqlerr.SyntaxError, "subquery in FROM must have an alias").
		WithHint("For example, FROM (SELECT ...) [AS] foo.").WithPosition(pos), close
}

// aliasFollows reports whether toks[k] starts an alias_clause: AS, or a
// ColId (a name, an unreserved or column-name keyword).
func aliasFollows(src string, toks []token, k int) bool {
	if k >= len(toks) {
		return false
	}
	t := toks[k]
	switch t.kind {
	case tkQIdent:
		return true
	case tkIdent:
		if t.synth != "" {
			return false
		}
		if t.is(src, "AS") {
			return true
		}
		kw, ok := lookupWord(src, t, pgKeywords)
		return !ok || kw.cat == kwUnreserved || kw.cat == kwColName
	}
	return false
}

// valuesQuery reports whether the parentheses open..close hold a VALUES
// list (in parentheses of its own, with ORDER BY or LIMIT, not in a set
// operation): PostgreSQL's SelectStmt then has valuesLists.
func valuesQuery(src string, toks []token, open, close int) bool {
	if open+1 >= close {
		return false
	}
	for i := range topLevel(src, toks, open+1, close) {
		if w := toks[i]; w.is(src, "UNION") || w.is(src, "INTERSECT") || w.is(src, "EXCEPT") {
			return false
		}
	}
	if first := toks[open+1]; first.isPunct(src, "(") {
		m := matchParen(src, toks, open+1)
		return m > 0 && valuesQuery(src, toks, open+1, m)
	}
	return toks[open+1].is(src, "VALUES")
}
