package types

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// FormatText renders a physical value of t as PostgreSQL 15's output
// function does (with the default extra_float_digits = 1 and TimeZone UTC).
func FormatText(v any, t T) string { return FormatTextIn(v, t, time.UTC) }

// FormatTextIn is FormatText in a session whose TimeZone is loc (nil means
// UTC): a timestamptz prints as its wall time there with the offset in
// force, "2024-07-01 02:00:00+02".
func FormatTextIn(v any, t T, loc *time.Location) string {
	return FormatTextStyle(v, t, loc, Style{})
}

// FormatTextStyle is FormatTextIn in a session whose DateStyle and
// IntervalStyle are st: dates, timestamps and intervals (alone, in arrays
// and in records) are written in its styles, as the types' output
// functions do.
func FormatTextStyle(v any, t T, loc *time.Location, st Style) string {
	if v == nil {
		return ""
	}
	switch t.Kind {
	case Bool:
		if v.(bool) {
			return "true"
		}
		return "false"
	case Int8, Int16, Int32, Int64, Oid:
		if t.Variant == Money {
			return FormatMoney(v.(int64)) // money.go
		}
		return strconv.FormatInt(v.(int64), 10)
	case Float32:
		return FormatFloatText(v.(float64), 32, st.Float)
	case Float64:
		return FormatFloatText(v.(float64), 64, st.Float)
	case Decimal:
		if d, ok := v.(*apd.Decimal); ok {
			return numeric.String(d)
		}
		return FormatDecimal(v.(decimal128.Num), t.Scale)
	case Unknown, String, Char, Name:
		if t.Variant.IsGeometric() {
			return GeoTextDigits(v.(string), t.Variant, st.Float) // geometric.go
		}
		return v.(string)
	case Bytes, Binary:
		return `\x` + hex.EncodeToString(v.([]byte))
	case Date:
		switch InfiniteSign(v, t) {
		case 1:
			return "infinity"
		case -1:
			return "-infinity"
		}
		if st.Date.Output != OutputISO {
			return string(AppendDateStyled(nil, ValueToTime(v, t), st.Date))
		}
		if tm := ValueToTime(v, t); tm.Year() <= 0 {
			return bcYear(tm) + tm.Format("-01-02") + " BC"
		}
		return ValueToTime(v, t).Format("2006-01-02")
	case Time:
		ns := v.(int64)
		switch {
		case t.Precision <= 3:
			ns *= 1e6
		case t.Precision <= 6:
			ns *= 1e3
		}
		if ns >= 86400e9 { // 24:00:00, which PostgreSQL accepts and keeps
			return "24:00:00"
		}
		tm := time.Unix(0, ns).UTC()
		return tm.Format("15:04:05") + fraction(int64(tm.Nanosecond()/1000))
	case Timestamp, TimestampTZ:
		switch InfiniteSign(v, t) { // the int64 bounds stand for ±infinity
		case 1:
			return "infinity"
		case -1:
			return "-infinity"
		}
		if st.Date.Output != OutputISO {
			return formatTimestampStyled(ValueToTime(v, t), t.Kind == TimestampTZ, loc, st.Date)
		}
		if t.Kind == TimestampTZ {
			return FormatTimestampTZ(ValueToTime(v, t), loc)
		}
		return formatTS(ValueToTime(v, t))
	case TimeTZ:
		return FormatTimeTZ(v.(int64))
	case Interval:
		iv := v.(arrow.MonthDayNanoInterval)
		return string(AppendIntervalStyled(nil, iv.Months, iv.Days, IntervalMicros(iv), st.Interval))
	case Map, Row:
		if t.IsAnonRecord() {
			return formatRecordText(v.([]any), t, loc, st)
		}
		return formatNestedText(v, t, loc, st)
	}
	return ""
}

// formatRecordText renders an anonymous record as PostgreSQL's record_out:
// "(1,a)", a NULL field as nothing, a field quoted when it is empty or holds
// a quote, backslash, parenthesis, comma or white space (quotes and
// backslashes inside doubled). This is the cast to text; the wire's
// encoder (pgtypes/record.go) writes the same from the Arrow arrays.
func formatRecordText(vs []any, t T, loc *time.Location, st Style) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, f := range t.Fields {
		if i > 0 {
			b.WriteByte(',')
		}
		if i >= len(vs) || vs[i] == nil {
			continue
		}
		var s string
		switch {
		case f.Type.Kind == Array:
			s = formatRecordArray(vs[i].([]any), *f.Type.Elem, loc, st)
		case f.Type.Kind == Bool:
			// record_out writes boolout's t/f, not the cast to text's true/false
			s = "f"
			if vs[i].(bool) {
				s = "t"
			}
		default:
			s = FormatTextStyle(vs[i], f.Type, loc, st)
		}
		AppendRecordField(&b, s)
	}
	b.WriteByte(')')
	return b.String()
}

// formatRecordArray renders an array field of a record as array_out does:
// {1,NULL,"a b"}, a nested array as {{1,2},{3,4}}.
func formatRecordArray(vs []any, elem T, loc *time.Location, st Style) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, v := range vs {
		if i > 0 {
			b.WriteByte(',')
		}
		switch {
		case v == nil:
			b.WriteString("NULL")
		case elem.Kind == Array:
			b.WriteString(formatRecordArray(v.([]any), *elem.Elem, loc, st))
		case elem.Kind == Bool:
			// array_out writes boolout's t/f, as record_out does
			if v.(bool) {
				b.WriteByte('t')
			} else {
				b.WriteByte('f')
			}
		default:
			s := FormatTextStyle(v, elem, loc, st)
			if !arrayElemNeedsQuotes(s) {
				b.WriteString(s)
				continue
			}
			b.WriteByte('"')
			for k := 0; k < len(s); k++ {
				if s[k] == '"' || s[k] == '\\' {
					b.WriteByte('\\')
				}
				b.WriteByte(s[k])
			}
			b.WriteByte('"')
		}
	}
	b.WriteByte('}')
	return b.String()
}

// arrayElemNeedsQuotes is array_out's rule: empty, NULL look-alikes, and
// text holding a brace, comma, quote, backslash or white space.
func arrayElemNeedsQuotes(s string) bool {
	if s == "" || strings.EqualFold(s, "null") {
		return true
	}
	return strings.ContainsAny(s, "{},\"\\ \t\n\r\v\f")
}

// AppendRecordField writes one non-NULL field's text s into a record's
// text, quoted as record_out quotes it.
func AppendRecordField(b *strings.Builder, s string) {
	if !RecordFieldNeedsQuotes(s) {
		b.WriteString(s)
		return
	}
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			b.WriteByte(s[i])
		}
		b.WriteByte(s[i])
	}
	b.WriteByte('"')
}

// RecordFieldNeedsQuotes is record_out's rule for quoting a field's text.
func RecordFieldNeedsQuotes(s string) bool {
	if s == "" {
		return true
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"', '\\', '(', ')', ',', ' ', '\t', '\n', '\r', '\v', '\f':
			return true
		}
	}
	return false
}

// FormatTimestampTZ renders an instant as PostgreSQL prints a timestamptz
// in TimeZone loc (nil means UTC).
func FormatTimestampTZ(tm time.Time, loc *time.Location) string {
	if loc == nil {
		loc = time.UTC
	}
	tm = tm.In(loc)
	_, off := tm.Zone()
	s := formatTS(tm)
	if strings.HasSuffix(s, " BC") {
		return s[:len(s)-3] + ZoneOffset(off) + " BC"
	}
	return s + ZoneOffset(off)
}

func formatTS(tm time.Time) string {
	us := (tm.Nanosecond() + 500) / 1000
	if us >= 1e6 {
		tm = tm.Add(time.Second)
		us -= 1e6
	}
	if tm.Year() <= 0 {
		return bcYear(tm) + tm.Format("-01-02 15:04:05") + fraction(int64(us)) + " BC"
	}
	return tm.Format("2006-01-02 15:04:05") + fraction(int64(us))
}

// bcYear is the year of a time before 1 AD as PostgreSQL prints it before
// " BC": astronomical year 0 is 1 BC. (Shifting the time into AD years to
// format it would move a leap day: 5 BC has a February 29, 5 AD none.)
func bcYear(tm time.Time) string {
	return fmt.Sprintf("%04d", 1-tm.Year())
}

// fraction renders microseconds as PostgreSQL does: omitted when zero, else
// without trailing zeros.
func fraction(us int64) string {
	if us == 0 {
		return ""
	}
	s := strconv.FormatInt(us+1e6, 10)[1:]
	return "." + strings.TrimRight(s, "0")
}

// FormatFloat renders a float as PostgreSQL 15 does by default
// (extra_float_digits 1: FormatFloatText's shortest round trip).
func FormatFloat(f float64, bits int) string { return FormatFloatText(f, bits, FloatDigits{}) }

// FormatDecimal renders an unscaled decimal with scale digits after the point.
func FormatDecimal(n decimal128.Num, scale int) string {
	neg := n.Sign() < 0
	if neg {
		n = n.Negate()
	}
	s := n.BigInt().String()
	if scale > 0 {
		if len(s) <= scale {
			s = strings.Repeat("0", scale-len(s)+1) + s
		}
		s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

var _ = arrow.Microsecond
