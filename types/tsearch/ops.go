package tsearch

// The functions over whole tsvectors and tsqueries (tsvector_op.c,
// tsquery_op.c, tsquery_cleanup.c).

// Strip is strip(v): the lexemes without their positions.
func Strip(v Vector) Vector {
	out := make(Vector, len(v))
	for i, l := range v {
		out[i] = Lexeme{Word: l.Word}
	}
	return out
}

// SetWeight is setweight(v, w[, words]): every position of the lexemes
// (of those in words, when given) takes weight w.
func SetWeight(v Vector, w int, words []string) Vector {
	only := map[string]bool{}
	for _, x := range words {
		only[x] = true
	}
	out := make(Vector, len(v))
	for i, l := range v {
		out[i] = Lexeme{Word: l.Word, Pos: append([]Pos(nil), l.Pos...)}
		if words != nil && !only[l.Word] {
			continue
		}
		for j, p := range out[i].Pos {
			out[i].Pos[j] = makePos(p.Position(), w)
		}
	}
	return out
}

// FromWords is array_to_tsvector: the words as lexemes without
// positions, each once.
func FromWords(words []string) Vector {
	v := make(Vector, 0, len(words))
	for _, w := range words {
		v = append(v, Lexeme{Word: w})
	}
	return normalise(v)
}

// Delete is ts_delete: v without the lexemes in words.
func Delete(v Vector, words []string) Vector {
	drop := map[string]bool{}
	for _, w := range words {
		drop[w] = true
	}
	out := Vector{}
	for _, l := range v {
		if !drop[l.Word] {
			out = append(out, l)
		}
	}
	return out
}

// Filter is ts_filter: only the positions whose weight is in mask (bit
// 1<<weight); lexemes left without positions go.
func Filter(v Vector, mask int) Vector {
	out := Vector{}
	for _, l := range v {
		var ps []Pos
		for _, p := range l.Pos {
			if mask&(1<<p.Weight()) != 0 {
				ps = append(ps, p)
			}
		}
		if len(ps) > 0 {
			out = append(out, Lexeme{Word: l.Word, Pos: ps})
		}
	}
	return out
}

// Concat is a || b: b's positions follow a's last one.
func Concat(a, b Vector) Vector {
	maxPos := 0
	for _, l := range a {
		for _, p := range l.Pos {
			maxPos = max(maxPos, p.Position())
		}
	}
	out := make(Vector, 0, len(a)+len(b))
	for _, l := range a {
		out = append(out, Lexeme{Word: l.Word, Pos: append([]Pos(nil), l.Pos...)})
	}
	for _, l := range b {
		n := Lexeme{Word: l.Word}
		for _, p := range l.Pos {
			n.Pos = append(n.Pos, makePos(p.Position()+maxPos, p.Weight()))
		}
		out = append(out, n)
	}
	return normalise(out)
}

// Combine is tsquery_and, tsquery_or and tsquery_phrase: an empty side
// gives the other.
func Combine(op, dist int, a, b Query) Query {
	if a.Root == nil {
		return b
	}
	if b.Root == nil {
		return a
	}
	if op != OpPhrase {
		dist = 0
	}
	return Query{Root: &Node{Op: op, Dist: dist, L: copyNode(a.Root), R: copyNode(b.Root)}}
}

// Not is !!q (tsquery_not).
func Not(q Query) Query {
	if q.Root == nil {
		return q
	}
	return Query{Root: &Node{Op: OpNot, R: copyNode(q.Root)}}
}

func copyNode(n *Node) *Node {
	if n == nil {
		return nil
	}
	c := *n
	c.L, c.R = copyNode(n.L), copyNode(n.R)
	return &c
}

// QueryTree is querytree(q): q without the parts an index cannot use
// (NOT and what it spoils), "T" when nothing is left.
func QueryTree(q Query) string {
	if q.Root == nil {
		return ""
	}
	n := cleanNot(copyNode(q.Root))
	if n == nil {
		return "T"
	}
	return Query{Root: n}.String()
}

func cleanNot(n *Node) *Node {
	switch n.Op {
	case 0:
		return n
	case OpNot:
		return nil
	case OpOr:
		if n.L = cleanNot(n.L); n.L == nil {
			return nil
		}
		if n.R = cleanNot(n.R); n.R == nil {
			return nil
		}
		return n
	}
	n.L, n.R = cleanNot(n.L), cleanNot(n.R)
	switch {
	case n.L == nil && n.R == nil:
		return nil
	case n.L == nil:
		return n.R
	case n.R == nil:
		return n.L
	}
	return n
}
