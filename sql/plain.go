package sql

import "unsafe"

// The plain shortcut: most statements clients send are SELECTs in which the
// rewrite changes nothing but the case of bare words (and quotes a label
// after AS). For those, plainRewrite produces the rewrite's exact output —
// Rewritten, an offset map equivalent under mapOffset, no parameters — in
// one pass over the tokens and at most two allocations, instead of running
// the general rewriter (items, pieces, segments: ~40% of Parse).
//
// It is a whitelist: any token, word or shape the rewriter might act on
// (casts, $n, E'' and dollar strings, comments, PostgreSQL operators,
// brackets, subqueries, functions in FROM, typed literals, OFFSET without a
// LIMIT before it, ...) makes it decline, and the general rewrite runs.
// plain_test.go checks it against the general rewrite over the
// sqllogictest corpus, and FuzzPlainRewrite on random input.

// plainReject reports whether w (upper case) is a word the rewriter (or a
// statement-level rewrite before it) may act on: any of them sends the
// statement to the general rewrite. A switch, not a map: it runs for every
// word of every plain statement, and compares a few lengths and bytes
// instead of hashing.
func plainReject(w string) bool {
	switch w {
	case "CAST", "ARRAY", "ANY", "SOME", "ALL", "NULLS",
		"FILTER", "ROW", "MAP", "FULL", "NATURAL", "EXTRACT",
		"POSITION", "AT", "COLLATE", "OPERATOR", "SYMMETRIC",
		"VALUES", "WITH", "SELECT", "TABLE", "WITHIN", "OVER",
		"UNION", "INTERSECT", "EXCEPT", "LATERAL", "USING",
		"DATE", "TIME", "TIMESTAMP", "TIMESTAMPTZ", "INTERVAL",
		"CARDINALITY", "FETCH", "FOR", "INTO", "WINDOW",
		"RETURNING", "DISTINCT", "IS", "ORDER", "OFFSET",
		"AS", "FROM", "LIMIT", "ASYMMETRIC", "ISNULL", "NOTNULL", "STDDEV", "VARIANCE", "DIV",
		"ROLLUP", "CUBE", "GROUPING", "SIMILAR", "PLACING", "NORMALIZE", "OVERLAPS",
		"TRIM",          // trim.go rewrites the forms TiDB does not read
		"VARIADIC",      // variadic.go marks a call's VARIADIC argument
		"LIKE", "ILIKE": // pipes.go parenthesises a pattern with operators
		return true
	}
	return false
}

// plainOps are the operators the rewriter copies as they are.
func plainOp(op string) bool {
	switch op {
	case "=", "<", ">", "<=", ">=", "<>", "!=", "+", "-", "*", "/", "%": // not ||: its precedence is rewritten
		return true
	}
	return false
}

// plainClause words end FROM's list at the top level.
func plainClause(w string) bool {
	switch w {
	case "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET":
		return true
	}
	return false
}

// plainRewrite is the rewrite of toks (one statement of src) when it is
// plain; ok false otherwise. seg is storage for a one-segment offset map;
// edits, when not nil, is scratch kept for the next call; names, when not
// nil, keeps the names' scan for the general rewrite (namesMemo).
func plainRewrite(src string, toks []token, seg *[1]segment, edits *[]int32, names *namesMemo) (text string, segs []segment, ok bool) {
	if len(toks) > 1 && toks[0].is(src, "INSERT") {
		return plainInsert(src, toks, seg, edits) // insertfast.go
	}
	if len(toks) <= 1 || !toks[0].is(src, "SELECT") || emptyListEnd[toks[1].word(src)] { // SELECT [FROM]: an empty select list
		return "", nil, false
	}
	depth := 0
	var inLists uint64  // the depths whose "(" opened an IN list
	sawBetween := false // a NOT after an AND may start BETWEEN's upper bound
	inFrom := false
	limitSeen := false
	// ed lists the words plainText changes: k<<1 | 1 for a label (a word
	// right after the word AS, which it quotes), k<<1 for an upper-case
	// word (which it lower-cases).
	var ed []int32
	if edits != nil {
		ed = (*edits)[:0]
		defer func() { *edits = ed }() // the edits stay readable: the fast path reads the labels (fasttoks.go)
	}
	if hasUpperASCII(src[toks[0].start:toks[0].end]) {
		ed = append(ed, 0)
	}
	prevAS := false        // the previous token is the word AS
	var buf, lbuf [24]byte // a word and an AS label, upper-cased
	for k := 1; k < len(toks); k++ {
		t := &toks[k]
		if t.hasComment || t.synth != "" {
			return "", nil, false
		}
		wasAS := prevAS
		prevAS = false
		s := src[t.start:t.end]
		switch t.kind {
		case tkQIdent:
		case tkString:
			if s[0] != '\'' {
				return "", nil, false
			}
			if p := toks[k-1]; p.kind == tkIdent && (literalTypeWord(p.word(src)) || p.is(src, "PRECISION") || p.is(src, "VARYING")) || p.isPunct(src, ")") || p.kind == tkQIdent {
				return "", nil, false // a typed literal: int4 '1', NUMERIC(4,1) '2', "int4" '1', pg_catalog."int4" '1'
			}
		case tkNumber:
			if len(s) > maxNumberLiteral || beyondDouble(s) {
				return "", nil, false
			}
		case tkOp:
			if !plainOp(s) {
				return "", nil, false
			}
			if s == ">" && k+1 < len(toks) && toks[k+1].start == t.end && toks[k+1].isPunct(src, ">") {
				return "", nil, false // >> is one operator, maybe a prefix one (operators.go)
			}
		case tkPunct:
			switch s {
			case "(":
				if inFrom || t.lead < t.start && tidbBuiltinTokens[toks[k-1].word(src)] {
					return "", nil, false // f (x): the rewrite glues the call's "(" to its name
				}
				if k >= 2 && toks[k-2].isPunct(src, ".") {
					return "", nil, false // schema.f(..): qualifiedcall.go reads its forms
				}
				if k+1 < len(toks) && (toks[k+1].isPunct(src, ")") || toks[k+1].isPunct(src, "*")) {
					if _, ok := (&rewriter{src: src, toks: toks}).emptyCallAt(nil, toks[k-1].word(src), k-1, len(toks)); ok {
						return "", nil, false // count(), lower(*): emptycall.go
					}
				}
				if k+1 < len(toks) && toks[k+1].isPunct(src, ")") && k > 0 && (toks[k-1].kind != tkIdent || toks[k-1].is(src, "BY")) {
					return "", nil, false // GROUP BY (): groupingsets.go
				}
				if _, ok := lookupWord(src, toks[k-1], tidbOneArgAggregates); ok && k >= 2 && callContext(src, toks[k-2]) {
					if m := matchParen(src, toks, k); m > 0 && topComma(src, toks, k+1, m) >= 0 {
						return "", nil, false // sum(x, 6): aggorder.go's multiArgAggregateAt
					}
				}
				depth++
				if depth < 64 && toks[k-1].is(src, "IN") {
					inLists |= 1 << depth
				}
			case ")":
				if depth < 64 && inLists&(1<<depth) != 0 {
					inLists &^= 1 << depth
					if plainContinues(src, toks, k+1, true) {
						return "", nil, false // 1 IN (1) IN (true): closedforms.go
					}
				}
				depth--
				if depth < 0 {
					return "", nil, false
				}
			case ",":
			case ".":
				// a qualified name: a word before it (not ")": field
				// selection), a word, quoted name or * after it
				p := toks[k-1]
				if p.kind != tkIdent && p.kind != tkQIdent || k+1 >= len(toks) {
					return "", nil, false
				}
				if n := toks[k+1]; n.kind != tkIdent && n.kind != tkQIdent && !(n.kind == tkOp && src[n.start:n.end] == "*") {
					return "", nil, false
				}
				if n := toks[k+1]; n.kind == tkOp && src[n.start:n.end] == "*" && (k >= 2 && toks[k-2].isPunct(src, "(") || k+2 < len(toks) && toks[k+2].isPunct(src, ")")) {
					return "", nil, false // f(t.*): the rewrite's whole-row argument (rewrite.go)
				}
			default:
				return "", nil, false
			}
		case tkIdent:
			w, isUpper, plainWord := plainUpper(s, &buf)
			if !plainWord {
				return "", nil, false
			}
			if wasAS {
				ed = append(ed, int32(k)<<1|1)
			} else if isUpper {
				ed = append(ed, int32(k)<<1)
			}
			prevAS = w == "AS"
			sawBetween = sawBetween || w == "BETWEEN"
			if w == "NOT" && (toks[k-1].kind == tkOp || sawBetween && toks[k-1].is(src, "AND")) {
				return "", nil, false // x = NOT y: parenthesised (closedforms.go)
			}
			if plainReject(w) {
				switch w {
				case "FROM":
					if depth != 0 || inFrom {
						return "", nil, false
					}
					inFrom = true
				case "AS":
					if k+1 >= len(toks) {
						return "", nil, false
					}
					if n := toks[k+1]; n.kind == tkIdent {
						if n.hasComment {
							return "", nil, false // the loop does not see the label
						}
						lb, _, ok := plainUpper(src[n.start:n.end], &lbuf)
						// a label that is the word AS (AS as ...) makes
						// the general rewrite's label rules depend on the
						// next word: left to it
						if !ok || asFollowers[lb] || lb == "AS" || k+2 < len(toks) && toks[k+2].isPunct(src, "(") {
							return "", nil, false
						}
						ed = append(ed, int32(k+1)<<1|1)
						k++ // the label is a name, whatever word it is
						prevAS = lb == "AS"
					}
				case "LIMIT":
					if depth != 0 || !plainLimitValue(src, toks, k) {
						return "", nil, false
					}
					limitSeen = true
				case "OFFSET":
					if depth != 0 || !limitSeen || !plainLimitValue(src, toks, k) {
						return "", nil, false
					}
				case "ORDER":
					if depth != 0 {
						return "", nil, false
					}
				case "DISTINCT":
					if k+1 < len(toks) && toks[k+1].is(src, "ON") {
						return "", nil, false
					}
					if toks[k-1].isPunct(src, "(") && k >= 2 && !tidbDistinctAggregates[toks[k-2].word(src)] {
						return "", nil, false // agg(DISTINCT ..) through group_concat (aggorder.go)
					}
					if toks[k-1].is(src, "BY") {
						return "", nil, false // GROUP BY DISTINCT (groupingsets.go)
					}
				case "IS":
					if k+1 < len(toks) && toks[k+1].is(src, "DISTINCT") ||
						k+2 < len(toks) && toks[k+1].is(src, "NOT") && toks[k+2].is(src, "DISTINCT") {
						return "", nil, false
					}
					if r := (&rewriter{src: src, toks: toks}); r.normalizedAt(k, len(toks)) > 0 || r.unknownTestAt(k, len(toks)) > 0 {
						return "", nil, false // IS [NOT] [form] NORMALIZED, IS [NOT] UNKNOWN
					}
					n := k + 2
					if k+1 < len(toks) && toks[k+1].is(src, "NOT") {
						n++
					}
					if plainContinues(src, toks, n, false) {
						return "", nil, false // x IS TRUE + 1: closedforms.go
					}
				default:
					return "", nil, false
				}
			}
			if inFrom && depth == 0 && plainClause(w) {
				inFrom = false
			}
		default:
			return "", nil, false
		}
	}
	if depth != 0 {
		return "", nil, false
	}
	if quoted, err := names.scan(src, toks); err != nil || quoted {
		return "", nil, false // a keyword as a name: quoted, or an error (names.go)
	}
	if len(ed) == 0 {
		first, last := toks[0], toks[len(toks)-1]
		seg[0] = segment{rw: 0, orig: first.start, n: last.end - first.start, verbatim: true}
		return src[first.start:last.end], seg[:], true
	}
	return plainText(src, toks, ed, seg)
}

// plainContinues reports whether token k continues the expression before
// it with an operator TiDB does not take after a closed form (x IS TRUE,
// x IN (..), which the general rewrite parenthesises): any operator, or
// after an IN list any but a comparison, or one of the words of LIKE's
// level.
func plainContinues(src string, toks []token, k int, in bool) bool {
	if k >= len(toks) {
		return false
	}
	t := toks[k]
	if t.kind == tkOp {
		return !in || !isComparison(src[t.start:t.end])
	}
	return t.is(src, "IN") || t.is(src, "BETWEEN") || t.is(src, "NOT") || t.is(src, "IS") || t.is(src, "AT")
}

// plainUpper writes the ASCII word s upper-cased into buf and returns it
// as a string that shares buf's bytes (so it is valid until buf is next
// written: no copy, no allocation; "" when s is longer than buf, i.e.
// longer than every word the shortcut looks for), whether s held an
// upper-case letter, and false for a non-ASCII word (the rewriter's Unicode
// case rules are left to it).
func plainUpper(s string, buf *[24]byte) (string, bool, bool) {
	up := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return "", false, false
		}
		if c >= 'A' && c <= 'Z' {
			up = true
		} else if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		if i < len(buf) {
			buf[i] = c
		}
	}
	if len(s) > len(buf) {
		return "", up, true
	}
	return unsafe.String(&buf[0], len(s)), up, true
}

// plainText writes plainRewrite's output for a plain statement with
// upper-case words or labels (edits, see plainRewrite): bare words folded
// to lower case (strings and quoted names kept), each label after AS in
// '"', and an offset map whose quoted labels map to the label's start, as
// the general rewrite's do. It appends to one byte slice sized up front,
// which becomes the string without a copy (as strings.Builder does, without
// its per-call checks).
func plainText(src string, toks []token, edits []int32, seg *[1]segment) (string, []segment, bool) {
	labels := 0
	for _, e := range edits {
		labels += int(e & 1)
	}
	first, last := &toks[0], &toks[len(toks)-1]
	b := make([]byte, 0, last.end-first.start+2*labels)
	var segs []segment
	if labels == 0 {
		segs = seg[:0]
	} else {
		segs = make([]segment, 0, 2*labels+1)
	}
	runRW, runOrig := 0, first.start // the verbatim run being written
	from := first.start              // the source not yet written
	for _, e := range edits {
		t := &toks[e>>1]
		word := src[t.start:t.end]
		label := e&1 != 0
		b = append(b, src[from:t.start]...)
		if label {
			if n := len(b) - runRW; n > 0 {
				segs = append(segs, segment{rw: runRW, orig: runOrig, n: n, verbatim: true})
			}
			segs = append(segs, segment{rw: len(b), orig: t.start, n: t.end - t.start + 2})
			b = append(b, '"')
		}
		b = appendLowerASCII(b, word)
		if label {
			b = append(b, '"')
			runRW, runOrig = len(b), t.end
		}
		from = t.end
	}
	b = append(b, src[from:last.end]...)
	if n := len(b) - runRW; n > 0 {
		segs = append(segs, segment{rw: runRW, orig: runOrig, n: n, verbatim: true})
	}
	// b is never written again: the string may share its bytes.
	return unsafe.String(unsafe.SliceData(b), len(b)), segs, true
}

// appendLowerASCII appends w with its ASCII letters lower-cased.
func appendLowerASCII(b []byte, w string) []byte {
	n := len(b)
	b = append(b, w...)
	for i := n; i < len(b); i++ {
		if c := b[i]; c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return b
}

// plainLimitValue reports whether the LIMIT or OFFSET at k takes an
// unsigned integer followed by the statement's end or OFFSET: the form
// TiDB reads as PostgreSQL does (limit.go rewrites any other).
func plainLimitValue(src string, toks []token, k int) bool {
	if k+1 >= len(toks) || toks[k+1].kind != tkNumber {
		return false
	}
	for _, c := range toks[k+1].text(src) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return k+2 == len(toks) || toks[k+2].is(src, "OFFSET") && toks[k].is(src, "LIMIT")
}
