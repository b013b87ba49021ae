package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestKeyedOrderDifferential: types kept as text whose order is not the
// text's (tsvector, tsquery, pg_lsn, inet) compared, sorted, ranked in
// windows and set operations, and min/max'd, against PostgreSQL 15 over
// random values: the same answers. Ties PostgreSQL leaves unordered (two
// tsqueries equal but for weights) are broken by the text.
func TestKeyedOrderDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 3615))))
	stats := map[string]int{}
	values := map[string]func() string{
		"tsvector": func() string { return randomTSVectorExpr(rng) },
		"tsquery":  func() string { return randomTSQueryExpr(rng) },
		"pg_lsn": func() string {
			return fmt.Sprintf("'%X/%X'::pg_lsn", []uint32{0, 1, 16, rng.Uint32()}[rng.Intn(4)], []uint32{0, 9, 10, 255, 256, rng.Uint32()}[rng.Intn(6)])
		},
		"inet": func() string {
			return fmt.Sprintf("'%d.%d.0.%d/%d'::inet", []int{9, 10, 192}[rng.Intn(3)], rng.Intn(3), rng.Intn(3), []int{8, 24, 32}[rng.Intn(3)])
		},
	}
	for i := 0; i < 40; i++ {
		for _, typ := range []string{"tsvector", "tsquery", "pg_lsn", "inet"} {
			var rows []string
			for j := 0; j < 2+rng.Intn(6); j++ {
				rows = append(rows, "("+values[typ]()+")")
			}
			list := strings.Join(rows, ", ")
			a, b := values[typ](), values[typ]()
			sqls := []string{
				fmt.Sprintf("SELECT string_agg(v::text, ' | ' ORDER BY v, v::text) FROM (VALUES %s) t(v)", list),
				fmt.Sprintf("SELECT v::text FROM (VALUES %s) t(v) ORDER BY v DESC, 1", list),
				fmt.Sprintf("SELECT v::text, rank() OVER (ORDER BY v) FROM (VALUES %s) t(v) ORDER BY 2, 1", list),
				fmt.Sprintf("SELECT x::text FROM (SELECT v FROM (VALUES %s) t(v) UNION ALL SELECT %s) u(x) ORDER BY x, 1", list, a),
				fmt.Sprintf("SELECT %s < %s, %s <= %s, %s = %s, %s <> %s, %s >= %s", a, b, a, b, a, b, a, b, a, b),
			}
			if typ == "pg_lsn" || typ == "inet" {
				sqls = append(sqls, fmt.Sprintf("SELECT min(v)::text, max(v)::text FROM (VALUES %s) t(v)", list))
			}
			for _, sql := range sqls {
				tallyBy(t, ctx, r, sql, stats, tallyRule{ordered: true})
			}
		}
	}
	t.Logf("%v", stats)
	if stats["same"] < 700 || stats["different"] > 0 {
		t.Errorf("keyed orders differ from PostgreSQL: %v", stats)
	}
}

// randomTSVectorExpr is a tsvector: a literal with positions and weights
// or none, or to_tsvector of random text, sometimes weighted or stripped.
func randomTSVectorExpr(rng *rand.Rand) string {
	switch rng.Intn(3) {
	case 0:
		var lex []string
		for k := 0; k < rng.Intn(4); k++ {
			w := []string{"a", "b", "ab", "ba", "abc", "z"}[rng.Intn(6)]
			if rng.Intn(2) == 0 {
				w += fmt.Sprintf(":%d", 1+rng.Intn(4))
				w += []string{"", "A", "B", "C"}[rng.Intn(4)]
				if rng.Intn(3) == 0 {
					w += fmt.Sprintf(",%d", 1+rng.Intn(4))
				}
			}
			lex = append(lex, w)
		}
		return tsLiteral(strings.Join(lex, " ")) + "::tsvector"
	case 1:
		return fmt.Sprintf("setweight(to_tsvector('simple', %s), '%c')", tsLiteral(randomTSText(rng)), "ABCD"[rng.Intn(4)])
	}
	e := fmt.Sprintf("to_tsvector('english', %s)", tsLiteral(randomTSText(rng)))
	if rng.Intn(3) == 0 {
		e = "strip(" + e + ")"
	}
	return e
}

// randomTSQueryExpr is a tsquery literal of small operands (equal CRCs
// and texts meet often) or to_tsquery of a random query.
func randomTSQueryExpr(rng *rand.Rand) string {
	if rng.Intn(2) == 0 {
		return fmt.Sprintf("to_tsquery('simple', %s)", tsLiteral(randomTSQuery(rng, 2)))
	}
	var build func(d int) string
	build = func(d int) string {
		if d == 0 || rng.Intn(3) == 0 {
			return []string{"a", "b", "ab", "a:A", "b:*", "c"}[rng.Intn(6)]
		}
		op := []string{" & ", " | ", " <-> ", " <2> "}[rng.Intn(4)]
		s := "(" + build(d-1) + op + build(d-1) + ")"
		if rng.Intn(4) == 0 {
			s = "!" + s
		}
		return s
	}
	return tsLiteral(build(2)) + "::tsquery"
}
