package pgtypes

import "fmt"

// FormatTypeName is PostgreSQL's format_type_extended for the built-in
// types whose SQL name is a keyword or which show their modifier in a
// way of their own: bpchar and varchar (character(n), character
// varying(n)), numeric(p,s), the time and timestamp types (time(p) with
// time zone ...), interval, bit and bit varying, boolean, the integers
// and floats, and "char". typmod is the modifier, shown where hasTypmod
// and it is not -1; hasTypmod false is format_type's NULL modifier (which
// names bpchar "character" and bit "bit"). ok is false for every other
// type: its name is the catalog's, with (typmod) after it when it has
// one. pgcatalog's format_type and the deparser's casts both name types
// through it.
func FormatTypeName(oid uint32, typmod int32, hasTypmod bool) (name string, ok bool) {
	withMod := hasTypmod && typmod >= 0
	charMod := func(base string) string {
		if withMod && typmod > 4 {
			return fmt.Sprintf("%s(%d)", base, typmod-4)
		}
		return base
	}
	timeMod := func(base, suffix string) string {
		if withMod {
			return fmt.Sprintf("%s(%d)%s", base, typmod, suffix)
		}
		return base + suffix
	}
	plainMod := func(base string) string {
		if withMod {
			return fmt.Sprintf("%s(%d)", base, typmod)
		}
		return base
	}
	switch oid {
	case OIDBPChar:
		if !withMod && hasTypmod {
			return "bpchar", true
		}
		return charMod("character"), true
	case OIDVarchar:
		return charMod("character varying"), true
	case OIDNumeric:
		if withMod && typmod >= 4 {
			precision := ((typmod - 4) >> 16) & 0xffff
			scale := (((typmod - 4) & 0x7ff) ^ 1024) - 1024
			return fmt.Sprintf("numeric(%d,%d)", precision, scale), true
		}
		return "numeric", true
	case OIDTime:
		return timeMod("time", " without time zone"), true
	case OIDTimestamp:
		return timeMod("timestamp", " without time zone"), true
	case OIDTimestampTZ:
		return timeMod("timestamp", " with time zone"), true
	case OIDTimeTZ:
		return timeMod("time", " with time zone"), true
	case OIDInterval:
		return "interval", true // intervaltypmodout's field names are not reproduced
	case OIDBit:
		if !withMod && hasTypmod {
			return `"bit"`, true // bit without a typmod is not BIT, which is bit(1)
		}
		return plainMod("bit"), true
	case OIDVarBit:
		return plainMod("bit varying"), true
	case OIDBool:
		return "boolean", true
	case OIDInt2:
		return "smallint", true
	case OIDInt4:
		return "integer", true
	case OIDInt8:
		return "bigint", true
	case OIDFloat4:
		return "real", true
	case OIDFloat8:
		return "double precision", true
	case 18:
		return plainMod(`"char"`), true
	}
	return "", false
}
