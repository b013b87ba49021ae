package sql

import (
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

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

// WindowFilterMarker is the function that carries a window aggregate's
// FILTER condition (no argument: no FILTER).
const WindowFilterMarker = "pg__window_filter"

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
		return m, filterOpen, true // refused by windowAggregate
	}
	// TiDB's grammar takes neither FILTER nor DISTINCT in a window call:
	// the binder refuses DISTINCT where PostgreSQL does, after the
	// arguments and the function (count(DISTINCT a, b) OVER () is 42883)
	distinct := k+2 < m && r.toks[k+2].is(r.src, "DISTINCT")
	if filterOpen < 0 && !distinct && tidbWindowAggregates[w] {
		return 0, 0, false
	}
	return m, filterOpen, true
}

// windowAggregate rewrites the call at token k that windowAggregateAt
// found; it returns the item and the token after the call (OVER).
func (r *rewriter) windowAggregate(k, m, filterOpen int) (item, int, error) {
	t := r.toks[k]
	if _, _, ordered := r.orderedAggregateAt(k, len(r.toks)); ordered {
		return item{}, 0, sqlerr.New(sqlerr.FeatureNotSupported, "aggregate ORDER BY is not implemented for window functions").WithPosition(charPos(r.src, t.start))
	}
	name := strings.ToLower(t.text(r.src))
	b := newComposite(r.leadOf(t))
	b.add("group_concat(", t.start)
	argStart := k + 2
	if argStart < m && (r.toks[argStart].is(r.src, "DISTINCT") || r.toks[argStart].is(r.src, "ALL")) {
		if r.toks[argStart].is(r.src, "DISTINCT") {
			b.add("distinct ", r.toks[argStart].start)
		}
		argStart++
	}
	switch {
	case argStart+1 == m && r.toks[argStart].isPunct(r.src, "*"):
		b.add("1, ", r.toks[argStart].start) // count(*), as TiDB reads it
	case argStart < m:
		args, err := r.run(argStart, m)
		if err != nil {
			return item{}, 0, err
		}
		b.addItems(args, true)
		b.add(", ", r.toks[m].start)
	}
	b.add(WindowFilterMarker+"(", r.toks[m].start)
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
	b.add(") separator "+sqlQuote(AggregateMarkerPrefix+name)+")", r.toks[next-1].start)
	return b.it, next, nil
}

func (r *rewriter) startsWindowAggregate(out []item, k, j int) bool {
	_, _, ok := r.windowAggregateAt(out, k, j)
	return ok
}
