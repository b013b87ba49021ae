package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// joinItemKinds are the FROM items a join takes: a VALUES list and a
// subquery with column aliases, a subquery without, functions, and
// LATERAL subqueries (one reading the item before it). Each gives a
// column k (the join key) and most a column named after the alias;
// slot picks the rows, so that the sides of a join match in part.
var joinItemKinds = []struct {
	name string
	// item is the FROM item of alias in slot; prev is the alias of the
	// item before it at its level ("" when there is none or a lateral
	// reference to it is not allowed).
	item func(alias string, slot int, prev string) string
}{
	{"values", func(a string, slot int, _ string) string {
		return fmt.Sprintf("(VALUES %s) %s(k, %sv)", joinRows(slot, "(%d, '%s')"), a, a)
	}},
	{"values-as", func(a string, slot int, _ string) string {
		return fmt.Sprintf("(VALUES %s) AS %s(k)", joinRows(slot, "(%d)"), a)
	}},
	{"subquery-aliases", func(a string, slot int, _ string) string {
		return fmt.Sprintf("(SELECT * FROM (VALUES %s) v) AS %s(k, %sv)", joinRows(slot, "(%d, '%s')"), a, a)
	}},
	{"subquery", func(a string, slot int, _ string) string {
		return fmt.Sprintf("(SELECT column1 AS k, column2 AS %sv FROM (VALUES %s) v) %s", a, joinRows(slot, "(%d, '%s')"), a)
	}},
	{"function", func(a string, slot int, _ string) string {
		return fmt.Sprintf("generate_series(%d, %d) AS %s(k)", slot, slot+2, a)
	}},
	{"function-columns", func(a string, slot int, _ string) string {
		return fmt.Sprintf("unnest(ARRAY[%d, %d, NULL], ARRAY['p', 'q', 'r']) %s(k, %sv)", slot, slot+1, a, a)
	}},
	{"lateral", func(a string, slot int, prev string) string {
		if prev == "" {
			return fmt.Sprintf("LATERAL (VALUES %s) %s(k, %sv)", joinRows(slot, "(%d, '%s')"), a, a)
		}
		return fmt.Sprintf("LATERAL (SELECT %s.k + %d AS k, 'l' AS %sv) %s", prev, slot%2, a, a)
	}},
}

// joinRows is slot's rows written with format (a number, a letter):
// slots overlap in their keys, and each has a NULL key.
func joinRows(slot int, format string) string {
	keys := [][]string{{"1", "2", "NULL::int"}, {"1", "3", "NULL::int"}, {"2", "3", "NULL::int"}}[slot%3]
	rows := make([]string, len(keys))
	for i, k := range keys {
		row := strings.Replace(format, "%d", k, 1)
		rows[i] = strings.Replace(row, "%s", string(rune('a'+i+slot)), 1)
	}
	return strings.Join(rows, ", ")
}

// joinKinds are the joins between two items, %[1]s and %[2]s the aliases
// the ON condition compares; lateralRef says whether the right item may
// read the left one: not under RIGHT or FULL JOIN, and not with USING or
// NATURAL, which sqlgate refuses (0A000) when the right item reads the
// left one.
var joinKinds = []struct {
	join       string
	lateralRef bool
}{
	{"JOIN %s ON %[2]s.k = %[3]s.k", true},
	{"LEFT JOIN %s ON %[2]s.k = %[3]s.k", true},
	{"RIGHT JOIN %s ON %[2]s.k = %[3]s.k", false},
	{"FULL JOIN %s ON %[2]s.k = %[3]s.k", false},
	{"FULL OUTER JOIN %s ON %[2]s.k = %[3]s.k AND %[2]s.k > 0", false},
	{"JOIN %s USING (k)", false},
	{"LEFT JOIN %s USING (k)", false},
	{"RIGHT JOIN %s USING (k)", false},
	{"FULL JOIN %s USING (k)", false},
	{"NATURAL JOIN %s", false},
	{"NATURAL LEFT JOIN %s", false},
	{"NATURAL RIGHT JOIN %s", false},
	{"NATURAL FULL JOIN %s", false},
	{"CROSS JOIN %s", true},
}

// joinShapes place items x, y, z (and joins) in a FROM clause: a join of
// two, the same in parentheses, each side of a join being a
// parenthesised join, an aliased parenthesised join, nested parentheses.
// Each %[n]s is filled by joinQuery.
var joinShapes = []string{
	"{x} {j1:x:y}",
	"({x} {j1:x:y})",
	"(({x} {j1:x:y}))",
	"({x} {j1:x:y}) {j2:y:z}",
	"{x} {j2:x:(y)}",
	"({x} {j1:x:y}) AS w {j2u:w:z}",
	"{x} {j2:x:(y)} , {z2}",
}

// joinQuery renders shape with item kinds ks and join kinds j1, j2.
func joinQuery(shape string, ks [3]int, j1, j2 int) string {
	item := func(slot int, alias, prev string) string {
		return joinItemKinds[ks[slot]].item(alias, slot, prev)
	}
	join := func(j int, right, l, r string) string {
		jk := joinKinds[j]
		if strings.Contains(jk.join, "%[2]s") {
			return fmt.Sprintf(jk.join, right, l, r)
		}
		return fmt.Sprintf(jk.join, right)
	}
	lateralPrev := func(j int, prev string) string {
		if joinKinds[j].lateralRef {
			return prev
		}
		return ""
	}
	// y's own join, y joined to z inside parentheses for {j2:x:(y)}
	inner := "(" + item(1, "y", "") + " " + join(j1, item(2, "z", lateralPrev(j1, "y")), "y", "z") + ")"
	r := strings.NewReplacer(
		"{x}", item(0, "x", ""),
		"{j1:x:y}", join(j1, item(1, "y", lateralPrev(j1, "x")), "x", "y"),
		"{j2:y:z}", join(j2, item(2, "z", ""), "y", "z"),
		"{j2:x:(y)}", join(j2, inner, "x", "y"),
		"{j2u:w:z}", join(j2, item(2, "z", ""), "w", "z"),
		"{z2}", "(VALUES (7)) AS u(k)",
	)
	return "SELECT * FROM " + r.Replace(shape)
}

// TestJoinFromItemsDifferential joins every kind of FROM item (VALUES and
// subqueries with and without column aliases, functions, LATERAL) in
// every join position (right of each join kind, first and second inside
// a parenthesised join, aliased or nested parentheses) with ON, USING and
// NATURAL, on sqlgate and PostgreSQL 15: the same rows and columns, or
// the same refusal. sqlgate's rewrite lost a VALUES list's or a
// subquery's column aliases, and a function in FROM, after FULL JOIN and
// first inside a parenthesised join (42601).
func TestJoinFromItemsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 24))))
	var queries []string
	seen := map[string]bool{}
	// every item kind in every slot of every shape once, the joins drawn
	for _, shape := range joinShapes {
		for k := range joinItemKinds {
			for slot := 0; slot < 3; slot++ {
				ks := [3]int{rng.Intn(len(joinItemKinds)), rng.Intn(len(joinItemKinds)), rng.Intn(len(joinItemKinds))}
				ks[slot] = k
				q := joinQuery(shape, ks, rng.Intn(len(joinKinds)), rng.Intn(len(joinKinds)))
				if !seen[q] {
					seen[q] = true
					queries = append(queries, q)
				}
			}
		}
	}
	// every join kind after every item kind, in the two-item shapes
	for _, shape := range joinShapes[:2] {
		for j := range joinKinds {
			for k := range joinItemKinds {
				q := joinQuery(shape, [3]int{rng.Intn(len(joinItemKinds)), k, 0}, j, 0)
				if !seen[q] {
					seen[q] = true
					queries = append(queries, q)
				}
			}
		}
	}
	stats := map[string]int{}
	for _, q := range queries {
		tally(t, ctx, r, q, stats)
	}
	t.Logf("%d queries: %v", len(queries), stats)
	if stats["same"] < len(queries)/2 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}
