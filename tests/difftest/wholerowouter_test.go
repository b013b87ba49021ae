package difftest

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// wholeRowOuterSources are the FROM items whose whole rows an outer join
// null-extends: a table, a derived table, a view and a VALUES list of the
// same rows (a, b). Each has a row that matches on a, a row that matches
// nothing, and a row whose columns are all NULL: a real row that prints
// as (,) and is IS NULL, where a row the join made up is NULL itself.
var wholeRowOuterSources = []struct {
	name string
	from func(table string) string
}{
	{"table", func(table string) string { return table }},
	{"derived", func(table string) string { return "(SELECT a, b FROM " + table + ")" }},
	{"view", func(table string) string { return table + "_v" }},
	// VALUES inside a derived table (join_values.slt and
	// TestJoinFromItemsDifferential try bare (VALUES ...) in every join
	// position)
	{"values", func(table string) string {
		if table == "wol" {
			return "(SELECT * FROM (VALUES (1, 'x'), (2, 'y'), (NULL::int, NULL::text)) AS v(a, b))"
		}
		return "(SELECT * FROM (VALUES (1, 'p'), (3, 'q'), (NULL::int, NULL::text)) AS v(a, b))"
	}},
}

// wholeRowOuterUses are the ways a query reads a whole row x: printed, IS
// [NOT] NULL, as text, as JSON, COALESCE'd, counted, read by a scalar
// subquery and tested in a correlated EXISTS, compared with NULL (the
// value's own NULL, not its fields'). count is an aggregate: its query has
// no other column.
var wholeRowOuterUses = []string{
	"%[1]s IS DISTINCT FROM NULL",
	"NULL IS NOT DISTINCT FROM %[1]s",
	"%[1]s = NULL",
	"%[1]s",
	"%[1]s IS NULL",
	"%[1]s IS NOT NULL",
	"NOT %[1]s IS NULL",
	"%[1]s::text",
	"row_to_json(%[1]s)",
	"coalesce(%[1]s::text, 'none')",
	"coalesce(%[1]s, %[1]s)",
	"(SELECT %[1]s)",
	"EXISTS (SELECT 1 WHERE %[1]s IS NOT NULL)",
	"count(%[1]s)",
}

// wholeRowOuterJoins are the join shapes: each kind, with an ON that
// never matches the all-NULL rows (=) and, for LEFT and RIGHT, one that
// matches them with each other (IS NOT DISTINCT FROM), so that both a
// made-up row and a real all-NULL row reach the select list; and nested
// joins, where an inner outer join already made rows up. %[1]s and %[2]s
// are the two FROM items with their aliases l and r, %[3]s a third (wor
// AS m).
var wholeRowOuterJoins = []struct {
	from    string
	aliases []string
}{
	{"%[1]s LEFT JOIN %[2]s ON l.a = r.a", []string{"l", "r"}},
	{"%[1]s LEFT JOIN %[2]s ON l.a IS NOT DISTINCT FROM r.a", []string{"l", "r"}},
	{"%[1]s RIGHT JOIN %[2]s ON l.a = r.a", []string{"l", "r"}},
	{"%[1]s RIGHT JOIN %[2]s ON l.a IS NOT DISTINCT FROM r.a", []string{"l", "r"}},
	{"%[1]s FULL JOIN %[2]s ON l.a = r.a", []string{"l", "r"}},
	{"%[1]s JOIN %[2]s ON l.a = r.a", []string{"l", "r"}},
	{"%[1]s LEFT JOIN (%[2]s LEFT JOIN %[3]s ON r.a = m.a + 2) ON l.a = r.a", []string{"r", "m"}},
	{"%[1]s FULL JOIN (%[2]s JOIN %[3]s ON r.a = m.a) ON l.a = r.a", []string{"l", "r", "m"}},
	{"(%[1]s LEFT JOIN %[2]s ON l.a = r.a) RIGHT JOIN %[3]s ON m.a = l.a", []string{"l", "r", "m"}},
}

// TestWholeRowOuterJoinDifferential sends whole-row references to both
// sides of LEFT, RIGHT, FULL and nested joins of tables, derived tables,
// views and VALUES through every use of wholeRowOuterUses, and whole rows
// of an enclosing query's FROM items to subqueries, on sqlgate and
// PostgreSQL 15: the same rows and types. PostgreSQL's whole row of a
// FROM item an outer join null-extends is NULL where the join made the
// row up (NULL printed, NULL as text and JSON, not counted), and a row of
// NULL fields where the item has a row of NULLs.
func TestWholeRowOuterJoinDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	setup := []string{
		"CREATE TABLE wol (a int, b text)",
		"INSERT INTO wol VALUES (1, 'x'), (2, 'y'), (NULL, NULL)",
		"CREATE TABLE wor (a int, b text)",
		"INSERT INTO wor VALUES (1, 'p'), (3, 'q'), (NULL, NULL)",
		"CREATE VIEW wol_v AS SELECT a, b FROM wol",
		"CREATE VIEW wor_v AS SELECT a, b FROM wor",
	}
	for _, e := range []Executor{r.SQLGate, r.Postgres} {
		if err := e.(*Session).Exec(ctx, setup); err != nil {
			t.Fatalf("%v: %v", setup, err)
		}
	}
	var queries []string
	for _, src := range wholeRowOuterSources {
		l, rt := src.from("wol"), src.from("wor")
		for _, j := range wholeRowOuterJoins {
			from := fmt.Sprintf(j.from, aliasedSource(l, "l"), aliasedSource(rt, "r"), "wor AS m")
			for _, x := range j.aliases {
				for _, use := range wholeRowOuterUses {
					u := fmt.Sprintf(use, x)
					if strings.HasPrefix(use, "count") {
						queries = append(queries, fmt.Sprintf("SELECT %s, count(*) FROM %s", u, from))
						continue
					}
					queries = append(queries, fmt.Sprintf("SELECT l.a, r.a, %s FROM %s", u, from))
				}
			}
		}
	}
	// a whole row of an enclosing query's FROM item, read by subqueries
	// one and two levels down, a LATERAL item and correlated WHERE
	// subqueries, with the enclosing query grouping by it or not
	for _, src := range wholeRowOuterSources {
		l, rt := aliasedSource(src.from("wol"), "t"), aliasedSource(src.from("wor"), "u")
		for _, q := range []string{
			"SELECT t.a, (SELECT t) FROM %[1]s",
			"SELECT t.a, (SELECT (SELECT row_to_json(t))) FROM %[1]s",
			"SELECT t.a, (SELECT x FROM (SELECT t) x) FROM %[1]s",
			"SELECT t.a, s FROM %[1]s, LATERAL (SELECT t) s",
			"SELECT t.a FROM %[1]s WHERE EXISTS (SELECT 1 FROM %[2]s WHERE u = t)",
			"SELECT t.a, (SELECT count(*) FROM %[2]s WHERE u.a = t.a AND t IS NOT NULL) FROM %[1]s",
			"SELECT (SELECT t), count(*) FROM %[1]s GROUP BY t",
			"SELECT j.l, j.r, j.r IS NULL FROM %[1]s LEFT JOIN %[2]s ON t.a = u.a CROSS JOIN LATERAL (SELECT t AS l, u AS r) j",
		} {
			queries = append(queries, fmt.Sprintf(q, l, rt))
		}
	}
	oids := typeOIDMap(t, ctx, r, "wol", "wor") // composite_test.go
	views := viewRecordOIDs(t, ctx, r, "wol_v", "wor_v")
	stats := map[string]int{}
	for _, q := range queries {
		tallyBy(t, ctx, r, q, stats, tallyRule{oids: oids, pgOIDs: views})
	}
	t.Logf("%d queries: %v", len(queries), stats)
	if stats["same"] == 0 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}

// aliasedSource is src with its alias.
func aliasedSource(src, alias string) string { return src + " AS " + alias }
