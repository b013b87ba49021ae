package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// jpGen generates jsonpath texts, jsonb documents and vars from small
// grammars (seeded: the same triples every run).
type jpGen struct{ r *rand.Rand }

func (g jpGen) pick(xs ...string) string { return xs[g.r.Intn(len(xs))] }

var jpKeys = []string{"a", "b", "c", `"x y"`, "type", "last", `""`}

// doc is a jsonb document: objects over jpKeys' names, arrays, numbers,
// strings, booleans and nulls, nested up to depth.
func (g jpGen) doc(depth int) string {
	k := g.r.Intn(10)
	if depth <= 0 {
		k = 4 + g.r.Intn(6)
	}
	switch k {
	case 0, 1, 2:
		n := g.r.Intn(4)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = fmt.Sprintf(`"%s": %s`, g.pick("a", "b", "c", "x y", "type"), g.doc(depth-1))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case 3:
		n := g.r.Intn(4)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = g.doc(depth - 1)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case 4, 5:
		return g.pick("0", "1", "2", "-3", "2.5", "1e2", "0.10", "10")
	case 6, 7:
		return g.pick(`"abc"`, `"a"`, `"Abd"`, `""`, `"1.5"`, `"x y"`)
	case 8:
		return g.pick("true", "false")
	}
	return "null"
}

func (g jpGen) num() string { return g.pick("0", "1", "2", "-1", "2.5", "1e1", ".5", "10") }

// expr is a path expression; inFilter allows @.
func (g jpGen) expr(depth int, inFilter bool) string {
	k := g.r.Intn(10)
	if depth <= 0 {
		k = g.r.Intn(4)
	}
	switch k {
	case 0, 1, 2, 3:
		return g.chain(depth, inFilter)
	case 4:
		return g.num()
	case 5:
		return g.pick(`"abc"`, `"a"`, "null", "true", "$x", `$"y"`)
	case 6:
		return g.expr(depth-1, inFilter) + " " + g.pick("+", "-", "*", "/", "%") + " " + g.expr(depth-1, inFilter)
	case 7:
		return g.pick("-", "+") + g.expr(depth-1, inFilter)
	case 8:
		return "(" + g.expr(depth-1, inFilter) + ")"
	}
	return g.chain(depth, inFilter)
}

func (g jpGen) chain(depth int, inFilter bool) string {
	var b strings.Builder
	if inFilter && g.r.Intn(2) == 0 {
		b.WriteString("@")
	} else {
		b.WriteString("$")
	}
	for n := g.r.Intn(4); n > 0; n-- {
		switch g.r.Intn(12) {
		case 0, 1, 2:
			b.WriteString("." + jpKeys[g.r.Intn(len(jpKeys))])
		case 3:
			b.WriteString(".*")
		case 4:
			b.WriteString("[*]")
		case 5:
			b.WriteString("[" + g.pick("0", "1", "last", "last - 1", "0 to 1", "1 to last", "0, 2", "-1", "5", "1.7", `"a"`, "$x") + "]")
		case 6:
			b.WriteString(g.pick(".**", ".**{1}", ".**{0 to 1}", ".**{1 to last}", ".**{2}"))
		case 7:
			b.WriteString(g.pick(".type()", ".size()", ".double()", ".ceiling()", ".floor()", ".abs()", ".keyvalue()"))
		case 8, 9:
			if depth > 0 {
				b.WriteString(" ? (" + g.pred(depth-1) + ")")
			}
		default:
			b.WriteString("." + g.pick("a", "b"))
		}
	}
	return b.String()
}

// pred is a predicate over @.
func (g jpGen) pred(depth int) string {
	k := g.r.Intn(10)
	if depth <= 0 {
		k = g.r.Intn(3)
	}
	switch k {
	case 0, 1, 2:
		return g.expr(depth-1, true) + " " + g.pick("==", "!=", "<", "<=", ">", ">=", "<>") + " " + g.expr(depth-1, true)
	case 3:
		return g.pred(depth-1) + " && " + g.pred(depth-1)
	case 4:
		return g.pred(depth-1) + " || " + g.pred(depth-1)
	case 5:
		return "!(" + g.pred(depth-1) + ")"
	case 6:
		return "exists(" + g.expr(depth-1, true) + ")"
	case 7:
		return "(" + g.pred(depth-1) + ") is unknown"
	case 8:
		return g.expr(depth-1, true) + " starts with " + g.pick(`"a"`, `"A"`, `""`, "$x")
	}
	return g.expr(depth-1, true) + " like_regex " + g.pick(`"^a"`, `"b.d"`, `"A"`, `"x|y"`) + g.pick("", ` flag "i"`, ` flag "q"`)
}

// path is a whole path: lax or strict, an expression or a predicate,
// sometimes broken by a dropped or an added character.
func (g jpGen) path() string {
	p := g.pick("", "lax ", "strict ")
	if g.r.Intn(4) == 0 {
		p += g.pred(2)
	} else {
		p += g.expr(3, false)
	}
	if g.r.Intn(8) == 0 && len(p) > 1 {
		i := g.r.Intn(len(p))
		switch g.r.Intn(3) {
		case 0:
			p = p[:i] + p[i+1:]
		case 1:
			p = p[:i] + g.pick("(", ")", "[", "]", ".", "?", "@", "!", "=", "1", "a", " ", `"`) + p[i:]
		default:
			p = p[:i] + g.pick("..", "**", "$$", "==") + p[i:]
		}
	}
	return p
}

func sqlQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// TestJSONPathDifferential: generated paths read as jsonpath (their
// printed form or the error), then (document, path, vars) triples through
// every jsonpath function and both operators, lax and strict, silent and
// not, on sqlgate and PostgreSQL 15: the same values, or both refused
// with the same SQLSTATE and message.
func TestJSONPathDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	g := jpGen{r: rand.New(rand.NewSource(int64(diffSeed(t, 15))))}
	stats := map[string]int{}
	for i := 0; i < 1500; i++ {
		tally(t, ctx, r, "SELECT "+sqlQuote(g.path())+"::jsonpath", stats)
	}
	for i := 0; i < 1500; i++ {
		doc, path := sqlQuote(g.doc(3)), sqlQuote(g.path())
		vars := sqlQuote(fmt.Sprintf(`{"x": %s, "y": %s}`, g.doc(1), g.doc(1)))
		silent := g.pick("false", "true")
		var q string
		switch i % 6 {
		case 0:
			q = fmt.Sprintf("SELECT jsonb_path_query(%s, %s, %s, %s)", doc, path, vars, silent)
		case 1:
			q = fmt.Sprintf("SELECT jsonb_path_query_array(%s, %s, %s, %s)", doc, path, vars, silent)
		case 2:
			q = fmt.Sprintf("SELECT jsonb_path_query_first(%s, %s, %s, %s)", doc, path, vars, silent)
		case 3:
			q = fmt.Sprintf("SELECT jsonb_path_exists(%s, %s, %s, %s)", doc, path, vars, silent)
		case 4:
			q = fmt.Sprintf("SELECT jsonb_path_match(%s, %s, %s, %s)", doc, path, vars, silent)
		default:
			q = fmt.Sprintf("SELECT %s::jsonb @? %s, %s::jsonb @@ %s", doc, path, doc, path)
		}
		tallyBy(t, ctx, r, q, stats, tallyRule{ordered: true})
	}
	t.Logf("jsonpath: %v", stats)
}
