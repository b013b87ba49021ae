package functions

import (
	"fmt"
	"strings"
	"testing"
	"unicode"
)

// TestClassRangesSkipNothing: scanning only classCandidates' code points
// gives each class exactly the ranges a scan of every code point gives.
func TestClassRangesSkipNothing(t *testing.T) {
	everyCodePoint := func(p func(rune) bool) string {
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
	preds := map[string]func(rune) bool{
		"letters":    unicode.IsLetter,
		"upper":      func(r rune) bool { return unicode.ToLower(r) != r || unicode.IsUpper(r) },
		"marks":      unicode.IsMark,
		"private":    func(r rune) bool { return unicode.Is(unicode.Co, r) },
		"stride":     func(r rune) bool { return unicode.Is(unicode.Lu, r) && r%2 == 0 },
		"other_alph": func(r rune) bool { return unicode.Is(unicode.Other_Alphabetic, r) },
	}
	for name, p := range preds {
		if got, want := runeRanges(p), everyCodePoint(p); got != want {
			t.Errorf("%s: candidates' scan differs from the full scan (%d vs %d bytes)", name, len(got), len(want))
		}
	}
	for _, name := range []string{"alpha", "alnum", "upper", "lower", "space", "graph", "print", "punct", "word"} {
		if b, ok := areClasses.body(name); !ok || b == "" {
			t.Errorf("class %s: empty", name)
		}
	}
}
