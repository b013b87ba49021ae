package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

// wholeRowCol is one column of a generated table: its SQL type and a
// generator of its literals (small domains, so that rows repeat and
// DISTINCT, GROUP BY and ties in ORDER BY matter).
type wholeRowCol struct {
	typ string
	lit func(r *rand.Rand) string
}

// wholeRowCols are the column types whole rows are built of. numeric has a
// fixed scale (numeric(6,2)): an unconstrained numeric table column prints
// with sqlgate's storage scale (1.5000000000), a difference of the column's
// storage, not of whole rows. Texts hold what record_out quotes: quotes,
// backslashes, commas, blanks, parentheses and the empty string.
var wholeRowCols = []wholeRowCol{
	{"int", func(r *rand.Rand) string { return fmt.Sprint(r.Intn(5) - 2) }},
	{"bigint", func(r *rand.Rand) string { return fmt.Sprint(int64(r.Intn(3)) * 4000000000) }},
	{"text", func(r *rand.Rand) string {
		texts := []string{"a", "b", "B", "", "a b", `x"y`, "p,q", `c\d`, "(z)", "NULL"}
		return "'" + strings.ReplaceAll(texts[r.Intn(len(texts))], "'", "''") + "'"
	}},
	{"numeric(6,2)", func(r *rand.Rand) string { return fmt.Sprintf("%d.%d", r.Intn(3)-1, r.Intn(4)*25) }},
	{"bool", func(r *rand.Rand) string { return []string{"true", "false"}[r.Intn(2)] }},
	{"date", func(r *rand.Rand) string { return fmt.Sprintf("'2024-01-%02d'", r.Intn(3)+1) }},
}

// wholeRowTable is a generated table: its name, column types and the
// INSERT that fills it (a sixth of the values NULL, an all-NULL row now and
// then).
type wholeRowTable struct {
	name  string
	cols  []wholeRowCol
	setup []string
}

func genWholeRowTable(r *rand.Rand, name string) wholeRowTable {
	tb := wholeRowTable{name: name}
	defs := []string{}
	for i, n := 0, 1+r.Intn(3); i < n; i++ {
		c := wholeRowCols[r.Intn(len(wholeRowCols))]
		tb.cols = append(tb.cols, c)
		defs = append(defs, fmt.Sprintf("c%d %s", i+1, c.typ))
	}
	var rows []string
	for i, n := 0, 3+r.Intn(5); i < n; i++ {
		allNull := r.Intn(8) == 0
		vs := make([]string, len(tb.cols))
		for k, c := range tb.cols {
			if allNull || r.Intn(6) == 0 {
				vs[k] = "NULL"
			} else {
				vs[k] = c.lit(r)
			}
		}
		rows = append(rows, "("+strings.Join(vs, ", ")+")")
	}
	tb.setup = []string{
		fmt.Sprintf("CREATE TABLE %s (%s)", name, strings.Join(defs, ", ")),
		fmt.Sprintf("INSERT INTO %s VALUES %s", name, strings.Join(rows, ", ")),
	}
	return tb
}

// TestWholeRowDifferential generates tables of typed columns with NULLs
// and sends whole-row references to them and to derived tables over them
// (SELECT t FROM tbl t) through the select list, casts to text, IS [NOT]
// NULL, comparisons, ORDER BY, DISTINCT, GROUP BY, count(DISTINCT),
// array_agg, UNION, IN, nesting in another derived table, t.* and
// row_to_json, and compares whole rows of two tables of different types, on
// sqlgate and PostgreSQL 15: the same rows, types and
// SQLSTATEs, in the same order where the query orders them.
func TestWholeRowDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rnd := rand.New(rand.NewSource(int64(diffSeed(t, 23))))
	// codeOnly accepts two refusals of one SQLSTATE whatever their
	// messages: "at record column N" names the first pair of dissimilar
	// types that the first compared rows reach, which depends on the
	// join's row order. A whole row's type OID is each system's own:
	// sqlgate's of the tables' row types are read as PostgreSQL's (oids).
	type query struct {
		sql      string
		ordered  bool
		codeOnly bool
	}
	var queries []query
	add := func(ordered bool, format string, args ...any) {
		queries = append(queries, query{fmt.Sprintf(format, args...), ordered, false})
	}
	const tables = 8
	for i := 0; i < tables; i++ {
		tb := genWholeRowTable(rnd, fmt.Sprintf("wr%d", i))
		for _, e := range []Executor{r.SQLGate, r.Postgres} {
			if err := e.(*Session).Exec(ctx, tb.setup); err != nil {
				t.Fatalf("%v: %v", tb.setup, err)
			}
		}
		n := tb.name
		// a derived table over a random non-empty subset of the columns, in
		// a random order
		perm := rnd.Perm(len(tb.cols))[:1+rnd.Intn(len(tb.cols))]
		sub := make([]string, len(perm))
		for k, p := range perm {
			sub[k] = fmt.Sprintf("c%d", p+1)
		}
		all := make([]string, len(tb.cols))
		for k := range all {
			all[k] = fmt.Sprintf("t.c%d", k+1)
		}
		d := fmt.Sprintf("(SELECT %s FROM %s)", strings.Join(sub, ", "), n)
		// grouping by every column is not grouping by the whole row (42803)
		add(false, "SELECT t FROM %s t GROUP BY %s", n, strings.Join(all, ", "))
		add(false, "SELECT t.c1 FROM %s t GROUP BY t", n)
		for _, src := range []string{n, d} {
			add(false, "SELECT t FROM %s t", src)
			add(false, "SELECT t, t::text, pg_typeof(t::text) FROM %s t", src)
			add(true, "SELECT t FROM %s t ORDER BY t", src)
			add(true, "SELECT t FROM %s t ORDER BY t DESC NULLS LAST", src)
			add(false, "SELECT DISTINCT t FROM %s t", src)
			add(true, "SELECT DISTINCT t FROM %s t ORDER BY 1 DESC", src)
			add(false, "SELECT t, count(*) FROM %s t GROUP BY t", src)
			add(false, "SELECT count(DISTINCT t), count(t), count(*) FROM %s t", src)
			add(true, "SELECT array_agg(t ORDER BY t) FROM %s t", src)
			add(false, "SELECT t, t IS NULL, t IS NOT NULL, NOT t IS NULL FROM %s t", src)
			add(false, "SELECT t FROM %s t WHERE t IS NOT NULL", src)
			add(false, "SELECT t = u, t <> u, t < u, t >= u, t IS DISTINCT FROM u, t IS NOT DISTINCT FROM u FROM %s t, %s u", src, src)
			add(false, "SELECT t FROM %s t WHERE t IN (SELECT u FROM %s u WHERE u IS NOT NULL)", src, src)
			add(false, "SELECT t FROM %s t UNION SELECT u FROM %s u", src, src)
			add(false, "SELECT s FROM (SELECT t, 1 AS k FROM %s t) s", src)
			add(false, "SELECT t.*, row_to_json(t) FROM %s t", src)
		}
		if i > 0 {
			// whole rows of two tables, of the same or of different field
			// types or counts: record_eq/record_cmp refuse dissimilar
			// fields they reach (42804), compare the rest
			for _, op := range []string{"=", "<>", "<", ">=", "IS DISTINCT FROM"} {
				queries = append(queries, query{fmt.Sprintf("SELECT t %s u FROM wr%d t, %s u", op, i-1, n), false, true})
			}
		}
	}
	names := make([]string, tables)
	for i := range names {
		names[i] = fmt.Sprintf("wr%d", i)
	}
	oids := typeOIDMap(t, ctx, r, names...) // composite_test.go
	stats := map[string]int{}
	for _, q := range queries {
		tallyBy(t, ctx, r, q.sql, stats, tallyRule{ordered: q.ordered, codeOnly: q.codeOnly, oids: oids})
	}
	t.Logf("%d queries over %d tables: %v", len(queries), tables, stats)
	if stats["same"] == 0 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}

// viewRecordOIDs maps PostgreSQL's OIDs of the named views' row types to
// record (2249) and of their array types to record[] (2287): sqlgate's
// whole row of a view is a record.
func viewRecordOIDs(t *testing.T, ctx context.Context, r *Runner, names ...string) map[uint32]uint32 {
	t.Helper()
	m := map[uint32]uint32{}
	for _, name := range names {
		o := r.Postgres.Run(ctx, "SELECT oid::int8, typarray::int8 FROM pg_type WHERE typname = '"+name+"'")
		if o.Err != nil || len(o.Rows) != 1 {
			t.Fatalf("PostgreSQL's pg_type of %s: %v", name, describeErr(o))
		}
		for j, rec := range []uint32{2249, 2287} {
			n, _ := strconv.ParseUint(o.Rows[0][j].Text, 10, 32)
			m[uint32(n)] = rec
		}
	}
	return m
}
