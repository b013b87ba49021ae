package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestRecordQuantifiedArrayDifferential compares a record with an array of
// records by every comparison operator under ANY and ALL (record_eq and
// record_cmp: field by field, NULL fields equal to each other and after
// every value, an empty array, NULL elements), against PostgreSQL 15.
// sqlgate refused them (operator does not exist: record = record).
func TestRecordQuantifiedArrayDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 20261204))))
	field := func(typ string, vals ...string) string {
		if rng.Intn(5) == 0 {
			return "NULL::" + typ
		}
		return vals[rng.Intn(len(vals))] + "::" + typ
	}
	rec := func() string {
		return fmt.Sprintf("ROW(%s, %s)", field("int", "1", "2"), field("text", "'a'", "'b'"))
	}
	stats := map[string]int{}
	for i := 0; i < 300; i++ {
		elems := make([]string, rng.Intn(4))
		for k := range elems {
			if k > 0 && rng.Intn(6) == 0 { // the first typed: ARRAY[NULL] is text[]
				elems[k] = "NULL"
			} else {
				elems[k] = rec()
			}
		}
		arr := "ARRAY[" + strings.Join(elems, ", ") + "]"
		if len(elems) == 0 {
			arr = "(ARRAY[ROW(1::int, 'a'::text)])[1:0]"
		}
		op := []string{"=", "<>", "<", "<=", ">", ">="}[rng.Intn(6)]
		q := []string{"ANY", "ALL"}[rng.Intn(2)]
		query := fmt.Sprintf("SELECT %s %s %s (%s)", rec(), op, q, arr)
		tally(t, ctx, r, query, stats)
	}
	t.Logf("%v", stats)
	if stats["same"] < 280 {
		t.Errorf("outcomes: %v", stats)
	}
}
