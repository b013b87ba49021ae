package sql

// Calls without arguments and f(*). PostgreSQL's grammar takes any
// func_name '(' ')' and func_name '(' '*' ')'; ParseFuncOrColumn then
// looks the function up with no arguments (f(*) included) and refuses
// what it finds by its kind: count() is 42809 "count(*) must be used to
// call a parameterless aggregate function", rank() without OVER 42809
// "window function rank requires an OVER clause", mode() and lower(*)
// 42883 (no such function with no arguments), now(*) 42809 "now(*)
// specified, but now is not an aggregate function". TiDB's grammar takes
// its aggregates and window functions with their arguments only, and *
// in count's call only, so the rewrite hands them over as generic calls:
//
//	count()  -> "count"()         rank() -> "rank"()
//	sum(*)   -> "sum"(pg__star())  lower(*) -> lower(pg__star())
//
// (the name quoted where TiDB reads it as a keyword); the transformer
// reads pg__star() as the call's Star, and the binder gives PostgreSQL's
// errors. Under OVER the same calls go through windowagg.go, * as
// pg__star() there too.

// StarMarker stands for the * of f(*) when f is not count.
const StarMarker = "pg__star"

// emptyCallKeywords are the functions TiDB's grammar reads as keywords
// before "(", whose calls without arguments it refuses: its aggregates and
// window functions, and MODE.
func emptyCallKeyword(w string) bool {
	return tidbWindowAggregates[w] || w == "MODE"
}

// emptyCallAt reports whether token k (the word w) starts f() or f(*)
// that TiDB's grammar cannot read, outside the forms with OVER, FILTER
// or WITHIN GROUP (windowagg.go, withingroup.go; a FILTER alone wraps
// the call as it wraps any), and whether it is f(*).
func (r *rewriter) emptyCallAt(out []item, w string, k, j int) (star, ok bool) {
	if w == "" || nonOperandWords[w] || notCallWords[w] || k+2 >= j || !r.toks[k+1].isPunct(r.src, "(") {
		return false, false
	}
	if len(out) > 0 && r.itemIs(out[len(out)-1], ".") {
		return false, false // schema.f(): TiDB's generic call, or qualifiedcall.go's
	}
	end := k + 3
	switch {
	case r.toks[k+2].isPunct(r.src, ")"):
		if !emptyCallKeyword(w) {
			return false, false
		}
	case w != "COUNT" && k+3 < j && r.toks[k+2].isPunct(r.src, "*") && r.toks[k+3].isPunct(r.src, ")"):
		star, end = true, k+4
	default:
		return false, false
	}
	if end < j && (r.toks[end].is(r.src, "OVER") || r.toks[end].is(r.src, "WITHIN")) {
		return false, false
	}
	return star, true
}

// emptyCall rewrites the call emptyCallAt found at token k into one
// item (a primary, which a FILTER after it wraps whole); it returns the
// item and the token after the call.
func (r *rewriter) emptyCall(w string, star bool, k int) ([]item, int) {
	t := r.toks[k]
	name := foldASCII(t.text(r.src))
	if emptyCallKeyword(w) {
		name = `"` + name + `"`
	}
	b := newComposite(r.leadOf(t))
	b.add(name, t.start)
	if !star {
		b.add("()", r.toks[k+1].start)
		return []item{b.it}, k + 3
	}
	b.add("("+StarMarker+"())", r.toks[k+1].start)
	return []item{b.it}, k + 4
}

func (r *rewriter) startsEmptyCall(out []item, w string, k, j int) bool {
	_, ok := r.emptyCallAt(out, w, k, j)
	return ok
}
