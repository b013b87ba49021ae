package pgtypes

import "github.com/sqlgate/sqlgate/types"

// bit(n) and bit varying(n) (types/bitstring.go) on the wire: text is the
// '0'/'1' string the value holds; binary is bit_send's bit count and
// packed bytes (types.BitBytes).
const (
	OIDBit         uint32 = 1560
	OIDBitArray    uint32 = 1561
	OIDVarBit      uint32 = 1562
	OIDVarBitArray uint32 = 1563
)

// init registers the bit string types in the tables oid.go and encode.go
// keep for every String variant: the array OIDs, the scalar OIDs and the
// binary form.
func init() {
	variantOIDs[types.Bit], variantOIDs[types.VarBit] = OIDBit, OIDVarBit
	arrayOIDs[OIDBit], arrayOIDs[OIDVarBit] = OIDBitArray, OIDVarBitArray
	binaryForms[types.Bit] = bitBinary
	binaryForms[types.VarBit] = bitBinary
}

func bitBinary(s string) ([]byte, error) { return types.BitBytes(s), nil }

// bitOIDOf is OIDOf for a bit string type: bit(n)'s and varbit(n)'s
// typmod is n (atttypmod), -1 without one.
func bitOIDOf(t types.T) (uint32, int32, int16) {
	oid := OIDBit
	if t.Variant == types.VarBit {
		oid = OIDVarBit
	}
	if t.Length > 0 {
		return oid, int32(t.Length), -1
	}
	return oid, -1, -1
}
