package sql

import (
	"strings"
	"unicode/utf8"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// Unicode-escaped literals and identifiers, U&'...' and U&"..." with an
// optional UESCAPE 'c' clause, which TiDB's grammar does not have. The lexer
// keeps each as one token (tkUString, tkUIdent) so that nothing inside is
// read as SQL; decodeUnicodeTokens then turns them into the plain string
// literal or quoted identifier they stand for, with PostgreSQL 15's errors
// (parser.c, str_udeescape) at PostgreSQL's positions.

// decodeUnicodeTokens replaces every U&'...' [UESCAPE 'c'] by a string token
// and every U&"..." [UESCAPE 'c'] by a quoted-identifier token holding the
// decoded text.
func decodeUnicodeTokens(src string, toks []token) ([]token, error) {
	var out []token
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind != tkUString && t.kind != tkUIdent {
			if out != nil {
				out = append(out, t)
			}
			continue
		}
		if out == nil {
			out = append(make([]token, 0, len(toks)), toks[:i]...)
		}
		esc, end := byte('\\'), t.end
		if i+1 < len(toks) && toks[i+1].is(src, "UESCAPE") {
			if i+2 >= len(toks) || toks[i+2].kind != tkString || src[toks[i+2].start] != '\'' {
				at := len(src)
				near := "end of input"
				if i+2 < len(toks) {
					at, near = toks[i+2].start, "or near "+quoteNear(toks[i+2].text(src))
				}
				return nil, sqlerr.New(sqlerr.SyntaxError, "UESCAPE must be followed by a simple string literal at %s", near).WithPosition(charPos(src, at))
			}
			lit := toks[i+2]
			c := unquoteString(lit.text(src))
			if len(c) != 1 || !validUescape(c[0]) {
				return nil, sqlerr.New(sqlerr.SyntaxError, "invalid Unicode escape character at or near %s", quoteNear(lit.text(src))).WithPosition(charPos(src, lit.start))
			}
			esc, end = c[0], lit.end
			i += 2
		}
		q := src[t.start+2] // the quote after U&
		body := strings.ReplaceAll(src[t.start+3:t.end-1], string([]byte{q, q}), string(q))
		val, off, err := decodeUnicodeEscapes(body, esc)
		if err != nil {
			// off counts bytes of the body without its doubled quotes, as
			// PostgreSQL's position does (parser.c, str_udeescape)
			return nil, escapeErrorAt(src, t.start+3+off, err)
		}
		kind, synth := tkString, sqlQuote(val)
		if t.kind == tkUIdent {
			if val == "" {
				return nil, lexError(src, t.start, "zero-length delimited identifier")
			}
			kind, synth = tkQIdent, `"`+strings.ReplaceAll(val, `"`, `""`)+`"`
		}
		out = append(out, token{kind: kind, start: t.start, end: end, lead: t.lead, hasComment: t.hasComment, synth: synth})
	}
	if out == nil {
		return toks, nil
	}
	return out, nil
}

// escapeErrorAt is err with its cursor at byte at of src, converted as
// PostgreSQL's scanner_errposition converts it: by counting the characters
// before it (pg_mbstrlen_with_len), which fails with 22021 when at falls
// inside a multi-byte character, naming that character's bytes up to at.
// str_udeescape's offset does not count the doubled quotes of the body,
// so the cursor of the bad escape in
//
//	SELECT U&'x''é\003'
//
// falls inside é.
func escapeErrorAt(src string, at int, err *sqlerr.Error) *sqlerr.Error {
	if at > 0 && at < len(src) && !utf8.RuneStart(src[at]) {
		start := at
		for start > 0 && !utf8.RuneStart(src[start]) {
			start--
		}
		return sqlerr.InvalidByteSequence("UTF8", []byte(src[start:at]))
	}
	return err.WithPosition(charPos(src, at))
}

// validUescape is PostgreSQL's check_uescapechar: not a hex digit, +, a
// quote or white space.
func validUescape(c byte) bool {
	return !isHex(c) && c != '+' && c != '\'' && c != '"' && c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v'
}

// decodeUnicodeEscapes resolves esc XXXX, esc+XXXXXX and esc esc in s, joining
// UTF-16 surrogate pairs; on an error it returns the byte offset in s that
// PostgreSQL reports.
func decodeUnicodeEscapes(s string, esc byte) (string, int, *sqlerr.Error) {
	var b strings.Builder
	b.Grow(len(s))
	var pairs utf16Joiner
	invalidPair := func(at int) (string, int, *sqlerr.Error) {
		return "", at, sqlerr.New(sqlerr.SyntaxError, "invalid Unicode surrogate pair")
	}
	for i := 0; i < len(s); {
		if s[i] != esc {
			if pairs.pending() {
				return invalidPair(i)
			}
			b.WriteByte(s[i])
			i++
			continue
		}
		var v uint32
		n := 0
		switch {
		case i+1 < len(s) && s[i+1] == esc:
			if pairs.pending() {
				return invalidPair(i)
			}
			b.WriteByte(esc)
			i += 2
			continue
		case hexRun(s, i+1, 4):
			v, n = hexValue(s[i+1:i+5]), 5
		case i+1 < len(s) && s[i+1] == '+' && hexRun(s, i+2, 6):
			v, n = hexValue(s[i+2:i+8]), 8
		default:
			return "", i, sqlerr.New(sqlerr.SyntaxError, "invalid Unicode escape").WithHint(`Unicode escapes must be \XXXX or \+XXXXXX.`)
		}
		if v == 0 || v > utf8.MaxRune {
			return "", i, sqlerr.New(sqlerr.SyntaxError, "invalid Unicode escape value")
		}
		if !pairs.add(&b, v) {
			return invalidPair(i)
		}
		i += n
	}
	if pairs.pending() {
		return invalidPair(len(s))
	}
	out := b.String()
	if !utf8.ValidString(out) {
		return "", 0, sqlerr.InvalidUTF8([]byte(out))
	}
	return out, 0, nil
}

// utf16Joiner writes the code points of Unicode escapes, joining a UTF-16
// surrogate pair written as two escapes into one, as PostgreSQL's scanner
// and str_udeescape do (E'...' and U&'...' share it).
type utf16Joiner struct {
	first rune // a first half waiting for its second (0: none)
}

// add writes code point v, or holds it as a pair's first half; false means
// a surrogate half out of place (a second one alone, or a first one
// followed by anything but a second).
func (j *utf16Joiner) add(b *strings.Builder, v uint32) bool {
	switch {
	case j.first != 0:
		if v < 0xDC00 || v > 0xDFFF {
			return false
		}
		b.WriteRune(0x10000 + (j.first-0xD800)<<10 + rune(v-0xDC00))
		j.first = 0
	case v >= 0xDC00 && v <= 0xDFFF:
		return false
	case v >= 0xD800 && v <= 0xDBFF:
		j.first = rune(v)
	default:
		b.WriteRune(rune(v))
	}
	return true
}

// pending reports whether a first half waits for its second.
func (j *utf16Joiner) pending() bool { return j.first != 0 }

// hexRun reports whether s[i:i+n] are n hex digits.
func hexRun(s string, i, n int) bool {
	if i+n > len(s) {
		return false
	}
	for k := i; k < i+n; k++ {
		if !isHex(s[k]) {
			return false
		}
	}
	return true
}

// hexValue is the value of up to 8 hex digits.
func hexValue(s string) uint32 {
	v := uint32(0)
	for i := 0; i < len(s); i++ {
		v = v*16 + uint32(hexVal(s[i]))
	}
	return v
}
