package functions

import (
	"context"
	"math/bits"
	"regexp/syntax"
	"slices"
	"sort"
	"unicode"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// A matcher for PostgreSQL's regular expressions on the tree regexparse.go
// builds, for what RE2 cannot match as PostgreSQL does: back-references,
// lookahead and lookbehind, \m \M (and \y \Y by the locale's word
// characters), patterns that mix greedy and non-greedy quantifiers or
// prefer shorter matches, and the subexpressions' extents. It follows the
// rules of PostgreSQL's regexec.c (the documentation's 9.7.3.5):
//
//   - the match starts as early as possible and, from there, is the
//     longest possible string when the whole pattern is greedy (or has no
//     preference), the shortest when it is not;
//   - that match is then dissected: a concatenation's split point is
//     tried from the longest left part down unless the left part prefers
//     shorter matches, then from the shortest up; an alternation takes
//     the first branch that matches the whole extent; an iteration takes
//     each iteration as long as possible unless the iterated atom (not
//     the quantifier) prefers shorter ones, an empty iteration only where
//     the minimum count needs it, and reports its last iteration's groups; a
//     quantified atom with groups and no back-reference, x{m,n} with m>0,
//     is x{m-1,n-1} (groups not captured) followed by x;
//   - a back-reference matches the text its group captured (case-folded
//     under i), never a group that did not take part.
//
// Candidate extents come from ends, the set of positions where a node's
// match can end from a given start, memoized per node and position (a
// back-reference is taken to match whatever its group's contents can:
// the dissection checks the text). Every step is counted: past btBudget the match fails with
// PostgreSQL's "regular expression is too complex" (2201B), and the
// statement's context is polled so that a cancel or statement_timeout
// stops it.

// btBudget is the number of steps one match may take: a step is a node
// tried at a position, or 64 positions of an end set merged (tens of
// nanoseconds), so that the budget ends a match after a few seconds.
// PostgreSQL has no such bound (its "too complex" is the size of its
// automata; a cancel stops a long match): the budget is only for what
// would run far longer than PostgreSQL takes.
const btBudget = 50_000_000

type btOp uint8

const (
	btChar    btOp = iota // one character in match
	btAssert              // a zero-width constraint: assert
	btLook                // lookaround: look, subs[0]
	btBackref             // \group{min,max}
	btGroup               // (subs[0]), capturing when group > 0
	btCat                 // subs[0] then subs[1]
	btAlt                 // subs
	btRep                 // subs[0]{min,max}
)

// btNode is a compiled node.
type btNode struct {
	op       btOp
	id       int
	match    func(rune) bool
	assert   reOp
	look     int
	group    int
	min, max int
	pref     int8 // preference by the documentation's rules
	qpref    int8 // btRep: the quantifier's own (+1 greedy, -1 lazy)
	subs     []*btNode
	ref      *btNode // btBackref: the group's contents (nil: cancelled by {0})
	messy    bool    // holds a capturing group or a back-reference
	backref  bool    // holds a back-reference
	glo, ghi int     // the capturing groups it holds: [glo, ghi), empty when glo >= ghi
	lo, hi   int     // the shortest and longest text it can match (lo > hi: none; btInf: no bound)
	ext      []int   // the groups outside it that its back-references read
}

// btProg is a compiled pattern.
type btProg struct {
	root    *btNode
	nodes   int
	ngroups int
	lazy    bool // the whole pattern prefers shorter matches
	backref bool
	look    bool // holds a lookaround constraint (which reads past a match's end)
	cf      reCflags
	word    func(rune) bool
	// sets is the ranges of characters each single-character node of the
	// parsed tree matches (lo, hi pairs, sorted): a literal, ., a class,
	// a bracket expression without a complemented escape
	sets map[*reNode][]rune
}

// btCompiler turns a parsed tree into btNodes.
type btCompiler struct {
	prog *btProg
	e    *reEmitter
	// capture: capturing groups are numbered (off for the copies of
	// x{m,n}'s first m-1 iterations)
	capture bool
	groups  map[int]*btNode   // each capturing group's contents
	parsed  map[string][]rune // charRanges' results by flag and body
}

// compileBT compiles a parsed pattern with its compile flags and number
// of capturing groups.
func compileBT(tree *reNode, cf reCflags, ngroups int) (*btProg, error) {
	p := &btProg{cf: cf, ngroups: ngroups, sets: map[*reNode][]rune{}}
	c := &btCompiler{prog: p, e: &reEmitter{cf: cf}, capture: true, groups: map[int]*btNode{}, parsed: map[string][]rune{}}
	word, err := c.charClass(c.e.classBody("word"), false)
	if err != nil {
		return nil, err
	}
	p.word = word
	if p.root, err = c.node(tree); err != nil {
		return nil, err
	}
	p.lazy = p.root.pref < 0
	p.backref = p.root.backref
	return p, nil
}

func (c *btCompiler) mk(n *btNode) *btNode {
	n.id = c.prog.nodes
	c.prog.nodes++
	n.glo, n.ghi = 1<<30, 0
	if n.op == btGroup && n.group > 0 {
		n.glo, n.ghi = n.group, n.group+1
		n.messy = true
	}
	if n.op == btBackref {
		n.messy, n.backref = true, true
	}
	for _, s := range n.subs {
		n.messy = n.messy || s.messy
		n.backref = n.backref || s.backref
		n.glo, n.ghi = min(n.glo, s.glo), max(n.ghi, s.ghi)
	}
	if n.op == btBackref {
		n.ext = []int{n.group}
	}
	for _, s := range n.subs {
		for _, g := range s.ext {
			if (g < n.glo || g >= n.ghi) && !slices.Contains(n.ext, g) {
				n.ext = append(n.ext, g)
			}
		}
	}
	switch n.op {
	case btGroup:
		n.pref = n.subs[0].pref
	case btRep:
		n.pref = n.qpref
		if n.pref == 0 {
			n.pref = n.subs[0].pref
		}
	case btCat:
		n.pref = n.subs[0].pref
		if n.pref == 0 {
			n.pref = n.subs[1].pref
		}
	case btAlt:
		n.pref = 1
	}
	n.staticLen()
	return n
}

func (c *btCompiler) node(n *reNode) (*btNode, error) {
	icase := c.prog.cf&cfICase != 0
	switch n.op {
	case opLit:
		lit := n.r
		c.prog.sets[n] = []rune{lit, lit}
		if icase {
			for f := unicode.SimpleFold(lit); f != lit; f = unicode.SimpleFold(f) {
				c.prog.sets[n] = append(c.prog.sets[n], f, f)
			}
			c.prog.sets[n] = normRanges(c.prog.sets[n])
			return c.mk(&btNode{op: btChar, match: func(r rune) bool { return r == lit || foldEqual(r, lit) }}), nil
		}
		return c.mk(&btNode{op: btChar, match: func(r rune) bool { return r == lit }}), nil
	case opAny:
		c.prog.sets[n] = []rune{0, unicode.MaxRune}
		if c.prog.cf&cfNLStop != 0 {
			c.prog.sets[n] = []rune{0, '\n' - 1, '\n' + 1, unicode.MaxRune}
			return c.mk(&btNode{op: btChar, match: func(r rune) bool { return r != '\n' }}), nil
		}
		return c.mk(&btNode{op: btChar, match: func(rune) bool { return true }}), nil
	case opClass:
		rs, err := c.charRanges(c.e.classBody(escapeClass(n.r0())), icase)
		if err != nil {
			return nil, err
		}
		in := inRanges(rs)
		c.prog.sets[n] = rs
		if n.neg {
			c.prog.sets[n] = complementRanges(rs)
			return c.mk(&btNode{op: btChar, match: func(r rune) bool { return !in(r) }}), nil
		}
		return c.mk(&btNode{op: btChar, match: in}), nil
	case opBracket:
		m, err := c.bracket(n.set)
		if err != nil {
			return nil, err
		}
		if len(n.set.comps) == 0 {
			rs, _ := c.charRanges(c.e.bracketItems(n.set), icase)
			if n.set.neg {
				rs = complementRanges(rs)
				if c.prog.cf&cfNLStop != 0 {
					rs = subtractNL(rs)
				}
			}
			c.prog.sets[n] = rs
		}
		return c.mk(&btNode{op: btChar, match: m}), nil
	case opBOL, opEOL, opBOS, opEOS, opWordB, opNWordB, opWordStart, opWordEnd, opEmpty:
		return c.mk(&btNode{op: btAssert, assert: n.op}), nil
	case opLook:
		sub, err := c.node(n.subs[0])
		if err != nil {
			return nil, err
		}
		c.prog.look = true
		return c.mk(&btNode{op: btLook, look: n.look, subs: []*btNode{sub}}), nil
	case opBackref:
		return c.mk(&btNode{op: btBackref, group: n.group, min: 1, max: 1, ref: c.groups[n.group]}), nil
	case opGroup:
		sub, err := c.node(n.subs[0])
		if err != nil {
			return nil, err
		}
		g := 0
		if c.capture {
			g = n.group
			c.groups[g] = sub
		}
		return c.mk(&btNode{op: btGroup, group: g, subs: []*btNode{sub}}), nil
	case opConcat:
		return c.concat(n.subs)
	case opAlt:
		alt := &btNode{op: btAlt}
		for _, s := range n.subs {
			b, err := c.node(s)
			if err != nil {
				return nil, err
			}
			alt.subs = append(alt.subs, b)
		}
		return c.mk(alt), nil
	case opRepeat:
		return c.repeat(n)
	}
	return nil, errAREUnsupported("construct")
}

// concat is subs as right-nested pairs, as PostgreSQL dissects them.
func (c *btCompiler) concat(subs []*reNode) (*btNode, error) {
	if len(subs) == 0 {
		return c.mk(&btNode{op: btAssert, assert: opEmpty}), nil
	}
	first, err := c.node(subs[0])
	if err != nil || len(subs) == 1 {
		return first, err
	}
	rest, err := c.concat(subs[1:])
	if err != nil {
		return nil, err
	}
	return c.mk(&btNode{op: btCat, subs: []*btNode{first, rest}}), nil
}

func (c *btCompiler) repeat(n *reNode) (*btNode, error) {
	if n.subs[0].op == opBackref {
		return c.mk(&btNode{op: btBackref, group: n.subs[0].group, min: n.min, max: n.max, qpref: n.pref, ref: c.groups[n.subs[0].group]}), nil
	}
	if n.max == 0 {
		// x{0} is no match of x: its groups stay unset
		return c.mk(&btNode{op: btAssert, assert: opEmpty}), nil
	}
	x, err := c.node(n.subs[0])
	if err != nil {
		return nil, err
	}
	if n.min == 1 && n.max == 1 && n.pref == 0 {
		return x, nil // {1,1} keeps its preference ({1,1}? prefers shorter)
	}
	if !x.messy || x.backref || n.min == 0 {
		return c.mk(&btNode{op: btRep, min: n.min, max: n.max, qpref: n.pref, subs: []*btNode{x}}), nil
	}
	// x{m,n} with groups is x{m-1,n-1} x, the groups captured by the
	// last x only (regcomp.c's parseqatom)
	saved := c.capture
	c.capture = false
	y, err := c.node(n.subs[0])
	c.capture = saved
	if err != nil {
		return nil, err
	}
	hi := n.max
	if hi != reDupInf {
		hi--
	}
	prefix := c.mk(&btNode{op: btRep, min: n.min - 1, max: hi, qpref: n.pref, subs: []*btNode{y}})
	return c.mk(&btNode{op: btCat, subs: []*btNode{prefix, x}}), nil
}

// bracket is a bracket expression's membership test: its items (case-
// folded under i), or any character outside a complemented escape's
// class; negated, neither, nor a newline under the n and p flags.
func (c *btCompiler) bracket(s *reSet) (func(rune) bool, error) {
	icase := c.prog.cf&cfICase != 0
	items, err := c.charClass(c.e.bracketItems(s), icase)
	if err != nil {
		return nil, err
	}
	var comps []func(rune) bool
	for _, name := range s.comps {
		in, err := c.charClass(c.e.classBody(name), icase)
		if err != nil {
			return nil, err
		}
		comps = append(comps, in)
	}
	in := func(r rune) bool {
		if items(r) {
			return true
		}
		for _, cl := range comps {
			if !cl(r) {
				return true
			}
		}
		return false
	}
	if !s.neg {
		return in, nil
	}
	nlstop := c.prog.cf&cfNLStop != 0
	return func(r rune) bool { return !in(r) && !(nlstop && r == '\n') }, nil
}

// charClass is the membership test of RE2 bracket contents (the
// emitter's, so both engines read a class alike), folded under icase.
func (c *btCompiler) charClass(body string, icase bool) (func(rune) bool, error) {
	rs, err := c.charRanges(body, icase)
	if err != nil {
		return nil, err
	}
	return inRanges(rs), nil
}

// charRanges is the characters RE2 bracket contents hold (folded under
// icase) as sorted lo, hi pairs; each body is parsed once a pattern (a
// class's body is long: \w's holds every Unicode letter).
func (c *btCompiler) charRanges(body string, icase bool) ([]rune, error) {
	key := "c" + body
	if icase {
		key = "i" + body
	}
	if rs, ok := c.parsed[key]; ok {
		return rs, nil
	}
	var ranges []rune
	if body != "" {
		flags := syntax.Perl
		if icase {
			flags |= syntax.FoldCase
		}
		re, err := syntax.Parse("["+body+"]", flags)
		if err != nil {
			return nil, re2CompileError(err)
		}
		switch re.Op {
		case syntax.OpCharClass:
			ranges = re.Rune
		case syntax.OpLiteral:
			for _, r := range re.Rune {
				ranges = append(ranges, r, r)
				if re.Flags&syntax.FoldCase != 0 {
					for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
						ranges = append(ranges, f, f)
					}
				}
			}
			ranges = normRanges(ranges)
		case syntax.OpAnyChar:
			ranges = []rune{0, unicode.MaxRune}
		case syntax.OpAnyCharNotNL:
			ranges = []rune{0, '\n' - 1, '\n' + 1, unicode.MaxRune}
		case syntax.OpNoMatch:
		default:
			return nil, errAREUnsupported("bracket expression")
		}
	}
	c.parsed[key] = ranges
	return ranges, nil
}

// inRanges is the membership test of sorted lo, hi pairs.
func inRanges(ranges []rune) func(rune) bool {
	return func(r rune) bool {
		k := sort.Search(len(ranges)/2, func(k int) bool { return ranges[2*k+1] >= r })
		return k < len(ranges)/2 && ranges[2*k] <= r
	}
}

// normRanges sorts lo, hi pairs and merges those that touch.
func normRanges(rs []rune) []rune {
	pairs := make([][2]rune, 0, len(rs)/2)
	for i := 0; i+1 < len(rs); i += 2 {
		pairs = append(pairs, [2]rune{rs[i], rs[i+1]})
	}
	slices.SortFunc(pairs, func(a, b [2]rune) int { return int(a[0] - b[0]) })
	var out []rune
	for _, p := range pairs {
		if n := len(out); n > 0 && p[0] <= out[n-1]+1 {
			out[n-1] = max(out[n-1], p[1])
			continue
		}
		out = append(out, p[0], p[1])
	}
	return out
}

// complementRanges is the characters sorted lo, hi pairs do not hold.
func complementRanges(rs []rune) []rune {
	var out []rune
	next := rune(0)
	for i := 0; i+1 < len(rs); i += 2 {
		if rs[i] > next {
			out = append(out, next, rs[i]-1)
		}
		next = rs[i+1] + 1
	}
	if next <= unicode.MaxRune {
		out = append(out, next, unicode.MaxRune)
	}
	return out
}

// subtractNL is sorted lo, hi pairs without a newline.
func subtractNL(rs []rune) []rune {
	return complementRanges(normRanges(append(complementRanges(rs), '\n', '\n')))
}

// foldEqual reports whether a and b are the same letter but for case
// (Unicode simple folding, as RE2's (?i) reads it).
func foldEqual(a, b rune) bool {
	if a == b {
		return true
	}
	for f := unicode.SimpleFold(a); f != a; f = unicode.SimpleFold(f) {
		if f == b {
			return true
		}
	}
	return false
}

// btInf is a length without bound.
const btInf = 1 << 40

// lenMul is a length bound times a count (reDupInf: unbounded).
func lenMul(x, k int) int {
	switch {
	case x == 0 || k == 0:
		return 0
	case k == reDupInf || x >= btInf:
		return btInf
	}
	return min(x*k, btInf)
}

// staticLen sets n.lo and n.hi, the shortest and longest text n can
// match (lo > hi: none), from its children's.
func (n *btNode) staticLen() {
	switch n.op {
	case btChar:
		n.lo, n.hi = 1, 1
	case btAssert, btLook:
		n.lo, n.hi = 0, 0
	case btBackref:
		n.lo, n.hi = 1, 0
		if n.ref != nil {
			n.lo, n.hi = lenMul(n.ref.lo, n.min), lenMul(n.ref.hi, n.max)
		}
	case btGroup:
		n.lo, n.hi = n.subs[0].lo, n.subs[0].hi
	case btCat:
		a, b := n.subs[0], n.subs[1]
		n.lo, n.hi = min(a.lo+b.lo, btInf), min(a.hi+b.hi, btInf)
		if a.lo > a.hi || b.lo > b.hi {
			n.lo, n.hi = 1, 0
		}
	case btAlt:
		n.lo, n.hi = btInf, 0
		for _, s := range n.subs {
			if s.lo <= s.hi {
				n.lo, n.hi = min(n.lo, s.lo), max(n.hi, s.hi)
			}
		}
		if n.lo > n.hi {
			n.lo, n.hi = 1, 0
		}
	case btRep:
		x := n.subs[0]
		n.lo, n.hi = lenMul(x.lo, n.min), lenMul(x.hi, n.max)
		if x.lo > x.hi {
			n.lo, n.hi = 0, 0 // only the empty iteration, where min is 0
			if n.min > 0 {
				n.lo, n.hi = 1, 0
			}
		}
	}
}

// btSet is a set of subject positions (ends of a node's matches from one
// start): bit p-64*off of w. Never written to once made, so shared; an
// empty set has no words, and a set's first and last words are not zero.
type btSet struct {
	off int
	w   []uint64
}

func (s btSet) empty() bool { return len(s.w) == 0 }

func (s btSet) has(p int) bool {
	k := p>>6 - s.off
	return p >= 0 && k >= 0 && k < len(s.w) && s.w[k]>>(p&63)&1 != 0
}

// btRun is the state of matching one subject.
type btRun struct {
	p     *btProg
	ctx   context.Context
	s     []rune
	limit int // ends reports no position past it
	// window: find widens limit as it needs (windowed), for a pattern
	// that prefers shorter matches and has no lookaround; cut: an end set
	// made under limit lost a position to it
	window, cut bool
	memo        map[int]btSet
	caps        []int
	steps       int
	err         error
	pos         []btSet // the one-position sets, for at
	// fails holds the dissections that failed, with the extents of the
	// outside groups they read: the same dissection fails again
	fails map[btFail]bool
}

// btFail is a dissection of node id over [b, e) with the extents of up
// to two groups outside it that it reads.
type btFail struct {
	id, b, e int
	caps     [4]int
}

func (p *btProg) newRun(ctx context.Context, s []rune) *btRun {
	r := &btRun{p: p, ctx: ctx, s: s, limit: len(s), window: p.lazy && !p.look, memo: map[int]btSet{}, fails: map[btFail]bool{}, caps: make([]int, 2*(p.ngroups+1))}
	if r.window {
		r.limit = min(len(s), btWindow)
	}
	return r
}

// btWindow is the first extent a windowed search reads past its start.
const btWindow = 64

// setLimit makes ends report positions up to l (at most the subject's
// end): the end sets are made again, the failed dissections kept, as a
// dissection of [b, e) reads no position past e.
func (r *btRun) setLimit(l int) {
	l = min(l, len(r.s))
	if l != r.limit {
		r.limit, r.cut = l, false
		clear(r.memo)
	}
}

// step counts work: false once the budget is spent or the context done.
func (r *btRun) step(n int) bool {
	if r.err != nil {
		return false
	}
	r.steps += n
	if r.steps > btBudget {
		r.err = reError(regETooBig)
		return false
	}
	if r.steps&0xfff < n || n > 0xfff {
		if err := r.ctx.Err(); err != nil {
			r.err = sqlerr.CanceledByUser()
			if err == context.DeadlineExceeded {
				r.err = err
			}
			return false
		}
	}
	return true
}

func (r *btRun) isWord(i int) bool { return i >= 0 && i < len(r.s) && r.p.word(r.s[i]) }

// holds reports whether a constraint holds at position i.
func (r *btRun) holds(op reOp, i int) bool {
	nlanch := r.p.cf&cfNLAnch != 0
	switch op {
	case opBOL:
		return i == 0 || nlanch && r.s[i-1] == '\n'
	case opEOL:
		return i == len(r.s) || nlanch && r.s[i] == '\n'
	case opBOS:
		return i == 0
	case opEOS:
		return i == len(r.s)
	case opWordB:
		return r.isWord(i-1) != r.isWord(i)
	case opNWordB:
		return r.isWord(i-1) == r.isWord(i)
	case opWordStart:
		return !r.isWord(i-1) && r.isWord(i)
	case opWordEnd:
		return r.isWord(i-1) && !r.isWord(i)
	}
	return true // opEmpty
}

// at is the set of the one position i, shared.
func (r *btRun) at(i int) btSet {
	if r.pos == nil {
		r.pos = make([]btSet, len(r.s)+1)
		words := make([]uint64, len(r.s)+1)
		for k := range r.pos {
			words[k] = 1 << (k & 63)
			r.pos[k] = btSet{off: k >> 6, w: words[k : k+1 : k+1]}
		}
	}
	return r.pos[i]
}

// unionOf is the union of the sets each of keys gives (ends of one node
// from each position of a set, or of several nodes from one position):
// a set that is the only non-empty one is shared, not copied.
func (r *btRun) unionOf(count int, get func(k int) btSet) btSet {
	var only btSet
	lo, hi, nonEmpty := 1<<62, -1, 0
	for k := range count {
		s := get(k)
		if r.err != nil {
			return btSet{}
		}
		if s.empty() {
			continue
		}
		nonEmpty++
		only = s
		lo, hi = min(lo, s.off), max(hi, s.off+len(s.w))
	}
	if nonEmpty <= 1 {
		r.step(len(only.w) + 1)
		return only
	}
	acc := make([]uint64, hi-lo)
	for k := range count {
		s := get(k) // memoized: a lookup
		for j, w := range s.w {
			acc[s.off-lo+j] |= w
		}
		r.step(len(s.w) + 1)
	}
	return btSet{off: lo, w: acc}
}

// each calls f on the positions of s from lo to hi, descending when down;
// it stops when f returns true.
func (r *btRun) each(s btSet, lo, hi int, down bool, f func(int) bool) bool {
	lo, hi = max(lo, s.off<<6), min(hi, (s.off+len(s.w))<<6-1)
	if lo > hi {
		return false
	}
	for c := range hi - lo + 1 {
		p := lo + c
		if down {
			p = hi - c
		}
		if !s.has(p) {
			continue
		}
		if !r.step(1) {
			return false
		}
		if f(p) {
			return true
		}
	}
	return false
}

// positions is s's positions in ascending order.
func (s btSet) positions() []int {
	var out []int
	for k, w := range s.w {
		for ; w != 0; w &= w - 1 {
			out = append(out, (s.off+k)<<6+bits.TrailingZeros64(w))
		}
	}
	return out
}

// ends is the set of positions j <= limit such that n can match s[i:j].
func (r *btRun) ends(n *btNode, i int) btSet {
	key := n.id*(len(r.s)+1) + i
	if e, ok := r.memo[key]; ok {
		return e
	}
	if !r.step(1) {
		return btSet{}
	}
	var out btSet
	switch n.op {
	case btChar:
		if i < r.limit && n.match(r.s[i]) {
			out = r.at(i + 1)
		}
		r.cut = r.cut || i == r.limit && i < len(r.s)
	case btAssert:
		if r.holds(n.assert, i) {
			out = r.at(i)
		}
	case btLook:
		if r.look(n, i) {
			out = r.at(i)
		}
	case btBackref:
		// what the group's contents can match, min to max times (as
		// regcomp.c copies the group's NFA): the dissection compares the
		// text
		if n.ref != nil {
			out = r.repEnds(n.ref, n.min, n.max, i)
		}
	case btGroup:
		out = r.ends(n.subs[0], i)
	case btCat:
		mids := r.ends(n.subs[0], i).positions()
		out = r.unionOf(len(mids), func(k int) btSet { return r.ends(n.subs[1], mids[k]) })
	case btAlt:
		out = r.unionOf(len(n.subs), func(k int) btSet { return r.ends(n.subs[k], i) })
	case btRep:
		out = r.repEnds(n.subs[0], n.min, n.max, i)
	}
	r.memo[key] = out
	return out
}

// next is every position one more match of x reaches from the set cur.
func (r *btRun) next(x *btNode, cur btSet) btSet {
	ps := cur.positions()
	return r.unionOf(len(ps), func(k int) btSet { return r.ends(x, ps[k]) })
}

// repEnds is ends of x{lo,hi} from i.
func (r *btRun) repEnds(x *btNode, lo, hi, i int) btSet {
	cur := r.at(i)
	for k := 0; k < lo && !cur.empty() && r.err == nil; k++ {
		cur = r.next(x, cur)
	}
	acc := cur
	for k := lo; (hi == reDupInf || k < hi) && !cur.empty() && r.err == nil; k++ {
		cur = r.next(x, cur)
		if subset(cur, acc) {
			break // nothing new: more iterations reach nothing new either
		}
		sets := [2]btSet{acc, cur}
		acc = r.unionOf(2, func(k int) btSet { return sets[k] })
	}
	return acc
}

// subset reports whether every position of a is in b.
func subset(a, b btSet) bool {
	for k, w := range a.w {
		j := a.off + k - b.off
		if j < 0 || j >= len(b.w) || w&^b.w[j] != 0 {
			return false
		}
	}
	return true
}

// look evaluates a lookaround constraint at i.
func (r *btRun) look(n *btNode, i int) bool {
	sub := n.subs[0]
	found := false
	switch n.look {
	case lookAheadPos, lookAheadNeg:
		found = !r.ends(sub, i).empty()
	default:
		for k := i; k >= 0 && !found && r.err == nil; k-- {
			found = r.ends(sub, k).has(i)
		}
	}
	return found == (n.look == lookAheadPos || n.look == lookBehindPos)
}

func (r *btRun) zap(n *btNode) {
	for g := n.glo; g < n.ghi; g++ {
		r.caps[2*g], r.caps[2*g+1] = -1, -1
	}
}

// span is the shortest and longest text n can match now (lo > hi: none):
// its static bounds, but a back-reference to a group outside [glo, ghi)
// (one already dissected, or not taking part) or to group known has its
// group's length.
func (r *btRun) span(n *btNode, glo, ghi, known int) (int, int) {
	if !n.backref {
		return n.lo, n.hi
	}
	switch n.op {
	case btBackref:
		if n.group >= glo && n.group < ghi && n.group != known {
			return n.lo, n.hi
		}
		so, eo := r.caps[2*n.group], r.caps[2*n.group+1]
		if so < 0 {
			return 1, 0
		}
		return lenMul(eo-so, n.min), lenMul(eo-so, n.max)
	case btGroup:
		return r.span(n.subs[0], glo, ghi, known)
	case btCat:
		alo, ahi := r.span(n.subs[0], glo, ghi, known)
		blo, bhi := r.span(n.subs[1], glo, ghi, known)
		if alo > ahi || blo > bhi {
			return 1, 0
		}
		return min(alo+blo, btInf), min(ahi+bhi, btInf)
	case btAlt:
		lo, hi := btInf, 0
		for _, s := range n.subs {
			if slo, shi := r.span(s, glo, ghi, known); slo <= shi {
				lo, hi = min(lo, slo), max(hi, shi)
			}
		}
		if lo > hi {
			return 1, 0
		}
		return lo, hi
	case btRep:
		xlo, xhi := r.span(n.subs[0], glo, ghi, known)
		if xlo > xhi {
			if n.min > 0 {
				return 1, 0
			}
			return 0, 0
		}
		return lenMul(xlo, n.min), lenMul(xhi, n.max)
	}
	return n.lo, n.hi
}

// dissect fits n to s[b:e] exactly, setting the groups it holds; a
// failure is remembered (fails), so that no dissection is tried twice.
func (r *btRun) dissect(n *btNode, b, e int) bool {
	if !r.step(1) {
		return false
	}
	if !n.messy {
		return r.ends(n, b).has(e)
	}
	if len(n.ext) > 2 {
		return r.dissectNode(n, b, e)
	}
	key := btFail{id: n.id, b: b, e: e}
	for k, g := range n.ext {
		key.caps[2*k], key.caps[2*k+1] = r.caps[2*g], r.caps[2*g+1]
	}
	if r.fails[key] {
		return false
	}
	ok := r.dissectNode(n, b, e)
	if !ok && r.err == nil {
		r.fails[key] = true
	}
	return ok
}

func (r *btRun) dissectNode(n *btNode, b, e int) bool {
	switch n.op {
	case btGroup:
		if !r.dissect(n.subs[0], b, e) {
			return false
		}
		if n.group > 0 {
			r.caps[2*n.group], r.caps[2*n.group+1] = b, e
		}
		return true
	case btAlt:
		for _, s := range n.subs {
			if r.ends(s, b).has(e) {
				r.zap(s)
				if r.dissect(s, b, e) {
					return true
				}
			}
		}
		return false
	case btCat:
		// the split point by the left part's preference (regexec.c's
		// cdissect: crevcondissect when it is shorter), only where both
		// parts' lengths allow it (a back-reference to a group already
		// dissected has that group's length)
		left, right := n.subs[0], n.subs[1]
		llo, lhi := r.span(left, n.glo, n.ghi, 0)
		rlo, rhi := r.span(right, n.glo, n.ghi, 0)
		if llo > lhi || rlo > rhi {
			return false
		}
		lo, hi := max(b+llo, e-rhi), min(b+lhi, e-rlo)
		// a left part that is a group gives its back-references' length
		g := 0
		if left.op == btGroup && right.backref {
			g = left.group
			if lo, hi = r.splitRange(right, n, g, b, e, lo, hi); lo > hi {
				return false
			}
		}
		// the right part first when the left is group g and the right
		// reads no other group the left's dissection sets: the right's
		// back-references then check the split's text at once, and a
		// split they refute costs no dissection of the left, whose
		// success the failure memo does not keep
		leftFirst := g == 0 || readsInside(right, left, g)
		return r.each(r.ends(left, b), lo, hi, left.pref >= 0, func(m int) bool {
			if !r.ends(right, m).has(e) {
				return false
			}
			r.zap(n)
			if g > 0 {
				r.caps[2*g], r.caps[2*g+1] = b, m
				if lo, hi := r.span(right, n.glo, n.ghi, g); e-m < lo || e-m > hi {
					return false
				}
				if f, l, kmin, kmax, ok := r.lengths(right, n.glo, n.ghi, g); ok && !multipleFits(e-m, f, l, kmin, kmax) {
					return false
				}
			}
			if leftFirst {
				return r.dissect(left, b, m) && r.dissect(right, m, e)
			}
			return r.dissect(right, m, e) && r.dissect(left, b, m)
		})
	case btBackref:
		return r.backref(n, b, e)
	case btRep:
		return r.iterate(n, b, e)
	}
	return false
}

// lengths is the lengths n can match now when they are f + k*l for k
// from kmin to kmax (kmax reDupInf: no bound), l the length of the one
// group its back-references read (as span reads them): a
// back-reference's text is its group's, so its lengths are multiples of
// that group's, not every length between; ok is false for any other
// form (an alternation, an iteration of varying length, back-references
// to groups of different lengths).
func (r *btRun) lengths(n *btNode, glo, ghi, known int) (f, l, kmin, kmax int, ok bool) {
	if !n.backref {
		return n.lo, 0, 0, 0, n.lo == n.hi
	}
	switch n.op {
	case btGroup:
		return r.lengths(n.subs[0], glo, ghi, known)
	case btBackref:
		if n.group >= glo && n.group < ghi && n.group != known {
			return 0, 0, 0, 0, false
		}
		so, eo := r.caps[2*n.group], r.caps[2*n.group+1]
		if so < 0 {
			return 0, 0, 0, 0, false
		}
		return 0, eo - so, n.min, n.max, true
	case btCat:
		f1, l1, lo1, hi1, ok1 := r.lengths(n.subs[0], glo, ghi, known)
		f2, l2, lo2, hi2, ok2 := r.lengths(n.subs[1], glo, ghi, known)
		switch {
		case !ok1 || !ok2:
			return 0, 0, 0, 0, false
		case hi1 == 0:
			l1 = l2
		case hi2 == 0:
			l2 = l1
		}
		if l1 != l2 {
			return 0, 0, 0, 0, false
		}
		kmax = reDupInf
		if hi1 != reDupInf && hi2 != reDupInf {
			kmax = hi1 + hi2
		}
		return f1 + f2, l1, lo1 + lo2, kmax, true
	}
	return 0, 0, 0, 0, false
}

// multipleFits reports whether length is f + k*l for some k from kmin
// to kmax.
func multipleFits(length, f, l, kmin, kmax int) bool {
	d := length - f
	if l == 0 {
		return d == 0
	}
	if d < 0 || d%l != 0 {
		return false
	}
	k := d / l
	return k >= kmin && (kmax == reDupInf || k <= kmax)
}

// readsInside reports whether right's back-references read a group that
// left holds, other than g.
func readsInside(right, left *btNode, g int) bool {
	for _, h := range right.ext {
		if h >= left.glo && h < left.ghi && h != g {
			return true
		}
	}
	return false
}

// splitRange narrows the splits m in [lo, hi] of concatenation n over
// s[b:e] whose left part is group g, read by the right part's
// back-references: the right part's length bounds grow with g's length
// m-b while e-m shrinks, so the splits where e-m lies within them are
// one interval, found by bisection rather than a span a split (a long
// subject's ends times splits are otherwise all tried).
func (r *btRun) splitRange(right, n *btNode, g, b, e, lo, hi int) (int, int) {
	so, eo := r.caps[2*g], r.caps[2*g+1]
	defer func() { r.caps[2*g], r.caps[2*g+1] = so, eo }()
	spanAt := func(m int) (int, int) {
		r.step(1)
		r.caps[2*g], r.caps[2*g+1] = b, m
		return r.span(right, n.glo, n.ghi, g)
	}
	// the last split whose right part can be as short as e-m
	first, last := lo, hi
	k := sort.Search(last-first+1, func(k int) bool {
		slo, _ := spanAt(first + k)
		return slo > e-(first+k)
	})
	hi = first + k - 1
	// the first split whose right part can be as long as e-m
	k = sort.Search(hi-first+1, func(k int) bool {
		_, shi := spanAt(first + k)
		return shi >= e-(first+k)
	})
	return first + k, hi
}

// backref checks that s[b:e] is between min and max copies of the text
// the group captured.
func (r *btRun) backref(n *btNode, b, e int) bool {
	so, eo := r.caps[2*n.group], r.caps[2*n.group+1]
	if so < 0 {
		return false
	}
	l := eo - so
	if l == 0 {
		return b == e
	}
	if (e-b)%l != 0 {
		return false
	}
	k := (e - b) / l
	if k < n.min || n.max != reDupInf && k > n.max {
		return false
	}
	r.step(e - b)
	icase := r.p.cf&cfICase != 0
	for i := 0; i < e-b; i++ {
		a, c := r.s[b+i], r.s[so+i%l]
		if a != c && !(icase && foldEqual(a, c)) {
			return false
		}
	}
	return true
}

// iterate dissects an iteration of a node with groups: each iteration as
// long (greedy) or short (not) as can be, an empty one only where the
// minimum needs it, the groups of the last iteration kept.
func (r *btRun) iterate(n *btNode, b, e int) bool {
	x := n.subs[0]
	if b == e && n.min == 0 {
		// an atom that prefers longer matches matches once if it can, so
		// that its groups are set; one that prefers shorter ones does not
		// (citerdissect and creviterdissect)
		r.zap(x)
		if x.pref < 0 || !r.dissect(x, b, b) {
			r.zap(x)
		}
		return r.err == nil
	}
	minM, maxM := max(n.min, 1), n.max
	if maxM == reDupInf {
		maxM = 1 << 30
	}
	endpts := []int{b}
	failed := map[[2]int]bool{}
	var rec func(k int) bool
	rec = func(k int) bool {
		pos := endpts[k-1]
		key := [2]int{min(k, minM+1), pos}
		if n.max != reDupInf {
			key[0] = k
		}
		if !x.backref && failed[key] {
			return false
		}
		// each iteration by the iterated atom's preference, not the
		// quantifier's (cdissect: creviterdissect when the atom is shorter)
		ok := r.each(r.ends(x, pos), pos, e, x.pref >= 0, func(j int) bool {
			if j == pos && pos != e && (k >= minM || minM-k < e-pos) {
				return false
			}
			endpts = append(endpts[:k], j)
			if j == e {
				return k >= minM && r.verify(x, endpts)
			}
			return k < maxM && rec(k+1)
		})
		if !ok {
			failed[key] = true
		}
		return ok
	}
	return rec(1)
}

func (r *btRun) verify(x *btNode, endpts []int) bool {
	for i := 1; i < len(endpts); i++ {
		r.zap(x)
		if !r.dissect(x, endpts[i-1], endpts[i]) {
			return false
		}
	}
	return true
}

// find is the first match starting at or after position start: the
// groups' positions (-1 for one that did not take part), or nil.
//
// A windowed run (a pattern preferring shorter matches, without
// lookaround) looks for the shortest match among the ends up to limit
// first, from btWindow characters past the start, and doubles the
// window only when none is there and an end set stopped at the limit
// (cut): the ends up to limit are exactly the
// full sets' (a match that ends there reads nothing past it), so the
// first that dissects is the shortest, and a short match in a long
// subject costs no end sets over the whole subject.
func (r *btRun) find(start int) []int {
	root := r.p.root
	for b := start; b <= len(r.s) && r.err == nil; b++ {
		if r.window && r.limit < b+btWindow {
			r.setLimit(b + btWindow)
		}
		for {
			ends := r.ends(root, b)
			found := r.each(ends, b, len(r.s), !r.p.lazy, func(e int) bool {
				for k := range r.caps {
					r.caps[k] = -1
				}
				if !r.dissect(root, b, e) {
					return false
				}
				r.caps[0], r.caps[1] = b, e
				return true
			})
			if found {
				return slices.Clone(r.caps)
			}
			if !r.window || !r.cut || r.err != nil {
				break
			}
			r.setLimit(b + 2*(r.limit-b))
		}
	}
	return nil
}

// dissectSpan sets the groups of a match whose extent another engine
// found: ends are computed only up to its end.
func (r *btRun) dissectSpan(b, e int) []int {
	if r.limit != e {
		r.limit = e
		clear(r.memo)
		clear(r.fails)
	}
	for k := range r.caps {
		r.caps[k] = -1
	}
	if !r.dissect(r.p.root, b, e) {
		return nil
	}
	r.caps[0], r.caps[1] = b, e
	return slices.Clone(r.caps)
}
