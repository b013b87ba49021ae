package pyudf_test

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/pyudf"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/udf"
)

// The UDF crossing (seed 002's performance model; bench/LEDGER.md records
// the figures): left_x2 = left * 2 appended to batches of two int64
// columns (16 bytes a row) of 64 KiB, 1 MiB and 16 MiB, computed by the
// native kernel, a Go scalar UDF, a Go batch UDF, and a Python function
// (scalar, and RETURNS TABLE) in a worker process. ns/batch minus the
// native kernel's is the crossing's cost per batch.

// repeatOp hands out the same batch n times.
type repeatOp struct {
	b arrow.RecordBatch
	n int
}

func (o *repeatOp) Schema() *arrow.Schema { return o.b.Schema() }
func (o *repeatOp) Close()                {}
func (o *repeatOp) Next(context.Context) (arrow.RecordBatch, error) {
	if o.n == 0 {
		return nil, nil
	}
	o.n--
	o.b.Retain()
	return o.b, nil
}

func crossingBatch(rows int) arrow.RecordBatch {
	s := arrow.NewSchema([]arrow.Field{{Name: "left", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "right", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	rb := array.NewRecordBuilder(memory.DefaultAllocator, s)
	defer rb.Release()
	for i := 0; i < rows; i++ {
		rb.Field(0).(*array.Int64Builder).Append(int64(i))
		rb.Field(1).(*array.Int64Builder).Append(int64(i % 7))
	}
	return rb.NewRecordBatch()
}

func times2(a *array.Int64) arrow.Array {
	out := make([]int64, a.Len())
	for i, v := range a.Int64Values() {
		out[i] = v * 2
	}
	b := array.NewInt64Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues(out, nil)
	return b.NewArray()
}

func BenchmarkUDFCrossing(b *testing.B) {
	python := testPython(b)
	pool := pyudf.NewPool(pyudf.Config{Python: python, Workers: 1})
	defer pool.Close()
	i64 := types.Int64Type
	lr := []udf.Column{{Name: "left", Type: i64}, {Name: "right", Type: i64}}
	out3 := append(append([]udf.Column(nil), lr...), udf.Column{Name: "left_x2", Type: i64})
	outSchema := arrow.NewSchema([]arrow.Field{{Name: "left", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "right", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, {Name: "left_x2", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	left := &exec.ColExpr{Index: 0, Name: "left", T: i64}
	goScalar := &udf.Scalar{Name: "times2", Args: []types.T{i64}, Returns: i64,
		Fn: func(_ context.Context, args []arrow.Array) (arrow.Array, error) {
			return times2(args[0].(*array.Int64)), nil
		}}
	goBatch := &udf.Batch{Name: "times2b", Input: lr, Columns: out3,
		Fn: func(ctx context.Context, _ []arrow.Array, in udf.BatchInput, emit func(arrow.RecordBatch) error) error {
			for {
				rb, err := in.Next(ctx)
				if err != nil || rb == nil {
					return err
				}
				x2 := times2(rb.Column(0).(*array.Int64))
				out := array.NewRecordBatch(outSchema, []arrow.Array{rb.Column(0), rb.Column(1), x2}, rb.NumRows())
				x2.Release()
				err = emit(out)
				out.Release()
				if err != nil {
					return err
				}
			}
		}}
	pyScalarFn := &pyudf.Function{Name: "times2", Args: []udf.Column{{Name: "x", Type: i64}}, Returns: i64, Body: "return pc.multiply(x, 2)"}
	pyTableFn := &pyudf.Function{Name: "times2b", Args: lr, Table: out3,
		Body: "return batch.append_column('left_x2', pc.multiply(left, 2))"}
	pyScalar, pyBatch := pool.Scalar(pyScalarFn), pool.Batch(pyTableFn)
	for _, rows := range []int{4096, 65536, 1048576} {
		in := crossingBatch(rows)
		ec := &exec.EvalContext{Ctx: context.Background(), Mem: memory.DefaultAllocator}
		run := func(name string, op func(n int) exec.Operator) {
			b.Run(fmt.Sprintf("%s/bytes=%d", name, rows*16), func(b *testing.B) {
				o := op(b.N + 1)
				defer o.Close()
				// the first batch starts the worker and compiles the
				// function: not the crossing
				if w, err := o.Next(context.Background()); err != nil || w == nil {
					b.Fatalf("%v %v", w, err)
				} else {
					w.Release()
				}
				cpu := cpuTime()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					out, err := o.Next(context.Background())
					if err != nil || out == nil {
						b.Fatalf("%v %v", out, err)
					}
					out.Release()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e3, "us/batch")
				b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N)/1e3, "cpu-us/batch")
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(rows), "ns/row")
			})
		}
		run("native", func(n int) exec.Operator {
			return &projectX2{in: &repeatOp{b: in, n: n}, ec: ec, e: &exec.ArithExpr{Op: exec.Mul, L: left, R: &exec.ConstExpr{Value: int64(2), T: i64}, T: i64}, out: outSchema}
		})
		run("go_scalar", func(n int) exec.Operator {
			return &exec.ScalarUDF{EC: ec, Input: &repeatOp{b: in, n: n}, UDF: goScalar, Args: []exec.Expr{left}, Out: outSchema}
		})
		run("go_batch", func(n int) exec.Operator {
			return &exec.BatchUDF{EC: ec, UDF: goBatch, Input: &repeatOp{b: in, n: n}, Out: outSchema}
		})
		run("python_scalar", func(n int) exec.Operator {
			return &exec.ScalarUDF{EC: ec, Input: &repeatOp{b: in, n: n}, UDF: &pyScalar, Args: []exec.Expr{left}, Out: outSchema}
		})
		run("python_batch", func(n int) exec.Operator {
			return &exec.BatchUDF{EC: ec, UDF: &pyBatch, Input: &repeatOp{b: in, n: n}, Out: outSchema}
		})
		in.Release()
	}
}

// projectX2 appends the native kernel's left * 2 (what a projection does).
type projectX2 struct {
	in  exec.Operator
	ec  *exec.EvalContext
	e   exec.Expr
	out *arrow.Schema
}

func (o *projectX2) Schema() *arrow.Schema { return o.out }
func (o *projectX2) Close()                { o.in.Close() }
func (o *projectX2) Next(ctx context.Context) (arrow.RecordBatch, error) {
	b, err := o.in.Next(ctx)
	if err != nil || b == nil {
		return nil, err
	}
	defer b.Release()
	x2, err := o.e.Eval(o.ec, b)
	if err != nil {
		return nil, err
	}
	defer x2.Release()
	return array.NewRecordBatch(o.out, []arrow.Array{b.Column(0), b.Column(1), x2}, b.NumRows()), nil
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
