package functions

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// num_nulls, num_nonnulls and width_bucket(float8 or numeric, ...).

func miscFuncs() []*Func {
	return []*Func{
		{Name: "num_nulls", Args: []types.T{tAny}, Variadic: true, Ret: tInt4, Kernel: countNulls(true)},
		{Name: "num_nonnulls", Args: []types.T{tAny}, Variadic: true, Ret: tInt4, Kernel: countNulls(false)},
		{Name: "width_bucket", Args: []types.T{tFloat8, tFloat8, tFloat8, tInt4}, Ret: tInt4, Strict: true, Kernel: rawRowFunc(tInt4, widthBucketRow)},
		{Name: "width_bucket", Args: []types.T{tNumeric, tNumeric, tNumeric, tInt4}, Ret: tInt4, Strict: true, Kernel: numericIntKernel(widthBucketNumeric)},
		// uuid is a String variant (types.UUID) holding the canonical text.
		{Name: "gen_random_uuid", Ret: types.UUIDType, Volatile: true, Kernel: rowKernel(types.UUIDType, false, func([]arrow.Array) (func(int) (any, error), error) {
			return func(int) (any, error) { return randomUUID() }, nil
		})},
	}
}

// randomUUID is a version 4 UUID (RFC 4122) in uuid's text form.
func randomUUID() (string, error) {
	var u [16]byte
	if _, err := rand.Read(u[:]); err != nil {
		return "", err
	}
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	h := hex.EncodeToString(u[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:], nil
}

// countNulls counts the NULL (or non-NULL) arguments of each row; it is
// not strict (a NULL argument is what it counts).
func countNulls(nulls bool) Kernel {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		return rowKernel(tInt4, false, func(args []arrow.Array) (func(int) (any, error), error) {
			return func(i int) (any, error) {
				c := int64(0)
				for _, a := range args {
					if a.IsNull(i) == nulls {
						c++
					}
				}
				return c, nil
			}, nil
		})(ctx, mem, args, n)
	}
}

func errWidthBucket(msg string) error {
	return sqlerr.New(sqlerr.Code("2201G"), "%s", msg)
}

// widthBucketRow is PostgreSQL 15's width_bucket_float8, computation
// order included (the quotient first, then times count), so that the
// bucket of a value on a boundary is PostgreSQL's.
func widthBucketRow(a []arrow.Array, i int) (any, error) {
	f := func(k int) float64 { return floatAt(a[k], i) }
	op, b1, b2, count := f(0), f(1), f(2), intArg(a, 3, i)
	if count <= 0 {
		return nil, errWidthBucket("count must be greater than zero")
	}
	if math.IsNaN(op) || math.IsNaN(b1) || math.IsNaN(b2) {
		return nil, errWidthBucket("operand, lower bound, and upper bound cannot be NaN")
	}
	if math.IsInf(b1, 0) || math.IsInf(b2, 0) {
		return nil, errWidthBucket("lower and upper bounds must be finite")
	}
	var r int64
	switch {
	case b1 < b2:
		r = ascendingBucket(op, b1, b2, count)
	case b1 > b2:
		// PostgreSQL's descending branch computes count*(b1-op)/(b1-b2):
		// the ascending one over the negated values, bit for bit.
		r = ascendingBucket(-op, -b1, -b2, count)
	default:
		return nil, errWidthBucket("lower bound cannot equal upper bound")
	}
	if r > math.MaxInt32 {
		return nil, types.IntOutOfRange(types.Int32Type)
	}
	return r, nil
}

// ascendingBucket is width_bucket's bucket of op for lower bound b1 below
// upper bound b2 as PostgreSQL 15 computes it: count*(op-b1)/(b2-b1)+1 in
// that order, with no clamping, stored into an int32 (PostgreSQL 16
// clamps and halves an overflowing span; 15 does neither).
func ascendingBucket(op, b1, b2 float64, count int64) int64 {
	switch {
	case op < b1:
		return 0
	case op >= b2:
		return count + 1
	}
	return cInt32(float64(count)*(op-b1)/(b2-b1) + 1)
}

// cInt32 is C's conversion of a double to int32 on x86-64 (cvttsd2si):
// truncation toward zero, and INT_MIN for NaN or a value out of range, as
// width_bucket's result is when the span overflows to infinity.
func cInt32(f float64) int64 {
	if math.IsNaN(f) || f >= 1<<31 || f <= -(1<<31)-1 {
		return math.MinInt32
	}
	return int64(f)
}

// widthBucketNumeric is width_bucket(numeric, numeric, numeric, int4) as
// PostgreSQL 15's width_bucket_numeric and compute_bucket compute it: the
// product by count exact, the quotient rounded at select_div_scale, plus
// one and floored, so that a quotient rounding up to count gives count+1
// (and 22003 past int4).
func widthBucketNumeric(nums []*apd.Decimal, ints []int64) (any, error) {
	op, b1, b2, count := nums[0], nums[1], nums[2], ints[0]
	if count <= 0 {
		return nil, errWidthBucket("count must be greater than zero")
	}
	if numeric.IsNaN(op) || numeric.IsNaN(b1) || numeric.IsNaN(b2) {
		return nil, errWidthBucket("operand, lower bound, and upper bound cannot be NaN")
	}
	if numeric.IsInf(b1) || numeric.IsInf(b2) {
		return nil, errWidthBucket("lower and upper bounds must be finite")
	}
	dir := numeric.Cmp(b1, b2)
	if dir == 0 {
		return nil, errWidthBucket("lower bound cannot equal upper bound")
	}
	asc := dir < 0 // else compare and subtract the other way round
	c1, c2 := numeric.Cmp(op, b1), numeric.Cmp(op, b2)
	var r int64
	switch {
	case asc && c1 < 0 || !asc && c1 > 0:
		return int64(0), nil
	case asc && c2 >= 0 || !asc && c2 <= 0:
		r = count + 1
	default:
		var err error
		if r, err = numericBucket(op, b1, b2, count, asc); err != nil {
			return nil, err
		}
	}
	if r > math.MaxInt32 || r < math.MinInt32 {
		return nil, types.IntOutOfRange(types.Int32Type)
	}
	return r, nil
}

// numericBucket is compute_bucket: floor(count*(op-b1)/(b2-b1) + 1), the
// differences taken the other way round for descending bounds.
func numericBucket(op, b1, b2 *apd.Decimal, count int64, asc bool) (int64, error) {
	var num, den *apd.Decimal
	if asc {
		num, den = numeric.AddVar(op, b1, true), numeric.AddVar(b2, b1, true)
	} else {
		num, den = numeric.AddVar(b1, op, true), numeric.AddVar(b1, b2, true)
	}
	num = numeric.MulVar(num, numeric.FromInt64(count))
	q, err := numeric.DivRound(num, den, numeric.DivScale(num, den))
	if err != nil {
		return 0, err
	}
	r, err := numeric.Floor(numeric.AddVar(q, numeric.FromInt64(1), false))
	if err != nil {
		return 0, err
	}
	v, ok, err := numeric.ToInt64(r, "integer")
	if err != nil {
		return 0, err
	}
	if !ok {
		return math.MaxInt64, nil // out of int4's range
	}
	return v, nil
}

// glibcCbrt is glibc's cbrt (sysdeps/ieee754/dbl-64/s_cbrt.c), which
// PostgreSQL's cbrt calls on Linux: a polynomial first guess refined by
// one Halley step, so its last binary digit is glibc's (cbrt(27) is
// 3.0000000000000004 there and here; Go's math.Cbrt gives 3). The float64
// conversions keep Go from fusing multiply-adds, which C does not do.
func glibcCbrt(x float64) float64 {
	const cbrt2, sqrCbrt2 = 1.2599210498948731648, 1.5874010519681994748
	factor := [5]float64{1.0 / sqrCbrt2, 1.0 / cbrt2, 1.0, cbrt2, sqrCbrt2}
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x + x
	}
	xm, xe := math.Frexp(math.Abs(x))
	p := 0.784932344976639262 - float64(0.145263899385486377*xm)
	p = -1.83469277483613086 + float64(p*xm)
	p = 2.44693122563534430 + float64(p*xm)
	p = -2.11499494167371287 + float64(p*xm)
	p = 1.50819193781584896 + float64(p*xm)
	u := 0.354895765043919860 + float64(p*xm)
	t2 := float64(float64(u*u) * u)
	ym := float64(float64(float64(u*float64(t2+float64(2.0*xm)))/float64(float64(2.0*t2)+xm)) * factor[2+xe%3])
	if x < 0 {
		ym = -ym
	}
	return math.Ldexp(ym, xe/3)
}

// floatAt reads a float8 (or float4) argument.
func floatAt(a arrow.Array, i int) float64 {
	switch x := a.(type) {
	case *array.Float64:
		return x.Value(i)
	case *array.Float32:
		return float64(x.Value(i))
	}
	return math.NaN()
}

// numericIntKernel is an int4 function of numeric arguments followed by
// integer ones (width_bucket(numeric, numeric, numeric, int4)).
func numericIntKernel(body func(nums []*apd.Decimal, ints []int64) (any, error)) Kernel {
	return rowKernel(tInt4, true, func(args []arrow.Array) (func(int) (any, error), error) {
		nums, ints, err := numericIntArgs(args) // math.go
		if err != nil {
			return nil, err
		}
		nv, iv := make([]*apd.Decimal, len(nums)), make([]int64, len(ints))
		scratch := make([]apd.Decimal, len(nums))
		return func(i int) (any, error) {
			for k, r := range nums {
				nv[k] = r(i, &scratch[k])
			}
			for k, g := range ints {
				iv[k] = g(i)
			}
			return body(nv, iv)
		}, nil
	})
}
