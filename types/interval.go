package types

import (
	"math"
	"math/bits"
	"strconv"
	"strings"
	"unicode"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Interval values are PostgreSQL's three fields (months, days, microseconds)
// held in Arrow's MonthDayNano layout with the nanoseconds a multiple of
// 1000. Arrow's nanosecond field is what bounds the time part: PostgreSQL
// keeps an int64 of microseconds, sqlgate an int64 of nanoseconds, so a time
// part beyond ±2,562,047:47:16.854775 (about 106,751 days of hours) fails
// with 22008 "interval out of range" instead of wrapping: in input, in
// arithmetic, in typmod rounding, everywhere a value is built
// (NewInterval, AdjustInterval). This is a documented restriction
// (tests/coverage/restrictions.go, docs/functions.md): the differential
// test accepts exactly this error where PostgreSQL's answer is beyond it.

// Microseconds per unit, as PostgreSQL's timestamp.h defines them.
const (
	USecsPerSecond = int64(1e6)
	USecsPerMinute = 60 * USecsPerSecond
	USecsPerHour   = 60 * USecsPerMinute
	USecsPerDay    = 24 * USecsPerHour
	// DaysPerMonth and the 24-hour day are PostgreSQL's conventions for
	// comparing and converting intervals.
	DaysPerMonth  = 30
	maxIntervalUS = math.MaxInt64 / 1000
)

// NewInterval builds an interval from PostgreSQL's fields, failing with
// 22008 when the microseconds do not fit Arrow's nanosecond field.
func NewInterval(months, days int64, us int64) (arrow.MonthDayNanoInterval, error) {
	if months != int64(int32(months)) || days != int64(int32(days)) || us > maxIntervalUS || us < -maxIntervalUS {
		return arrow.MonthDayNanoInterval{}, IntervalOutOfRange()
	}
	return arrow.MonthDayNanoInterval{Months: int32(months), Days: int32(days), Nanoseconds: us * 1000}, nil
}

// IntervalOutOfRange is PostgreSQL's error for an interval that overflows.
func IntervalOutOfRange() *sqlerr.Error {
	return sqlerr.New(sqlerr.DatetimeFieldOverflow, "interval out of range")
}

// AddIntervals is interval + interval, field by field (interval_pl).
func AddIntervals(a, b arrow.MonthDayNanoInterval) (arrow.MonthDayNanoInterval, error) {
	us, ok := AddInt64(IntervalMicros(a), IntervalMicros(b))
	if !ok {
		return arrow.MonthDayNanoInterval{}, IntervalOutOfRange()
	}
	return NewInterval(int64(a.Months)+int64(b.Months), int64(a.Days)+int64(b.Days), us)
}

// SubIntervals is interval - interval (interval_mi).
func SubIntervals(a, b arrow.MonthDayNanoInterval) (arrow.MonthDayNanoInterval, error) {
	us, ok := AddInt64(IntervalMicros(a), -IntervalMicros(b))
	if !ok {
		return arrow.MonthDayNanoInterval{}, IntervalOutOfRange()
	}
	return NewInterval(int64(a.Months)-int64(b.Months), int64(a.Days)-int64(b.Days), us)
}

// AddInt64 adds two int64s, reporting false on overflow.
func AddInt64(a, b int64) (int64, bool) {
	s := a + b
	if (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0) {
		return 0, false
	}
	return s, true
}

// MulInterval is interval * float8 (interval_mul): months and days scale
// and truncate, and their fractions cascade down to days and to time.
func MulInterval(v arrow.MonthDayNanoInterval, factor float64) (arrow.MonthDayNanoInterval, error) {
	return scaleInterval(v, func(x float64) float64 { return x * factor })
}

// DivInterval is interval / float8 (interval_div); it divides rather than
// multiplying by the reciprocal, as PostgreSQL does, so the last bit agrees.
func DivInterval(v arrow.MonthDayNanoInterval, divisor float64) (arrow.MonthDayNanoInterval, error) {
	if divisor == 0 {
		return arrow.MonthDayNanoInterval{}, sqlerr.DivideByZero()
	}
	return scaleInterval(v, func(x float64) float64 { return x / divisor })
}

// tsRound is PostgreSQL's TSROUND: round to microsecond precision.
func tsRound(x float64) float64 { return math.RoundToEven(x*1e6) / 1e6 }

func scaleInterval(span arrow.MonthDayNanoInterval, op func(float64) float64) (arrow.MonthDayNanoInterval, error) {
	fits32 := func(x float64) bool { return !math.IsNaN(x) && x <= math.MaxInt32 && x >= math.MinInt32 }
	m, d := op(float64(span.Months)), op(float64(span.Days))
	if !fits32(m) || !fits32(d) {
		return arrow.MonthDayNanoInterval{}, IntervalOutOfRange()
	}
	month, day := int32(m), int32(d)
	monthRemainderDays := tsRound((m - float64(month)) * DaysPerMonth)
	secRemainder := tsRound((d - float64(day) + monthRemainderDays - float64(int32(monthRemainderDays))) * 86400)
	if math.Abs(secRemainder) >= 86400 {
		whole := int32(secRemainder / 86400)
		day += whole
		secRemainder -= float64(whole) * 86400
	}
	day += int32(monthRemainderDays)
	t := math.RoundToEven(op(float64(IntervalMicros(span))) + secRemainder*1e6)
	if math.IsNaN(t) || t >= 9223372036854775807 || t < -9223372036854775808 {
		return arrow.MonthDayNanoInterval{}, IntervalOutOfRange()
	}
	return NewInterval(int64(month), int64(day), int64(t))
}

// IntervalMicros is the time part of an interval in microseconds.
func IntervalMicros(v arrow.MonthDayNanoInterval) int64 { return v.Nanoseconds / 1000 }

// CompareIntervals orders intervals as PostgreSQL does: by their span with
// 30-day months and 24-hour days, so '1 day' = '24 hours' and
// '1 mon' = '30 days'. The span is compared as (whole days, remaining
// microseconds) so that no product overflows.
func CompareIntervals(a, b arrow.MonthDayNanoInterval) int {
	ad, au := IntervalSpan(a)
	bd, bu := IntervalSpan(b)
	switch {
	case ad < bd:
		return -1
	case ad > bd:
		return 1
	case au < bu:
		return -1
	case au > bu:
		return 1
	}
	return 0
}

// IntervalSpan is an interval's span as whole days (months counted as 30)
// and microseconds in [0, 1 day): the key that equal intervals share.
func IntervalSpan(v arrow.MonthDayNanoInterval) (days, us int64) {
	us = IntervalMicros(v)
	days = int64(v.Months)*DaysPerMonth + int64(v.Days) + floorDiv(us, USecsPerDay)
	return days, us - floorDiv(us, USecsPerDay)*USecsPerDay
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// AppendInterval appends an interval in IntervalStyle postgres
// ("1 year 2 mons 3 days 04:05:06.789", "-1 days -00:00:01", "00:00:00").
// It follows EncodeInterval in PostgreSQL's datetime.c.
func AppendInterval(dst []byte, months, days int32, us int64) []byte {
	isZero, isBefore := true, false
	part := func(v int64, unit string) {
		if v == 0 {
			return
		}
		if !isZero {
			dst = append(dst, ' ')
		}
		if isBefore && v > 0 {
			dst = append(dst, '+')
		}
		dst = strconv.AppendInt(dst, v, 10)
		dst = append(dst, ' ')
		dst = append(dst, unit...)
		if v != 1 {
			dst = append(dst, 's')
		}
		isBefore = v < 0
		isZero = false
	}
	part(int64(months/12), "year")
	part(int64(months%12), "mon")
	part(int64(days), "day")
	if isZero || us != 0 {
		if !isZero {
			dst = append(dst, ' ')
		}
		switch {
		case us < 0:
			dst = append(dst, '-')
		case isBefore:
			dst = append(dst, '+')
		}
		abs := uint64(us)
		if us < 0 {
			abs = uint64(-us)
		}
		dst = appendTwo(dst, abs/uint64(USecsPerHour))
		dst = append(dst, ':')
		dst = appendTwo(dst, abs/uint64(USecsPerMinute)%60)
		dst = append(dst, ':')
		dst = appendTwo(dst, abs/uint64(USecsPerSecond)%60)
		dst = append(dst, fraction(int64(abs%uint64(USecsPerSecond)))...)
	}
	return dst
}

func appendTwo(dst []byte, v uint64) []byte {
	if v < 10 {
		dst = append(dst, '0')
	}
	return strconv.AppendUint(dst, v, 10)
}

// FormatInterval is AppendInterval into a string.
func FormatInterval(v arrow.MonthDayNanoInterval) string {
	return string(AppendInterval(nil, v.Months, v.Days, IntervalMicros(v)))
}

// intervalFields accumulates a parsed interval as PostgreSQL 15's
// pg_itm_in does: 64-bit microseconds, 32-bit days and months, each add
// checked for overflow.
type intervalFields struct {
	us          int64
	days, month int32
	// years is pg_itm_in's tm_year: it overflows on its own (22015), and
	// only its sum with the months can leave the interval's range (22008)
	years int32
}

func (f *intervalFields) addMicros(v int64) bool {
	s := f.us + v // wraps on overflow, detected below
	// signed overflow: both operands share a sign the result lacks
	if (f.us >= 0) == (v >= 0) && (s >= 0) != (v >= 0) {
		return false
	}
	f.us = s
	return true
}

func (f *intervalFields) addDays(v int64) bool {
	r := int64(f.days) + v
	if r != int64(int32(r)) {
		return false
	}
	f.days = int32(r)
	return true
}

func (f *intervalFields) addMonths(v int64) bool {
	r := int64(f.month) + v
	if r != int64(int32(r)) {
		return false
	}
	f.month = int32(r)
	return true
}

// mulAdd adds val*scale microseconds plus the fraction frac*scale rounded
// to a microsecond (PostgreSQL's AdjustMicroseconds).
func (f *intervalFields) addScaledMicros(val int64, frac float64, scale int64) bool {
	hi, lo := bits.Mul64(uint64(abs64(val)), uint64(scale))
	if hi != 0 || lo > math.MaxInt64 {
		return false
	}
	p := int64(lo)
	if val < 0 {
		p = -p
	}
	return f.addMicros(p) && f.addFracMicros(frac, scale)
}

// addFracMicros is PostgreSQL's AdjustFractMicroseconds.
func (f *intervalFields) addFracMicros(frac float64, scale int64) bool {
	if frac == 0 {
		return true
	}
	frac *= float64(scale)
	if frac > math.MaxInt64 || frac < math.MinInt64 {
		return false
	}
	us := int64(frac)
	frac -= float64(us)
	us += int64(math.RoundToEven(frac))
	return f.addMicros(us)
}

// addFracDays is PostgreSQL's AdjustFractDays.
func (f *intervalFields) addFracDays(frac float64, scale int) bool {
	if frac == 0 {
		return true
	}
	frac *= float64(scale)
	extra := int64(frac)
	if !f.addDays(extra) {
		return false
	}
	return f.addFracMicros(frac-float64(extra), USecsPerDay)
}

// addYears adds val*scale years plus PostgreSQL's rounding of the fraction
// to whole months (AdjustYears, AdjustFractYears).
func (f *intervalFields) addYears(val int64, frac float64, scale int64) bool {
	y := int64(f.years) + val*scale
	if val != int64(int32(val)) || y != int64(int32(y)) {
		return false
	}
	f.years = int32(y)
	return f.addMonths(int64(math.RoundToEven(frac * float64(scale) * 12)))
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// intervalUnit is a unit word of PostgreSQL's interval input (deltatktbl),
// looked up by its first ten characters as PostgreSQL does (TOKMAXLEN).
type intervalUnit int

const (
	unitNone intervalUnit = iota
	unitMicrosecond
	unitMillisecond
	unitSecond
	unitMinute
	unitHour
	unitDay
	unitWeek
	unitMonth
	unitYear
	unitDecade
	unitCentury
	unitMillennium
)

var intervalUnitWords = map[string]intervalUnit{
	"microsecon": unitMicrosecond, "us": unitMicrosecond, "usec": unitMicrosecond, "usecs": unitMicrosecond,
	"usecond": unitMicrosecond, "useconds": unitMicrosecond,
	"millisecon": unitMillisecond, "ms": unitMillisecond, "msec": unitMillisecond, "msecs": unitMillisecond,
	"msecond": unitMillisecond, "mseconds": unitMillisecond,
	"s": unitSecond, "sec": unitSecond, "secs": unitSecond, "second": unitSecond, "seconds": unitSecond,
	"m": unitMinute, "min": unitMinute, "mins": unitMinute, "minute": unitMinute, "minutes": unitMinute,
	"h": unitHour, "hr": unitHour, "hrs": unitHour, "hour": unitHour, "hours": unitHour,
	"d": unitDay, "day": unitDay, "days": unitDay,
	"w": unitWeek, "week": unitWeek, "weeks": unitWeek,
	"mon": unitMonth, "mons": unitMonth, "month": unitMonth, "months": unitMonth,
	"y": unitYear, "yr": unitYear, "yrs": unitYear, "year": unitYear, "years": unitYear,
	"dec": unitDecade, "decs": unitDecade, "decade": unitDecade, "decades": unitDecade,
	"c": unitCentury, "cent": unitCentury, "century": unitCentury, "centuries": unitCentury,
	"mil": unitMillennium, "mils": unitMillennium, "millennium": unitMillennium, "millennia": unitMillennium,
	"qtr": unitNoNumber, "quarter": unitNoNumber, "timezone": unitNoNumber,
}

func lookupIntervalUnit(w string) intervalUnit {
	if len(w) > 10 {
		w = w[:10]
	}
	return intervalUnitWords[w]
}

// ParseInterval reads PostgreSQL's interval input: the postgres and
// postgres_verbose forms ("1 year 2 mons -3 days +04:05:06.5", "@ 1 hour
// ago", "1.5 weeks"), SQL-standard fields ("1-2" years-months, "3 4:05:06"
// days and time) and ISO 8601 designators ("P1Y2M3DT4H5M6S"). Errors are
// PostgreSQL's: 22007 for bad syntax, 22015 for a field out of range.
func ParseInterval(s string) (arrow.MonthDayNanoInterval, error) {
	return parseIntervalRange(s, 0, IntervalPostgres)
}

// ParseIntervalIn is ParseInterval in a session whose IntervalStyle is
// st: in sql_standard a leading minus with no other sign makes every
// field negative ('-1 2:00:00' is minus a day and two hours), as
// DecodeInterval reads it.
func ParseIntervalIn(s string, st IntervalStyle) (arrow.MonthDayNanoInterval, error) {
	return parseIntervalRange(s, 0, st)
}

// parseIntervalRange is ParseInterval under a field qualifier (INTERVAL
// '1' DAY): a bare number counts the range's last field, and with MINUTE
// TO SECOND "1:30" is minutes and seconds, as DecodeInterval reads them.
// The qualifier's truncation is AdjustInterval's.
func parseIntervalRange(s string, r IntervalRange, st IntervalStyle) (arrow.MonthDayNanoInterval, error) {
	in := strings.TrimSpace(s)
	bad := func() (arrow.MonthDayNanoInterval, error) {
		return arrow.MonthDayNanoInterval{}, sqlerr.New(sqlerr.InvalidDatetimeFormat, "invalid input syntax for type interval: %q", s)
	}
	overflow := func() (arrow.MonthDayNanoInterval, error) {
		return arrow.MonthDayNanoInterval{}, sqlerr.New(sqlerr.IntervalFieldOverflow, "interval field value out of range: %q", s)
	}
	var f intervalFields
	var ok, syntax bool
	if len(s) > 1 && s[0] == 'P' {
		// ISO 8601 from the first character on, in capitals: " P1Y"
		// and "p1y" are no interval. PostgreSQL reads it only once
		// DecodeInterval has found bad syntax in the text: a field out
		// of range there (P1Y -3-13, read from the last field back) is
		// its error
		var g intervalFields
		if fits, pgSyntax := parsePostgresInterval(strings.ToLower(in), &g, r, st == IntervalSQLStandard); pgSyntax && !fits {
			return overflow()
		}
		ok, syntax = parseISOInterval(s[1:], &f)
	} else {
		ok, syntax = parsePostgresInterval(strings.ToLower(in), &f, r, st == IntervalSQLStandard)
	}
	switch {
	case !syntax:
		return bad()
	case !ok:
		return overflow()
	}
	// within PostgreSQL's range but beyond the nanoseconds' is sqlgate's
	// restriction, reported as NewInterval reports it everywhere (22008)
	return NewInterval(int64(f.years)*12+int64(f.month), int64(f.days), f.us)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

type numberStatus int

const (
	numberOK numberStatus = iota
	numberBad
	numberTooBig
)

// parseIntervalNumber is ParseISO8601Number on a number isoNumberEnd
// found: its value as strtod reads it, split into a whole part and a
// fraction of the same sign. A value strtod cannot hold (1e400, 1e-400)
// is bad syntax; beyond 1e15 either way, infinities and NaN are too big.
func parseIntervalNumber(s string) (val int64, frac float64, status numberStatus) {
	v, ok := strtodValue(s)
	if !ok {
		return 0, 0, numberBad
	}
	if math.IsNaN(v) || v < -1e15 || v > 1e15 {
		return 0, 0, numberTooBig
	}
	val = int64(v)
	return val, v - float64(val), numberOK
}

// strtodPrefix is the length of what C's strtod reads at the start of s
// (no blanks before): a sign, then inf, infinity, nan[(...)], a hex
// number (0x, digits, a point, a p exponent) or a decimal one (digits, a
// point, an e exponent); 0 for nothing.
func strtodPrefix(s string) int {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	rest := strings.ToLower(s[i:])
	switch {
	case strings.HasPrefix(rest, "infinity"):
		return i + 8
	case strings.HasPrefix(rest, "inf"):
		return i + 3
	case strings.HasPrefix(rest, "nan"):
		j := i + 3
		if j < len(s) && s[j] == '(' {
			k := j + 1
			for k < len(s) && (isAlnumC(s[k]) || s[k] == '_') {
				k++
			}
			if k < len(s) && s[k] == ')' {
				return k + 1
			}
		}
		return j
	}
	hex := len(rest) >= 2 && rest[0] == '0' && rest[1] == 'x'
	digit, exp := isDigit, byte('e')
	j := i
	if hex {
		j += 2
		digit, exp = isHexDigitC, 'p'
	}
	digits := 0
	for j < len(s) && digit(s[j]) {
		j++
		digits++
	}
	if j < len(s) && s[j] == '.' {
		j++
		for j < len(s) && digit(s[j]) {
			j++
			digits++
		}
	}
	if digits == 0 {
		if hex {
			return i + 1 // "0x" alone: the 0
		}
		return 0
	}
	if j < len(s) && lowerC(s[j]) == exp {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < len(s) && isDigit(s[k]) {
			for k < len(s) && isDigit(s[k]) {
				k++
			}
			j = k
		}
	}
	return j
}

func isHexDigitC(c byte) bool { return isDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'f' }

// strtodValue is strtod's value of a whole strtodPrefix; ok is false
// where strtod sets ERANGE (overflow, or underflow to zero or a
// subnormal).
func strtodValue(s string) (float64, bool) {
	body := strings.ToLower(strings.TrimLeft(s, "+-"))
	if strings.HasPrefix(body, "nan") {
		return math.NaN(), true
	}
	if strings.HasPrefix(body, "inf") {
		if strings.HasPrefix(s, "-") {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	}
	mantissa, expMark, t := body, "e", s
	if strings.HasPrefix(body, "0x") {
		mantissa, expMark = body[2:], "p"
		if !strings.Contains(body, "p") {
			t += "p0" // Go wants a hex number's exponent
		}
	}
	mantissa, _, _ = strings.Cut(mantissa, expMark)
	v, err := strconv.ParseFloat(t, 64)
	if err != nil {
		return 0, false
	}
	if math.Abs(v) < 0x1p-1022 && strings.ContainsAny(mantissa, "123456789abcdef") {
		return 0, false // underflow
	}
	return v, true
}

// parseISOInterval reads ISO 8601 after the 'P' (8.5.4): the format with
// designators (nY nM nW nD, then after T nH nM nS) and the alternative
// format (Y-M-D or YYYYMMDD, then after T H:M:S or HHMMSS), each number
// with its own sign and fraction. A part that used designators takes no
// alternative-format fields after them (P1Y2 is no interval).
func parseISOInterval(s string, f *intervalFields) (bool, bool) {
	datePart := true
	designated := false
	for len(s) > 0 {
		if s[0] == 'T' {
			if !datePart {
				return true, false
			}
			datePart, designated = false, false
			s = s[1:]
			continue
		}
		j := isoNumberEnd(s)
		if j == 0 {
			return true, false
		}
		num, rest := s[:j], s[j:]
		// the number is read (and refused) before what follows it
		val, frac, status := parseIntervalNumber(num)
		if status != numberOK {
			return status != numberTooBig, status == numberTooBig
		}
		if rest == "" || rest[0] == 'T' || datePart && rest[0] == '-' || !datePart && rest[0] == ':' {
			if designated {
				return true, false
			}
			var fits, ok bool
			if datePart {
				fits, ok, s = isoAlternativeDate(num, rest, f)
			} else {
				fits, ok, s = isoAlternativeTime(num, rest, f)
			}
			if !ok || !fits {
				return fits, ok
			}
			if s != "" && s[0] != 'T' {
				return true, false
			}
			continue
		}
		unit := rest[0] // designators are capitals
		s = rest[1:]
		designated = true
		fits := true
		if datePart {
			switch unit {
			case 'Y':
				fits = f.addYears(val, frac, 1)
			case 'M':
				fits = f.addMonths(val) && f.addFracDays(frac, DaysPerMonth)
			case 'W':
				fits = val == int64(int32(val)) && f.addDays(val*7) && f.addFracDays(frac, 7)
			case 'D':
				fits = f.addDays(val) && f.addFracMicros(frac, USecsPerDay)
			default:
				return true, false
			}
		} else {
			switch unit {
			case 'H':
				fits = f.addScaledMicros(val, frac, USecsPerHour)
			case 'M':
				fits = f.addScaledMicros(val, frac, USecsPerMinute)
			case 'S':
				fits = f.addScaledMicros(val, frac, USecsPerSecond)
			default:
				return true, false
			}
		}
		if !fits {
			return false, true
		}
	}
	return true, true
}

// isoNumberEnd is the length of the number at the start of s as
// ParseISO8601Number reads it: what strtod takes (strtodPrefix), which
// must start with a digit, '-' or '.'; 0 for none.
func isoNumberEnd(s string) int {
	if s == "" || !(isDigit(s[0]) || s[0] == '-' || s[0] == '.') {
		return 0
	}
	return strtodPrefix(s)
}

// isoAlternativeDate reads the alternative format's date part from its
// first number: Y-M-D (as many fields as written, each with its own sign
// and fraction), or eight digits YYYYMMDD, or else a count of years. The
// months and days are not bounded (P2024-13 is 2025 years 1 mon). It
// returns what is left of the text.
func isoAlternativeDate(first, rest string, f *intervalFields) (fits, ok bool, left string) {
	nums := []string{first}
	for len(nums) < 3 && len(rest) > 1 && rest[0] == '-' {
		j := isoNumberEnd(rest[1:])
		if j == 0 {
			return true, false, ""
		}
		nums = append(nums, rest[1:1+j])
		rest = rest[1+j:]
	}
	if rest != "" && rest[0] != 'T' {
		return true, false, ""
	}
	if whole, frac, _ := strings.Cut(first, "."); len(nums) == 1 && len(whole) == 8 && scanDigits(whole, 0) == 8 {
		// basic format: YYYYMMDD, a fraction of the days after it
		nums = []string{whole[:4], whole[4:6], whole[6:]}
		if frac != "" {
			nums[2] += "." + frac
		}
	}
	for k, num := range nums {
		val, fr, status := parseIntervalNumber(num)
		if status != numberOK {
			return status != numberTooBig, status == numberTooBig, ""
		}
		switch k {
		case 0:
			fits = f.addYears(val, fr, 1)
		case 1:
			fits = f.addMonths(val) && f.addFracDays(fr, DaysPerMonth)
		default:
			fits = f.addDays(val) && f.addFracMicros(fr, USecsPerDay)
		}
		if !fits {
			return false, true, ""
		}
	}
	return true, true, rest
}

// isoAlternativeTime reads the alternative format's time part: H:M:S
// (each with its own sign and fraction), six digits HHMMSS, or else a
// count of hours.
func isoAlternativeTime(first, rest string, f *intervalFields) (fits, ok bool, left string) {
	nums := []string{first}
	for len(nums) < 3 && len(rest) > 1 && rest[0] == ':' {
		j := isoNumberEnd(rest[1:])
		if j == 0 {
			return true, false, ""
		}
		nums = append(nums, rest[1:1+j])
		rest = rest[1+j:]
	}
	if rest != "" {
		return true, false, ""
	}
	if whole, _, _ := strings.Cut(first, "."); len(nums) == 1 && len(whole) == 6 && scanDigits(whole, 0) == 6 {
		// basic format: HHMMSS (PostgreSQL 15 drops a fraction here)
		nums = []string{whole[:2], whole[2:4], whole[4:]}
	}
	scales := []int64{USecsPerHour, USecsPerMinute, USecsPerSecond}
	for k, num := range nums {
		val, fr, status := parseIntervalNumber(num)
		if status != numberOK {
			return status != numberTooBig, status == numberTooBig, ""
		}
		if !f.addScaledMicros(val, fr, scales[k]) {
			return false, true, ""
		}
	}
	return true, true, rest
}

// intervalToken is one field of the postgres form as PostgreSQL's
// ParseDateTime cuts it: signed is a field that began with + or - (its
// DTK_TZ), clock one whose digits ran into a colon (DTK_TIME), word one of
// letters (DTK_STRING).
type intervalToken struct {
	text                string
	signed, clock, word bool
	// bad is a field DecodeInterval refuses when it reaches it (a word
	// run into a date, a sign before a word), after the fields to its
	// right, whose own errors come first
	bad bool
}

// dateTokenWords are the words of PostgreSQL's datetktbl (its core
// date/time keywords): only they may run straight into a digit or + and
// end there ("1d2h", "jan0-12": the word, then a number field); any other
// word that does is read as a date and refused (ParseDateTime). A word
// of them that is no interval unit ("jan") is refused too, but only when
// DecodeInterval reaches it, after the fields to its right.
var dateTokenWords = map[string]bool{
	"ad": true, "allballs": true, "am": true, "apr": true, "april": true, "at": true, "aug": true, "august": true,
	"bc": true, "d": true, "dec": true, "december": true, "dow": true, "doy": true, "dst": true, "epoch": true,
	"feb": true, "february": true, "fri": true, "friday": true, "h": true, "infinity": true, "isodow": true,
	"isoyear": true, "j": true, "jan": true, "january": true, "jd": true, "jul": true, "julian": true, "july": true,
	"jun": true, "june": true, "m": true, "mar": true, "march": true, "may": true, "mm": true, "mon": true,
	"monday": true, "nov": true, "november": true, "now": true, "oct": true, "october": true, "on": true, "pm": true,
	"s": true, "sat": true, "saturday": true, "sep": true, "sept": true, "september": true, "sun": true,
	"sunday": true, "t": true, "thu": true, "thur": true, "thurs": true, "thursday": true, "today": true,
	"tomorrow": true, "tue": true, "tues": true, "tuesday": true, "wed": true, "wednesday": true, "weds": true,
	"y": true, "yesterday": true,
}

// splitIntervalFields cuts the postgres form (lower-cased) into fields as
// ParseDateTime does: whitespace and punctuation other than a sign only
// separate fields, a sign takes the whitespace after it and must be
// followed by a digit, a number runs on into a clock (digits, colons,
// points) or a date-like field (1-2, 1.5, 1/2), a word that runs into a
// digit, +, -, / or . is one date-like field. ok is false where
// ParseDateTime refuses the text.
func splitIntervalFields(s string) (out []intervalToken, ok bool) {
	i := 0
	for i < len(s) {
		c := s[i]
		start := i
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			i++
		case isDigit(c):
			for i < len(s) && isDigit(s[i]) {
				i++
			}
			tok := intervalToken{}
			switch {
			case i < len(s) && s[i] == ':':
				tok.clock = true
				for i < len(s) && (isDigit(s[i]) || s[i] == ':' || s[i] == '.') {
					i++
				}
			case i < len(s) && (s[i] == '-' || s[i] == '/' || s[i] == '.'):
				dp := s[i]
				i++
				if i < len(s) && isDigit(s[i]) {
					for i < len(s) && isDigit(s[i]) {
						i++
					}
					if i < len(s) && s[i] == dp {
						for i < len(s) && (isDigit(s[i]) || s[i] == dp) {
							i++
						}
					}
				} else {
					for i < len(s) && (isDigit(s[i]) || s[i] >= 'a' && s[i] <= 'z' || s[i] == dp) {
						i++
					}
				}
			}
			tok.text = s[start:i]
			out = append(out, tok)
		case c == '.':
			i++
			for i < len(s) && isDigit(s[i]) {
				i++
			}
			out = append(out, intervalToken{text: s[start:i]})
		case c >= 'a' && c <= 'z':
			for i < len(s) && s[i] >= 'a' && s[i] <= 'z' {
				i++
			}
			word := s[start:i]
			if i < len(s) && (s[i] == '-' || s[i] == '/' || s[i] == '.' ||
				(s[i] == '+' || isDigit(s[i])) && !dateTokenWords[word]) {
				// a date such as "jan-02": no interval field
				for i < len(s) && (s[i] == '+' || s[i] == '-' || s[i] == '/' || s[i] == '_' || s[i] == '.' || s[i] == ':' ||
					isDigit(s[i]) || s[i] >= 'a' && s[i] <= 'z') {
					i++
				}
				out = append(out, intervalToken{text: s[start:i], bad: true})
				continue
			}
			out = append(out, intervalToken{text: word, word: true})
		case c == '+' || c == '-':
			i++
			for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == '\v' || s[i] == '\f') {
				i++
			}
			if i < len(s) && s[i] >= 'a' && s[i] <= 'z' {
				// a special value ("-infinity"), which no interval is
				for i < len(s) && s[i] >= 'a' && s[i] <= 'z' {
					i++
				}
				out = append(out, intervalToken{text: s[start:i], bad: true})
				continue
			}
			if i >= len(s) || !isDigit(s[i]) {
				return nil, false
			}
			digits := i
			for i < len(s) && (isDigit(s[i]) || s[i] == ':' || s[i] == '.' || s[i] == '-') {
				i++
			}
			text := string(c) + s[digits:i]
			out = append(out, intervalToken{text: text, signed: true, clock: strings.Contains(text, ":")})
		case c < 0x80 && unicode.IsPunct(rune(c)) || c < 0x80 && unicode.IsSymbol(rune(c)):
			i++ // ispunct: a separator
		default:
			return nil, false
		}
	}
	return out, true
}

// intervalFieldMask is a bit per field of DecodeInterval's fmask: a field
// given twice is an error, the seconds with a fraction claim the
// milliseconds and microseconds too, and a clock claims the time fields.
type intervalFieldMask uint16

const (
	maskMicrosecond intervalFieldMask = 1 << iota
	maskMillisecond
	maskSecond
	maskMinute
	maskHour
	maskDay
	maskWeek
	maskMonth
	maskYear
	maskDecade
	maskCentury
	maskMillennium

	maskAllSeconds = maskSecond | maskMillisecond | maskMicrosecond
	maskClock      = maskHour | maskMinute | maskAllSeconds
)

// unitNoNumber is the unit "ago", "quarter" and "timezone" leave for the
// number before them: none, so "5 ago" and "1 quarter" are refused as
// PostgreSQL refuses them, while the words alone are accepted.
const unitNoNumber intervalUnit = -1

// parsePostgresInterval follows DecodeInterval: fields are read from last
// to first; a unit word sets the unit of the numbers before it (until
// another word), a clock or an hour count makes the number before it days,
// a number before any word counts the range's last field (seconds), and
// "ago" anywhere negates the whole. It returns (fits, well-formed).
func parsePostgresInterval(s string, f *intervalFields, r IntervalRange, sqlStandard bool) (bool, bool) {
	fields, ok := splitIntervalFields(s)
	if !ok || len(fields) == 0 {
		return true, false
	}
	unit := unitNone
	var fmask intervalFieldMask
	ago := false
	for i := len(fields) - 1; i >= 0; i-- {
		fld := fields[i]
		var tmask intervalFieldMask
		if fld.bad {
			return true, false
		}
		if fld.word {
			if fld.text == "ago" {
				ago, unit = true, unitNoNumber
				continue
			}
			u := lookupIntervalUnit(fld.text)
			if u == unitNone {
				return true, false
			}
			unit = u
			continue
		}
		if fld.clock {
			body := fld.text
			if fld.signed {
				body = body[1:]
			}
			us, status := parseIntervalClock(body, r == IntervalMinute|IntervalSecond)
			switch {
			case status == numberOK:
				if fld.signed && fld.text[0] == '-' {
					us = -us
				}
				// DecodeTimeForInterval sets the microseconds rather than
				// adding to them: the fields it could add to are its own
				f.us = us
				unit = unitDay
				tmask = maskClock
			case fld.signed:
				// a signed field that is no clock is read as a number
				// ("-0-59:" is years and months out of range), which its
				// colon makes malformed if nothing else does first
				if unit == unitNone {
					unit = r.bareUnit()
				}
				fits, good, _, _ := addIntervalNumber(f, fld.text, unit)
				if fits && good {
					return true, false
				}
				return fits, good
			default:
				return status != numberTooBig, status == numberTooBig
			}
		} else {
			if unit == unitNone {
				unit = r.bareUnit()
			}
			var fits, good bool
			fits, good, tmask, unit = addIntervalNumber(f, fld.text, unit)
			if !fits || !good {
				return fits, good
			}
		}
		if tmask&fmask != 0 {
			return true, false // the same field twice
		}
		fmask |= tmask
	}
	if fmask == 0 {
		return true, false
	}
	if sqlStandard && leadingMinusOnly(fields) {
		// IntervalStyle sql_standard: '-1 2:00:00' is minus a day and two
		// hours, the one sign applying to every field (before AGO)
		if f.us > 0 {
			f.us = -f.us
		}
		if f.days > 0 {
			f.days = -f.days
		}
		if f.month > 0 {
			f.month = -f.month
		}
		if f.years > 0 {
			f.years = -f.years
		}
	}
	if ago {
		if f.us == math.MinInt64 || f.days == math.MinInt32 || f.month == math.MinInt32 || f.years == math.MinInt32 {
			return false, true
		}
		f.us, f.days, f.month, f.years = -f.us, -f.days, -f.month, -f.years
	}
	return true, true
}

// leadingMinusOnly reports whether the first field is negative and no
// other field has a sign of its own.
func leadingMinusOnly(fields []intervalToken) bool {
	if len(fields) == 0 || fields[0].text == "" || fields[0].text[0] != '-' {
		return false
	}
	for _, f := range fields[1:] {
		if f.text != "" && (f.text[0] == '-' || f.text[0] == '+') {
			return false
		}
	}
	return true
}

// addIntervalNumber adds one number field in unit as DecodeInterval's
// DTK_NUMBER case does: "y-m" is years and months (the months 0-11), a
// fraction spreads into the smaller units, and the unit for the next
// field to the left is returned (days after hours, else the same).
func addIntervalNumber(f *intervalFields, text string, unit intervalUnit) (fits, ok bool, tmask intervalFieldMask, next intervalUnit) {
	next = unit
	neg := text[0] == '-'
	body := text
	if body[0] == '+' || body[0] == '-' {
		body = body[1:]
	}
	j := 0
	for j < len(body) && isDigit(body[j]) {
		j++
	}
	var val int64
	if j > 0 {
		v, err := strconv.ParseInt(body[:j], 10, 64)
		if err != nil && !(neg && body[:j] == "9223372036854775808") {
			return false, true, 0, next
		}
		val = v
		if err != nil {
			val = math.MinInt64
		} else if neg {
			val = -v
		}
	}
	rest := body[j:]
	var frac float64
	switch {
	case rest == "":
	case rest[0] == '-':
		// SQL-standard years-months; the months are read by strtoint,
		// which takes a sign, and checked before what follows them
		k := 1
		if k < len(rest) && (rest[k] == '+' || rest[k] == '-') {
			k++
		}
		digits := k
		for k < len(rest) && isDigit(rest[k]) {
			k++
		}
		m, err := strconv.ParseInt(rest[1:k], 10, 32)
		if k == digits {
			m, err, k = 0, nil, 1 // no digits: 0, and the text goes on at the sign
		}
		if err != nil || m < 0 || m > 11 {
			return false, true, 0, next
		}
		if k != len(rest) {
			return true, false, 0, next
		}
		if neg {
			m = -m
		}
		total := val*12 + m
		if float64(val)*12+float64(m) > math.MaxInt32 || float64(val)*12+float64(m) < math.MinInt32 {
			return false, true, 0, next
		}
		val, unit, next = total, unitMonth, unitMonth
	case rest[0] == '.':
		if len(rest) > 1 {
			for k := 1; k < len(rest); k++ {
				if !isDigit(rest[k]) {
					return true, false, 0, next
				}
			}
			fv, err := strconv.ParseFloat("0"+rest, 64)
			if err != nil {
				return true, false, 0, next
			}
			frac = fv
		}
		if neg {
			frac = -frac
		}
	default:
		return true, false, 0, next
	}
	fits = true
	switch unit {
	case unitMicrosecond:
		fits, tmask = f.addScaledMicros(val, frac, 1), maskMicrosecond
	case unitMillisecond:
		fits, tmask = f.addScaledMicros(val, frac, 1000), maskMillisecond
	case unitSecond:
		fits, tmask = f.addScaledMicros(val, frac, USecsPerSecond), maskSecond
		if frac != 0 {
			tmask = maskAllSeconds
		}
	case unitMinute:
		fits, tmask = f.addScaledMicros(val, frac, USecsPerMinute), maskMinute
	case unitHour:
		fits, tmask, next = f.addScaledMicros(val, frac, USecsPerHour), maskHour, unitDay
	case unitDay:
		fits, tmask = f.addDays(val) && f.addFracMicros(frac, USecsPerDay), maskDay
	case unitWeek:
		fits, tmask = val == int64(int32(val)) && f.addDays(val*7) && f.addFracDays(frac, 7), maskWeek
	case unitMonth:
		fits, tmask = f.addMonths(val) && f.addFracDays(frac, DaysPerMonth), maskMonth
	case unitYear:
		fits, tmask = f.addYears(val, frac, 1), maskYear
	case unitDecade:
		fits, tmask = f.addYears(val, frac, 10), maskDecade
	case unitCentury:
		fits, tmask = f.addYears(val, frac, 100), maskCentury
	case unitMillennium:
		fits, tmask = f.addYears(val, frac, 1000), maskMillennium
	default: // after "ago"
		return true, false, 0, next
	}
	return fits, true, tmask, next
}

// parseIntervalClock reads a clock field without its sign as PostgreSQL
// 15's DecodeTimeCommon: "h:m", "h:m:s[.f]", missing numbers zero ("1:",
// "1::2"), and "m:s.f" (or "m:s" under MINUTE TO SECOND) for two fields;
// minutes above 59 or seconds above 60 are out of range (numberTooBig),
// anything else malformed (numberBad).
func parseIntervalClock(s string, minuteSecond bool) (int64, numberStatus) {
	// num reads strtoint's digits at the start of s (none: 0)
	num := func(s string, limit int64) (int64, string, numberStatus) {
		j := 0
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j == 0 {
			return 0, s, numberOK
		}
		v, err := strconv.ParseInt(s[:j], 10, 64)
		if err != nil || v > limit {
			return 0, s, numberTooBig
		}
		return v, s[j:], numberOK
	}
	h, rest, st := num(s, math.MaxInt64)
	if st != numberOK {
		return 0, st
	}
	if rest == "" || rest[0] != ':' {
		return 0, numberBad
	}
	m, rest, st := num(rest[1:], math.MaxInt32)
	if st != numberOK {
		return 0, st
	}
	var sec, fsec int64
	fraction := func(s string) (int64, numberStatus) {
		// ParseFractionalSecond: strtod of the whole rest
		for k := 1; k < len(s); k++ {
			if !isDigit(s[k]) {
				return 0, numberBad
			}
		}
		if len(s) == 1 {
			return 0, numberOK // a point alone is no fraction
		}
		fv, err := strconv.ParseFloat("0"+s, 64)
		if err != nil {
			return 0, numberBad
		}
		return int64(math.RoundToEven(fv * 1e6)), numberOK
	}
	switch {
	case rest == "":
		if minuteSecond {
			if h > math.MaxInt32 {
				return 0, numberTooBig
			}
			h, m, sec = 0, h, m
		}
	case rest[0] == '.':
		// m:s.fff is always minutes and seconds
		if fsec, st = fraction(rest); st != numberOK {
			return 0, st
		}
		if h > math.MaxInt32 {
			return 0, numberTooBig
		}
		h, m, sec = 0, h, m
	case rest[0] == ':':
		if sec, rest, st = num(rest[1:], math.MaxInt32); st != numberOK {
			return 0, st
		}
		switch {
		case rest == "":
		case rest[0] == '.':
			if fsec, st = fraction(rest); st != numberOK {
				return 0, st
			}
		default:
			return 0, numberBad
		}
	default:
		return 0, numberBad
	}
	if m > 59 || sec > 60 || fsec > 1_000_000 {
		return 0, numberTooBig
	}
	hi, lo := bits.Mul64(uint64(h), uint64(USecsPerHour))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, numberTooBig
	}
	us, ok := AddInt64(int64(lo), m*USecsPerMinute+sec*USecsPerSecond+fsec)
	if !ok {
		return 0, numberTooBig
	}
	return us, numberOK
}
