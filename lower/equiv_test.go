package lower

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/types"
)

// store is a throwaway embedded store with random tables for tests that
// run plans.
type store struct {
	*embedded.Store
}

func openStore(t testing.TB) store {
	t.Helper()
	s, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return store{s}
}

// createTable makes log table name(a bigint, b bigint, c text) holding
// rows; a nil in a row is NULL.
func (s store) createTable(t testing.TB, name string, rows [][3]any) {
	s.create(t, name, false, rows)
}

// create makes table name(a bigint, b bigint, c text), with primary key a
// when pk (rows then must have distinct, non-NULL a).
func (s store) create(t testing.TB, name string, pk bool, rows [][3]any) {
	t.Helper()
	ctx := context.Background()
	path := fluss.TablePath{Database: fluss.DefaultDatabase, Table: name}
	a := types.Int64Type
	var key []string
	if pk {
		a.NotNull, key = true, []string{"a"}
	}
	info, err := s.CreateTable(ctx, path, fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{
		{Name: "a", Type: a}, {Name: "b", Type: types.Int64Type}, {Name: "c", Type: types.StringType}}, PrimaryKey: key}}, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		return
	}
	bld := array.NewRecordBuilder(memory.DefaultAllocator, info.ArrowSchema())
	defer bld.Release()
	for _, r := range rows {
		for i, v := range r {
			switch b := bld.Field(i).(type) {
			case *array.Int64Builder:
				if v == nil {
					b.AppendNull()
				} else {
					b.Append(v.(int64))
				}
			case *array.StringBuilder:
				if v == nil {
					b.AppendNull()
				} else {
					b.Append(v.(string))
				}
			}
		}
	}
	rec := bld.NewRecordBatch()
	defer rec.Release()
	tbl, err := s.Table(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if pk {
		_, err = tbl.Upsert(ctx, rec, fluss.UpsertOptions{})
	} else {
		_, err = tbl.Append(ctx, rec)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// run plans and executes query with opts, returning its rows as text.
func (s store) run(t testing.TB, query string, opts Options) ([]string, []string) {
	t.Helper()
	ctx := context.Background()
	stmts, err := sql.NewParser().Parse(query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	st, err := binder.Bind(ctx, s.Store, stmts[0], nil)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	root, err := PlanWith(st.(*binder.Query).Plan, opts)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	rt := &Runtime{Ctx: ctx, Tables: s.Store, EC: &exec.EvalContext{Ctx: ctx, Mem: memory.DefaultAllocator}}
	rt.EC.Env = rt
	op, err := Build(rt, root)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer op.Close()
	var rows []string
	for {
		b, err := op.Next(ctx)
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		if b == nil {
			break
		}
		rows = append(rows, rowsText(b)...)
		b.Release()
	}
	return rows, Explain(root, nil)
}

func rowsText(b arrow.RecordBatch) []string {
	out := make([]string, b.NumRows())
	for r := range out {
		var parts []string
		for _, col := range b.Columns() {
			if col.IsNull(r) {
				parts = append(parts, "NULL")
			} else {
				parts = append(parts, col.ValueStr(r))
			}
		}
		out[r] = strings.Join(parts, "|")
	}
	return out
}

// randomTables fills tables t0..t3 with up to 12 rows of small values
// (so that joins match), some NULL.
func randomTables(t *testing.T, s store, rng *rand.Rand) {
	for ti := range 4 {
		n := rng.IntN(13)
		if ti == 0 {
			n = 1 + rng.IntN(12)
		}
		rows := make([][3]any, n)
		for i := range rows {
			for k := range 2 {
				if rng.IntN(8) > 0 {
					rows[i][k] = int64(rng.IntN(5))
				}
			}
			if rng.IntN(8) > 0 {
				rows[i][2] = fmt.Sprintf("k%d", rng.IntN(4))
			}
		}
		s.createTable(t, fmt.Sprintf("t%d", ti), rows)
	}
	// p0 is keyed by a (0..4, some missing): the unique side that
	// aggregation pushdown needs
	var rows [][3]any
	for a := range 5 {
		if rng.IntN(4) == 0 {
			continue
		}
		r := [3]any{int64(a), nil, nil}
		if rng.IntN(6) > 0 {
			r[1] = int64(rng.IntN(3))
		}
		if rng.IntN(6) > 0 {
			r[2] = fmt.Sprintf("k%d", rng.IntN(3))
		}
		rows = append(rows, r)
	}
	s.create(t, "p0", true, rows)
}

// randomQuery writes a query whose result does not depend on the plan: no
// LIMIT without an ORDER BY over every output column.
func randomQuery(rng *rand.Rand) string {
	tbl := func() string { return fmt.Sprintf("t%d", rng.IntN(4)) }
	col := func(alias string) string { return alias + "." + []string{"a", "b"}[rng.IntN(2)] }
	pred := func(alias string) string {
		switch rng.IntN(7) {
		case 0:
			return fmt.Sprintf("%s = %d", col(alias), rng.IntN(5))
		case 1:
			return fmt.Sprintf("%s > %d", col(alias), rng.IntN(5))
		case 2:
			return fmt.Sprintf("%s.c = 'k%d'", alias, rng.IntN(4))
		case 3:
			return fmt.Sprintf("%s IN (%d, %d)", col(alias), rng.IntN(5), rng.IntN(5))
		case 4:
			return fmt.Sprintf("(%s < 2 OR false)", col(alias))
		case 5:
			return fmt.Sprintf("NOT NOT (%s IS NULL)", col(alias))
		}
		return "true"
	}
	switch rng.IntN(11) {
	case 9, 10: // aggregates over a join with a table unique on its join key
		group := []string{"y.c", "x.c", "y.b", "x.b, y.c", ""}[rng.IntN(5)]
		from := fmt.Sprintf("%s x JOIN p0 y ON %s = y.a", tbl(), col("x"))
		if rng.IntN(2) == 0 {
			from = fmt.Sprintf("p0 y JOIN %s x ON y.a = %s", tbl(), col("x"))
		}
		if rng.IntN(3) == 0 {
			from += " AND " + pred("x")
		}
		list := "sum(x.b), count(*), count(x.c), min(x.c), max(x.a)"
		if rng.IntN(2) == 0 {
			// an argument that can fail keeps the aggregation above the
			// join (it must not run for rows the join removes)
			list += ", sum(x.a + 1)"
		}
		if group != "" {
			return fmt.Sprintf("SELECT %s, %s FROM %s WHERE %s GROUP BY %s", group, list, from, pred("y"), group)
		}
		return fmt.Sprintf("SELECT %s FROM %s WHERE %s", list, from, pred("y"))
	case 0, 1: // a join graph in written order, conditions in WHERE
		n := 2 + rng.IntN(3)
		var from, where []string
		for i := range n {
			a := fmt.Sprintf("x%d", i)
			from = append(from, tbl()+" "+a)
			if i > 0 {
				where = append(where, fmt.Sprintf("%s = %s", col(fmt.Sprintf("x%d", rng.IntN(i))), col(a)))
			}
			if rng.IntN(2) == 0 {
				where = append(where, pred(a))
			}
		}
		if rng.IntN(3) == 0 {
			where = append(where, fmt.Sprintf("x0.a + x%d.b > 2", n-1))
		}
		rng.Shuffle(len(from), func(i, j int) { from[i], from[j] = from[j], from[i] })
		list := "*"
		if rng.IntN(2) == 0 { // a narrow select list: join inputs are pruned
			list = fmt.Sprintf("x0.c, x%d.a", n-1)
		}
		return "SELECT " + list + " FROM " + strings.Join(from, ", ") + " WHERE " + strings.Join(where, " AND ")
	case 2: // explicit joins, outer ones included
		kind := []string{"JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"}[rng.IntN(4)]
		return fmt.Sprintf("SELECT y.c, x.a FROM %s x %s %s y ON %s = %s AND %s AND %s WHERE %s", tbl(), kind, tbl(),
			col("x"), col("y"), pred("y"), pred("x"), pred("x"))
	case 3: // filters above an aggregation
		return fmt.Sprintf("SELECT * FROM (SELECT a, c, count(*) AS n, sum(b) AS b FROM %s GROUP BY a, c) g WHERE %s AND n >= %d",
			tbl(), pred("g"), rng.IntN(2))
	case 4: // filters above set operations
		op := []string{"UNION", "UNION ALL", "EXCEPT", "INTERSECT", "EXCEPT ALL"}[rng.IntN(5)]
		return fmt.Sprintf("SELECT * FROM (SELECT a, b, c FROM %s %s SELECT b, a, c FROM %s) u WHERE %s", tbl(), op, tbl(), pred("u"))
	case 5: // ORDER BY every column, LIMIT, through projections
		return fmt.Sprintf("SELECT a + 1 AS p, b, c FROM %s x WHERE %s ORDER BY c, p DESC, b NULLS FIRST LIMIT %d OFFSET %d",
			tbl(), pred("x"), rng.IntN(6), rng.IntN(3))
	case 6: // sorts nobody sees
		return fmt.Sprintf("SELECT count(*), min(a), max(c), string_agg(c, ',') FROM (SELECT * FROM (SELECT * FROM %s ORDER BY a) s ORDER BY b) x WHERE %s",
			tbl(), pred("x"))
	case 7: // a LIMIT through UNION ALL, counted
		return fmt.Sprintf("SELECT count(*) FROM (SELECT a FROM %s UNION ALL SELECT b FROM %s LIMIT %d) u", tbl(), tbl(), rng.IntN(20))
	}
	// semi and anti joins, and filters that are constant
	return fmt.Sprintf("SELECT * FROM %s x WHERE %s IN (SELECT %s FROM %s y WHERE %s) AND NOT EXISTS (SELECT 1 FROM %s z WHERE z.a = x.b AND 1 = 0) AND (1 = 1 OR x.a > 0)",
		tbl(), col("x"), col("y"), tbl(), pred("y"), tbl())
}

// TestRulesKeepResults runs random queries over random tables with no
// rule, each rule alone, and every rule, and compares the sorted rows.
func TestRulesKeepResults(t *testing.T) {
	var all []string
	for _, r := range rules {
		all = append(all, r.name)
	}
	only := func(names ...string) map[string]bool {
		off := map[string]bool{}
		for _, n := range all {
			off[n] = !slices.Contains(names, n)
		}
		return off
	}
	sorted := func(rows []string) string {
		slices.Sort(rows)
		return strings.Join(rows, "\n")
	}
	queries, pushed := 0, 0
	for seed := range uint64(8) {
		rng := rand.New(rand.NewPCG(seed, 7))
		s := openStore(t)
		randomTables(t, s, rng)
		// row counts and, for some columns, distinct counts: random, so
		// that join orders and pushdowns vary
		stats := ndvStats{tableStats{}, map[string][]int64{}}
		for _, name := range []string{"t0", "t1", "t2", "t3", "p0"} {
			stats.tableStats[name] = int64(rng.IntN(10_000))
			for range 3 {
				v := int64(-1)
				if rng.IntN(2) == 0 {
					v = int64(rng.IntN(2_000))
				}
				stats.ndv[name] = append(stats.ndv[name], v)
			}
		}
		for range 20 {
			q := randomQuery(rng)
			queries++
			base, _ := s.run(t, q, Options{Disabled: only()})
			want := sorted(base)
			configs := map[string]map[string]bool{"every rule": nil}
			for _, r := range all {
				configs["only "+r] = only(r)
			}
			for name, off := range configs {
				got, plan := s.run(t, q, Options{Disabled: off, Stats: stats})
				if name == "every rule" && strings.Count(strings.Join(plan, "\n"), "aggregate:") >= 2 {
					pushed++ // only aggregation pushdown makes two here
				}
				if g := sorted(got); g != want {
					t.Fatalf("seed %d, %s, %s:\n got %d rows:\n%s\nwant %d rows:\n%s\nplan:\n%s", seed, name, q, len(got), g, len(base), want, strings.Join(plan, "\n"))
				}
			}
		}
	}
	t.Logf("%d queries, %d configurations each; %d with an aggregation pushed below a join", queries, len(all)+1, pushed)
	if pushed == 0 {
		t.Errorf("no query had its aggregation pushed below a join")
	}
}

// tableStats estimates tables by name.
type tableStats map[string]int64

func (s tableStats) EstimateRows(_ context.Context, p fluss.TablePath) (int64, bool) {
	n, ok := s[p.Table]
	return n, ok
}
