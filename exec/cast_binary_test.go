package exec

import (
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// A cast to BINARY(n) from BYTES or another BINARY refuses a value of
// another length with 22001 before it reaches the Arrow builder; arrays of
// BINARY(n) convert element by element under the same rule.
func TestCastToBinaryLength(t *testing.T) {
	bin3 := types.T{Kind: types.Binary, Length: 3}
	for _, from := range []types.T{types.BytesType, {Kind: types.Binary, Length: 4}, {Kind: types.Binary, Length: 2}} {
		v := make([]byte, max(from.Length, 5))
		if from.Kind == types.Binary {
			v = v[:from.Length]
		}
		if _, err := CastValue(v, from, bin3); sqlerr.CodeOf(err) != sqlerr.StringDataRightTruncation {
			t.Errorf("%s -> binary(3) of %d bytes: %v, want 22001", from, len(v), err)
		}
	}
	if out, err := CastValue([]byte{1, 2, 3}, types.BytesType, bin3); err != nil || len(out.([]byte)) != 3 {
		t.Errorf("exact length: %v %v", out, err)
	}
	if _, err := CastValue([]any{[]byte{1, 2, 3}, []byte{1}}, types.ArrayOf(types.BytesType), types.ArrayOf(bin3)); sqlerr.CodeOf(err) != sqlerr.StringDataRightTruncation {
		t.Errorf("array element: %v, want 22001", err)
	}
}
