package exec

import (
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// The native fast paths for the hottest kernels: checked integer + - *,
// integer comparisons and integer casts. They are tight loops over the raw
// value buffers with no per-row interface calls: every slot is computed
// (NULL ones too, their values are arbitrary), overflow is accumulated
// branch-free and, only when some slot overflowed, the validity bitmap is
// consulted to decide whether a non-NULL row did. A constant operand stays
// a scalar instead of being broadcast, and an operand that is a temporary
// of this expression tree (a nested arithmetic result) is overwritten in
// place rather than allocating a second output.

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// operand is an evaluated operand: an array, or a scalar (isScalar).
type operand struct {
	arr      arrow.Array
	isScalar bool
	null     bool  // the scalar is NULL
	v        int64 // the scalar's value
	owned    bool  // arr is a temporary nobody else references
}

func (o *operand) release() {
	if o.arr != nil {
		o.arr.Release()
	}
}

func evalIntOperand(ec *EvalContext, e Expr, batch arrow.RecordBatch) (operand, error) {
	if v, ok := scalarValue(ec, e); ok {
		if v == nil {
			return operand{isScalar: true, null: true}, nil
		}
		if x, ok := v.(int64); ok {
			return operand{isScalar: true, v: x}, nil
		}
	}
	a, err := e.Eval(ec, batch)
	if err != nil {
		return operand{}, err
	}
	_, nested := e.(*ArithExpr)
	owned := nested && a.Data().Offset() == 0 && a.NullN() < a.Len()
	return operand{arr: a, owned: owned}, nil
}

// intValues returns the values of an integer array as []T.
func intValues[T int8 | int16 | int32 | int64](a arrow.Array) []T {
	if a.Len() == 0 {
		return nil
	}
	buf := a.Data().Buffers()[1]
	var vals []T
	if buf != nil {
		vals = arrow.GetData[T](buf.Bytes())
	}
	off := a.Data().Offset()
	if len(vals) < off+a.Len() {
		// an all-NULL array may come without a values buffer
		return make([]T, a.Len())
	}
	return vals[off : off+a.Len()]
}

// evalIntArith evaluates checked + - * on Int16/Int32/Int64 natively; ok is
// false when the operands are not of the shape it handles.
func (e *ArithExpr) evalIntArith(ec *EvalContext, batch arrow.RecordBatch) (arrow.Array, error) {
	if s, ok := e.mulAddOf(ec); ok && batch.NumRows() > 0 {
		if out, ok, err := s.eval(ec, e.T, batch); ok {
			return out, err
		}
	}
	l, err := evalIntOperand(ec, e.L, batch)
	if err != nil {
		return nil, err
	}
	defer l.release()
	r, err := evalIntOperand(ec, e.R, batch)
	if err != nil {
		return nil, err
	}
	defer r.release()
	n := int(batch.NumRows())
	if l.null || r.null || (l.isScalar && r.isScalar) {
		var v any
		if !l.null && !r.null {
			res, ok := checkedOp(e.Op, l.v, r.v, e.T)
			if !ok && n > 0 {
				return nil, outOfRangeErr(e.T)
			}
			v = res
		}
		return constArray(ec.Mem, v, e.T, n), nil
	}
	var arrs []arrow.Array
	if l.arr != nil {
		arrs = append(arrs, l.arr)
		n = l.arr.Len()
	}
	if r.arr != nil {
		arrs = append(arrs, r.arr)
		n = r.arr.Len()
	}
	validity, nulls := combinedValidity(ec.Mem, n, arrs...)
	if validity != nil {
		defer validity.Release()
	}
	switch e.T.Kind {
	case types.Int16:
		return intArithFast[int16](ec.Mem, e.Op, e.T, &l, &r, n, validity, nulls)
	case types.Int32:
		return intArithFast[int32](ec.Mem, e.Op, e.T, &l, &r, n, validity, nulls)
	}
	return intArithFast[int64](ec.Mem, e.Op, e.T, &l, &r, n, validity, nulls)
}

// checkedOp is one checked operation in the range of t.
func checkedOp(op ArithOp, x, y int64, t types.T) (int64, bool) {
	var r int64
	var bad uint64
	switch op {
	case Add:
		r = x + y
		bad = uint64((x^r)&(y^r)) >> 63
	case Sub:
		r = x - y
		bad = uint64((x^y)&(x^r)) >> 63
	default:
		r, bad = mulChecked(x, y)
	}
	lo, hi := types.IntRange(t.Kind)
	return r, bad == 0 && r >= lo && r <= hi
}

// mulChecked multiplies with a 128-bit product: bad != 0 on overflow.
func mulChecked(x, y int64) (int64, uint64) {
	hi, lo := bits.Mul64(uint64(x), uint64(y))
	hi -= uint64(x>>63)&uint64(y) + uint64(y>>63)&uint64(x)
	return int64(lo), hi ^ uint64(int64(lo)>>63)
}

func intArithFast[T int16 | int32 | int64](mem memory.Allocator, op ArithOp, t types.T, l, r *operand, n int, validity *memory.Buffer, nulls int) (arrow.Array, error) {
	// the output: an owned temporary operand's buffer, else a new one. In
	// place only without NULLs: then any overflow is an error and the
	// overwritten operand is never needed for the row-by-row recheck.
	var out []T
	var data *array.Data
	switch {
	case validity == nil && l.owned:
		out = intValues[T](l.arr)
		data = array.NewData(t.ArrowType(), n, []*memory.Buffer{validity, l.arr.Data().Buffers()[1]}, nil, nulls, 0)
	case validity == nil && r.owned:
		out = intValues[T](r.arr)
		data = array.NewData(t.ArrowType(), n, []*memory.Buffer{validity, r.arr.Data().Buffers()[1]}, nil, nulls, 0)
	default:
		out, data = fixedArray[T](mem, t.ArrowType(), n, validity, nulls)
	}
	defer data.Release()
	var bad uint64
	switch {
	case l.isScalar:
		bad = intKernelSV(op, t, l.v, intValues[T](r.arr), out)
	case r.isScalar:
		bad = intKernelVS(op, t, intValues[T](l.arr), r.v, out)
	default:
		bad = intKernelVV(op, t, intValues[T](l.arr), intValues[T](r.arr), out)
	}
	if bad != 0 && (validity == nil || overflowsValidRow(op, t, l, r, n, validity)) {
		return nil, outOfRangeErr(t)
	}
	return array.MakeFromData(data), nil
}

// overflowsValidRow rechecks, row by row, whether a row that is not NULL
// overflows (the fast loop only knows that some slot did).
func overflowsValidRow(op ArithOp, t types.T, l, r *operand, n int, validity *memory.Buffer) bool {
	get := func(o *operand, i int) int64 {
		if o.isScalar {
			return o.v
		}
		return valueAt(o.arr, i).(int64)
	}
	for i := 0; i < n; i++ {
		if validity != nil && !bitutil.BitIsSet(validity.Bytes(), i) {
			continue
		}
		if _, ok := checkedOp(op, get(l, i), get(r, i), t); !ok {
			return true
		}
	}
	return false
}

// The kernels return a non-zero value when some slot overflowed. For
// Int16/Int32 the result is computed in int64 and range-checked; for
// Int64 the sign/128-bit tests detect wrap-around.

func intKernelVV[T int16 | int32 | int64](op ArithOp, t types.T, a, b, out []T) uint64 {
	var acc uint64
	b = b[:len(a)]
	out = out[:len(a)]
	if t.Kind == types.Int64 {
		switch op {
		case Add, Sub:
			// The AVX2 loop (simd_amd64.go) does the leading rows where
			// it runs; T is int64 here, so the assertions hold.
			done := 0
			if a64, ok := any(a).([]int64); ok {
				var over bool
				done, over = addSubInt64SIMD(a64, any(b).([]int64), any(out).([]int64), op == Sub)
				if over {
					acc = 1 << 63
				}
			}
			a, b, out = a[done:], b[done:], out[done:]
			if op == Add {
				for i := range a {
					x, y := int64(a[i]), int64(b[i])
					s := x + y
					acc |= uint64((x ^ s) & (y ^ s))
					out[i] = T(s)
				}
			} else {
				for i := range a {
					x, y := int64(a[i]), int64(b[i])
					s := x - y
					acc |= uint64((x ^ y) & (x ^ s))
					out[i] = T(s)
				}
			}
		default:
			for i := range a {
				p, bad := mulChecked(int64(a[i]), int64(b[i]))
				acc |= bad
				out[i] = T(p)
			}
			return acc
		}
		return acc >> 63
	}
	lo, hi := types.IntRange(t.Kind)
	span := uint64(hi - lo)
	for i := range a {
		x, y := int64(a[i]), int64(b[i])
		var s int64
		switch op {
		case Add:
			s = x + y
		case Sub:
			s = x - y
		default:
			s = x * y
		}
		acc |= b2u(uint64(s-lo) > span)
		out[i] = T(s)
	}
	return acc
}

func intKernelVS[T int16 | int32 | int64](op ArithOp, t types.T, a []T, y int64, out []T) uint64 {
	out = out[:len(a)]
	if t.Kind == types.Int64 {
		var acc uint64
		switch op {
		case Add:
			for i := range a {
				x := int64(a[i])
				s := x + y
				acc |= uint64((x ^ s) & (y ^ s))
				out[i] = T(s)
			}
			return acc >> 63
		case Sub:
			for i := range a {
				x := int64(a[i])
				s := x - y
				acc |= uint64((x ^ y) & (x ^ s))
				out[i] = T(s)
			}
			return acc >> 63
		}
		return mulByConst(a, y, out)
	}
	lo, hi := types.IntRange(t.Kind)
	span := uint64(hi - lo)
	var acc uint64
	for i := range a {
		x := int64(a[i])
		var s int64
		switch op {
		case Add:
			s = x + y
		case Sub:
			s = x - y
		default:
			s = x * y
		}
		acc |= b2u(uint64(s-lo) > span)
		out[i] = T(s)
	}
	return acc
}

// mulByConst is checked x*c for int64: x*c overflows exactly when x lies
// outside [MinInt64/c, MaxInt64/c] (bounds precomputed once).
func mulByConst[T int16 | int32 | int64](a []T, c int64, out []T) uint64 {
	out = out[:len(a)] // equal lengths: the loops need no bounds checks
	var acc uint64
	switch {
	case c == 0:
		for i := range a {
			out[i] = 0
		}
		return 0
	case c == -1:
		for i := range a {
			x := int64(a[i])
			acc |= b2u(x == -1<<63)
			out[i] = T(-x)
		}
		return acc
	}
	lo, hi := int64(-1<<63)/c, int64(1<<63-1)/c
	if c < 0 {
		lo, hi = int64(1<<63-1)/c, int64(-1<<63)/c
	}
	span := uint64(hi - lo)
	for i := range a {
		x := int64(a[i])
		acc |= b2u(uint64(x-lo) > span)
		out[i] = T(x * c)
	}
	return acc
}

func intKernelSV[T int16 | int32 | int64](op ArithOp, t types.T, x int64, b []T, out []T) uint64 {
	out = out[:len(b)]
	if op != Sub {
		return intKernelVS(op, t, b, x, out) // + and * commute
	}
	if t.Kind == types.Int64 {
		var acc uint64
		for i := range b {
			y := int64(b[i])
			s := x - y
			acc |= uint64((x ^ y) & (x ^ s))
			out[i] = T(s)
		}
		return acc >> 63
	}
	lo, hi := types.IntRange(t.Kind)
	span := uint64(hi - lo)
	var acc uint64
	for i := range b {
		s := x - int64(b[i])
		acc |= b2u(uint64(s-lo) > span)
		out[i] = T(s)
	}
	return acc
}

// intCast converts between integer types natively, sharing the input's
// validity bitmap; out of range (for a row that is not NULL) is 22003.
func intCast(ec *EvalContext, xa arrow.Array, from, to types.T) (arrow.Array, error) {
	switch from.Kind {
	case types.Int8:
		return intCastFrom[int8](ec, xa, to)
	case types.Int16:
		return intCastFrom[int16](ec, xa, to)
	case types.Int32:
		return intCastFrom[int32](ec, xa, to)
	}
	return intCastFrom[int64](ec, xa, to)
}

func intCastFrom[F int8 | int16 | int32 | int64](ec *EvalContext, xa arrow.Array, to types.T) (arrow.Array, error) {
	src := intValues[F](xa)
	switch to.Kind {
	case types.Int8:
		return intCastTo[F, int8](ec, xa, src, to)
	case types.Int16:
		return intCastTo[F, int16](ec, xa, src, to)
	case types.Int32:
		return intCastTo[F, int32](ec, xa, src, to)
	}
	return intCastTo[F, int64](ec, xa, src, to)
}

func intCastTo[F, T int8 | int16 | int32 | int64](ec *EvalContext, xa arrow.Array, src []F, to types.T) (arrow.Array, error) {
	n := len(src)
	validity, nulls := combinedValidity(ec.Mem, n, xa)
	if validity != nil {
		defer validity.Release()
	}
	out, data := fixedArray[T](ec.Mem, to.ArrowType(), n, validity, nulls)
	defer data.Release()
	lo, hi := types.IntRange(to.Kind)
	span := uint64(hi - lo)
	var acc uint64
	for i, v := range src {
		acc |= b2u(uint64(int64(v)-lo) > span)
		out[i] = T(v)
	}
	if acc != 0 {
		for i, v := range src {
			if (validity == nil || bitutil.BitIsSet(validity.Bytes(), i)) && (int64(v) < lo || int64(v) > hi) {
				return nil, outOfRangeErr(to)
			}
		}
	}
	return array.MakeFromData(data), nil
}
