package functions

import (
	"context"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// pg_column_size(any) is the number of bytes PostgreSQL 15 uses for a
// value: a fixed-size type's length, a variable-length one's varlena
// with its 4-byte header as a computed value has it, or, for a value read
// from a table's column (the binder calls __pg_column_size_stored for
// those; __pg_column_size_cstring for an untyped literal), its 1-byte header when the value's data is at most 126 bytes,
// as heap tuples store short values. PostgreSQL compresses and moves out
// of line values over about 2kB; sqlgate reports their size uncompressed.
// Composite values are heap tuples (a 24-byte header, aligned attributes,
// short varlenas packed); jsonb is sized from its binary container layout.
func columnSizeFuncs() []*Func {
	mk := func(name string, stored bool) *Func {
		return &Func{Name: name, Args: []types.T{tAny}, Ret: tInt4, Strict: true, specialize: func(args []types.T, _ []any) (types.T, Kernel) {
			t := args[0]
			return tInt4, rowFunc(tInt4, true, func(_ context.Context, a []any) (any, error) {
				n, err := datumSize(a[0], t, stored)
				return int64(n), err
			})
		}}
	}
	cstring := &Func{Name: "__pg_column_size_cstring", Args: []types.T{tText}, Ret: tInt4, Strict: true,
		Kernel: rowFunc(tInt4, true, func(_ context.Context, a []any) (any, error) {
			return int64(len(a[0].(string)) + 1), nil // an untyped literal is a C string and its NUL
		})}
	return []*Func{mk("pg_column_size", false), mk("__pg_column_size_stored", true), cstring}
}

// typeAlign is t's typalign in bytes (c 1, s 2, i 4, d 8) and whether t
// is a varlena (typlen -1).
func typeAlign(t types.T) (align int, varlena bool) {
	switch t.Kind {
	case types.Bool, types.Name:
		return 1, false
	case types.Int8, types.Int16:
		return 2, false
	case types.Int32, types.Float32, types.Date, types.Oid:
		return 4, false
	case types.Int64, types.Float64, types.Time, types.Timestamp, types.TimestampTZ, types.Interval, types.TimeTZ:
		return 8, false
	case types.Array:
		if a, _ := typeAlign(*t.Elem); a == 8 {
			return 8, true
		}
		return 4, true
	case types.Row:
		return 8, true
	case types.String:
		switch t.Variant {
		case types.QChar, types.UUID:
			return 1, false
		case types.PgLsn:
			return 8, false
		case types.Enum:
			return 4, false
		}
	}
	return 4, true
}

// datumSize is the size of v (non-nil) of type t as a datum; stored: as
// a heap tuple's attribute, a short varlena's header one byte.
func datumSize(v any, t types.T, stored bool) (int, error) {
	payload, fixed, err := datumPayload(v, t)
	if err != nil || fixed {
		return payload, err
	}
	if stored && payload+1 <= 127 {
		return payload + 1, nil
	}
	return payload + 4, nil
}

// datumPayload is a fixed-size value's length (fixed true) or a
// varlena's data length without its header.
func datumPayload(v any, t types.T) (n int, fixed bool, err error) {
	switch t.Kind {
	case types.Unknown:
		return len(v.(string)) + 1, true, nil // an untyped literal is a C string
	case types.Bool:
		return 1, true, nil
	case types.Int8, types.Int16:
		return 2, true, nil
	case types.Int32, types.Float32, types.Date, types.Oid:
		return 4, true, nil
	case types.Int64, types.Float64, types.Time, types.Timestamp, types.TimestampTZ:
		return 8, true, nil
	case types.TimeTZ:
		return 12, true, nil
	case types.Interval:
		return 16, true, nil
	case types.Name:
		return 64, true, nil
	case types.Decimal:
		var text string
		switch x := v.(type) {
		case *apd.Decimal:
			text = numeric.String(x)
		case decimal128.Num:
			text = x.ToString(int32(t.Scale))
		}
		return numericPayload(text), false, nil
	case types.Bytes, types.Binary:
		b, _ := v.([]byte)
		if s, ok := v.(string); ok {
			return len(s), false, nil
		}
		return len(b), false, nil
	case types.Char:
		s := v.(string)
		if pad := t.Length - utf8.RuneCountInString(s); pad > 0 {
			return len(s) + pad, false, nil // bpchar keeps its blank padding
		}
		return len(s), false, nil
	case types.Array:
		return arrayPayload(v.([]any), t), false, nil
	case types.Row:
		return tuplePayload(v.([]any), t), false, nil
	case types.String:
		s := v.(string)
		switch t.Variant {
		case types.QChar:
			return 1, true, nil
		case types.UUID:
			return 16, true, nil
		case types.PgLsn:
			return 8, true, nil
		case types.Enum:
			return 4, true, nil
		case types.Bit, types.VarBit:
			return 4 + (len(s)+7)/8, false, nil // the bit count, then the bits
		case types.Inet:
			if strings.Contains(s, ":") {
				return 2 + 16, false, nil // family, bits, IPv6 address
			}
			return 2 + 4, false, nil
		case types.JSONB:
			n, err := jsonbPayload(s)
			return n, false, err
		}
		return len(s), false, nil
	}
	return 0, false, sqlerr.New(sqlerr.FeatureNotSupported, "pg_column_size is not supported for type %s", t)
}

// numericPayload is the data size of a numeric whose text (numeric_out's
// form) is s: a 2-byte header (4 when the weight or display scale does
// not fit the short form) and 2 bytes per base-10000 digit, leading and
// trailing zero digits stripped; NaN and the infinities are the header.
func numericPayload(s string) int {
	s = strings.TrimPrefix(s, "-")
	if s == "" || s[0] < '0' || s[0] > '9' {
		return 2 // NaN, Infinity
	}
	intPart, frac, _ := strings.Cut(s, ".")
	dscale := len(frac)
	if pad := len(intPart) % 4; pad != 0 {
		intPart = strings.Repeat("0", 4-pad) + intPart
	}
	if pad := len(frac) % 4; pad != 0 {
		frac += strings.Repeat("0", 4-pad)
	}
	digits := intPart + frac
	weight := len(intPart)/4 - 1
	for len(digits) >= 4 && digits[:4] == "0000" {
		digits = digits[4:]
		weight--
	}
	for len(digits) >= 4 && digits[len(digits)-4:] == "0000" {
		digits = digits[:len(digits)-4]
	}
	if digits == "" {
		weight = 0
	}
	header := 2
	if dscale > 63 || weight > 63 || weight < -64 {
		header = 4
	}
	return header + len(digits)/4*2
}

func alignTo(n, a int) int { return (n + a - 1) / a * a }

// arrayPayload is an ArrayType's size without its varlena header: ndim,
// data offset and element type (12 bytes), each dimension's length and
// lower bound, a null bitmap when an element is NULL, padding to 8, then
// each element padded to its type's alignment (varlena elements keep
// 4-byte headers). A nested list is one more dimension.
func arrayPayload(v []any, t types.T) int {
	ndim, elem := 1, *t.Elem
	flat := v
	for elem.Kind == types.Array && elem.Variant == types.NoVariant {
		var next []any
		for _, x := range flat {
			if inner, ok := x.([]any); ok {
				next = append(next, inner...)
			}
		}
		flat, elem = next, *elem.Elem
		ndim++
	}
	if len(flat) == 0 {
		return 12 // an empty array has no dimensions
	}
	header := 12 + 8*ndim
	nulls := false
	for _, x := range flat {
		nulls = nulls || x == nil
	}
	if nulls {
		header += (len(flat) + 7) / 8
	}
	n := alignTo(header+4, 8) - 4
	align, _ := typeAlign(elem)
	for _, x := range flat {
		if x == nil {
			continue
		}
		size, _ := datumSize(x, elem, false)
		n = alignTo(n+4+size, align) - 4
	}
	return n
}

// tuplePayload is a composite datum's size without its varlena header:
// the tuple header (23 bytes, a null bitmap, padded to 8), then each
// attribute at its alignment, short varlenas packed unaligned, as
// heap_form_tuple lays them out.
func tuplePayload(v []any, t types.T) int {
	header := 23
	for _, x := range v {
		if x == nil {
			header += (len(v) + 7) / 8
			break
		}
	}
	n := alignTo(header, 8) // offsets from the tuple's start: the varlena header is its first 4 bytes
	for i, x := range v {
		if x == nil || i >= len(t.Fields) {
			continue
		}
		ft := t.Fields[i].Type
		align, varlena := typeAlign(ft)
		size, _ := datumSize(x, ft, true)
		if !varlena || size > 127 || size == 0 {
			n = alignTo(n, align)
		}
		n += size
	}
	return n - 4
}

// jsonbPayload is the size of jsonb's binary container for the JSON
// text s (jsonb's output, its keys in stored order), without the varlena
// header: a scalar is a one-element array.
func jsonbPayload(s string) (int, error) {
	val, err := jsonbTokens(json.NewDecoder(strings.NewReader(s)))
	if err != nil {
		return 0, err
	}
	if _, ok := val.(jsonbSizeNode); !ok {
		val = jsonbSizeNode{elems: []any{val}}
	}
	return jsonbSizeNodeEnd(4, val.(jsonbSizeNode)) - 4, nil
}

// jsonbSizeNode is an array (elems) or an object (keys, elems its values).
type jsonbSizeNode struct {
	object bool
	keys   []string
	elems  []any
}

// jsonbTokens reads one JSON value keeping objects' key order; scalars
// are string, json.Number, bool or nil.
func jsonbTokens(dec *json.Decoder) (any, error) {
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, sqlerr.New(sqlerr.InvalidTextRepresentation, "invalid input syntax for type json")
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil
	}
	c := jsonbSizeNode{object: d == '{'}
	for dec.More() {
		if c.object {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			c.keys = append(c.keys, k.(string))
		}
		e, err := jsonbTokens(dec)
		if err != nil {
			return nil, err
		}
		c.elems = append(c.elems, e)
	}
	if _, err := dec.Token(); err != nil { // the closing bracket
		return nil, err
	}
	return c, nil
}

// jsonbSizeNodeEnd lays container c out from offset off (which is
// 4-aligned) and returns where it ends: a 4-byte header, a 4-byte JEntry
// per key and value, the keys' bytes, then the values (numbers and
// containers aligned to 4, a number a computed numeric datum).
func jsonbSizeNodeEnd(off int, c jsonbSizeNode) int {
	off += 4 + 4*(len(c.keys)+len(c.elems))
	for _, k := range c.keys {
		off += len(k)
	}
	for _, e := range c.elems {
		switch x := e.(type) {
		case string:
			off += len(x)
		case json.Number:
			off = alignTo(off, 4) + 4 + numericPayload(x.String())
		case jsonbSizeNode:
			off = jsonbSizeNodeEnd(alignTo(off, 4), x)
		}
	}
	return off
}
