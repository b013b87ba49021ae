package functions

import (
	"context"
	"github.com/sqlgate/sqlgate/types/numeric"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// The helpers below build kernels out of per-row functions. Every builder
// checks the argument arrays' Go types once, up front, and reports a
// mismatch as an internal error (the caller did not cast as Resolve said)
// rather than panicking.

func anyNull(args []arrow.Array, i int) bool {
	for _, a := range args {
		if a.NullN() > 0 && a.IsNull(i) {
			return true
		}
	}
	return false
}

func badArg(i int, a arrow.Array, want string) error {
	return sqlerr.New(sqlerr.InternalError, "function argument %d is %s, want %s", i+1, a.DataType(), want)
}

func checkArity(args []arrow.Array, n int) error {
	for i, a := range args {
		if a.Len() != n {
			return sqlerr.New(sqlerr.InternalError, "function argument %d has %d rows, want %d", i+1, a.Len(), n)
		}
	}
	return nil
}

func strArgs(args []arrow.Array) ([]*array.String, error) {
	out := make([]*array.String, len(args))
	for i, a := range args {
		s, ok := a.(*array.String)
		if !ok {
			return nil, badArg(i, a, "utf8")
		}
		out[i] = s
	}
	return out, nil
}

// intGetter returns a reader of an integer array of any width as int64.
func intGetter(i int, a arrow.Array) (func(int) int64, error) {
	switch x := a.(type) {
	case *array.Int8:
		return func(r int) int64 { return int64(x.Value(r)) }, nil
	case *array.Int16:
		return func(r int) int64 { return int64(x.Value(r)) }, nil
	case *array.Int32:
		return func(r int) int64 { return int64(x.Value(r)) }, nil
	case *array.Int64:
		return x.Value, nil
	}
	return nil, badArg(i, a, "an integer")
}

// floatGetter returns a reader of a float32/float64 array as float64.
func floatGetter(i int, a arrow.Array) (func(int) float64, error) {
	switch x := a.(type) {
	case *array.Float32:
		return func(r int) float64 { return float64(x.Value(r)) }, nil
	case *array.Float64:
		return x.Value, nil
	}
	return nil, badArg(i, a, "a float")
}

// strictStringKernel: text result, NULL when any argument is NULL, body
// appends the row's value to buf and returns it (or an error).
func strictStringKernel(body func(ss []*array.String, i int, buf []byte) ([]byte, error)) Kernel {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		if err := checkArity(args, n); err != nil {
			return nil, err
		}
		ss, err := strArgs(args)
		if err != nil {
			return nil, err
		}
		b := array.NewStringBuilder(mem)
		defer b.Release()
		b.Reserve(n)
		if len(ss) > 0 {
			b.ReserveData(len(ss[0].ValueBytes()))
		}
		buf := make([]byte, 0, 64)
		for i := 0; i < n; i++ {
			if anyNull(args, i) {
				b.AppendNull()
				continue
			}
			buf, err = body(ss, i, buf[:0])
			if err != nil {
				return nil, err
			}
			b.BinaryBuilder.Append(buf)
		}
		return b.NewArray(), nil
	}
}

// rowKernel is the general per-row kernel: NULL result when any argument
// is NULL (when strict), else body's value appended to a builder of ret.
// body returns nil for a NULL result. Used where speed matters less than
// breadth (math, date/time); the string hot paths have their own loops.
func rowKernel(ret types.T, strict bool, prepare func(args []arrow.Array) (func(i int) (any, error), error)) Kernel {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		if err := checkArity(args, n); err != nil {
			return nil, err
		}
		body, err := prepare(args)
		if err != nil {
			return nil, err
		}
		b := array.NewBuilder(mem, ret.ArrowType())
		defer b.Release()
		b.Reserve(n)
		for i := 0; i < n; i++ {
			if strict && anyNull(args, i) {
				b.AppendNull()
				continue
			}
			v, err := body(i)
			if err != nil {
				return nil, err
			}
			if err := appendValue(b, v); err != nil {
				return nil, err
			}
		}
		return b.NewArray(), nil
	}
}

// appendValue appends a Go value (nil = NULL) to a builder of its type.
func appendValue(b array.Builder, v any) error { return types.AppendValue(b, v) }

// numericFromBig is the numeric v × 10^-scale.
func numericFromBig(v *big.Int, scale int) (any, error) {
	return numeric.Check(numeric.FromUnscaled(v, scale))
}

// decResultType is the type of a numeric result: unconstrained numeric,
// whose display scale is the value's own (the argument is the scale the
// kernel gives its values).
func decResultType(int) types.T { return types.NumericType }

func pow10(k int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil) }

// rescaleBig changes the scale of v from `from` to `to`, rounding half away
// from zero (or truncating toward zero when trunc) when digits are lost.
func rescaleBig(v *big.Int, from, to int, trunc bool) *big.Int {
	if to >= from {
		return new(big.Int).Mul(v, pow10(to-from))
	}
	d := pow10(from - to)
	q, r := new(big.Int).QuoRem(v, d, new(big.Int))
	if !trunc && r.Sign() != 0 && new(big.Int).Mul(new(big.Int).Abs(r), big.NewInt(2)).Cmp(d) >= 0 {
		if v.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return q
}

// boolOut fills a boolean result bit by bit.
type boolOut struct {
	vals, valid *memory.Buffer
	n           int
}

func newBoolOut(mem memory.Allocator, n int, withNulls bool) *boolOut {
	o := &boolOut{n: n, vals: memory.NewResizableBuffer(mem)}
	o.vals.Resize(int(bitutil.BytesForBits(int64(n))))
	clear(o.vals.Bytes())
	if withNulls {
		o.valid = memory.NewResizableBuffer(mem)
		o.valid.Resize(int(bitutil.BytesForBits(int64(n))))
		bs := o.valid.Bytes()
		for i := range bs {
			bs[i] = 0xff
		}
	}
	return o
}

func (o *boolOut) set(i int, v bool) {
	if v {
		bitutil.SetBit(o.vals.Bytes(), i)
	}
}

func (o *boolOut) setNull(i int) { bitutil.ClearBit(o.valid.Bytes(), i) }

// release frees the buffers when finish was not reached (error paths).
func (o *boolOut) release() {
	if o.vals != nil {
		o.vals.Release()
		o.vals = nil
	}
	if o.valid != nil {
		o.valid.Release()
		o.valid = nil
	}
}

func (o *boolOut) finish() arrow.Array {
	nulls := 0
	if o.valid != nil {
		nulls = o.n - bitutil.CountSetBits(o.valid.Bytes(), 0, o.n)
	}
	data := array.NewData(arrow.FixedWidthTypes.Boolean, o.n, []*memory.Buffer{o.valid, o.vals}, nil, nulls, 0)
	o.release()
	defer data.Release()
	return array.MakeFromData(data)
}
