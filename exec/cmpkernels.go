package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// The native fast path for comparisons of integer-like values (integers,
// dates, times, timestamps): the result bitmap is packed eight rows per
// byte without branches. Every comparison is one of three kernels (x < y,
// x > y, x = y) with the result bits inverted for >=, <= and <>.

func b2byte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// intLike returns the byte width of a type the fast path compares (0: not
// one).
func intLike(t types.T) int {
	switch t.Kind {
	case types.Int8:
		return 1
	case types.Int16:
		return 2
	case types.Int32, types.Date:
		return 4
	case types.Int64, types.Timestamp, types.TimestampTZ:
		return 8
	}
	return 0
}

// evalIntCmp evaluates e natively when its operands are integer-like of
// one width; ok is false otherwise.
func (e *CmpExpr) evalIntCmp(ec *EvalContext, batch arrow.RecordBatch) (arrow.Array, bool, error) {
	w := intLike(e.L.Type())
	if e.Op > Ge || w == 0 || intLike(e.R.Type()) != w || e.L.Type().Kind != e.R.Type().Kind {
		return nil, false, nil
	}
	l, err := evalIntOperand(ec, e.L, batch)
	if err != nil {
		return nil, true, err
	}
	defer l.release()
	r, err := evalIntOperand(ec, e.R, batch)
	if err != nil {
		return nil, true, err
	}
	defer r.release()
	n := int(batch.NumRows())
	if l.null || r.null || (l.isScalar && r.isScalar) {
		var v any
		if !l.null && !r.null {
			c := 0
			if l.v < r.v {
				c = -1
			} else if l.v > r.v {
				c = 1
			}
			v = cmpResult(e.Op, c)
		}
		return constArray(ec.Mem, v, types.BoolType, n), true, nil
	}
	var arrs []arrow.Array
	for _, o := range []*operand{&l, &r} {
		if o.arr != nil {
			arrs = append(arrs, o.arr)
			n = o.arr.Len()
		}
	}
	validity, nulls := combinedValidity(ec.Mem, n, arrs...)
	if validity != nil {
		defer validity.Release()
	}
	buf := newOutputBuffer(ec.Mem, int(bitutil.BytesForBits(int64(n))))
	out := buf.Bytes()
	switch w {
	case 1:
		cmpInts[int8](e.Op, &l, &r, n, out)
	case 2:
		cmpInts[int16](e.Op, &l, &r, n, out)
	case 4:
		cmpInts[int32](e.Op, &l, &r, n, out)
	default:
		cmpInts[int64](e.Op, &l, &r, n, out)
	}
	data := array.NewData(arrow.FixedWidthTypes.Boolean, n, []*memory.Buffer{validity, buf}, nil, nulls, 0)
	buf.Release()
	defer data.Release()
	return array.MakeFromData(data), true, nil
}

func cmpInts[T int8 | int16 | int32 | int64](op CmpOp, l, r *operand, n int, out []byte) {
	// x >= y is !(x < y), x <= y is !(x > y), x <> y is !(x = y)
	invert := op == Ge || op == Le || op == Ne
	base := op
	switch op {
	case Ge:
		base = Lt
	case Le:
		base = Gt
	case Ne:
		base = Eq
	}
	done := 0 // bytes of out already inverted (by the AVX2 loop)
	switch {
	case r.isScalar:
		cmpVSInvert(base, intValues[T](l.arr), T(r.v), invert, out)
		done = len(out)
	case l.isScalar:
		// c op x is x (mirrored op) c
		m := map[CmpOp]CmpOp{Lt: Gt, Gt: Lt, Eq: Eq}[base]
		cmpVSInvert(m, intValues[T](r.arr), T(l.v), invert, out)
		done = len(out)
	default:
		cmpVV(base, intValues[T](l.arr), intValues[T](r.arr), out)
	}
	if invert {
		for i := range out[done:] {
			out[done+i] = ^out[done+i]
		}
	}
	if n%8 != 0 && len(out) > 0 {
		out[len(out)-1] &= byte(1)<<(n%8) - 1
	}
}

// cmpVSInvert is cmpVS with the result bits inverted when invert is set;
// bigint runs its leading rows through the AVX2 loop where it can.
func cmpVSInvert[T int8 | int16 | int32 | int64](op CmpOp, a []T, y T, invert bool, out []byte) {
	done := 0
	flip := byte(0)
	if invert {
		flip = 0xff
	}
	if a64, ok := any(a).([]int64); ok {
		done = cmpInt64VSSIMD(op, a64, int64(y), flip, out)
	}
	tail := out[done/8:]
	cmpVS(op, a[done:], y, tail)
	if invert {
		for i := range tail {
			tail[i] = ^tail[i]
		}
	}
}

func cmpVS[T int8 | int16 | int32 | int64](op CmpOp, a []T, y T, out []byte) {
	full := len(a) / 8
	switch op {
	case Lt:
		for j := 0; j < full; j++ {
			v := a[j*8 : j*8+8 : j*8+8]
			out[j] = b2byte(v[0] < y) | b2byte(v[1] < y)<<1 | b2byte(v[2] < y)<<2 | b2byte(v[3] < y)<<3 |
				b2byte(v[4] < y)<<4 | b2byte(v[5] < y)<<5 | b2byte(v[6] < y)<<6 | b2byte(v[7] < y)<<7
		}
	case Gt:
		for j := 0; j < full; j++ {
			v := a[j*8 : j*8+8 : j*8+8]
			out[j] = b2byte(v[0] > y) | b2byte(v[1] > y)<<1 | b2byte(v[2] > y)<<2 | b2byte(v[3] > y)<<3 |
				b2byte(v[4] > y)<<4 | b2byte(v[5] > y)<<5 | b2byte(v[6] > y)<<6 | b2byte(v[7] > y)<<7
		}
	default:
		for j := 0; j < full; j++ {
			v := a[j*8 : j*8+8 : j*8+8]
			out[j] = b2byte(v[0] == y) | b2byte(v[1] == y)<<1 | b2byte(v[2] == y)<<2 | b2byte(v[3] == y)<<3 |
				b2byte(v[4] == y)<<4 | b2byte(v[5] == y)<<5 | b2byte(v[6] == y)<<6 | b2byte(v[7] == y)<<7
		}
	}
	if rest := len(a) - full*8; rest > 0 {
		var b byte
		for i := 0; i < rest; i++ {
			x := a[full*8+i]
			var bit bool
			switch op {
			case Lt:
				bit = x < y
			case Gt:
				bit = x > y
			default:
				bit = x == y
			}
			b |= b2byte(bit) << i
		}
		out[full] = b
	}
}

func cmpVV[T int8 | int16 | int32 | int64](op CmpOp, a, b []T, out []byte) {
	b = b[:len(a)]
	full := len(a) / 8
	switch op {
	case Lt:
		for j := 0; j < full; j++ {
			v, w := a[j*8:j*8+8:j*8+8], b[j*8:j*8+8:j*8+8]
			out[j] = b2byte(v[0] < w[0]) | b2byte(v[1] < w[1])<<1 | b2byte(v[2] < w[2])<<2 | b2byte(v[3] < w[3])<<3 |
				b2byte(v[4] < w[4])<<4 | b2byte(v[5] < w[5])<<5 | b2byte(v[6] < w[6])<<6 | b2byte(v[7] < w[7])<<7
		}
	case Gt:
		for j := 0; j < full; j++ {
			v, w := a[j*8:j*8+8:j*8+8], b[j*8:j*8+8:j*8+8]
			out[j] = b2byte(v[0] > w[0]) | b2byte(v[1] > w[1])<<1 | b2byte(v[2] > w[2])<<2 | b2byte(v[3] > w[3])<<3 |
				b2byte(v[4] > w[4])<<4 | b2byte(v[5] > w[5])<<5 | b2byte(v[6] > w[6])<<6 | b2byte(v[7] > w[7])<<7
		}
	default:
		for j := 0; j < full; j++ {
			v, w := a[j*8:j*8+8:j*8+8], b[j*8:j*8+8:j*8+8]
			out[j] = b2byte(v[0] == w[0]) | b2byte(v[1] == w[1])<<1 | b2byte(v[2] == w[2])<<2 | b2byte(v[3] == w[3])<<3 |
				b2byte(v[4] == w[4])<<4 | b2byte(v[5] == w[5])<<5 | b2byte(v[6] == w[6])<<6 | b2byte(v[7] == w[7])<<7
		}
	}
	if rest := len(a) - full*8; rest > 0 {
		var bb byte
		for i := 0; i < rest; i++ {
			x, y := a[full*8+i], b[full*8+i]
			var bit bool
			switch op {
			case Lt:
				bit = x < y
			case Gt:
				bit = x > y
			default:
				bit = x == y
			}
			bb |= b2byte(bit) << i
		}
		out[full] = bb
	}
}
