package tsearch

import (
	"math"
	"slices"
)

// ternary is TSTernaryValue: a match, none, or maybe (a stripped
// lexeme's missing positions).
type ternary uint8

const (
	tsNo ternary = iota
	tsYes
	tsMaybe
)

// phraseData is ExecPhraseData: where a phrase part matches (its last
// positions), its width, and whether the positions are those it does
// not match.
type phraseData struct {
	pos    []int
	width  int
	negate bool
}

// Match is v @@ q (ts_match_vq): the empty query matches nothing, the
// empty tsvector what only NOT asks for.
func Match(v Vector, q Query) bool {
	if q.Root == nil {
		return false
	}
	return executor{check: v.checkOperand}.execute(q.Root) != tsNo
}

// executor is TS_execute over some source of operands: a tsvector (@@),
// the lexemes of a cover (ts_rank_cd) or of a headline's words. check
// is the chkcond callback; skipNot is TS_EXEC_SKIP_NOT (a NOT is true).
type executor struct {
	check   func(n *Node, data *phraseData) ternary
	skipNot bool
}

// matches is TS_execute: whether the query does not fail.
func (e executor) matches(q Query) bool {
	return q.Root != nil && e.execute(q.Root) != tsNo
}

// checkOperand is checkcondition_str: whether v has the operand (a
// prefix operand: any lexeme it starts), with a weight the operand
// allows; with data, the matching positions sorted.
func (v Vector) checkOperand(n *Node, data *phraseData) ternary {
	lo, hi := 0, 0
	if n.Prefix {
		lo, hi = v.prefixRange(n.Word)
	} else if i := v.Find(n.Word); i >= 0 {
		lo, hi = i, i+1
	}
	res := tsNo
	var all []int
	for _, l := range v[lo:hi] {
		if len(l.Pos) == 0 {
			// no positions: stripped lexemes match whatever the weights
			if data != nil {
				if res != tsYes {
					res = tsMaybe
				}
			} else {
				return tsYes
			}
			continue
		}
		for _, p := range l.Pos {
			if n.Weight != 0 && n.Weight&(1<<p.Weight()) == 0 {
				continue
			}
			if data == nil {
				return tsYes
			}
			all = append(all, p.Position())
			res = tsYes
		}
	}
	if data != nil && len(all) > 0 {
		slices.Sort(all)
		data.pos = slices.Compact(all)
		res = tsYes
	}
	return res
}

// execute is TS_execute_recurse.
func (e executor) execute(n *Node) ternary {
	switch n.Op {
	case 0:
		return e.check(n, nil)
	case OpNot:
		if e.skipNot {
			return tsYes
		}
		switch e.execute(n.R) {
		case tsNo:
			return tsYes
		case tsYes:
			return tsNo
		}
		return tsMaybe
	case OpAnd:
		l := e.execute(n.L)
		if l == tsNo {
			return tsNo
		}
		switch e.execute(n.R) {
		case tsNo:
			return tsNo
		case tsYes:
			return l
		}
		return tsMaybe
	case OpOr:
		l := e.execute(n.L)
		if l == tsYes {
			return tsYes
		}
		switch e.execute(n.R) {
		case tsNo:
			return l
		case tsYes:
			return tsYes
		}
		return tsMaybe
	}
	// a phrase: without positions only a maybe, which @@ takes as a
	// match (TS_EXEC_PHRASE_NO_POS is not set: a maybe is no match)
	switch e.phraseExecute(n, nil) {
	case tsYes:
		return tsYes
	case tsMaybe:
		return tsNo
	}
	return tsNo
}

// emit flags of phraseOutput
const (
	emitBoth  = 1
	emitLOnly = 2
	emitROnly = 4
)

// phraseOutput is TS_phrase_output: merges the positions of both sides,
// shifted by their offsets, keeping those emit asks for.
func phraseOutput(data, l, r *phraseData, emit, loff, roff int) ternary {
	li, ri := 0, 0
	for li < len(l.pos) || ri < len(r.pos) {
		var lp, rp int
		if li < len(l.pos) {
			lp = l.pos[li] + loff
		} else {
			if emit&emitROnly == 0 {
				break
			}
			lp = math.MaxInt
		}
		if ri < len(r.pos) {
			rp = r.pos[ri] + roff
		} else {
			if emit&emitLOnly == 0 {
				break
			}
			rp = math.MaxInt
		}
		out := 0
		switch {
		case lp < rp:
			if emit&emitLOnly != 0 {
				out = lp
			}
			li++
		case lp == rp:
			if emit&emitBoth != 0 {
				out = rp
			}
			li++
			ri++
		default:
			if emit&emitROnly != 0 {
				out = rp
			}
			ri++
		}
		if out > 0 {
			if data == nil {
				return tsYes
			}
			data.pos = append(data.pos, out)
		}
	}
	if data != nil && len(data.pos) > 0 {
		return tsYes
	}
	return tsNo
}

// phraseExecute is TS_phrase_execute.
func (e executor) phraseExecute(n *Node, data *phraseData) ternary {
	if n.Op == 0 {
		return e.check(n, data)
	}
	switch n.Op {
	case OpNot:
		if e.skipNot {
			data.negate = true
			return tsYes
		}
		switch e.phraseExecute(n.R, data) {
		case tsNo:
			data.negate = true
			return tsYes
		case tsYes:
			if len(data.pos) > 0 {
				data.negate = !data.negate
				return tsYes
			}
			if data.negate {
				data.negate = false
				return tsNo
			}
			return tsNo
		}
		return tsMaybe
	case OpPhrase, OpAnd:
		var ld, rd phraseData
		lm := e.phraseExecute(n.L, &ld)
		if lm == tsNo {
			return tsNo
		}
		rm := e.phraseExecute(n.R, &rd)
		if rm == tsNo {
			return tsNo
		}
		if lm == tsMaybe || rm == tsMaybe {
			return tsMaybe
		}
		var loff, roff int
		if n.Op == OpPhrase {
			loff = n.Dist + rd.width
			if data != nil {
				data.width = n.Dist + ld.width + rd.width
			}
		} else {
			w := max(ld.width, rd.width)
			loff, roff = w-ld.width, w-rd.width
			if data != nil {
				data.width = w
			}
		}
		switch {
		case ld.negate && rd.negate:
			phraseOutput(data, &ld, &rd, emitBoth|emitLOnly|emitROnly, loff, roff)
			if data != nil {
				data.negate = true
			}
			return tsYes
		case ld.negate:
			return phraseOutput(data, &ld, &rd, emitROnly, loff, roff)
		case rd.negate:
			return phraseOutput(data, &ld, &rd, emitLOnly, loff, roff)
		}
		return phraseOutput(data, &ld, &rd, emitBoth, loff, roff)
	}
	// OpOr
	var ld, rd phraseData
	lm := e.phraseExecute(n.L, &ld)
	rm := e.phraseExecute(n.R, &rd)
	if lm == tsNo && rm == tsNo {
		return tsNo
	}
	if lm == tsMaybe || rm == tsMaybe {
		return tsMaybe
	}
	if lm == tsNo {
		ld.width = 0
	}
	if rm == tsNo {
		rd.width = 0
	}
	w := max(ld.width, rd.width)
	loff, roff := w-ld.width, w-rd.width
	if data != nil {
		data.width = w
	}
	switch {
	case ld.negate && rd.negate:
		phraseOutput(data, &ld, &rd, emitBoth, loff, roff)
		if data != nil {
			data.negate = true
		}
		return tsYes
	case ld.negate:
		phraseOutput(data, &ld, &rd, emitLOnly, loff, roff)
		if data != nil {
			data.negate = true
		}
		return tsYes
	case rd.negate:
		phraseOutput(data, &ld, &rd, emitROnly, loff, roff)
		if data != nil {
			data.negate = true
		}
		return tsYes
	}
	return phraseOutput(data, &ld, &rd, emitBoth|emitLOnly|emitROnly, loff, roff)
}
