package functions

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// make_time, make_timestamp and make_timestamptz, as PostgreSQL 15's
// date.c and timestamp.c build them: negative years are BC, hour 24 and
// second 60 are accepted as long as the total is at most 24:00:00, the
// seconds are rounded to microseconds, and each failure is 22008 naming
// the fields. A timestamp beyond what sqlgate's int64 microseconds since
// 1970 hold (after 294246 AD) is out of range here although PostgreSQL's
// range reaches 294276 AD.

func makeTimeFuncs() []*Func {
	i4, f8 := tInt4, tFloat8
	return []*Func{
		{Name: "make_time", Args: []types.T{i4, i4, f8}, Ret: timeT, Strict: true, Kernel: rowFunc(timeT, true, func(_ context.Context, a []any) (any, error) {
			h, m, s := a[0].(int64), a[1].(int64), a[2].(float64)
			if timeOverflows(h, m, s) {
				return nil, errTimeField(h, m, s)
			}
			return timeMicros(h, m, s), nil
		})},
		{Name: "make_timestamp", Args: []types.T{i4, i4, i4, i4, i4, f8}, Ret: tsT, Strict: true, Kernel: rowFunc(tsT, true, func(_ context.Context, a []any) (any, error) {
			return makeTimestamp(a)
		})},
		{Name: "make_timestamptz", Args: []types.T{i4, i4, i4, i4, i4, f8}, Ret: tstzT, Strict: true, Kernel: rowFunc(tstzT, true, func(ctx context.Context, a []any) (any, error) {
			return makeTimestampIn(a, LocationOf(ctx))
		})},
		{Name: "make_timestamptz", Args: []types.T{i4, i4, i4, i4, i4, f8, tText}, Ret: tstzT, Strict: true, Kernel: rowFunc(tstzT, true, func(_ context.Context, a []any) (any, error) {
			loc, err := makeTimestampZone(a[6].(string))
			if err != nil {
				return nil, err
			}
			return makeTimestampIn(a[:6], loc)
		})},
	}
}

func errTimeField(h, m int64, s float64) error {
	return sqlerr.New(sqlerr.DatetimeFieldOverflow, "time field value out of range: %d:%02d:%s", h, m, gFormat(s))
}

// gFormat prints a float as C's %02g does.
func gFormat(s float64) string {
	switch {
	case math.IsNaN(s):
		return "NaN"
	case math.IsInf(s, 1):
		return "Infinity"
	case math.IsInf(s, -1):
		return "-Infinity"
	}
	return fmt.Sprintf("%02s", strconv.FormatFloat(s, 'g', 6, 64))
}

// timeOverflows is float_time_overflows.
func timeOverflows(h, m int64, s float64) bool {
	if h < 0 || h > 24 || m < 0 || m >= 60 || math.IsNaN(s) {
		return true
	}
	us := math.RoundToEven(s * 1e6)
	if us < 0 || us > 60*1e6 {
		return true
	}
	return ((h*60+m)*60)*1e6+int64(us) > types.USecsPerDay
}

func timeMicros(h, m int64, s float64) int64 {
	return ((h*60+m)*60)*1e6 + int64(math.RoundToEven(s*1e6))
}

// makeTimestamp is make_timestamp's wall time in microseconds since 1970.
func makeTimestamp(a []any) (any, error) {
	y, mo, d, h, mi, s := a[0].(int64), a[1].(int64), a[2].(int64), a[3].(int64), a[4].(int64), a[5].(float64)
	if y == 0 || mo < 1 || mo > 12 || d < 1 || d > 31 {
		return nil, sqlerr.New(sqlerr.DatetimeFieldOverflow, "date field value out of range: %d-%02d-%02d", y, mo, d)
	}
	gy := y
	if gy < 0 {
		gy++ // 1 BC is year 0
	}
	if gy < -4713 || gy > 5874897 || gy == -4713 && (mo < 11 || mo == 11 && d < 24) {
		if d > int64(daysIn(int(max(min(gy, 5874897), -4713)), time.Month(mo))) {
			return nil, sqlerr.New(sqlerr.DatetimeFieldOverflow, "date field value out of range: %d-%02d-%02d", y, mo, d)
		}
		return nil, sqlerr.New(sqlerr.DatetimeFieldOverflow, "date out of range: %d-%02d-%02d", y, mo, d)
	}
	if d > int64(daysIn(int(gy), time.Month(mo))) {
		return nil, sqlerr.New(sqlerr.DatetimeFieldOverflow, "date field value out of range: %d-%02d-%02d", y, mo, d)
	}
	if timeOverflows(h, mi, s) {
		return nil, errTimeField(h, mi, s)
	}
	days := time.Date(int(gy), time.Month(mo), int(d), 0, 0, 0, 0, time.UTC).Unix() / 86400
	const maxDays = math.MaxInt64/types.USecsPerDay - 1
	us := timeMicros(h, mi, s)
	if days > maxDays || days*types.USecsPerDay+us < minTimestampMicros {
		return nil, sqlerr.New(sqlerr.DatetimeFieldOverflow, "timestamp out of range: %d-%02d-%02d %d:%02d:%s", y, mo, d, h, mi, gFormat(s))
	}
	return days*types.USecsPerDay + us, nil
}

// makeTimestampIn is make_timestamptz: the wall time in loc.
func makeTimestampIn(a []any, loc *time.Location) (any, error) {
	v, err := makeTimestamp(a)
	if err != nil || loc == time.UTC {
		return v, err
	}
	at := types.LocalToInstant(time.UnixMicro(v.(int64)).UTC(), loc)
	return at.UnixMicro(), nil
}

// makeTimestampZone reads make_timestamptz's zone: a numeric offset in
// ISO sign convention (+3 is three hours east), else a zone name or
// abbreviation.
func makeTimestampZone(s string) (*time.Location, error) {
	if s != "" && (s[0] == '+' || s[0] == '-' || s[0] >= '0' && s[0] <= '9') {
		sign := 1
		t := s
		switch t[0] {
		case '+':
			t = t[1:]
		case '-':
			sign, t = -1, t[1:]
		}
		parts := strings.Split(t, ":")
		secs := 0
		ok := len(parts) <= 3
		for i, p := range parts {
			n, err := strconv.Atoi(p)
			if err != nil || n < 0 || i > 0 && n > 59 {
				ok = false
				break
			}
			secs += n * []int{3600, 60, 1}[i]
		}
		if ok && secs <= 15*3600+59*60+59 {
			return time.FixedZone(s, sign*secs), nil
		}
		return nil, sqlerr.New(sqlerr.InvalidParameterValue, "time zone %q not recognized", s)
	}
	loc, err := types.ZoneByName(s)
	if err != nil {
		return nil, sqlerr.New(sqlerr.InvalidParameterValue, "time zone %q not recognized", s)
	}
	return loc, nil
}
