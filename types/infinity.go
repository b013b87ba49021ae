package types

import "math"

// PostgreSQL's dates and timestamps have two special values, infinity and
// -infinity, above and below every other: a date holds them as the
// extreme int32 day numbers (DATEVAL_NOEND, DATEVAL_NOBEGIN), a timestamp
// as the extreme int64 values, so that they sort and compare as
// PostgreSQL's do without a case of their own.

// InfiniteSign returns +1 for infinity, -1 for -infinity and 0 for any
// other value of a date or timestamp type.
func InfiniteSign(v any, t T) int {
	switch x := v.(type) {
	case int32:
		if t.Kind == Date {
			switch x {
			case math.MaxInt32:
				return 1
			case math.MinInt32:
				return -1
			}
		}
	case int64:
		if t.Kind == Timestamp || t.Kind == TimestampTZ {
			switch x {
			case math.MaxInt64:
				return 1
			case math.MinInt64:
				return -1
			}
		}
	}
	return 0
}

// InfiniteValue returns infinity (sign > 0) or -infinity of a date or
// timestamp type t, and false for another type.
func InfiniteValue(sign int, t T) (any, bool) {
	switch t.Kind {
	case Date:
		if sign > 0 {
			return int32(math.MaxInt32), true
		}
		return int32(math.MinInt32), true
	case Timestamp, TimestampTZ:
		if sign > 0 {
			return int64(math.MaxInt64), true
		}
		return int64(math.MinInt64), true
	}
	return nil, false
}

// parseInfiniteDate reads date input's special words.
func parseInfiniteDate(s string) (int32, bool) {
	switch lowerTrim(s) {
	case "infinity", "+infinity":
		return math.MaxInt32, true
	case "-infinity":
		return math.MinInt32, true
	}
	return 0, false
}

func lowerTrim(s string) string {
	b := []byte(s)
	i, j := 0, len(b)
	for i < j && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	for j > i && (b[j-1] == ' ' || b[j-1] == '\t' || b[j-1] == '\n' || b[j-1] == '\r') {
		j--
	}
	b = b[i:j]
	for k, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[k] = c + 'a' - 'A'
		}
	}
	return string(b)
}
