package exec

import (
	"bytes"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// Native fast paths over bitmaps: IS [NOT] NULL copies (or inverts) the
// validity bitmap, NOT inverts the values and shares the validity, and
// three-valued AND/OR combine whole bytes of values and validity. They
// apply when the inputs start on a byte boundary (every array the
// operators produce does); otherwise the row loops of logic.go run.

// bitmapOf returns a's bitmap buffer i (0 validity, 1 values) from its
// first row, or nil when absent.
func bitmapOf(a arrow.Array, i int) []byte {
	buf := a.Data().Buffers()[i]
	if buf == nil {
		return nil
	}
	b := buf.Bytes()[a.Data().Offset()/8:]
	return b[:min(len(b), int(bitutil.BytesForBits(int64(a.Len()))))]
}

func byteAligned(arrs ...arrow.Array) bool {
	for _, a := range arrs {
		if a.Data().Offset()%8 != 0 {
			return false
		}
	}
	return true
}

func newBitmap(mem memory.Allocator, n int) (*memory.Buffer, []byte) {
	buf := newOutputBuffer(mem, int(bitutil.BytesForBits(int64(n))))
	return buf, buf.Bytes()
}

func boolArray(n int, validity, values *memory.Buffer, nulls int) arrow.Array {
	data := array.NewData(arrow.FixedWidthTypes.Boolean, n, []*memory.Buffer{validity, values}, nil, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data)
}

// isNullBitmap is x IS [NOT] NULL.
func isNullBitmap(mem memory.Allocator, x arrow.Array, not bool) (arrow.Array, bool) {
	if !byteAligned(x) {
		return nil, false
	}
	n := x.Len()
	buf, out := newBitmap(mem, n)
	defer buf.Release()
	valid := bitmapOf(x, 0)
	switch {
	case x.DataType().ID() == arrow.NULL:
		fill := byte(0xff)
		if not {
			fill = 0
		}
		for i := range out {
			out[i] = fill
		}
	case x.NullN() == 0 || valid == nil:
		fill := byte(0)
		if not {
			fill = 0xff
		}
		for i := range out {
			out[i] = fill
		}
	case not:
		copy(out, valid)
	default:
		for i := range out {
			out[i] = ^valid[i]
		}
	}
	return boolArray(n, nil, buf, 0), true
}

// notBitmap is NOT x.
func notBitmap(mem memory.Allocator, x *array.Boolean) (arrow.Array, bool) {
	if !byteAligned(x) {
		return nil, false
	}
	n := x.Len()
	validity, nulls := combinedValidity(mem, n, x)
	if validity != nil {
		defer validity.Release()
	}
	buf, out := newBitmap(mem, n)
	defer buf.Release()
	vals := bitmapOf(x, 1)
	for i := range out {
		out[i] = ^vals[i]
	}
	return boolArray(n, validity, buf, nulls), true
}

// logicBitmap is three-valued l AND r / l OR r. A row is known (not NULL)
// when both are known, or when one known side decides it alone (false for
// AND, true for OR); its value is l AND r / l OR r of the value bits.
func logicBitmap(mem memory.Allocator, and bool, l, r *array.Boolean) (arrow.Array, bool) {
	if !byteAligned(l, r) {
		return nil, false
	}
	n := l.Len()
	lv, rv := bitmapOf(l, 1), bitmapOf(r, 1)
	buf, out := newBitmap(mem, n)
	defer buf.Release()
	if l.NullN() == 0 && r.NullN() == 0 {
		for i := range out {
			if and {
				out[i] = lv[i] & rv[i]
			} else {
				out[i] = lv[i] | rv[i]
			}
		}
		return boolArray(n, nil, buf, 0), true
	}
	vbuf, valid := newBitmap(mem, n)
	defer vbuf.Release()
	// a side without NULLs is known everywhere
	lk, rk := bitmapOf(l, 0), bitmapOf(r, 0)
	if l.NullN() == 0 || lk == nil {
		lk = allOnes(len(out))
	}
	if r.NullN() == 0 || rk == nil {
		rk = allOnes(len(out))
	}
	lk, rk, lv, rv = lk[:len(out)], rk[:len(out)], lv[:len(out)], rv[:len(out)]
	for i := range out {
		a, b := lk[i], rk[i] // known bits
		x, y := lv[i], rv[i]
		if and {
			out[i] = x & y
			valid[i] = (a & b) | (a &^ x) | (b &^ y)
		} else {
			out[i] = x | y
			valid[i] = (a & b) | (a & x) | (b & y)
		}
	}
	if n%8 != 0 {
		valid[len(valid)-1] &= byte(1)<<(n%8) - 1
	}
	nulls := n - bitutil.CountSetBits(valid, 0, n)
	if nulls == 0 {
		return boolArray(n, nil, buf, 0), true
	}
	return boolArray(n, vbuf, buf, nulls), true
}

func allOnes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = 0xff
	}
	return b
}

// evalStringCmp is the native fast path for text compared with a constant:
// a loop over the offsets without per-row interface calls.
func (e *CmpExpr) evalStringCmp(ec *EvalContext, batch arrow.RecordBatch) (arrow.Array, bool, error) {
	if e.Op > Ge || e.L.Type().Kind != types.String || e.R.Type().Kind != types.String {
		return nil, false, nil
	}
	kv, ok := scalarValue(ec, e.R)
	if !ok {
		return nil, false, nil
	}
	la, err := e.L.Eval(ec, batch)
	if err != nil {
		return nil, true, err
	}
	defer la.Release()
	s, ok := la.(*array.String)
	if !ok {
		return nil, false, nil
	}
	n := s.Len()
	if kv == nil {
		return constArray(ec.Mem, nil, types.BoolType, n), true, nil
	}
	k, ok := kv.(string)
	if !ok {
		return nil, false, nil
	}
	validity, nulls := combinedValidity(ec.Mem, n, s)
	if validity != nil {
		defer validity.Release()
	}
	buf, out := newBitmap(ec.Mem, n)
	defer buf.Release()
	clear(out)
	offs := s.ValueOffsets()
	data := s.ValueBytes()
	base := offs[0]
	kb := []byte(k)
	for i := 0; i < n; i++ {
		v := data[offs[i]-base : offs[i+1]-base]
		var bit bool
		if e.Op == Eq || e.Op == Ne {
			bit = bytes.Equal(v, kb) == (e.Op == Eq)
		} else {
			bit = cmpResult(e.Op, bytes.Compare(v, kb))
		}
		if bit {
			out[i>>3] |= 1 << (i & 7)
		}
	}
	return boolArray(n, validity, buf, nulls), true, nil
}
