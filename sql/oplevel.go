package sql

import "strings"

// PostgreSQL's "other" operators (every operator but + - * / % ^, the
// comparisons and ::: || & | # << >> ~ !~ -> ->> @> ? && ...) share one
// precedence level, left-associative, below + - and above the
// comparisons (gram.y: %left Op OPERATOR): a || b & c is (a || b) & c,
// 9 & 7 + 8 # 9 is (9 & (7 + 8)) # 9. TiDB's MySQL grammar spreads the
// ones it knows over levels of their own (<< >> above &, & above |, ~ as
// REGEXP at comparison level), and the rewrite makes the others calls
// on the primary before them. So at each such operator the rewrite
// parenthesises its left operand, everything back to the nearest
// operator of a lower level, when an operator stands in it
// (opLevelLeft): every operator of the level then reads its left operand
// as PostgreSQL does, whatever TiDB's level for it.

// isOpLevel reports whether the operator token at k is of PostgreSQL's
// "other" level: >> is two > tokens written together.
func (r *rewriter) isOpLevel(k int) bool {
	t := r.toks[k]
	if t.kind != tkOp {
		return false
	}
	switch text := t.text(r.src); text {
	case "+", "-", "*", "/", "%", "^", "::", "=", "<", "<=", ">=", "<>", "!=", "=>", ":=", "`":
		return false
	case ">":
		return k+1 < len(r.toks) && r.toks[k+1].kind == tkOp && r.toks[k+1].start == t.end && r.toks[k+1].text(r.src) == ">"
	}
	return true
}

// opItemKind reads an output item for opLevelStart: 0 an operand or an
// operator binding tighter than the level, 1 an operator of the level,
// -1 where the left operand ends.
func (r *rewriter) opItemKind(out []item, k int) int {
	it := out[k]
	if it.composite {
		if isPipesItem(it) {
			return 1
		}
		return 0
	}
	t := it.tok
	switch t.kind {
	case tkOp:
		switch text := t.text(r.src); text {
		case "+", "-", "*", "/", "%", "^", "::":
			return 0
		case "=", "<", "<=", ">=", "<>", "!=", "=>", ":=":
			return -1
		case ">":
			adj := func(i int) bool {
				return i >= 0 && i < len(out) && !out[i].composite && out[i].tok.kind == tkOp && out[i].tok.text(r.src) == ">" &&
					(out[i].tok.end == t.start || t.end == out[i].tok.start)
			}
			if adj(k-1) || adj(k+1) {
				return 1
			}
			return -1
		}
		return 1
	case tkIdent:
		switch {
		case t.is(r.src, "END"), t.is(r.src, "AT"), t.is(r.src, "TIME"), t.is(r.src, "ZONE"), t.is(r.src, "COLLATE"):
			return 0
		}
		var buf [24]byte
		b, ok := r.upperInto(t, &buf)
		if !ok {
			return 0
		}
		if exprBoundaryWords[string(b)] || nonOperandWords[string(b)] || patternStops[string(b)] {
			return -1
		}
	case tkPunct:
		if t.text(r.src) == "." {
			return 0 // a qualified name's
		}
		return -1 // ( , ; [ (a ")" is skipped by the caller)
	}
	return 0
}

// opLevelLeft parenthesises the left operand of the level's operator at
// token k (out ends with the operand) when an operator stands in it, and
// returns where in out the operand starts.
//
// regexpOnly: the operator at op is of LIKE's level, which TiDB's grammar
// takes after any operand but a REGEXP (~ rewritten): only a ~ in the
// operand makes it parenthesised.
func (r *rewriter) opLevelLeft(out []item, op int, regexpOnly bool) ([]item, int) {
	n := len(out)
	s, ops := n, false
	// || and | are TiDB's | level already, left-associative: a left
	// operand with only those in it needs no parentheses
	pipeLevel := r.toks[op].text(r.src) == "||" || r.toks[op].text(r.src) == "|" || regexpOnly
	for k := n - 1; k >= 0; k-- {
		if r.itemIs(out[k], ")") {
			o := r.matchOpenItem(out, k, "(", ")")
			if o < 0 {
				break
			}
			k = o
			// a call's name, or the VALUES (c) ON CONFLICT's EXCLUDED.c is
			if k > 0 && (r.isCallName(out[k-1]) || !out[k-1].composite && strings.EqualFold(out[k-1].tok.text(r.src), "VALUES")) {
				k--
			}
			s = k
			continue
		}
		if !out[k].composite && out[k].tok.is(r.src, "END") {
			c := r.matchCaseItem(out, k)
			if c < 0 {
				break
			}
			k, s = c, c
			continue
		}
		if pipeLevel && out[k].opBack > 0 && r.isPipeLevel(out[k]) {
			// the left operand of an earlier || or | of a chain was
			// scanned when it was met: it holds no operator but the
			// chain's (any other made it one parenthesised item), and its
			// start is this operand's too. Reading it keeps a chain of n
			// linear rather than quadratic.
			s = max(k-out[k].opBack, 0)
			break
		}
		kind := r.opItemKind(out, k)
		if kind < 0 {
			break
		}
		if (kind == 1 || !out[k].composite && out[k].tok.kind == tkOp) && !(pipeLevel && r.isPipeLevel(out[k])) &&
			!(regexpOnly && (out[k].composite || out[k].tok.text(r.src)[0] != '~' && out[k].tok.text(r.src)[0] != '!')) {
			ops = true
		}
		s = k
	}
	if !ops || s >= n-1 {
		return out, s
	}
	b := newComposite(out[s].lead)
	b.add("(", out[s].firstOrig())
	b.addItems(out[s:], true)
	b.add(")", r.toks[op-1].end)
	return append(out[:s], b.it), s
}

// isPipeLevel reports whether it is the rewrite's || or a |.
func (r *rewriter) isPipeLevel(it item) bool {
	if it.composite {
		return isPipesItem(it)
	}
	return it.tok.kind == tkOp && it.tok.text(r.src) == "|"
}

// isPipesItem reports whether the composite it is the rewrite's || (a |
// around the pipes marker, rewrite.go).
func isPipesItem(it item) bool {
	return len(it.parts) == 1 && len(it.parts[0].pieces) == 1 && it.parts[0].pieces[0].text == "| "+PipesMarker+"() |"
}

// likeLevelAt reports whether token k starts an operator of LIKE's level
// (LIKE, ILIKE, SIMILAR, BETWEEN, IN, or NOT before one of them).
func (r *rewriter) likeLevelAt(k, j int) bool {
	t := r.toks[k]
	if t.is(r.src, "NOT") && k+1 < j {
		t = r.toks[k+1]
	}
	return t.is(r.src, "LIKE") || t.is(r.src, "ILIKE") || t.is(r.src, "SIMILAR") || t.is(r.src, "BETWEEN") || t.is(r.src, "IN")
}

// upperInto is the bare word t upper-cased in buf, without allocating
// (the maps' lookups of string(b) do not either); ok false for a word
// longer than buf or a synthetic one.
func (r *rewriter) upperInto(t token, buf *[24]byte) (b []byte, ok bool) {
	return upperWordInto(r.src, t, buf)
}

// upperWordInto is upperInto over src.
func upperWordInto(src string, t token, buf *[24]byte) (b []byte, ok bool) {
	if t.synth != "" || t.end-t.start > len(buf) {
		return nil, false
	}
	b = buf[:t.end-t.start]
	for i := range b {
		c := src[t.start+i]
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		b[i] = c
	}
	return b, true
}
