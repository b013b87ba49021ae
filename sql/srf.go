package sql

import "strings"

// Set-returning functions in FROM. TiDB's grammar has no table functions,
// so the rewrite turns
//
//	FROM [pg_catalog.]f(args) [WITH ORDINALITY] [[AS] alias [(c1, ...)]]
//
// for f in unnest, generate_series, generate_subscripts into a derived
// table TiDB accepts,
//
//	FROM (SELECT __pg_srf('f', ordinality, explicitAlias, __pg_cols('c1', ...), args)) AS alias
//
// (ordinality and explicitAlias are 0 or 1; alias defaults to f), which
// the binder turns back into a table-function node.

// setFuncNames are the set-returning functions recognized in FROM.
var setFuncNames = map[string]bool{"UNNEST": true, "GENERATE_SERIES": true, "GENERATE_SUBSCRIPTS": true}

// keywordFuncNames are PostgreSQL functions whose names TiDB's grammar
// reads as keywords before "(": the rewrite quotes them.
var keywordFuncNames = map[string]bool{"CARDINALITY": true}

// clauseEndWords end a FROM item: a bare word after a table function that
// is one of these is not its alias.
var clauseEndWords = map[string]bool{
	"WHERE": true, "GROUP": true, "HAVING": true, "ORDER": true, "LIMIT": true, "OFFSET": true, "JOIN": true,
	"LEFT": true, "RIGHT": true, "FULL": true, "INNER": true, "CROSS": true, "NATURAL": true, "ON": true,
	"USING": true, "UNION": true, "INTERSECT": true, "EXCEPT": true, "WINDOW": true, "FETCH": true, "FOR": true,
	"RETURNING": true, "WITH": true, "SET": true,
}

// fromItemHere reports whether a FROM item may start after out: right
// after FROM or JOIN, or after a comma of a FROM list at this level.
func (r *rewriter) fromItemHere(out []item) bool {
	if len(out) == 0 || out[len(out)-1].composite {
		return false
	}
	last := out[len(out)-1].tok
	if last.is(r.src, "FROM") || last.is(r.src, "JOIN") {
		return true
	}
	if !last.isPunct(r.src, ",") {
		return false
	}
	depth := 0
	for i := len(out) - 2; i >= 0; i-- {
		it := out[i]
		switch {
		case r.itemIs(it, ")"):
			depth++
		case r.itemIs(it, "("):
			if depth == 0 {
				return false
			}
			depth--
		case depth == 0 && !it.composite && it.tok.kind == tkIdent:
			switch it.tok.word(r.src) {
			case "FROM", "JOIN":
				return true
			case "SELECT", "WHERE", "ON", "GROUP", "HAVING", "ORDER", "LIMIT", "SET", "VALUES", "RETURNING", "USING", "BY":
				return false
			}
		}
	}
	return false
}

// notTableFuncWords are words that may follow FROM or JOIN with a "("
// after them and are no function name.
var notTableFuncWords = map[string]bool{"LATERAL": true, "ONLY": true, "SELECT": true, "VALUES": true, "TABLE": true, "ROWS": true, "WITH": true}

// anyTableFunction reports whether identifier k (followed by "(") is a
// function called as a FROM item whatever its name (a Go UDF's, or an
// unknown one the binder reports as 42883, as PostgreSQL does): a FROM item
// may start there, and the FROM is a clause's, not the FROM inside a
// function's parentheses (EXTRACT(YEAR FROM f(x)), TRIM(BOTH FROM f(x))).
func (r *rewriter) anyTableFunction(out []item, k int) bool {
	if notTableFuncWords[r.toks[k].word(r.src)] || !r.fromItemHere(out) {
		return false
	}
	depth := 0
	for i := k - 1; i >= 0; i-- {
		t := r.toks[i]
		switch {
		case t.isPunct(r.src, ")"):
			depth++
		case t.isPunct(r.src, "("):
			if depth == 0 {
				return false
			}
			depth--
		case depth == 0 && (t.is(r.src, "SELECT") || t.is(r.src, "DELETE") || t.is(r.src, "UPDATE")):
			return true
		}
	}
	return true
}

// identName is the name an identifier token stands for: folded to lower
// case when bare, unquoted when quoted.
func (r *rewriter) identName(t token) string {
	text := t.text(r.src)
	if t.kind == tkQIdent && len(text) >= 2 {
		return strings.ReplaceAll(text[1:len(text)-1], `""`, `"`)
	}
	return foldASCII(text)
}

// setFunction rewrites the table function whose name is token k (after
// any pg_catalog. qualifier, already in out at qual..) ending before j.
// It returns the new out and the next token index.
func (r *rewriter) setFunction(out []item, qual, k, j int) ([]item, int, error) {
	t := r.toks[k]
	m := r.matchClose(k+1, j)
	if m < 0 {
		return nil, 0, r.errNear(j)
	}
	args, err := r.run(k+2, m)
	if err != nil {
		return nil, 0, err
	}
	next := m + 1
	ord := "0"
	if next+1 < j && r.toks[next].is(r.src, "WITH") && r.toks[next+1].is(r.src, "ORDINALITY") {
		ord, next = "1", next+2
	}
	var alias *token
	if next < j && r.toks[next].is(r.src, "AS") {
		if next+1 >= j || (r.toks[next+1].kind != tkIdent && r.toks[next+1].kind != tkQIdent) {
			return nil, 0, r.errNear(next + 1)
		}
		alias, next = &r.toks[next+1], next+2
	} else if next < j && (r.toks[next].kind == tkQIdent || r.toks[next].kind == tkIdent && !clauseEndWords[r.toks[next].word(r.src)]) {
		alias, next = &r.toks[next], next+1
	}
	var cols []string
	if alias != nil && next < j && r.toks[next].isPunct(r.src, "(") {
		c := r.matchClose(next, j)
		if c < 0 {
			return nil, 0, r.errNear(j)
		}
		for q := next + 1; q < c; q++ {
			tq := r.toks[q]
			switch {
			case tq.kind == tkIdent || tq.kind == tkQIdent:
				cols = append(cols, sqlQuote(r.identName(tq)))
			case tq.isPunct(r.src, ","):
			default:
				return nil, 0, r.errNear(q)
			}
		}
		next = c + 1
	}
	explicit := "0"
	if alias != nil {
		explicit = "1"
	}
	lead := r.leadOf(t)
	if qual < len(out) {
		lead = out[qual].lead
	}
	b := newComposite(lead)
	b.add("(select __pg_srf("+sqlQuote(strings.ToLower(t.text(r.src)))+", "+ord+", "+explicit+", __pg_cols("+strings.Join(cols, ", ")+")", t.start)
	if len(args) > 0 {
		b.add(", ", r.toks[k+1].start)
		b.addItems(args, true)
	}
	b.add(")) as ", r.toks[m].start)
	if alias != nil {
		b.addItems([]item{r.simple(*alias)}, true)
	} else {
		b.add(strings.ToLower(t.text(r.src)), t.start)
	}
	return append(out[:qual], b.it), next, nil
}
