package difftest

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
)

// clauseSlot is one clause of a drawn statement: its valid forms and its
// faulty ones (each a different error: an unknown column named after the
// clause, a type mismatch, a misplaced aggregate or window call, a
// constant PostgreSQL refuses as a position, ...).
type clauseSlot struct {
	clause        string // the text before the item ("WHERE", "ORDER BY")
	valid, faulty []string
}

// selectSlots are a SELECT's clauses in the order they are written.
var selectSlots = []clauseSlot{
	{"SELECT", []string{"a", "a, b", "count(*)", "sum(a) OVER (ORDER BY a)", "a, rank() OVER w", "a, grouping(a)"},
		[]string{"nosuch_t", "a + 'x'", "b + 1", "rank() OVER w_missing", "sum(nosuch_ta) OVER ()", "sum(a) OVER (PARTITION BY nosuch_tp)",
			"count(DISTINCT a) OVER ()", "count(DISTINCT a, b) OVER ()", "a, nosuch_t2", "grouping(b)"}},
	{"FROM", []string{"ce"}, nil},
	{"WHERE", []string{"a > 0"},
		[]string{"nosuch_w = 1", "a", "sum(a) > 0", "a = 'x'", "rank() OVER () = 1", "b > 1"}},
	{"GROUP BY", []string{"a", "1", "a, b"},
		[]string{"nosuch_g", "'x'", "9", "count(*)", "1.5", "-1", "true", "NULL", "1, 'y'", "ROLLUP ('z')", "b + 1", "grouping(a)"}},
	{"HAVING", []string{"count(*) > 0"},
		[]string{"nosuch_h > 0", "count(*)", "b = 1", "c > 0"}},
	{"WINDOW", []string{"w AS (ORDER BY a)"},
		[]string{"w AS (PARTITION BY nosuch_d)", "w AS (ORDER BY 'x' + 1)"}},
	{"ORDER BY", []string{"1", "a", "a DESC"},
		[]string{"nosuch_o", "'x'", "0", "2.5", "-1", "true", "NULL", "b + 1", "a, 'y'", "E'z'", "99999999999", "c + 'q'"}},
	{"LIMIT", []string{"2", "(SELECT 2)"}, []string{"'x'", "nosuch_l", "a + 'x'", "(SELECT ce.a)", "(SELECT a + nosuch_l2)"}},
	{"OFFSET", []string{"1"}, []string{"'y'", "nosuch_f", "(SELECT c)"}},
	{"FOR", []string{"UPDATE"}, nil},
}

// dmlShapes are UPDATE, DELETE and INSERT shapes with a fault in
// each of several clauses (%s marks them in order: each draws a valid or
// a faulty form from its slot).
var dmlShapes = []struct {
	text  string
	slots []clauseSlot
}{
	{"UPDATE cp SET %s FROM %s WHERE %s RETURNING %s", []clauseSlot{
		{"SET", []string{"a = 1", "b = 'x'"}, []string{"a = nosuch_s", "a = 'x'", "nosuch_c = 1", "a = sum(a)", "a = 1, a = 2"}},
		{"FROM", []string{"ce"}, []string{"nosuch_rel"}},
		{"WHERE", []string{"cp.k = ce.k"}, []string{"nosuch_w = 1", "cp.a", "sum(cp.a) > 0", "cp.a = 'x'"}},
		{"RETURNING", []string{"cp.k"}, []string{"nosuch_r", "cp.b + 1", "sum(cp.a)"}},
	}},
	{"DELETE FROM cp USING %s WHERE %s RETURNING %s", []clauseSlot{
		{"USING", []string{"ce"}, []string{"nosuch_rel"}},
		{"WHERE", []string{"cp.k = ce.k"}, []string{"nosuch_w = 1", "cp.a", "cp.a = 'x'", "count(*) > 0"}},
		{"RETURNING", []string{"cp.k"}, []string{"nosuch_r", "cp.b + 1"}},
	}},
	{"INSERT INTO cp (%s) SELECT %s FROM ce WHERE %s RETURNING %s", []clauseSlot{
		{"", []string{"k, a"}, []string{"k, nosuch_c", "k, k"}},
		{"", []string{"k + 100, a"}, []string{"nosuch_s, a", "k + 100, b", "k + 100, a, 3"}},
		{"", []string{"a > 0"}, []string{"nosuch_w = 1", "a"}},
		{"", []string{"k"}, []string{"nosuch_r", "b + 1"}},
	}},
	{"INSERT INTO cp (%s) VALUES (%s) ON CONFLICT (k) DO UPDATE SET %s RETURNING %s", []clauseSlot{
		{"", []string{"k, a"}, []string{"k, nosuch_c"}},
		{"", []string{"1, 2"}, []string{"1, 'x'", "1, nosuch_v"}},
		{"", []string{"a = excluded.a"}, []string{"a = nosuch_u", "nosuch_c2 = 1"}},
		{"", []string{"k"}, []string{"nosuch_r"}},
	}},
}

// drawSlots picks a form for each slot: at least two faulty ones among
// the slots that have some (the statement's errors are in different
// clauses), the others valid, present or (optional) left out.
func drawSlots(rng *rand.Rand, slots []clauseSlot, optional func(int) bool) []string {
	var faultable []int
	for i, s := range slots {
		if len(s.faulty) > 0 {
			faultable = append(faultable, i)
		}
	}
	rng.Shuffle(len(faultable), func(i, j int) { faultable[i], faultable[j] = faultable[j], faultable[i] })
	faults := map[int]bool{}
	for _, i := range faultable[:2+rng.IntN(2)] {
		faults[i] = true
	}
	out := make([]string, len(slots))
	for i, s := range slots {
		switch {
		case faults[i]:
			out[i] = s.faulty[rng.IntN(len(s.faulty))]
		case optional != nil && optional(i):
			out[i] = ""
		default:
			out[i] = s.valid[rng.IntN(len(s.valid))]
		}
	}
	return out
}

// clauseOrderStatement draws a SELECT (or, one time in three, an
// UPDATE, DELETE or INSERT) with faults in two or three clauses.
func clauseOrderStatement(rng *rand.Rand) string {
	if rng.IntN(3) == 0 {
		shape := dmlShapes[rng.IntN(len(dmlShapes))]
		forms := drawSlots(rng, shape.slots, nil)
		q := shape.text
		for _, f := range forms {
			q = strings.Replace(q, "%s", f, 1)
		}
		return q
	}
	forms := drawSlots(rng, selectSlots, func(i int) bool {
		switch selectSlots[i].clause {
		case "SELECT", "FROM":
			return false
		case "FOR":
			return rng.IntN(8) != 0
		}
		return rng.IntN(2) == 0
	})
	var sb strings.Builder
	for i, f := range forms {
		if f == "" {
			continue
		}
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(selectSlots[i].clause + " " + f)
	}
	return sb.String()
}

// TestClauseOrderDifferential runs statements with errors in two or three
// clauses (unknown columns, type mismatches, aggregates and window calls
// where they are refused, constants ORDER BY, GROUP BY and DISTINCT ON
// refuse, out-of-range positions, bad LIMIT and OFFSET operands, window
// definitions, locking clauses over aggregates) on sqlgate and PostgreSQL
// 15: the error reported is the one of the clause PostgreSQL binds first
// (FROM, the select list, WHERE, HAVING, ORDER BY, GROUP BY, DISTINCT,
// OFFSET, LIMIT, the window definitions, the locking clause, the ungrouped
// columns; an UPDATE's WHERE and RETURNING before its SET list, an
// INSERT's column list before its source), compared by SQLSTATE, message
// and position. SQLGATE_DIFF_CLAUSEORDER_QUERIES sets the count (default
// 300).
func TestClauseOrderDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	setup := []string{
		"CREATE TABLE ce (k int PRIMARY KEY, a int, b text, c int)",
		"INSERT INTO ce VALUES (1, 1, 'x', 2), (2, 2, 'y', 3)",
		"CREATE TABLE cp (k int PRIMARY KEY, a int, b text)",
		"INSERT INTO cp VALUES (1, 1, 'x'), (2, 2, 'y')",
	}
	for _, q := range setup {
		for _, ex := range []Executor{r.SQLGate, r.Postgres} {
			if o := ex.Run(ctx, q); o.Err != nil {
				t.Fatalf("%s: %s", q, describe(o))
			}
		}
	}
	n := envInt(t, "SQLGATE_DIFF_CLAUSEORDER_QUERIES", 300)
	seed := diffSeed(t, 1)
	rng := rand.New(rand.NewPCG(uint64(seed), 40))
	stats := map[string]int{}
	for range n {
		q := clauseOrderStatement(rng)
		// a write that PostgreSQL runs is undone on both
		for _, ex := range []Executor{r.SQLGate, r.Postgres} {
			ex.Run(ctx, "BEGIN")
		}
		tallyBy(t, ctx, r, q, stats, tallyRule{placed: everyCode})
		for _, ex := range []Executor{r.SQLGate, r.Postgres} {
			ex.Run(ctx, "ROLLBACK")
		}
	}
	t.Logf("%d statements (seed %d): %v", n, seed, stats)
	if stats["refused alike"] < n*3/4 {
		t.Errorf("outcomes: %v", stats)
	}
}
