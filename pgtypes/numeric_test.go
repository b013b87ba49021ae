package pgtypes

import (
	"testing"

	"github.com/sqlgate/sqlgate/types/numeric"
)

// TestArbitraryNumericBinary: numeric_send's form of arbitrary-precision
// values (scales past 38 digits, tiny and huge, specials) reads back, by
// the parameter decoder, as the same text.
func TestArbitraryNumericBinary(t *testing.T) {
	for _, s := range []string{"0", "0.000", "1", "-1", "12.5", "-0.0001", "10000", "100000000", "1.00000000",
		"123456789012345678901234567890123456789012.123456789", "1e100", "-1e-100", "0.00000000000000000001",
		"99999999.99", "NaN", "Infinity", "-Infinity"} {
		d := numeric.MustParse(s)
		enc := AppendNumericValueBinary(nil, d)
		got, err := decodeNumericBinary(0, enc)
		if err != nil {
			t.Errorf("%s: %v", s, err)
			continue
		}
		if got != numeric.String(d) {
			t.Errorf("%s: binary reads back as %v", numeric.String(d), got)
		}
	}
	// PostgreSQL's numeric_send of 12.5: ndigits 2, weight 0, sign 0, dscale 1, digits 12 5000
	want := []byte{0, 2, 0, 0, 0, 0, 0, 1, 0, 12, 0x13, 0x88}
	if got := AppendNumericValueBinary(nil, numeric.MustParse("12.5")); string(got) != string(want) {
		t.Errorf("12.5 sent as % x, want % x", got, want)
	}
}
