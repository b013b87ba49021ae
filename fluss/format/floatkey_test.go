package format

import (
	"bytes"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqlgate/sqlgate/types"
)

// TestFloatKeysCanonical: a float key is encoded as the value float8eq
// makes it (-0 is 0, every NaN one NaN), so that a write or lookup of
// either finds the same row; values float8eq tells apart stay apart.
func TestFloatKeysCanonical(t *testing.T) {
	negZero := math.Copysign(0, -1)
	otherNaN := math.Float64frombits(0x7ff8000000000abc)
	tests := []struct {
		name string
		a, b float64
		same bool
	}{
		{"-0 is 0", negZero, 0, true},
		{"NaN payloads are one NaN", math.NaN(), otherNaN, true},
		{"negative NaN is NaN", math.Float64frombits(0xfff8000000000000), math.NaN(), true},
		{"1 is not -1", 1, -1, false},
		{"NaN is not Inf", math.NaN(), math.Inf(1), false},
		{"0 is not the smallest denormal", 0, math.SmallestNonzeroFloat64, false},
	}
	for _, tc := range tests {
		for _, kind := range []types.Kind{types.Float64, types.Float32} {
			ka, kb := floatKey(t, kind, tc.a), floatKey(t, kind, tc.b)
			if got := bytes.Equal(ka, kb); got != tc.same && !(kind == types.Float32 && tc.name == "0 is not the smallest denormal") {
				t.Errorf("%s (%v): keys %x and %x equal = %v, want %v", tc.name, kind, ka, kb, got, tc.same)
			}
		}
	}
}

func floatKey(t *testing.T, kind types.Kind, v float64) []byte {
	t.Helper()
	var a arrow.Array
	typ := types.T{Kind: kind}
	if kind == types.Float32 {
		b := array.NewFloat32Builder(memory.DefaultAllocator)
		b.Append(float32(v))
		a = b.NewArray()
	} else {
		b := array.NewFloat64Builder(memory.DefaultAllocator)
		b.Append(v)
		a = b.NewArray()
	}
	defer a.Release()
	key, err := AppendKey(nil, []types.T{typ}, []arrow.Array{a}, 0)
	if err != nil {
		t.Fatal(err)
	}
	return key
}
