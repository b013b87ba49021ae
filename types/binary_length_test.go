package types

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// BINARY(n) holds exactly n bytes: text input, the shared length check and
// the Arrow append all refuse another length with 22001 (never a panic in
// arrow-go's FixedSizeBinaryBuilder), and accept exactly n.
func TestBinaryLength(t *testing.T) {
	bin3 := T{Kind: Binary, Length: 3}
	cases := []struct {
		text, msg string // msg "" = accepted
	}{
		{`\x010203`, ""},
		{`\x01020304`, "value too long for type binary(3)"},
		{`\x0102`, "value too short for type binary(3)"},
		{``, "value too short for type binary(3)"},
		{`abc`, ""}, // escape format: three bytes
		{`ab`, "value too short for type binary(3)"},
	}
	for _, tc := range cases {
		v, err := ParseText(tc.text, bin3)
		if tc.msg == "" {
			if err != nil {
				t.Errorf("%q: %v", tc.text, err)
			}
			continue
		}
		if sqlerr.CodeOf(err) != sqlerr.StringDataRightTruncation || err.Error() != tc.msg {
			t.Errorf("%q: %v (%v), want 22001 %q", tc.text, v, err, tc.msg)
		}
		raw, perr := ParseText(tc.text, BytesType)
		if perr != nil {
			t.Fatal(perr)
		}
		b := array.NewFixedSizeBinaryBuilder(memory.DefaultAllocator, bin3.ArrowType().(*arrow.FixedSizeBinaryType))
		if err := AppendValue(b, raw); sqlerr.CodeOf(err) != sqlerr.StringDataRightTruncation {
			t.Errorf("AppendValue(%q): %v, want 22001", tc.text, err)
		}
		b.Release()
	}
	if err := CheckBinaryLength([]byte("abcd"), BytesType); err != nil {
		t.Errorf("BYTES has no length: %v", err)
	}
	if v, err := ParseText(`\x0a0b0c`, bin3); err != nil || !bytes.Equal(v.([]byte), []byte{10, 11, 12}) {
		t.Errorf("exact length: %v %v", v, err)
	}
}
