package relop

import (
	"bytes"
	"context"
	"math"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// FrameMode is ROWS, RANGE or GROUPS.
type FrameMode uint8

// The frame modes.
const (
	FrameRange FrameMode = iota
	FrameRows
	// FrameGroups counts offsets in peer groups.
	FrameGroups
)

// Exclusion is a frame's EXCLUDE clause: which rows around the current
// one leave its frame.
type Exclusion uint8

// The exclusions.
const (
	ExcludeNoOthers Exclusion = iota
	ExcludeCurrentRow
	ExcludeGroup // the current row and its peers
	ExcludeTies  // its peers, not itself
)

// ExcludeOf reads PostgreSQL's spelling ("" or "no others", "current
// row", "group", "ties").
func ExcludeOf(s string) Exclusion {
	switch s {
	case "current row":
		return ExcludeCurrentRow
	case "group":
		return ExcludeGroup
	case "ties":
		return ExcludeTies
	}
	return ExcludeNoOthers
}

// BoundKind is the kind of a frame bound.
type BoundKind uint8

// The frame bounds.
const (
	UnboundedPreceding BoundKind = iota
	Preceding
	CurrentRow
	Following
	UnboundedFollowing
)

// FrameBound is one end of a window frame. Offset is the n of n PRECEDING /
// n FOLLOWING: a row count in ROWS mode; in RANGE mode a distance in the
// single ORDER BY column's physical unit (integers; days for dates; the
// timestamp's unit) — or OffsetFloat for a float column.
type FrameBound struct {
	Kind        BoundKind
	Offset      int64
	OffsetFloat float64
}

// Frame is a window frame.
type Frame struct {
	Mode       FrameMode
	Start, End FrameBound
	Exclude    Exclusion
}

// normalized is f with GROUPS frames whose bounds have no offset read as
// the RANGE frame they equal (CURRENT ROW is the peer group in both), so
// that only offset GROUPS frames need peer-group counting.
func (f Frame) normalized() Frame {
	offset := func(b FrameBound) bool { return b.Kind == Preceding || b.Kind == Following }
	if f.Mode == FrameGroups && !offset(f.Start) && !offset(f.End) {
		f.Mode = FrameRange
	}
	return f
}

// DefaultFrame is PostgreSQL's default: RANGE BETWEEN UNBOUNDED PRECEDING
// AND CURRENT ROW (peers of the current row included).
var DefaultFrame = Frame{Mode: FrameRange, Start: FrameBound{Kind: UnboundedPreceding}, End: FrameBound{Kind: CurrentRow}}

// WindowSpec is one window function call.
type WindowSpec struct {
	// Func: row_number, rank, dense_rank, percent_rank, cume_dist, ntile,
	// lag, lead, first_value, last_value, nth_value, sum, avg, count, min, max.
	Func string
	// Arg is the argument column (ntile: the bucket count; -1: none, as
	// for count(*)).
	Arg int
	// Offset is lag/lead's offset column or nth_value's n column (-1: lag
	// and lead use 1).
	Offset int
	// Default is lag/lead's default column, cast to Arg's type (-1: NULL).
	Default int
	// Frame is the frame (nil: DefaultFrame); ranking functions and
	// lag/lead ignore it.
	Frame *Frame
	// Form is Arg's key form (SortKey.Form): min and max over bpchar
	// compare without trailing blanks, as the plain aggregates do.
	Form types.KeyForm
	// Money marks Arg as money: sum's overflow is money's (AggSpec.Money).
	Money bool
	// Agg is what an aggregate used as a window function takes beyond Arg
	// (nil: nothing): its FILTER, string_agg's separator, the X of the
	// (Y, X) statistics.
	Agg *WindowAggArgs
}

// WindowAggArgs are an aggregate window function's columns beyond its
// first argument, as AggSpec's fields of the same names: Filter, Sep and
// X (-1: none), Arrays for array_agg(anyarray).
type WindowAggArgs struct {
	Filter, Sep, X int
	Arrays         bool
}

// IsWindowAggregate reports whether the aggregate fn runs as a window
// function (over each row's frame, by the accumulators of HashAggregate).
func IsWindowAggregate(fn string) bool {
	switch strings.ToLower(fn) {
	case "sum", "avg", "count", "min", "max", "bit_and", "bit_or", "bit_xor", "bool_and", "bool_or", "every",
		"string_agg", "array_agg", "stddev", "stddev_samp", "stddev_pop", "variance", "var_samp", "var_pop",
		"corr", "covar_pop", "covar_samp", "regr_avgx", "regr_avgy", "regr_count", "regr_intercept", "regr_r2",
		"regr_slope", "regr_sxx", "regr_sxy", "regr_syy":
		return true
	}
	return false
}

// WindowResultType is the type of window function fn over arg.
func WindowResultType(fn string, arg types.T) (types.T, error) {
	switch strings.ToLower(fn) {
	case "row_number", "rank", "dense_rank", "count":
		return types.Int64Type, nil
	case "ntile":
		return types.Int32Type, nil
	case "percent_rank", "cume_dist":
		return types.Float64Type, nil
	case "lag", "lead", "first_value", "last_value", "nth_value":
		return arg, nil
	}
	return AggResultType(fn, arg)
}

// Window computes window functions over an input already sorted by
// PartitionBy then OrderBy. Its output is the input's columns followed by
// one column per function (Out). Partitions stream: a partition is held
// (and charged to Mem) until its last row has been read. One that Mem
// refuses goes to a spill file in SpillDir (windowspill.go) when every
// function can be computed from there; without SpillDir it fails with 53200.
type Window struct {
	clock spillClock // the spilled partition's I/O time

	Input       exec.Operator
	PartitionBy []int
	// PartitionForms are PartitionBy's key forms by position
	// (SortKey.Form; OrderBy's keys carry their own); nil: all as stored.
	PartitionForms []types.KeyForm
	OrderBy        []SortKeySpec
	Funcs          []WindowSpec
	Out            *arrow.Schema
	Mem            *MemoryAccount
	// SpillDir is where a partition larger than Mem's limit is spilled
	// ("": it fails with 53200).
	SpillDir string
	// Alloc allocates Arrow buffers (nil: memory.DefaultAllocator).
	Alloc memory.Allocator

	spilling  *spillFile // the open partition being spilled
	sp        *winSpill  // a spilled partition being emitted
	carry     arrow.RecordBatch
	inputDone bool
	spills    int

	started bool
	closed  bool
	done    bool
	hold    holding
	pending []arrow.RecordBatch
	lastKey []byte
	hasLast bool
}

func (o *Window) Schema() *arrow.Schema { return o.Out }

func (o *Window) Close() {
	if o.closed {
		return
	}
	o.closed = true
	for _, b := range o.pending {
		b.Release()
	}
	o.pending = nil
	if o.carry != nil {
		o.carry.Release()
		o.carry = nil
	}
	if o.spilling != nil {
		o.spilling.remove()
		o.spilling = nil
	}
	if o.sp != nil {
		o.sp.close()
		o.sp = nil
	}
	o.hold.releaseAll()
	o.Input.Close()
}

func (o *Window) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if o.closed || o.done {
		return nil, nil
	}
	if !o.started {
		o.started = true
		o.hold = holding{acct: o.Mem}
		if o.Out == nil || o.Out.NumFields() != o.Input.Schema().NumFields()+len(o.Funcs) {
			return nil, sqlerr.New(sqlerr.InternalError, "window: output schema must have the input's columns and one per function")
		}
		o.normalizeFrames()
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if o.sp != nil {
			out, err := o.sp.next(ctx)
			if err != nil || out != nil {
				return out, err
			}
			o.sp.close()
			o.sp = nil
			continue
		}
		var b arrow.RecordBatch
		if o.carry != nil {
			b, o.carry = o.carry, nil
		} else if !o.inputDone {
			var err error
			if b, err = o.Input.Next(ctx); err != nil {
				return nil, err
			}
		}
		if b == nil {
			o.inputDone = true
			if o.spilling != nil {
				if err := o.startSpilled(ctx); err != nil {
					return nil, err
				}
				continue
			}
			o.done = true
			return o.flush(len(o.pending), 0)
		}
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		if o.spilling != nil {
			if err := o.spillMore(ctx, b); err != nil {
				return nil, err
			}
			continue
		}
		// the start of the batch's last partition: rows before it complete
		// every pending partition
		keys, err := encodeBatchKeys(b, ascKeys(o.PartitionBy, o.PartitionForms))
		if err != nil {
			b.Release()
			return nil, err
		}
		lastStart := -1
		for i, k := range keys {
			if !o.hasLast || !bytes.Equal(k, o.lastKey) {
				lastStart = i
				o.lastKey = append(o.lastKey[:0], k...)
				o.hasLast = true
			}
		}
		o.pending = append(o.pending, b)
		boundary := lastStart > 0 || (lastStart == 0 && len(o.pending) > 1)
		if err := o.hold.grow(batchBytes(b)); err != nil {
			if o.SpillDir == "" {
				return nil, err
			}
			// over by one batch at most: complete partitions are computed
			// in memory as before, the open one goes to disk
			o.hold.force(batchBytes(b))
			if !boundary {
				if err := o.startSpilling(); err != nil {
					return nil, err
				}
				continue
			}
		}
		if boundary {
			out, err := o.flush(len(o.pending)-1, lastStart)
			if err != nil || out != nil {
				return out, err
			}
		}
	}
}

// flush computes the complete partitions: the first n pending batches and
// the first rows of pending batch n.
func (o *Window) flush(n, rows int) (arrow.RecordBatch, error) {
	mem := allocOr(o.Alloc)
	var parts []arrow.RecordBatch
	for _, b := range o.pending[:n] {
		parts = append(parts, b)
	}
	var tail arrow.RecordBatch
	if n < len(o.pending) && rows > 0 {
		tail = o.pending[n].NewSlice(0, int64(rows))
		parts = append(parts, tail)
	}
	if len(parts) == 0 {
		return nil, nil
	}
	region, err := concatBatches(mem, o.Input.Schema(), parts)
	if tail != nil {
		tail.Release()
	}
	if err != nil {
		return nil, err
	}
	defer region.Release()
	// drop what was consumed
	var rest []arrow.RecordBatch
	for i, b := range o.pending {
		switch {
		case i < n:
			b.Release()
		case i == n && rows > 0:
			rest = append(rest, b.NewSlice(int64(rows), b.NumRows()))
			b.Release()
		default:
			rest = append(rest, b)
		}
	}
	o.pending = rest
	o.hold.releaseAll()
	for _, b := range rest {
		o.hold.force(batchBytes(b))
	}
	return o.compute(mem, region)
}

// startSpilling moves the pending batches (all of one open partition) to a
// spill file.
func (o *Window) startSpilling() error {
	for _, f := range o.Funcs {
		if !winSpillable(f) {
			return winNotSpillable(f, o.Mem.Limit())
		}
	}
	f, err := newSpillFile(o.SpillDir, o.Input.Schema(), allocOr(o.Alloc), &o.clock)
	if err != nil {
		return err
	}
	o.spilling = f
	o.spills++
	for len(o.pending) > 0 {
		b := o.pending[0]
		if err := f.write(b); err != nil {
			return err // Close releases what is still pending
		}
		b.Release()
		o.pending = o.pending[1:]
	}
	o.hold.releaseAll()
	return nil
}

// spillMore appends the rows of b that belong to the spilling partition;
// at its end, the rest of b is carried over and the partition computed.
func (o *Window) spillMore(ctx context.Context, b arrow.RecordBatch) error {
	keys, err := encodeBatchKeys(b, ascKeys(o.PartitionBy, o.PartitionForms))
	if err != nil {
		b.Release()
		return err
	}
	cut := 0
	for cut < len(keys) && bytes.Equal(keys[cut], o.lastKey) {
		cut++
	}
	if cut == len(keys) {
		err := o.spilling.write(b)
		b.Release()
		return err
	}
	if cut > 0 {
		head := b.NewSlice(0, int64(cut))
		err := o.spilling.write(head)
		head.Release()
		if err != nil {
			b.Release()
			return err
		}
	}
	o.carry = b.NewSlice(int64(cut), b.NumRows())
	b.Release()
	return o.startSpilled(ctx)
}

// startSpilled computes the window functions of the spilled partition.
func (o *Window) startSpilled(ctx context.Context) error {
	f := o.spilling
	o.spilling = nil
	if err := f.finish(); err != nil {
		f.remove()
		return err
	}
	s := &winSpill{o: o, mem: allocOr(o.Alloc), in: f, n: f.rows, hold: holding{acct: o.Mem}}
	o.sp = s
	return s.compute(ctx)
}

// normalizeFrames gives each function its normalized frame (a copy: the
// spec is the caller's).
func (o *Window) normalizeFrames() {
	funcs := append([]WindowSpec(nil), o.Funcs...)
	for i := range funcs {
		if funcs[i].Frame != nil {
			fr := funcs[i].Frame.normalized()
			funcs[i].Frame = &fr
		}
	}
	o.Funcs = funcs
}

// Spills is the number of partitions that were spilled to disk.
func (o *Window) Spills() int { return o.spills }

func concatBatches(mem memory.Allocator, schema *arrow.Schema, bs []arrow.RecordBatch) (arrow.RecordBatch, error) {
	if len(bs) == 1 {
		bs[0].Retain()
		return bs[0], nil
	}
	cols := make([]arrow.Array, schema.NumFields())
	var n int64
	for _, b := range bs {
		n += b.NumRows()
	}
	for c := range cols {
		arrs := make([]arrow.Array, len(bs))
		for i, b := range bs {
			arrs[i] = b.Column(c)
		}
		a, err := array.Concatenate(arrs, mem)
		if err != nil {
			releaseAll(cols)
			return nil, err
		}
		cols[c] = a
	}
	out := array.NewRecordBatch(schema, cols, n)
	releaseAll(cols)
	return out, nil
}

// partInfo describes one partition of a region: rows [start, end) and the
// end of each row's peer group.
type partInfo struct {
	start, end int
}

func (o *Window) compute(mem memory.Allocator, region arrow.RecordBatch) (arrow.RecordBatch, error) {
	n := int(region.NumRows())
	pkeys, err := encodeBatchKeys(region, ascKeys(o.PartitionBy, o.PartitionForms))
	if err != nil {
		return nil, err
	}
	okeys, err := encodeBatchKeys(region, o.OrderBy)
	if err != nil {
		return nil, err
	}
	var parts []partInfo
	for i := 0; i < n; i++ {
		if i == 0 || !bytes.Equal(pkeys[i], pkeys[i-1]) {
			if len(parts) > 0 {
				parts[len(parts)-1].end = i
			}
			parts = append(parts, partInfo{start: i})
		}
	}
	parts[len(parts)-1].end = n
	// peer groups: peerStart[i], peerEnd[i]
	peerStart := make([]int, n)
	peerEnd := make([]int, n)
	for _, p := range parts {
		gs := p.start
		for i := p.start; i < p.end; i++ {
			if i > p.start && !bytes.Equal(okeys[i], okeys[i-1]) {
				for j := gs; j < i; j++ {
					peerEnd[j] = i
				}
				gs = i
			}
			peerStart[i] = gs
		}
		for j := gs; j < p.end; j++ {
			peerEnd[j] = p.end
		}
	}
	// peer groups numbered across the region (a group never spans two
	// partitions): groupOf[i] is row i's, groupStart[g] group g's first
	// row, groupStart[last+1] = n
	groupOf := make([]int, n)
	groupStart := make([]int, 0, 16)
	for i := 0; i < n; i++ {
		if peerStart[i] == i {
			groupStart = append(groupStart, i)
		}
		groupOf[i] = len(groupStart) - 1
	}
	groupStart = append(groupStart, n)
	w := &windowCtx{o: o, mem: mem, region: region, parts: parts, peerStart: peerStart, peerEnd: peerEnd, groupOf: groupOf, groupStart: groupStart}
	cols := append([]arrow.Array(nil), region.Columns()...)
	for _, c := range cols {
		c.Retain()
	}
	for i, f := range o.Funcs {
		a, err := w.eval(f, o.Out.Field(int(region.NumCols())+i).Type)
		if err != nil {
			releaseAll(cols)
			return nil, err
		}
		cols = append(cols, a)
	}
	out := array.NewRecordBatch(o.Out, cols, int64(n))
	releaseAll(cols)
	return out, nil
}

type windowCtx struct {
	o                  *Window
	mem                memory.Allocator
	region             arrow.RecordBatch
	parts              []partInfo
	peerStart, peerEnd []int
	groupOf            []int
	groupStart         []int
}

// span is a run of rows [lo, hi) of a frame.
type span struct{ lo, hi int }

// frameSpans returns row i's frame within partition pi as runs of rows in
// order: [start, end) less the rows its EXCLUDE clause takes out.
func (w *windowCtx) frameSpans(f *Frame, pi, i int, buf []span) ([]span, error) {
	fs, fe, err := w.frameOf(f, pi, i)
	if err != nil {
		return nil, err
	}
	buf = buf[:0]
	ex := ExcludeNoOthers
	if f != nil {
		ex = f.Exclude
	}
	var xs, xe, keep int
	switch ex {
	case ExcludeNoOthers:
		if fs < fe {
			buf = append(buf, span{fs, fe})
		}
		return buf, nil
	case ExcludeCurrentRow:
		xs, xe, keep = i, i+1, -1
	case ExcludeGroup:
		xs, xe, keep = w.peerStart[i], w.peerEnd[i], -1
	default: // ties
		xs, xe, keep = w.peerStart[i], w.peerEnd[i], i
	}
	add := func(lo, hi int) {
		if lo < hi {
			buf = append(buf, span{lo, hi})
		}
	}
	add(fs, min(fe, xs))
	if keep >= fs && keep < fe {
		add(keep, keep+1)
	}
	add(max(fs, xe), fe)
	return buf, nil
}

// frameRow finds the row first_value (rel 0), nth_value (rel n-1) or
// last_value (rel 0, fromEnd) reads in row i's frame [fs, fe), or -1.
// Without EXCLUDE it is the rel-th row from the frame's start or end. With
// one, it follows PostgreSQL's WinGetFuncArgInFrame step by step: the
// position moves once past the excluded rows (for TIES onto the current
// row), and a row the move leaves outside the frame, or excluded, reads as
// out of frame (NULL) rather than being searched past — which is why
// last_value over a frame that ends inside the current row's peers and
// excludes ties is NULL in PostgreSQL, and must be here.
func (w *windowCtx) frameRow(f *Frame, i, fs, fe, rel int, fromEnd bool) int {
	ex := ExcludeNoOthers
	if f != nil {
		ex = f.Exclude
	}
	gh, gt := w.peerStart[i], w.peerEnd[i]
	var at int
	if !fromEnd {
		at = fs + rel
		switch ex {
		case ExcludeCurrentRow:
			if at >= i && i >= fs {
				at++
			}
		case ExcludeGroup:
			if at >= gh && gt > fs {
				at += gt - max(gh, fs)
			}
		case ExcludeTies:
			if at >= gh && gt > fs {
				if ov := max(gh, fs); at == ov {
					at = i
				} else {
					at += gt - ov - 1
				}
			}
		}
	} else {
		at = fe - 1 - rel
		switch ex {
		case ExcludeCurrentRow:
			if at <= i && i < fe {
				at--
			}
		case ExcludeGroup:
			if at < gt && gh < fe {
				at -= min(gt, fe) - gh
			}
		case ExcludeTies:
			if at < gt && gh < fe {
				if ov := min(gt, fe); at == ov-1 {
					at = i
				} else {
					at -= ov - 1 - gh
				}
			}
		}
	}
	if at < fs || at >= fe {
		return -1
	}
	switch {
	case ex == ExcludeCurrentRow && at == i,
		ex == ExcludeGroup && at >= gh && at < gt,
		ex == ExcludeTies && at != i && at >= gh && at < gt:
		return -1
	}
	return at
}

func (w *windowCtx) col(i int, what string) (arrow.Array, error) {
	if i < 0 || i >= int(w.region.NumCols()) {
		return nil, sqlerr.New(sqlerr.InternalError, "window: %s column %d out of range", what, i)
	}
	return w.region.Column(i), nil
}

// intAt reads an integer argument (offset, n, bucket count); ok is false for NULL.
func intAt(a arrow.Array, i int) (int64, bool) {
	if a.IsNull(i) {
		return 0, false
	}
	get, ok := intClass(a)
	if !ok {
		return 0, false
	}
	return get(i), true
}

func (w *windowCtx) eval(f WindowSpec, outType arrow.DataType) (arrow.Array, error) {
	n := int(w.region.NumRows())
	fn := strings.ToLower(f.Func)
	switch fn {
	case "row_number", "rank", "dense_rank":
		b := array.NewInt64Builder(w.mem)
		defer b.Release()
		for _, p := range w.parts {
			dense := int64(0)
			for i := p.start; i < p.end; i++ {
				if w.peerStart[i] == i {
					dense++
				}
				switch fn {
				case "row_number":
					b.Append(int64(i - p.start + 1))
				case "rank":
					b.Append(int64(w.peerStart[i] - p.start + 1))
				default:
					b.Append(dense)
				}
			}
		}
		return b.NewArray(), nil
	case "percent_rank", "cume_dist":
		b := array.NewFloat64Builder(w.mem)
		defer b.Release()
		for _, p := range w.parts {
			size := float64(p.end - p.start)
			for i := p.start; i < p.end; i++ {
				if fn == "cume_dist" {
					b.Append(float64(w.peerEnd[i]-p.start) / size)
				} else if size <= 1 {
					b.Append(0)
				} else {
					b.Append(float64(w.peerStart[i]-p.start) / (size - 1))
				}
			}
		}
		return b.NewArray(), nil
	case "ntile":
		arg, err := w.col(f.Arg, "ntile")
		if err != nil {
			return nil, err
		}
		b := array.NewInt32Builder(w.mem)
		defer b.Release()
		for _, p := range w.parts {
			// the bucket count is read at the partition's first row, as PostgreSQL does
			k, ok := intAt(arg, p.start)
			if !ok {
				b.AppendNulls(p.end - p.start)
				continue
			}
			if k <= 0 {
				return nil, sqlerr.New("22014", "argument of ntile must be greater than zero")
			}
			nt := newNtile(int64(p.end-p.start), k)
			for i := p.start; i < p.end; i++ {
				b.Append(nt.next())
			}
		}
		return b.NewArray(), nil
	case "lag", "lead":
		arg, err := w.col(f.Arg, fn)
		if err != nil {
			return nil, err
		}
		srcs := []arrow.Array{arg}
		var off, def arrow.Array
		if f.Offset >= 0 {
			if off, err = w.col(f.Offset, "offset"); err != nil {
				return nil, err
			}
		}
		if f.Default >= 0 {
			if def, err = w.col(f.Default, "default"); err != nil {
				return nil, err
			}
			srcs = append(srcs, def)
		}
		refs := make([]rowRef, n)
		for _, p := range w.parts {
			for i := p.start; i < p.end; i++ {
				d := int64(1)
				if off != nil {
					v, ok := intAt(off, i)
					if !ok {
						refs[i] = rowRef{nullBatch, 0}
						continue
					}
					d = v
				}
				if fn == "lag" {
					d = -d
				}
				t := int64(i) + d
				switch {
				case t >= int64(p.start) && t < int64(p.end):
					refs[i] = rowRef{0, uint32(t)}
				case def != nil:
					refs[i] = rowRef{1, uint32(i)}
				default:
					refs[i] = rowRef{nullBatch, 0}
				}
			}
		}
		return gather(w.mem, outType, srcs, refs)
	case "first_value", "last_value", "nth_value":
		arg, err := w.col(f.Arg, fn)
		if err != nil {
			return nil, err
		}
		var nth arrow.Array
		if fn == "nth_value" {
			if nth, err = w.col(f.Offset, "nth_value n"); err != nil {
				return nil, err
			}
		}
		refs := make([]rowRef, n)
		for pi, p := range w.parts {
			for i := p.start; i < p.end; i++ {
				fs, fe, err := w.frameOf(f.Frame, pi, i)
				if err != nil {
					return nil, err
				}
				refs[i] = rowRef{nullBatch, 0}
				var r int
				switch fn {
				case "first_value":
					r = w.frameRow(f.Frame, i, fs, fe, 0, false)
				case "last_value":
					r = w.frameRow(f.Frame, i, fs, fe, 0, true)
				default:
					k, ok := intAt(nth, i)
					if !ok {
						continue
					}
					if k <= 0 {
						return nil, errNthValueArg()
					}
					r = -1
					if k-1 < int64(fe-fs) {
						r = w.frameRow(f.Frame, i, fs, fe, int(k-1), false)
					}
				}
				if r >= 0 {
					refs[i] = rowRef{0, uint32(r)}
				}
			}
		}
		return gather(w.mem, outType, []arrow.Array{arg}, refs)
	}
	if IsWindowAggregate(fn) {
		return w.aggregate(fn, f, outType)
	}
	return nil, sqlerr.New(sqlerr.UndefinedFunction, "window function %s does not exist", fn)
}

// aggregate computes an aggregate over each row's frame. A frame that
// starts at UNBOUNDED PRECEDING grows monotonically: rows are added once
// and the state is read at each distinct frame end. Other frames are
// aggregated row by row.
func (w *windowCtx) aggregate(fn string, f WindowSpec, outType arrow.DataType) (arrow.Array, error) {
	n := int(w.region.NumRows())
	spec := AggSpec{Func: fn, Arg: f.Arg, Filter: -1, Sep: -1, X: -1, Form: f.Form, Money: f.Money}
	var filter *array.Boolean // FILTER (WHERE ..): the rows where it is true
	if a := f.Agg; a != nil {
		spec.Sep, spec.X, spec.Arrays = a.Sep, a.X, a.Arrays
		if a.Filter >= 0 {
			c, err := w.col(a.Filter, "filter")
			if err != nil {
				return nil, err
			}
			b, ok := c.(*array.Boolean)
			if !ok {
				return nil, sqlerr.New(sqlerr.InternalError, "window %s: FILTER column is %s, not boolean", fn, c.DataType())
			}
			filter = b
		}
	}
	acc, err := newAccumulator(spec, w.region.Schema(), outType)
	if err != nil {
		return nil, err
	}
	keep := func(j int) bool { return filter == nil || (filter.IsValid(j) && filter.Value(j)) }
	cols := w.region.Columns()
	frame := DefaultFrame
	if f.Frame != nil {
		frame = *f.Frame
	}
	groups := make([]uint32, n)
	var snaps []arrow.Array
	defer func() { releaseAll(snaps) }()
	refs := make([]rowRef, n)
	var rows []int32
	// add feeds the kept rows of [lo, hi) to group g (rows is reset by the
	// caller, so one group may take several spans)
	add := func(lo, hi int, g uint32) {
		for j := lo; j < hi; j++ {
			if keep(j) {
				groups[j] = g
				rows = append(rows, int32(j))
			}
		}
	}
	update := func() error {
		if len(rows) == 0 {
			return nil
		}
		return acc.update(cols, groups, rows)
	}
	next := uint32(0)
	for pi, p := range w.parts {
		if frame.Start.Kind == UnboundedPreceding && frame.Exclude == ExcludeNoOthers {
			g := next
			next++
			acc.resize(int(next))
			fed := p.start
			lastEnd := -1
			for i := p.start; i < p.end; i++ {
				_, fe, err := w.frameOf(&frame, pi, i)
				if err != nil {
					return nil, err
				}
				if fe != lastEnd {
					if fe > fed {
						rows = rows[:0]
						add(fed, fe, g)
						if err := update(); err != nil {
							return nil, err
						}
						fed = fe
					}
					a, err := acc.finish(w.mem, []uint32{g})
					if err != nil {
						return nil, err
					}
					snaps = append(snaps, a)
					lastEnd = fe
				}
				refs[i] = rowRef{uint32(len(snaps) - 1), 0}
			}
			continue
		}
		var spans []span
		for i := p.start; i < p.end; i++ {
			spans, err = w.frameSpans(&frame, pi, i, spans)
			if err != nil {
				return nil, err
			}
			g := next
			next++
			acc.resize(int(next))
			rows = rows[:0]
			for _, s := range spans {
				add(s.lo, s.hi, g)
			}
			if err := update(); err != nil {
				return nil, err
			}
			a, err := acc.finish(w.mem, []uint32{g})
			if err != nil {
				return nil, err
			}
			snaps = append(snaps, a)
			refs[i] = rowRef{uint32(len(snaps) - 1), 0}
		}
	}
	return gather(w.mem, outType, snaps, refs)
}

// frameOf returns row i's frame [start, end) within partition pi.
func (w *windowCtx) frameOf(f *Frame, pi, i int) (int, int, error) {
	if f == nil {
		f = &DefaultFrame
	}
	p := w.parts[pi]
	var start, end int
	var err error
	switch f.Mode {
	case FrameRows:
		start = rowsBound(f.Start, i, p, true)
		end = rowsBound(f.End, i, p, false)
	case FrameGroups:
		start = w.groupsBound(f.Start, i, p, true)
		end = w.groupsBound(f.End, i, p, false)
	default:
		if start, err = w.rangeBound(f.Start, i, p, true); err != nil {
			return 0, 0, err
		}
		if end, err = w.rangeBound(f.End, i, p, false); err != nil {
			return 0, 0, err
		}
	}
	start = max(start, p.start)
	end = min(end, p.end)
	if end < start {
		end = start
	}
	return start, end, nil
}

// groupsBound finds a GROUPS bound: the first row of the peer group n
// groups before or after the current row's (start), or the end of it
// (end), clamped to the partition.
func (w *windowCtx) groupsBound(b FrameBound, i int, p partInfo, isStart bool) int {
	switch b.Kind {
	case UnboundedPreceding:
		return p.start
	case UnboundedFollowing:
		return p.end
	case CurrentRow:
		if isStart {
			return w.peerStart[i]
		}
		return w.peerEnd[i]
	}
	first, last := int64(w.groupOf[p.start]), int64(w.groupOf[p.end-1])
	g := int64(w.groupOf[i])
	if b.Kind == Preceding {
		g = satAdd(g, -b.Offset)
	} else {
		g = satAdd(g, b.Offset)
	}
	switch {
	case g < first:
		if isStart {
			return p.start
		}
		return p.start // an end before the partition: an empty frame
	case g > last:
		return p.end
	}
	if isStart {
		return w.groupStart[g]
	}
	return w.groupStart[g+1]
}

func rowsBound(b FrameBound, i int, p partInfo, isStart bool) int {
	edge := 0
	if !isStart {
		edge = 1 // an end bound includes its row
	}
	switch b.Kind {
	case UnboundedPreceding:
		return p.start
	case Preceding:
		return int(max(int64(i)-b.Offset, int64(p.start)-1)) + edge
	case CurrentRow:
		return i + edge
	case Following:
		return int(min(int64(i)+b.Offset, int64(p.end))) + edge
	}
	return p.end
}

// rangeBound finds a RANGE bound: peers for CURRENT ROW, and for n
// PRECEDING / FOLLOWING the first row whose ORDER BY value is within
// (start) or beyond (end) the offset.
func (w *windowCtx) rangeBound(b FrameBound, i int, p partInfo, isStart bool) (int, error) {
	switch b.Kind {
	case UnboundedPreceding:
		return p.start, nil
	case UnboundedFollowing:
		return p.end, nil
	case CurrentRow:
		if isStart {
			return w.peerStart[i], nil
		}
		return w.peerEnd[i], nil
	}
	if len(w.o.OrderBy) != 1 {
		return 0, sqlerr.New("42P20", "RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column")
	}
	key := w.o.OrderBy[0]
	col := w.region.Column(key.Column)
	if col.IsNull(i) {
		// a NULL row's offset frame is its NULL peers
		if isStart {
			return w.peerStart[i], nil
		}
		return w.peerEnd[i], nil
	}
	// the non-NULL rows of the partition, sorted by the key
	lo, hi := p.start, p.end
	for lo < hi && col.IsNull(lo) {
		lo++
	}
	for hi > lo && col.IsNull(hi-1) {
		hi--
	}
	// position relative to the current value: target = v -/+ offset in
	// the direction of the ordering
	sign := 1.0
	if b.Kind == Preceding {
		sign = -1
	}
	if key.Desc {
		sign = -sign
	}
	var cmp func(j int) int // compares row j's value with the target
	if get, ok := intClass(col); ok {
		v := get(i)
		off := b.Offset
		target := satAdd(v, int64(sign)*off)
		cmp = func(j int) int {
			x := get(j)
			switch {
			case x < target:
				return -1
			case x > target:
				return 1
			}
			return 0
		}
	} else if fl, ok := floatGetter(col); ok {
		target := fl(i) + sign*b.OffsetFloat
		cmp = func(j int) int { return types.CompareFloat64(fl(j), target) }
	} else {
		return 0, sqlerr.New(sqlerr.FeatureNotSupported, "RANGE with offset PRECEDING/FOLLOWING is not supported for column type %s", col.DataType())
	}
	// rows in order: "before target" means smaller for ASC, larger for DESC
	before := func(j int) bool {
		c := cmp(j)
		if key.Desc {
			c = -c
		}
		if isStart {
			return c < 0 // the frame starts at the first row not before the target
		}
		return c <= 0 // and ends after the last row not beyond it
	}
	return lo + sort.Search(hi-lo, func(k int) bool { return !before(lo + k) }), nil
}

func satAdd(a, b int64) int64 {
	s := a + b
	if (b > 0 && s < a) || (b < 0 && s > a) {
		if b > 0 {
			return math.MaxInt64
		}
		return math.MinInt64
	}
	return s
}

func floatGetter(a arrow.Array) (func(int) float64, bool) {
	switch x := a.(type) {
	case *array.Float64:
		return x.Value, true
	case *array.Float32:
		return func(i int) float64 { return float64(x.Value(i)) }, true
	}
	return nil, false
}

// ntile deals a partition's rows into k buckets in order, as PostgreSQL's
// ntile does: sizes differ by at most one, the larger buckets first.
type ntile struct {
	per, extra       int64 // rows per bucket; how many buckets get one more
	bucket, inBucket int64
}

func newNtile(rows, k int64) ntile {
	return ntile{per: rows / k, extra: rows % k, bucket: 1}
}

// next returns the bucket of the next row.
func (t *ntile) next() int32 {
	size := t.per
	if t.bucket <= t.extra {
		size++
	}
	if t.inBucket >= size {
		t.bucket++
		t.inBucket = 0
	}
	t.inBucket++
	return int32(t.bucket)
}

// errNthValueArg is nth_value's error for n <= 0, with PostgreSQL's
// SQLSTATE (22016, invalid_argument_for_nth_value_function).
func errNthValueArg() error {
	return sqlerr.New("22016", "argument of nth_value must be greater than zero")
}
