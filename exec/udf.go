package exec

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"runtime/debug"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/udf"
)

// The opaque tier: operators that run Go UDFs (package udf). They call user
// code, so everything that comes back is checked before it goes on (a
// wrong type or length would otherwise corrupt the batches downstream), an
// error becomes 38000 and a panic 39000 with its stack, and nothing of the
// UDF's failure escapes as a Go panic: the session goes on.

// ScalarUDF runs a scalar Go UDF over each input batch and appends its
// result as the last column (the input columns pass through, no copy).
type ScalarUDF struct {
	EC    *EvalContext
	Input Operator
	UDF   *udf.Scalar
	Args  []Expr
	Out   *arrow.Schema
}

func (o *ScalarUDF) Schema() *arrow.Schema { return o.Out }
func (o *ScalarUDF) Close()                { o.Input.Close() }
func (o *ScalarUDF) Next(ctx context.Context) (arrow.RecordBatch, error) {
	b, err := o.Input.Next(ctx)
	if err != nil || b == nil {
		return nil, err
	}
	defer b.Release()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	args := make([]arrow.Array, 0, len(o.Args))
	defer func() {
		for _, a := range args {
			a.Release()
		}
	}()
	for _, e := range o.Args {
		a, err := e.Eval(o.EC, b)
		if err != nil {
			return nil, err
		}
		args = append(args, a)
	}
	res, err := callScalar(ctx, o.UDF, args)
	if err != nil {
		return nil, err
	}
	defer res.Release()
	want := o.UDF.Returns.ArrowType()
	switch {
	case !arrow.TypeEqual(res.DataType(), want):
		return nil, mismatch(o.UDF.Name, "returned an array of type %s, declared %s (%s)", res.DataType(), want, o.UDF.Returns.PGName())
	case int64(res.Len()) != b.NumRows():
		return nil, mismatch(o.UDF.Name, "returned %d values for a batch of %d rows", res.Len(), b.NumRows())
	}
	cols := make([]arrow.Array, 0, b.NumCols()+1)
	cols = append(cols, b.Columns()...)
	cols = append(cols, res)
	return array.NewRecordBatch(o.Out, cols, b.NumRows()), nil
}

// callScalar calls f, turning its error or panic into a query error.
func callScalar(ctx context.Context, f *udf.Scalar, args []arrow.Array) (res arrow.Array, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, panicError(f.Name, p, debug.Stack())
		}
	}()
	res, err = f.Fn(ctx, args)
	if err != nil {
		if res != nil {
			res.Release()
		}
		return nil, udfError(ctx, f.Name, err)
	}
	if res == nil {
		return nil, mismatch(f.Name, "returned no array")
	}
	return res, nil
}

// TableUDF runs a record-batch Go UDF called in FROM: its arguments are
// evaluated once, then the batches it emits stream out, each checked
// against the declared columns.
type TableUDF struct {
	EC   *EvalContext
	UDF  *udf.Table
	Args []Expr
	Out  *arrow.Schema

	next func() (arrow.RecordBatch, error, bool)
	stop func()
	done bool
	// udfCtx is the UDF's context. It outlives one Next (the UDF is
	// suspended between them, and a portal may resume the query under
	// another context), so it carries the first context's values and is
	// cancelled by the context of the Next running, or by Close.
	udfCtx    context.Context
	cancelUDF context.CancelFunc
}

func (o *TableUDF) Schema() *arrow.Schema { return o.Out }
func (o *TableUDF) Close() {
	o.done = true
	if o.cancelUDF != nil {
		defer o.cancelUDF()
	}
	if o.stop != nil {
		// Resumes the UDF with emit failing (errUDFStopped); a UDF that
		// panics on the way out has nobody left to tell.
		func() {
			defer func() { recover() }()
			o.stop()
		}()
		o.stop = nil
	}
}

// errUDFStopped is what emit returns once the consumer needs no more rows.
var errUDFStopped = errors.New("the query needs no more rows")

func (o *TableUDF) start(first context.Context) error {
	args := make([]arrow.Array, len(o.Args))
	defer func() {
		for _, a := range args {
			if a != nil {
				a.Release()
			}
		}
	}()
	for i, e := range o.Args {
		v, err := EvalScalar(o.EC, e)
		if err != nil {
			return err
		}
		if args[i], err = types.ConstArray(o.EC.Mem, v, e.Type(), 1); err != nil {
			return err
		}
	}
	for _, a := range args {
		a.Retain() // the UDF's run outlives this call; released when it ends
	}
	f := o.UDF
	o.udfCtx, o.cancelUDF = context.WithCancel(context.WithoutCancel(first))
	ctx := o.udfCtx
	seq := iter.Seq2[arrow.RecordBatch, error](func(yield func(arrow.RecordBatch, error) bool) {
		defer func() {
			for _, a := range args {
				a.Release()
			}
		}()
		stopped := false
		emit := func(b arrow.RecordBatch) error {
			if stopped {
				return errUDFStopped
			}
			if b == nil {
				return nil
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			b.Retain()
			if !yield(b, nil) {
				stopped = true
				return errUDFStopped
			}
			return ctx.Err()
		}
		err := runTable(ctx, f, args, emit)
		if err != nil && !stopped && !errors.Is(err, errUDFStopped) {
			yield(nil, err)
		}
	})
	o.next, o.stop = iter.Pull2(seq)
	return nil
}

// runTable runs f on the iterator's side, where its stack is: an error or
// a panic becomes the query error there.
func runTable(ctx context.Context, f *udf.Table, args []arrow.Array, emit func(arrow.RecordBatch) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = panicError(f.Name, p, debug.Stack())
		}
	}()
	if err := f.Fn(ctx, args, emit); err != nil && !errors.Is(err, errUDFStopped) {
		return udfError(ctx, f.Name, err)
	}
	return nil
}

func (o *TableUDF) Next(ctx context.Context) (b arrow.RecordBatch, err error) {
	if o.done {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if o.next == nil {
		if err := o.start(ctx); err != nil {
			o.done = true
			return nil, err
		}
	}
	// This statement's cancellation (statement_timeout, a cancel request)
	// reaches the UDF while it runs for this Next.
	defer context.AfterFunc(ctx, o.cancelUDF)()
	defer func() {
		// runTable recovers the UDF's panics; this is for one in a
		// deferred call of the UDF's that runs after, which Pull
		// re-raises here.
		if p := recover(); p != nil {
			o.done, o.stop = true, nil
			b, err = nil, panicError(o.UDF.Name, p, debug.Stack())
		}
	}()
	for {
		got, err, ok := o.next()
		if !ok {
			o.done = true
			return nil, nil
		}
		if err != nil {
			o.Close()
			return nil, err
		}
		out, err := o.check(got)
		got.Release()
		if err != nil {
			o.Close()
			return nil, err
		}
		if out.NumRows() == 0 {
			out.Release()
			continue
		}
		return out, nil
	}
}

// check compares an emitted batch with the declared columns and returns it
// under the declared schema (the UDF's own field names do not matter).
func (o *TableUDF) check(b arrow.RecordBatch) (arrow.RecordBatch, error) {
	if int(b.NumCols()) != len(o.Out.Fields()) {
		return nil, mismatch(o.UDF.Name, "emitted a batch of %d columns, declared %d", b.NumCols(), len(o.Out.Fields()))
	}
	for i, f := range o.Out.Fields() {
		c := b.Column(i)
		if !arrow.TypeEqual(c.DataType(), f.Type) {
			return nil, mismatch(o.UDF.Name, "emitted column %d (%s) of type %s, declared %s (%s)",
				i+1, f.Name, c.DataType(), f.Type, o.UDF.Columns[i].Type.PGName())
		}
		if int64(c.Len()) != b.NumRows() {
			return nil, mismatch(o.UDF.Name, "emitted column %d (%s) of %d values in a batch of %d rows", i+1, f.Name, c.Len(), b.NumRows())
		}
	}
	return array.NewRecordBatch(o.Out, b.Columns(), b.NumRows()), nil
}

// udfError is the query error for an error a UDF returned: the statement's
// own cancellation when it was cancelled meanwhile, 38000 otherwise.
func udfError(ctx context.Context, name string, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return cerr // the statement was cancelled (57014), whatever the UDF made of it
	}
	if se := sqlerr.As(err); se != nil && se.Code == sqlerr.QueryCanceled {
		return err
	}
	return sqlerr.Wrap(err, sqlerr.ExternalRoutineException, "Go UDF %s failed: %v", name, err)
}

// panicError is the query error for a panic inside a UDF, its stack in DETAIL.
func panicError(name string, p any, stack []byte) error {
	return sqlerr.New(sqlerr.ExternalRoutineInvocation, "Go UDF %s panicked: %v", name, p).WithDetail("%s", stack)
}

func mismatch(name, format string, args ...any) error {
	return sqlerr.New(sqlerr.ExternalRoutineInvocation, "Go UDF %s %s", name, fmt.Sprintf(format, args...))
}
