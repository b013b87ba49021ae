package exec

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/types"
)

// castBitString is a cast to or from bit(n) or bit varying(n)
// (types/bitstring.go): from text it reads bit_in's forms, from an
// integer it takes the target's width of rightmost bits (bitfromint4/8),
// to an integer it reads the bits as one (bittoint4/8), between bit
// strings it is the typmod coercion of an explicit cast (truncate or pad);
// an assignment checks the length before (CastExpr.Assign). ok is false
// for a cast it leaves to castValue's other rules (bit to text).
func castBitString(v any, from, to types.T, loc *time.Location) (out any, ok bool, err error) {
	switch {
	case to.IsBitString() && from.IsBitString():
		s, err := types.CoerceBit(v.(string), to, true)
		return s, true, err
	case to.IsBitString() && (from.Kind == types.Int32 || from.Kind == types.Int64):
		width := 32
		if from.Kind == types.Int64 {
			width = 64
		}
		n := to.Length
		if n <= 0 {
			n = 1
		}
		return types.BitFromInt(v.(int64), width, n), true, nil
	case to.IsBitString():
		s, err := types.ParseBitString(types.FormatTextIn(v, from, loc))
		if err != nil {
			return nil, true, err
		}
		s, err = types.CoerceBit(s, to, true)
		return s, true, err
	case from.IsBitString() && (to.Kind == types.Int32 || to.Kind == types.Int64):
		width := 32
		if to.Kind == types.Int64 {
			width = 64
		}
		n, err := types.BitToInt(v.(string), width)
		return n, true, err
	}
	return nil, false, nil
}

// assignChecksText reports whether an assignment's length check reads the
// value as it arrives: not for text becoming a bit string, whose length
// is the bits' (checkAssignBits), not the text's.
func assignChecksText(from, to types.T) bool {
	return !to.IsBitString() || from.IsBitString()
}

// checkAssignBits is an assignment's check of values becoming bit strings
// of a typmod, or arrays of them: text is read by the input function
// (bit_in with the column's typmod), and bit strings of another length,
// top-level or array elements, are refused where an explicit cast would
// truncate or pad.
func checkAssignBits(a arrow.Array, from, to types.T) error {
	elemTo, elemFrom := to.ArrayLeaf(), from.ArrayLeaf()
	switch {
	case !elemTo.IsBitString() || elemTo.Length <= 0:
		return nil
	case to.Kind != types.Array && from.IsBitString():
		return nil // checkAssignLengths checked it (types.CheckStringLength)
	case to.Kind == types.Array && !elemFrom.IsBitString():
		return nil // not an assignment PostgreSQL has (no text[] to bit[])
	}
	var check func(v any) error
	check = func(v any) error {
		switch x := v.(type) {
		case nil:
			return nil
		case []any:
			for _, e := range x {
				if err := check(e); err != nil {
					return err
				}
			}
			return nil
		case string:
			if elemFrom.IsBitString() {
				return types.CheckBitTypmod(x, elemTo)
			}
		}
		_, err := types.ParseBitTyped(types.FormatTextIn(v, elemFrom, time.UTC), elemTo)
		return err
	}
	for i := 0; i < a.Len(); i++ {
		if a.IsNull(i) {
			continue
		}
		if err := check(valueAt(a, i)); err != nil {
			return err
		}
	}
	return nil
}
