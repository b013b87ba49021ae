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
		return nil, mismatch(o.UDF.Label(), "returned an array of type %s, declared %s (%s)", res.DataType(), want, o.UDF.Returns.PGName())
	case int64(res.Len()) != b.NumRows():
		return nil, mismatch(o.UDF.Label(), "returned %d values for a batch of %d rows", res.Len(), b.NumRows())
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
			res, err = nil, panicError(f.Label(), p, debug.Stack())
		}
	}()
	res, err = f.Fn(ctx, args)
	if err != nil {
		if res != nil {
			res.Release()
		}
		return nil, udfError(ctx, f.Label(), err)
	}
	if res == nil {
		return nil, mismatch(f.Label(), "returned no array")
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

	s udfStream
}

func (o *TableUDF) Schema() *arrow.Schema { return o.Out }
func (o *TableUDF) Close()                { o.s.close() }

func (o *TableUDF) Next(ctx context.Context) (arrow.RecordBatch, error) {
	return o.s.pull(ctx, o.UDF.Label(), func(first context.Context) error {
		args, err := constArgs(o.EC, o.Args)
		if err != nil {
			return err
		}
		f := o.UDF
		o.s.start(first, f.Label(), args, o.check, func(ctx context.Context, emit func(arrow.RecordBatch) error) error {
			return f.Fn(ctx, args, emit)
		}, nil)
		return nil
	})
}

// constArgs evaluates a UDF's constant arguments once, as arrays of length
// 1 that the UDF's run releases when it ends.
func constArgs(ec *EvalContext, es []Expr) ([]arrow.Array, error) {
	args := make([]arrow.Array, 0, len(es))
	for _, e := range es {
		v, err := EvalScalar(ec, e)
		if err == nil {
			var a arrow.Array
			if a, err = types.ConstArray(ec.Mem, v, e.Type(), 1); err == nil {
				args = append(args, a)
				continue
			}
		}
		for _, a := range args {
			a.Release()
		}
		return nil, err
	}
	return args, nil
}

// udfStream runs a UDF that emits batches (a record-batch or a batch UDF)
// as a coroutine (iter.Pull2) of the operator's Next: each Next resumes it
// until it emits a batch, returns, or fails.
type udfStream struct {
	next func() (arrow.RecordBatch, error, bool)
	stop func()
	done bool
	// udfCtx is the UDF's context. It outlives one Next (the UDF is
	// suspended between them, and a portal may resume the query under
	// another context), so it carries the first context's values and is
	// cancelled by the context of the Next running, or by close.
	udfCtx    context.Context
	cancelUDF context.CancelFunc
}

func (s *udfStream) close() {
	s.done = true
	if s.cancelUDF != nil {
		defer s.cancelUDF()
	}
	if s.stop != nil {
		// Resumes the UDF with emit failing (errUDFStopped); a UDF that
		// panics on the way out has nobody left to tell.
		func() {
			defer func() { recover() }()
			s.stop()
		}()
		s.stop = nil
	}
}

// errUDFStopped is what emit returns once the consumer needs no more rows.
var errUDFStopped = errors.New("the query needs no more rows")

// start makes the coroutine of run. args (released when the run ends) are
// the UDF's constant arguments; check, when not nil, is applied to each
// batch inside emit, on the UDF's own stack, so that a batch breaking the
// declaration fails the statement with the stack of the UDF's emit call.
// settle, when not nil, may replace the run's error (an input's failure
// is the statement's, not the UDF's).
func (s *udfStream) start(first context.Context, name string, args []arrow.Array, check func(arrow.RecordBatch) (arrow.RecordBatch, error), run func(ctx context.Context, emit func(arrow.RecordBatch) error) error, settle func(error) error) {
	s.udfCtx, s.cancelUDF = context.WithCancel(context.WithoutCancel(first))
	ctx := s.udfCtx
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
			if check != nil {
				out, err := check(b)
				if err != nil {
					stopped = true
					yield(nil, withStack(err, debug.Stack()))
					return err
				}
				b = out
			} else {
				b.Retain()
			}
			if !yield(b, nil) {
				stopped = true
				return errUDFStopped
			}
			return ctx.Err()
		}
		err := runUDF(ctx, name, run, emit)
		if settle != nil {
			err = settle(err)
		}
		if err != nil && !stopped && !errors.Is(err, errUDFStopped) {
			yield(nil, err)
		}
	})
	s.next, s.stop = iter.Pull2(seq)
}

// runUDF runs a UDF on the iterator's side, where its stack is: an error
// or a panic becomes the query error there.
func runUDF(ctx context.Context, name string, run func(ctx context.Context, emit func(arrow.RecordBatch) error) error, emit func(arrow.RecordBatch) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = panicError(name, p, debug.Stack())
		}
	}()
	if err := run(ctx, emit); err != nil && !errors.Is(err, errUDFStopped) {
		return udfError(ctx, name, err)
	}
	return nil
}

// pull is an operator's Next over the stream: begin starts it on the first
// call.
func (s *udfStream) pull(ctx context.Context, name string, begin func(first context.Context) error) (b arrow.RecordBatch, err error) {
	if s.done {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if s.next == nil {
		if err := begin(ctx); err != nil {
			s.done = true
			return nil, err
		}
	}
	// This statement's cancellation (statement_timeout, a cancel request)
	// reaches the UDF while it runs for this Next.
	defer context.AfterFunc(ctx, s.cancelUDF)()
	defer func() {
		// runUDF recovers the UDF's panics; this is for one in a
		// deferred call of the UDF's that runs after, which Pull
		// re-raises here.
		if p := recover(); p != nil {
			s.done, s.stop = true, nil
			b, err = nil, panicError(name, p, debug.Stack())
		}
	}()
	for {
		got, err, ok := s.next()
		if !ok {
			s.done = true
			return nil, nil
		}
		if err != nil {
			s.close()
			return nil, err
		}
		if got.NumRows() == 0 {
			got.Release()
			continue
		}
		return got, nil
	}
}

// check compares an emitted batch with the declared columns and returns it
// under the declared schema (the UDF's own field names do not matter).
func (o *TableUDF) check(b arrow.RecordBatch) (arrow.RecordBatch, error) {
	if err := checkBatch(o.UDF.Label(), b, o.UDF.Columns, o.Out, false); err != nil {
		return nil, err
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
	if se := sqlerr.As(err); se != nil && se.Code == sqlerr.ExternalRoutineException {
		return err // the routine's own report (a Python worker's), as it is
	}
	out := sqlerr.Wrap(err, sqlerr.ExternalRoutineException, "%s failed: %v", name, err)
	var withStack *udf.Error
	if errors.As(err, &withStack) {
		// the stack of where the UDF made its error, as a panic's
		out = out.WithDetail("%s", withStack.Stack())
	}
	return out
}

// withStack puts stack in the DETAIL of a query error that has none.
func withStack(err error, stack []byte) error {
	if se := sqlerr.As(err); se != nil && se.Detail == "" {
		return se.WithDetail("%s", stack)
	}
	return err
}

// panicError is the query error for a panic inside a UDF, its stack in DETAIL.
func panicError(name string, p any, stack []byte) error {
	return sqlerr.New(sqlerr.ExternalRoutineInvocation, "%s panicked: %v", name, p).WithDetail("%s", stack)
}

func mismatch(name, format string, args ...any) error {
	return sqlerr.New(sqlerr.ExternalRoutineInvocation, "%s %s", name, fmt.Sprintf(format, args...))
}
