package types

import (
	"strconv"
	"strings"
	"time"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// Date/time text input: one decoder for date, timestamp, timestamptz,
// time and timetz, written from PostgreSQL 15's documentation (8.5.1
// "Date/Time Input" and Appendix B.1 "Date/Time Input Interpretation")
// and checked against PostgreSQL 15 itself. The text is cut into typed
// fields (lexDateTime), each field is resolved by the rule that names it
// (dtParts' methods, one rule each, its reason beside it), and the parts
// are checked once at the end (dtParts.finish). The callers in value.go
// and timetz.go build their type's value from the parts. Every error is
// built by dtFail.err. A date written in numbers only is read in the
// session's DateStyle order (DateOrder, datestyle.go).

// dtTokKind is what kind of field a piece of the text is (B.1 step 1).
type dtTokKind uint8

const (
	tokNumber     dtTokKind = iota // digits with at most one '.': 2024, 040506.789, 1999.008
	tokTime                        // digits with ':': 10:20:30.5
	tokDate                        // parts joined by '-', '/' or dots: 2024-01-02, Jan-08-1999, 08.01.1999
	tokWord                        // letters only, lower-cased: jan, pm, epoch, est
	tokLabel                       // letters written against the digits after them: the J of J2451187, the T of T102030
	tokZoneName                    // a zone-like name with punctuation or digits: europe/paris, est5edt, abc+3
	tokOffset                      // a sign and digits (colons, dots): +02, -05:30, -0800
	tokSignedWord                  // a sign and letters: -infinity
)

type dtToken struct {
	kind dtTokKind
	text string
	// glued: a number written against the T after it (19990108T0405):
	// only a run-together date may be
	glued bool
}

// labels are the words that may be written against the number they
// introduce: Julian days (J2451187), ISO's T before a time (T102030),
// and the ISO labelled fields (y2024m01d02h10mm20s30).
var dtLabels = map[string]bool{"j": true, "t": true, "y": true, "m": true, "d": true, "h": true, "mm": true, "s": true}

// lexDateTime cuts s into fields; ok is false when s holds a character
// no field may contain. Spaces and commas separate fields.
func lexDateTime(s string) (toks []dtToken, ok bool) {
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',':
			i++
		case isDigit(c):
			j := scanDigits(s, i)
			kind, end := tokNumber, j
			switch {
			case j < len(s) && s[j] == ':': // a time: digits, colons and a fraction
				kind, end = tokTime, scanWhile(s, j, func(c byte) bool { return isDigit(c) || c == ':' || c == '.' })
			case j < len(s) && (s[j] == '-' || s[j] == '/') && j+1 < len(s) && isAlnum(s[j+1]):
				kind, end = tokDate, scanDateField(s, i, s[j])
			case j+1 < len(s) && s[j] == '.' && isLetter(s[j+1]):
				// a dot before a word joins a date (07.March.67)
				kind, end = tokDate, scanDateField(s, i, '.')
			case j < len(s) && s[j] == '.':
				// one dot is a fraction (1999.008, 040506.789); a
				// second makes a date (08.01.1999)
				end = scanDigits(s, j+1)
				if end < len(s) && s[end] == '.' && end > j+1 {
					kind, end = tokDate, scanDateField(s, i, '.')
				}
			}
			glued := kind == tokNumber && end+1 < len(s) && s[end]|0x20 == 't' && isDigit(s[end+1])
			toks = append(toks, dtToken{kind: kind, text: s[i:end], glued: glued})
			i = end
		case c == '.':
			j := scanDigits(s, i+1)
			if j == i+1 {
				return nil, false
			}
			toks = append(toks, dtToken{kind: tokNumber, text: s[i:j]})
			i = j
		case isLetter(c):
			j := scanWhile(s, i, isLetter)
			word := strings.ToLower(s[i:j])
			if j+1 < len(s) && (s[j] == '-' || s[j] == '/' || s[j] == '.') && monthNumber(word) > 0 && isDigit(s[j+1]) {
				end := scanDateField(s, i, s[j])
				toks = append(toks, dtToken{kind: tokDate, text: s[i:end]})
				i = end
				continue
			}
			if j == len(s) || !isZoneNameChar(s[j]) || s[j] == '+' && isCoreKeyword(word) {
				// (a keyword before '+' ends there, as PostgreSQL's
				// ParseDateTime ends it: 10:33 pm+09 is PM at +09)
				// a word alone; letters with a sign are a POSIX zone
				// (abc+3, and pm-05:30 too)
				toks = append(toks, dtToken{kind: tokWord, text: word})
				i = j
				continue
			}
			if isDigit(s[j]) && (dtLabels[word] || monthNumber(word) > 0) || word == "t" && s[j] == '.' {
				// J2451187, T102030, y2024m01d02, jun08: a prefix or
				// month written against its number
				toks = append(toks, dtToken{kind: tokLabel, text: word})
				i = j
				continue
			}
			end := scanWhile(s, i, isZoneNameChar)
			toks = append(toks, dtToken{kind: tokZoneName, text: s[i:end]})
			i = end
		case (c == '+' || c == '-') && i+1 < len(s) && isDigit(s[i+1]):
			end := scanWhile(s, i+1, func(c byte) bool { return isDigit(c) || c == ':' || c == '.' })
			toks = append(toks, dtToken{kind: tokOffset, text: s[i:end]})
			i = end
		case (c == '+' || c == '-') && i+1 < len(s) && isLetter(s[i+1]):
			end := scanWhile(s, i+1, isLetter)
			toks = append(toks, dtToken{kind: tokSignedWord, text: strings.ToLower(s[i:end])})
			i = end
		default:
			return nil, false
		}
	}
	return toks, true
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isAlnum(c byte) bool  { return isDigit(c) || isLetter(c) }

// isZoneNameChar is a character a zone name may hold (tz database
// names, POSIX zones).
func isZoneNameChar(c byte) bool {
	return isAlnum(c) || c == '_' || c == '/' || c == '.' || c == '-' || c == '+' || c == ':'
}

func scanWhile(s string, i int, ok func(byte) bool) int {
	for i < len(s) && ok(s[i]) {
		i++
	}
	return i
}

func scanDigits(s string, i int) int { return scanWhile(s, i, isDigit) }

// scanDateField reads parts (a run of digits or of letters) joined by
// delim, from i. Once a part is a word (a month's name), letters and
// digits run on together (2019-jan-21utc is one field, and no date):
// only an all-digit date ends at a letter (2024-01-02T10:20).
func scanDateField(s string, i int, delim byte) int {
	texty := false
	for {
		switch {
		case i < len(s) && texty && isAlnum(s[i]):
			i = scanWhile(s, i, isAlnum)
		case i < len(s) && isDigit(s[i]):
			i = scanDigits(s, i)
		case i < len(s) && isLetter(s[i]) && (i == 0 || s[i-1] == delim || !(s[i]|0x20 == 't' && i+1 < len(s) && isDigit(s[i+1]))):
			// a word part, or letters against the last digits (03z)
			// except ISO's T before a time
			i = scanWhile(s, i, isAlnum)
			texty = true
		default:
			return i
		}
		if i+1 < len(s) && s[i] == delim && isAlnum(s[i+1]) {
			i++
			continue
		}
		return i
	}
}

// dtMode says which fields a type requires: a date (date, timestamp,
// timestamptz) or a time of day (time, timetz).
type dtMode uint8

const (
	modeDate dtMode = iota
	modeTime
)

// dtSet marks the parts the text has given.
type dtSet uint16

const (
	hasYear dtSet = 1 << iota
	hasMonth
	hasDay
	hasDoy
	hasTime
	hasZone
	hasAMPM
	hasEra
	dateParts = hasYear | hasMonth | hasDay | hasDoy
)

// dtZone is a zone written in the text: a fixed offset (east of UTC) or
// a tz database zone (whose offset depends on the date).
type dtZone struct {
	east int
	loc  *time.Location
}

// dtParts is what the fields of one text name.
type dtParts struct {
	mode          dtMode
	set           dtSet
	year          int64
	yearDigits    int // digits written for the year: two or fewer take a century
	month, day    int
	doy           int
	hour, minute  int64
	second        int64
	nanos         int64
	pm, am        bool
	bc            bool
	zone          dtZone
	zoneAbbrev    bool   // the zone is an abbreviation (a following DST adds an hour)
	special       string // epoch, now, today, tomorrow, yesterday, infinity, -infinity
	ambiguousDate bool   // month or day came from DateStyle's order (a range error hints at it)
	fromDateField bool   // the date was written as one field (2024-01-02), not in words or numbers
	dateText      string // that field
	zoneNameLast  bool   // the text ends in a zone name (Europe/Paris), which lets a time type read a date before it
	colonTime     bool   // the time was written with colons (its range is checked), not run together
	runTogether   bool   // the time was written run together (HHMMSS)
	julianDate    bool   // the date is a Julian day's (no era, no century to add)
	monthGuessed  bool   // the month is a number DateStyle's order placed there
	textMonth     bool   // the month was written by name
	order         DateOrder
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

var (
	failBad   = &dtFail{kind: dtBad}
	failRange = &dtFail{kind: dtRange}
)

// decodeDateTime reads s's fields into parts for a type of mode.
// An ambiguous date (1/2/2020) is read in order.
func decodeDateTime(s string, mode dtMode, order DateOrder) (*dtParts, *dtFail) {
	toks, ok := lexDateTime(s)
	if !ok || len(toks) == 0 {
		return nil, failBad
	}
	p := &dtParts{mode: mode, order: order, zoneNameLast: toks[len(toks)-1].kind == tokZoneName}
	for i := 0; i < len(toks); i++ {
		tk := toks[i]
		var f *dtFail
		switch tk.kind {
		case tokNumber:
			f = p.number(tk.text, tk.glued)
		case tokTime:
			f = p.clock(tk.text)
		case tokDate:
			f = p.dateField(tk.text)
		case tokOffset:
			f = p.offset(tk.text)
		case tokSignedWord:
			f = p.signedWord(tk.text)
		case tokZoneName:
			if mode == modeDate && !p.anyDate() && strings.ContainsAny(tk.text, ".-") && !strings.Contains(tk.text, "/") {
				// before a date, a date type reads a word with dots or
				// dashes (a.m., a0eebc99-9c0b-...) as a date field,
				// which it is not; after one, as a zone name (B.1 step
				// 1b)
				f = failBad
				break
			}
			f = p.zoneName(tk.text)
		case tokWord, tokLabel:
			if tk.text == "t" && mode == modeDate && i+1 < len(toks) && strings.HasPrefix(toks[i+1].text, ".") {
				// a date type reads T.5 at the end as no time at
				// all, and refuses anything after it
				if i+2 < len(toks) {
					return nil, failBad
				}
				i++
				break
			}
			// a prefix word takes the field after it
			if next := i + 1; next < len(toks) && isPrefixWord(tk.text) {
				i++
				f = p.prefixed(tk.text, toks[next])
				break
			}
			f = p.word(tk.text)
		}
		if f != nil {
			return nil, f
		}
	}
	return p, p.finish()
}

func isPrefixWord(w string) bool {
	switch w {
	case "j", "jd", "julian", "t":
		return true
	}
	return dtLabels[w]
}

// timeAfterDate refuses what follows a date field in a time type that
// PostgreSQL reads no further (a T, digits): it then reads the date
// field as a time and a zone (3-24-92 as 03 at -24:92), so a second
// part beyond 15 is a zone displacement out of range.
func (p *dtParts) timeAfterDate() *dtFail {
	parts := strings.FieldsFunc(p.dateText, func(r rune) bool { return r == '-' || r == '/' || r == '.' })
	if len(parts) > 1 && strings.Contains(p.dateText, "-") && isDigit(p.dateText[0]) {
		if h, err := strconv.Atoi(parts[1]); err == nil && h > 15 {
			return &dtFail{kind: dtZoneRange}
		}
	}
	return failBad
}

func (p *dtParts) anyDate() bool { return p.set&dateParts != 0 }

// dateDone reports a whole date: year, month and day, or a year and its
// day of the year (which DecodeNumber marks as the month and day).
func (p *dtParts) dateDone() bool {
	return p.set&(hasYear|hasMonth|hasDay) == hasYear|hasMonth|hasDay || p.set&(hasYear|hasDoy) == hasYear|hasDoy
}

func (p *dtParts) mark(parts dtSet) *dtFail {
	if p.set&parts != 0 { // a part given twice
		return failBad
	}
	p.set |= parts
	return nil
}

// number resolves a field of digits by B.1 step 3: its length and what
// the text has given before it.
func (p *dtParts) number(text string, glued bool) *dtFail {
	whole, frac, dot := strings.Cut(text, ".")
	n := len(whole)
	if glued && n > 8 && !dot {
		return p.concatenatedDate(whole)
	}
	if p.mode == modeTime {
		// a time type reads digits only as a run-together time (HHMM,
		// HHMMSS, with a fraction), and after a date field only when a
		// zone name ends the text
		if p.fromDateField && !p.zoneNameLast {
			return p.timeAfterDate()
		}
		if n == 0 || n != 4 && n != 6 {
			return failBad
		}
		return p.concatenatedTime(whole, frac)
	}
	switch {
	case n == 0: // a bare fraction
		return failBad
	case dot && !p.anyDate() && len(frac) == 3 && n != 6 && n != 8:
		// year.day-of-year (1999.008)
		if f := p.setYear(whole); f != nil {
			return f
		}
		return p.setDoy(frac)
	case dot && (n == 6 || n == 4) && p.set&hasYear != 0:
		// HHMMSS.fraction after a date (19990108 040506.789)
		return p.concatenatedTime(whole, frac)
	case dot:
		return failBad
	case n > 8:
		return &dtFail{kind: dtRangeStyle}
	case n >= 6 && !p.anyDate():
		// YYYYMMDD, YYYMMDD or YYMMDD, before any other date field
		return p.concatenatedDate(whole)
	case n >= 6 && p.set&hasTime == 0:
		// DecodeNumberField, as DecodeDateTime reads six digits or more
		// before any time: a whole date again while the date is not
		// complete, which sets the parts given already (DEC 294277 12 is
		// bad syntax, not a year out of range); after a whole date,
		// HHMMSS
		if !p.dateDone() || n != 6 {
			return failBad
		}
		return p.concatenatedTime(whole, "")
	case n == 3 && p.set&hasYear != 0 && p.set&(hasMonth|hasDay|hasDoy) == 0:
		return p.setDoy(whole) // after a year, three digits are the day of the year
	case n == 4 && p.dateDone():
		// HHMM after a whole date (before it, four digits are a date's
		// field: 05 07 2013, 02 jan 2020 in YMD)
		return p.concatenatedTime(whole, "")
	case n >= 3 && !p.anyDate():
		return p.setYear(whole) // a long number first is the year (then month, day)
	}
	return p.dateStyleField(whole)
}

// dateStyleField places a number among the date's parts as
// PostgreSQL's DecodeNumber does, by what the text has given so far: a
// first number by DateStyle's order (p.order), the next ones to complete
// that order; after a month written by name, DD-MON-YY, MON-DD-YY and
// (in YMD) YY-MON-DD are read, and DD-MON-YYYY in any order.
func (p *dtParts) dateStyleField(digits string) *dtFail {
	v, err := strconv.ParseInt(digits, 10, 32)
	if err != nil {
		return &dtFail{kind: dtRangeStyle}
	}
	swapYear := p.set&(hasYear|hasMonth|hasDay) == hasYear|hasMonth && p.textMonth && len(digits) >= 3 && p.yearDigits <= 2
	setMonth := func() {
		p.month, p.set, p.monthGuessed = int(v), p.set|hasMonth, true
		p.ambiguousDate = true
	}
	setDay := func() {
		p.day, p.set = int(v), p.set|hasDay
		p.ambiguousDate = true
	}
	if p.set&hasDoy != 0 {
		// a day of the year stands for the month and the day (DecodeNumber
		// marks both): a number after it is no field of the date
		return failBad
	}
	switch p.set & (hasYear | hasMonth | hasDay) {
	case 0:
		// three digits or more are a year whatever the order
		switch {
		case len(digits) >= 3 || p.order == OrderYMD:
			return p.setYear(digits)
		case p.order == OrderDMY:
			setDay()
		default:
			setMonth()
		}
	case hasYear:
		if len(digits) == 3 && v >= 1 && v <= 366 {
			// DecodeNumber's first rule: three digits after a year alone
			// are the day of the year (03.100 in YMD), before any order
			return p.setDoy(digits)
		}
		// a year written first orders the rest year-month-day
		setMonth()
	case hasMonth:
		if p.textMonth && (len(digits) >= 3 || p.order == OrderYMD) {
			return p.setYear(digits) // YY-MON-DD
		}
		setDay() // MON-DD-YY, DD-MON-YY; MM-DD-YY
	case hasYear | hasMonth:
		if swapYear {
			// DD-MON-YYYY in YMD: the first number was the day
			p.day, p.set = int(p.year), p.set|hasDay
			p.year, p.yearDigits = v, len(digits)
			return nil
		}
		setDay()
	case hasDay:
		setMonth() // DD-MM-YY
	case hasMonth | hasDay:
		return p.setYear(digits)
	default:
		return failBad
	}
	return nil
}

// setMonthName records a month written by name. A number before it that
// was taken for the month, with no day yet, was the day (2 Jan 2024):
// the name is certain, the order only a guess.
func (p *dtParts) setMonthName(m int) *dtFail {
	if p.set&hasMonth != 0 && p.monthGuessed && p.set&hasDay == 0 && p.month >= 1 && p.month <= 31 {
		p.day, p.set, p.monthGuessed = p.month, p.set|hasDay, false
	} else if f := p.mark(hasMonth); f != nil {
		return f
	}
	p.month, p.textMonth = m, true
	return nil
}

func (p *dtParts) setYear(digits string) *dtFail {
	if f := p.mark(hasYear); f != nil {
		return f
	}
	v, err := strconv.ParseInt(digits, 10, 32)
	if err != nil {
		return &dtFail{kind: dtRangeStyle}
	}
	p.year, p.yearDigits = v, len(digits)
	return nil
}

func (p *dtParts) setDoy(digits string) *dtFail {
	if f := p.mark(hasDoy); f != nil {
		return f
	}
	v, _ := strconv.Atoi(digits)
	p.doy = v
	return nil
}

func (p *dtParts) concatenatedDate(digits string) *dtFail {
	k := len(digits) - 4
	if f := p.setYear(digits[:k]); f != nil {
		return f
	}
	p.month, _ = strconv.Atoi(digits[k : k+2])
	p.day, _ = strconv.Atoi(digits[k+2:])
	return p.mark(hasMonth | hasDay)
}

// concatenatedTime reads HH, HHMM or HHMMSS and a fraction of a second.
func (p *dtParts) concatenatedTime(digits, frac string) *dtFail {
	if f := p.mark(hasTime); f != nil {
		return f
	}
	num := func(i int) int64 {
		if i+2 > len(digits) {
			return 0
		}
		v, _ := strconv.ParseInt(digits[i:i+2], 10, 64)
		return v
	}
	p.hour, p.minute, p.second = num(0), num(2), num(4)
	p.nanos = fractionNanos(frac)
	p.runTogether = true
	return nil
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

// clock reads a time field: H:M, H:M:S[.f], or M:S.f (two parts with a
// fraction are minutes and seconds). Its fields are checked at once; the
// time as a whole (24:00:00 at most) by finish.
func (p *dtParts) clock(text string) *dtFail {
	if f := p.mark(hasTime); f != nil {
		return f
	}
	p.colonTime = true
	parts := strings.Split(text, ":")
	if len(parts) > 3 {
		return failBad
	}
	if len(parts) == 2 && strings.Contains(parts[1], ".") {
		parts = []string{"0", parts[0], parts[1]}
	}
	sec, frac, _ := strings.Cut(parts[len(parts)-1], ".")
	parts[len(parts)-1] = sec
	if strings.Contains(frac, ".") {
		return failBad
	}
	for k, part := range parts[:len(parts)-1] {
		if strings.Contains(part, ".") || part == "" && k == 0 {
			return failBad // an empty minute is 0 (12::30), an empty hour no time
		}
	}
	vals := make([]int64, 3)
	for k, part := range parts {
		if part == "" {
			continue
		}
		if scanDigits(part, 0) != len(part) {
			return failBad
		}
		v, err := strconv.ParseInt(part, 10, 64)
		if err != nil {
			return failRange
		}
		vals[k] = v
	}
	p.hour, p.minute, p.second = vals[0], vals[1], vals[2]
	p.nanos = fractionNanos(frac)
	if p.hour > 24 || p.minute > 59 || p.second > 60 {
		return failRange
	}
	return nil
}

// dateField reads a field of parts joined by '-', '/' or dots. After a
// whole date, or in a time type before any, digits, a '-' and digits are
// a run-together time and its zone (040506-08); a date after a time is
// refused, as PostgreSQL refuses it.
func (p *dtParts) dateField(text string) *dtFail {
	complete := p.set&(hasYear|hasMonth|hasDay) == hasYear|hasMonth|hasDay
	if isDigit(text[0]) {
		k := strings.IndexByte(text, '-')
		if k > 0 && !strings.ContainsAny(text[k+1:], "-/.") &&
			(complete || p.mode == modeTime && !p.anyDate() && (k == 4 || k == 6)) {
			if f := p.number(text[:k], false); f != nil {
				return f
			}
			return p.offset(text[k:])
		}
	} else if complete {
		return p.zoneName(text)
	}
	if complete || p.set&hasTime != 0 {
		return failBad
	}
	parts := strings.FieldsFunc(text, func(r rune) bool { return r == '-' || r == '/' || r == '.' })
	var nums []string
	for _, part := range parts {
		letters := scanWhile(part, 0, isLetter)
		digits := scanDigits(part, 0)
		switch {
		case digits == len(part):
			nums = append(nums, part)
		case letters == len(part) && len(parts) == 3:
			// a month's name in a field of three (08-Jan-1999,
			// 20/oct/2038; not 19-jun)
			m := monthNumber(strings.ToLower(part))
			if m == 0 {
				return failBad
			}
			if f := p.mark(hasMonth); f != nil {
				return f
			}
			p.month, p.textMonth = m, true
		default: // letters and digits together (21utc)
			return failBad
		}
	}
	p.fromDateField, p.dateText = true, text
	for _, num := range nums {
		if f := p.dateStyleField(num); f != nil {
			return f
		}
	}
	return nil
}

// offset reads a numeric zone: +h, +hh, +hmm, +hhmm, +h:m, +hh:mm:ss.
func (p *dtParts) offset(text string) *dtFail {
	if f := p.mark(hasZone); f != nil {
		return f
	}
	east, f := parseDisplacement(text)
	if f != nil {
		return f
	}
	p.zone = dtZone{east: east}
	return nil
}

// parseDisplacement reads a signed zone displacement (seconds east).
func parseDisplacement(text string) (int, *dtFail) {
	neg := text[0] == '-'
	body := text[1:]
	if whole, _, dot := strings.Cut(body, "."); dot || body == "" {
		// a fraction is no zone, but too many hours before it are
		// refused as out of range first
		if h, err := strconv.Atoi(whole); err == nil && h > 15 && !strings.Contains(whole, ":") {
			return 0, &dtFail{kind: dtZoneRange}
		}
		return 0, failBad
	}
	var h, m, s int
	var err error
	if strings.Contains(body, ":") {
		parts := strings.Split(body, ":")
		if len(parts) > 3 {
			return 0, failBad
		}
		vals := make([]int, 3)
		for k, part := range parts {
			if part == "" {
				return 0, failBad
			}
			if vals[k], err = strconv.Atoi(part); err != nil {
				return 0, &dtFail{kind: dtZoneRange}
			}
		}
		h, m, s = vals[0], vals[1], vals[2]
	} else {
		switch n := len(body); {
		case n <= 2:
			h, _ = strconv.Atoi(body)
		case n <= 4:
			h, _ = strconv.Atoi(body[:n-2])
			m, _ = strconv.Atoi(body[n-2:])
		case n == 6:
			h, _ = strconv.Atoi(body[:2])
			m, _ = strconv.Atoi(body[2:4])
			s, _ = strconv.Atoi(body[4:])
		default:
			return 0, &dtFail{kind: dtZoneRange}
		}
	}
	if h > 15 || m > 59 || s > 59 {
		return 0, &dtFail{kind: dtZoneRange}
	}
	east := h*3600 + m*60 + s
	if neg {
		east = -east
	}
	return east, nil
}

func (p *dtParts) signedWord(w string) *dtFail {
	switch w {
	case "-infinity":
		return p.setSpecial("-infinity")
	}
	return failBad
}

// setSpecial records a special word: now stands for a whole timestamp,
// the others for a date (a time after epoch or infinity is read and
// dropped; after today it is the time of that day).
func (p *dtParts) setSpecial(w string) *dtFail {
	parts := dateParts
	switch w {
	case "now":
		parts = dateParts | hasTime
	case "allballs": // 00:00:00 UTC
		if p.mode == modeTime && p.anyDate() {
			return failBad // a time type takes allballs alone
		}
		if f := p.mark(hasTime | hasZone); f != nil {
			return f
		}
		p.hour, p.minute, p.second, p.nanos, p.zone = 0, 0, 0, 0, dtZone{}
		return nil
	}
	if f := p.mark(parts); f != nil {
		return f
	}
	p.special = w
	return nil
}

// prefixed reads a word that introduces the next field: J/JD/JULIAN a
// Julian day, T a time, and the ISO labels y m d h mm s their part.
func (p *dtParts) prefixed(w string, next dtToken) *dtFail {
	if p.mode == modeTime && w == "t" && p.fromDateField && !p.zoneNameLast {
		return p.timeAfterDate()
	}
	if p.mode == modeTime && (w == "h" || w == "mm" || w == "s") {
		return failBad // a time type takes no labelled time fields
	}
	if w == "t" && next.kind == tokTime {
		return p.clock(next.text)
	}
	if next.kind != tokNumber {
		return failBad
	}
	whole, frac, dot := strings.Cut(next.text, ".")
	switch w {
	case "j", "jd", "julian":
		if dot || whole == "" {
			return failBad
		}
		return p.julian(whole)
	case "t":
		if len(whole) != 2 && len(whole) != 4 && len(whole) != 6 {
			return failBad
		}
		return p.concatenatedTime(whole, frac)
	}
	if dot && w != "s" || whole == "" {
		return failBad
	}
	v, err := strconv.ParseInt(whole, 10, 32)
	if err != nil {
		return failRange
	}
	switch w {
	case "y":
		f := p.setYear(whole)
		p.yearDigits = 4 // a labelled year is as written
		return f
	case "m":
		if p.set&hasMonth != 0 && p.set&hasTime != 0 { // m after the hour is minutes
			p.minute = v
			return nil
		}
		p.month = int(v)
		return p.mark(hasMonth)
	case "d":
		p.day = int(v)
		return p.mark(hasDay)
	case "h":
		p.hour = v
		return p.mark(hasTime)
	case "mm":
		p.minute = v
		return nil
	case "s":
		p.second, p.nanos = v, fractionNanos(frac)
		return nil
	}
	return failBad
}

// julian reads a Julian day number (B.7): day 0 is 4714-11-24 BC.
func (p *dtParts) julian(digits string) *dtFail {
	v, err := strconv.ParseInt(digits, 10, 32)
	if err != nil {
		return failRange
	}
	if f := p.mark(hasYear | hasMonth | hasDay); f != nil {
		return f
	}
	y, m, d := time.Date(-4713, time.November, 24, 0, 0, 0, 0, time.UTC).AddDate(0, 0, int(v)).Date()
	p.year, p.month, p.day, p.julianDate = int64(y), int(m), d, true // astronomical years: BC or AD do not apply
	return nil
}

// word resolves a field of letters (B.1 step 2): a zone abbreviation, a
// special word, a month or day name, a modifier, or a zone name.
// dtWord is the kind of a word of PostgreSQL's core date/time token
// table (datetktbl) other than a month's name: the one list both word
// and isCoreKeyword read.
type dtWord uint8

const (
	notCoreWord dtWord = iota
	weekdayWord        // the day of the week, not checked
	noiseWord          // at, on
	ampmWord
	eraWord     // ad, bc
	specialWord // epoch, infinity, now ...
	dstWord     // after a standard-time abbreviation
)

func coreWord(w string) dtWord {
	switch w {
	case "sun", "sunday", "mon", "monday", "tue", "tues", "tuesday", "wed", "wednes", "wednesday",
		"thu", "thur", "thurs", "thursday", "fri", "friday", "sat", "saturday":
		return weekdayWord
	case "at", "on":
		return noiseWord
	case "am", "pm":
		return ampmWord
	case "ad", "bc":
		return eraWord
	case "epoch", "infinity", "now", "today", "tomorrow", "yesterday", "allballs":
		return specialWord
	case "dst":
		return dstWord
	}
	return notCoreWord
}

// isCoreKeyword reports whether w is one of the words of PostgreSQL's
// core date/time token table (datetktbl) rather than a zone: a month or
// weekday name, AM/PM, AD/BC, a noise word or a special.
func isCoreKeyword(w string) bool {
	return monthNumber(w) > 0 || coreWord(w) != notCoreWord
}

// word resolves a field of letters (B.1 step 2): a zone abbreviation, a
// special word, a month or day name, a modifier, or a zone name.
func (p *dtParts) word(w string) *dtFail {
	if m := monthNumber(w); m > 0 {
		if p.mode == modeTime {
			return failBad // a time type's date is one field (2024-01-02)
		}
		return p.setMonthName(m)
	}
	switch coreWord(w) {
	case weekdayWord:
		return nil // the day of the week is not checked
	case noiseWord:
		if p.mode == modeTime {
			return failBad // not in a time type's text
		}
		return nil // noise words
	case ampmWord:
		if f := p.mark(hasAMPM); f != nil {
			return f
		}
		p.am, p.pm = w == "am", w == "pm"
		return nil
	case eraWord:
		if f := p.mark(hasEra); f != nil {
			return f
		}
		p.bc = w == "bc"
		return nil
	case specialWord:
		return p.setSpecial(w)
	case dstWord:
		// after a standard-time abbreviation: its daylight time, an hour on
		if !p.zoneAbbrev {
			return failBad
		}
		p.zoneAbbrev = false
		p.zone.east += 3600
		return nil
	}
	if off, ok := zoneAbbrevs[strings.ToUpper(w)]; ok {
		if f := p.mark(hasZone); f != nil {
			return f
		}
		p.zone, p.zoneAbbrev = dtZone{east: off}, true
		return nil
	}
	if loc, _, ok := lookupZoneName(w); ok {
		if f := p.mark(hasZone); f != nil {
			return f
		}
		p.zone = dtZone{loc: loc}
		return nil
	}
	return failBad
}

// zoneName resolves a zone written with punctuation or digits: a tz
// database name or a POSIX zone; anything else is 22023.
func (p *dtParts) zoneName(name string) *dtFail {
	if f := p.mark(hasZone); f != nil {
		return f
	}
	if loc, _, ok := lookupZoneName(name); ok {
		p.zone = dtZone{loc: loc}
		return nil
	}
	if k := strings.IndexAny(name, "+-0123456789"); k > 0 && isLetter(name[0]) {
		// a POSIX zone: any name, then its offset west (pm-05:30 is
		// five and a half hours east)
		if secs, ok := parsePOSIXStd(name[k:]); ok {
			p.zone = dtZone{east: secs}
			return nil
		}
	}
	if strings.Contains(name, "_") || p.mode != modeTime && p.set&dateParts == 0 {
		// a date-bearing type reads a name it does not know as a zone
		// only after the date, and never one with an underscore that no
		// zone has: otherwise the text is no date at all ('a+b',
		// '10:00 a+b', '2020-01-01 abc_d' are 22007, '2020-01-01 a+b' is
		// the unknown zone)
		return failBad
	}
	return &dtFail{kind: dtZoneUnknown, zone: strings.ToLower(name)}
}

// finish checks the parts as B.1 steps 4 and 5 and the field ranges
// say, and fills in the date from a day of the year. The order of its
// checks is PostgreSQL's: AM/PM, the date's fields, whether the type's
// fields are all there, then the time of day.
func (p *dtParts) finish() *dtFail {
	switch p.special {
	case "epoch", "infinity", "-infinity", "now":
		return nil
	}
	if p.set&hasAMPM != 0 {
		if p.hour > 12 || p.hour < 0 {
			return failRange
		}
		switch {
		case p.am && p.hour == 12:
			p.hour = 0
		case p.pm && p.hour != 12:
			p.hour += 12
		}
	}
	if p.mode == modeTime && p.set&hasTime == 0 {
		return failBad // a time type without a time, whatever its date
	}
	if p.set&hasYear != 0 && !p.julianDate && p.special == "" {
		switch {
		case p.bc:
			if p.year <= 0 {
				return failRange
			}
			p.year = 1 - p.year // astronomical: 1 BC is year 0
		case p.yearDigits <= 2:
			// a two-digit year is 1970-2069
			if p.year < 70 {
				p.year += 2000
			} else {
				p.year += 1900
			}
		case p.year == 0:
			return failRange
		}
	}
	if p.set&hasDoy != 0 && p.set&hasYear != 0 && p.set&(hasMonth|hasDay) == 0 && p.special == "" {
		if p.doy < 1 || p.doy > 366 {
			return failRange
		}
		y, m, d := time.Date(int(p.year), 1, p.doy, 0, 0, 0, 0, time.UTC).Date()
		if int64(y) != p.year {
			return failRange
		}
		p.month, p.day, p.set = int(m), d, p.set|hasMonth|hasDay
	}
	styleRange := failRange
	if p.ambiguousDate {
		styleRange = &dtFail{kind: dtRangeStyle}
	}
	if p.special == "" && (p.set&hasMonth != 0 && (p.month < 1 || p.month > 12) || p.set&hasDay != 0 && (p.day < 1 || p.day > 31)) {
		return styleRange
	}
	complete := p.set&(hasYear|hasMonth|hasDay) == hasYear|hasMonth|hasDay
	if complete && p.special == "" && p.day > daysIn(time.Month(p.month), p.year) {
		return failRange
	}
	if p.mode == modeTime && p.runTogether && (p.hour > 24 || p.minute > 59 || p.second > 60) {
		return failRange // a time type checks a run-together time's fields; a timestamp adds them up
	}
	if (p.mode == modeTime || p.colonTime) && p.dayNanos() > USecsPerDay*1000 {
		return failRange // 24:00:00 at most (a run-together time in a timestamp adds up instead)
	}
	switch {
	case p.mode == modeDate && !complete:
		return failBad
	case p.mode == modeTime && (p.set&hasTime == 0 || p.anyDate() && !complete):
		return failBad
	}
	return nil
}

func daysIn(m time.Month, year int64) int {
	return time.Date(int(year%400)+2000, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// monthNumber is a month's number from its name or abbreviation (0: none).
func monthNumber(w string) int {
	return monthNames[w]
}

// wall is the parts' date and time as wall-clock fields in a UTC time
// (a second 60 and an hour 24 roll over into the next minute and day).
func (p *dtParts) wall() time.Time {
	return time.Date(int(p.year), time.Month(p.month), p.day, int(p.hour), int(p.minute), int(p.second), int(p.nanos), time.UTC)
}

// dayNanos is the parts' time of day in nanoseconds.
func (p *dtParts) dayNanos() int64 {
	return ((p.hour*60+p.minute)*60+p.second)*1e9 + p.nanos
}
