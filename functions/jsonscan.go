package functions

import (
	"bytes"
	"unicode/utf8"
	"unsafe"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// A reader of JSON text that finds an object's key or an array's element
// by scanning, without building a tree or allocating: values it passes
// over are skipped by their structure (strings by their quotes and
// escapes, containers by their brackets), and checked against JSON's
// grammar on the way, so that text that is not JSON fails as json's and
// jsonb's input function fails (22P02, "invalid input syntax for type
// json"). It serves -> ->> #> #>> and json(b)_extract_path(_text) over the
// JSON text sqlgate stores (json as written, jsonb normalised), and over
// text cast to jsonb in the same expression (binder/jsonfuse.go), where
// the whole document is checked as the cast would.

func errJSONSyntax() error {
	return sqlerr.InvalidJSON()
}

func jsSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
			continue
		}
		break
	}
	return i
}

// jsSkipString checks the string starting at b[i] ('"') and returns the
// index after its closing quote and whether it holds an escape.
func jsSkipString(b []byte, i int) (int, bool, bool) {
	i++
	esc := false
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			return i + 1, esc, true
		case c == '\\':
			esc = true
			if i+1 >= len(b) {
				return i, esc, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) || types.HexRune4(b[i+2:i+6]) < 0 {
					return i, esc, false
				}
				i += 6
			default:
				return i, esc, false
			}
		case c < 0x20:
			return i, esc, false
		default:
			i++
		}
	}
	return i, esc, false
}

func jsDigits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

// jsSkipNumber checks the number starting at b[i]: -?(0|[1-9]d*)(.d+)?([eE][+-]?d+)?
func jsSkipNumber(b []byte, i int) (int, bool) {
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = jsDigits(b, i)
	default:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		j := jsDigits(b, i+1)
		if j == i+1 {
			return i, false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := jsDigits(b, i)
		if j == i {
			return i, false
		}
		i = j
	}
	return i, true
}

func jsLiteral(b []byte, i int, w string) (int, bool) {
	if len(b)-i < len(w) || string(b[i:i+len(w)]) != w {
		return i, false
	}
	return i + len(w), true
}

// jsSkip checks the value at b[i:] (after any whitespace) and returns the
// index after it.
func jsSkip(b []byte, i int) (int, bool) {
	i = jsSpace(b, i)
	if i >= len(b) {
		return i, false
	}
	switch c := b[i]; {
	case c == '"':
		j, _, ok := jsSkipString(b, i)
		return j, ok
	case c == '{' || c == '[':
		return jsSkipContainer(b, i)
	case c == '-' || c >= '0' && c <= '9':
		return jsSkipNumber(b, i)
	case c == 't':
		return jsLiteral(b, i, "true")
	case c == 'f':
		return jsLiteral(b, i, "false")
	case c == 'n':
		return jsLiteral(b, i, "null")
	}
	return i, false
}

// jsSkipContainer checks the object or array starting at b[i].
func jsSkipContainer(b []byte, i int) (int, bool) {
	obj := b[i] == '{'
	closer := byte(']')
	if obj {
		closer = '}'
	}
	i = jsSpace(b, i+1)
	if i < len(b) && b[i] == closer {
		return i + 1, true
	}
	for {
		var ok bool
		if obj {
			if i = jsSpace(b, i); i >= len(b) || b[i] != '"' {
				return i, false
			}
			if i, _, ok = jsSkipString(b, i); !ok {
				return i, false
			}
			if i = jsSpace(b, i); i >= len(b) || b[i] != ':' {
				return i, false
			}
			i++
		}
		if i, ok = jsSkip(b, i); !ok {
			return i, false
		}
		if i = jsSpace(b, i); i >= len(b) {
			return i, false
		}
		switch b[i] {
		case ',':
			i++
		case closer:
			return i + 1, true
		default:
			return i, false
		}
	}
}

// pathStep is one step of a JSON path: an object key, or an array index
// (an integer key of ->, or a text step #> reads as one on an array).
type pathStep struct {
	key   string
	idx   int64
	isIdx bool
	null  bool // a NULL path element: nothing is found
}

// jsonStep follows one step from the value at the start of doc (with
// textIndex a key step on an array is read as an integer, as #> does).
// It returns the span of the value reached; found is false when the key
// or element is missing or the step meets a scalar. With lastWins every
// member of an object is read and the last duplicate key wins (json as
// written); otherwise the first match is taken (jsonb, whose keys are
// unique). A document that is not JSON as far as it was read is 22P02.
func jsonStep(doc []byte, st pathStep, textIndex, lastWins bool) (start, end int, found bool, err error) {
	i := jsSpace(doc, 0)
	if i >= len(doc) {
		return 0, 0, false, errJSONSyntax()
	}
	switch doc[i] {
	case '{':
		if st.isIdx {
			return 0, 0, false, nil
		}
		return jsonObjectField(doc, i, st.key, lastWins)
	case '[':
		idx, ok := st.idx, st.isIdx
		if !ok && textIndex {
			idx, ok = parseIndexText(st.key)
		}
		if !ok {
			return 0, 0, false, nil
		}
		return jsonArrayElement(doc, i, idx)
	}
	return 0, 0, false, nil
}

// parseIndexText reads a path step as #> reads it on an array: an
// integer after optional leading whitespace, in int4 range.
func parseIndexText(s string) (int64, bool) {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == '\v' || s[i] == '\f') {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		neg = s[i] == '-'
		i++
	}
	if i == len(s) {
		return 0, false
	}
	var n int64
	for ; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int64(s[i]-'0')
		if n > 1<<31 {
			return 0, false
		}
	}
	if neg {
		n = -n
	}
	if n > 1<<31-1 || n < -(1<<31) {
		return 0, false
	}
	return n, true
}

func jsonObjectField(doc []byte, i int, key string, lastWins bool) (start, end int, found bool, err error) {
	start, end, found, _, err = jsonObjectFieldEnd(doc, i, key, lastWins)
	return start, end, found, err
}

// jsonObjectFieldEnd is jsonObjectField that also returns the index after
// the object when it read the object to its end (objEnd 0 otherwise).
func jsonObjectFieldEnd(doc []byte, i int, key string, lastWins bool) (start, end int, found bool, objEnd int, err error) {
	i = jsSpace(doc, i+1)
	if i < len(doc) && doc[i] == '}' {
		return 0, 0, false, i + 1, nil
	}
	for {
		if i = jsSpace(doc, i); i >= len(doc) || doc[i] != '"' {
			return 0, 0, false, 0, errJSONSyntax()
		}
		ks := i
		ke, esc, ok := jsSkipString(doc, i)
		if !ok {
			return 0, 0, false, 0, errJSONSyntax()
		}
		if i = jsSpace(doc, ke); i >= len(doc) || doc[i] != ':' {
			return 0, 0, false, 0, errJSONSyntax()
		}
		vs := jsSpace(doc, i+1)
		ve, ok := jsSkip(doc, vs)
		if !ok {
			return 0, 0, false, 0, errJSONSyntax()
		}
		if jsonKeyIs(doc[ks:ke], esc, key) {
			start, end, found = vs, ve, true
			if !lastWins {
				return start, end, true, 0, nil
			}
		}
		if i = jsSpace(doc, ve); i >= len(doc) {
			return 0, 0, false, 0, errJSONSyntax()
		}
		switch doc[i] {
		case ',':
			i++
		case '}':
			return start, end, found, i + 1, nil
		default:
			return 0, 0, false, 0, errJSONSyntax()
		}
	}
}

// jsonKeyIs compares a quoted key (with escapes when esc) with key.
func jsonKeyIs(quoted []byte, esc bool, key string) bool {
	raw := quoted[1 : len(quoted)-1]
	if !esc {
		return string(raw) == key
	}
	s, err := jsonUnquote(quoted)
	return err == nil && s == key
}

func jsonArrayElement(doc []byte, i int, idx int64) (start, end int, found bool, err error) {
	if idx < 0 {
		n, err := jsonArrayLen(doc, i)
		if err != nil {
			return 0, 0, false, err
		}
		if idx += n; idx < 0 {
			return 0, 0, false, nil
		}
	}
	i = jsSpace(doc, i+1)
	if i < len(doc) && doc[i] == ']' {
		return 0, 0, false, nil
	}
	for k := int64(0); ; k++ {
		vs := jsSpace(doc, i)
		ve, ok := jsSkip(doc, vs)
		if !ok {
			return 0, 0, false, errJSONSyntax()
		}
		if k == idx {
			return vs, ve, true, nil
		}
		if i = jsSpace(doc, ve); i >= len(doc) {
			return 0, 0, false, errJSONSyntax()
		}
		switch doc[i] {
		case ',':
			i++
		case ']':
			return 0, 0, false, nil
		default:
			return 0, 0, false, errJSONSyntax()
		}
	}
}

func jsonArrayLen(doc []byte, i int) (int64, error) {
	i = jsSpace(doc, i+1)
	if i < len(doc) && doc[i] == ']' {
		return 0, nil
	}
	for n := int64(1); ; n++ {
		ve, ok := jsSkip(doc, i)
		if !ok {
			return 0, errJSONSyntax()
		}
		if i = jsSpace(doc, ve); i >= len(doc) {
			return 0, errJSONSyntax()
		}
		switch doc[i] {
		case ',':
			i++
		case ']':
			return n, nil
		default:
			return 0, errJSONSyntax()
		}
	}
}

// jsonCheckDoc checks that doc is exactly one JSON value.
func jsonCheckDoc(doc []byte) error {
	i, ok := jsSkip(doc, 0)
	if !ok || jsSpace(doc, i) != len(doc) {
		return errJSONSyntax()
	}
	return nil
}

// jsonUnquote decodes a quoted JSON string (already checked). \u0000 is
// 22P05 as PostgreSQL's text output of it is.
func jsonUnquote(q []byte) (string, error) {
	raw := q[1 : len(q)-1]
	k := bytes.IndexByte(raw, '\\')
	if k < 0 {
		return stringOf(raw), nil // a view: callers copy it into a builder
	}
	out := make([]byte, 0, len(raw))
	out = append(out, raw[:k]...)
	for i := k; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		switch raw[i+1] {
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r := types.HexRune4(raw[i+2 : i+6])
			i += 6
			if r == 0 {
				return "", sqlerr.New(sqlerr.Code("22P05"), "unsupported Unicode escape sequence").
					WithDetail("%s", `\u0000 cannot be converted to text.`)
			}
			if r >= 0xD800 && r < 0xDC00 {
				if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
					if lo := types.HexRune4(raw[i+2 : i+6]); lo >= 0xDC00 && lo < 0xE000 {
						r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
						i += 6
					} else {
						r = utf8.RuneError
					}
				} else {
					r = utf8.RuneError
				}
			} else if r >= 0xDC00 && r < 0xE000 {
				r = utf8.RuneError
			}
			out = utf8.AppendRune(out, r)
			continue
		default: // " \ /
			out = append(out, raw[i+1])
		}
		i += 2
	}
	return string(out), nil
}

// jsonValueText is ->>'s text of the value span v (a view of v's bytes
// where it can be): a string unquoted,
// null as SQL NULL (ok false), anything else as its text (normalised as
// jsonb prints it when normalize, for text that was never jsonb).
func jsonValueText(v []byte, normalize bool) (s string, ok bool, err error) {
	switch v[0] {
	case '"':
		s, err := jsonUnquote(v)
		return s, err == nil, err
	case 'n':
		return "", false, nil
	case 't', 'f':
		return stringOf(v), true, nil
	}
	if normalize && !plainNumber(v) {
		s, err := types.ParseJSON(string(v), true)
		return s, err == nil, err
	}
	return stringOf(v), true, nil
}

// jsonValueJSON is ->'s value: the text as written (json), or as jsonb
// prints it when normalize.
func jsonValueJSON(v []byte, normalize bool) (string, error) {
	if normalize && !plainNumber(v) && v[0] != 't' && v[0] != 'f' && v[0] != 'n' && !(v[0] == '"' && bytes.IndexByte(v, '\\') < 0) {
		return types.ParseJSON(string(v), true)
	}
	return stringOf(v), nil
}

// plainNumber reports whether v is a number jsonb prints as written: no
// exponent, and no negative zero.
func plainNumber(v []byte) bool {
	if v[0] != '-' && (v[0] < '0' || v[0] > '9') {
		return false
	}
	if len(v) > 1 && v[0] == '-' && v[1] == '0' {
		return false
	}
	return bytes.IndexAny(v, "eE") < 0
}

// bytesOf views s's bytes without copying (the scanner only reads them).
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// stringOf views b as a string without copying; it must not outlive b's
// buffer (the kernels append it to a builder, which copies).
func stringOf(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
