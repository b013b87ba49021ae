package exec

import (
	"context"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The native filter: the mask (true and not NULL) becomes a bitmap of the
// rows to keep, one uint64 per 64 rows. Fixed-width columns are compacted
// straight from that bitmap, word by word: a word that keeps every row is
// one copy, a sparse word visits only its set bits, and any other word
// runs a branch-free loop that stores every value and advances the output
// position by the row's bit (50% random selectivity costs no
// mispredictions). Their validity bitmaps are compacted from it too, 64
// rows at a time (compactValidity). The other layouts are gathered
// through a selection vector of row indices, built only when some column
// needs it. A mask that keeps every row passes the input batch through
// untouched (no copy). An aggregation without GROUP BY above the filter
// takes the selection instead of a filtered batch (Filter.NextSelected).

// keepWords returns the rows whose mask entry is true and not NULL as a
// little-endian bitmap of len (n+63)/64 words (bits past n clear), reusing
// words' storage, and how many rows it keeps.
func keepWords(mask *array.Boolean, words []uint64) ([]uint64, int) {
	n := mask.Len()
	nw := (n + 63) / 64
	if cap(words) < nw {
		words = make([]uint64, nw)
	}
	words = words[:nw]
	if n == 0 {
		return words, 0
	}
	vals := mask.Data().Buffers()[1].Bytes()
	off := mask.Data().Offset()
	var valid []byte
	if mask.NullN() > 0 {
		valid = mask.Data().Buffers()[0].Bytes()
	}
	if off%8 != 0 {
		// a mask sliced mid-byte: bit by bit
		clear(words)
		for i := 0; i < n; i++ {
			if mask.IsValid(i) && mask.Value(i) {
				words[i/64] |= 1 << (i % 64)
			}
		}
	} else {
		vals = vals[off/8:]
		if valid != nil {
			valid = valid[off/8:]
		}
		full := n / 64
		for w := 0; w < full; w++ {
			word := leUint64(vals[w*8:])
			if valid != nil {
				word &= leUint64(valid[w*8:])
			}
			words[w] = word
		}
		if full < nw {
			// the last partial word, byte by byte (the buffer may end there)
			var word uint64
			for b := full * 8; b < (n+7)/8; b++ {
				x := vals[b]
				if valid != nil {
					x &= valid[b]
				}
				word |= uint64(x) << (8 * (b - full*8))
			}
			words[full] = word & (1<<(n%64) - 1)
		}
	}
	count := 0
	for _, w := range words {
		count += bits.OnesCount64(w)
	}
	return words, count
}

// selectionOf returns the indices of the set bits of keep (count of them),
// reusing sel's storage.
func selectionOf(keep []uint64, count int, sel []int32) []int32 {
	if cap(sel) < count {
		sel = make([]int32, count)
	}
	out := sel[:count]
	k := 0
	for w, word := range keep {
		base := int32(w * 64)
		for word != 0 {
			out[k] = base + int32(bits.TrailingZeros64(word))
			k++
			word &= word - 1
		}
	}
	return out
}

func leUint64(b []byte) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// nativeFilter keeps the rows keep marks (count of them); *sel is the
// selection vector's reusable storage, filled only if a column needs it.
func nativeFilter(ctx context.Context, mem memory.Allocator, b arrow.RecordBatch, mask *array.Boolean, keep []uint64, count int, sel *[]int32) (arrow.RecordBatch, error) {
	built := false
	selection := func() []int32 {
		if !built {
			*sel = selectionOf(keep, count, *sel)
			built = true
		}
		return *sel
	}
	cols := make([]arrow.Array, b.NumCols())
	for i, c := range b.Columns() {
		g, ok := compactColumn(mem, c, keep, count)
		if !ok {
			var err error
			if g, err = gather(ctx, mem, c, mask, selection()); err != nil {
				for _, done := range cols[:i] {
					done.Release()
				}
				return nil, err
			}
		}
		cols[i] = g
	}
	out := array.NewRecordBatch(b.Schema(), cols, int64(count))
	for _, c := range cols {
		c.Release()
	}
	return out, nil
}

// FixedWidth is the byte width of the values of Arrow's primitive
// fixed-width layouts (0: another layout): the width the typed copy loops
// of filters, gathers and scatters move a value by.
func FixedWidth(dt arrow.DataType) int {
	switch dt.ID() {
	case arrow.INT8, arrow.UINT8:
		return 1
	case arrow.INT16, arrow.UINT16:
		return 2
	case arrow.INT32, arrow.UINT32, arrow.FLOAT32, arrow.DATE32, arrow.TIME32:
		return 4
	case arrow.INT64, arrow.UINT64, arrow.FLOAT64, arrow.DATE64, arrow.TIME64, arrow.TIMESTAMP, arrow.DURATION:
		return 8
	case arrow.DECIMAL128, arrow.INTERVAL_MONTH_DAY_NANO:
		return 16
	}
	return 0
}

// compactColumn keeps the rows keep marks of a fixed-width column: the
// values and the validity bitmap are compacted from the bitmap. ok is
// false for other layouts.
func compactColumn(mem memory.Allocator, a arrow.Array, keep []uint64, count int) (arrow.Array, bool) {
	w := FixedWidth(a.DataType())
	n := a.Len()
	// compactWords moves values of up to 8 bytes; 16-byte ones take the
	// general path.
	if w == 0 || w > 8 || len(a.Data().Buffers()) < 2 || a.Data().Buffers()[1] == nil {
		return nil, false
	}
	raw := a.Data().Buffers()[1].Bytes()
	start := a.Data().Offset() * w
	if len(raw) < start+n*w {
		return nil, false // an all-NULL array without a full values buffer
	}
	raw = raw[start : start+n*w]
	// room for count values plus one word's worth of scratch stores
	buf := newOutputBuffer(mem, (count+64)*w)
	switch w {
	case 1:
		compactWords(arrow.GetData[int8](raw), keep, arrow.GetData[int8](buf.Bytes())[:count+64])
	case 2:
		compactWords(arrow.GetData[int16](raw), keep, arrow.GetData[int16](buf.Bytes())[:count+64])
	case 4:
		compactWords(arrow.GetData[int32](raw), keep, arrow.GetData[int32](buf.Bytes())[:count+64])
	default:
		src, out := arrow.GetData[int64](raw), arrow.GetData[int64](buf.Bytes())[:count+64]
		words, k := compactInt64SIMD(src, keep, out)
		compactWords(src[words*64:], keep[words:], out[k:])
	}
	validity, nulls := compactValidity(mem, a, keep, count)
	data := array.NewData(a.DataType(), count, []*memory.Buffer{validity, buf}, nil, nulls, 0)
	buf.Release()
	if validity != nil {
		validity.Release()
	}
	defer data.Release()
	return array.MakeFromData(data), true
}

// sparseWord is the popcount below which a word's set bits are visited one
// by one rather than every row of the word being stored.
const sparseWord = 12

// compactWords stores the rows of src whose bit is set in keep at the start
// of out, in order. out must hold the kept rows plus 64 (the branch-free
// loop stores each row of a word before knowing whether it stays).
func compactWords[T int8 | int16 | int32 | int64](src []T, keep []uint64, out []T) {
	n := len(src)
	full := n / 64
	keep = keep[:(n+63)/64]
	k := 0
	for w, word := range keep[:full] {
		s := (*[64]T)(src[w*64 : w*64+64])
		d := (*[64]T)(out[k : k+64])
		c := bits.OnesCount64(word)
		switch {
		case c == 64:
			*d = *s
		case c < sparseWord:
			for j := 0; word != 0; j++ {
				d[j&63] = s[bits.TrailingZeros64(word)&63]
				word &= word - 1
			}
		default:
			compactDense(s, word, d)
		}
		k += c
	}
	if full < len(keep) {
		word := keep[full]
		for i := full * 64; i < n; i++ {
			out[k] = src[i]
			k += int(word >> uint(i-full*64) & 1)
		}
	}
}

// compactDense stores the rows of s whose bit is set in word at the start
// of d without a branch per row: every row is stored at the current output
// position, which advances by the row's bit. Not inlined: alone, its loop
// keeps every variable in a register.
//
//go:noinline
func compactDense[T int8 | int16 | int32 | int64](s *[64]T, word uint64, d *[64]T) {
	j := 0
	for i := 0; i < 64; i += 8 {
		d[j&63] = s[i]
		j += int(word & 1)
		d[j&63] = s[i+1]
		j += int(word >> 1 & 1)
		d[j&63] = s[i+2]
		j += int(word >> 2 & 1)
		d[j&63] = s[i+3]
		j += int(word >> 3 & 1)
		d[j&63] = s[i+4]
		j += int(word >> 4 & 1)
		d[j&63] = s[i+5]
		j += int(word >> 5 & 1)
		d[j&63] = s[i+6]
		j += int(word >> 6 & 1)
		d[j&63] = s[i+7]
		j += int(word >> 7 & 1)
		word >>= 8
	}
}

// gather returns the rows sel of a (the rows mask selects).
func gather(ctx context.Context, mem memory.Allocator, a arrow.Array, mask *array.Boolean, sel []int32) (arrow.Array, error) {
	n := len(sel)
	validity, nulls := gatherValidity(mem, a, sel)
	if validity != nil {
		defer validity.Release()
	}
	switch x := a.(type) {
	case *array.Int64:
		return gatherFixed(mem, a.DataType(), x.Int64Values(), sel, validity, nulls), nil
	case *array.Int32:
		return gatherFixed(mem, a.DataType(), x.Int32Values(), sel, validity, nulls), nil
	case *array.Int16:
		return gatherFixed(mem, a.DataType(), x.Int16Values(), sel, validity, nulls), nil
	case *array.Int8:
		return gatherFixed(mem, a.DataType(), x.Int8Values(), sel, validity, nulls), nil
	case *array.Float64:
		return gatherFixed(mem, a.DataType(), x.Float64Values(), sel, validity, nulls), nil
	case *array.Float32:
		return gatherFixed(mem, a.DataType(), x.Float32Values(), sel, validity, nulls), nil
	case *array.Date32:
		return gatherFixed(mem, a.DataType(), x.Date32Values(), sel, validity, nulls), nil
	case *array.Time32:
		return gatherFixed(mem, a.DataType(), x.Time32Values(), sel, validity, nulls), nil
	case *array.Time64:
		return gatherFixed(mem, a.DataType(), x.Time64Values(), sel, validity, nulls), nil
	case *array.Timestamp:
		return gatherFixed(mem, a.DataType(), x.TimestampValues(), sel, validity, nulls), nil
	case *array.Uint32:
		return gatherFixed(mem, a.DataType(), x.Uint32Values(), sel, validity, nulls), nil
	case *array.MonthDayNanoInterval:
		// arrow-go's filter has no kernel for 16-byte values ("invalid
		// values bit width"): an interval column under a WHERE failed
		return gatherFixed(mem, a.DataType(), x.MonthDayNanoIntervalValues(), sel, validity, nulls), nil
	case *array.Boolean:
		buf := newOutputBuffer(mem, int(bitutil.BytesForBits(int64(n))))
		out := buf.Bytes()
		clear(out)
		for i, r := range sel {
			if x.Value(int(r)) {
				bitutil.SetBit(out, i)
			}
		}
		data := array.NewData(a.DataType(), n, []*memory.Buffer{validity, buf}, nil, nulls, 0)
		buf.Release()
		defer data.Release()
		return array.MakeFromData(data), nil
	case *array.String:
		return gatherVar(mem, a, x.ValueOffsets(), x.ValueBytes(), sel, validity, nulls), nil
	case *array.Binary:
		return gatherVar(mem, a, x.ValueOffsets(), x.ValueBytes(), sel, validity, nulls), nil
	case *array.Map:
		return gatherValues(mem, a, sel) // arrow-go's filter has no MAP kernel
	}
	if HoldsInterval(a.DataType()) {
		return gatherValues(mem, a, sel) // an array of intervals: as a map
	}
	// nested and other layouts (lists, maps, structs, decimals): arrow-go's
	// filter, as before the native backend existed
	return compute.FilterArray(compute.WithAllocator(ctx, mem), a, mask, *compute.DefaultFilterOptions())
}

// HoldsInterval reports a nested type with intervals inside (an array of
// intervals): arrow-go's filter and take have no kernel for their 16-byte
// values ("invalid values byte width for take"), so such columns are
// copied value by value.
func HoldsInterval(dt arrow.DataType) bool {
	switch t := dt.(type) {
	case arrow.ListLikeType:
		return t.Elem().ID() == arrow.INTERVAL_MONTH_DAY_NANO || HoldsInterval(t.Elem())
	case *arrow.StructType:
		for _, f := range t.Fields() {
			if f.Type.ID() == arrow.INTERVAL_MONTH_DAY_NANO || HoldsInterval(f.Type) {
				return true
			}
		}
	}
	return false
}

func gatherFixed[T arrow.FixedWidthType](mem memory.Allocator, dt arrow.DataType, src []T, sel []int32, validity *memory.Buffer, nulls int) arrow.Array {
	out, data := fixedArray[T](mem, dt, len(sel), validity, nulls)
	defer data.Release()
	out = out[:len(sel)]
	for i, r := range sel {
		out[i] = src[r]
	}
	return array.MakeFromData(data)
}

func gatherVar(mem memory.Allocator, a arrow.Array, offs []int32, bytes []byte, sel []int32, validity *memory.Buffer, nulls int) arrow.Array {
	n := len(sel)
	// ValueBytes starts at the array's first value: offsets are relative
	// to offs[0]
	base := offs[0]
	total := 0
	for _, r := range sel {
		total += int(offs[r+1] - offs[r])
	}
	offBuf := newOutputBuffer(mem, (n+1)*4)
	outOffs := arrow.Int32Traits.CastFromBytes(offBuf.Bytes())[:n+1]
	// string bytes are not pooled: Value aliases them (see PoolAllocator)
	dataBuf := memory.NewResizableBuffer(mem)
	dataBuf.Resize(max(total, 1))
	outBytes := dataBuf.Bytes()[:total]
	pos := int32(0)
	for i, r := range sel {
		outOffs[i] = pos
		pos += int32(copy(outBytes[pos:], bytes[offs[r]-base:offs[r+1]-base]))
	}
	outOffs[n] = pos
	data := array.NewData(a.DataType(), n, []*memory.Buffer{validity, offBuf, dataBuf}, nil, nulls, 0)
	offBuf.Release()
	dataBuf.Release()
	defer data.Release()
	return array.MakeFromData(data)
}

// compactValidity returns the validity bitmap of the rows keep marks
// (count of them) of a (nil when none is NULL), 64 rows at a time: a word
// of keep against the same rows' word of a's bitmap; when every kept row
// of it is valid (most words, with few NULLs) its kept rows append a run
// of ones, else each kept row's bit is taken in turn.
func compactValidity(mem memory.Allocator, a arrow.Array, keep []uint64, count int) (*memory.Buffer, int) {
	if a.NullN() == 0 {
		return nil, 0
	}
	n := a.Len()
	bm, off := a.NullBitmapBytes(), a.Data().Offset()
	buf := newOutputBuffer(mem, (count+63)/64*8)
	out := arrow.GetData[uint64](buf.Bytes())[:(count+63)/64]
	var acc uint64 // the output word being filled, nb bits of it
	nb, o, valid := 0, 0, 0
	for w, k := range keep[:(n+63)/64] {
		if k == 0 {
			continue
		}
		v := bitsAt(bm, off+w*64, min(64, n-w*64))
		c := bits.OnesCount64(k)
		x := uint64(1)<<c - 1 // c ones (all 64 when c is 64)
		if k&^v != 0 {
			x = 0
			for j := 0; k != 0; j++ {
				x |= (v >> bits.TrailingZeros64(k) & 1) << j
				k &= k - 1
			}
		}
		valid += bits.OnesCount64(x)
		acc |= x << nb
		if nb+c >= 64 {
			out[o] = acc
			o++
			acc = x >> (64 - nb) // 0 when nb is 0 (a shift by 64)
			nb += c - 64
		} else {
			nb += c
		}
	}
	if nb > 0 {
		out[o] = acc
	}
	if valid == count {
		buf.Release()
		return nil, 0
	}
	return buf, count - valid
}

// bitsAt is the nbits (at most 64) bits of the bitmap bm from bit start,
// little-endian, the bits past nbits clear.
func bitsAt(bm []byte, start, nbits int) uint64 {
	b, s := start>>3, start&7
	var w uint64
	if s == 0 && nbits == 64 && b+8 <= len(bm) {
		return leUint64(bm[b:])
	}
	need := (s + nbits + 7) / 8 // at most 9 bytes
	for j := 0; j < need && j < 8; j++ {
		w |= uint64(bm[b+j]) << (8 * j)
	}
	w >>= s
	if need == 9 {
		w |= uint64(bm[b+8]) << (64 - s)
	}
	if nbits < 64 {
		w &= 1<<nbits - 1
	}
	return w
}

// gatherValidity returns the validity bitmap of the rows sel of a (nil when
// none is NULL).
func gatherValidity(mem memory.Allocator, a arrow.Array, sel []int32) (*memory.Buffer, int) {
	if a.NullN() == 0 {
		return nil, 0
	}
	n := len(sel)
	buf := newOutputBuffer(mem, int(bitutil.BytesForBits(int64(n))))
	out := buf.Bytes()
	clear(out)
	bm := a.NullBitmapBytes()
	off := a.Data().Offset()
	valid := 0
	for i, r := range sel {
		if bitutil.BitIsSet(bm, off+int(r)) {
			bitutil.SetBit(out, i)
			valid++
		}
	}
	if valid == n {
		buf.Release()
		return nil, 0
	}
	return buf, n - valid
}
