package types

import (
	"encoding/hex"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Physical representation of one scalar value of a type, as constants,
// parameters and per-row values outside Arrow arrays carry it (nil = NULL):
//
//	Bool                      bool
//	Int8, Int16, Int32, Int64 int64 (within the kind's range)
//	Float32, Float64          float64
//	Decimal                   decimal128.Num, scaled by the type's Scale
//	Unknown, String, Char     string
//	Bytes, Binary             []byte
//	Date                      int32 days since 1970-01-01
//	Time                      int64 in the Arrow unit of the type (ms, us or ns of day)
//	Timestamp, TimestampTZ    int64 in the Arrow unit of the type (us or ns since the epoch, UTC)
//	Oid                       int64
//
// Converting values between kinds is the executor's job (exec's cast kernels);
// this file holds only PostgreSQL's input functions, shared by literal folding
// in the binder and by the text-to-type cast.

// pgTypeName is how PostgreSQL names t in input-syntax error messages.
func (t T) pgTypeName() string {
	switch t.Kind {
	case Bool:
		return "boolean"
	case Int8, Int16:
		return "smallint"
	case Int32:
		return "integer"
	case Int64:
		return "bigint"
	case Float32:
		return "real"
	case Float64:
		return "double precision"
	case Decimal:
		return "numeric"
	case Date:
		return "date"
	case Time:
		return "time without time zone"
	case Timestamp:
		return "timestamp without time zone"
	case TimestampTZ:
		return "timestamp with time zone"
	case Bytes, Binary:
		return "bytea"
	case Oid:
		return "oid"
	}
	return t.String()
}

// PGName is PostgreSQL's name of t (for messages such as 42883's argument list).
func (t T) PGName() string {
	switch t.Kind {
	case String:
		if t.Length > 0 {
			return "character varying"
		}
		return "text"
	case Char:
		return "character"
	case Unknown:
		return "unknown"
	case Interval:
		return "interval"
	case Name:
		return "name"
	}
	return t.pgTypeName()
}

func invalidInput(t T, s string) *sqlerr.Error {
	code := sqlerr.InvalidTextRepresentation
	switch t.Kind {
	case Date, Time, Timestamp, TimestampTZ:
		code = sqlerr.InvalidDatetimeFormat // PostgreSQL's datetime input errors are 22007
	}
	return sqlerr.New(code, "invalid input syntax for type %s: %q", t.pgTypeName(), s)
}

func outOfRange(t T, s string) *sqlerr.Error {
	return sqlerr.New(sqlerr.NumericValueOutOfRange, "value %q is out of range for type %s", s, t.pgTypeName())
}

// IntRange returns the smallest and largest value of an integer kind.
func IntRange(k Kind) (lo, hi int64) {
	switch k {
	case Int8:
		return math.MinInt8, math.MaxInt8
	case Int16:
		return math.MinInt16, math.MaxInt16
	case Int32:
		return math.MinInt32, math.MaxInt32
	}
	return math.MinInt64, math.MaxInt64
}

// ParseText converts s to a value of t with PostgreSQL's input rules.
func ParseText(s string, t T) (any, error) {
	switch t.Kind {
	case Unknown, String, Name:
		if t.Length > 0 && len([]rune(s)) > t.Length {
			return nil, sqlerr.New(sqlerr.StringDataRightTruncation, "value too long for type character varying(%d)", t.Length)
		}
		return s, nil
	case Char:
		return s, nil
	case Bool:
		return parseBool(s)
	case Int8, Int16, Int32, Int64, Oid:
		v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
				return nil, outOfRange(t, s)
			}
			return nil, invalidInput(t, s)
		}
		if t.Kind == Oid {
			if v < 0 || v > math.MaxUint32 {
				return nil, outOfRange(t, s)
			}
			return v, nil
		}
		lo, hi := IntRange(t.Kind)
		if v < lo || v > hi {
			return nil, outOfRange(t, s)
		}
		return v, nil
	case Float32, Float64:
		return parseFloat(s, t)
	case Decimal:
		return ParseDecimal(s, t)
	case Bytes, Binary:
		return parseBytea(s)
	case Date:
		d, err := parseDate(strings.TrimSpace(s))
		if err != nil {
			if wellFormedDate(strings.TrimSpace(s)) {
				return nil, sqlerr.New(sqlerr.DatetimeFieldOverflow, "date/time field value out of range: %q", s)
			}
			return nil, invalidInput(t, s)
		}
		return d, nil
	case Timestamp, TimestampTZ:
		ts, err := parseTimestamp(strings.TrimSpace(s), t.Kind == TimestampTZ)
		if err != nil {
			return nil, invalidInput(t, s)
		}
		return TimeToValue(ts, t), nil
	case Time:
		tm, err := time.Parse("15:04:05.999999999", strings.TrimSpace(s))
		if err != nil {
			return nil, invalidInput(t, s)
		}
		ns := int64(tm.Hour())*3600e9 + int64(tm.Minute())*60e9 + int64(tm.Second())*1e9 + int64(tm.Nanosecond())
		switch {
		case t.Precision <= 3:
			return ns / 1e6, nil
		case t.Precision <= 6:
			return ns / 1e3, nil
		}
		return ns, nil
	}
	return nil, sqlerr.New(sqlerr.FeatureNotSupported, "input of type %s is not supported", t)
}

func parseBool(s string) (any, error) {
	// PostgreSQL's boolin: any unique prefix of true/false/yes/no, and on, off
	// (at least two letters: "o" alone is ambiguous), 1 and 0.
	v := strings.ToLower(strings.TrimSpace(s))
	switch {
	case v == "":
	case strings.HasPrefix("true", v), strings.HasPrefix("yes", v), v == "on", v == "1":
		return true, nil
	case strings.HasPrefix("false", v), strings.HasPrefix("no", v), len(v) >= 2 && strings.HasPrefix("off", v), v == "0":
		return false, nil
	}
	return nil, invalidInput(BoolType, s)
}

func parseFloat(s string, t T) (any, error) {
	v := strings.TrimSpace(s)
	switch strings.ToLower(v) {
	case "nan":
		return math.NaN(), nil
	case "infinity", "inf", "+infinity", "+inf":
		return math.Inf(1), nil
	case "-infinity", "-inf":
		return math.Inf(-1), nil
	}
	bits := 64
	if t.Kind == Float32 {
		bits = 32
	}
	f, err := strconv.ParseFloat(v, bits)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return nil, outOfRange(t, s)
		}
		return nil, invalidInput(t, s)
	}
	return f, nil
}

// ParseDecimal parses s as a decimal and rounds it half away from zero to
// t's scale, as PostgreSQL's numeric input does; the precision is checked
// when t has one (22003 "numeric field overflow").
func ParseDecimal(s string, t T) (decimal128.Num, error) {
	v := strings.TrimSpace(s)
	r, ok := new(big.Rat).SetString(v)
	if !ok || v == "" || strings.ContainsAny(v, "/") {
		return decimal128.Num{}, invalidInput(t, s)
	}
	return DecimalFromRat(r, t)
}

// DecimalFromRat rounds r half away from zero to t's scale.
func DecimalFromRat(r *big.Rat, t T) (decimal128.Num, error) {
	scaled := new(big.Rat).Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(t.Scale)), nil)))
	num, den := scaled.Num(), scaled.Denom()
	q, m := new(big.Int).QuoRem(num, den, new(big.Int))
	// round half away from zero
	if m.Sign() != 0 {
		twice := new(big.Int).Mul(new(big.Int).Abs(m), big.NewInt(2))
		if twice.Cmp(den) >= 0 {
			if num.Sign() < 0 {
				q.Sub(q, big.NewInt(1))
			} else {
				q.Add(q, big.NewInt(1))
			}
		}
	}
	p := t.Precision
	if p == 0 {
		p = 38
	}
	limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(p)), nil)
	if new(big.Int).Abs(q).Cmp(limit) >= 0 {
		return decimal128.Num{}, sqlerr.New(sqlerr.NumericValueOutOfRange, "numeric field overflow").
			WithDetail("A field with precision %d, scale %d must round to an absolute value less than 10^%d.", p, t.Scale, p-t.Scale)
	}
	return decimal128.FromBigInt(q), nil
}

func parseBytea(s string) (any, error) {
	if strings.HasPrefix(s, `\x`) {
		b, err := hex.DecodeString(s[2:])
		if err != nil {
			return nil, invalidInput(BytesType, s)
		}
		return b, nil
	}
	// escape format: backslash escapes \\ and \ooo
	var out []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		if i+1 < len(s) && s[i+1] == '\\' {
			out = append(out, '\\')
			i++
			continue
		}
		if i+3 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				out = append(out, byte(v))
				i += 3
				continue
			}
		}
		return nil, invalidInput(BytesType, s)
	}
	if out == nil {
		out = []byte{}
	}
	return out, nil
}

var epochDay = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)

func parseDate(s string) (int32, error) {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		// PostgreSQL also reads a date from a timestamp's text (pgx's
		// simple protocol sends time.Time values that way).
		ts, terr := parseTimestamp(s, true)
		if terr != nil {
			return 0, err
		}
		t = ts
	}
	// Unix seconds, not a time.Duration (which overflows outside 1677-2262).
	return int32(math.Floor(float64(t.Unix()) / 86400)), nil
}

var timestampLayouts = []string{
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04",
	"2006-01-02",
}

var timestampTZLayouts = []string{
	"2006-01-02 15:04:05.999999999Z07:00:00",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999Z07",
	"2006-01-02T15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999 Z07:00",
	"2006-01-02 15:04:05.999999999 MST",
}

func parseTimestamp(s string, withZone bool) (time.Time, error) {
	if withZone {
		for _, l := range timestampTZLayouts {
			if t, err := time.Parse(l, s); err == nil {
				return t.UTC(), nil
			}
		}
	}
	var lastErr error
	for _, l := range timestampLayouts {
		t, err := time.Parse(l, s)
		if err == nil {
			return t, nil
		}
		lastErr = err
	}
	if !withZone { // PostgreSQL ignores a zone given to a timestamp without time zone
		for _, l := range timestampTZLayouts {
			if t, err := time.Parse(l, s); err == nil {
				return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC), nil
			}
		}
	}
	return time.Time{}, lastErr
}

// TimeToValue converts a time to t's physical value (Date, Timestamp, TimestampTZ).
func TimeToValue(tm time.Time, t T) any {
	switch t.Kind {
	case Date:
		return int32(math.Floor(float64(tm.Unix()) / 86400))
	case Timestamp, TimestampTZ:
		if TimestampUnit(t.Precision) == arrow.Nanosecond { // arrow.Nanosecond
			return tm.UnixNano()
		}
		return roundToPrecision(tm.UnixMicro(), tm.Nanosecond()%1000, t.Precision)
	}
	return nil
}

// roundToPrecision rounds microseconds us (with leftover nanoseconds) to p
// fractional digits, half away from zero as PostgreSQL does.
func roundToPrecision(us int64, restNs int, p int) int64 {
	if restNs >= 500 {
		us++
	}
	if p >= 6 || p < 0 {
		return us
	}
	div := int64(math.Pow10(6 - p))
	q := us / div
	r := us % div
	if r < 0 {
		r += div
		q--
	}
	if r*2 >= div {
		q++
	}
	return q * div
}

// ValueToTime converts a Timestamp/TimestampTZ/Date physical value to a UTC time.
func ValueToTime(v any, t T) time.Time {
	switch t.Kind {
	case Date:
		return epochDay.AddDate(0, 0, int(v.(int32)))
	case Timestamp, TimestampTZ:
		if TimestampUnit(t.Precision) == arrow.Nanosecond {
			return time.Unix(0, v.(int64)).UTC()
		}
		return time.UnixMicro(v.(int64)).UTC()
	}
	return time.Time{}
}

// wellFormedDate reports whether s has the shape YYYY-MM-DD, so that a
// failure to read it is a field out of range (22008), not bad syntax.
func wellFormedDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for i, c := range s {
		if i != 4 && i != 7 && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}
