package difftest

import (
	"math/rand/v2"
	"strings"
)

// ArrayTextGen makes array text inputs: well-formed nested arrays of one
// to three levels (quoted and bare elements, NULLs, blanks, escapes,
// empty arrays), about half of them then damaged by a few token edits (a
// brace, comma, quote or backslash inserted, dropped or swapped), so that
// both the accepted shapes and every refusal of PostgreSQL's array_in are
// reached.
type ArrayTextGen struct {
	rng *rand.Rand
}

// NewArrayTextGen returns a generator with a fixed seed.
func NewArrayTextGen(seed uint64) *ArrayTextGen {
	return &ArrayTextGen{rng: rand.New(rand.NewPCG(seed, 0x617272))}
}

var arrayElems = []string{"1", "-2", "30", "NULL", "null", `"4"`, `" 5 "`, "a", `"b,c"`, `"d\"e"`, `f\,g`, `"NULL"`, `""`, " 7 ", `h\\i`, "é"}

var arrayEdits = []string{"{", "}", ",", `"`, `\`, " ", "{}", "x", "1"}

// Literal returns one array text and the depth it was built with.
func (g *ArrayTextGen) Literal() (text string, depth int) {
	depth = 1 + g.rng.IntN(3)
	var b strings.Builder
	g.level(&b, depth, 1+g.rng.IntN(3))
	s := b.String()
	if g.rng.IntN(2) == 0 {
		for n := 1 + g.rng.IntN(2); n > 0; n-- {
			s = g.damage(s)
		}
	}
	return s, depth
}

func (g *ArrayTextGen) level(b *strings.Builder, depth, width int) {
	b.WriteByte('{')
	if g.rng.IntN(12) == 0 {
		b.WriteByte('}') // an empty array at any level
		return
	}
	for i := 0; i < width; i++ {
		if i > 0 {
			b.WriteByte(',')
			if g.rng.IntN(4) == 0 {
				b.WriteByte(' ')
			}
		}
		if depth > 1 {
			g.level(b, depth-1, width)
			continue
		}
		b.WriteString(arrayElems[g.rng.IntN(len(arrayElems))])
	}
	b.WriteByte('}')
}

// damage inserts, drops or replaces one byte-level token of s.
func (g *ArrayTextGen) damage(s string) string {
	r := []rune(s) // edits keep the text valid UTF-8, as SQL text must be
	edit := arrayEdits[g.rng.IntN(len(arrayEdits))]
	if len(r) == 0 {
		return edit
	}
	i := g.rng.IntN(len(r))
	switch g.rng.IntN(3) {
	case 0:
		return string(r[:i]) + edit + string(r[i:])
	case 1:
		return string(r[:i]) + string(r[i+1:])
	default:
		return string(r[:i]) + edit + string(r[i+1:])
	}
}
