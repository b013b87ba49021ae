package functions

import (
	"context"
	"regexp"
	"sort"
	"unicode/utf8"
)

// areRE is a compiled PostgreSQL pattern: RE2's program where RE2 finds
// the match PostgreSQL finds, the backtracker (regexbt.go) for the rest.
// Three ways of matching:
//   - RE2 alone: no groups, and nothing RE2 reads otherwise (see
//     compileARE);
//   - RE2 for the match's extent, the backtracker for its groups (RE2's
//     leftmost-longest mode finds PostgreSQL's extent but not its
//     subexpressions': (a|ab)(c|bcd)(d*) on abcd is ab, c, d);
//   - the backtracker alone.
//
// Whether the pattern matches at all (~, SIMILAR TO, regexp_like) is
// RE2's answer wherever RE2 can express the pattern (areRE.exists).
//
// Searching from a position after the start, or again after an empty
// match, is done by the backtracker when RE2's program depends on what
// precedes the search start (anchors), which slicing would hide.
type areRE struct {
	re *regexp.Regexp // nil: the backtracker finds the extent
	// exists, when set, is an RE2 program of the pattern's language (re
	// itself, or one of a pattern preferring shorter matches), which
	// answers whether it matches at all (match).
	exists   *regexp.Regexp
	bt       *btProg
	anchored bool // re depends on what precedes the search start
	// sub: re's submatches are PostgreSQL's (submatchSafe)
	sub bool
	// pre, when set, is an RE2 program of a language holding the
	// pattern's (back-references as their groups' contents, lookaround
	// and word constraints dropped: PostgreSQL's DFA pre-check): where it
	// does not match, the pattern does not, and its leftmost match's
	// start is the earliest the backtracker need try
	pre         *regexp.Regexp
	preAnchored bool // pre depends on what precedes the search start
}

// numSubexp is the number of capturing groups.
func (a *areRE) numSubexp() int { return a.bt.ngroups }

// areSubject is one subject string being matched.
type areSubject struct {
	a    *areRE
	ctx  context.Context
	s    string
	offs []int // byte offset of each character, and len(s)
	run  *btRun
}

func (a *areRE) subject(ctx context.Context, s string) *areSubject {
	return &areSubject{a: a, ctx: ctx, s: s}
}

func (m *areSubject) runner() *btRun {
	if m.run == nil {
		rs := []rune(m.s)
		m.offs = make([]int, 0, len(rs)+1)
		for off := range m.s {
			m.offs = append(m.offs, off)
		}
		m.offs = append(m.offs, len(m.s))
		m.run = m.a.bt.newRun(m.ctx, rs)
	}
	return m.run
}

// runeIndex is the character index of byte offset off.
func (m *areSubject) runeIndex(off int) int { return sort.SearchInts(m.offs, off) }

// toBytes turns character positions into byte offsets in place.
func (m *areSubject) toBytes(ms []int) []int {
	for k, p := range ms {
		if p >= 0 {
			ms[k] = m.offs[p]
		}
	}
	return ms
}

// find is the first match at or after byte offset start: the byte
// offsets of the match and of each group (-1 for one that did not take
// part), or nil.
func (m *areSubject) find(start int) ([]int, error) {
	a := m.a
	if a.re != nil && (start == 0 || !a.anchored) {
		if a.bt.ngroups == 0 {
			ms := a.re.FindStringIndex(m.s[start:])
			if ms != nil {
				ms[0], ms[1] = ms[0]+start, ms[1]+start
			}
			return ms, nil
		}
		if a.sub {
			ms := a.re.FindStringSubmatchIndex(m.s[start:])
			for k := range ms {
				if ms[k] >= 0 {
					ms[k] += start
				}
			}
			return ms, nil
		}
		span := a.re.FindStringIndex(m.s[start:])
		if span == nil {
			return nil, nil
		}
		r := m.runner()
		ms := r.dissectSpan(m.runeIndex(span[0]+start), m.runeIndex(span[1]+start))
		if r.err != nil {
			return nil, r.err
		}
		return m.toBytes(ms), nil
	}
	if a.pre != nil && (start == 0 || !a.preAnchored) {
		loc := a.pre.FindStringIndex(m.s[start:])
		if loc == nil {
			return nil, nil
		}
		start += loc[0]
	}
	r := m.runner()
	if r.limit != len(r.s) && !r.window {
		r.limit = len(r.s)
		clear(r.memo)
		clear(r.fails)
	}
	ms := r.find(m.runeIndex(start))
	if r.err != nil {
		return nil, r.err
	}
	if ms == nil {
		return nil, nil
	}
	return m.toBytes(ms), nil
}

// all is PostgreSQL's search loop (regexp.c's setup_regexp_matches): the
// matches from byte offset start on, each search starting at the
// previous match's end, or a character further after an empty match;
// only the first unless global.
func (m *areSubject) all(start int, global bool) ([][]int, error) {
	var out [][]int
	for pos := start; pos <= len(m.s); {
		ms, err := m.find(pos)
		if err != nil || ms == nil {
			return out, err
		}
		out = append(out, ms)
		if !global {
			break
		}
		pos = ms[1]
		if ms[0] == ms[1] {
			if pos == len(m.s) {
				break
			}
			_, size := utf8.DecodeRuneInString(m.s[pos:])
			pos += size
		}
	}
	return out, nil
}

// match reports whether the pattern matches somewhere in s.
func (a *areRE) match(ctx context.Context, s string) (bool, error) {
	if a.exists != nil {
		return a.exists.MatchString(s), nil
	}
	ms, err := a.subject(ctx, s).find(0)
	return ms != nil, err
}

// firstMatch is the first match in s (see find).
func (a *areRE) firstMatch(ctx context.Context, s string) ([]int, error) {
	return a.subject(ctx, s).find(0)
}

// allMatches is every match of a in s from byte offset start on (the
// first only unless global).
func (a *areRE) allMatches(ctx context.Context, s string, start int, global bool) ([][]int, error) {
	return a.subject(ctx, s).all(start, global)
}

// RE2's submatches (leftmost-first among the longest matches, in its
// Longest mode) are PostgreSQL's wherever the match's extent leaves one
// way of splitting it among the pattern's parts (then both engines report
// that one). submatchSafe decides that by a sufficient rule on the
// pattern, read as a sequence of items through concatenations and groups
// (not through quantified ones): an item is a single character (a
// literal, ., a class or bracket), a constraint (^ $ \A \Z), a greedy
// repetition of a single character (in a group or not), or an
// alternation of group-free strings of single characters of which none
// can match a prefix of another (so at most one can match at any
// position); and every repetition whose count may vary shares no
// character with what can follow it (the first characters of the items
// after it, up to one that cannot match empty), so that it must stop
// where its run of characters does.

// reItem is one item of that sequence.
type reItem struct {
	set      []rune     // a single character: the ranges of what it matches
	min, max int        // a repetition of set ({1,1}: once)
	alts     [][][]rune // an alternation: each branch's characters
	assert   bool
}

// submatchSafe reports whether RE2's submatches of tree under cf are
// PostgreSQL's.
func submatchSafe(tree *reNode, sets map[*reNode][]rune) bool {
	var items []reItem
	if !flattenItems(tree, sets, &items) {
		return false
	}
	for i, it := range items {
		if it.alts == nil && !it.assert && it.min != it.max && rangesMeet(it.set, firstSet(items[i+1:])) {
			return false
		}
	}
	return true
}

// firstSet is the characters the items can start with, up to the first
// item that cannot match empty.
func firstSet(items []reItem) []rune {
	var out []rune
	for _, it := range items {
		switch {
		case it.assert:
			continue
		case it.alts != nil:
			for _, b := range it.alts {
				out = append(out, b[0]...)
			}
			return out
		}
		out = append(out, it.set...)
		if it.min > 0 {
			return out
		}
	}
	return out
}

func flattenItems(n *reNode, sets map[*reNode][]rune, items *[]reItem) bool {
	switch n.op {
	case opEmpty:
		return true
	case opBOL, opEOL, opBOS, opEOS:
		*items = append(*items, reItem{assert: true})
		return true
	case opGroup:
		return flattenItems(n.subs[0], sets, items)
	case opConcat:
		for _, s := range n.subs {
			if !flattenItems(s, sets, items) {
				return false
			}
		}
		return true
	case opRepeat:
		x := n.subs[0]
		for x.op == opGroup || x.op == opConcat && len(x.subs) == 1 {
			x = x.subs[0]
		}
		set, ok := sets[x]
		if !ok || n.pref < 0 || n.max == 0 {
			return false
		}
		*items = append(*items, reItem{set: set, min: n.min, max: n.max})
		return true
	case opAlt:
		var alts [][][]rune
		for _, b := range n.subs {
			var chars [][]rune
			if !branchChars(b, sets, &chars) || len(chars) == 0 {
				return false
			}
			for _, o := range alts {
				if prefixMeets(chars, o) {
					return false
				}
			}
			alts = append(alts, chars)
		}
		*items = append(*items, reItem{alts: alts})
		return true
	}
	set, ok := sets[n]
	if ok {
		*items = append(*items, reItem{set: set, min: 1, max: 1})
	}
	return ok
}

// branchChars is an alternative's characters when it is a string of
// single characters without groups.
func branchChars(n *reNode, sets map[*reNode][]rune, chars *[][]rune) bool {
	if n.op == opConcat {
		for _, s := range n.subs {
			if !branchChars(s, sets, chars) {
				return false
			}
		}
		return true
	}
	set, ok := sets[n]
	*chars = append(*chars, set)
	return ok
}

// prefixMeets reports whether one of two strings of character sets can
// match a prefix of what the other matches.
func prefixMeets(a, b [][]rune) bool {
	for i := range min(len(a), len(b)) {
		if !rangesMeet(a[i], b[i]) {
			return false
		}
	}
	return true
}

// rangesMeet reports whether two lists of ranges (lo, hi pairs, in any
// order) share a character.
func rangesMeet(a, b []rune) bool {
	for i := 0; i+1 < len(a); i += 2 {
		for j := 0; j+1 < len(b); j += 2 {
			if a[i] <= b[j+1] && b[j] <= a[i+1] {
				return true
			}
		}
	}
	return false
}
