package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// fixedArray allocates a fixed-width output of n values of dt with the given
// validity bitmap (nil: no nulls) and returns its typed values.
func fixedArray[T arrow.FixedWidthType](mem memory.Allocator, dt arrow.DataType, n int, validity *memory.Buffer, nulls int) ([]T, *array.Data) {
	var zero T
	size := n * int(sizeOf(zero))
	buf := newOutputBuffer(mem, size)
	fd := &fixedData{bufs: [2]*memory.Buffer{validity, buf}}
	fd.data.Reset(dt, n, fd.bufs[:], nil, nulls, 0) // retains both buffers, as NewData does
	fd.data.Retain()                                // the caller's reference, as NewData returns it
	buf.Release()
	return arrow.GetData[T](buf.Bytes())[:n], &fd.data
}

// fixedData is fixedArray's Data and its buffer list in one allocation
// (array.NewData and the list were two): an expression's output column,
// one per kernel per batch, even for one row.
type fixedData struct {
	data array.Data
	bufs [2]*memory.Buffer
}

func sizeOf[T arrow.FixedWidthType](v T) uintptr {
	switch any(v).(type) {
	case int8, uint8:
		return 1
	case int16, uint16:
		return 2
	case int32, uint32, float32:
		return 4
	case arrow.MonthDayNanoInterval:
		return 16
	}
	return 8
}

// combinedValidity returns the AND of the validity bitmaps of arrs (nil when
// none has nulls) and the resulting null count. When only one operand has
// nulls and starts at offset 0, its bitmap is shared, not copied.
func combinedValidity(mem memory.Allocator, n int, arrs ...arrow.Array) (*memory.Buffer, int) {
	var only arrow.Array
	for _, a := range arrs {
		if a.NullN() == 0 {
			continue
		}
		if only != nil {
			only = nil
			break
		}
		only = a
	}
	if only != nil && only.Data().Offset() == 0 && only.Len() == n {
		if buf := only.Data().Buffers()[0]; buf != nil {
			buf.Retain()
			return buf, only.NullN()
		}
	}
	var out *memory.Buffer
	for _, a := range arrs {
		if a.NullN() == 0 {
			continue
		}
		bm := a.NullBitmapBytes()
		if out == nil {
			out = memory.NewResizableBuffer(mem)
			out.Resize(int(bitutil.BytesForBits(int64(n))))
			bitutil.CopyBitmap(bm, a.Data().Offset(), n, out.Bytes(), 0)
			continue
		}
		bitutil.BitmapAnd(out.Bytes(), bm, 0, int64(a.Data().Offset()), out.Bytes(), 0, int64(n))
	}
	if out == nil {
		return nil, 0
	}
	return out, n - bitutil.CountSetBits(out.Bytes(), 0, n)
}

// isValid reports whether row i of a is not NULL.
func isValid(a arrow.Array, i int) bool { return a.NullN() == 0 || a.IsValid(i) }

// boolBuilder fills a boolean output array bit by bit.
type boolBuilder struct {
	vals     []byte
	validity []byte
	valBuf   *memory.Buffer
	nullBuf  *memory.Buffer
	n        int
}

func newBoolBuilder(mem memory.Allocator, n int, withNulls bool) *boolBuilder {
	b := &boolBuilder{n: n}
	b.valBuf = memory.NewResizableBuffer(mem)
	b.valBuf.Resize(int(bitutil.BytesForBits(int64(n))))
	b.vals = b.valBuf.Bytes()
	for i := range b.vals {
		b.vals[i] = 0
	}
	if withNulls {
		b.nullBuf = memory.NewResizableBuffer(mem)
		b.nullBuf.Resize(int(bitutil.BytesForBits(int64(n))))
		b.validity = b.nullBuf.Bytes()
		for i := range b.validity {
			b.validity[i] = 0xff
		}
	}
	return b
}

func (b *boolBuilder) set(i int, v bool) {
	if v {
		bitutil.SetBit(b.vals, i)
	}
}

func (b *boolBuilder) setNull(i int) { bitutil.ClearBit(b.validity, i) }

func (b *boolBuilder) finish() arrow.Array {
	nulls := 0
	if b.validity != nil {
		nulls = b.n - bitutil.CountSetBits(b.validity, 0, b.n)
	}
	data := array.NewData(arrow.FixedWidthTypes.Boolean, b.n, []*memory.Buffer{b.nullBuf, b.valBuf}, nil, nulls, 0)
	b.valBuf.Release()
	if b.nullBuf != nil {
		b.nullBuf.Release()
	}
	defer data.Release()
	return array.MakeFromData(data)
}
