package types

import (
	"bytes"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// CheckJSONBEscapes applies jsonb's input rules for \u escapes to JSON
// text already checked for syntax: jsonb de-escapes its strings, so
// \u0000 (which text cannot hold) is 22P05 and a surrogate that is not
// half of a high-low pair is 22P02, as PostgreSQL's jsonb_in reports them.
// json keeps its text as written and checks neither.
func CheckJSONBEscapes(doc []byte) error {
	if !bytes.Contains(doc, []byte(`\u`)) {
		return nil
	}
	in := false
	for i := 0; i < len(doc); i++ {
		c := doc[i]
		if !in {
			in = c == '"'
			continue
		}
		switch c {
		case '"':
			in = false
		case '\\':
			if i+5 >= len(doc) || doc[i+1] != 'u' {
				i++
				continue
			}
			r := HexRune4(doc[i+2 : i+6])
			switch {
			case r == 0:
				return sqlerr.New(sqlerr.Code("22P05"), "unsupported Unicode escape sequence").
					WithDetail("%s", `\u0000 cannot be converted to text.`)
			case r >= 0xD800 && r < 0xDC00:
				if i+11 >= len(doc) || doc[i+6] != '\\' || doc[i+7] != 'u' {
					return errLowSurrogate()
				}
				if lo := HexRune4(doc[i+8 : i+12]); lo < 0xDC00 || lo >= 0xE000 {
					return errLowSurrogate()
				}
				i += 6
			case r >= 0xDC00 && r < 0xE000:
				return errLowSurrogate()
			}
			i += 5
		}
	}
	return nil
}

func errLowSurrogate() error {
	return sqlerr.InvalidJSON().
		WithDetail("Unicode low surrogate must follow a high surrogate.")
}

// HexRune4 reads the four hex digits of a \u escape; -1 when they are
// not hex digits.
func HexRune4(h []byte) rune {
	var r rune
	for _, c := range h {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c-'a') + 10
		case c >= 'A' && c <= 'F':
			r |= rune(c-'A') + 10
		default:
			return -1
		}
	}
	return r
}
