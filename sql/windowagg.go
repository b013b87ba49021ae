package sql

import "strings"

// Aggregates used as window functions. TiDB's grammar takes OVER after its
// own aggregates only (count, sum, avg, min, max, bit_and, the stddev and
// variance family, group_concat ...) and has no FILTER clause, so
// PostgreSQL's string_agg(x, ',') OVER w, bool_and(b) OVER w and
// count(*) FILTER (WHERE c) OVER w do not parse. The rewrite hands TiDB
//
//	group_concat([DISTINCT] args, pg__window_filter([cond]) SEPARATOR 'pg__agg:NAME') OVER w
//
// (its group_concat takes OVER), which the transformer reads back into
// the call NAME(args) FILTER (WHERE cond) OVER w (totree.go's windowCall).
// An aggregate ORDER BY in the call (sum(x ORDER BY y) OVER w) goes into
// group_concat's ORDER BY, where TiDB's grammar reads the keys and drops
// them under OVER, and the marker is WindowOrderedMarker: PostgreSQL's
// grammar takes the call and ParseFuncOrColumn refuses it (0A000) after
// the arguments, the FILTER, the function's lookup and DISTINCT, without
// looking at the keys, and so does the binder.

// WindowFilterMarker is the function that carries a window aggregate's
// FILTER condition (no argument: no FILTER).
const WindowFilterMarker = "pg__window_filter"

// WindowOrderedMarker is WindowFilterMarker for a call with an aggregate
// ORDER BY.
const WindowOrderedMarker = "pg__window_ordered"

// tidbWindowAggregates are the calls TiDB's grammar takes OVER after.
var tidbWindowAggregates = map[string]bool{
	"COUNT": true, "SUM": true, "AVG": true, "MIN": true, "MAX": true, "BIT_AND": true, "BIT_OR": true, "BIT_XOR": true,
	"STD": true, "STDDEV_POP": true, "STDDEV_SAMP": true, "VAR_POP": true, "VAR_SAMP": true,
	"GROUP_CONCAT": true, "JSON_ARRAYAGG": true, "JSON_OBJECTAGG": true,
	"ROW_NUMBER": true, "RANK": true, "DENSE_RANK": true, "PERCENT_RANK": true, "CUME_DIST": true, "NTILE": true,
	"LAG": true, "LEAD": true, "FIRST_VALUE": true, "LAST_VALUE": true, "NTH_VALUE": true,
}

// windowAggregateAt reports whether token k is a bare function name whose
// call (from the "(" at k+1) is followed by OVER, with or without a FILTER
// clause between, and TiDB's grammar cannot read it: a name not in
// tidbWindowAggregates, or a FILTER. It returns the call's closing ")"
// and the FILTER's "(" (-1: none).
func (r *rewriter) windowAggregateAt(out []item, k, j int) (closeIdx, filterOpen int, ok bool) {
	if k+1 >= j || r.toks[k].kind != tkIdent || !r.toks[k+1].isPunct(r.src, "(") {
		return 0, 0, false
	}
	if len(out) > 0 && r.itemIs(out[len(out)-1], ".") {
		return 0, 0, false // schema-qualified: left as is
	}
	w := r.toks[k].word(r.src)
	if nonOperandWords[w] || notCallWords[w] {
		return 0, 0, false
	}
	m := r.matchClose(k+1, j)
	if m < 0 {
		return 0, 0, false
	}
	next, filterOpen := m+1, -1
	if next+2 < j && r.toks[next].is(r.src, "FILTER") && r.toks[next+1].isPunct(r.src, "(") && r.toks[next+2].is(r.src, "WHERE") {
		c := r.matchClose(next+1, j)
		if c < 0 {
			return 0, 0, false
		}
		filterOpen, next = next+1, c+1
	}
	if next >= j || !r.toks[next].is(r.src, "OVER") {
		return 0, 0, false
	}
	if _, _, ordered := r.orderedAggregateAt(k, j); ordered {
		return m, filterOpen, true // the binder refuses it (windowAggregate)
	}
	// TiDB's grammar takes neither FILTER nor DISTINCT in a window call:
	// the binder refuses DISTINCT where PostgreSQL does, after the
	// arguments and the function (count(DISTINCT a, b) OVER () is 42883)
	distinct := k+2 < m && r.toks[k+2].is(r.src, "DISTINCT")
	star := w != "COUNT" && m == k+3 && r.toks[k+2].isPunct(r.src, "*") // f(*): emptycall.go
	if filterOpen < 0 && !distinct && !star && tidbWindowAggregates[w] && r.tidbWindowArity(w, k+2, m) {
		return 0, 0, false
	}
	return m, filterOpen, true
}

// tidbWindowArgs are the numbers of arguments TiDB's grammar takes in a
// window function's call (lag, lead: one to three); PostgreSQL's takes any
// and its lookup refuses (42883 ntile(integer, integer), row_number(integer)),
// so a call with another number goes to the binder as an aggregate's does.
var tidbWindowArgs = map[string][2]int{
	"ROW_NUMBER": {0, 0}, "RANK": {0, 0}, "DENSE_RANK": {0, 0}, "PERCENT_RANK": {0, 0}, "CUME_DIST": {0, 0},
	"NTILE": {1, 1}, "FIRST_VALUE": {1, 1}, "LAST_VALUE": {1, 1}, "NTH_VALUE": {2, 2}, "LAG": {1, 3}, "LEAD": {1, 3},
}

// tidbWindowArity reports whether the call of w with the arguments between
// tokens from and to is one TiDB's grammar takes by its number of
// arguments.
func (r *rewriter) tidbWindowArity(w string, from, to int) bool {
	lim, ok := tidbWindowArgs[w]
	if !ok {
		return from < to // an aggregate: count() OVER w is PostgreSQL's 42809 (emptycall.go)
	}
	n := 0
	if from < to {
		n = 1
		for i := range topLevel(r.src, r.toks, from, to) {
			if r.toks[i].isPunct(r.src, ",") {
				n++
			}
		}
	}
	return n >= lim[0] && n <= lim[1]
}

// windowAggregate rewrites the call at token k that windowAggregateAt
// found; it returns the item and the token after the call (OVER).
func (r *rewriter) windowAggregate(k, m, filterOpen int) (item, int, error) {
	t := r.toks[k]
	marker, argEnd, order := WindowFilterMarker, m, -1
	if _, o, ordered := r.orderedAggregateAt(k, len(r.toks)); ordered {
		marker, argEnd, order = WindowOrderedMarker, o, o
	}
	name := strings.ToLower(t.text(r.src))
	b := newComposite(r.leadOf(t))
	b.add("group_concat(", t.start)
	argStart := k + 2
	if argStart < argEnd && (r.toks[argStart].is(r.src, "DISTINCT") || r.toks[argStart].is(r.src, "ALL")) {
		if r.toks[argStart].is(r.src, "DISTINCT") {
			b.add("distinct ", r.toks[argStart].start)
		}
		argStart++
	}
	if order >= 0 && (argStart == order || order+2 == m) {
		// agg(ORDER BY k), agg(x ORDER BY): PostgreSQL's grammar has no
		// call without arguments before ORDER BY, nor an empty sort list
		if argStart == order {
			return item{}, 0, r.errNear(order)
		}
		return item{}, 0, r.errNear(m)
	}
	switch {
	case argStart+1 == argEnd && r.toks[argStart].isPunct(r.src, "*"):
		if order >= 0 {
			return item{}, 0, r.errNear(order) // count(* ORDER BY k)
		}
		if t.is(r.src, "COUNT") {
			b.add("1, ", r.toks[argStart].start) // count(*), as TiDB reads it
		} else {
			b.add(StarMarker+"(), ", r.toks[argStart].start) // f(*): emptycall.go
		}
	case argStart < argEnd:
		args, err := r.run(argStart, argEnd)
		if err != nil {
			return item{}, 0, err
		}
		b.addItems(args, true)
		b.add(", ", r.toks[argEnd].start)
	}
	b.add(marker+"(", r.toks[argEnd].start)
	next := m + 1
	if filterOpen >= 0 {
		c := r.matchClose(filterOpen, len(r.toks))
		cond, err := r.run(filterOpen+2, c)
		if err != nil {
			return item{}, 0, err
		}
		b.addItems(cond, true)
		next = c + 1
	}
	b.add(")", r.toks[argEnd].start)
	if order >= 0 {
		keys, err := r.run(order+2, m)
		if err != nil {
			return item{}, 0, err
		}
		b.add(" order by ", r.toks[order].start)
		b.addItems(keys, true)
	}
	b.add(" separator "+sqlQuote(AggregateMarkerPrefix+name)+")", r.toks[next-1].start)
	return b.it, next, nil
}

func (r *rewriter) startsWindowAggregate(out []item, k, j int) bool {
	_, _, ok := r.windowAggregateAt(out, k, j)
	return ok
}
