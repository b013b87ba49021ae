package functions

import (
	"context"
	"math"
	"math/big"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Interval arithmetic, as PostgreSQL 15's timestamp.c does it. The binder
// turns the operators (interval ± interval, -interval, interval * / float8,
// timestamp[tz] ± interval, time ± interval, timestamp[tz] - timestamp[tz],
// date + time) into these functions; their names start with "__" so that no
// query can call them directly. Timestamp operands arrive at microsecond
// precision (the binder casts them), as PostgreSQL has no finer one.
func intervalFuncs() []*Func {
	f8 := tFloat8
	timeT := types.T{Kind: types.Time, Precision: 6}
	fs := []*Func{
		{Name: "__interval_pl", Args: []types.T{ivT, ivT}, Ret: ivT, Strict: true, Kernel: intervalPair(1)},
		{Name: "__interval_mi", Args: []types.T{ivT, ivT}, Ret: ivT, Strict: true, Kernel: intervalPair(-1)},
		{Name: "__interval_um", Args: []types.T{ivT}, Ret: ivT, Strict: true, Kernel: intervalNegate},
		{Name: "__interval_mul", Args: []types.T{ivT, f8}, Ret: ivT, Strict: true, Kernel: intervalScale(false)},
		{Name: "__interval_div", Args: []types.T{ivT, f8}, Ret: ivT, Strict: true, Kernel: intervalScale(true)},
		{Name: "__ts_pl_interval", Args: []types.T{tsT, ivT}, Ret: tsT, Strict: true, Kernel: timestampPlusInterval(1, false)},
		{Name: "__ts_mi_interval", Args: []types.T{tsT, ivT}, Ret: tsT, Strict: true, Kernel: timestampPlusInterval(-1, false)},
		{Name: "__tstz_pl_interval", Args: []types.T{tstzT, ivT}, Ret: tstzT, Strict: true, Kernel: timestampPlusInterval(1, true)},
		{Name: "__tstz_mi_interval", Args: []types.T{tstzT, ivT}, Ret: tstzT, Strict: true, Kernel: timestampPlusInterval(-1, true)},
		{Name: "__ts_mi_ts", Args: []types.T{tsT, tsT}, Ret: ivT, Strict: true, Kernel: timestampDiff},
		{Name: "__tstz_mi_tstz", Args: []types.T{tstzT, tstzT}, Ret: ivT, Strict: true, Kernel: timestampDiff},
		{Name: "__time_pl_interval", Args: []types.T{timeT, ivT}, Ret: timeT, Strict: true, Kernel: timePlusInterval(1)},
		{Name: "__time_mi_interval", Args: []types.T{timeT, ivT}, Ret: timeT, Strict: true, Kernel: timePlusInterval(-1)},
		{Name: "__date_pl_time", Args: []types.T{dateT, timeT}, Ret: tsT, Strict: true, Kernel: datePlusTime},
		{Name: "justify_days", Args: []types.T{ivT}, Ret: ivT, Strict: true, Kernel: intervalMap(justifyDays)},
		{Name: "justify_hours", Args: []types.T{ivT}, Ret: ivT, Strict: true, Kernel: intervalMap(justifyHours)},
		{Name: "justify_interval", Args: []types.T{ivT}, Ret: ivT, Strict: true, Kernel: intervalMap(justifyInterval)},
		{Name: "date_part", Args: []types.T{tText, ivT}, Ret: tFloat8, Strict: true, Kernel: intervalExtract(false, -1)},
		{Name: "extract", Args: []types.T{tText, ivT}, Ret: tNumeric, Strict: true, specialize: func(_ []types.T, consts []any) (types.T, Kernel) {
			scale := 6
			if s, ok := consts[0].(string); ok {
				if u, ok := canonicalUnit(s); ok {
					scale = intervalExtractScale(u)
				}
			}
			return decResultType(scale), intervalExtract(true, scale)
		}},
		{Name: "date_trunc", Args: []types.T{tText, ivT}, Ret: ivT, Strict: true, Kernel: intervalTrunc},
	}
	// make_interval(years, months, weeks, days, hours, mins, secs), each
	// defaulting to zero: one overload per number of arguments given.
	makeArgs := []types.T{tInt4, tInt4, tInt4, tInt4, tInt4, tInt4, f8}
	for k := 0; k <= len(makeArgs); k++ {
		fs = append(fs, &Func{Name: "make_interval", Args: makeArgs[:k:k], Ret: ivT, Strict: true, Kernel: makeInterval})
	}
	return fs
}

// intervalGetter reads argument k as an interval array.
func intervalGetter(k int, a arrow.Array) (*array.MonthDayNanoInterval, error) {
	return argAs[*array.MonthDayNanoInterval](k, a, "interval")
}

// argAs reads argument k as the Arrow array type A, failing with badArg
// (what names the SQL type) when the binder gave another.
func argAs[A arrow.Array](k int, a arrow.Array, what string) (A, error) {
	x, ok := a.(A)
	if !ok {
		var zero A
		return zero, badArg(k, a, what)
	}
	return x, nil
}

func intervalPair(sign int64) Kernel {
	return rowKernel(ivT, true, func(args []arrow.Array) (func(int) (any, error), error) {
		a, err := intervalGetter(0, args[0])
		if err != nil {
			return nil, err
		}
		b, err := intervalGetter(1, args[1])
		if err != nil {
			return nil, err
		}
		return func(i int) (any, error) {
			if sign < 0 {
				return types.SubIntervals(a.Value(i), b.Value(i))
			}
			return types.AddIntervals(a.Value(i), b.Value(i))
		}, nil
	})
}

func intervalNegate(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
	return intervalMap(func(v arrow.MonthDayNanoInterval) (arrow.MonthDayNanoInterval, error) {
		return types.NewInterval(-int64(v.Months), -int64(v.Days), -types.IntervalMicros(v))
	})(ctx, mem, args, n)
}

// intervalMap applies f to each interval of the only argument.
func intervalMap(f func(arrow.MonthDayNanoInterval) (arrow.MonthDayNanoInterval, error)) Kernel {
	return rowKernel(ivT, true, func(args []arrow.Array) (func(int) (any, error), error) {
		a, err := intervalGetter(0, args[0])
		if err != nil {
			return nil, err
		}
		return func(i int) (any, error) { return f(a.Value(i)) }, nil
	})
}

// intervalScale is interval_mul (or interval_div): months and days scale
// and truncate, and their fractions cascade down to days and to time.
func intervalScale(divide bool) Kernel {
	return rowKernel(ivT, true, func(args []arrow.Array) (func(int) (any, error), error) {
		a, err := intervalGetter(0, args[0])
		if err != nil {
			return nil, err
		}
		fs, ok := args[1].(*array.Float64)
		if !ok {
			return nil, badArg(1, args[1], "double precision")
		}
		return func(i int) (any, error) {
			if divide && fs.Value(i) == 0 {
				return nil, sqlerr.DivideByZero()
			}
			if divide {
				return types.DivInterval(a.Value(i), fs.Value(i))
			}
			return types.MulInterval(a.Value(i), fs.Value(i))
		}, nil
	})
}

// PostgreSQL's timestamp range starts at 4714-11-24 00:00:00 BC; the end
// (294276 AD) lies beyond what Unix microseconds in an int64 hold, so the
// int64 bound is the effective one.
const minTimestampMicros = -210866803200000000

func timestampOutOfRange() error {
	return sqlerr.TimestampOutOfRange()
}

// addMonthsDays is the calendar part of timestamp_pl_interval on a wall
// time: months first (the day clamped to the new month's end), then days.
func addMonthsDays(wall time.Time, months, days int64) time.Time {
	if months != 0 {
		y, m, d := wall.Date()
		total := int64(y)*12 + int64(m-1) + months
		ny, nm := floorDivInt(total, 12), total-floorDivInt(total, 12)*12+1
		if last := daysIn(int(ny), time.Month(nm)); d > last {
			d = last
		}
		wall = time.Date(int(ny), time.Month(nm), d, wall.Hour(), wall.Minute(), wall.Second(), wall.Nanosecond(), time.UTC)
	}
	if days != 0 {
		wall = wall.AddDate(0, 0, int(days))
	}
	return wall
}

func floorDivInt(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func daysIn(y int, m time.Month) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// timestampPlusInterval is timestamp[tz] ± interval. For timestamptz the
// months and days move the wall clock in the session's TimeZone (so a day
// across a DST change is 23 or 25 hours) and the time part is added to the
// instant, as PostgreSQL does.
func timestampPlusInterval(sign int64, zoned bool) Kernel {
	ret := tsT
	if zoned {
		ret = tstzT
	}
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		loc := LocationOf(ctx)
		return rowKernel(ret, true, func(args []arrow.Array) (func(int) (any, error), error) {
			ts, ok := args[0].(*array.Timestamp)
			if !ok || ts.DataType().(*arrow.TimestampType).Unit != arrow.Microsecond {
				return nil, badArg(0, args[0], "timestamp")
			}
			iv, err := intervalGetter(1, args[1])
			if err != nil {
				return nil, err
			}
			return func(i int) (any, error) {
				v, err := addToTimestamp(int64(ts.Value(i)), iv.Value(i), sign, zoned, loc)
				if err != nil {
					return nil, err
				}
				return v, nil
			}, nil
		})(ctx, mem, args, n)
	}
}

// addToTimestamp is timestamp[tz]_pl_interval on one value (sign -1:
// _mi_): the months and days move the wall clock (in loc when zoned), then
// the time part moves the instant.
func addToTimestamp(us int64, span arrow.MonthDayNanoInterval, sign int64, zoned bool, loc *time.Location) (int64, error) {
	if us == math.MaxInt64 || us == math.MinInt64 {
		return us, nil // ±infinity plus an interval is itself
	}
	months, days, t := sign*int64(span.Months), sign*int64(span.Days), sign*types.IntervalMicros(span)
	if months != 0 || days != 0 {
		at := time.UnixMicro(us).UTC()
		if zoned {
			at = types.WallClock(at, loc)
		}
		at = addMonthsDays(at, months, days)
		if zoned {
			at = types.LocalToInstant(at, loc)
		}
		if at.Year() > 300000 || at.Year() < -5000 {
			return 0, timestampOutOfRange()
		}
		us = at.UnixMicro()
		if us < minTimestampMicros {
			return 0, timestampOutOfRange()
		}
	}
	r, ok := types.AddInt64(us, t)
	if !ok || r < minTimestampMicros {
		return 0, timestampOutOfRange()
	}
	return r, nil
}

// timestampDiff is timestamp - timestamp: the difference in microseconds,
// with whole days moved out of the time part (interval_justify_hours).
func timestampDiff(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
	return rowKernel(ivT, true, func(args []arrow.Array) (func(int) (any, error), error) {
		a, ok1 := args[0].(*array.Timestamp)
		b, ok2 := args[1].(*array.Timestamp)
		if !ok1 || !ok2 {
			return nil, badArg(0, args[0], "timestamp")
		}
		return func(i int) (any, error) {
			if x, y := int64(a.Value(i)), int64(b.Value(i)); x == math.MaxInt64 || x == math.MinInt64 || y == math.MaxInt64 || y == math.MinInt64 {
				return nil, sqlerr.New(sqlerr.DatetimeFieldOverflow, "cannot subtract infinite timestamps")
			}
			d, ok := types.AddInt64(int64(a.Value(i)), -int64(b.Value(i)))
			if !ok {
				return nil, types.IntervalOutOfRange()
			}
			return types.NewInterval(0, d/types.USecsPerDay, d%types.USecsPerDay)
		}, nil
	})(ctx, mem, args, n)
}

// timePlusInterval is time ± interval: only the interval's time part
// counts, and the result wraps around midnight.
func timePlusInterval(sign int64) Kernel {
	timeT := types.T{Kind: types.Time, Precision: 6}
	return rowKernel(timeT, true, func(args []arrow.Array) (func(int) (any, error), error) {
		tm, ok := args[0].(*array.Time64)
		if !ok || tm.DataType().(*arrow.Time64Type).Unit != arrow.Microsecond {
			return nil, badArg(0, args[0], "time")
		}
		iv, err := intervalGetter(1, args[1])
		if err != nil {
			return nil, err
		}
		return func(i int) (any, error) {
			r := (int64(tm.Value(i)) + sign*(types.IntervalMicros(iv.Value(i))%types.USecsPerDay)) % types.USecsPerDay
			if r < 0 {
				r += types.USecsPerDay
			}
			return r, nil
		}, nil
	})
}

func datePlusTime(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
	return rowKernel(tsT, true, func(args []arrow.Array) (func(int) (any, error), error) {
		d, ok1 := args[0].(*array.Date32)
		tm, ok2 := args[1].(*array.Time64)
		if !ok1 || !ok2 {
			return nil, badArg(0, args[0], "date")
		}
		return func(i int) (any, error) {
			switch d.Value(i) {
			case math.MaxInt32:
				return int64(math.MaxInt64), nil
			case math.MinInt32:
				return int64(math.MinInt64), nil
			}
			// date2timestamp first (its error past the range), then the
			// time, which may take the sum past the end
			us, err := types.DateMicros(int32(d.Value(i)))
			if err != nil {
				return nil, err
			}
			return addTimeOfDay(us, int64(tm.Value(i)))
		}, nil
	})(ctx, mem, args, n)
}

// addTimeOfDay adds a time of day (or a time zone's shift of one, either
// sign) to a date's microseconds, 22008 when the sum leaves int64's
// range short of its end (the infinity sentinel): checked before the
// addition, which would wrap.
func addTimeOfDay(us, t int64) (int64, error) {
	if (t > 0 && us >= math.MaxInt64-t) || (t < 0 && us <= math.MinInt64-t) {
		return 0, sqlerr.TimestampOutOfRange()
	}
	return us + t, nil
}

// justifyHours moves whole 24-hour periods of the time part into days,
// keeping days and time of one sign (interval_justify_hours).
func justifyHours(v arrow.MonthDayNanoInterval) (arrow.MonthDayNanoInterval, error) {
	t := types.IntervalMicros(v)
	days := int64(v.Days) + t/types.USecsPerDay
	t %= types.USecsPerDay
	switch {
	case days > 0 && t < 0:
		t += types.USecsPerDay
		days--
	case days < 0 && t > 0:
		t -= types.USecsPerDay
		days++
	}
	return types.NewInterval(int64(v.Months), days, t)
}

// justifyDays moves whole 30-day periods into months
// (interval_justify_days).
func justifyDays(v arrow.MonthDayNanoInterval) (arrow.MonthDayNanoInterval, error) {
	months := int64(v.Months) + int64(v.Days)/types.DaysPerMonth
	days := int64(v.Days) % types.DaysPerMonth
	switch {
	case months > 0 && days < 0:
		days += types.DaysPerMonth
		months--
	case months < 0 && days > 0:
		days -= types.DaysPerMonth
		months++
	}
	return types.NewInterval(months, days, types.IntervalMicros(v))
}

// justifyInterval is interval_justify_interval: both cascades, with one
// sign throughout.
func justifyInterval(v arrow.MonthDayNanoInterval) (arrow.MonthDayNanoInterval, error) {
	t := types.IntervalMicros(v)
	months := int64(v.Months) + int64(v.Days)/types.DaysPerMonth
	days := int64(v.Days) % types.DaysPerMonth
	days += t / types.USecsPerDay
	t %= types.USecsPerDay
	months += days / types.DaysPerMonth
	days %= types.DaysPerMonth
	switch {
	case months > 0 && (days < 0 || (days == 0 && t < 0)):
		days += types.DaysPerMonth
		months--
	case months < 0 && (days > 0 || (days == 0 && t > 0)):
		days -= types.DaysPerMonth
		months++
	}
	switch {
	case days > 0 && t < 0:
		t += types.USecsPerDay
		days--
	case days < 0 && t > 0:
		t -= types.USecsPerDay
		days++
	}
	return types.NewInterval(months, days, t)
}

// makeInterval is make_interval(years, months, weeks, days, hours, mins,
// secs); the binder fills missing arguments with zeros.
func makeInterval(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
	return rowKernel(ivT, true, func(args []arrow.Array) (func(int) (any, error), error) {
		// missing trailing arguments are zero, as make_interval's defaults
		ints := make([]*array.Int32, 6)
		for k := 0; k < 6 && k < len(args); k++ {
			x, ok := args[k].(*array.Int32)
			if !ok {
				return nil, badArg(k, args[k], "integer")
			}
			ints[k] = x
		}
		var secs *array.Float64
		if len(args) == 7 {
			var ok bool
			if secs, ok = args[6].(*array.Float64); !ok {
				return nil, badArg(6, args[6], "double precision")
			}
		}
		arg := func(k, i int) int64 {
			if ints[k] == nil {
				return 0
			}
			return int64(ints[k].Value(i))
		}
		return func(i int) (any, error) {
			y, mo, w, d, h, mi := arg(0, i), arg(1, i), arg(2, i), arg(3, i), arg(4, i), arg(5, i)
			s := 0.0
			if secs != nil {
				s = secs.Value(i)
			}
			if math.IsInf(s, 0) || math.IsNaN(s) {
				return nil, types.IntervalOutOfRange()
			}
			// PostgreSQL 15's make_interval checks only for infinite or
			// NaN seconds: months and days wrap in int32, the time in
			// int64, and seconds beyond int64 convert as the C cast does
			// on x86-64 (to INT64_MIN)
			us := int64(math.MinInt64)
			if r := math.RoundToEven(s * 1e6); r >= -9223372036854775808 && r < 9223372036854775807 {
				us = int64(r)
			}
			t := h*types.USecsPerHour + mi*types.USecsPerMinute + us
			return types.NewInterval(int64(int32(y*12+mo)), int64(int32(w*7+d)), t)
		}, nil
	})(ctx, mem, args, n)
}

// intervalExtractScale is the scale of extract(unit FROM interval).
func intervalExtractScale(unit string) int {
	switch unit {
	case "second", "epoch":
		return 6
	case "milliseconds":
		return 3
	}
	return 0
}

// intervalField computes extract(unit FROM v) as an unscaled integer at
// its scale, following interval_part_common: the interval is split into
// years, months, days, hours, minutes, seconds and microseconds, each
// truncated toward zero and keeping its sign.
func intervalField(unitText string, v arrow.MonthDayNanoInterval) (*big.Int, int, error) {
	unit, ok := canonicalUnit(unitText)
	if !ok {
		return nil, 0, unitNotRecognized(unitText, "interval")
	}
	t := types.IntervalMicros(v)
	years, mons := int64(v.Months)/12, int64(v.Months)%12
	hours := t / types.USecsPerHour
	rest := t - hours*types.USecsPerHour
	mins := rest / types.USecsPerMinute
	usOfMinute := rest - mins*types.USecsPerMinute
	i := func(x int64) (*big.Int, int, error) { return big.NewInt(x), 0, nil }
	switch unit {
	case "microseconds":
		return i(usOfMinute)
	case "milliseconds":
		return big.NewInt(usOfMinute), 3, nil
	case "second":
		return big.NewInt(usOfMinute), 6, nil
	case "minute":
		return i(mins)
	case "hour":
		return i(hours)
	case "day":
		return i(int64(v.Days))
	case "month":
		return i(mons)
	case "quarter":
		return i(mons/3 + 1)
	case "year":
		return i(years)
	case "decade":
		return i(years / 10)
	case "century":
		return i(years / 100)
	case "millennium":
		return i(years / 1000)
	case "epoch":
		// 365.25-day years, 30-day months, 24-hour days, in seconds
		secs := 31557600*years + int64(types.DaysPerMonth)*86400*mons + 86400*int64(v.Days)
		r := new(big.Int).Mul(big.NewInt(secs), big.NewInt(1e6))
		return r.Add(r, big.NewInt(t)), 6, nil
	}
	return nil, 0, unitNotSupported(unitText, "interval")
}

func intervalExtract(numeric bool, outScale int) Kernel {
	ret := tFloat8
	if numeric {
		ret = decResultType(outScale)
	}
	return rowKernel(ret, true, func(args []arrow.Array) (func(int) (any, error), error) {
		ss, err := strArgs(args[:1])
		if err != nil {
			return nil, err
		}
		iv, err := intervalGetter(1, args[1])
		if err != nil {
			return nil, err
		}
		return func(i int) (any, error) {
			v, s, err := intervalField(ss[0].Value(i), iv.Value(i))
			if err != nil {
				return nil, err
			}
			if numeric {
				return numericFromBig(rescaleBig(v, s, outScale, false), outScale)
			}
			f, _ := new(big.Float).SetInt(v).Float64()
			return f / math.Pow10(s), nil
		}, nil
	})
}

// intervalTrunc is date_trunc(unit, interval): the fields below unit are
// zeroed (interval_trunc).
func intervalTrunc(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
	return rowKernel(ivT, true, func(args []arrow.Array) (func(int) (any, error), error) {
		ss, err := strArgs(args[:1])
		if err != nil {
			return nil, err
		}
		iv, err := intervalGetter(1, args[1])
		if err != nil {
			return nil, err
		}
		return func(i int) (any, error) {
			unitText := ss[0].Value(i)
			unit, ok := canonicalUnit(unitText)
			if !ok || truncUnrecognized[unit] {
				return nil, unitNotRecognized(unitText, "interval")
			}
			v := iv.Value(i)
			months, days, t := int64(v.Months), int64(v.Days), types.IntervalMicros(v)
			years := months / 12
			trunc := func(x, unit int64) int64 { return x / unit * unit }
			switch unit {
			case "millennium":
				return types.NewInterval(trunc(years, 1000)*12, 0, 0)
			case "century":
				return types.NewInterval(trunc(years, 100)*12, 0, 0)
			case "decade":
				return types.NewInterval(trunc(years, 10)*12, 0, 0)
			case "year":
				return types.NewInterval(years*12, 0, 0)
			case "quarter":
				return types.NewInterval(years*12+trunc(months%12, 3), 0, 0)
			case "month":
				return types.NewInterval(months, 0, 0)
			case "day":
				return types.NewInterval(months, days, 0)
			case "hour":
				return types.NewInterval(months, days, trunc(t, types.USecsPerHour))
			case "minute":
				return types.NewInterval(months, days, trunc(t, types.USecsPerMinute))
			case "second":
				return types.NewInterval(months, days, trunc(t, types.USecsPerSecond))
			case "milliseconds":
				return types.NewInterval(months, days, trunc(t, 1000))
			case "microseconds":
				return v, nil
			case "week": // interval_trunc's message of 15.x
				return nil, unitNotSupported(unitText, "interval").
					WithDetail("Months usually have fractional weeks.")
			}
			return nil, unitNotSupported(unitText, "interval")
		}, nil
	})(ctx, mem, args, n)
}
