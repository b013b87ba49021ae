package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// hlWords are a small vocabulary, so that documents repeat their words
// and queries find several covers: words whose stems meet, stop words,
// short words, hyphenated words, tags, a URL, numbers and non-ASCII
// letters.
var hlWords = []string{
	"fox", "foxes", "dog", "dogs", "cat", "quick", "quickly", "lazy", "jumps", "jumping", "over",
	"the", "a", "of", "is", "and", "it", "be", "no", "sky", "skies", "run", "runner", "ran",
	"fox", "dog", "cat", "fox", "dog", "the", "the", "over",
	"fox-dog", "state-of-the-art", "co-op", "<b>", "</b>", "<p>", "http://www.example.com/fox",
	"42", "3.14", "1.2.3", "café", "naïve", "über", "ox", "go",
}

// randomHLText is a document of 1 to 60 of hlWords.
func randomHLText(rng *rand.Rand) string {
	n := 1 + rng.Intn(60)
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString([]string{" ", " ", " ", ", ", ". ", "\n", " - "}[rng.Intn(7)])
		}
		b.WriteString(hlWords[rng.Intn(len(hlWords))])
	}
	return b.String()
}

var hlQueryWords = []string{"fox", "dog", "cat", "quick", "lazy", "jump", "sky", "run", "the", "café",
	"fo:*", "do:*", "fox:A", "dog:B", "fox:AB", "42", "co-op", "state-of-the-art"}

// randomHLQuery is to_tsquery text over hlQueryWords: & | ! <-> <N>.
func randomHLQuery(rng *rand.Rand, depth int) string {
	if depth <= 0 || rng.Intn(3) == 0 {
		w := hlQueryWords[rng.Intn(len(hlQueryWords))]
		if rng.Intn(7) == 0 {
			w = "!" + w
		}
		return w
	}
	op := []string{" & ", " | ", " <-> ", " <2> ", " <3> ", " & ", " | "}[rng.Intn(7)]
	s := randomHLQuery(rng, depth-1) + op + randomHLQuery(rng, depth-1)
	if rng.Intn(3) == 0 {
		s = "(" + s + ")"
		if rng.Intn(5) == 0 {
			s = "!" + s
		}
	}
	return s
}

// randomHLOptions is ts_headline's options text: each option now and
// then, with values in and out of range, in the ways it may be written
// (quoted, E-quoted, spaces or commas between), now and then a bad one.
func randomHLOptions(rng *rand.Rand) string {
	var parts []string
	pick := func(p int) bool { return rng.Intn(p) == 0 }
	if pick(2) {
		parts = append(parts, fmt.Sprintf("MaxWords=%d", []int{5, 8, 10, 20, 35, 3, 2}[rng.Intn(7)]))
	}
	if pick(2) {
		parts = append(parts, fmt.Sprintf("MinWords = %d", []int{1, 2, 3, 5, 10, 15, 0}[rng.Intn(7)]))
	}
	if pick(3) {
		parts = append(parts, fmt.Sprintf("ShortWord=%d", []int{0, 1, 2, 3, 5, -1}[rng.Intn(6)]))
	}
	if pick(3) {
		parts = append(parts, fmt.Sprintf("MaxFragments=%d", []int{0, 1, 2, 3, 5}[rng.Intn(5)]))
	}
	if pick(4) {
		parts = append(parts, []string{`StartSel=<em>`, `StartSel="[["`, `startsel='<<'`, `StartSel=E'{'`, `StartSel=""`}[rng.Intn(5)])
	}
	if pick(4) {
		parts = append(parts, []string{`StopSel=</em>`, `StopSel="]]"`, `stopsel='>>'`, `StopSel=}`}[rng.Intn(4)])
	}
	if pick(4) {
		parts = append(parts, []string{`HighlightAll=true`, `HighlightAll=FALSE`, `highlightall=1`, `HighlightAll=yes`, `HighlightAll=off`}[rng.Intn(5)])
	}
	if pick(4) {
		parts = append(parts, []string{`FragmentDelimiter=" | "`, `FragmentDelimiter=...`, `FragmentDelimiter='; '`}[rng.Intn(3)])
	}
	if pick(25) {
		parts = append(parts, []string{`Bogus=1`, `MaxWords=x`, `MaxWords`, `MinWords=99999999999`, `StartSel='x`}[rng.Intn(5)])
	}
	rng.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
	return strings.Join(parts, []string{", ", " ", ","}[rng.Intn(3)])
}

// TestTextSearchHeadlineDifferential compares ts_headline (text, json
// and jsonb documents, every option), ts_rank_cd (weights and every
// normalization bit), ts_rank, ts_rewrite, unnest(tsvector) and ts_parse over random
// documents of a small
// vocabulary and random queries, with PostgreSQL 15: the same text and
// floats, or the same errors. SQLGATE_DIFF_HEADLINES sets the count.
func TestTextSearchHeadlineDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 3617))))
	n := envInt(t, "SQLGATE_DIFF_HEADLINES", 150)
	stats := map[string]int{}
	for i := 0; i < n; i++ {
		doc := tsLiteral(randomHLText(rng))
		cfg := []string{"'english'", "'simple'"}[rng.Intn(2)]
		q := fmt.Sprintf("to_tsquery(%s, %s)", cfg, tsLiteral(randomHLQuery(rng, 3)))
		opts := tsLiteral(randomHLOptions(rng))
		vec := fmt.Sprintf("to_tsvector(%s, %s)", cfg, doc)
		if rng.Intn(3) == 0 {
			vec = fmt.Sprintf("(setweight(to_tsvector(%s, %s), 'A') || %s)", cfg, tsLiteral(randomHLText(rng)), vec)
		}
		norm := []int{0, 1, 2, 4, 8, 16, 32, 5, 63}[rng.Intn(9)]
		weights := []string{"'{0.1,0.2,0.4,1.0}'", "'{1,1,1,1}'", "'{0.5,-1,0.25,0.75}'", "'{0,0.5,0.5,1}'", "'{0.1,0.2,0.4}'", "'{0.1,0.2,0.4,1.5}'"}[rng.Intn(6)]
		for _, sql := range []string{
			fmt.Sprintf("SELECT ts_headline(%s, %s, %s, %s)", cfg, doc, q, opts),
			fmt.Sprintf("SELECT ts_headline(%s, %s, %s)", cfg, doc, q),
			fmt.Sprintf("SELECT ts_rank_cd(%s, %s, %d), ts_rank(%s, %s, %d)", vec, q, norm, vec, q, norm),
			fmt.Sprintf("SELECT ts_rank_cd(%s, %s, %s, %d)", weights, vec, q, norm),
			fmt.Sprintf("SELECT ts_headline(%s, jsonb_build_object('a', %s, 'b', jsonb_build_array(%s, 1, null, true)), %s, %s)", cfg, doc, doc, q, opts),
			fmt.Sprintf("SELECT ts_rewrite(%s, %s::tsquery, %s::tsquery)", q, tsLiteral(randomRewriteQuery(rng)), tsLiteral(randomRewriteQuery(rng))),
			fmt.Sprintf("SELECT * FROM unnest(%s)", vec),
			fmt.Sprintf("SELECT * FROM ts_parse('default', %s)", doc),
			fmt.Sprintf("SELECT ts_headline(%s, json_build_object('a', %s, 'b', json_build_array(%s, 1, null, true)), %s, %s)", cfg, doc, doc, q, opts),
		} {
			tally(t, ctx, r, sql, stats)
		}
	}
	t.Logf("%v", stats)
	if stats["same"] < n*6 {
		t.Errorf("too few agreeing outcomes: %v", stats)
	}
}

// randomRewriteQuery is a ts_rewrite target or substitute: tsquery text
// over stems the generated queries hold (so that targets match), now and
// then empty.
func randomRewriteQuery(rng *rand.Rand) string {
	words := []string{"fox", "dog", "cat", "quick", "lazi", "jump", "sky", "run", "fo:*", "dog:B"}
	var one func(depth int) string
	one = func(depth int) string {
		if depth <= 0 || rng.Intn(3) == 0 {
			w := words[rng.Intn(len(words))]
			if rng.Intn(8) == 0 {
				w = "!" + w
			}
			return w
		}
		op := []string{" & ", " | ", " <-> ", " & "}[rng.Intn(4)]
		return "(" + one(depth-1) + op + one(depth-1) + ")"
	}
	if rng.Intn(10) == 0 {
		return ""
	}
	return one(2)
}
