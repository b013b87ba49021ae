package exec

import (
	"time"

	"github.com/sqlgate/sqlgate/types"
)

// This file holds the casts of time with time zone (types/timetz.go) that
// are not text input or output, as PostgreSQL 15's pg_cast has them.

// timeTZNeedsZone reports whether a cast involving timetz reads the
// session's TimeZone: text and time become a timetz at the session's
// offset (today's, as PostgreSQL's time_timetz and timetz_in take it), and
// a timestamptz's wall time and offset are the session zone's.
func timeTZNeedsZone(from, to types.T) bool {
	if to.Kind != types.TimeTZ || from.Kind == types.TimeTZ {
		return false
	}
	switch from.Kind {
	case types.Time, types.TimestampTZ, types.Unknown, types.String, types.Char, types.Name:
		return true
	}
	return false
}

// castTimeTZ converts v between timetz and time, timestamptz or another
// timetz precision; ok is false for any other pair of types.
func castTimeTZ(v any, from, to types.T, loc *time.Location) (out any, ok bool) {
	switch {
	case from.Kind == types.TimeTZ && to.Kind == types.TimeTZ:
		return types.RoundTimeTZ(v.(int64), to.Precision), true
	case from.Kind == types.TimeTZ && to.Kind == types.Time:
		us, _ := types.TimeTZParts(v.(int64))
		return timeFromNanos(us*1000, to), true
	case from.Kind == types.Time && to.Kind == types.TimeTZ:
		us := timeMicros(v.(int64), from)
		return types.RoundTimeTZ(types.TimeTZValue(us, types.ZoneWestNow(time.Now(), loc)), to.Precision), true
	case from.Kind == types.TimestampTZ && to.Kind == types.TimeTZ:
		if types.InfiniteSign(v, from) != 0 {
			return nil, true // PostgreSQL: an infinite timestamptz has no time of day
		}
		return types.RoundTimeTZ(types.TimeTZAt(types.ValueToTime(v, from), loc), to.Precision), true
	}
	return nil, false
}
