package pgtypes

import (
	"testing"

	"github.com/sqlgate/sqlgate/types"
)

// TestFracTypmodRowDescription checks the typmod RowDescription reports for
// every fractional-second precision of time/timestamp/timestamptz: PostgreSQL
// 15's atttypmod is the precision for 0..5 and -1 (no typmod) for 6, the
// default; Fluss's 7..9 are held at 6 digits, so they report -1 too.
func TestFracTypmodRowDescription(t *testing.T) {
	kinds := map[types.Kind]uint32{types.Time: OIDTime, types.Timestamp: OIDTimestamp, types.TimestampTZ: OIDTimestampTZ}
	for kind, wantOID := range kinds {
		for p := 0; p <= 9; p++ {
			want := int32(p)
			if p >= 6 {
				want = -1
			}
			oid, typmod, _ := OIDOf(types.T{Kind: kind, Precision: p})
			if oid != wantOID || typmod != want {
				t.Errorf("OIDOf(%v(%d)) = %d, typmod %d; want %d, %d", kind, p, oid, typmod, wantOID, want)
			}
		}
	}
}
