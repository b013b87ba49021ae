package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// LateralJoin runs a LATERAL item once per row of its left input (a
// nested-loop apply): Open instantiates the right plan with the row's
// Outer values as the EvalContext's outer slots, and each right row
// follows the left row's columns in the output. With LeftJoin a left row
// for which no right row passes Cond is kept once, padded with NULLs.
// Cond (nil: true) is computed over the combined columns. Output batches
// hold at most tableFuncBatch rows, or one right batch's.
type LateralJoin struct {
	EC       *EvalContext
	Left     Operator
	Outer    []Expr
	Open     func(ec *EvalContext) (Operator, error)
	LeftJoin bool
	Cond     Expr
	Out      *arrow.Schema

	batch arrow.RecordBatch // the left batch being joined
	outer []arrow.Array     // Outer over batch
	row   int               // the next row of batch
	done  bool
}

func (o *LateralJoin) Schema() *arrow.Schema { return o.Out }

func (o *LateralJoin) Close() {
	o.release()
	o.done = true
	o.Left.Close()
}

func (o *LateralJoin) release() {
	for _, a := range o.outer {
		a.Release()
	}
	o.outer = nil
	if o.batch != nil {
		o.batch.Release()
		o.batch = nil
	}
}

// load pulls the next left batch and computes the outer values over it.
func (o *LateralJoin) load(ctx context.Context) (bool, error) {
	o.release()
	b, err := o.Left.Next(ctx)
	if err != nil || b == nil {
		return false, err
	}
	o.batch, o.row = b, 0
	for _, e := range o.Outer {
		a, err := e.Eval(o.EC, b)
		if err != nil {
			return false, err
		}
		o.outer = append(o.outer, a)
	}
	return true, nil
}

func (o *LateralJoin) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if o.done {
		return nil, nil
	}
	bld := array.NewRecordBuilder(o.EC.Mem, o.Out)
	defer bld.Release()
	rows := 0
	for rows < tableFuncBatch {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if o.batch == nil || o.row >= int(o.batch.NumRows()) {
			ok, err := o.load(ctx)
			if err != nil {
				return nil, err
			}
			if !ok {
				o.done = true
				break
			}
			continue
		}
		n, err := o.joinRow(ctx, bld)
		if err != nil {
			return nil, err
		}
		rows += n
		o.row++
	}
	if rows == 0 {
		return nil, nil
	}
	return bld.NewRecordBatch(), nil
}

// joinRow runs the right plan for left row o.row and appends the joined
// rows to bld, returning how many.
func (o *LateralJoin) joinRow(ctx context.Context, bld *array.RecordBuilder) (int, error) {
	nl := int(o.batch.NumCols())
	left := make([]any, nl)
	for i := range left {
		left[i] = valueAt(o.batch.Column(i), o.row)
	}
	vals := make([]any, len(o.outer))
	for k, a := range o.outer {
		vals[k] = valueAt(a, o.row)
	}
	// the right plan runs in the statement's context (EC.Ctx), which
	// carries what its functions read (the catalog of pg_table_size,
	// regclass output, the session), as a correlated subquery's does;
	// Next's ctx may be only the pull's
	rctx := o.EC.Ctx
	if rctx == nil {
		rctx = ctx
	}
	sub := o.EC.outerRow(rctx, vals)
	right, err := o.Open(sub)
	if err != nil {
		return 0, err
	}
	defer right.Close()
	n := 0
	for {
		rb, err := right.Next(ctx)
		if err != nil {
			return n, err
		}
		if rb == nil {
			break
		}
		got, err := o.appendJoined(bld, left, rb)
		rb.Release()
		if err != nil {
			return n, err
		}
		n += got
	}
	if n == 0 && o.LeftJoin {
		for i, v := range left {
			appendValue(bld.Field(i), v)
		}
		for i := nl; i < len(o.Out.Fields()); i++ {
			bld.Field(i).AppendNull()
		}
		n = 1
	}
	return n, nil
}

// appendJoined appends the left row joined with each row of rb that
// passes Cond.
func (o *LateralJoin) appendJoined(bld *array.RecordBuilder, left []any, rb arrow.RecordBatch) (int, error) {
	m := int(rb.NumRows())
	if m == 0 {
		return 0, nil
	}
	nl := len(left)
	if o.Cond == nil {
		for r := 0; r < m; r++ {
			for i, v := range left {
				appendValue(bld.Field(i), v)
			}
			for c := 0; c < int(rb.NumCols()); c++ {
				appendValue(bld.Field(nl+c), valueAt(rb.Column(c), r))
			}
		}
		return m, nil
	}
	// the combined rows, for the condition
	cb := array.NewRecordBuilder(o.EC.Mem, o.Out)
	defer cb.Release()
	for r := 0; r < m; r++ {
		for i, v := range left {
			appendValue(cb.Field(i), v)
		}
		for c := 0; c < int(rb.NumCols()); c++ {
			appendValue(cb.Field(nl+c), valueAt(rb.Column(c), r))
		}
	}
	joined := cb.NewRecordBatch()
	defer joined.Release()
	mask, err := o.Cond.Eval(o.EC, joined)
	if err != nil {
		return 0, err
	}
	defer mask.Release()
	keep, ok := mask.(*array.Boolean)
	if !ok {
		return 0, sqlerr.New(sqlerr.InternalError, "LATERAL join condition is not boolean")
	}
	n := 0
	for r := 0; r < m; r++ {
		if keep.IsNull(r) || !keep.Value(r) {
			continue
		}
		for c := 0; c < int(joined.NumCols()); c++ {
			appendValue(bld.Field(c), valueAt(joined.Column(c), r))
		}
		n++
	}
	return n, nil
}
