package difftest

import (
	"context"
	"math/rand"
	"testing"
)

// LIMIT / OFFSET / FETCH in PostgreSQL's forms (sql/limit.go): counts and
// offsets that are expressions, parameters' stand-ins, subqueries, NULL,
// ALL and negatives, the clauses in either order, OFFSET n ROW | ROWS,
// FETCH FIRST | NEXT [n] ROW | ROWS ONLY | WITH TIES, over an ORDER BY
// with ties (or none: WITH TIES is then 42601), both servers answering
// the same rows in the same order or the same SQLSTATE.

func limitValue(rng *rand.Rand) string {
	p := pickFrom(rng)
	switch rng.Intn(6) {
	case 0:
		return p("NULL", "-1", "1-2", "(SELECT NULL::int)")
	case 1:
		return p("1+1", "2*2", "(SELECT 2)", "3-1", "1.5", "'2'")
	}
	return p("0", "1", "2", "3", "5", "9")
}

func limitTail(rng *rand.Rand) string {
	p := pickFrom(rng)
	count, offset := limitValue(rng), limitValue(rng)
	fetchCount := p("", " "+p("0", "1", "2", "3", "(1+1)", "-1", "NULL"))
	fetch := " FETCH " + p("FIRST", "NEXT") + fetchCount + " " + p("ROW", "ROWS") + " " + p("ONLY", "WITH TIES")
	off := " OFFSET " + offset + p("", " ROW", " ROWS")
	switch rng.Intn(7) {
	case 0:
		return " LIMIT " + count
	case 1:
		return " LIMIT " + p(count, "ALL") + " OFFSET " + offset
	case 2:
		return off + " LIMIT " + count
	case 3:
		return off
	case 4:
		return fetch
	case 5:
		return off + fetch
	}
	return fetch + off
}

// TestLimitFormsDifferential runs generated tails on both servers.
func TestLimitFormsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	for _, q := range []string{
		"CREATE TABLE lf (a int, b text)",
		"INSERT INTO lf VALUES (1, 'p'), (2, 'q'), (2, 'r'), (3, 's'), (3, 't'), (3, 'u'), (4, 'v'), (NULL, 'w')",
	} {
		if sg, pg := r.SQLGate.Run(ctx, q), r.Postgres.Run(ctx, q); sg.Err != nil || pg.Err != nil {
			t.Fatalf("%s: %v / %v", q, sg.Err, pg.Err)
		}
	}
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 91))))
	p := pickFrom(rng)
	stats := map[string]int{}
	const n = 400
	for i := 0; i < n; i++ {
		order := p(" ORDER BY a", " ORDER BY a DESC", " ORDER BY a NULLS FIRST, b", " ORDER BY a DESC, b DESC", "")
		sel := p("SELECT a, b FROM lf", "SELECT a FROM lf", "SELECT a, count(*) FROM lf GROUP BY a")
		if order == " ORDER BY a" || order == " ORDER BY a DESC" {
			sel = "SELECT a FROM lf" // keys with ties: which of the tied rows is free, their a is not
		}
		q := sel + order + limitTail(rng)
		if order == "" {
			q = "SELECT count(*) FROM (" + q + ") s" // no order: which rows is free, how many is not
		}
		tallyBy(t, ctx, r, q, stats, tallyRule{ordered: true, codeOnly: true})
	}
	t.Logf("%d queries: %v", n, stats)
	if stats["same"] < n/3 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}
