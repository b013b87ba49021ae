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
