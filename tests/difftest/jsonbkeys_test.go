package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// jsonbDoc writes a random JSON document whose values collide often as
// jsonb (numbers written several ways, short keys, empty containers).
func jsonbDoc(rng *rand.Rand, depth int) string {
	scalars := []string{"null", "true", "false", "0", "1", "1.0", "1e0", "-2.5", "10", `""`, `"a"`, `"b"`, `"ab"`, `"B"`}
	if depth == 0 || rng.Intn(3) == 0 {
		return scalars[rng.Intn(len(scalars))]
	}
	parts := make([]string, rng.Intn(3))
	if rng.Intn(2) == 0 {
		for i := range parts {
			parts[i] = jsonbDoc(rng, depth-1)
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	keys := []string{"a", "b", "aa", "ab", "B"}
	for i := range parts {
		parts[i] = fmt.Sprintf("%q:%s", keys[rng.Intn(len(keys))], jsonbDoc(rng, depth-1))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// TestJSONBKeysDifferential: jsonb values as keys of every operator that
// compares them — ORDER BY both ways, DISTINCT, GROUP BY, count(DISTINCT),
// UNION, INTERSECT, EXCEPT, window ORDER BY peers and PARTITION BY,
// array_agg's ORDER BY, DISTINCT ON and arrays of jsonb in ORDER BY — on
// sqlgate and PostgreSQL 15, over generated documents: the same rows in
// the same order (ties broken by the text).
func TestJSONBKeysDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 33))))
	stats := map[string]int{}
	ordered := tallyRule{ordered: true}
	for round := 0; round < 40; round++ {
		rows := make([]string, 6+rng.Intn(6))
		for i := range rows {
			rows[i] = fmt.Sprintf("('%s'::jsonb, %d)", jsonbDoc(rng, 3), i%3)
		}
		v := "(VALUES " + strings.Join(rows, ", ") + ") t(x, g)"
		for _, q := range []string{
			"SELECT x FROM " + v + " ORDER BY x, x::text",
			"SELECT x FROM " + v + " ORDER BY x DESC, x::text",
			"SELECT DISTINCT x::text FROM (SELECT DISTINCT x FROM " + v + ") d ORDER BY 1",
			"SELECT count(*) FROM (SELECT DISTINCT x FROM " + v + ") d",
			"SELECT count(*), min(x::text) FROM " + v + " GROUP BY x ORDER BY 2, 1",
			"SELECT g, count(DISTINCT x) FROM " + v + " GROUP BY g ORDER BY g",
			"SELECT count(*) FROM (SELECT x FROM " + v + " WHERE g = 0 UNION SELECT x FROM " + v + " WHERE g = 1) u",
			"SELECT count(*) FROM (SELECT x FROM " + v + " WHERE g <> 0 INTERSECT SELECT x FROM " + v + " WHERE g <> 1) u",
			"SELECT count(*) FROM (SELECT x FROM " + v + " EXCEPT ALL SELECT x FROM " + v + " WHERE g = 2) u",
			"SELECT x::text, rank() OVER (ORDER BY x), count(*) OVER (PARTITION BY x) FROM " + v + " ORDER BY 2, 1",
			"SELECT g, array_agg(x ORDER BY x, x::text)::text FROM " + v + " GROUP BY g ORDER BY g",
			"SELECT DISTINCT ON (x) x::text, g FROM " + v + " ORDER BY x, g",
			"SELECT array_agg(x ORDER BY x::text)::text FROM " + v + " GROUP BY g ORDER BY array_agg(x ORDER BY x::text), 1",
			"SELECT x FROM " + v + " WHERE x > (SELECT x FROM " + v + " ORDER BY x LIMIT 1 OFFSET 3) ORDER BY x, x::text",
		} {
			tallyBy(t, ctx, r, q, stats, ordered)
		}
	}
	t.Logf("jsonb keys: %v", stats)
	if stats["same"] < 500 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}
