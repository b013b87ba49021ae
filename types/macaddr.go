package types

import (
	"encoding/hex"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// macaddr (OID 829) and macaddr8 (OID 774) are Strings holding
// PostgreSQL's output text, "08:00:2b:01:02:03" and
// "08:00:2b:ff:fe:01:02:03": fixed-width lower-case hex, so the text's
// byte order is macaddr_cmp's and macaddr8_cmp's, and equality, ORDER
// BY and indexes need nothing of their own. A column of either is a
// Fluss STRING of that text (fluss/coldefs.go), as inet's is.

// MacAddrLen and MacAddr8Len are the two types' lengths in bytes.
const (
	MacAddrLen  = 6
	MacAddr8Len = 8
)

// macaddrFormats are macaddr_in's sscanf formats, tried in order: each
// is six hex fields and the separators between them, a width of 0
// reading as many hex digits as there are (%x), 2 at most two (%2x).
var macaddrFormats = []struct {
	width int
	seps  [5]string
}{
	{0, [5]string{":", ":", ":", ":", ":"}},
	{0, [5]string{"-", "-", "-", "-", "-"}},
	{2, [5]string{"", "", ":", "", ""}},
	{2, [5]string{"", "", "-", "", ""}},
	{2, [5]string{"", ".", "", ".", ""}},
	{2, [5]string{"", "-", "", "-", ""}},
	{2, [5]string{"", "", "", "", ""}},
}

// ParseMacAddr reads macaddr's input as macaddr_in does, and returns its
// output text: six hex fields separated by ':' or '-', or as 3 groups of
// 2 bytes with '.' or '-', 2 of 3 with ':' or '-', or 12 digits in a
// row, blanks allowed around the fields and after them. 22P02 for
// another form, 22003 for a field over ff.
func ParseMacAddr(s string) (string, error) {
	for _, f := range macaddrFormats {
		octets, ok := scanMacFields(s, f.width, f.seps)
		if !ok {
			continue
		}
		b := make([]byte, MacAddrLen)
		for i, o := range octets {
			if o < 0 || o > 255 {
				return "", sqlerr.New(sqlerr.NumericValueOutOfRange, "invalid octet value in \"macaddr\" value: \"%s\"", s)
			}
			b[i] = byte(o)
		}
		return macText(b), nil
	}
	return "", sqlerr.New(sqlerr.InvalidTextRepresentation, "invalid input syntax for type macaddr: \"%s\"", s)
}

// scanMacFields is one sscanf of macaddr_in's: six %x (or %2x) fields
// with seps between them and nothing but blanks after (the format's
// trailing %1s must find nothing). A field's value is -1 when it does not
// fit an octet's int (a sign or more digits than an int holds).
func scanMacFields(s string, width int, seps [5]string) ([6]int64, bool) {
	var out [6]int64
	for i := range out {
		v, rest, ok := scanHex(s, width)
		if !ok {
			return out, false
		}
		out[i], s = v, rest
		if i < 5 {
			var found bool
			if s, found = strings.CutPrefix(s, seps[i]); !found {
				return out, false
			}
		}
	}
	for len(s) > 0 && isCSpace(s[0]) {
		s = s[1:]
	}
	return out, s == ""
}

// scanHex is glibc's %x (width 0) or %Nx: blanks skipped, an optional
// sign, an optional 0x, then hex digits, width counting all but the
// blanks; the value as the int the field is stored in, or -1 for
// anything negative or past 255 that would not print back (macaddr_in
// refuses both alike).
func scanHex(s string, width int) (int64, string, bool) {
	for len(s) > 0 && isCSpace(s[0]) {
		s = s[1:]
	}
	left := width
	if left == 0 {
		left = -1
	}
	take := func() byte {
		c := s[0]
		s = s[1:]
		if left > 0 {
			left--
		}
		return c
	}
	neg := false
	if len(s) > 0 && left != 0 && (s[0] == '-' || s[0] == '+') {
		neg = take() == '-'
	}
	digits := 0
	var v uint64
	if len(s) > 0 && left != 0 && s[0] == '0' {
		take()
		digits++
		if len(s) > 0 && left != 0 && (s[0] == 'x' || s[0] == 'X') {
			take()
		}
	}
	for len(s) > 0 && left != 0 && isHexDigit(s[0]) {
		c := take()
		digits++
		if v < 1<<32 {
			v = v<<4 | uint64(hexValue(c))
		}
	}
	if digits == 0 {
		return 0, s, false
	}
	if neg && v != 0 || v > 255 {
		return -1, s, true
	}
	return int64(v), s, true
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexValue(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// macText is the output text of a macaddr's or macaddr8's bytes.
func macText(b []byte) string {
	out := make([]byte, 0, 3*len(b)-1)
	for i, c := range b {
		if i > 0 {
			out = append(out, ':')
		}
		out = append(out, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
	}
	return string(out)
}

// ParseMacAddr8 reads macaddr8's input as macaddr8_in does, and returns
// its output text: 6 or 8 bytes, each two hex digits, with one separator
// (':', '-' or '.') used throughout or none, after leading blanks and
// before trailing ones; a 6-byte address gets ff:fe in its middle. As in
// PostgreSQL a single character left after the last pair is ignored.
// 22P02 for anything else.
func ParseMacAddr8(str string) (string, error) {
	bad := func() (string, error) {
		return "", sqlerr.New(sqlerr.InvalidTextRepresentation, "invalid input syntax for type macaddr8: \"%s\"", str)
	}
	s := str
	for len(s) > 0 && isCSpace(s[0]) {
		s = s[1:]
	}
	var b [MacAddr8Len]byte
	count := 0
	var spacer byte
	for len(s) >= 2 {
		if count == MacAddr8Len || !isHexDigit(s[0]) || !isHexDigit(s[1]) {
			return bad()
		}
		b[count] = hexValue(s[0])<<4 | hexValue(s[1])
		count++
		s = s[2:]
		if len(s) > 0 && (s[0] == ':' || s[0] == '-' || s[0] == '.') {
			if spacer == 0 {
				spacer = s[0]
			} else if spacer != s[0] {
				return bad()
			}
			s = s[1:]
		}
		if (count == 6 || count == 8) && len(s) > 0 && isCSpace(s[0]) {
			for len(s) > 0 && isCSpace(s[0]) {
				s = s[1:]
			}
			if len(s) > 0 {
				return bad()
			}
		}
	}
	switch count {
	case 6:
		return macText([]byte{b[0], b[1], b[2], 0xff, 0xfe, b[3], b[4], b[5]}), nil
	case 8:
		return macText(b[:]), nil
	}
	return bad()
}

// MacBytes is a macaddr's or macaddr8's bytes from its text (macaddr_send,
// macaddr8_send).
func MacBytes(text string) ([]byte, error) {
	return hex.DecodeString(strings.ReplaceAll(text, ":", ""))
}

// MacAddrFromBytes is macaddr_recv: six bytes.
func MacAddrFromBytes(b []byte) (string, error) {
	if len(b) != MacAddrLen {
		return "", sqlerr.New(sqlerr.InvalidBinaryRepresentation, "incorrect binary data format")
	}
	return macText(b), nil
}

// MacAddr8FromBytes is macaddr8_recv: eight bytes, or six that get ff:fe
// in their middle.
func MacAddr8FromBytes(b []byte) (string, error) {
	switch len(b) {
	case MacAddrLen:
		return macText([]byte{b[0], b[1], b[2], 0xff, 0xfe, b[3], b[4], b[5]}), nil
	case MacAddr8Len:
		return macText(b), nil
	}
	return "", sqlerr.New(sqlerr.InvalidBinaryRepresentation, "incorrect binary data format")
}

// MacAddr8ToMacAddr is macaddr8tomacaddr: the outer six bytes of an
// address whose fourth and fifth are ff and fe, 22003 otherwise.
func MacAddr8ToMacAddr(text string) (string, error) {
	b, err := MacBytes(text)
	if err != nil || len(b) != MacAddr8Len {
		return "", sqlerr.New(sqlerr.InvalidTextRepresentation, "invalid input syntax for type macaddr8: \"%s\"", text)
	}
	if b[3] != 0xff || b[4] != 0xfe {
		return "", sqlerr.New(sqlerr.NumericValueOutOfRange, "macaddr8 data out of range to convert to macaddr").
			WithHint("Only addresses that have FF and FE as values in the 4th and 5th bytes from the left, for example xx:xx:xx:ff:fe:xx:xx:xx, are eligible to be converted from macaddr8 to macaddr.")
	}
	return macText([]byte{b[0], b[1], b[2], b[5], b[6], b[7]}), nil
}

// MacAddrToMacAddr8 is macaddrtomacaddr8: ff:fe put in the middle.
func MacAddrToMacAddr8(text string) string {
	return text[:8] + ":ff:fe" + text[8:]
}
