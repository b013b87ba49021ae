package relop

import (
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// NumericAvgScale is the fixed scale of numeric averages, variances and
// standard deviations. PostgreSQL chooses the scale of a numeric quotient
// per value (at least 16 significant digits: avg(int) of 2.5 prints
// 2.5000000000000000, of 25000 prints 25000.000000000000); an Arrow column
// has one scale, so we use 16 — PostgreSQL's scale for averages below
// 10000 in magnitude — or the argument's scale when it is larger.
const NumericAvgScale = 16

// AggResultType is the type PostgreSQL 15 gives aggregate fn over an
// argument of type arg (count(*) ignores arg).
func AggResultType(fn string, arg types.T) (types.T, error) {
	fn = strings.ToLower(fn)
	arg = arg.Nullable()
	bad := func() (types.T, error) {
		return types.T{}, sqlerr.New(sqlerr.UndefinedFunction, "function %s(%s) does not exist", fn, arg.PGName())
	}
	switch fn {
	case "count":
		return types.Int64Type, nil
	case "sum":
		switch {
		case arg.Variant == types.Money:
			return arg.Nullable(), nil // cash_pl's sum: money (sumIntAcc)
		case arg.Kind == types.Int8 || arg.Kind == types.Int16 || arg.Kind == types.Int32:
			return types.Int64Type, nil
		case arg.Kind == types.Int64:
			return types.NumericType, nil
		case arg.Kind == types.Decimal:
			return types.NumericType, nil
		case arg.Kind == types.Float32:
			return types.Float32Type, nil
		case arg.Kind == types.Float64:
			return types.Float64Type, nil
		case arg.Kind == types.Interval:
			return arg.Nullable(), nil
		}
		return bad()
	case "avg":
		switch {
		case arg.Kind == types.Interval:
			return arg.Nullable(), nil
		case arg.IsInteger(), arg.Kind == types.Decimal:
			return types.NumericType, nil
		case arg.IsFloat():
			return types.Float64Type, nil
		}
		return bad()
	case "stddev", "stddev_samp", "stddev_pop", "variance", "var_samp", "var_pop":
		switch {
		case arg.IsInteger(), arg.Kind == types.Decimal:
			return types.NumericType, nil
		case arg.IsFloat():
			return types.Float64Type, nil
		}
		return bad()
	case "corr", "covar_pop", "covar_samp", "regr_avgx", "regr_avgy", "regr_intercept", "regr_r2", "regr_slope",
		"regr_sxx", "regr_sxy", "regr_syy":
		if arg.Kind != types.Float64 {
			return bad()
		}
		return types.Float64Type, nil
	case "regr_count":
		if arg.Kind != types.Float64 {
			return bad()
		}
		return types.Int64Type, nil
	case "min", "max":
		if arg.IsNested() || arg.Kind == types.Unknown || arg.Kind == types.Null {
			return bad()
		}
		if arg.Kind == types.Bool {
			return bad() // PostgreSQL has no min/max over booleans
		}
		if arg.Variant.IsReg() {
			// min(regclass) is min(oid): the reg types are binary-coercible
			// to oid, PostgreSQL's only candidate.
			arg.Variant = types.NoVariant
		}
		return arg, nil
	case "bool_and", "bool_or", "every":
		if arg.Kind != types.Bool {
			return bad()
		}
		return types.BoolType, nil
	case "bit_and", "bit_or", "bit_xor":
		if arg.IsBitString() {
			return types.BitType(0), nil // bitstringagg.go
		}
		if arg.Kind != types.Int16 && arg.Kind != types.Int32 && arg.Kind != types.Int64 {
			return bad()
		}
		return arg.Nullable(), nil
	case "string_agg":
		switch arg.Kind {
		case types.String, types.Char, types.Unknown:
			return types.StringType, nil
		case types.Bytes, types.Binary:
			return types.BytesType, nil
		}
		return bad()
	case "array_agg":
		// an anonymous record (ROW(a, b)) collects into record[]; a Fluss
		// ROW or MAP has no array type in PostgreSQL's terms
		if arg.IsNested() && arg.Kind != types.Array && !arg.IsAnonRecord() {
			return bad()
		}
		return types.ArrayOf(arg), nil
	}
	return types.T{}, sqlerr.New(sqlerr.UndefinedFunction, "function %s does not exist", fn)
}
