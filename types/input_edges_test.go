package types

import (
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

func TestPostgresInputEdges(t *testing.T) {
	tests := []struct {
		in   string
		t    T
		want string // FormatText of the value, or the SQLSTATE of the error
	}{
		{"24:00:00", T{Kind: Time, Precision: 6}, "24:00:00"},
		{"1:2:3", T{Kind: Time, Precision: 6}, "01:02:03"},
		{"25:00:00", T{Kind: Time, Precision: 6}, "22008"},
		{"12:00:61", T{Kind: Time, Precision: 6}, "22008"},
		{"12:34:56.7895", T{Kind: Time, Precision: 3}, "12:34:56.79"},
		{"12:34:56.0000015", T{Kind: Time, Precision: 6}, "12:34:56.000002"},
		{"2024-01-02 03:04:05.0000015", TimestampType(6), "2024-01-02 03:04:05.000002"},
		{"2024-01-02 03:04:05.1234565", TimestampType(6), "2024-01-02 03:04:05.123456"},
		{"2024-01-02 03:04:05.1234575", TimestampType(6), "2024-01-02 03:04:05.123458"},
		{"2024-01-02 03:04:05.9999995", TimestampType(6), "2024-01-02 03:04:06"},
		{`\xzz`, BytesType, "22023"},
		{`\x0`, BytesType, "22023"},
		{`\x00ff`, BytesType, `\x00ff`},
		{"20240102", DateType, "2024-01-02"},
		{"Jan 2 2024", DateType, "2024-01-02"},
		{"January 2, 2024", DateType, "2024-01-02"},
		{"2 Jan 2024", DateType, "2024-01-02"},
		{"1/2/2024", DateType, "2024-01-02"},
		{"2024/01/02", DateType, "2024-01-02"},
		{"Feb 30 2024", DateType, "22008"},
	}
	for _, tc := range tests {
		v, err := ParseText(tc.in, tc.t)
		got := ""
		if err != nil {
			got = string(sqlerr.CodeOf(err))
		} else {
			got = FormatText(v, tc.t)
		}
		if got != tc.want {
			t.Errorf("%q as %s: got %q, want %q", tc.in, tc.t, got, tc.want)
		}
	}
}
