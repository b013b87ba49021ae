package functions

import (
	"context"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// PostgreSQL's bit string functions and operators (varbit.c) over bit(n)
// and bit varying(n), whose values are '0'/'1' strings
// (types/bitstring.go). Each has the argument and result types of
// PostgreSQL's pg_proc entry, so that resolution picks and refuses as it
// does: the operators & | # ~ << >> take and give bit, || gives bit
// varying, substring and overlay give bit. The binder calls bitand, bitor,
// bitshiftleft, bitshiftright and bitcat for the operators its grammar has
// (binder/bitstring.go); # and prefix ~ arrive as pg__op_xor and pg__op_not.

var (
	tBit    = types.BitType(0)
	tVarBit = types.VarBitType(0)
)

func bitStringFuncs() []*Func {
	bits := func(name string, args []types.T, ret types.T, body func(v []any) (any, error)) *Func {
		return &Func{Name: name, Args: args, Ret: ret, Strict: true, Kernel: rowFunc(ret, true, func(_ context.Context, v []any) (any, error) { return body(v) })}
	}
	two := []types.T{tBit, tBit}
	fs := []*Func{
		bits("bitand", two, tBit, bitwiseBits('&', "AND")),
		bits("bitor", two, tBit, bitwiseBits('|', "OR")),
		bits("bitxor", two, tBit, bitwiseBits('#', "XOR")),
		bits("pg__op_xor", two, tBit, bitwiseBits('#', "XOR")),
		bits("bitnot", []types.T{tBit}, tBit, bitNot),
		bits("pg__op_not", []types.T{tBit}, tBit, bitNot),
		bits("bitshiftleft", []types.T{tBit, tInt4}, tBit, func(v []any) (any, error) { return shiftBits(v[0].(string), v[1].(int64)), nil }),
		bits("bitshiftright", []types.T{tBit, tInt4}, tBit, func(v []any) (any, error) { return shiftBits(v[0].(string), -v[1].(int64)), nil }),
		bits("bitcat", []types.T{tVarBit, tVarBit}, tVarBit, func(v []any) (any, error) { return v[0].(string) + v[1].(string), nil }),
		bits("length", []types.T{tBit}, tInt4, func(v []any) (any, error) { return int64(len(v[0].(string))), nil }),
		bits("bit_length", []types.T{tBit}, tInt4, func(v []any) (any, error) { return int64(len(v[0].(string))), nil }),
		bits("octet_length", []types.T{tBit}, tInt4, func(v []any) (any, error) { return int64((len(v[0].(string)) + 7) / 8), nil }),
		bits("bit_count", []types.T{tBit}, tInt8, func(v []any) (any, error) { return int64(strings.Count(v[0].(string), "1")), nil }),
		bits("position", two, tInt4, bitPosition),
		bits("strpos", two, tInt4, bitPosition), // position(a IN b) binds as strpos(b, a)
		bits("get_bit", []types.T{tBit, tInt4}, tInt4, getBitString),
		bits("set_bit", []types.T{tBit, tInt4, tInt4}, tBit, setBitString),
		bits("overlay", []types.T{tBit, tBit, tInt4, tInt4}, tBit, overlayBits),
		bits("overlay", []types.T{tBit, tBit, tInt4}, tBit, overlayBits),
	}
	for _, name := range []string{"substring", "substr"} {
		fs = append(fs,
			bits(name, []types.T{tBit, tInt4}, tBit, substringBits),
			bits(name, []types.T{tBit, tInt4, tInt4}, tBit, substringBits))
	}
	return fs
}

// bitwiseBits is bitand/bitor/bitxor: bit by bit over two strings of one
// length (22026 "cannot AND bit strings of different sizes" otherwise).
func bitwiseBits(op byte, word string) func(v []any) (any, error) {
	return func(v []any) (any, error) {
		a, b := v[0].(string), v[1].(string)
		if len(a) != len(b) {
			return nil, sqlerr.New(sqlerr.Code("22026"), "cannot %s bit strings of different sizes", word)
		}
		out := []byte(a)
		for i := range out {
			x, y := a[i]-'0', b[i]-'0'
			var r byte
			switch op {
			case '&':
				r = x & y
			case '|':
				r = x | y
			default:
				r = x ^ y
			}
			out[i] = '0' + r
		}
		return string(out), nil
	}
}

func bitNot(v []any) (any, error) {
	out := []byte(v[0].(string))
	for i := range out {
		out[i] ^= 1 // '0' <-> '1'
	}
	return string(out), nil
}

// shiftBits is bitshiftleft (by > 0) and bitshiftright (by < 0): the
// length is kept, zeros shifted in.
func shiftBits(s string, by int64) string {
	n := int64(len(s))
	zeros := func(k int64) string { return strings.Repeat("0", int(k)) }
	switch {
	case by >= n || -by >= n:
		return zeros(n)
	case by >= 0:
		return s[by:] + zeros(by)
	}
	return zeros(-by) + s[:n+by]
}

// bitPosition is bitposition: the 1-based place of sub in s, 1 for an
// empty sub, 0 when absent or s is empty.
func bitPosition(v []any) (any, error) {
	s, sub := v[0].(string), v[1].(string)
	if s == "" {
		return int64(0), nil
	}
	if sub == "" {
		return int64(1), nil
	}
	return int64(strings.Index(s, sub) + 1), nil
}

func errBitIndex(n, length int64) error {
	return sqlerr.New(sqlerr.ArraySubscriptError, "bit index %d out of valid range (0..%d)", n, length-1)
}

func getBitString(v []any) (any, error) {
	s, n := v[0].(string), v[1].(int64)
	if n < 0 || n >= int64(len(s)) {
		return nil, errBitIndex(n, int64(len(s)))
	}
	return int64(s[n] - '0'), nil
}

func setBitString(v []any) (any, error) {
	s, n, bit := v[0].(string), v[1].(int64), v[2].(int64)
	if n < 0 || n >= int64(len(s)) {
		return nil, errBitIndex(n, int64(len(s)))
	}
	if bit != 0 && bit != 1 {
		return nil, sqlerr.New(sqlerr.InvalidParameterValue, "new bit must be 0 or 1")
	}
	out := []byte(s)
	out[n] = '0' + byte(bit)
	return string(out), nil
}

func errNegativeSubstring() error {
	return sqlerr.New(sqlerr.Code("22011"), "negative substring length not allowed")
}

// substringBits is bitsubstr: bits start.. (1-based) for count of them
// (all the rest without a count), as text's substring counts.
func substringBits(v []any) (any, error) {
	s := v[0].(string)
	start := v[1].(int64)
	end := int64(len(s)) + 1
	if len(v) > 2 {
		count := v[2].(int64)
		if count < 0 {
			return nil, errNegativeSubstring()
		}
		end = min(end, start+count)
	}
	start = max(start, 1)
	if start >= end {
		return "", nil
	}
	return s[start-1 : end-1], nil
}

// overlayBits is bitoverlay: s with count bits from start replaced by
// repl (count defaults to repl's length).
func overlayBits(v []any) (any, error) {
	s, repl, start := v[0].(string), v[1].(string), v[2].(int64)
	count := int64(len(repl))
	if len(v) > 3 {
		count = v[3].(int64)
	}
	if start <= 0 || count < 0 {
		return nil, errNegativeSubstring()
	}
	head, _ := substringBits([]any{s, int64(1), start - 1})
	tail, _ := substringBits([]any{s, start + count})
	return head.(string) + repl + tail.(string), nil
}
