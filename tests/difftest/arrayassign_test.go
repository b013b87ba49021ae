package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestArrayAssignmentDifferential assigns arrays of text to columns of
// varchar(n)[], character(n)[] and varchar(n)[][], and arrays of bit
// strings to bit(n)[], through INSERT ...
// VALUES, INSERT ... SELECT, UPDATE and ON CONFLICT DO UPDATE, on sqlgate
// and PostgreSQL 15: each element is assigned as PostgreSQL assigns it, a
// value too long refused (22001) where an explicit cast would truncate,
// trailing blanks beyond the length dropped; then the table's rows must
// match.
func TestArrayAssignmentDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewPCG(uint64(diffSeed(t, 33)), 4))
	for _, q := range []string{"DROP TABLE IF EXISTS aa",
		"CREATE TABLE aa (id int PRIMARY KEY, v varchar(2)[], c char(2)[], m varchar(3)[][], b bit(2)[])",
		// rows the UPDATEs find: PostgreSQL folds a constant SET value when it
		// plans, so an UPDATE that finds no row still refuses it
		"INSERT INTO aa (id) SELECT g FROM generate_series(1000, 1009) g"} {
		for _, e := range []Executor{r.SQLGate, r.Postgres} {
			if res := e.Run(ctx, q); res.Err != nil {
				t.Fatalf("%s: %s", q, res.Err.Message)
			}
		}
	}
	word := func() string {
		w := strings.Repeat("x", rng.IntN(5))
		if rng.IntN(4) == 0 {
			w += strings.Repeat(" ", 1+rng.IntN(3))
		}
		return "'" + w + "'"
	}
	array := func(n int) string {
		var ws []string
		for range n {
			if rng.IntN(8) == 0 {
				ws = append(ws, "NULL")
				continue
			}
			ws = append(ws, word())
		}
		return "ARRAY[" + strings.Join(ws, ", ") + "]"
	}
	value := func(col string) string {
		n := 1 + rng.IntN(3)
		switch col {
		case "m":
			return "ARRAY[" + array(n) + ", " + array(n) + "]"
		case "b":
			var bs []string
			for range n {
				bs = append(bs, "B'"+strings.Repeat("1", 1+rng.IntN(3))+"'")
			}
			return "ARRAY[" + strings.Join(bs, ", ") + "]"
		}
		switch rng.IntN(4) {
		case 0:
			return array(n) + "::text[]"
		case 1:
			return "string_to_array('a,bbb,cc', ',')"
		case 2:
			return "(SELECT array_agg(w) FROM (VALUES (" + word() + "), (" + word() + ")) s(w))"
		}
		return array(n)
	}
	stats := map[string]int{}
	cols := []string{"v", "c", "m", "b"}
	for i := range 300 {
		col := cols[rng.IntN(len(cols))]
		var q string
		switch rng.IntN(4) {
		case 0:
			q = fmt.Sprintf("INSERT INTO aa (id, %s) VALUES (%d, %s)", col, i, value(col))
		case 1:
			q = fmt.Sprintf("INSERT INTO aa (id, %s) SELECT %d, %s", col, i, value(col))
		case 2:
			q = fmt.Sprintf("UPDATE aa SET %s = %s WHERE id = %d", col, value(col), 1000+rng.IntN(10))
		default:
			// a row that is there (the same folding of a constant SET value
			// as UPDATE's otherwise)
			q = fmt.Sprintf("INSERT INTO aa (id, %s) VALUES (%d, %s) ON CONFLICT (id) DO UPDATE SET %[1]s = %[4]s",
				col, 1000+rng.IntN(10), value(col), value(col))
		}
		tallyBy(t, ctx, r, q, stats, tallyRule{})
	}
	tallyBy(t, ctx, r, "SELECT id, v, c, m, b, array_length(v, 1), c[1] || '|' FROM aa ORDER BY id", stats, tallyRule{ordered: true})
	t.Logf("array assignments: %v", stats)
	if stats["refused alike"] == 0 || stats["same"] < 50 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
	for _, e := range []Executor{r.SQLGate, r.Postgres} {
		e.Run(ctx, "DROP TABLE aa")
	}
}
