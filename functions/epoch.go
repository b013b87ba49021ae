package functions

import (
	"context"
	"math"
	"strconv"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// to_timestamp(double precision), the Unix-epoch conversion dashboards
// use, computed as PostgreSQL's float8_timestamptz does (the offset to
// PostgreSQL's 2000 epoch taken in float8 before rint to microseconds, so
// the last digit rounds alike, ±Infinity giving ±infinity); and isfinite,
// false for the infinite dates and timestamps (types/infinity.go), true
// for every interval (PostgreSQL 15's have no infinities).

// pgEpochOffset is 2000-01-01 minus 1970-01-01 in seconds.
const pgEpochOffset = 946684800

func epochFuncs() []*Func {
	isFinite := func(t types.T) *Func {
		return &Func{Name: "isfinite", Args: []types.T{t}, Ret: tBool, Strict: true,
			Kernel: rowFunc(tBool, true, func(_ context.Context, v []any) (any, error) { return types.InfiniteSign(v[0], t) == 0, nil })}
	}
	return []*Func{
		{Name: "to_timestamp", Args: []types.T{tFloat8}, Ret: tstzT, Strict: true,
			Kernel: rowFunc(tstzT, true, func(_ context.Context, v []any) (any, error) { return epochToTimestamp(v[0].(float64)) })},
		isFinite(dateT), isFinite(types.TimestampType(6)), isFinite(tstzT), isFinite(types.T{Kind: types.Interval}),
	}
}

func epochToTimestamp(sec float64) (any, error) {
	switch {
	case math.IsNaN(sec):
		return nil, sqlerr.New(sqlerr.DatetimeFieldOverflow, "timestamp cannot be NaN")
	case math.IsInf(sec, 1):
		v, _ := types.InfiniteValue(1, tstzT)
		return v, nil
	case math.IsInf(sec, -1):
		v, _ := types.InfiniteValue(-1, tstzT)
		return v, nil
	}
	// PostgreSQL's range: 4714-11-24 BC to 294276-12-31 AD
	const minSec, maxSec = -210866803200, 9224318016000
	if sec < minSec || sec >= maxSec {
		// the seconds as PostgreSQL's "%g" prints them: six digits
		return nil, sqlerr.New(sqlerr.DatetimeFieldOverflow, "timestamp out of range: \"%s\"", strconv.FormatFloat(sec, 'g', 6, 64))
	}
	us := math.RoundToEven((sec - pgEpochOffset) * 1e6)
	return int64(us) + pgEpochOffset*1_000_000, nil
}
