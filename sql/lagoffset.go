package sql

// lag(x, offset [, default]) and lead(...) with an offset that is not a
// plain number (NULL, -1, 1 + 1, a column, a subquery): TiDB's grammar
// takes only a number literal or a parameter there, PostgreSQL any
// integer expression evaluated per row. The call reaches TiDB as
//
//	lag(pg__lag_offset(x, offset), 1 [, default])
//
// and the binder (binder/window.go) reads the offset back.

// LagOffsetMarker is the marker call holding lag/lead's value and offset.
const LagOffsetMarker = "pg__lag_offset"

// lagOffsetAt reports whether token k starts lag( or lead( with an offset
// TiDB cannot parse; it returns the closing ")" and the top-level commas.
func (r *rewriter) lagOffsetAt(k, j int) (m int, commas []int, ok bool) {
	if (!r.toks[k].is(r.src, "LAG") && !r.toks[k].is(r.src, "LEAD")) || k+1 >= j || !r.toks[k+1].isPunct(r.src, "(") {
		return 0, nil, false
	}
	if m = r.matchClose(k+1, j); m < 0 {
		return 0, nil, false
	}
	for q := k + 2; q < m; q++ {
		t := r.toks[q]
		if t.isPunct(r.src, "(") || t.isPunct(r.src, "[") {
			if c := r.matchClose(q, m); c > q {
				q = c
			}
			continue
		}
		if t.isPunct(r.src, ",") {
			commas = append(commas, q)
		}
	}
	if len(commas) == 0 || len(commas) > 2 {
		return 0, nil, false
	}
	end := m
	if len(commas) == 2 {
		end = commas[1]
	}
	if end == commas[0]+2 && (r.toks[commas[0]+1].kind == tkNumber || r.toks[commas[0]+1].isPunct(r.src, "?")) {
		return 0, nil, false // TiDB's own syntax
	}
	return m, commas, true
}

// lagOffset rewrites the call at k (lagOffsetAt said yes).
func (r *rewriter) lagOffset(k, m int, commas []int) (item, error) {
	bounds := append(append([]int{k + 1}, commas...), m)
	parts := make([][]item, len(bounds)-1)
	for i := range parts {
		from, to := bounds[i]+1, bounds[i+1]
		if from >= to {
			return item{}, r.errNear(to)
		}
		p, err := r.run(from, to)
		if err != nil {
			return item{}, err
		}
		parts[i] = p
	}
	t := r.toks[k]
	b := newComposite(r.leadOf(t))
	b.add(t.text(r.src)+"("+LagOffsetMarker+"(", t.start)
	b.addItems(parts[0], true)
	b.add(", ", r.toks[commas[0]].start)
	b.addItems(parts[1], true)
	b.add("), 1", r.toks[bounds[2]].start)
	if len(parts) == 3 {
		b.add(", ", r.toks[commas[1]].start)
		b.addItems(parts[2], true)
	}
	b.add(")", r.toks[m].start)
	return b.it, nil
}
