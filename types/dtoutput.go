package types

import (
	"strconv"
	"time"
)

// Style is the part of a session's settings that shapes the text of
// values besides the TimeZone: DateStyle (its output style, and the field
// order that reads a date in numbers and writes the SQL and Postgres
// styles), IntervalStyle, and extra_float_digits for reals and doubles.
// The zero value is PostgreSQL's default, DateStyle "ISO, MDY",
// IntervalStyle postgres and extra_float_digits 1. Like the TimeZone
// (which stays a separate argument) it is an argument wherever a value
// becomes text or text a value, never package state.
type Style struct {
	Date     DateStyle
	Interval IntervalStyle
	Float    FloatDigits
}

// StyleOf is the Style of a session's DateStyle, IntervalStyle and
// extra_float_digits settings as SHOW spells them; a setting that does
// not read leaves PostgreSQL's default.
func StyleOf(dateStyle, intervalStyle, extraFloatDigits string) Style {
	st := Style{Float: FloatDigitsSetting(extraFloatDigits)}
	if ds, err := ParseDateStyle(dateStyle, DateStyle{}); err == nil {
		st.Date = ds
	}
	if is, err := ParseIntervalStyle("IntervalStyle", intervalStyle); err == nil {
		st.Interval = is
	}
	return st
}

// MaxZoneAbbrev is PostgreSQL's MAXTZLEN: the SQL, German and Postgres
// styles write at most this much of a zone's abbreviation.
const MaxZoneAbbrev = 10

var (
	weekdayAbbrevs = [7]string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}
	monthAbbrevs   = [12]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
)

// appendYear appends a year as the styles write it: four digits at
// least, a year before 1 AD as its BC number (year 0 is 1 BC).
func appendYear(dst []byte, year int) []byte {
	if year <= 0 {
		year = 1 - year
	}
	s := strconv.Itoa(year)
	for i := len(s); i < 4; i++ {
		dst = append(dst, '0')
	}
	return append(dst, s...)
}

// appendDayMonth appends the day and month of the SQL (sep '/') and
// Postgres (sep '-') styles: day first in DMY order, else month first
// (YMD writes them as MDY, as PostgreSQL does).
func appendDayMonth(dst []byte, month time.Month, day int, order DateOrder, sep byte) []byte {
	if order == OrderDMY {
		dst = append2(dst, day)
		dst = append(dst, sep)
		return append2(dst, int(month))
	}
	dst = append2(dst, int(month))
	dst = append(dst, sep)
	return append2(dst, day)
}

// AppendDateStyled appends the calendar date of tm (its year, month and
// day, astronomical years) as PostgreSQL's EncodeDateOnly writes it in
// DateStyle ds: ISO 2020-01-02, SQL 01/02/2020 (02/01/2020 in DMY),
// Postgres 01-02-2020 (02-01-2020), German 02.01.2020; " BC" after a
// year before 1 AD.
func AppendDateStyled(dst []byte, tm time.Time, ds DateStyle) []byte {
	year, month, day := tm.Date()
	switch ds.Output {
	case OutputSQL:
		dst = appendDayMonth(dst, month, day, ds.Order, '/')
		dst = append(dst, '/')
		dst = appendYear(dst, year)
	case OutputPostgres:
		dst = appendDayMonth(dst, month, day, ds.Order, '-')
		dst = append(dst, '-')
		dst = appendYear(dst, year)
	case OutputGerman:
		dst = append2(dst, day)
		dst = append(dst, '.')
		dst = append2(dst, int(month))
		dst = append(dst, '.')
		dst = appendYear(dst, year)
	default:
		dst = appendYear(dst, year)
		dst = append(dst, '-')
		dst = append2(dst, int(month))
		dst = append(dst, '-')
		dst = append2(dst, day)
	}
	if year <= 0 {
		dst = append(dst, " BC"...)
	}
	return dst
}

// appendClockOf appends HH:MM:SS and the fraction of tm's wall clock,
// with us microseconds (trailing zeros dropped).
func appendClockOf(dst []byte, tm time.Time, us int) []byte {
	dst = append2(dst, tm.Hour())
	dst = append(dst, ':')
	dst = append2(dst, tm.Minute())
	dst = append(dst, ':')
	dst = append2(dst, tm.Second())
	return append(dst, fraction(int64(us))...)
}

// AppendTimestampStyled appends a timestamp whose wall clock is tm
// (microsecond us of its second) as PostgreSQL's EncodeDateTime writes it
// in DateStyle ds. zoned is a timestamptz: ISO writes the offset east of
// UTC, off seconds ("+05:30"); SQL, German and Postgres a space and the
// zone's abbreviation, abbrev (at most MaxZoneAbbrev bytes; a zone
// written as an offset alone has none, and PostgreSQL writes the space
// alone). " BC" ends a year before 1 AD:
//
//	ISO       2020-01-02 03:04:05.5+00
//	SQL       01/02/2020 03:04:05.5 UTC   (02/01/2020 in DMY)
//	German    02.01.2020 03:04:05.5 UTC
//	Postgres  Thu Jan 02 03:04:05.5 2020 UTC   (Thu 02 Jan in DMY)
func AppendTimestampStyled(dst []byte, tm time.Time, us int, ds DateStyle, zoned bool, off int, abbrev string) []byte {
	year, month, day := tm.Date()
	zone := func(dst []byte) []byte {
		if !zoned {
			return dst
		}
		if len(abbrev) > MaxZoneAbbrev {
			abbrev = abbrev[:MaxZoneAbbrev]
		}
		dst = append(dst, ' ')
		return append(dst, abbrev...)
	}
	switch ds.Output {
	case OutputSQL, OutputGerman:
		if ds.Output == OutputSQL {
			dst = appendDayMonth(dst, month, day, ds.Order, '/')
			dst = append(dst, '/')
		} else {
			dst = append2(dst, day)
			dst = append(dst, '.')
			dst = append2(dst, int(month))
			dst = append(dst, '.')
		}
		dst = appendYear(dst, year)
		dst = append(dst, ' ')
		dst = appendClockOf(dst, tm, us)
		dst = zone(dst)
	case OutputPostgres:
		dst = append(dst, weekdayAbbrevs[tm.Weekday()]...)
		dst = append(dst, ' ')
		if ds.Order == OrderDMY {
			dst = append2(dst, day)
			dst = append(dst, ' ')
			dst = append(dst, monthAbbrevs[month-1]...)
		} else {
			dst = append(dst, monthAbbrevs[month-1]...)
			dst = append(dst, ' ')
			dst = append2(dst, day)
		}
		dst = append(dst, ' ')
		dst = appendClockOf(dst, tm, us)
		dst = append(dst, ' ')
		dst = appendYear(dst, year)
		dst = zone(dst)
	default:
		dst = appendYear(dst, year)
		dst = append(dst, '-')
		dst = append2(dst, int(month))
		dst = append(dst, '-')
		dst = append2(dst, day)
		dst = append(dst, ' ')
		dst = appendClockOf(dst, tm, us)
		if zoned {
			dst = append(dst, ZoneOffset(off)...)
		}
	}
	if year <= 0 {
		dst = append(dst, " BC"...)
	}
	return dst
}

// wallClock splits a timestamp's instant into its wall clock in loc (nil:
// UTC, for a timestamp without zone) and the microsecond of its second,
// rounded half up as PostgreSQL keeps microseconds.
func wallClock(tm time.Time, loc *time.Location) (time.Time, int) {
	us := (tm.Nanosecond() + 500) / 1000
	tm = tm.Add(-time.Duration(tm.Nanosecond()))
	if us >= 1e6 {
		tm = tm.Add(time.Second)
		us -= 1e6
	}
	if loc != nil {
		tm = tm.In(loc)
	}
	return tm, us
}

// formatTimestampStyled is a timestamp's (zoned: a timestamptz's in loc)
// text in DateStyle ds.
func formatTimestampStyled(tm time.Time, zoned bool, loc *time.Location, ds DateStyle) string {
	if zoned && loc == nil {
		loc = time.UTC
	}
	if !zoned {
		loc = nil
	}
	wall, us := wallClock(tm, loc)
	abbrev, off := "", 0
	if zoned {
		abbrev, off = wall.Zone()
	}
	return string(AppendTimestampStyled(nil, wall, us, ds, zoned, off, abbrev))
}

// appendSeconds appends |sec| and the fraction |us| microseconds as
// PostgreSQL's AppendSeconds: two digits when pad, trailing zeros of the
// fraction dropped.
func appendSeconds(dst []byte, sec, us int64, pad bool) []byte {
	if sec < 0 {
		sec = -sec
	}
	if us < 0 {
		us = -us
	}
	if pad && sec < 10 {
		dst = append(dst, '0')
	}
	dst = strconv.AppendInt(dst, sec, 10)
	return append(dst, fraction(us)...)
}

// AppendIntervalStyled appends an interval as PostgreSQL's EncodeInterval
// writes it in IntervalStyle st (postgres: AppendInterval):
//
//	sql_standard      1-2 3 4:05:06, -1 2:00:00 (all fields negative),
//	                  +1-2 -3 +4:05:06 (mixed signs)
//	iso_8601          P1Y2M3DT4H5M6S, PT0S
//	postgres_verbose  @ 1 year 2 mons 3 days 4 hours 5 mins 6 secs ago
func AppendIntervalStyled(dst []byte, months, days int32, us int64, st IntervalStyle) []byte {
	if st == IntervalPostgres {
		return AppendInterval(dst, months, days, us)
	}
	// interval2itm: every field truncated toward zero, so each has the
	// sign of its part (months, days, time)
	year, mon := int64(months/12), int64(months%12)
	mday := int64(days)
	hour := us / USecsPerHour
	rest := us - hour*USecsPerHour
	min := rest / USecsPerMinute
	rest -= min * USecsPerMinute
	sec := rest / USecsPerSecond
	fsec := rest - sec*USecsPerSecond
	abs := func(v int64) int64 {
		if v < 0 {
			return -v
		}
		return v
	}
	switch st {
	case IntervalSQLStandard:
		hasNeg := year < 0 || mon < 0 || mday < 0 || hour < 0 || min < 0 || sec < 0 || fsec < 0
		hasPos := year > 0 || mon > 0 || mday > 0 || hour > 0 || min > 0 || sec > 0 || fsec > 0
		hasYM := year != 0 || mon != 0
		hasDT := mday != 0 || hour != 0 || min != 0 || sec != 0 || fsec != 0
		standard := !(hasNeg && hasPos) && !(hasYM && hasDT)
		if hasNeg && standard {
			// one sign before the whole value
			dst = append(dst, '-')
			year, mon, mday, hour, min, sec, fsec = -year, -mon, -mday, -hour, -min, -sec, -fsec
		}
		clock := func(dst []byte) []byte {
			dst = strconv.AppendInt(dst, abs(hour), 10)
			dst = append(dst, ':')
			dst = append2(dst, int(abs(min)))
			dst = append(dst, ':')
			return appendSeconds(dst, sec, fsec, true)
		}
		switch {
		case !hasNeg && !hasPos:
			dst = append(dst, '0')
		case !standard:
			// mixed signs: every part signed, to read back the same
			sign := func(neg bool) byte {
				if neg {
					return '-'
				}
				return '+'
			}
			dst = append(dst, sign(year < 0 || mon < 0))
			dst = strconv.AppendInt(dst, abs(year), 10)
			dst = append(dst, '-')
			dst = strconv.AppendInt(dst, abs(mon), 10)
			dst = append(dst, ' ', sign(mday < 0))
			dst = strconv.AppendInt(dst, abs(mday), 10)
			dst = append(dst, ' ', sign(hour < 0 || min < 0 || sec < 0 || fsec < 0))
			dst = clock(dst)
		case hasYM:
			dst = strconv.AppendInt(dst, year, 10)
			dst = append(dst, '-')
			dst = strconv.AppendInt(dst, mon, 10)
		case mday != 0:
			dst = strconv.AppendInt(dst, mday, 10)
			dst = append(dst, ' ')
			dst = clock(dst)
		default:
			dst = clock(dst)
		}
	case IntervalISO8601:
		if year == 0 && mon == 0 && mday == 0 && us == 0 {
			return append(dst, "PT0S"...)
		}
		part := func(dst []byte, v int64, unit byte) []byte {
			if v == 0 {
				return dst
			}
			return append(strconv.AppendInt(dst, v, 10), unit)
		}
		dst = append(dst, 'P')
		dst = part(dst, year, 'Y')
		dst = part(dst, mon, 'M')
		dst = part(dst, mday, 'D')
		if us != 0 {
			dst = append(dst, 'T')
		}
		dst = part(dst, hour, 'H')
		dst = part(dst, min, 'M')
		if sec != 0 || fsec != 0 {
			if sec < 0 || fsec < 0 {
				dst = append(dst, '-')
			}
			dst = appendSeconds(dst, sec, fsec, false)
			dst = append(dst, 'S')
		}
	case IntervalPostgresVerbose:
		isZero, isBefore := true, false
		part := func(dst []byte, v int64, unit string) []byte {
			if v == 0 {
				return dst
			}
			// the first non-zero part says whether the value is "ago";
			// the later ones are written relative to it
			if isZero {
				isBefore = v < 0
				v = abs(v)
			} else if isBefore {
				v = -v
			}
			dst = append(dst, ' ')
			dst = strconv.AppendInt(dst, v, 10)
			dst = append(dst, ' ')
			dst = append(dst, unit...)
			if v != 1 {
				dst = append(dst, 's')
			}
			isZero = false
			return dst
		}
		dst = append(dst, '@')
		dst = part(dst, year, "year")
		dst = part(dst, mon, "mon")
		dst = part(dst, mday, "day")
		dst = part(dst, hour, "hour")
		dst = part(dst, min, "min")
		if sec != 0 || fsec != 0 {
			dst = append(dst, ' ')
			if sec < 0 || sec == 0 && fsec < 0 {
				if isZero {
					isBefore = true
				} else if !isBefore {
					dst = append(dst, '-')
				}
			} else if isBefore {
				dst = append(dst, '-')
			}
			dst = appendSeconds(dst, sec, fsec, false)
			dst = append(dst, " sec"...)
			if abs(sec) != 1 || fsec != 0 {
				dst = append(dst, 's')
			}
			isZero = false
		}
		if isZero {
			dst = append(dst, " 0"...)
		}
		if isBefore {
			dst = append(dst, " ago"...)
		}
	}
	return dst
}
