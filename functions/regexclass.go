package functions

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// PostgreSQL's regular expressions classify characters with the locale's
// wide-character functions (iswalpha, iswupper...; regc_pg_locale.c), and
// under a UTF-8 locale such as C.UTF-8 glibc derives those classes from
// Unicode (localedata/unicode-gen): é, Ω and 日 are alpha, İ and ℂ upper,
// U+2003 a space, U+00A0 and combining marks punct. RE2's [[:alpha:]], \w
// and \s are ASCII-only, so translateARE replaces each class by the ranges
// built here from Go's Unicode tables by glibc's rules. [:blank:],
// [:cntrl:] and [:xdigit:] are hard-wired in PostgreSQL (regc_locale.c),
// and [:digit:] is ASCII under glibc.

// runeFacts are what the classes' rules read of a code point, looked up
// once per code point for all classes.
type runeFacts struct {
	alpha, digit, space, assigned, upper, lower bool
}

func factsOf(r rune) runeFacts {
	f := runeFacts{
		alpha: unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_Alphabetic, r) ||
			unicode.Is(unicode.Nd, r) && (r < '0' || r > '9'), // glibc counts other digits as alpha
		digit:    r >= '0' && r <= '9',
		assigned: unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.Cf, unicode.Co),
		upper:    unicode.ToLower(r) != r || unicode.IsUpper(r) || unicode.Is(unicode.Other_Uppercase, r),
		lower:    unicode.ToUpper(r) != r || r == 'ß' || unicode.IsLower(r) || unicode.Is(unicode.Other_Lowercase, r),
	}
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r':
		f.space = true
	case 0xA0, 0x2007, 0x202F: // no-break spaces are punctuation
	default:
		f.space = unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp)
	}
	return f
}

// classRules are the classes built from Unicode, by glibc's rules.
var classRules = []struct {
	name string
	has  func(f runeFacts, r rune) bool
}{
	{"alpha", func(f runeFacts, _ rune) bool { return f.alpha }},
	{"alnum", func(f runeFacts, _ rune) bool { return f.alpha || f.digit }},
	{"upper", func(f runeFacts, _ rune) bool { return f.upper }},
	{"lower", func(f runeFacts, _ rune) bool { return f.lower }},
	{"space", func(f runeFacts, _ rune) bool { return f.space }},
	{"graph", func(f runeFacts, _ rune) bool { return f.assigned && !f.space }},
	{"print", func(f runeFacts, r rune) bool { return f.assigned && !f.space || unicode.Is(unicode.Zs, r) }},
	{"punct", func(f runeFacts, _ rune) bool { return f.assigned && !f.space && !f.alpha && !f.digit }},
	{"word", func(f runeFacts, r rune) bool { return f.alpha || f.digit || r == '_' }}, // \w
}

// fixedClasses are hard-wired in PostgreSQL (regc_locale.c) or ASCII
// under glibc.
var fixedClasses = map[string]string{
	"digit":  `0-9`,
	"blank":  `\t `,
	"cntrl":  `\x00-\x1f\x7f-\x{9f}`,
	"xdigit": `0-9A-Fa-f`,
	"ascii":  `\x00-\x7f`,
}

// areClassBodies holds, for each class name, the contents of an RE2
// bracket expression (without the brackets) holding its characters. The
// classes are built together the first time a pattern names one of them
// (one scan of the assigned code points, each looked up once, some tens
// of milliseconds that a query naming none should not pay).
type areClassBodies struct {
	built func() map[string]string
}

// areClasses is the process's class table: read-only after it is made;
// the code points' classes never change.
var areClasses = &areClassBodies{built: sync.OnceValue(buildClassBodies)}

// body is the bracket contents of the class name, and whether it is one.
func (c *areClassBodies) body(name string) (string, bool) {
	if b, ok := fixedClasses[name]; ok {
		return b, true
	}
	b, ok := c.built()[name]
	return b, ok
}

// rangeWriter appends the code points it is given, in increasing order,
// as RE2 bracket ranges.
type rangeWriter struct {
	b        strings.Builder
	open     bool
	lo, last rune
}

func (w *rangeWriter) add(r rune) {
	if w.open && r == w.last+1 {
		w.last = r
		return
	}
	w.flush()
	w.open, w.lo, w.last = true, r, r
}

func (w *rangeWriter) flush() {
	if !w.open {
		return
	}
	fmt.Fprintf(&w.b, `\x{%x}`, w.lo)
	if w.last > w.lo {
		fmt.Fprintf(&w.b, `-\x{%x}`, w.last)
	}
	w.open = false
}

// buildClassBodies scans the code points any class can hold (ASCII and
// every assigned category: classCandidates), computing each one's facts
// once, and writes every class's ranges.
func buildClassBodies() map[string]string {
	ws := make([]rangeWriter, len(classRules))
	// the private-use ranges (half of the candidates) hold code points
	// whose facts are all the same: each is looked up once
	private := rangesOf(unicode.Co)
	for _, rg := range candidateRanges() {
		for r := rg[0]; r <= rg[1]; r++ {
			f := factsOf(r)
			end := r
			for len(private) > 0 && private[0][1] < r {
				private = private[1:]
			}
			if len(private) > 0 && private[0][0] == r {
				end = private[0][1]
			}
			for i, c := range classRules {
				if c.has(f, r) {
					for x := r; x <= end; x++ {
						ws[i].add(x)
					}
				}
			}
			r = end
		}
	}
	out := make(map[string]string, len(classRules))
	for i, c := range classRules {
		ws[i].flush()
		out[c.name] = ws[i].b.String()
	}
	return out
}

// classCandidates are the code points any class built from Unicode can
// hold: ASCII and every assigned category (each rule holds assigned
// characters only). Scanning them instead of all 1.1M code points skips
// the unassigned planes.
var classCandidates = []*unicode.RangeTable{unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z,
	unicode.Cf, unicode.Co, unicode.Other_Alphabetic, unicode.Other_Uppercase, unicode.Other_Lowercase}

// candidateRanges are classCandidates' ranges and ASCII, merged, in
// order; a range's stride is ignored (a superset: the rules decide).
func candidateRanges() [][2]rune {
	rs := [][2]rune{{0, 0x7f}}
	for _, t := range classCandidates {
		rs = append(rs, rangesOf(t)...)
	}
	slices.SortFunc(rs, func(a, b [2]rune) int { return cmp.Compare(a[0], b[0]) })
	merged := rs[:1]
	for _, rg := range rs[1:] {
		if last := &merged[len(merged)-1]; rg[0] <= last[1]+1 {
			last[1] = max(last[1], rg[1])
			continue
		}
		merged = append(merged, rg)
	}
	return merged
}

// areClass is the bracket contents for the class name of a [[:name:]] in a
// pattern (word is \w's, which PostgreSQL 15 also accepts as [[:word:]]),
// and whether it is one. Under case-insensitive
// matching upper and lower are alpha, as regc_locale.c's cclass makes them.
func areClass(name string, icase bool) (string, bool) {
	if icase && (name == "upper" || name == "lower") {
		name = "alpha"
	}
	return areClasses.body(name)
}

// rangesOf is t's ranges in order, strides ignored.
func rangesOf(t *unicode.RangeTable) [][2]rune {
	var rs [][2]rune
	for _, rg := range t.R16 {
		rs = append(rs, [2]rune{rune(rg.Lo), rune(rg.Hi)})
	}
	for _, rg := range t.R32 {
		rs = append(rs, [2]rune{rune(rg.Lo), rune(rg.Hi)})
	}
	return rs
}
