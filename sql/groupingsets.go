package sql

// Grouping sets: PostgreSQL's GROUP BY items ROLLUP (...), CUBE (...),
// GROUPING SETS (...) and the empty set (), none of which TiDB's grammar
// has (its ROLLUP is MySQL's WITH ROLLUP). Inside a GROUP BY clause the
// rewrite hands TiDB marker calls:
//
//	ROLLUP (a, (b, c))          -> pg__rollup(a, (b, c))
//	CUBE (a, b)                 -> pg__cube(a, b)
//	GROUPING SETS ((a, b), ())  -> pg__grouping_sets((a, b), pg__empty_set())
//	GROUP BY DISTINCT items     -> GROUP BY pg__group_distinct(), items
//	GROUP BY ALL items          -> GROUP BY items
//
// A parenthesised list (b, c) stays as it is: TiDB reads it as a row
// expression, which is what PostgreSQL's grammar does too before it
// flattens an implicit row in GROUP BY into a list of grouping
// expressions. The binder (binder/groupingsets.go) expands the markers into
// grouping sets. GROUPING(a, b) is an ordinary call for TiDB and left as
// it is.

// groupingSetMarker returns the marker text for the grouping construct
// that starts at token k (ROLLUP (, CUBE (, GROUPING SETS (, or an empty
// ()), the number of tokens it replaces, and whether there is one. Only
// where a GROUP BY item may start counts: ROLLUP and CUBE are ordinary
// function names anywhere else.
func (r *rewriter) groupingSetMarker(out []item, k, j int) (text string, n int, ok bool) {
	t := r.toks[k]
	if k+1 >= j {
		return "", 0, false
	}
	next := r.toks[k+1]
	// the tokens first: groupItemHere walks back, and most tokens are none
	// of these
	switch {
	case t.isPunct(r.src, "(") && next.isPunct(r.src, ")"):
		text, n = "pg__empty_set()", 2
	case (t.is(r.src, "ROLLUP") || t.is(r.src, "CUBE")) && next.isPunct(r.src, "("):
		text, n = "pg__"+foldASCII(t.text(r.src)), 1
	case t.is(r.src, "GROUPING") && next.is(r.src, "SETS") && k+2 < j && r.toks[k+2].isPunct(r.src, "("):
		text, n = "pg__grouping_sets", 2
	case t.is(r.src, "DISTINCT") && r.groupByJustBefore(out):
		return groupDistinctMarker, 1, true
	case t.is(r.src, "ALL") && r.groupByJustBefore(out):
		return "", 1, true // the default
	default:
		return "", 0, false
	}
	if !r.groupItemHere(out) {
		return "", 0, false
	}
	return text, n, true
}

// groupByJustBefore reports whether out ends with GROUP BY.
func (r *rewriter) groupByJustBefore(out []item) bool {
	n := len(out)
	return n >= 2 && !out[n-1].composite && out[n-1].tok.is(r.src, "BY") &&
		!out[n-2].composite && out[n-2].tok.is(r.src, "GROUP")
}

// groupItemHere reports whether a GROUP BY item may start after out: right
// after GROUP BY, after a comma of its list, or inside the parentheses of
// a grouping construct (or of a list within one), at any depth of those.
func (r *rewriter) groupItemHere(out []item) bool {
	n := len(out)
	if n == 0 || out[n-1].composite {
		return false
	}
	last := out[n-1].tok
	if last.synth == groupDistinctMarker {
		return true
	}
	if !last.is(r.src, "BY") && !last.isPunct(r.src, ",") && !last.isPunct(r.src, "(") {
		return false
	}
	depth := 0
	for i := n - 1; i >= 0; i-- {
		it := out[i]
		switch {
		case r.itemIs(it, ")"):
			depth++
		case r.itemIs(it, "("):
			if depth > 0 {
				depth--
				continue
			}
			// an enclosing bracket: a grouping construct's or a nested
			// list's, never a call's or a subquery's
			if i == 0 || out[i-1].composite {
				return false
			}
			p := out[i-1].tok
			if !p.isPunct(r.src, "(") && !p.isPunct(r.src, ",") && !p.is(r.src, "BY") && !isGroupingMarker(p.synth) {
				return false
			}
		case depth == 0 && !it.composite && it.tok.kind == tkIdent && it.tok.synth == "":
			switch it.tok.word(r.src) {
			case "BY":
				return i > 0 && !out[i-1].composite && out[i-1].tok.is(r.src, "GROUP")
			case "SELECT", "FROM", "WHERE", "HAVING", "ORDER", "ON", "LIMIT", "OFFSET", "WINDOW", "SET",
				"VALUES", "RETURNING", "UNION", "INTERSECT", "EXCEPT", "WITH", "PARTITION":
				return false
			}
		}
	}
	return false
}

const groupDistinctMarker = "pg__group_distinct(),"

func isGroupingMarker(s string) bool {
	return s == "pg__rollup" || s == "pg__cube" || s == "pg__grouping_sets"
}

// groupingSetItem is the item that stands for the construct's first n
// tokens: the marker text at the first token's position. The marker is
// kept as the token's synthetic text, so groupItemHere recognises it when
// it looks back from inside the construct's parentheses.
func (r *rewriter) groupingSetItem(k int, text string) item {
	t := r.toks[k]
	mt := t
	mt.synth = text
	return item{tok: mt, lead: r.leadOf(t), pieces: []piece{{text: text, orig: t.start}}}
}
