package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// tsWords are what generated text is made of: English words in several
// forms (stems meet), stop words, numbers of every kind the default
// parser knows, hyphenated words, emails, URLs, hosts, paths, versions,
// non-ASCII letters, tags, entities and punctuation.
var tsWords = []string{
	"the", "a", "of", "and", "is", "was", "be", "it", "over", "not", "no", "very", "them",
	"fox", "foxes", "quick", "quickly", "jumping", "jumped", "jumps", "lazy", "laziness", "dog", "dogs",
	"running", "runner", "ran", "generously", "generous", "connection", "connected", "connecting",
	"happiness", "happy", "studies", "studying", "cats", "caresses", "ponies", "ties", "sky", "skies",
	"national", "nationality", "relational", "conditional", "rational", "valency", "hesitancy",
	"digitizer", "conformabli", "radically", "differently", "vileli", "analogousli", "vietnamization",
	"predication", "operator", "feudalism", "decisiveness", "hopefulness", "callousness", "formaliti",
	"sensitiviti", "sensibiliti", "triplicate", "formative", "formalize", "electriciti", "electrical",
	"hopeful", "goodness", "revival", "allowance", "inference", "airliner", "gyroscopic", "adjustable",
	"defensible", "irritant", "replacement", "adjustment", "dependent", "adoption", "homologou",
	"communism", "activate", "angulariti", "homologous", "effective", "bowdlerize", "probate", "rate",
	"cease", "controll", "roll", "generate", "communication", "news", "howe", "atlas", "cosmos", "bias",
	"andes", "skis", "dying", "lying", "tying", "idly", "gently", "ugly", "early", "only", "singly",
	"inning", "outing", "canning", "herring", "earring", "proceed", "exceed", "succeed",
	"PostgreSQL", "SQL", "Fluss", "Arrow", "TEXT", "Search", "Ranking", "Éclair", "naïve", "café", "über",
	"straße", "niño", "smörgåsbord", "Ärger",
	"42", "3.14", "-7", "+12", "1e10", "2.5E-3", "1.2.3", "10.0.1", "v2", "abc123", "123abc", "x_y", "_z",
	"foo-bar", "state-of-the-art", "e-mail", "co-op", "x-ray-2", "1-2", "well--known", "naïve-café",
	"user@example.com", "first.last@mail.example.org", "http://www.example.com/path/to/page.html?q=1",
	"https://db.example.org:8080/x", "www.postgresql.org", "example.com/index.html", "localhost:5432",
	"/usr/local/bin", "./run.sh", "../etc/passwd", "~/notes.txt", "C:", "file.tar.gz",
	"<b>", "</b>", "<p class=\"x\">", "&amp;", "&#39;", "&lt;",
	",", ".", ";", ":", "!", "?", "(", ")", "'", "\"", "--", "...", "—", "€5", "#tag", "@mention",
}

// randomTSText is a text of random words and separators.
func randomTSText(rng *rand.Rand) string {
	n := 1 + rng.Intn(12)
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString([]string{" ", " ", " ", "  ", ", ", ". ", "\n", "\t", "-", "/"}[rng.Intn(10)])
		}
		b.WriteString(tsWords[rng.Intn(len(tsWords))])
	}
	return b.String()
}

// tsQueryWords are operands of generated queries: words of tsWords that
// lex to one token mostly, stop words, and operands with weights and
// prefixes.
var tsQueryWords = []string{"fox", "foxes", "dog", "dogs", "the", "jump", "jumping", "lazy", "quick", "cat",
	"connect", "connection", "happy", "sky", "skies", "over", "a", "postgresql", "café", "foo-bar",
	"'fat rat'", "'the fox'", "user@example.com", "42", "3.14", "run", "runner"}

// randomTSQuery is to_tsquery text: operands joined by & | <-> <N>, some
// negated, some grouped, some with :* and weights.
func randomTSQuery(rng *rand.Rand, depth int) string {
	if depth <= 0 || rng.Intn(3) == 0 {
		w := tsQueryWords[rng.Intn(len(tsQueryWords))]
		switch rng.Intn(6) {
		case 0:
			w += ":*"
		case 1:
			w += ":" + []string{"A", "B", "AB", "CD", "*A", "D"}[rng.Intn(6)]
		}
		if rng.Intn(6) == 0 {
			w = "!" + w
		}
		return w
	}
	op := []string{" & ", " | ", " <-> ", " <2> ", " <0> ", "&", " <-> "}[rng.Intn(7)]
	s := randomTSQuery(rng, depth-1) + op + randomTSQuery(rng, depth-1)
	if rng.Intn(3) == 0 {
		s = "(" + s + ")"
		if rng.Intn(4) == 0 {
			s = "!" + s
		}
	}
	return s
}

// tsLiteral quotes s as an SQL string literal.
func tsLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// TestTextSearchDifferential: random texts through to_tsvector and the
// default parser (ts_debug's tokens, by way of the simple
// configuration), random queries through to_tsquery, plainto_tsquery,
// phraseto_tsquery and websearch_to_tsquery, their matches (@@) and
// ranks (ts_rank, with each normalization), on sqlgate and PostgreSQL
// 15: the same values, or refused alike.
func TestTextSearchDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 3614))))
	stats := map[string]int{}
	for i := 0; i < 150; i++ {
		text := tsLiteral(randomTSText(rng))
		cfg := []string{"'english'", "'simple'"}[rng.Intn(2)]
		q := tsLiteral(randomTSQuery(rng, 3))
		norm := []int{0, 1, 2, 8, 16, 32, 3, 63}[rng.Intn(8)]
		for _, sql := range []string{
			fmt.Sprintf("SELECT to_tsvector(%s, %s)", cfg, text),
			fmt.Sprintf("SELECT to_tsquery(%s, %s)", cfg, q),
			fmt.Sprintf("SELECT plainto_tsquery(%s, %s), phraseto_tsquery(%s, %s)", cfg, text, cfg, text),
			fmt.Sprintf("SELECT to_tsvector(%s, %s) @@ to_tsquery(%s, %s)", cfg, text, cfg, q),
			fmt.Sprintf("SELECT ts_rank(to_tsvector(%s, %s), to_tsquery(%s, %s), %d)", cfg, text, cfg, q, norm),
			fmt.Sprintf("SELECT ts_rank(to_tsvector(%s, %s), plainto_tsquery(%s, %s))", cfg, text, cfg, text),
			fmt.Sprintf("SELECT to_tsvector(%s, %s) @@ phraseto_tsquery(%s, %s)", cfg, text, cfg, text),
			fmt.Sprintf("SELECT numnode(to_tsquery(%s, %s)), querytree(to_tsquery(%s, %s)), length(to_tsvector(%s, %s))", cfg, q, cfg, q, cfg, text),
			fmt.Sprintf("SELECT %s::tsquery", q),
			fmt.Sprintf("SELECT setweight(to_tsvector(%s, %s), 'B') || to_tsvector(%s, %s)", cfg, text, cfg, text),
		} {
			tally(t, ctx, r, sql, stats)
		}
	}
	t.Logf("%v", stats)
	if stats["same"] < 1000 {
		t.Errorf("too few agreeing outcomes: %v", stats)
	}
}

// TestTextSearchParserDifferential compares the default parser's tokens
// with PostgreSQL's ts_parse over random text: each token and its type.
func TestTextSearchParserDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 3615))))
	stats := map[string]int{}
	for i := 0; i < 200; i++ {
		text := tsLiteral(randomTSText(rng))
		// the simple configuration keeps every indexed token as it is
		// (lower-cased) at its position: the tokens in order
		tally(t, ctx, r, fmt.Sprintf("SELECT to_tsvector('simple', %s)", text), stats)
	}
	t.Logf("%v", stats)
	if stats["same"] < 200 {
		t.Errorf("too few agreeing outcomes: %v", stats)
	}
}

// randomWebsearch is websearch_to_tsquery text: words, "quoted
// phrases", or between words, -negations.
func randomWebsearch(rng *rand.Rand) string {
	n := 1 + rng.Intn(6)
	var parts []string
	for i := 0; i < n; i++ {
		w := tsQueryWords[rng.Intn(len(tsQueryWords))]
		w = strings.Trim(w, "'")
		switch rng.Intn(6) {
		case 0:
			w = "-" + w
		case 1:
			w = `"` + w + " " + tsQueryWords[rng.Intn(len(tsQueryWords))] + `"`
		case 2:
			if i > 0 && i < n-1 {
				w = "or " + w
			}
		}
		parts = append(parts, w)
	}
	return strings.Join(parts, " ")
}

// TestWebsearchDifferential compares websearch_to_tsquery over random
// search-box text, and its matches.
func TestWebsearchDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 3616))))
	stats := map[string]int{}
	for i := 0; i < 150; i++ {
		q := tsLiteral(randomWebsearch(rng))
		text := tsLiteral(randomTSText(rng))
		tally(t, ctx, r, fmt.Sprintf("SELECT websearch_to_tsquery('english', %s), to_tsvector('english', %s) @@ websearch_to_tsquery('english', %s)", q, text, q), stats)
	}
	t.Logf("%v", stats)
	if stats["same"] < 150 {
		t.Errorf("too few agreeing outcomes: %v", stats)
	}
}

// tsBinaryQueries return tsvector, tsquery and regconfig values and their
// arrays, which travel in binary as tsvectorsend, tsquerysend and the
// configuration's OID write them.
var tsBinaryQueries = []string{
	"SELECT to_tsvector('english', 'The quick-brown foxes jumped'), 'a:1A,2 b c:3'::tsvector, strip('a:1 b:2'::tsvector), ''::tsvector",
	"SELECT to_tsquery('english', 'fox & !cat | (jump <-> over) & dog:*AB'), 'a <3> (b | !c)'::tsquery, ''::tsquery",
	"SELECT 'english'::regconfig, 'simple'::regconfig, ARRAY['a:1'::tsvector], ARRAY['a & b'::tsquery], NULL::tsvector",
}

// TestTextSearchBinaryDifferential reads the text search types in binary
// format: the same bytes and types as PostgreSQL's.
func TestTextSearchBinaryDifferential(t *testing.T) {
	t.Parallel()
	compareBinary(t, tsBinaryQueries, nil, 0)
}
