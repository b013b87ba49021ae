package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// tableFuncBatch is how many rows a set-returning function emits per batch.
const tableFuncBatch = 1024

// TableFunc runs a set-returning function used as a FROM item (unnest,
// generate_series, generate_subscripts): its arguments are evaluated once
// (they may read the enclosing row of a correlated subquery), then its
// values stream out in batches, with a bigint row number after them WITH
// ORDINALITY.
type TableFunc struct {
	EC         *EvalContext
	Args       []Expr
	Rows       func(ctx context.Context, args []any) (next func() (any, bool, error), err error)
	Ordinality bool
	Out        *arrow.Schema
	next       func() (any, bool, error)
	n          int64
	done       bool
}

func (o *TableFunc) Schema() *arrow.Schema { return o.Out }
func (o *TableFunc) Close()                { o.done = true }
func (o *TableFunc) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if o.done {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if o.next == nil {
		vals := make([]any, len(o.Args))
		for i, a := range o.Args {
			v, err := EvalScalar(o.EC, a)
			if err != nil {
				return nil, err
			}
			vals[i] = v
		}
		next, err := o.Rows(sessionCtx(o.EC, ctx), vals)
		if err != nil {
			return nil, err
		}
		o.next = next
	}
	bld := array.NewRecordBuilder(o.EC.Mem, o.Out)
	defer bld.Release()
	rows := 0
	for rows < tableFuncBatch {
		v, ok, err := o.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			o.done = true
			break
		}
		o.n++
		appendValue(bld.Field(0), v)
		if o.Ordinality {
			appendValue(bld.Field(1), o.n)
		}
		rows++
	}
	if rows == 0 {
		return nil, nil
	}
	return bld.NewRecordBatch(), nil
}

// SetCall is one set-returning call of a ProjectSet.
type SetCall struct {
	Args []Expr
	Rows func(ctx context.Context, args []any) (next func() (any, bool, error), err error)
}

// ProjectSet runs the set-returning calls of a SELECT list: each input
// row repeats once per value of its longest call, with the calls' values
// (NULL past a shorter call's end) after the input's columns; a row whose
// calls are all empty produces nothing. Output batches hold at most
// tableFuncBatch rows, however many values one row's calls produce.
type ProjectSet struct {
	EC    *EvalContext
	Input Operator
	Calls []SetCall
	Out   *arrow.Schema

	batch arrow.RecordBatch // the input batch being expanded
	args  [][]arrow.Array   // per call, its arguments over batch
	row   int               // the next row of batch to start
	iters []func() (any, bool, error)
	live  bool // iters belong to row-1 and may have more values
	done  bool
}

func (o *ProjectSet) Schema() *arrow.Schema { return o.Out }
func (o *ProjectSet) Close() {
	o.release()
	o.done = true
	o.Input.Close()
}

func (o *ProjectSet) release() {
	for _, as := range o.args {
		for _, a := range as {
			a.Release()
		}
	}
	o.args = nil
	if o.batch != nil {
		o.batch.Release()
		o.batch = nil
	}
}

// load pulls the next input batch and evaluates the calls' arguments.
func (o *ProjectSet) load(ctx context.Context) (bool, error) {
	o.release()
	b, err := o.Input.Next(ctx)
	if err != nil || b == nil {
		return false, err
	}
	o.batch, o.row, o.live = b, 0, false
	o.args = make([][]arrow.Array, len(o.Calls))
	for c, call := range o.Calls {
		for _, e := range call.Args {
			a, err := e.Eval(o.EC, b)
			if err != nil {
				return false, err
			}
			o.args[c] = append(o.args[c], a)
		}
	}
	return true, nil
}

func (o *ProjectSet) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if o.done {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	bld := array.NewRecordBuilder(o.EC.Mem, o.Out)
	defer bld.Release()
	nIn := len(o.Out.Fields()) - len(o.Calls)
	rows := 0
	vals := make([]any, len(o.Calls))
	for rows < tableFuncBatch {
		if !o.live {
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
			o.iters = o.iters[:0]
			for c, call := range o.Calls {
				argv := make([]any, len(o.args[c]))
				for k, a := range o.args[c] {
					argv[k] = valueAt(a, o.row)
				}
				next, err := call.Rows(sessionCtx(o.EC, ctx), argv)
				if err != nil {
					return nil, err
				}
				o.iters = append(o.iters, next)
			}
			o.row++
			o.live = true
		}
		got := false
		for c, next := range o.iters {
			vals[c] = nil
			if next == nil {
				continue
			}
			v, ok, err := next()
			if err != nil {
				return nil, err
			}
			if !ok {
				o.iters[c] = nil
				continue
			}
			vals[c], got = v, true
		}
		if !got {
			o.live = false
			continue
		}
		r := o.row - 1
		for i := 0; i < nIn; i++ {
			appendValue(bld.Field(i), valueAt(o.batch.Column(i), r))
		}
		for c, v := range vals {
			appendValue(bld.Field(nIn+c), v)
		}
		rows++
	}
	if rows == 0 {
		return nil, nil
	}
	return bld.NewRecordBatch(), nil
}

// sessionCtx is the context a set-returning function starts in: the
// evaluation context's, which carries the session's settings (a
// timestamptz series steps in its TimeZone), else the operator's.
func sessionCtx(ec *EvalContext, ctx context.Context) context.Context {
	if ec != nil && ec.Ctx != nil {
		return ec.Ctx
	}
	return ctx
}

// RowsFrom runs ROWS FROM (f(..), g(..)) (and unnest of several arrays):
// its Inputs side by side, row i being the i-th row of each (NULLs for an
// input that has ended) until every input has ended, WITH ORDINALITY
// followed by a bigint row number. Output batches hold at most
// tableFuncBatch rows.
type RowsFrom struct {
	EC         *EvalContext
	Inputs     []Operator
	Ordinality bool
	Out        *arrow.Schema

	cur  []arrow.RecordBatch // each input's batch being read (nil: none or ended)
	row  []int               // the next row of each cur
	done []bool              // the input has ended
	n    int64
	end  bool
}

func (o *RowsFrom) Schema() *arrow.Schema { return o.Out }

func (o *RowsFrom) Close() {
	for i, b := range o.cur {
		if b != nil {
			b.Release()
			o.cur[i] = nil
		}
	}
	for _, in := range o.Inputs {
		in.Close()
	}
	o.end = true
}

// advance makes cur[i] hold a row at row[i], pulling batches; false when
// input i has ended.
func (o *RowsFrom) advance(ctx context.Context, i int) (bool, error) {
	for !o.done[i] {
		if b := o.cur[i]; b != nil && o.row[i] < int(b.NumRows()) {
			return true, nil
		}
		if o.cur[i] != nil {
			o.cur[i].Release()
			o.cur[i] = nil
		}
		b, err := o.Inputs[i].Next(ctx)
		if err != nil {
			return false, err
		}
		if b == nil {
			o.done[i] = true
			break
		}
		o.cur[i], o.row[i] = b, 0
	}
	return false, nil
}

func (o *RowsFrom) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if o.end {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if o.cur == nil {
		o.cur = make([]arrow.RecordBatch, len(o.Inputs))
		o.row = make([]int, len(o.Inputs))
		o.done = make([]bool, len(o.Inputs))
	}
	bld := array.NewRecordBuilder(o.EC.Mem, o.Out)
	defer bld.Release()
	has := make([]bool, len(o.Inputs))
	rows := 0
	for rows < tableFuncBatch {
		some := false
		for i := range o.Inputs {
			ok, err := o.advance(ctx, i)
			if err != nil {
				return nil, err
			}
			has[i], some = ok, some || ok
		}
		if !some {
			o.end = true
			break
		}
		f := 0
		for i, in := range o.Inputs {
			width := len(in.Schema().Fields())
			for c := 0; c < width; c++ {
				if has[i] {
					appendValue(bld.Field(f), valueAt(o.cur[i].Column(c), o.row[i]))
				} else {
					bld.Field(f).AppendNull()
				}
				f++
			}
			if has[i] {
				o.row[i]++
			}
		}
		if o.Ordinality {
			o.n++
			appendValue(bld.Field(f), o.n)
		}
		rows++
	}
	if rows == 0 {
		return nil, nil
	}
	return bld.NewRecordBatch(), nil
}
