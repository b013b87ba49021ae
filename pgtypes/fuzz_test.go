package pgtypes

import (
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// FuzzDecodeParam feeds arbitrary bytes to every parameter decoder: it must
// never panic, and every error must carry a SQLSTATE.
func FuzzDecodeParam(f *testing.F) {
	f.Add(uint32(OIDInt4), int16(0), []byte("42"))
	f.Add(uint32(OIDNumeric), int16(1), []byte{0, 2, 0, 0, 0x40, 0, 0, 2, 0, 12, 0x13, 0x88})
	f.Add(uint32(OIDTimestampTZ), int16(0), []byte("2024-01-02 03:04:05.5+05:30"))
	f.Add(uint32(OIDBytea), int16(0), []byte(`\x00ff`))
	f.Add(uint32(OIDDate), int16(1), []byte{0, 0, 0, 1})
	f.Fuzz(func(t *testing.T, oid uint32, format int16, data []byte) {
		_, err := DecodeParam(1, oid, format, data)
		if err != nil && sqlerr.As(err) == nil {
			t.Fatalf("error without SQLSTATE: %v", err)
		}
	})
}
