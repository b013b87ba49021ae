package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestViewDefDifferential creates SQLGATE_DIFF_VIEWS (default 100) random
// views over three tables on sqlgate and PostgreSQL 15 - select lists of
// columns, expressions and literals with and without aliases, joins (ON,
// USING, LEFT, comma), subqueries in FROM and WHERE, WHERE conditions,
// GROUP BY with aggregates and HAVING, DISTINCT, ORDER BY (names,
// numbers, expressions, DESC, NULLS FIRST), LIMIT / OFFSET, UNION [ALL],
// WITH - and compares pg_get_viewdef(v), pg_get_viewdef(v, true),
// pg_get_viewdef(v, 60), pg_views.definition and
// information_schema.views.view_definition. A view sqlgate prints as written (the deparser
// does not reproduce it) is tallied as such; every view the deparser
// prints must be PostgreSQL's text, and at least 85% of the views must be.
func TestViewDefDifferential(t *testing.T) {
	t.Parallel()
	n := envInt(t, "SQLGATE_DIFF_VIEWS", 100)
	seed := diffSeed(t, 1)
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	for _, stmt := range viewGenTables {
		if kind, why := verdict(r.SQLGate.Run(ctx, stmt), r.Postgres.Run(ctx, stmt), tallyRule{}); kind != "same" {
			t.Fatalf("%s: %s", stmt, why)
		}
	}
	g := &viewGen{rng: rand.New(rand.NewPCG(uint64(seed), 37))}
	stats := map[string]int{}
	made := 0
	for k := range n {
		name := fmt.Sprintf("vd%d", k)
		query := g.query()
		create := "CREATE VIEW " + name + " AS " + query
		sg, pg := r.SQLGate.Run(ctx, create), r.Postgres.Run(ctx, create)
		switch {
		case sg.Err != nil && pg.Err != nil:
			stats["both refused"]++
			continue
		case sg.Err != nil || pg.Err != nil:
			// which views sqlgate accepts is other tests' matter
			stats["accepted differently"]++
			t.Logf("accepted differently: %s\n  sqlgate: %v\n  PostgreSQL: %v", create, sg.Err, pg.Err)
			if pg.Err == nil {
				r.Postgres.Run(ctx, "DROP VIEW "+name)
			} else {
				r.SQLGate.Run(ctx, "DROP VIEW "+name)
			}
			continue
		}
		made++
		q := fmt.Sprintf("SELECT pg_get_viewdef('%[1]s'::regclass), pg_get_viewdef('%[1]s'::regclass, true), pg_get_viewdef('%[1]s'::regclass, 60), definition, "+
			"(SELECT view_definition FROM information_schema.views WHERE table_name = '%[1]s') FROM pg_views WHERE viewname = '%[1]s'", name)
		sgOut, pgOut := r.SQLGate.Run(ctx, q), r.Postgres.Run(ctx, q)
		kind, why := verdict(sgOut, pgOut, tallyRule{ordered: true})
		if kind == "different" && asWritten(sgOut, query) {
			kind = "shown as written"
		}
		stats[kind]++
		if kind == "different" {
			t.Errorf("%s\n%s", create, why)
		}
	}
	keys := make([]string, 0, len(stats))
	for k := range stats {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var sb strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&sb, "\n  %-24s %d", k, stats[k])
	}
	t.Logf("%d views (seed %d):%s", n, seed, sb.String())
	if made < n/2 {
		t.Errorf("too few views were made on both systems: %v", stats)
	}
	if stats["same"]*100 < made*85 {
		t.Errorf("fewer than 85%% of the views print as PostgreSQL prints them: %v", stats)
	}
}

// asWritten reports whether sqlgate showed a view's query as written
// (framed as PostgreSQL frames its own), its fallback.
func asWritten(o Outcome, query string) bool {
	return len(o.Rows) == 1 && len(o.Rows[0]) > 0 && o.Rows[0][0].Text == " "+query+";"
}

var viewGenTables = []string{
	"CREATE TABLE vg1 (id integer, name text, price numeric(10,2), qty bigint, code varchar(8), made date)",
	"CREATE TABLE vg2 (id integer, vg1_id integer, note text, amount double precision, flag boolean)",
	"CREATE TABLE vg3 (k integer, label varchar(20), score smallint, name text)",
}

// viewGenCols are the generator's tables' columns by type family.
var viewGenCols = map[string][][2]string{
	"vg1": {{"id", "int"}, {"name", "text"}, {"price", "num"}, {"qty", "big"}, {"code", "varchar"}, {"made", "date"}},
	"vg2": {{"id", "int"}, {"vg1_id", "int"}, {"note", "text"}, {"amount", "float"}, {"flag", "bool"}},
	"vg3": {{"k", "int"}, {"label", "varchar"}, {"score", "small"}, {"name", "text"}},
}

// viewGen generates view queries.
type viewGen struct {
	rng *rand.Rand
}

func (g *viewGen) pick(xs ...string) string { return xs[g.rng.IntN(len(xs))] }

// source is a FROM item in a generated query: the name its columns are
// qualified by and its columns.
type source struct {
	qual string
	cols [][2]string
}

// from is a FROM clause and the sources it makes visible.
func (g *viewGen) from() (string, []source) {
	table := func(name string) (string, source) {
		if g.rng.IntN(3) == 0 {
			alias := g.pick("a", "b", "x", "t")
			return name + " " + alias, source{alias, viewGenCols[name]}
		}
		return name, source{name, viewGenCols[name]}
	}
	switch g.rng.IntN(9) {
	case 0, 1, 2:
		f, s := table(g.pick("vg1", "vg2", "vg3"))
		return f, []source{s}
	case 6:
		// USING and NATURAL: id is the merged column, the inputs' qualified
		join := g.pick("JOIN vg2 USING (id)", "LEFT JOIN vg2 USING (id)", "NATURAL JOIN vg2", "INNER JOIN vg2 USING (id)", "RIGHT JOIN vg2 USING (id)")
		return "vg1 " + join, []source{{"vg1", viewGenCols["vg1"][1:]}, {"vg2", viewGenCols["vg2"][1:]}}
	case 7:
		return "vg1 JOIN vg1 o ON o.id = vg1.qty", []source{{"vg1", viewGenCols["vg1"]}, {"o", viewGenCols["vg1"]}}
	case 8:
		return "vg3 CROSS JOIN vg2", []source{{"vg3", viewGenCols["vg3"]}, {"vg2", viewGenCols["vg2"]}}
	case 3:
		kind := g.pick("JOIN", "LEFT JOIN", "INNER JOIN", "RIGHT JOIN")
		return "vg1 " + kind + " vg2 ON vg1.id = vg2.vg1_id" + g.pick("", " AND vg2.flag"), []source{{"vg1", viewGenCols["vg1"]}, {"vg2", viewGenCols["vg2"]}}
	case 4:
		return "vg1 p, vg3 q", []source{{"p", viewGenCols["vg1"]}, {"q", viewGenCols["vg3"]}}
	}
	return "(SELECT id AS sid, name, price * 2 AS dbl FROM vg1 WHERE qty > 0) s", []source{{"s", [][2]string{{"sid", "int"}, {"name", "text"}, {"dbl", "num"}}}}
}

// col is a column of the sources: qualified where two sources could
// hold its name, else qualified at random.
func (g *viewGen) col(srcs []source, family ...string) (string, string, bool) {
	var cands [][3]string
	for _, s := range srcs {
		for _, c := range s.cols {
			if len(family) == 0 || slices.Contains(family, c[1]) {
				cands = append(cands, [3]string{s.qual, c[0], c[1]})
			}
		}
	}
	if len(cands) == 0 {
		return "", "", false
	}
	c := cands[g.rng.IntN(len(cands))]
	if len(srcs) > 1 || g.rng.IntN(2) == 0 {
		return c[0] + "." + c[1], c[2], true
	}
	return c[1], c[2], true
}

// expr is a select-list expression over srcs.
func (g *viewGen) expr(srcs []source) string {
	if c, _, ok := g.col(srcs, "int", "big", "small", "num", "float"); ok && g.rng.IntN(3) == 0 {
		return g.pick(c+" + 1", c+" * 2", "-"+c, "abs("+c+")", c+"::numeric(12,3)", c+" / 3", "("+c+" + 1) * 2", c+"::text")
	}
	if c, _, ok := g.col(srcs, "text", "varchar"); ok && g.rng.IntN(2) == 0 {
		return g.pick("lower("+c+")", c+" || 'x'", "upper("+c+")", "length("+c+")", c+"::text", "coalesce("+c+", 'none')")
	}
	c, _, _ := g.col(srcs)
	return g.pick("'lit'", "42", "2.5", "true", "NULL::integer", "CASE WHEN "+c+" IS NULL THEN 'n' ELSE 'y' END", "'2024-01-01'::date", "now()",
		"(SELECT max(k) FROM vg3)", "(SELECT count(*) FROM vg2 WHERE vg2.note = 'x')", c+" IS NULL", "-7", "1e3", "'x' || 'y'")
}

// cond is a WHERE condition over srcs.
func (g *viewGen) cond(srcs []source, depth int) string {
	if depth > 0 && g.rng.IntN(3) == 0 {
		return g.cond(srcs, depth-1) + g.pick(" AND ", " OR ") + g.cond(srcs, depth-1)
	}
	c, fam, _ := g.col(srcs)
	switch fam {
	case "int", "big", "small":
		return g.pick(c+" > 10", c+" = 3", c+" BETWEEN 1 AND 5", c+" IN (1, 2, 3)", c+" IS NOT NULL", c+" <> -1", "NOT "+c+" < 0",
			c+" IN (SELECT k FROM vg3)", "EXISTS (SELECT 1 FROM vg3 WHERE vg3.k = "+c+")")
	case "num", "float":
		return g.pick(c+" > 1.5", c+" < 100", c+" IS NULL", c+" >= 0")
	case "text", "varchar":
		return g.pick(c+" = 'abc'", c+" LIKE 'a%'", c+" <> ''", c+" IN ('x', 'y')", c+" IS NOT NULL", c+" ILIKE '%b'")
	case "bool":
		return g.pick(c, "NOT "+c, c+" IS TRUE", c+" = false")
	case "date":
		return g.pick(c+" > '2020-01-01'", c+" < CURRENT_DATE", c+" IS NULL")
	}
	return "true"
}

// query is a view's query.
func (g *viewGen) query() string {
	switch g.rng.IntN(10) {
	case 0:
		return g.union()
	case 1:
		return g.grouped()
	case 2:
		return g.pick("WITH w AS (SELECT id, name FROM vg1 WHERE qty > 1) SELECT w.id, w.name FROM w",
			"WITH w(a, b) AS (SELECT id, name FROM vg1), u AS (SELECT k FROM vg3) SELECT * FROM w JOIN u ON u.k = w.a",
			"WITH w AS MATERIALIZED (SELECT k, label FROM vg3) SELECT label FROM w",
			"SELECT id FROM vg1 WHERE id IN (SELECT id FROM vg1 WHERE qty > 2)",
			"SELECT vg1.name FROM vg1 WHERE NOT EXISTS (SELECT 1 FROM vg2 WHERE vg2.vg1_id = vg1.id AND vg2.flag)",
			"SELECT k, label FROM vg3 WHERE score > ALL (SELECT score FROM vg3 WHERE k < 0)",
			"SELECT s.* FROM (SELECT k + 1, label FROM vg3) s",
			"SELECT id, row_number() OVER (PARTITION BY code ORDER BY made DESC) AS rn FROM vg1",
			"SELECT k, rank() OVER (ORDER BY score DESC NULLS LAST, k), sum(score) OVER (PARTITION BY label) AS s FROM vg3",
			"SELECT id, lag(price) OVER (PARTITION BY id + 1 ORDER BY qty) AS prev, count(*) OVER () AS n FROM vg1 WHERE qty > 0",
			"SELECT name, avg(qty) OVER (PARTITION BY name, code) AS a, first_value(made) OVER (ORDER BY made DESC) AS f FROM vg1") + g.pick("", " ORDER BY 1")
	}
	from, srcs := g.from()
	var items []string
	names := map[string]bool{}
	unaliased := false
	for range 1 + g.rng.IntN(4) {
		if g.rng.IntN(2) == 0 {
			c, _, _ := g.col(srcs)
			base := c[strings.LastIndexByte(c, '.')+1:]
			if names[base] {
				items = append(items, c+" AS "+base+"_2")
				names[base+"_2"] = true
				continue
			}
			if g.rng.IntN(3) == 0 && !names["c_"+base] {
				items = append(items, c+" AS c_"+base)
				names["c_"+base] = true
				continue
			}
			names[base] = true
			items = append(items, c)
			continue
		}
		e := g.expr(srcs)
		if !unaliased && g.rng.IntN(3) == 0 && !strings.Contains(e, "(") && !strings.Contains(e, "::") {
			unaliased = true
			items = append(items, e)
			continue
		}
		alias := fmt.Sprintf("e%d", len(items))
		names[alias] = true
		items = append(items, e+" AS "+alias)
	}
	q := "SELECT " + g.pick("", "", "", "DISTINCT ") + strings.Join(items, ", ") + " FROM " + from
	if g.rng.IntN(3) != 0 {
		q += " WHERE " + g.cond(srcs, 2)
	}
	switch g.rng.IntN(4) {
	case 0:
		q += " ORDER BY 1" + g.pick("", " DESC", " NULLS FIRST")
	case 1:
		if !strings.Contains(q, "DISTINCT") {
			c, _, _ := g.col(srcs)
			q += " ORDER BY " + c + g.pick("", " DESC", " DESC NULLS LAST") + ", 1"
		}
	}
	if g.rng.IntN(4) == 0 {
		q += g.pick(" LIMIT 10", " LIMIT 5 OFFSET 2", " OFFSET 1")
	}
	return q
}

// grouped is a query with GROUP BY, aggregates and maybe HAVING.
func (g *viewGen) grouped() string {
	from, srcs := g.from()
	key, _, _ := g.col(srcs)
	num, _, ok := g.col(srcs, "int", "big", "num", "small", "float")
	agg := "count(*) AS n"
	if ok {
		agg += ", " + g.pick("sum", "max", "min", "avg") + "(" + num + ") AS m"
	}
	q := "SELECT " + key + ", " + agg + g.pick("", ", count(DISTINCT "+key+") AS dn") + " FROM " + from
	if g.rng.IntN(2) == 0 {
		q += " WHERE " + g.cond(srcs, 1)
	}
	q += " GROUP BY " + g.pick(key, "1")
	if g.rng.IntN(2) == 0 {
		q += " HAVING count(*) > " + g.pick("1", "0")
	}
	if g.rng.IntN(2) == 0 {
		q += " ORDER BY " + g.pick("2 DESC", "n", key, "count(*)")
	}
	return q
}

// union is a set operation of two or three simple SELECTs.
func (g *viewGen) union() string {
	parts := []string{
		"SELECT id, name FROM vg1" + g.pick("", " WHERE qty > 1"),
		"SELECT k, label FROM vg3",
		"SELECT " + g.pick("id", "vg1_id") + ", note FROM vg2",
		"SELECT 0, 'zero'",
	}
	g.rng.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
	n := 2 + g.rng.IntN(2)
	q := parts[0]
	for i := 1; i < n; i++ {
		q += g.pick(" UNION ", " UNION ALL ", " EXCEPT ", " INTERSECT ") + parts[i]
	}
	return q + g.pick("", " ORDER BY 1", " ORDER BY 2 DESC", " LIMIT 3")
}
