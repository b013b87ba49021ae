package exec

import (
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// CastExpr converts X to T with PostgreSQL's rules and errors.
type CastExpr struct {
	X Expr
	T types.T
	// Assign: an assignment to a varchar(n) or character(n) column (or an
	// array of them, a bit string column), which refuses a value too long
	// (22001) where a cast truncates it (AssignValue).
	Assign bool
}

func (e *CastExpr) Type() types.T  { return e.T }
func (e *CastExpr) String() string { return "CAST(" + e.X.String() + " AS " + e.T.String() + ")" }

func (e *CastExpr) Eval(ec *EvalContext, batch arrow.RecordBatch) (arrow.Array, error) {
	xa, err := e.X.Eval(ec, batch)
	if err != nil {
		return nil, err
	}
	defer xa.Release()
	from := e.X.Type()
	if e.Assign {
		if err := checkAssign(xa, from, e.T); err != nil { // bitcast.go
			return nil, err
		}
	}
	if castFamily(from, e.T) == FamIntCast {
		if ec.backendFor(FamIntCast) == BackendArrow {
			return arrowIntCast(ec, xa, e.T)
		}
		return intCast(ec, xa, from, e.T)
	}
	// every family asks (so that the kernel log records it); of these,
	// arrow-go serves integer to float casts
	if f := castFamily(from, e.T); ec.backendFor(f) == BackendArrow && f == FamIntFloatCast {
		return arrowIntFloatCast(ec, xa, e.T)
	}
	if from.IsInteger() {
		if out, ok := intToText(ec, xa, e.T); ok { // textfast.go
			return out, nil
		}
	}
	if isRegArray(from) && (e.T.IsString() || e.T.Kind == types.Name) {
		return regArrayToText(ec, xa, from, e.T) // arraycast.go
	}
	// the session's settings reach every cast path through env: a date
	// in numbers only (1/2/2020) is read in DateStyle's order, a date,
	// timestamp or interval written in its styles and a float in its
	// extra_float_digits, alone or as an array's element or a record's
	// field
	env := castEnv{style: ec.Style()}
	if CastNeedsSession(from, e.T) {
		env.loc = ec.Location()
	}
	cast := func(v any) (any, error) { return castValueIn(v, from, e.T, env) }
	b := array.NewBuilder(ec.Mem, e.T.ArrowType())
	defer b.Release()
	n := xa.Len()
	b.Reserve(n)
	for i := 0; i < n; i++ {
		v, err := cast(valueAt(xa, i))
		if err != nil {
			return nil, err
		}
		appendValue(b, v)
	}
	return b.NewArray(), nil
}

// textual reports whether t is text (or an unknown literal) that a cast
// reads with the target type's input function.
func textual(t types.T) bool { return t.Kind == types.Unknown || t.IsString() }

// textToDateTime reports whether from -> to reads text as a date,
// timestamp or timestamptz, which DateStyle's field order governs.
func textToDateTime(from, to types.T) bool {
	if !textual(from) {
		return false
	}
	switch to.Kind {
	case types.Date, types.Timestamp, types.TimestampTZ:
		return true
	}
	return false
}

// numericTo is a numeric as a value of the Decimal-kind type to: itself
// for numeric, rounded and range-checked for DECIMAL(p,s).
func numericTo(d *apd.Decimal, to types.T) (any, error) {
	if to.Precision == 0 {
		return d, nil
	}
	return types.NumericToDecimal128(d, to.Precision, to.Scale)
}

// intTypeName is PostgreSQL's name of an integer type in "cannot convert
// NaN to ..." messages.
func intTypeName(t types.T) string {
	switch t.Kind {
	case types.Int8, types.Int16:
		return "smallint"
	case types.Int32:
		return "integer"
	}
	return "bigint"
}

// CastValue converts one physical value between types where the result
// does not depend on the session's settings. A conversion that does
// (CastNeedsSession: its TimeZone, DateStyle, IntervalStyle or
// extra_float_digits) fails with 0A000 rather than guess them: plan-time
// constant folding then leaves the cast to run in the session.
func CastValue(v any, from, to types.T) (any, error) {
	if CastNeedsSession(from, to) {
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "cast from %s to %s depends on the session's settings", from.PGName(), to.PGName())
	}
	return CastValueIn(v, from, to, time.UTC)
}

// CastNeedsZone reports whether converting from -> to depends on the
// session's TimeZone, as PostgreSQL's stable (not immutable) casts do:
// timestamptz to and from timestamp, date, time and text.
func CastNeedsZone(from, to types.T) bool {
	zoned := func(a, b types.T) bool {
		if a.Kind != types.TimestampTZ {
			return false
		}
		switch b.Kind {
		case types.Timestamp, types.Date, types.Time, types.Unknown, types.String, types.Char, types.Name:
			return true
		}
		return false
	}
	if from.Kind == types.Array || to.Kind == types.Array {
		// arrays convert element by element (text sides stay text)
		if from.Kind == types.Array {
			from = *from.Elem
		}
		if to.Kind == types.Array {
			to = *to.Elem
		}
		return CastNeedsZone(from, to)
	}
	return zoned(from, to) || zoned(to, from) || timeTZNeedsZone(from, to)
}

// CastNeedsSession reports whether converting from -> to depends on the
// session's settings: its TimeZone (CastNeedsZone), its DateStyle, whose
// field order reads a date from text (1/2/2020), its IntervalStyle, whose
// sql_standard reads an interval's leading minus, or its DateStyle and
// IntervalStyle, whose styles write a date, timestamp or interval (alone,
// in an array or in a record) as text, or its extra_float_digits, which a
// float's text follows (also in an array's, a record's or json's).
// PostgreSQL's casts are stable there (plan-time constant folding leaves
// them to run), except a float's text: float4out and float8out are
// immutable, so lower's folder computes that one in the planning
// session.
func CastNeedsSession(from, to types.T) bool {
	for from.Kind == types.Array || to.Kind == types.Array {
		if from.Kind == types.Array {
			from = *from.Elem
		}
		if to.Kind == types.Array {
			to = *to.Elem
		}
	}
	return CastNeedsZone(from, to) || textToDateTime(from, to) || textual(from) && (to.IsComposite() || to.Kind == types.Interval || timeRange(to)) ||
		(to.IsString() || to.Kind == types.Name) && (styledText(from) || types.HasFloat(from))
}

// styledText reports whether t's text depends on DateStyle or
// IntervalStyle: a date, timestamp, timestamptz or interval, or an array
// or record holding one.
func styledText(t types.T) bool {
	if timeRange(t) {
		return true
	}
	switch t.Kind {
	case types.Date, types.Timestamp, types.TimestampTZ, types.Interval:
		return true
	case types.Array:
		return t.Elem != nil && styledText(*t.Elem)
	case types.Row:
		if !t.IsAnonRecord() {
			return false // MAP and ROW text is json, which writes ISO
		}
		for _, f := range t.Fields {
			if styledText(f.Type) {
				return true
			}
		}
	}
	return false
}

// timeRange reports whether t is a range of dates or times
// (daterange, tsrange, tstzrange), whose bounds read and print in the
// session's DateStyle and TimeZone.
func timeRange(t types.T) bool {
	return t.Kind == types.String && (t.Variant == types.DateRange || t.Variant == types.TsRange || t.Variant == types.TstzRange)
}

// AssignValue is CastValue for an assignment: a value the target's typmod
// refuses (a string too long for varchar(n) or character(n), a bit string
// of another length, or such an array element) is an error where the cast
// would truncate or pad it (assignCheck).
func AssignValue(v any, from, to types.T) (any, error) {
	if check := assignCheck(from, to); check != nil {
		if err := check(v); err != nil {
			return nil, err
		}
	}
	return CastValue(v, from, to)
}

// AssignValueStyle is AssignValue in a session (CastValueStyle): a
// float's text follows st's extra_float_digits.
func AssignValueStyle(v any, from, to types.T, loc *time.Location, st types.Style) (any, error) {
	if check := assignCheck(from, to); check != nil {
		if err := check(v); err != nil {
			return nil, err
		}
	}
	return CastValueStyle(v, from, to, loc, st)
}

// checkAssignLengths applies types.CheckStringLength to the strings of a.
func checkAssignLengths(a arrow.Array, to types.T) error {
	if !to.IsString() || to.Length <= 0 {
		return nil
	}
	strs, ok := a.(interface{ Value(int) string }) // String, LargeString, StringView
	if !ok {
		return nil
	}
	for i := 0; i < a.Len(); i++ {
		if a.IsNull(i) {
			continue
		}
		if err := types.CheckStringLength(strs.Value(i), to); err != nil {
			return err
		}
	}
	return nil
}

// CastValueIn converts one physical value between types in a session whose
// TimeZone is loc (nil means UTC), DateStyle, IntervalStyle and
// extra_float_digits PostgreSQL's defaults.
func CastValueIn(v any, from, to types.T, loc *time.Location) (any, error) {
	return castValueIn(v, from, to, castEnv{loc: loc})
}

// CastValueStyle is CastValueIn in a session whose DateStyle,
// IntervalStyle and extra_float_digits are st.
func CastValueStyle(v any, from, to types.T, loc *time.Location, st types.Style) (any, error) {
	return castValueIn(v, from, to, castEnv{loc: loc, style: st})
}

// castEnv is what a cast reads of the session: its TimeZone (nil: UTC),
// its DateStyle and IntervalStyle, whose order reads a date written in
// numbers and whose styles write dates, timestamps and intervals as
// text, and its extra_float_digits, which floats' text follows. Every cast path takes it, so an array's elements, a record's
// fields and a domain's base value are cast in the same session.
type castEnv struct {
	loc   *time.Location
	style types.Style
}

func castValueIn(v any, from, to types.T, env castEnv) (any, error) {
	if env.loc == nil {
		env.loc = time.UTC
	}
	out, err := castValue(v, from, to, env)
	if f, ok := out.(float64); ok && err == nil && to.Kind == types.Float32 {
		// a real holds only float32 precision, wherever the value came from
		out = float64(float32(f))
	}
	return out, err
}

func castValue(v any, from, to types.T, env castEnv) (any, error) {
	if v == nil {
		return nil, nil
	}
	if from.Kind == types.Array || to.Kind == types.Array {
		return castArray(v, from, to, env)
	}
	if (from.Kind == types.Row || from.Kind == types.Map) && from.Kind == to.Kind {
		return castNested(v, from, to, env)
	}
	loc := env.loc
	if out, ok, err := castBitString(v, from, to, loc); ok { // bitcast.go
		return out, err
	}
	if out, ok, err := castSmallType(v, from, to, loc); ok { // smallcast.go
		return out, err
	}
	if out, ok, err := castJSONBScalar(v, from, to, env); ok { // jsonbcast.go
		return out, err
	}
	if out, ok, err := castQChar(v, from, to); ok { // qcharcast.go
		return out, err
	}
	if out, ok, err := castRegConfig(v, from, to); ok { // regconfigcast.go
		return out, err
	}
	switch {
	case to.Variant == types.UUID && from.Variant != types.UUID:
		// text to uuid reads uuid's input forms (types.ParseUUID)
		return types.ParseUUID(types.FormatTextIn(v, from, loc))
	case to.Variant == types.Inet && from.Variant != types.Inet:
		return types.ParseInet(types.FormatTextIn(v, from, loc))
	case to.Variant == types.Cidr && from.Variant == types.Inet:
		// inet to cidr is cidr(inet): the bits right of the mask cleared
		return types.InetToCidr(types.FormatTextIn(v, from, loc))
	case to.Variant == types.Cidr && from.Variant != types.Cidr:
		return types.ParseCidr(types.FormatTextIn(v, from, loc))
	case to.IsMultirange() && from.IsRange():
		// multirange(anyrange), the range's one cast (types/multirange.go)
		r, err := types.ParseRangeValue(v.(string), from.Variant)
		if err != nil {
			return nil, err
		}
		return types.Single(r).String(), nil
	case (to.IsRange() || to.IsMultirange()) && from.Variant != to.Variant:
		// text to a range or multirange reads range_in or multirange_in,
		// the bounds in the session
		return types.ParseTextStyle(types.FormatTextStyle(v, from, loc, env.style), to, loc, time.Now(), env.style)
	case (from.IsRange() || from.IsMultirange()) && to.IsString() && !to.IsRange() && !to.IsMultirange():
		// a range's or multirange's text as the session prints it
		// (types/ranges.go, types/multirange.go)
		format := types.FormatRange
		if from.IsMultirange() {
			format = types.FormatMultirange
		}
		s, err := format(v.(string), from.Variant, loc, env.style)
		if err != nil {
			return nil, err
		}
		if to.Length > 0 && len([]rune(s)) > to.Length {
			s = string([]rune(s)[:to.Length])
		}
		return s, nil
	case to.IsTextSearch() && from.Variant != to.Variant:
		// text to tsvector, tsquery or regconfig reads their input
		return types.ParseTextIn(types.FormatTextIn(v, from, loc), to, loc)
	case to.Variant == types.PgLsn && from.Variant != types.PgLsn:
		return types.ParseLSN(types.FormatTextIn(v, from, loc))
	case to.Variant == types.JSONPath && from.Variant != types.JSONPath:
		return types.ParseTextIn(types.FormatTextIn(v, from, loc), to, loc)
	case from.Variant == types.Inet && to.Kind == types.String && to.Variant == types.NoVariant:
		// inet to text is PostgreSQL's text(inet): the netmask always shown
		return types.InetWithMask(types.FormatTextIn(v, from, loc)), nil
	case to.Variant.IsJSON() && (from.Variant != to.Variant || from.Kind != types.String):
		// text to json checks the text; json to jsonb normalises it
		return types.ParseJSON(types.FormatTextIn(v, from, loc), to.Variant == types.JSONB)
	case to.Kind == types.Name && from.Kind == types.Bool:
		// boolout's t and f: boolean to name is the I/O conversion, where
		// to text, varchar and bpchar it is text(boolean)'s true and false
		if v.(bool) {
			return "t", nil
		}
		return "f", nil
	case to.Kind == types.Name && from.Kind != types.Name && !from.IsString() && from.Kind != types.Unknown:
		// any type to name by its output, as to text (PostgreSQL's I/O
		// conversion to a string type), cut to NAMEDATALEN-1 bytes
		return clipName(types.FormatTextStyle(v, from, loc, env.style)), nil
	case to.IsString():
		s := types.FormatTextStyle(v, from, loc, env.style)
		if from.Kind == types.Char && to.Kind != types.Char {
			// character(n) to text drops the padding, as PostgreSQL's rtrim
			s = strings.TrimRight(s, " ")
		}
		if to.Length > 0 && (to.Kind == types.String || to.Kind == types.Char) && len([]rune(s)) > to.Length {
			// explicit casts to varchar(n) and char(n) truncate, as PostgreSQL does
			s = string([]rune(s)[:to.Length])
		}
		if to.Kind == types.Char { // bpchar without a length (0) pads nothing
			if n := to.Length; len([]rune(s)) < n {
				s += strings.Repeat(" ", n-len([]rune(s)))
			}
		}
		return s, nil
	case from.Kind == types.Unknown || from.IsString() || from.Kind == types.Name && to.Kind != types.Name:
		return types.ParseTextStyle(v.(string), to, loc, time.Now(), env.style)
	}
	if out, ok := castTimeTZ(v, from, to, loc); ok { // timetzcast.go
		return out, nil
	}
	switch from.Kind {
	case types.Int8, types.Int16, types.Int32, types.Int64, types.Oid:
		x := v.(int64)
		switch {
		case from.Kind == types.Oid && to.IsInteger():
			return oidToInt(x, to)
		case to.IsInteger():
			return checkInt(x, to)
		case to.Kind == types.Oid:
			return intToOID(x, from)
		case to.IsFloat():
			return float64(x), nil
		case to.Kind == types.Decimal:
			return numericTo(numeric.FromInt64(x), to)
		case to.Kind == types.Bool:
			return x != 0, nil
		}
	case types.Float32, types.Float64:
		x := v.(float64)
		switch {
		case to.IsInteger():
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, outOfRangeErr(to)
			}
			r := math.RoundToEven(x)
			if r < -9.223372036854775808e18 || r >= 9.223372036854775808e18 {
				return nil, outOfRangeErr(to)
			}
			return checkInt(int64(r), to)
		case to.Kind == types.Float32:
			if !math.IsInf(x, 0) && math.IsInf(float64(float32(x)), 0) {
				return nil, sqlerr.New(sqlerr.NumericValueOutOfRange, "value out of range: overflow")
			}
			if x != 0 && float32(x) == 0 {
				return nil, sqlerr.New(sqlerr.NumericValueOutOfRange, "value out of range: underflow")
			}
			return float64(float32(x)), nil
		case to.Kind == types.Float64:
			return x, nil
		case to.Kind == types.Decimal:
			// float8_numeric / float4_numeric: DBL_DIG (FLT_DIG) digits
			digits := 15
			if from.Kind == types.Float32 {
				digits = 6
			}
			d, err := numeric.FromFloat64(x, digits)
			if err != nil {
				return nil, err
			}
			return numericTo(d, to)
		}
	case types.Decimal:
		d := types.DecimalToNumeric(v, from)
		switch {
		case to.IsInteger():
			r, ok, err := numeric.ToInt64(d, intTypeName(to))
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, outOfRangeErr(to)
			}
			return checkInt(r, to)
		case to.Kind == types.Float64:
			return numeric.ToFloat64(d)
		case to.Kind == types.Float32:
			if numeric.IsSpecial(d) {
				return numeric.ToFloat64(d)
			}
			return numeric.ParseFloat(numeric.String(d), 32)
		case to.Kind == types.Decimal:
			return numericTo(d, to)
		}
	case types.Bool:
		if to.IsInteger() {
			if v.(bool) {
				return int64(1), nil
			}
			return int64(0), nil
		}
	case types.Date, types.Timestamp, types.TimestampTZ:
		if sign := types.InfiniteSign(v, from); sign != 0 { // ±infinity stays itself
			if out, ok := types.InfiniteValue(sign, to); ok {
				return out, nil
			}
			if to.Kind == types.Time {
				return nil, nil // timestamp_time: an infinite timestamp has no time of day
			}
		}
		tm := types.ValueToTime(v, from)
		switch {
		case from.Kind == types.TimestampTZ && to.Kind != types.TimestampTZ:
			// the session's wall clock at that instant
			tm = types.WallClock(tm, loc)
		case from.Kind != types.TimestampTZ && to.Kind == types.TimestampTZ:
			// a wall time in the session's zone
			tm = types.LocalToInstant(tm, loc)
		}
		switch to.Kind {
		case types.Date, types.Timestamp, types.TimestampTZ:
			out, err := types.TimeToValue(tm, to)
			if err != nil && from.Kind == types.Date && to.Kind != types.Date {
				// date2timestamp's own message, for a date past the
				// timestamp range
				return nil, types.DateOutOfRangeForTimestamp()
			}
			return out, err
		case types.Time:
			if from.Kind == types.Date {
				break
			}
			ns := int64(tm.Hour())*3600e9 + int64(tm.Minute())*60e9 + int64(tm.Second())*1e9 + int64(tm.Nanosecond())
			return timeFromNanos(ns, to), nil
		}
	case types.Bytes, types.Binary:
		if to.Kind == types.Bytes || to.Kind == types.Binary {
			return v, types.CheckBinaryLength(v.([]byte), to)
		}
	case types.Time:
		if to.Kind == types.Interval {
			return types.NewInterval(0, 0, timeMicros(v.(int64), from))
		}
		if to.Kind == types.Time { // time(p) to time(q): rounded to q
			return timeFromNanos(timeNanos(v.(int64), from), to), nil
		}
	case types.Interval:
		if to.Kind == types.Time {
			// the time part, modulo a day (interval_time)
			us := types.IntervalMicros(v.(arrow.MonthDayNanoInterval)) % types.USecsPerDay
			if us < 0 {
				us += types.USecsPerDay
			}
			return timeFromNanos(us*1000, to), nil
		}
		if to.Kind == types.Interval { // to INTERVAL HOUR, INTERVAL(0) ...
			return types.AdjustInterval(v.(arrow.MonthDayNanoInterval), to)
		}
	}
	return nil, sqlerr.New(sqlerr.CannotCoerce, "cannot cast type %s to %s", from.PGName(), to.PGName())
}

// timeMicros converts a time value (ms, µs or ns by precision) to
// microseconds since midnight.
func timeMicros(v int64, t types.T) int64 {
	switch {
	case t.Precision <= 3:
		return v * 1000
	case t.Precision <= 6:
		return v
	}
	return v / 1000
}

// timeNanos converts a time value (ms, µs or ns by precision) to
// nanoseconds since midnight.
func timeNanos(v int64, t types.T) int64 {
	switch {
	case t.Precision <= 3:
		return v * 1e6
	case t.Precision <= 6:
		return v * 1e3
	}
	return v
}

// timeFromNanos converts nanoseconds since midnight to a time value of t's
// precision (ms, µs or ns), rounded to t's fractional digits half away
// from zero as PostgreSQL's AdjustTimeForTypmod does (23:59:59.5 as
// time(0) is 24:00:00, which time allows).
func timeFromNanos(ns int64, t types.T) int64 {
	if p := t.Precision; p < 9 {
		unit := int64(1)
		for i := p; i < 9; i++ {
			unit *= 10
		}
		if ns >= 0 {
			ns = (ns + unit/2) / unit * unit
		} else {
			ns = -((-ns + unit/2) / unit * unit)
		}
	}
	switch {
	case t.Precision <= 3:
		return ns / 1e6
	case t.Precision <= 6:
		return ns / 1e3
	}
	return ns
}

func checkInt(x int64, to types.T) (any, error) {
	lo, hi := types.IntRange(to.Kind)
	if x < lo || x > hi {
		return nil, outOfRangeErr(to)
	}
	return x, nil
}

// intToOID is an integer as an oid (or a reg* type), as pg_cast's casts
// to oid: int8's i8tooid refuses what no uint32 holds; int4 (and int2,
// through int4) is binary-coercible, so a negative value is its bits as
// unsigned (-1 is 4294967295).
func intToOID(x int64, from types.T) (any, error) {
	switch from.Kind {
	case types.Oid:
		return x, nil
	case types.Int64:
		if x < 0 || x > math.MaxUint32 {
			return nil, sqlerr.New(sqlerr.NumericValueOutOfRange, "OID out of range")
		}
		return x, nil
	default:
		return int64(uint32(int32(x))), nil
	}
}

// oidToInt is an oid as an integer, as pg_cast's casts from oid: to int8
// its value (oidtoi8), to int4 its bits read as signed (binary-coercible:
// 4294967295 is -1); the binder admits no other integer target.
func oidToInt(x int64, to types.T) (any, error) {
	if to.Kind == types.Int64 {
		return x, nil
	}
	return checkInt(int64(int32(uint32(x))), to)
}

func outOfRangeErr(t types.T) error {
	return types.IntOutOfRange(t)
}

// clipName is s cut to a name's 63 bytes on a character boundary, as
// PostgreSQL's namein clips its input.
func clipName(s string) string {
	const max = 63
	if len(s) <= max {
		return s
	}
	n := max
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
