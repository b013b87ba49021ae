package exec

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// ArithOp is + - * / %.
type ArithOp uint8

// The arithmetic operators.
const (
	Add ArithOp = iota
	Sub
	Mul
	Div
	Mod
)

var arithNames = [...]string{"+", "-", "*", "/", "%"}

// ArithExpr applies an arithmetic operator to two operands of the same
// numeric type T (the binder inserted the casts); for decimals the operands
// carry their own scales and T the result's.
type ArithExpr struct {
	Op   ArithOp
	L, R Expr
	T    types.T
}

func (e *ArithExpr) Type() types.T { return e.T }
func (e *ArithExpr) String() string {
	return "(" + e.L.String() + " " + arithNames[e.Op] + " " + e.R.String() + ")"
}

func (e *ArithExpr) Eval(ec *EvalContext, batch arrow.RecordBatch) (arrow.Array, error) {
	if f := arithFamily(e.Op, e.T); (f == FamIntMul || f == FamIntAddSub) && ec.backendFor(f) == BackendNative &&
		e.L.Type().Kind == e.T.Kind && e.R.Type().Kind == e.T.Kind {
		return e.evalIntArith(ec, batch)
	}
	la, ra, err := evalBoth(ec, batch, e.L, e.R)
	if err != nil {
		return nil, err
	}
	defer la.Release()
	defer ra.Release()
	if ec.backendFor(arithFamily(e.Op, e.T)) == BackendArrow {
		// arrow-go's checked kernels also check the slots of NULL rows,
		// whose values are arbitrary: a failure is decided again by the
		// native loop below, which reports only rows that are not NULL.
		if out, err := arrowIntArith(ec, e, la, ra); err == nil {
			return out, nil
		}
	}
	n := la.Len()
	validity, nulls := combinedValidity(ec.Mem, n, la, ra)
	if validity != nil {
		defer validity.Release()
	}
	switch e.T.Kind {
	case types.Int16:
		return intArith(ec.Mem, e.Op, e.T, validity, nulls, la.(*array.Int16).Int16Values(), ra.(*array.Int16).Int16Values())
	case types.Int32:
		return intArith(ec.Mem, e.Op, e.T, validity, nulls, la.(*array.Int32).Int32Values(), ra.(*array.Int32).Int32Values())
	case types.Int64:
		return intArith(ec.Mem, e.Op, e.T, validity, nulls, la.(*array.Int64).Int64Values(), ra.(*array.Int64).Int64Values())
	case types.Float32:
		return floatArith(ec.Mem, e.Op, e.T, validity, nulls, la.(*array.Float32).Float32Values(), ra.(*array.Float32).Float32Values())
	case types.Float64:
		return floatArith(ec.Mem, e.Op, e.T, validity, nulls, la.(*array.Float64).Float64Values(), ra.(*array.Float64).Float64Values())
	case types.Decimal:
		return numericArith(ec.Mem, e.Op, la, ra)
	}
	return nil, sqlerr.New(sqlerr.FeatureNotSupported, "arithmetic on %s is not supported", e.T)
}

type signedInt interface{ ~int16 | ~int32 | ~int64 }

// intArith is checked integer arithmetic. It computes every slot, NULL ones
// included (their values are arbitrary), and reports overflow or division by
// zero only for rows where both inputs are valid.
func intArith[T signedInt](mem memory.Allocator, op ArithOp, t types.T, validity *memory.Buffer, nulls int, a, b []T) (arrow.Array, error) {
	out, data := fixedArray[T](mem, t.ArrowType(), len(a), validity, nulls)
	defer data.Release()
	lo, hi := types.IntRange(t.Kind)
	valid := func(i int) bool {
		return validity == nil || validity.Bytes()[i>>3]&(1<<(uint(i)&7)) != 0
	}
	bad := -1
	switch op {
	case Add, Sub, Mul:
		if t.Kind == types.Int64 {
			for i := range a {
				x, y := int64(a[i]), int64(b[i])
				var r int64
				ok := true
				switch op {
				case Add:
					r = x + y
					ok = (x >= 0) != (y >= 0) || (r >= 0) == (x >= 0)
				case Sub:
					r = x - y
					ok = (x >= 0) == (y >= 0) || (r >= 0) == (x >= 0)
				case Mul:
					r = x * y
					ok = x == 0 || (r/x == y && !(x == -1 && y == math.MinInt64) && !(y == -1 && x == math.MinInt64))
				}
				out[i] = T(r)
				if !ok && bad < 0 && valid(i) {
					bad = i
				}
			}
		} else {
			for i := range a {
				x, y := int64(a[i]), int64(b[i])
				var r int64
				switch op {
				case Add:
					r = x + y
				case Sub:
					r = x - y
				case Mul:
					r = x * y
				}
				out[i] = T(r)
				if (r < lo || r > hi) && bad < 0 && valid(i) {
					bad = i
				}
			}
		}
		if bad >= 0 {
			return nil, types.IntOutOfRange(t)
		}
	case Div, Mod:
		for i := range a {
			x, y := int64(a[i]), int64(b[i])
			if y == 0 {
				if valid(i) {
					return nil, sqlerr.DivideByZero()
				}
				out[i] = 0
				continue
			}
			if op == Div {
				if y == -1 && x == lo {
					if valid(i) {
						return nil, types.IntOutOfRange(t)
					}
					out[i] = 0
					continue
				}
				out[i] = T(x / y)
			} else {
				if y == -1 {
					out[i] = 0
					continue
				}
				out[i] = T(x % y)
			}
		}
	}
	return array.MakeFromData(data), nil
}

type floatT interface{ ~float32 | ~float64 }

// floatArith is IEEE arithmetic, except that PostgreSQL raises 22012 for
// division by zero and 22003 when a finite computation overflows.
func floatArith[T floatT](mem memory.Allocator, op ArithOp, t types.T, validity *memory.Buffer, nulls int, a, b []T) (arrow.Array, error) {
	out, data := fixedArray[T](mem, t.ArrowType(), len(a), validity, nulls)
	defer data.Release()
	valid := func(i int) bool {
		return validity == nil || validity.Bytes()[i>>3]&(1<<(uint(i)&7)) != 0
	}
	for i := range a {
		x, y := a[i], b[i]
		var r T
		switch op {
		case Add:
			r = x + y
		case Sub:
			r = x - y
		case Mul:
			r = x * y
		case Div:
			// PostgreSQL's float8div: x / 0 is an error unless x is NaN.
			if y == 0 && !math.IsNaN(float64(x)) {
				if valid(i) {
					return nil, sqlerr.DivideByZero()
				}
				continue
			}
			r = x / y
		case Mod:
			if y == 0 {
				if valid(i) {
					return nil, sqlerr.DivideByZero()
				}
				continue
			}
			r = T(math.Mod(float64(x), float64(y)))
		}
		if math.IsInf(float64(r), 0) && !math.IsInf(float64(x), 0) && !math.IsInf(float64(y), 0) && valid(i) {
			return nil, sqlerr.New(sqlerr.NumericValueOutOfRange, "value out of range: overflow")
		}
		// PostgreSQL also reports a product or quotient of non-zero
		// values that rounds to zero.
		if r == 0 && x != 0 && (op == Div || (op == Mul && y != 0)) && !math.IsInf(float64(y), 0) && valid(i) {
			return nil, sqlerr.New(sqlerr.NumericValueOutOfRange, "value out of range: underflow")
		}
		out[i] = r
	}
	return array.MakeFromData(data), nil
}

func rescale(v decimal128.Num, from, to int) decimal128.Num {
	for from < to {
		v = v.Mul(decimal128.FromI64(10))
		from++
	}
	return v
}
