package types

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// IntervalRange is the field qualifier of an interval type (INTERVAL DAY,
// INTERVAL HOUR TO SECOND): the set of fields the type keeps. 0 is the full
// range, PostgreSQL's INTERVAL_FULL_RANGE.
type IntervalRange uint8

const (
	IntervalYear IntervalRange = 1 << iota
	IntervalMonth
	IntervalDay
	IntervalHour
	IntervalMinute
	IntervalSecond
)

// intervalRanges are the qualifiers PostgreSQL's grammar accepts.
var intervalRanges = map[string]IntervalRange{
	"year": IntervalYear, "month": IntervalMonth, "day": IntervalDay,
	"hour": IntervalHour, "minute": IntervalMinute, "second": IntervalSecond,
	"year to month":    IntervalYear | IntervalMonth,
	"day to hour":      IntervalDay | IntervalHour,
	"day to minute":    IntervalDay | IntervalHour | IntervalMinute,
	"day to second":    IntervalDay | IntervalHour | IntervalMinute | IntervalSecond,
	"hour to minute":   IntervalHour | IntervalMinute,
	"hour to second":   IntervalHour | IntervalMinute | IntervalSecond,
	"minute to second": IntervalMinute | IntervalSecond,
}

// maxIntervalPrecision is MAX_INTERVAL_PRECISION: microseconds.
const maxIntervalPrecision = 6

// IntervalTypeOf is the interval type with a field qualifier (lower-case
// words as sql.TypeName.IntervalFields holds them, "" for none) and a
// fractional-seconds precision (-1 for none). A precision above 6 is
// reduced to 6, as PostgreSQL does with a warning.
func IntervalTypeOf(fields string, precision int) (T, error) {
	r, ok := intervalRanges[fields]
	if !ok && fields != "" {
		return T{}, sqlerr.New(sqlerr.SyntaxError, "syntax error at or near %q", strings.ToUpper(fields))
	}
	if precision < -1 {
		return T{}, sqlerr.New(sqlerr.InvalidParameterValue, "INTERVAL(%d) precision must not be negative", precision)
	}
	if precision > maxIntervalPrecision {
		precision = maxIntervalPrecision
	}
	// The typmod rides in Length, which intervals do not otherwise use:
	// the range in the low byte, precision+1 above it (0: none).
	return T{Kind: Interval, Length: int(r) | (precision+1)<<8}, nil
}

// IntervalTypmod is t's field qualifier and precision (-1: none).
func (t *T) IntervalTypmod() (IntervalRange, int) {
	return IntervalRange(t.Length & 0xff), t.Length>>8 - 1
}

// bareUnit is the unit of a number without one under the range, as
// DecodeInterval chooses the "rightmost field" from the typmod.
func (r IntervalRange) bareUnit() intervalUnit {
	switch r {
	case IntervalYear:
		return unitYear
	case IntervalMonth, IntervalYear | IntervalMonth:
		return unitMonth
	case IntervalDay:
		return unitDay
	case IntervalHour, IntervalDay | IntervalHour:
		return unitHour
	case IntervalMinute, IntervalHour | IntervalMinute, IntervalDay | IntervalHour | IntervalMinute:
		return unitMinute
	}
	return unitSecond
}

// ParseIntervalAs reads interval input as a value of the interval type t:
// the qualifier guides the reading (parseIntervalRange) and then drops the
// fields below it (AdjustInterval).
func ParseIntervalAs(s string, t T) (arrow.MonthDayNanoInterval, error) {
	return ParseIntervalAsStyle(s, t, IntervalPostgres)
}

// ParseIntervalAsStyle is ParseIntervalAs in a session whose
// IntervalStyle is st (ParseIntervalIn).
func ParseIntervalAsStyle(s string, t T, st IntervalStyle) (arrow.MonthDayNanoInterval, error) {
	r, _ := t.IntervalTypmod()
	v, err := parseIntervalRange(s, r, st)
	if err != nil {
		return v, err
	}
	return AdjustInterval(v, t)
}

// AdjustInterval is AdjustIntervalForTypmod: the fields below t's
// qualifier are truncated (toward zero, as C's division does) and the
// seconds rounded to t's precision (half away from zero). Rounding up at
// the edge of the nanosecond range is 22008, as NewInterval's bound.
func AdjustInterval(v arrow.MonthDayNanoInterval, t T) (arrow.MonthDayNanoInterval, error) {
	r, precision := t.IntervalTypmod()
	us := v.Nanoseconds / 1000
	switch r {
	case IntervalYear:
		v.Months = v.Months / 12 * 12
		v.Days, us = 0, 0
	case IntervalMonth, IntervalYear | IntervalMonth:
		v.Days, us = 0, 0
	case IntervalDay:
		us = 0
	case IntervalHour, IntervalDay | IntervalHour:
		us = us / USecsPerHour * USecsPerHour
	case IntervalMinute, IntervalHour | IntervalMinute, IntervalDay | IntervalHour | IntervalMinute:
		us = us / USecsPerMinute * USecsPerMinute
	}
	if precision >= 0 && precision < maxIntervalPrecision {
		scale := int64(1)
		for i := precision; i < maxIntervalPrecision; i++ {
			scale *= 10
		}
		if us >= 0 {
			us = (us + scale/2) / scale * scale
		} else {
			us = -((-us + scale/2) / scale * scale)
		}
	}
	if us > maxIntervalUS || us < -maxIntervalUS {
		return arrow.MonthDayNanoInterval{}, IntervalOutOfRange()
	}
	v.Nanoseconds = us * 1000
	return v, nil
}
