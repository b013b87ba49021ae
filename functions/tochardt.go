package functions

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// to_char of a timestamp, timestamptz or interval: a template of
// PostgreSQL's date/time patterns (its "Template Patterns for Date/Time
// Formatting" table) is read into fields (dchParse), each pattern printing
// one field of the value broken down as PostgreSQL breaks it down
// (dchFields): a timestamp's calendar date and time of day in the
// session's zone, or an interval's years, months, days, hours, minutes and
// seconds as they are stored (so 27 hours stay 27 and -1 day prints -1).

// toCharTime is to_char(timestamp[tz], format).
func toCharTime(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
	loc := LocationOf(ctx)
	return rowKernel(tText, true, func(args []arrow.Array) (func(int) (any, error), error) {
		get, kind, err := timeGetter(0, args[0], loc)
		if err != nil {
			return nil, err
		}
		ss, err := strArgs(args[1:])
		if err != nil {
			return nil, err
		}
		inf := infSigner(args[0])
		var tmpl dchTemplate
		return func(i int) (any, error) {
			format := ss[0].Value(i)
			if inf(i) != 0 || format == "" { // timestamp_to_char: NULL for infinity and for an empty template
				return nil, nil
			}
			return dchFormat(dchTimeFields(get(i), kind), tmpl.parse(format))
		}, nil
	})(ctx, mem, args, n)
}

// toCharInterval is to_char(interval, format).
var toCharInterval = rowKernel(tText, true, func(args []arrow.Array) (func(int) (any, error), error) {
	iv, err := intervalGetter(0, args[0])
	if err != nil {
		return nil, err
	}
	ss, err := strArgs(args[1:])
	if err != nil {
		return nil, err
	}
	var tmpl dchTemplate
	return func(i int) (any, error) {
		format := ss[0].Value(i)
		if format == "" {
			return nil, nil
		}
		return dchFormat(dchIntervalFields(iv.Value(i)), tmpl.parse(format))
	}, nil
})

// dchFields is a value broken down for to_char. year is astronomical (0 is
// 1 BC) for a timestamp and the interval's whole years for an interval;
// usec is the fraction of the second in microseconds (negative in a
// negative interval); yday and wday are a timestamp's day of the year
// (1-366) and of the week (0 = Sunday), and for an interval yday
// approximates its span in days (30 a month) as PostgreSQL's does.
type dchFields struct {
	year, mon, mday, hour, min, sec, usec int
	yday, wday                            int
	// zone is a timestamptz's zone abbreviation ("" for a timestamp),
	// gmtoff its offset east of UTC in seconds.
	zone     string
	gmtoff   int
	interval bool
}

func dchTimeFields(t time.Time, kind types.Kind) dchFields {
	f := dchFields{
		year: t.Year(), mon: int(t.Month()), mday: t.Day(),
		hour: t.Hour(), min: t.Minute(), sec: t.Second(), usec: t.Nanosecond() / 1000,
		yday: t.YearDay(), wday: int(t.Weekday()),
	}
	if kind == types.TimestampTZ {
		f.zone, f.gmtoff = t.Zone()
	}
	return f
}

// dchIntervalFields breaks an interval down as PostgreSQL's interval2tm
// does: months into years and months, the time into hours (not wrapped at
// 24), minutes, seconds and microseconds, each carrying the sign of its
// part.
func dchIntervalFields(v arrow.MonthDayNanoInterval) dchFields {
	us := v.Nanoseconds / 1000
	f := dchFields{
		year: int(v.Months / 12), mon: int(v.Months % 12), mday: int(v.Days),
		hour: int(us / 3_600_000_000), interval: true,
	}
	us -= int64(f.hour) * 3_600_000_000
	f.min = int(us / 60_000_000)
	us -= int64(f.min) * 60_000_000
	f.sec = int(us / 1_000_000)
	f.usec = int(us - int64(f.sec)*1_000_000)
	f.yday = (f.year*12+f.mon)*30 + f.mday
	return f
}

// errIntervalPattern is PostgreSQL's refusal of a calendar pattern (a
// name, the day of the week, the era, a zone) in an interval's template.
func errIntervalPattern() error {
	return sqlerr.New(sqlerr.InvalidDatetimeFormat, "invalid format specification for an interval value").
		WithHint("Intervals are not tied to specific calendar dates.")
}

var (
	monthNames = [...]string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
	dayNames   = [...]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	// romanMonths are the months in Roman numerals, January first.
	romanMonths = [...]string{"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"}
)

// dchTemplate parses a row's template, reusing the last row's parse when
// the template is the same (a constant, nearly always).
type dchTemplate struct {
	text  string
	nodes []dchNode
}

func (t *dchTemplate) parse(format string) []dchNode {
	if t.nodes == nil || t.text != format {
		t.text, t.nodes = format, parseDCHFormat(format)
	}
	return t.nodes
}

func dchFormat(f dchFields, nodes []dchNode) (string, error) {
	var b strings.Builder
	for _, n := range nodes {
		if n.typ != dchAction {
			b.WriteString(n.char)
			continue
		}
		s, err := dchField(f, &n)
		if err != nil {
			return "", err
		}
		if n.th && dchTakesOrdinal(n.key) && s != "" {
			s += ordinalSuffix(s, n.thUpper)
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

// dchTakesOrdinal reports whether TH and th add an ordinal to a pattern:
// the numeric ones and the fractions (FF1-FF6), but not the zone offset's
// parts.
func dchTakesOrdinal(k *dchKey) bool {
	switch k.id {
	case "TZH", "TZM", "OF":
		return false
	}
	return k.isDigit || strings.HasPrefix(k.id, "FF")
}

// dchCalendarOnly are the patterns an interval's template may not hold.
var dchCalendarOnly = map[string]bool{
	"A.D.": true, "AD": true, "MONTH": true, "MON": true, "DAY": true, "DY": true, "D": true, "ID": true,
	"TZ": true, "TZH": true, "TZM": true, "OF": true,
}

// dchField prints one pattern of f (DCH_to_char's cases).
func dchField(f dchFields, n *dchNode) (string, error) {
	kw := n.key
	// num is printf's "%0*d" with a width that grows by one for a
	// negative value (its sign in the room of a digit), none in fill mode.
	num := func(v, width int) string {
		return zeroPadFM(v, signedWidth(v, width), n.fm)
	}
	year := f.year // ADJUST_YEAR: a timestamp's BC years print positive
	if !f.interval && year <= 0 {
		year = 1 - year
	}
	isoYear := func() int {
		y, _ := dchISOWeekOf(f.year, f.mon, f.mday)
		if !f.interval && y <= 0 {
			y = 1 - y
		}
		return y
	}
	name := func(s string, pad bool) string {
		switch {
		case kw.name == strings.ToUpper(kw.name):
			s = strings.ToUpper(s)
		case kw.name == strings.ToLower(kw.name):
			s = strings.ToLower(s)
		}
		if pad && !n.fm && !n.tm && len(s) < 9 {
			s += strings.Repeat(" ", 9-len(s))
		}
		return s
	}
	if f.interval && dchCalendarOnly[kw.id] {
		return "", errIntervalPattern()
	}
	switch kw.id {
	case "A.M.", "AM":
		s := "AM"
		if f.hour%24 >= 12 {
			s = "PM"
		}
		return dchCased(s, kw), nil
	case "A.D.", "AD":
		s := "AD"
		if f.year <= 0 {
			s = "BC"
		}
		return dchCased(s, kw), nil
	case "MONTH":
		if f.mon == 0 {
			return "", nil
		}
		return name(monthNames[f.mon-1], true), nil
	case "MON":
		if f.mon == 0 {
			return "", nil
		}
		return name(monthNames[f.mon-1][:3], false), nil
	case "MM":
		return num(f.mon, 2), nil
	case "DAY":
		return name(dayNames[f.wday], true), nil
	case "DY":
		return name(dayNames[f.wday][:3], false), nil
	case "DDD":
		return zeroPadFM(f.yday, 3, n.fm), nil
	case "IDDD":
		return zeroPadFM(dchISOYearDay(f.year, f.mon, f.mday), 3, n.fm), nil
	case "DD":
		return zeroPadFM(f.mday, 2, n.fm), nil
	case "D":
		return strconv.Itoa(f.wday + 1), nil
	case "ID":
		if f.wday == 0 {
			return "7", nil
		}
		return strconv.Itoa(f.wday), nil
	case "WW":
		return zeroPadFM((f.yday-1)/7+1, 2, n.fm), nil
	case "IW":
		_, w := dchISOWeekOf(f.year, f.mon, f.mday)
		return zeroPadFM(w, 2, n.fm), nil
	case "Q":
		if f.mon == 0 {
			return "", nil
		}
		return strconv.Itoa((f.mon-1)/3 + 1), nil
	case "CC":
		var c int
		switch {
		case f.interval:
			c = f.year / 100
		case f.year > 0: // the 21st century is 2001-2100
			c = (f.year-1)/100 + 1
		default: // the 6th century BC is 600-501 BC
			c = f.year/100 - 1
		}
		if c > 99 || c < -99 {
			return strconv.Itoa(c), nil
		}
		return num(c, 2), nil
	case "Y,YYY":
		return strconv.Itoa(year/1000) + "," + zeroPad(year-year/1000*1000, 3), nil
	// The ISO years take their padding from the calendar year's sign, as
	// PostgreSQL's do.
	case "YYYY":
		return zeroPadFM(year, signedWidth(year, 4), n.fm), nil
	case "IYYY":
		return zeroPadFM(isoYear(), signedWidth(year, 4), n.fm), nil
	case "YYY":
		return zeroPadFM(year%1000, signedWidth(year, 3), n.fm), nil
	case "IYY":
		return zeroPadFM(isoYear()%1000, signedWidth(year, 3), n.fm), nil
	case "YY":
		return zeroPadFM(year%100, signedWidth(year, 2), n.fm), nil
	case "IY":
		return zeroPadFM(isoYear()%100, signedWidth(year, 2), n.fm), nil
	case "Y":
		return strconv.Itoa(year % 10), nil
	case "I":
		return strconv.Itoa(isoYear() % 10), nil
	case "RM":
		s := dchRomanMonth(f)
		if s == "" {
			return "", nil
		}
		if kw.name == "rm" {
			s = strings.ToLower(s)
		}
		if !n.fm && len(s) < 4 {
			s += strings.Repeat(" ", 4-len(s))
		}
		return s, nil
	case "W":
		return strconv.Itoa((f.mday-1)/7 + 1), nil
	case "J":
		return strconv.Itoa(types.Date2J(f.year, f.mon, f.mday)), nil
	case "HH24":
		return num(f.hour, 2), nil
	case "HH12", "HH":
		h := f.hour % 12
		if h == 0 {
			h = 12
		}
		// The padding follows the hour's sign, not the 12-hour value's.
		return zeroPadFM(h, signedWidth(f.hour, 2), n.fm), nil
	case "MI":
		return num(f.min, 2), nil
	case "SS":
		return num(f.sec, 2), nil
	case "SSSS":
		return strconv.Itoa(f.hour*3600 + f.min*60 + f.sec), nil
	// The fraction ignores fill mode.
	case "MS", "FF3":
		return zeroPad(f.usec/1000, 3), nil
	case "US", "FF6":
		return zeroPad(f.usec, 6), nil
	case "FF1", "FF2", "FF4", "FF5":
		digits := int(kw.id[2] - '0')
		scale := 1
		for range 6 - digits {
			scale *= 10
		}
		return zeroPad(f.usec/scale, digits), nil
	case "TZ":
		if kw.name == "tz" {
			return strings.ToLower(f.zone), nil
		}
		return strings.ToUpper(f.zone), nil
	case "TZH":
		return dchOffsetSign(f.gmtoff) + zeroPad(absInt(f.gmtoff)/3600, 2), nil
	case "TZM":
		return zeroPad(absInt(f.gmtoff)%3600/60, 2), nil
	case "OF":
		s := dchOffsetSign(f.gmtoff) + zeroPadFM(absInt(f.gmtoff)/3600, 2, n.fm)
		if m := absInt(f.gmtoff) % 3600; m != 0 {
			s += ":" + zeroPad(m/60, 2)
		}
		return s, nil
	}
	return "", nil // FX
}

// signedWidth is the width of a field whose padding grows by one when v is
// negative.
func signedWidth(v, width int) int {
	if v < 0 {
		return width + 1
	}
	return width
}

// dchCased prints AM/PM or AD/BC in the keyword's case and form (A.M.).
func dchCased(s string, kw *dchKey) string {
	if strings.Contains(kw.name, ".") {
		s = s[:1] + "." + s[1:] + "."
	}
	if kw.name[0] >= 'a' {
		s = strings.ToLower(s)
	}
	return s
}

// dchRomanMonth is RM's month: an interval's months count back from
// December when negative, and a whole number of years prints XII (I when
// negative); nothing for a zero interval.
func dchRomanMonth(f dchFields) string {
	switch {
	case f.mon == 0 && f.year == 0:
		return ""
	case f.mon == 0 && f.year >= 0:
		return romanMonths[11]
	case f.mon == 0:
		return romanMonths[0]
	case f.mon < 0:
		return romanMonths[12+f.mon]
	}
	return romanMonths[f.mon-1]
}

func dchOffsetSign(off int) string {
	if off >= 0 {
		return "+"
	}
	return "-"
}

// zeroPad is printf's "%0*d": at least width characters, a minus sign
// counted among them.
func zeroPad(v, width int) string {
	s := strconv.Itoa(v)
	if len(s) >= width {
		return s
	}
	if v < 0 {
		return "-" + strings.Repeat("0", width-len(s)) + s[1:]
	}
	return strings.Repeat("0", width-len(s)) + s
}

// zeroPadFM is zeroPad, or no padding in fill mode.
func zeroPadFM(v, width int, fm bool) string {
	if fm {
		return strconv.Itoa(v)
	}
	return zeroPad(v, width)
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// dchISOWeekOf returns the ISO year and week of year-mon-mday with
// PostgreSQL's arithmetic (date2isoweek, date2isoyear), which to_char
// applies to an interval's fields as they are (month 0, day 40): week 1 of
// a year holds its January 4th.
func dchISOWeekOf(year, mon, mday int) (isoYear, week int) {
	day := types.Date2J(year, mon, mday)
	start := isoweek2j(year, 1)
	if day < start {
		year--
		start = isoweek2j(year, 1)
	}
	week = (day-start)/7 + 1
	if week >= 52 {
		if next := isoweek2j(year+1, 1); day >= next {
			return year + 1, (day-next)/7 + 1
		}
	}
	return year, week
}

// dchISOYearDay is the day of the ISO year, 1 on its week 1's Monday.
func dchISOYearDay(year, mon, mday int) int {
	y, _ := dchISOWeekOf(year, mon, mday)
	return types.Date2J(year, mon, mday) - isoweek2j(y, 1) + 1
}
