package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// reprValues are values that are equal but print differently, per type:
// numerics of several scales, intervals of one span written in days,
// hours or months, signed zeros, jsonb numbers; and NULL.
var reprValues = map[string][]string{
	"numeric":  {"1.5", "1.50", "1.500", "2", "2.0", "0", "0.00", "-0.0", "NULL::numeric"},
	"interval": {"interval '1 day'", "interval '24 hours'", "interval '1440 minutes'", "interval '1 mon'", "interval '30 days'", "interval '720 hours'", "NULL::interval"},
	"float8":   {"'-0'::float8", "'0'::float8", "1.5::float8", "'NaN'::float8", "'-0'::float8", "NULL::float8"},
	"jsonb":    {"'1'::jsonb", "'1.0'::jsonb", "'1.00'::jsonb", "'[1.5]'::jsonb", "'[1.50]'::jsonb", "NULL::jsonb"},
}

// reprCalls are the aggregates whose result shows which of equal values
// (or in which order) they kept, over x (and k, the row's group key, or i,
// its number).
var reprCalls = map[string][]string{
	"numeric": {"array_agg(DISTINCT x)", "jsonb_agg(DISTINCT x)", "array_agg(x ORDER BY x)", "array_agg(i ORDER BY x)",
		"array_agg(DISTINCT x ORDER BY x DESC)", "string_agg(x::text, ',' ORDER BY x)", "sum(DISTINCT x)", "min(DISTINCT x)",
		"max(DISTINCT x)", "avg(DISTINCT x)", "count(DISTINCT x)"},
	"interval": {"array_agg(DISTINCT x)", "array_agg(x ORDER BY x DESC)", "array_agg(i ORDER BY x)", "sum(DISTINCT x)",
		"max(DISTINCT x)", "string_agg(x::text, ',' ORDER BY x)"},
	"float8": {"array_agg(DISTINCT x)", "array_agg(x ORDER BY x)", "array_agg(i ORDER BY x NULLS FIRST)", "sum(DISTINCT x)",
		"min(DISTINCT x)", "json_agg(DISTINCT x)"},
	"jsonb": {"array_agg(DISTINCT x)", "jsonb_agg(DISTINCT x)", "array_agg(x ORDER BY x)", "array_agg(i ORDER BY x)"},
}

// TestEqualValuesRepresentativeDifferential: where several values are
// equal but print differently (numeric 1.5 and 1.50, interval '1 day' and
// '24 hours', float -0 and 0, jsonb 1 and 1.0), which one PostgreSQL 15
// keeps depends on its plan, and sqlgate matches these plans:
//   - an aggregate's DISTINCT or ORDER BY sorts the group's rows with
//     PostgreSQL's quicksort (tuplesort's in-memory sort: ties where its
//     swaps leave them) and DISTINCT keeps the first of each run;
//   - with GROUP BY, such aggregates cannot hash: PostgreSQL sorts the
//     input by the group keys (Sort under GroupAggregate), so each group
//     starts from the order that sort left its rows in;
//   - SELECT DISTINCT and GROUP BY without ORDER BY over a small input are
//     a HashAggregate, which keeps the first value in input order;
//   - SELECT DISTINCT with an ORDER BY is a Unique over a Sort (by the
//     ORDER BY's keys, then the other columns), which keeps the first of
//     each run as the quicksort leaves it.
//
// Random rows of such values, with and without GROUP BY, on sqlgate and
// PostgreSQL: the same text. SQLGATE_DIFF_REPR_QUERIES sets the count.
func TestEqualValuesRepresentativeDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 31))))
	n := envInt(t, "SQLGATE_DIFF_REPR_QUERIES", 300)
	stats := map[string]int{}
	kinds := []string{"numeric", "interval", "float8", "jsonb"}
	for q := 0; q < n; q++ {
		kind := kinds[q%len(kinds)]
		vals := reprValues[kind]
		size := 2 + rng.Intn(10)
		if rng.Intn(8) == 0 {
			size = 41 + rng.Intn(20) // quicksort's median of medians
		}
		rows := make([]string, size)
		for j := range rows {
			rows[j] = fmt.Sprintf("(%d, %d, %s)", j+1, rng.Intn(3), vals[rng.Intn(len(vals))])
		}
		from := "(VALUES " + strings.Join(rows, ", ") + ") AS v(i, k, x)"
		switch rng.Intn(7) {
		case 0:
			// HashAggregate: the first in input order
			tallyBy(t, ctx, r, "SELECT DISTINCT x FROM "+from, stats, tallyRule{})
		case 6:
			// Sort and Unique: the first after the sort
			order := []string{"x", "x DESC", "k, x", "k DESC NULLS LAST"}[rng.Intn(4)]
			tallyBy(t, ctx, r, "SELECT DISTINCT k, x FROM "+from+" ORDER BY "+order+", 1, 2", stats, tallyRule{ordered: true})
		case 1:
			tallyBy(t, ctx, r, "SELECT x, count(*) FROM "+from+" GROUP BY x", stats, tallyRule{})
		case 2, 3:
			call := reprCalls[kind][rng.Intn(len(reprCalls[kind]))]
			tallyBy(t, ctx, r, "SELECT "+call+" FROM "+from, stats, tallyRule{ordered: true})
		default:
			call := reprCalls[kind][rng.Intn(len(reprCalls[kind]))]
			tallyBy(t, ctx, r, "SELECT k, "+call+" FROM "+from+" GROUP BY k ORDER BY k", stats, tallyRule{ordered: true})
		}
	}
	t.Logf("equal values: %v", stats)
	if stats["same"] < n*9/10 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}

// TestAggregateOrderTiesDifferential: an aggregate's ORDER BY leaves the
// rows whose keys tie in the order PostgreSQL's quicksort leaves them,
// which array_agg(i ORDER BY x) shows as a permutation of the row
// numbers: random columns of few distinct keys (many ties), of 2 to 120
// rows (insertion sort under 7, one median of three up to 40, medians of
// medians above), in one group and grouped.
func TestAggregateOrderTiesDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 37))))
	stats := map[string]int{}
	for q := 0; q < 120; q++ {
		size := 2 + rng.Intn(50)
		if q%4 == 0 {
			size = 40 + rng.Intn(80)
		}
		distinct := 1 + rng.Intn(5)
		rows := make([]string, size)
		for j := range rows {
			rows[j] = fmt.Sprintf("(%d, %d, %d)", j+1, rng.Intn(3), rng.Intn(distinct))
		}
		from := "(VALUES " + strings.Join(rows, ", ") + ") AS v(i, k, x)"
		order := []string{"x", "x DESC", "x, k", "k DESC"}[rng.Intn(4)]
		switch rng.Intn(3) {
		case 0:
			tallyBy(t, ctx, r, "SELECT array_agg(i ORDER BY "+order+") FROM "+from, stats, tallyRule{ordered: true})
		case 1:
			tallyBy(t, ctx, r, "SELECT k, array_agg(i ORDER BY "+order+"), string_agg(i::text, ',' ORDER BY x) FROM "+from+" GROUP BY k ORDER BY k", stats, tallyRule{ordered: true})
		default:
			// the group keys' sort takes the ORDER BY's direction and,
			// when one list is a prefix of the other, its order; an
			// unordered array_agg beside an ordered one shows that sort
			shape := []struct{ group, by string }{
				{"k", "k DESC"}, {"k", "k DESC NULLS LAST"}, {"k, x", "x DESC"}, {"k, x", "k DESC, x"},
				{"x, k", "k DESC"}, {"k, x", "x DESC, k DESC"}, {"k, x", "x, 4"}, {"k, x", "k"},
			}[rng.Intn(8)]
			group, by := shape.group, shape.by
			// (the rows compared as a set: ORDER BY k leaves the groups of
			// one k in an order it does not fix)
			tallyBy(t, ctx, r, "SELECT "+group+", array_agg(i), array_agg(i ORDER BY "+order+") FROM "+from+" GROUP BY "+group+" ORDER BY "+by, stats, tallyRule{})
		}
	}
	t.Logf("ORDER BY ties: %v", stats)
	if stats["same"] < 110 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}
