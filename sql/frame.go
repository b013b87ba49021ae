package sql

// A window's frame clause, PostgreSQL's
//
//	{ROWS | RANGE | GROUPS} {start | BETWEEN start AND end} [EXCLUDE {CURRENT ROW | GROUP | TIES | NO OTHERS}]
//
// with any expression as an n PRECEDING / FOLLOWING offset (-1, 1 + 1,
// NULL, '1 day', $1), goes beyond TiDB's grammar (a number or a parameter
// as the offset, no EXCLUDE, a single bound only as a start). The rewrite
// takes the frame out of OVER (...) / WINDOW w AS (...) and puts it first in
// the window's PARTITION BY list as the marker call
//
//	pg__frame('rows'|'range'|'groups', 'exclusion', 'kind', [offset,] ['kind', [offset]])
//
// (one bound kind and offset for the single-bound form); each kind literal
// stands at its bound's first word, the unit at the frame's keyword and the
// exclusion at the specification's "(", so
// the binder points PostgreSQL's frame errors there. WindowToTree
// (totree.go) reads the marker back into tree.Frame.

// FrameMarker is the marker call holding a window's frame clause.
const FrameMarker = "pg__frame"

// frameUnits are the words that start a frame clause.
var frameUnits = map[string]bool{"ROWS": true, "RANGE": true, "GROUPS": true}

// isWord reports whether token t is the word w (upper case), quoted by
// the keyword pass or not.
func (r *rewriter) isWord(t token, w string) bool {
	return t.kind == tkIdent && t.end-t.start == len(w) && equalFoldWord(r.src, t.start, w)
}

// windowSpecAt reports whether the "(" at token k (after OVER, or after AS
// in a WINDOW clause) opens a window specification with a frame clause; it
// returns the matching ")" and the frame's first token.
func (r *rewriter) windowSpecAt(k, j int, afterAS bool) (m, frame int, ok bool) {
	if k >= j || !r.toks[k].isPunct(r.src, "(") {
		return 0, 0, false
	}
	if m = r.matchClose(k, j); m < 0 {
		return 0, 0, false
	}
	if afterAS {
		// WINDOW w AS (...): a specification starts with a window name or
		// one of its clauses, never with a query
		first := r.toks[k+1]
		if !(r.isWord(first, "PARTITION") || r.isWord(first, "ORDER") || frameUnits[first.word(r.src)] ||
			(first.kind == tkIdent || first.kind == tkQIdent) && k+2 < m && (r.isWord(r.toks[k+2], "PARTITION") || r.isWord(r.toks[k+2], "ORDER") || frameUnits[r.toks[k+2].word(r.src)])) {
			return 0, 0, false
		}
	}
	for q := k + 1; q < m; q++ {
		t := r.toks[q]
		if t.isPunct(r.src, "(") || t.isPunct(r.src, "[") {
			if c := r.matchClose(q, m); c > q {
				q = c
			}
			continue
		}
		if !frameUnits[t.word(r.src)] || q+1 >= m {
			continue
		}
		// a column named rows/range/groups is a key: after BY, a comma or
		// an operator
		if q > k+1 {
			p := r.toks[q-1]
			if r.isWord(p, "BY") || p.isPunct(r.src, ",") || p.kind == tkOp {
				continue
			}
		}
		return m, q, true
	}
	return 0, 0, false
}

// frameBoundEnd finds the end of the bound starting at token s: the token
// after UNBOUNDED PRECEDING|FOLLOWING, CURRENT ROW or <expr>
// PRECEDING|FOLLOWING; kw is the bound's last word's index.
func (r *rewriter) frameBoundEnd(s, j int) (kw int, err error) {
	if s >= j {
		return 0, r.errNear(j)
	}
	if r.isWord(r.toks[s], "CURRENT") {
		if s+1 < j && r.isWord(r.toks[s+1], "ROW") {
			return s + 1, nil
		}
		return 0, r.errNear(min(s+1, j))
	}
	for q := s; q < j; q++ {
		t := r.toks[q]
		if t.isPunct(r.src, "(") || t.isPunct(r.src, "[") {
			c := r.matchClose(q, j)
			if c < 0 {
				return 0, r.errNear(j)
			}
			q = c
			continue
		}
		if r.isWord(t, "PRECEDING") || r.isWord(t, "FOLLOWING") {
			if q == s {
				return 0, r.errNear(q)
			}
			return q, nil
		}
		if r.isWord(t, "AND") || r.isWord(t, "EXCLUDE") {
			return 0, r.errNear(q)
		}
	}
	return 0, r.errNear(j)
}

// frameBoundItems writes the bound toks[s..kw] into b: its kind as a
// string literal at its first word, then its offset expression if any.
func (r *rewriter) frameBoundItems(b *compositeBuilder, s, kw int) error {
	t := r.toks[s]
	last := "preceding"
	if r.isWord(r.toks[kw], "FOLLOWING") {
		last = "following"
	}
	switch {
	case r.isWord(r.toks[kw], "ROW"):
		b.add(", 'current row'", t.start)
	case kw == s+1 && r.isWord(t, "UNBOUNDED"):
		b.add(", 'unbounded "+last+"'", t.start)
	default:
		off, err := r.run(s, kw)
		if err != nil {
			return err
		}
		b.add(", '"+last+"', ", t.start)
		b.addItems(off, true)
	}
	return nil
}

// frameMarker rewrites the frame toks[f:m] (m the specification's ")")
// into the marker call; open is the specification's "(", where the
// exclusion literal stands (PostgreSQL points a frame's conflict with the
// ORDER BY keys there).
func (r *rewriter) frameMarker(open, f, m int) (item, error) {
	unit := r.toks[f]
	b := newComposite(nil)
	b.add(FrameMarker+"('"+foldASCII(unit.text(r.src))+"'", unit.start)
	// the end of the bounds: EXCLUDE, or the specification's end
	end := m
	for q := f + 1; q < m; q++ {
		if r.toks[q].isPunct(r.src, "(") || r.toks[q].isPunct(r.src, "[") {
			if c := r.matchClose(q, m); c > q {
				q = c
			}
			continue
		}
		if r.isWord(r.toks[q], "EXCLUDE") {
			end = q
			break
		}
	}
	excl := "no others"
	if end < m {
		words := make([]string, 0, 2)
		for q := end + 1; q < m; q++ {
			words = append(words, r.toks[q].word(r.src))
		}
		switch w := stringsJoin(words); w {
		case "CURRENT ROW", "GROUP", "TIES", "NO OTHERS":
			excl = foldASCII(w)
		default:
			if len(words) == 0 {
				return item{}, r.errNear(m)
			}
			bad := end + 1
			if w == "CURRENT" || w == "NO" {
				bad = m
			} else if len(words) > 1 && (words[0] == "CURRENT" || words[0] == "NO" || words[0] == "GROUP" || words[0] == "TIES") {
				bad = end + 2
			}
			return item{}, r.errNear(bad)
		}
	}
	b.add(", '"+excl+"'", r.toks[open].start)
	s := f + 1
	if s < end && r.isWord(r.toks[s], "BETWEEN") {
		kw, err := r.frameBoundEnd(s+1, end)
		if err != nil {
			return item{}, err
		}
		if kw+1 >= end || !r.isWord(r.toks[kw+1], "AND") {
			return item{}, r.errNear(kw + 1)
		}
		if err := r.frameBoundItems(b, s+1, kw); err != nil {
			return item{}, err
		}
		kw2, err := r.frameBoundEnd(kw+2, end)
		if err != nil {
			return item{}, err
		}
		if kw2+1 != end {
			return item{}, r.errNear(kw2 + 1)
		}
		if err := r.frameBoundItems(b, kw+2, kw2); err != nil {
			return item{}, err
		}
	} else {
		kw, err := r.frameBoundEnd(s, end)
		if err != nil {
			return item{}, err
		}
		if kw+1 != end {
			return item{}, r.errNear(kw + 1)
		}
		if err := r.frameBoundItems(b, s, kw); err != nil {
			return item{}, err
		}
	}
	b.add(")", r.toks[m].start)
	return b.it, nil
}

func stringsJoin(ws []string) string {
	out := ""
	for i, w := range ws {
		if i > 0 {
			out += " "
		}
		out += w
	}
	return out
}

// windowSpec rewrites the specification "(" at k .. ")" at m whose frame
// starts at f: the frame becomes the marker, first in PARTITION BY.
func (r *rewriter) windowSpec(k, m, f int) ([]item, error) {
	marker, err := r.frameMarker(k, f, m)
	if err != nil {
		return nil, err
	}
	out := []item{r.simple(r.toks[k])}
	// where the marker goes: after PARTITION BY, else after the window
	// name (a new PARTITION BY)
	ins := k + 1
	partition := false
	for q := k + 1; q+1 < f; q++ {
		if r.toks[q].isPunct(r.src, "(") || r.toks[q].isPunct(r.src, "[") {
			if c := r.matchClose(q, f); c > q {
				q = c
			}
			continue
		}
		if r.isWord(r.toks[q], "PARTITION") && r.isWord(r.toks[q+1], "BY") {
			ins, partition = q+2, true
			break
		}
	}
	if !partition && ins < f && !r.isWord(r.toks[ins], "ORDER") {
		ins++ // OVER (w ...): the window it refines
	}
	if ins > k+1 {
		head, err := r.run(k+1, ins)
		if err != nil {
			return nil, err
		}
		out = append(out, head...)
	}
	b := newComposite(nil)
	if partition {
		b.add(" ", r.toks[f].start)
		b.addItems([]item{marker}, false)
		b.add(", ", r.toks[f].start)
	} else {
		b.add(" PARTITION BY ", r.toks[f].start)
		b.addItems([]item{marker}, false)
		b.add(" ", r.toks[f].start)
	}
	out = append(out, b.it)
	if ins < f {
		rest, err := r.run(ins, f)
		if err != nil {
			return nil, err
		}
		out = append(out, rest...)
	}
	return append(out, r.simple(r.toks[m])), nil
}
