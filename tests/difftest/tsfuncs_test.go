package difftest

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// tsDebugOIDs maps ts_debug's regdictionary[] and regdictionary columns
// (3770, 3769) to the text[] and text sqlgate gives them: it has no
// regdictionary type; the values print alike.
var tsDebugOIDs = map[uint32]uint32{3770: 1009, 3769: 25}

// tsLexemeArray is an ARRAY of some query words' lexemes (some in the
// document, some not, an empty one, a duplicate).
func tsLexemeArray(rng *rand.Rand) string {
	words := []string{"fox", "dog", "jump", "quick", "lazi", "connect", "the", "", "postgresql", "fox", "42", "café"}
	n := rng.Intn(4)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = tsLiteral(words[rng.Intn(len(words))])
	}
	return "ARRAY[" + strings.Join(parts, ", ") + "]::text[]"
}

// randomTSJSON is a JSON document of generated text: objects (keys made
// of words, some stop words), arrays, numbers, booleans and nulls.
func randomTSJSON(rng *rand.Rand, depth int) string {
	str := func() string {
		b, _ := json.Marshal(randomTSText(rng))
		return string(b)
	}
	if depth <= 0 || rng.Intn(3) == 0 {
		switch rng.Intn(6) {
		case 0:
			return []string{"1", "-2.50", "1e3", "0.000"}[rng.Intn(4)]
		case 1:
			return []string{"true", "false", "null"}[rng.Intn(3)]
		}
		return str()
	}
	n := rng.Intn(4)
	parts := make([]string, n)
	if rng.Intn(2) == 0 {
		for i := range parts {
			k, _ := json.Marshal(tsWords[rng.Intn(len(tsWords))])
			parts[i] = string(k) + ": " + randomTSJSON(rng, depth-1)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	for i := range parts {
		parts[i] = randomTSJSON(rng, depth-1)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// TestTextSearchFunctionsDifferential: generated documents and queries
// through the text search functions beyond to_tsvector and @@:
// ts_debug (with a configuration and with the session's), ts_lexize in
// both dictionaries over every generated word, setweight with a lexeme
// list, ts_delete, ts_filter, tsvector_to_array, array_to_tsvector,
// strip, numnode, querytree, ts_rewrite, tsquery_phrase and ts_rank_cd
// (weights, normalization), and to_tsvector, json_to_tsvector and
// jsonb_to_tsvector over generated JSON documents and filters, on sqlgate and PostgreSQL 15: the same rows
// in the same order, or refused alike.
func TestTextSearchFunctionsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 3769))))
	stats := map[string]int{}
	debug := tallyRule{ordered: true, pgOIDs: tsDebugOIDs}
	for _, w := range tsWords {
		for _, d := range []string{"'simple'", "'english_stem'"} {
			tally(t, ctx, r, fmt.Sprintf("SELECT ts_lexize(%s, %s)", d, tsLiteral(w)), stats)
		}
	}
	for _, q := range []string{"SELECT ts_lexize('english', 'x')", "SELECT ts_lexize('SIMPLE', 'X')", `SELECT ts_lexize('"Simple"', 'x')`,
		"SELECT ts_lexize('simple', '')", "SELECT ts_lexize(NULL, 'x')", "SELECT * FROM ts_debug('nope', 'x')", "SELECT * FROM ts_debug('simple', NULL)"} {
		tally(t, ctx, r, q, stats)
	}
	for i := 0; i < envInt(t, "SQLGATE_DIFF_QUERIES", 60); i++ {
		text := tsLiteral(randomTSText(rng))
		cfg := []string{"'english'", "'simple'"}[rng.Intn(2)]
		v := fmt.Sprintf("to_tsvector(%s, %s)", cfg, text)
		q := fmt.Sprintf("to_tsquery(%s, %s)", cfg, tsLiteral(randomTSQuery(rng, 3)))
		q2 := fmt.Sprintf("to_tsquery(%s, %s)", cfg, tsLiteral(randomTSQuery(rng, 2)))
		norm := []int{0, 1, 2, 4, 8, 16, 32, 5, 63}[rng.Intn(9)]
		weights := []string{"'{0.1, 0.2, 0.4, 1.0}'", "'{1, 1, 1, 1}'", "'{0, 0.5, 0, 0.5}'", "'{0.1, 0.2}'", "'{0.1, 0.2, 0.4, 2}'", "'{0.1, NULL, 0.4, 1}'"}[rng.Intn(6)]
		wt := []string{"'A'", "'b'", "'C'", "'d'", "'x'"}[rng.Intn(5)]
		doc := tsLiteral(randomTSJSON(rng, 3))
		filter := []string{`'["all"]'`, `'["string"]'`, `'["key", "Numeric"]'`, `'["boolean"]'`, `'"all"'`, `'[]'`, `'["x"]'`, `'[1]'`, `'{"a": 1}'`, `'[null]'`}[rng.Intn(10)]
		for _, sql := range []string{
			fmt.Sprintf("SELECT to_tsvector(%s, %s::jsonb), to_tsvector(%s, %s::json), to_tsvector(%s::jsonb)", cfg, doc, cfg, doc, doc),
			fmt.Sprintf("SELECT jsonb_to_tsvector(%s, %s::jsonb, %s), json_to_tsvector(%s, %s::json, %s)", cfg, doc, filter, cfg, doc, filter),
		} {
			tally(t, ctx, r, sql, stats)
		}
		tallyBy(t, ctx, r, fmt.Sprintf("SELECT * FROM ts_debug(%s, %s)", cfg, text), stats, debug)
		tallyBy(t, ctx, r, fmt.Sprintf("SELECT alias, token, dictionary, lexemes FROM ts_debug(%s)", text), stats, debug)
		for _, sql := range []string{
			fmt.Sprintf("SELECT setweight(%s, %s, %s)", v, wt, tsLexemeArray(rng)),
			fmt.Sprintf("SELECT ts_delete(%s, %s), ts_delete(%s, %s)", v, tsLiteral([]string{"fox", "the", "dog", "jump"}[rng.Intn(4)]), v, tsLexemeArray(rng)),
			fmt.Sprintf("SELECT ts_filter(setweight(%s, 'A') || setweight(to_tsvector(%s, %s), 'C') || %s, %s)", v, cfg, tsLiteral(randomTSText(rng)), v,
				[]string{"'{a}'", "'{a,d}'", "'{b}'", "'{c,d}'", "'{x}'", "'{}'"}[rng.Intn(6)]),
			fmt.Sprintf("SELECT tsvector_to_array(%s), array_to_tsvector(tsvector_to_array(%s)), strip(setweight(%s, 'B'))", v, v, v),
			fmt.Sprintf("SELECT array_to_tsvector(%s)", tsLexemeArray(rng)),
			fmt.Sprintf("SELECT numnode(%s), querytree(%s)", q, q),
			fmt.Sprintf("SELECT ts_rewrite(%s, %s, %s)", q, q2, tsLiteral(randomTSQuery(rng, 2))+"::tsquery"),
			fmt.Sprintf("SELECT tsquery_phrase(%s, %s), tsquery_phrase(%s, %s, %d)", q, q2, q, q2, rng.Intn(4)),
			fmt.Sprintf("SELECT ts_rank_cd(%s, %s, %d), ts_rank_cd(%s, setweight(%s, 'A') || %s, %s, %d)", v, q, norm, weights, v, v, q, norm),
			fmt.Sprintf("SELECT ts_rank(%s, %s, %s, %d)", weights, v, q, norm),
		} {
			tally(t, ctx, r, sql, stats)
		}
	}
	t.Logf("%v", stats)
	if stats["same"] < 2*len(tsWords) || stats["refused alike"] == 0 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}
