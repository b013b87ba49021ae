package difftest

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestExpansionDifferential compares x [NOT] IN (list), x [NOT] IN
// (SELECT ...), x op ANY (SELECT ...) and x [NOT] BETWEEN [SYMMETRIC] a AND
// b with PostgreSQL 15, values and errors with their positions, over
// operands of types that compare and that do not, NULLs, and the keywords
// spelled in any case and spacing. PostgreSQL expands NOT IN as x <> a AND
// x <> b and NOT BETWEEN as x < a OR x > b (its errors name <> and > where
// sqlgate's named = and <=), and places the expansion's errors at the IN,
// BETWEEN or NOT keyword (sqlgate's had no position, or the left
// operand's). Two or more IN items that read no column are compared as
// x = ANY (ARRAY[...]) of their common type with x: '01' IN ('1', 2) is
// true there, and was false here (each item compared alone: '01' = '1'
// as text).
func TestExpansionDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rnd := seededRand(t, 43)
	operands := []string{"1", "2.5", "'a'::text", "'2'", "'01'", "'1.0'", "NULL", "3::int8", "'2024-01-01'::date", "x", "y"}
	pick := func() string { return operands[rnd.IntN(len(operands))] }
	spell := func(words ...string) string {
		out := make([]string, len(words))
		for i, w := range words {
			if rnd.IntN(2) == 0 {
				w = strings.ToUpper(w)
			}
			out[i] = w
		}
		return strings.Join(out, []string{" ", "  ", "\n  "}[rnd.IntN(3)])
	}
	not := func() []string {
		if rnd.IntN(2) == 0 {
			return []string{"not"}
		}
		return nil
	}
	stats := map[string]int{}
	rule := tallyRule{ordered: true, placed: everyCode}
	from := " FROM (VALUES (1, 'a'::text), (2, NULL), (NULL, 'b')) AS v(x, y)"
	for i := 0; i < 500; i++ {
		var cond string
		switch rnd.IntN(4) {
		case 0:
			items := make([]string, 1+rnd.IntN(3))
			for k := range items {
				items[k] = pick()
			}
			cond = fmt.Sprintf("%s %s (%s)", pick(), spell(append(not(), "in")...), strings.Join(items, ", "))
		case 1:
			cond = fmt.Sprintf("%s %s (SELECT %s)", pick(), spell(append(not(), "in")...), pick())
		case 2:
			op := []string{"=", "<>", "<", ">="}[rnd.IntN(4)]
			cond = fmt.Sprintf("%s %s %s (SELECT %s)", pick(), op, spell([]string{"any", "all"}[rnd.IntN(2)]), pick())
		default:
			words := append(not(), "between")
			if rnd.IntN(3) == 0 {
				words = append(words, "symmetric")
			}
			cond = fmt.Sprintf("%s %s %s AND %s", pick(), spell(words...), pick(), pick())
		}
		tallyBy(t, ctx, r, "SELECT x, y, "+cond+from+" ORDER BY x, y", stats, rule)
	}
	t.Logf("%v", stats)
	if stats["same"] < 150 || stats["refused alike"] < 100 {
		t.Errorf("outcomes: %v", stats)
	}
}
