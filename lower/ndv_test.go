package lower

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/types"
)

// ndvStats is tableStats plus per-column distinct counts by table name
// (-1: unknown).
type ndvStats struct {
	tableStats
	ndv map[string][]int64
}

func (s ndvStats) EstimateDistinct(_ context.Context, p fluss.TablePath, col int) (int64, bool) {
	cols, ok := s.ndv[p.Table]
	if !ok || col >= len(cols) || cols[col] < 0 {
		return 0, false
	}
	return cols[col], true
}

// explainWith is explainLines with the given Stats.
func explainWith(t *testing.T, stats Stats, query string, disabled ...string) []string {
	t.Helper()
	stmts, err := sql.NewParser().Parse(query)
	if err != nil {
		t.Fatal(err)
	}
	st, err := binder.Bind(context.Background(), sizedCatalog(), stmts[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	off := map[string]bool{}
	for _, d := range disabled {
		off[d] = true
	}
	root, err := PlanWith(st.(*binder.Query).Plan, Options{Stats: stats, Disabled: off})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range Explain(root, nil) {
		i := strings.Index(l, " (lowerable")
		j := strings.LastIndex(l, " (estimated rows=")
		out = append(out, l[:i]+l[j:])
	}
	return out
}

// big.k has 2 distinct values, big.id is unique; small.k has 10.
var skewed = ndvStats{sizedStats, map[string][]int64{
	"big": {1_000_000, 2, -1}, "mid": {1000, 1000, -1}, "small": {10, 10, -1}}}

// TestDistinctCountsDrivePlans: with the store's distinct counts the join
// order and the estimates change; without them the row-count heuristics
// decide.
func TestDistinctCountsDrivePlans(t *testing.T) {
	cases := []struct {
		name, sql string
		stats     Stats
		want      []string
	}{
		// b.k = m.id matches every big row (k has 2 values, each a mid id);
		// b.id = s.k keeps 10 rows: joined first with the counts (its
		// 10-row result then the build side against mid), while the
		// row-count heuristic (a tie) keeps the written order without them.
		{"join order by distinct counts", "SELECT b.v FROM big b, mid m, small s WHERE b.k = m.id AND b.id = s.k", skewed, []string{
			"projection: v AS v (estimated rows=10)",
			"  hash_join: type=inner keys=[0]=[1] (estimated rows=10)",
			"    scan: table=mid columns=[id] (estimated rows=1000)",
			"    hash_join: type=inner keys=[0]=[0] (estimated rows=10)",
			"      scan: table=b columns=[id, k, v] (estimated rows=1000000)",
			"      scan: table=small columns=[k] (estimated rows=10)"}},
		{"join order without distinct counts", "SELECT b.v FROM big b, mid m, small s WHERE b.k = m.id AND b.id = s.k", sizedStats, []string{
			"projection: v AS v (estimated rows=1000000)",
			"  hash_join: type=inner keys=[0]=[0] (estimated rows=1000000)",
			"    hash_join: type=inner keys=[1]=[0] (estimated rows=1000000)",
			"      scan: table=b columns=[id, k, v] (estimated rows=1000000)",
			"      scan: table=mid columns=[id] (estimated rows=1000)",
			"    scan: table=small columns=[k] (estimated rows=10)"}},
		{"GROUP BY estimate from distinct counts", "SELECT k, count(*) FROM big GROUP BY k", skewed, []string{
			"aggregate: keys=1 aggregates=[count(*)] (estimated rows=2)",
			"  projection: k AS key0 (estimated rows=1000000)",
			"    scan: table=big columns=[k] (estimated rows=1000000)"}},
		{"GROUP BY estimate without", "SELECT k, count(*) FROM big GROUP BY k", sizedStats, []string{
			"aggregate: keys=1 aggregates=[count(*)] (estimated rows=100000)",
			"  projection: k AS key0 (estimated rows=1000000)",
			"    scan: table=big columns=[k] (estimated rows=1000000)"}},
	}
	for _, c := range cases {
		got := explainWith(t, c.stats, c.sql)
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s: %s\n got:\n%s\nwant:\n%s", c.name, c.sql, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
		}
	}
}

// TestAggregationPushdownFollowsEstimates: the pre-aggregation goes below
// the join only when the distinct counts say it at least halves its input.
func TestAggregationPushdownFollowsEstimates(t *testing.T) {
	q := "SELECT c.region, sum(o.amount), count(*) FROM orders o JOIN customers c ON o.cust = c.id GROUP BY c.region"
	fewCustomers := ndvStats{sizedStats, map[string][]int64{"orders": {1_000_000, 1000, 1000, -1}, "customers": {1000, 10, 1000}}}
	want := []string{
		"projection: region AS region, sum AS sum, COALESCE(sum, 0) AS count (estimated rows=10)",
		"  aggregate: keys=1 aggregates=[sum(sum), sum(count)] (estimated rows=10)",
		"    projection: region AS key0, sum AS arg0, count AS arg1 (estimated rows=1000)",
		"      hash_join: type=inner keys=[0]=[0] (estimated rows=1000)",
		"        aggregate: keys=1 aggregates=[sum(amount), count(*)] (estimated rows=1000)",
		"          projection: cust AS key0, amount AS arg0 (estimated rows=1000000)",
		"            scan: table=orders columns=[cust, amount] (estimated rows=1000000)",
		"        scan: table=customers columns=[id, region] (estimated rows=1000)"}
	if got := explainWith(t, fewCustomers, q); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("1,000 distinct customers:\n got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// 900,000 distinct cust values: grouping by them would not halve the rows
	manyCustomers := ndvStats{sizedStats, map[string][]int64{"orders": {1_000_000, 900_000, 1000, -1}, "customers": {1000, 10, 1000}}}
	want = []string{
		"aggregate: keys=1 aggregates=[sum(amount), count(*)] (estimated rows=10)",
		"  projection: region AS key0, amount AS arg0 (estimated rows=1111)",
		"    hash_join: type=inner keys=[0]=[0] (estimated rows=1111)",
		"      scan: table=orders columns=[cust, amount] (estimated rows=1000000)",
		"      scan: table=customers columns=[id, region] (estimated rows=1000)"}
	if got := explainWith(t, manyCustomers, q); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("900,000 distinct customers:\n got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestStoreDistinctCountsReachThePlan: the embedded store's sketches, read
// through Stats, set the GROUP BY estimate and turn on aggregation
// pushdown, and the pushed plan's rows are the unoptimised plan's.
func TestStoreDistinctCountsReachThePlan(t *testing.T) {
	s := openStore(t)
	orders := make([][3]any, 5000)
	for i := range orders {
		orders[i] = [3]any{int64(i % 40), int64(i % 7), nil}
		if i%11 == 0 {
			orders[i][0] = nil // a NULL customer joins nothing
		}
	}
	s.create(t, "orders", false, orders)
	var customers [][3]any
	for i := range 30 { // customers 30..39 of the orders do not exist
		customers = append(customers, [3]any{int64(i), nil, fmt.Sprintf("r%d", i%4)})
	}
	s.create(t, "customers", true, customers)
	opts := Options{Stats: storeStats{s}}

	_, plan := s.run(t, "SELECT a, count(*) FROM orders GROUP BY a", opts)
	if !strings.Contains(plan[0], "aggregate: keys=1") || !strings.HasSuffix(plan[0], "(estimated rows=40)") {
		t.Errorf("GROUP BY over 40 distinct values: %s", plan[0])
	}
	q := "SELECT c.c, sum(o.b), count(*), count(o.c), max(o.b) FROM orders o JOIN customers c ON o.a = c.a GROUP BY c.c"
	got, plan := s.run(t, q, opts)
	if n := strings.Count(strings.Join(plan, "\n"), "aggregate:"); n != 2 {
		t.Errorf("want the aggregation pushed below the join:\n%s", strings.Join(plan, "\n"))
	}
	want, _ := s.run(t, q, Options{Stats: storeStats{s}, Disabled: map[string]bool{"aggregation_pushdown": true}})
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) || len(got) != 4 {
		t.Errorf("pushed:\n%v\nnot pushed:\n%v", got, want)
	}
}

// TestPushedSumOfIntegersKeepsItsType: sum(int) is bigint and sum(bigint)
// numeric; the partials' sums (bigint, numeric) are summed again (numeric)
// and cast back, so the pushed plan returns the same values and types.
func TestPushedSumOfIntegersKeepsItsType(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	i32 := types.Int32Type
	id := types.Int64Type
	id.NotNull = true
	for _, d := range []struct {
		name string
		desc fluss.TableDescriptor
	}{
		{"o", fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{{Name: "cust", Type: types.Int64Type}, {Name: "qty", Type: i32}, {Name: "small", Type: types.Int16Type}}}}},
		{"c", fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{{Name: "id", Type: id}, {Name: "region", Type: types.StringType}}, PrimaryKey: []string{"id"}}}},
	} {
		if _, err := s.CreateTable(ctx, fluss.TablePath{Database: fluss.DefaultDatabase, Table: d.name}, d.desc, false); err != nil {
			t.Fatal(err)
		}
	}
	write := func(name string, rows func(i int) []any, n int, pk bool) {
		tb, err := s.Table(ctx, fluss.TablePath{Database: fluss.DefaultDatabase, Table: name})
		if err != nil {
			t.Fatal(err)
		}
		bld := array.NewRecordBuilder(memory.DefaultAllocator, tb.Info().ArrowSchema())
		defer bld.Release()
		for i := range n {
			for c, v := range rows(i) {
				switch b := bld.Field(c).(type) {
				case *array.Int64Builder:
					b.Append(v.(int64))
				case *array.Int32Builder:
					b.Append(v.(int32))
				case *array.Int16Builder:
					b.Append(v.(int16))
				case *array.StringBuilder:
					b.Append(v.(string))
				}
			}
		}
		rec := bld.NewRecordBatch()
		defer rec.Release()
		if pk {
			_, err = tb.Upsert(ctx, rec, fluss.UpsertOptions{})
		} else {
			_, err = tb.Append(ctx, rec)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	// qty near int32's top: per-customer sums pass it, the bigint result holds them
	write("o", func(i int) []any { return []any{int64(i % 50), int32(2_000_000_000 - i), int16(i % 7)} }, 3000, false)
	write("c", func(i int) []any { return []any{int64(i), fmt.Sprintf("r%d", i%3)} }, 40, true)
	q := "SELECT c.region, sum(o.qty), sum(o.small), sum(o.cust), count(*) FROM o JOIN c ON o.cust = c.id GROUP BY c.region"
	opts := Options{Stats: storeStats{s}}
	got, plan := s.run(t, q, opts)
	if strings.Count(strings.Join(plan, "\n"), "aggregate:") != 2 {
		t.Fatalf("want the aggregation pushed:\n%s", strings.Join(plan, "\n"))
	}
	want, _ := s.run(t, q, Options{Stats: storeStats{s}, Disabled: map[string]bool{"aggregation_pushdown": true}})
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) || len(got) != 3 {
		t.Errorf("pushed:\n%v\nnot pushed:\n%v", got, want)
	}
}
