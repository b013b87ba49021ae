package types

import (
	"strings"
	"time"
)

// PostgreSQL's special date/time input words (datetime.c: DTK_EPOCH,
// DTK_NOW, DTK_TODAY, DTK_TOMORROW, DTK_YESTERDAY, and allballs for a time
// of day), read by date, timestamp, timestamptz and time input. now is the
// current transaction's start, as PostgreSQL reads 'now'; loc the
// session's TimeZone, in which today begins.

// specialInstant is the instant a special word names, and whether s is one
// (infinity is types/infinity.go's). epoch is midnight UTC for a
// timestamptz and 1970-01-01 00:00:00 as wall-clock fields otherwise (the
// caller reads the fields in loc), hence utcEpoch.
func specialInstant(s string, now time.Time, loc *time.Location, utcEpoch bool) (time.Time, bool) {
	if loc == nil {
		loc = time.UTC
	}
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "epoch":
		if utcEpoch {
			return time.Unix(0, 0).UTC(), true
		}
		return time.Date(1970, 1, 1, 0, 0, 0, 0, loc), true
	case "now":
		return now.In(loc), true
	case "today":
		return midnight(now, loc, 0), true
	case "tomorrow":
		return midnight(now, loc, 1), true
	case "yesterday":
		return midnight(now, loc, -1), true
	}
	return time.Time{}, false
}

func midnight(now time.Time, loc *time.Location, days int) time.Time {
	y, m, d := now.In(loc).Date()
	return time.Date(y, m, d+days, 0, 0, 0, 0, loc)
}

// specialValue is the value of t that a special word s names (false when s
// is none, or t has no such words).
func specialValue(s string, t T, loc *time.Location, now time.Time) (any, bool, error) {
	switch t.Kind {
	case Date:
		tm, ok := specialInstant(s, now, loc, false)
		if !ok {
			return nil, false, nil
		}
		y, m, d := tm.Date()
		return int32(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400), true, nil
	case Timestamp, TimestampTZ:
		tm, ok := specialInstant(s, now, loc, t.Kind == TimestampTZ)
		if !ok {
			return nil, false, nil
		}
		if t.Kind == Timestamp { // the wall-clock fields, as UTC
			tm = time.Date(tm.Year(), tm.Month(), tm.Day(), tm.Hour(), tm.Minute(), tm.Second(), tm.Nanosecond(), time.UTC)
		}
		v, err := TimeToValue(tm, t)
		return v, true, err
	case Time:
		w := strings.ToLower(strings.TrimSpace(s))
		switch w {
		case "allballs":
			return parseTimeOfDayValue(0, t), true, nil
		case "now":
			if loc == nil {
				loc = time.UTC
			}
			h, m, sec := now.In(loc).Clock()
			ns := int64(h)*3600e9 + int64(m)*60e9 + int64(sec)*1e9 + int64(now.Nanosecond())
			return parseTimeOfDayValue(ns, t), true, nil
		}
	}
	return nil, false, nil
}

// parseTimeOfDayValue is the time value of ns nanoseconds after midnight,
// rounded to t's precision, in t's unit (parseTimeOfDay's).
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
