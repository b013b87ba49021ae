package coverage

import (
	"strings"
)

// edgeValues are the generated arguments of the differential test, per
// type, beyond the sample value: NULL, zero and empty values, boundaries,
// negative and huge numbers, Unicode, special floats and dates.
var edgeValues = map[string][]string{
	"bool":        {"false"},
	"int2":        {"0", "-1", "32767", "-32768"},
	"int4":        {"0", "-7", "2147483647", "-2147483648"},
	"int8":        {"0", "-7", "9223372036854775807", "-9223372036854775808"},
	"float4":      {"0", "-1.5", "'NaN'", "'Infinity'", "3.4e38"},
	"float8":      {"0", "-2.5", "1e308", "'NaN'", "'-Infinity'", "1e-300", "0.1"},
	"numeric":     {"0", "-2.5", "123456789012345678901234567890.5", "0.00000000000000000001", "'NaN'"},
	"text":        {"''", "'héllo wörld ✓'", "'ABC def'", "' x '"},
	"varchar":     {"''", "'héllo'"},
	"bpchar":      {"''", "'héllo '"},
	"bytea":       {`'\x'`, `'\x00ff'`},
	"date":        {"'1999-12-31'", "'infinity'", "'2024-02-29'", "'0044-03-15 BC'"},
	"time":        {"'00:00'", "'23:59:59.999999'"},
	"timestamp":   {"'2000-01-01 00:00:00'", "'2024-02-29 23:59:59.999999'", "'infinity'", "'1900-01-01'"},
	"timestamptz": {"'2000-01-01 00:00:00+00'", "'2024-02-29 23:59:59.999999+05:30'", "'-infinity'"},
	"interval":    {"'0'", "'-1 mon -2 days'", "'100 years'", "'1.5 seconds'"},
	"json":        {"'[]'", "'{}'", `'[1, "a", null, {"b": true}]'`, `'"x"'`, "'null'"},
	"jsonb":       {"'[]'", "'{}'", `'[1, "a", null, {"b": true}]'`, `'"x"'`, "'null'"},
	"uuid":        {"'00000000-0000-0000-0000-000000000000'"},
	"inet":        {"'::1'", "'10.1.2.3/8'", "'0.0.0.0/0'"},
	"cidr":        {"'192.168.0.0/16'", "'::/0'"},
	"money":       {"'0'", "'-92233720368547758.08'", "'92233720368547758.07'", "'-0.01'"},
	"macaddr":     {"'00:00:00:00:00:00'", "'ff:ff:ff:ff:ff:ff'"},
	"macaddr8":    {"'00:00:00:ff:fe:00:00:00'", "'ff:ff:ff:ff:ff:ff:ff:ff'"},
	"int4range":   {"'empty'", "'(,)'", "'[-2147483648,2147483647)'"},
	"numrange":    {"'empty'", "'(,)'", "'[NaN,NaN]'"},
	"daterange":   {"'empty'", "'[-infinity,infinity]'"},
}

// hugeArgs are the functions whose numeric arguments size their output or
// their run time; they get no huge numbers.
func boundedName(name string) bool {
	return sizeBound[name] || strings.HasPrefix(name, "pg_sleep")
}

func isHuge(v string) bool {
	return strings.Contains(v, "2147483647") || strings.Contains(v, "922337203685477580") || strings.Contains(v, "e308") ||
		strings.Contains(v, "e38") || strings.Contains(v, "1234567890")
}

// Variants are the differential test's calls of s: the sample call, the
// all-NULL call, and each argument in turn replaced by each of its type's
// edge values (other arguments at their sample).
func Variants(s *Signature) []string {
	base := sampleArgs(s)
	calls := []string{Call(s, base)}
	if len(s.Args) > 0 && !s.Variadic {
		nulls := make([]string, len(s.Args))
		for i, t := range s.Args {
			nulls[i] = "NULL::" + sqlType(concrete(t))
		}
		calls = append(calls, Call(s, nulls))
	}
	for i, t := range s.Args {
		if s.Variadic && i == len(s.Args)-1 {
			break
		}
		c := concrete(t)
		vals := []string{"NULL"}
		if strings.HasPrefix(c, "_") {
			vals = append(vals, "'{}'", "ARRAY[NULL, "+sampleLiteral(c[1:])+"]")
		} else {
			vals = append(vals, edgeValues[c]...)
		}
		for _, v := range vals {
			if boundedName(s.Name) && isHuge(v) {
				continue
			}
			args := append([]string(nil), base...)
			args[i] = v + "::" + sqlType(c)
			calls = append(calls, Call(s, args))
		}
	}
	return calls
}
