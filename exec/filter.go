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

// The native filter: the mask (true and not NULL) becomes a selection
// vector of row indices, and every column is gathered through it with a
// typed loop over its buffers. A mask that keeps every row passes the input
// batch through untouched (no copy).

// selection returns the indices of rows whose mask entry is true and not
// NULL, reusing sel's storage.
func selection(mask *array.Boolean, sel []int32) []int32 {
	n := mask.Len()
	sel = sel[:0]
	if n == 0 {
		return sel
	}
	if cap(sel) < n {
		sel = make([]int32, 0, n)
	}
	vals := mask.Data().Buffers()[1].Bytes()
	off := mask.Data().Offset()
	var valid []byte
	if mask.NullN() > 0 {
		valid = mask.Data().Buffers()[0].Bytes()
	}
	if off%8 == 0 {
		vals = vals[off/8:]
		if valid != nil {
			valid = valid[off/8:]
		}
		out := sel[:n]
		k := 0
		// whole 64-row words: iterate over the set bits only
		words := n / 64
		for w := 0; w < words; w++ {
			word := leUint64(vals[w*8:])
			if valid != nil {
				word &= leUint64(valid[w*8:])
			}
			base := int32(w * 64)
			for word != 0 {
				out[k] = base + int32(bits.TrailingZeros64(word))
				k++
				word &= word - 1
			}
		}
		for i := words * 64; i < n; i++ {
			if bitutil.BitIsSet(vals, i) && (valid == nil || bitutil.BitIsSet(valid, i)) {
				out[k] = int32(i)
				k++
			}
		}
		return out[:k]
	}
	for i := 0; i < n; i++ {
		if mask.IsValid(i) && mask.Value(i) {
			sel = append(sel, int32(i))
		}
	}
	return sel
}

func leUint64(b []byte) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// nativeFilter keeps the rows sel lists (sel is sorted).
func nativeFilter(ctx context.Context, mem memory.Allocator, b arrow.RecordBatch, mask *array.Boolean, sel []int32) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, b.NumCols())
	for i, c := range b.Columns() {
		g, err := gather(ctx, mem, c, mask, sel)
		if err != nil {
			for _, done := range cols[:i] {
				done.Release()
			}
			return nil, err
		}
		cols[i] = g
	}
	out := array.NewRecordBatch(b.Schema(), cols, int64(len(sel)))
	for _, c := range cols {
		c.Release()
	}
	return out, nil
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
	// nested and other layouts (lists, maps, structs, decimals): arrow-go's
	// filter, as before the native backend existed
	return compute.FilterArray(compute.WithAllocator(ctx, mem), a, mask, *compute.DefaultFilterOptions())
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
