package difftest

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// The grouping-sets generator: random GROUP BY clauses of plain keys,
// ROLLUP, CUBE, GROUPING SETS (nested), () and GROUP BY DISTINCT over a
// table of few distinct values and many NULLs, with GROUPING(..) of random
// keys, the common aggregates (DISTINCT, ORDER BY and FILTER included) and
// HAVING. The answer is compared as a multiset: which rows a GROUP BY
// produces is the rule under test, their order without a complete ORDER BY
// is the plan's.

// GroupSchema is the table the grouping-sets generator reads: tg, whose
// keys k1..k4 take 2-3 values and NULL, with integer, float and text
// measures.
func GroupSchema(seed uint64) *Schema {
	rng := rand.New(rand.NewPCG(seed, 0x677270))
	t := Table{
		Name: "tg",
		Columns: []Column{
			{"id", Int8, "BIGINT"},
			{"k1", Int4, "INT"},
			{"k2", Int4, "INT"},
			{"k3", Text, "TEXT"},
			{"k4", Int4, "INT"},
			{"m", Int4, "INT"},
			{"f", Float8, "DOUBLE PRECISION"},
			{"s", Text, "TEXT"},
		},
	}
	val := func(n int, text bool) string {
		if rng.IntN(5) == 0 {
			return "NULL"
		}
		v := rng.IntN(n)
		if text {
			return fmt.Sprintf("'%c'", 'a'+v)
		}
		return fmt.Sprint(v)
	}
	for id := 1; id <= 30; id++ {
		f := fmt.Sprintf("%d.%d", rng.IntN(100)-20, rng.IntN(4)*25)
		t.Rows = append(t.Rows, []string{
			fmt.Sprint(id), val(3, false), val(2, false), val(3, true), val(2, false),
			val(100, false), f, val(4, true),
		})
	}
	return &Schema{Tables: []Table{t}}
}

// GroupGen generates grouping-sets queries, deterministically by seed.
type GroupGen struct {
	rng *rand.Rand
}

// NewGroupGen returns a generator.
func NewGroupGen(seed uint64) *GroupGen {
	return &GroupGen{rng: rand.New(rand.NewPCG(seed, 0x67727067))}
}

var groupKeys = []string{"k1", "k2", "k3", "k4", "(k1 + k2)", "upper(k3)"}

// Query returns one query.
func (g *GroupGen) Query() string {
	r := g.rng
	used := map[string]bool{}
	key := func() string {
		k := groupKeys[r.IntN(len(groupKeys))]
		used[k] = true
		return k
	}
	// element is an expression or a parenthesised list of them
	element := func() string {
		if r.IntN(4) == 0 {
			return "(" + key() + ", " + key() + ")"
		}
		return key()
	}
	list := func(n int, f func() string) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = f()
		}
		return strings.Join(parts, ", ")
	}
	var item func(depth int) string
	item = func(depth int) string {
		switch r.IntN(6) {
		case 0:
			return "ROLLUP (" + list(1+r.IntN(3), element) + ")"
		case 1:
			return "CUBE (" + list(1+r.IntN(3), element) + ")"
		case 2:
			if depth < 2 {
				return "GROUPING SETS (" + list(1+r.IntN(3), func() string {
					switch r.IntN(4) {
					case 0:
						return "()"
					case 1:
						return item(depth + 1)
					}
					return element()
				}) + ")"
			}
		case 3:
			if depth == 0 && r.IntN(3) == 0 {
				return "()"
			}
		}
		return element()
	}
	groupBy := list(1+r.IntN(2), func() string { return item(0) })
	if r.IntN(6) == 0 {
		groupBy = "DISTINCT " + groupBy
	}
	var keys []string
	for _, k := range groupKeys {
		if used[k] {
			keys = append(keys, k)
		}
	}
	var sel []string
	for _, k := range keys {
		if r.IntN(4) != 0 {
			sel = append(sel, k)
		}
	}
	if len(keys) > 0 && r.IntN(3) != 0 {
		n := 1 + r.IntN(min(3, len(keys)))
		args := make([]string, n)
		for i := range args {
			args[i] = keys[r.IntN(len(keys))]
		}
		sel = append(sel, "grouping("+strings.Join(args, ", ")+")")
	}
	aggs := []string{
		"count(*)", "count(m)", "sum(m)", "min(s)", "max(f)", "avg(m)", "count(DISTINCT s)",
		"string_agg(s, ',' ORDER BY s, id)", "sum(f) FILTER (WHERE m > 50)", "array_agg(id ORDER BY id)",
	}
	for n := 1 + r.IntN(3); n > 0; n-- {
		sel = append(sel, aggs[r.IntN(len(aggs))])
	}
	q := "SELECT " + strings.Join(sel, ", ") + " FROM tg"
	if r.IntN(4) == 0 {
		q += " WHERE m > " + fmt.Sprint(r.IntN(60))
	}
	q += " GROUP BY " + groupBy
	if r.IntN(4) == 0 {
		q += " HAVING count(*) > " + fmt.Sprint(r.IntN(3))
	}
	return q
}
