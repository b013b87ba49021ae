package exec

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/udf"
)

// batchesOp emits prepared batches (it owns them).
type batchesOp struct {
	schema  *arrow.Schema
	batches []arrow.RecordBatch
}

func (o *batchesOp) Schema() *arrow.Schema { return o.schema }
func (o *batchesOp) Next(context.Context) (arrow.RecordBatch, error) {
	if len(o.batches) == 0 {
		return nil, nil
	}
	b := o.batches[0]
	o.batches = o.batches[1:]
	return b, nil
}
func (o *batchesOp) Close() {
	for _, b := range o.batches {
		b.Release()
	}
	o.batches = nil
}

func int64Array(mem memory.Allocator, vals ...int64) arrow.Array {
	b := array.NewInt64Builder(mem)
	defer b.Release()
	b.AppendValues(vals, nil)
	return b.NewArray()
}

// scalarOp is a ScalarUDF over one batch of int64 column x.
func scalarOp(mem memory.Allocator, fn udf.ScalarFunc, ret types.T, vals ...int64) *ScalarUDF {
	in := SchemaOf([]string{"x"}, []types.T{types.Int64Type})
	col := int64Array(mem, vals...)
	defer col.Release()
	f := &udf.Scalar{Name: "f", Args: []types.T{types.Int64Type}, Returns: ret, Fn: fn}
	return &ScalarUDF{
		EC:    &EvalContext{Ctx: context.Background(), Mem: mem},
		Input: &batchesOp{schema: in, batches: []arrow.RecordBatch{array.NewRecordBatch(in, []arrow.Array{col}, int64(len(vals)))}},
		UDF:   f, Args: []Expr{&ColExpr{Index: 0, Name: "x", T: types.Int64Type}},
		Out: SchemaOf([]string{"x", "f"}, []types.T{types.Int64Type, ret}),
	}
}

func TestScalarUDF(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	double := func(_ context.Context, args []arrow.Array) (arrow.Array, error) {
		a := args[0].(*array.Int64)
		out := make([]int64, a.Len())
		for i := range out {
			out[i] = 2 * a.Value(i)
		}
		return int64Array(mem, out...), nil
	}
	op := scalarOp(mem, double, types.Int64Type, 1, 2, 3)
	defer op.Close()
	inCol := op.Input.(*batchesOp).batches[0].Column(0)
	inAddr := &inCol.Data().Buffers()[1].Bytes()[0]
	b, err := op.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	if &b.Column(0).Data().Buffers()[1].Bytes()[0] != inAddr {
		t.Error("the input column was copied")
	}
	got := b.Column(1).(*array.Int64).Int64Values()
	if len(got) != 3 || got[0] != 2 || got[2] != 6 {
		t.Errorf("got %v", got)
	}
	if end, err := op.Next(context.Background()); end != nil || err != nil {
		t.Errorf("after the input: %v %v", end, err)
	}
}

func TestScalarUDFFailures(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name   string
		fn     udf.ScalarFunc
		ret    types.T
		ctx    context.Context
		code   sqlerr.Code
		msg    string
		detail string
	}{
		{name: "error", fn: func(context.Context, []arrow.Array) (arrow.Array, error) { return nil, errors.New("bad input") },
			code: sqlerr.ExternalRoutineException, msg: "Go UDF f failed: bad input"},
		{name: "error with an array", fn: func(context.Context, []arrow.Array) (arrow.Array, error) {
			return int64Array(mem, 1), errors.New("bad input")
		}, code: sqlerr.ExternalRoutineException, msg: "bad input"},
		{name: "panic", fn: func(context.Context, []arrow.Array) (arrow.Array, error) { panic("oops") },
			code: sqlerr.ExternalRoutineInvocation, msg: "Go UDF f panicked: oops", detail: "exec.TestScalarUDFFailures"},
		{name: "nil array", fn: func(context.Context, []arrow.Array) (arrow.Array, error) { return nil, nil },
			code: sqlerr.ExternalRoutineInvocation, msg: "returned no array"},
		{name: "wrong type", ret: types.StringType, fn: func(context.Context, []arrow.Array) (arrow.Array, error) { return int64Array(mem, 1, 2), nil },
			code: sqlerr.ExternalRoutineInvocation, msg: "returned an array of type int64, declared utf8 (text)"},
		{name: "wrong length", fn: func(context.Context, []arrow.Array) (arrow.Array, error) { return int64Array(mem, 1), nil },
			code: sqlerr.ExternalRoutineInvocation, msg: "returned 1 values for a batch of 2 rows"},
		{name: "cancelled meanwhile", fn: func(ctx context.Context, _ []arrow.Array) (arrow.Array, error) {
			cancel()
			return nil, errors.New("gave up")
		}, ctx: cancelled, msg: "context canceled"},
	}
	for _, c := range cases {
		if c.ret.Kind == types.Unknown {
			c.ret = types.Int64Type
		}
		ctx := context.Background()
		if c.ctx != nil {
			ctx = c.ctx
		}
		op := scalarOp(mem, c.fn, c.ret, 1, 2)
		b, err := op.Next(ctx)
		op.Close()
		if b != nil {
			b.Release()
			t.Errorf("%s: a batch", c.name)
			continue
		}
		if c.code != "" && sqlerr.CodeOf(err) != c.code {
			t.Errorf("%s: code %s (%v), want %s", c.name, sqlerr.CodeOf(err), err, c.code)
		}
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want %q", c.name, err, c.msg)
		}
		if c.detail != "" {
			if se := sqlerr.As(err); se == nil || !strings.Contains(se.Detail, c.detail) || !strings.Contains(se.Detail, "goroutine") {
				t.Errorf("%s: no stack in the detail: %v", c.name, se)
			}
		}
	}
}

// tableOp is a TableUDF of one bigint argument and one bigint column.
func tableOp(mem memory.Allocator, fn udf.TableFunc, arg int64) *TableUDF {
	f := &udf.Table{Name: "g", Args: []types.T{types.Int64Type}, Columns: []udf.Column{{Name: "v", Type: types.Int64Type}}, Fn: fn}
	return &TableUDF{EC: &EvalContext{Ctx: context.Background(), Mem: mem}, UDF: f,
		Args: []Expr{&ConstExpr{Value: arg, T: types.Int64Type}}, Out: f.Schema()}
}

// drain reads op to its end, returning the values of column 0.
func drain(op Operator) ([]int64, int, error) {
	var vals []int64
	batches := 0
	for {
		b, err := op.Next(context.Background())
		if err != nil || b == nil {
			return vals, batches, err
		}
		batches++
		vals = append(vals, b.Column(0).(*array.Int64).Int64Values()...)
		b.Release()
	}
}

func TestTableUDF(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{{Name: "whatever", Type: arrow.PrimitiveTypes.Int64}}, nil)
	var stoppedWith error
	count := func(_ context.Context, args []arrow.Array, emit func(arrow.RecordBatch) error) error {
		n := args[0].(*array.Int64).Value(0)
		for i := int64(0); i < n; i += 2 {
			vals := []int64{i}
			if i+1 < n {
				vals = append(vals, i+1)
			}
			col := int64Array(mem, vals...)
			rec := array.NewRecordBatch(schema, []arrow.Array{col}, int64(len(vals)))
			col.Release()
			err := emit(rec)
			rec.Release()
			if err != nil {
				stoppedWith = err
				return err
			}
			empty := int64Array(mem)
			rec = array.NewRecordBatch(schema, []arrow.Array{empty}, 0)
			empty.Release()
			err = emit(rec) // an empty batch is skipped
			rec.Release()
			if err != nil {
				stoppedWith = err
				return err
			}
		}
		return nil
	}
	op := tableOp(mem, count, 5)
	vals, batches, err := drain(op)
	op.Close()
	if err != nil || batches != 3 || len(vals) != 5 || vals[4] != 4 {
		t.Fatalf("got %v in %d batches, %v", vals, batches, err)
	}
	if op.Out.Field(0).Name != "v" {
		t.Error("the declared names are kept")
	}

	// A portal resumes the query under another context: the first one's
	// end does not stop the UDF.
	op = tableOp(mem, count, 4)
	first, cancelFirst := context.WithCancel(context.Background())
	b, err := op.Next(first)
	if err != nil || b.NumRows() != 2 {
		t.Fatalf("first batch: %v", err)
	}
	b.Release()
	cancelFirst()
	b, err = op.Next(context.Background())
	if err != nil || b == nil || b.NumRows() != 2 {
		t.Fatalf("resumed under a new context: %v", err)
	}
	b.Release()
	op.Close()

	// Closing early resumes the UDF with emit failing, so it returns.
	op = tableOp(mem, count, 100)
	b, err = op.Next(context.Background())
	if err != nil || b.NumRows() != 2 {
		t.Fatalf("first batch: %v", err)
	}
	b.Release()
	op.Close()
	if !errors.Is(stoppedWith, errUDFStopped) {
		t.Errorf("after Close the UDF saw %v", stoppedWith)
	}
}

func TestTableUDFFailures(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	emitOne := func(emit func(arrow.RecordBatch) error, col arrow.Array, name string) error {
		rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: name, Type: col.DataType()}}, nil), []arrow.Array{col}, int64(col.Len()))
		col.Release()
		defer rec.Release()
		return emit(rec)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cases := []struct {
		name   string
		fn     udf.TableFunc
		code   sqlerr.Code
		msg    string
		detail string
	}{
		{name: "error", fn: func(context.Context, []arrow.Array, func(arrow.RecordBatch) error) error { return errors.New("nope") },
			code: sqlerr.ExternalRoutineException, msg: "Go UDF g failed: nope"},
		{name: "error after a batch", fn: func(_ context.Context, _ []arrow.Array, emit func(arrow.RecordBatch) error) error {
			if err := emitOne(emit, int64Array(mem, 1), "v"); err != nil {
				return err
			}
			return errors.New("late")
		}, code: sqlerr.ExternalRoutineException, msg: "late"},
		{name: "panic", fn: func(context.Context, []arrow.Array, func(arrow.RecordBatch) error) error { panic(errors.New("boom")) },
			code: sqlerr.ExternalRoutineInvocation, msg: "Go UDF g panicked: boom", detail: "exec.TestTableUDFFailures"},
		{name: "wrong type", fn: func(_ context.Context, _ []arrow.Array, emit func(arrow.RecordBatch) error) error {
			b := array.NewFloat64Builder(mem)
			b.Append(1)
			col := b.NewArray()
			b.Release()
			return emitOne(emit, col, "v")
		}, code: sqlerr.ExternalRoutineInvocation, msg: "emitted column 1 (v) of type float64, declared int64 (bigint)"},
		{name: "wrong column count", fn: func(_ context.Context, _ []arrow.Array, emit func(arrow.RecordBatch) error) error {
			c1, c2 := int64Array(mem, 1), int64Array(mem, 2)
			defer c1.Release()
			defer c2.Release()
			s := arrow.NewSchema([]arrow.Field{{Name: "a", Type: c1.DataType()}, {Name: "b", Type: c2.DataType()}}, nil)
			rec := array.NewRecordBatch(s, []arrow.Array{c1, c2}, 1)
			defer rec.Release()
			return emit(rec)
		}, code: sqlerr.ExternalRoutineInvocation, msg: "emitted a batch of 2 columns, declared 1"},
		{name: "cancelled", fn: func(_ context.Context, _ []arrow.Array, emit func(arrow.RecordBatch) error) error {
			cancel()
			return emitOne(emit, int64Array(mem, 1), "v") // emit reports the cancellation
		}, msg: "context canceled"},
	}
	for _, c := range cases {
		op := tableOp(mem, c.fn, 1)
		var err error
		for {
			var b arrow.RecordBatch
			b, err = op.Next(ctx)
			if b == nil || err != nil {
				break
			}
			b.Release()
		}
		op.Close()
		if c.code != "" && sqlerr.CodeOf(err) != c.code {
			t.Errorf("%s: code %s (%v), want %s", c.name, sqlerr.CodeOf(err), err, c.code)
		}
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want %q", c.name, err, c.msg)
		}
		if c.detail != "" {
			if se := sqlerr.As(err); se == nil || !strings.Contains(se.Detail, c.detail) {
				t.Errorf("%s: no stack in the detail: %v", c.name, se)
			}
		}
	}
}

// TestTableUDFSeesCancellation: a UDF blocked on its context is released
// when the running statement's context ends.
func TestTableUDFSeesCancellation(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	saw := make(chan error, 1)
	op := tableOp(mem, func(ctx context.Context, _ []arrow.Array, _ func(arrow.RecordBatch) error) error {
		<-ctx.Done()
		saw <- ctx.Err()
		return errors.New("interrupted")
	}, 1)
	defer op.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := op.Next(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Next: %v, want the cancellation", err)
	}
	select {
	case err := <-saw:
		if err == nil {
			t.Error("no context error")
		}
	case <-time.After(5 * time.Second):
		t.Error("the UDF never saw its context end")
	}
}
