package sql

// (t.*): PostgreSQL's grammar returns a parenthesised expression as the
// expression itself (c_expr: '(' a_expr ')' is $2), so (t.*) and
// ((t.*)) are the column reference t.* wherever they stand: a select
// item's columns, f((t.*)) the whole row. TiDB's grammar reads t.* only
// where MySQL does (a select item, and the rewrite's f(t.*)); unwrapStars
// drops the parentheses around alias.* so that the rewrite reads it as
// it reads t.* there; not before an indirection ((t.*).a, (t.*)[1]);
// as an operator's operand ((t.*)::text, (t.*) IS NULL) it is the whole
// row, (t).

// unwrapStars removes the parenthesis pairs that wrap name.* and nothing
// else, where they are an expression's parentheses (not a call's, nor
// those IN, ANY / ALL / SOME, ON, USING, VALUES or a name's column list
// require). toks is returned as it is when there is none; the scan is
// linear (each '*' looks at the tokens next to it only).
func unwrapStars(src string, toks []token) []token {
	var drop map[int]bool
	for i := 2; i+1 < len(toks); i++ {
		if !toks[i].isPunct(src, "*") || !toks[i-1].isPunct(src, ".") ||
			toks[i-2].kind != tkIdent && toks[i-2].kind != tkQIdent {
			continue
		}
		// name.* from lo to i; peel the pairs around it
		lo, hi := i-2, i
		for lo-1 >= 0 && hi+1 < len(toks) && toks[lo-1].isPunct(src, "(") && toks[hi+1].isPunct(src, ")") &&
			expressionParen(src, toks, lo-1) && !indirectionAt(src, toks, hi+2) {
			lo, hi = lo-1, hi+1
		}
		if lo == i-2 {
			continue
		}
		if drop == nil {
			drop = map[int]bool{}
		}
		if toks[lo-1].kind == tkOp || hi+1 < len(toks) && (toks[hi+1].kind == tkOp || wholeRowFollow[toks[hi+1].word(src)]) {
			// an operator's operand: t.* is the whole row there, t
			// ((t.*)::text, (t.*) IS NULL)
			drop[i-1], drop[i] = true, true
			continue
		}
		for k := i - 3; k >= lo; k-- {
			drop[k], drop[i+(i-2-k)] = true, true
		}
	}
	if drop == nil {
		return toks
	}
	out := make([]token, 0, len(toks)-len(drop))
	lead := -1 // the lead of the first dropped token before the next kept one
	for i, t := range toks {
		if drop[i] {
			if lead < 0 {
				lead = t.lead
			}
			continue
		}
		if lead >= 0 {
			// a space stands for the dropped ( and the whitespace before
			// it (SELECT (t.*) is not SELECTt.*): the rewrite writes one
			// space for a lead marked as holding a comment
			t.lead, t.hasComment, lead = lead, true, -1
		}
		out = append(out, t)
	}
	return out
}

// wholeRowFollow are the words after (t.*) that make it an operand.
var wholeRowFollow = map[string]bool{"IS": true, "ISNULL": true, "NOTNULL": true, "IN": true, "NOT": true,
	"LIKE": true, "ILIKE": true, "SIMILAR": true, "BETWEEN": true, "AND": true, "OR": true, "COLLATE": true, "AT": true}

// indirectionAt reports whether the token at k selects from what stands
// before it ((t.*).a, (t.*)[1]: t.*.a is no PostgreSQL syntax).
func indirectionAt(src string, toks []token, k int) bool {
	return k < len(toks) && (toks[k].isPunct(src, ".") || toks[k].isPunct(src, "["))
}

// expressionParen reports whether the '(' at k opens a parenthesised
// expression: what stands before it is an operator, a list's comma or
// parenthesis, or a keyword after which an expression starts.
func expressionParen(src string, toks []token, k int) bool {
	if k == 0 {
		return false
	}
	p := toks[k-1]
	switch p.kind {
	case tkOp:
		return true
	case tkPunct:
		t := p.text(src)
		return t == "(" || t == "," || t == "["
	case tkIdent:
		switch p.word(src) {
		case "SELECT", "DISTINCT", "WHERE", "AND", "OR", "NOT", "WHEN", "THEN", "ELSE",
			"BY", "HAVING", "RETURNING", "CASE":
			return true
		}
	}
	return false
}
