package sql

import (
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// Ordered-set and hypothetical-set aggregates: PostgreSQL's
//
//	f(direct args) WITHIN GROUP (ORDER BY keys)
//
// (percentile_cont(0.5) WITHIN GROUP (ORDER BY x), mode() WITHIN GROUP
// (ORDER BY x), rank(3) WITHIN GROUP (ORDER BY x DESC)) reaches TiDB as
// an ordered aggregate (aggorder.go) whose arguments are one marker call
// holding the direct arguments:
//
//	group_concat(pg__within_group(direct args) ORDER BY keys SEPARATOR 'pg__agg:f')
//
// and the binder (binder/orderedset.go) reads it back; f(*) WITHIN GROUP
// holds pg__star() (emptycall.go's StarMarker) as its one direct argument.

// WithinGroupMarker is the marker call that holds the direct arguments.
const WithinGroupMarker = "pg__within_group"

// withinGroupAt reports whether token k starts WITHIN GROUP (ORDER BY ..)
// right after a call in out; it returns the index in out where the call
// starts and the ")" closing the WITHIN GROUP parentheses.
func (r *rewriter) withinGroupAt(out []item, k, j int) (start, closeIdx int, ok bool) {
	if k+4 >= j || !r.toks[k].is(r.src, "WITHIN") || !r.toks[k+1].is(r.src, "GROUP") || !r.toks[k+2].isPunct(r.src, "(") ||
		!r.toks[k+3].is(r.src, "ORDER") || !r.toks[k+4].is(r.src, "BY") {
		return 0, 0, false
	}
	n := len(out)
	if n < 3 || !r.itemIs(out[n-1], ")") {
		return 0, 0, false
	}
	open := r.matchOpenItem(out, n-1, "(", ")")
	if open < 1 || out[open-1].composite || out[open-1].tok.kind != tkIdent {
		return 0, 0, false
	}
	m := r.matchClose(k+2, j)
	if m < 0 {
		return 0, 0, false
	}
	return open - 1, m, true
}

// withinGroup rewrites the call ending out and its WITHIN GROUP clause at k.
func (r *rewriter) withinGroup(out []item, k, j int) ([]item, int, error) {
	s, m, _ := r.withinGroupAt(out, k, j)
	if m == k+5 {
		return nil, 0, r.errNear(m)
	}
	keys, err := r.run(k+5, m)
	if err != nil {
		return nil, 0, err
	}
	name := strings.ToLower(strings.Trim(out[s].tok.text(r.src), `"`))
	if m+1 < j && r.toks[m+1].is(r.src, "OVER") {
		// PostgreSQL's parse analysis refuses it (TiDB's group_concat
		// would drop the ORDER BY under OVER)
		return nil, 0, sqlerr.New(sqlerr.FeatureNotSupported, "OVER is not supported for ordered-set aggregate %s", name).WithPosition(charPos(r.src, out[s].firstOrig()))
	}
	b := newComposite(out[s].lead)
	b.add("group_concat("+WithinGroupMarker+"(", out[s].firstOrig())
	if args := out[s+2 : len(out)-1]; len(args) == 1 && r.itemIs(args[0], "*") {
		// f(*) WITHIN GROUP: the star as emptycall.go hands it over, no
		// direct argument (the transformer reads it as the call's Star)
		b.add(StarMarker+"()", args[0].firstOrig())
	} else {
		b.addItems(args, true)
	}
	b.add(") order by ", r.toks[k].start)
	b.addItems(keys, true)
	b.add(" separator "+sqlQuote(AggregateMarkerPrefix+name)+")", r.toks[m].start)
	return append(out[:s], b.it), m + 1, nil
}

// withinGroupError is PostgreSQL's grammar's refusal (func_expr) of a call
// with WITHIN GROUP whose argument list has its own ORDER BY, DISTINCT or
// VARIADIC, checked in that order: 42601 at WITHIN, read from the tokens
// before any rewrite (TiDB's grammar would refuse the rewritten call
// elsewhere, and VARIADIC would reach the lookup).
func withinGroupError(src string, toks []token) error {
	for k := 1; k+1 < len(toks); k++ {
		if !toks[k].is(src, "WITHIN") || !toks[k+1].is(src, "GROUP") || !toks[k-1].isPunct(src, ")") {
			continue
		}
		open, depth := -1, 0
		for q := k - 1; q >= 0 && open < 0; q-- {
			switch {
			case toks[q].isPunct(src, ")"), toks[q].isPunct(src, "]"):
				depth++
			case toks[q].isPunct(src, "("), toks[q].isPunct(src, "["):
				if depth--; depth == 0 {
					open = q
				}
			}
		}
		if open < 1 || toks[open-1].kind != tkIdent && toks[open-1].kind != tkQIdent {
			continue
		}
		distinct := open+1 < k-1 && toks[open+1].is(src, "DISTINCT")
		order, variadic := false, false
		for q := range topLevel(src, toks, open+1, k-1) {
			switch {
			case toks[q].is(src, "ORDER") && q+1 < k-1 && toks[q+1].is(src, "BY"):
				order = true
			case toks[q].is(src, "VARIADIC"):
				variadic = true
			}
		}
		msg := ""
		switch {
		case order:
			msg = "cannot use multiple ORDER BY clauses with WITHIN GROUP"
		case distinct:
			msg = "cannot use DISTINCT with WITHIN GROUP"
		case variadic:
			msg = "cannot use VARIADIC with WITHIN GROUP"
		default:
			continue
		}
		return sqlerr.New(sqlerr.SyntaxError, "%s", msg).WithPosition(charPos(src, toks[k].start))
	}
	return nil
}
