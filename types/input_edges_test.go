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
		// integers: a value out of range is found digit by digit, before
		// what follows the digits (pg_strtoint32)
		{"99999999999x", Int32Type, "22003"},
		{"122147483648-2147483648", Int32Type, "22003"},
		{"3000000000x", Int32Type, "22003"},
		{"99999x", Int16Type, "22003"},
		{"99999999999.5", Int32Type, "22003"},
		{"99999999999999999999x", Int64Type, "22003"},
		{"12x", Int32Type, "22P02"},
		{" -2147483648 ", Int32Type, "-2147483648"},
		{"2147483648", Int32Type, "22003"},
		{"+7", Int16Type, "7"},
		{"-", Int32Type, "22P02"},
		{"", Int32Type, "22P02"},
		{" \t12\n", Int64Type, "12"},
		{"-9223372036854775808", Int64Type, "-9223372036854775808"},
		{"9223372036854775808", Int64Type, "22003"},
		{"1 2", Int32Type, "22P02"},
		{"0x10", Int32Type, "22P02"},
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
