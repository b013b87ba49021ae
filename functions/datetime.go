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
	"github.com/sqlgate/sqlgate/types/numeric"
)

// Clock carries the times now() and its relatives return: PostgreSQL's
// now() is the transaction's start, statement_timestamp() the statement's.
type Clock struct {
	TransactionStart time.Time
	StatementStart   time.Time
}

// TransactionTime is the start of ctx's transaction (the time now() and
// 'now' read); without a clock in ctx, now.
func TransactionTime(ctx context.Context) time.Time { return clockOf(ctx).TransactionStart }

// clockOf returns the clock in ctx; without one, both times are now.
func clockOf(ctx context.Context) Clock {
	if v := valuesOf(ctx); v.hasClock {
		c := v.clock
		if c.StatementStart.IsZero() {
			c.StatementStart = c.TransactionStart
		}
		return c
	}
	now := time.Now()
	return Clock{TransactionStart: now, StatementStart: now}
}

var (
	tsT   = types.TimestampType(6)
	tstzT = types.TimestampTZType(6)
	dateT = types.DateType
	ivT   = types.T{Kind: types.Interval}
	timeT = types.T{Kind: types.Time, Precision: 6}
)

func timeFuncs() []*Func {
	txn := func(c Clock) time.Time { return c.TransactionStart }
	stmt := func(c Clock) time.Time { return c.StatementStart }
	wall := func(Clock) time.Time { return time.Now() }
	fs := []*Func{
		{Name: "now", Ret: tstzT, Volatile: true, Kernel: clockKernel(tstzT, txn)},
		{Name: "current_timestamp", Ret: tstzT, Volatile: true, Kernel: clockKernel(tstzT, txn)},
		{Name: "transaction_timestamp", Ret: tstzT, Volatile: true, Kernel: clockKernel(tstzT, txn)},
		{Name: "statement_timestamp", Ret: tstzT, Volatile: true, Kernel: clockKernel(tstzT, stmt)},
		{Name: "clock_timestamp", Ret: tstzT, Volatile: true, Kernel: clockKernel(tstzT, wall)},
		{Name: "localtimestamp", Ret: tsT, Volatile: true, Kernel: clockKernel(tsT, txn)},
		{Name: "current_date", Ret: dateT, Volatile: true, Kernel: clockKernel(dateT, txn)},
		{Name: "localtime", Ret: timeT, Volatile: true, Kernel: clockKernel(timeT, txn)},
		{Name: "make_date", Args: []types.T{tInt4, tInt4, tInt4}, Ret: dateT, Strict: true, Kernel: makeDate},
		{Name: "age", Args: []types.T{tsT, tsT}, Ret: ivT, Strict: true, Kernel: ageKernel(false)},
		{Name: "age", Args: []types.T{tstzT, tstzT}, Ret: ivT, Strict: true, Kernel: ageKernel(false)},
		{Name: "age", Args: []types.T{tsT}, Ret: ivT, Strict: true, Kernel: ageKernel(true)},
		{Name: "age", Args: []types.T{tstzT}, Ret: ivT, Strict: true, Kernel: ageKernel(true)},
		{Name: "to_char", Args: []types.T{tsT, tText}, Ret: tText, Strict: true, Kernel: toCharTime},
		{Name: "to_char", Args: []types.T{tstzT, tText}, Ret: tText, Strict: true, Kernel: toCharTime},
		{Name: "to_char", Args: []types.T{ivT, tText}, Ret: tText, Strict: true, Kernel: toCharInterval},
	}
	for _, t := range []types.T{dateT, tsT, tstzT} {
		fs = append(fs,
			&Func{Name: "date_part", Args: []types.T{tText, t}, Ret: tFloat8, Strict: true, Kernel: extractKernel(false, -1)},
			&Func{Name: "extract", Args: []types.T{tText, t}, Ret: tNumeric, Strict: true, specialize: extractSpecialize(t)},
		)
	}
	// the time and timetz overloads are in timetz.go, the interval ones
	// in interval.go
	// timezone(zone, x) is x AT TIME ZONE zone: a timestamptz's wall time
	// in zone, or the instant a timestamp's wall time denotes there.
	fs = append(fs,
		&Func{Name: "timezone", Args: []types.T{tText, tstzT}, Ret: tsT, Strict: true, Kernel: atTimeZone(true)},
		&Func{Name: "timezone", Args: []types.T{tText, tsT}, Ret: tstzT, Strict: true, Kernel: atTimeZone(false)},
		&Func{Name: "timezone", Args: []types.T{ivT, tstzT}, Ret: tsT, Strict: true, Kernel: atIntervalZone(true)},
		&Func{Name: "timezone", Args: []types.T{ivT, tsT}, Ret: tstzT, Strict: true, Kernel: atIntervalZone(false)},
	)
	for _, t := range []types.T{tsT, tstzT} {
		fs = append(fs, &Func{Name: "date_trunc", Args: []types.T{tText, t}, Ret: t, Strict: true, Kernel: dateTrunc,
			specialize: func(args []types.T, _ []any) (types.T, Kernel) { return args[1].Nullable(), dateTrunc }})
	}
	fs = append(fs, &Func{Name: "date_trunc", Args: []types.T{tText, tstzT, tText}, Ret: tstzT, Strict: true, Kernel: dateTruncZone,
		specialize: func(args []types.T, _ []any) (types.T, Kernel) { return args[1].Nullable(), dateTruncZone }})
	return fs
}

// atIntervalZone is timezone(zone interval, timestamptz) -> timestamp
// (fromTZ) or timezone(zone interval, timestamp) -> timestamptz: the zone
// is a fixed offset east of UTC in whole seconds (the fraction dropped, as
// timestamptz_izone does), with no months or days. An infinite value is
// returned before the interval is checked.
func atIntervalZone(fromTZ bool) Kernel {
	ret := tstzT
	if fromTZ {
		ret = tsT
	}
	return rowKernel(ret, true, func(args []arrow.Array) (func(int) (any, error), error) {
		iv, err := intervalGetter(0, args[0])
		if err != nil {
			return nil, err
		}
		get, _, err := timeGetter(1, args[1], time.UTC)
		if err != nil {
			return nil, err
		}
		inf := infSigner(args[1])
		return func(i int) (any, error) {
			if sign := inf(i); sign != 0 {
				v, _ := types.InfiniteValue(sign, ret)
				return v, nil
			}
			z := iv.Value(i)
			if z.Months != 0 || z.Days != 0 {
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "interval time zone \"%s\" must not include months or days", types.FormatInterval(z))
			}
			east := time.Duration(z.Nanoseconds/1e9) * time.Second
			if !fromTZ {
				east = -east
			}
			t := get(i).Add(east)
			if t.Before(firstTimestamp) {
				return nil, sqlerr.TimestampOutOfRange()
			}
			return types.TimeToValue(t, ret)
		}, nil
	})
}

// atTimeZone is timezone(zone text, timestamptz) -> timestamp (fromTZ) or
// timezone(zone text, timestamp) -> timestamptz. The zone is looked up
// once per distinct name in a batch (it is nearly always a constant).
func atTimeZone(fromTZ bool) Kernel {
	ret := tstzT
	if fromTZ {
		ret = tsT
	}
	return rowKernel(ret, true, func(args []arrow.Array) (func(int) (any, error), error) {
		ss, err := strArgs(args[:1])
		if err != nil {
			return nil, err
		}
		get, _, err := timeGetter(1, args[1], time.UTC)
		if err != nil {
			return nil, err
		}
		inf := infSigner(args[1])
		lastName, lastLoc := "", (*time.Location)(nil)
		return func(i int) (any, error) {
			if sign := inf(i); sign != 0 {
				v, _ := types.InfiniteValue(sign, ret)
				return v, nil
			}
			name := ss[0].Value(i)
			if lastLoc == nil || name != lastName {
				loc, err := types.ZoneByName(name)
				if err != nil {
					return nil, err
				}
				lastName, lastLoc = name, loc
			}
			if fromTZ {
				return types.TimeToValue(types.WallClock(get(i), lastLoc), ret)
			}
			return types.TimeToValue(types.LocalToInstant(get(i), lastLoc), ret)
		}, nil
	})
}

// unsupported is the kernel of an overload declared for resolution only.
func unsupported(what string) Kernel {
	return func(context.Context, memory.Allocator, []arrow.Array, int) (arrow.Array, error) {
		return nil, sqlerr.NotSupported(what)
	}
}

func clockKernel(ret types.T, pick func(Clock) time.Time) Kernel {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		at := pick(clockOf(ctx)).UTC()
		if ret.Kind != types.TimestampTZ {
			// localtimestamp and current_date read the session's wall clock
			at = types.WallClock(at, LocationOf(ctx))
		}
		v, err := types.TimeToValue(at, ret)
		if err != nil {
			return nil, err
		}
		b := array.NewBuilder(mem, ret.ArrowType())
		defer b.Release()
		b.Reserve(n)
		for i := 0; i < n; i++ {
			if err := appendValue(b, v); err != nil {
				return nil, err
			}
		}
		return b.NewArray(), nil
	}
}

// timeGetter reads a date32 or timestamp array as times: dates and
// timestamps as UTC times holding their fields, timestamptz values in loc
// (the session's TimeZone), so that field extraction sees the session's
// wall clock. The kind is returned for error messages.
//
// Infinite values (infinity.go's rules) read as meaningless times: every
// caller asks infSigner first.
func timeGetter(k int, a arrow.Array, loc *time.Location) (func(int) time.Time, types.Kind, error) {
	switch x := a.(type) {
	case *array.Date32:
		return func(i int) time.Time { return time.Unix(int64(x.Value(i))*86400, 0).UTC() }, types.Date, nil
	case *array.Timestamp:
		dt := x.DataType().(*arrow.TimestampType)
		kind := types.Timestamp
		if dt.TimeZone != "" {
			kind = types.TimestampTZ
		}
		unit := dt.Unit
		if kind == types.TimestampTZ && loc != nil && loc != time.UTC {
			return func(i int) time.Time { return arrowTime(int64(x.Value(i)), unit).In(loc) }, kind, nil
		}
		return func(i int) time.Time { return arrowTime(int64(x.Value(i)), unit) }, kind, nil
	}
	return nil, 0, badArg(k, a, "a date or timestamp")
}

// arrowTime is the UTC time of an Arrow timestamp value of unit u.
func arrowTime(v int64, unit arrow.TimeUnit) time.Time {
	switch unit {
	case arrow.Second:
		return time.Unix(v, 0).UTC()
	case arrow.Millisecond:
		return time.UnixMilli(v).UTC()
	case arrow.Microsecond:
		return time.UnixMicro(v).UTC()
	}
	return time.Unix(0, v).UTC()
}

// timeToArrow converts t to the value of an Arrow timestamp of unit u.
func timeToArrow(t time.Time, u arrow.TimeUnit) int64 {
	switch u {
	case arrow.Second:
		return t.Unix()
	case arrow.Millisecond:
		return t.UnixMilli()
	case arrow.Microsecond:
		return t.UnixMicro()
	}
	return t.UnixNano()
}

func kindName(k types.Kind) string {
	switch k {
	case types.Date:
		return "date"
	case types.TimestampTZ:
		return "timestamp with time zone"
	}
	return "timestamp without time zone"
}

// pgYear is the year as PostgreSQL numbers it: no year 0, 1 BC is -1.
func pgYear(t time.Time) int {
	if y := t.Year(); y <= 0 {
		return y - 1
	}
	return t.Year()
}

// yearGroup is extract's decade, century or millennium of astronomical
// year ty (1 BC is 0) as timestamp_part computes it: the groups before
// year 1 count down from -1 (1 BC is decade 0, century -1).
func yearGroup(unit string, ty int) int {
	switch unit {
	case "decade":
		if ty >= 0 {
			return ty / 10
		}
		return -((8 - (ty - 1)) / 10)
	case "century":
		if ty > 0 {
			return (ty + 99) / 100
		}
		return -((99 - (ty - 1)) / 100)
	}
	if ty > 0 {
		return (ty + 999) / 1000
	}
	return -((999 - (ty - 1)) / 1000)
}

// yearGroupStart is date_trunc's first astronomical year of the decade,
// century or millennium of ty, as timestamp_trunc computes it (a
// millennium then passes through the century's formula, which keeps it).
func yearGroupStart(unit string, ty int) int {
	switch unit {
	case "decade":
		if ty > 0 {
			return ty / 10 * 10
		}
		return -((8 - (ty - 1)) / 10) * 10
	case "millennium":
		if ty > 0 {
			ty = (ty+999)/1000*1000 - 999
		} else {
			ty = -((999-(ty-1))/1000)*1000 + 1
		}
	}
	if ty > 0 {
		return (ty+99)/100*100 - 99
	}
	return -((99-(ty-1))/100)*100 + 1
}

// unitAliases maps PostgreSQL's spellings of date/time units (as in its
// datetktbl/deltatktbl) to canonical names.
var unitAliases = map[string]string{
	"microsecond": "microseconds", "microseconds": "microseconds", "us": "microseconds", "usec": "microseconds", "usecs": "microseconds", "useconds": "microseconds",
	"millisecond": "milliseconds", "milliseconds": "milliseconds", "ms": "milliseconds", "msec": "milliseconds", "msecs": "milliseconds", "mseconds": "milliseconds",
	"second": "second", "seconds": "second", "s": "second", "sec": "second", "secs": "second",
	"minute": "minute", "minutes": "minute", "m": "minute", "min": "minute", "mins": "minute",
	"hour": "hour", "hours": "hour", "h": "hour", "hr": "hour", "hrs": "hour",
	"day": "day", "days": "day", "d": "day",
	"week": "week", "weeks": "week", "w": "week",
	"month": "month", "months": "month", "mon": "month", "mons": "month",
	"quarter": "quarter", "qtr": "quarter",
	"year": "year", "years": "year", "y": "year", "yr": "year", "yrs": "year",
	"decade": "decade", "decades": "decade", "dec": "decade", "decs": "decade",
	"century": "century", "centuries": "century", "c": "century", "cent": "century",
	"millennium": "millennium", "millennia": "millennium", "mil": "millennium", "mils": "millennium", "millenniums": "millennium",
	"epoch": "epoch", "dow": "dow", "isodow": "isodow", "doy": "doy", "isoyear": "isoyear",
	"julian": "julian", "j": "julian",
	"timezone": "timezone", "timezone_h": "timezone_hour", "timezone_hour": "timezone_hour", "timezone_m": "timezone_minute", "timezone_minute": "timezone_minute",
}

// canonicalUnit is the unit a name denotes; like PostgreSQL's DecodeUnits
// it lower-cases ASCII letters and trims nothing (' day' is unknown).
func canonicalUnit(s string) (string, bool) {
	u, ok := unitAliases[unitWritten(s)]
	return u, ok
}

// unitWritten is a unit as PostgreSQL's messages show it: the text
// written with its ASCII letters lower-cased (downcase_truncate_identifier),
// not the unit it is an alias of ("timezone_h", not "timezone_hour").
func unitWritten(s string) string {
	upper := false
	for i := 0; i < len(s) && !upper; i++ {
		upper = s[i] >= 'A' && s[i] <= 'Z'
	}
	if !upper {
		return s // lower case already: no copy (extract reads it twice a row)
	}
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// unitNotRecognized is the refusal of a unit that is unknown, or that
// date_trunc cannot truncate to and DecodeUnits does not class as a
// truncation unit (epoch, dow, doy, isodow, isoyear, julian).
func unitNotRecognized(unitText, typeName string) *sqlerr.Error {
	return sqlerr.New(sqlerr.InvalidParameterValue, "unit \"%s\" not recognized for type %s", unitWritten(unitText), typeName)
}

// unitNotSupported is the refusal of a known unit the function does not
// give for typeName.
func unitNotSupported(unitText, typeName string) *sqlerr.Error {
	return sqlerr.New(sqlerr.FeatureNotSupported, "unit \"%s\" not supported for type %s", unitWritten(unitText), typeName)
}

// truncUnrecognized are the units date_trunc refuses as not recognized
// rather than not supported (PostgreSQL 15, every date_trunc overload).
var truncUnrecognized = map[string]bool{"epoch": true, "dow": true, "doy": true, "isodow": true, "isoyear": true, "julian": true}

// extractScale is the scale of extract()'s numeric result for unit on a
// value of kind, as PostgreSQL 15 produces it.
func extractScale(unit string, kind types.Kind) int {
	if kind == types.Date {
		return 0
	}
	switch unit {
	case "second", "epoch":
		return 6
	case "milliseconds":
		return 3
	}
	return 0
}

// extractField computes unit of t as an unscaled integer at extractScale.
func extractField(unitText string, t time.Time, kind types.Kind) (int64, int, error) {
	unit, ok := canonicalUnit(unitText)
	if !ok {
		return 0, 0, unitNotRecognized(unitText, kindName(kind))
	}
	notSupported := func() (int64, int, error) {
		return 0, 0, unitNotSupported(unitText, kindName(kind))
	}
	usOfMinute := int64(t.Second())*1e6 + int64(t.Nanosecond()/1e3)
	year := int64(pgYear(t))
	switch unit {
	case "microseconds", "milliseconds", "second", "minute", "hour":
		if kind == types.Date {
			return notSupported()
		}
		switch unit {
		case "microseconds":
			return usOfMinute, 0, nil
		case "milliseconds":
			return usOfMinute, 3, nil
		case "second":
			return usOfMinute, 6, nil
		case "minute":
			return int64(t.Minute()), 0, nil
		}
		return int64(t.Hour()), 0, nil
	case "day":
		return int64(t.Day()), 0, nil
	case "month":
		return int64(t.Month()), 0, nil
	case "quarter":
		return int64(t.Month()-1)/3 + 1, 0, nil
	case "year":
		return year, 0, nil
	case "decade", "century", "millennium":
		// timestamp_part's formulas over tm_year, the astronomical year
		// (1 BC is 0), which Go's Year is
		return int64(yearGroup(unit, t.Year())), 0, nil
	case "dow":
		return int64(t.Weekday()), 0, nil
	case "isodow":
		d := int64(t.Weekday())
		if d == 0 {
			d = 7
		}
		return d, 0, nil
	case "doy":
		return int64(t.YearDay()), 0, nil
	case "week":
		_, w := t.ISOWeek()
		return int64(w), 0, nil
	case "isoyear":
		y, _ := t.ISOWeek()
		if y <= 0 {
			y--
		}
		return int64(y), 0, nil
	case "epoch":
		if kind == types.Date {
			return t.Unix(), 0, nil
		}
		return t.UnixMicro(), 6, nil
	case "julian":
		// a date's day number; timestamps take julianNumeric/julianFloat
		return julianDay(t), 0, nil
	case "timezone", "timezone_hour", "timezone_minute":
		if kind != types.TimestampTZ {
			return notSupported()
		}
		// t is in the session's zone (timeGetter): its offset east of UTC
		_, off := t.Zone()
		switch unit {
		case "timezone_hour":
			return int64(off / 3600), 0, nil
		case "timezone_minute":
			return int64(off / 60 % 60), 0, nil
		}
		return int64(off), 0, nil
	}
	return notSupported()
}

// extractSpecialize fixes extract()'s numeric scale from a constant unit;
// a non-constant unit gets scale 6 (the widest any unit needs).
func extractSpecialize(t types.T) func([]types.T, []any) (types.T, Kernel) {
	return func(args []types.T, consts []any) (types.T, Kernel) {
		scale := 6
		if s, ok := consts[0].(string); ok {
			if u, ok := canonicalUnit(s); ok {
				scale = extractScale(u, t.Kind)
			}
		}
		return decResultType(scale), extractKernel(true, scale)
	}
}

// extractKernel is extract() (numeric at outScale) or date_part() (double;
// a date is treated as a timestamp at midnight, as PostgreSQL's SQL-level
// date_part(text, date) does).
func extractKernel(numeric bool, outScale int) Kernel {
	ret := tFloat8
	if numeric {
		ret = decResultType(outScale)
	}
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		return extractRows(ret, numeric, outScale, LocationOf(ctx))(ctx, mem, args, n)
	}
}

func extractRows(ret types.T, isNumeric bool, outScale int, loc *time.Location) Kernel {
	return rowKernel(ret, true, func(args []arrow.Array) (func(int) (any, error), error) {
		ss, err := strArgs(args[:1])
		if err != nil {
			return nil, err
		}
		get, kind, err := timeGetter(1, args[1], loc)
		if err != nil {
			return nil, err
		}
		if !isNumeric && kind == types.Date {
			kind = types.Timestamp
		}
		inf := infSigner(args[1])
		return func(i int) (any, error) {
			if sign := inf(i); sign != 0 {
				r, err := extractInfinite(ss[0].Value(i), sign, kind)
				switch {
				case err != nil || r == 0:
					return nil, err
				case isNumeric && r > 0:
					return numeric.PosInf(), nil
				case isNumeric:
					return numeric.NegInf(), nil
				}
				return math.Inf(r), nil
			}
			if u, _ := canonicalUnit(ss[0].Value(i)); u == "julian" && kind != types.Date {
				if isNumeric {
					return julianNumeric(get(i))
				}
				return julianFloat(get(i)), nil
			}
			v, s, err := extractField(ss[0].Value(i), get(i), kind)
			if err != nil {
				return nil, err
			}
			if isNumeric {
				r := rescaleBig(big.NewInt(v), s, outScale, false)
				return numericFromBig(r, outScale)
			}
			// one correctly rounded division, as PostgreSQL's numeric-to-
			// double conversion gives 12.345678, not 12.345678000000001
			return float64(v) / math.Pow10(s), nil
		}, nil
	})
}

// dateTrunc truncates a timestamp to a unit; the result keeps the input's
// Arrow type. A timestamptz is truncated in the session's zone.
func dateTrunc(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
	if err := checkArity(args, n); err != nil {
		return nil, err
	}
	loc := LocationOf(ctx)
	return dateTruncIn(mem, args, n, func(int) (*time.Location, error) { return loc, nil })
}

// dateTruncZone is date_trunc(unit, timestamptz, zone): the truncation is
// done on the wall clock of the named zone (PostgreSQL's
// timestamptz_trunc_zone), looked up as AT TIME ZONE looks it up, once per
// distinct name in a batch.
func dateTruncZone(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
	if err := checkArity(args, n); err != nil {
		return nil, err
	}
	zs, err := strArgs(args[2:3])
	if err != nil {
		return nil, err
	}
	lastName, lastLoc := "", (*time.Location)(nil)
	return dateTruncIn(mem, args[:2], n, func(i int) (*time.Location, error) {
		name := zs[0].Value(i)
		if lastLoc == nil || name != lastName {
			loc, err := types.TruncZoneByName(name)
			if err != nil {
				return nil, err
			}
			lastName, lastLoc = name, loc
		}
		return lastLoc, nil
	}, args[2])
}

// dateTruncIn is date_trunc over rows whose timestamptz wall clock is read
// in zoneAt(i); extra are further arguments whose NULL makes a row NULL.
// An infinite value is returned as it is before the unit or zone is read.
func dateTruncIn(mem memory.Allocator, args []arrow.Array, n int, zoneAt func(int) (*time.Location, error), extra ...arrow.Array) (arrow.Array, error) {
	ss, err := strArgs(args[:1])
	if err != nil {
		return nil, err
	}
	get, kind, err := timeGetter(1, args[1], time.UTC)
	if err != nil {
		return nil, err
	}
	dt, ok := args[1].DataType().(*arrow.TimestampType)
	if !ok {
		return nil, badArg(1, args[1], "timestamp")
	}
	inf := infSigner(args[1])
	b := array.NewTimestampBuilder(mem, dt)
	defer b.Release()
	b.Reserve(n)
	for i := 0; i < n; i++ {
		if anyNull(args, i) || anyNull(extra, i) {
			b.AppendNull()
			continue
		}
		if inf(i) != 0 { // infinity truncates to itself, whatever the unit
			b.Append(args[1].(*array.Timestamp).Value(i))
			continue
		}
		at := get(i)
		var loc *time.Location
		if kind == types.TimestampTZ {
			if loc, err = zoneAt(i); err != nil {
				return nil, err
			}
			at = types.WallClock(at, loc)
		}
		t, err := truncTime(ss[0].Value(i), at, kind)
		if err != nil {
			return nil, err
		}
		if kind == types.TimestampTZ {
			t = truncInstant(get(i), t, ss[0].Value(i), loc)
		}
		if t.Before(firstTimestamp) {
			// tm2timestamp's last check, on the instant: a wall clock
			// before the first day (London's 4714-11-23 23:58:45 BC)
			// may still name one in range
			return nil, sqlerr.TimestampOutOfRange()
		}
		b.Append(arrow.Timestamp(timeToArrow(t, dt.Unit)))
	}
	return b.NewArray(), nil
}

// truncInstant turns a truncated wall time of timestamptz orig back into an
// instant as PostgreSQL's timestamptz_trunc does: units of a day or more
// look the offset up again for the new wall time; smaller units keep the
// offset orig had.
func truncInstant(orig, wall time.Time, unitText string, loc *time.Location) time.Time {
	switch u, _ := canonicalUnit(unitText); u {
	case "microseconds", "milliseconds", "second", "minute", "hour":
		_, off := orig.In(loc).Zone()
		return wall.Add(-time.Duration(off) * time.Second)
	}
	return types.LocalToInstant(wall, loc)
}

func truncTime(unitText string, t time.Time, kind types.Kind) (time.Time, error) {
	r, err := truncField(unitText, t, kind)
	if err == nil && r.Before(firstJulianMonth) {
		// tm2timestamp's IS_VALID_JULIAN refuses a wall clock before
		// November 4714 BC (the decade or year of the first days)
		return r, sqlerr.TimestampOutOfRange()
	}
	return r, err
}

// firstTimestamp is the first instant of PostgreSQL's timestamp range;
// firstJulianMonth the first month IS_VALID_JULIAN lets a wall clock
// name.
var (
	firstTimestamp   = time.Date(-4713, time.November, 24, 0, 0, 0, 0, time.UTC)
	firstJulianMonth = time.Date(-4713, time.November, 1, 0, 0, 0, 0, time.UTC)
)

func truncField(unitText string, t time.Time, kind types.Kind) (time.Time, error) {
	unit, ok := canonicalUnit(unitText)
	if !ok || truncUnrecognized[unit] {
		return t, unitNotRecognized(unitText, kindName(kind))
	}
	y, m, d := t.Date()
	day := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	switch unit {
	case "microseconds":
		return t.Truncate(time.Microsecond), nil
	case "milliseconds":
		return t.Truncate(time.Millisecond), nil
	case "second":
		return t.Truncate(time.Second), nil
	case "minute":
		return t.Truncate(time.Minute), nil
	case "hour":
		return t.Truncate(time.Hour), nil
	case "day":
		return day, nil
	case "week":
		wd := (int(t.Weekday()) + 6) % 7 // days since Monday
		return day.AddDate(0, 0, -wd), nil
	case "month":
		return time.Date(y, m, 1, 0, 0, 0, 0, time.UTC), nil
	case "quarter":
		return time.Date(y, (m-1)/3*3+1, 1, 0, 0, 0, 0, time.UTC), nil
	case "year":
		return time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC), nil
	case "decade", "century", "millennium":
		return time.Date(yearGroupStart(unit, y), 1, 1, 0, 0, 0, 0, time.UTC), nil
	}
	return t, unitNotSupported(unitText, kindName(kind))
}

// makeDate is make_date(year, month, day); negative years are BC, and an
// impossible date is 22008 naming it as PostgreSQL does.
func makeDate(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
	return rowKernel(dateT, true, func(args []arrow.Array) (func(int) (any, error), error) {
		var g [3]func(int) int64
		for k := range g {
			f, err := intGetter(k, args[k])
			if err != nil {
				return nil, err
			}
			g[k] = f
		}
		return func(i int) (any, error) {
			return makeDateValue(g[0](i), g[1](i), g[2](i))
		}, nil
	})(ctx, mem, args, n)
}

// makeDateValue is make_date's checks in PostgreSQL 15's order: a
// negative year is BC and becomes astronomical (-44 is -43) before
// ValidateDate's field checks, whose message shows that year; then the
// Julian-day and date ranges ("date out of range").
func makeDateValue(y, m, d int64) (any, error) {
	ty := y
	if y < 0 {
		ty = y + 1
	}
	fields := func(msg string) error {
		return sqlerr.New(sqlerr.DatetimeFieldOverflow, "%s: %d-%02d-%02d", msg, ty, m, d)
	}
	if y == 0 || m < 1 || m > 12 || d < 1 || d > 31 || y > math.MaxInt32 || y < math.MinInt32 {
		return nil, fields("date field value out of range")
	}
	if d > int64(monthDays[leapIndex(int(ty))][m-1]) {
		return nil, fields("date field value out of range")
	}
	t := time.Date(int(ty), time.Month(m), int(d), 0, 0, 0, 0, time.UTC)
	if t.Before(time.Date(-4713, time.November, 24, 0, 0, 0, 0, time.UTC)) || !t.Before(time.Date(5874898, time.January, 1, 0, 0, 0, 0, time.UTC)) {
		return nil, fields("date out of range")
	}
	return int32(t.Unix() / 86400), nil
}

var monthDays = [2][12]int{
	{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31},
	{31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31},
}

func isLeap(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

func leapIndex(y int) int {
	if isLeap(y) {
		return 1
	}
	return 0
}

// age is PostgreSQL's timestamp_age: the symbolic difference in years,
// months, days and time, borrowing days from the month of the earlier
// argument's end as PostgreSQL does.
func age(t1, t2 time.Time) arrow.MonthDayNanoInterval {
	y1, mo1, d1 := t1.Date()
	y2, mo2, d2 := t2.Date()
	us1 := int64(t1.Nanosecond() / 1e3)
	us2 := int64(t2.Nanosecond() / 1e3)
	fsec := us1 - us2
	sec := t1.Second() - t2.Second()
	mins := t1.Minute() - t2.Minute()
	hour := t1.Hour() - t2.Hour()
	mday := d1 - d2
	mon := int(mo1) - int(mo2)
	year := y1 - y2
	neg := t1.Before(t2)
	if neg {
		fsec, sec, mins, hour, mday, mon, year = -fsec, -sec, -mins, -hour, -mday, -mon, -year
	}
	for fsec < 0 {
		fsec += 1e6
		sec--
	}
	for sec < 0 {
		sec += 60
		mins--
	}
	for mins < 0 {
		mins += 60
		hour--
	}
	for hour < 0 {
		hour += 24
		mday--
	}
	for mday < 0 {
		if neg {
			mday += monthDays[leapIndex(y1)][mo1-1]
		} else {
			mday += monthDays[leapIndex(y2)][mo2-1]
		}
		mon--
	}
	for mon < 0 {
		mon += 12
		year--
	}
	if neg {
		fsec, sec, mins, hour, mday, mon, year = -fsec, -sec, -mins, -hour, -mday, -mon, -year
	}
	ns := ((int64(hour)*60+int64(mins))*60+int64(sec))*1e9 + fsec*1e3
	return arrow.MonthDayNanoInterval{Months: int32(year*12 + mon), Days: int32(mday), Nanoseconds: ns}
}

// ageKernel is age(a, b), or age(a) = age(current_date at midnight, a).
func ageKernel(sinceToday bool) Kernel {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		loc := LocationOf(ctx)
		today := types.WallClock(clockOf(ctx).TransactionStart, loc).Truncate(24 * time.Hour)
		return rowKernel(ivT, true, func(args []arrow.Array) (func(int) (any, error), error) {
			var gets []func(int) (time.Time, error)
			for k, a := range args {
				g, kind, err := timeGetter(k, a, loc)
				if err != nil {
					return nil, err
				}
				inf, zone := infSigner(a), loc
				if kind != types.TimestampTZ {
					zone = nil
				}
				gets = append(gets, func(i int) (time.Time, error) {
					if sign := inf(i); sign != 0 {
						return ageTime(sign, zone)
					}
					return g(i), nil
				})
			}
			return func(i int) (any, error) {
				if sinceToday {
					t, err := gets[0](i)
					if err != nil {
						return nil, err
					}
					return age(today, t), nil
				}
				t1, err := gets[0](i)
				if err != nil {
					return nil, err
				}
				t2, err := gets[1](i)
				if err != nil {
					return nil, err
				}
				return age(t1, t2), nil
			}, nil
		})(ctx, mem, args, n)
	}
}

// hasInfinite reports whether a date or timestamp array holds infinity or
// -infinity (types.InfiniteSign) in a non-NULL slot.
func hasInfinite(a arrow.Array) bool {
	switch x := a.(type) {
	case *array.Date32:
		for i, v := range x.Date32Values() {
			if (v == math.MaxInt32 || v == math.MinInt32) && x.IsValid(i) {
				return true
			}
		}
	case *array.Timestamp:
		for i, v := range x.TimestampValues() {
			if (v == math.MaxInt64 || v == math.MinInt64) && x.IsValid(i) {
				return true
			}
		}
	}
	return false
}
