package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// viewCheckConds are the WHERE clauses the generated views draw from
// (over k, a, b, and s where a view below made it); "" is none.
var viewCheckConds = []string{"", "a > 0", "a < 10", "b <> 3", "a + b > 4", "b IS NOT NULL", "a BETWEEN 2 AND 12", "k % 3 <> 1", "a <> b"}

// TestViewCheckOptionDifferential makes random stacks of views over a
// table on sqlgate and PostgreSQL 15 (each view over the one below, with
// a random WHERE, sometimes an expression column, and no, LOCAL or
// CASCADED check option) and writes random rows through random views of
// them (INSERTs of one to three rows, upserts of one, UPDATEs of one; now
// and then an ALTER VIEW sets or resets a view's check option): each write must be
// accepted alike, or refused with the same SQLSTATE, message (the view
// named) and DETAIL (the failing base row); the table, information_schema
// and reloptions are compared after each stack. SQLGATE_DIFF_QUERIES sets
// the number of writes per stack (default 30).
func TestViewCheckOptionDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	writes := envInt(t, "SQLGATE_DIFF_QUERIES", 30)
	rng := rand.New(rand.NewSource(34))
	stats := map[string]int{}
	rule := tallyRule{detail: true}
	both := func(q string) {
		for _, s := range []Executor{r.SQLGate, r.Postgres} {
			if o := s.Run(ctx, q); o.Err != nil {
				t.Fatalf("%s: %s", q, o.Err.Message)
			}
		}
	}
	key := 0
	val := func() string {
		if rng.Intn(8) == 0 {
			return "NULL"
		}
		return fmt.Sprint(rng.Intn(20) - 5)
	}
	for stack := range 6 {
		table := fmt.Sprintf("vck_t%d", stack)
		both(fmt.Sprintf("CREATE TABLE %s (k INT PRIMARY KEY, a INT, b INT)", table))
		var names []string
		below, hasS := table, false
		for level := range 1 + rng.Intn(4) {
			name := fmt.Sprintf("vck_v%d_%d", stack, level)
			cols := "*"
			if !hasS && rng.Intn(3) == 0 {
				cols, hasS = "*, a + b AS s", true
			}
			conds := viewCheckConds
			if hasS && rng.Intn(2) == 0 {
				conds = []string{"s > 0", "s < 15", "s IS NOT NULL"}
			}
			q := fmt.Sprintf("CREATE VIEW %s AS SELECT %s FROM %s", name, cols, below)
			if c := conds[rng.Intn(len(conds))]; c != "" {
				q += " WHERE " + c
			}
			switch rng.Intn(3) {
			case 1:
				q += " WITH LOCAL CHECK OPTION"
			case 2:
				q += " WITH CASCADED CHECK OPTION"
			}
			tallyBy(t, ctx, r, q, stats, rule)
			names = append(names, name)
			below = name
		}
		for range writes {
			v := names[rng.Intn(len(names))]
			var q string
			switch rng.Intn(10) {
			case 0:
				// a view's check option changed between writes
				q = fmt.Sprintf("ALTER VIEW %s %s", v, []string{"SET (check_option = local)", "SET (check_option = cascaded)", "RESET (check_option)"}[rng.Intn(3)])
			case 1, 2, 3, 4, 5:
				var rows []string
				for range 1 + rng.Intn(3) {
					key++
					rows = append(rows, fmt.Sprintf("(%d, %s, %s)", key, val(), val()))
				}
				q = fmt.Sprintf("INSERT INTO %s (k, a, b) VALUES %s", v, strings.Join(rows, ", "))
			case 7:
				// an upsert: the row DO UPDATE makes is checked, a row DO
				// NOTHING skips is not
				action := []string{"DO NOTHING", "DO UPDATE SET a = excluded.a + 1", "DO UPDATE SET b = " + val()}[rng.Intn(3)]
				// a key handed out before (a plain INSERT of an existing
				// key upserts on sqlgate, so the INSERTs take new ones)
				if key == 0 {
					key++
				}
				q = fmt.Sprintf("INSERT INTO %s (k, a, b) VALUES (%d, %s, %s) ON CONFLICT (k) %s", v, 1+rng.Intn(key), val(), val(), action)
			default:
				set := []string{"a = " + val(), "b = " + val(), "a = a + 3", "b = a - 1"}[rng.Intn(4)]
				// one row: which of several fails first is the scan's
				// order, PostgreSQL's heap order, not the rule's
				q = fmt.Sprintf("UPDATE %s SET %s WHERE k = %d", v, set, 1+rng.Intn(key+1))
			}
			tallyBy(t, ctx, r, q, stats, rule)
		}
		tallyBy(t, ctx, r, fmt.Sprintf("SELECT * FROM %s ORDER BY k", table), stats, tallyRule{ordered: true})
		like := fmt.Sprintf("'vck_v%d_%%'", stack)
		tallyBy(t, ctx, r, "SELECT table_name, check_option, is_updatable, is_insertable_into FROM information_schema.views WHERE table_name LIKE "+like+" ORDER BY 1", stats, tallyRule{ordered: true})
		tallyBy(t, ctx, r, "SELECT relname, reloptions::text FROM pg_class WHERE relname LIKE "+like+" ORDER BY 1", stats, tallyRule{ordered: true})
	}
	t.Logf("%v", stats)
	if stats["refused alike"] < 10 || stats["same"] < 10 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}
