package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/udf"
)

// BatchUDF runs a batch Go UDF (udf.Batch) called in FROM over an input
// relation: the UDF reads Input's batches (under the declared input
// schema) and emits batches that are checked, on the UDF's own stack,
// against the declared output columns before they go on.
type BatchUDF struct {
	EC    *EvalContext
	UDF   *udf.Batch
	Input Operator // the relation argument, its columns cast to the declared input types
	Args  []Expr   // the constant arguments
	Out   *arrow.Schema

	s udfStream
}

func (o *BatchUDF) Schema() *arrow.Schema { return o.Out }
func (o *BatchUDF) Close() {
	o.s.close()
	o.Input.Close()
}

func (o *BatchUDF) Next(ctx context.Context) (arrow.RecordBatch, error) {
	return o.s.pull(ctx, o.UDF.Label(), func(first context.Context) error {
		args, err := constArgs(o.EC, o.Args)
		if err != nil {
			return err
		}
		f := o.UDF
		in := &batchInput{op: o.Input, udf: f, schema: f.InputSchema()}
		o.s.start(first, f.Label(), args, o.check, func(ctx context.Context, emit func(arrow.RecordBatch) error) error {
			defer in.release()
			return f.Fn(ctx, args, in, emit)
		}, in.settle)
		return nil
	})
}

// check compares an emitted batch with the declaration (names, Arrow
// types, nullability, lengths) and returns it retained under the declared
// schema.
func (o *BatchUDF) check(b arrow.RecordBatch) (arrow.RecordBatch, error) {
	if err := checkBatch(o.UDF.Label(), b, o.UDF.Columns, o.Out, true); err != nil {
		return nil, err
	}
	return array.NewRecordBatch(o.Out, b.Columns(), b.NumRows()), nil
}

// checkBatch is the per-batch check of a UDF's output against its declared
// columns (want is the operator's Arrow schema, of their types): names,
// when set, requires the declared field names too. The failure names the
// field.
func checkBatch(name string, b arrow.RecordBatch, decl []udf.Column, want *arrow.Schema, names bool) error {
	const verb = "emitted"
	if int(b.NumCols()) != len(decl) {
		return mismatch(name, "%s a batch of %d columns, declared %d", verb, b.NumCols(), len(decl))
	}
	got := b.Schema()
	for i, d := range decl {
		c, wantT := b.Column(i), want.Field(i).Type
		field := fmt.Sprintf("column %d (%s)", i+1, d.Name)
		switch {
		case names && got.Field(i).Name != d.Name:
			return mismatch(name, "%s %s named %q, declared %q", verb, field, got.Field(i).Name, d.Name)
		case !arrow.TypeEqual(c.DataType(), wantT):
			return mismatch(name, "%s %s of type %s, declared %s (%s)", verb, field, c.DataType(), wantT, d.Type.PGName())
		case int64(c.Len()) != b.NumRows():
			return mismatch(name, "%s %s of %d values in a batch of %d rows", verb, field, c.Len(), b.NumRows())
		case d.Type.NotNull && c.NullN() > 0:
			return mismatch(name, "%s %s with %d NULLs, declared NOT NULL", verb, field, c.NullN())
		}
	}
	return nil
}

// batchInput is the UDF's side of its input relation.
type batchInput struct {
	op     Operator
	udf    *udf.Batch
	schema *arrow.Schema
	prev   arrow.RecordBatch // the batch handed out last, released on the next call
	err    error             // the input's own failure, which is the statement's
}

func (in *batchInput) Next(ctx context.Context) (arrow.RecordBatch, error) {
	in.release()
	if in.err != nil {
		return nil, in.err
	}
	b, err := in.op.Next(ctx)
	if err != nil {
		in.err = err
		return nil, err
	}
	if b == nil {
		return nil, nil
	}
	defer b.Release()
	for i, c := range in.udf.Input {
		if c.Type.NotNull && b.Column(i).NullN() > 0 {
			in.err = sqlerr.New(sqlerr.NotNullViolation, "null value in column %q of the input of %s violates not-null constraint", c.Name, in.udf.Label())
			return nil, in.err
		}
	}
	in.prev = array.NewRecordBatch(in.schema, b.Columns(), b.NumRows())
	return in.prev, nil
}

func (in *batchInput) release() {
	if in.prev != nil {
		in.prev.Release()
		in.prev = nil
	}
}

// settle makes the input's failure the statement's, whatever the UDF
// returned after it (it may have wrapped it, or swallowed it).
func (in *batchInput) settle(err error) error {
	if in.err != nil {
		return in.err
	}
	return err
}
