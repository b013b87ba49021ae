package sql

import "strings"

// Functions in FROM. TiDB's grammar has no table functions, so the
// rewrite turns
//
//	FROM [pg_catalog.|information_schema.]f(args) [WITH ORDINALITY] [[AS] alias [(c1, ...)]]
//	FROM f(args) [AS] [alias] (c1 type1, ...)   -- a column definition list
//
// for any function f (the set-returning unnest, generate_series,
// generate_subscripts, _pg_expandarray, or a plain function, which
// PostgreSQL reads as a one-row table) into a derived table TiDB accepts,
//
//	FROM (SELECT pg__srf('f', ordinality, explicitAlias, pg__cols('c1', ...), args)) AS alias
//
// (ordinality and explicitAlias are 0 or 1; alias defaults to f), which
// the binder turns back into a table-function node. A column definition
// list's entries are pg__coldef('c1', 'type1') inside pg__cols.
//
//	FROM ROWS FROM (f(args) [AS (c1 type1, ...)], g(args) ...) [WITH ORDINALITY] [[AS] alias [(c1, ...)]]
//
// is the same marker for the function pg__rowsfrom, whose arguments are
// one pg__rowsfn('f', pg__cols(definitions), args) per function (alias
// defaults to the first function's name).

// notFromFuncWords are words that may stand before "(" at the start of a
// FROM item without being a function: LATERAL (subquery), ROWS FROM (..),
// and the calls with their own argument syntax (CAST(x AS t) ...), which
// are left to the rest of the rewrite.
var notFromFuncWords = map[string]bool{
	"LATERAL": true, "ROWS": true, "ONLY": true, "VALUES": true, "SELECT": true, "CAST": true, "EXTRACT": true,
	"POSITION": true, "ARRAY": true, "TRIM": true, "SUBSTRING": true, "OVERLAY": true,
}

// fromFuncAt returns where a function call in FROM whose name ends out
// begins (before a pg_catalog. or information_schema. qualifier), or -1
// when no FROM item may start there.
func (r *rewriter) fromFuncAt(out []item) int {
	qual := len(out)
	if qual >= 2 && r.itemIs(out[qual-1], ".") && !out[qual-2].composite &&
		(out[qual-2].tok.kind == tkIdent || out[qual-2].tok.kind == tkQIdent) {
		qual -= 2 // schema.f(..): PostgreSQL's func_table takes any func_name
	}
	if !r.fromItemHere(out[:qual]) {
		return -1
	}
	return qual
}

// keywordFuncNames are PostgreSQL functions whose names TiDB's grammar
// reads as keywords before "(": the rewrite quotes them. STDDEV and
// VARIANCE are TiDB's population aggregates (PostgreSQL's are the
// sample's); quoted, they reach the binder as the calls written.
var keywordFuncNames = map[string]bool{"CARDINALITY": true, "STDDEV": true, "VARIANCE": true, "DIV": true, "ROLLUP": true, "CUBE": true}

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
	if last.is(r.src, "LATERAL") {
		// LATERAL f(..): the derived table keeps the word (TiDB reads
		// LATERAL (subquery)); a function in FROM is lateral anyway
		return r.fromItemHere(out[:len(out)-1])
	}
	if last.word(r.src) == "FROM" { // also the FROM dml.go puts for DELETE's USING
		return r.fromIsClause(out[:len(out)-1])
	}
	if last.is(r.src, "JOIN") {
		return true
	}
	if last.isPunct(r.src, "(") {
		// "(" where a FROM item may stand opens a parenthesised join
		// (or a subquery, which no FROM item rule applies to): its first
		// item is a FROM item, ((VALUES (1)) a(x) JOIN ..) as in
		// PostgreSQL's table_ref: '(' joined_table ')'
		return r.fromItemHere(out[:len(out)-1])
	}
	if !last.isPunct(r.src, ",") {
		return false
	}
	result := false
	r.walkLevelBack(out[:len(out)-1], func(i int, t token) bool {
		switch t.word(r.src) {
		case "FROM":
			result = r.fromIsClause(out[:i])
		case "JOIN":
			result = true
		case "SELECT", "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "SET", "VALUES", "RETURNING", "BY":
		default:
			// ON and USING too: a join's condition before the comma
			// (a JOIN b ON c, d), and the JOIN is further back
			return false
		}
		return true
	})
	return result
}

// fromIsClause reports whether a FROM after out starts a FROM clause
// rather than being part of a call's own syntax (substring(x FROM n),
// trim(.. FROM x), IS DISTINCT FROM): a FROM clause follows its SELECT
// (or DELETE, UPDATE) at the same parenthesis depth.
func (r *rewriter) fromIsClause(out []item) bool {
	result := false
	switch r.walkLevelBack(out, func(i int, t token) bool {
		switch t.word(r.src) {
		case "SELECT", "DELETE", "UPDATE":
			result = true
		case "DISTINCT":
			result = false
			return i == len(out)-1 // IS [NOT] DISTINCT FROM
		default:
			return false
		}
		return true
	}) {
	case levelOpened:
		return false // FROM inside a call's parentheses
	case levelStart:
		return true // the statement's own FROM (DELETE FROM, or after dml.go's rewrite)
	}
	return result
}

// levelEnd says how walkLevelBack ended.
type levelEnd int

const (
	levelStopped levelEnd = iota // fn returned true
	levelOpened                  // an enclosing "(" ended the level
	levelStart                   // the items ran out
)

// walkLevelBack walks out backward over its last parenthesis level,
// skipping nested (...) groups, and calls fn with the index and token of
// each bare word until fn returns true. The rewrite's backward
// questions (is this FROM a clause? may a FROM item start here? is there a
// LIMIT before?) are all answered by the first deciding word at the same
// level.
func (r *rewriter) walkLevelBack(out []item, fn func(i int, t token) bool) levelEnd {
	depth := 0
	for i := len(out) - 1; i >= 0; i-- {
		it := out[i]
		switch {
		case r.itemIs(it, ")"):
			depth++
		case r.itemIs(it, "("):
			if depth == 0 {
				return levelOpened
			}
			depth--
		case depth == 0 && !it.composite && it.tok.kind == tkIdent:
			if fn(i, it.tok) {
				return levelStopped
			}
		}
	}
	return levelStart
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
	args, err := r.tableArg(k+2, m)
	if err != nil {
		return nil, 0, err
	}
	ord, alias, cols, next, err := r.funcAlias(m+1, j)
	if err != nil {
		return nil, 0, err
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
	name := sqlQuote(strings.ToLower(t.text(r.src)))
	if qual < len(out) {
		// a schema other than pg_catalog's and information_schema's,
		// whose functions sqlgate's are, rides along for the binder's
		// 42883 (or a UDF's call): pg__schema('s', 'f')
		if s := r.identName(out[qual].tok); s != "pg_catalog" && s != "information_schema" {
			name = SchemaMarker + "(" + sqlQuote(s) + ", " + name + ")"
		}
	}
	at := t.start
	if qual < len(out) {
		at = out[qual].tok.start // PostgreSQL points at the qualified name's start
	}
	b.add("(select pg__srf("+name+", "+ord+", "+explicit+", ", at)
	addCols(b, cols, t.start)
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

// funcAlias reads what may follow a function in FROM (or ROWS FROM (..))
// from token next: [WITH ORDINALITY] [[AS] alias [(columns)]] or a bare
// AS (column definitions). cols are funcColumnList's; next is the token
// after them.
func (r *rewriter) funcAlias(next, j int) (ord string, alias *token, cols []colItem, _ int, err error) {
	ord = "0"
	if next+1 < j && r.toks[next].is(r.src, "WITH") && r.toks[next+1].is(r.src, "ORDINALITY") {
		ord, next = "1", next+2
	}
	bareDefs := false // AS (a int, ...): a column definition list without an alias
	if next < j && r.toks[next].is(r.src, "AS") {
		switch {
		case next+1 < j && r.toks[next+1].isPunct(r.src, "("):
			bareDefs, next = true, next+1
		case next+1 >= j || (r.toks[next+1].kind != tkIdent && r.toks[next+1].kind != tkQIdent):
			return "", nil, nil, 0, r.errNear(next + 1)
		default:
			alias, next = &r.toks[next+1], next+2
		}
	} else if next < j && (r.toks[next].kind == tkQIdent || r.toks[next].kind == tkIdent && !clauseEndWords[r.toks[next].word(r.src)]) {
		alias, next = &r.toks[next], next+1
	}
	if (alias != nil || bareDefs) && next < j && r.toks[next].isPunct(r.src, "(") {
		c := r.matchClose(next, j)
		if c < 0 {
			return "", nil, nil, 0, r.errNear(j)
		}
		if cols, err = r.funcColumnList(next+1, c, bareDefs); err != nil {
			return "", nil, nil, 0, err
		}
		next = c + 1
	} else if bareDefs {
		return "", nil, nil, 0, r.errNear(next)
	}
	return ord, alias, cols, next, nil
}

// rowsFrom rewrites ROWS FROM (f(args) [AS (column definitions)], ...)
// [WITH ORDINALITY] [[AS] alias [(columns)]], its ROWS at token k, ending
// before j, into the marker of a function in FROM named pg__rowsfrom
// whose arguments are one pg__rowsfn('f', pg__cols(definitions), args)
// per function, which the binder runs side by side (binder/srf.go).
// Without an alias the item is named after its first function, as
// PostgreSQL names it.
func (r *rewriter) rowsFrom(out []item, k, j int) ([]item, int, error) {
	m := r.matchClose(k+2, j)
	if m < 0 {
		return nil, 0, r.errNear(j)
	}
	var fns []item
	first := ""
	for i := k + 3; i < m; {
		// [schema.]name(args) [AS (definitions)]
		f := i
		if f+2 < m && r.toks[f+1].isPunct(r.src, ".") {
			f += 2
		}
		if r.toks[f].kind != tkIdent && r.toks[f].kind != tkQIdent || f+1 >= m || !r.toks[f+1].isPunct(r.src, "(") {
			return nil, 0, r.errNear(f)
		}
		c := r.matchClose(f+1, m)
		if c < 0 {
			return nil, 0, r.errNear(m)
		}
		args, err := r.run(f+2, c)
		if err != nil {
			return nil, 0, err
		}
		var defs []colItem
		next := c + 1
		if next < m && r.toks[next].is(r.src, "AS") {
			if next+1 >= m || !r.toks[next+1].isPunct(r.src, "(") {
				return nil, 0, r.errNear(next + 1)
			}
			cc := r.matchClose(next+1, m)
			if cc < 0 {
				return nil, 0, r.errNear(m)
			}
			if defs, err = r.funcColumnList(next+2, cc, true); err != nil {
				return nil, 0, err
			}
			next = cc + 1
		}
		name := r.identName(r.toks[f])
		if first == "" {
			first = name
		}
		marker := sqlQuote(name)
		if s := r.identName(r.toks[i]); f != i && s != "pg_catalog" && s != "information_schema" {
			// another schema rides along for the binder's 3F000 or
			// 42883, as a function alone in FROM (setFunction)
			marker = SchemaMarker + "(" + sqlQuote(s) + ", " + marker + ")"
		}
		fb := newComposite(r.leadOf(r.toks[i]))
		// PostgreSQL points at the qualified name's start
		fb.add("pg__rowsfn("+marker+", ", r.toks[i].start)
		addCols(fb, defs, r.toks[f].start)
		if len(args) > 0 {
			fb.add(", ", r.toks[f+1].start)
			fb.addItems(args, true)
		}
		fb.add(")", r.toks[c].start)
		fns = append(fns, fb.it)
		switch {
		case next == m:
			i = m
		case r.toks[next].isPunct(r.src, ",") && next+1 < m:
			i = next + 1
		default:
			return nil, 0, r.errNear(next)
		}
	}
	if len(fns) == 0 {
		return nil, 0, r.errNear(m)
	}
	ord, alias, cols, next, err := r.funcAlias(m+1, j)
	if err != nil {
		return nil, 0, err
	}
	explicit := "0"
	if alias != nil {
		explicit = "1"
	}
	t := r.toks[k]
	b := newComposite(r.leadOf(t))
	b.add("(select pg__srf('pg__rowsfrom', "+ord+", "+explicit+", ", t.start)
	addCols(b, cols, t.start)
	for _, f := range fns {
		b.add(", ", f.firstOrig())
		b.addItems([]item{f}, true)
	}
	b.add(")) as ", r.toks[m].start)
	if alias != nil {
		b.addItems([]item{r.simple(*alias)}, true)
	} else {
		b.add(quoteIdent(first), t.start)
	}
	return append(out, b.it), next, nil
}

// colItem is one entry of a pg__cols(..) marker and where its text begins
// in the statement (an error about a column definition points there).
type colItem struct {
	text string
	orig int
}

// addCols adds pg__cols(cols..) to b, the list at orig.
func addCols(b *compositeBuilder, cols []colItem, orig int) {
	b.add("pg__cols(", orig)
	for i, c := range cols {
		text := c.text
		if i > 0 {
			text = ", " + text
		}
		b.add(text, c.orig)
	}
	b.add(")", orig)
}

// funcColumnList reads the parenthesised list after a function's alias,
// tokens i..c: column aliases (a, b), or a column definition list (a int,
// b text[]), which PostgreSQL's grammar allows where the function returns
// record and which is always typed after a bare AS. Aliases become
// 'name'; definitions become pg__coldef('name', 'type as written'), for
// the binder to read with the type-name parser. Mixing the two forms is a
// syntax error, as in PostgreSQL's grammar.
func (r *rewriter) funcColumnList(i, c int, typed bool) ([]colItem, error) {
	var cols []colItem
	sawAlias, sawDef := false, false
	for i < c {
		// one element: a name, then up to the next comma at this depth
		tq := r.toks[i]
		if tq.kind != tkIdent && tq.kind != tkQIdent {
			return nil, r.errNear(i)
		}
		e, depth := i+1, 0
		for ; e < c; e++ {
			t := r.toks[e]
			if depth == 0 && t.isPunct(r.src, ",") {
				break
			}
			switch {
			case t.isPunct(r.src, "(") || t.isPunct(r.src, "["):
				depth++
			case t.isPunct(r.src, ")") || t.isPunct(r.src, "]"):
				depth--
			}
		}
		name := sqlQuote(r.identName(tq))
		if e == i+1 {
			if typed || sawDef {
				return nil, r.errNear(e)
			}
			sawAlias = true
			cols = append(cols, colItem{name, tq.start})
		} else {
			if sawAlias {
				return nil, r.errNear(i + 1)
			}
			sawDef = true
			typeText := r.src[r.toks[i+1].start:r.toks[e-1].end]
			cols = append(cols, colItem{"pg__coldef(" + name + ", " + sqlQuote(typeText) + ")", tq.start})
		}
		if e < c {
			e++ // the comma
			if e == c {
				return nil, r.errNear(c)
			}
		}
		i = e
	}
	return cols, nil
}

// tableArg rewrites the arguments i..m of a function in FROM, turning a
// first argument TABLE name (a batch UDF's input relation, as in SQL's
// polymorphic table functions) into (select * from name), the subquery
// TiDB reads and the binder binds as the relation.
func (r *rewriter) tableArg(i, m int) ([]item, error) {
	if i+1 >= m || !r.toks[i].is(r.src, "TABLE") {
		return r.run(i, m)
	}
	e := i + 1
	for e < m && (r.toks[e].kind == tkIdent || r.toks[e].kind == tkQIdent || r.toks[e].isPunct(r.src, ".")) {
		e++
	}
	if e == i+1 || e < m && !r.toks[e].isPunct(r.src, ",") {
		return nil, r.errNear(e)
	}
	name, err := r.run(i+1, e)
	if err != nil {
		return nil, err
	}
	rest, err := r.run(e, m)
	if err != nil {
		return nil, err
	}
	b := newComposite(r.leadOf(r.toks[i]))
	b.add("(select * from ", r.toks[i].start)
	b.addItems(name, true)
	b.add(")", r.toks[e-1].start)
	return append([]item{b.it}, rest...), nil
}
