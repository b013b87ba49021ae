package relop

import (
	"context"
	"encoding/binary"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/types"
)

// rowRef names row r of source batch b; b == nullBatch stands for a row of
// NULLs (the missing side of an outer join).
type rowRef struct{ b, r uint32 }

const nullBatch = ^uint32(0)

// defaultBatchRows is the size of the batches operators emit.
const defaultBatchRows = 8192

// gatherBatch builds a batch of schema from the referenced rows of srcs.
func gatherBatch(mem memory.Allocator, schema *arrow.Schema, srcs []arrow.RecordBatch, refs []rowRef) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, schema.NumFields())
	arrs := make([]arrow.Array, len(srcs))
	for c := range cols {
		for i, s := range srcs {
			arrs[i] = s.Column(c)
		}
		a, err := gather(mem, schema.Field(c).Type, arrs, refs)
		if err != nil {
			releaseAll(cols[:c])
			return nil, err
		}
		cols[c] = a
	}
	out := array.NewRecordBatch(schema, cols, int64(len(refs)))
	releaseAll(cols)
	return out, nil
}

func releaseAll(as []arrow.Array) {
	for _, a := range as {
		if a != nil {
			a.Release()
		}
	}
}

// gather builds an array of type dt from the referenced rows of srcs, with
// typed loops over the source buffers for the scalar types.
func gather(mem memory.Allocator, dt arrow.DataType, srcs []arrow.Array, refs []rowRef) (arrow.Array, error) {
	switch exec.FixedWidth(dt) {
	case 1:
		return gatherFixed[uint8](mem, dt, srcs, refs), nil
	case 2:
		return gatherFixed[uint16](mem, dt, srcs, refs), nil
	case 4:
		return gatherFixed[uint32](mem, dt, srcs, refs), nil
	case 8:
		return gatherFixed[uint64](mem, dt, srcs, refs), nil
	case 16:
		return gatherFixed[[2]uint64](mem, dt, srcs, refs), nil
	}
	switch dt.ID() {
	case arrow.STRING, arrow.BINARY:
		return gatherVarBinary(mem, dt, srcs, refs), nil
	case arrow.BOOL:
		return gatherBool(mem, srcs, refs), nil
	}
	return gatherByTake(mem, dt, srcs, refs)
}

// gatherIdx builds an array of type dt from the rows idx of one source
// (a join's pairs: no NULL rows to add).
func gatherIdx(mem memory.Allocator, dt arrow.DataType, src arrow.Array, idx []uint32) (arrow.Array, error) {
	switch exec.FixedWidth(dt) {
	case 1:
		return gatherFixedIdx[uint8](mem, dt, src, idx), nil
	case 2:
		return gatherFixedIdx[uint16](mem, dt, src, idx), nil
	case 4:
		return gatherFixedIdx[uint32](mem, dt, src, idx), nil
	case 8:
		return gatherFixedIdx[uint64](mem, dt, src, idx), nil
	case 16:
		return gatherFixedIdx[[2]uint64](mem, dt, src, idx), nil
	}
	refs := make([]rowRef, len(idx))
	for i, r := range idx {
		refs[i] = rowRef{0, r}
	}
	return gather(mem, dt, []arrow.Array{src}, refs)
}

func gatherFixedIdx[T any](mem memory.Allocator, dt arrow.DataType, src arrow.Array, idx []uint32) arrow.Array {
	n := len(idx)
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n * exec.FixedWidth(dt))
	out := castBytes[T](buf.Bytes())[:n]
	vals := fixedSlice[T](src)
	if src.NullN() == 0 {
		for i, r := range idx {
			out[i] = vals[r]
		}
		return fixedWidthArray(dt, n, nil, buf, 0)
	}
	vbuf, bits := newValidity(mem, n)
	var zero T
	nulls := 0
	for i, r := range idx {
		if src.IsNull(int(r)) {
			out[i] = zero
			nulls++
			continue
		}
		bitutil.SetBit(bits, i)
		out[i] = vals[r]
	}
	return fixedWidthArray(dt, n, vbuf, buf, nulls)
}

// castInt32s views non-negative int32s as uint32s.
func castInt32s(s []int32) []uint32 {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(&s[0])), len(s))
}

// scatterable reports whether scatterBatch can reorder batches of schema
// (without arrow-go's kernels, which may fail).
func scatterable(schema *arrow.Schema) bool {
	for _, f := range schema.Fields() {
		switch id := f.Type.ID(); {
		case exec.FixedWidth(f.Type) > 0, id == arrow.STRING, id == arrow.BINARY, id == arrow.BOOL:
		default:
			return false
		}
	}
	return true
}

// scatterBatch builds one batch of schema from the rows of srcs, taken in
// order as if concatenated, row r landing at position dst[r] (dst is a
// permutation). Fixed-width columns are read in order and written to
// their destinations, which is cheaper than a gather's random reads when
// the destinations form a few sequential streams (a radix partitioning);
// other types (scatterable ones only) are gathered through the inverse
// permutation. pre (nil, or one entry per column) gives columns the caller
// has already built in destination order; scatterBatch takes over their
// references.
func scatterBatch(mem memory.Allocator, schema *arrow.Schema, srcs []arrow.RecordBatch, dst []uint32, pre []arrow.Array) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, schema.NumFields())
	copy(cols, pre)
	arrs := make([]arrow.Array, len(srcs))
	var inv []rowRef
	for c := range cols {
		if cols[c] != nil {
			continue
		}
		for i, s := range srcs {
			arrs[i] = s.Column(c)
		}
		dt := schema.Field(c).Type
		switch exec.FixedWidth(dt) {
		case 1:
			cols[c] = scatterFixed[uint8](mem, dt, arrs, dst)
		case 2:
			cols[c] = scatterFixed[uint16](mem, dt, arrs, dst)
		case 4:
			cols[c] = scatterFixed[uint32](mem, dt, arrs, dst)
		case 8:
			cols[c] = scatterFixed[uint64](mem, dt, arrs, dst)
		case 16:
			cols[c] = scatterFixed[[2]uint64](mem, dt, arrs, dst)
		default:
			if inv == nil {
				inv = inverseRefs(srcs, dst)
			}
			a, err := gather(mem, dt, arrs, inv)
			if err != nil {
				releaseAll(cols)
				return nil, err
			}
			cols[c] = a
		}
	}
	out := array.NewRecordBatch(schema, cols, int64(len(dst)))
	releaseAll(cols)
	return out, nil
}

// inverseRefs is the source row of each destination of scatterBatch.
func inverseRefs(srcs []arrow.RecordBatch, dst []uint32) []rowRef {
	inv := make([]rowRef, len(dst))
	base := 0
	for b, s := range srcs {
		for i := range int(s.NumRows()) {
			inv[dst[base+i]] = rowRef{uint32(b), uint32(i)}
		}
		base += int(s.NumRows())
	}
	return inv
}

func scatterFixed[T any](mem memory.Allocator, dt arrow.DataType, srcs []arrow.Array, dst []uint32) arrow.Array {
	n := len(dst)
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n * exec.FixedWidth(dt))
	out := castBytes[T](buf.Bytes())[:n]
	var vbuf *memory.Buffer
	var bits []byte
	for _, s := range srcs {
		if s.NullN() > 0 {
			vbuf, bits = newValidity(mem, n)
			break
		}
	}
	var zero T
	nulls, base := 0, 0
	for _, s := range srcs {
		d := dst[base : base+s.Len()]
		base += s.Len()
		vals := fixedSlice[T](s)
		if s.NullN() == 0 {
			for i, w := range d {
				out[w] = vals[i]
			}
			if bits != nil {
				for _, w := range d {
					bitutil.SetBit(bits, int(w))
				}
			}
			continue
		}
		for i, w := range d {
			if s.IsNull(i) {
				out[w] = zero
				nulls++
				continue
			}
			bitutil.SetBit(bits, int(w))
			out[w] = vals[i]
		}
	}
	return fixedWidthArray(dt, n, vbuf, buf, nulls)
}

// validityFor allocates the output validity bitmap when any referenced row
// may be NULL (nil otherwise), filled in by the caller.
func needsValidity(srcs []arrow.Array, refs []rowRef) bool {
	for _, s := range srcs {
		if s.NullN() > 0 {
			return true
		}
	}
	for _, r := range refs {
		if r.b == nullBatch {
			return true
		}
	}
	return false
}

func newValidity(mem memory.Allocator, n int) (*memory.Buffer, []byte) {
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(int(bitutil.BytesForBits(int64(n))))
	bs := buf.Bytes()
	for i := range bs {
		bs[i] = 0
	}
	return buf, bs
}

func fixedSlice[T any](a arrow.Array) []T {
	d := a.Data()
	if d.Buffers()[1] == nil {
		return nil
	}
	vs := castBytes[T](d.Buffers()[1].Bytes())
	return vs[d.Offset() : d.Offset()+d.Len()]
}

func gatherFixed[T any](mem memory.Allocator, dt arrow.DataType, srcs []arrow.Array, refs []rowRef) arrow.Array {
	n := len(refs)
	vals := make([][]T, len(srcs))
	for i, s := range srcs {
		vals[i] = fixedSlice[T](s)
	}
	var zero T
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n * exec.FixedWidth(dt))
	out := castBytes[T](buf.Bytes())[:n]
	var vbuf *memory.Buffer
	nulls := 0
	if needsValidity(srcs, refs) {
		var bits []byte
		vbuf, bits = newValidity(mem, n)
		for i, r := range refs {
			if r.b == nullBatch || srcs[r.b].IsNull(int(r.r)) {
				out[i] = zero
				nulls++
				continue
			}
			bitutil.SetBit(bits, i)
			out[i] = vals[r.b][r.r]
		}
	} else if len(srcs) == 1 {
		v := vals[0]
		for i, r := range refs {
			out[i] = v[r.r]
		}
	} else {
		for i, r := range refs {
			out[i] = vals[r.b][r.r]
		}
	}
	return fixedWidthArray(dt, n, vbuf, buf, nulls)
}

// A short text view packs each row of a text or bytea column whose values
// are all at most 7 bytes into one word: the length in the low byte
// (shortNull for NULL), the bytes above it. A join's output gathers such a
// build column (codes, countries, flags: often what it groups by) with one
// read of 8 bytes a row at the row's number, instead of reading the row's
// location, its two offsets and its bytes (gatherVarBinary): the build
// rows are read in the probe's random order, so each of those reads is a
// cache miss.
const shortNull = 0x80

// shortTextView is column c of batches (rows rows in all) as a short text
// view, row r of the concatenation at r; nil when a value is longer than 7
// bytes.
func shortTextView(batches []arrow.RecordBatch, c, rows int) []uint64 {
	view := make([]uint64, 0, rows)
	for _, b := range batches {
		col := b.Column(c).(varBinary)
		offs, data := col.ValueOffsets(), col.ValueBytes()
		base := offs[0]
		nulls := col.NullN() > 0
		for i := range col.Len() {
			lo, hi := offs[i]-base, offs[i+1]-base
			if nulls && col.IsNull(i) {
				view = append(view, shortNull)
				continue
			}
			if hi-lo > 7 {
				return nil
			}
			var w uint64
			for j := hi - 1; j >= lo; j-- {
				w = w<<8 | uint64(data[j])
			}
			view = append(view, w<<8|uint64(hi-lo))
		}
	}
	return view
}

// gatherShort builds a text or bytea array of type dt from the rows of a
// short text view (shortTextView).
func gatherShort(mem memory.Allocator, dt arrow.DataType, view []uint64, rows []int32) arrow.Array {
	n := len(rows)
	obuf := memory.NewResizableBuffer(mem)
	obuf.Resize((n + 1) * 4)
	outOffs := arrow.Int32Traits.CastFromBytes(obuf.Bytes())[:n+1]
	dbuf := memory.NewResizableBuffer(mem)
	dbuf.Resize(n*7 + 8) // each value's word is written whole
	out := dbuf.Bytes()
	pos, nulls := 0, 0
	var vbuf *memory.Buffer
	var bits []byte
	for i, r := range rows {
		w := view[r]
		outOffs[i] = int32(pos)
		if w&shortNull != 0 {
			if vbuf == nil {
				vbuf, bits = newValidity(mem, n)
				bitutil.SetBitsTo(bits, 0, int64(i), true)
			}
			nulls++
			continue
		}
		if vbuf != nil {
			bitutil.SetBit(bits, i)
		}
		binary.LittleEndian.PutUint64(out[pos:], w>>8)
		pos += int(w & 7)
	}
	outOffs[n] = int32(pos)
	dbuf.ResizeNoShrink(pos)
	d := array.NewData(dt, n, []*memory.Buffer{vbuf, obuf, dbuf}, nil, nulls, 0)
	obuf.Release()
	dbuf.Release()
	if vbuf != nil {
		vbuf.Release()
	}
	defer d.Release()
	return array.MakeFromData(d)
}

// wordSlack is how long a value gatherVarBinary copies as two words.
const wordSlack = 16

type varBinary interface {
	arrow.Array
	ValueBytes() []byte
	ValueOffsets() []int32
}

func gatherVarBinary(mem memory.Allocator, dt arrow.DataType, srcs []arrow.Array, refs []rowRef) arrow.Array {
	n := len(refs)
	offs := make([][]int32, len(srcs))
	data := make([][]byte, len(srcs))
	bytes, rows := 0, 0
	for i, s := range srcs {
		vb := s.(varBinary)
		offs[i], data[i] = vb.ValueOffsets(), vb.ValueBytes()
		bytes, rows = bytes+len(data[i]), rows+s.Len()
	}
	// one pass over the referenced rows (the values' offsets are random
	// reads; a first pass summing their lengths read them twice): the
	// value bytes are sized for the sources' mean length and a quarter
	// more, and grown when the values taken are longer
	est := wordSlack
	if rows > 0 {
		est += int(int64(bytes) * int64(n) / int64(rows) * 5 / 4)
	}
	obuf := memory.NewResizableBuffer(mem)
	obuf.Resize((n + 1) * 4)
	outOffs := arrow.Int32Traits.CastFromBytes(obuf.Bytes())[:n+1]
	dbuf := memory.NewResizableBuffer(mem)
	// wordSlack bytes past the values: a short value is copied as two
	// 8-byte words whatever its length (see below)
	dbuf.Resize(est)
	outData := dbuf.Bytes()[:est]
	var vbuf *memory.Buffer
	var bits []byte
	withNulls := needsValidity(srcs, refs)
	if withNulls {
		vbuf, bits = newValidity(mem, n)
	}
	nulls, pos := 0, 0
	for i, r := range refs {
		outOffs[i] = int32(pos)
		if withNulls {
			if r.b == nullBatch || srcs[r.b].IsNull(int(r.r)) {
				nulls++
				continue
			}
			bitutil.SetBit(bits, i)
		}
		o := offs[r.b]
		// ValueBytes starts at the array's first value's offset
		base := o[0]
		lo, hi := int(o[r.r]-base), int(o[r.r+1]-base)
		src := data[r.b]
		if need := pos + hi - lo + wordSlack; need > len(outData) {
			dbuf.Resize(max(need, 2*len(outData)))
			outData = dbuf.Bytes()
		}
		if hi-lo <= wordSlack && lo+wordSlack <= len(src) {
			// most values are short (codes, names): two word copies,
			// whose excess the next value overwrites, instead of a call
			// of memmove per value
			binary.LittleEndian.PutUint64(outData[pos:], binary.LittleEndian.Uint64(src[lo:]))
			binary.LittleEndian.PutUint64(outData[pos+8:], binary.LittleEndian.Uint64(src[lo+8:]))
			pos += hi - lo
			continue
		}
		pos += copy(outData[pos:], src[lo:hi])
	}
	dbuf.ResizeNoShrink(pos)
	outOffs[n] = int32(pos)
	d := array.NewData(dt, n, []*memory.Buffer{vbuf, obuf, dbuf}, nil, nulls, 0)
	obuf.Release()
	dbuf.Release()
	if vbuf != nil {
		vbuf.Release()
	}
	defer d.Release()
	return array.MakeFromData(d)
}

func gatherBool(mem memory.Allocator, srcs []arrow.Array, refs []rowRef) arrow.Array {
	n := len(refs)
	vb, vals := newValidity(mem, n)
	var nb *memory.Buffer
	var bits []byte
	withNulls := needsValidity(srcs, refs)
	if withNulls {
		nb, bits = newValidity(mem, n)
	}
	bs := make([]*array.Boolean, len(srcs))
	for i, s := range srcs {
		bs[i] = s.(*array.Boolean)
	}
	nulls := 0
	for i, r := range refs {
		if withNulls {
			if r.b == nullBatch || bs[r.b].IsNull(int(r.r)) {
				nulls++
				continue
			}
			bitutil.SetBit(bits, i)
		}
		if bs[r.b].Value(int(r.r)) {
			bitutil.SetBit(vals, i)
		}
	}
	d := array.NewData(arrow.FixedWidthTypes.Boolean, n, []*memory.Buffer{nb, vb}, nil, nulls, 0)
	vb.Release()
	if nb != nil {
		nb.Release()
	}
	defer d.Release()
	return array.MakeFromData(d)
}

// gatherByTake handles the remaining (nested) types with arrow-go's
// concatenate and take kernels.
func gatherByTake(mem memory.Allocator, dt arrow.DataType, srcs []arrow.Array, refs []rowRef) (arrow.Array, error) {
	if len(srcs) == 0 {
		b := array.NewBuilder(mem, dt)
		defer b.Release()
		b.AppendNulls(len(refs))
		return b.NewArray(), nil
	}
	if exec.HoldsInterval(dt) {
		return gatherByValue(mem, dt, srcs, refs)
	}
	all, err := array.Concatenate(srcs, mem)
	if err != nil {
		return nil, err
	}
	defer all.Release()
	starts := make([]int64, len(srcs))
	var acc int64
	for i, s := range srcs {
		starts[i] = acc
		acc += int64(s.Len())
	}
	ib := array.NewInt64Builder(mem)
	defer ib.Release()
	ib.Reserve(len(refs))
	for _, r := range refs {
		if r.b == nullBatch {
			ib.AppendNull()
		} else {
			ib.UnsafeAppend(starts[r.b] + int64(r.r))
		}
	}
	idx := ib.NewArray()
	defer idx.Release()
	return compute.TakeArray(compute.WithAllocator(context.Background(), mem), all, idx)
}

// castBytes views a buffer as a slice of fixed-width values.
func castBytes[T any](b []byte) []T {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if len(b) < size {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(b)/size)
}

// asBytes views fixed-width values as their bytes (castBytes's converse).
func asBytes[T any](s []T) []byte {
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(zero)))
}

// fixedWidthArray makes an array of n fixed-width values from its validity
// (nil when nulls is 0) and value buffers, taking over the caller's
// references to them.
func fixedWidthArray(dt arrow.DataType, n int, vbuf, buf *memory.Buffer, nulls int) arrow.Array {
	data := array.NewData(dt, n, []*memory.Buffer{vbuf, buf}, nil, nulls, 0)
	buf.Release()
	if vbuf != nil {
		vbuf.Release()
	}
	defer data.Release()
	return array.MakeFromData(data)
}

// gatherByValue is gather value by value, for the types arrow-go's take
// has no kernel for (exec.HoldsInterval: arrays of intervals).
func gatherByValue(mem memory.Allocator, dt arrow.DataType, srcs []arrow.Array, refs []rowRef) (arrow.Array, error) {
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	b.Reserve(len(refs))
	for _, r := range refs {
		if r.b == nullBatch {
			b.AppendNull()
			continue
		}
		if err := types.AppendValue(b, types.ValueAt(srcs[r.b], int(r.r))); err != nil {
			return nil, err
		}
	}
	return b.NewArray(), nil
}
