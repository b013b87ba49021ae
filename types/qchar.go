package types

import "fmt"

// QCharIn is PostgreSQL's charin (and text_char, the casts from the
// string types): a four-byte \ooo is the byte of that octal value (its
// low eight bits: \477 is '?'), any other text its first byte (of a
// multibyte character too: 'é' is the byte 0xc3), the empty text the
// zero byte. A "char" value is kept as charout prints it (QCharOut).
func QCharIn(s string) string {
	switch {
	case len(s) == 4 && s[0] == '\\' && isOctal(s[1]) && isOctal(s[2]) && isOctal(s[3]):
		return QCharOut(byte(int(s[1]-'0')<<6 | int(s[2]-'0')<<3 | int(s[3]-'0')))
	case s == "":
		return ""
	}
	return QCharOut(s[0])
}

// QCharOut is PostgreSQL 15's charout of the byte b: a byte past ASCII
// as \ooo, the zero byte as the empty string, others as themselves.
func QCharOut(b byte) string {
	switch {
	case b == 0:
		return ""
	case b >= 0x80:
		return fmt.Sprintf("\\%03o", b)
	}
	return string(rune(b))
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

// QCharByte is the byte a "char" value kept as QCharOut prints it holds:
// what "char"'s order (btcharcmp: unsigned bytes, '\377' after 'a') and
// its cast to integer (signed) read.
func QCharByte(s string) byte {
	switch {
	case s == "":
		return 0
	case len(s) == 4 && s[0] == '\\' && isOctal(s[1]) && isOctal(s[2]) && isOctal(s[3]):
		return (s[1]-'0')<<6 | (s[2]-'0')<<3 | (s[3] - '0')
	}
	return s[0]
}

// QCharKey is the ordering key of a "char" value: its byte as two hex
// digits, text whose byte order is btcharcmp's (unsigned bytes).
func QCharKey(s string) (string, error) {
	const hex = "0123456789abcdef"
	b := QCharByte(s)
	return string([]byte{hex[b>>4], hex[b&15]}), nil
}
