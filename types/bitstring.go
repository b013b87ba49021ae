package types

import (
	"strings"
	"unicode/utf8"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// PostgreSQL's bit(n) and bit varying(n) (Variants Bit and VarBit of
// String). A value is its bits as a string of '0' and '1' characters, one
// byte per bit: Fluss has no bit string type, and STRING holds this form
// so that Fluss's own byte order of the column is PostgreSQL's bitcmp
// order (the common bits compared first, then the shorter string first),
// which makes ORDER BY, GROUP BY, DISTINCT, keys and indexes right with no
// conversion; the value's length is the bit count. A column's declared
// type (bit(3), varbit(8)) is kept in sqlgate's metadata
// (fluss.ColumnMeta.PGType), as uuid's and jsonb's are.

// BitType returns bit(n); n 0 is bit without a typmod (an operator's
// result, a B'..' literal's type).
func BitType(n int) T { return T{Kind: String, Variant: Bit, Length: n} }

// VarBitType returns bit varying(n); n 0 is varbit without a limit.
func VarBitType(n int) T { return T{Kind: String, Variant: VarBit, Length: n} }

// errBitLength is 22026 for a bit(n) value of another length; errBitTooLong
// 22001 for a bit varying(n) one longer than n (PostgreSQL's codes). Both
// come from the typmod coercion, not the literal's input: no position.
func errBitLength(got, n int) error {
	return sqlerr.New(sqlerr.Code("22026"), "bit string length %d does not match type bit(%d)", got, n).AsUnplaced()
}

func errBitTooLong(n int) error {
	return sqlerr.New(sqlerr.StringDataRightTruncation, "bit string too long for type bit varying(%d)", n).AsUnplaced()
}

// ParseBitString reads bit_in's text: binary digits, optionally after a
// 'b' or 'B', or hexadecimal digits after an 'x' or 'X' (four bits each).
func ParseBitString(s string) (string, error) {
	hex := false
	if s != "" {
		switch s[0] {
		case 'b', 'B':
			s = s[1:]
		case 'x', 'X':
			s, hex = s[1:], true
		}
	}
	var b strings.Builder
	if !hex {
		for i, r := range s {
			if r != '0' && r != '1' {
				return "", sqlerr.New(sqlerr.InvalidTextRepresentation, "\"%s\" is not a valid binary digit", s[i:i+utf8.RuneLen(r)])
			}
		}
		return s, nil
	}
	b.Grow(4 * len(s))
	for i, r := range s {
		var v int
		switch {
		case r >= '0' && r <= '9':
			v = int(r - '0')
		case r >= 'a' && r <= 'f':
			v = int(r-'a') + 10
		case r >= 'A' && r <= 'F':
			v = int(r-'A') + 10
		default:
			return "", sqlerr.New(sqlerr.InvalidTextRepresentation, "\"%s\" is not a valid hexadecimal digit", s[i:i+utf8.RuneLen(r)])
		}
		for k := 3; k >= 0; k-- {
			b.WriteByte('0' + byte(v>>k&1))
		}
	}
	return b.String(), nil
}

// ParseBitTyped is the input function of t (bit_in / varbit_in with t's
// typmod): a bit(n) value must have n bits, a bit varying(n) one at most n.
func ParseBitTyped(s string, t T) (string, error) {
	v, err := ParseBitString(s)
	if err != nil {
		return "", err
	}
	return v, CheckBitTypmod(v, t)
}

// CheckBitTypmod checks v against t's typmod as input and implicit or
// assignment casts do (22026); CoerceBit is the explicit cast.
func CheckBitTypmod(v string, t T) error {
	switch {
	case t.Length <= 0:
	case t.Variant == Bit && len(v) != t.Length:
		return errBitLength(len(v), t.Length)
	case t.Variant == VarBit && len(v) > t.Length:
		return errBitTooLong(t.Length)
	}
	return nil
}

// CoerceBit is the length coercion of a cast to t (PostgreSQL's bit() and
// varbit() functions): an explicit cast to bit(n) truncates or pads with
// zeros on the right and one to bit varying(n) truncates; an implicit or
// assignment one refuses a value that does not fit (CheckBitTypmod).
func CoerceBit(v string, t T, explicit bool) (string, error) {
	if !explicit || t.Length <= 0 {
		return v, CheckBitTypmod(v, t)
	}
	if len(v) > t.Length {
		return v[:t.Length], nil
	}
	if t.Variant == Bit && len(v) < t.Length {
		return v + strings.Repeat("0", t.Length-len(v)), nil
	}
	return v, nil
}

// BitFromInt is bitfromint4/bitfromint8: the n rightmost bits of v's
// two's complement (width 32 or 64), a longer n sign-extended on the left.
func BitFromInt(v int64, width, n int) string {
	if n <= 0 {
		n = 1
	}
	b := make([]byte, n)
	for i := range b {
		shift := n - 1 - i // bit number from the right
		if shift >= width {
			shift = width - 1 // sign extension
		}
		b[i] = '0' + byte(uint64(v)>>uint(shift)&1)
	}
	return string(b)
}

// BitToInt is bittoint4/bittoint8: the bits read as an unsigned number of
// width bits and so reinterpreted (32 ones are int4's -1); a longer string
// is 22003.
func BitToInt(v string, width int) (int64, error) {
	if len(v) > width {
		name := "integer"
		if width == 64 {
			name = "bigint"
		}
		return 0, sqlerr.New(sqlerr.NumericValueOutOfRange, "%s out of range", name)
	}
	var u uint64
	for i := 0; i < len(v); i++ {
		u = u<<1 | uint64(v[i]-'0')
	}
	if width == 32 {
		return int64(int32(uint32(u))), nil
	}
	return int64(u), nil
}

// BitBytes is bit_send's payload: the bit count (int4, big-endian) and the
// bits packed eight a byte, the last byte's unused bits zero.
func BitBytes(v string) []byte {
	n := len(v)
	out := make([]byte, 4+(n+7)/8)
	out[0], out[1], out[2], out[3] = byte(n>>24), byte(n>>16), byte(n>>8), byte(n)
	for i := 0; i < n; i++ {
		if v[i] == '1' {
			out[4+i/8] |= 0x80 >> (i % 8)
		}
	}
	return out
}

// BitFromBytes is bit_recv: BitBytes' form back to the '0'/'1' text.
func BitFromBytes(data []byte) (string, error) {
	if len(data) < 4 {
		return "", sqlerr.New(sqlerr.InvalidBinaryRepresentation, "insufficient data left in message")
	}
	n := int(int32(uint32(data[0])<<24 | uint32(data[1])<<16 | uint32(data[2])<<8 | uint32(data[3])))
	if n < 0 || len(data)-4 != (n+7)/8 {
		return "", sqlerr.New(sqlerr.InvalidBinaryRepresentation, "invalid length in external bit string")
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = '0' + (data[4+i/8]>>(7-i%8))&1
	}
	return string(b), nil
}
