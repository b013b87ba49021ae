package relop

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sqlgate/sqlgate/types"
)

// The typed fast paths (a single fixed-width key: intTable grouping and
// joins, radix sort, typed top-N heap) must give exactly what the
// byte-encoded generic path gives, which the oracle tests tie to
// PostgreSQL. Each dataset is (key, row number) rows; the row number makes
// stability and tie order visible.

type fastCase struct {
	name string
	kt   types.T
	keys []any
}

func fastCases() []fastCase {
	rng := rand.New(rand.NewPCG(11, 3))
	gen := func(n int, f func(i int) any) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = f(i)
		}
		return out
	}
	withNulls := func(f func(i int) any) func(i int) any {
		return func(i int) any {
			if rng.IntN(8) == 0 {
				return nil
			}
			return f(i)
		}
	}
	floats := []float64{math.NaN(), math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1), 1.5, -1.5, math.MaxFloat64, -math.SmallestNonzeroFloat64}
	return []fastCase{
		{"empty", types.Int64Type, nil},
		{"one-row", types.Int64Type, []any{7}},
		{"one-null", types.Int64Type, []any{nil}},
		{"all-null", types.Int32Type, gen(50, func(int) any { return nil })},
		{"dups-nulls-int64", types.Int64Type, gen(800, withNulls(func(int) any { return rng.IntN(40) - 20 }))},
		{"skew90-int32", types.Int32Type, gen(5000, func(int) any {
			if rng.IntN(10) < 9 {
				return 5
			}
			return rng.IntN(1 << 30)
		})},
		{"wide-int64", types.Int64Type, gen(20000, withNulls(func(int) any { return int(rng.Uint64()>>1) - int(rng.Uint64()>>1) }))},
		{"extremes-int64", types.Int64Type, gen(400, withNulls(func(i int) any {
			return []int{math.MinInt64, math.MaxInt64, 0, -1, 1, math.MinInt64 + 1}[rng.IntN(6)]
		}))},
		{"dense-and-sparse", types.Int64Type, gen(30000, func(int) any {
			if rng.IntN(2) == 0 {
				return rng.IntN(1 << 14)
			}
			return rng.IntN(1<<40) - 1<<39
		})},
		// the dense array grows (moving keys out of the hash table) while
		// the groups fill [0, 300000), with negatives and NULLs beside
		{"dense-growing-int32", types.Int32Type, gen(60000, withNulls(func(int) any {
			if rng.IntN(50) == 0 {
				return -rng.IntN(1000) - 1
			}
			return rng.IntN(300_000)
		}))},
		// keys 0, 37, 74, ...: the array stops growing where they become
		// too sparse for it and at maxDenseKeys; the rest are hashed
		{"dense-sparse-ascending-int64", types.Int64Type, gen(40000, func(i int) any { return i * 37 })},
		{"nan-negzero-float64", types.Float64Type, gen(300, withNulls(func(int) any { return floats[rng.IntN(len(floats))] }))},
		{"float32", types.Float32Type, gen(300, withNulls(func(int) any { return floats[rng.IntN(len(floats)-2)] }))},
		{"timestamp", types.TimestampType(6), gen(2000, withNulls(func(int) any { return rng.IntN(100) * 86_400_000_000 }))},
	}
}

func (c fastCase) rows() [][]any {
	rows := make([][]any, len(c.keys))
	for i, k := range c.keys {
		rows[i] = []any{k, i}
	}
	return rows
}

func TestFastPathAggregate(t *testing.T) {
	for _, c := range fastCases() {
		t.Run(c.name, func(t *testing.T) {
			schema := schemaOf(c.kt, types.Int64Type)
			aggs := []AggSpec{agg("count", -1), agg("sum", 1), agg("min", 1), agg("count", 0)}
			out := outSchema(t, []types.T{c.kt, types.Int64Type}, []int{0}, aggs)
			run := func(generic bool, mem *MemoryAccount, dir string) []string {
				op := &HashAggregate{Input: rowsSource(t, schema, c.rows(), 1000), GroupBy: []int{0}, Aggs: aggs,
					Out: out, Mem: mem, SpillDir: dir, generic: generic}
				return sorted(drain(t, op))
			}
			want := run(true, nil, "")
			equalRows(t, "fast", run(false, nil, ""), want)
			equalRows(t, "fast spilled", run(false, NewMemoryAccount(256<<10), tempDir(t)), want)
		})
	}
}

func TestFastPathJoin(t *testing.T) {
	cs := fastCases()
	for i := range cs {
		if cs[i].name == "skew90-int32" {
			cs[i].keys = cs[i].keys[:500] // 450 x 450 pairs of the hot key
		}
	}
	for _, c := range cs {
		// probe with another dataset of the same type, and with itself
		for _, other := range cs {
			if other.kt.String() != c.kt.String() || (other.name != c.name && len(other.keys) > 5000) ||
				(other.name != c.name && len(c.keys) > 5000) {
				continue
			}
			for _, jt := range []JoinType{InnerJoin, LeftJoin, RightJoin, FullJoin, SemiJoin, AntiJoin} {
				t.Run(fmt.Sprintf("%s/%s/%s", c.name, other.name, jt), func(t *testing.T) {
					schema := schemaOf(c.kt, types.Int64Type)
					run := func(generic bool) []string {
						op := &HashJoin{Left: rowsSource(t, schema, other.rows(), 700), Right: rowsSource(t, schema, c.rows(), 1024),
							LeftKeys: []int{0}, RightKeys: []int{0}, Type: jt, NullAware: jt == AntiJoin, generic: generic}
						return sorted(drain(t, op))
					}
					equalRows(t, "fast", run(false), run(true))
				})
			}
		}
	}
}

func TestFastPathSortAndTopN(t *testing.T) {
	for _, c := range fastCases() {
		for _, desc := range []bool{false, true} {
			for _, nullsFirst := range []bool{false, true} {
				keys := []SortKey{{Column: 0, Desc: desc, NullsFirst: nullsFirst}}
				t.Run(fmt.Sprintf("%s/desc=%v/nullsfirst=%v", c.name, desc, nullsFirst), func(t *testing.T) {
					schema := schemaOf(c.kt, types.Int64Type)
					sortRun := func(generic bool, mem *MemoryAccount, dir string) []string {
						return drain(t, &Sort{Input: rowsSource(t, schema, c.rows(), 1000), Keys: keys, Mem: mem, SpillDir: dir, generic: generic})
					}
					want := sortRun(true, nil, "")
					equalRows(t, "sort", sortRun(false, nil, ""), want)
					equalRows(t, "sort spilled", sortRun(false, NewMemoryAccount(16<<10), tempDir(t)), want)
					for _, n := range []int64{0, 1, 5, 1000, 100_000} {
						topRun := func(generic bool) []string {
							return drain(t, &TopN{Input: rowsSource(t, schema, c.rows(), 333), Keys: keys, N: n, generic: generic})
						}
						got, gen := topRun(false), topRun(true)
						equalRows(t, fmt.Sprintf("top-%d", n), got, gen)
						if int64(len(want)) >= n && len(got) != int(n) || int64(len(want)) < n && len(got) != len(want) {
							t.Fatalf("top-%d: %d rows", n, len(got))
						}
						equalRows(t, fmt.Sprintf("top-%d vs sort", n), got, want[:len(got)])
					}
				})
			}
		}
	}
}

// TestFastPathJoinRuns: the fixed-key table's runs of duplicated keys,
// split across small output batches, with equal power-of-two build
// batches (rows located by shift) and odd ones (rows located by refs),
// with a residual, spilled and not, give what the generic path gives.
func TestFastPathJoinRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	// a hot key: runs far longer than an output batch
	build := skewedRows(rng, 3000, 300, skewKey{6, 10, 7}, skewKey{1, 20, nil}, skewKey{1, 20, math.MinInt64})
	probe := skewedRows(rng, 400, 400, skewKey{1, 15, nil}, skewKey{1, 10, 7}, skewKey{1, 20, math.MinInt64})
	schema := schemaOf(types.Int64Type, types.Int64Type)
	// the row numbers' parities differ: keeps about half of the pairs
	residual := moduloResidual(2, 1)
	for _, jt := range []JoinType{InnerJoin, LeftJoin, RightJoin, FullJoin, SemiJoin, AntiJoin} {
		for _, buildBatch := range []int{256, 1000} {
			for _, res := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/batch=%d/residual=%v", jt, buildBatch, res), func(t *testing.T) {
					run := func(generic bool, mem *MemoryAccount, dir string) []string {
						op := &HashJoin{Left: rowsSource(t, schema, probe, 300), Right: rowsSource(t, schema, build, buildBatch),
							LeftKeys: []int{0}, RightKeys: []int{0}, Type: jt, NullAware: jt == AntiJoin && !res,
							BatchRows: 100, Mem: mem, SpillDir: dir, generic: generic}
						if res {
							op.Residual = residual
						}
						return sorted(drain(t, op))
					}
					want := run(true, nil, "")
					if len(want) == 0 && jt != AntiJoin {
						t.Fatal("no rows: the case tests nothing")
					}
					equalRows(t, "fast", run(false, nil, ""), want)
					equalRows(t, "fast spilled", run(false, NewMemoryAccount(64<<10), tempDir(t)), want)
				})
			}
		}
	}
}

// TestSortDecodedKeyColumn: the decoded key column (int32, int64, date,
// timestamp keys) across small output batches whose edges fall among the
// NULLs, ascending and descending, equals the generic path's.
func TestSortDecodedKeyColumn(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, kt := range []types.T{types.Int32Type, types.Int64Type, types.DateType, types.TimestampType(6)} {
		var rows [][]any
		for i := 0; i < 700; i++ {
			var k any = rng.IntN(2000) - 1000
			if rng.IntN(5) == 0 {
				k = nil
			}
			rows = append(rows, []any{k, i})
		}
		rows = append(rows, []any{math.MinInt32, 700}, []any{math.MaxInt32, 701})
		schema := schemaOf(kt, types.Int64Type)
		for _, desc := range []bool{false, true} {
			for _, nullsFirst := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/desc=%v/nullsfirst=%v", kt, desc, nullsFirst), func(t *testing.T) {
					run := func(generic bool) []string {
						return drain(t, &Sort{Input: rowsSource(t, schema, rows, 64), Keys: []SortKey{{Column: 0, Desc: desc, NullsFirst: nullsFirst}},
							BatchRows: 37, generic: generic})
					}
					equalRows(t, "decoded", run(false), run(true))
				})
			}
		}
	}
}

// TestFastPathStringKeyAggregate: one text key groups by its bytes (the
// strKey path); NULLs, the empty string and strings that are prefixes of
// one another must group as the byte-encoded generic path groups them, in
// memory and spilled.
func TestFastPathStringKeyAggregate(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	words := []any{nil, "", "a", "ab", "abc", "b", "\x00", "a\x00", "ünï", "US", "USA"}
	for _, n := range []int{0, 1, 700, 20000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			rows := make([][]any, n)
			for i := range rows {
				var k any = words[rng.IntN(len(words))]
				if rng.IntN(3) == 0 {
					k = fmt.Sprintf("k%d", rng.IntN(3000))
				}
				rows[i] = []any{k, i}
			}
			schema := schemaOf(types.StringType, types.Int64Type)
			aggs := []AggSpec{agg("count", -1), agg("sum", 1), agg("min", 1), agg("count", 0)}
			out := outSchema(t, []types.T{types.StringType, types.Int64Type}, []int{0}, aggs)
			run := func(generic bool, mem *MemoryAccount, dir string) []string {
				op := &HashAggregate{Input: rowsSource(t, schema, rows, 999), GroupBy: []int{0}, Aggs: aggs,
					Out: out, Mem: mem, SpillDir: dir, generic: generic}
				return sorted(drain(t, op))
			}
			want := run(true, nil, "")
			equalRows(t, "fast", run(false, nil, ""), want)
			equalRows(t, "fast spilled", run(false, NewMemoryAccount(64<<10), tempDir(t)), want)
		})
	}
}
