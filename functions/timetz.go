package functions

import (
	"context"
	"math"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// The functions and operators of time with time zone (types/timetz.go) as
// PostgreSQL 15 has them: current_time, timetz ± interval, date + timetz,
// timezone(zone, timetz) (x AT TIME ZONE zone), and extract/date_part of
// a timetz's fields. The same field extraction serves time (time_part).

var tzT = types.TimeTZType(6)

func timeTZFuncs() []*Func {
	fs := []*Func{
		{Name: "current_time", Ret: tzT, Volatile: true, Kernel: currentTime(6)},
		{Name: "current_time", Args: []types.T{tInt4}, Ret: tzT, Volatile: true, Kernel: currentTime(6),
			specialize: currentTimeSpecialize},
		{Name: "__timetz_pl_interval", Args: []types.T{tzT, ivT}, Ret: tzT, Strict: true, Kernel: timeTZPlusInterval(1)},
		{Name: "__timetz_mi_interval", Args: []types.T{tzT, ivT}, Ret: tzT, Strict: true, Kernel: timeTZPlusInterval(-1)},
		{Name: "__date_pl_timetz", Args: []types.T{dateT, tzT}, Ret: tstzT, Strict: true, Kernel: datePlusTimeTZ},
		{Name: "timestamptz", Args: []types.T{dateT, tzT}, Ret: tstzT, Strict: true, Kernel: datePlusTimeTZ},
		{Name: "timezone", Args: []types.T{tText, tzT}, Ret: tzT, Volatile: true, Strict: true, Kernel: timeTZAtZone},
		{Name: "timezone", Args: []types.T{ivT, tzT}, Ret: tzT, Strict: true, Kernel: timeTZAtInterval},
	}
	for _, t := range []types.T{tzT, timeT} {
		fs = append(fs,
			&Func{Name: "date_part", Args: []types.T{tText, t}, Ret: tFloat8, Strict: true, Kernel: timePart(t, false, 6)},
			&Func{Name: "extract", Args: []types.T{tText, t}, Ret: tNumeric, Strict: true, specialize: timePartSpecialize(t)},
		)
	}
	return fs
}

// currentTime is current_time: the transaction's start as a wall time in
// the session's zone with the offset in force, rounded to p digits.
func currentTime(p int) Kernel {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		v := types.RoundTimeTZ(types.TimeTZAt(clockOf(ctx).TransactionStart, LocationOf(ctx)), p)
		b := array.NewInt64Builder(mem)
		defer b.Release()
		b.Reserve(n)
		for i := 0; i < n; i++ {
			b.UnsafeAppend(v)
		}
		return b.NewArray(), nil
	}
}

// currentTimeSpecialize types current_time(p) as timetz(p); p must be a
// constant, as in PostgreSQL's grammar (a larger one is held at 6).
func currentTimeSpecialize(_ []types.T, consts []any) (types.T, Kernel) {
	p, ok := consts[0].(int64)
	if !ok {
		return tzT, unsupported("current_time with a precision that is not a constant")
	}
	if p < 0 {
		return tzT, func(context.Context, memory.Allocator, []arrow.Array, int) (arrow.Array, error) {
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "TIME(%d) WITH TIME ZONE precision must not be negative", p)
		}
	}
	p = min(p, 6)
	return types.TimeTZType(int(p)), currentTime(int(p))
}

func timeTZArg(k int, a arrow.Array) (*array.Int64, error) {
	return argAs[*array.Int64](k, a, "time with time zone")
}

// timeTZPlusInterval is timetz ± interval: the interval's time part moves
// the time of day around the clock; the zone stays.
func timeTZPlusInterval(sign int64) Kernel {
	return rowKernel(tzT, true, func(args []arrow.Array) (func(int) (any, error), error) {
		tz, err := timeTZArg(0, args[0])
		if err != nil {
			return nil, err
		}
		iv, err := intervalGetter(1, args[1])
		if err != nil {
			return nil, err
		}
		return func(i int) (any, error) {
			return types.TimeTZAddMicros(tz.Value(i), sign*(types.IntervalMicros(iv.Value(i))%types.USecsPerDay)), nil
		}, nil
	})
}

// datePlusTimeTZ is date + timetz (and timestamptz(date, timetz)): the
// instant at that time of day on that date, at the timetz's offset.
func datePlusTimeTZ(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
	return rowKernel(tstzT, true, func(args []arrow.Array) (func(int) (any, error), error) {
		d, ok := args[0].(*array.Date32)
		if !ok {
			return nil, badArg(0, args[0], "date")
		}
		tz, err := timeTZArg(1, args[1])
		if err != nil {
			return nil, err
		}
		return func(i int) (any, error) {
			if sign := types.InfiniteSign(int32(d.Value(i)), dateT); sign != 0 {
				v, _ := types.InfiniteValue(sign, tstzT) // an infinite date stays infinite
				return v, nil
			}
			day, err := types.DateMicros(int32(d.Value(i)))
			if err != nil {
				return nil, err
			}
			us, zone := types.TimeTZParts(tz.Value(i))
			return addTimeOfDay(day, us+int64(zone)*1e6) // interval.go
		}, nil
	})(ctx, mem, args, n)
}

// timeTZAtZone is timezone(zone text, timetz): the same instant at the
// zone's offset, a tz database name taking the offset in force at the
// transaction's start (as PostgreSQL's timetz_zone does).
func timeTZAtZone(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
	at := clockOf(ctx).TransactionStart
	return rowKernel(tzT, true, func(args []arrow.Array) (func(int) (any, error), error) {
		ss, err := strArgs(args[:1])
		if err != nil {
			return nil, err
		}
		tz, err := timeTZArg(1, args[1])
		if err != nil {
			return nil, err
		}
		lastName, lastZone := "", int32(0)
		haveLast := false
		return func(i int) (any, error) {
			if name := ss[0].Value(i); !haveLast || name != lastName {
				loc, err := types.ZoneByName(name)
				if err != nil {
					return nil, err
				}
				lastName, lastZone, haveLast = name, types.ZoneWestNow(at, loc), true
			}
			return types.TimeTZShift(tz.Value(i), lastZone), nil
		}, nil
	})(ctx, mem, args, n)
}

// timeTZAtInterval is timezone(zone interval, timetz): the zone an
// interval east of UTC, which must have no months or days.
func timeTZAtInterval(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
	return rowKernel(tzT, true, func(args []arrow.Array) (func(int) (any, error), error) {
		iv, err := intervalGetter(0, args[0])
		if err != nil {
			return nil, err
		}
		tz, err := timeTZArg(1, args[1])
		if err != nil {
			return nil, err
		}
		return func(i int) (any, error) {
			z := iv.Value(i)
			if z.Months != 0 || z.Days != 0 {
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "interval time zone %q must not include months or days", types.FormatInterval(z))
			}
			return types.TimeTZShift(tz.Value(i), int32(-(z.Nanoseconds / 1000 / 1e6))), nil
		}, nil
	})(ctx, mem, args, n)
}

// timePartSpecialize fixes extract()'s numeric scale for a time or timetz
// from a constant unit, as extractSpecialize does for timestamps.
func timePartSpecialize(t types.T) func([]types.T, []any) (types.T, Kernel) {
	return func(_ []types.T, consts []any) (types.T, Kernel) {
		scale := 6
		if s, ok := consts[0].(string); ok {
			if u, ok := canonicalUnit(s); ok {
				scale = extractScale(u, t.Kind)
			}
		}
		return decResultType(scale), timePart(t, true, scale)
	}
}

// timePart is extract() (numeric at outScale) or date_part() (double) of
// a time or timetz, as PostgreSQL's time_part_common and
// timetz_part_common compute them.
func timePart(t types.T, numeric bool, outScale int) Kernel {
	ret := tFloat8
	if numeric {
		ret = decResultType(outScale)
	}
	return rowKernel(ret, true, func(args []arrow.Array) (func(int) (any, error), error) {
		ss, err := strArgs(args[:1])
		if err != nil {
			return nil, err
		}
		get, err := timeOfDayGetter(t, args[1])
		if err != nil {
			return nil, err
		}
		return func(i int) (any, error) {
			us, zone := get(i)
			v, s, err := timeOfDayField(ss[0].Value(i), us, zone, t)
			if err != nil {
				return nil, err
			}
			if numeric {
				return numericFromBig(rescaleBig(big.NewInt(v), s, outScale, false), outScale)
			}
			return float64(v) / math.Pow10(s), nil
		}, nil
	})
}

// timeOfDayGetter reads a time (any Arrow time unit) or timetz array as
// microseconds of the day and a zone (seconds west; 0 for time).
func timeOfDayGetter(t types.T, a arrow.Array) (func(int) (int64, int32), error) {
	switch x := a.(type) {
	case *array.Int64:
		if t.Kind == types.TimeTZ {
			return func(i int) (int64, int32) { return types.TimeTZParts(x.Value(i)) }, nil
		}
	case *array.Time32:
		return func(i int) (int64, int32) { return int64(x.Value(i)) * 1000, 0 }, nil
	case *array.Time64:
		if x.DataType().(*arrow.Time64Type).Unit == arrow.Nanosecond {
			return func(i int) (int64, int32) { return int64(x.Value(i)) / 1000, 0 }, nil
		}
		return func(i int) (int64, int32) { return int64(x.Value(i)), 0 }, nil
	}
	return nil, badArg(1, a, t.PGName())
}

// timeOfDayField computes unit of a time of day (and zone, seconds west, for
// a timetz) as an unscaled integer at the scale returned. The unit in
// messages is the one written, lower-cased, as PostgreSQL reports it.
func timeOfDayField(unitText string, us int64, zone int32, t types.T) (int64, int, error) {
	unit, ok := canonicalUnit(unitText)
	if !ok {
		return 0, 0, unitNotRecognized(unitText, t.PGName())
	}
	usOfMinute := us % 60e6
	withZone := t.Kind == types.TimeTZ
	switch {
	case unit == "microseconds":
		return usOfMinute, 0, nil
	case unit == "milliseconds":
		return usOfMinute, 3, nil
	case unit == "second":
		return usOfMinute, 6, nil
	case unit == "minute":
		return us / 60e6 % 60, 0, nil
	case unit == "hour":
		return us / 3600e6, 0, nil
	case unit == "epoch":
		return us + int64(zone)*1e6, 6, nil
	case withZone && unit == "timezone":
		return int64(-zone), 0, nil
	case withZone && unit == "timezone_hour":
		return int64(-zone / 3600), 0, nil
	case withZone && unit == "timezone_minute":
		return int64(-zone / 60 % 60), 0, nil
	}
	return 0, 0, unitNotSupported(unitText, t.PGName())
}
