package relop

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// aggCase is one aggregate query over the shared test table
// t(k int, v bigint, f double precision, s text, b boolean, d numeric(12,2), r real, sep text).
type aggCase struct {
	name    string
	groupBy []int
	aggs    []AggSpec
	sql     string // the same query for PostgreSQL
}

var aggTypes = []types.T{types.Int32Type, types.Int64Type, types.Float64Type, types.StringType, types.BoolType, types.DecimalType(12, 2), types.Float32Type, types.StringType}
var aggPGCols = []string{"k int", "v bigint", "f double precision", "s text", "b boolean", "d numeric(12,2)", "r real", "sep text"}

func agg(fn string, arg int) AggSpec { return AggSpec{Func: fn, Arg: arg, Filter: -1, Sep: -1} }

func aggRows(n int, seed uint64, skew bool) [][]any {
	rng := rand.New(rand.NewPCG(seed, 7))
	rows := make([][]any, n)
	for i := range rows {
		var k any = rng.IntN(20)
		if skew && rng.IntN(10) < 9 {
			k = 3
		}
		if rng.IntN(15) == 0 {
			k = nil
		}
		var v any = rng.IntN(2000) - 1000
		if rng.IntN(10) == 0 {
			v = nil
		}
		var f any = float64(rng.IntN(100)) / 4
		switch rng.IntN(30) {
		case 0:
			f = nil
		case 1:
			f = math.NaN()
		case 2:
			f = math.Copysign(0, -1)
		}
		var s any = fmt.Sprintf("s%02d", rng.IntN(30))
		if rng.IntN(12) == 0 {
			s = nil
		}
		var b any = rng.IntN(3) > 0
		if rng.IntN(10) == 0 {
			b = nil
		}
		var d any = fmt.Sprintf("%d.%02d", rng.IntN(1000)-500, rng.IntN(100))
		if rng.IntN(10) == 0 {
			d = nil
		}
		var r any = float64(rng.IntN(64)) / 8
		seps := []any{",", ";", nil}
		rows[i] = []any{k, v, f, s, b, d, r, seps[rng.IntN(3)]}
	}
	return rows
}

// toArrowRows converts the numeric strings of aggRows to decimals.
func toArrowRows(t testing.TB, rows [][]any) [][]any {
	out := make([][]any, len(rows))
	for i, r := range rows {
		c := append([]any(nil), r...)
		if s, ok := c[5].(string); ok {
			c[5] = dec(t, s, 2)
		}
		out[i] = c
	}
	return out
}

func aggCases() []aggCase {
	ordered := func(a AggSpec, keys ...SortKeySpec) AggSpec { a.OrderBy = keys; return a }
	sa := func(arg, sep int) AggSpec { a := agg("string_agg", arg); a.Sep = sep; return a }
	distinct := func(a AggSpec) AggSpec { a.Distinct = true; return a }
	filtered := func(a AggSpec, col int) AggSpec { a.Filter = col; return a }
	return []aggCase{
		{"count-sum-by-int", []int{0}, []AggSpec{agg("count", -1), agg("count", 1), agg("sum", 1), agg("sum", 0)},
			"SELECT k, count(*), count(v), sum(v), sum(k) FROM t GROUP BY k"},
		{"avg-min-max", []int{0}, []AggSpec{agg("avg", 0), agg("min", 1), agg("max", 1), agg("min", 3), agg("max", 3), agg("avg", 2), agg("min", 2), agg("max", 2)},
			"SELECT k, avg(k), min(v), max(v), min(s), max(s), avg(f), min(f), max(f) FROM t GROUP BY k"},
		{"numeric", []int{3}, []AggSpec{agg("sum", 5), agg("min", 5), agg("max", 5), agg("count", 5)},
			"SELECT s, sum(d), min(d), max(d), count(d) FROM t GROUP BY s"},
		{"float-keys", []int{2}, []AggSpec{agg("count", -1), agg("sum", 6), agg("sum", 2)},
			"SELECT f, count(*), sum(r), sum(f) FROM t GROUP BY f"},
		{"bools", []int{0}, []AggSpec{agg("bool_and", 4), agg("bool_or", 4), agg("every", 4)},
			"SELECT k, bool_and(b), bool_or(b), every(b) FROM t GROUP BY k"},
		{"multi-key", []int{0, 3, 4}, []AggSpec{agg("count", -1), agg("sum", 1)},
			"SELECT k, s, b, count(*), sum(v) FROM t GROUP BY k, s, b"},
		{"no-keys", nil, []AggSpec{agg("count", -1), agg("sum", 1), agg("avg", 1), agg("max", 3), agg("stddev", 1), agg("var_pop", 2)},
			"SELECT count(*), sum(v), avg(v), max(s), stddev(v), var_pop(f) FROM t"},
		{"variance", []int{0}, []AggSpec{agg("stddev", 1), agg("stddev_pop", 1), agg("variance", 1), agg("var_pop", 1), agg("stddev_samp", 2), agg("var_samp", 6)},
			"SELECT k, stddev(v), stddev_pop(v), variance(v), var_pop(v), stddev_samp(f), var_samp(r) FROM t GROUP BY k"},
		{"ordered-string-agg", []int{0}, []AggSpec{ordered(sa(3, 7), SortKeySpec{Column: 3}, SortKeySpec{Column: 1, Desc: true, NullsFirst: true}, SortKeySpec{Column: 7}),
			ordered(agg("array_agg", 1), SortKeySpec{Column: 1, NullsFirst: true}, SortKeySpec{Column: 3})},
			"SELECT k, string_agg(s, sep ORDER BY s, v DESC, sep), array_agg(v ORDER BY v NULLS FIRST, s) FROM t GROUP BY k"},
		{"distinct-filter", []int{0}, []AggSpec{distinct(agg("count", 3)), distinct(agg("sum", 1)), filtered(agg("count", -1), 4), filtered(agg("sum", 1), 4),
			ordered(distinct(agg("array_agg", 3)), SortKeySpec{Column: 3})},
			"SELECT k, count(DISTINCT s), sum(DISTINCT v), count(*) FILTER (WHERE b), sum(v) FILTER (WHERE b), array_agg(DISTINCT s ORDER BY s) FROM t GROUP BY k"},
	}
}

func outSchema(t testing.TB, in []types.T, groupBy []int, aggs []AggSpec) *arrow.Schema {
	var ts []types.T
	for _, c := range groupBy {
		ts = append(ts, in[c])
	}
	for _, a := range aggs {
		var arg types.T
		if a.Arg >= 0 {
			arg = in[a.Arg]
		}
		rt, err := AggResultType(a.Func, arg)
		if err != nil {
			t.Fatal(err)
		}
		ts = append(ts, rt)
	}
	return schemaOf(ts...)
}

func runAgg(t testing.TB, rows [][]any, c aggCase, mem *MemoryAccount, spillDir string, batchRows int) (*HashAggregate, []string, error) {
	in := schemaOf(aggTypes...)
	op := &HashAggregate{Input: rowsSource(t, in, toArrowRows(t, rows), batchRows), GroupBy: c.groupBy, Aggs: c.aggs,
		Out: outSchema(t, aggTypes, c.groupBy, c.aggs), Mem: mem, SpillDir: spillDir, BatchRows: 7}
	got, err := drainErr(op)
	return op, got, err
}

func TestHashAggregateSpillMatchesInMemory(t *testing.T) {
	t.Parallel()
	for _, skew := range []bool{false, true} {
		rows := aggRows(1200, 1, skew)
		for _, c := range aggCases() {
			t.Run(fmt.Sprintf("%s/skew=%v", c.name, skew), func(t *testing.T) {
				_, want, err := runAgg(t, rows, c, nil, "", 256)
				if err != nil {
					t.Fatal(err)
				}
				dir := tempDir(t)
				mem := NewMemoryAccount(1 << 10)
				op, got, err := runAgg(t, rows, c, mem, dir, 256)
				if err != nil {
					t.Fatal(err)
				}
				equalRows(t, c.name, sorted(got), sorted(want))
				if len(c.groupBy) > 0 && !op.Spilled() {
					t.Errorf("expected a spill with a 1 KiB limit")
				}
				if n := spillFiles(t, dir); n != 0 {
					t.Errorf("%d spill files left behind", n)
				}
				if mem.Used() != 0 {
					t.Errorf("memory account holds %d bytes after Close", mem.Used())
				}
			})
		}
	}
}

func TestHashAggregateEmptyInput(t *testing.T) {
	t.Parallel()
	for _, c := range aggCases() {
		_, got, err := runAgg(t, nil, c, nil, "", 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(c.groupBy) > 0 {
			equalRows(t, c.name, got, nil)
		} else {
			equalRows(t, c.name, got, []string{"0|NULL|NULL|NULL|NULL|NULL"})
		}
	}
}

func TestHashAggregateOutOfMemoryWithoutSpillDir(t *testing.T) {
	t.Parallel()
	c := aggCases()[0]
	_, _, err := runAgg(t, aggRows(3000, 2, false), aggCase{groupBy: []int{1}, aggs: c.aggs}, NewMemoryAccount(1<<10), "", 100)
	if sqlerr.CodeOf(err) != sqlerr.OutOfMemory {
		t.Fatalf("got %v, want 53200", err)
	}
	if e := sqlerr.As(err); e == nil || e.Detail == "" {
		t.Fatalf("53200 without detail: %#v", err)
	}
}

func TestHashAggregateOverflow(t *testing.T) {
	t.Parallel()
	in := schemaOf(types.Int32Type, types.Int64Type)
	rows := [][]any{{1, math.MaxInt64}, {1, math.MaxInt64}}
	// sum(bigint) is numeric: no overflow
	op := &HashAggregate{Input: rowsSource(t, in, rows, 10), GroupBy: []int{0}, Aggs: []AggSpec{agg("sum", 1)},
		Out: outSchema(t, []types.T{types.Int32Type, types.Int64Type}, []int{0}, []AggSpec{agg("sum", 1)})}
	equalRows(t, "sum bigint", drain(t, op), []string{"1|18446744073709551614"})
	// sum over bigint-typed small ints would overflow bigint: sum(int) of big ints can't, so check sum of int64 as bigint accumulator
	acc := &sumIntAcc{arg: 1}
	acc.resize(1)
	b := buildBatch(t, in, rows)
	defer b.Release()
	if err := acc.update(b.Columns(), []uint32{0, 0}, nil); sqlerr.CodeOf(err) != sqlerr.NumericValueOutOfRange {
		t.Fatalf("bigint accumulator overflow: got %v", err)
	}
	// sums of DECIMAL(38) past 38 digits are numeric, which has no bound:
	// the 128-bit fast path hands over to an exact sum
	din := schemaOf(types.Int32Type, types.DecimalType(38, 2))
	big := dec(t, "999999999999999999999999999999999999.99", 2)
	dop := &HashAggregate{Input: rowsSource(t, din, [][]any{{1, big}, {1, big}, {1, big}}, 10), GroupBy: []int{0}, Aggs: []AggSpec{agg("sum", 1), agg("avg", 1)},
		Out: outSchema(t, []types.T{types.Int32Type, types.DecimalType(38, 2)}, []int{0}, []AggSpec{agg("sum", 1), agg("avg", 1)})}
	equalRows(t, "sum past 38 digits", drain(t, dop), []string{"1|2999999999999999999999999999999999999.97|999999999999999999999999999999999999.99"})
}

func TestAggResultType(t *testing.T) {
	t.Parallel()
	cases := []struct {
		fn   string
		arg  types.T
		want string
	}{
		{"sum", types.Int16Type, "bigint"}, {"sum", types.Int32Type, "bigint"}, {"sum", types.Int64Type, "numeric"},
		{"sum", types.DecimalType(10, 2), "numeric"}, {"sum", types.Float32Type, "float"}, {"sum", types.Float64Type, "double"},
		{"avg", types.Int32Type, "numeric"}, {"avg", types.Float32Type, "double"}, {"count", types.StringType, "bigint"},
		{"stddev", types.Int64Type, "numeric"}, {"min", types.StringType, "string"}, {"array_agg", types.Int32Type, "array<int>"},
		{"string_agg", types.StringType, "string"}, {"bool_and", types.BoolType, "boolean"},
	}
	for _, c := range cases {
		got, err := AggResultType(c.fn, c.arg)
		if err != nil {
			t.Fatalf("%s(%s): %v", c.fn, c.arg, err)
		}
		name := got.String()
		if got.Kind == types.Decimal {
			name = fmt.Sprintf("decimal(%d, %d)", got.Precision, got.Scale)
		}
		if name != c.want && !(c.want == "numeric" && got.Kind == types.Decimal && got.Scale == 0) {
			t.Errorf("%s(%s) = %s, want %s", c.fn, c.arg, got, c.want)
		}
	}
	if _, err := AggResultType("sum", types.StringType); sqlerr.CodeOf(err) != sqlerr.UndefinedFunction {
		t.Errorf("sum(text): %v", err)
	}
}

var _ = exec.SchemaOf
