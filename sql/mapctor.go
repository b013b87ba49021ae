package sql

// Flink SQL's map constructor: MAP['k1', v1, 'k2', v2, ...] (and MAP[] for
// an empty map) -> pg__map('k1', v1, 'k2', v2, ...). TiDB's grammar has no
// bracketed constructor, and PostgreSQL none for maps, so the binder reads
// the marker call (binder/mapvalues.go): pairs of arguments, keys and
// values typed like ARRAY[] elements.

// isMapConstructor reports whether toks[k] is the word MAP opening a map
// constructor: followed by '[' and not a qualified name's last part
// (t.map[...] subscripts a column named map).
func (r *rewriter) isMapConstructor(out []item, k, j int) bool {
	if k+1 >= j || !r.toks[k].is(r.src, "MAP") || !r.toks[k+1].isPunct(r.src, "[") {
		return false
	}
	return len(out) == 0 || !r.itemIs(out[len(out)-1], ".")
}

// mapConstructor rewrites MAP[...] starting at toks[k]; it returns the
// marker item and the index after the closing bracket.
func (r *rewriter) mapConstructor(k, j int) (item, int, error) {
	t := r.toks[k]
	m := r.matchClose(k+1, j)
	if m < 0 {
		return item{}, 0, r.errNear(j)
	}
	// a '[' inside the map's arguments is a subscript, not a sub-array of
	// an enclosing ARRAY[...]
	depth := r.arrayDepth
	r.arrayDepth = 0
	inner, err := r.run(k+2, m)
	r.arrayDepth = depth
	if err != nil {
		return item{}, 0, err
	}
	b := newComposite(r.leadOf(t))
	b.add("pg__map(", t.start)
	b.addItems(inner, true)
	b.add(")", r.toks[m].start)
	return b.it, m + 1, nil
}

// isRowConstructor reports whether toks[k] is the word ROW opening a row
// constructor ROW(...). TiDB's grammar reads ROW(a, b) but not ROW(a), so
// every ROW( becomes pg__row( (binder/rows.go), not after a '.' (a
// qualified function named row).
func (r *rewriter) isRowConstructor(out []item, k, j int) bool {
	if k+1 >= j || !r.toks[k].is(r.src, "ROW") || !r.toks[k+1].isPunct(r.src, "(") {
		return false
	}
	return len(out) == 0 || !r.itemIs(out[len(out)-1], ".")
}

// rowConstructor renames the word ROW to pg__row; the parenthesised
// arguments that follow are rewritten as any call's.
func (r *rewriter) rowConstructor(k int) item {
	t := r.toks[k]
	return item{tok: t, lead: r.leadOf(t), pieces: []piece{{text: "pg__row", orig: t.start}}}
}
