package types

import (
	"math"
	"time"
)

// This file builds each date/time type's value from the parts that
// dtinput.go's decoder read.

// The date range: PostgreSQL's dates run from Julian day 0 (4714-11-24
// BC) to 5874897-12-31.
var (
	minDate = time.Date(-4713, time.November, 24, 0, 0, 0, 0, time.UTC)
	maxDate = time.Date(5874897, time.December, 31, 0, 0, 0, 0, time.UTC)
)

// parseDateTimeText reads the text of a date, timestamp, timestamptz,
// time or timetz in a session whose TimeZone is loc; now is the current
// transaction's start, which 'now', 'today', 'tomorrow' and 'yesterday'
// name, and whose date places a timetz written without a zone; order is
// DateStyle's, which reads a date written in numbers only.
func parseDateTimeText(s string, t T, loc *time.Location, now time.Time, order DateOrder) (any, error) {
	if loc == nil {
		loc = time.UTC
	}
	if t.Kind == Date || t.Kind == Timestamp || t.Kind == TimestampTZ {
		// the shape clients send most (YYYY-MM-DD[ HH:MM:SS]) without
		// the decoder, for INSERT's sake
		if tm, ok := plainTimestamp(s, t.Kind == TimestampTZ, loc); ok {
			if t.Kind == Date {
				return int32(math.Floor(float64(tm.Unix()) / 86400)), nil
			}
			v, err := TimeToValue(tm, t)
			if err != nil {
				return nil, TimestampOutOfRange(s)
			}
			return v, nil
		}
	}
	mode, buflen := modeDate, maxDateLen+1
	switch t.Kind {
	case Time, TimeTZ:
		mode = modeTime
	case Timestamp, TimestampTZ:
		buflen = maxDateLen + maxDateFields
	}
	res, fail := decodeDateTimeText(s, mode, buflen, order, loc, now)
	if fail != nil {
		return nil, fail.err(s, t)
	}
	tm := &res.tm
	switch t.Kind {
	case Date: // date_in
		switch res.dtype {
		case dtkDate:
		case dtkEpoch:
			tm.year, tm.mon, tm.mday = 1970, 1, 1
		case dtkLate:
			return int32(math.MaxInt32), nil
		case dtkEarly:
			return int32(math.MinInt32), nil
		default:
			return nil, invalidInput(t, s)
		}
		if !isValidJulian(tm.year, tm.mon) {
			return nil, (&dtFail{kind: dtDateRange}).err(s, t)
		}
		jd := Date2J(tm.year, tm.mon, tm.mday)
		if jd < 0 || jd >= dateEndJulian {
			return nil, (&dtFail{kind: dtDateRange}).err(s, t)
		}
		return int32(jd - unixEpochJDate), nil
	case Timestamp, TimestampTZ: // timestamp_in, timestamptz_in
		var us int64
		switch res.dtype {
		case dtkDate:
			var tz *int
			if t.Kind == TimestampTZ {
				tz = &res.tz
			}
			v, ok := tm2timestamp(tm, tz)
			if !ok {
				return nil, TimestampOutOfRange(s)
			}
			us = v
		case dtkEpoch:
			us = -postgresEpochUnixUsecs
		case dtkLate, dtkEarly:
			sign := 1
			if res.dtype == dtkEarly {
				sign = -1
			}
			v, _ := InfiniteValue(sign, t)
			return v, nil
		default:
			return nil, invalidInput(t, s)
		}
		at := time.UnixMicro(us + postgresEpochUnixUsecs).UTC()
		if t.Precision > 6 && res.dtype == dtkDate {
			// TIMESTAMP(7..9), a Fluss type: the fraction's nanoseconds
			at = at.Add(time.Duration(tm.fnsec - tm.fsec*1000))
		}
		v, err := TimeToValue(at, t)
		if err != nil {
			return nil, TimestampOutOfRange(s)
		}
		return v, nil
	case Time: // time_in
		ns := (int64((tm.hour*60+tm.min)*60+tm.sec)*1e6 + tm.fsec) * 1000
		if t.Precision > 6 { // TIME(7..9), a Fluss type: the fraction's nanoseconds
			ns += tm.fnsec - tm.fsec*1000
		}
		return parseTimeOfDayValue(ns, t), nil
	case TimeTZ: // timetz_in
		us := int64((tm.hour*60+tm.min)*60+tm.sec)*1e6 + tm.fsec
		if res.tz > MaxTimeTZZone || res.tz < -MaxTimeTZZone {
			return nil, (&dtFail{kind: dtZoneRange}).err(s, t)
		}
		return RoundTimeTZ(TimeTZValue(us, int32(res.tz)), t.Precision), nil
	}
	return nil, invalidInput(t, s)
}

// Julian days and PostgreSQL's epochs: dates run to Julian day
// 2147483494 (DATE_END_JULIAN, exclusive); timestamps count microseconds
// from 2000-01-01, from Julian day 0 to 294277-01-01.
const (
	unixEpochJDate         = 2440588
	postgresEpochJDate     = 2451545
	dateEndJulian          = 2147483494
	postgresEpochUnixUsecs = int64(postgresEpochJDate-unixEpochJDate) * USecsPerDay
	minTimestampUsecs      = -211813488000000000
	endTimestampUsecs      = 9223371331200000000
)

// tm2timestamp is PostgreSQL's tm2timestamp: the microseconds since 2000
// of tm (made UTC when tz, seconds west, is given); ok is false out of
// range.
func tm2timestamp(tm *pgTm, tz *int) (int64, bool) {
	if !isValidJulian(tm.year, tm.mon) {
		return 0, false
	}
	date := int64(Date2J(tm.year, tm.mon, tm.mday) - postgresEpochJDate)
	tod := ((int64(tm.hour)*60+int64(tm.min))*60+int64(tm.sec))*1e6 + tm.fsec
	result := date*USecsPerDay + tod
	if (result-tod)/USecsPerDay != date {
		return 0, false
	}
	if result < 0 && date > 0 || result > 0 && date < -1 {
		return 0, false
	}
	if tz != nil {
		result += int64(*tz) * 1e6
	}
	if result < minTimestampUsecs || result >= endTimestampUsecs {
		return 0, false
	}
	return result, true
}

// fixedZoneLoc is pg_get_timezone_offset's test: whether every period of
// a zone has one offset (Etc/GMT+3, or a POSIX zone whose daylight time
// keeps the standard offset, JUN.06.06) — the only kind a time without a
// date may name, as its offset needs no date. The periods are walked
// from the first to the year 2100 (a rule repeats after its last
// transition).
func fixedZoneLoc(loc *time.Location) bool {
	cur := time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).In(loc)
	_, first := cur.Zone()
	for range maxAbbrevScan {
		_, end := cur.ZoneBounds()
		if end.IsZero() || end.Year() > 2100 {
			return true
		}
		cur = end.In(loc)
		if _, off := cur.Zone(); off != first {
			return false
		}
	}
	return true
}

// offsetWestAt is loc's offset (seconds west) at a wall-clock time there.
func offsetWestAt(wall time.Time, loc *time.Location) int32 {
	_, off := LocalToInstant(wall, loc).In(loc).Zone()
	return int32(-off)
}

// plainTimestamp reads YYYY-MM-DD[( |T)HH:MM[:SS[.f]]] with nothing else
// (matchPlainTimestamp's shape); ok is false for any other text, and for
// field values out of range, which the decoder then reports.
func plainTimestamp(s string, withZone bool, loc *time.Location) (time.Time, bool) {
	m, ok := matchPlainTimestamp(s)
	if !ok || len(m[1]) > 6 {
		return time.Time{}, false
	}
	num := func(x string) int {
		v := 0
		for i := 0; i < len(x); i++ {
			v = v*10 + int(x[i]-'0')
		}
		return v
	}
	year, month, day := num(m[1]), num(m[2]), num(m[3])
	hour, minute, sec := num(m[4]), num(m[5]), num(m[6])
	if year == 0 || month < 1 || month > 12 || day < 1 || day > 28 && day > daysIn(time.Month(month), int64(year)) ||
		hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false
	}
	wall := time.Date(year, time.Month(month), day, hour, minute, sec, int(fractionNanos(m[7])), time.UTC)
	if withZone {
		return LocalToInstant(wall, loc), true
	}
	return wall, true
}

// parseTimeOfDayValue is the time value of ns nanoseconds after midnight,
// rounded to t's precision, in t's unit (Time32 milliseconds up to time(3), else Time64).
func parseTimeOfDayValue(ns int64, t T) any {
	us := roundToPrecision(ns/1000, int(ns%1000), t.Precision)
	switch {
	case t.Precision <= 3:
		return us / 1e3
	case t.Precision <= 6:
		return us
	}
	return ns
}
