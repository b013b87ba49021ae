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
	mode := modeDate
	if t.Kind == Time || t.Kind == TimeTZ {
		mode = modeTime
	}
	p, fail := decodeDateTime(s, mode, order)
	if fail != nil {
		return nil, fail.err(s, t)
	}
	switch p.special {
	case "epoch", "infinity", "-infinity", "today", "tomorrow", "yesterday":
		if mode == modeTime { // a time type has no such days
			return nil, invalidInput(t, s)
		}
	}
	switch p.special {
	case "infinity", "-infinity":
		sign := 1
		if p.special == "-infinity" {
			sign = -1
		}
		if t.Kind == Date {
			if sign > 0 {
				return int32(math.MaxInt32), nil
			}
			return int32(math.MinInt32), nil
		}
		v, _ := InfiniteValue(sign, t)
		return v, nil
	case "epoch":
		return TimeToValue(time.Unix(0, 0).UTC(), t)
	case "now":
		switch t.Kind {
		case TimestampTZ:
			return TimeToValue(now, t)
		case TimeTZ:
			return RoundTimeTZ(TimeTZAt(now, loc), t.Precision), nil
		}
		return TimeToValue(WallClock(now, loc), t)
	case "today", "tomorrow", "yesterday":
		k := map[string]int{"today": 0, "tomorrow": 1, "yesterday": -1}[p.special]
		y, m, d := now.In(loc).AddDate(0, 0, k).Date()
		p.year, p.month, p.day = int64(y), int(m), d
	}
	switch t.Kind {
	case Date:
		w := time.Date(int(p.year), time.Month(p.month), p.day, 0, 0, 0, 0, time.UTC)
		if w.Before(minDate) || w.After(maxDate) {
			return nil, (&dtFail{kind: dtDateRange}).err(s, t)
		}
		return int32(math.Floor(float64(w.Unix()) / 86400)), nil
	case Timestamp, TimestampTZ:
		tm := p.wall()
		if tm.Before(minDate) || tm.After(maxDate) {
			return nil, TimestampOutOfRange(s)
		}
		if t.Kind == TimestampTZ {
			tm = p.instant(tm, loc)
		}
		v, err := TimeToValue(tm, t)
		if err != nil {
			return nil, TimestampOutOfRange(s)
		}
		return v, nil
	case Time:
		if p.zone.loc != nil && p.set&dateParts == 0 && !fixedZoneLoc(p.zone.loc) {
			// a tz database zone's offset needs a date, even when the
			// offset is then dropped
			return nil, invalidInput(t, s)
		}
		ns := p.dayNanos()
		if ns > USecsPerDay*1000 {
			return nil, failRange.err(s, t)
		}
		return parseTimeOfDayValue(ns, t), nil
	case TimeTZ:
		v, fail := p.timeTZ(loc, now)
		if fail != nil {
			return nil, fail.err(s, t)
		}
		return RoundTimeTZ(v, t.Precision), nil
	}
	return nil, invalidInput(t, s)
}

// instant is the instant of wall-clock fields in the text's zone, or in
// loc when the text has none.
func (p *dtParts) instant(wall time.Time, loc *time.Location) time.Time {
	switch {
	case p.set&hasZone == 0:
		return LocalToInstant(wall, loc)
	case p.zone.loc != nil:
		return LocalToInstant(wall, p.zone.loc)
	}
	return wall.Add(-time.Duration(p.zone.east) * time.Second)
}

// timeTZ is the timetz of the parts: the zone written, else loc's offset
// on the date written, else on now's date; a tz database zone needs a
// date.
func (p *dtParts) timeTZ(loc *time.Location, now time.Time) (int64, *dtFail) {
	ns := p.dayNanos()
	us := roundToPrecision(ns/1000, int(ns%1000), 6)
	if us > USecsPerDay {
		return 0, failRange
	}
	haveDate := p.set&dateParts != 0
	var west int32
	switch {
	case p.set&hasZone != 0 && p.zone.loc == nil:
		west = int32(-p.zone.east)
	case p.set&hasZone != 0 && !haveDate:
		if !fixedZoneLoc(p.zone.loc) {
			return 0, failBad
		}
		_, off := time.Unix(0, 0).In(p.zone.loc).Zone()
		west = int32(-off)
	case p.set&hasZone != 0:
		west = offsetWestAt(p.wall(), p.zone.loc)
	case haveDate:
		west = offsetWestAt(p.wall(), loc)
	default:
		west = ZoneWestNow(now, loc)
	}
	if west > MaxTimeTZZone || west < -MaxTimeTZZone {
		return 0, &dtFail{kind: dtZoneRange}
	}
	return TimeTZValue(us, west), nil
}

// fixedZoneLoc reports whether a tz database zone has one offset for all
// time (Etc/GMT+3): the only kind a time without a date may name, as its
// offset needs no date.
func fixedZoneLoc(loc *time.Location) bool {
	start, end := time.Unix(0, 0).In(loc).ZoneBounds()
	return start.IsZero() && end.IsZero()
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
