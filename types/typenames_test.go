package types

import (
	"strings"
	"testing"
)

// TestKeywordTypeName: the grammar's keyword spellings and their pg_type
// names; a generic name is "".
func TestKeywordTypeName(t *testing.T) {
	for _, tc := range []struct{ in, prec, want string }{
		{"integer", "", "int4"}, {"double precision", "", "float8"}, {"float", "24", "float4"},
		{"float", "25", "float8"}, {"character varying", "", "varchar"}, {"national character", "", "bpchar"},
		{"bit varying", "", "varbit"}, {"time with time zone", "", "timetz"},
		{"timestamp without time zone", "", "timestamp"}, {"dec", "", "numeric"}, {"double", "", ""},
		{"mood", "", ""}, {"", "", ""},
	} {
		if got := KeywordTypeName(strings.Fields(tc.in), tc.prec); got != tc.want {
			t.Errorf("KeywordTypeName(%q, %q) = %q, want %q", tc.in, tc.prec, got, tc.want)
		}
	}
}
