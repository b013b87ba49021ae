package functions

import (
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// PostgreSQL 15's answers for the date/time functions given infinity or
// -infinity (types.InfiniteSign), one rule per family:
//   - date_trunc and timezone (AT TIME ZONE) return the value unchanged,
//     before they look at the unit or the zone;
//   - to_char returns NULL;
//   - extract/date_part give ±Infinity for the units that only grow with
//     time (year, decade, century, millennium, julian, isoyear, epoch) and
//     NULL for the ones that oscillate (timestamp_part_common and
//     extract_date over NonFiniteTimestampTzPart); units a finite value
//     of the type refuses are refused the same way;
//   - age has no case for them: timestamp2tm reads -infinity as out of
//     range (22008) and infinity as the wall time its int64 denotes
//     (294277-01-09 04:00:54.775807), and age computes from that.

// infSigner returns the infinity sign (types.InfiniteSign) of slot i of a
// date or timestamp array; it is cheap when the array holds none.
func infSigner(a arrow.Array) func(int) int {
	if !hasInfinite(a) {
		return func(int) int { return 0 }
	}
	switch x := a.(type) {
	case *array.Date32:
		return func(i int) int {
			switch x.Value(i) {
			case math.MaxInt32:
				return 1
			case math.MinInt32:
				return -1
			}
			return 0
		}
	case *array.Timestamp:
		return func(i int) int {
			switch x.Value(i) {
			case math.MaxInt64:
				return 1
			case math.MinInt64:
				return -1
			}
			return 0
		}
	}
	return func(int) int { return 0 }
}

// ageTime is the time age() reads a value of sign inf as (see above):
// PostgreSQL's int64 counts microseconds from 2000-01-01 (pgEpochOffset).
func ageTime(inf int, loc *time.Location) (time.Time, error) {
	if inf < 0 {
		return time.Time{}, sqlerr.TimestampOutOfRange()
	}
	t := time.UnixMicro(math.MaxInt64).Add(pgEpochOffset * time.Second).UTC()
	if loc != nil {
		t = t.In(loc)
	}
	return t, nil
}

// monotonicUnits are the extract units that grow with time, so infinity's
// value is ±Infinity.
var monotonicUnits = map[string]bool{
	"year": true, "decade": true, "century": true, "millennium": true, "julian": true, "isoyear": true, "epoch": true,
}

// oscillatingUnits are the extract units with no value at infinity
// (NULL); a date has fewer of them, the others being refused for dates.
func oscillating(unit string, kind types.Kind) bool {
	switch unit {
	case "day", "month", "quarter", "week", "dow", "isodow", "doy":
		return true
	case "microseconds", "milliseconds", "second", "minute", "hour", "timezone", "timezone_hour", "timezone_minute":
		return kind != types.Date
	}
	return false
}

// extractInfinite is extract/date_part of an infinite value: +1 or -1 for
// ±Infinity, 0 for NULL, or the error a finite value gets for the unit.
func extractInfinite(unitText string, inf int, kind types.Kind) (int, error) {
	unit, ok := canonicalUnit(unitText)
	switch {
	case ok && monotonicUnits[unit]:
		return inf, nil
	case ok && oscillating(unit, kind):
		return 0, nil
	}
	// unknown, or refused for this type: the finite path's error
	_, _, err := extractField(unitText, time.Unix(0, 0).UTC(), kind)
	if err == nil {
		err = unitNotSupported(unitText, kindName(kind))
	}
	return 0, err
}
