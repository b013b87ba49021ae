package relop

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
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

// keyWidthRows makes n (k, v, b) rows: keys drawn by key (nil: NULL), v a
// bigint that is NULL one row in eight, b true two rows in three.
func keyWidthRows(n int, seed uint64, key func(rng *rand.Rand) any) [][]any {
	rng := rand.New(rand.NewPCG(seed, 5))
	rows := make([][]any, n)
	for i := range rows {
		var v any = rng.IntN(1_000_000) - 500_000
		if rng.IntN(8) == 0 {
			v = nil
		}
		rows[i] = []any{key(rng), v, rng.IntN(3) > 0}
	}
	return rows
}

// TestHashAggregateKeyWidths: each integer key width is grouped by its own
// loop, with the table counting rows for count(*), count(v), sum and avg.
// The results must be what a map computes (count, count(v), sum(v), sum(k)),
// and the aggregates whose counts are shared must agree with the same
// aggregates under FILTER (WHERE true), which count for themselves, and
// with the byte-encoded generic path, in memory and spilled.
func TestHashAggregateKeyWidths(t *testing.T) {
	t.Parallel()
	withNulls := func(f func(rng *rand.Rand) any) func(rng *rand.Rand) any {
		return func(rng *rand.Rand) any {
			if rng.IntN(10) == 0 {
				return nil
			}
			return f(rng)
		}
	}
	shapes := []struct {
		name string
		key  func(rng *rand.Rand) any
	}{
		{"dense", func(rng *rand.Rand) any { return rng.IntN(100) }},
		{"negative", func(rng *rand.Rand) any { return rng.IntN(200) - 150 }},
		{"nulls", withNulls(func(rng *rand.Rand) any { return rng.IntN(50) })},
		{"negative-nulls", withNulls(func(rng *rand.Rand) any { return -rng.IntN(30) })},
		{"all-null", func(*rand.Rand) any { return nil }},
		{"extremes", withNulls(func(rng *rand.Rand) any {
			return []int{math.MinInt16, math.MaxInt16, -1, 0, 1, 7, 32767 - 7}[rng.IntN(7)]
		})},
	}
	widths := []types.T{types.Int16Type, types.Int32Type, types.Int64Type}
	for _, kt := range widths {
		for si, sh := range shapes {
			t.Run(fmt.Sprintf("%s/%s", kt, sh.name), func(t *testing.T) {
				rows := keyWidthRows(3000, uint64(si)+1, sh.key)
				in := []types.T{kt, types.Int64Type, types.BoolType}
				schema := schemaOf(in...)
				always := make([][]any, len(rows)) // b replaced by true: FILTER keeps every row
				for i, r := range rows {
					always[i] = []any{r[0], r[1], true}
				}
				run := func(aggs []AggSpec, data [][]any, generic bool, mem *MemoryAccount, dir string) []string {
					op := &HashAggregate{Input: rowsSource(t, schema, data, 257), GroupBy: []int{0}, Aggs: aggs,
						Out: outSchema(t, in, []int{0}, aggs), Mem: mem, SpillDir: dir, generic: generic}
					return sorted(drain(t, op))
				}
				filt := func(a AggSpec) AggSpec { a.Filter = 2; return a }
				base := []AggSpec{agg("count", -1), agg("count", 1), agg("sum", 1), agg("sum", 0)}
				// the model
				type acc struct{ n, nv, sv, sk int64 }
				m := map[string]*acc{}
				for _, r := range rows {
					k := "NULL"
					if r[0] != nil {
						k = fmt.Sprint(r[0])
					}
					a := m[k]
					if a == nil {
						a = &acc{}
						m[k] = a
					}
					a.n++
					if r[1] != nil {
						a.nv++
						a.sv += int64(r[1].(int))
					}
					if r[0] != nil {
						a.sk += int64(r[0].(int))
					}
				}
				var want []string
				for k, a := range m {
					sv, sk := fmt.Sprint(a.sv), fmt.Sprint(a.sk)
					if a.nv == 0 {
						sv = "NULL"
					}
					if k == "NULL" {
						sk = "NULL"
					}
					want = append(want, fmt.Sprintf("%s|%d|%d|%s|%s", k, a.n, a.nv, sv, sk))
				}
				equalRows(t, "model", run(base, rows, false, nil, ""), sorted(want))
				// shared counts against own counts, fast against generic
				aggs := append(base, agg("avg", 1), agg("avg", 0), agg("min", 1), filt(agg("count", -1)), filt(agg("avg", 1)))
				shared := run(aggs, always, false, nil, "")
				var own []AggSpec
				for _, a := range aggs {
					own = append(own, filt(a))
				}
				equalRows(t, "own counts", run(own, always, false, nil, ""), shared)
				equalRows(t, "generic", run(aggs, always, true, nil, ""), shared)
				equalRows(t, "spilled", run(aggs, always, false, NewMemoryAccount(8<<10), tempDir(t)), shared)
				// and with a FILTER that drops rows, beside shared counts
				equalRows(t, "filtered, generic", run(aggs, rows, false, nil, ""), run(aggs, rows, true, nil, ""))
			})
		}
	}
}

// sumModel adds each group's values in row order with int64 checks, as
// PostgreSQL's int8 sums do: overflow is the first running sum out of range.
// It also returns the exact sums (numeric's, which has no bound).
func sumModel(rows [][]any) (sums map[int]int64, exact map[int]*big.Int, overflow bool) {
	sums, exact = map[int]int64{}, map[int]*big.Int{}
	for _, r := range rows {
		if r[1] == nil {
			continue
		}
		k, v := r[0].(int), int64(r[1].(int))
		if exact[k] == nil {
			exact[k] = new(big.Int)
		}
		exact[k].Add(exact[k], big.NewInt(v))
		s := sums[k]
		if (v > 0 && s > math.MaxInt64-v) || (v < 0 && s < math.MinInt64-v) {
			overflow = true
		}
		sums[k] = s + v
	}
	return sums, exact, overflow
}

// TestSumOverflowBoundary: sums skip their per-row overflow check only for
// a batch that cannot overflow them; at the boundary, within one batch and
// across batches, sum into bigint must still report 22003 exactly when a
// running sum leaves int64 (PostgreSQL's int8 sums), and sum(bigint), which
// is numeric, must be exact past it.
func TestSumOverflowBoundary(t *testing.T) {
	t.Parallel()
	const mx, mn = math.MaxInt64, math.MinInt64
	one := func(vs ...int) [][]any {
		rows := make([][]any, len(vs))
		for i, v := range vs {
			rows[i] = []any{1, v}
		}
		return rows
	}
	cases := []struct {
		name  string
		rows  [][]any
		batch int
	}{
		{"max in one batch", one(mx-1, 1), 10},
		{"past max in one batch", one(mx-1, 1, 1), 10},
		{"past max across batches", one(mx-1, 1, 1), 1},
		{"max across batches", one(mx/2, mx/2, 1), 1},
		{"min", one(mn+1, -1), 10},
		{"past min", one(mn, -1), 10},
		{"past min across batches", one(mn/2, mn/2, -1), 2},
		{"out and back", one(mx, 1, -1), 10},
		{"out and back across batches", one(mx, 1, -1), 1},
		{"min and max cancel", one(mn, mx, mn, mx), 3},
		{"halves then one", one(1<<62, 1<<62-1, 1), 2},
		{"halves then two", one(1<<62, 1<<62-1, 2), 2},
		{"nulls hide a huge value", [][]any{{1, mx}, {1, nil}, {1, mx}, {2, 5}}, 2},
	}
	// random batches mixing small, large and near-extreme values: the
	// batch bounds' three ways (unchecked, flushed, checked) all occur
	rng := rand.New(rand.NewPCG(9, 9))
	for s := range 40 {
		scale := []int{1 << 20, 1 << 40, 1 << 58, 1 << 61, mx}[s%5]
		rows := make([][]any, 200+rng.IntN(400))
		for i := range rows {
			var v any = rng.IntN(scale) - rng.IntN(scale)
			if rng.IntN(12) == 0 {
				v = nil
			}
			if s%3 == 0 && rng.IntN(50) == 0 {
				v = []int{mx, mn, mx - 1, mn + 1}[rng.IntN(4)]
			}
			rows[i] = []any{rng.IntN(1 + s%4), v}
		}
		cases = append(cases, struct {
			name  string
			rows  [][]any
			batch int
		}{fmt.Sprintf("random-%d", s), rows, 1 + rng.IntN(64)})
	}
	in := schemaOf(types.Int32Type, types.Int64Type)
	aggs := []AggSpec{agg("sum", 1)}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sums, exact, overflow := sumModel(c.rows)
			var wantInt, wantNum []string
			for k, s := range sums {
				wantInt = append(wantInt, fmt.Sprintf("%d|%d", k, s))
				wantNum = append(wantNum, fmt.Sprintf("%d|%s", k, exact[k]))
			}
			// groups whose values are all NULL
			for _, r := range c.rows {
				if _, ok := exact[r[0].(int)]; !ok {
					exact[r[0].(int)] = nil
					wantInt = append(wantInt, fmt.Sprintf("%d|NULL", r[0]))
					wantNum = append(wantNum, fmt.Sprintf("%d|NULL", r[0]))
				}
			}
			// into bigint (the accumulator of sum over int2/int4, and of
			// bigint partial sums): checked exactly as the model
			intOp := &HashAggregate{Input: rowsSource(t, in, c.rows, c.batch), GroupBy: []int{0}, Aggs: aggs,
				Out: schemaOf(types.Int32Type, types.Int64Type)}
			got, err := drainErr(intOp)
			if overflow {
				if sqlerr.CodeOf(err) != sqlerr.NumericValueOutOfRange {
					t.Fatalf("bigint sum: got %v, %v; want 22003", got, err)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				equalRows(t, "bigint sum", sorted(got), sorted(wantInt))
			}
			// into numeric: exact, whatever the running sums did
			numOp := &HashAggregate{Input: rowsSource(t, in, c.rows, c.batch), GroupBy: []int{0}, Aggs: aggs,
				Out: outSchema(t, []types.T{types.Int32Type, types.Int64Type}, []int{0}, aggs)}
			equalRows(t, "numeric sum", sorted(drain(t, numOp)), sorted(wantNum))
			if len(exact) != 1 {
				return
			}
			// one key: the same without GROUP BY (one group, summed in a
			// register when unchecked)
			var k int
			for k = range exact {
			}
			cut := func(rows []string) []string {
				for i, r := range rows {
					rows[i] = r[len(fmt.Sprint(k))+1:]
				}
				return rows
			}
			intOp = &HashAggregate{Input: rowsSource(t, in, c.rows, c.batch), Aggs: aggs, Out: schemaOf(types.Int64Type)}
			got, err = drainErr(intOp)
			if overflow {
				if sqlerr.CodeOf(err) != sqlerr.NumericValueOutOfRange {
					t.Fatalf("bigint sum, no GROUP BY: got %v, %v; want 22003", got, err)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				equalRows(t, "bigint sum, no GROUP BY", got, cut(wantInt))
			}
			numOp = &HashAggregate{Input: rowsSource(t, in, c.rows, c.batch), Aggs: aggs,
				Out: outSchema(t, []types.T{types.Int32Type, types.Int64Type}, nil, aggs)}
			equalRows(t, "numeric sum, no GROUP BY", drain(t, numOp), cut(wantNum))
		})
	}
}

// TestSumBoundNarrowTypes: an int2/int4 batch's bound is its type's, so a
// sum near int64's end takes the checked loop (and reports 22003 at the
// row that leaves it) while one far from it does not need to.
func TestSumBoundNarrowTypes(t *testing.T) {
	t.Parallel()
	for _, kt := range []types.T{types.Int16Type, types.Int32Type} {
		in := schemaOf(kt)
		cases := []struct {
			name  string
			start int64
			vals  []any
			want  int64
			fails bool
		}{
			{"far from the end", 1000, []any{5, -7, nil}, 998, false},
			{"to the end", math.MaxInt64 - 5, []any{2, 3}, math.MaxInt64, false},
			{"past the end", math.MaxInt64 - 5, []any{2, 3, 1}, 0, true},
			{"to the start", math.MinInt64 + 5, []any{-5, nil}, math.MinInt64, false},
			{"past the start", math.MinInt64 + 5, []any{-6}, 0, true},
		}
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s/%s", kt, c.name), func(t *testing.T) {
				acc := &sumIntAcc{arg: 0}
				acc.resize(1)
				acc.sums[0] = c.start
				acc.cnt.own[0] = 1
				acc.bound = uint64(max(c.start, -c.start))
				rows := make([][]any, len(c.vals))
				for i, v := range c.vals {
					rows[i] = []any{v}
				}
				b := buildBatch(t, in, rows)
				defer b.Release()
				err := acc.update(b.Columns(), make([]uint32, len(rows)), nil)
				if c.fails {
					if sqlerr.CodeOf(err) != sqlerr.NumericValueOutOfRange {
						t.Fatalf("got %v, want 22003", err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if acc.sums[0] != c.want {
					t.Fatalf("sum %d, want %d", acc.sums[0], c.want)
				}
				if acc.bound < uint64(max(c.want, -c.want)) && c.want != math.MinInt64 {
					t.Fatalf("bound %d under |sum| %d", acc.bound, c.want)
				}
			})
		}
	}
}

// TestSumFloat64MatchesRowByRow: sum(double precision) adds a batch of
// finite values without a test per row and checks the sums after it; its
// sums (bit for bit, -0 and NaN included), NULLs and overflow errors must be
// those of the row-by-row loop (floatAcc, float8pl's order and checks), in
// one batch and across batches, with and without GROUP BY and FILTER.
func TestSumFloat64MatchesRowByRow(t *testing.T) {
	t.Parallel()
	negZero, inf, nan := math.Copysign(0, -1), math.Inf(1), math.NaN()
	one := func(vs ...any) [][]any {
		rows := make([][]any, len(vs))
		for i, v := range vs {
			rows[i] = []any{1, v, true}
		}
		return rows
	}
	cases := []struct {
		name  string
		rows  [][]any
		batch int
	}{
		{"negative zero first", one(negZero, negZero), 10},
		{"negative zero then zero", one(negZero, 0.0), 10},
		{"overflow in one batch", one(math.MaxFloat64, math.MaxFloat64), 10},
		{"overflow across batches", one(math.MaxFloat64, 1e300, math.MaxFloat64), 1},
		{"negative overflow", one(-math.MaxFloat64, -math.MaxFloat64), 3},
		{"to the edge", one(math.MaxFloat64/2, math.MaxFloat64/2), 1},
		{"infinity is no overflow", one(1.0, inf, 2.0), 10},
		{"infinities cancel to NaN", one(inf, math.Inf(-1), 1.0), 2},
		{"NaN", one(1.0, nan, 3.0), 10},
		{"NULLs", one(nil, 1.5, nil), 10},
		{"all NULL", one(nil, nil), 1},
		{"infinity then finite batches", one(inf, 1.0, 2.0, 3.0, 4.0), 2},
	}
	rng := rand.New(rand.NewPCG(17, 1))
	for s := range 30 {
		rows := make([][]any, 100+rng.IntN(500))
		for i := range rows {
			var v any = (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(20)))
			switch rng.IntN(40) {
			case 0:
				v = nil
			case 1:
				v = negZero
			case 2:
				if s%4 == 0 {
					v = []float64{inf, math.Inf(-1), nan, math.MaxFloat64}[rng.IntN(4)]
				}
			}
			rows[i] = []any{rng.IntN(1 + s%5), v, rng.IntN(3) > 0}
		}
		cases = append(cases, struct {
			name  string
			rows  [][]any
			batch int
		}{fmt.Sprintf("random-%d", s), rows, 1 + rng.IntN(80)})
	}
	in := schemaOf(types.Int32Type, types.Float64Type, types.BoolType)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, groupBy := range [][]int{{0}, nil} {
				for _, filter := range []int{-1, 2} {
					a := agg("sum", 1)
					a.Filter = filter
					run := func(rowByRow bool) ([]string, error) {
						var ts []types.T
						if groupBy != nil {
							ts = append(ts, types.Int32Type)
						}
						op := &HashAggregate{Input: rowsSource(t, in, c.rows, c.batch), GroupBy: groupBy, Aggs: []AggSpec{a},
							Out: schemaOf(append(ts, types.Float64Type)...)}
						if rowByRow {
							// the reference: floatAcc's loop, after init
							if err := op.init(); err != nil {
								t.Fatal(err)
							}
							op.started = true
							op.accs[0] = &floatAcc{arg: 1}
							if len(groupBy) == 0 {
								op.accs[0].resize(1)
							}
							if err := op.consume(context.Background()); err != nil {
								op.Close()
								return nil, err
							}
						}
						return drainErr(op)
					}
					want, werr := run(true)
					got, err := run(false)
					what := fmt.Sprintf("groupBy=%v filter=%d", groupBy, filter)
					if sqlerr.CodeOf(err) != sqlerr.CodeOf(werr) {
						t.Fatalf("%s: error %v, want %v", what, err, werr)
					}
					if werr == nil {
						equalRows(t, what, sorted(got), sorted(want))
					}
				}
			}
		})
	}
}

// TestMinMaxIntegerTypes: min and max of each integer-like type fold from
// the type's identity (MaxInt64 for min) without a test per row; a group
// whose values are all NULL is NULL, and the extremes themselves are values.
func TestMinMaxIntegerTypes(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(23, 4))
	for _, c := range []struct {
		vt    types.T
		lo, n int // values lo + [0, n)
		ext   []int
	}{
		{types.Int16Type, -300, 600, []int{math.MinInt16, math.MaxInt16}},
		{types.Int32Type, -1 << 20, 1 << 21, []int{math.MinInt32, math.MaxInt32}},
		{types.Int64Type, -1 << 40, 1 << 41, []int{math.MinInt64, math.MaxInt64}},
		{types.TimestampType(6), 0, 1 << 40, []int{math.MinInt64, math.MaxInt64}},
		{types.DateType, -1000, 2000, []int{math.MinInt32 + 1, math.MaxInt32 - 1}},
	} {
		t.Run(c.vt.String(), func(t *testing.T) {
			rows := make([][]any, 2000)
			for i := range rows {
				var v any = c.lo + rng.IntN(c.n)
				switch rng.IntN(20) {
				case 0:
					v = nil
				case 1:
					v = c.ext[rng.IntN(2)]
				}
				k := rng.IntN(40)
				if k == 0 {
					v = nil // group 0: all NULL
				}
				rows[i] = []any{k, v, rng.IntN(2) == 0}
			}
			// groups whose only values are the identities themselves
			rows = append(rows, []any{100, c.ext[1], true}, []any{101, c.ext[0], true}, []any{100, nil, true})
			type mm struct {
				lo, hi int
				has    bool
			}
			want := map[int]*mm{}
			for _, r := range rows {
				k := r[0].(int)
				m := want[k]
				if m == nil {
					m = &mm{}
					want[k] = m
				}
				if r[1] == nil {
					continue
				}
				v := r[1].(int)
				if !m.has {
					m.lo, m.hi, m.has = v, v, true
				}
				m.lo, m.hi = min(m.lo, v), max(m.hi, v)
			}
			in := []types.T{types.Int32Type, c.vt, types.BoolType}
			aggs := []AggSpec{agg("min", 1), agg("max", 1)}
			out := outSchema(t, in, []int{0}, aggs)
			op := &HashAggregate{Input: rowsSource(t, schemaOf(in...), rows, 333), GroupBy: []int{0}, Aggs: aggs, Out: out}
			got := sorted(drainInts(t, op))
			var wantRows []string
			for k, m := range want {
				if m.has {
					wantRows = append(wantRows, fmt.Sprintf("%d|%d|%d", k, m.lo, m.hi))
				} else {
					wantRows = append(wantRows, fmt.Sprintf("%d|NULL|NULL", k))
				}
			}
			equalRows(t, "min/max", got, sorted(wantRows))
			// and under FILTER (own counts, selected rows)
			fa := []AggSpec{agg("min", 1), agg("max", 1)}
			fa[0].Filter, fa[1].Filter = 2, 2
			gen := &HashAggregate{Input: rowsSource(t, schemaOf(in...), rows, 333), GroupBy: []int{0}, Aggs: fa, Out: out, generic: true}
			fast := &HashAggregate{Input: rowsSource(t, schemaOf(in...), rows, 333), GroupBy: []int{0}, Aggs: fa, Out: out}
			equalRows(t, "min/max filtered", sorted(drainInts(t, fast)), sorted(drainInts(t, gen)))
		})
	}
}

// drainInts is drain for batches of integer-like columns (timestamps as
// their integers, which formatCell does not render).
func drainInts(t *testing.T, op exec.Operator) []string {
	t.Helper()
	defer op.Close()
	var rows []string
	for {
		b, err := op.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			return rows
		}
		for i := range int(b.NumRows()) {
			cells := make([]string, b.NumCols())
			for c := range cells {
				col := b.Column(c)
				get, ok := intClass(col)
				switch {
				case !ok:
					t.Fatalf("column %d: %s", c, col.DataType())
				case col.IsNull(i):
					cells[c] = "NULL"
				default:
					cells[c] = fmt.Sprint(get(i))
				}
			}
			rows = append(rows, strings.Join(cells, "|"))
		}
		b.Release()
	}
}
