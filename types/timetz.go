package types

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/sqlgate/sqlgate/sqlerr"
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

// timeTZInput is timetz's input: an optional ISO date (which lets a
// tz database zone name resolve to its offset on that date), an optional
// T, the time of day (H:M[:S[.f]] or HHMM[SS][.f]), and an optional zone
// (an ISO offset, an abbreviation, or a zone name).
var timeTZInput = regexp.MustCompile(`^(?:(\d{4}-\d{1,2}-\d{1,2})(?:\s+|T))?[Tt]?(\d{1,2}:\d{1,2}(?::\d{1,2}(?:\.\d*)?)?|\d{4}(?:\d{2}(?:\.\d*)?)?)\s*(.*?)$`)

// ParseTimeTZ reads timetz text as PostgreSQL 15's timetz_in does, in a
// session whose TimeZone is loc (the zone of a value written without one,
// in force at now's date). Errors are 22007 for text that is no timetz,
// 22008 for a field out of range and 22009 for a displacement beyond
// 15:59:59.
func ParseTimeTZ(s string, t T, loc *time.Location, now time.Time) (int64, error) {
	in := strings.TrimSpace(s)
	bad := func() (int64, error) { return 0, invalidInput(t, s) }
	switch strings.ToLower(in) {
	case "allballs":
		return RoundTimeTZ(TimeTZValue(0, 0), t.Precision), nil
	}
	idx := timeTZInput.FindStringSubmatchIndex(in)
	if idx == nil {
		return bad()
	}
	m := []string{in, "", in[idx[4]:idx[5]], in[idx[6]:idx[7]]}
	if idx[2] >= 0 {
		m[1] = in[idx[2]:idx[3]]
	}
	clock := m[2]
	if !strings.ContainsAny(clock, ":.") && idx[6] == idx[5] && strings.HasPrefix(m[3], "-") && strings.Contains(m[3], ":") {
		// PostgreSQL's lexer reads 1200-02:30 as a date-like field
		// (1200-02) and a stray time: only +hh:mm, or a space before
		// the sign, follows a compact time
		return bad()
	}
	if !strings.Contains(clock, ":") { // HHMM[SS][.f]
		whole, frac, _ := strings.Cut(clock, ".")
		clock = whole[:2] + ":" + whole[2:4]
		if len(whole) == 6 {
			clock += ":" + whole[4:]
			if frac != "" || strings.Contains(m[2], ".") {
				clock += "." + frac
			}
		}
	}
	tv, err := parseTimeOfDay(clock, T{Kind: Time, Precision: 6})
	if err != nil {
		if sqlerr.CodeOf(err) == sqlerr.DatetimeFieldOverflow {
			return 0, sqlerr.New(sqlerr.DatetimeFieldOverflow, "date/time field value out of range: %q", s)
		}
		return bad()
	}
	us := tv.(int64)
	day := now
	if m[1] != "" {
		d, err := time.Parse("2006-1-2", m[1])
		if err != nil {
			return bad()
		}
		day = d.Add(time.Duration(us) * time.Microsecond)
	}
	zone, err := timeTZZone(m[3], s, m[1] != "", day, loc)
	if err != nil {
		return 0, err
	}
	if us > USecsPerDay {
		return 0, sqlerr.New(sqlerr.DatetimeFieldOverflow, "date/time field value out of range: %q", s)
	}
	return RoundTimeTZ(TimeTZValue(us, zone), t.Precision), nil
}

// timeTZZone reads the zone part of timetz input (seconds west): none
// takes loc's offset at day; a tz database name needs a date (withDate),
// as in PostgreSQL, since its offset depends on the day.
func timeTZZone(z, orig string, withDate bool, day time.Time, loc *time.Location) (int32, error) {
	bad := sqlerr.New(sqlerr.InvalidDatetimeFormat, "invalid input syntax for type time with time zone: %q", orig)
	z = strings.TrimSpace(z)
	if z == "" {
		if !withDate {
			return ZoneWestNow(day, loc), nil
		}
		if loc == nil {
			loc = time.UTC
		}
		wall := time.Date(day.Year(), day.Month(), day.Day(), day.Hour(), day.Minute(), day.Second(), 0, time.UTC)
		_, off := LocalToInstant(wall, loc).In(loc).Zone()
		return int32(-off), nil
	}
	if mm := timeTZOffset.FindStringSubmatch(z); mm != nil {
		h, _ := strconv.Atoi(mm[2])
		mi, _ := strconv.Atoi(mm[3])
		se, _ := strconv.Atoi(mm[4])
		secs := h*3600 + mi*60 + se
		if mi > 59 || se > 59 || secs > MaxTimeTZZone {
			return 0, sqlerr.New(sqlerr.InvalidTimeZoneDisplacement, "time zone displacement out of range: %q", orig)
		}
		if mm[1] == "-" {
			secs = -secs
		}
		return int32(-secs), nil
	}
	if off, ok := zoneAbbrevs[strings.ToUpper(z)]; ok {
		return int32(-off), nil
	}
	if l, _, ok := lookupZoneName(z); ok {
		if !withDate {
			return 0, bad
		}
		wall := time.Date(day.Year(), day.Month(), day.Day(), day.Hour(), day.Minute(), day.Second(), 0, time.UTC)
		_, off := LocalToInstant(wall, l).In(l).Zone()
		return int32(-off), nil
	}
	if strings.Contains(z, "/") {
		return 0, sqlerr.New(sqlerr.InvalidParameterValue, "time zone %q not recognized", strings.ToLower(z))
	}
	return 0, bad
}

// timeTZOffset is an ISO offset: +2, +02, +0230, +02:30, +02:30:15.
var timeTZOffset = regexp.MustCompile(`^([+-])(\d{1,2})(?::?(\d{2})(?::?(\d{2}))?)?$`)

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
