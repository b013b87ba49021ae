package sql

// SQL regular expressions and OVERLAY, which TiDB's grammar lacks:
//
//	x [NOT] SIMILAR TO p [ESCAPE e]          -> x [NOT] REGEXP similar_to_escape(p [, e])
//	substring(x SIMILAR p ESCAPE e)          -> substring(x, pg__cast(p, 'text'), pg__cast(e, 'text'))
//	overlay(x PLACING y FROM n [FOR m])      -> overlay(x, y, n [, m])
//
// as PostgreSQL 15 itself defines them (SIMILAR TO is ~ of
// similar_to_escape's translation; substring's SIMILAR form is the
// three-text-argument substring). The pattern and escape of SIMILAR TO
// take the operators that bind tighter than SIMILAR (similarOperand).

// similarTo rewrites SIMILAR TO at token k (out ends with its left operand,
// or with NOT after it).
func (r *rewriter) similarTo(out []item, k, j int) ([]item, int, error) {
	t := r.toks[k]
	kw := "regexp"
	if n := len(out); n > 0 && !out[n-1].composite && out[n-1].tok.is(r.src, "NOT") {
		kw = "not regexp"
		out = out[:n-1]
	}
	if len(out) == 0 || !r.isOperand(out[len(out)-1]) || k+2 >= j {
		return nil, 0, r.errNear(k)
	}
	pat, next, err := r.similarOperand(k+2, j)
	if err != nil {
		return nil, 0, err
	}
	b := newComposite(r.leadOf(t))
	b.add(kw+" similar_to_escape(", t.start)
	b.addItems(pat, true)
	if next < j && r.toks[next].is(r.src, "ESCAPE") {
		if next+1 >= j {
			return nil, 0, r.errNear(next + 1) // ESCAPE and no operand
		}
		esc, ee, err := r.similarOperand(next+1, j)
		if err != nil {
			return nil, 0, err
		}
		b.add(", ", r.toks[next].start)
		b.addItems(esc, true)
		next = ee
	}
	b.add(")", r.toks[next-1].end)
	return append(out, b.it), next, nil
}

// similarOperand rewrites SIMILAR TO's pattern or ESCAPE's operand
// starting at token s: PostgreSQL's a_expr there takes the operators
// that bind tighter than SIMILAR and ESCAPE (|| and the other "Op"
// operators, arithmetic, ::), as LIKE's pattern does (pipes.go), so
// 'ab' SIMILAR TO 'a' || '%' matches 'a%'; a primary otherwise.
func (r *rewriter) similarOperand(s, j int) ([]item, int, error) {
	it, e, ok, err := r.patternOperand(s, j, false) // pipes.go
	if err != nil {
		return nil, 0, err
	}
	if ok {
		return []item{it}, e, nil
	}
	pe, err := r.primaryEnd(s, j)
	if err != nil {
		return nil, 0, err
	}
	items, err := r.run(s, pe)
	return items, pe, err
}

// keywordArgsAt reports whether token k is name( with the keyword kw at
// the call's own depth; it returns the closing ")" and kw's index.
func (r *rewriter) keywordArgsAt(k, j int, name, kw string) (closeIdx, kwIdx int, ok bool) {
	if k+2 >= j || !r.toks[k].is(r.src, name) || !r.toks[k+1].isPunct(r.src, "(") {
		return 0, 0, false
	}
	m := r.matchClose(k+1, j)
	if m < 0 {
		return 0, 0, false
	}
	for q := k + 2; q < m; q++ {
		t := r.toks[q]
		if t.isPunct(r.src, "(") || t.isPunct(r.src, "[") {
			if c := r.matchClose(q, m); c > q {
				q = c
			}
			continue
		}
		if t.is(r.src, kw) {
			return m, q, true
		}
	}
	return 0, 0, false
}

// keywordCall rewrites name(a KW1 b KW2 c ..) into name(a, b, c ..): the
// keywords split the arguments (the first at kwIdx, then any of more);
// wrap, when set, wraps the arguments after the first.
func (r *rewriter) keywordCall(k, m, kwIdx int, fn string, more []string, wrap string) (item, error) {
	bounds := []int{k + 1, kwIdx}
	for q := kwIdx + 1; q < m; q++ {
		t := r.toks[q]
		if t.isPunct(r.src, "(") || t.isPunct(r.src, "[") {
			if c := r.matchClose(q, m); c > q {
				q = c
			}
			continue
		}
		for _, w := range more {
			if t.is(r.src, w) {
				bounds = append(bounds, q)
			}
		}
	}
	bounds = append(bounds, m)
	b := newComposite(r.leadOf(r.toks[k]))
	b.add(fn+"(", r.toks[k].start)
	for i := 0; i+1 < len(bounds); i++ {
		from, to := bounds[i]+1, bounds[i+1]
		if from >= to {
			return item{}, r.errNear(to)
		}
		part, err := r.run(from, to)
		if err != nil {
			return item{}, err
		}
		if i > 0 {
			b.add(", ", r.toks[bounds[i]].start)
			if wrap != "" {
				b.add(wrap+"(", r.toks[bounds[i]].start)
			}
		}
		b.addItems(part, true)
		if i > 0 && wrap != "" {
			b.add(", 'text')", r.toks[to-1].end)
		}
	}
	b.add(")", r.toks[m].start)
	return b.it, nil
}

// substringFor rewrites substring(x [FROM n] FOR m) and substring(x FOR m
// FROM n), PostgreSQL's substr_list forms with FOR, which TiDB's grammar
// reads only as FROM n FOR m: substring(x, n, m), n 1 when not given. ok
// false when the call at k has no FOR at its own depth.
func (r *rewriter) substringFor(k, j int) (it item, closeIdx int, ok bool, err error) {
	m, forIdx, found := r.keywordArgsAt(k, j, "SUBSTRING", "FOR")
	if !found {
		return item{}, 0, false, nil
	}
	fromIdx := -1
	for q := k + 2; q < m; q++ {
		t := r.toks[q]
		if t.isPunct(r.src, "(") || t.isPunct(r.src, "[") {
			if c := r.matchClose(q, m); c > q {
				q = c
			}
			continue
		}
		if t.is(r.src, "FROM") {
			fromIdx = q
			break
		}
	}
	xEnd := forIdx
	if fromIdx >= 0 && fromIdx < forIdx {
		xEnd = fromIdx
	}
	part := func(from, to int) ([]item, error) {
		if from >= to {
			return nil, r.errNear(to)
		}
		return r.run(from, to)
	}
	x, err := part(k+2, xEnd)
	if err != nil {
		return item{}, 0, false, err
	}
	var start []item
	var count []item
	switch {
	case fromIdx < 0:
		count, err = part(forIdx+1, m)
	case fromIdx < forIdx:
		if start, err = part(fromIdx+1, forIdx); err == nil {
			count, err = part(forIdx+1, m)
		}
	default: // FOR m FROM n
		if count, err = part(forIdx+1, fromIdx); err == nil {
			start, err = part(fromIdx+1, m)
		}
	}
	if err != nil {
		return item{}, 0, false, err
	}
	b := newComposite(r.leadOf(r.toks[k]))
	b.add("substring(", r.toks[k].start)
	b.addItems(x, true)
	if start == nil {
		b.add(", 1", r.toks[forIdx].start)
	} else {
		b.add(", ", r.toks[fromIdx].start)
		b.addItems(start, true)
	}
	b.add(", ", r.toks[forIdx].start)
	b.addItems(count, true)
	b.add(")", r.toks[m].start)
	return b.it, m, true, nil
}
