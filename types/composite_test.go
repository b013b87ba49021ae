package types

import (
	"reflect"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestParseRecord checks record_in's rules: white space around the
// parentheses, empty fields as NULL, quotes (with "" inside) and
// backslashes protecting delimiters, and its errors' DETAIL.
func TestParseRecord(t *testing.T) {
	pair := T{Kind: Row, Variant: AnonRecord, TypeOID: 1, Fields: []Field{{Name: "a", Type: Int32Type}, {Name: "b", Type: StringType}}}
	tests := []struct {
		in     string
		want   []any
		detail string // the 22P02's DETAIL, "" when it parses
	}{
		{"(1,x)", []any{int64(1), "x"}, ""},
		{"  ( 1,x y )  ", []any{int64(1), "x y "}, ""},
		{"(,)", []any{nil, nil}, ""},
		{`(1,"")`, []any{int64(1), ""}, ""},
		{`(1,"a,b")`, []any{int64(1), "a,b"}, ""},
		{`(1,"q""r")`, []any{int64(1), `q"r`}, ""},
		{`(1,a\,b)`, []any{int64(1), "a,b"}, ""},
		{`(1,"x\\y")`, []any{int64(1), `x\y`}, ""},
		{`(1,ab"c d"e)`, []any{int64(1), "abc de"}, ""},
		{"x", nil, "Missing left parenthesis."},
		{"(1", nil, "Unexpected end of input."},
		{`(1,"x`, nil, "Unexpected end of input."},
		{"(1)", nil, "Too few columns."},
		{"(1,2,3)", nil, "Too many columns."},
		{"(1,2) x", nil, "Junk after right parenthesis."},
	}
	for _, tc := range tests {
		got, err := ParseRecord(tc.in, pair, nil)
		if tc.detail != "" {
			se := sqlerr.As(err)
			if se == nil || se.Code != sqlerr.InvalidTextRepresentation || se.Detail != tc.detail {
				t.Errorf("%q: error %v, want 22P02 with DETAIL %q", tc.in, err, tc.detail)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %#v, %v; want %#v", tc.in, got, err, tc.want)
		}
	}
}
