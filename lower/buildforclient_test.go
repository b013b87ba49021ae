package lower

import (
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/sql"
)

// TestBuildForClient: what BuildForClient builds at the root of a query's
// plan (a read-ahead scan only outside transactions, a lookup reusing its
// plan's record), what Build builds instead, and that both give the rows.
func TestBuildForClient(t *testing.T) {
	s := openStore(t)
	var rows [][3]any
	for i := range 12_000 {
		rows = append(rows, [3]any{int64(i), int64(i % 7), fmt.Sprint("v", i)})
	}
	s.create(t, "pk", true, rows)
	s.create(t, "small", true, rows[:100])
	ctx := context.Background()
	for _, c := range []struct {
		query        string
		untransacted bool
		metrics      bool
		root         string // the built root operator's type
		rows         int
	}{
		{"SELECT * FROM pk", true, false, "*exec.ReadAhead", 12_000},
		{"SELECT * FROM pk", false, false, "*exec.TableScan", 12_000},
		{"SELECT * FROM pk", true, true, "*exec.Instrumented", 12_000},
		{"SELECT * FROM small", true, false, "*exec.TableScan", 100},
		{"SELECT c FROM pk WHERE b = 3", true, false, "*exec.Project", 1714},
		{"SELECT * FROM pk WHERE a = 42", true, false, "*exec.Lookup", 1},
	} {
		stmts, err := sql.NewParser().Parse(c.query)
		if err != nil {
			t.Fatal(err)
		}
		st, err := binder.Bind(ctx, s.Store, stmts[0], nil)
		if err != nil {
			t.Fatal(err)
		}
		root, err := PlanWith(st.(*binder.Query).Plan, Options{Stats: storeStats{s}})
		if err != nil {
			t.Fatal(err)
		}
		for _, client := range []bool{true, false} {
			rt := &Runtime{Ctx: ctx, Tables: s.Store, EC: &exec.EvalContext{Ctx: ctx, Mem: memory.DefaultAllocator}, Untransacted: c.untransacted}
			rt.EC.Env = rt
			if c.metrics {
				rt.Metrics = map[Node]*exec.Metrics{}
			}
			build := Build
			if client {
				build = BuildForClient
			}
			op, err := build(rt, root)
			if err != nil {
				t.Fatal(err)
			}
			want := c.root
			if !client && want == "*exec.ReadAhead" {
				want = "*exec.TableScan"
			}
			if got := fmt.Sprintf("%T", op); got != want {
				t.Errorf("%s (untransacted %v, metrics %v, for client %v): root %s, want %s", c.query, c.untransacted, c.metrics, client, got, want)
			}
			if l, ok := op.(*exec.Lookup); ok && (l.Reuse != nil) != client {
				t.Errorf("%s (for client %v): lookup reuses a record: %v", c.query, client, l.Reuse != nil)
			}
			n := 0
			for {
				b, err := op.Next(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if b == nil {
					break
				}
				n += int(b.NumRows())
				b.Release()
			}
			op.Close()
			if n != c.rows {
				t.Errorf("%s (for client %v): %d rows, want %d", c.query, client, n, c.rows)
			}
		}
	}
}
