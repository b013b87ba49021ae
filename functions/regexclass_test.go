package functions

import (
	"testing"
	"unicode"
)

// TestClassRangesSkipNothing: the one scan of classCandidates' code points
// gives each class exactly the ranges a scan of every code point gives.
func TestClassRangesSkipNothing(t *testing.T) {
	ws := make([]rangeWriter, len(classRules))
	for r := rune(0); r <= unicode.MaxRune; r++ {
		f := factsOf(r)
		for i, c := range classRules {
			if c.has(f, r) {
				ws[i].add(r)
			}
		}
	}
	built := areClasses.built()
	for i, c := range classRules {
		ws[i].flush()
		got, want := built[c.name], ws[i].b.String()
		if got != want {
			t.Errorf("%s: candidates' scan differs from the full scan (%d vs %d bytes)", c.name, len(got), len(want))
		}
		if got == "" {
			t.Errorf("class %s: empty", c.name)
		}
	}
}
