package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// PostgreSQL pulls a simple derived table up into the query above it
// (prepjointree.c's pull_up_simple_subquery) before it simplifies that
// query's expressions, replacing each reference to an output by the
// output's expression; a constant output is then folded with what reads
// it: SELECT c::boolean FROM (SELECT 'AB' FROM t WHERE false) s(c) fails
// though no row qualifies, and a CASE the constant decides drops its other
// branches unread. Not where the derived table is not pulled up
// (aggregation, DISTINCT, LIMIT, a set operation, a volatile output, a
// materialized WITH query), above an outer join that NULL-extends it
// (a PlaceHolderVar, though a strict WHERE reduces the join to an inner
// one: its conditions are computed per row of the derived table, never a
// one-time filter), in a FULL JOIN's condition, nor under grouping
// sets. A LATERAL item's references to the constants are replaced by
// them as well. The generator draws the nested expressions of foldnested_test.go
// over the derived table fc(id, t) of two constants (bad text, NULLs,
// integer bounds; typed or an unknown literal) and reads them in every
// place and through every shape of that list, over a table with a row,
// WHERE false and an empty table: SQLSTATEs and rows, no allowance.
// SQLGATE_DIFF_FOLDPULLUP_QUERIES sets the count (default 150).

// pullUpShapes are the queries an expression (%[1]s) over fc(id, t) is
// read in, fc a derived table of the constants %[2]s (an int) and %[3]s
// (a text) over the table %[4]s with the condition %[5]s.
var pullUpShapes = []string{
	"SELECT %[1]s AS c FROM (SELECT %[2]s, %[3]s FROM %[4]s WHERE %[5]s) fc(id, t)",
	"SELECT 1 FROM (SELECT %[2]s, %[3]s FROM %[4]s WHERE %[5]s) fc(id, t) WHERE (%[1]s) IS NOT NULL",
	"SELECT fc.id FROM (SELECT %[2]s, %[3]s FROM %[4]s WHERE %[5]s) fc(id, t) ORDER BY %[1]s",
	"SELECT count(%[1]s) FROM (SELECT %[2]s, %[3]s FROM %[4]s WHERE %[5]s) fc(id, t)",
	"SELECT %[1]s AS c FROM (SELECT %[2]s, %[3]s FROM %[4]s WHERE %[5]s) fc(id, t) GROUP BY fc.id, fc.t",
	"SELECT %[1]s AS c FROM (SELECT %[2]s, %[3]s FROM %[4]s WHERE %[5]s) fc(id, t) GROUP BY ROLLUP (fc.id, fc.t)",
	"SELECT (SELECT %[1]s) AS c FROM (SELECT %[2]s, %[3]s FROM %[4]s WHERE %[5]s) fc(id, t)",
	"SELECT c FROM (SELECT %[1]s AS c FROM (SELECT %[2]s, %[3]s FROM %[4]s WHERE %[5]s) fc(id, t)) d",
	"SELECT 1 FROM (SELECT %[1]s AS c FROM (SELECT %[2]s, %[3]s FROM %[4]s WHERE %[5]s) fc(id, t)) d",
	"WITH fc(id, t) AS (SELECT %[2]s, %[3]s FROM %[4]s WHERE %[5]s) SELECT %[1]s AS c FROM fc",
	"WITH fc(id, t) AS MATERIALIZED (SELECT %[2]s, %[3]s FROM %[4]s WHERE %[5]s) SELECT %[1]s AS c FROM fc",
	"SELECT %[1]s AS c FROM (SELECT DISTINCT %[2]s, %[3]s FROM %[4]s WHERE %[5]s) fc(id, t)",
	"SELECT %[1]s AS c FROM (SELECT %[2]s, %[3]s FROM %[4]s WHERE %[5]s LIMIT 5) fc(id, t)",
	"SELECT %[1]s AS c FROM (SELECT %[2]s, %[3]s, random() FROM %[4]s WHERE %[5]s) fc(id, t, r)",
	"SELECT %[1]s AS c FROM (SELECT %[2]s, %[3]s FROM %[4]s WHERE %[5]s UNION ALL SELECT %[2]s, %[3]s FROM %[4]s WHERE %[5]s) fc(id, t)",
	"SELECT %[1]s AS c FROM (SELECT %[2]s, %[3]s FROM %[4]s WHERE %[5]s) fc(id, t), fq x WHERE x.id > 0",
	"SELECT %[1]s AS c FROM fq x LEFT JOIN (SELECT %[2]s, %[3]s FROM %[4]s WHERE %[5]s) fc(id, t) ON true WHERE x.id > 5",
	"SELECT x.id FROM fq0 x LEFT JOIN (SELECT %[2]s, %[3]s FROM %[4]s WHERE %[5]s) fc(id, t) ON (%[1]s) IS NOT NULL",
	"SELECT x.id FROM (SELECT %[2]s, %[3]s FROM %[4]s WHERE %[5]s) fc(id, t) RIGHT JOIN fq0 x ON (%[1]s) IS NOT NULL",
	"SELECT x.id FROM (SELECT %[2]s, %[3]s FROM %[4]s WHERE %[5]s) fc(id, t) FULL JOIN fq0 x ON x.id = fc.id AND (%[1]s) IS NOT NULL",
	"SELECT %[1]s AS c FROM (SELECT %[2]s, %[3]s FROM %[4]s WHERE %[5]s) fc(id, t) LEFT JOIN fq0 x ON true",
	// a strict WHERE reduces the outer join to an inner one after the
	// pull-up: the PlaceHolderVars stay, computed for each row of fc
	"SELECT x.id FROM (SELECT %[2]s, %[3]s FROM %[4]s WHERE %[5]s) fc(id, t) RIGHT JOIN fq x ON true WHERE (%[1]s) IS NOT NULL AND fc.t IS NOT NULL",
	"SELECT x.id FROM fq x LEFT JOIN (SELECT %[2]s, %[3]s FROM %[4]s WHERE %[5]s) fc(id, t) ON x.id > 0 WHERE fc.id IS NOT NULL AND (%[1]s) IS NOT NULL",
	"SELECT x.id FROM fq x LEFT JOIN (SELECT * FROM (SELECT %[2]s, %[3]s FROM %[4]s WHERE %[5]s) fc(id, t)) fc ON true WHERE fc.t::int > 0 OR (%[1]s) IS NULL",
	// a LATERAL item's references to the constants are replaced too
	"SELECT fc.id FROM (SELECT %[2]s, %[3]s FROM %[4]s WHERE %[5]s) fc(id, t), LATERAL (SELECT %[1]s AS c) l",
	"SELECT l.c FROM (SELECT %[2]s, %[3]s FROM %[4]s WHERE %[5]s) fc(id, t) CROSS JOIN LATERAL (SELECT %[1]s AS c FROM fq) l",
	"SELECT fc.id FROM (SELECT %[2]s, %[3]s FROM %[4]s WHERE %[5]s) fc(id, t) LEFT JOIN LATERAL (SELECT 1 FROM fq WHERE (%[1]s) IS NOT NULL) l(c) ON true",
	"SELECT fc.id FROM (SELECT %[2]s, %[3]s FROM %[4]s WHERE %[5]s) fc(id, t), LATERAL (SELECT count(*) FROM fq WHERE (%[1]s) IS NOT NULL) l",
	"SELECT fc.id FROM (SELECT %[2]s, %[3]s FROM %[4]s WHERE %[5]s) fc(id, t), LATERAL (SELECT fc.id, %[1]s AS c FROM fq LIMIT 1) l",
}

// readsFc is foldAny's expression when it reads the derived table fc,
// else fc.t (or fc.t and more text) cast to one of casts: a constant
// alone folds anyway.
func readsFc(rng *rand.Rand, casts ...string) string {
	e := foldAny(rng, 2)
	if strings.Contains(e, "fc.") {
		return e
	}
	e = pickFrom(rng)("fc.t", "fc.t || "+foldText(rng, 1))
	cast := casts[0]
	if len(casts) > 1 {
		cast = pickFrom(rng)(casts...)
	}
	return fmt.Sprintf("(%s)::%s", e, cast)
}

// TestFoldPullUpDifferential: see above.
func TestFoldPullUpDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	runOnBoth(t, ctx, r, "CREATE TABLE fq (id int PRIMARY KEY, t text)", "INSERT INTO fq VALUES (1, 'b')", "CREATE TABLE fq0 (id int PRIMARY KEY, t text)")
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 43043))))
	n := envInt(t, "SQLGATE_DIFF_FOLDPULLUP_QUERIES", 150)
	stats := map[string]int{}
	for i := 0; i < n; i++ {
		e := readsFc(rng, "int")
		p := pickFrom(rng)
		id := p("0", "1", "7", "2147483647", "-2147483648", "NULL::int", "2")
		text := p("'b'", "' 7 '", "'12'", "'x'", "'('", "''", "NULL::text", "'2147483648'", "'b'::text", "'x'::text", "'12'::varchar")
		shape := pullUpShapes[rng.Intn(len(pullUpShapes))]
		for _, from := range [][2]string{{"fq", "false"}, {"fq0", "true"}, {"fq", "true"}} {
			q := fmt.Sprintf(shape, e, id, text, from[0], from[1])
			tallyBy(t, ctx, r, q, stats, tallyRule{codeOnly: true})
		}
	}
	t.Logf("%d expressions: %v", n, stats)
	if stats["refused alike"] < n/10 || stats["same"] < n/2 {
		t.Errorf("outcomes: %v (too few of a kind: the generator no longer covers both)", stats)
	}
}
