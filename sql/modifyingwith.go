package sql

import (
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// Data-modifying statements in WITH (PostgreSQL's "WITH d AS (DELETE ...
// RETURNING *) SELECT ... FROM d"): TiDB's grammar has no INSERT, UPDATE
// or DELETE inside WITH, so the parser takes each one out of a statement's
// top-level WITH list before the rewrite. What is left is the main
// statement, which reads each of them by its name like a table; each one
// goes to Statement.ModifyingWith as the text of a statement of its own,
// which the engine parses, binds and runs first, and whose RETURNING rows
// are the relation the name stands for (binder.ModifyingCatalog).

// ModifyingCTE is one data-modifying statement of a top-level WITH list.
type ModifyingCTE struct {
	// Name is the WITH query's name, Columns its column aliases (none: the
	// RETURNING list's names), NamePos the name's 1-based character
	// position.
	Name    string
	Columns []string
	NamePos int
	// Text is the input of Parse with every character outside the
	// statement blanked out, except the WITH list's plain queries written
	// before it, which it may read: parsed on its own it is the statement,
	// and its errors' positions are the input's.
	Text string
	// Returning: the statement has a RETURNING clause (the main statement
	// may only read those that do).
	Returning bool
	// closePos is the 1-based character position of the ")" ending it.
	closePos int
}

// Parse parses the statement's text with p: one INSERT, UPDATE or DELETE
// statement. Its text ends where the WITH query's ")" stood, so a
// statement cut short fails "at or near" that ")", as in PostgreSQL.
func (m ModifyingCTE) Parse(p *Parser) (*Statement, error) {
	sts, err := p.Parse(m.Text)
	if err != nil {
		if e := sqlerr.As(err); e != nil && e.Code == sqlerr.SyntaxError && e.Message == "syntax error at end of input" {
			return nil, sqlerr.New(sqlerr.SyntaxError, `syntax error at or near ")"`).WithPosition(m.closePos)
		}
		return nil, err
	}
	if len(sts) != 1 {
		return nil, sqlerr.New(sqlerr.InternalError, "WITH query %q is not one statement", m.Name)
	}
	return sts[0], nil
}

// withItem is one item of a WITH list: name [(cols)] AS [[NOT]
// MATERIALIZED] (body), its tokens toks[name..close].
type withItem struct {
	name, open, close int
	dml               bool
}

// extractModifyingWith takes the data-modifying items out of a statement's
// top-level WITH list into st.ModifyingWith and returns the statement's
// tokens without them (toks itself when it has none). A WITH list it
// cannot read is left alone, for the grammar to report.
func extractModifyingWith(src string, toks []token, st *Statement) ([]token, error) {
	if len(toks) < 6 || !toks[0].is(src, "WITH") {
		return toks, nil
	}
	i := 1
	recursive := toks[i].is(src, "RECURSIVE")
	if recursive {
		i++
	}
	listStart := i
	var items []withItem
	anyDML := false
	for {
		it, next, ok := readWithItem(src, toks, i)
		if !ok {
			return toks, nil
		}
		items = append(items, it)
		anyDML = anyDML || it.dml
		if next < len(toks) && toks[next].isPunct(src, ",") {
			i = next + 1
			continue
		}
		break
	}
	if !anyDML {
		return toks, nil
	}
	if err := checkModifyingItems(src, toks, items, recursive); err != nil {
		return nil, err
	}
	drop := make([]bool, len(toks))
	for k, it := range items {
		if k+1 < len(items) {
			drop[it.close+1] = true // the comma after it
		}
		if !it.dml {
			continue
		}
		st.ModifyingWith = append(st.ModifyingWith, modifyingCTE(src, toks, items, k, listStart))
		for j := it.name; j <= it.close; j++ {
			drop[j] = true
		}
	}
	kept := 0
	for _, it := range items {
		if it.dml {
			continue
		}
		if kept > 0 {
			drop[it.name-1] = false // the comma before it
		}
		kept++
	}
	if kept == 0 { // WITH [RECURSIVE] goes too
		for j := 0; j < listStart; j++ {
			drop[j] = true
		}
	}
	out := make([]token, 0, len(toks))
	for j, t := range toks {
		if !drop[j] {
			out = append(out, t)
		}
	}
	return out, nil
}

// checkModifyingItems raises PostgreSQL's errors for a WITH list holding a
// data-modifying item (which leaves the list, so the binder would not see
// them): a name given twice (42712), and under RECURSIVE a data-modifying
// item that reads itself (42P19), at the name.
func checkModifyingItems(src string, toks []token, items []withItem, recursive bool) error {
	seen := make(map[string]bool, len(items))
	for _, it := range items {
		name, _ := identName(src, toks[it.name])
		if seen[name] {
			return sqlerr.New(sqlerr.DuplicateAlias, "WITH query name %q specified more than once", name).WithPosition(charPos(src, toks[it.name].start))
		}
		seen[name] = true
		if !recursive || !it.dml {
			continue
		}
		for j := it.open + 1; j < it.close; j++ {
			if n, ok := identName(src, toks[j]); ok && n == name && !toks[j-1].isPunct(src, ".") && !toks[j+1].isPunct(src, ".") {
				return sqlerr.New(sqlerr.InvalidRecursion, "recursive query %q must not contain data-modifying statements", name).WithPosition(charPos(src, toks[it.name].start))
			}
		}
	}
	return nil
}

// readWithItem reads the WITH item starting at toks[i]; next is the index
// after it.
func readWithItem(src string, toks []token, i int) (it withItem, next int, ok bool) {
	if i >= len(toks) || (toks[i].kind != tkIdent && toks[i].kind != tkQIdent) {
		return it, 0, false
	}
	it.name = i
	j := i + 1
	if j < len(toks) && toks[j].isPunct(src, "(") {
		if j = matchingClose(src, toks, j); j < 0 {
			return it, 0, false
		}
		j++
	}
	if j >= len(toks) || !toks[j].is(src, "AS") {
		return it, 0, false
	}
	j++
	if j < len(toks) && toks[j].is(src, "NOT") {
		j++
	}
	if j < len(toks) && toks[j].is(src, "MATERIALIZED") {
		j++
	}
	if j+1 >= len(toks) || !toks[j].isPunct(src, "(") {
		return it, 0, false
	}
	it.open = j
	if it.close = matchingClose(src, toks, j); it.close < 0 {
		return it, 0, false
	}
	b := toks[j+1]
	it.dml = b.is(src, "INSERT") || b.is(src, "UPDATE") || b.is(src, "DELETE")
	return it, it.close + 1, true
}

// matchingClose returns the index of the ")" closing the "(" at open (-1
// if none).
func matchingClose(src string, toks []token, open int) int {
	depth := 0
	for k := open; k < len(toks); k++ {
		switch {
		case toks[k].isPunct(src, "("):
			depth++
		case toks[k].isPunct(src, ")"):
			if depth--; depth == 0 {
				return k
			}
		}
	}
	return -1
}

// modifyingCTE describes items[k], a data-modifying item: its text keeps
// the WITH keywords and the plain items before it, which it may read, and
// its body.
func modifyingCTE(src string, toks []token, items []withItem, k, listStart int) ModifyingCTE {
	it := items[k]
	m := ModifyingCTE{NamePos: charPos(src, toks[it.name].start), closePos: charPos(src, toks[it.close].start)}
	m.Name, _ = identName(src, toks[it.name])
	if toks[it.name+1].isPunct(src, "(") {
		for j := it.name + 2; j < len(toks) && !toks[j].isPunct(src, ")"); j++ {
			if n, ok := identName(src, toks[j]); ok {
				m.Columns = append(m.Columns, n)
			}
		}
	}
	for j := it.open + 1; j < it.close; j++ {
		if toks[j].is(src, "RETURNING") {
			m.Returning = true
		}
	}
	var keep [][2]int // byte ranges of src kept
	plain := 0
	for _, p := range items[:k] {
		if p.dml {
			continue
		}
		if plain == 0 {
			keep = append(keep, [2]int{toks[0].start, toks[listStart-1].end})
		} else {
			keep = append(keep, [2]int{toks[p.name-1].start, toks[p.name-1].end}) // its comma
		}
		keep = append(keep, [2]int{toks[p.name].start, toks[p.close].end})
		plain++
	}
	keep = append(keep, [2]int{toks[it.open+1].start, toks[it.close-1].end})
	m.Text = blankOutside(src, keep)
	return m
}

// blankOutside is src with every character outside the ranges keep (in
// order) replaced by a space (a newline stays), one space per character,
// so that character positions stay those of src.
func blankOutside(src string, keep [][2]int) string {
	var b strings.Builder
	b.Grow(len(src))
	blank := func(s string) {
		for _, r := range s {
			if r == '\n' {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
			}
		}
	}
	at := 0
	for _, r := range keep {
		blank(src[at:r[0]])
		b.WriteString(src[r[0]:r[1]])
		at = r[1]
	}
	blank(src[at:])
	return b.String()
}

// dataModifyingWith reports a data-modifying statement in a WITH that
// extractModifyingWith did not take (WITH x AS (INSERT | UPDATE | DELETE
// ...) anywhere but in a statement's top-level WITH list) with
// PostgreSQL's error, instead of the syntax error TiDB's grammar gives.
// "AS (" followed by one of those words is valid PostgreSQL nowhere else,
// so the token pattern suffices.
func dataModifyingWith(src string, toks []token) error {
	if len(toks) > 0 && toks[0].is(src, "PREPARE") {
		return nil // its statement is parsed on its own (sqlprepare)
	}
	depth := 0
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.isPunct(src, "("):
			depth++
		case t.isPunct(src, ")"):
			depth--
		}
		if i < 2 || t.kind != tkIdent || !toks[i-1].isPunct(src, "(") || !(t.is(src, "INSERT") || t.is(src, "UPDATE") || t.is(src, "DELETE") || t.is(src, "MERGE")) {
			continue
		}
		h := i - 2
		for h > 0 && (toks[h].is(src, "MATERIALIZED") || toks[h].is(src, "NOT")) {
			h--
		}
		if !toks[h].is(src, "AS") || h == 0 {
			continue
		}
		name := h - 1
		if toks[name].isPunct(src, ")") { // the column aliases
			name = matchingOpen(src, toks, name) - 1
		}
		if name < 0 {
			continue
		}
		// depth counts the item's own "(": 1 for an item of a WITH
		// written at a statement's top level
		if depth == 1 && toks[0].is(src, "WITH") {
			// an item of the statement's own WITH, which the parse took
			// out unless it failed: the grammar's error stands
			return nil
		}
		if depth == 1 || depth == 2 && toks[0].is(src, "COPY") {
			if e := modifyingWithIn(src, toks); e != nil {
				return e
			}
		}
		return sqlerr.New(sqlerr.FeatureNotSupported, "WITH clause containing a data-modifying statement must be at the top level").WithPosition(charPos(src, toks[name].start))
	}
	return nil
}

// modifyingWithIn is the error for a data-modifying WITH at the top level
// of a statement that does not start with it: a view's and a materialized
// view's query (PostgreSQL's errors), and the statements sqlgate runs no
// data-modifying WITH in (nil: none of those).
func modifyingWithIn(src string, toks []token) error {
	switch {
	case toks[0].is(src, "DECLARE"):
		return sqlerr.New(sqlerr.FeatureNotSupported, "DECLARE CURSOR must not contain data-modifying statements in WITH")
	case toks[0].is(src, "EXPLAIN") || toks[0].is(src, "COPY"):
		return sqlerr.New(sqlerr.FeatureNotSupported, "data-modifying statements in WITH are not supported in %s", toks[0].word(src))
	case !toks[0].is(src, "CREATE"):
		return nil
	}
	for i := 1; i < len(toks) && !toks[i].is(src, "AS"); i++ {
		switch {
		case toks[i].is(src, "MATERIALIZED") && i+1 < len(toks) && toks[i+1].is(src, "VIEW"):
			return sqlerr.New(sqlerr.FeatureNotSupported, "materialized views must not use data-modifying statements in WITH")
		case toks[i].is(src, "VIEW"):
			return sqlerr.New(sqlerr.FeatureNotSupported, "views must not contain data-modifying statements in WITH")
		case toks[i].is(src, "TABLE"):
			return sqlerr.New(sqlerr.FeatureNotSupported, "data-modifying statements in WITH are not supported in CREATE TABLE AS")
		}
	}
	return nil
}

// queryOrWrite reports whether a statement starting with t is a query or
// an INSERT, UPDATE or DELETE, whose data-modifying WITH queries below the
// top level fail its parse (parseOne then reports them).
func queryOrWrite(src string, t token) bool {
	return t.is(src, "SELECT") || t.is(src, "WITH") || t.is(src, "INSERT") || t.is(src, "UPDATE") ||
		t.is(src, "DELETE") || t.is(src, "VALUES") || t.is(src, "TABLE") || t.isPunct(src, "(")
}
