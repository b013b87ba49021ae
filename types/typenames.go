package types

// KeywordTypeName is the internal name of a type PostgreSQL's grammar
// spells with keywords (its Numeric, Bit, Character and ConstDatetime
// rules), "" for a generic type name. words are the name's words in
// lower case (double precision, character varying, time with time zone). prec is a parenthesised typmod, which
// chooses float4 for float(1) .. float(24).
func KeywordTypeName(words []string, prec string) string {
	has := func(w string) bool { return len(words) > 1 && words[1] == w }
	varying := len(words) > 1 && words[len(words)-1] == "varying"
	withZone := len(words) > 2 && words[1] == "with"
	if len(words) == 0 {
		return ""
	}
	switch words[0] {
	case "int", "integer":
		return "int4"
	case "smallint":
		return "int2"
	case "bigint":
		return "int8"
	case "real":
		return "float4"
	case "float":
		if n := atoiOr(prec, 53); n >= 1 && n <= 24 {
			return "float4"
		}
		return "float8"
	case "double":
		if has("precision") {
			return "float8"
		}
	case "decimal", "dec", "numeric":
		return "numeric"
	case "boolean":
		return "bool"
	case "bit":
		if varying {
			return "varbit"
		}
		return "bit"
	case "character", "char", "nchar", "national":
		if varying {
			return "varchar"
		}
		return "bpchar"
	case "varchar":
		return "varchar"
	case "timestamp":
		if withZone {
			return "timestamptz"
		}
		return "timestamp"
	case "time":
		if withZone {
			return "timetz"
		}
		return "time"
	case "interval":
		return "interval"
	}
	return ""
}

// atoiOr is s as a small decimal number, or def.
func atoiOr(s string, def int) int {
	n := 0
	if s == "" || len(s) > 4 {
		return def
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return def
		}
		n = n*10 + int(c-'0')
	}
	return n
}
