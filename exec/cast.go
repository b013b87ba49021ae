package exec

import (
	"math"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// CastExpr converts X to T with PostgreSQL's rules and errors.
type CastExpr struct {
	X Expr
	T types.T
}

func (e *CastExpr) Type() types.T  { return e.T }
func (e *CastExpr) String() string { return "CAST(" + e.X.String() + " AS " + e.T.String() + ")" }

func (e *CastExpr) Eval(ec *EvalContext, batch arrow.RecordBatch) (arrow.Array, error) {
	xa, err := e.X.Eval(ec, batch)
	if err != nil {
		return nil, err
	}
	defer xa.Release()
	from := e.X.Type()
	b := array.NewBuilder(ec.Mem, e.T.ArrowType())
	defer b.Release()
	n := xa.Len()
	b.Reserve(n)
	for i := 0; i < n; i++ {
		v, err := CastValue(valueAt(xa, i), from, e.T)
		if err != nil {
			return nil, err
		}
		appendValue(b, v)
	}
	return b.NewArray(), nil
}

// CastValue converts one physical value between types.
func CastValue(v any, from, to types.T) (any, error) {
	out, err := castValue(v, from, to)
	if f, ok := out.(float64); ok && err == nil && to.Kind == types.Float32 {
		// a real holds only float32 precision, wherever the value came from
		out = float64(float32(f))
	}
	return out, err
}

func castValue(v any, from, to types.T) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch {
	case to.IsString():
		s := types.FormatText(v, from)
		if to.Length > 0 && to.Kind == types.String && len([]rune(s)) > to.Length {
			// explicit casts to varchar(n) truncate, as PostgreSQL does
			s = string([]rune(s)[:to.Length])
		}
		return s, nil
	case from.Kind == types.Unknown || from.IsString():
		return types.ParseText(v.(string), to)
	}
	switch from.Kind {
	case types.Int8, types.Int16, types.Int32, types.Int64, types.Oid:
		x := v.(int64)
		switch {
		case to.IsInteger():
			return checkInt(x, to)
		case to.Kind == types.Oid:
			return x, nil
		case to.IsFloat():
			return float64(x), nil
		case to.Kind == types.Decimal:
			return types.DecimalFromRat(new(big.Rat).SetInt64(x), to)
		case to.Kind == types.Bool:
			return x != 0, nil
		}
	case types.Float32, types.Float64:
		x := v.(float64)
		switch {
		case to.IsInteger():
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, outOfRangeErr(to)
			}
			r := math.RoundToEven(x)
			if r < -9.223372036854775808e18 || r >= 9.223372036854775808e18 {
				return nil, outOfRangeErr(to)
			}
			return checkInt(int64(r), to)
		case to.Kind == types.Float32:
			if !math.IsInf(x, 0) && math.IsInf(float64(float32(x)), 0) {
				return nil, sqlerr.New(sqlerr.NumericValueOutOfRange, "value out of range: overflow")
			}
			if x != 0 && float32(x) == 0 {
				return nil, sqlerr.New(sqlerr.NumericValueOutOfRange, "value out of range: underflow")
			}
			return float64(float32(x)), nil
		case to.Kind == types.Float64:
			return x, nil
		case to.Kind == types.Decimal:
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, sqlerr.New(sqlerr.FeatureNotSupported, "cannot convert %s to numeric", types.FormatFloat(x, 64))
			}
			r, _ := new(big.Rat).SetString(types.FormatFloat(x, 64))
			return types.DecimalFromRat(r, to)
		}
	case types.Decimal:
		x := v.(decimal128.Num)
		rat := new(big.Rat).SetFrac(x.BigInt(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(from.Scale)), nil))
		switch {
		case to.IsInteger():
			d, err := types.DecimalFromRat(rat, types.T{Kind: types.Decimal, Precision: 38})
			if err != nil || !d.BigInt().IsInt64() {
				return nil, outOfRangeErr(to)
			}
			return checkInt(d.BigInt().Int64(), to)
		case to.IsFloat():
			f, _ := rat.Float64()
			return f, nil
		case to.Kind == types.Decimal:
			return types.DecimalFromRat(rat, to)
		}
	case types.Bool:
		if to.IsInteger() {
			if v.(bool) {
				return int64(1), nil
			}
			return int64(0), nil
		}
	case types.Date, types.Timestamp, types.TimestampTZ:
		switch to.Kind {
		case types.Date, types.Timestamp, types.TimestampTZ:
			return types.TimeToValue(types.ValueToTime(v, from), to), nil
		}
	case types.Bytes, types.Binary:
		if to.Kind == types.Bytes || to.Kind == types.Binary {
			return v, nil
		}
	}
	return nil, sqlerr.New(sqlerr.CannotCoerce, "cannot cast type %s to %s", from.PGName(), to.PGName())
}

func checkInt(x int64, to types.T) (any, error) {
	lo, hi := types.IntRange(to.Kind)
	if x < lo || x > hi {
		return nil, outOfRangeErr(to)
	}
	return x, nil
}

func outOfRangeErr(t types.T) error {
	return sqlerr.New(sqlerr.NumericValueOutOfRange, "%s out of range", intTypeWord(t))
}
