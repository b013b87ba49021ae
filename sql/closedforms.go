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
		if in && (op == "=" || op == "<" || op == ">" || op == "<=" || op == ">=" || op == "<>" || op == "!=") {
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
		s = r.exprStart(out[:n-1])
	default:
		i := n - 2
		if i > 0 && !out[i].composite && out[i].tok.is(r.src, "NOT") {
			i--
		}
		if out[i].composite || !out[i].tok.is(r.src, "IS") {
			return out
		}
		s = r.exprStart(out[:i])
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
