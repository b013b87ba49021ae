package sql

import "strings"

// Ordered aggregates: PostgreSQL's agg(args ORDER BY keys), such as
// string_agg(name, ', ' ORDER BY name) and array_agg(x ORDER BY t DESC).
// TiDB's grammar allows ORDER BY inside GROUP_CONCAT only, so the rewrite
// hands TiDB
//
//	group_concat([DISTINCT] args ORDER BY keys SEPARATOR 'pg__agg:NAME')
//
// and the binder (binder.pgAggregate) reads the aggregate's real name from
// the separator, which TiDB keeps as the call's last argument.

// AggregateMarkerPrefix starts the separator that names the aggregate.
const AggregateMarkerPrefix = "pg__agg:"

// notCallWords are words that a parenthesised list can follow without the
// two forming a function call.
var notCallWords = map[string]bool{
	"OVER": true, "AS": true, "IN": true, "EXISTS": true, "ARRAY": true, "ANY": true, "SOME": true, "ALL": true,
	"LATERAL": true, "USING": true, "VALUES": true, "WINDOW": true, "FROM": true, "JOIN": true, "ON": true,
	"WITHIN": true, "FILTER": true, "ROWS": true, "INTO": true, "TABLE": true, "VIEW": true,
}

// orderedAggregateAt reports whether token k is a bare function name whose
// argument list (from the "(" at k+1) has ORDER BY at its own depth; it
// returns the closing ")" and the ORDER token.
func (r *rewriter) orderedAggregateAt(k, j int) (closeIdx, orderIdx int, ok bool) {
	if k+1 >= j || r.toks[k].kind != tkIdent || !r.toks[k+1].isPunct(r.src, "(") {
		return 0, 0, false
	}
	if r.qualifiedName(k) && !r.pgCatalogQualified(k) {
		return 0, 0, false // schema-qualified: left as is
	}
	// OVER (... ORDER BY), AS (SELECT ... ORDER BY), IN (SELECT ...) and
	// the like are no function calls; neither is a parenthesised query.
	if w := r.toks[k].word(r.src); nonOperandWords[w] || notCallWords[w] {
		return 0, 0, false
	}
	m := r.matchClose(k+1, j)
	if m < k+3 { // no closing bracket, or nothing inside
		return 0, 0, false
	}
	if first := r.toks[k+2]; first.is(r.src, "SELECT") || first.is(r.src, "WITH") || first.is(r.src, "VALUES") || first.is(r.src, "TABLE") {
		return 0, 0, false
	}
	for q := k + 2; q+1 < m; q++ {
		t := r.toks[q]
		if t.isPunct(r.src, "(") || t.isPunct(r.src, "[") {
			if c := r.matchClose(q, m); c > q {
				q = c
			}
			continue
		}
		if t.is(r.src, "ORDER") && r.toks[q+1].is(r.src, "BY") {
			return m, q, true
		}
	}
	return 0, 0, false
}

// pgCatalogQualified reports whether the name at token k is qualified
// with pg_catalog (pg_catalog.array_agg(x ORDER BY y), as pg_dump writes
// it): the built-in aggregates are pg_catalog's, so the qualifier can go
// with the rewrite (dropCatalogQualifier).
func (r *rewriter) pgCatalogQualified(k int) bool {
	if k < 2 || !r.qualifiedName(k) || k >= 3 && r.toks[k-3].isPunct(r.src, ".") {
		return false
	}
	name, ok := identName(r.src, r.toks[k-2])
	return ok && name == "pg_catalog"
}

// dropCatalogQualifier removes the "pg_catalog" "." items the rewrite
// already emitted before the aggregate name at token k.
func (r *rewriter) dropCatalogQualifier(out []item, k int) []item {
	if !r.pgCatalogQualified(k) || len(out) < 2 {
		return out
	}
	dot, schema := out[len(out)-1], out[len(out)-2]
	if dot.composite || schema.composite || dot.tok.start != r.toks[k-1].start || schema.tok.start != r.toks[k-2].start {
		return out
	}
	return out[:len(out)-2]
}

func (r *rewriter) startsOrderedAggregate(k, j int) bool {
	_, _, ok := r.orderedAggregateAt(k, j)
	return ok
}

func (r *rewriter) orderedAggregate(k, j int) ([]item, int, error) {
	m, order, _ := r.orderedAggregateAt(k, j)
	t := r.toks[k]
	name := strings.ToLower(t.text(r.src))
	argStart := k + 2
	distinct := false
	if argStart < order && (r.toks[argStart].is(r.src, "DISTINCT") || r.toks[argStart].is(r.src, "ALL")) {
		distinct = r.toks[argStart].is(r.src, "DISTINCT")
		argStart++
	}
	if argStart == order || order+2 == m || argStart+1 == order && r.toks[argStart].isPunct(r.src, "*") {
		// (f(* ORDER BY ..): PostgreSQL's grammar takes * alone, so its
		// syntax error is at ORDER)
		return nil, 0, r.errNear(order)
	}
	args, err := r.run(argStart, order)
	if err != nil {
		return nil, 0, err
	}
	keys, err := r.run(order+2, m)
	if err != nil {
		return nil, 0, err
	}
	lead := r.leadOf(t)
	if r.pgCatalogQualified(k) {
		lead = r.leadOf(r.toks[k-2]) // the qualifier's items go (dropCatalogQualifier)
	}
	b := newComposite(lead)
	b.add("group_concat(", t.start)
	if distinct {
		b.add("distinct ", r.toks[k+2].start)
	}
	b.addItems(args, true)
	b.add(" order by ", r.toks[order].start)
	b.addItems(keys, true)
	b.add(" separator "+sqlQuote(AggregateMarkerPrefix+name)+")", r.toks[m].start)
	return []item{b.it}, m + 1, nil
}

// tidbDistinctAggregates are the aggregates TiDB's grammar takes DISTINCT
// in (not BIT_AND, BIT_OR, BIT_XOR: their rule has no DISTINCT); any other
// agg(DISTINCT args) goes through group_concat as an ordered aggregate
// does, without the ORDER BY:
//
//	group_concat(DISTINCT args SEPARATOR 'pg__agg:NAME')
var tidbDistinctAggregates = map[string]bool{
	"COUNT": true, "SUM": true, "AVG": true, "MIN": true, "MAX": true, "GROUP_CONCAT": true,
	"STD": true, "STDDEV_POP": true, "STDDEV_SAMP": true, "VAR_POP": true, "VAR_SAMP": true,
	"APPROX_COUNT_DISTINCT": true, "JSON_ARRAYAGG": true, "JSON_OBJECTAGG": true,
}

// distinctAggregateAt reports whether token k is a bare function name whose
// argument list starts with DISTINCT and that TiDB's grammar has no
// DISTINCT for (bool_and, string_agg, array_agg, every, ...); it returns
// the closing ")".
func (r *rewriter) distinctAggregateAt(k, j int) (int, bool) {
	if k+3 >= j || r.toks[k].kind != tkIdent || !r.toks[k+1].isPunct(r.src, "(") || !r.toks[k+2].is(r.src, "DISTINCT") {
		return 0, false
	}
	if r.qualifiedName(k) {
		return 0, false
	}
	w := r.toks[k].word(r.src)
	if nonOperandWords[w] || notCallWords[w] {
		return 0, false
	}
	m := r.matchClose(k+1, j)
	if m < k+4 {
		return 0, false
	}
	if (tidbDistinctAggregates[w] || w == "STDDEV" || w == "VARIANCE") && !(tidbOneArgAggregates[w] && topComma(r.src, r.toks, k+3, m) >= 0) {
		return 0, false // TiDB's own aggregate syntax (STDDEV, VARIANCE: as stddev_samp, var_samp)
	}
	return m, true
}

// tidbOneArgAggregates are the aggregates of both grammars that TiDB's
// takes one argument of (two or more are its syntax error at the comma):
// PostgreSQL's grammar takes any call, whose function then does not exist
// (42883, the binder's: sum(x, 6)); the rewrite hands such a call over as
// group_concat does an ordered aggregate, named in the separator
// (multiArgAggregateAt).
var tidbOneArgAggregates = map[string]bool{
	"COUNT": true, "SUM": true, "AVG": true, "MIN": true, "MAX": true, "STDDEV": true, "STDDEV_POP": true,
	"STDDEV_SAMP": true, "VARIANCE": true, "VAR_POP": true, "VAR_SAMP": true,
}

// multiArgAggregateAt reports whether token k is one of
// tidbOneArgAggregates called with more than one argument and no DISTINCT
// (distinctAggregateAt's case) nor ORDER BY (orderedAggregate's): m is its
// closing parenthesis.
func (r *rewriter) multiArgAggregateAt(k, j int) (int, bool) {
	if k+3 >= j || r.toks[k].kind != tkIdent || !r.toks[k+1].isPunct(r.src, "(") || r.toks[k+2].is(r.src, "DISTINCT") ||
		r.qualifiedName(k) {
		return 0, false
	}
	// the name of a qualified call's rewrite (qualifiedcall.go) follows
	// its schema's "." and is a call all the same
	if _, ok := lookupWord(r.src, r.toks[k], tidbOneArgAggregates); !ok || k == 0 || k != r.wrapped && !callContext(r.src, r.toks[k-1]) {
		return 0, false
	}
	m := r.matchClose(k+1, j)
	if m < 0 || topComma(r.src, r.toks, k+2, m) < 0 {
		return 0, false
	}
	if m+2 < j && r.toks[m+1].is(r.src, "WITHIN") && r.toks[m+2].is(r.src, "GROUP") {
		return 0, false // count(a, b) WITHIN GROUP (..): withingroup.go's, whose lookup fails (42883)
	}
	for i := range topLevel(r.src, r.toks, k+2, m) {
		if r.toks[i].is(r.src, "ORDER") {
			return 0, false
		}
	}
	return m, true
}

func (r *rewriter) distinctAggregate(k, m int) ([]item, int, error) {
	t := r.toks[k]
	first, kw := k+3, "group_concat(distinct "
	if !r.toks[k+2].is(r.src, "DISTINCT") {
		first, kw = k+2, "group_concat(" // multiArgAggregateAt's
		if r.toks[k+2].is(r.src, "ALL") {
			first++
		}
	}
	args, err := r.run(first, m)
	if err != nil {
		return nil, 0, err
	}
	b := newComposite(r.leadOf(t))
	b.add(kw, t.start)
	b.addItems(args, true)
	b.add(" separator "+sqlQuote(AggregateMarkerPrefix+strings.ToLower(t.text(r.src)))+")", r.toks[m].start)
	return []item{b.it}, m + 1, nil
}

func (r *rewriter) startsDistinctAggregate(k, j int) bool {
	_, ok := r.distinctAggregateAt(k, j)
	return ok
}

func (r *rewriter) startsMultiArgAggregate(k, j int) bool {
	_, ok := r.multiArgAggregateAt(k, j)
	return ok
}

// callContextWords are the words after which a name and "(" are a call
// (not a table's name and column list: CREATE TABLE count (a, b)).
var callContextWords = map[string]bool{
	"SELECT": true, "WHERE": true, "AND": true, "OR": true, "NOT": true, "WHEN": true, "THEN": true,
	"ELSE": true, "HAVING": true, "BY": true, "RETURNING": true, "DISTINCT": true, "ALL": true,
	"BETWEEN": true, "CASE": true, "LIMIT": true, "OFFSET": true,
}

// callContext reports whether the token before a name and "(" makes them a
// call: an operator, an opening bracket, a comma or a clause's keyword
// where an expression starts.
func callContext(src string, prev token) bool {
	switch prev.kind {
	case tkOp:
		return prev.text(src) != "::"
	case tkPunct:
		return prev.isPunct(src, "(") || prev.isPunct(src, ",") || prev.isPunct(src, "[")
	case tkIdent:
		_, ok := lookupWord(src, prev, callContextWords)
		return ok
	}
	return false
}
