package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

// TestKeyedOrderDifferential: types kept as text whose order or equality
// is not the text's (tsvector, tsquery, pg_lsn, inet, int4range, numrange)
// compared, sorted, ranked in windows and set operations, min/max'd,
// GREATEST/LEAST'd, looked up in IN lists and = ANY arrays, compared as
// arrays, grouped and deduplicated, against PostgreSQL 15 over random
// values: the same answers. Ties PostgreSQL leaves unordered (two
// tsqueries equal but for weights) are broken by the text; a group's
// shown member (PostgreSQL's first met) is not asserted, its count is.
// SQLGATE_DIFF_KEYED_ROUNDS sets the rounds (default 25).
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
		"int4range": func() string { return randomRangeLiteral(rng, "int4range", []string{"1", "2", "9", "10", "20"}) },
		// numeric bounds of several scales: equal ranges of two texts
		"numrange": func() string {
			return randomRangeLiteral(rng, "numrange", []string{"1", "1.0", "1.50", "2", "2.00", "9", "10"})
		},
	}
	rounds := envInt(t, "SQLGATE_DIFF_KEYED_ROUNDS", 25)
	for i := 0; i < rounds; i++ {
		for _, typ := range []string{"tsvector", "tsquery", "pg_lsn", "inet", "int4range", "numrange"} {
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
			c := values[typ]()
			sqls = append(sqls,
				fmt.Sprintf("SELECT greatest(%s, %s, %s)::text, least(%s, %s, %s)::text, greatest(%s, NULL, %s)::text", a, b, c, a, b, c, b, a),
				fmt.Sprintf("SELECT %s IN (%s, %s), %s NOT IN (%s, %s), %s BETWEEN %s AND %s", a, b, c, a, b, c, a, b, c),
				fmt.Sprintf("SELECT %s = ANY (ARRAY[%s, %s]), %s < ALL (ARRAY[%s, %s]), %s >= ANY (ARRAY[%s])", a, b, c, a, b, c, a, b),
				fmt.Sprintf("SELECT CASE %s WHEN %s THEN 1 WHEN %s THEN 2 ELSE 3 END, CASE WHEN %s > %s THEN 1 ELSE 2 END", a, b, c, a, b),
				fmt.Sprintf("SELECT ARRAY[%s, %s] < ARRAY[%s, %s], ARRAY[%s] = ARRAY[%s], ARRAY[[%s]] >= ARRAY[[%s]]", a, b, b, a, a, b, a, c),
				fmt.Sprintf("SELECT count(*) FROM (VALUES %s) t(v) WHERE v IN (%s, %s)", list, a, b),
				fmt.Sprintf("SELECT count(*) c FROM (VALUES %s) t(v) GROUP BY v ORDER BY c", list),
				fmt.Sprintf("SELECT count(*) OVER (PARTITION BY v) c FROM (VALUES %s) t(v) ORDER BY c", list),
				fmt.Sprintf("SELECT x::text AS s FROM (VALUES (ARRAY[%s, %s]), (ARRAY[%s]), (ARRAY[%s, %s]), (NULL)) t(x) ORDER BY x DESC, 1", a, b, b, c, a),
				fmt.Sprintf("SELECT count(DISTINCT v), (SELECT count(*) FROM (SELECT DISTINCT v FROM (VALUES %s) t(v)) d) FROM (VALUES %s) t(v)", list, list),
				fmt.Sprintf("SELECT count(*) FROM (SELECT v FROM (VALUES %s) t(v) UNION SELECT %s) u", list, a),
				fmt.Sprintf("SELECT count(*) FROM (SELECT v FROM (VALUES %s) t(v) INTERSECT SELECT v FROM (VALUES (%s), (%s)) w(v)) u", list, a, b),
				fmt.Sprintf("SELECT count(*) FROM (SELECT v FROM (VALUES %s) t(v) EXCEPT SELECT %s) u", list, a),
				fmt.Sprintf("SELECT count(*) FROM (SELECT v FROM (VALUES %s) t(v) INTERSECT ALL SELECT v FROM (VALUES (%s), (%s), (%s)) w(v)) u", list, a, b, a),
				fmt.Sprintf("SELECT count(*), count(v) FROM (SELECT v FROM (VALUES %s) t(v) EXCEPT ALL SELECT v FROM (VALUES (%s), (%s), (NULL)) w(v)) u", list, a, b),
			)
			if typ == "pg_lsn" || typ == "inet" {
				sqls = append(sqls, fmt.Sprintf("SELECT min(v)::text, max(v)::text FROM (VALUES %s) t(v)", list))
			}
			for _, sql := range sqls {
				tallyBy(t, ctx, r, sql, stats, tallyRule{ordered: true})
			}
		}
	}
	t.Logf("%v", stats)
	if stats["same"] < rounds*6*15 || stats["different"] > 0 {
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

// randomRangeLiteral is a range literal of typ over bounds (empty, an
// infinite side or a reversed pair sometimes: empty, or 22000 in both).
func randomRangeLiteral(rng *rand.Rand, typ string, bounds []string) string {
	if rng.Intn(12) == 0 {
		return "'empty'::" + typ
	}
	lo, hi := bounds[rng.Intn(len(bounds))], bounds[rng.Intn(len(bounds))]
	l, _ := strconv.ParseFloat(lo, 64)
	h, _ := strconv.ParseFloat(hi, 64)
	if l > h && rng.Intn(4) > 0 {
		lo, hi = hi, lo
	}
	if rng.Intn(8) == 0 {
		lo = ""
	}
	if rng.Intn(8) == 0 {
		hi = ""
	}
	return fmt.Sprintf("'%c%s,%s%c'::%s", "[("[rng.Intn(2)], lo, hi, ")]"[rng.Intn(2)], typ)
}
