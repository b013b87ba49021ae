package sql

// Schema-qualified calls in their every form. PostgreSQL's grammar takes
// a qualified name (func_name: ColId indirection) wherever it takes a
// function's name, so pg_catalog.sum(a) OVER w, s.agg(DISTINCT x),
// pg_catalog.count(*), s.f(x ORDER BY y), s.pct(0.5) WITHIN GROUP (ORDER
// BY x), s.f(VARIADIC a) and s.f(a => 1) are calls like their
// unqualified spellings (pg_dump and ruleutils write pg_catalog's calls
// qualified). TiDB's grammar takes schema.f(args) only with a plain
// argument list, so the rewrite hands such a call over as
//
//	pg__schema('schema', f(...) [FILTER ..] [WITHIN GROUP ..] [OVER ..])
//
// the call rewritten as if it were unqualified (so the window, ordered and
// named-argument rewrites apply to it), which the transformer reads back
// as the call with its Schema (totree.go's qualifiedCall).

// SchemaMarker is the function that carries a qualified call's schema.
const SchemaMarker = "pg__schema"

// qualifiedCallAt reports whether tokens k, k+1, k+2, k+3 are schema "."
// name "(" of a call TiDB's grammar cannot read qualified, and returns the
// index after the call's trailing clauses (FILTER, WITHIN GROUP, OVER).
func (r *rewriter) qualifiedCallAt(out []item, k, j int) (int, bool) {
	if k+3 >= j || !r.toks[k+1].isPunct(r.src, ".") || !r.toks[k+3].isPunct(r.src, "(") {
		return 0, false
	}
	for _, t := range []token{r.toks[k], r.toks[k+2]} {
		if t.kind != tkIdent && t.kind != tkQIdent {
			return 0, false
		}
	}
	if len(out) > 0 && (r.itemIs(out[len(out)-1], ".") || r.fromItemHere(out)) {
		return 0, false // a three-part name, or a function in FROM (srf.go)
	}
	m := r.matchClose(k+3, j)
	if m < 0 {
		return 0, false
	}
	// TiDB's aggregates and window functions are calls of their own
	// (count(*), sum(x) as aggregates): qualified, they would be plain
	// calls of those names
	special := tidbWindowAggregates[r.toks[k+2].word(r.src)]
	if m > k+4 {
		first := r.toks[k+4]
		special = special || first.is(r.src, "DISTINCT") || first.is(r.src, "ALL") || first.is(r.src, "VARIADIC") ||
			m == k+5 && first.isPunct(r.src, "*")
	}
	for q := range topLevel(r.src, r.toks, k+4, m) {
		t := r.toks[q]
		if t.is(r.src, "ORDER") && q+1 < m && r.toks[q+1].is(r.src, "BY") || t.is(r.src, "VARIADIC") ||
			t.isPunct(r.src, "=>") || t.isPunct(r.src, ":=") {
			special = true
		}
	}
	end := m + 1
	if end+2 < j && r.toks[end].is(r.src, "WITHIN") && r.toks[end+1].is(r.src, "GROUP") && r.toks[end+2].isPunct(r.src, "(") {
		if c := r.matchClose(end+2, j); c > 0 {
			special, end = true, c+1
		}
	}
	if end+1 < j && r.toks[end].is(r.src, "FILTER") && r.toks[end+1].isPunct(r.src, "(") {
		if c := r.matchClose(end+1, j); c > 0 {
			special, end = true, c+1
		}
	}
	if end+1 < j && r.toks[end].is(r.src, "OVER") {
		special = true
		if r.toks[end+1].isPunct(r.src, "(") {
			if c := r.matchClose(end+1, j); c > 0 {
				end = c + 1
			}
		} else {
			end += 2 // OVER w
		}
	}
	return end, special
}

// qualifiedCall rewrites the call qualifiedCallAt found at token k, ending
// before end.
func (r *rewriter) qualifiedCall(k, end int) (item, error) {
	saved := r.wrapped
	r.wrapped = k + 2
	inner, err := r.run(k+2, end)
	r.wrapped = saved
	if err != nil {
		return item{}, err
	}
	b := newComposite(r.leadOf(r.toks[k]))
	b.add(SchemaMarker+"("+sqlQuote(r.identName(r.toks[k]))+", ", r.toks[k].start)
	b.addItems(inner, true)
	b.add(")", r.toks[end-1].start)
	return b.it, nil
}

// qualifiedName reports whether the name at token k is qualified
// (schema.name) and not the one a qualified call's rewrite reads as
// unqualified.
func (r *rewriter) qualifiedName(k int) bool {
	return k > 0 && k != r.wrapped && r.toks[k-1].isPunct(r.src, ".")
}
