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

// assignCheck is an assignment's check of one value against the target's
// typmod, an array's elements at any depth included (PostgreSQL coerces
// each element with the element type's assignment cast): a string too
// long for varchar(n) or character(n) is refused (22001) where an explicit
// cast truncates it; text becoming a bit string is read by the input
// function with the typmod (bit_in), and a bit string of another length
// is refused (22026) where an explicit cast would truncate or pad. nil
// when the target has no typmod to check.
func assignCheck(from, to types.T) func(v any) error {
	elemTo, elemFrom := to.ArrayLeaf(), from.ArrayLeaf()
	var leaf func(v any) error
	switch {
	case elemTo.IsBitString() && elemTo.Length > 0:
		if to.Kind == types.Array && !elemFrom.IsBitString() {
			return nil // not an assignment PostgreSQL has (no text[] to bit[])
		}
		leaf = func(v any) error {
			if s, ok := v.(string); ok && elemFrom.IsBitString() {
				return types.CheckBitTypmod(s, elemTo)
			}
			_, err := types.ParseBitTyped(types.FormatTextIn(v, elemFrom, time.UTC), elemTo)
			return err
		}
	case elemTo.IsString() && elemTo.Length > 0 && elemFrom.IsString():
		leaf = func(v any) error {
			if s, ok := v.(string); ok {
				return types.CheckStringLength(s, elemTo)
			}
			return nil
		}
	default:
		return nil
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
		}
		return leaf(v)
	}
	return check
}

// checkAssign applies assignCheck to the values of a.
func checkAssign(a arrow.Array, from, to types.T) error {
	if to.IsString() && !to.IsBitString() && from.IsString() {
		return checkAssignLengths(a, to) // the strings read without boxing them
	}
	check := assignCheck(from, to)
	if check == nil {
		return nil
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
