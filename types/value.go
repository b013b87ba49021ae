package types

import (
	"encoding/hex"
	"errors"
	"github.com/sqlgate/sqlgate/types/jsonpath"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// Physical representation of one scalar value of a type, as constants,
// parameters and per-row values outside Arrow arrays carry it (nil = NULL):
//
//	Bool                      bool
//	Int8, Int16, Int32, Int64 int64 (within the kind's range)
//	Float32, Float64          float64
//	Decimal                   decimal128.Num scaled by the type's Scale for DECIMAL(p,s);
//	                          *apd.Decimal (package numeric's shape) for unconstrained numeric
//	Unknown, String, Char     string
//	Bytes, Binary             []byte
//	Date                      int32 days since 1970-01-01
//	Time                      int64 in the Arrow unit of the type (ms, us or ns of day)
//	Timestamp, TimestampTZ    int64 in the Arrow unit of the type (us or ns since the epoch, UTC)
//	TimeTZ                    int64 packing time of day and zone, ordered (timetz.go)
//	Oid                       int64
//	Array                     []any of the elements' values
//	Row                       []any of the fields' values, in field order
//	Map                       []MapEntry in the map's order (nested.go)
//
// Converting values between kinds is the executor's job (exec's cast kernels);
// this file holds only PostgreSQL's input functions, shared by literal folding
// in the binder and by the text-to-type cast.

// pgTypeName is how PostgreSQL names t in input-syntax error messages.
func (t T) pgTypeName() string {
	if t.Variant.IsJSON() || t.Variant.IsReg() || t.Variant == Money {
		return t.Variant.Name()
	}
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
	case TimeTZ:
		return "time with time zone"
	case Timestamp:
		return "timestamp without time zone"
	case TimestampTZ:
		return "timestamp with time zone"
	case Bytes, Binary:
		return "bytea"
	case Oid:
		return "oid"
	case Array:
		// PostgreSQL has one array type per element type, whatever the
		// dimensions: ARRAY<ARRAY<INT>> is integer[] in its messages
		e := t
		for e.Kind == Array && e.Elem != nil {
			e = *e.Elem
		}
		if !e.IsNested() || e.IsAnonRecord() {
			return e.PGName() + "[]"
		}
	}
	return t.String()
}

// OperandName is t's name in PostgreSQL's operator resolution messages
// (42883 "operator does not exist: l op r"): PGName, except that a row value
// is an anonymous composite there, record (an array of them record[]),
// where PGName keeps sqlgate's row<...> spelling that reads back as the type.
func (t T) OperandName() string {
	e := t
	for e.Kind == Array && e.Elem != nil {
		e = *e.Elem
	}
	if e.Kind == Row && t.Variant == NoVariant {
		if t.Kind == Array {
			return "record[]"
		}
		return "record"
	}
	return t.PGName()
}

// PGName is PostgreSQL's name of t (for messages such as 42883's argument list).
func (t T) PGName() string {
	if t.Variant == Enum {
		return t.reg.EnumName(t.TypeOID)
	}
	if t.IsComposite() {
		return t.reg.CompositeName(t.TypeOID) // composite.go
	}
	if t.Variant == VarBit {
		return "bit varying" // varbit is pg_type's name, not the SQL one
	}
	if t.Variant != NoVariant {
		return t.Variant.Name()
	}
	switch t.Kind {
	case String:
		if t.Length != 0 { // varchar(n), and -1: varchar without a limit
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
	case Date, Time, Timestamp, TimestampTZ, TimeTZ:
		code = sqlerr.InvalidDatetimeFormat // PostgreSQL's datetime input errors are 22007
	}
	name := t.pgTypeName()
	switch t.Kind {
	case Timestamp: // DateTimeParseError names these two by their short names
		name = "timestamp"
	case Time:
		name = "time"
	}
	return sqlerr.New(code, "invalid input syntax for type %s: %q", name, s)
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

// intInput reads s as an integer of kind k the way PostgreSQL's
// pg_strtoint16 / pg_strtoint32 / scanint8 (numutils.c, int8.c) do:
// ASCII spaces around an optional sign and at least one digit, nothing
// else; a value out of k's range is found digit by digit, before what
// follows the digits is looked at, so '99999999999x'::int is out of
// range (fits false) and not a syntax error (ok false).
func intInput(s string, k Kind) (v int64, ok, fits bool) {
	lo, hi := IntRange(k)
	i := 0
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		neg = s[i] == '-'
		i++
	}
	if i == len(s) || s[i] < '0' || s[i] > '9' {
		return 0, false, true
	}
	// accumulate negatively, as PostgreSQL does, so the least value fits
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		d := int64(s[i] - '0')
		if v < (lo+d)/10 {
			return 0, false, false
		}
		v = v*10 - d
	}
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	if i != len(s) {
		return 0, false, true
	}
	if !neg {
		if v < -hi {
			return 0, false, false
		}
		v = -v
	}
	return v, true, true
}

// ParseText converts s to a value of t with PostgreSQL's input rules, in a
// session whose TimeZone is UTC (see ParseTextIn).
func ParseText(s string, t T) (any, error) { return ParseTextIn(s, t, time.UTC) }

// ParseTextIn converts s to a value of t with PostgreSQL's input rules; loc
// is the session's TimeZone, which places a timestamptz literal written
// without a zone (nil means UTC). 'now' and 'today' are read at the time
// of the call (ParseTextAt takes the transaction's start instead).
func ParseTextIn(s string, t T, loc *time.Location) (any, error) {
	return ParseTextAt(s, t, loc, time.Now())
}

// ParseTextAt is ParseTextIn reading the special words 'now', 'today',
// 'tomorrow' and 'yesterday' at now (special.go).
func ParseTextAt(s string, t T, loc *time.Location, now time.Time) (any, error) {
	return ParseTextOrder(s, t, loc, now, OrderMDY)
}

// ParseTextOrder is ParseTextAt in a session whose DateStyle reads a date
// written in numbers only (1/2/2020) in order.
func ParseTextOrder(s string, t T, loc *time.Location, now time.Time, order DateOrder) (any, error) {
	return ParseTextStyle(s, t, loc, now, Style{Date: DateStyle{Order: order}})
}

// ParseTextStyle is ParseTextAt in a session whose DateStyle and
// IntervalStyle are st: a date in numbers only is read in its order.
func ParseTextStyle(s string, t T, loc *time.Location, now time.Time, st Style) (any, error) {
	switch t.Kind {
	case Date, Timestamp, TimestampTZ, Time, TimeTZ:
		return parseDateTimeText(s, t, loc, now, st.Date.Order)
	}
	return parseTextIn(s, t, loc, st)
}

func parseTextIn(s string, t T, loc *time.Location, st Style) (any, error) {
	order := st.Date.Order
	if t.Variant == QChar {
		return QCharIn(s), nil // qchar.go
	}
	if t.Variant.IsJSON() {
		return ParseJSON(s, t.Variant == JSONB)
	}
	if t.IsComposite() {
		return parseRecord(s, t, loc, order) // composite.go
	}
	switch t.Variant {
	case Enum:
		return t.reg.ParseEnum(s, t.TypeOID) // enum.go
	case UUID:
		return ParseUUID(s)
	case Bit, VarBit:
		return ParseBitTyped(s, t) // bitstring.go
	case Inet:
		return ParseInet(s)
	case Cidr:
		return ParseCidr(s) // netaddr.go
	case PgLsn:
		return ParseLSN(s)
	case Xid:
		return ParseXid(s), nil
	case JSONPath:
		return jsonpath.Normalize(s)
	case TSVector, TSQuery, RegConfig:
		return parseTextSearch(s, t.Variant) // tsearch.go
	case Money:
		return ParseMoney(s) // money.go
	case MacAddr:
		return ParseMacAddr(s) // macaddr.go
	case MacAddr8:
		return ParseMacAddr8(s)
	case GeoPoint, GeoLSeg, GeoLine, GeoBox, GeoPath, GeoPolygon, GeoCircle:
		return ParseGeoText(s, t.Variant) // geometric.go
	case Int4Range, Int8Range, NumRange, DateRange, TsRange, TstzRange:
		r, err := ParseRange(s, t.Variant, loc, time.Now(), st) // ranges.go
		if err != nil {
			return nil, err
		}
		return r.String(), nil
	case Int4Multirange, Int8Multirange, NumMultirange, DateMultirange, TsMultirange, TstzMultirange:
		m, err := ParseMultirange(s, RangeOfMultirange(t.Variant), loc, time.Now(), st) // multirange.go
		if err != nil {
			return nil, err
		}
		return m.String(), nil
	}
	switch t.Kind {
	case Unknown, String, Name:
		if t.Length > 0 && len([]rune(s)) > t.Length {
			if err := CheckStringLength(s, t); err != nil {
				return nil, err
			}
			s = string([]rune(s)[:t.Length])
		}
		return s, nil
	case Char:
		// character(n) holds exactly n characters: shorter values are
		// padded with spaces, excess spaces dropped, other excess refused.
		// bpchar without a length (0) takes the text as it is.
		n := t.Length
		if n <= 0 {
			return s, nil
		}
		r := []rune(s)
		if len(r) > n {
			if err := CheckStringLength(s, t); err != nil {
				return nil, err
			}
			return string(r[:n]), nil
		}
		return s + strings.Repeat(" ", n-len(r)), nil
	case Bool:
		return parseBool(s)
	case Int8, Int16, Int32, Int64:
		v, ok, fits := intInput(s, t.Kind)
		switch {
		case !fits:
			return nil, outOfRange(t, s)
		case !ok:
			return nil, invalidInput(t, s)
		}
		return v, nil
	case Oid:
		v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
				return nil, outOfRange(t, s)
			}
			return nil, invalidInput(t, s)
		}
		{
			// oidin takes a negative number down to int4's least as
			// its unsigned 32-bit value (-7 is 4294967289)
			if v < math.MinInt32 || v > math.MaxUint32 {
				return nil, outOfRange(t, s)
			}
			if v < 0 {
				v += 1 << 32
			}
			return v, nil
		}
	case Float32, Float64:
		return parseFloat(s, t)
	case Decimal:
		d, err := numeric.Parse(s)
		if err != nil {
			return nil, err
		}
		if t.Precision == 0 {
			return d, nil
		}
		return NumericToDecimal128(d, t.Precision, t.Scale)
	case Bytes:
		return parseBytea(s)
	case Binary:
		v, err := parseBytea(s)
		if err != nil {
			return nil, err
		}
		return v, CheckBinaryLength(v.([]byte), t)
	case Date, Timestamp, TimestampTZ, Time, TimeTZ:
		return parseDateTimeText(s, t, loc, time.Now(), OrderMDY)
	case Interval:
		// text -> interval(typmod) at run time is interval_in without the
		// typmod, then the length coercion (a bare number is seconds).
		v, err := ParseIntervalIn(s, st.Interval)
		if err != nil {
			return nil, err
		}
		return AdjustInterval(v, t)
	case Map, Row:
		return parseNestedText(s, t, loc)
	case Array:
		if t.Elem.IsNested() {
			// an array of MAP, ROW or ARRAY values prints as JSON
			return parseNestedText(s, t, loc)
		}
	}
	return nil, sqlerr.New(sqlerr.FeatureNotSupported, "input of type %s is not supported", t)
}

// CheckStringLength is the length rule of varchar(n) and character(n) for
// input and assignment (an explicit cast truncates instead): characters
// beyond n that are all spaces may be dropped, any other is 22001.
func CheckStringLength(s string, t T) error {
	if t.IsBitString() {
		return CheckBitTypmod(s, t) // bit(n) and bit varying(n): bitstring.go
	}
	n := t.Length
	if n <= 0 || len(s) <= n { // text, varchar and bpchar without a limit
		return nil
	}
	r := []rune(s)
	if len(r) <= n || strings.TrimRight(string(r[n:]), " ") == "" {
		return nil
	}
	if t.Kind == Char {
		return sqlerr.New(sqlerr.StringDataRightTruncation, "value too long for type character(%d)", n).AsUnplaced()
	}
	return sqlerr.New(sqlerr.StringDataRightTruncation, "value too long for type character varying(%d)", n).AsUnplaced()
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
	f, err := strconv.ParseFloat(strtodSyntax(v), bits)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return nil, floatOutOfRange(t, s)
		}
		return nil, invalidInput(t, s)
	}
	if f == 0 && nonZeroMantissa(v) {
		// underflow: float8in/float4in refuse a value that becomes 0
		// (a subnormal one is kept)
		return nil, floatOutOfRange(t, s)
	}
	return f, nil
}

// strtodSyntax adapts a float's text to strconv.ParseFloat so that it
// accepts what float8in's strtod does: no digit separators (ParseFloat
// takes "1_000"; an "_" here makes the text invalid), and hexadecimal
// without a binary exponent ("0x10" is 16; ParseFloat wants a "p").
func strtodSyntax(v string) string {
	if strings.Contains(v, "_") {
		return "invalid"
	}
	m := strings.TrimLeft(v, "+-")
	if len(m) > 2 && m[0] == '0' && (m[1] == 'x' || m[1] == 'X') && !strings.ContainsAny(m, "pP") {
		return v + "p0"
	}
	return v
}

// floatOutOfRange is float8in's and float4in's message, which has no
// "value" before the input (the integer types' has: outOfRange).
func floatOutOfRange(t T, s string) *sqlerr.Error {
	return sqlerr.New(sqlerr.NumericValueOutOfRange, "%q is out of range for type %s", s, t.pgTypeName())
}

// nonZeroMantissa reports whether a number's text has a digit other than 0
// before its exponent.
func nonZeroMantissa(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == 'e' || c == 'E':
			return false
		case c >= '1' && c <= '9':
			return true
		}
	}
	return false
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
		return decimal128.Num{}, numeric.FieldOverflow(p, t.Scale)
	}
	return decimal128.FromBigInt(q), nil
}

// CheckBinaryLength enforces BINARY(n)'s fixed length wherever a value
// becomes one (text input, casts, parameters, COPY): Fluss stores exactly
// n bytes (Arrow's FixedSizeBinary, the Java client's fixed-width vector),
// so a longer value is refused as PostgreSQL refuses one too long for
// character(n), and a shorter one is refused too rather than padded with
// zero bytes the user never wrote. Both are 22001 naming the type.
func CheckBinaryLength(v []byte, t T) error {
	if t.Kind != Binary || len(v) == t.Length {
		return nil
	}
	word := "long"
	if len(v) < t.Length {
		word = "short"
	}
	return sqlerr.New(sqlerr.StringDataRightTruncation, "value too %s for type binary(%d)", word, t.Length).
		WithDetail("The value has %d bytes; BINARY(%d) holds exactly %d.", len(v), t.Length, t.Length)
}

func parseBytea(s string) (any, error) {
	if strings.HasPrefix(s, `\x`) {
		b, err := hex.DecodeString(s[2:])
		if err != nil {
			// PostgreSQL's messages and code for bad hex data.
			var bad hex.InvalidByteError
			if errors.As(err, &bad) {
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "invalid hexadecimal digit: \"%c\"", rune(bad))
			}
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "invalid hexadecimal data: odd number of digits")
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

// matchPlainTimestamp matches the timestamp literals clients send
// most (an INSERT of a thousand rows binds a thousand): a date, then
// optionally one space or T and HH:MM[:SS[.fraction]], and nothing else. It
// returns tsLiteral's submatches for them, without the regular expression,
// which cost more than the rest of binding the literal; ok is false for
// any other text, which the caller matches with tsLiteral. The submatches
// come back in an array, not a slice: no allocation per literal.
func matchPlainTimestamp(s string) (m [9]string, ok bool) {
	i := 0
	// digits advances over at least lo and at most hi digits (hi < 0: no
	// limit) and returns them.
	digits := func(lo, hi int) (string, bool) {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' && (hi < 0 || i-start < hi) {
			i++
		}
		return s[start:i], i-start >= lo
	}
	sep := func(c byte) bool {
		if i < len(s) && s[i] == c {
			i++
			return true
		}
		return false
	}
	m[0] = s
	var okY, okM, okD bool
	if m[1], okY = digits(4, -1); !okY || !sep('-') {
		return m, false
	}
	if m[2], okM = digits(1, 2); !okM || !sep('-') {
		return m, false
	}
	if m[3], okD = digits(1, 2); !okD {
		return m, false
	}
	if i == len(s) {
		return m, true
	}
	if !sep(' ') && !sep('T') {
		return m, false
	}
	var okH, okMin bool
	if m[4], okH = digits(1, 2); !okH || !sep(':') {
		return m, false
	}
	if m[5], okMin = digits(1, 2); !okMin {
		return m, false
	}
	if sep(':') {
		var okS bool
		if m[6], okS = digits(1, 2); !okS {
			return m, false
		}
		if sep('.') {
			m[7], _ = digits(0, -1)
		}
	}
	return m, i == len(s)
}

// TimeToValue converts a time to t's physical value (Date, Timestamp,
// TimestampTZ, Time); a timestamp beyond the range t holds is 22008
// (TimestampOutOfRange without the input text).
func TimeToValue(tm time.Time, t T) (any, error) {
	switch t.Kind {
	case Date:
		return int32(math.Floor(float64(tm.Unix()) / 86400)), nil
	case Timestamp, TimestampTZ:
		if TimestampUnit(t.Precision) == arrow.Nanosecond {
			// TIMESTAMP(7..9), a Fluss type PostgreSQL lacks: an int64 of
			// nanoseconds holds 1677-09-21 to 2262-04-11, its two ends
			// being the infinities
			if tm.Before(minNanosTime) || !tm.Before(maxNanosTime) {
				return nil, TimestampOutOfRange("")
			}
			ns := tm.UnixNano()
			if div := int64(math.Pow10(9 - t.Precision)); div > 1 {
				if ns > math.MaxInt64-div || ns < math.MinInt64+div {
					return nil, TimestampOutOfRange("") // rounding could pass an end
				}
				ns = roundHalfUp(ns, div)
			}
			return ns, nil
		}
		if tm.Before(minTimestamp) || !tm.Before(maxMicrosTime) {
			return nil, TimestampOutOfRange("")
		}
		return roundToPrecision(tm.UnixMicro(), tm.Nanosecond()%1000, t.Precision), nil
	case Time: // the time of day of tm's fields (a wall clock)
		h, m, s := tm.Clock()
		us := roundToPrecision(int64(h*3600+m*60+s)*1e6+int64(tm.Nanosecond()/1000), tm.Nanosecond()%1000, t.Precision)
		if t.Precision <= 3 { // Time32 milliseconds, as parseTimeOfDay gives
			return us / 1e3, nil
		}
		return us, nil
	}
	return nil, nil
}

// The timestamp range: PostgreSQL's starts at 4714-11-24 00:00:00 BC (Julian
// day 0); its end, 294276 AD, lies beyond what Unix microseconds in an int64
// hold (PostgreSQL counts from 2000, Arrow from 1970), so the last
// microsecond before the int64 bound (which stands for infinity) is the
// effective end. TIMESTAMP(7..9) hold what an int64 of nanoseconds does.
var (
	minTimestamp  = time.Date(-4713, time.November, 24, 0, 0, 0, 0, time.UTC)
	maxMicrosTime = time.UnixMicro(math.MaxInt64).UTC()
	minNanosTime  = time.Unix(0, math.MinInt64+1).UTC()
	maxNanosTime  = time.Unix(0, math.MaxInt64).UTC()
)

// TimestampOutOfRange is PostgreSQL's error for a timestamp beyond the
// type's range; timestamp_in quotes the input text when there is one.
func TimestampOutOfRange(input string) error {
	if input == "" {
		return sqlerr.TimestampOutOfRange()
	}
	return sqlerr.New(sqlerr.DatetimeFieldOverflow, "timestamp out of range: %q", input)
}

// DateOutOfRangeForTimestamp is PostgreSQL's error for a date that has no
// timestamp (date2timestamp: a date past the timestamp range).
func DateOutOfRangeForTimestamp() error {
	return sqlerr.New(sqlerr.DatetimeFieldOverflow, "date out of range for timestamp")
}

// DateMicros is date d (days since 1970) as a timestamp: microseconds
// since 1970, or DateOutOfRangeForTimestamp where that leaves the
// timestamp range.
func DateMicros(d int32) (int64, error) {
	us := int64(d) * USecsPerDay
	if us/USecsPerDay != int64(d) || us < minTimestamp.UnixMicro() {
		return 0, DateOutOfRangeForTimestamp()
	}
	return us, nil
}

// roundHalfUp rounds v to a multiple of div, halves away from zero.
func roundHalfUp(v, div int64) int64 {
	q, r := v/div, v%div
	switch {
	case r*2 >= div:
		q++
	case r*2 <= -div:
		q--
	}
	return q * div
}

// roundToPrecision rounds microseconds us (with leftover nanoseconds) to p
// fractional digits as PostgreSQL does: its input keeps whole microseconds
// as rint(seconds fraction * 1e6) in floating point (so exact halves go to
// even), and a typmod below 6 then rounds half up.
func roundToPrecision(us int64, restNs int, p int) int64 {
	if restNs != 0 {
		within := us % 1e6
		if within < 0 {
			within += 1e6
		}
		frac := float64(within*1000+int64(restNs)) / 1e9
		us += int64(math.RoundToEven(frac*1e6)) - within
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

// monthNames are the month names and abbreviations date/time input reads.
var monthNames = map[string]int{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
	"sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12, "january": 1, "february": 2, "march": 3, "april": 4,
	"june": 6, "july": 7, "august": 8, "september": 9, "october": 10, "november": 11, "december": 12}
