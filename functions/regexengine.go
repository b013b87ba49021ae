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
	if r.limit != len(r.s) {
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
