package sql

import (
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// PostgreSQL's UPDATE-list forms that TiDB's MySQL grammar lacks, for
// UPDATE ... SET and INSERT ... ON CONFLICT DO UPDATE SET alike:
//
//	SET (a, b) = (x, y) | ROW(x, y)     -> SET a = x, b = y
//	SET (a, b) = (SELECT x, y FROM r)   -> SET a = (SELECT x FROM r), b = (SELECT y FROM r)
//
// Every assignment of one UPDATE reads the row as it was, so the
// expanded list means what the multiple-column one does; the sub-SELECT
// runs once per column (its rows are the same each time, under the
// statement's snapshot; a volatile function in it is called once per
// column where PostgreSQL calls it once).
//
// ON CONFLICT DO UPDATE ... WHERE cond and ON CONFLICT (cols) WHERE pred
// travel through TiDB's ON DUPLICATE KEY UPDATE list as assignments to
// the marker columns ConflictWhereMarker and ConflictTargetWhereMarker,
// which the tree (totree_dml.go) takes back out.

// A multiple-column item whose source PostgreSQL refuses while it
// analyses the SET list (transformMultiAssignRef: a source that is no
// ROW() or sub-SELECT, 0A000; a ROW() of another number of values than
// columns, 42601, once its values are analysed) is refused where
// PostgreSQL meets it, after the WHERE and RETURNING clauses and the SET
// values before it: the item becomes assignments to a marker column
// that carries the error (multiAssignSourceMarker with DEFAULT, or
// multiAssignCountMarker once per value, which the binder binds first),
// and DeferredSetError gives the binder the error back.
const (
	multiAssignSourceMarker = "pg__ma_source_"
	multiAssignCountMarker  = "pg__ma_count_"
)

// DeferredSetError is the error an assignment to column stands for when
// column is a marker of a refused multiple-column item (ok false: it is
// no marker).
func DeferredSetError(column string) (err *sqlerr.Error, ok bool) {
	var code sqlerr.Code
	var msg, pos string
	switch {
	case strings.HasPrefix(column, multiAssignSourceMarker):
		code, msg, pos = sqlerr.FeatureNotSupported, "source for a multiple-column UPDATE item must be a sub-SELECT or ROW() expression", column[len(multiAssignSourceMarker):]
	case strings.HasPrefix(column, multiAssignCountMarker):
		code, msg, pos = sqlerr.SyntaxError, "number of columns does not match number of values", column[len(multiAssignCountMarker):]
	default:
		return nil, false
	}
	at, cerr := strconv.Atoi(pos)
	if cerr != nil {
		return nil, false
	}
	return sqlerr.New(code, "%s", msg).WithPosition(at), true
}

// subscriptedSetMarker wraps a subscripted SET item's value: PostgreSQL's
// col[i][lo:hi] = value, which TiDB cannot parse, becomes col =
// pg__indirect(col[i][lo:hi], (value)); the transformer takes the target
// back out into tree.Assignment.Target (totree_dml.go).
const subscriptedSetMarker = "pg__indirect"

// subscriptedItem reports whether the SET item toks[from:to] assigns to
// col[...]: a name followed by a subscript.
func subscriptedItem(src string, toks []token, from, to int) bool {
	return from+1 < to && (toks[from].kind == tkIdent || toks[from].kind == tkQIdent) && toks[from+1].isPunct(src, "[")
}

// expandSubscripted rewrites the subscripted item col[..].. = value,
// toks[from:to], as col = pg__indirect(col[..].., (value)).
func expandSubscripted(src string, toks []token, from, to int) ([]token, error) {
	r := &rewriter{src: src, toks: toks}
	eq := from + 1
	for eq < to && toks[eq].isPunct(src, "[") {
		m := r.matchClose(eq, to)
		if m < 0 {
			return nil, syntaxErrorAt(src, toks, to)
		}
		eq = m + 1
	}
	if eq >= to || !toks[eq].isPunct(src, "=") {
		return nil, syntaxErrorAt(src, toks, eq)
	}
	if eq+1 >= to {
		return nil, syntaxErrorAt(src, toks, to)
	}
	if eq+2 == to && toks[eq+1].is(src, "DEFAULT") {
		// PostgreSQL's transformAssignedExpr, at the target
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "cannot set an array element to DEFAULT").WithPosition(charPos(src, toks[from].start)).AsAnalysed()
	}
	at := toks[eq]
	synth := func(kind tokKind, text string) token {
		return token{kind: kind, start: at.start, end: at.start, lead: at.start, synth: text}
	}
	out := make([]token, 0, to-from+eq-from+8)
	out = append(out, toks[from], toks[eq], synth(tkIdent, subscriptedSetMarker), synth(tkPunct, "("))
	out = append(out, toks[from:eq]...)
	out = append(out, synth(tkPunct, ","), synth(tkPunct, "("))
	out = append(out, toks[eq+1:to]...)
	return append(out, synth(tkPunct, ")"), synth(tkPunct, ")")), nil
}

// ConflictWhereMarker names the ON DUPLICATE KEY UPDATE assignment that
// carries ON CONFLICT DO UPDATE's WHERE condition.
const ConflictWhereMarker = "pg__oc_where"

// ConflictTargetWhereMarker names the one carrying the WHERE of an ON
// CONFLICT (cols) WHERE pred inference clause.
const ConflictTargetWhereMarker = "pg__oc_target_where"

// setListEnd returns the index of the first depth-0 token in toks[from:to]
// that ends an UPDATE SET list (one of stops), or to.
func setListEnd(src string, toks []token, from, to int, stops ...string) int {
	for i := range topLevel(src, toks, from, to) {
		for _, w := range stops {
			if toks[i].is(src, w) {
				return i
			}
		}
	}
	return to
}

// splitTopLevel splits toks[from:to] at its depth-0 commas, returning each
// part's [start, end) bounds.
func splitTopLevel(src string, toks []token, from, to int) [][2]int {
	var parts [][2]int
	s := from
	for i := range topLevel(src, toks, from, to) {
		if toks[i].isPunct(src, ",") {
			parts = append(parts, [2]int{s, i})
			s = i + 1
		}
	}
	return append(parts, [2]int{s, to})
}

// rewriteMultiAssign rewrites the multiple-column items of the SET list
// toks[from:to] (see above) and returns the whole statement's tokens.
func rewriteMultiAssign(src string, toks []token, from, to int) ([]token, error) {
	items := splitTopLevel(src, toks, from, to)
	multi := false
	for _, it := range items {
		multi = multi || it[0] < it[1] && toks[it[0]].isPunct(src, "(") || subscriptedItem(src, toks, it[0], it[1])
	}
	if !multi {
		return toks, nil
	}
	out := append(make([]token, 0, len(toks)+16), toks[:from]...)
	for n, it := range items {
		if n > 0 {
			out = append(out, toks[it[0]-1]) // the comma
		}
		if subscriptedItem(src, toks, it[0], it[1]) {
			expanded, err := expandSubscripted(src, toks, it[0], it[1])
			if err != nil {
				return nil, err
			}
			out = append(out, expanded...)
			continue
		}
		if it[0] >= it[1] || !toks[it[0]].isPunct(src, "(") {
			out = append(out, toks[it[0]:it[1]]...)
			continue
		}
		expanded, err := expandMultiAssign(src, toks, it[0], it[1])
		if err != nil {
			return nil, err
		}
		out = append(out, expanded...)
	}
	return append(out, toks[to:]...), nil
}

// expandMultiAssign expands one item (cols) = source, toks[from:to], into
// single-column assignments separated by commas.
func expandMultiAssign(src string, toks []token, from, to int) ([]token, error) {
	r := &rewriter{src: src, toks: toks}
	closeAt := r.matchClose(from, to)
	if closeAt < 0 {
		return nil, syntaxErrorAt(src, toks, to)
	}
	// each column a quoted name of its own: a copied token keeps only
	// the spacing in front of it, which a column after "(" lacks
	var cols []token
	for _, p := range splitTopLevel(src, toks, from+1, closeAt) {
		name, ok := "", false
		if p[0]+1 == p[1] {
			name, ok = identName(src, toks[p[0]])
		}
		if !ok {
			return nil, syntaxErrorAt(src, toks, min(p[0]+1, p[1]))
		}
		t := toks[p[0]]
		cols = append(cols, token{kind: tkQIdent, start: t.start, end: t.start, lead: t.start, synth: quoteIdent(name)})
	}
	eq := closeAt + 1
	if eq >= to || !toks[eq].isPunct(src, "=") {
		return nil, syntaxErrorAt(src, toks, eq)
	}
	s := eq + 1
	if s >= to {
		return nil, syntaxErrorAt(src, toks, s)
	}
	// both PostgreSQL's transformMultiAssignRef's: Analysed
	mismatch := func(at int) error {
		return sqlerr.New(sqlerr.SyntaxError, "number of columns does not match number of values").WithPosition(charPos(src, toks[at].start)).AsAnalysed()
	}
	// ... and met while the SET list is analysed: marker assignments
	// (above), the values bound before the count is refused
	marker := func(prefix string, at int, values [][]token) []token {
		name := token{kind: tkQIdent, start: toks[eq].start, end: toks[eq].start, lead: toks[eq].start, synth: quoteIdent(prefix + strconv.Itoa(charPos(src, toks[at].start)))}
		synth := func(text string) token {
			return token{kind: tkPunct, start: toks[eq].start, end: toks[eq].start, lead: toks[eq].start, synth: text}
		}
		var out []token
		for i, v := range values {
			if i > 0 {
				out = append(out, synth(","))
			}
			out = append(out, name, toks[eq])
			if len(v) == 1 && v[0].is(src, "DEFAULT") {
				out = append(out, v[0])
				continue
			}
			out = append(out, synth("("))
			out = append(out, v...)
			out = append(out, synth(")"))
		}
		return out
	}
	notRow := func(at int) ([]token, error) {
		null := token{kind: tkIdent, start: toks[eq].start, end: toks[eq].start, lead: toks[eq].start, synth: "NULL"}
		return marker(multiAssignSourceMarker, at, [][]token{{null}}), nil
	}
	open := s
	if toks[s].is(src, "ROW") && s+1 < to && toks[s+1].isPunct(src, "(") {
		open = s + 1
	} else if !toks[s].isPunct(src, "(") {
		return notRow(s)
	}
	end := r.matchClose(open, to)
	if end != to-1 {
		if end < 0 {
			return nil, syntaxErrorAt(src, toks, to)
		}
		return notRow(s) // (x) || y and the like: one value
	}
	var values [][]token
	// ((SELECT ...)) is still a sub-SELECT (PostgreSQL's
	// select_with_parens), of as many columns as it selects
	so, se := open, end
	for open == s && so+1 < se && toks[so+1].isPunct(src, "(") && r.matchClose(so+1, se) == se-1 {
		so, se = so+1, se-1
	}
	if open == s && so+1 < se && (toks[so+1].is(src, "SELECT") || toks[so+1].is(src, "WITH") || toks[so+1].is(src, "VALUES")) {
		var err error
		if values, err = splitSubSelect(src, toks, so+1, se, s); err != nil {
			return nil, err
		}
		if len(values) != len(cols) {
			// one scalar sub-SELECT per item, bound (their errors
			// first, as PostgreSQL's sub-SELECT is analysed) before the
			// count is refused
			return marker(multiAssignCountMarker, s, values), nil
		}
	} else {
		parts := splitTopLevel(src, toks, open+1, end)
		if open == s && len(parts) == 1 {
			return notRow(open + 1)
		}
		if parts[0][0] >= parts[0][1] {
			return nil, mismatch(s) // ROW(): no value to analyse
		}
		for _, p := range parts {
			if p[0] >= p[1] {
				return nil, syntaxErrorAt(src, toks, p[0])
			}
			values = append(values, toks[p[0]:p[1]])
		}
		if len(parts) != len(cols) {
			return marker(multiAssignCountMarker, s, values), nil
		}
	}
	at := toks[eq]
	synth := func(kind tokKind, text string) token {
		return token{kind: kind, start: at.start, end: at.start, lead: at.start, synth: text}
	}
	var out []token
	for i, c := range cols {
		if i > 0 {
			out = append(out, synth(tkPunct, ","))
		}
		out = append(out, c, toks[eq])
		if v := values[i]; len(v) == 1 && v[0].is(src, "DEFAULT") {
			out = append(out, v[0])
			continue
		}
		// (value): its own parentheses, spaced as synthetic tokens are
		out = append(out, synth(tkPunct, "("))
		out = append(out, values[i]...)
		out = append(out, synth(tkPunct, ")"))
	}
	return out, nil
}

// splitSubSelect splits the sub-SELECT toks[from:end] (inside its
// parentheses) into one scalar sub-SELECT per output column: each keeps
// the query around one select-list item. A query whose list cannot be
// split so (DISTINCT, *, a set operation, WITH or VALUES) is refused.
// A list of another length than the item's columns is split as well: the
// caller refuses it once the parts are bound.
func splitSubSelect(src string, toks []token, from, end, at int) ([][]token, error) {
	refuse := func() error {
		return sqlerr.NotSupported("this sub-SELECT as a multiple-column UPDATE source").
			WithHint("Write one sub-SELECT per column.").WithPosition(charPos(src, toks[at].start))
	}
	if !toks[from].is(src, "SELECT") || from+1 < end && (toks[from+1].is(src, "DISTINCT") || toks[from+1].is(src, "ALL")) {
		return nil, refuse()
	}
	if setListEnd(src, toks, from, end, "UNION", "INTERSECT", "EXCEPT") < end {
		return nil, refuse()
	}
	listEnd := setListEnd(src, toks, from+1, end, "FROM", "WHERE", "GROUP", "HAVING", "WINDOW", "ORDER", "LIMIT", "OFFSET", "FETCH", "INTO", "FOR")
	items := splitTopLevel(src, toks, from+1, listEnd)
	for _, p := range items {
		if p[0] >= p[1] {
			return nil, syntaxErrorAt(src, toks, p[0])
		}
		if last := toks[p[1]-1]; last.isPunct(src, "*") {
			return nil, refuse()
		}
	}
	out := make([][]token, len(items))
	for i, p := range items {
		// the item in parentheses of its own (a copied token keeps only
		// the spacing in front of it, which an item after "," may lack),
		// its AS label, which a scalar sub-SELECT does not show, dropped
		e := p[1]
		if e-p[0] > 2 && toks[e-2].is(src, "AS") {
			e -= 2
		}
		t := toks[p[0]]
		paren := func(text string) token {
			return token{kind: tkPunct, start: t.start, end: t.start, lead: t.start, synth: text}
		}
		q := make([]token, 0, 5+e-p[0]+end-listEnd)
		q = append(q, toks[at], toks[from], paren("("))
		q = append(q, toks[p[0]:e]...)
		q = append(q, paren(")"))
		q = append(q, toks[listEnd:end+1]...)
		out[i] = q
	}
	return out, nil
}

// rewriteUpdateSet rewrites UPDATE's multiple-column SET items (toks is
// the statement, the verb at toks[at]).
func rewriteUpdateSet(src string, toks []token, at int) ([]token, error) {
	set := setListEnd(src, toks, at+1, len(toks), "SET")
	if set >= len(toks) {
		return toks, nil
	}
	end := setListEnd(src, toks, set+1, len(toks), "FROM", "WHERE", "RETURNING")
	return rewriteMultiAssign(src, toks, set+1, end)
}

// rewriteInsertTargets rewrites INSERT's subscripted target columns
// (INSERT INTO t (id, a[2], a[1]) VALUES (..)), which TiDB cannot parse:
// each such column is written as the bare column, and its cell in every
// VALUES row as pg__indirect(col[..], (cell)), which the transformer
// reads as a tree.SubscriptedValue; the binder merges a column's items
// (binder/arrayassign.go). toks is the statement, the verb at toks[at].
// An INSERT ... SELECT into such a target is refused (0A000).
func rewriteInsertTargets(src string, toks []token, at int) ([]token, error) {
	r := &rewriter{src: src, toks: toks}
	open := -1
	for i := at + 1; i < len(toks); i++ {
		if toks[i].isPunct(src, "(") {
			open = i
			break
		}
		if toks[i].is(src, "VALUES") || toks[i].is(src, "SELECT") || toks[i].is(src, "DEFAULT") || toks[i].is(src, "WITH") {
			return toks, nil
		}
	}
	if open < 0 {
		return toks, nil
	}
	closeAt := r.matchClose(open, len(toks))
	if closeAt < 0 {
		return toks, nil
	}
	cols := splitTopLevel(src, toks, open+1, closeAt)
	subscripted := make([]bool, len(cols))
	found := false
	for k, c := range cols {
		subscripted[k] = subscriptedItem(src, toks, c[0], c[1])
		found = found || subscripted[k]
	}
	if !found {
		return toks, nil
	}
	valuesAt := closeAt + 1
	for valuesAt < len(toks) && !toks[valuesAt].is(src, "VALUES") && (toks[valuesAt].is(src, "OVERRIDING") || toks[valuesAt].is(src, "SYSTEM") || toks[valuesAt].is(src, "USER") || toks[valuesAt].is(src, "VALUE")) {
		valuesAt++
	}
	if valuesAt >= len(toks) || !toks[valuesAt].is(src, "VALUES") {
		first := 0
		for k := range cols {
			if subscripted[k] {
				first = k
				break
			}
		}
		return nil, sqlerr.NotSupported("a subscripted target column in INSERT other than INSERT ... VALUES").WithPosition(charPos(src, toks[cols[first][0]].start))
	}
	out := make([]token, 0, len(toks)+16)
	out = append(out, toks[:open+1]...)
	for k, c := range cols {
		if k > 0 {
			out = append(out, toks[c[0]-1]) // the comma
		}
		if subscripted[k] {
			out = append(out, toks[c[0]])
			continue
		}
		out = append(out, toks[c[0]:c[1]]...)
	}
	out = append(out, toks[closeAt:valuesAt+1]...)
	i := valuesAt + 1
	for i < len(toks) && toks[i].isPunct(src, "(") {
		m := r.matchClose(i, len(toks))
		if m < 0 {
			return toks, nil
		}
		cells := splitTopLevel(src, toks, i+1, m)
		if len(cells) != len(cols) {
			out = append(out, toks[i:m+1]...) // the binder counts them
		} else {
			out = append(out, toks[i])
			for k, c := range cells {
				if k > 0 {
					out = append(out, toks[c[0]-1])
				}
				if !subscripted[k] || c[0] >= c[1] {
					out = append(out, toks[c[0]:c[1]]...)
					continue
				}
				if c[0]+1 == c[1] && toks[c[0]].is(src, "DEFAULT") {
					return nil, sqlerr.New(sqlerr.FeatureNotSupported, "cannot set an array element to DEFAULT").
						WithPosition(charPos(src, toks[cols[k][0]].start)).AsAnalysed()
				}
				t := toks[c[0]]
				synth := func(text string) token {
					return token{kind: tkPunct, start: t.start, end: t.start, lead: t.start, synth: text}
				}
				out = append(out, token{kind: tkIdent, start: t.start, end: t.start, lead: t.start, synth: subscriptedSetMarker}, synth("("))
				out = append(out, toks[cols[k][0]:cols[k][1]]...)
				out = append(out, synth(","), synth("("))
				out = append(out, toks[c[0]:c[1]]...)
				out = append(out, synth(")"), synth(")"))
			}
			out = append(out, toks[m])
		}
		i = m + 1
		if i < len(toks) && toks[i].isPunct(src, ",") {
			out = append(out, toks[i])
			i++
		}
	}
	return append(out, toks[i:]...), nil
}
