package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/server"
)

// TestQueryShapesDifferential compares query shapes with PostgreSQL 15
// over small tables with NULLs, one of them empty, whose columns share
// names (id, a) so that USING and NATURAL have something to merge: outer
// joins with ON conditions of constants, of one side's columns and with
// subqueries, joins of three tables with LEFT / RIGHT / FULL nested in
// parentheses, USING and NATURAL (the merged column's COALESCE), a
// single value's IN / NOT IN / op ANY | ALL (subquery) with NULLs on
// either side and empty subqueries in WHERE, the select list, CASE and ON,
// correlated subqueries in the select list, HAVING and ORDER BY, scalar
// subqueries of several rows, DISTINCT ON, GROUP BY by ordinal, alias and
// expression, HAVING without GROUP BY, set operations with ORDER BY and
// LIMIT, recursive CTEs and VALUES with column aliases. Both execution
// modes: the row path and the columnar one (every table has a primary
// key).
func TestQueryShapesDifferential(t *testing.T) {
	t.Parallel()
	for _, mode := range []struct {
		name      string
		inProcess func(context.Context, string) (string, func(), error)
	}{{"row", server.InProcess}, {"columnar", server.InProcessColumnar(1)}} {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			r := startPairWith(t, ctx, &Schema{}, mode.inProcess)
			rnd := seededRand(t, 0x5148)
			runOnBoth(t, ctx, r, shapesFixture(rnd)...)
			stats := map[string]int{}
			n := envInt(t, "SQLGATE_DIFF_SHAPES_QUERIES", 400)
			g := &shapeGen{r: rnd}
			for i := 0; i < n; i++ {
				q, ordered := g.query()
				tallyBy(t, ctx, r, q, stats, tallyRule{ordered: ordered, placed: everyCode})
			}
			t.Logf("%v", stats)
			if stats["same"] < n/2 {
				t.Errorf("outcomes: %v", stats)
			}
		})
	}
}

// shapesFixture creates and fills the tables: qa, qb, qc of 8 rows whose
// values come from small domains (so that joins match, and NULLs), qe
// empty.
func shapesFixture(rnd *rand.Rand) []string {
	v := func(domain int) string {
		if rnd.IntN(5) == 0 {
			return "NULL"
		}
		return fmt.Sprint(rnd.IntN(domain))
	}
	s := func() string {
		if rnd.IntN(5) == 0 {
			return "NULL"
		}
		return "'" + string(rune('a'+rnd.IntN(3))) + "'"
	}
	stmts := []string{
		"CREATE TABLE qa (id int PRIMARY KEY, a int, b text, c numeric(4,1))",
		"CREATE TABLE qb (id int PRIMARY KEY, a int, d text)",
		"CREATE TABLE qc (id int PRIMARY KEY, a int, e bigint)",
		"CREATE TABLE qe (id int PRIMARY KEY, a int)",
	}
	for i := 1; i <= 8; i++ {
		stmts = append(stmts,
			fmt.Sprintf("INSERT INTO qa VALUES (%d, %s, %s, %s)", i, v(4), s(), v(3)),
			fmt.Sprintf("INSERT INTO qb VALUES (%d, %s, %s)", i+rnd.IntN(3), v(4), s())+" ON CONFLICT DO NOTHING",
			fmt.Sprintf("INSERT INTO qc VALUES (%d, %s, %s)", i*2, v(4), v(5)))
	}
	return stmts
}

// shapeGen draws the queries of TestQueryShapesDifferential.
type shapeGen struct{ r *rand.Rand }

func (g *shapeGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// sub is a single-column subquery of qc, qb or qe (empty), maybe
// correlated with qa (the alias outer), maybe empty by WHERE false, maybe
// without NULLs.
func (g *shapeGen) sub(outer string) string {
	tbl := g.pick("qc", "qb", "qe", "qc")
	q := "SELECT " + tbl + ".a FROM " + tbl
	var w []string
	switch g.r.IntN(6) {
	case 0:
		w = append(w, "false")
	case 1:
		w = append(w, tbl+".a IS NOT NULL")
	case 2:
		w = append(w, tbl+".id < 5")
	}
	if outer != "" && g.r.IntN(3) == 0 {
		w = append(w, fmt.Sprintf("%s.id %s %s.id", tbl, g.pick("=", "<", ">"), outer))
	}
	if len(w) > 0 {
		q += " WHERE " + strings.Join(w, " AND ")
	}
	return q
}

// membership is a test of a qa value (alias al) against a subquery.
func (g *shapeGen) membership(al string) string {
	x := g.pick(al+".a", al+".a", al+".id", "NULL::int", "2")
	switch g.r.IntN(6) {
	case 0, 1:
		return fmt.Sprintf("%s %sIN (%s)", x, g.pick("", "NOT "), g.sub(al))
	case 2:
		return fmt.Sprintf("%s %s %s (%s)", x, g.pick("=", "<>", "<", ">="), g.pick("ANY", "ALL", "SOME"), g.sub(al))
	case 3:
		return fmt.Sprintf("%sEXISTS (%s)", g.pick("", "NOT "), g.sub(al))
	case 4:
		return fmt.Sprintf("%s IN (%s, %s)", x, g.pick("1", "NULL", "3"), g.pick("2", "NULL"))
	}
	return fmt.Sprintf("NOT (%s IN (%s))", x, g.sub(al))
}

// onCond is an ON condition between the aliases l and r.
func (g *shapeGen) onCond(l, r string) string {
	conds := []string{
		l + ".a = " + r + ".a",
		l + ".id = " + r + ".id",
		l + ".a = " + r + ".a AND " + l + ".id < 6",
		l + ".a = " + r + ".a AND " + r + ".id > 2",
		l + ".a = " + r + ".a OR " + r + ".a IS NULL",
		"true", "false", "NULL::boolean", "1 = 1",
		l + ".a > 1", r + ".a IS NULL",
		l + ".id = " + r + ".id AND " + g.membership(l),
		l + ".a IN (SELECT qc.a FROM qc WHERE qc.e > 1)",
		"EXISTS (SELECT 1 FROM qc WHERE qc.a = " + r + ".a)",
		l + ".a = (SELECT max(qc.a) FROM qc WHERE qc.id > " + r + ".id)",
	}
	return conds[g.r.IntN(len(conds))]
}

// query returns one query and whether its rows are completely ordered.
func (g *shapeGen) query() (string, bool) {
	switch g.r.IntN(17) {
	case 13:
		return g.ordinals()
	case 14:
		return g.recordArrays()
	case 15:
		return g.subqueryPlaces()
	case 16:
		return g.setOpTypes()
	case 0, 1:
		return g.outerJoin()
	case 2:
		return g.usingJoin()
	case 3:
		return g.threeJoin()
	case 4, 5:
		return g.subqueries()
	case 6:
		return g.correlated()
	case 7:
		return g.distinctOn()
	case 8:
		return g.grouping()
	case 9:
		return g.setOp()
	case 10:
		return g.recursive()
	case 11:
		return g.values()
	}
	return g.limits()
}

func (g *shapeGen) outerJoin() (string, bool) {
	kind := g.pick("LEFT", "RIGHT", "FULL", "INNER", "LEFT", "RIGHT")
	cols := g.pick("x.id, x.a, y.id, y.a", "x.*, y.*", "x.id, y.d, x.a IS NULL", "count(*), count(y.id), count(x.id)")
	q := fmt.Sprintf("SELECT %s FROM qa x %s JOIN qb y ON %s", cols, kind, g.onCond("x", "y"))
	if g.r.IntN(3) == 0 {
		q += " WHERE " + g.pick("y.id IS NULL", "x.id IS NULL", "x.a = y.a", "COALESCE(x.a, y.a) > 1", "x.b IS NOT DISTINCT FROM y.d")
	}
	return q, false
}

// usingJoin is USING or NATURAL, reading the merged columns (a FULL
// join's COALESCE) and the sides' own; or a name both sides have that
// USING does not merge, ambiguous, in the select list and in WHERE or
// GROUP BY (PostgreSQL binds the select list first: its error is the
// one).
func (g *shapeGen) usingJoin() (string, bool) {
	if g.r.IntN(4) == 0 {
		using, other := g.pick("id", "a"), "a"
		if using == "a" {
			other = "id"
		}
		from := fmt.Sprintf("qa x %sJOIN qb y USING (%s)", g.pick("", "LEFT ", "FULL "), using)
		if g.r.IntN(2) == 0 {
			return fmt.Sprintf("SELECT %s, count(*) FROM %s GROUP BY %s", other, from, g.pick(other, using)), false
		}
		return fmt.Sprintf("SELECT %s, %s FROM %s WHERE %s", g.pick(other, "x.nope", using), using, from, g.pick(other+" > 1", "nope > 1", using+" > 1")), false
	}
	kind := g.pick("", "LEFT ", "RIGHT ", "FULL ", "INNER ")
	var from string
	merged := []string{"id", "a"}
	if g.r.IntN(3) == 0 {
		from = fmt.Sprintf("qa x NATURAL %sJOIN qb y", kind)
	} else {
		using := g.pick("a", "id", "id, a", "a, id")
		merged = strings.Split(using, ", ")
		from = fmt.Sprintf("qa x %sJOIN qb y USING (%s)", kind, using)
	}
	m := merged[g.r.IntN(len(merged))]
	cols := g.pick("*", m+", x."+m+", y."+m, m+", count(*)", "x.*, y.*", m, "x.id, y.id, "+m)
	q := "SELECT " + cols + " FROM " + from
	if g.r.IntN(3) == 0 {
		q += " WHERE " + g.pick(m+" IS NULL", m+" > 1", m+" < 4", "x.a IS NULL", "y.id IS NULL")
	}
	if strings.Contains(cols, "count") {
		q += " GROUP BY " + m
	}
	return q, false
}

func (g *shapeGen) threeJoin() (string, bool) {
	k := func() string { return g.pick("LEFT", "RIGHT", "FULL", "INNER", "LEFT") }
	var from string
	switch g.r.IntN(3) {
	case 0:
		from = fmt.Sprintf("qa x %s JOIN qb y ON %s %s JOIN qc z ON %s", k(), g.onCond("x", "y"), k(), g.pick("z.a = y.a", "z.a = x.a", "z.id = x.id", "z.a = COALESCE(x.a, y.a)"))
	case 1:
		from = fmt.Sprintf("qa x %s JOIN (qb y %s JOIN qc z ON %s) ON %s", k(), k(), g.pick("z.a = y.a", "y.id = z.id", "true"), g.pick("x.a = y.a", "x.a = z.a", "x.id = z.id OR x.id = y.id"))
	default:
		from = fmt.Sprintf("(qa x %s JOIN qe w ON x.a = w.a) %s JOIN (qb y %s JOIN qc z ON y.a = z.a) ON %s", k(), k(), k(), g.pick("x.a = y.a", "w.a = z.a", "x.id = z.id"))
	}
	cols := "x.id, y.id, z.id"
	if strings.Contains(from, " w ") {
		cols += ", w.id"
	}
	return "SELECT " + cols + " FROM " + from, false
}

func (g *shapeGen) subqueries() (string, bool) {
	switch g.r.IntN(4) {
	case 0:
		return "SELECT x.id FROM qa x WHERE " + g.membership("x") + " ORDER BY x.id", true
	case 1:
		return "SELECT x.id, " + g.membership("x") + " FROM qa x ORDER BY x.id", true
	case 2:
		return fmt.Sprintf("SELECT x.id, CASE WHEN %s THEN 'y' WHEN %s THEN 'n' ELSE 'u' END FROM qa x ORDER BY x.id", g.membership("x"), g.membership("x")), true
	}
	return fmt.Sprintf("SELECT x.id, y.id FROM qa x %s JOIN qb y ON x.id = y.id AND %s ORDER BY x.id, y.id", g.pick("LEFT", "RIGHT", "FULL"), g.membership("x")), true
}

func (g *shapeGen) correlated() (string, bool) {
	sc := g.pick(
		"(SELECT max(qc.e) FROM qc WHERE qc.a = x.a)",
		"(SELECT qc.e FROM qc WHERE qc.id = x.id * 2)",
		"(SELECT qc.e FROM qc WHERE qc.a = x.a)", // may be several rows: 21000
		"(SELECT count(*) FROM qc WHERE qc.a > x.a)",
		"(SELECT qb.d FROM qb WHERE qb.id = x.id)",
		"(SELECT qe.a FROM qe WHERE qe.id = x.id)",
		"(SELECT qc.e FROM qc)",
	)
	switch g.r.IntN(4) {
	case 0:
		return "SELECT x.id, " + sc + " FROM qa x ORDER BY x.id", true
	case 1:
		return "SELECT x.id FROM qa x ORDER BY " + sc + " NULLS FIRST, x.id", true
	case 2:
		return fmt.Sprintf("SELECT x.a, count(*) FROM qa x GROUP BY x.a HAVING count(*) >= (SELECT count(*) FROM qc WHERE qc.a = x.a) ORDER BY x.a"), true
	}
	return fmt.Sprintf("SELECT x.id, y.id FROM qa x LEFT JOIN qb y ON y.a = %s ORDER BY x.id, y.id", strings.ReplaceAll(sc, "x.", "y.")), true
}

// distinctOn is DISTINCT ON under PostgreSQL's rule for its ORDER BY:
// DISTINCT ON keys first (in any order), then others; keys the ORDER BY
// lacks are appended unless it names another first (42P10 at the
// DISTINCT ON key).
func (g *shapeGen) distinctOn() (string, bool) {
	keys := []string{"a", "b", "a % 2", "c"}
	g.r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	on := keys[:1+g.r.IntN(2)]
	var order []string
	for _, k := range g.r.Perm(len(keys))[:g.r.IntN(4)] {
		order = append(order, keys[k]+g.pick("", " DESC", " NULLS FIRST", " DESC NULLS LAST"))
	}
	if g.r.IntN(3) == 0 {
		order = append(order, g.pick("id", "3", "2 DESC"))
	}
	// the output columns are the DISTINCT ON keys and what ORDER BY
	// names: a deterministic answer whatever row a group keeps
	cols := strings.Join(on, ", ")
	q := fmt.Sprintf("SELECT DISTINCT ON (%s) %s FROM qa", strings.Join(on, ", "), cols)
	if len(order) > 0 {
		q += " ORDER BY " + strings.Join(order, ", ")
	}
	return q, false
}

// ordinals are ORDER BY and GROUP BY positions outside the select list (or
// naming an aggregate), written where the grammar loses their offset:
// 42P10 / 42803 at the number (or the aggregate).
func (g *shapeGen) ordinals() (string, bool) {
	n := g.pick("0", "3", "4", "7")
	switch g.r.IntN(5) {
	case 0:
		return "SELECT a, b FROM qa WHERE a IN (1, " + n + ") ORDER BY " + g.pick("", "a, ", "1, ") + n + g.pick("", " DESC", " NULLS FIRST"), true
	case 1:
		return "SELECT a, count(*) FROM qa WHERE a IN (1, " + n + ") GROUP BY " + g.pick("", "a, ") + n, false
	case 2:
		return "SELECT a, count(*) FROM qa GROUP BY " + g.pick("2", "a, 2", "1, 2"), false
	case 3:
		return "SELECT * FROM (SELECT a, b FROM qa ORDER BY " + n + ") s", false
	}
	return "SELECT a FROM qa UNION SELECT e FROM qc ORDER BY " + g.pick("", "1, ") + n, true
}

// recordArrays compares arrays of records (record_eq / record_cmp per
// element, NULL fields and NULL elements) and sorts by them; and pairs
// PostgreSQL refuses whatever the rows: fields of different types reached
// (the fields before them equal), different lengths, a table's row type
// against record (42883). (record_eq finds a dissimilar field only when
// it reaches it, which sqlgate decides from the types: pairs whose rows
// decide it are left out.)
func (g *shapeGen) recordArrays() (string, bool) {
	side := func() string {
		return g.pick("ARRAY[ROW(x.a, x.id)]", "ARRAY[ROW(x.a, x.id), ROW(x.id, x.a)]", "ARRAY[ROW(1, 2)]", "ARRAY[ROW(x.id, NULL::int)]",
			"ARRAY[ROW(x.a, x.id), NULL]", "ARRAY[ROW(1, 2), ROW(x.a, 2)]", "(SELECT array_agg(ROW(y.a, y.id) ORDER BY y.id) FROM qb y WHERE y.id < x.id)")
	}
	if g.r.IntN(3) == 0 {
		return "SELECT x.id FROM qa x ORDER BY " + g.pick("ARRAY[ROW(x.a, x.b)]", "ARRAY[x]", "ARRAY[ROW(x.c, x.id), ROW(x.id, x.c)]") + g.pick("", " DESC", " NULLS FIRST") + ", x.id", true
	}
	op := g.pick("=", "<>", "<", "<=", ">", ">=", "IS DISTINCT FROM", "IS NOT DISTINCT FROM")
	l, r := side(), side()
	if g.r.IntN(4) == 0 {
		pair := [][2]string{
			{"ARRAY[ROW(1, x.id)]", "ARRAY[ROW(1, x.c)]"},
			{"ARRAY[ROW(1, x.id)]", "ARRAY[ROW(1, x.b)]"},
			{"ARRAY[ROW(1, 2)]", "ARRAY[ROW(1, 2, x.id)]"},
			{"ARRAY[x]", "ARRAY[ROW(x.id, x.a, x.b, x.c)]"},
			{"ARRAY[x]", "ARRAY[x]"},
		}[g.r.IntN(5)]
		l, r = pair[0], pair[1]
	}
	return "SELECT x.id, " + l + " " + op + " " + r + " FROM qa x ORDER BY x.id", true
}

func (g *shapeGen) grouping() (string, bool) {
	switch g.r.IntN(6) {
	case 0:
		return "SELECT a, count(*) FROM qa GROUP BY " + g.pick("1", "a", "qa.a", "2", "3", "0") + " ORDER BY 1 NULLS FIRST", true
	case 1:
		// an output name that is also an input column: GROUP BY takes the
		// input column, ORDER BY the output one
		return "SELECT b AS a, count(*) FROM qa GROUP BY " + g.pick("a", "b", "1") + " ORDER BY " + g.pick("a", "1", "2, 1") + " NULLS FIRST, 2", false
	case 2:
		return "SELECT a % 2 AS m, sum(c) FROM qa GROUP BY " + g.pick("m", "a % 2", "1", "(a % 2)") + " ORDER BY m NULLS LAST", true
	case 3:
		return "SELECT count(*), sum(a) FROM qa HAVING " + g.pick("count(*) > 3", "sum(a) > 100", "true", "false", "count(*) > 3 AND max(b) > 'a'"), true
	case 4:
		// a subquery's aggregate reading the outer query's group key
		return "SELECT x.a, (SELECT " + g.pick("count(qc.id)", "max(qc.e + x.a)", "sum(qc.e)", "count(*)") + " FROM qc WHERE qc.a = x.a) FROM qa x GROUP BY x.a ORDER BY x.a NULLS FIRST", true
	}
	return "SELECT a, b, count(*) FROM qa GROUP BY " + g.pick("a, b", "1, 2", "b, a", "ROLLUP (a, b)") + " HAVING count(*) " + g.pick(">", ">=") + " 1", false
}

func (g *shapeGen) setOp() (string, bool) {
	left := g.pick("SELECT a, b FROM qa", "SELECT a, d FROM qb", "SELECT id, NULL FROM qa", "SELECT 1, 'x'", "SELECT e, 'e' FROM qc")
	// (no numeric column beside integers: setOpTypes says why)
	right := g.pick("SELECT a, d FROM qb", "SELECT e, NULL FROM qc", "SELECT id + 10, b FROM qa", "SELECT NULL, NULL", "SELECT a, 'q' FROM qe", "SELECT 1.5, 'x'")
	op := g.pick("UNION", "UNION ALL", "INTERSECT", "INTERSECT ALL", "EXCEPT", "EXCEPT ALL")
	q := left + " " + op + " " + right
	if g.r.IntN(3) == 0 {
		q += " " + g.pick("UNION", "EXCEPT", "INTERSECT") + " SELECT 2, 'b'"
	}
	if g.r.IntN(2) == 0 {
		return q + " ORDER BY 1 NULLS FIRST, 2 NULLS FIRST" + g.pick("", " LIMIT 3", " LIMIT 2 OFFSET 1", " OFFSET 2"), true
	}
	return q, false
}

func (g *shapeGen) recursive() (string, bool) {
	op := g.pick("UNION", "UNION ALL")
	switch g.r.IntN(3) {
	case 0:
		return fmt.Sprintf("WITH RECURSIVE r(n) AS (SELECT 1 %s SELECT n + 1 FROM r WHERE n < %d) SELECT n FROM r ORDER BY n", op, 1+g.r.IntN(20)), true
	case 1:
		// a cycle through qc's values, stopped by UNION or by a depth
		return fmt.Sprintf("WITH RECURSIVE r(a, depth) AS (SELECT a, 0 FROM qa WHERE a IS NOT NULL %s SELECT (r.a + 1) %% 4, r.depth + 1 FROM r WHERE r.depth < %d) SELECT a, depth FROM r ORDER BY depth, a", op, g.r.IntN(5)), true
	}
	return fmt.Sprintf("WITH RECURSIVE r(a) AS (SELECT a FROM qa WHERE id = 1 %s SELECT (r.a + 1) %% 3 FROM r) SELECT count(*) FROM r", "UNION"), true
}

func (g *shapeGen) values() (string, bool) {
	v := g.pick("(1, 'a'), (2, NULL), (NULL, 'c')", "(1, 2.5), (3, 4)", "(NULL, NULL), (1, 'x')", "(1, 'a')")
	al := g.pick("v(p, q)", "v(p)", "v", "AS v(p, q)")
	cols := "*"
	if strings.Contains(al, "(p, q)") {
		cols = g.pick("p, q", "*", "q, p", "v.p")
	} else if strings.Contains(al, "(p)") {
		cols = g.pick("p, column2", "*")
	} else {
		cols = g.pick("column1, column2", "*")
	}
	q := "SELECT " + cols + " FROM (VALUES " + v + ") " + al
	if g.r.IntN(2) == 0 {
		q += " JOIN qa ON qa.id = " + strings.Split(cols, ",")[0]
		if cols == "*" {
			q = strings.Replace(q, "qa.id = *", "qa.id = 1", 1)
		}
	}
	return q, false
}

// subqueryPlaces puts subqueries in HAVING, ORDER BY, GROUP BY, ON and
// the select list of grouped and set-operation queries, correlated with
// the outer query's group keys or rows.
func (g *shapeGen) subqueryPlaces() (string, bool) {
	switch g.r.IntN(6) {
	case 0:
		return "SELECT x.a, count(*) FROM qa x GROUP BY x.a HAVING " + g.pick(
			"x.a IN (SELECT qc.a FROM qc)", "x.a NOT IN (SELECT qc.a FROM qc)", "EXISTS (SELECT 1 FROM qc WHERE qc.a = x.a)",
			"count(*) > (SELECT count(*) FROM qe)", "x.a = ANY (SELECT qb.a FROM qb WHERE qb.id > 1)", "max(x.id) > ALL (SELECT qc.id FROM qc WHERE qc.a = x.a)"), false
	case 1:
		return "SELECT x.id FROM qa x ORDER BY " + g.pick("x.a IN (SELECT qc.a FROM qc)", "(SELECT count(*) FROM qc WHERE qc.a = x.a) DESC", "EXISTS (SELECT 1 FROM qb WHERE qb.id = x.id)") + ", x.id", true
	case 2:
		return "SELECT x.a IN (SELECT qc.a FROM qc) AS m, count(*) FROM qa x GROUP BY 1", false
	case 3:
		return fmt.Sprintf("SELECT x.id, y.id FROM qa x %s JOIN qb y ON %s", g.pick("LEFT", "RIGHT", "INNER", "FULL"), g.pick(
			"x.id = y.id AND EXISTS (SELECT 1 FROM qc WHERE qc.a = x.a)",
			"x.id = y.id AND y.a NOT IN (SELECT qc.a FROM qc WHERE qc.a IS NOT NULL)",
			"x.id = y.id AND (SELECT count(*) FROM qc WHERE qc.a = y.a) > 0",
			"x.id = (SELECT min(qc.id) FROM qc WHERE qc.a = y.a)")), false
	case 4:
		return "SELECT a, (SELECT max(qc.e) FROM qc WHERE qc.a = s.a) FROM (SELECT a FROM qa UNION SELECT a FROM qb) s", false
	}
	return "SELECT x.id, (SELECT y.d FROM qb y WHERE y.a = x.a ORDER BY y.id LIMIT 1), (SELECT array_agg(z.id ORDER BY z.id) FROM qc z WHERE z.a IS NOT DISTINCT FROM x.a) FROM qa x", false
}

// setOpTypes resolves column types across branches (int with bigint,
// numeric, NULL, unknown literals; text against int: 42804 at the right
// operand's column), nested and parenthesised, with ORDER BY / LIMIT on
// the result and in a branch.
func (g *shapeGen) setOpTypes() (string, bool) {
	branch := func() string {
		// (no numeric column beside integers: equal values of different
		// scales, 1 and 1.0, print differently and their order and which
		// one INTERSECT keeps are the plan's)
		return g.pick("SELECT a FROM qa", "SELECT e FROM qc", "SELECT b FROM qa", "SELECT NULL", "SELECT '5'", "SELECT 2.5",
			"SELECT a::bigint FROM qb", "(SELECT id FROM qa ORDER BY id DESC LIMIT 2)", "SELECT 1 WHERE false", "VALUES (7)")
	}
	op := func() string {
		return g.pick(" UNION ", " UNION ALL ", " INTERSECT ", " EXCEPT ", " EXCEPT ALL ", " INTERSECT ALL ")
	}
	q := branch() + op() + branch()
	if g.r.IntN(2) == 0 {
		q = "(" + q + ")" + op() + branch()
	}
	if g.r.IntN(2) == 0 {
		return q + " ORDER BY 1 NULLS FIRST" + g.pick("", " LIMIT 2", " OFFSET 1"), true
	}
	return q, false
}

func (g *shapeGen) limits() (string, bool) {
	lim := g.pick("LIMIT 3", "OFFSET 2", "LIMIT 2 OFFSET 5", "FETCH FIRST 3 ROWS ONLY", "LIMIT 0", "OFFSET 9")
	return "SELECT a, id FROM qa ORDER BY a NULLS FIRST, id " + lim, true
}
