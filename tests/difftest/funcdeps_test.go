package difftest

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// funcDepSetup are the tables of TestFunctionalGroupingDifferential: a
// one-column and a two-column primary key, and a table without one.
var funcDepSetup = []string{
	"CREATE TABLE fa (id int PRIMARY KEY, x int, s text, j jsonb)",
	"CREATE TABLE fc (a int, b int, v int, w text, PRIMARY KEY (a, b))",
	"CREATE TABLE fn (id int, y int)",
	"INSERT INTO fa VALUES (1, 10, 'p', '{\"k\": 1}'), (2, 10, 'q', '[]'), (3, NULL, NULL, NULL), (4, 20, 'p', '{}')",
	"INSERT INTO fc VALUES (1, 1, 5, 'x'), (1, 2, 6, 'y'), (2, 1, NULL, 'x'), (4, 4, 7, NULL)",
	"INSERT INTO fn VALUES (1, 1), (1, 2), (2, 3), (NULL, 4)",
}

// funcDepFrom are FROM clauses with their items' aliases and columns.
var funcDepFrom = []struct {
	from  string
	items map[string][]string
}{
	{"fa", map[string][]string{"fa": {"id", "x", "s", "j"}}},
	{"fc", map[string][]string{"fc": {"a", "b", "v", "w"}}},
	{"fa JOIN fc ON fc.a = fa.id", map[string][]string{"fa": {"id", "x", "s", "j"}, "fc": {"a", "b", "v", "w"}}},
	{"fa LEFT JOIN fn ON fn.id = fa.id", map[string][]string{"fa": {"id", "x", "s", "j"}, "fn": {"id", "y"}}},
	{"fa t1 JOIN fa t2 ON t2.x = t1.x", map[string][]string{"t1": {"id", "x", "s", "j"}, "t2": {"id", "x", "s", "j"}}},
	{"(SELECT * FROM fa) d", map[string][]string{"d": {"id", "x", "s", "j"}}},
	{"fc JOIN fn USING (v) ", nil}, // (no column v in fn: an error on both)
}

// TestFunctionalGroupingDifferential draws SQLGATE_DIFF_FUNCDEP_QUERIES
// (default 150) grouped queries: a FROM clause of tables with and without
// primary keys (a join, a self-join, a derived table), a GROUP BY of some
// of its columns (sometimes in grouping sets), and a select list, HAVING
// and ORDER BY of other columns, whole rows and aggregates. PostgreSQL accepts an
// ungrouped column exactly when its table's whole primary key is grouped
// (check_functional_grouping); both must answer alike: the same rows, or
// the same error naming the same column.
func TestFunctionalGroupingDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	for _, s := range funcDepSetup {
		for _, ex := range []Executor{r.SQLGate, r.Postgres} {
			if o := ex.Run(ctx, s); o.Err != nil {
				t.Fatalf("%s: %s", s, o.Err.Message)
			}
		}
	}
	rng := seededRand(t, 44)
	n := envInt(t, "SQLGATE_DIFF_FUNCDEP_QUERIES", 150)
	accepted := 0
	for i := 0; i < n; i++ {
		q := funcDepQuery(rng)
		sg, pg := r.SQLGate.Run(ctx, q), r.Postgres.Run(ctx, q)
		if sg.Err != nil && sg.Err.Code == connErrorCode {
			t.Fatalf("%s lost its connection: %s", q, sg.Err.Message)
		}
		if same, why := Compare(sg, pg, false, false); !same {
			t.Errorf("%s: %s\n  sqlgate:    %s\n  PostgreSQL: %s", q, why, describe(sg), describe(pg))
			continue
		}
		if sg.Err != nil && sg.Err.Message != pg.Err.Message {
			t.Errorf("%s\n  sqlgate:    %s\n  PostgreSQL: %s", q, sg.Err.Message, pg.Err.Message)
		}
		if pg.Err == nil {
			accepted++
		}
	}
	t.Logf("%d queries, %d accepted by both", n, accepted)
}

// funcDepQuery draws one grouped query.
func funcDepQuery(rng *rand.Rand) string {
	f := funcDepFrom[rng.IntN(len(funcDepFrom))]
	if f.items == nil {
		return "SELECT count(*) FROM " + f.from + " GROUP BY v"
	}
	var cols []string
	for alias, names := range f.items {
		for _, c := range names {
			cols = append(cols, alias+"."+c)
		}
	}
	// map order is random: sort for a reproducible draw
	slices.Sort(cols)
	pick := func(k int) []string {
		out := make([]string, 0, k)
		for _, i := range rng.Perm(len(cols))[:min(k, len(cols))] {
			out = append(out, cols[i])
		}
		return out
	}
	group := pick(1 + rng.IntN(3))
	groupBy := strings.Join(group, ", ")
	sets := rng.IntN(6) == 0
	if sets {
		groupBy = fmt.Sprintf("GROUPING SETS ((%s), (%s))", groupBy, group[0])
	}
	sel := pick(1 + rng.IntN(3))
	var filtered []string
	for _, c := range sel {
		if strings.HasSuffix(c, ".j") {
			c += "::text" // jsonb's text, which both print alike
		}
		filtered = append(filtered, c)
	}
	if !sets && rng.IntN(4) == 0 {
		// a whole row: grouped when its item's primary key is (not with
		// grouping sets: binder/funcdeps.go's wholeRowGrouped)
		aliases := slices.Sorted(maps.Keys(f.items))
		filtered = append(filtered, aliases[rng.IntN(len(aliases))]+"::text")
	}
	q := "SELECT " + strings.Join(filtered, ", ") + ", count(*) FROM " + f.from + " GROUP BY " + groupBy
	if rng.IntN(3) == 0 {
		q += " HAVING " + pick(1)[0] + " IS NOT NULL"
	}
	if rng.IntN(2) == 0 {
		q += " ORDER BY " + pick(1)[0]
	}
	return q
}
