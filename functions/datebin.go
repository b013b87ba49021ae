package functions

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// date_bin(stride, source, origin) is PostgreSQL 15's timestamp_bin and
// timestamptz_bin: source rounded down to the start of its stride-wide
// bin counted from origin (a bin before origin when origin is later).
// Infinite sources come back unchanged; an infinite origin, a stride with
// months, or a stride that is not positive are errors, with PostgreSQL's
// SQLSTATEs; overflow is "interval out of range" or "timestamp out of
// range". The arithmetic is in microseconds, as both systems store them.
func dateBinFuncs() []*Func {
	var fs []*Func
	for _, t := range []types.T{tsT, tstzT} {
		fs = append(fs, &Func{Name: "date_bin", Args: []types.T{ivT, t, t}, Ret: t, Strict: true, Kernel: dateBinKernel(t),
			specialize: func(args []types.T, _ []any) (types.T, Kernel) { return args[1].Nullable(), dateBinKernel(args[1]) }})
	}
	return fs
}

func dateBinKernel(ret types.T) Kernel {
	return rowKernel(ret, true, func(args []arrow.Array) (func(int) (any, error), error) {
		strides, err := intervalGetter(0, args[0])
		if err != nil {
			return nil, err
		}
		src, err := argAs[*array.Timestamp](1, args[1], "timestamp")
		if err != nil {
			return nil, err
		}
		org, err := argAs[*array.Timestamp](2, args[2], "timestamp")
		if err != nil {
			return nil, err
		}
		su, ou := src.DataType().(*arrow.TimestampType).Unit, org.DataType().(*arrow.TimestampType).Unit
		return func(i int) (any, error) {
			v, err := dateBin(strides.Value(i), toMicros(int64(src.Value(i)), su), toMicros(int64(org.Value(i)), ou))
			if err != nil {
				return nil, err
			}
			return fromMicros(v, su), nil
		}, nil
	})
}

// toMicros is an Arrow timestamp of unit u in microseconds (infinity
// stays infinity; timestamp(p) keeps at most microseconds).
func toMicros(v int64, u arrow.TimeUnit) int64 {
	if v == math.MaxInt64 || v == math.MinInt64 {
		return v
	}
	switch u {
	case arrow.Second:
		return v * 1e6
	case arrow.Millisecond:
		return v * 1e3
	case arrow.Nanosecond:
		return v / 1e3
	}
	return v
}

// fromMicros is toMicros' inverse.
func fromMicros(v int64, u arrow.TimeUnit) int64 {
	if v == math.MaxInt64 || v == math.MinInt64 {
		return v
	}
	switch u {
	case arrow.Second:
		return v / 1e6
	case arrow.Millisecond:
		return v / 1e3
	case arrow.Nanosecond:
		return v * 1e3
	}
	return v
}

// dateBin bins microsecond timestamp ts with stride from origin.
func dateBin(stride arrow.MonthDayNanoInterval, ts, origin int64) (int64, error) {
	if ts == math.MaxInt64 || ts == math.MinInt64 {
		return ts, nil
	}
	if origin == math.MaxInt64 || origin == math.MinInt64 {
		return 0, sqlerr.New(sqlerr.DatetimeFieldOverflow, "origin out of range")
	}
	if stride.Months != 0 {
		return 0, sqlerr.New(sqlerr.FeatureNotSupported, "timestamps cannot be binned into intervals containing months or years")
	}
	// the days in microseconds overflow an int64 beyond ±106,751,991 days
	// (pg_mul_s64_overflow in PostgreSQL's date_bin)
	const maxStrideDays = math.MaxInt64 / types.USecsPerDay
	strideUS, ok := types.AddInt64(int64(stride.Days)*types.USecsPerDay, stride.Nanoseconds/1000)
	if !ok || int64(stride.Days) > maxStrideDays || int64(stride.Days) < -maxStrideDays {
		return 0, types.IntervalOutOfRange()
	}
	if strideUS <= 0 {
		return 0, sqlerr.New(sqlerr.DatetimeFieldOverflow, "stride must be greater than zero")
	}
	diff, ok := types.AddInt64(ts, -origin)
	if !ok {
		return 0, types.IntervalOutOfRange()
	}
	delta := diff - diff%strideUS
	// the start of the bin even when origin is later than ts: toward
	// -infinity, except for a ts a whole number of strides before origin
	// (which starts its bin; 15.x's fix of 15.0's unconditional step back)
	if diff < 0 && diff%strideUS != 0 {
		delta -= strideUS
	}
	out, ok := types.AddInt64(origin, delta)
	if !ok || out == math.MaxInt64 || out == math.MinInt64 {
		return 0, sqlerr.TimestampOutOfRange()
	}
	return out, nil
}
