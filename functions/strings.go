package functions

import (
	"context"
	"crypto/md5"
	"encoding/binary"
	"encoding/hex"
	"math"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// maxAllocBytes is PostgreSQL's MaxAllocSize (1 GB - 1): results longer
// than this fail with 54000 "requested length too large".
const maxAllocBytes = 1<<30 - 1

// varHdrSz is the length word before a text value's bytes: PostgreSQL's
// repeat, lpad and rpad refuse a result whose bytes plus this header pass
// maxAllocBytes.
const varHdrSz = 4

var (
	tText    = types.StringType
	tInt4    = types.Int32Type
	tInt8    = types.Int64Type
	tFloat8  = types.Float64Type
	tNumeric = types.NumericType
	tBool    = types.BoolType
	tAny     = types.UnknownType // a declared "any" argument
)

func errTooLong() error { return sqlerr.New(sqlerr.ProgramLimitExceeded, "requested length too large") }

func stringFuncs() []*Func {
	length := intOfString(func(s string) int64 { return int64(utf8.RuneCountInString(s)) })
	octets := intOfString(func(s string) int64 { return int64(len(s)) })
	fs := []*Func{
		{Name: "length", Args: []types.T{tText}, Ret: tInt4, Strict: true, Kernel: length},
		{Name: "char_length", Args: []types.T{tText}, Ret: tInt4, Strict: true, Kernel: length},
		{Name: "character_length", Args: []types.T{tText}, Ret: tInt4, Strict: true, Kernel: length},
		{Name: "octet_length", Args: []types.T{tText}, Ret: tInt4, Strict: true, Kernel: octets},
		{Name: "lower", Args: []types.T{tText}, Ret: tText, Strict: true, Kernel: caseKernel(false)},
		{Name: "upper", Args: []types.T{tText}, Ret: tText, Strict: true, Kernel: caseKernel(true)},
		{Name: "initcap", Args: []types.T{tText}, Ret: tText, Strict: true, Kernel: strictStringKernel(initcap)},
		{Name: "reverse", Args: []types.T{tText}, Ret: tText, Strict: true, Kernel: strictStringKernel(reverse)},
		{Name: "md5", Args: []types.T{tText}, Ret: tText, Strict: true, Kernel: strictStringKernel(md5Hex)},
		{Name: "btrim", Args: []types.T{tText}, Ret: tText, Strict: true, Kernel: trimKernel(true, true)},
		{Name: "btrim", Args: []types.T{tText, tText}, Ret: tText, Strict: true, Kernel: trimKernel(true, true)},
		{Name: "trim", Args: []types.T{tText}, Ret: tText, Strict: true, Kernel: trimKernel(true, true)},
		{Name: "trim", Args: []types.T{tText, tText}, Ret: tText, Strict: true, Kernel: trimKernel(true, true)},
		{Name: "ltrim", Args: []types.T{tText}, Ret: tText, Strict: true, Kernel: trimKernel(true, false)},
		{Name: "ltrim", Args: []types.T{tText, tText}, Ret: tText, Strict: true, Kernel: trimKernel(true, false)},
		{Name: "rtrim", Args: []types.T{tText}, Ret: tText, Strict: true, Kernel: trimKernel(false, true)},
		{Name: "rtrim", Args: []types.T{tText, tText}, Ret: tText, Strict: true, Kernel: trimKernel(false, true)},
		{Name: "replace", Args: []types.T{tText, tText, tText}, Ret: tText, Strict: true, Kernel: strictStringKernel(replaceRow)},
		{Name: "translate", Args: []types.T{tText, tText, tText}, Ret: tText, Strict: true, Kernel: strictStringKernel(translateRow)},
		{Name: "starts_with", Args: []types.T{tText, tText}, Ret: tBool, Strict: true, Kernel: startsWith},
		{Name: "strpos", Args: []types.T{tText, tText}, Ret: tInt4, Strict: true, Kernel: strpos},
		{Name: "position", Args: []types.T{tText, tText}, Ret: tInt4, Strict: true, Kernel: strpos},
		{Name: "ascii", Args: []types.T{tText}, Ret: tInt4, Strict: true, Kernel: intOfString(ascii)},
		{Name: "chr", Args: []types.T{tInt4}, Ret: tText, Strict: true, Kernel: chr},
		{Name: "concat", Args: []types.T{tAny}, Variadic: true, Ret: tText, specialize: concatSpecialize(false)},
		{Name: "concat_ws", Args: []types.T{tText, tAny}, Variadic: true, Ret: tText, specialize: concatSpecialize(true)},
	}
	for _, name := range []string{"substring", "substr"} {
		fs = append(fs,
			&Func{Name: name, Args: []types.T{tText, tInt4}, Ret: tText, Strict: true, Kernel: textIntKernel(1, substring)},
			&Func{Name: name, Args: []types.T{tText, tInt4, tInt4}, Ret: tText, Strict: true, Kernel: textIntKernel(1, substring)},
		)
	}
	fs = append(fs,
		&Func{Name: "left", Args: []types.T{tText, tInt4}, Ret: tText, Strict: true, Kernel: textIntKernel(1, left)},
		&Func{Name: "right", Args: []types.T{tText, tInt4}, Ret: tText, Strict: true, Kernel: textIntKernel(1, right)},
		&Func{Name: "repeat", Args: []types.T{tText, tInt4}, Ret: tText, Strict: true, Kernel: textIntKernel(1, repeat)},
		&Func{Name: "lpad", Args: []types.T{tText, tInt4}, Ret: tText, Strict: true, Kernel: textIntKernel(1, pad(true))},
		&Func{Name: "lpad", Args: []types.T{tText, tInt4, tText}, Ret: tText, Strict: true, Kernel: textIntKernel(1, pad(true))},
		&Func{Name: "rpad", Args: []types.T{tText, tInt4}, Ret: tText, Strict: true, Kernel: textIntKernel(1, pad(false))},
		&Func{Name: "rpad", Args: []types.T{tText, tInt4, tText}, Ret: tText, Strict: true, Kernel: textIntKernel(1, pad(false))},
		&Func{Name: "split_part", Args: []types.T{tText, tText, tInt4}, Ret: tText, Strict: true, Kernel: textIntKernel(2, splitPart)},
	)
	return fs
}

// intOfString maps text to int4.
func intOfString(f func(string) int64) Kernel {
	return rowKernel(tInt4, true, func(args []arrow.Array) (func(int) (any, error), error) {
		ss, err := strArgs(args)
		if err != nil {
			return nil, err
		}
		return func(i int) (any, error) { return f(ss[0].Value(i)), nil }, nil
	})
}

// caseKernel is lower()/upper(): an ASCII fast path that maps bytes in
// place, and Unicode simple case mapping (what PostgreSQL's towlower and
// towupper do under a UTF-8 locale such as C.UTF-8) for the rest.
func caseKernel(upper bool) Kernel {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		if err := checkArity(args, n); err != nil {
			return nil, err
		}
		ss, err := strArgs(args)
		if err != nil {
			return nil, err
		}
		s := ss[0]
		if out := caseMapASCIIColumn(mem, s, upper); out != nil {
			return out, nil
		}
		b := array.NewStringBuilder(mem)
		defer b.Release()
		b.Reserve(n)
		raw, offs := s.ValueBytes(), s.ValueOffsets()
		b.ReserveData(len(raw))
		buf := make([]byte, 0, 64)
		for i := 0; i < n; i++ {
			if s.IsNull(i) {
				b.AppendNull()
				continue
			}
			v := s.Value(i)
			buf = buf[:0]
			buf = buf[:0]
			vb := raw[offs[i]-offs[0] : offs[i+1]-offs[0]]
			if isASCII(vb) {
				buf = append(buf, vb...)
				asciiCaseMap(buf, vb, upper)
			} else {
				for _, r := range v {
					if upper {
						r = unicode.ToUpper(r)
					} else {
						r = unicode.ToLower(r)
					}
					buf = utf8.AppendRune(buf, r)
				}
			}
			b.BinaryBuilder.Append(buf)
		}
		return b.NewArray(), nil
	}
}

// caseMapASCIIColumn is lower/upper's column-at-once path: when every
// byte of the column is ASCII the result has the same offsets and NULLs,
// so it maps the value bytes in one pass and shares the rest. It returns
// nil when the column has non-ASCII bytes (or is a slice of another array).
func caseMapASCIIColumn(mem memory.Allocator, s *array.String, upper bool) arrow.Array {
	data := s.Data()
	if data.Offset() != 0 || len(data.Buffers()) < 3 || data.Buffers()[1] == nil {
		return nil
	}
	vals := s.ValueBytes()
	if !isASCII(vals) {
		return nil
	}
	offsets := s.ValueOffsets()
	base := int(offsets[0])
	valBuf := memory.NewResizableBuffer(mem)
	valBuf.Resize(base + len(vals))
	out := valBuf.Bytes()
	asciiCaseMap(out[base:], vals, upper)
	bufs := []*memory.Buffer{data.Buffers()[0], data.Buffers()[1], valBuf}
	res := array.NewData(arrow.BinaryTypes.String, data.Len(), bufs, nil, data.NullN(), 0)
	valBuf.Release()
	defer res.Release()
	return array.MakeFromData(res)
}

// asciiCaseMap maps the ASCII bytes of src into dst, eight at a time: a
// byte is a letter to flip when adding (0x80-lo) sets its high bit and
// adding (0x80-hi-1) does not; ASCII letters differ in case by bit 0x20.
// All bytes are below 0x80, so no addition carries into the next byte.
func asciiCaseMap(dst, src []byte, upper bool) {
	lo, hi := byte('A'), byte('Z')
	if upper {
		lo, hi = 'a', 'z'
	}
	const ones = 0x0101010101010101
	addLo := uint64(0x80-lo) * ones
	addHi := uint64(0x80-hi-1) * ones
	i := 0
	for ; i+8 <= len(src); i += 8 {
		w := binary.LittleEndian.Uint64(src[i:])
		mask := (w + addLo) &^ (w + addHi) & 0x8080808080808080
		binary.LittleEndian.PutUint64(dst[i:], w^(mask>>2))
	}
	for ; i < len(src); i++ {
		c := src[i]
		if lo <= c && c <= hi {
			c ^= 0x20
		}
		dst[i] = c
	}
}

// isASCII reports whether b has no byte >= 0x80, eight bytes at a time.
func isASCII(b []byte) bool {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := uint64(b[i]) | uint64(b[i+1])<<8 | uint64(b[i+2])<<16 | uint64(b[i+3])<<24 |
			uint64(b[i+4])<<32 | uint64(b[i+5])<<40 | uint64(b[i+6])<<48 | uint64(b[i+7])<<56
		if w&0x8080808080808080 != 0 {
			return false
		}
	}
	for ; i < len(b); i++ {
		if b[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// initcap upper-cases the first letter of each run of letters and digits
// and lower-cases the others, as PostgreSQL's initcap.
func initcap(ss []*array.String, i int, buf []byte) ([]byte, error) {
	inWord := false
	for _, r := range ss[0].Value(i) {
		if inWord {
			r = unicode.ToLower(r)
		} else {
			r = unicode.ToUpper(r)
		}
		inWord = unicode.IsLetter(r) || unicode.IsDigit(r)
		buf = utf8.AppendRune(buf, r)
	}
	return buf, nil
}

func reverse(ss []*array.String, i int, buf []byte) ([]byte, error) {
	v := ss[0].Value(i)
	for len(v) > 0 {
		_, size := utf8.DecodeLastRuneInString(v)
		buf = append(buf, v[len(v)-size:]...)
		v = v[:len(v)-size]
	}
	return buf, nil
}

func md5Hex(ss []*array.String, i int, buf []byte) ([]byte, error) {
	sum := md5.Sum([]byte(ss[0].Value(i)))
	return hex.AppendEncode(buf, sum[:]), nil
}

func replaceRow(ss []*array.String, i int, buf []byte) ([]byte, error) {
	s, from, to := ss[0].Value(i), ss[1].Value(i), ss[2].Value(i)
	if from == "" {
		return append(buf, s...), nil
	}
	return append(buf, strings.ReplaceAll(s, from, to)...), nil
}

// translateRow is translate(s, from, to): each character of s found in
// from becomes the character at the same place in to, or is removed when
// to is shorter (the first occurrence in from counts).
func translateRow(ss []*array.String, i int, buf []byte) ([]byte, error) {
	s, from, to := ss[0].Value(i), []rune(ss[1].Value(i)), []rune(ss[2].Value(i))
	for _, c := range s {
		at := -1
		for k, f := range from {
			if f == c {
				at = k
				break
			}
		}
		switch {
		case at < 0:
			buf = utf8.AppendRune(buf, c)
		case at < len(to):
			buf = utf8.AppendRune(buf, to[at])
		}
	}
	return buf, nil
}

// trimKernel is btrim/ltrim/rtrim; the optional second argument is the
// set of characters to remove (default: space).
func trimKernel(leading, trailing bool) Kernel {
	return strictStringKernel(func(ss []*array.String, i int, buf []byte) ([]byte, error) {
		s, set := ss[0].Value(i), " "
		if len(ss) > 1 {
			set = ss[1].Value(i)
		}
		if leading {
			s = strings.TrimLeft(s, set)
		}
		if trailing {
			s = strings.TrimRight(s, set)
		}
		return append(buf, s...), nil
	})
}

func startsWith(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
	return rowKernel(tBool, true, func(args []arrow.Array) (func(int) (any, error), error) {
		ss, err := strArgs(args)
		if err != nil {
			return nil, err
		}
		return func(i int) (any, error) { return strings.HasPrefix(ss[0].Value(i), ss[1].Value(i)), nil }, nil
	})(ctx, mem, args, n)
}

// strpos is the 1-based character position of the second argument in the
// first, 0 when absent, 1 for an empty needle.
func strpos(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
	return rowKernel(tInt4, true, func(args []arrow.Array) (func(int) (any, error), error) {
		ss, err := strArgs(args)
		if err != nil {
			return nil, err
		}
		return func(i int) (any, error) {
			s := ss[0].Value(i)
			at := strings.Index(s, ss[1].Value(i))
			if at < 0 {
				return int64(0), nil
			}
			return int64(utf8.RuneCountInString(s[:at]) + 1), nil
		}, nil
	})(ctx, mem, args, n)
}

func ascii(s string) int64 {
	if s == "" {
		return 0
	}
	r, _ := utf8.DecodeRuneInString(s)
	return int64(r)
}

func chr(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
	return rowKernel(tText, true, func(args []arrow.Array) (func(int) (any, error), error) {
		get, err := intGetter(0, args[0])
		if err != nil {
			return nil, err
		}
		return func(i int) (any, error) {
			c := get(i)
			switch {
			case c == 0:
				return nil, sqlerr.New(sqlerr.ProgramLimitExceeded, "null character not permitted")
			case c < 0:
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "character number must be positive")
			case c > unicode.MaxRune:
				return nil, sqlerr.New(sqlerr.ProgramLimitExceeded, "requested character too large for encoding: %d", c)
			case c >= 0xD800 && c <= 0xDFFF:
				return nil, sqlerr.New(sqlerr.ProgramLimitExceeded, "requested character not valid for encoding: %d", c)
			}
			return string(rune(c)), nil
		}, nil
	})(ctx, mem, args, n)
}

// textIntKernel runs body over rows of (text..., int at intPos, text...)
// arguments; the int arguments are read as int64.
func textIntKernel(intPos int, body func(strs []string, ints []int64, buf []byte) ([]byte, error)) Kernel {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		if err := checkArity(args, n); err != nil {
			return nil, err
		}
		var strGet []*array.String
		var intGet []func(int) int64
		for k, a := range args {
			if s, ok := a.(*array.String); ok {
				strGet = append(strGet, s)
				continue
			}
			g, err := intGetter(k, a)
			if err != nil {
				return nil, err
			}
			intGet = append(intGet, g)
		}
		b := array.NewStringBuilder(mem)
		defer b.Release()
		b.Reserve(n)
		strs := make([]string, len(strGet))
		ints := make([]int64, len(intGet))
		buf := make([]byte, 0, 64)
		var err error
		for i := 0; i < n; i++ {
			if anyNull(args, i) {
				b.AppendNull()
				continue
			}
			for k, s := range strGet {
				strs[k] = s.Value(i)
			}
			for k, g := range intGet {
				ints[k] = g(i)
			}
			buf, err = body(strs, ints, buf[:0])
			if err != nil {
				return nil, err
			}
			b.BinaryBuilder.Append(buf)
		}
		return b.NewArray(), nil
	}
}

// runeOffset returns the byte offset of the k-th character (0-based) of
// s, len(s) when s is shorter.
func runeOffset(s string, k int64) int {
	if k <= 0 {
		return 0
	}
	for off := range s {
		if k == 0 {
			return off
		}
		k--
	}
	return len(s)
}

// substring is PostgreSQL's text_substring: characters start..start+len-1
// (1-based), clamped to the string; a negative length is 22011.
func substring(strs []string, ints []int64, buf []byte) ([]byte, error) {
	s, start := strs[0], ints[0]
	begin := runeOffset(s, max(start, 1)-1)
	if len(ints) == 1 {
		return append(buf, s[begin:]...), nil
	}
	l := ints[1]
	if l < 0 {
		return nil, sqlerr.New(sqlerr.Code("22011"), "negative substring length not allowed")
	}
	end := start + l // int4 inputs: cannot overflow int64
	if end <= 1 {
		return buf, nil
	}
	endOff := runeOffset(s, end-1)
	if endOff < begin {
		return buf, nil
	}
	return append(buf, s[begin:endOff]...), nil
}

func left(strs []string, ints []int64, buf []byte) ([]byte, error) {
	s, k := strs[0], ints[0]
	if k < 0 {
		k = max(int64(utf8.RuneCountInString(s))+k, 0)
	}
	return append(buf, s[:runeOffset(s, k)]...), nil
}

func right(strs []string, ints []int64, buf []byte) ([]byte, error) {
	s, k := strs[0], ints[0]
	if k == math.MinInt32 {
		// text_right negates n in int4, which leaves INT_MIN negative: a
		// negative number of characters to skip skips none
		return append(buf, s...), nil
	}
	count := int64(utf8.RuneCountInString(s))
	if k < 0 {
		k = max(count+k, 0)
	}
	return append(buf, s[runeOffset(s, max(count-k, 0)):]...), nil
}

func repeat(strs []string, ints []int64, buf []byte) ([]byte, error) {
	s, k := strs[0], ints[0]
	if k <= 0 || s == "" {
		return buf, nil
	}
	if int64(len(s))*k+varHdrSz > maxAllocBytes {
		return nil, errTooLong()
	}
	for ; k > 0; k-- {
		buf = append(buf, s...)
	}
	return buf, nil
}

// pad is lpad/rpad: the result has exactly n characters, the string
// truncated or filled (default fill: a space; an empty fill leaves the
// string as it is, truncated to n). Like PostgreSQL it refuses a length
// whose worst case (four bytes a character, and the header) passes
// MaxAllocSize, after an empty fill has cut the length to the string's.
func pad(leftSide bool) func(strs []string, ints []int64, buf []byte) ([]byte, error) {
	return func(strs []string, ints []int64, buf []byte) ([]byte, error) {
		s, n, fill := strs[0], ints[0], " "
		if len(strs) > 1 {
			fill = strs[1]
		}
		if n <= 0 {
			return buf, nil
		}
		count := int64(utf8.RuneCountInString(s))
		if fill == "" {
			n = min(n, count)
		}
		if n*utf8.UTFMax+varHdrSz > maxAllocBytes {
			return nil, errTooLong()
		}
		if count >= n || fill == "" {
			return append(buf, s[:runeOffset(s, n)]...), nil
		}
		need := n - count
		if !leftSide {
			buf = append(buf, s...)
		}
		for need > 0 {
			for _, r := range fill {
				if need == 0 {
					break
				}
				buf = utf8.AppendRune(buf, r)
				need--
			}
		}
		if leftSide {
			buf = append(buf, s...)
		}
		return buf, nil
	}
}

// splitPart is PostgreSQL 15's split_part: field n (1-based; negative
// counts from the end); 0 is 22023; an empty delimiter makes the whole
// string the only field.
func splitPart(strs []string, ints []int64, buf []byte) ([]byte, error) {
	s, delim, k := strs[0], strs[1], ints[0]
	if k == 0 {
		return nil, sqlerr.New(sqlerr.InvalidParameterValue, "field position must not be zero")
	}
	if s == "" {
		return buf, nil
	}
	if delim == "" {
		if k == 1 || k == -1 {
			return append(buf, s...), nil
		}
		return buf, nil
	}
	parts := strings.Split(s, delim)
	if k < 0 {
		k += int64(len(parts)) + 1
		if k <= 0 {
			return buf, nil
		}
	}
	if k > int64(len(parts)) {
		return buf, nil
	}
	return append(buf, parts[k-1]...), nil
}

// concatSpecialize builds concat / concat_ws for the concrete argument
// types: each non-NULL argument is rendered with its type's output
// function (so booleans are t/f, as PostgreSQL's concat shows them).
func concatSpecialize(withSep bool) func(args []types.T, consts []any) (types.T, Kernel) {
	return func(argTypes []types.T, _ []any) (types.T, Kernel) {
		return tText, func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
			if err := checkArity(args, n); err != nil {
				return nil, err
			}
			if len(args) != len(argTypes) {
				return nil, sqlerr.New(sqlerr.InternalError, "concat: %d arguments for %d types", len(args), len(argTypes))
			}
			loc, st := LocationOf(ctx), StyleOf(ctx)
			b := array.NewStringBuilder(mem)
			defer b.Release()
			b.Reserve(n)
			var sb strings.Builder
			first := 0
			var sep *array.String
			if withSep {
				s, ok := args[0].(*array.String)
				if !ok {
					return nil, badArg(0, args[0], "utf8")
				}
				sep, first = s, 1
			}
			for i := 0; i < n; i++ {
				if sep != nil && sep.IsNull(i) {
					b.AppendNull()
					continue
				}
				sb.Reset()
				wrote := false
				for k := first; k < len(args); k++ {
					a := args[k]
					if a.IsNull(i) {
						continue
					}
					if wrote && sep != nil {
						sb.WriteString(sep.Value(i))
					}
					s, err := outputText(ctx, a, i, argTypes[k], loc, st)
					if err != nil {
						return nil, err
					}
					sb.WriteString(s)
					wrote = true
				}
				b.Append(sb.String())
			}
			return b.NewArray(), nil
		}
	}
}

// outputText renders row i of a (of type t) as PostgreSQL's output
// function for t does in the session's zone and Style, which the kernel
// read once (StyleOf); a reg* value (or array of them) names its object
// through the catalog in ctx.
func outputText(ctx context.Context, a arrow.Array, i int, t types.T, loc *time.Location, st types.Style) (string, error) {
	switch x := a.(type) {
	case *array.String:
		return x.Value(i), nil
	case *array.Boolean:
		if x.Value(i) {
			return "t", nil
		}
		return "f", nil
	}
	v := physicalValue(a, i)
	if v == nil {
		return "", nil
	}
	return valueText(ctx, v, t, loc, st)
}

// ValueText is a non-NULL physical value v of type t as PostgreSQL's output
// function for t prints it, reg* values (also as array elements) naming
// their objects through the catalog in ctx (WithCatalog).
func ValueText(ctx context.Context, v any, t types.T, loc *time.Location) (string, error) {
	return valueText(ctx, v, t, loc, StyleOf(ctx))
}

// valueText is ValueText in Style st (the session's, read once by the
// kernel).
func valueText(ctx context.Context, v any, t types.T, loc *time.Location, st types.Style) (string, error) {
	if arr, ok := v.([]any); ok && t.Kind == types.Array {
		// format('%s', ARRAY[1,2]) is {1,2}
		return FormatArrayWith(arr, *t.Elem, func(e any, et types.T) (string, error) {
			return valueText(ctx, e, et, loc, st)
		})
	}
	if oid, ok := v.(int64); ok && t.Variant.IsReg() {
		return RegName(ctx, t.Variant, uint32(oid))
	}
	return ElemTextStyle(v, t, loc, st), nil
}

// CastText is v::text: a scalar's text as its cast to text gives it (true
// for a boolean, where the output function and so ValueText give t), a
// reg* value's name, an array's output text.
func CastText(ctx context.Context, v any, t types.T, loc *time.Location) (string, error) {
	if _, ok := v.([]any); ok && t.Kind == types.Array {
		return ValueText(ctx, v, t, loc)
	}
	if oid, ok := v.(int64); ok && t.Variant.IsReg() {
		return RegName(ctx, t.Variant, uint32(oid))
	}
	return types.FormatTextStyle(v, t, loc, StyleOf(ctx)), nil
}

// physicalValue returns row i of a as types/value.go's physical value.
func physicalValue(a arrow.Array, i int) any { return types.ValueAt(a, i) }
