package tsearch

import (
	"math"
	"slices"
)

// ts_rank_cd (tsrank.c's calc_rank_cd): cover density ranking. The
// document is the positions of the lexemes the query's operands find; a
// cover is a shortest stretch of them that satisfies the query; each
// cover adds its weight divided by the noise words inside it.

const normExtDist = 4 // RANK_NORM_EXTDIST: ts_rank_cd's mean extent distance

// docEntry is a DocRepresentation: one position of the document, its
// weight, and the query operands its lexeme satisfies.
type docEntry struct {
	pos, weight int
	lexeme      int // the lexeme's index in the tsvector
	items       []*Node
}

// docRep is get_docrep: for each operand, the positions (of a weight
// the operand allows) of the lexemes it finds, sorted by position,
// weight and lexeme, one entry per position and lexeme holding every
// operand that found it. Lexemes without positions are left out.
func docRep(v Vector, q Query) []docEntry {
	var raw []docEntry
	// operands in PostgreSQL's item order (the order does not matter to
	// the entries' merging but keeps each entry's items stable)
	for _, it := range rankOrder(q) {
		lo, hi := 0, 0
		if it.Prefix {
			lo, hi = v.prefixRange(it.Word)
		} else if i := v.Find(it.Word); i >= 0 {
			lo, hi = i, i+1
		}
		for li := lo; li < hi; li++ {
			for _, p := range v[li].Pos {
				if it.Weight == 0 || it.Weight&(1<<p.Weight()) != 0 {
					raw = append(raw, docEntry{pos: p.Position(), weight: p.Weight(), lexeme: li, items: []*Node{it}})
				}
			}
		}
	}
	if len(raw) == 0 {
		return nil
	}
	slices.SortStableFunc(raw, func(a, b docEntry) int {
		if a.pos != b.pos {
			return a.pos - b.pos
		}
		if a.weight != b.weight {
			return a.weight - b.weight
		}
		return a.lexeme - b.lexeme
	})
	out := raw[:1]
	for _, d := range raw[1:] {
		last := &out[len(out)-1]
		if d.pos == last.pos && d.weight == last.weight && d.lexeme == last.lexeme {
			last.items = append(last.items, d.items...)
			continue
		}
		out = append(out, d)
	}
	return out
}

// rankOrder is the query's operands in its item order (polish: an
// operator, its right operand, its left one).
func rankOrder(q Query) []*Node {
	var items []*Node
	var walk func(n *Node)
	walk = func(n *Node) {
		if n == nil {
			return
		}
		if n.Op == 0 {
			items = append(items, n)
			return
		}
		walk(n.R)
		walk(n.L)
	}
	walk(q.Root)
	return items
}

// coverState is QueryRepresentation: which operands the entries seen so
// far hold, and their positions ascending.
type coverState map[*Node][]int

func (s coverState) add(d docEntry, reverse bool) {
	for _, it := range d.items {
		ps := s[it]
		switch {
		case len(ps) == 0:
			s[it] = []int{d.pos}
		case reverse && ps[0] != d.pos:
			s[it] = append([]int{d.pos}, ps...)
		case !reverse && ps[len(ps)-1] != d.pos:
			s[it] = append(ps, d.pos)
		}
	}
}

func (s coverState) check(n *Node, data *phraseData) ternary {
	ps, ok := s[n]
	if !ok {
		return tsNo
	}
	if data != nil {
		data.pos = append([]int(nil), ps...)
	}
	return tsYes
}

// cover is Cover: from entry at on, the first cover: end the first entry
// at which the query holds, begin the last one (walking back from end)
// at which it holds; next is where the search for the following cover
// starts.
func cover(doc []docEntry, q Query, at int) (begin, end, p, qpos, next int, ok bool) {
	for at < len(doc) {
		s := coverState{}
		e := executor{check: s.check}
		end = -1
		for i := at; i < len(doc); i++ {
			s.add(doc[i], false)
			if e.matches(q) {
				if doc[i].pos > 0 {
					end = i
				}
				break
			}
		}
		if end < 0 {
			return 0, 0, 0, 0, 0, false
		}
		qpos = doc[end].pos
		s = coverState{}
		e = executor{check: s.check}
		p = math.MaxInt32
		i := end
		for ; i >= at; i-- {
			s.add(doc[i], true)
			if e.matches(q) {
				if doc[i].pos < p {
					begin, p = i, doc[i].pos
				}
				break
			}
		}
		if p <= qpos {
			return begin, end, p, qpos, i + 1, true
		}
		at++
	}
	return 0, 0, 0, 0, 0, false
}

// RankCD is ts_rank_cd(weights, v, q, normalization) (calc_rank_cd).
func RankCD(w [4]float32, v Vector, q Query, method int) float32 {
	var invws [4]float64
	for i, x := range w {
		invws[i] = 1.0 / float64(x)
	}
	if q.Root == nil {
		return 0
	}
	doc := docRep(v, q)
	if doc == nil {
		return 0
	}
	var wdoc, sumDist, prevExtPos float64
	nExtent := 0
	for at := 0; ; {
		begin, end, p, qpos, next, ok := cover(doc, q, at)
		if !ok {
			break
		}
		at = next
		var invSum float64
		for i := begin; i <= end; i++ {
			invSum += invws[doc[i].weight]
		}
		cpos := float64(end-begin+1) / invSum
		nNoise := (qpos - p) - (end - begin)
		if nNoise < 0 {
			nNoise = (end - begin) / 2
		}
		wdoc += cpos / float64(1+nNoise)
		curExtPos := float64(qpos+p) / 2.0
		if nExtent > 0 && curExtPos > prevExtPos {
			sumDist += 1.0 / (curExtPos - prevExtPos)
		}
		prevExtPos = curExtPos
		nExtent++
	}
	if method&normLogLength != 0 && len(v) > 0 {
		wdoc /= math.Log(float64(cntLength(v) + 1))
	}
	if method&normLength != 0 {
		if l := cntLength(v); l > 0 {
			wdoc /= float64(l)
		}
	}
	if method&normExtDist != 0 && nExtent > 0 && sumDist > 0 {
		wdoc /= float64(nExtent) / sumDist
	}
	if method&normUniq != 0 && len(v) > 0 {
		wdoc /= float64(len(v))
	}
	if method&normLogUniq != 0 && len(v) > 0 {
		wdoc /= math.Log(float64(len(v)+1)) / math.Log(2.0)
	}
	if method&normRDivRPlus != 0 {
		wdoc /= wdoc + 1
	}
	return float32(wdoc)
}
