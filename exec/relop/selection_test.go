package relop

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// nextOnly hides an operator's Selector methods: the aggregation above it
// reads filtered batches (the path before selections).
type nextOnly struct{ exec.Operator }

// countingSelector counts the batches a filter hands over as selections.
type countingSelector struct {
	*exec.Filter
	calls int
}

func (s *countingSelector) NextSelected(ctx context.Context) (arrow.RecordBatch, []int32, error) {
	s.calls++
	return s.Filter.NextSelected(ctx)
}

// TestAggregateOverSelection: an aggregation without GROUP BY over a filter
// (and over a projection of plain columns of one) adds the rows the
// filter's selection names, in place; every aggregate of aggCases (NULLs,
// NaN and -0 floats, numeric, FILTER, DISTINCT, ordered string_agg)
// gives what it gives over the filtered batches, bit for bit, for batches
// of every size (some kept whole, some dropped whole).
func TestAggregateOverSelection(t *testing.T) {
	t.Parallel()
	rows := toArrowRows(t, aggRows(3000, 5, false))
	in := schemaOf(aggTypes...)
	cond := &exec.ColExpr{Index: 4, Name: "b", T: types.BoolType}
	for _, c := range aggCases() {
		for _, batch := range []int{7, 256, 2048} {
			t.Run(fmt.Sprintf("%s/batch=%d", c.name, batch), func(t *testing.T) {
				ec := &exec.EvalContext{Ctx: context.Background(), Mem: memory.DefaultAllocator, Backend: exec.BackendNative}
				out := outSchema(t, aggTypes, nil, c.aggs)
				want := drain(t, &HashAggregate{Input: nextOnly{&exec.Filter{EC: ec, Input: rowsSource(t, in, rows, batch), Cond: cond}}, Aggs: c.aggs, Out: out})
				for _, project := range []bool{false, true} {
					f := &countingSelector{Filter: &exec.Filter{EC: ec, Input: rowsSource(t, in, rows, batch), Cond: cond}}
					var input exec.Operator = f
					if project {
						var cols []exec.Expr
						for i, ty := range aggTypes {
							cols = append(cols, &exec.ColExpr{Index: i, Name: in.Field(i).Name, T: ty})
						}
						input = &exec.Project{EC: ec, Input: f, Exprs: cols, Out: in}
					}
					got := drain(t, &HashAggregate{Input: input, Aggs: c.aggs, Out: out})
					if f.calls == 0 {
						t.Fatal("the aggregation did not take the filter's selections")
					}
					equalRows(t, c.name, got, want)
				}
			})
		}
	}
}

// TestSumOverSelectionOverflow: a bigint sum over selected rows raises
// 22003 exactly when the selected rows' sum leaves int64 (the unselected
// rows never count; NULL rows add nothing), and sum(bigint), numeric, over
// a selection stays exact past it.
func TestSumOverSelectionOverflow(t *testing.T) {
	t.Parallel()
	in := schemaOf(types.Int32Type, types.Int64Type, types.BoolType)
	rows := [][]any{{1, math.MaxInt64, true}, {1, math.MaxInt64, false}, {1, -5, true}, {1, math.MaxInt64, nil}, {1, nil, true}}
	b := buildBatch(t, in, rows)
	defer b.Release()
	for _, c := range []struct {
		rows  []int32
		fails bool
	}{
		{[]int32{0, 2}, false}, {[]int32{0, 1}, true}, {[]int32{2, 4, 0}, false}, {[]int32{2, 3, 0}, true}, {[]int32{0, 2, 1}, true}, {[]int32{4}, false},
	} {
		acc := &sumIntAcc{arg: 1}
		acc.resize(1)
		err := acc.update(b.Columns(), []uint32{0, 0, 0, 0, 0}, c.rows)
		if c.fails != (sqlerr.CodeOf(err) == sqlerr.NumericValueOutOfRange) || (!c.fails && err != nil) {
			t.Errorf("rows %v: %v", c.rows, err)
		}
	}
	cond := &exec.ColExpr{Index: 2, Name: "b", T: types.BoolType}
	ec := &exec.EvalContext{Ctx: context.Background(), Mem: memory.DefaultAllocator, Backend: exec.BackendNative}
	aggs := []AggSpec{agg("sum", 1), agg("count", -1), agg("count", 1)}
	op := &HashAggregate{Input: &exec.Filter{EC: ec, Input: rowsSource(t, in, append(rows, rows[0]), 10), Cond: cond}, Aggs: aggs,
		Out: outSchema(t, []types.T{types.Int32Type, types.Int64Type, types.BoolType}, nil, aggs)}
	equalRows(t, "sum(bigint) over a selection", drain(t, op), []string{"18446744073709551609|4|3"})
}
