package functions

import (
	"context"
	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/types/numeric"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/types"
)

func toCharNumberFuncs() []*Func {
	var fs []*Func
	for _, t := range []types.T{tInt4, tInt8, types.Float32Type, tFloat8, tNumeric} {
		fs = append(fs, &Func{Name: "to_char", Args: []types.T{t, tText}, Ret: tText, Strict: true, Kernel: toCharNumber})
	}
	return fs
}

// toCharTime is to_char(timestamp[tz], format).
func toCharTime(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
	return toCharTimeIn(LocationOf(ctx))(ctx, mem, args, n)
}

func toCharTimeIn(loc *time.Location) Kernel {
	return rowKernel(tText, true, func(args []arrow.Array) (func(int) (any, error), error) {
		get, kind, err := timeGetter(0, args[0], loc)
		if err != nil {
			return nil, err
		}
		ss, err := strArgs(args[1:])
		if err != nil {
			return nil, err
		}
		inf := infSigner(args[0])
		return func(i int) (any, error) {
			if inf(i) != 0 { // timestamp_to_char: NULL for infinity
				return nil, nil
			}
			return formatTime(get(i), kind, ss[0].Value(i)), nil
		}, nil
	})
}

// timePatterns are the to_char template patterns sqlgate supports, longest
// first so that matching is greedy as in PostgreSQL.
var timePatterns = []string{
	"HH24", "HH12", "SSSSS", "SSSS", "YYYY", "IYYY", "Month", "MONTH", "month", "A.M.", "P.M.", "a.m.", "p.m.",
	"YYY", "DDD", "Mon", "MON", "mon", "Day", "DAY", "day",
	"HH", "MI", "SS", "MS", "US", "YY", "MM", "DD", "Dy", "DY", "dy", "AM", "PM", "am", "pm", "IW", "WW", "TZ", "tz",
	"Y", "D", "Q", "J",
}

// formatTime renders t with a to_char template: the common patterns, FM
// (fill mode: no padding), and "quoted" literal text.
func formatTime(t time.Time, kind types.Kind, format string) string {
	var b strings.Builder
	fm := false
	for i := 0; i < len(format); {
		if strings.HasPrefix(format[i:], "FM") || strings.HasPrefix(format[i:], "fm") {
			fm = true
			i += 2
			continue
		}
		if format[i] == '"' {
			j := i + 1
			for j < len(format) && format[j] != '"' {
				if format[j] == '\\' && j+1 < len(format) {
					j++
				}
				b.WriteByte(format[j])
				j++
			}
			i = j + 1
			continue
		}
		pat := ""
		for _, p := range timePatterns {
			if strings.HasPrefix(format[i:], p) || (isNumericPattern(p) && strings.HasPrefix(strings.ToUpper(format[i:min(len(format), i+len(p))]), p)) {
				pat = p
				break
			}
		}
		if pat == "" {
			b.WriteByte(format[i])
			i++
			fm = false
			continue
		}
		b.WriteString(timeField(t, kind, pat, fm))
		i += len(pat)
		fm = false
	}
	return b.String()
}

func isNumericPattern(p string) bool {
	switch p {
	case "HH24", "HH12", "SSSSS", "SSSS", "YYYY", "IYYY", "YYY", "DDD", "HH", "MI", "SS", "MS", "US", "YY", "MM", "DD", "IW", "WW", "Y", "D", "Q", "J":
		return true
	}
	return false
}

func timeField(t time.Time, kind types.Kind, pat string, fm bool) string {
	numField := func(v int, width int) string {
		if fm {
			return strconv.Itoa(v)
		}
		s := strconv.Itoa(abs(v))
		if len(s) < width {
			s = strings.Repeat("0", width-len(s)) + s
		}
		if v < 0 {
			s = "-" + s
		}
		return s
	}
	name := func(s string, upper, lower bool) string {
		switch {
		case upper:
			s = strings.ToUpper(s)
		case lower:
			s = strings.ToLower(s)
		}
		if !fm && len(s) < 9 {
			s += strings.Repeat(" ", 9-len(s))
		}
		return s
	}
	year := t.Year()
	if year <= 0 {
		year = 1 - year // to_char prints BC years as positive numbers
	}
	hour12 := t.Hour() % 12
	if hour12 == 0 {
		hour12 = 12
	}
	switch pat {
	case "YYYY":
		return numField(year, 4)
	case "YYY":
		return numField(year%1000, 3)
	case "YY":
		return numField(year%100, 2)
	case "Y":
		return numField(year%10, 1)
	case "IYYY":
		y, _ := t.ISOWeek()
		return numField(y, 4)
	case "MM":
		return numField(int(t.Month()), 2)
	case "DD":
		return numField(t.Day(), 2)
	case "DDD":
		return numField(t.YearDay(), 3)
	case "D":
		return numField(int(t.Weekday())+1, 1)
	case "Q":
		return numField((int(t.Month())-1)/3+1, 1)
	case "WW":
		return numField((t.YearDay()-1)/7+1, 2)
	case "IW":
		_, w := t.ISOWeek()
		return numField(w, 2)
	case "J":
		return numField(int(math.Floor(float64(t.Unix())/86400))+2440588, 1)
	case "HH24":
		return numField(t.Hour(), 2)
	case "HH12", "HH":
		return numField(hour12, 2)
	case "MI":
		return numField(t.Minute(), 2)
	case "SS":
		return numField(t.Second(), 2)
	case "SSSS", "SSSSS":
		return numField(t.Hour()*3600+t.Minute()*60+t.Second(), 1)
	case "MS":
		return numField(t.Nanosecond()/1e6, 3)
	case "US":
		return numField(t.Nanosecond()/1e3, 6)
	case "Month", "MONTH", "month":
		return name(t.Month().String(), pat == "MONTH", pat == "month")
	case "Mon", "MON", "mon":
		s := t.Month().String()[:3]
		return caseAs(s, pat)
	case "Day", "DAY", "day":
		return name(t.Weekday().String(), pat == "DAY", pat == "day")
	case "Dy", "DY", "dy":
		return caseAs(t.Weekday().String()[:3], pat)
	case "AM", "PM", "am", "pm", "A.M.", "P.M.", "a.m.", "p.m.":
		s := "AM"
		if t.Hour() >= 12 {
			s = "PM"
		}
		if strings.Contains(pat, ".") {
			s = s[:1] + "." + s[1:] + "."
		}
		if pat[0] >= 'a' {
			s = strings.ToLower(s)
		}
		return s
	case "TZ", "tz":
		if kind != types.TimestampTZ {
			return ""
		}
		// t is in the session's zone: its abbreviation (CET, CEST, -05)
		name, _ := t.Zone()
		if pat == "tz" {
			return strings.ToLower(name)
		}
		return strings.ToUpper(name)
	}
	return pat
}

func caseAs(s, pat string) string {
	switch {
	case pat == strings.ToUpper(pat):
		return strings.ToUpper(s)
	case pat == strings.ToLower(pat):
		return strings.ToLower(s)
	}
	return s
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// toCharNumber is to_char(number, format) for the common template
// patterns: 9, 0, . and D, "," and G, S, FM.
var toCharNumber = rowKernel(tText, true, func(args []arrow.Array) (func(int) (any, error), error) {
	ss, err := strArgs(args[1:])
	if err != nil {
		return nil, err
	}
	var digits func(i int, frac int) (string, bool)
	switch x := args[0].(type) {
	case *array.Decimal128, *types.NumericArray:
		get, _ := types.NewNumericReader(x)
		digits = func(i, frac int) (string, bool) {
			var d apd.Decimal
			r, _ := numeric.Round(get(i, &d), int64(frac))
			return numeric.String(numeric.Abs(r)), r.Negative
		}
	case *array.Float32, *array.Float64:
		get, _ := floatGetter(0, args[0])
		digits = func(i, frac int) (string, bool) {
			f := get(i)
			return strconv.FormatFloat(math.Abs(f), 'f', frac, 64), f < 0
		}
	default:
		get, err := intGetter(0, args[0])
		if err != nil {
			return nil, err
		}
		digits = func(i, frac int) (string, bool) {
			v := get(i)
			s := new(big.Int).Abs(big.NewInt(v)).String()
			if frac > 0 {
				s += "." + strings.Repeat("0", frac)
			}
			return s, v < 0
		}
	}
	return func(i int) (any, error) {
		format := ss[0].Value(i)
		frac := fracPositions(format)
		s, neg := digits(i, frac)
		s = strings.TrimPrefix(s, "-")
		return formatNumber(s, neg, format), nil
	}, nil
})

func fracPositions(format string) int {
	n, after := 0, false
	for _, c := range format {
		switch c {
		case '.', 'D':
			after = true
		case '9', '0':
			if after {
				n++
			}
		}
	}
	return n
}

// formatNumber lays the digits of an absolute value ("123.45") out on a
// numeric to_char template.
func formatNumber(value string, neg bool, format string) string {
	fm := strings.Contains(strings.ToUpper(format), "FM")
	explicitSign := strings.ContainsAny(format, "S")
	intPart, fracPart, _ := strings.Cut(value, ".")
	intPart = strings.TrimLeft(intPart, "0")
	hasPoint := strings.ContainsAny(format, ".D")
	if intPart == "" && !hasPoint {
		intPart = "0"
	}
	intPos := 0
	for _, c := range format {
		if c == '.' || c == 'D' {
			break
		}
		if c == '9' || c == '0' {
			intPos++
		}
	}
	overflow := len(intPart) > intPos
	var b strings.Builder
	started := false
	k := 0 // integer digit position
	fi := 0
	afterPoint := false
	lastNonZero := -1 // index in b of the last digit to keep in fill mode
	for i := 0; i < len(format); i++ {
		c := format[i]
		switch {
		case (c == 'F' || c == 'f') && i+1 < len(format) && (format[i+1] == 'M' || format[i+1] == 'm'):
			i++
		case c == 'S':
		case c == '9' || c == '0':
			if overflow {
				b.WriteByte('#')
				continue
			}
			if afterPoint {
				d := byte('0')
				if fi < len(fracPart) {
					d = fracPart[fi]
				}
				fi++
				b.WriteByte(d)
				if d != '0' || c == '0' || !fm {
					lastNonZero = b.Len()
				}
				continue
			}
			pad := intPos - len(intPart)
			if k < pad {
				if c == '0' || started {
					started = true
					b.WriteByte('0')
				} else {
					b.WriteByte(' ')
				}
			} else {
				started = true
				b.WriteByte(intPart[k-pad])
			}
			k++
			lastNonZero = b.Len()
		case c == '.' || c == 'D':
			afterPoint = true
			b.WriteByte('.')
			lastNonZero = b.Len()
		case c == ',' || c == 'G':
			if started || overflow {
				b.WriteByte(',')
			} else {
				b.WriteByte(' ')
			}
		default:
			b.WriteByte(c)
			lastNonZero = b.Len()
		}
	}
	body := b.String()
	if fm && lastNonZero >= 0 && afterPoint {
		body = body[:lastNonZero]
	}
	sign := " "
	switch {
	case neg:
		sign = "-"
	case explicitSign:
		sign = "+"
	}
	lead := len(body) - len(strings.TrimLeft(body, " "))
	out := body[:lead] + sign + body[lead:]
	if fm {
		out = strings.TrimLeft(out, " ")
	}
	return out
}
