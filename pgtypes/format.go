package pgtypes

import (
	"math"
	"math/bits"
	"strconv"
	"time"

	"github.com/sqlgate/sqlgate/types"
)

// This file holds the text renderings of scalar values, byte for byte as
// PostgreSQL 15 prints them with DateStyle=ISO, IntervalStyle=postgres,
// extra_float_digits=1 and TimeZone=UTC.

// AppendFloat64 appends v as PostgreSQL's float8out prints it by default
// (types.AppendFloatText under extra_float_digits 1): the shortest string
// that reads back to v, in plain notation when its decimal exponent is in
// [-4, 15) and in C's %e style otherwise.
func AppendFloat64(dst []byte, v float64) []byte {
	return types.AppendFloatText(dst, v, 64, types.FloatDigits{})
}

// AppendFloat32 appends v as float4out prints it by default (plain when
// the exponent is in [-4, 6)).
func AppendFloat32(dst []byte, v float32) []byte {
	return types.AppendFloatText(dst, float64(v), 32, types.FloatDigits{})
}

const hexDigits = "0123456789abcdef"

// AppendByteaHex appends b in bytea's hex output format (\x0aff).
func AppendByteaHex(dst, b []byte) []byte {
	dst = append(dst, '\\', 'x')
	for _, c := range b {
		dst = append(dst, hexDigits[c>>4], hexDigits[c&15])
	}
	return dst
}

// Microsecond constants.
const (
	usPerSecond = int64(1_000_000)
	usPerMinute = 60 * usPerSecond
	usPerHour   = 60 * usPerMinute
	usPerDay    = 24 * usPerHour
	// unixToPGEpochDays is the number of days from 1970-01-01 to 2000-01-01,
	// PostgreSQL's epoch for binary dates and timestamps.
	unixToPGEpochDays = 10957
	unixToPGEpochUs   = unixToPGEpochDays * usPerDay
)

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// civilFromDays converts days since 1970-01-01 to a proleptic Gregorian
// (astronomical: year 0 = 1 BC) date; Howard Hinnant's algorithm.
func civilFromDays(z int64) (year int64, month, day int) {
	z += 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return y, int(m), int(d)
}

// daysFromCivil is civilFromDays's inverse.
func daysFromCivil(y int64, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400
	mm := int64(m)
	if m > 2 {
		mm -= 3
	} else {
		mm += 9
	}
	doy := (153*mm+2)/5 + int64(d) - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

func appendPadded(dst []byte, v int64, width int) []byte {
	// Fast paths for the two- and four-digit fields of every date and time.
	switch {
	case width == 2 && v >= 0 && v < 100:
		return append(dst, byte('0'+v/10), byte('0'+v%10))
	case width == 4 && v >= 0 && v < 10000:
		return append(dst, byte('0'+v/1000), byte('0'+v/100%10), byte('0'+v/10%10), byte('0'+v%10))
	}
	var buf [20]byte
	s := strconv.AppendInt(buf[:0], v, 10)
	for i := len(s); i < width; i++ {
		dst = append(dst, '0')
	}
	return append(dst, s...)
}

// appendDateParts appends YYYY-MM-DD for days since 1970-01-01 and reports
// whether the year is BC (the caller appends " BC" after any time part, as
// PostgreSQL does).
func appendDateParts(dst []byte, days int64) ([]byte, bool) {
	y, m, d := civilFromDays(days)
	bc := y <= 0
	if bc {
		y = 1 - y
	}
	dst = appendPadded(dst, y, 4)
	dst = append(dst, '-')
	dst = appendPadded(dst, int64(m), 2)
	dst = append(dst, '-')
	dst = appendPadded(dst, int64(d), 2)
	return dst, bc
}

// AppendDate appends a date given as days since 1970-01-01 ("2024-01-02",
// "0044-03-15 BC").
func AppendDate(dst []byte, days int64) []byte {
	switch days {
	case math.MaxInt32:
		return append(dst, "infinity"...)
	case math.MinInt32:
		return append(dst, "-infinity"...)
	}
	dst, bc := appendDateParts(dst, days)
	if bc {
		dst = append(dst, " BC"...)
	}
	return dst
}

// appendClock appends HH:MM:SS[.ffffff] for us microseconds (0 <= us, hours
// may exceed 23 for intervals), trailing fractional zeros trimmed.
func appendClock(dst []byte, us int64) []byte {
	dst = appendPadded(dst, us/usPerHour, 2)
	dst = append(dst, ':')
	dst = appendPadded(dst, us/usPerMinute%60, 2)
	dst = append(dst, ':')
	dst = appendPadded(dst, us/usPerSecond%60, 2)
	return appendFraction(dst, us%usPerSecond)
}

func appendFraction(dst []byte, frac int64) []byte {
	if frac == 0 {
		return dst
	}
	var buf [6]byte
	for i := 5; i >= 0; i-- {
		buf[i] = byte('0' + frac%10)
		frac /= 10
	}
	n := 6
	for n > 0 && buf[n-1] == '0' {
		n--
	}
	dst = append(dst, '.')
	return append(dst, buf[:n]...)
}

// AppendTime appends a time of day given in microseconds since midnight.
func AppendTime(dst []byte, us int64) []byte {
	return appendClock(dst, us)
}

// AppendTimestamp appends a timestamp given in microseconds since
// 1970-01-01 00:00:00 ("2024-01-02 03:04:05.5"); withZone appends the UTC
// offset "+00" as timestamptz prints in TimeZone UTC. The extreme int64
// values are PostgreSQL's infinity and -infinity.
func AppendTimestamp(dst []byte, us int64, withZone bool) []byte {
	return appendTimestamp(dst, us, withZone, false)
}

// AppendTimestampTZ appends a timestamptz given in microseconds since
// 1970-01-01 00:00:00 UTC as PostgreSQL prints it in TimeZone loc (nil:
// UTC): the wall time there and its offset, "2024-07-01 02:00:00+02".
func AppendTimestampTZ(dst []byte, us int64, loc *time.Location) []byte {
	var z *zoneCache
	if loc != nil && loc != time.UTC {
		z = &zoneCache{loc: loc}
	}
	return appendTimestampIn(dst, us, true, z, false)
}

func appendTimestamp(dst []byte, us int64, withZone, json bool) []byte {
	return appendTimestampIn(dst, us, withZone, nil, json)
}

// appendTimestampIn renders us (a timestamp, or a timestamptz in zone z;
// nil z is UTC).
func appendTimestampIn(dst []byte, us int64, withZone bool, z *zoneCache, json bool) []byte {
	switch us {
	case math.MaxInt64:
		return append(dst, "infinity"...)
	case math.MinInt64:
		return append(dst, "-infinity"...)
	}
	off := 0
	if withZone && z != nil {
		off = z.offset(floorDiv(us, 1e6))
		us += int64(off) * 1e6
	}
	days := floorDiv(us, usPerDay)
	dst, bc := appendDateParts(dst, days)
	if json {
		dst = append(dst, 'T')
	} else {
		dst = append(dst, ' ')
	}
	dst = appendClock(dst, us-days*usPerDay)
	if withZone {
		dst = appendZoneOffset(dst, off, json)
	}
	if bc {
		dst = append(dst, " BC"...)
	}
	return dst
}

// appendZoneOffset appends an offset east of UTC as PostgreSQL's ISO
// output does ("+01", "+05:30", "+00:09:21"); JSON (XSD) always has the
// minutes ("+01:00").
func appendZoneOffset(dst []byte, off int, json bool) []byte {
	if off < 0 {
		dst = append(dst, '-')
		off = -off
	} else {
		dst = append(dst, '+')
	}
	dst = appendPadded(dst, int64(off/3600), 2)
	if m, s := off/60%60, off%60; m != 0 || s != 0 || json {
		dst = append(dst, ':')
		dst = appendPadded(dst, int64(m), 2)
		if s != 0 {
			dst = append(dst, ':')
			dst = appendPadded(dst, int64(s), 2)
		}
	}
	return dst
}

// roundNanosToMicros rounds a nanosecond count to microseconds, halves away
// from zero.
func roundNanosToMicros(ns int64) int64 {
	// divide first: ns+500 would overflow for the last instants an int64
	// of nanoseconds holds (2262-04-11 23:47:16.854775807)
	q, r := ns/1000, ns%1000
	switch {
	case r >= 500:
		q++
	case r <= -500:
		q--
	}
	return q
}

// AppendInterval appends an interval in IntervalStyle postgres; see
// types.AppendInterval.
func AppendInterval(dst []byte, months, days int32, us int64) []byte {
	return types.AppendInterval(dst, months, days, us)
}

// decimal128Digits renders the absolute value of the 128-bit two's-complement
// integer (hi, lo) in decimal into buf's tail; it returns the digits and the
// sign.
func decimal128Digits(buf *[40]byte, hi int64, lo uint64) (digits []byte, neg bool) {
	uhi := uint64(hi)
	if hi < 0 {
		neg = true
		lo = ^lo + 1
		uhi = ^uhi
		if lo == 0 {
			uhi++
		}
	}
	i := len(buf)
	const chunk = 10_000_000_000_000_000_000 // 1e19, the largest power of ten below 2^64
	for uhi != 0 {
		var r uint64
		q1 := uhi / chunk
		r = uhi % chunk
		q0, r := bits.Div64(r, lo, chunk)
		uhi, lo = q1, q0
		for k := 0; k < 19; k++ {
			i--
			buf[i] = byte('0' + r%10)
			r /= 10
		}
	}
	for lo != 0 {
		i--
		buf[i] = byte('0' + lo%10)
		lo /= 10
	}
	// Strip the zero padding of the 19-digit chunks.
	for i < len(buf)-1 && buf[i] == '0' {
		i++
	}
	if i == len(buf) {
		i--
		buf[i] = '0'
	}
	return buf[i:], neg
}

// AppendDecimal128 appends the decimal (hi, lo) * 10^-scale as numeric_out
// prints it: exactly scale fractional digits.
func AppendDecimal128(dst []byte, hi int64, lo uint64, scale int32) []byte {
	var buf [40]byte
	digits, neg := decimal128Digits(&buf, hi, lo)
	if neg {
		dst = append(dst, '-')
	}
	if scale <= 0 {
		dst = append(dst, digits...)
		for i := int32(0); i < -scale; i++ {
			dst = append(dst, '0')
		}
		return dst
	}
	s := int(scale)
	if len(digits) <= s {
		dst = append(dst, '0', '.')
		for i := len(digits); i < s; i++ {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	}
	dst = append(dst, digits[:len(digits)-s]...)
	dst = append(dst, '.')
	return append(dst, digits[len(digits)-s:]...)
}
