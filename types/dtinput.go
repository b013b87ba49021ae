package types

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// Date/time text input: PostgreSQL 15's ParseDateTime, DecodeDateTime,
// DecodeTimeOnly and their helpers (src/backend/utils/adt/datetime.c)
// followed step for step, because which text is a date, and which error
// a bad one gets, is decided by the order of their checks and by the
// field masks they keep, not by any rule that could be stated apart from
// them. parseDateTimeFields cuts the text into typed fields
// (ParseDateTime); dtDecoder reads the fields into a broken-down time
// (pgTm) and a zone, either for a date-bearing type (decodeDateTime) or
// for a time of day (decodeTimeOnly); dtvalue.go builds each type's value
// from the result as date_in, timestamp_in and the others do. Errors are
// *dtFail, turned into PostgreSQL's message by dtFail.err; a date written
// in numbers only is read in the session's DateStyle order (DateOrder).

// dtFieldKind is ParseDateTime's field type (DTK_NUMBER ... DTK_SPECIAL).
type dtFieldKind uint8

const (
	fieldNumber  dtFieldKind = iota // digits, maybe a '.' (2024, 040506.789, 1999.008)
	fieldString                     // letters (jan, pm, est, y)
	fieldDate                       // digits and two delimiters, or digits and text, or a zone name
	fieldTime                       // digits with ':' (10:20:30.5)
	fieldTZ                         // a sign and digits (+02, -05:30, also -2020-01)
	fieldSpecial                    // a sign and letters (-infinity)
)

type dtField struct {
	kind dtFieldKind
	text string // lower-cased
}

// maxDateFields and maxDateLen are PostgreSQL's MAXDATEFIELDS and
// MAXDATELEN: the fields of one text, and the work buffer's size.
const (
	maxDateFields = 25
	maxDateLen    = 128
)

func isSpaceC(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}
func isAlphaC(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isAlnumC(c byte) bool { return isDigit(c) || isAlphaC(c) }
func isPunctC(c byte) bool { return c >= 33 && c <= 126 && !isAlnumC(c) }
func lowerC(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// parseDateTimeFields is ParseDateTime: it cuts s into fields, in a work
// buffer of buflen bytes (each field and its terminator must fit, as in
// PostgreSQL, where date_in's buffer is MAXDATELEN+1 and timestamp_in's
// MAXDATELEN+MAXDATEFIELDS).
func parseDateTimeFields(s string, buflen int) ([]dtField, *dtFail) {
	fields := make([]dtField, 0, 8)
	used := 0
	var b []byte
	overflow := false
	app := func(c byte) {
		if used+1 >= buflen {
			overflow = true
			return
		}
		used++
		b = append(b, c)
	}
	at := func(i int) byte {
		if i < len(s) {
			return s[i]
		}
		return 0
	}
	i := 0
	for i < len(s) {
		c := s[i]
		if isSpaceC(c) {
			i++
			continue
		}
		if len(fields) >= maxDateFields {
			return nil, failBad
		}
		b = b[:0]
		var kind dtFieldKind
		switch {
		case isDigit(c):
			app(c)
			i++
			for isDigit(at(i)) {
				app(s[i])
				i++
			}
			switch d := at(i); {
			case d == ':': // a time
				kind = fieldTime
				app(d)
				i++
				for isDigit(at(i)) || at(i) == ':' || at(i) == '.' {
					app(s[i])
					i++
				}
			case d == '-' || d == '/' || d == '.': // a date, maybe with a month's name
				app(d)
				i++
				if isDigit(at(i)) {
					kind = fieldDate
					if d == '.' {
						kind = fieldNumber
					}
					for isDigit(at(i)) {
						app(s[i])
						i++
					}
					// three parts only with matching delimiters
					if at(i) == d {
						kind = fieldDate
						app(d)
						i++
						for isDigit(at(i)) || at(i) == d {
							app(s[i])
							i++
						}
					}
				} else {
					kind = fieldDate
					for isAlnumC(at(i)) || at(i) == d {
						app(lowerC(s[i]))
						i++
					}
				}
			default:
				kind = fieldNumber
			}
		case c == '.': // a fraction of a second
			app(c)
			i++
			for isDigit(at(i)) {
				app(s[i])
				i++
			}
			kind = fieldNumber
		case isAlphaC(c):
			kind = fieldString
			app(lowerC(c))
			i++
			for isAlphaC(at(i)) {
				app(lowerC(s[i]))
				i++
			}
			// a date with a month's name, or a zone name with
			// punctuation; letters before a digit or '+' are a zone
			// name (est5edt) unless they are a keyword (j2451187, t10)
			isDate := false
			switch d := at(i); {
			case d == '-' || d == '/' || d == '.':
				isDate = true
			case d == '+' || isDigit(d):
				if _, ok := dateTokens[string(b)]; !ok {
					isDate = true
				}
			}
			if isDate {
				kind = fieldDate
				for {
					app(lowerC(s[i]))
					i++
					d := at(i)
					if !(d == '+' || d == '-' || d == '/' || d == '_' || d == '.' || d == ':' || isAlnumC(d)) {
						break
					}
				}
			}
		case c == '+' || c == '-':
			app(c)
			i++
			for isSpaceC(at(i)) {
				i++
			}
			switch {
			case isDigit(at(i)): // a numeric zone (or a signed number)
				kind = fieldTZ
				app(s[i])
				i++
				for isDigit(at(i)) || at(i) == ':' || at(i) == '.' || at(i) == '-' {
					app(s[i])
					i++
				}
			case isAlphaC(at(i)):
				kind = fieldSpecial
				app(lowerC(s[i]))
				i++
				for isAlphaC(at(i)) {
					app(lowerC(s[i]))
					i++
				}
			default:
				return nil, failBad
			}
		case isPunctC(c): // other punctuation delimits
			i++
			continue
		default:
			return nil, failBad
		}
		if overflow {
			return nil, failBad
		}
		used++ // the field's terminator
		fields = append(fields, dtField{kind: kind, text: string(b)})
	}
	return fields, nil
}

// Token types of datetktbl and the zone abbreviations (PostgreSQL's
// RESERV ... DTZMOD), which are also the bits of the field masks.
const (
	tokReserved = 0
	tokMonth    = 1
	tokYear     = 2
	tokDay      = 3
	tokJulian   = 4
	tokTZ       = 5
	tokDTZ      = 6
	tokDynTZ    = 7
	tokIgnore   = 8
	tokAMPM     = 9
	tokHour     = 10
	tokMinute   = 11
	tokSecond   = 12
	tokMillisec = 13
	tokMicrosec = 14
	tokDOY      = 15
	tokDOW      = 16
	tokUnits    = 17
	tokADBC     = 18
	tokISOTime  = 23
	tokDTZMod   = 28
	tokUnknown  = 31
)

func dtkM(t int) int { return 1 << t }

const (
	dtkDateM   = 1<<tokYear | 1<<tokMonth | 1<<tokDay
	dtkAllSecs = 1<<tokSecond | 1<<tokMillisec | 1<<tokMicrosec
	dtkTimeM   = 1<<tokHour | 1<<tokMinute | dtkAllSecs
)

// DTK_ codes: a decoded text's kind (dtype) and the unit a label names
// (ptype). Only their distinctness matters, and that none is 0.
const (
	dtkDate      = 2
	dtkTime      = 3
	dtkZone      = 4
	dtkEarly     = 9
	dtkLate      = 10
	dtkEpoch     = 11
	dtkNow       = 12
	dtkYesterday = 13
	dtkToday     = 14
	dtkTomorrow  = 15
	dtkZulu      = 16
	dtkSecond    = 18
	dtkMinute    = 19
	dtkHour      = 20
	dtkDay       = 21
	dtkMonth     = 23
	dtkYear      = 25
	dtkJulian    = 31
	dtkDOW       = 32
	dtkDOY       = 33
	dtkISOYear   = 36
	dtkISODOW    = 37
)

const (
	merAM = iota
	merPM
	merHR24
)

type dateToken struct{ typ, val int }

// dateTokens is PostgreSQL 15's datetktbl: the keywords of date/time
// input (zone abbreviations are looked up apart, before these).
var dateTokens = map[string]dateToken{
	"-infinity": {tokReserved, dtkEarly}, "ad": {tokADBC, 0}, "allballs": {tokReserved, dtkZulu},
	"am": {tokAMPM, merAM}, "apr": {tokMonth, 4}, "april": {tokMonth, 4}, "at": {tokIgnore, 0},
	"aug": {tokMonth, 8}, "august": {tokMonth, 8}, "bc": {tokADBC, 1}, "d": {tokUnits, dtkDay},
	"dec": {tokMonth, 12}, "december": {tokMonth, 12}, "dow": {tokUnits, dtkDOW}, "doy": {tokUnits, dtkDOY},
	"dst": {tokDTZMod, 3600}, "epoch": {tokReserved, dtkEpoch}, "feb": {tokMonth, 2}, "february": {tokMonth, 2},
	"fri": {tokDOW, 5}, "friday": {tokDOW, 5}, "h": {tokUnits, dtkHour}, "infinity": {tokReserved, dtkLate},
	"isodow": {tokUnits, dtkISODOW}, "isoyear": {tokUnits, dtkISOYear}, "j": {tokUnits, dtkJulian},
	"jan": {tokMonth, 1}, "january": {tokMonth, 1}, "jd": {tokUnits, dtkJulian}, "jul": {tokMonth, 7},
	"julian": {tokUnits, dtkJulian}, "july": {tokMonth, 7}, "jun": {tokMonth, 6}, "june": {tokMonth, 6},
	"m": {tokUnits, dtkMonth}, "mar": {tokMonth, 3}, "march": {tokMonth, 3}, "may": {tokMonth, 5},
	"mm": {tokUnits, dtkMinute}, "mon": {tokDOW, 1}, "monday": {tokDOW, 1}, "nov": {tokMonth, 11},
	"november": {tokMonth, 11}, "now": {tokReserved, dtkNow}, "oct": {tokMonth, 10}, "october": {tokMonth, 10},
	"on": {tokIgnore, 0}, "pm": {tokAMPM, merPM}, "s": {tokUnits, dtkSecond}, "sat": {tokDOW, 6},
	"saturday": {tokDOW, 6}, "sep": {tokMonth, 9}, "sept": {tokMonth, 9}, "september": {tokMonth, 9},
	"sun": {tokDOW, 0}, "sunday": {tokDOW, 0}, "t": {tokISOTime, dtkTime}, "thu": {tokDOW, 4},
	"thur": {tokDOW, 4}, "thurs": {tokDOW, 4}, "thursday": {tokDOW, 4}, "today": {tokReserved, dtkToday},
	"tomorrow": {tokReserved, dtkTomorrow}, "tue": {tokDOW, 2}, "tues": {tokDOW, 2}, "tuesday": {tokDOW, 2},
	"wed": {tokDOW, 3}, "wednesday": {tokDOW, 3}, "weds": {tokDOW, 3}, "y": {tokUnits, dtkYear},
	"yesterday": {tokReserved, dtkYesterday},
}

// daylightAbbrevs are the abbreviations of the Default set that PostgreSQL
// lists as daylight time (DTZ): a DST after them is refused.
var daylightAbbrevs = map[string]bool{
	"ACDT": true, "ACSST": true, "ADT": true, "AEDT": true, "AESST": true, "AKDT": true, "ALMST": true,
	"AMST": true, "ANAST": true, "ARST": true, "AWSST": true, "AZOST": true, "AZST": true, "BDST": true,
	"BRST": true, "CADT": true, "CDT": true, "CEST": true, "CETDST": true, "CHADT": true, "CLST": true,
	"EASST": true, "EDT": true, "EEST": true, "EETDST": true, "EGST": true, "FJST": true, "FKST": true,
	"FNST": true, "GEST": true, "IDT": true, "IRKST": true, "KDT": true, "KGST": true, "KRAST": true,
	"LHDT": true, "MAGST": true, "MDT": true, "MEST": true, "MESZ": true, "METDST": true, "MSD": true,
	"NDT": true, "NOVST": true, "NZDT": true, "OMSST": true, "PDT": true, "PETST": true, "PKST": true,
	"PMDT": true, "PYST": true, "SADT": true, "UYST": true, "UZST": true, "ULAST": true, "VLAST": true,
	"WADT": true, "WAST": true, "WETDST": true, "WGST": true, "YAKST": true, "YEKST": true,
}

// lookupAbbrev is DecodeTimezoneAbbrev: a zone abbreviation's type (TZ,
// DTZ or DYNTZ) and offset east of UTC, or for DYNTZ its zone.
func lookupAbbrev(w string) (typ, east int, zone *time.Location, ok bool) {
	up := strings.ToUpper(w)
	east, ok = zoneAbbrevs[up]
	if !ok {
		if zone, ok := dynamicAbbrevZone(up); ok {
			return tokDynTZ, 0, zone, true
		}
		return tokUnknown, 0, nil, false
	}
	if daylightAbbrevs[up] {
		return tokDTZ, east, nil, true
	}
	return tokTZ, east, nil, true
}

// pgTm is PostgreSQL's struct pg_tm with fsec (microseconds).
type pgTm struct {
	year, mon, mday int
	hour, min, sec  int
	yday, wday      int
	fsec            int64
	fnsec           int64 // the fraction in nanoseconds, for TIME(7..9) and TIMESTAMP(7..9), which PostgreSQL lacks
	isdst           int
	tzWest          int // setNow's zone
}

// dtMode says which decoder a type uses: DecodeDateTime (date,
// timestamp, timestamptz) or DecodeTimeOnly (time, timetz).
type dtMode uint8

const (
	modeDate dtMode = iota
	modeTime
)

// dtResult is what a decoder gives its caller: the kind of text (dtype:
// dtkDate, or a special such as dtkEpoch), the broken-down time, and the
// zone (seconds west of UTC, resolved as the decoder resolves it).
type dtResult struct {
	dtype   int
	tm      pgTm
	tz      int // seconds west of UTC
	hasZone bool
	hasDate bool // every date field was given (time types)
}

// dtErrKind is one of the errors date/time input reports.
type dtErrKind uint8

const (
	dtBad            dtErrKind = iota + 1 // 22007 invalid input syntax for type X
	dtRange                               // 22008 date/time field value out of range
	dtRangeStyle                          // the same, hinting at DateStyle
	dtZoneRange                           // 22009 time zone displacement out of range
	dtZoneUnknown                         // 22023 time zone "x" not recognized
	dtDateRange                           // 22008 date out of range
	dtTimestampRange                      // 22008 timestamp out of range
)

// dtFail is a refusal; err turns it into PostgreSQL's error for the
// input text and type.
type dtFail struct {
	kind dtErrKind
	zone string
}

func (f *dtFail) err(input string, t T) error {
	switch f.kind {
	case dtRange:
		return sqlerr.New(sqlerr.DatetimeFieldOverflow, "date/time field value out of range: %q", input)
	case dtRangeStyle:
		return sqlerr.New(sqlerr.DatetimeFieldOverflow, "date/time field value out of range: %q", input).
			WithHint("Perhaps you need a different \"datestyle\" setting.")
	case dtZoneRange:
		return sqlerr.New(sqlerr.InvalidTimeZoneDisplacement, "time zone displacement out of range: %q", input)
	case dtZoneUnknown:
		return sqlerr.New(sqlerr.InvalidParameterValue, "time zone %q not recognized", f.zone)
	case dtDateRange:
		return sqlerr.New(sqlerr.DatetimeFieldOverflow, "date out of range: %q", input)
	case dtTimestampRange:
		return TimestampOutOfRange(input)
	}
	return invalidInput(t, input)
}

// The DTERR codes.
var (
	failBad     = &dtFail{kind: dtBad}        // DTERR_BAD_FORMAT
	failRange   = &dtFail{kind: dtRange}      // DTERR_FIELD_OVERFLOW
	failMDRange = &dtFail{kind: dtRangeStyle} // DTERR_MD_FIELD_OVERFLOW
	failTZDisp  = &dtFail{kind: dtZoneRange}  // DTERR_TZDISP_OVERFLOW
)

// strtoint is PostgreSQL's strtoint on a field: the leading digits of s
// (after an optional sign) as an int32, the rest of s, and whether the
// value fit (errno ERANGE otherwise). ok is false when s has no digits
// (endptr == str).
func strtoint(s string) (v int, rest string, fits, ok bool) {
	i := 0
	neg := false
	for i < len(s) && isSpaceC(s[i]) {
		i++
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	j := i
	var n int64
	big := false
	for j < len(s) && isDigit(s[j]) {
		if n > math.MaxInt64/10-1 {
			big = true
		} else {
			n = n*10 + int64(s[j]-'0')
		}
		j++
	}
	if j == i {
		return 0, s, true, false
	}
	if neg {
		n = -n
	}
	fits = !big && n >= math.MinInt32 && n <= math.MaxInt32
	return int(int32(n)), s[j:], fits, true
}

// atoi is C's atoi on digits (strtol saturating at LONG_MAX, then cut to
// an int).
func atoi(s string) int {
	var n int64
	for i := 0; i < len(s) && isDigit(s[i]); i++ {
		if n > (math.MaxInt64-9)/10 {
			n = math.MaxInt64
			break
		}
		n = n*10 + int64(s[i]-'0')
	}
	return int(int32(n))
}

// parseFrac is strtod on a fraction that starts with '.': its value and
// the text after it; ok is false when no digits follow (strtod reads
// nothing).
func parseFrac(s string) (float64, string, bool) {
	j := 1
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if j == 1 {
		return 0, s, false
	}
	v, _ := strconv.ParseFloat("0"+s[:j], 64)
	return v, s[j:], true
}

// parseFractionalSecond is ParseFractionalSecond: s must be a whole
// fraction.
func parseFractionalSecond(s string) (int64, *dtFail) {
	v, f := parseFraction(s)
	if f != nil {
		return 0, f
	}
	return int64(math.RoundToEven(v * 1e6)), nil
}

// fracNanos is a fraction's digits (after its '.') as nanoseconds,
// beyond nine digits dropped.
func fracNanos(s string) int64 {
	k := 1
	for k < len(s) && isDigit(s[k]) {
		k++
	}
	return fractionNanos(s[1:k])
}

// parseFraction is ParseFraction: a whole fraction, where a lone "." is
// zero.
func parseFraction(s string) (float64, *dtFail) {
	if s == "." {
		return 0, nil
	}
	v, rest, ok := parseFrac(s)
	if !ok || rest != "" {
		return 0, failBad
	}
	return v, nil
}

// Date2J and J2Date are PostgreSQL's Julian day conversions (date2j,
// j2date), in its integer widths (a year far out of range wraps as it
// does there): the date/time decoder's and to_date's, extract(julian)'s
// and to_char's.
func Date2J(y, m, d int) int {
	yy, mm := int32(y), int32(m)
	if mm > 2 {
		mm++
		yy += 4800
	} else {
		mm += 13
		yy += 4799
	}
	century := yy / 100
	julian := yy*365 - 32167
	julian += yy/4 - century + century/4
	julian += 7834*mm/256 + int32(d)
	return int(julian)
}

func J2Date(jd int) (year, month, day int) {
	julian := uint32(int32(jd))
	julian += 32044
	quad := julian / 146097
	extra := (julian-quad*146097)*4 + 3
	julian += 60 + quad*3 + extra/146097
	quad = julian / 1461
	julian -= quad * 1461
	y := int32(julian * 4 / 1461)
	if y != 0 {
		julian = (julian+305)%365 + 123
	} else {
		julian = (julian+306)%366 + 123
	}
	y += int32(quad * 4)
	year = int(y - 4800)
	quad = julian * 2141 / 65536
	day = int(julian - 7834*quad/256)
	month = int((quad+10)%12 + 1)
	return
}

func isLeap(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

var dayTab = [2][12]int{
	{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31},
	{31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31},
}

// isValidJulian is IS_VALID_JULIAN: 4714-11-24 BC (its month) to
// 5874898-06 (before its month).
func isValidJulian(y, m int) bool {
	return (y > -4713 || y == -4713 && m >= 11) && (y < 5874898 || y == 5874898 && m < 6)
}

// dtDecoder holds DecodeDateTime's and DecodeTimeOnly's state.
type dtDecoder struct {
	fields        []dtField
	order         DateOrder
	loc           *time.Location // the session's TimeZone
	now           time.Time
	tm            pgTm
	fmask         int
	ptype         int
	mer           int
	haveTextMonth bool
	isjulian      bool
	is2digits     bool
	bc            bool
	tz            int
	namedTz       *time.Location
	abbrevTz      *time.Location // a dynamic abbreviation's zone
	abbrev        string         // and the abbreviation, upper case
	dtype         int
}

func newDecoder(fields []dtField, order DateOrder, loc *time.Location, now time.Time) *dtDecoder {
	return &dtDecoder{fields: fields, order: order, loc: loc, now: now, mer: merHR24, tm: pgTm{isdst: -1}}
}

// decodeTimezone is DecodeTimezone: a numeric zone (+h, +hh:mm[:ss],
// +hhmm) as seconds west.
func decodeTimezone(s string) (int, *dtFail) {
	if s == "" || s[0] != '+' && s[0] != '-' {
		return 0, failBad
	}
	hr, cp, fits, _ := strtoint(s[1:])
	if !fits {
		return 0, failTZDisp
	}
	mn, sec := 0, 0
	switch {
	case strings.HasPrefix(cp, ":"):
		var f bool
		mn, cp, f, _ = strtoint(cp[1:])
		if !f {
			return 0, failTZDisp
		}
		if strings.HasPrefix(cp, ":") {
			sec, cp, f, _ = strtoint(cp[1:])
			if !f {
				return 0, failTZDisp
			}
		}
	case cp == "" && len(s) > 3:
		mn = hr % 100
		hr /= 100
	}
	if hr < 0 || hr > 15 || mn < 0 || mn >= 60 || sec < 0 || sec >= 60 {
		return 0, failTZDisp
	}
	tz := (hr*60+mn)*60 + sec
	if s[0] == '-' {
		tz = -tz
	}
	if cp != "" {
		return -tz, failBad
	}
	return -tz, nil
}

// decodeNumberField is DecodeNumberField: a run-together date
// (YYYYMMDD, YYMMDD) or time (HHMMSS, HHMM, with a fraction). It returns
// the field mask it sets.
func (d *dtDecoder) decodeNumberField(str string, fmask int) (int, *dtFail) {
	tm := &d.tm
	if k := strings.IndexByte(str, '.'); k >= 0 {
		// the fraction, as strtod reads it (trailing junk ignored)
		v, _, _ := parseFrac(str[k:])
		tm.fsec = int64(math.RoundToEven(v * 1e6))
		tm.fnsec = fracNanos(str[k:])
		str = str[:k]
	} else if fmask&dtkDateM != dtkDateM {
		if n := len(str); n >= 6 {
			tm.mday = atoi(str[n-2:])
			tm.mon = atoi(str[n-4 : n-2])
			tm.year = atoi(str[:n-4])
			if n-4 == 2 {
				d.is2digits = true
			}
			return dtkDateM, nil
		}
	}
	if fmask&dtkTimeM != dtkTimeM {
		switch len(str) {
		case 6:
			tm.sec = atoi(str[4:])
			tm.min = atoi(str[2:4])
			tm.hour = atoi(str[:2])
			return dtkTimeM, nil
		case 4:
			tm.sec = 0
			tm.min = atoi(str[2:])
			tm.hour = atoi(str[:2])
			return dtkTimeM, nil
		}
	}
	return 0, failBad
}

// decodeNumber is DecodeNumber: a number placed among the date's fields
// by what the text has given so far and DateStyle's order.
func (d *dtDecoder) decodeNumber(str string, haveTextMonth bool, fmask int) (int, *dtFail) {
	tm := &d.tm
	flen := len(str)
	val, cp, fits, ok := strtoint(str)
	if !fits {
		return 0, failRange
	}
	if !ok {
		return 0, failBad
	}
	if strings.HasPrefix(cp, ".") {
		// more than two digits before the point: a date or a
		// run-together time (2001.360 20011225 040506.789)
		if len(str)-len(cp) > 2 {
			return d.decodeNumberField(str, fmask|dtkDateM)
		}
		fsec, f := parseFractionalSecond(cp)
		if f != nil {
			return 0, f
		}
		tm.fsec, tm.fnsec = fsec, fracNanos(cp)
	} else if cp != "" {
		return 0, failBad
	}
	// the day of the year after a year
	if flen == 3 && fmask&dtkDateM == dtkM(tokYear) && val >= 1 && val <= 366 {
		tm.yday = val
		return dtkM(tokDOY) | dtkM(tokMonth) | dtkM(tokDay), nil
	}
	var tmask int
	switch fmask & dtkDateM {
	case 0:
		switch {
		case flen >= 3 || d.order == OrderYMD:
			tmask, tm.year = dtkM(tokYear), val
		case d.order == OrderDMY:
			tmask, tm.mday = dtkM(tokDay), val
		default:
			tmask, tm.mon = dtkM(tokMonth), val
		}
	case dtkM(tokYear):
		tmask, tm.mon = dtkM(tokMonth), val
	case dtkM(tokMonth):
		if haveTextMonth && (flen >= 3 || d.order == OrderYMD) {
			tmask, tm.year = dtkM(tokYear), val
		} else {
			tmask, tm.mday = dtkM(tokDay), val
		}
	case dtkM(tokYear) | dtkM(tokMonth):
		if haveTextMonth && flen >= 3 && d.is2digits {
			// DD-MON-YYYY: the first number was the day
			tmask = dtkM(tokDay)
			tm.mday = tm.year
			tm.year = val
			d.is2digits = false
		} else {
			tmask, tm.mday = dtkM(tokDay), val
		}
	case dtkM(tokDay):
		tmask, tm.mon = dtkM(tokMonth), val
	case dtkM(tokMonth) | dtkM(tokDay):
		tmask, tm.year = dtkM(tokYear), val
	case dtkDateM:
		return d.decodeNumberField(str, fmask)
	default:
		return 0, failBad
	}
	if tmask == dtkM(tokYear) {
		d.is2digits = flen <= 2
	}
	return tmask, nil
}

// decodeDate is DecodeDate: a field of parts joined by delimiters.
func (d *dtDecoder) decodeDate(str string, fmask int) (int, *dtFail) {
	var parts []string
	i := 0
	for i < len(str) && len(parts) < maxDateFields {
		for i < len(str) && !isAlnumC(str[i]) {
			i++
		}
		if i == len(str) {
			return 0, failBad // ends after a separator
		}
		j := i
		if isDigit(str[i]) {
			for j < len(str) && isDigit(str[j]) {
				j++
			}
		} else {
			for j < len(str) && isAlphaC(str[j]) {
				j++
			}
		}
		parts = append(parts, str[i:j])
		if j < len(str) {
			j++ // the separator after a part is dropped, whatever it is
		}
		i = j
	}
	tmask := 0
	haveTextMonth := false
	// text first: it is a month's name, unambiguous
	for k, p := range parts {
		if !isAlphaC(p[0]) {
			continue
		}
		tok, ok := dateTokens[p]
		if ok && tok.typ == tokIgnore {
			continue
		}
		if !ok || tok.typ != tokMonth {
			return 0, failBad
		}
		d.tm.mon, haveTextMonth = tok.val, true
		dmask := dtkM(tokMonth)
		if fmask&dmask != 0 {
			return 0, failBad
		}
		fmask |= dmask
		tmask |= dmask
		parts[k] = ""
	}
	for _, p := range parts {
		if p == "" {
			continue
		}
		dmask, f := d.decodeNumber(p, haveTextMonth, fmask)
		if f != nil {
			return 0, f
		}
		if fmask&dmask != 0 {
			return 0, failBad
		}
		fmask |= dmask
		tmask |= dmask
	}
	if fmask&^(dtkM(tokDOY)|dtkM(tokTZ)) != dtkDateM {
		return 0, failBad
	}
	return tmask, nil
}

// validateDate is ValidateDate: the year's era and century, the day of
// the year, and the month's and day's ranges.
func (d *dtDecoder) validateDate(fmask int) *dtFail {
	tm := &d.tm
	if fmask&dtkM(tokYear) != 0 {
		switch {
		case d.isjulian:
		case d.bc:
			if tm.year <= 0 {
				return failRange
			}
			tm.year = -(tm.year - 1)
		case d.is2digits:
			if tm.year < 0 {
				return failRange
			}
			if tm.year < 70 {
				tm.year += 2000
			} else if tm.year < 100 {
				tm.year += 1900
			}
		default:
			if tm.year <= 0 {
				return failRange
			}
		}
	}
	if fmask&dtkM(tokDOY) != 0 {
		tm.year, tm.mon, tm.mday = J2Date(Date2J(tm.year, 1, 1) + tm.yday - 1)
	}
	if fmask&dtkM(tokMonth) != 0 && (tm.mon < 1 || tm.mon > 12) {
		return failMDRange
	}
	if fmask&dtkM(tokDay) != 0 && (tm.mday < 1 || tm.mday > 31) {
		return failMDRange
	}
	if fmask&dtkDateM == dtkDateM {
		leap := 0
		if isLeap(tm.year) {
			leap = 1
		}
		if tm.mday > dayTab[leap][tm.mon-1] {
			return failRange
		}
	}
	return nil
}

// decodeTime is DecodeTime: hh:mm, hh:mm:ss[.f], or mm:ss.f.
func (d *dtDecoder) decodeTime(str string) (int, *dtFail) {
	tm := &d.tm
	var fits bool
	tm.hour, str, fits, _ = strtoint(str)
	if !fits {
		return 0, failRange
	}
	if !strings.HasPrefix(str, ":") {
		return 0, failBad
	}
	tm.min, str, fits, _ = strtoint(str[1:])
	if !fits {
		return 0, failRange
	}
	switch {
	case str == "":
		tm.sec, tm.fsec, tm.fnsec = 0, 0, 0
	case str[0] == '.':
		// mm:ss.f
		fsec, f := parseFractionalSecond(str)
		if f != nil {
			return 0, f
		}
		tm.fsec, tm.fnsec = fsec, fracNanos(str)
		tm.sec, tm.min, tm.hour = tm.min, tm.hour, 0
	case str[0] == ':':
		tm.sec, str, fits, _ = strtoint(str[1:])
		if !fits {
			return 0, failRange
		}
		switch {
		case str == "":
			tm.fsec, tm.fnsec = 0, 0
		case str[0] == '.':
			fsec, f := parseFractionalSecond(str)
			if f != nil {
				return 0, f
			}
			tm.fsec, tm.fnsec = fsec, fracNanos(str)
		default:
			return 0, failBad
		}
	default:
		return 0, failBad
	}
	if tm.hour < 0 || tm.min < 0 || tm.min > 59 || tm.sec < 0 || tm.sec > 60 || tm.fsec < 0 || tm.fsec > 1e6 {
		return 0, failRange
	}
	return dtkTimeM, nil
}

// timeOverflows is time_overflows: beyond 24:00:00.
func timeOverflows(hour, min, sec int, fsec int64) bool {
	if hour < 0 || hour > 24 || min < 0 || min > 59 || sec < 0 || sec > 60 || fsec < 0 || fsec > 1e6 {
		return true
	}
	us := int64((hour*60+min)*60+sec)*1e6 + fsec
	return us > USecsPerDay
}

// timeAndZone is a run-together time and its zone in one field
// (hhmmss-zz), the time's digits read as DecodeNumberField reads them
// with fmask: the field's mask, its zone set.
func (d *dtDecoder) timeAndZone(text string, fmask int) (int, *dtFail) {
	if d.fmask&dtkTimeM == dtkTimeM {
		return 0, failBad
	}
	k := strings.IndexByte(text, '-')
	if k < 0 {
		return 0, failBad
	}
	tz, f := decodeTimezone(text[k:])
	if f != nil {
		return 0, f
	}
	d.tz = tz
	m, f := d.decodeNumberField(text[:k], fmask)
	if f != nil {
		return 0, f
	}
	return m | dtkM(tokTZ), nil
}

// zoneName sets the zone a field names (a tz database name with
// punctuation), or fails naming it.
func (d *dtDecoder) zoneName(text string) *dtFail {
	loc, ok := pgTzset(text)
	if !ok {
		return &dtFail{kind: dtZoneUnknown, zone: text}
	}
	d.namedTz = loc
	return nil
}

// labelled reads a number after a unit label (y2001m02d04, J2451187,
// T040506, h04mm05s06): the DTK_NUMBER case of both decoders with a
// ptype set.
func (d *dtDecoder) labelled(field string, fmask int) (int, *dtFail) {
	tm := &d.tm
	val, cp, fits, _ := strtoint(field)
	if !fits {
		return 0, failRange
	}
	if strings.HasPrefix(cp, ".") {
		switch d.ptype {
		case dtkJulian, dtkTime, dtkSecond:
		default:
			return 0, failBad
		}
	} else if cp != "" {
		return 0, failBad
	}
	var tmask int
	switch d.ptype {
	case dtkYear:
		tm.year, tmask = val, dtkM(tokYear)
	case dtkMonth:
		// after a month and an hour, minutes
		if fmask&dtkM(tokMonth) != 0 && fmask&dtkM(tokHour) != 0 {
			tm.min, tmask = val, dtkM(tokMinute)
		} else {
			tm.mon, tmask = val, dtkM(tokMonth)
		}
	case dtkDay:
		tm.mday, tmask = val, dtkM(tokDay)
	case dtkHour:
		tm.hour, tmask = val, dtkM(tokHour)
	case dtkMinute:
		tm.min, tmask = val, dtkM(tokMinute)
	case dtkSecond:
		tm.sec, tmask = val, dtkM(tokSecond)
		if strings.HasPrefix(cp, ".") {
			fsec, f := parseFractionalSecond(cp)
			if f != nil {
				return 0, f
			}
			tm.fsec, tm.fnsec = fsec, fracNanos(cp)
			tmask = dtkAllSecs
		}
	case dtkJulian:
		if val < 0 {
			return 0, failRange
		}
		tmask = dtkDateM
		tm.year, tm.mon, tm.mday = J2Date(val)
		d.isjulian = true
		if strings.HasPrefix(cp, ".") { // a fraction of a day
			v, f := parseFraction(cp)
			if f != nil {
				return 0, f
			}
			d.dt2time(v * float64(USecsPerDay))
			tmask |= dtkTimeM
		}
	case dtkTime: // after ISO's T
		m, f := d.decodeNumberField(field, fmask|dtkDateM)
		if f != nil {
			return 0, f
		}
		if m != dtkTimeM {
			return 0, failBad
		}
		tmask = m
	default:
		return 0, failBad
	}
	d.ptype = 0
	d.dtype = dtkDate
	return tmask, nil
}

// dt2time splits microseconds of a day (a double, truncated as
// PostgreSQL's int64 conversion does) into the time fields.
func (d *dtDecoder) dt2time(us float64) {
	t := int64(us)
	d.tm.hour = int(t / 3600e6)
	t -= int64(d.tm.hour) * 3600e6
	d.tm.min = int(t / 60e6)
	t -= int64(d.tm.min) * 60e6
	d.tm.sec = int(t / 1e6)
	d.tm.fsec = t - int64(d.tm.sec)*1e6
	d.tm.fnsec = d.tm.fsec * 1000
}

// decodeDateTime is DecodeDateTime, for date, timestamp and timestamptz.
func (d *dtDecoder) decodeDateTime() (*dtResult, *dtFail) {
	tm := &d.tm
	d.dtype = dtkDate
	fields := d.fields
	for i, fl := range fields {
		tmask := 0
		switch fl.kind {
		case fieldDate:
			switch {
			case d.ptype == dtkJulian:
				// an integral Julian day with its zone attached
				val, cp, fits, _ := strtoint(fl.text)
				if !fits || val < 0 {
					return nil, failRange
				}
				tm.year, tm.mon, tm.mday = J2Date(val)
				d.isjulian = true
				tz, f := decodeTimezone(cp)
				if f != nil {
					return nil, f
				}
				d.tz = tz
				tmask = dtkDateM | dtkTimeM | dtkM(tokTZ)
				d.ptype = 0
			case d.ptype != 0 || d.fmask&(dtkM(tokMonth)|dtkM(tokDay)) == dtkM(tokMonth)|dtkM(tokDay):
				// after a month and day: a zone name with punctuation, or
				// a run-together time and its zone (hhmmss-zz)
				if isDigit(fl.text[0]) || d.ptype != 0 {
					if d.ptype != 0 {
						if d.ptype != dtkTime {
							return nil, failBad
						}
						d.ptype = 0
					}
					m, f := d.timeAndZone(fl.text, d.fmask)
					if f != nil {
						return nil, f
					}
					tmask = m
				} else {
					if f := d.zoneName(fl.text); f != nil {
						return nil, f
					}
					tmask = dtkM(tokTZ)
				}
			default:
				m, f := d.decodeDate(fl.text, d.fmask)
				if f != nil {
					return nil, f
				}
				tmask = m
			}
		case fieldTime:
			if d.ptype != 0 { // an ISO time after T
				if d.ptype != dtkTime {
					return nil, failBad
				}
				d.ptype = 0
			}
			m, f := d.decodeTime(fl.text)
			if f != nil {
				return nil, f
			}
			if timeOverflows(tm.hour, tm.min, tm.sec, tm.fsec) {
				return nil, failRange
			}
			tmask = m
		case fieldTZ:
			tz, f := decodeTimezone(fl.text)
			if f != nil {
				return nil, f
			}
			d.tz = tz
			tmask = dtkM(tokTZ)
		case fieldNumber:
			if d.ptype != 0 {
				m, f := d.labelled(fl.text, d.fmask)
				if f != nil {
					return nil, f
				}
				tmask = m
				break
			}
			flen := len(fl.text)
			k := strings.IndexByte(fl.text, '.')
			var m int
			var f *dtFail
			switch {
			case k >= 0 && d.fmask&dtkDateM == 0:
				m, f = d.decodeDate(fl.text, d.fmask)
			case k >= 0 && k > 2:
				m, f = d.decodeNumberField(fl.text, d.fmask)
			case flen >= 6 && (d.fmask&dtkDateM == 0 || d.fmask&dtkTimeM == 0):
				m, f = d.decodeNumberField(fl.text, d.fmask)
			default:
				m, f = d.decodeNumber(fl.text, d.haveTextMonth, d.fmask)
			}
			if f != nil {
				return nil, f
			}
			tmask = m
		case fieldString, fieldSpecial:
			typ, val := tokUnknown, 0
			var valtz *time.Location
			if t, east, zone, ok := lookupAbbrev(fl.text); ok {
				typ, val, valtz = t, east, zone
			} else if tok, ok := dateTokens[fl.text]; ok {
				typ, val = tok.typ, tok.val
			}
			if typ == tokIgnore {
				continue
			}
			tmask = dtkM(typ)
			switch typ {
			case tokReserved:
				switch val {
				case dtkNow:
					tmask = dtkDateM | dtkTimeM | dtkM(tokTZ)
					d.dtype = dtkDate
					d.setNow()
					d.tz = tm.tzWest
				case dtkYesterday, dtkToday, dtkTomorrow:
					tmask = dtkDateM
					d.dtype = dtkDate
					day := map[int]int{dtkYesterday: -1, dtkToday: 0, dtkTomorrow: 1}[val]
					y, mo, dd := d.now.In(d.loc).AddDate(0, 0, day).Date()
					tm.year, tm.mon, tm.mday = y, int(mo), dd
				case dtkZulu:
					tmask = dtkTimeM | dtkM(tokTZ)
					d.dtype = dtkDate
					tm.hour, tm.min, tm.sec = 0, 0, 0
					d.tz = 0
				default:
					d.dtype = val
				}
			case tokMonth:
				// a number taken for the month before a month's name
				// was the day
				if d.fmask&dtkM(tokMonth) != 0 && !d.haveTextMonth && d.fmask&dtkM(tokDay) == 0 && tm.mon >= 1 && tm.mon <= 31 {
					tm.mday = tm.mon
					tmask = dtkM(tokDay)
				}
				d.haveTextMonth = true
				tm.mon = val
			case tokDTZMod:
				tmask |= dtkM(tokDTZ)
				tm.isdst = 1
				d.tz -= val
			case tokDTZ:
				tmask |= dtkM(tokTZ)
				tm.isdst = 1
				d.tz = -val
			case tokTZ:
				tm.isdst = 0
				d.tz = -val
			case tokDynTZ:
				// the offset is read once the date and time are known
				tmask |= dtkM(tokTZ)
				d.abbrevTz, d.abbrev = valtz, strings.ToUpper(fl.text)
			case tokAMPM:
				d.mer = val
			case tokADBC:
				d.bc = val == 1
			case tokDOW:
				tm.wday = val
			case tokUnits:
				tmask = 0
				d.ptype = val
			case tokISOTime:
				tmask = 0
				// T needs a whole date before it and a time after it
				if d.fmask&dtkDateM != dtkDateM {
					return nil, failBad
				}
				if i >= len(fields)-1 || fields[i+1].kind != fieldNumber && fields[i+1].kind != fieldTime && fields[i+1].kind != fieldDate {
					return nil, failBad
				}
				d.ptype = val
			case tokUnknown:
				// an all-letter zone name (utc, japan)
				loc, ok := pgTzset(fl.text)
				if !ok {
					return nil, failBad
				}
				d.namedTz = loc
				tmask = dtkM(tokTZ)
			default:
				return nil, failBad
			}
		default:
			return nil, failBad
		}
		if tmask&d.fmask != 0 {
			return nil, failBad
		}
		d.fmask |= tmask
	}
	if f := d.validateDate(d.fmask); f != nil {
		return nil, f
	}
	if f := d.meridian(); f != nil {
		return nil, f
	}
	res := &dtResult{dtype: d.dtype, tm: *tm, tz: d.tz, hasZone: d.fmask&dtkM(tokTZ) != 0}
	if d.dtype == dtkDate {
		if d.fmask&dtkDateM != dtkDateM {
			return nil, failBad // (a time alone is DecodeDateTime's 1, an error too)
		}
		if d.namedTz != nil {
			if d.fmask&dtkM(tokDTZMod) != 0 {
				return nil, failBad
			}
			res.tz = determineTimeZoneOffset(tm, d.namedTz)
		}
		if d.abbrevTz != nil {
			if d.fmask&dtkM(tokDTZMod) != 0 {
				return nil, failBad
			}
			res.tz = determineTimeZoneAbbrevOffset(tm, d.abbrev, d.abbrevTz)
		}
		if d.fmask&dtkM(tokTZ) == 0 {
			if d.fmask&dtkM(tokDTZMod) != 0 {
				return nil, failBad
			}
			res.tz = determineTimeZoneOffset(tm, d.loc)
		}
		res.tm = *tm
	}
	return res, nil
}

// setNow is GetCurrentTimeUsec: the transaction's start as the
// session's wall clock, and its offset.
func (d *dtDecoder) setNow() {
	n := d.now.In(d.loc)
	_, off := n.Zone()
	d.tm.year, d.tm.mon, d.tm.mday = n.Year(), int(n.Month()), n.Day()
	d.tm.hour, d.tm.min, d.tm.sec = n.Clock()
	d.tm.fsec = int64(n.Nanosecond() / 1000)
	d.tm.fnsec = int64(n.Nanosecond())
	d.tm.tzWest = -off
}

// meridian applies AM/PM.
func (d *dtDecoder) meridian() *dtFail {
	tm := &d.tm
	if d.mer != merHR24 && tm.hour > 12 {
		return failRange
	}
	if d.mer == merAM && tm.hour == 12 {
		tm.hour = 0
	} else if d.mer == merPM && tm.hour != 12 {
		tm.hour += 12
	}
	return nil
}

// determineTimeZoneOffset is DetermineTimeZoneOffset: loc's offset
// (seconds west) at the wall-clock time tm there; 0 for a date beyond
// the Julian range.
func determineTimeZoneOffset(tm *pgTm, loc *time.Location) int {
	if !isValidJulian(tm.year, tm.mon) || loc == nil {
		return 0
	}
	wall := time.Date(tm.year, time.Month(tm.mon), tm.mday, tm.hour, tm.min, tm.sec, 0, time.UTC)
	// the offset the wall clock is read with: in a spring-forward gap,
	// the one before the transition (LocalToInstant's rule), which
	// timetz keeps
	return int(LocalToInstant(wall, loc).Unix() - wall.Unix())
}

// decodeTimeOnly is DecodeTimeOnly, for time and timetz.
func (d *dtDecoder) decodeTimeOnly() (*dtResult, *dtFail) {
	tm := &d.tm
	d.dtype = dtkTime
	fields := d.fields
	nf := len(fields)
	for i, fl := range fields {
		tmask := 0
		switch fl.kind {
		case fieldDate:
			// a date only first, before a time or ending in a date-like
			// field (a zone name)
			if i == 0 && nf >= 2 && (fields[nf-1].kind == fieldDate || fields[1].kind == fieldTime) {
				m, f := d.decodeDate(fl.text, d.fmask)
				if f != nil {
					return nil, f
				}
				tmask = m
			} else if isDigit(fl.text[0]) {
				// a run-together time and its zone (hhmmss-zz)
				m, f := d.timeAndZone(fl.text, d.fmask|dtkDateM)
				if f != nil {
					return nil, f
				}
				tmask = m
			} else {
				if f := d.zoneName(fl.text); f != nil {
					return nil, f
				}
				tmask = dtkM(tokTZ)
			}
		case fieldTime:
			m, f := d.decodeTime(fl.text)
			if f != nil {
				return nil, f
			}
			tmask = m
		case fieldTZ:
			tz, f := decodeTimezone(fl.text)
			if f != nil {
				return nil, f
			}
			d.tz = tz
			tmask = dtkM(tokTZ)
		case fieldNumber:
			if d.ptype != 0 {
				m, f := d.labelled(fl.text, d.fmask)
				if f != nil {
					return nil, f
				}
				tmask = m
				break
			}
			flen := len(fl.text)
			k := strings.IndexByte(fl.text, '.')
			var m int
			var f *dtFail
			switch {
			case k >= 0 && i == 0 && nf >= 2 && fields[nf-1].kind == fieldDate:
				m, f = d.decodeDate(fl.text, d.fmask)
			case k >= 0 && k > 2:
				m, f = d.decodeNumberField(fl.text, d.fmask|dtkDateM)
			case k >= 0:
				f = failBad
			case flen > 4:
				m, f = d.decodeNumberField(fl.text, d.fmask|dtkDateM)
			default:
				m, f = d.decodeNumber(fl.text, false, d.fmask|dtkDateM)
			}
			if f != nil {
				return nil, f
			}
			tmask = m
		case fieldString, fieldSpecial:
			typ, val := tokUnknown, 0
			var valtz *time.Location
			if t, east, zone, ok := lookupAbbrev(fl.text); ok {
				typ, val, valtz = t, east, zone
			} else if tok, ok := dateTokens[fl.text]; ok {
				typ, val = tok.typ, tok.val
			}
			if typ == tokIgnore {
				continue
			}
			tmask = dtkM(typ)
			switch typ {
			case tokReserved:
				switch val {
				case dtkNow:
					tmask = dtkTimeM
					d.setNow()
				case dtkZulu:
					tmask = dtkTimeM | dtkM(tokTZ)
					tm.hour, tm.min, tm.sec, tm.isdst = 0, 0, 0, 0
				default:
					return nil, failBad
				}
			case tokDTZMod:
				tmask |= dtkM(tokDTZ)
				tm.isdst = 1
				d.tz -= val
			case tokDTZ:
				tmask |= dtkM(tokTZ)
				tm.isdst = 1
				d.tz = -val
			case tokTZ:
				tm.isdst = 0
				d.tz = -val
			case tokDynTZ:
				// the offset is read once the date and time are known
				tmask |= dtkM(tokTZ)
				d.abbrevTz, d.abbrev = valtz, strings.ToUpper(fl.text)
			case tokAMPM:
				d.mer = val
			case tokADBC:
				d.bc = val == 1
			case tokUnits:
				tmask = 0
				d.ptype = val
			case tokISOTime:
				tmask = 0
				if i >= nf-1 || fields[i+1].kind != fieldNumber && fields[i+1].kind != fieldTime && fields[i+1].kind != fieldDate {
					return nil, failBad
				}
				d.ptype = val
			case tokUnknown:
				loc, ok := pgTzset(fl.text)
				if !ok {
					return nil, failBad
				}
				d.namedTz = loc
				tmask = dtkM(tokTZ)
			default:
				return nil, failBad
			}
		default:
			return nil, failBad
		}
		if tmask&d.fmask != 0 {
			return nil, failBad
		}
		d.fmask |= tmask
	}
	if f := d.validateDate(d.fmask); f != nil {
		return nil, f
	}
	if f := d.meridian(); f != nil {
		return nil, f
	}
	// time_overflows: the fields and their total, which 23:59:60.5 passes
	// field by field and exceeds 24:00:00 with
	if timeOverflows(tm.hour, tm.min, tm.sec, tm.fsec) {
		return nil, failRange
	}
	if d.fmask&dtkTimeM != dtkTimeM {
		return nil, failBad
	}
	hasDate := d.fmask&dtkDateM == dtkDateM
	res := &dtResult{dtype: dtkTime, tz: d.tz, hasZone: d.fmask&dtkM(tokTZ) != 0, hasDate: hasDate}
	if d.namedTz != nil {
		if d.fmask&dtkM(tokDTZMod) != 0 {
			return nil, failBad
		}
		if fixedZoneLoc(d.namedTz) {
			_, off := time.Unix(0, 0).In(d.namedTz).Zone()
			res.tz = -off
		} else {
			if !hasDate {
				return nil, failBad // a zone with DST needs a date
			}
			res.tz = determineTimeZoneOffset(tm, d.namedTz)
		}
	}
	if d.abbrevTz != nil {
		if d.fmask&dtkM(tokDTZMod) != 0 {
			return nil, failBad
		}
		tmp, f := d.zoneDate()
		if f != nil {
			return nil, f
		}
		res.tz = determineTimeZoneAbbrevOffset(&tmp, d.abbrev, d.abbrevTz)
	}
	if d.fmask&dtkM(tokTZ) == 0 {
		if d.fmask&dtkM(tokDTZMod) != 0 {
			return nil, failBad
		}
		tmp, f := d.zoneDate()
		if f != nil {
			return nil, f
		}
		res.tz = determineTimeZoneOffset(&tmp, d.loc)
	}
	res.tm = *tm
	return res, nil
}

// zoneDate is the time of a time-only text at the date its zone is read
// on: the date it gives, or with none today; a date given in part
// (y2001, d27) is refused.
func (d *dtDecoder) zoneDate() (pgTm, *dtFail) {
	tmp := d.tm
	switch d.fmask & dtkDateM {
	case 0:
		y, mo, dd := d.now.In(d.loc).Date()
		tmp.year, tmp.mon, tmp.mday = y, int(mo), dd
	case dtkDateM:
	default:
		return tmp, failBad
	}
	return tmp, nil
}

// decodeDateTimeText parses and decodes s for a type of mode, in a
// session whose DateStyle order, TimeZone and transaction start are
// order, loc and now.
func decodeDateTimeText(s string, mode dtMode, buflen int, order DateOrder, loc *time.Location, now time.Time) (*dtResult, *dtFail) {
	fields, f := parseDateTimeFields(s, buflen)
	if f != nil {
		return nil, f
	}
	d := newDecoder(fields, order, loc, now)
	if mode == modeTime {
		return d.decodeTimeOnly()
	}
	return d.decodeDateTime()
}

// posixZone is pg_tzset's fallback, tzparse: a POSIX zone
// specification, STD offset [DST [offset] [,rules]], whose DST without
// rules follows the default ",M3.2.0,M11.1.0". Names run to a digit, a
// sign or a comma (or are quoted in <>); hours run to 167.
func posixZone(name string) (*time.Location, bool) {
	up := strings.ToUpper(name)
	// the standard time's name may be empty (PostgreSQL's tzparse allows
	// it, unlike IANA's), the daylight time's may not
	rest, _, _ := posixName(up)
	if rest == "" || strings.HasPrefix(rest, "<") {
		return nil, false
	}
	rest, _, ok := posixOffset(rest)
	if !ok {
		return nil, false
	}
	spec := up
	if rest != "" {
		var dst bool
		rest, _, dst = posixName(rest)
		if !dst {
			return nil, false
		}
		if rest != "" && rest[0] != ',' {
			if rest, _, ok = posixOffset(rest); !ok {
				return nil, false
			}
		}
		switch {
		case rest == "":
			spec += ",M3.2.0,M11.1.0"
		case rest[0] != ',':
			return nil, false
		case !posixRule(rest[1:]):
			// the rules, checked as tzparse checks them
			return nil, false
		}
	}
	loc, err := locationFromPOSIX(spec)
	if err != nil {
		return nil, false
	}
	return loc, true
}

// posixRule is tzparse's check of a zone's DST rules (after the first
// separator): start,end, each Jn (1-365), n (0-365) or Mm.w.d (month
// 1-12, week 1-5, day 0-6), each maybe /time.
func posixRule(s string) bool {
	num := func(min, max int) bool {
		k, v := 0, 0
		for k < len(s) && isDigit(s[k]) {
			v = v*10 + int(s[k]-'0')
			if v > max {
				return false
			}
			k++
		}
		s = s[k:]
		return k > 0 && v >= min
	}
	rule := func() bool {
		switch {
		case strings.HasPrefix(s, "J"):
			s = s[1:]
			if !num(1, 365) {
				return false
			}
		case strings.HasPrefix(s, "M"):
			s = s[1:]
			for _, r := range [][2]int{{1, 12}, {1, 5}, {0, 6}} {
				if !num(r[0], r[1]) {
					return false
				}
				if r[0] != 0 {
					if !strings.HasPrefix(s, ".") {
						return false
					}
					s = s[1:]
				}
			}
		default:
			if !num(0, 365) {
				return false
			}
		}
		if strings.HasPrefix(s, "/") {
			var ok bool
			if s, _, ok = posixOffset(s[1:]); !ok {
				return false
			}
		}
		return true
	}
	if !rule() || !strings.HasPrefix(s, ",") {
		return false
	}
	s = s[1:]
	return rule() && s == ""
}

func posixName(s string) (rest, name string, ok bool) {
	if strings.HasPrefix(s, "<") {
		k := strings.IndexByte(s, '>')
		if k < 0 {
			return s, "", false
		}
		return s[k+1:], s[1:k], k > 1
	}
	k := 0
	for k < len(s) && !isDigit(s[k]) && s[k] != ',' && s[k] != '-' && s[k] != '+' {
		k++
	}
	return s[k:], s[:k], k > 0
}

func posixOffset(s string) (rest string, secs int, ok bool) {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	num := func(max int) (int, bool) {
		k := 0
		v := 0
		for k < len(s) && isDigit(s[k]) {
			v = v*10 + int(s[k]-'0')
			if v > max {
				return 0, false
			}
			k++
		}
		if k == 0 {
			return 0, false
		}
		s = s[k:]
		return v, true
	}
	h, ok := num(167)
	if !ok {
		return s, 0, false
	}
	secs = h * 3600
	if strings.HasPrefix(s, ":") {
		s = s[1:]
		m, ok := num(59)
		if !ok {
			return s, 0, false
		}
		secs += m * 60
		if strings.HasPrefix(s, ":") {
			s = s[1:]
			sec, ok := num(60)
			if !ok {
				return s, 0, false
			}
			secs += sec
		}
	}
	return s, secs, true
}

// locationFromPOSIX builds a Location from a POSIX TZ string alone: a
// TZif file with no transitions whose footer holds the rule.
func locationFromPOSIX(spec string) (*time.Location, error) {
	// the footer wants names of letters only, or quoted
	_, std, _ := posixName(spec)
	return time.LoadLocationFromTZData(spec, tzifData(std, nil, quotePOSIX(spec)))
}

// quotePOSIX quotes each name of a POSIX TZ string (A.M.+123 is
// <A.M.>+123, PM-2.5 is <PM>-2<.>5, +25 is <>+25), as the TZif footer
// requires of any name not three letters or more.
func quotePOSIX(spec string) string {
	var b strings.Builder
	s := spec
	for s != "" && s[0] != ',' {
		// an empty name ("+25", "<>5") is written "<>"
		orig := s
		rest, name, _ := posixName(s)
		if rest == s && strings.HasPrefix(s, "<") {
			break
		}
		// the names only name the periods: a '>' in one (XYZ<Q>, read
		// to the next digit or sign) would end the quotes
		b.WriteString("<" + strings.ReplaceAll(name, ">", "?") + ">")
		s = rest
		k := 0
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		// an offset is hh[:mm[:ss]]: a third ':' begins the next name
		for groups := 0; groups < 3 && (groups == 0 || k+1 < len(s) && s[k] == ':' && isDigit(s[k+1])); groups++ {
			if groups > 0 {
				k++
			}
			for k < len(s) && isDigit(s[k]) {
				k++
			}
		}
		if s == orig && k == 0 {
			break // neither a name nor an offset
		}
		b.WriteString(s[:k])
		s = s[k:]
	}
	b.WriteString(s)
	return b.String()
}

// fractionNanos is a fraction's digits as nanoseconds (beyond nine
// digits dropped).
func fractionNanos(frac string) int64 {
	if len(frac) > 9 {
		frac = frac[:9]
	}
	if v, ok := fractionDigits(frac); ok {
		return v
	}
	v, _ := strconv.ParseInt(frac+strings.Repeat("0", 9-len(frac)), 10, 64)
	return v
}

// fractionDigits is fractionNanos of at most 9 plain digits, read in place:
// every timestamp literal of a many-row INSERT has a fraction, and the
// padded copy ParseInt reads was an allocation each. ok is false for any
// other byte (a sign ParseInt would read), left to ParseInt.
func fractionDigits(frac string) (int64, bool) {
	var v int64
	for i := 0; i < len(frac); i++ {
		c := frac[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	for i := len(frac); i < 9; i++ {
		v *= 10
	}
	return v, true
}

func daysIn(m time.Month, year int64) int {
	return time.Date(int(year%400)+2000, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// monthNumber is a month's number from its name or abbreviation (0: none).
func monthNumber(w string) int {
	return monthNames[w]
}

// scanDigits is the end of the run of digits at i.
func scanDigits(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}
