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

// areClassBodies maps a class name to the contents of an RE2 bracket
// expression (without the brackets) holding its characters.
var areClassBodies = sync.OnceValue(buildAREClassBodies)

func buildAREClassBodies() map[string]string {
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
	out := map[string]string{
		"digit":  `0-9`,
		"blank":  `\t `,
		"cntrl":  `\x00-\x1f\x7f-\x{9f}`,
		"xdigit": `0-9A-Fa-f`,
		"ascii":  `\x00-\x7f`,
	}
	for name, p := range preds {
		out[name] = runeRanges(p)
	}
	return out
}

// runeRanges is the RE2 bracket contents of every code point p holds.
func runeRanges(p func(rune) bool) string {
	var b strings.Builder
	for lo := rune(0); lo <= unicode.MaxRune; lo++ {
		if !p(lo) {
			continue
		}
		hi := lo
		for hi+1 <= unicode.MaxRune && p(hi+1) {
			hi++
		}
		fmt.Fprintf(&b, `\x{%x}`, lo)
		if hi > lo {
			fmt.Fprintf(&b, `-\x{%x}`, hi)
		}
		lo = hi
	}
	return b.String()
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
	body, ok := areClassBodies()[name]
	return body, ok
}
