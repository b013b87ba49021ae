package functions

import (
	"bytes"
	"crypto/md5"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// PostgreSQL's binary string (bytea) and encoding functions: encode and
// decode (base64, hex, escape), convert_to/convert_from/convert between
// UTF8, LATIN1 and SQL_ASCII, the sha2 family and md5 over bytea, the bytea
// forms of length, substring, trim and position, get/set_byte/bit, and
// to_hex.

var tBytes = types.BytesType

// byteArg reads argument k of row i as bytes (bytea) or text.
func byteArg(args []arrow.Array, k, i int) []byte {
	switch a := args[k].(type) {
	case *array.Binary:
		return a.Value(i)
	case *array.String:
		return []byte(a.Value(i))
	}
	return nil
}

func strArg(args []arrow.Array, k, i int) string {
	if s, ok := args[k].(*array.String); ok {
		return s.Value(i)
	}
	return string(byteArg(args, k, i))
}

func intArg(args []arrow.Array, k, i int) int64 {
	switch a := args[k].(type) {
	case *array.Int32:
		return int64(a.Value(i))
	case *array.Int64:
		return a.Value(i)
	case *array.Int16:
		return int64(a.Value(i))
	}
	return 0
}

// rawRowFunc is a strict row kernel over the raw argument arrays.
func rawRowFunc(ret types.T, body func(args []arrow.Array, i int) (any, error)) Kernel {
	return rowKernel(ret, true, func(args []arrow.Array) (func(int) (any, error), error) {
		return func(i int) (any, error) { return body(args, i) }, nil
	})
}

func byteaFuncs() []*Func {
	b, t, i4, i8 := tBytes, tText, tInt4, tInt8
	fs := []*Func{
		{Name: "encode", Args: []types.T{b, t}, Ret: t, Strict: true, Kernel: rawRowFunc(t, encodeRow)},
		{Name: "decode", Args: []types.T{t, t}, Ret: b, Strict: true, Kernel: rawRowFunc(b, decodeRow)},
		{Name: "convert_to", Args: []types.T{t, t}, Ret: b, Strict: true, Kernel: rawRowFunc(b, convertToRow)},
		{Name: "convert_from", Args: []types.T{b, t}, Ret: t, Strict: true, Kernel: rawRowFunc(t, convertFromRow)},
		{Name: "convert", Args: []types.T{b, t, t}, Ret: b, Strict: true, Kernel: rawRowFunc(b, convertRow)},
		{Name: "md5", Args: []types.T{b}, Ret: t, Strict: true, Kernel: rawRowFunc(t, func(a []arrow.Array, i int) (any, error) {
			s := md5.Sum(byteArg(a, 0, i))
			return hex.EncodeToString(s[:]), nil
		})},
		{Name: "sha224", Args: []types.T{b}, Ret: b, Strict: true, Kernel: rawRowFunc(b, shaRow(func(p []byte) []byte { s := sha256.Sum224(p); return s[:] }))},
		{Name: "sha256", Args: []types.T{b}, Ret: b, Strict: true, Kernel: rawRowFunc(b, shaRow(func(p []byte) []byte { s := sha256.Sum256(p); return s[:] }))},
		{Name: "sha384", Args: []types.T{b}, Ret: b, Strict: true, Kernel: rawRowFunc(b, shaRow(func(p []byte) []byte { s := sha512.Sum384(p); return s[:] }))},
		{Name: "sha512", Args: []types.T{b}, Ret: b, Strict: true, Kernel: rawRowFunc(b, shaRow(func(p []byte) []byte { s := sha512.Sum512(p); return s[:] }))},
		{Name: "length", Args: []types.T{b}, Ret: i4, Strict: true, Kernel: rawRowFunc(i4, func(a []arrow.Array, i int) (any, error) { return int64(len(byteArg(a, 0, i))), nil })},
		{Name: "length", Args: []types.T{b, tName}, Ret: i4, Strict: true, Kernel: rawRowFunc(i4, lengthInEncodingRow)}, // encodings.go
		{Name: "octet_length", Args: []types.T{b}, Ret: i4, Strict: true, Kernel: rawRowFunc(i4, func(a []arrow.Array, i int) (any, error) { return int64(len(byteArg(a, 0, i))), nil })},
		{Name: "bit_length", Args: []types.T{b}, Ret: i4, Strict: true, Kernel: rawRowFunc(i4, func(a []arrow.Array, i int) (any, error) { return int64(8 * len(byteArg(a, 0, i))), nil })},
		{Name: "bit_length", Args: []types.T{t}, Ret: i4, Strict: true, Kernel: rawRowFunc(i4, func(a []arrow.Array, i int) (any, error) { return int64(8 * len(strArg(a, 0, i))), nil })},
		{Name: "bit_count", Args: []types.T{b}, Ret: i8, Strict: true, Kernel: rawRowFunc(i8, func(a []arrow.Array, i int) (any, error) {
			n := 0
			for _, c := range byteArg(a, 0, i) {
				n += bits.OnesCount8(c)
			}
			return int64(n), nil
		})},
		{Name: "get_byte", Args: []types.T{b, i4}, Ret: i4, Strict: true, Kernel: rawRowFunc(i4, getByteRow)},
		{Name: "set_byte", Args: []types.T{b, i4, i4}, Ret: b, Strict: true, Kernel: rawRowFunc(b, setByteRow)},
		{Name: "get_bit", Args: []types.T{b, i8}, Ret: i4, Strict: true, Kernel: rawRowFunc(i4, getBitRow)},
		{Name: "set_bit", Args: []types.T{b, i8, i4}, Ret: b, Strict: true, Kernel: rawRowFunc(b, setBitRow)},
		{Name: "btrim", Args: []types.T{b, b}, Ret: b, Strict: true, Kernel: rawRowFunc(b, byteaTrim(true, true))},
		{Name: "ltrim", Args: []types.T{b, b}, Ret: b, Strict: true, Kernel: rawRowFunc(b, byteaTrim(true, false))},
		{Name: "rtrim", Args: []types.T{b, b}, Ret: b, Strict: true, Kernel: rawRowFunc(b, byteaTrim(false, true))},
		{Name: "position", Args: []types.T{b, b}, Ret: i4, Strict: true, Kernel: rawRowFunc(i4, func(a []arrow.Array, i int) (any, error) {
			return int64(bytes.Index(byteArg(a, 0, i), byteArg(a, 1, i)) + 1), nil
		})},
		{Name: "to_hex", Args: []types.T{i4}, Ret: t, Strict: true, Kernel: rawRowFunc(t, func(a []arrow.Array, i int) (any, error) {
			return strconv.FormatUint(uint64(uint32(intArg(a, 0, i))), 16), nil
		})},
		{Name: "to_hex", Args: []types.T{i8}, Ret: t, Strict: true, Kernel: rawRowFunc(t, func(a []arrow.Array, i int) (any, error) {
			return strconv.FormatUint(uint64(intArg(a, 0, i)), 16), nil
		})},
		{Name: "getdatabaseencoding", Ret: tName, Kernel: rowKernel(tName, false, func([]arrow.Array) (func(int) (any, error), error) {
			return func(int) (any, error) { return "UTF8", nil }, nil
		})},
	}
	for _, name := range []string{"substring", "substr"} {
		fs = append(fs,
			&Func{Name: name, Args: []types.T{b, i4}, Ret: b, Strict: true, Kernel: rawRowFunc(b, byteaSubstr)},
			&Func{Name: name, Args: []types.T{b, i4, i4}, Ret: b, Strict: true, Kernel: rawRowFunc(b, byteaSubstr)})
	}
	return fs
}

func shaRow(sum func([]byte) []byte) func([]arrow.Array, int) (any, error) {
	return func(a []arrow.Array, i int) (any, error) { return sum(byteArg(a, 0, i)), nil }
}

func errUnrecognizedEncoding(f string) error {
	return sqlerr.New(sqlerr.InvalidParameterValue, "unrecognized encoding: \"%s\"", f)
}

func encodeRow(a []arrow.Array, i int) (any, error) {
	data, f := byteArg(a, 0, i), strArg(a, 1, i)
	switch strings.ToLower(f) {
	case "hex":
		return hex.EncodeToString(data), nil
	case "base64":
		// PostgreSQL breaks base64 lines after 76 characters.
		s := base64.StdEncoding.EncodeToString(data)
		var sb strings.Builder
		for len(s) > 76 {
			sb.WriteString(s[:76])
			sb.WriteByte('\n')
			s = s[76:]
		}
		sb.WriteString(s)
		return sb.String(), nil
	case "escape":
		var sb strings.Builder
		for _, c := range data {
			switch {
			case c == 0 || c >= 0x80:
				sb.WriteString("\\" + leftPadOctal(c))
			case c == '\\':
				sb.WriteString(`\\`)
			default:
				sb.WriteByte(c)
			}
		}
		return sb.String(), nil
	}
	return nil, errUnrecognizedEncoding(f)
}

func leftPadOctal(c byte) string {
	s := strconv.FormatUint(uint64(c), 8)
	return strings.Repeat("0", 3-len(s)) + s
}

func isPGSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func decodeRow(a []arrow.Array, i int) (any, error) {
	s, f := strArg(a, 0, i), strArg(a, 1, i)
	switch strings.ToLower(f) {
	case "hex":
		out := make([]byte, 0, len(s)/2)
		for k := 0; k < len(s); {
			if isPGSpace(s[k]) {
				k++
				continue
			}
			hi, ok := unhex(s[k])
			if !ok {
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "invalid hexadecimal digit: \"%s\"", firstChar(s[k:]))
			}
			if k+1 >= len(s) {
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "invalid hexadecimal data: odd number of digits")
			}
			lo, ok := unhex(s[k+1])
			if !ok {
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "invalid hexadecimal digit: \"%s\"", firstChar(s[k+1:]))
			}
			out = append(out, hi<<4|lo)
			k += 2
		}
		return out, nil
	case "base64":
		return decodeBase64(s)
	case "escape":
		out := make([]byte, 0, len(s))
		for k := 0; k < len(s); {
			if s[k] != '\\' {
				out = append(out, s[k])
				k++
				continue
			}
			switch {
			case k+1 < len(s) && s[k+1] == '\\':
				out = append(out, '\\')
				k += 2
			case k+3 < len(s) && isOctal(s[k+1]) && s[k+1] <= '3' && isOctal(s[k+2]) && isOctal(s[k+3]):
				out = append(out, (s[k+1]-'0')<<6|(s[k+2]-'0')<<3|(s[k+3]-'0'))
				k += 4
			default:
				return nil, sqlerr.New(sqlerr.InvalidTextRepresentation, "invalid input syntax for type %s", "bytea")
			}
		}
		return out, nil
	}
	return nil, errUnrecognizedEncoding(f)
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

func firstChar(s string) string {
	_, n := utf8.DecodeRuneInString(s)
	return s[:n]
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// decodeBase64 is PostgreSQL's pg_base64_decode: whitespace is skipped,
// '=' padding ends the data, and errors name the offending symbol.
func decodeBase64(s string) ([]byte, error) {
	out := make([]byte, 0, len(s)*3/4)
	var buf uint32
	pos, end := 0, 0
	for k := 0; k < len(s); k++ {
		c := s[k]
		if isPGSpace(c) {
			continue
		}
		var v uint32
		switch {
		case c == '=':
			if end == 0 {
				switch pos {
				case 2:
					end = 1
				case 3:
					end = 2
				default:
					return nil, sqlerr.New(sqlerr.InvalidParameterValue, "unexpected \"=\" while decoding base64 sequence")
				}
			}
			v = 0
		case c >= 'A' && c <= 'Z':
			v = uint32(c - 'A')
		case c >= 'a' && c <= 'z':
			v = uint32(c-'a') + 26
		case c >= '0' && c <= '9':
			v = uint32(c-'0') + 52
		case c == '+':
			v = 62
		case c == '/':
			v = 63
		default:
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "invalid symbol \"%s\" found while decoding base64 sequence", firstChar(s[k:]))
		}
		if c != '=' && end > 0 {
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "invalid symbol \"%s\" found while decoding base64 sequence", firstChar(s[k:]))
		}
		buf = buf<<6 | v
		pos++
		if pos == 4 {
			out = append(out, byte(buf>>16))
			if end == 0 || end > 1 {
				out = append(out, byte(buf>>8))
			}
			if end == 0 || end > 2 {
				out = append(out, byte(buf))
			}
			buf, pos = 0, 0
		}
	}
	if pos != 0 {
		return nil, sqlerr.New(sqlerr.InvalidParameterValue, "invalid base64 end sequence").
			WithHint("Input data is missing padding, is truncated, or is otherwise corrupted.")
	}
	return out, nil
}

func errIndexRange(n int64, max int) error {
	return sqlerr.New(sqlerr.Code("2202E"), "index %d out of valid range, 0..%d", n, max)
}

func getByteRow(a []arrow.Array, i int) (any, error) {
	data, n := byteArg(a, 0, i), intArg(a, 1, i)
	if n < 0 || n >= int64(len(data)) {
		return nil, errIndexRange(n, len(data)-1)
	}
	return int64(data[n]), nil
}

func setByteRow(a []arrow.Array, i int) (any, error) {
	data, n, v := byteArg(a, 0, i), intArg(a, 1, i), intArg(a, 2, i)
	if n < 0 || n >= int64(len(data)) {
		return nil, errIndexRange(n, len(data)-1)
	}
	out := append([]byte(nil), data...)
	out[n] = byte(v)
	return out, nil
}

func getBitRow(a []arrow.Array, i int) (any, error) {
	data, n := byteArg(a, 0, i), intArg(a, 1, i)
	if n < 0 || n >= int64(len(data))*8 {
		return nil, errIndexRange(n, len(data)*8-1)
	}
	return int64(data[n/8] >> (n % 8) & 1), nil
}

func setBitRow(a []arrow.Array, i int) (any, error) {
	data, n, v := byteArg(a, 0, i), intArg(a, 1, i), intArg(a, 2, i)
	if n < 0 || n >= int64(len(data))*8 {
		return nil, errIndexRange(n, len(data)*8-1)
	}
	if v != 0 && v != 1 {
		return nil, sqlerr.New(sqlerr.InvalidParameterValue, "new bit must be 0 or 1")
	}
	out := append([]byte(nil), data...)
	if v == 1 {
		out[n/8] |= 1 << (n % 8)
	} else {
		out[n/8] &^= 1 << (n % 8)
	}
	return out, nil
}

func byteaTrim(left, right bool) func([]arrow.Array, int) (any, error) {
	return func(a []arrow.Array, i int) (any, error) {
		data, set := byteArg(a, 0, i), byteArg(a, 1, i)
		if left {
			for len(data) > 0 && bytes.IndexByte(set, data[0]) >= 0 {
				data = data[1:]
			}
		}
		if right {
			for len(data) > 0 && bytes.IndexByte(set, data[len(data)-1]) >= 0 {
				data = data[:len(data)-1]
			}
		}
		return append([]byte{}, data...), nil
	}
}

// byteaSubstr is substring(bytea, start [, count]) with PostgreSQL's
// rules: positions before 1 count against the length, a negative count is
// 22011.
func byteaSubstr(a []arrow.Array, i int) (any, error) {
	data, start := byteArg(a, 0, i), intArg(a, 1, i)
	end := int64(len(data)) + 1
	if len(a) > 2 {
		n := intArg(a, 2, i)
		if n < 0 {
			return nil, sqlerr.New(sqlerr.Code("22011"), "negative substring length not allowed")
		}
		end = start + n
	}
	if start < 1 {
		start = 1
	}
	if end > int64(len(data))+1 {
		end = int64(len(data)) + 1
	}
	if end <= start {
		return []byte{}, nil
	}
	return append([]byte{}, data[start-1:end-1]...), nil
}
