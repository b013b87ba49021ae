package exec

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/udf"
)

// batchOp is a BatchUDF over one input batch of int64 column x (values
// vals, a NULL where valid is false).
func batchOp(mem memory.Allocator, f *udf.Batch, vals []int64, valid []bool) *BatchUDF {
	in := SchemaOf([]string{"x"}, []types.T{types.Int64Type})
	b := array.NewInt64Builder(mem)
	defer b.Release()
	b.AppendValues(vals, valid)
	col := b.NewArray()
	defer col.Release()
	cols := make([]string, len(f.Columns))
	ts := make([]types.T, len(f.Columns))
	for i, c := range f.Columns {
		cols[i], ts[i] = c.Name, c.Type
	}
	return &BatchUDF{EC: &EvalContext{Ctx: context.Background(), Mem: mem}, UDF: f,
		Input: &batchesOp{schema: in, batches: []arrow.RecordBatch{array.NewRecordBatch(in, []arrow.Array{col}, int64(len(vals)))}},
		Out:   SchemaOf(cols, ts)}
}

// identity emits each input batch as it is.
func identity(ctx context.Context, _ []arrow.Array, in udf.BatchInput, emit func(arrow.RecordBatch) error) error {
	for {
		b, err := in.Next(ctx)
		if err != nil || b == nil {
			return err
		}
		if err := emit(b); err != nil {
			return err
		}
	}
}

// An identity batch UDF passes its input's buffers through: the batch
// that comes out holds the very buffer that went in (no copy at the
// boundary, in either direction).
func TestBatchUDFIdentityIsZeroCopy(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	x := []udf.Column{{Name: "x", Type: types.Int64Type}}
	op := batchOp(mem, &udf.Batch{Name: "ident", Input: x, Columns: x, Fn: identity}, []int64{1, 2, 3}, nil)
	defer op.Close()
	inCol := op.Input.(*batchesOp).batches[0].Column(0)
	inAddr := &inCol.Data().Buffers()[1].Bytes()[0]
	b, err := op.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	if got := &b.Column(0).Data().Buffers()[1].Bytes()[0]; got != inAddr {
		t.Errorf("the identity UDF's output buffer %p is not its input's %p", got, inAddr)
	}
	if b.Schema().Field(0).Name != "x" || b.NumRows() != 3 {
		t.Errorf("batch %v", b)
	}
	if b, err := op.Next(context.Background()); b != nil || err != nil {
		t.Errorf("after the input's end: %v %v", b, err)
	}
}

// Every emitted batch is checked against the declaration, and an input
// NULL where the input is declared NOT NULL fails with 23502.
func TestBatchUDFChecks(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	x := []udf.Column{{Name: "x", Type: types.Int64Type}}
	notNull := []udf.Column{{Name: "x", Type: types.T{Kind: types.Int64, NotNull: true}}}
	cases := []struct {
		name  string
		f     *udf.Batch
		valid []bool
		code  sqlerr.Code
		msg   string
	}{
		{"output name", &udf.Batch{Name: "f", Input: x, Columns: []udf.Column{{Name: "y", Type: types.Int64Type}}, Fn: identity}, nil,
			sqlerr.ExternalRoutineInvocation, `Go UDF f emitted column 1 (y) named "x", declared "y"`},
		{"output type", &udf.Batch{Name: "f", Input: x, Columns: []udf.Column{{Name: "x", Type: types.StringType}}, Fn: identity}, nil,
			sqlerr.ExternalRoutineInvocation, "Go UDF f emitted column 1 (x) of type int64, declared utf8 (text)"},
		{"output nullability", &udf.Batch{Name: "f", Input: x, Columns: notNull, Fn: identity}, []bool{true, false, true},
			sqlerr.ExternalRoutineInvocation, "Go UDF f emitted column 1 (x) with 1 NULLs, declared NOT NULL"},
		{"output width", &udf.Batch{Name: "f", Input: x, Columns: append(x, udf.Column{Name: "z", Type: types.Int64Type}), Fn: identity}, nil,
			sqlerr.ExternalRoutineInvocation, "Go UDF f emitted a batch of 1 columns, declared 2"},
		{"input nullability", &udf.Batch{Name: "f", Input: notNull, Columns: x, Fn: identity}, []bool{true, false, true},
			sqlerr.NotNullViolation, `null value in column "x" of the input of Go UDF f violates not-null constraint`},
	}
	for _, c := range cases {
		op := batchOp(mem, c.f, []int64{1, 2, 3}, c.valid)
		b, err := op.Next(context.Background())
		if b != nil {
			b.Release()
		}
		se := sqlerr.As(err)
		if se == nil || se.Code != c.code || se.Message != c.msg {
			t.Errorf("%s: %v, want %s %q", c.name, err, c.code, c.msg)
		} else if c.code == sqlerr.ExternalRoutineInvocation && !strings.Contains(se.Detail, "exec.identity") {
			t.Errorf("%s: DETAIL has no stack of the UDF's emit call:\n%s", c.name, se.Detail)
		}
		op.Close()
	}
}
