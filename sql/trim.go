package sql

// rewriteTrim turns PostgreSQL's trim(..) into the call its grammar makes
// of it (gram.y's trim_list): btrim, ltrim or rtrim of the list after
// FROM, then the characters written before it, as the rewrite's marker
// pg__btrim, pg__ltrim or pg__rtrim (totree.go reads one or two arguments
// as the tree's Trim, which names the function pg_catalog's in errors).
// TiDB's grammar (MySQL's TRIM([{BOTH | LEADING | TRAILING} [chars] FROM]
// s)) reads no list, no FROM without characters or a direction, no
// direction without FROM, and gives trim(dir FROM s) a ' ' argument
// PostgreSQL's call does not have.
//
//	trim(from s)               -> pg__btrim(s)
//	trim(leading s)            -> pg__ltrim(s)
//	trim(both 'x' from s)      -> pg__btrim(s, 'x')
//	trim(both from s, 'x')     -> pg__btrim(s, 'x')
//	trim('y' from s, 'x')      -> pg__btrim(s, 'x', 'y')
//
// The call is named where TRIM was, where PostgreSQL points an error
// about it. A direction or FROM with nothing after it is dropped, leaving
// trim() for TiDB's syntax error at the ')'.
func rewriteTrim(src string, toks []token) []token {
	var out []token
	for i := 0; i < len(toks); i++ {
		if !toks[i].is(src, "TRIM") || i+1 >= len(toks) || !toks[i+1].isPunct(src, "(") || i > 0 && toks[i-1].isPunct(src, ".") {
			if out != nil {
				out = append(out, toks[i])
			}
			continue
		}
		call, next := trimCall(src, toks, i)
		if call == nil {
			if out != nil {
				out = append(out, toks[i])
			}
			continue
		}
		if out == nil {
			out = append(make([]token, 0, len(toks)+2), toks[:i]...)
		}
		out = append(out, call...)
		i = next - 1
	}
	if out == nil {
		return toks
	}
	return out
}

// trimCall is the marker call of the trim(..) whose TRIM is token k, and
// the index after its ')'; nil when it has no list (or the parentheses do
// not close): the grammar's syntax error.
func trimCall(src string, toks []token, k int) ([]token, int) {
	open := k + 1
	name := "pg__btrim"
	first := open + 1
	if first < len(toks) {
		switch {
		case toks[first].is(src, "LEADING"):
			name, first = "pg__ltrim", first+1
		case toks[first].is(src, "TRAILING"):
			name, first = "pg__rtrim", first+1
		case toks[first].is(src, "BOTH"):
			first++
		}
	}
	from, closeAt := -1, -1
	depth := 0
	for q := open; q < len(toks) && closeAt < 0; q++ {
		switch t := toks[q]; {
		case t.isPunct(src, "(") || t.isPunct(src, "["):
			depth++
		case t.isPunct(src, ")") || t.isPunct(src, "]"):
			if depth--; depth == 0 {
				closeAt = q
			}
		case depth == 1 && from < 0 && t.is(src, "FROM") && !toks[q-1].is(src, "DISTINCT"):
			from = q
		}
	}
	if closeAt < 0 {
		return nil, 0 // unclosed: the grammar's error
	}
	chars, list := toks[first:first], toks[first:closeAt]
	if from >= 0 {
		chars, list = toks[first:from], toks[from+1:closeAt]
	}
	if len(list) == 0 {
		// trim(), trim(both), trim(leading from): PostgreSQL's syntax
		// error is at the ')', which TiDB's is for trim()
		return []token{toks[k], toks[open], toks[closeAt]}, closeAt + 1
	}
	t := toks[k]
	out := []token{{kind: tkIdent, start: t.start, end: t.start, lead: t.lead, synth: name}, toks[open]}
	out = append(out, list...)
	if len(chars) > 0 {
		at := toks[closeAt].start
		out = append(out, token{kind: tkPunct, start: at, end: at, lead: at, synth: ","})
		out = append(out, chars...)
	}
	return append(out, toks[closeAt]), closeAt + 1
}
