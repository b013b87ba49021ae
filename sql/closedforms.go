package sql

// PostgreSQL's rules that end in something other than an expression (the
// postfix x IS [NOT] NULL | TRUE | FALSE | UNKNOWN, x ISNULL, x NOTNULL,
// and x [NOT] IN (..)) leave no operator waiting, so an operator after
// them takes the whole form as its left operand: x IS TRUE + 1 is
// (x IS TRUE) + 1, 1 IN (1) IN (true) is (1 IN (1)) IN (true). TiDB's
// grammar puts IS TRUE below every operator and takes no IN or LIKE after
// an IN, so the rewrite parenthesises such a form when an operator
// follows it (closedForm). IS [NOT] DISTINCT FROM's right operand is an
// expression at IS's level: everything up to the next AND, OR, IS or
// clause word (a IS DISTINCT FROM b = c is a IS DISTINCT FROM (b = c)),
// which isDistinctRight parenthesises for TiDB's <=>, a comparison of its
// own level.

// closedFormWords are the words that continue an expression after an
// operand with an operator binding tighter than IS.
var closedFormWords = [...]string{"LIKE", "ILIKE", "SIMILAR", "BETWEEN", "IN", "AT", "COLLATE"}

// closedForm parenthesises the closed form out ends with when token k
// continues the expression with an operator; out unchanged otherwise.
func (r *rewriter) closedForm(out []item, k, j int) []item {
	n := len(out)
	if n < 2 {
		return out
	}
	// the form out ends with, before a look at token k (which costs more)
	last := out[n-1]
	in := false
	switch {
	case last.composite:
		return out
	case last.tok.kind == tkIdent:
		if !isPostfixIsWord(r.src, last.tok) && !last.tok.is(r.src, "ISNULL") && !last.tok.is(r.src, "NOTNULL") {
			return out
		}
	case r.itemIs(last, ")"):
		in = true
	default:
		return out
	}
	t := r.toks[k]
	switch t.kind {
	case tkOp:
		op := t.text(r.src)
		if in && isComparison(op) { // nonassoc.go
			return out // TiDB takes a comparison after x IN (..)
		}
	case tkIdent:
		switch {
		case r.closedFormOp(t):
		case !in && (t.is(r.src, "IS") || t.is(r.src, "ISNULL") || t.is(r.src, "NOTNULL")):
		case t.is(r.src, "NOT") && k+1 < j && r.closedFormOp(r.toks[k+1]): // NOT LIKE, NOT IN, ...
		default:
			return out
		}
	default:
		return out
	}
	s := -1
	switch {
	case in:
		o := r.matchOpenItem(out, n-1, "(", ")")
		if o < 1 || out[o-1].composite || !out[o-1].tok.is(r.src, "IN") {
			return out
		}
		i := o - 1
		if i > 0 && !out[i-1].composite && out[i-1].tok.is(r.src, "NOT") {
			i--
		}
		s = r.operandStart(out[:i], true)
	case last.tok.is(r.src, "ISNULL") || last.tok.is(r.src, "NOTNULL"):
		s = r.isLevelStart(out[:n-1])
	default:
		i := n - 2
		if i > 0 && !out[i].composite && out[i].tok.is(r.src, "NOT") {
			i--
		}
		if out[i].composite || !out[i].tok.is(r.src, "IS") || isDistinctItem(out[i]) {
			return out
		}
		s = r.isLevelStart(out[:i])
	}
	if s < 0 || s >= n {
		return out
	}
	b := newComposite(out[s].lead)
	b.add("(", out[s].firstOrig())
	b.addItems(out[s:], true)
	b.add(")", r.toks[k-1].end)
	return append(out[:s], b.it)
}

// isDistinctItem reports whether it is the <=> the rewrite made of IS
// [NOT] DISTINCT FROM (its token the IS): a NULL after it is the right
// operand (x IS NOT DISTINCT FROM NULL::int casts the NULL), not IS NULL.
func isDistinctItem(it item) bool {
	return len(it.pieces) == 1 && it.pieces[0].text == "<=>"
}

// closedFormOp reports whether t is a word that continues an expression
// with an operator binding tighter than IS.
func (r *rewriter) closedFormOp(t token) bool {
	for _, w := range closedFormWords {
		if t.is(r.src, w) {
			return true
		}
	}
	return false
}

func isPostfixIsWord(src string, t token) bool {
	return t.is(src, "NULL") || t.is(src, "TRUE") || t.is(src, "FALSE") || t.is(src, "UNKNOWN")
}

// unknownTestAt is the length in tokens of the IS [NOT] UNKNOWN at token
// k (an IS), 0 when it is none.
func (r *rewriter) unknownTestAt(k, j int) int {
	q := k + 1
	if q < j && r.toks[q].is(r.src, "NOT") {
		q++
	}
	if q < j && r.toks[q].is(r.src, "UNKNOWN") {
		return q + 1 - k
	}
	return 0
}

// isDistinctRight is the end of IS [NOT] DISTINCT FROM's right operand
// starting at token k, and whether it holds an operator TiDB's <=> would
// bind looser than (a comparison, LIKE, BETWEEN, IN): then the rewrite
// parenthesises it.
func (r *rewriter) isDistinctRight(k, j int) (end int, wrap bool) {
	between := false
	for e := k; e < j; e++ {
		t := r.toks[e]
		switch t.kind {
		case tkPunct:
			switch t.text(r.src) {
			case "(", "[":
				m := r.matchClose(e, j)
				if m < 0 {
					return e, false
				}
				e = m
			case ")", "]", ",", ";":
				return e, wrap
			}
		case tkOp:
			if comparisonOps[t.text(r.src)] && e > k {
				wrap = true
			}
		case tkIdent:
			w := t.word(r.src)
			switch {
			case w == "AND" && between:
				between = false
			case w == "BETWEEN":
				between, wrap = true, true
			case w == "LIKE" || w == "ILIKE" || w == "SIMILAR" || w == "IN":
				wrap = true
			case w == "NOT" && e+1 < j && r.closedFormOp(r.toks[e+1]):
			case w == "CASE":
				depth := 0
				for ; e < j; e++ {
					if r.toks[e].is(r.src, "CASE") {
						depth++
					} else if r.toks[e].is(r.src, "END") {
						if depth--; depth == 0 {
							break
						}
					}
				}
			case exprBoundaryWords[w] || patternStops[w] || w == "ISNULL" || w == "NOTNULL":
				return e, wrap
			}
		}
	}
	return j, wrap
}

// distinctRight appends IS [NOT] DISTINCT FROM's right operand starting
// at token k, parenthesised when it holds a comparison or a LIKE-level
// operator, and returns the token after it.
func (r *rewriter) distinctRight(out []item, k, j int) ([]item, int, error) {
	e, wrap := r.isDistinctRight(k, j)
	if !wrap || e <= k {
		return out, k, nil
	}
	inner, err := r.run(k, e)
	if err != nil {
		return nil, 0, err
	}
	b := newComposite(r.leadOf(r.toks[k]))
	b.add("(", r.toks[k].start)
	b.addItems(inner, true)
	b.add(")", r.toks[e-1].end)
	return append(out, b.it), e, nil
}

// isLevelStart is where the left operand of an operator of IS's level
// begins: exprStart, but a BETWEEN's own AND is no boundary (x BETWEEN 1
// AND 2 IS NULL is (x BETWEEN 1 AND 2) IS NULL).
func (r *rewriter) isLevelStart(out []item) int {
	s := r.exprStart(out)
	for s > 0 && s < len(out) && !out[s-1].composite {
		switch {
		case out[s-1].tok.is(r.src, "AND"):
			b := r.betweenBefore(out[:s-1])
			if b < 0 {
				return s
			}
			s = r.exprStart(out[:b])
		case out[s-1].tok.is(r.src, "NOT") && !out[s].composite && r.closedFormOp(out[s].tok):
			s = r.exprStart(out[:s-1]) // x NOT LIKE y: the NOT is LIKE's
		default:
			return s
		}
	}
	return s
}

// betweenBefore is the index of the BETWEEN (or NOT BETWEEN) whose AND
// follows out, -1 when the AND is no BETWEEN's: a BETWEEN at the same
// depth before any other boundary word.
func (r *rewriter) betweenBefore(out []item) int {
	for k := len(out) - 1; k >= 0; k-- {
		it := out[k]
		if it.composite {
			continue
		}
		switch {
		case r.itemIs(it, ")"):
			if k = r.matchOpenItem(out, k, "(", ")"); k < 0 {
				return -1
			}
			continue
		case r.itemIs(it, "("), r.itemIs(it, ","):
			return -1
		case it.tok.is(r.src, "BETWEEN"):
			if k > 0 && !out[k-1].composite && out[k-1].tok.is(r.src, "NOT") {
				k--
			}
			return k
		case it.tok.is(r.src, "SYMMETRIC"), it.tok.is(r.src, "ASYMMETRIC"):
			continue
		case it.tok.is(r.src, "END"):
			if k = r.matchCaseItem(out, k); k < 0 {
				return -1
			}
			continue
		case it.tok.kind == tkIdent && exprBoundaryWords[it.tok.word(r.src)]:
			return -1
		}
	}
	return -1
}

// notOperandEnd is the end of a prefix NOT's operand starting at token k:
// NOT binds looser than every operator but AND and OR, so the operand
// reaches to the next AND or OR (a BETWEEN's own AND aside) or clause
// word at its level, or to a select-list label without AS (x = NOT y z):
// a name right after an operand's end continues no expression.
func (r *rewriter) notOperandEnd(k, j int) int {
	between := false
	for e := k; e < j; e++ {
		t := r.toks[e]
		if e > k && r.labelAfterOperand(e) {
			return e
		}
		if t.kind == tkOp && t.text(r.src) == "::" {
			// a type name's words are no label; a name after it is
			if end, _, err := r.typeExtent(e+1, j); err == nil && end > e+1 {
				if end < j && r.isLabelName(r.toks[end]) {
					return end
				}
				e = end - 1
				continue
			}
		}
		switch t.kind {
		case tkPunct:
			switch t.text(r.src) {
			case "(", "[":
				m := r.matchClose(e, j)
				if m < 0 {
					return j
				}
				e = m
			case ")", "]", ",", ";":
				return e
			}
		case tkIdent:
			switch {
			case t.is(r.src, "BETWEEN"):
				between = true
			case t.is(r.src, "AND") && between:
				between = false
			case t.is(r.src, "CASE"):
				depth := 0
				for ; e < j; e++ {
					if r.toks[e].is(r.src, "CASE") {
						depth++
					} else if r.toks[e].is(r.src, "END") {
						if depth--; depth == 0 {
							break
						}
					}
				}
			case t.is(r.src, "IS"):
				// IS [NOT] DISTINCT FROM: its FROM is no clause word
				n := e + 1
				if n < j && r.toks[n].is(r.src, "NOT") {
					n++
				}
				if n+1 < j && r.toks[n].is(r.src, "DISTINCT") && r.toks[n+1].is(r.src, "FROM") {
					e = n + 1
				}
			case t.is(r.src, "NOT"), t.is(r.src, "ISNULL"), t.is(r.src, "NOTNULL"), r.closedFormOp(t),
				t.is(r.src, "ESCAPE"), t.is(r.src, "SIMILAR"):
			case t.is(r.src, "AND"), t.is(r.src, "OR"), patternStops[t.word(r.src)]:
				return e
			}
		}
	}
	return j
}

// labelAfterOperand reports whether token e is a name (a quoted
// identifier, which the names pass makes of a keyword label too, or a
// word that is no PostgreSQL keyword) right after a token that ends an
// operand (a literal, a name, a closing bracket, TRUE, FALSE, NULL or
// UNKNOWN): PostgreSQL's grammar has no expression of two such in a row,
// so the name is a label.
func (r *rewriter) labelAfterOperand(e int) bool {
	p := r.toks[e-1]
	if !r.isLabelName(r.toks[e]) {
		return false
	}
	switch p.kind {
	case tkString, tkEString, tkDollar, tkNumber, tkParam, tkQIdent:
		return true
	case tkPunct:
		return p.isPunct(r.src, ")") || p.isPunct(r.src, "]")
	case tkIdent:
		return p.synth == "" && (nameWords[p.word(r.src)].flags&wfPG == 0 || isPostfixIsWord(r.src, p))
	}
	return false
}

// isLabelName reports whether t is a quoted identifier or a word that is
// no PostgreSQL keyword.
func (r *rewriter) isLabelName(t token) bool {
	return t.kind == tkQIdent || t.kind == tkIdent && t.synth == "" && nameWords[t.word(r.src)].flags&wfPG == 0
}

// afterOperator reports whether out's last item, before a NOT, is a
// binary operator whose right operand the NOT starts: an operator token
// (not a parenthesis or comma), LIKE, ILIKE or a BETWEEN's AND.
func (r *rewriter) afterOperator(out []item) bool {
	it := out[len(out)-1]
	if it.composite { // the rewrite's || is a composite of its own
		return isPipesItem(it) // oplevel.go
	}
	if it.tok.is(r.src, "AND") {
		return r.betweenBefore(out[:len(out)-1]) >= 0
	}
	switch it.tok.kind {
	case tkOp:
		return true
	case tkIdent:
		// (an IS [NOT] DISTINCT FROM is the rewrite's <=>, its item the IS;
		// BETWEEN's AND takes an expression, a prefix NOT too)
		return it.tok.is(r.src, "LIKE") || it.tok.is(r.src, "ILIKE") ||
			it.tok.is(r.src, "IS") && isDistinctItem(it)
	}
	return false
}

// cmpOperandStart is where the left operand of a comparison's op ANY
// (array) begins: operandStart's, carried back over the forms of LIKE's
// level, which bind tighter than a comparison (1 LIKE 'b%' = ANY (..) is
// (1 LIKE 'b%') = ANY (..)).
func (r *rewriter) cmpOperandStart(left []item) int {
	s := r.operandStart(left, true)
	for s > 0 && s <= len(left) && !left[s-1].composite {
		p := left[s-1].tok
		switch {
		case r.closedFormOp(p) && !p.is(r.src, "AT") && !p.is(r.src, "COLLATE"):
			s = r.operandStart(left[:s-1], true)
			if s > 0 && !left[s-1].composite && left[s-1].tok.is(r.src, "NOT") {
				s = r.operandStart(left[:s-1], true)
			}
		case p.is(r.src, "AND"):
			b := r.betweenBefore(left[:s-1])
			if b < 0 {
				return s
			}
			s = r.operandStart(left[:b], true)
		default:
			return s
		}
	}
	return s
}
