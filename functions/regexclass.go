package functions

import (
	"fmt"
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

// areClassBodies holds, for each class name, the contents of an RE2
// bracket expression (without the brackets) holding its characters. Each
// class is built the first time a pattern names it: a class's scan of the
// code points takes tens of milliseconds, which a query that names none
// should not pay.
type areClassBodies struct {
	once  map[string]func() string
	fixed map[string]string
}

// areClasses is the process's class table: read-only after it is made (each
// entry computes its body once); the code points' classes never change.
var areClasses = newAREClassBodies()

func newAREClassBodies() *areClassBodies {
	isAlpha := func(r rune) bool {
		return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_Alphabetic, r) ||
			unicode.Is(unicode.Nd, r) && (r < '0' || r > '9') // glibc counts other digits as alpha
	}
	isDigit := func(r rune) bool { return r >= '0' && r <= '9' }
	isSpace := func(r rune) bool {
		switch r {
		case ' ', '\t', '\n', '\v', '\f', '\r':
			return true
		case 0xA0, 0x2007, 0x202F: // no-break spaces are punctuation
			return false
		}
		return unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp)
	}
	assigned := func(r rune) bool {
		return unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.Cf, unicode.Co)
	}
	isGraph := func(r rune) bool { return assigned(r) && !isSpace(r) }
	isPrint := func(r rune) bool { return isGraph(r) || unicode.Is(unicode.Zs, r) }
	isUpper := func(r rune) bool {
		return unicode.ToLower(r) != r || unicode.IsUpper(r) || unicode.Is(unicode.Other_Uppercase, r)
	}
	isLower := func(r rune) bool {
		return unicode.ToUpper(r) != r || r == 'ß' || unicode.IsLower(r) || unicode.Is(unicode.Other_Lowercase, r)
	}
	preds := map[string]func(rune) bool{
		"alpha": isAlpha,
		"alnum": func(r rune) bool { return isAlpha(r) || isDigit(r) },
		"upper": isUpper,
		"lower": isLower,
		"space": isSpace,
		"graph": isGraph,
		"print": isPrint,
		"punct": func(r rune) bool { return isGraph(r) && !isAlpha(r) && !isDigit(r) },
		"word":  func(r rune) bool { return isAlpha(r) || isDigit(r) || r == '_' }, // \w
	}
	c := &areClassBodies{
		once: map[string]func() string{},
		fixed: map[string]string{
			"digit":  `0-9`,
			"blank":  `\t `,
			"cntrl":  `\x00-\x1f\x7f-\x{9f}`,
			"xdigit": `0-9A-Fa-f`,
			"ascii":  `\x00-\x7f`,
		},
	}
	for name, p := range preds {
		c.once[name] = sync.OnceValue(func() string { return runeRanges(p) })
	}
	return c
}

// body is the bracket contents of the class name, and whether it is one.
func (c *areClassBodies) body(name string) (string, bool) {
	if b, ok := c.fixed[name]; ok {
		return b, true
	}
	if f, ok := c.once[name]; ok {
		return f(), true
	}
	return "", false
}

// classCandidates are the code points any class built from a predicate can
// hold: ASCII and every assigned category (each predicate holds assigned
// characters only). Scanning them instead of all 1.1M code points skips the
// unassigned planes.
var classCandidates = []*unicode.RangeTable{unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z,
	unicode.Cf, unicode.Co, unicode.Other_Alphabetic, unicode.Other_Uppercase, unicode.Other_Lowercase}

// runeRanges is the RE2 bracket contents of every code point p holds.
func runeRanges(p func(rune) bool) string {
	var b strings.Builder
	open, lo, last := false, rune(0), rune(-2)
	flush := func() {
		if !open {
			return
		}
		fmt.Fprintf(&b, `\x{%x}`, lo)
		if last > lo {
			fmt.Fprintf(&b, `-\x{%x}`, last)
		}
		open = false
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r > 0x7f && !unicode.In(r, classCandidates...) {
			r = nextCandidate(r) - 1
			continue
		}
		if !p(r) {
			continue
		}
		if !open || r != last+1 {
			flush()
			open, lo = true, r
		}
		last = r
	}
	flush()
	return b.String()
}

// nextCandidate is the smallest code point above r that lies in a range of
// classCandidates (unicode.MaxRune+1 when none does); a range's stride is
// ignored (a superset: the predicate decides).
func nextCandidate(r rune) rune {
	next := rune(unicode.MaxRune + 1)
	for _, t := range classCandidates {
		for _, rg := range t.R16 {
			if rune(rg.Hi) > r {
				next = min(next, max(rune(rg.Lo), r+1))
				break
			}
		}
		for _, rg := range t.R32 {
			if rune(rg.Hi) > r {
				next = min(next, max(rune(rg.Lo), r+1))
				break
			}
		}
	}
	return next
}

// areClass is the bracket contents for the class name of a [[:name:]] in a
// pattern, and whether PostgreSQL knows the name. Under case-insensitive
// matching upper and lower are alpha, as regc_locale.c's cclass makes them.
func areClass(name string, icase bool) (string, bool) {
	if icase && (name == "upper" || name == "lower") {
		name = "alpha"
	}
	if name == "word" { // \w's class, not a class name PostgreSQL accepts
		return "", false
	}
	return areClasses.body(name)
}
