package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/types"
)

// Operator is a node of a running blueprint.
type Operator interface {
	// Schema is the schema of every batch Next returns.
	Schema() *arrow.Schema
	// Next returns the next batch (the caller releases it), or (nil, nil)
	// when the operator is exhausted.
	Next(ctx context.Context) (arrow.RecordBatch, error)
	// Close releases the operator and its inputs; it is idempotent.
	Close()
}

// SchemaOf builds the Arrow schema of columns with these names and types.
func SchemaOf(names []string, ts []types.T) *arrow.Schema {
	fs := make([]arrow.Field, len(names))
	for i := range names {
		fs[i] = arrow.Field{Name: names[i], Type: ts[i].ArrowType(), Nullable: true}
	}
	return arrow.NewSchema(fs, nil)
}

// Values emits constant rows as one batch.
type Values struct {
	EC   *EvalContext
	Rows [][]Expr
	Out  *arrow.Schema
	done bool
}

func (o *Values) Schema() *arrow.Schema { return o.Out }
func (o *Values) Close()                {}
func (o *Values) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if o.done {
		return nil, nil
	}
	o.done = true
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	bld := array.NewRecordBuilder(o.EC.Mem, o.Out)
	defer bld.Release()
	for _, row := range o.Rows {
		for c, e := range row {
			v, err := EvalScalar(o.EC, e)
			if err != nil {
				return nil, err
			}
			appendValue(bld.Field(c), v)
		}
	}
	if len(o.Out.Fields()) == 0 {
		return array.NewRecordBatch(o.Out, nil, int64(len(o.Rows))), nil
	}
	return bld.NewRecordBatch(), nil
}

// Filter keeps rows whose condition is true.
type Filter struct {
	EC    *EvalContext
	Input Operator
	Cond  Expr
	// Gate, when set, is the part of Cond that reads no column of the row
	// (PostgreSQL's one-time filter): it is computed once, before the
	// input is read, and when it is not true nothing is read at all, so
	// that its error is raised (or the input's avoided) as in PostgreSQL.
	Gate Expr
	// Replayable: Cond calls nothing volatile, so a batch it fails on
	// may be evaluated again to find the first failing row (roworder.go).
	Replayable bool
	pending    error     // the first failing row's error, after the rows before it
	ahead      rowsAhead // a volatile Cond's input not evaluated yet (roworder.go)
	gated      bool      // Gate was computed and was true
	sel        []int32   // the native backend's selection vector, reused
	keep       []uint64  // the native backend's bitmap of kept rows, reused
}

func (o *Filter) Schema() *arrow.Schema { return o.Input.Schema() }
func (o *Filter) Close()                { o.ahead.release(); o.Input.Close() }

// Demand implements Demander: a volatile condition is evaluated over no
// more input rows than the rows wanted (each keeps at most one).
func (o *Filter) Demand(rows int64) {
	o.ahead.demand = rows
	demandInput(o.Input, rows)
}

// open computes Gate the first time; false: it is not true and nothing is
// to be read.
func (o *Filter) open() (bool, error) {
	if o.Gate != nil && !o.gated {
		v, err := EvalScalar(o.EC, o.Gate)
		if err != nil {
			return false, err
		}
		if v != true {
			return false, nil
		}
		o.gated = true
	}
	return true, nil
}

func (o *Filter) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if ok, err := o.open(); !ok {
		return nil, err
	}
	for {
		b, mask, err := o.nextMasked(ctx)
		if err != nil || b == nil {
			return nil, err
		}
		if out, err := o.keptBatch(ctx, b, mask); err != nil || out != nil {
			return out, err
		}
	}
}

// nextMasked reads the input's next batch and evaluates the condition over
// it; (nil, nil, nil) at the end.
func (o *Filter) nextMasked(ctx context.Context) (arrow.RecordBatch, arrow.Array, error) {
	if o.pending != nil {
		return nil, nil, o.pending
	}
	b, err := o.ahead.next(ctx, o.Input, !o.Replayable)
	if err != nil || b == nil {
		return nil, nil, err
	}
	if !o.Replayable {
		return o.volatileMasked(b)
	}
	mask, err := o.Cond.Eval(o.EC, b)
	if err == nil {
		return b, mask, nil
	}
	if o.Replayable {
		eval := func(s arrow.RecordBatch) error {
			m, err := o.Cond.Eval(o.EC, s)
			if m != nil {
				m.Release()
			}
			return err
		}
		if f, ok := failedAt(b, err, eval); ok {
			err = f.err
			if f.row > 0 {
				// the rows before the failing one, then its error
				prefix := b.NewSlice(0, f.row)
				b.Release()
				if mask, perr := o.Cond.Eval(o.EC, prefix); perr == nil {
					o.pending = err
					return prefix, mask, nil
				}
				prefix.Release()
				return nil, nil, err
			}
		}
	}
	b.Release()
	return nil, nil, err
}

// volatileMasked is nextMasked's evaluation of a volatile condition over
// b: when it fails, a row at a time (roworder.go).
func (o *Filter) volatileMasked(b arrow.RecordBatch) (arrow.RecordBatch, arrow.Array, error) {
	mark, end := sequenceMark(o.EC)
	defer end()
	mask, err := o.Cond.Eval(o.EC, b)
	if err == nil {
		return b, mask, nil
	}
	if !replayable(o.EC, mark, b, err) {
		b.Release()
		return nil, nil, err
	}
	n, mask, failed := o.replayMask(b)
	if n == 0 || failed == nil && n < b.NumRows() {
		mask.Release()
		b.Release()
		if failed == nil {
			failed = err
		}
		return nil, nil, failed
	}
	prefix := b.NewSlice(0, n)
	b.Release()
	o.pending = failed
	return prefix, mask, nil
}

// keptBatch is apply's batch of b's kept rows, releasing b and mask; nil
// when no row is kept.
func (o *Filter) keptBatch(ctx context.Context, b arrow.RecordBatch, mask arrow.Array) (arrow.RecordBatch, error) {
	out, err := o.apply(ctx, b, mask)
	mask.Release()
	b.Release()
	if err != nil {
		return nil, err
	}
	if out.NumRows() == 0 {
		out.Release()
		return nil, nil
	}
	return out, nil
}

// apply keeps the rows of b whose mask entry is true; a NULL entry drops
// the row.
func (o *Filter) apply(ctx context.Context, b arrow.RecordBatch, mask arrow.Array) (arrow.RecordBatch, error) {
	if b.NumRows() == 0 {
		// nothing to drop (and arrow-go v18.8's take panics, in a goroutine
		// no recover reaches, on empty string columns)
		b.Retain()
		return b, nil
	}
	arrowBackend := o.EC.backendFor(FilterFamily(b.Schema())) == BackendArrow
	m, ok := mask.(*array.Boolean)
	if !ok {
		return arrowFilter(ctx, o.EC, b, mask)
	}
	var count int
	o.keep, count = keepWords(m, o.keep)
	switch count {
	case int(b.NumRows()):
		// every row kept, on either backend: the input passes through
		// (arrow-go's filter would copy every buffer)
		b.Retain()
		return b, nil
	case 0:
		return b.NewSlice(0, 0), nil
	}
	if arrowBackend {
		return arrowFilter(ctx, o.EC, b, mask)
	}
	return nativeFilter(ctx, o.EC.Mem, b, m, o.keep, count, &o.sel)
}

// Selector is an operator that can hand over its rows without copying
// them: as the batches it reads, each with the rows of it that it keeps.
// An aggregation that reads only a few columns of a filter's output adds
// the kept rows where they are, instead of the filter copying every
// column's kept values (and gathering their validity bit by bit) into a
// batch of their own.
type Selector interface {
	Operator
	// CanSelect reports whether NextSelected may be called instead of
	// Next (for the whole run: the two are not mixed).
	CanSelect() bool
	// NextSelected returns the next batch and the rows of it that are the
	// operator's output, in order (nil: every row; never empty), or (nil,
	// nil, nil) at the end. The caller releases the batch; sel is valid
	// until the next call. The batch's values at the other rows are
	// arbitrary (never read, never an error's cause).
	NextSelected(ctx context.Context) (arrow.RecordBatch, []int32, error)
}

// CanSelect implements Selector: a filter always can.
func (o *Filter) CanSelect() bool { return true }

// NextSelected implements Selector: the input's next batch with a row left
// and its kept rows, built from the mask's bitmap; on the arrow backend
// (or for a mask that is not a plain boolean array) the batch is filtered
// as Next does and every row of it is kept.
func (o *Filter) NextSelected(ctx context.Context) (arrow.RecordBatch, []int32, error) {
	if ok, err := o.open(); !ok {
		return nil, nil, err
	}
	for {
		b, mask, err := o.nextMasked(ctx)
		if err != nil || b == nil {
			return nil, nil, err
		}
		m, ok := mask.(*array.Boolean)
		if !ok || b.NumRows() == 0 || o.EC.backendFor(FilterFamily(b.Schema())) == BackendArrow {
			if out, err := o.keptBatch(ctx, b, mask); err != nil || out != nil {
				return out, nil, err
			}
			continue
		}
		var count int
		o.keep, count = keepWords(m, o.keep)
		mask.Release()
		switch count {
		case 0:
			b.Release()
			continue
		case int(b.NumRows()):
			return b, nil, nil
		}
		o.sel = selectionOf(o.keep, count, o.sel)
		return b, o.sel, nil
	}
}

// Project computes one expression per output column. A column reference
// passes the input buffers through without copying.
type Project struct {
	EC    *EvalContext
	Input Operator
	Exprs []Expr
	Out   *arrow.Schema
	// Replayable: Exprs call nothing volatile, so a batch they fail on
	// may be evaluated again to find the first failing row (roworder.go).
	Replayable bool
	// RowWise: several Exprs call sequence functions, which PostgreSQL
	// calls in turn within each row: evaluated a row at a time.
	RowWise bool
	pending error     // the first failing row's error, after the rows before it
	ahead   rowsAhead // volatile Exprs' input not evaluated yet (roworder.go)
}

func (o *Project) Schema() *arrow.Schema { return o.Out }
func (o *Project) Close()                { o.ahead.release(); o.Input.Close() }

// Demand implements Demander: volatile expressions are evaluated over no
// more rows than the rows wanted.
func (o *Project) Demand(rows int64) {
	o.ahead.demand = rows
	demandInput(o.Input, rows)
}

// CanSelect implements Selector: a projection of plain columns (nothing
// computed, so nothing evaluated at rows the input drops) over a Selector.
func (o *Project) CanSelect() bool {
	for _, e := range o.Exprs {
		if _, ok := e.(*ColExpr); !ok {
			return false
		}
	}
	s, ok := o.Input.(Selector)
	return ok && s.CanSelect()
}

// NextSelected implements Selector: the input's batch projected, with the
// input's selection.
func (o *Project) NextSelected(ctx context.Context) (arrow.RecordBatch, []int32, error) {
	if o.pending != nil {
		return nil, nil, o.pending
	}
	b, sel, err := o.Input.(Selector).NextSelected(ctx)
	if err != nil || b == nil {
		return b, nil, err
	}
	defer b.Release()
	out, err := o.project(b)
	return out, sel, err
}

func (o *Project) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if o.pending != nil {
		return nil, o.pending
	}
	b, err := o.ahead.next(ctx, o.Input, !o.Replayable)
	if err != nil || b == nil {
		return b, err
	}
	defer b.Release()
	return o.project(b)
}

// project computes the output columns over b. When that fails and the
// expressions are Replayable, it is the rows before the first failing row
// (and that row's error next), as PostgreSQL's row-at-a-time evaluation
// gives them (roworder.go).
func (o *Project) project(b arrow.RecordBatch) (arrow.RecordBatch, error) {
	if o.RowWise && b.NumRows() > 1 {
		return o.replayRows(b)
	}
	if !o.Replayable {
		mark, end := sequenceMark(o.EC)
		defer end()
		out, err := o.projectAll(b)
		if err == nil || !replayable(o.EC, mark, b, err) {
			return out, err
		}
		return o.replayRows(b)
	}
	out, err := o.projectAll(b)
	if err == nil {
		return out, err
	}
	eval := func(s arrow.RecordBatch) error {
		r, err := o.projectAll(s)
		if r != nil {
			r.Release()
		}
		return err
	}
	f, ok := failedAt(b, err, eval)
	if !ok {
		return nil, err
	}
	if f.row == 0 {
		return nil, f.err
	}
	prefix := b.NewSlice(0, f.row)
	defer prefix.Release()
	if out, err = o.projectAll(prefix); err != nil {
		return nil, f.err
	}
	o.pending = f.err
	return out, nil
}

// projectAll computes the output columns over every row of b.
func (o *Project) projectAll(b arrow.RecordBatch) (arrow.RecordBatch, error) {
	var buf [4]arrow.Array // the column list on the stack when short
	cols := buf[:0]
	if len(o.Exprs) > len(buf) {
		cols = make([]arrow.Array, 0, len(o.Exprs))
	}
	for _, e := range o.Exprs {
		c, err := e.Eval(o.EC, b)
		if err != nil {
			for _, done := range cols {
				done.Release()
			}
			return nil, err
		}
		cols = append(cols, c)
	}
	return ownedRecord(o.Out, cols, b.NumRows()), nil
}

// Limit skips Offset rows and then passes Count rows (Count < 0: all).
type Limit struct {
	Input  Operator
	Count  int64
	Offset int64
}

func (o *Limit) Schema() *arrow.Schema { return o.Input.Schema() }
func (o *Limit) Close()                { o.Input.Close() }

// Demand implements Demander: no more than the rows left to pass, after
// the rows left to skip.
func (o *Limit) Demand(rows int64) {
	if o.Count >= 0 && (rows == 0 || rows > o.Count) {
		rows = o.Count
	}
	if rows > 0 {
		rows += o.Offset
	}
	demandInput(o.Input, rows)
}
func (o *Limit) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		if o.Count == 0 {
			return nil, nil
		}
		b, err := o.Input.Next(ctx)
		if err != nil || b == nil {
			return b, err
		}
		n := b.NumRows()
		start := int64(0)
		if o.Offset > 0 {
			skip := min(o.Offset, n)
			o.Offset -= skip
			start = skip
		}
		end := n
		if o.Count >= 0 && end-start > o.Count {
			end = start + o.Count
		}
		if o.Count >= 0 {
			o.Count -= end - start
		}
		if start == 0 && end == n {
			return b, nil
		}
		if end <= start {
			b.Release()
			continue
		}
		out := b.NewSlice(start, end)
		b.Release()
		return out, nil
	}
}

// SortKey orders by one input column. Form says how its values compare
// where their Arrow bytes do not: bpchar (or arrays of it), whose equality
// and order (bpchareq, bpcharcmp) ignore trailing blanks ('a' and 'a  '
// are one group, one DISTINCT row, one partition and peers), and jsonb,
// in jsonb's btree order (types.KeyForm).
type SortKey struct {
	Column     int
	Desc       bool
	NullsFirst bool
	Form       types.KeyForm
}
