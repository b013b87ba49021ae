package relop

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// TestFusedSumMatchesGeneral: the one-pass loop of a grouped integer sum
// (fusedsum.go) gives what the group table's path gives (the byte-encoded
// keys, generic), for keys that stay dense, keys that arrive mid-batch,
// negative and large keys, NULL keys, values and count arguments, sums into
// numeric whose int64 partials must be flushed, and a bigint sum (the
// final sum of counts) that leaves int64: 22003 on both paths.
func TestFusedSumMatchesGeneral(t *testing.T) {
	t.Parallel()
	type gen func(rng *rand.Rand, i int) (k, v any)
	cases := []struct {
		name   string
		gen    gen
		bigint bool // sum's result bigint (sumIntAcc), else numeric (decAcc)
		fused  bool // the loop must have been taken
		code   sqlerr.Code
	}{
		{"dense", func(rng *rand.Rand, i int) (any, any) { return int(rng.IntN(100)), int(rng.IntN(1000) - 500) }, false, true, ""},
		{"new keys late", func(rng *rand.Rand, i int) (any, any) { return int(rng.IntN(10 + i/100)), int(i) }, false, true, ""},
		{"negative and large keys", func(rng *rand.Rand, i int) (any, any) {
			return []int{-3, 5, 1 << 30, 7, 7, 7}[rng.IntN(6)], int(rng.IntN(9))
		}, false, true, ""},
		{"null keys", func(rng *rand.Rand, i int) (any, any) {
			if rng.IntN(50) == 0 {
				return nil, int(1)
			}
			return int(rng.IntN(20)), int(2)
		}, false, true, ""},
		{"null values", func(rng *rand.Rand, i int) (any, any) {
			if i > 2000 && rng.IntN(50) == 0 {
				return int(rng.IntN(20)), nil
			}
			return int(rng.IntN(20)), int(3)
		}, false, true, ""},
		{"flushed partials", func(rng *rand.Rand, i int) (any, any) {
			return int(rng.IntN(3)), int(math.MaxInt64/4 - rng.IntN(1000))
		}, false, false, ""},
		{"bigint sums", func(rng *rand.Rand, i int) (any, any) { return int(rng.IntN(30)), int(rng.IntN(1 << 20)) }, true, true, ""},
		{"bigint overflow", func(rng *rand.Rand, i int) (any, any) { return int(rng.IntN(2)), int(math.MaxInt64 / 1500) }, true, false, sqlerr.NumericValueOutOfRange},
	}
	in := schemaOf(types.Int32Type, types.Int64Type)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(5, 5))
			var rows [][]any
			for i := range 4000 {
				k, v := c.gen(rng, i)
				rows = append(rows, []any{k, v})
			}
			aggs := []AggSpec{agg("count", -1), agg("sum", 1), agg("count", 1)}
			out := outSchema(t, []types.T{types.Int32Type, types.Int64Type}, []int{0}, aggs)
			if c.bigint {
				out = schemaOf(types.Int32Type, types.Int64Type, types.Int64Type, types.Int64Type)
			}
			var results [2][]string
			var errs [2]error
			for j, generic := range []bool{false, true} {
				op := &HashAggregate{Input: rowsSource(t, in, rows, 512), GroupBy: []int{0}, Aggs: aggs, Out: out, generic: generic}
				results[j], errs[j] = drainErr(op)
				if !generic && c.fused && op.fused == nil {
					t.Fatal("the fused loop was not set up")
				}
			}
			if (c.code == "") != (errs[0] == nil && errs[1] == nil) || (c.code != "" && (sqlerr.CodeOf(errs[0]) != c.code || sqlerr.CodeOf(errs[1]) != c.code)) {
				t.Fatalf("errors %v / %v, want code %q", errs[0], errs[1], c.code)
			}
			if c.code == "" {
				equalRows(t, c.name, sorted(results[0]), sorted(results[1]))
			}
		})
	}
}

// TestFusedSumQualifies: the loop is set up for count and integer sums
// only, never with FILTER, DISTINCT or another aggregate beside them.
func TestFusedSumQualifies(t *testing.T) {
	t.Parallel()
	in := []types.T{types.Int32Type, types.Int64Type, types.BoolType}
	withFilter := agg("sum", 1)
	withFilter.Filter = 2
	for _, c := range []struct {
		aggs []AggSpec
		want bool
	}{
		{[]AggSpec{agg("count", -1), agg("sum", 1)}, true},
		{[]AggSpec{agg("sum", 0), agg("count", 1)}, true},
		{[]AggSpec{agg("avg", 1)}, true},
		{[]AggSpec{agg("sum", 1), agg("sum", 0)}, false},
		{[]AggSpec{agg("sum", 1), agg("min", 1)}, false},
		{[]AggSpec{withFilter}, false},
	} {
		op := &HashAggregate{Input: rowsSource(t, schemaOf(in...), [][]any{{1, 2, true}}, 10), GroupBy: []int{0}, Aggs: c.aggs,
			Out: outSchema(t, in, []int{0}, c.aggs)}
		drain(t, op)
		if (op.fused != nil) != c.want {
			t.Errorf("%v: fused %v, want %v", c.aggs, op.fused != nil, c.want)
		}
	}
}
