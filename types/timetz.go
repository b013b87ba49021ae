package types

import (
	"math"
	"time"
)

// This file holds PostgreSQL's time with time zone (timetz, OID 1266): a
// time of day (microseconds, 00:00:00 to 24:00:00) with a fixed UTC offset
// (seconds west of UTC, as PostgreSQL's TimeTzADT.zone keeps it). It exists
// in queries only: Fluss has no such column type (fluss/schema.go refuses
// it), and PostgreSQL itself advises against storing it.
//
// A value is one int64 (the Arrow column is int64) packing both parts so
// that the integers order as PostgreSQL's timetz_cmp does: first by the
// UTC-equivalent time (time + zone), then by the zone. Equal integers are
// equal values (timetz_eq needs both parts equal), so comparison, sorting,
// grouping, hashing, min and max work on the integer as they are.

// TimeTZType returns time(p) with time zone.
func TimeTZType(p int) T { return T{Kind: TimeTZ, Precision: p} }

// MaxTimeTZZone is the largest zone displacement PostgreSQL accepts
// (TZDISP_LIMIT: 15:59:59 is the largest offset written, 16:00 is refused).
const MaxTimeTZZone = 15*3600 + 59*60 + 59

const (
	timeTZZoneBits = 17                          // holds zone + timeTZZoneBias
	timeTZZoneBias = 1 << (timeTZZoneBits - 1)   // 65536 > MaxTimeTZZone
	timeTZUTCBias  = int64(timeTZZoneBias) * 1e6 // keeps time + zone non-negative
)

// TimeTZValue packs a time of day (microseconds) and a zone (seconds west
// of UTC) into timetz's physical value.
func TimeTZValue(us int64, zoneWest int32) int64 {
	utc := us + int64(zoneWest)*1e6 + timeTZUTCBias
	return utc<<timeTZZoneBits | int64(int32(zoneWest)+timeTZZoneBias)
}

// TimeTZParts unpacks timetz's physical value into its time of day
// (microseconds) and zone (seconds west of UTC).
func TimeTZParts(v int64) (us int64, zoneWest int32) {
	zoneWest = int32(v&(1<<timeTZZoneBits-1)) - timeTZZoneBias
	us = v>>timeTZZoneBits - timeTZUTCBias - int64(zoneWest)*1e6
	return us, zoneWest
}

// FormatTimeTZ renders a timetz as PostgreSQL's timetz_out does:
// "12:34:56.789+02", "04:05:06-05:30".
func FormatTimeTZ(v int64) string {
	us, zone := TimeTZParts(v)
	return string(AppendTimeOfDay(nil, us)) + ZoneOffset(-int(zone))
}

// AppendTimeOfDay appends microseconds since midnight as HH:MM:SS[.ffffff]
// (trailing zeros of the fraction dropped; 24:00:00 kept).
func AppendTimeOfDay(dst []byte, us int64) []byte {
	secs := us / 1e6
	dst = append2(dst, int(secs/3600))
	dst = append(dst, ':')
	dst = append2(dst, int(secs/60%60))
	dst = append(dst, ':')
	dst = append2(dst, int(secs%60))
	return append(dst, fraction(us%1e6)...)
}

// RoundTimeTZ rounds a timetz's time to p fractional digits, as
// PostgreSQL's AdjustTimeForTypmod does (half up; 23:59:59.5 as timetz(0)
// is 24:00:00, which timetz allows).
func RoundTimeTZ(v int64, p int) int64 {
	if p < 0 || p >= 6 {
		return v
	}
	us, zone := TimeTZParts(v)
	unit := int64(math.Pow10(6 - p))
	return TimeTZValue((us+unit/2)/unit*unit, zone)
}

// TimeTZAt is the timetz of an instant's wall clock in loc, with the
// offset in force there at that instant (timestamptz_timetz, and
// current_time in the session's zone).
func TimeTZAt(tm time.Time, loc *time.Location) int64 {
	if loc == nil {
		loc = time.UTC
	}
	tm = tm.In(loc)
	_, off := tm.Zone()
	h, m, s := tm.Clock()
	us := int64(h*3600+m*60+s)*1e6 + int64(tm.Nanosecond()/1000)
	return TimeTZValue(us, int32(-off))
}

// ZoneWestNow is the offset of loc (seconds west of UTC) on the date of
// the instant at: what PostgreSQL gives a time without a zone of its own
// (time_timetz and timetz input take the offset in force today).
func ZoneWestNow(at time.Time, loc *time.Location) int32 {
	if loc == nil {
		loc = time.UTC
	}
	_, off := at.In(loc).Zone()
	return int32(-off)
}

// ParseTimeTZ reads timetz text as PostgreSQL 15's timetz_in does, in a
// session whose TimeZone is loc (the zone of a value written without one,
// in force at now's date, or at the date written). Errors are 22007 for
// text that is no timetz, 22008 for a field out of range and 22009 for a
// displacement beyond 15:59:59.
func ParseTimeTZ(s string, t T, loc *time.Location, now time.Time) (int64, error) {
	v, err := parseDateTimeText(s, T{Kind: TimeTZ, Precision: t.Precision}, loc, now, OrderMDY)
	if err != nil {
		return 0, err
	}
	return v.(int64), nil
}

// TimeTZShift moves a timetz to another zone (seconds west), keeping the
// instant: timezone(zone, timetz), x AT TIME ZONE zone.
func TimeTZShift(v int64, zoneWest int32) int64 {
	us, zone := TimeTZParts(v)
	us += int64(zone-zoneWest) * 1e6
	us %= USecsPerDay
	if us < 0 {
		us += USecsPerDay
	}
	return TimeTZValue(us, zoneWest)
}

// TimeTZAddMicros adds a time span to a timetz, wrapping around midnight
// (timetz_pl_interval: an interval's months and days do not count).
func TimeTZAddMicros(v int64, span int64) int64 {
	us, zone := TimeTZParts(v)
	us = (us + span%USecsPerDay) % USecsPerDay
	if us < 0 {
		us += USecsPerDay
	}
	return TimeTZValue(us, zone)
}
