package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"regexp"
	"strings"
	"testing"
)

// regexGen draws PostgreSQL regular expressions from a grammar of the
// three flavours' syntax (ARE by default, BRE under the b and e flags,
// ERE through the embedded option (?e)), with back-references,
// lookahead and lookbehind constraints, \m \M \y \Y, and greedy and
// non-greedy quantifiers mixed, in which a
// twentieth of the choices are faults of every REG_* class: unbalanced parentheses, brackets and
// braces, quantifiers without an operand, bad repetition counts, unknown
// escapes, classes and collating elements, reversed ranges, back-references
// to groups not yet closed, bad embedded options and *** directors.
type regexGen struct {
	rng   *rand.Rand
	depth int
	// closed is the number of capturing parentheses closed so far, which
	// back-references are drawn from (one past them now and then: a
	// fault, or a group still open)
	closed int
	// inLook: inside a lookaround constraint, where groups do not capture
	// and back-references are faults
	inLook bool
}

func (g *regexGen) pick(xs ...string) string { return xs[g.rng.Intn(len(xs))] }

// faulty is true with probability 1/20.
func (g *regexGen) faulty() bool { return g.rng.Intn(20) == 0 }

func (g *regexGen) pattern() string {
	var b strings.Builder
	switch g.rng.Intn(12) {
	case 0:
		b.WriteString(g.pick("***:", "***=", "***?", "***x", "(?i)", "(?x)", "(?n)", "(?e)", "(?b)", "(?q)", "(?ic)", "(?z)", "(?i", "(?ex)"))
	case 1:
		b.WriteString("^")
	}
	g.closed = 0
	b.WriteString(g.alt())
	if g.rng.Intn(4) == 0 {
		b.WriteString("$")
	}
	return b.String()
}

func (g *regexGen) alt() string {
	parts := []string{g.branch()}
	for g.rng.Intn(4) == 0 {
		parts = append(parts, g.branch())
	}
	return strings.Join(parts, "|")
}

func (g *regexGen) branch() string {
	var b strings.Builder
	for range 1 + g.rng.Intn(3) {
		b.WriteString(g.piece())
	}
	return b.String()
}

func (g *regexGen) piece() string {
	a := g.atom()
	if isConstraint(a) && !g.faulty() {
		return a // a quantified constraint is a fault, drawn through faulty
	}
	switch g.rng.Intn(6) {
	case 0:
		a += g.pick("*", "+", "?", "*?", "+?", "??")
	case 1:
		a += g.bound() + g.pick("", "", "?")
	}
	if g.faulty() {
		a += g.pick("*", "**", "{", "{1", "{2,1}", "{256}", "{1,x}", "{,2}", "{}")
	}
	return a
}

// isConstraint reports an ARE constraint atom: an anchor, a word
// constraint or a lookaround.
func isConstraint(a string) bool {
	switch a {
	case `\y`, `\Y`, `\A`, `\Z`, "^", "$", `\m`, `\M`:
		return true
	}
	return strings.HasPrefix(a, "(?=") || strings.HasPrefix(a, "(?!") || strings.HasPrefix(a, "(?<")
}

func (g *regexGen) bound() string {
	switch g.rng.Intn(3) {
	case 0:
		return fmt.Sprintf("{%d}", g.rng.Intn(3))
	case 1:
		return fmt.Sprintf("{%d,}", g.rng.Intn(3))
	}
	m := g.rng.Intn(3)
	return fmt.Sprintf("{%d,%d}", m, m+g.rng.Intn(3))
}

func (g *regexGen) atom() string {
	if g.faulty() {
		return g.pick("(", ")", "*", "+", "[", "[a", "[z-a]", "[a-c-e]", "[[:bogus:]]", "[[.bad.]]", "[[..]]",
			"[[=ab=]]", "[[:alpha:", `\`, `\q`, `\x`, `\u12`, `\c`, `\9`, `(a\1)`, `(?<x)`, `(?`, `(*)`, "a|*",
			"[a-\\d]", "[\\d-a]", "[[=a=]-c]", "[\\y]", "(?i)")
	}
	switch n := g.rng.Intn(20); {
	case n < 7:
		return g.pick("a", "b", "A", "B", "1", " ", "-", "_", "x")
	case n < 9:
		return g.pick(".", `\d`, `\w`, `\s`, `\D`, `\W`, `\S`)
	case n < 11:
		return g.pick(`\n`, `\t`, `\x41`, `\x61`, `\u0062`, `\B`, `\b`, `\101`, `\0`, `\e`, `\.`, `\*`, `\-`, `\_`, `\(`, `\{`)
	case n < 12:
		return g.pick(`\y`, `\Y`, `\A`, `\Z`, "^", "$", `\m`, `\M`)
	case n < 15:
		return g.bracket()
	case n < 16 && g.closed > 0 && !g.inLook:
		k := 1 + g.rng.Intn(g.closed)
		if g.faulty() {
			k = g.closed + 1
		}
		return fmt.Sprintf(`\%d`, k)
	}
	if g.depth > 2 {
		return "a"
	}
	g.depth++
	defer func() { g.depth-- }()
	open := g.pick("(", "(", "(?:", "\\(", "(?=", "(?!", "(?<=", "(?<!")
	if strings.HasPrefix(open, "(?") && open != "(?:" {
		saved := g.inLook
		g.inLook = true
		defer func() { g.inLook = saved }()
	} else if open == "(" && !g.inLook {
		defer func() { g.closed++ }()
	}
	return open + g.alt() + g.pick(")", ")", "\\)")
}

func (g *regexGen) bracket() string {
	var b strings.Builder
	b.WriteString(g.pick("[", "[", "[^"))
	if g.rng.Intn(8) == 0 {
		b.WriteString(g.pick("]", "-"))
	}
	for range 1 + g.rng.Intn(3) {
		b.WriteString(g.pick("a", "b", "A", "1", " ", "a-c", "A-Z", "0-9", "[:alpha:]", "[:digit:]", "[:upper:]",
			"[:lower:]", "[:space:]", "[:punct:]", "[:alnum:]", "[:word:]", "[:xdigit:]", "[.a.]", "[.space.]",
			"[.hyphen.]", "[=a=]", `\d`, `\w`, `\s`, `\D`, `\n`, `\\`, `\x41`, ".", "*", "(", "^", "[.a.]-c"))
	}
	if g.rng.Intn(8) == 0 {
		b.WriteString("-")
	}
	b.WriteString("]")
	return b.String()
}

// similar is a SIMILAR TO pattern with # as its escape, mostly with the
// two #" separators substring needs.
func (g *regexGen) similar() string {
	var b strings.Builder
	part := func() {
		for range g.rng.Intn(3) {
			b.WriteString(g.pick("a", "b", "%", "_", "a*", "b+", "(a|b)", "[ab]", "x?", "1{1,2}", "(ab)*", "%a"))
		}
	}
	part()
	if g.rng.Intn(6) > 0 {
		b.WriteString(`#"`)
		part()
		b.WriteString(`#"`)
	}
	part()
	return b.String()
}

// subject is a string over the characters the patterns name, a newline
// among them: mostly up to 6 characters, one in four up to 60, with runs
// of one character (what repetitions and back-references read).
func (g *regexGen) subject() string {
	var b strings.Builder
	n := g.rng.Intn(7)
	if g.rng.Intn(4) == 0 {
		n = 7 + g.rng.Intn(54)
	}
	for b.Len() < n {
		c := g.pick("a", "b", "A", "B", "1", "2", " ", "_", "-", "x", "\n", ".", "\\", "(", "{", "\t", "*")
		if g.rng.Intn(3) == 0 {
			c = strings.Repeat(c, 1+g.rng.Intn(8))
		}
		b.WriteString(c)
	}
	return b.String()
}

// backrefPattern is a pattern of two to four capturing groups (greedy,
// non-greedy, alternations, iterations) with back-references to them
// (some quantified) and a literal or anchor between: the shapes whose
// dissection PostgreSQL bounds by its DFA pre-check.
func (g *regexGen) backrefPattern() string {
	var b strings.Builder
	if g.rng.Intn(3) == 0 {
		b.WriteString("^")
	}
	groups := 0
	for range 2 + g.rng.Intn(3) {
		switch k := g.rng.Intn(6); {
		case k < 3 || groups == 0:
			b.WriteString(g.pick("(a+)", "(a*)", "([ab]+)", "(a|b)", "(ab|a)", "(a{1,3})", "(b*)", "((a|b)+)", "(a+?)", "([ab]*?)", "(.)", "(a*b)"))
			groups++
		case k < 5:
			b.WriteString(fmt.Sprintf(`\%d`, 1+g.rng.Intn(groups)) + g.pick("", "", "", "*", "+", "{2}", "{1,2}"))
		default:
			b.WriteString(g.pick("b", "c", "a", "[ab]"))
		}
	}
	if groups < 3 && g.rng.Intn(2) == 0 {
		b.WriteString(fmt.Sprintf(`\%d`, 1+g.rng.Intn(groups)))
	}
	b.WriteString(g.pick("", "", "b", "c", "$", "b$"))
	return b.String()
}

// longSubject is a SQL expression of 50 to most characters of a and b in
// runs, a c now and then, some of it repeated (so that back-references
// can match): repeat() keeps the statement short.
func (g *regexGen) longSubject(most int) string {
	want := 50 + g.rng.Intn(most-49)
	var parts []string
	total := 0
	for total < want {
		c, n := g.pick("a", "a", "b", "ab", "c"), 1+g.rng.Intn(want-total)
		if c == "c" || c == "b" {
			n = 1 + g.rng.Intn(3)
		}
		parts = append(parts, fmt.Sprintf("repeat('%s', %d)", c, n))
		total += n * len(c)
		if g.rng.Intn(4) == 0 && len(parts) > 1 && total < want {
			parts = append(parts, parts[g.rng.Intn(len(parts))])
		}
	}
	return strings.Join(parts, " || ")
}

// flags are a regexp function's flag letters, a bad one among them.
func (g *regexGen) flags() string {
	var b strings.Builder
	for range g.rng.Intn(3) {
		b.WriteString(g.pick("i", "c", "n", "p", "w", "s", "x", "t", "q", "b", "e", "m", "i", "n", "z"))
	}
	return b.String()
}

func sqlText(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// quantifiedBackref finds a back-reference with a quantifier.
var quantifiedBackref = regexp.MustCompile(`\\\d[*+{]`)

// TestRegexBackrefDifferential runs patterns of groups and back-references
// (backrefPattern) over subjects of 50 to 500 characters (longSubject)
// through ~, regexp_match, regexp_count and substring against PostgreSQL
// 15: the same answers and groups, and no "too complex" where PostgreSQL
// answers. SQLGATE_DIFF_REGEX_BACKREF_QUERIES sets the count (default 40).
func TestRegexBackrefDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 20261244))))
	g := &regexGen{rng: rng}
	n := envInt(t, "SQLGATE_DIFF_REGEX_BACKREF_QUERIES", 40)
	stats := map[string]int{}
	for range n {
		// a quantified back-reference to an iterated group takes
		// PostgreSQL minutes over a few hundred characters
		// (((a|b)+)a\1{1,2}\1 over 552: 8.5 min; over 100, 150 and 200
		// that hold no match 0.7, ~4 and 11 s, past the query timeout;
		// sqlgate's dissection 0.5 s over 552): those get up to 150
		pat := g.backrefPattern()
		most := 500
		if quantifiedBackref.MatchString(pat) {
			most = 150
		}
		p, s := sqlText(pat), g.longSubject(most)
		var q string
		switch rng.Intn(4) {
		case 0:
			q = fmt.Sprintf("SELECT %s ~ %s", s, p)
		case 1:
			q = fmt.Sprintf("SELECT regexp_match(%s, %s)", s, p)
		case 2:
			q = fmt.Sprintf("SELECT regexp_count(%s, %s)", s, p)
		default:
			q = fmt.Sprintf("SELECT substring(%s from %s)", s, p)
		}
		tallyBy(t, ctx, r, q, stats, tallyRule{ordered: true})
	}
	t.Logf("%v", stats)
	if stats["same"] < n*9/10 {
		t.Errorf("outcomes: %v", stats)
	}
}

// TestRegexDifferential runs random patterns, flags and subjects through
// ~, ~*, regexp_like, regexp_count, regexp_replace, regexp_instr,
// regexp_substr, regexp_split_to_array, regexp_match and regexp_matches
// (rows in order), substring(... from ...) and SIMILAR TO's substring
// against PostgreSQL 15: the same answers, or the same SQLSTATE and
// message (invalid regular expression: with the REG_* text of the fault's
// class). Nothing is refused: a 0A000 is a difference.
// SQLGATE_DIFF_REGEX_QUERIES sets the count (default 400).
func TestRegexDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 20261207))))
	g := &regexGen{rng: rng}
	n := envInt(t, "SQLGATE_DIFF_REGEX_QUERIES", 400)
	stats := map[string]int{}
	for range n {
		kind := rng.Intn(12)
		p, s, f := sqlText(g.pattern()), sqlText(g.subject()), sqlText(g.flags())
		var q string
		switch kind {
		case 0:
			q = fmt.Sprintf("SELECT %s %s %s", s, g.pick("~", "~*", "!~", "!~*"), p)
		case 1:
			q = fmt.Sprintf("SELECT regexp_like(%s, %s, %s)", s, p, f)
		case 2:
			q = fmt.Sprintf("SELECT regexp_count(%s, %s, 1, %s)", s, p, f)
		case 3:
			q = fmt.Sprintf("SELECT regexp_replace(%s, %s, '<\\&>', %s)", s, p, sqlText(g.flags()+g.pick("", "g")))
		case 4:
			q = fmt.Sprintf("SELECT regexp_instr(%s, %s, 1, %d, %d, %s)", s, p, 1+rng.Intn(2), rng.Intn(2), f)
		case 5:
			q = fmt.Sprintf("SELECT regexp_substr(%s, %s, 1, 1, %s)", s, p, f)
		case 6:
			q = fmt.Sprintf("SELECT regexp_split_to_array(%s, %s, %s)", s, p, f)
		case 7:
			q = fmt.Sprintf("SELECT regexp_match(%s, %s, %s)", s, p, f)
		case 8:
			q = fmt.Sprintf("SELECT m, ord FROM regexp_matches(%s, %s, %s) WITH ORDINALITY AS t(m, ord)", s, p, sqlText(g.flags()+g.pick("", "g")))
		case 9:
			q = fmt.Sprintf("SELECT substring(%s from %s)", s, p)
		case 10:
			q = fmt.Sprintf("SELECT substring(%s similar %s escape '#')", s, sqlText(g.similar()))
		default:
			q = fmt.Sprintf("SELECT %s ~ %s, %s ~ %s", s, p, sqlText(g.subject()), p)
		}
		tallyBy(t, ctx, r, q, stats, tallyRule{ordered: true})
	}
	t.Logf("%v", stats)
	if stats["refused alike"] < n/10 || stats["same"] < n/3 {
		t.Errorf("outcomes: %v", stats)
	}
}
