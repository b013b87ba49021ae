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

// explainText plans text over testCatalog and returns its EXPLAIN lines.
func explainText(t *testing.T, text string) []string {
	t.Helper()
	stmts, err := sql.NewParser().Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	st, err := binder.Bind(context.Background(), testCatalog(), stmts[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	// Join input pruning renumbers the columns the join keys name; the
	// shapes below are the decorrelation rule's own output.
	root, err := PlanWith(st.(*binder.Query).Plan, Options{Disabled: map[string]bool{"join_input_pruning": true}})
	if err != nil {
		t.Fatal(err)
	}
	return Explain(root, nil)
}

// storeCatalog serves the binder from an embedded store.
type storeCatalog struct{ s *embedded.Store }

func (c storeCatalog) GetTable(ctx context.Context, p fluss.TablePath) (fluss.TableInfo, error) {
	return c.s.GetTable(ctx, p)
}

// runQuery binds and plans text with every rule, or without the
// decorrelation rule (the apply fallback), runs it, and returns its rows
// as sorted text lines and its EXPLAIN lines.
func runDecorrelationQuery(t *testing.T, st *embedded.Store, text string, decorrelated bool) ([]string, []string, error) {
	t.Helper()
	ctx := context.Background()
	stmts, err := sql.NewParser().Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	bound, err := binder.Bind(ctx, storeCatalog{st}, stmts[0], nil)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	n := bound.(*binder.Query).Plan
	var disabled map[string]bool
	if !decorrelated {
		disabled = map[string]bool{"subquery_decorrelation": true}
	}
	root, err := PlanWith(n, Options{Disabled: disabled})
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	ec := &exec.EvalContext{Ctx: ctx, Mem: memory.DefaultAllocator}
	rt := &Runtime{Ctx: ctx, Tables: st, EC: ec}
	ec.Env = rt
	op, err := Build(rt, root)
	if err != nil {
		return nil, nil, err
	}
	defer op.Close()
	var rows []string
	for {
		b, err := op.Next(ctx)
		if err != nil {
			return nil, nil, err
		}
		if b == nil {
			break
		}
		for i := 0; i < int(b.NumRows()); i++ {
			var vals []string
			for c := 0; c < int(b.NumCols()); c++ {
				vals = append(vals, fmt.Sprint(types.ValueAt(b.Column(c), i)))
			}
			rows = append(rows, strings.Join(vals, "|"))
		}
		b.Release()
	}
	slices.Sort(rows)
	return rows, Explain(root, nil), nil
}

// fillTable writes rows of int32 values (nil: NULL) into a new log table.
func fillTable(t *testing.T, st *embedded.Store, name string, cols []fluss.Column, rows [][]any) {
	t.Helper()
	ctx := context.Background()
	info, err := st.CreateTable(ctx, fluss.TablePath{Database: fluss.DefaultDatabase, Table: name}, fluss.TableDescriptor{Schema: fluss.Schema{Columns: cols}}, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		return
	}
	tbl, err := st.Table(ctx, info.Path)
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, info.ArrowSchema())
	defer b.Release()
	for _, r := range rows {
		for c, v := range r {
			if v == nil {
				b.Field(c).AppendNull()
			} else {
				b.Field(c).(*array.Int32Builder).Append(int32(v.(int)))
			}
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	if _, err := tbl.Append(ctx, rec); err != nil {
		t.Fatal(err)
	}
}

// TestDecorrelationMatchesFallback runs every form, decorrelated and through
// the apply fallback, over random tables with NULLs and duplicate keys (and
// an empty inner table), and requires the same rows. The store's small
// scan batches make the fallback's per-batch evaluation see many batches.
func TestDecorrelationMatchesFallback(t *testing.T) {
	queries := []struct {
		sql  string
		join string // the join the decorrelated plan must have ("" : the fallback)
	}{
		{"SELECT a, b FROM t WHERE EXISTS (SELECT 1 FROM o WHERE o.k = t.a)", "type=semi"},
		{"SELECT a, b FROM t WHERE EXISTS (SELECT 1 FROM o WHERE o.k = t.a AND o.v > t.b)", "type=semi"},
		{"SELECT a, b FROM t WHERE EXISTS (SELECT DISTINCT o.v FROM o WHERE o.k = t.a AND o.w = t.c LIMIT 1)", "type=semi"},
		{"SELECT a, b FROM t WHERE NOT EXISTS (SELECT 1 FROM o WHERE o.k = t.a)", "type=anti"},
		{"SELECT a, b FROM t WHERE NOT EXISTS (SELECT o.v + t.b FROM o WHERE o.k = t.a AND t.b > 1)", "type=anti"},
		{"SELECT a, b FROM t WHERE a IN (SELECT v FROM o WHERE o.k = t.b)", "type=semi"},
		{"SELECT a, b FROM t WHERE a IN (SELECT v FROM o)", "type=semi"},
		{"SELECT a, b FROM t WHERE a IN (SELECT DISTINCT v FROM o WHERE w > 1)", "type=semi"},
		{"SELECT a, b FROM t WHERE a NOT IN (SELECT v FROM o)", "null_aware"},
		{"SELECT a, b FROM t WHERE a NOT IN (SELECT w FROM o)", "null_aware"},
		{"SELECT a, b FROM t WHERE c NOT IN (SELECT w FROM o)", "null_aware"},
		{"SELECT a, b FROM t WHERE a NOT IN (SELECT v FROM o WHERE o.k = t.b)", "type=anti"},
		{"SELECT a, b FROM t WHERE c NOT IN (SELECT w FROM o WHERE o.k = t.b)", "type=anti"},
		{"SELECT a, b FROM t WHERE a NOT IN (SELECT w FROM o WHERE o.k = t.b)", "type=anti"},
		{"SELECT a, b FROM t WHERE NOT (a IN (SELECT v FROM o WHERE o.k = t.b))", "type=anti"},
		{"SELECT a, b FROM t WHERE a > ANY (SELECT v FROM o WHERE o.k = t.b)", "type=semi"},
		{"SELECT a, b FROM t WHERE a <= ALL (SELECT v FROM o WHERE o.k = t.b)", "type=anti"},
		{"SELECT a, b FROM t WHERE a <> ALL (SELECT v FROM o WHERE o.k = t.b) AND b IS NOT NULL", "type=anti"},
		{"SELECT a, b FROM t WHERE EXISTS (SELECT 1 FROM o WHERE o.k = t.a) AND a NOT IN (SELECT v FROM o) AND b > 0", "type=semi"},
		{"SELECT a, (SELECT count(*) FROM o WHERE o.k = t.a) FROM t", "type=left"},
		{"SELECT a, (SELECT count(v) FROM o WHERE o.k = t.a AND o.w = t.c), (SELECT sum(v) FROM o WHERE o.k = t.b) FROM t", "type=left"},
		{"SELECT a, (SELECT count(DISTINCT v) + t.c FROM o WHERE o.k = t.a) FROM t", "type=left"},
		{"SELECT a, (SELECT coalesce(max(v), -1) FROM o WHERE o.k = t.a AND o.v > 1) FROM t", "type=left"},
		{"SELECT a, (SELECT avg(v) FROM o WHERE o.k + 1 = t.a + 1) FROM t", "type=left"},
		{"SELECT a, b FROM t WHERE (SELECT count(*) FROM o WHERE o.k = t.a) = 0", "type=left"},
		{"SELECT b, sum((SELECT count(*) FROM o WHERE o.k = t.a)), max((SELECT min(v) FROM o WHERE o.k = t.b)) FROM t GROUP BY b", "type=left"},
		{"SELECT a, b FROM t WHERE (SELECT count(*) FROM o WHERE o.k = t.a) > b", "type=left"},
		{"SELECT a, b FROM t WHERE EXISTS (SELECT 1 FROM o WHERE o.k = t.a AND o.v IN (SELECT a FROM t t2 WHERE t2.b = o.w))", "type=semi"},
		// over a join, and with the keys of different types (int = bigint)
		{"SELECT t.a, t2.b FROM t, t t2 WHERE t.a = t2.c AND EXISTS (SELECT 1 FROM o WHERE o.k = t2.b AND o.w > t.c)", "type=semi"},
		{"SELECT a, b FROM t WHERE b * 1::bigint NOT IN (SELECT v FROM o WHERE o.k = t.a * 1::bigint)", "type=anti"},
		{"SELECT a, (SELECT count(*) FROM o WHERE o.k = t.a * 1::bigint) FROM t", "type=left"},
		// the fallback stays correct
		{"SELECT a, a NOT IN (SELECT v FROM o WHERE o.k = t.b) FROM t", ""},
		{"SELECT a, a IN (SELECT v FROM o) FROM t", ""},
		{"SELECT a, b FROM t WHERE a = 1 OR NOT EXISTS (SELECT 1 FROM o WHERE o.k = t.a)", ""},
		{"SELECT a, (SELECT count(*) FROM o WHERE o.k < t.a) FROM t", ""},
	}
	rng := rand.New(rand.NewPCG(7, 11))
	val := func(nulls bool) any {
		if nulls && rng.IntN(5) == 0 {
			return nil
		}
		return rng.IntN(6)
	}
	for round := 0; round < 6; round++ {
		st, err := embedded.Open(t.TempDir(), embedded.Options{BatchRows: 7})
		if err != nil {
			t.Fatal(err)
		}
		nullable, notNull := types.Int32Type, types.Int32Type
		notNull.NotNull = true
		var trows, orows [][]any
		for i := 0; i < 10+rng.IntN(40); i++ {
			trows = append(trows, []any{val(true), val(true), val(false)})
		}
		inner := rng.IntN(40)
		if round == 0 {
			inner = 0 // no inner rows: NOT IN keeps NULLs, count(*) is 0
		}
		for i := 0; i < inner; i++ {
			orows = append(orows, []any{val(true), val(round%2 == 0), val(false)})
		}
		fillTable(t, st, "t", []fluss.Column{{Name: "a", Type: nullable}, {Name: "b", Type: nullable}, {Name: "c", Type: notNull}}, trows)
		fillTable(t, st, "o", []fluss.Column{{Name: "k", Type: nullable}, {Name: "v", Type: nullable}, {Name: "w", Type: notNull}}, orows)
		for _, q := range queries {
			want, _, werr := runDecorrelationQuery(t, st, q.sql, false)
			got, lines, gerr := runDecorrelationQuery(t, st, q.sql, true)
			if (werr == nil) != (gerr == nil) {
				t.Fatalf("round %d %s: fallback error %v, decorrelated error %v", round, q.sql, werr, gerr)
			}
			if !slices.Equal(got, want) {
				t.Errorf("round %d %s:\n decorrelated %v\n fallback     %v\n%s", round, q.sql, got, want, strings.Join(lines, "\n"))
			}
			plan := strings.Join(lines, "\n")
			if q.join != "" && !strings.Contains(plan, q.join) {
				t.Errorf("%s: not decorrelated (want %q):\n%s", q.sql, q.join, plan)
			}
			if q.join == "" && strings.Contains(plan, "join") {
				t.Errorf("%s: must keep the fallback:\n%s", q.sql, plan)
			}
		}
		st.Close()
	}
}

var _ = arrow.Null
