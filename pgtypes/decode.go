package pgtypes

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// DecodeParam decodes the value of bind parameter number index (1-based, for
// error messages) whose type is oid, sent in format code format, into the Go
// value pgwire.Statement.Execute takes: nil for NULL (data == nil), bool,
// int64 (int2/int4/int8/oid), float64 (float4/float8), string (text-like,
// unknown, numeric, json, time, interval, arrays: as their text), []byte
// (bytea) or time.Time in UTC (date, timestamp, timestamptz). Bad text is
// 22P02 (22007 for datetimes, 22003 out of range); malformed binary is 08P01
// or 22P03, as PostgreSQL reports them.
func DecodeParam(index int, oid uint32, format int16, data []byte) (any, error) {
	if data == nil {
		return nil, nil
	}
	switch format {
	case FormatText:
		return decodeText(oid, data)
	case FormatBinary:
		return decodeBinary(index, oid, data)
	}
	return nil, sqlerr.New(sqlerr.ProtocolViolation, "unsupported format code: %d", format)
}

// DecodeParamIn is DecodeParam in a session whose TimeZone is loc (nil:
// UTC) and whose DateStyle reads a date in numbers only in order: a
// date, timestamp or timestamptz sent as text is read by the type's
// input (1/2/2020 in the order, a timestamptz without a zone as a wall
// time in loc), as PostgreSQL reads it.
func DecodeParamIn(index int, oid uint32, format int16, data []byte, loc *time.Location, order types.DateOrder) (any, error) {
	var t types.T
	switch oid {
	case OIDDate:
		t = types.DateType
	case OIDTimestamp:
		t = types.TimestampType(6)
	case OIDTimestampTZ:
		t = types.TimestampTZType(6)
	}
	if data == nil || format != FormatText || t.Kind == types.Unknown { // not a date/time type
		return DecodeParam(index, oid, format, data)
	}
	if err := checkUTF8(data); err != nil {
		return nil, err
	}
	v, err := types.ParseTextOrder(string(data), t, loc, time.Now(), order)
	if err != nil {
		return nil, err
	}
	if types.InfiniteSign(v, t) != 0 {
		// infinity, which a time.Time does not hold: DecodeParam's refusal
		return DecodeParam(index, oid, format, data)
	}
	if t.Kind == types.Date {
		return time.Unix(int64(v.(int32))*86400, 0).UTC(), nil
	}
	return time.UnixMicro(v.(int64)).UTC(), nil
}

func checkUTF8(data []byte) error {
	if utf8.Valid(data) {
		return nil
	}
	if err := sqlerr.InvalidUTF8(data); err != nil {
		return err
	}
	return nil
}

func invalidText(typeName string, s string) error {
	return sqlerr.New(sqlerr.InvalidTextRepresentation, "invalid input syntax for type %s: \"%s\"", typeName, s)
}

func outOfRange(typeName string, s string) error {
	return sqlerr.New(sqlerr.NumericValueOutOfRange, "value \"%s\" is out of range for type %s", s, typeName)
}

func decodeText(oid uint32, data []byte) (any, error) {
	if oid == OIDBytea {
		return decodeByteaText(data)
	}
	if err := checkUTF8(data); err != nil {
		return nil, err
	}
	s := string(data)
	switch oid {
	case OIDBool:
		return parseBool(s)
	case OIDInt2:
		return parseInt(s, 16, "smallint")
	case OIDInt4:
		return parseInt(s, 32, "integer")
	case OIDInt8:
		return parseInt(s, 64, "bigint")
	case OIDXid:
		return types.ParseXid(s), nil
	case OIDOid:
		t := strings.TrimSpace(s)
		v, err := strconv.ParseUint(t, 10, 32)
		if err != nil {
			return nil, invalidText("oid", s)
		}
		return int64(v), nil
	case OIDFloat4:
		return parseFloat(s, 32, "real")
	case OIDFloat8:
		return parseFloat(s, 64, "double precision")
	case OIDNumeric:
		t := strings.TrimSpace(s)
		if !validNumeric(t) {
			return nil, invalidText("numeric", s)
		}
		return t, nil
	case OIDDate:
		ts, err := parseTimestamp(s, "date", false)
		if err != nil {
			return nil, err
		}
		y, m, d := ts.Date()
		return time.Date(y, m, d, 0, 0, 0, 0, time.UTC), nil
	case OIDTimestamp:
		return parseTimestamp(s, "timestamp without time zone", false)
	case OIDTimestampTZ:
		return parseTimestamp(s, "timestamp with time zone", true)
	}
	return s, nil
}

func parseBool(s string) (any, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if t != "" {
		switch {
		case strings.HasPrefix("true", t), strings.HasPrefix("yes", t), t == "on", t == "1":
			return true, nil
		case strings.HasPrefix("false", t), strings.HasPrefix("no", t), t == "off", t == "of", t == "0":
			return false, nil
		}
	}
	return nil, invalidText("boolean", s)
}

func parseInt(s string, bitSize int, typeName string) (any, error) {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, bitSize)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return nil, outOfRange(typeName, s)
		}
		return nil, invalidText(typeName, s)
	}
	return v, nil
}

func parseFloat(s string, bitSize int, typeName string) (any, error) {
	t := strings.TrimSpace(s)
	if strings.ContainsAny(t, "_xX") { // Go accepts hex floats and underscores; PostgreSQL's float parsing does not
		return nil, invalidText(typeName, s)
	}
	v, err := strconv.ParseFloat(t, bitSize)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return nil, sqlerr.New(sqlerr.NumericValueOutOfRange, "\"%s\" is out of range for type %s", t, typeName)
		}
		return nil, invalidText(typeName, s)
	}
	return v, nil
}

// validNumeric accepts numeric_in's syntax: [sign] digits [. digits] [e [sign]
// digits], or NaN / Infinity spellings.
func validNumeric(s string) bool {
	switch strings.ToLower(strings.TrimLeft(s, "+-")) {
	case "nan", "infinity", "inf":
		return true
	}
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			exp++
		}
		if exp == 0 {
			return false
		}
	}
	return i == len(s)
}

func decodeByteaText(data []byte) (any, error) {
	if len(data) >= 2 && data[0] == '\\' && data[1] == 'x' {
		out := make([]byte, 0, (len(data)-2)/2)
		for i := 2; i < len(data); {
			c := data[i]
			if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
				i++
				continue
			}
			hi, ok1 := unhex(c)
			if !ok1 {
				return nil, sqlerr.New(sqlerr.InvalidTextRepresentation, "invalid hexadecimal digit: \"%c\"", c)
			}
			if i+1 >= len(data) {
				return nil, sqlerr.New(sqlerr.InvalidTextRepresentation, "invalid hexadecimal data: odd number of digits")
			}
			lo, ok2 := unhex(data[i+1])
			if !ok2 {
				return nil, sqlerr.New(sqlerr.InvalidTextRepresentation, "invalid hexadecimal digit: \"%c\"", data[i+1])
			}
			out = append(out, hi<<4|lo)
			i += 2
		}
		return out, nil
	}
	// Escape format: \\ is a backslash, \ooo an octal byte.
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); i++ {
		c := data[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		switch {
		case i+1 < len(data) && data[i+1] == '\\':
			out = append(out, '\\')
			i++
		case i+3 < len(data) && isOctal(data[i+1]) && isOctal(data[i+2]) && isOctal(data[i+3]) && data[i+1] <= '3':
			out = append(out, (data[i+1]-'0')<<6|(data[i+2]-'0')<<3|(data[i+3]-'0'))
			i += 3
		default:
			return nil, sqlerr.New(sqlerr.InvalidTextRepresentation, "invalid input syntax for type bytea")
		}
	}
	return out, nil
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// parseTimestamp reads the ISO forms drivers send: YYYY-MM-DD, optionally
// followed by [ T]HH:MM[:SS[.fraction]], an optional zone (Z, UTC,
// +HH[:MM[:SS]]) and an optional " BC". withZone converts to UTC using the
// zone (the session zone, UTC, when none is given); without it a zone is
// ignored, as timestamp input does.
func parseTimestamp(s, typeName string, withZone bool) (time.Time, error) {
	bad := func() (time.Time, error) {
		return time.Time{}, sqlerr.New(sqlerr.InvalidDatetimeFormat, "invalid input syntax for type %s: \"%s\"", typeName, s)
	}
	p := strings.TrimSpace(s)
	switch strings.ToLower(p) {
	case "infinity", "-infinity", "+infinity":
		return time.Time{}, sqlerr.New(sqlerr.FeatureNotSupported, "infinite %s values are not supported", typeName)
	}
	bc := false
	if l := strings.ToUpper(p); strings.HasSuffix(l, " BC") {
		bc = true
		p = strings.TrimSpace(p[:len(p)-3])
	} else if strings.HasSuffix(l, " AD") {
		p = strings.TrimSpace(p[:len(p)-3])
	}
	num := func(w int, min int) (int, bool) {
		n, v := 0, 0
		for n < len(p) && (w == 0 || n < w) && p[n] >= '0' && p[n] <= '9' {
			v = v*10 + int(p[n]-'0')
			n++
		}
		if n < min {
			return 0, false
		}
		p = p[n:]
		return v, true
	}
	expect := func(c byte) bool {
		if len(p) > 0 && p[0] == c {
			p = p[1:]
			return true
		}
		return false
	}
	year, ok := num(0, 1)
	if !ok || !expect('-') {
		return bad()
	}
	month, ok := num(2, 1)
	if !ok || !expect('-') {
		return bad()
	}
	day, ok := num(2, 1)
	if !ok {
		return bad()
	}
	var hour, minute, sec, nanos int
	if len(p) > 0 && (p[0] == ' ' || p[0] == 'T' || p[0] == 't') && len(p) > 1 && p[1] >= '0' && p[1] <= '9' {
		p = p[1:]
		if hour, ok = num(2, 1); !ok || !expect(':') {
			return bad()
		}
		if minute, ok = num(2, 2); !ok {
			return bad()
		}
		if expect(':') {
			if sec, ok = num(2, 2); !ok {
				return bad()
			}
			if expect('.') {
				n := 0
				scale := 100_000_000
				for len(p) > 0 && p[0] >= '0' && p[0] <= '9' {
					nanos += int(p[0]-'0') * scale
					scale /= 10
					p = p[1:]
					n++
				}
				if n == 0 {
					return bad()
				}
			}
		}
	}
	p = strings.TrimLeft(p, " ")
	offset := 0
	switch {
	case p == "":
	case p == "Z" || p == "z" || strings.EqualFold(p, "UTC") || strings.EqualFold(p, "GMT"):
		p = ""
	case p[0] == '+' || p[0] == '-':
		sign := 1
		if p[0] == '-' {
			sign = -1
		}
		p = p[1:]
		oh, ok := num(2, 1)
		if !ok {
			return bad()
		}
		om, os := 0, 0
		expect(':')
		if len(p) > 0 {
			if om, ok = num(2, 2); !ok {
				return bad()
			}
			expect(':')
			if len(p) > 0 {
				if os, ok = num(2, 2); !ok {
					return bad()
				}
			}
		}
		offset = sign * (oh*3600 + om*60 + os)
	default:
		return bad()
	}
	if p != "" || month < 1 || month > 12 || day < 1 || day > 31 || hour > 24 || minute > 59 || sec > 60 {
		return bad()
	}
	if bc {
		year = 1 - year
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, nanos, time.UTC)
	if t.Day() != day {
		return time.Time{}, sqlerr.New(sqlerr.DatetimeFieldOverflow, "date/time field value out of range: \"%s\"", s)
	}
	if withZone {
		t = t.Add(-time.Duration(offset) * time.Second)
	}
	return t, nil
}

func insufficientData() error {
	return sqlerr.New(sqlerr.ProtocolViolation, "insufficient data left in message")
}

func incorrectBinary(index int) error {
	return sqlerr.New(sqlerr.InvalidBinaryRepresentation, "incorrect binary data format in bind parameter %d", index)
}

// fixedLen checks a fixed-width binary value's length.
func fixedLen(index int, data []byte, n int) error {
	switch {
	case len(data) < n:
		return insufficientData()
	case len(data) > n:
		return incorrectBinary(index)
	}
	return nil
}

func decodeBinary(index int, oid uint32, data []byte) (any, error) {
	be := binary.BigEndian
	switch oid {
	case OIDBool:
		if err := fixedLen(index, data, 1); err != nil {
			return nil, err
		}
		return data[0] != 0, nil
	case OIDInt2:
		if err := fixedLen(index, data, 2); err != nil {
			return nil, err
		}
		return int64(int16(be.Uint16(data))), nil
	case OIDInt4:
		if err := fixedLen(index, data, 4); err != nil {
			return nil, err
		}
		return int64(int32(be.Uint32(data))), nil
	case OIDOid, OIDXid:
		if err := fixedLen(index, data, 4); err != nil {
			return nil, err
		}
		return int64(be.Uint32(data)), nil
	case OIDInt8:
		if err := fixedLen(index, data, 8); err != nil {
			return nil, err
		}
		return int64(be.Uint64(data)), nil
	case OIDFloat4:
		if err := fixedLen(index, data, 4); err != nil {
			return nil, err
		}
		return float64(math.Float32frombits(be.Uint32(data))), nil
	case OIDFloat8:
		if err := fixedLen(index, data, 8); err != nil {
			return nil, err
		}
		return math.Float64frombits(be.Uint64(data)), nil
	case OIDBytea:
		return append([]byte(nil), data...), nil
	case OIDDate:
		if err := fixedLen(index, data, 4); err != nil {
			return nil, err
		}
		days := int32(be.Uint32(data))
		if days == math.MaxInt32 || days == math.MinInt32 {
			return nil, sqlerr.New(sqlerr.FeatureNotSupported, "infinite date values are not supported")
		}
		y, m, d := civilFromDays(int64(days) + unixToPGEpochDays)
		return time.Date(int(y), time.Month(m), d, 0, 0, 0, 0, time.UTC), nil
	case OIDTimestamp, OIDTimestampTZ:
		if err := fixedLen(index, data, 8); err != nil {
			return nil, err
		}
		us := int64(be.Uint64(data))
		if us == math.MaxInt64 || us == math.MinInt64 {
			return nil, sqlerr.New(sqlerr.FeatureNotSupported, "infinite timestamp values are not supported")
		}
		return time.UnixMicro(us + unixToPGEpochUs).UTC(), nil
	case OIDTime:
		if err := fixedLen(index, data, 8); err != nil {
			return nil, err
		}
		us := int64(be.Uint64(data))
		if us < 0 || us > usPerDay {
			return nil, incorrectBinary(index)
		}
		return string(AppendTime(nil, us)), nil
	case OIDTimeTZ:
		return decodeTimeTZBinary(index, data) // timetz.go
	case OIDInterval:
		if err := fixedLen(index, data, 16); err != nil {
			return nil, err
		}
		us := int64(be.Uint64(data))
		days := int32(be.Uint32(data[8:]))
		months := int32(be.Uint32(data[12:]))
		return string(AppendInterval(nil, months, days, us)), nil
	case OIDNumeric:
		return decodeNumericBinary(index, data)
	case OIDJSONB:
		if len(data) < 1 {
			return nil, insufficientData()
		}
		if data[0] != 1 {
			return nil, sqlerr.New(sqlerr.InvalidBinaryRepresentation, "unsupported jsonb version number %d", data[0])
		}
		data = data[1:]
	case OIDUUID:
		if err := fixedLen(index, data, 16); err != nil {
			return nil, err
		}
		return types.UUIDFromBytes(data), nil
	case OIDInet:
		return types.InetFromBytes(data)
	case OIDCidr:
		return types.CidrFromBytes(data)
	case OIDMoney:
		if err := fixedLen(index, data, 8); err != nil {
			return nil, err
		}
		return int64(be.Uint64(data)), nil // cash_recv: the cents
	case OIDMacAddr:
		return types.MacAddrFromBytes(data)
	case OIDMacAddr8:
		return types.MacAddr8FromBytes(data)
	case OIDTSVector:
		return types.TSVectorFromBytes(data)
	case OIDTSQuery:
		return types.TSQueryFromBytes(data)
	case OIDRegConfig:
		return types.RegConfigFromBytes(data)
	case OIDBit, OIDVarBit:
		return types.BitFromBytes(data) // the '0'/'1' text, read again as the target type
	case OIDPgLsn:
		return types.LSNFromBytes(data)
	case OIDUnknown, OIDText, OIDVarchar, OIDBPChar, OIDName, OIDJSON, OIDChar:
		// "char"'s binary form is its one byte, like text's
	case OIDInt2Vector:
		return decodeBinaryArray(index, OIDInt2, data)
	case OIDOidVector:
		return decodeBinaryArray(index, OIDOid, data)
	default:
		if v, ok := rangeVariantOf(oid); ok {
			return decodeRangeBinary(index, v, data) // ranges.go
		}
		if v, ok := geoVariantOf(oid); ok {
			return types.GeoFromBytes(data, v) // geometric.go
		}
		if elem, ok := ElemOIDOf(oid); ok {
			return decodeBinaryArray(index, elem, data)
		}
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "binary format for parameters of type %d is not supported", oid)
	}
	if err := checkUTF8(data); err != nil {
		return nil, err
	}
	return string(data), nil
}

// decodeNumericBinary turns numeric's binary form into its text (numeric
// parameters are passed to the engine as text).
func decodeNumericBinary(index int, data []byte) (any, error) {
	be := binary.BigEndian
	if len(data) < 8 {
		return nil, insufficientData()
	}
	ndigits := int(be.Uint16(data))
	weight := int(int16(be.Uint16(data[2:])))
	sign := be.Uint16(data[4:])
	dscale := int(be.Uint16(data[6:]))
	if len(data) != 8+2*ndigits {
		if len(data) < 8+2*ndigits {
			return nil, insufficientData()
		}
		return nil, incorrectBinary(index)
	}
	switch sign {
	case 0xC000:
		return "NaN", nil
	case 0xD000:
		return "Infinity", nil
	case 0xF000:
		return "-Infinity", nil
	case 0x0000, 0x4000:
	default:
		return nil, sqlerr.New(sqlerr.InvalidBinaryRepresentation, "invalid sign in external \"numeric\" value")
	}
	if dscale > 0x3FFF {
		return nil, sqlerr.New(sqlerr.InvalidBinaryRepresentation, "invalid scale in external \"numeric\" value")
	}
	digit := func(i int) int {
		if i < 0 || i >= ndigits {
			return 0
		}
		return int(be.Uint16(data[8+2*i:]))
	}
	for i := 0; i < ndigits; i++ {
		if digit(i) > 9999 {
			return nil, sqlerr.New(sqlerr.InvalidBinaryRepresentation, "invalid digit in external \"numeric\" value")
		}
	}
	var b strings.Builder
	if sign == 0x4000 {
		b.WriteByte('-')
	}
	// Integer part: base-10000 digits 0..weight.
	if weight < 0 {
		b.WriteByte('0')
	} else {
		for i := 0; i <= weight; i++ {
			d := digit(i)
			if i == 0 {
				b.WriteString(strconv.Itoa(d))
			} else {
				b.WriteString(pad4(d))
			}
		}
	}
	if dscale > 0 {
		b.WriteByte('.')
		frac := strings.Builder{}
		for i := weight + 1; frac.Len() < dscale; i++ {
			frac.WriteString(pad4(digit(i)))
		}
		b.WriteString(frac.String()[:dscale])
	}
	return b.String(), nil
}

func pad4(d int) string {
	s := strconv.Itoa(d)
	return strings.Repeat("0", 4-len(s)) + s
}

// ElemOIDOf returns the element type OID of an array type OID (the
// inverse of ArrayOIDOf).
func ElemOIDOf(oid uint32) (uint32, bool) {
	for e, a := range arrayOIDs {
		if a == oid {
			return e, true
		}
	}
	return 0, false
}

// decodeBinaryArray reads PostgreSQL's binary array format (dimensions,
// a null flag, the element type, per dimension its size and lower bound,
// then each element as a length and its binary value, -1 for NULL) and
// returns the array's text form ('{1,NULL,3}', nested braces for several
// dimensions), which the engine parses like a text parameter.
func decodeBinaryArray(index int, elem uint32, data []byte) (any, error) {
	be := binary.BigEndian
	if len(data) < 12 {
		return nil, insufficientData()
	}
	ndim := int(int32(be.Uint32(data)))
	if ndim < 0 || ndim > 6 {
		return nil, sqlerr.New(sqlerr.InvalidBinaryRepresentation, "invalid number of dimensions: %d", ndim)
	}
	if got := be.Uint32(data[8:]); got != elem {
		return nil, sqlerr.New(sqlerr.DatatypeMismatch, "binary data has array element type %d instead of expected %d", got, elem)
	}
	data = data[12:]
	if ndim == 0 {
		return "{}", nil
	}
	if len(data) < 8*ndim {
		return nil, insufficientData()
	}
	dims := make([]int, ndim)
	total := 1
	for d := range dims {
		n := int(int32(be.Uint32(data[8*d:])))
		if n < 0 || n > 1<<24 {
			return nil, sqlerr.New(sqlerr.ProgramLimitExceeded, "array size exceeds the maximum allowed")
		}
		dims[d] = n
		total *= n
		if total > 1<<24 {
			return nil, sqlerr.New(sqlerr.ProgramLimitExceeded, "array size exceeds the maximum allowed")
		}
	}
	data = data[8*ndim:]
	elems := make([]string, 0, total)
	for i := 0; i < total; i++ {
		if len(data) < 4 {
			return nil, insufficientData()
		}
		n := int(int32(be.Uint32(data)))
		data = data[4:]
		if n == -1 {
			elems = append(elems, "NULL")
			continue
		}
		if n < 0 || n > len(data) {
			return nil, insufficientData()
		}
		v, err := decodeBinary(index, elem, data[:n])
		if err != nil {
			return nil, err
		}
		data = data[n:]
		if c, ok := v.(int64); ok && elem == OIDMoney {
			v = types.FormatMoney(c) // cents, read back as money's text
		}
		elems = append(elems, arrayElemText(v))
	}
	if len(data) != 0 {
		return nil, sqlerr.New(sqlerr.InvalidBinaryRepresentation, "incorrect binary data format in bind parameter %d", index)
	}
	var b strings.Builder
	var build func(d int)
	next := 0
	build = func(d int) {
		b.WriteByte('{')
		for i := 0; i < dims[d]; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			if d == ndim-1 {
				b.WriteString(elems[next])
				next++
			} else {
				build(d + 1)
			}
		}
		b.WriteByte('}')
	}
	build(0)
	return b.String(), nil
}

// arrayElemText is one decoded element in array text: numbers and
// booleans as they print, everything else quoted with " and \ escaped.
func arrayElemText(v any) string {
	var s string
	switch x := v.(type) {
	case bool:
		if x {
			return "t"
		}
		return "f"
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case []byte:
		s = `\x` + hex.EncodeToString(x)
	case time.Time:
		s = x.Format("2006-01-02 15:04:05.999999Z07:00")
	case string:
		s = x
	default:
		s = fmt.Sprint(x)
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
