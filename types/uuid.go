package types

import (
	"encoding/hex"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// ParseUUID reads uuid's input forms as PostgreSQL's uuid_in does: 32 hex
// digits, upper or lower case, optionally in braces, with a hyphen
// allowed after any group of four digits; the result is the canonical
// lower-case 8-4-4-4-12 text. Anything else is 22P02.
func ParseUUID(s string) (string, error) {
	bad := func() (string, error) {
		return "", sqlerr.New(sqlerr.InvalidTextRepresentation, "invalid input syntax for type uuid: \"%s\"", s)
	}
	in := s
	if strings.HasPrefix(in, "{") {
		if !strings.HasSuffix(in, "}") {
			return bad()
		}
		in = in[1 : len(in)-1]
	}
	var digits [32]byte
	n := 0
	for i := 0; i < len(in); i++ {
		c := in[i]
		switch {
		case c == '-' && n > 0 && n%4 == 0 && n < 32 && i+1 < len(in) && in[i+1] != '-':
			continue
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f':
		case c >= 'A' && c <= 'F':
			c += 'a' - 'A'
		default:
			return bad()
		}
		if n == 32 {
			return bad()
		}
		digits[n] = c
		n++
	}
	if n != 32 {
		return bad()
	}
	d := digits[:]
	return string(d[0:8]) + "-" + string(d[8:12]) + "-" + string(d[12:16]) + "-" + string(d[16:20]) + "-" + string(d[20:32]), nil
}

// UUIDBytes is the 16 bytes of a canonical uuid text (uuid's binary form).
func UUIDBytes(canonical string) ([]byte, error) {
	b, err := hex.DecodeString(strings.ReplaceAll(canonical, "-", ""))
	if err != nil || len(b) != 16 {
		return nil, sqlerr.New(sqlerr.InvalidTextRepresentation, "invalid input syntax for type uuid: \"%s\"", canonical)
	}
	return b, nil
}

// UUIDFromBytes is the canonical text of uuid's 16 bytes.
func UUIDFromBytes(b []byte) string {
	h := hex.EncodeToString(b)
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}
