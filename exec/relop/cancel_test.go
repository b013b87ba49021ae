package relop

import (
	"context"
	"errors"
	"testing"

	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/types"
)

// TestCancellation: every operator returns the context's error once it is
// cancelled, and Close is idempotent.
func TestCancellation(t *testing.T) {
	t.Parallel()
	rows := joinRows(500, 1, 20, false, true)
	s := schemaOf(joinTypes...)
	src := func() exec.Operator { return rowsSource(t, s, rows, 50) }
	aggs := []AggSpec{agg("count", -1)}
	ops := map[string]func() exec.Operator{
		"aggregate": func() exec.Operator {
			return &HashAggregate{Input: src(), GroupBy: []int{1}, Aggs: aggs, Out: outSchema(t, joinTypes, []int{1}, aggs)}
		},
		"sort": func() exec.Operator { return &Sort{Input: src(), Keys: []SortKey{{Column: 1}}} },
		"topn": func() exec.Operator { return &TopN{Input: src(), Keys: []SortKey{{Column: 1}}, N: 3} },
		"hashjoin": func() exec.Operator {
			return &HashJoin{Left: src(), Right: src(), LeftKeys: []int{1}, RightKeys: []int{1}}
		},
		"nestedloop":  func() exec.Operator { return NewCrossJoin(src(), src(), nil) },
		"distinct":    func() exec.Operator { return &Distinct{Input: src()} },
		"distinct-on": func() exec.Operator { return &DistinctOn{Input: src(), Keys: []int{1}} },
		"setop":       func() exec.Operator { return &SetOp{Left: src(), Right: src(), Kind: Intersect} },
		"window": func() exec.Operator {
			return &Window{Input: src(), PartitionBy: []int{1}, Funcs: []WindowSpec{wf("row_number", -1)},
				Out: schemaOf(append(append([]types.T(nil), joinTypes...), types.Int64Type)...)}
		},
	}
	for name, mk := range ops {
		// cancelled before the first batch
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		op := mk()
		if _, err := op.Next(ctx); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: Next after cancel = %v", name, err)
		}
		op.Close()
		op.Close()
		// cancelled mid-stream
		ctx, cancel = context.WithCancel(context.Background())
		op = mk()
		b, err := op.Next(ctx)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b != nil {
			b.Release()
		}
		cancel()
		for i := 0; i < 100; i++ {
			b, err = op.Next(ctx)
			if err != nil || b == nil {
				break
			}
			b.Release()
		}
		if !errors.Is(err, context.Canceled) && !(b == nil && err == nil) {
			t.Errorf("%s: mid-stream cancel = %v", name, err)
		}
		op.Close()
	}
}
