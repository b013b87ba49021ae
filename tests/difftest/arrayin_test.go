package difftest

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestArrayInputDifferential casts SQLGATE_DIFF_ARRAY_INPUTS (default 400)
// generated array texts (ArrayTextGen) to integer and text arrays of one,
// two and three dimensions on sqlgate and PostgreSQL 15 and compares the
// answers, or the SQLSTATE, message and DETAIL of the refusal. The one
// allowance is documented: a Fluss array has exactly one dimension per
// ARRAY level, so where PostgreSQL takes an array of another number of
// dimensions than the type names, sqlgate refuses it with 0A000.
func TestArrayInputDifferential(t *testing.T) {
	t.Parallel()
	n := envInt(t, "SQLGATE_DIFF_ARRAY_INPUTS", 400)
	seed := diffSeed(t, 1)
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	g := NewArrayTextGen(uint64(seed))
	stats := map[string]int{}
	var diffs []string
	for i := 0; i < n; i++ {
		text, depth := g.Literal()
		elem := []string{"integer", "text"}[i%2]
		dims := depth
		if i%5 == 0 {
			dims = 1 + (depth % 3) // another depth than it was built with
		}
		q := fmt.Sprintf("SELECT %s::%s%s", quoteLiteral(text), elem, strings.Repeat("[]", dims))
		sg := r.SQLGate.Run(ctx, q)
		pg := r.Postgres.Run(ctx, q)
		switch {
		case sg.Err != nil && sg.Err.Code == connErrorCode:
			t.Fatalf("%s lost its connection: %s", q, sg.Err.Message)
		case sg.Err != nil && pg.Err != nil && *sg.Err == *pg.Err:
			stats["refused alike"]++
		case sg.Err == nil && pg.Err == nil && sg.Format(1) == pg.Format(1):
			stats["same value"]++
		case sg.Err != nil && sg.Err.Code == "0A000" && strings.Contains(sg.Err.Message, "dimensions than its array type") ||
			sg.Err != nil && sg.Err.Code == "0A000" && strings.Contains(sg.Err.Message, "for a one-dimensional array type") ||
			sg.Err != nil && sg.Err.Code == "0A000" && strings.Contains(sg.Err.Message, "multidimensional array literal"):
			if pg.Err != nil {
				diffs = append(diffs, q+"\n  sqlgate refused the dimensions, PostgreSQL refused the text: "+pg.Err.Code+" "+pg.Err.Message+" / "+pg.Err.Detail)
				continue
			}
			stats["documented: dimensions fixed by the type"]++
		default:
			diffs = append(diffs, q+"\n  sqlgate:    "+describe(sg)+"\n  PostgreSQL: "+describe(pg))
		}
	}
	t.Logf("%d array inputs (seed %d): %v", n, seed, stats)
	if stats["refused alike"] == 0 || stats["same value"] == 0 {
		t.Errorf("the generator reached too few shapes: %v", stats)
	}
	for _, d := range diffs {
		t.Error(d)
	}
}

// describe is an outcome with its error's detail.
func describe(o Outcome) string {
	if o.Err != nil {
		return o.Err.Code + " " + o.Err.Message + " / DETAIL " + o.Err.Detail
	}
	return o.Format(1)
}

// quoteLiteral writes s as a standard SQL string literal.
func quoteLiteral(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
