package pgtypes

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// numericEncoder writes an unconstrained numeric column (arbitrary
// precision, a display scale per value): numeric_out's text, or
// numeric_send's binary form.
type numericEncoder struct {
	mode mode
	arr  *types.NumericArray
	d    apd.Decimal
	buf  []byte
}

func (e *numericEncoder) reset(arr arrow.Array) error {
	a, ok := arr.(*types.NumericArray)
	if !ok {
		return mismatch(arr, types.NumericType)
	}
	e.arr = a
	return nil
}

func (e *numericEncoder) appendValue(dst []byte, row int) []byte {
	e.arr.ValueInto(row, &e.d)
	if e.mode == modeBinary {
		return AppendNumericValueBinary(dst, &e.d)
	}
	return numeric.Append(dst, &e.d)
}

// AppendNumericValueBinary appends d in numeric's binary format: ndigits,
// weight, sign (0xC000 NaN, 0xD000 +Infinity, 0xF000 -Infinity), dscale,
// then the base-10000 digits from the leading to the last nonzero one.
func AppendNumericValueBinary(dst []byte, d *apd.Decimal) []byte {
	switch {
	case numeric.IsNaN(d):
		return append(appendUint16(appendUint16(dst, 0), 0), 0xC0, 0, 0, 0)
	case numeric.IsInf(d) && d.Negative:
		return append(appendUint16(appendUint16(dst, 0), 0), 0xF0, 0, 0, 0)
	case numeric.IsInf(d):
		return append(appendUint16(appendUint16(dst, 0), 0), 0xD0, 0, 0, 0)
	}
	scale := numeric.Dscale(d)
	digits := d.Coeff.Append(nil, 10)
	// Align on the decimal point: pad the fraction to a multiple of four
	// digits and the integer part on the left to one.
	fracPad := (4 - scale%4) % 4
	intLen := len(digits) - scale
	var all []byte
	if intLen <= 0 {
		all = make([]byte, 0, scale+fracPad)
		for i := 0; i < -intLen; i++ {
			all = append(all, '0')
		}
		all = append(all, digits...)
		intLen = 0
	} else {
		lead := (4 - intLen%4) % 4
		all = make([]byte, 0, lead+len(digits)+fracPad)
		for i := 0; i < lead; i++ {
			all = append(all, '0')
		}
		all = append(all, digits...)
		intLen += lead
	}
	for i := 0; i < fracPad; i++ {
		all = append(all, '0')
	}
	groups := make([]uint16, 0, len(all)/4)
	for i := 0; i+4 <= len(all); i += 4 {
		groups = append(groups, parseGroup(all[i:i+4]))
	}
	return appendNumericGroups(dst, groups, intLen/4-1, d.Negative, scale) // encode.go
}
