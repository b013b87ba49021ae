package relop

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// A partition that does not fit in the memory limit is written to a spill
// file and each window function is computed by a forward pass over it that
// holds a few batches: one cursor for the current row and one per other row
// the function looks at (the peer group's end, the frame's edges, the lag /
// lead target). Every such row index only grows with the current row, so
// each cursor reads the file once. Each pass writes the function's column to
// its own file, batch-aligned with the input; a last pass zips them.
//
// An aggregate over a sliding frame (its start moves: ROWS offsets, or
// RANGE from CURRENT ROW) keeps the frame's batches in a buffer (frameBuf)
// and recomputes the aggregate over the frame whenever its start moves, as
// the in-memory path does; the buffer holds the frame, not the partition.
//
// RANGE bounds with offsets come from forward cursors too (rangeBounder).
//
// A frame whose edges can move backwards, a sliding aggregate frame ending
// at UNBOUNDED FOLLOWING, first_value / last_value / nth_value over a
// RANGE frame with offsets, a GROUPS frame with offsets (one without is
// its RANGE frame, Frame.normalized) or a frame with EXCLUDE cannot be
// computed this way: it fails with
// 53200 naming the function rather than holding the partition.

// winSpillable reports whether f can be computed over a spilled partition.
func winSpillable(f WindowSpec) bool {
	if f.Agg != nil {
		return false // FILTER and the second arguments: the in-memory path's only
	}
	fr := DefaultFrame
	if f.Frame != nil {
		fr = f.Frame.normalized()
	}
	offsetBound := func(b FrameBound) bool { return b.Kind == Preceding || b.Kind == Following }
	fn := strings.ToLower(f.Func)
	switch fn {
	case "row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "lag", "lead":
		return true
	}
	if fr.Mode == FrameGroups || fr.Exclude != ExcludeNoOthers {
		// GROUPS offsets (a frame normalized otherwise has none) and
		// EXCLUDE make a frame the forward cursors do not follow
		return false
	}
	switch fn {
	case "first_value", "last_value", "nth_value":
		return fr.Mode == FrameRows || (!offsetBound(fr.Start) && !offsetBound(fr.End))
	case "sum", "avg", "count", "min", "max":
		if fr.Start.Kind == UnboundedPreceding {
			return true
		}
		// a sliding frame is recomputed from a buffer of its rows, which an
		// end at UNBOUNDED FOLLOWING would make the rest of the partition
		return fr.End.Kind != UnboundedFollowing
	}
	return false
}

func winNotSpillable(f WindowSpec, limit int64) error {
	return sqlerr.New(sqlerr.OutOfMemory, "out of memory: window function %s cannot spill a partition larger than the memory limit with its frame", strings.ToLower(f.Func)).WithDetail(
		"The query's memory limit is %d bytes; only aggregates over frames that start at UNBOUNDED PRECEDING or do not end at UNBOUNDED FOLLOWING, ROWS frames or RANGE frames without offsets (first_value, last_value, nth_value) and constant offsets (lag, lead, nth_value) are computed from a spill file; GROUPS frames with offsets and frames with EXCLUDE are not.", limit)
}

// winCursor reads a spilled partition's rows forward, through its own file
// handle.
type winCursor struct {
	f      *os.File
	r      *ipc.Reader
	schema *arrow.Schema // the spill file's, to restore extension types
	b      arrow.RecordBatch
	keys   [][]byte
	base   int64 // partition row of b's first row
	order  []SortKeySpec
	hold   *holding
	ctx    context.Context
}

func openWinCursor(ctx context.Context, sf *spillFile, order []SortKeySpec, hold *holding) (*winCursor, error) {
	if err := sf.finish(); err != nil {
		return nil, err
	}
	f, err := os.Open(sf.f.Name())
	if err != nil {
		return nil, spillErr(err)
	}
	r, err := ipc.NewReader(f, ipc.WithAllocator(sf.mem))
	if err != nil {
		_ = f.Close()
		return nil, spillErr(err)
	}
	return &winCursor{f: f, r: r, schema: sf.schema, order: order, hold: hold, ctx: ctx}, nil
}

// at positions the cursor on partition row j (never before the current
// batch); ok is false past the partition's end.
func (c *winCursor) at(j int64) (b arrow.RecordBatch, row int, ok bool, err error) {
	for c.b == nil || j >= c.base+c.b.NumRows() {
		if err := c.ctx.Err(); err != nil {
			return nil, 0, false, err
		}
		if c.b != nil {
			c.base += c.b.NumRows()
			c.drop()
		}
		if !c.r.Next() {
			if err := c.r.Err(); err != nil && err != io.EOF {
				return nil, 0, false, spillErr(err)
			}
			return nil, 0, false, nil
		}
		c.b = c.r.RecordBatch()
		c.b.Retain()
		// an earlier window's numeric output is among the spilled
		// columns: the reader gives it back as its storage
		c.b = RestoreExtensions(c.schema, c.b)
		c.hold.force(batchBytes(c.b))
		c.keys = nil
	}
	return c.b, int(j - c.base), true, nil
}

// key is the ORDER BY key of row j (after at(j)).
func (c *winCursor) key(j int64) ([]byte, error) {
	if c.keys == nil {
		k, err := encodeBatchKeys(c.b, c.order)
		if err != nil {
			return nil, err
		}
		c.keys = k
	}
	return c.keys[j-c.base], nil
}

func (c *winCursor) drop() {
	if c.b != nil {
		c.hold.shrink(batchBytes(c.b))
		c.b.Release()
		c.b = nil
	}
}

func (c *winCursor) close() {
	if c == nil || c.r == nil {
		return
	}
	c.drop()
	c.r.Release()
	_ = c.f.Close()
	c.r = nil
}

// peerFinder returns the peer group [start, end) of rows asked in order.
type peerFinder struct {
	c          *winCursor
	start, end int64
	k          []byte
}

func (p *peerFinder) of(i int64) (int64, int64, error) {
	if i < p.end {
		return p.start, p.end, nil
	}
	if _, _, ok, err := p.c.at(i); err != nil || !ok {
		return i, i + 1, err
	}
	k, err := p.c.key(i)
	if err != nil {
		return 0, 0, err
	}
	p.k = append(p.k[:0], k...)
	j := i + 1
	for {
		_, _, ok, err := p.c.at(j)
		if err != nil {
			return 0, 0, err
		}
		if !ok {
			break
		}
		k, err := p.c.key(j)
		if err != nil {
			return 0, 0, err
		}
		if !bytes.Equal(k, p.k) {
			break
		}
		j++
	}
	p.start, p.end = i, j
	return i, j, nil
}

// gatherer collects references to rows of cursor batches for one output
// batch.
type gatherer struct {
	srcs []arrow.Array
	last arrow.RecordBatch
	refs []rowRef
}

func (g *gatherer) add(b arrow.RecordBatch, col, row int) {
	if b != g.last {
		a := b.Column(col)
		a.Retain()
		g.srcs = append(g.srcs, a)
		g.last = b
	}
	g.refs = append(g.refs, rowRef{uint32(len(g.srcs) - 1), uint32(row)})
}

func (g *gatherer) addArray(a arrow.Array, row int) {
	if len(g.srcs) == 0 || g.srcs[len(g.srcs)-1] != a || g.last != nil {
		a.Retain()
		g.srcs = append(g.srcs, a)
		g.last = nil
	}
	g.refs = append(g.refs, rowRef{uint32(len(g.srcs) - 1), uint32(row)})
}

func (g *gatherer) null() { g.refs = append(g.refs, rowRef{nullBatch, 0}) }

func (g *gatherer) finish(mem memory.Allocator, dt arrow.DataType) (arrow.Array, error) {
	a, err := gather(mem, dt, g.srcs, g.refs)
	g.reset()
	return a, err
}

func (g *gatherer) reset() {
	releaseAll(g.srcs)
	g.srcs, g.last, g.refs = g.srcs[:0], nil, g.refs[:0]
}

// winSpill computes the window functions of one spilled partition and then
// returns its output batches.
type winSpill struct {
	o       *Window
	mem     memory.Allocator
	in      *spillFile
	n       int64
	outs    []*spillFile
	hold    holding
	cursors []*winCursor
	// the zip pass
	main *winCursor
	rs   []*spillReader
	row  int64
}

func (s *winSpill) cursor(ctx context.Context) (*winCursor, error) {
	c, err := openWinCursor(ctx, s.in, s.o.OrderBy, &s.hold)
	if err != nil {
		return nil, err
	}
	s.cursors = append(s.cursors, c)
	return c, nil
}

func (s *winSpill) closeCursors() {
	for _, c := range s.cursors {
		c.close()
	}
	s.cursors = s.cursors[:0]
}

func (s *winSpill) close() {
	s.closeCursors()
	s.main.close()
	for _, r := range s.rs {
		r.close()
	}
	s.rs = nil
	for _, f := range s.outs {
		f.remove()
	}
	s.outs = nil
	if s.in != nil {
		s.in.remove()
		s.in = nil
	}
	s.hold.releaseAll()
}

// compute runs one pass per function.
func (s *winSpill) compute(ctx context.Context) error {
	base := s.o.Input.Schema().NumFields()
	for i, f := range s.o.Funcs {
		dt := s.o.Out.Field(base + i).Type
		of, err := newSpillFile(s.o.SpillDir, arrow.NewSchema([]arrow.Field{{Name: "w", Type: dt, Nullable: true}}, nil), s.mem, &s.o.clock)
		if err != nil {
			return err
		}
		s.outs = append(s.outs, of)
		err = s.pass(ctx, f, dt, of)
		s.closeCursors()
		if err != nil {
			return err
		}
		if err := of.finish(); err != nil {
			return err
		}
	}
	main, err := openWinCursor(ctx, s.in, s.o.OrderBy, &s.hold)
	if err != nil {
		return err
	}
	s.main = main
	for _, of := range s.outs {
		r, err := of.open()
		if err != nil {
			return err
		}
		s.rs = append(s.rs, r)
	}
	return nil
}

// next returns the next output batch of the partition, nil at its end.
func (s *winSpill) next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b, _, ok, err := s.main.at(s.row)
	if err != nil || !ok {
		return nil, err
	}
	s.row += b.NumRows()
	cols := append([]arrow.Array(nil), b.Columns()...)
	for _, c := range cols {
		c.Retain()
	}
	for _, r := range s.rs {
		ob, err := r.next()
		if err == nil && (ob == nil || ob.NumRows() != b.NumRows()) {
			err = sqlerr.New(sqlerr.InternalError, "window: spilled result does not line up with its partition")
		}
		if err != nil {
			if ob != nil {
				ob.Release()
			}
			releaseAll(cols)
			return nil, err
		}
		c := ob.Column(0)
		c.Retain()
		ob.Release()
		cols = append(cols, c)
	}
	out := array.NewRecordBatch(s.o.Out, cols, b.NumRows())
	releaseAll(cols)
	return out, nil
}

// frameBounds gives a spilled row's frame [start, end) for the frames
// winSpillable accepts; both only grow with i.
func frameBounds(fr Frame, i, n int64, peers *peerFinder, rb *rangeBounder) (int64, int64, error) {
	bound := func(b FrameBound, isStart bool) (int64, error) {
		edge := int64(0)
		if !isStart {
			edge = 1
		}
		switch b.Kind {
		case UnboundedPreceding:
			return 0, nil
		case UnboundedFollowing:
			return n, nil
		case CurrentRow:
			if fr.Mode == FrameRows {
				return i + edge, nil
			}
			ps, pe, err := peers.of(i)
			if isStart {
				return ps, err
			}
			return pe, err
		}
		if fr.Mode == FrameRange {
			return rb.bound(b, i, isStart, peers)
		}
		switch b.Kind {
		case Preceding:
			return max(satAdd(i, -b.Offset), -1) + edge, nil
		}
		return min(satAdd(i, b.Offset), n) + edge, nil
	}
	fs, err := bound(fr.Start, true)
	if err != nil {
		return 0, 0, err
	}
	fe, err := bound(fr.End, false)
	if err != nil {
		return 0, 0, err
	}
	fs, fe = max(fs, 0), min(fe, n)
	return fs, max(fe, fs), nil
}

// rangeBounder finds RANGE n PRECEDING / FOLLOWING bounds on a spilled
// partition sorted by one column: the bound of a row is the first row at
// or beyond (start) or past (end) its value minus or plus the offset, which
// only moves forward as the current row does, so each bound is a cursor
// that reads the file once. NULL rows (together at one end) frame their
// peers.
type rangeBounder struct {
	key     SortKeySpec
	cur     *winCursor // the current row's value
	edge    [2]*winCursor
	pos     [2]int64 // each bound's current row (start, end)
	lo, hi  int64    // the non-NULL rows
	isFloat bool
}

func (s *winSpill) newRangeBounder(ctx context.Context) (*rangeBounder, error) {
	if len(s.o.OrderBy) != 1 {
		return nil, sqlerr.New("42P20", "RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column")
	}
	key := s.o.OrderBy[0]
	dt := s.in.schema.Field(key.Column).Type
	rb := &rangeBounder{key: key, isFloat: dt.ID() == arrow.FLOAT32 || dt.ID() == arrow.FLOAT64}
	if !rb.isFloat && !isIntClass(dt) {
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "RANGE with offset PRECEDING/FOLLOWING is not supported for column type %s", dt)
	}
	// one pass finds the non-NULL rows
	c, err := s.cursor(ctx)
	if err != nil {
		return nil, err
	}
	rb.lo, rb.hi = -1, 0
	for j := int64(0); ; {
		b, _, ok, err := c.at(j)
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		a := b.Column(key.Column)
		for r := 0; r < a.Len(); r++ {
			if a.IsValid(r) {
				if rb.lo < 0 {
					rb.lo = j + int64(r)
				}
				rb.hi = j + int64(r) + 1
			}
		}
		j += b.NumRows()
	}
	if rb.lo < 0 {
		rb.lo = 0
	}
	rb.pos = [2]int64{rb.lo, rb.lo}
	if rb.cur, err = s.cursor(ctx); err != nil {
		return nil, err
	}
	for k := range rb.edge {
		if rb.edge[k], err = s.cursor(ctx); err != nil {
			return nil, err
		}
	}
	return rb, nil
}

// value reads row j's key through cursor c (valid: not NULL).
func (rb *rangeBounder) value(c *winCursor, j int64) (iv int64, fv float64, valid bool, err error) {
	b, r, ok, err := c.at(j)
	if err != nil || !ok {
		return 0, 0, false, err
	}
	a := b.Column(rb.key.Column)
	if a.IsNull(r) {
		return 0, 0, false, nil
	}
	if rb.isFloat {
		get, _ := floatGetter(a)
		return 0, get(r), true, nil
	}
	get, _ := intClass(a)
	return get(r), 0, true, nil
}

// bound is row i's RANGE offset bound b (rows asked in order).
func (rb *rangeBounder) bound(b FrameBound, i int64, isStart bool, peers *peerFinder) (int64, error) {
	iv, fv, valid, err := rb.value(rb.cur, i)
	if err != nil {
		return 0, err
	}
	if !valid {
		ps, pe, err := peers.of(i)
		if isStart {
			return ps, err
		}
		return pe, err
	}
	sign := int64(1)
	if b.Kind == Preceding {
		sign = -1
	}
	if rb.key.Desc {
		sign = -sign
	}
	ti := satAdd(iv, sign*b.Offset)
	tf := fv + float64(sign)*b.OffsetFloat
	k := 0
	if !isStart {
		k = 1
	}
	// advance while the row is before the target: smaller for ASC, larger
	// for DESC; the start stops at the first row not before it, the end
	// after the last row not beyond it
	for ; rb.pos[k] < rb.hi; rb.pos[k]++ {
		xi, xf, _, err := rb.value(rb.edge[k], rb.pos[k])
		if err != nil {
			return 0, err
		}
		var c int
		if rb.isFloat {
			c = types.CompareFloat64(xf, tf)
		} else {
			switch {
			case xi < ti:
				c = -1
			case xi > ti:
				c = 1
			}
		}
		if rb.key.Desc {
			c = -c
		}
		if (isStart && c >= 0) || (!isStart && c > 0) {
			break
		}
	}
	return rb.pos[k], nil
}

// frameBuf holds the batches of a sliding frame, read forward through its
// own cursor; batches before the frame's start are dropped.
type frameBuf struct {
	c    *winCursor
	hold *holding
	bs   []arrow.RecordBatch
	base []int64 // partition row of each batch's first row
	end  int64   // rows loaded: [base[0], end)
}

// feed gives the accumulator rows [from, to) of the partition, after
// dropping the batches before start (start <= from) and loading up to to.
func (f *frameBuf) feed(acc accumulator, start, from, to int64, groups *[]uint32, rows *[]int32) error {
	for len(f.bs) > 0 && f.base[0]+f.bs[0].NumRows() <= start {
		f.hold.shrink(batchBytes(f.bs[0]))
		f.bs[0].Release()
		f.bs, f.base = f.bs[1:], f.base[1:]
	}
	for f.end < to {
		b, r, ok, err := f.c.at(f.end)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		b.Retain()
		f.hold.force(batchBytes(b))
		f.bs = append(f.bs, b)
		f.base = append(f.base, f.end-int64(r))
		f.end += b.NumRows() - int64(r)
	}
	for k, b := range f.bs {
		lo, hi := max(from, f.base[k]), min(to, f.base[k]+b.NumRows())
		if lo >= hi {
			continue
		}
		if len(*groups) < int(b.NumRows()) {
			*groups = make([]uint32, b.NumRows())
		}
		rs := (*rows)[:0]
		for j := lo; j < hi; j++ {
			rs = append(rs, int32(j-f.base[k]))
		}
		*rows = rs
		if err := acc.update(b.Columns(), *groups, rs); err != nil {
			return err
		}
	}
	return nil
}

func (f *frameBuf) release() {
	for _, b := range f.bs {
		f.hold.shrink(batchBytes(b))
		b.Release()
	}
	f.bs, f.base = nil, nil
}

// constantInt checks that column col holds one value on its non-NULL rows
// (lag/lead offsets, nth_value's n): only then is the looked-at row a
// monotone function of the current row.
func (s *winSpill) constantInt(ctx context.Context, col int, f WindowSpec) (int64, error) {
	c, err := s.cursor(ctx)
	if err != nil {
		return 0, err
	}
	var v int64
	seen := false
	for j := int64(0); ; {
		b, _, ok, err := c.at(j)
		if err != nil {
			return 0, err
		}
		if !ok {
			return v, nil
		}
		a := b.Column(col)
		for r := 0; r < int(b.NumRows()); r++ {
			x, ok := intAt(a, r)
			if !ok {
				continue
			}
			if seen && x != v {
				return 0, winNotSpillable(f, s.o.Mem.Limit())
			}
			v, seen = x, true
		}
		j += b.NumRows()
	}
}

// pass computes function f over the spilled partition into of.
func (s *winSpill) pass(ctx context.Context, f WindowSpec, dt arrow.DataType, of *spillFile) error {
	fn := strings.ToLower(f.Func)
	ncols := s.in.schema.NumFields()
	colOK := func(c int, what string) error {
		if c < 0 || c >= ncols {
			return sqlerr.New(sqlerr.InternalError, "window: %s column %d out of range", what, c)
		}
		return nil
	}
	frame := DefaultFrame
	if f.Frame != nil {
		frame = *f.Frame
	}
	var err error
	var peers *peerFinder
	needPeers := fn == "rank" || fn == "dense_rank" || fn == "percent_rank" || fn == "cume_dist" ||
		(frame.Mode == FrameRange && (frame.Start.Kind != UnboundedPreceding || frame.End.Kind != UnboundedFollowing))
	if needPeers {
		pc, err := s.cursor(ctx)
		if err != nil {
			return err
		}
		peers = &peerFinder{c: pc, end: 0}
	}
	var rb *rangeBounder
	offsetBound := func(b FrameBound) bool { return b.Kind == Preceding || b.Kind == Following }
	if frame.Mode == FrameRange && (offsetBound(frame.Start) || offsetBound(frame.End)) {
		if rb, err = s.newRangeBounder(ctx); err != nil {
			return err
		}
	}
	// per-function state
	var (
		dense     int64
		nt        ntile
		ntileNull bool
		d         int64 // lag/lead distance (signed)
		target    *winCursor
		acc       accumulator
		fed       int64
		lastEnd   = int64(-1)
		snap      arrow.Array
		groups    []uint32
		rows      []int32
		g         gatherer
		fb        *frameBuf
		newAcc    func() (accumulator, error)
		lastStart = int64(-1)
	)
	defer g.reset()
	defer func() {
		if snap != nil {
			snap.Release()
		}
	}()
	switch fn {
	case "lag", "lead", "first_value", "last_value", "nth_value":
		if err := colOK(f.Arg, fn); err != nil {
			return err
		}
		if target, err = s.cursor(ctx); err != nil {
			return err
		}
		switch fn {
		case "lag", "lead":
			d = 1
			if f.Offset >= 0 {
				if err := colOK(f.Offset, "offset"); err != nil {
					return err
				}
				if d, err = s.constantInt(ctx, f.Offset, f); err != nil {
					return err
				}
			}
			if f.Default >= 0 {
				if err := colOK(f.Default, "default"); err != nil {
					return err
				}
			}
			if fn == "lag" {
				d = -d
			}
		case "nth_value":
			if err := colOK(f.Offset, "nth_value n"); err != nil {
				return err
			}
			if _, err = s.constantInt(ctx, f.Offset, f); err != nil {
				return err
			}
		}
	case "sum", "avg", "count", "min", "max":
		spec := AggSpec{Func: fn, Arg: f.Arg, Filter: -1, Sep: -1, Form: f.Form, Money: f.Money}
		if acc, err = newAccumulator(spec, s.in.schema, dt); err != nil {
			return err
		}
		acc.resize(1)
		if target, err = s.cursor(ctx); err != nil {
			return err
		}
		if frame.Start.Kind != UnboundedPreceding {
			fb = &frameBuf{c: target, hold: &s.hold}
			defer fb.release()
			newAcc = func() (accumulator, error) {
				a, err := newAccumulator(spec, s.in.schema, dt)
				if err == nil {
					a.resize(1)
				}
				return a, err
			}
		}
	}
	main, err := s.cursor(ctx)
	if err != nil {
		return err
	}
	var i int64
	for {
		b, _, ok, err := main.at(i)
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		nb := int(b.NumRows())
		var out arrow.Array
		switch fn {
		case "row_number", "rank", "dense_rank", "ntile":
			bl := array.NewInt64Builder(s.mem)
			var b32 *array.Int32Builder
			if fn == "ntile" {
				b32 = array.NewInt32Builder(s.mem)
			}
			for r := 0; r < nb; r++ {
				row := i + int64(r)
				switch fn {
				case "row_number":
					bl.Append(row + 1)
				case "ntile":
					if row == 0 {
						if err := colOK(f.Arg, "ntile"); err != nil {
							return err
						}
						k, ok := intAt(b.Column(f.Arg), 0)
						ntileNull = !ok
						if ok && k <= 0 {
							return sqlerr.New("22014", "argument of ntile must be greater than zero")
						}
						if ok {
							nt = newNtile(s.n, k)
						}
					}
					if ntileNull {
						b32.AppendNull()
						continue
					}
					b32.Append(nt.next())
				default:
					ps, _, err := peers.of(row)
					if err != nil {
						return err
					}
					if ps == row {
						dense++
					}
					if fn == "rank" {
						bl.Append(ps + 1)
					} else {
						bl.Append(dense)
					}
				}
			}
			if b32 != nil {
				out = b32.NewArray()
				b32.Release()
			} else {
				out = bl.NewArray()
			}
			bl.Release()
		case "percent_rank", "cume_dist":
			bl := array.NewFloat64Builder(s.mem)
			for r := 0; r < nb; r++ {
				row := i + int64(r)
				ps, pe, err := peers.of(row)
				if err != nil {
					bl.Release()
					return err
				}
				switch {
				case fn == "cume_dist":
					bl.Append(float64(pe) / float64(s.n))
				case s.n <= 1:
					bl.Append(0)
				default:
					bl.Append(float64(ps) / float64(s.n-1))
				}
			}
			out = bl.NewArray()
			bl.Release()
		case "lag", "lead":
			for r := 0; r < nb; r++ {
				row := i + int64(r)
				if f.Offset >= 0 && b.Column(f.Offset).IsNull(r) {
					g.null()
					continue
				}
				t := satAdd(row, d)
				if t >= 0 && t < s.n {
					tb, tr, ok, err := target.at(t)
					if err != nil {
						return err
					}
					if ok {
						g.add(tb, f.Arg, tr)
						continue
					}
				}
				if f.Default >= 0 {
					g.addArray(b.Column(f.Default), r)
				} else {
					g.null()
				}
			}
			if out, err = g.finish(s.mem, dt); err != nil {
				return err
			}
		case "first_value", "last_value", "nth_value":
			for r := 0; r < nb; r++ {
				row := i + int64(r)
				fs, fe, err := frameBounds(frame, row, s.n, peers, rb)
				if err != nil {
					return err
				}
				t := int64(-1)
				switch fn {
				case "first_value":
					if fs < fe {
						t = fs
					}
				case "last_value":
					if fs < fe {
						t = fe - 1
					}
				default:
					k, ok := intAt(b.Column(f.Offset), r)
					if !ok {
						break
					}
					if k <= 0 {
						return errNthValueArg()
					}
					if satAdd(fs, k-1) < fe {
						t = fs + k - 1
					}
				}
				if t < 0 {
					g.null()
					continue
				}
				tb, tr, ok, err := target.at(t)
				if err != nil {
					return err
				}
				if !ok {
					g.null()
					continue
				}
				g.add(tb, f.Arg, tr)
			}
			if out, err = g.finish(s.mem, dt); err != nil {
				return err
			}
		case "sum", "avg", "count", "min", "max":
			for r := 0; r < nb; r++ {
				row := i + int64(r)
				fs, fe, err := frameBounds(frame, row, s.n, peers, rb)
				if err != nil {
					return err
				}
				if fb != nil {
					if fs != lastStart || fe != lastEnd {
						if snap != nil {
							snap.Release()
							snap = nil
						}
						if fs != lastStart || fe < lastEnd {
							// the start moved: recompute over the frame
							if acc, err = newAcc(); err != nil {
								return err
							}
							fed = fs
						}
						if err := fb.feed(acc, fs, fed, fe, &groups, &rows); err != nil {
							return err
						}
						fed = max(fed, fe)
						if snap, err = acc.finish(s.mem, []uint32{0}); err != nil {
							snap = nil
							return err
						}
						lastStart, lastEnd = fs, fe
					}
					g.addArray(snap, 0)
					continue
				}
				if fe != lastEnd {
					for fed < fe {
						tb, tr, ok, err := target.at(fed)
						if err != nil {
							return err
						}
						if !ok {
							break
						}
						cnt := min(fe-fed, tb.NumRows()-int64(tr))
						if len(groups) < int(tb.NumRows()) {
							groups = make([]uint32, tb.NumRows())
						}
						rows = rows[:0]
						for j := tr; j < tr+int(cnt); j++ {
							rows = append(rows, int32(j))
						}
						if err := acc.update(tb.Columns(), groups, rows); err != nil {
							return err
						}
						fed += cnt
					}
					if snap != nil {
						snap.Release()
					}
					if snap, err = acc.finish(s.mem, []uint32{0}); err != nil {
						snap = nil
						return err
					}
					lastEnd = fe
				}
				g.addArray(snap, 0)
			}
			if out, err = g.finish(s.mem, dt); err != nil {
				return err
			}
		default:
			return winNotSpillable(f, s.o.Mem.Limit())
		}
		ob := array.NewRecordBatch(of.schema, []arrow.Array{out}, int64(nb))
		out.Release()
		err = of.write(ob)
		ob.Release()
		if err != nil {
			return err
		}
		i += int64(nb)
	}
}
