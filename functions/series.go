package functions

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// seriesOverloads are generate_series's signatures in PostgreSQL 15, in
// the order of pg_proc; resolveSeries picks one of them with the same
// rules as any other function call (so generate_series(date, date,
// '1 day') is the timestamptz series, timestamptz being the preferred
// type of the date/time category, and generate_series('1', '3') is not
// unique).
var seriesOverloads = []struct {
	args []types.T
	ret  types.T
}{
	{[]types.T{types.Int32Type, types.Int32Type}, types.Int32Type},
	{[]types.T{types.Int32Type, types.Int32Type, types.Int32Type}, types.Int32Type},
	{[]types.T{types.Int64Type, types.Int64Type}, types.Int64Type},
	{[]types.T{types.Int64Type, types.Int64Type, types.Int64Type}, types.Int64Type},
	{[]types.T{types.NumericType, types.NumericType}, types.NumericType},
	{[]types.T{types.NumericType, types.NumericType, types.NumericType}, types.NumericType},
	{[]types.T{tsT, tsT, ivT}, tsT},
	{[]types.T{tstzT, tstzT, ivT}, tstzT},
}

// resolveSeries resolves generate_series(args...) among seriesOverloads.
func resolveSeries(args []types.T) (*SetFunc, error) {
	fs := make([]*Func, len(seriesOverloads))
	for i, o := range seriesOverloads {
		fs[i] = &Func{Name: "generate_series", Args: o.args, Ret: o.ret}
	}
	in := make([]pgType, len(args))
	for i, a := range args {
		in[i] = pgTypeOf(a)
	}
	c, err := pickOverload("generate_series", fs, args, in)
	if err != nil {
		return nil, err
	}
	// the declared types, not the arguments' own: a numeric(5,2) start is
	// read as numeric, an int2 as int4
	ret, want := c.f.Ret, c.decl
	sf := &SetFunc{Name: "generate_series", Args: want, Ret: ret}
	switch ret.Kind {
	case types.Int32, types.Int64:
		sf.Rows = seriesRows(ret)
	case types.Decimal:
		sf.Rows = numericSeriesRows
	default:
		sf.Rows = timestampSeriesRows(ret.Kind == types.TimestampTZ)
	}
	return sf, nil
}

// numericSeriesRows is generate_series(numeric, numeric [, numeric]):
// each value is the previous plus step, so its scale is the larger of the
// start's and the step's (1, 1.5, 2.0, ...); NaN and infinite bounds are
// refused as PostgreSQL refuses them.
func numericSeriesRows(_ context.Context, args []any) (func() (any, bool, error), error) {
	for _, a := range args {
		if a == nil {
			return none, nil
		}
	}
	cur, stop := args[0].(*apd.Decimal), args[1].(*apd.Decimal)
	step := numeric.FromInt64(1)
	if len(args) == 3 {
		step = args[2].(*apd.Decimal)
	}
	for _, b := range []struct {
		what string
		v    *apd.Decimal
	}{{"start", cur}, {"stop", stop}, {"step size", step}} {
		if numeric.IsNaN(b.v) {
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "%s value cannot be NaN", b.what)
		}
		if numeric.IsInf(b.v) {
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "%s value cannot be infinity", b.what)
		}
	}
	up := numeric.Cmp(step, numeric.FromInt64(0))
	if up == 0 {
		return nil, sqlerr.New(sqlerr.InvalidParameterValue, "step size cannot equal zero")
	}
	return func() (any, bool, error) {
		if c := numeric.Cmp(cur, stop); up > 0 && c > 0 || up < 0 && c < 0 {
			return nil, false, nil
		}
		v := cur
		next, err := numeric.Add(cur, step)
		if err != nil {
			return nil, false, err
		}
		cur = next
		return v, true, nil
	}, nil
}

// timestampSeriesRows is generate_series(timestamp[tz], timestamp[tz],
// interval): each value is the previous plus step by the rules of
// timestamp + interval (for timestamptz in the session's TimeZone, so a
// day across a DST change keeps the wall-clock time). A step equal to a
// zero interval is refused; its sign is its order against zero, as
// interval comparison has it ('1 day -25 hours' runs backwards).
func timestampSeriesRows(zoned bool) func(context.Context, []any) (func() (any, bool, error), error) {
	return func(ctx context.Context, args []any) (func() (any, bool, error), error) {
		for _, a := range args {
			if a == nil {
				return none, nil
			}
		}
		cur, stop := args[0].(int64), args[1].(int64)
		step := args[2].(arrow.MonthDayNanoInterval)
		up := types.CompareIntervals(step, arrow.MonthDayNanoInterval{})
		if up == 0 {
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "step size cannot equal zero")
		}
		loc := LocationOf(ctx)
		done := false
		return func() (any, bool, error) {
			if done || up > 0 && cur > stop || up < 0 && cur < stop {
				return nil, false, nil
			}
			v := cur
			next, err := addToTimestamp(cur, step, 1, zoned, loc)
			if err != nil {
				return nil, false, err
			}
			if next == cur {
				done = true // an infinite value plus any interval is itself
			}
			cur = next
			return v, true, nil
		}, nil
	}
}
