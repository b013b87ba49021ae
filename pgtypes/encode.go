package pgtypes

import (
	"encoding/binary"
	"math"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Format codes of the extended protocol (Bind's parameter and result formats).
const (
	FormatText   int16 = 0
	FormatBinary int16 = 1
)

// mode is how an encoder renders values: PostgreSQL text format, binary
// format, or as a JSON value (inside MAP / ROW / nested ARRAY documents).
type mode uint8

const (
	modeText mode = iota
	modeBinary
	modeJSON
)

// valueEncoder renders the values of one Arrow array. An encoder is built
// once per result column (the type switch happens there, not per value) and
// reset to each batch's array.
type valueEncoder interface {
	// reset points the encoder at arr; it fails when arr's Arrow type is not
	// the one the column's types.T promises.
	reset(arr arrow.Array) error
	// appendValue appends the value at row, which is not null.
	appendValue(dst []byte, row int) []byte
}

func mismatch(arr arrow.Array, t types.T) error {
	return sqlerr.New(sqlerr.InternalError, "result batch has Arrow type %s for a column of type %s", arr.DataType(), t)
}

// newEncoder builds the encoder of a value of type t in mode m; loc is the
// session's TimeZone (nil: UTC), in which timestamptz text is rendered, st
// its DateStyle and IntervalStyle, in which the text of dates, timestamps
// and intervals is written (json always writes ISO, as PostgreSQL's
// json output does; binary is the same whatever the styles), and its
// extra_float_digits, which reals and doubles follow in text and json.
func newEncoder(t types.T, m mode, loc *time.Location, st types.Style) (valueEncoder, error) {
	if m != modeText {
		st = types.Style{Float: st.Float}
	}
	switch t.Kind {
	case types.Bool:
		return &boolEncoder{mode: m}, nil
	case types.Int8:
		return &intEncoder[int8]{t: t, mode: m, width: 2}, nil
	case types.Int16:
		return &intEncoder[int16]{t: t, mode: m, width: 2}, nil
	case types.Int32:
		return &intEncoder[int32]{t: t, mode: m, width: 4}, nil
	case types.Int64:
		if t.Variant == types.Money && m != modeBinary {
			return &moneyEncoder{ints: intEncoder[int64]{t: t, mode: m, width: 8}}, nil // money.go
		}
		return &intEncoder[int64]{t: t, mode: m, width: 8}, nil
	case types.Oid:
		if t.Variant.IsReg() && m == modeText {
			return &regEncoder{intEncoder: intEncoder[uint32]{t: t, mode: m, width: 4}, variant: t.Variant}, nil
		}
		return &intEncoder[uint32]{t: t, mode: m, width: 4}, nil
	case types.Float32:
		return &float32Encoder{mode: m, digits: st.Float}, nil
	case types.Float64:
		return &float64Encoder{mode: m, digits: st.Float}, nil
	case types.Decimal:
		if t.Precision == 0 {
			return &numericEncoder{mode: m}, nil
		}
		return &decimalEncoder{mode: m}, nil
	case types.Unknown, types.Null, types.String, types.Name:
		if t.IsRange() || t.IsMultirange() {
			return newRangeEncoder(t, m, loc, st), nil // ranges.go
		}
		if t.IsGeometric() {
			return &geoEncoder{mode: m, variant: t.Variant, digits: st.Float}, nil // geometric.go
		}
		// json travels as its text in both formats (jsonb's binary form
		// is a version byte, 1, then the text); inside a json document a
		// json value is embedded as it is, not quoted as a string
		e := &stringEncoder{mode: m, json: t.Variant.IsJSON(), jsonbBinary: (t.Variant == types.JSONB || t.Variant == types.JSONPath) && m == modeBinary}
		if m == modeBinary {
			e.binary = binaryForms[t.Variant]
		}
		return e, nil
	case types.Char:
		return &stringEncoder{mode: m, padTo: t.Length}, nil
	case types.Bytes, types.Binary:
		return &bytesEncoder{mode: m}, nil
	case types.Date:
		return &dateEncoder{mode: m, style: st.Date}, nil
	case types.Time:
		return &timeEncoder{mode: m}, nil
	case types.Timestamp, types.TimestampTZ:
		e := &timestampEncoder{mode: m, withZone: t.Kind == types.TimestampTZ, style: st.Date}
		if e.withZone && (loc != nil && loc != time.UTC || st.Date.Output != types.OutputISO) {
			// the styles but ISO write the zone's abbreviation, which UTC has too
			if loc == nil {
				loc = time.UTC
			}
			e.zone = &zoneCache{loc: loc}
		}
		return e, nil
	case types.Interval:
		return &intervalEncoder{mode: m, style: st.Interval}, nil
	case types.TimeTZ:
		return &timeTZEncoder{mode: m}, nil // timetz.go
	case types.Array:
		if t.Elem == nil {
			break
		}
		if d := arrayDepth(t); d > 1 && m != modeJSON { // int[][]: multidim.go
			leaf, err := newEncoder(innermost(t), m, loc, st)
			if err != nil {
				return nil, err
			}
			return newMDArrayEncoder(t, m, d, leaf), nil
		}
		if IsPGArray(t) && m != modeJSON {
			elem, err := newEncoder(*t.Elem, m, loc, st)
			if err != nil {
				return nil, err
			}
			elemOID, _, _ := OIDOf(*t.Elem)
			return &pgArrayEncoder{mode: m, elem: elem, elemOID: elemOID, vector: t.Variant.IsVector()}, nil
		}
		elem, err := newEncoder(*t.Elem, modeJSON, loc, st)
		if err != nil {
			return nil, err
		}
		return &jsonArrayEncoder{elem: elem}, nil
	case types.Map:
		if t.Key == nil || t.Elem == nil {
			break
		}
		key, err := newEncoder(*t.Key, modeJSON, loc, st)
		if err != nil {
			return nil, err
		}
		val, err := newEncoder(*t.Elem, modeJSON, loc, st)
		if err != nil {
			return nil, err
		}
		return &mapEncoder{key: key, val: val}, nil
	case types.Row:
		if t.IsAnonRecord() && m != modeJSON { // record.go
			return newRecordEncoder(t, m, loc, st)
		}
		enc := &rowEncoder{fields: make([]valueEncoder, len(t.Fields)), names: make([][]byte, len(t.Fields))}
		for i, f := range t.Fields {
			fe, err := newEncoder(f.Type, modeJSON, loc, st)
			if err != nil {
				return nil, err
			}
			enc.fields[i] = fe
			enc.names[i] = appendJSONString(nil, []byte(f.Name))
		}
		return enc, nil
	}
	return nil, sqlerr.New(sqlerr.FeatureNotSupported, "type %s cannot be sent to a PostgreSQL client", t)
}

func appendUint16(dst []byte, v uint16) []byte { return binary.BigEndian.AppendUint16(dst, v) }
func appendUint32(dst []byte, v uint32) []byte { return binary.BigEndian.AppendUint32(dst, v) }
func appendUint64(dst []byte, v uint64) []byte { return binary.BigEndian.AppendUint64(dst, v) }

// appendJSONString appends s as a JSON string, escaping as PostgreSQL's
// escape_json does.
func appendJSONString(dst, s []byte) []byte {
	dst = append(dst, '"')
	for _, c := range s {
		switch c {
		case '"':
			dst = append(dst, '\\', '"')
		case '\\':
			dst = append(dst, '\\', '\\')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			if c < 0x20 {
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
			} else {
				dst = append(dst, c)
			}
		}
	}
	return append(dst, '"')
}

// quoteJSONTail turns the text appended to dst from start on into a JSON
// string: the text renderings of dates, times and intervals are quoted.
func quoteJSONTail(dst []byte, start int, scratch *[]byte) []byte {
	*scratch = append((*scratch)[:0], dst[start:]...)
	return appendJSONString(dst[:start], *scratch)
}

type boolEncoder struct {
	mode mode
	arr  *array.Boolean
}

func (e *boolEncoder) reset(arr arrow.Array) error {
	a, ok := arr.(*array.Boolean)
	if !ok {
		return mismatch(arr, types.BoolType)
	}
	e.arr = a
	return nil
}

func (e *boolEncoder) appendValue(dst []byte, row int) []byte {
	v := e.arr.Value(row)
	switch e.mode {
	case modeBinary:
		if v {
			return append(dst, 1)
		}
		return append(dst, 0)
	case modeJSON:
		if v {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	}
	if v {
		return append(dst, 't')
	}
	return append(dst, 'f')
}

type integer interface {
	int8 | int16 | int32 | int64 | uint32
}

type intEncoder[T integer] struct {
	t     types.T
	mode  mode
	width int
	vals  []T
}

func (e *intEncoder[T]) reset(arr arrow.Array) error {
	var vals any
	switch a := arr.(type) {
	case *array.Int8:
		vals = a.Int8Values()
	case *array.Int16:
		vals = a.Int16Values()
	case *array.Int32:
		vals = a.Int32Values()
	case *array.Int64:
		vals = a.Int64Values()
	case *array.Uint32:
		vals = a.Uint32Values()
	}
	v, ok := vals.([]T)
	if !ok {
		return mismatch(arr, e.t)
	}
	e.vals = v
	return nil
}

func (e *intEncoder[T]) appendValue(dst []byte, row int) []byte {
	v := e.vals[row]
	if e.mode == modeBinary {
		switch e.width {
		case 2:
			return appendUint16(dst, uint16(int16(v)))
		case 4:
			return appendUint32(dst, uint32(v))
		default:
			return appendUint64(dst, uint64(int64(v)))
		}
	}
	if e.width == 4 && e.t.Kind == types.Oid {
		return appendUintDecimal(dst, uint64(v))
	}
	return appendIntDecimal(dst, int64(v))
}

func appendIntDecimal(dst []byte, v int64) []byte {
	if v < 0 {
		dst = append(dst, '-')
		return appendUintDecimal(dst, uint64(-v)) // -MinInt64 wraps to 2^63, which is right as uint64
	}
	return appendUintDecimal(dst, uint64(v))
}

func appendUintDecimal(dst []byte, v uint64) []byte {
	if v < 10 {
		return append(dst, byte('0'+v))
	}
	var buf [20]byte
	i := len(buf)
	for v >= 10 {
		i--
		buf[i] = byte('0' + v%10)
		v /= 10
	}
	i--
	buf[i] = byte('0' + v)
	return append(dst, buf[i:]...)
}

type float32Encoder struct {
	mode mode
	vals []float32
	// digits is the session's extra_float_digits (newEncoder's
	// Style.Float), for text and json
	digits types.FloatDigits
}

func (e *float32Encoder) reset(arr arrow.Array) error {
	a, ok := arr.(*array.Float32)
	if !ok {
		return mismatch(arr, types.Float32Type)
	}
	e.vals = a.Float32Values()
	return nil
}

func (e *float32Encoder) appendValue(dst []byte, row int) []byte {
	v := e.vals[row]
	switch e.mode {
	case modeBinary:
		if v != v {
			return appendUint32(dst, pgNaN32)
		}
		return appendUint32(dst, math.Float32bits(v))
	case modeJSON:
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			dst = append(dst, '"')
			dst = AppendFloat32(dst, v)
			return append(dst, '"')
		}
	}
	return types.AppendFloatText(dst, float64(v), 32, e.digits)
}

// PostgreSQL sends every NaN as C's NAN, the positive quiet NaN with an
// empty payload; Go's math.NaN() sets the lowest payload bit, and a NaN
// computed by a kernel may carry any sign or payload.
const (
	pgNaN32 uint32 = 0x7fc00000
	pgNaN64 uint64 = 0x7ff8000000000000
)

type float64Encoder struct {
	mode mode
	vals []float64
	// digits: as float32Encoder's
	digits types.FloatDigits
}

func (e *float64Encoder) reset(arr arrow.Array) error {
	a, ok := arr.(*array.Float64)
	if !ok {
		return mismatch(arr, types.Float64Type)
	}
	e.vals = a.Float64Values()
	return nil
}

func (e *float64Encoder) appendValue(dst []byte, row int) []byte {
	v := e.vals[row]
	switch e.mode {
	case modeBinary:
		if v != v {
			return appendUint64(dst, pgNaN64)
		}
		return appendUint64(dst, math.Float64bits(v))
	case modeJSON:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			dst = append(dst, '"')
			dst = AppendFloat64(dst, v)
			return append(dst, '"')
		}
	}
	return types.AppendFloatText(dst, v, 64, e.digits)
}

type decimalEncoder struct {
	mode  mode
	arr   *array.Decimal128
	scale int32
}

func (e *decimalEncoder) reset(arr arrow.Array) error {
	a, ok := arr.(*array.Decimal128)
	if !ok {
		return mismatch(arr, types.NumericType)
	}
	e.arr = a
	// The Arrow type is authoritative for the scale: an unconstrained
	// NUMERIC column carries the scale of its values there.
	e.scale = a.DataType().(*arrow.Decimal128Type).Scale
	return nil
}

func (e *decimalEncoder) appendValue(dst []byte, row int) []byte {
	n := e.arr.Value(row)
	if e.mode == modeBinary {
		return AppendNumericBinary(dst, n.HighBits(), n.LowBits(), e.scale)
	}
	return AppendDecimal128(dst, n.HighBits(), n.LowBits(), e.scale)
}

// AppendNumericBinary appends the decimal (hi, lo) * 10^-scale in numeric's
// binary format: ndigits, weight, sign, dscale, then base-10000 digits.
func AppendNumericBinary(dst []byte, hi int64, lo uint64, scale int32) []byte {
	var buf [40]byte
	digits, neg := decimal128Digits(&buf, hi, lo)
	dscale := scale
	if scale < 0 {
		// Negative scales multiply by a power of ten: append the zeros.
		var wide [80]byte
		n := copy(wide[:], digits)
		for i := int32(0); i < -scale; i++ {
			wide[n] = '0'
			n++
		}
		digits = wide[:n]
		scale, dscale = 0, 0
	}
	s := int(scale)
	// Split into integer and fraction digits, then regroup each side into
	// base-10000 digits aligned on the decimal point.
	var intPart, fracPart []byte
	if len(digits) > s {
		intPart, fracPart = digits[:len(digits)-s], digits[len(digits)-s:]
	} else {
		var pad [80]byte
		n := 0
		for i := len(digits); i < s; i++ {
			pad[n] = '0'
			n++
		}
		n += copy(pad[n:], digits)
		fracPart = pad[:n]
	}
	var groups [24]uint16
	ng := 0
	lead := len(intPart) % 4
	if lead == 0 && len(intPart) > 0 {
		lead = 4
	}
	for i := 0; i < len(intPart); {
		w := 4
		if i == 0 {
			w = lead
		}
		groups[ng] = parseGroup(intPart[i : i+w])
		ng++
		i += w
	}
	intGroups := ng
	for i := 0; i < len(fracPart); i += 4 {
		end := i + 4
		var g [4]byte
		copy(g[:], "0000")
		if end > len(fracPart) {
			end = len(fracPart)
		}
		copy(g[:], fracPart[i:end])
		groups[ng] = parseGroup(g[:])
		ng++
	}
	return appendNumericGroups(dst, groups[:ng], intGroups-1, neg, int(dscale))
}

// appendNumericGroups appends numeric's binary form of the base-10000
// digits groups, aligned on the decimal point, the first of weight
// weight (its power of 10000): PostgreSQL's sends no leading or trailing
// zero digit, weight 0 and no sign for zero, and the display scale.
func appendNumericGroups(dst []byte, groups []uint16, weight int, neg bool, dscale int) []byte {
	first, last := 0, len(groups)
	for first < last && groups[first] == 0 {
		first++
		weight--
	}
	for last > first && groups[last-1] == 0 {
		last--
	}
	sign := uint16(0)
	if neg && last > first {
		sign = 0x4000
	}
	if last == first {
		weight = 0
	}
	dst = appendUint16(dst, uint16(last-first))
	dst = appendUint16(dst, uint16(int16(weight)))
	dst = appendUint16(dst, sign)
	dst = appendUint16(dst, uint16(dscale))
	for _, g := range groups[first:last] {
		dst = appendUint16(dst, g)
	}
	return dst
}

func parseGroup(b []byte) uint16 {
	var v uint16
	for _, c := range b {
		v = v*10 + uint16(c-'0')
	}
	return v
}

// binaryForms are the binary forms of the String variants that have one
// of their own.
var binaryForms = map[types.Variant]func(string) ([]byte, error){
	types.UUID: types.UUIDBytes, types.Inet: types.InetBytes, types.PgLsn: types.LSNBytes,
	types.Cidr:    types.CidrBytes,
	types.MacAddr: types.MacBytes, types.MacAddr8: types.MacBytes,
	types.TSVector: types.TSVectorBytes, types.TSQuery: types.TSQueryBytes, types.RegConfig: types.RegConfigBytes,
}

type stringEncoder struct {
	mode        mode
	padTo       int
	json        bool // the strings are json values
	jsonbBinary bool // binary jsonb: a version byte before the text
	// binary, when set, is the type's binary form of its text (uuid's
	// 16 bytes, inet's address record, pg_lsn's 8 bytes)
	binary  func(string) ([]byte, error)
	arr     *array.String
	scratch []byte
}

func (e *stringEncoder) reset(arr arrow.Array) error {
	a, ok := arr.(*array.String)
	if !ok {
		return mismatch(arr, types.StringType)
	}
	e.arr = a
	return nil
}

func (e *stringEncoder) appendValue(dst []byte, row int) []byte {
	// ValueBytes starts at the first value of a sliced array, so offsets
	// are taken relative to offs[0].
	offs := e.arr.ValueOffsets()
	v := e.arr.ValueBytes()[offs[row]-offs[0] : offs[row+1]-offs[0]]
	if e.padTo > 0 {
		// bpchar output is blank-padded to its declared length in characters.
		if n := utf8.RuneCount(v); n < e.padTo {
			e.scratch = append(e.scratch[:0], v...)
			for ; n < e.padTo; n++ {
				e.scratch = append(e.scratch, ' ')
			}
			v = e.scratch
		}
	}
	if e.mode == modeJSON && !e.json {
		return appendJSONString(dst, v)
	}
	if e.jsonbBinary {
		dst = append(dst, 1)
	}
	if e.binary != nil {
		if b, err := e.binary(string(v)); err == nil {
			return append(dst, b...)
		}
	}
	return append(dst, v...)
}

type bytesEncoder struct {
	mode    mode
	value   func(int) []byte
	scratch []byte
}

func (e *bytesEncoder) reset(arr arrow.Array) error {
	switch a := arr.(type) {
	case *array.Binary:
		e.value = a.Value
	case *array.FixedSizeBinary:
		e.value = a.Value
	default:
		return mismatch(arr, types.BytesType)
	}
	return nil
}

func (e *bytesEncoder) appendValue(dst []byte, row int) []byte {
	v := e.value(row)
	switch e.mode {
	case modeBinary:
		return append(dst, v...)
	case modeJSON:
		start := len(dst)
		dst = AppendByteaHex(dst, v)
		return quoteJSONTail(dst, start, &e.scratch)
	}
	return AppendByteaHex(dst, v)
}

type dateEncoder struct {
	mode    mode
	style   types.DateStyle // text in another style than ISO: types.AppendDateStyled
	vals    []arrow.Date32
	scratch []byte
}

func (e *dateEncoder) reset(arr arrow.Array) error {
	a, ok := arr.(*array.Date32)
	if !ok {
		return mismatch(arr, types.DateType)
	}
	e.vals = a.Date32Values()
	return nil
}

func (e *dateEncoder) appendValue(dst []byte, row int) []byte {
	days := int64(e.vals[row])
	switch e.mode {
	case modeBinary:
		if days == math.MaxInt32 || days == math.MinInt32 { // ±infinity are not shifted
			return appendUint32(dst, uint32(int32(days)))
		}
		return appendUint32(dst, uint32(int32(days-unixToPGEpochDays)))
	case modeJSON:
		start := len(dst)
		dst = AppendDate(dst, days)
		return quoteJSONTail(dst, start, &e.scratch)
	}
	if e.style.Output != types.OutputISO && days != math.MaxInt32 && days != math.MinInt32 {
		return types.AppendDateStyled(dst, time.Unix(days*86400, 0).UTC(), e.style)
	}
	return AppendDate(dst, days)
}

type timeEncoder struct {
	mode    mode
	micros  func(int) int64
	scratch []byte
}

func (e *timeEncoder) reset(arr arrow.Array) error {
	switch a := arr.(type) {
	case *array.Time32:
		vals := a.Time32Values()
		if a.DataType().(*arrow.Time32Type).Unit == arrow.Second {
			e.micros = func(i int) int64 { return int64(vals[i]) * usPerSecond }
		} else {
			e.micros = func(i int) int64 { return int64(vals[i]) * 1000 }
		}
	case *array.Time64:
		vals := a.Time64Values()
		if a.DataType().(*arrow.Time64Type).Unit == arrow.Nanosecond {
			e.micros = func(i int) int64 { return roundNanosToMicros(int64(vals[i])) }
		} else {
			e.micros = func(i int) int64 { return int64(vals[i]) }
		}
	default:
		return mismatch(arr, types.T{Kind: types.Time})
	}
	return nil
}

func (e *timeEncoder) appendValue(dst []byte, row int) []byte {
	us := e.micros(row)
	switch e.mode {
	case modeBinary:
		return appendUint64(dst, uint64(us))
	case modeJSON:
		start := len(dst)
		dst = AppendTime(dst, us)
		return quoteJSONTail(dst, start, &e.scratch)
	}
	return AppendTime(dst, us)
}

type timestampEncoder struct {
	mode     mode
	withZone bool
	style    types.DateStyle // text in another style than ISO: types.AppendTimestampStyled
	zone     *zoneCache      // nil: UTC
	vals     []arrow.Timestamp
	nanos    bool
	scratch  []byte
}

func (e *timestampEncoder) reset(arr arrow.Array) error {
	a, ok := arr.(*array.Timestamp)
	if !ok {
		return mismatch(arr, types.TimestampType(6))
	}
	switch a.DataType().(*arrow.TimestampType).Unit {
	case arrow.Microsecond:
		e.nanos = false
	case arrow.Nanosecond:
		e.nanos = true
	default:
		return mismatch(arr, types.TimestampType(6))
	}
	e.vals = a.Values()
	return nil
}

func (e *timestampEncoder) appendValue(dst []byte, row int) []byte {
	us := int64(e.vals[row])
	if e.nanos {
		us = roundNanosToMicros(us)
	}
	switch e.mode {
	case modeBinary:
		if us != math.MaxInt64 && us != math.MinInt64 {
			us -= unixToPGEpochUs
		}
		return appendUint64(dst, uint64(us))
	case modeJSON:
		start := len(dst)
		dst = appendTimestampIn(dst, us, e.withZone, e.zone, true)
		return quoteJSONTail(dst, start, &e.scratch)
	}
	if e.style.Output != types.OutputISO && us != math.MaxInt64 && us != math.MinInt64 {
		return e.appendStyled(dst, us)
	}
	return appendTimestampIn(dst, us, e.withZone, e.zone, false)
}

// appendStyled writes a finite timestamp in e's DateStyle other than ISO;
// a timestamptz with its zone's abbreviation.
func (e *timestampEncoder) appendStyled(dst []byte, us int64) []byte {
	sec := floorDiv(us, usPerSecond)
	frac := int(us - sec*usPerSecond)
	off, abbrev := 0, ""
	if e.withZone {
		off, abbrev = e.zone.offsetName(sec)
	}
	wall := time.Unix(sec+int64(off), 0).UTC()
	return types.AppendTimestampStyled(dst, wall, frac, e.style, e.withZone, off, abbrev)
}

// zoneCache finds the UTC offset of instants in a zone, remembering the
// span of the last one's offset: the values of a column mostly fall in a
// few spans, so the time-zone lookup runs rarely.
type zoneCache struct {
	loc        *time.Location
	start, end int64 // [start, end) in Unix seconds; end == start: empty
	off        int
	name       string // the zone's abbreviation in the span
}

func (z *zoneCache) offset(unixSec int64) int {
	off, _ := z.offsetName(unixSec)
	return off
}

// offsetName is the offset and the abbreviation of the zone at unixSec.
func (z *zoneCache) offsetName(unixSec int64) (int, string) {
	if unixSec >= z.start && unixSec < z.end {
		return z.off, z.name
	}
	t := time.Unix(unixSec, 0).In(z.loc)
	z.name, z.off = t.Zone()
	st, en := t.ZoneBounds()
	z.start, z.end = math.MinInt64, math.MaxInt64
	if !st.IsZero() {
		z.start = st.Unix()
	}
	if !en.IsZero() {
		z.end = en.Unix()
	}
	return z.off, z.name
}

type intervalEncoder struct {
	mode    mode
	style   types.IntervalStyle
	vals    []arrow.MonthDayNanoInterval
	scratch []byte
}

func (e *intervalEncoder) reset(arr arrow.Array) error {
	a, ok := arr.(*array.MonthDayNanoInterval)
	if !ok {
		return mismatch(arr, types.T{Kind: types.Interval})
	}
	e.vals = a.MonthDayNanoIntervalValues()
	return nil
}

func (e *intervalEncoder) appendValue(dst []byte, row int) []byte {
	v := e.vals[row]
	us := roundNanosToMicros(v.Nanoseconds)
	switch e.mode {
	case modeBinary:
		dst = appendUint64(dst, uint64(us))
		dst = appendUint32(dst, uint32(v.Days))
		return appendUint32(dst, uint32(v.Months))
	case modeJSON:
		start := len(dst)
		dst = AppendInterval(dst, v.Months, v.Days, us)
		return quoteJSONTail(dst, start, &e.scratch)
	}
	return types.AppendIntervalStyled(dst, v.Months, v.Days, us, e.style)
}

// pgArrayEncoder renders ARRAY<scalar> as a one-dimensional PostgreSQL
// array: text '{1,2,NULL}' (array_out) or the binary array format. An
// int2vector or oidvector (vector) prints its elements separated by
// spaces ("2 1", int2vectorout) and is sent as an array with lower bound 0.
type pgArrayEncoder struct {
	mode    mode
	elem    valueEncoder
	elemOID uint32
	vector  bool
	arr     *array.List
	values  arrow.Array
	scratch []byte
}

func (e *pgArrayEncoder) reset(arr arrow.Array) error {
	a, ok := arr.(*array.List)
	if !ok {
		return mismatch(arr, types.ArrayOf(types.UnknownType))
	}
	e.arr = a
	e.values = a.ListValues()
	return e.elem.reset(e.values)
}

func (e *pgArrayEncoder) appendValue(dst []byte, row int) []byte {
	start, end := e.arr.ValueOffsets(row)
	if e.mode == modeBinary {
		return e.appendBinary(dst, int(start), int(end))
	}
	if e.vector {
		for i := int(start); i < int(end); i++ {
			if i > int(start) {
				dst = append(dst, ' ')
			}
			if !e.values.IsNull(i) { // vectors hold no NULLs; print one as nothing
				dst = e.elem.appendValue(dst, i)
			}
		}
		return dst
	}
	dst = append(dst, '{')
	for i := int(start); i < int(end); i++ {
		if i > int(start) {
			dst = append(dst, ',')
		}
		if e.values.IsNull(i) {
			dst = append(dst, "NULL"...)
			continue
		}
		at := len(dst)
		dst = e.elem.appendValue(dst, i)
		dst = quoteArrayElem(dst, at, &e.scratch)
	}
	return append(dst, '}')
}

// ArrayElementText is s as an element of an array's text form, quoted
// where array_out would quote it (quoteArrayElem).
func ArrayElementText(s string) string {
	var scratch []byte
	return string(quoteArrayElem([]byte(s), 0, &scratch))
}

// quoteArrayElem double-quotes the element text appended to dst from at
// on where array_out would (needsArrayQuotes), escaping quotes and
// backslashes.
func quoteArrayElem(dst []byte, at int, scratch *[]byte) []byte {
	if !needsArrayQuotes(dst[at:]) {
		return dst
	}
	*scratch = append((*scratch)[:0], dst[at:]...)
	dst = append(dst[:at], '"')
	for _, c := range *scratch {
		if c == '"' || c == '\\' {
			dst = append(dst, '\\')
		}
		dst = append(dst, c)
	}
	return append(dst, '"')
}

// needsArrayQuotes is array_out's rule: empty strings, NULL look-alikes and
// anything holding a delimiter, brace, quote, backslash or white space.
func needsArrayQuotes(v []byte) bool {
	if len(v) == 0 {
		return true
	}
	if len(v) == 4 && (v[0]|0x20) == 'n' && (v[1]|0x20) == 'u' && (v[2]|0x20) == 'l' && (v[3]|0x20) == 'l' {
		return true
	}
	for _, c := range v {
		switch c {
		case '{', '}', ',', '"', '\\', ' ', '\t', '\n', '\r', '\v', '\f':
			return true
		}
	}
	return false
}

func (e *pgArrayEncoder) appendBinary(dst []byte, start, end int) []byte {
	n := end - start
	if n == 0 {
		dst = appendUint32(dst, 0) // ndim 0: the empty array
		dst = appendUint32(dst, 0)
		return appendUint32(dst, e.elemOID)
	}
	hasNull := uint32(0)
	if e.values.NullN() > 0 {
		for i := start; i < end; i++ {
			if e.values.IsNull(i) {
				hasNull = 1
				break
			}
		}
	}
	dst = appendUint32(dst, 1)
	dst = appendUint32(dst, hasNull)
	dst = appendUint32(dst, e.elemOID)
	dst = appendUint32(dst, uint32(n))
	if e.vector {
		dst = appendUint32(dst, 0) // int2vector/oidvector subscripts start at 0
	} else {
		dst = appendUint32(dst, 1) // lower bound
	}
	for i := start; i < end; i++ {
		if e.values.IsNull(i) {
			dst = appendUint32(dst, math.MaxUint32) // -1
			continue
		}
		at := len(dst)
		dst = appendUint32(dst, 0)
		dst = e.elem.appendValue(dst, i)
		binary.BigEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
	}
	return dst
}

// jsonArrayEncoder renders an ARRAY as a JSON array (used for arrays of
// nested types and for arrays inside JSON documents).
type jsonArrayEncoder struct {
	elem   valueEncoder
	arr    *array.List
	values arrow.Array
}

func (e *jsonArrayEncoder) reset(arr arrow.Array) error {
	a, ok := arr.(*array.List)
	if !ok {
		return mismatch(arr, types.ArrayOf(types.UnknownType))
	}
	e.arr = a
	e.values = a.ListValues()
	return e.elem.reset(e.values)
}

func (e *jsonArrayEncoder) appendValue(dst []byte, row int) []byte {
	start, end := e.arr.ValueOffsets(row)
	dst = append(dst, '[')
	for i := int(start); i < int(end); i++ {
		if i > int(start) {
			dst = append(dst, ',')
		}
		if e.values.IsNull(i) {
			dst = append(dst, "null"...)
			continue
		}
		dst = e.elem.appendValue(dst, i)
	}
	return append(dst, ']')
}

// mapEncoder renders a MAP as a JSON array of [key, value] pairs, keeping
// order and duplicates (a JSON object would lose both).
type mapEncoder struct {
	key, val    valueEncoder
	arr         *array.Map
	keys, items arrow.Array
}

func (e *mapEncoder) reset(arr arrow.Array) error {
	a, ok := arr.(*array.Map)
	if !ok {
		return mismatch(arr, types.T{Kind: types.Map})
	}
	e.arr, e.keys, e.items = a, a.Keys(), a.Items()
	if err := e.key.reset(e.keys); err != nil {
		return err
	}
	return e.val.reset(e.items)
}

func (e *mapEncoder) appendValue(dst []byte, row int) []byte {
	start, end := e.arr.ValueOffsets(row)
	dst = append(dst, '[')
	for i := int(start); i < int(end); i++ {
		if i > int(start) {
			dst = append(dst, ',')
		}
		dst = append(dst, '[')
		if e.keys.IsNull(i) {
			dst = append(dst, "null"...)
		} else {
			dst = e.key.appendValue(dst, i)
		}
		dst = append(dst, ',')
		if e.items.IsNull(i) {
			dst = append(dst, "null"...)
		} else {
			dst = e.val.appendValue(dst, i)
		}
		dst = append(dst, ']')
	}
	return append(dst, ']')
}

// rowEncoder renders a ROW as a JSON object keyed by field name, compact as
// row_to_json prints it.
type rowEncoder struct {
	fields []valueEncoder
	names  [][]byte // JSON-quoted field names
	arrs   []arrow.Array
}

func (e *rowEncoder) reset(arr arrow.Array) error {
	var err error
	e.arrs, err = resetFields(arr, e.fields, e.arrs)
	return err
}

// resetFields points the field encoders of a ROW value at the struct
// arr's children, which it returns in arrs (reused).
func resetFields(arr arrow.Array, fields []valueEncoder, arrs []arrow.Array) ([]arrow.Array, error) {
	a, ok := arr.(*array.Struct)
	if !ok || a.NumField() != len(fields) {
		return arrs, mismatch(arr, types.T{Kind: types.Row})
	}
	arrs = arrs[:0]
	for i, f := range fields {
		child := a.Field(i)
		if err := f.reset(child); err != nil {
			return arrs, err
		}
		arrs = append(arrs, child)
	}
	return arrs, nil
}

func (e *rowEncoder) appendValue(dst []byte, row int) []byte {
	dst = append(dst, '{')
	for i, f := range e.fields {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, e.names[i]...)
		dst = append(dst, ':')
		if e.arrs[i].IsNull(row) {
			dst = append(dst, "null"...)
			continue
		}
		dst = f.appendValue(dst, row)
	}
	return append(dst, '}')
}
