package types

import (
	"encoding/binary"
	"encoding/json"
	"sort"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// KeyForm says how the values of a type compare as keys (GROUP BY,
// DISTINCT, ORDER BY, PARTITION BY, set operations) where their Arrow
// form alone does not say it: bpchar and jsonb are Arrow strings whose
// PostgreSQL equality and order are not their bytes'.
type KeyForm uint8

const (
	// KeyAsStored: the Arrow value's own order.
	KeyAsStored KeyForm = iota
	// KeyBlankPadded: bpchar, whose equality and order (bpchareq,
	// bpcharcmp) ignore trailing blanks.
	KeyBlankPadded
	// KeyJSONB: jsonb's btree order (AppendJSONBKey).
	KeyJSONB
)

// KeyForm is the key form of t's values, or of its elements for an array
// at any depth (an array of bpchar compares element by element as bpchar).
func (t T) KeyForm() KeyForm {
	for t.Kind == Array && t.Elem != nil {
		t = *t.Elem
	}
	switch {
	case t.Kind == Char:
		return KeyBlankPadded
	case t.Kind == String && t.Variant == JSONB:
		return KeyJSONB
	}
	return KeyAsStored
}

// The markers of AppendJSONBKey, in jsonb's order of value types: Null <
// String < Number < Boolean < Array < Object. A top-level document is an
// array or an object; a top-level scalar is stored by jsonb as a
// one-element "raw scalar" array, and orders as one.
const (
	jkNull byte = iota + 1
	jkString
	jkNumber
	jkBool
	jkArray
	jkObject
	jkRawScalar = 0x01 // below jkTopArray: a scalar sorts before [x]
	jkTopArray  = 0x02
)

// AppendJSONBKey appends bytes of the jsonb text doc that compare
// (bytes.Compare) as jsonb's btree order compares the documents, and are
// equal exactly when the documents are equal as jsonb ('1' and '1.0'
// are): arrays by element count, then element by element; objects by pair
// count, then pair by pair in jsonb's storage order (keys by length, then
// bytewise), key before value, keys and strings compared bytewise;
// numbers numerically; false < true. functions/jsonbcmp.go's CompareJSONB
// is the same order computed on two documents, and a test holds the two
// together.
func AppendJSONBKey(dst []byte, doc string) ([]byte, error) {
	dec := json.NewDecoder(strings.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, sqlerr.New(sqlerr.InvalidTextRepresentation, "invalid input syntax for type json")
	}
	switch x := v.(type) {
	case map[string]any:
		return appendJSONBValue(dst, x)
	case []any:
		dst = append(dst, jkArray)
		dst = binary.BigEndian.AppendUint32(dst, uint32(len(x)))
		dst = append(dst, jkTopArray)
		for _, e := range x {
			var err error
			if dst, err = appendJSONBValue(dst, e); err != nil {
				return nil, err
			}
		}
		return dst, nil
	default:
		dst = append(dst, jkArray)
		dst = binary.BigEndian.AppendUint32(dst, 1)
		dst = append(dst, jkRawScalar)
		return appendJSONBValue(dst, x)
	}
}

// appendJSONBValue encodes one value below the top level: its type marker,
// then its contents, each self-delimiting so that a shorter value never
// is a prefix that reorders what follows.
func appendJSONBValue(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, jkNull), nil
	case string:
		return appendJSONBString(append(dst, jkString), x), nil
	case json.Number:
		var d apd.Decimal
		if _, _, err := d.SetString(string(x)); err != nil {
			return nil, sqlerr.New(sqlerr.InvalidTextRepresentation, "invalid input syntax for type json")
		}
		return numeric.AppendSortKey(append(dst, jkNumber), &d), nil
	case bool:
		if x {
			return append(dst, jkBool, 1), nil
		}
		return append(dst, jkBool, 0), nil
	case []any:
		dst = append(dst, jkArray)
		dst = binary.BigEndian.AppendUint32(dst, uint32(len(x)))
		for _, e := range x {
			var err error
			if dst, err = appendJSONBValue(dst, e); err != nil {
				return nil, err
			}
		}
		return dst, nil
	case map[string]any:
		dst = append(dst, jkObject)
		dst = binary.BigEndian.AppendUint32(dst, uint32(len(x)))
		for _, k := range JSONBStorageOrder(x) {
			dst = appendJSONBString(dst, k)
			var err error
			if dst, err = appendJSONBValue(dst, x[k]); err != nil {
				return nil, err
			}
		}
		return dst, nil
	}
	return dst, nil
}

// appendJSONBString appends s with 0x00 escaped as 0x00 0xFF and a
// 0x00 0x00 terminator: bytewise order, and "ab" before "abc".
func appendJSONBString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			dst = append(dst, 0, 0xFF)
			continue
		}
		dst = append(dst, s[i])
	}
	return append(dst, 0, 0)
}

// JSONBStorageOrder is an object's keys in jsonb's storage order: shorter
// keys first, then bytewise.
func JSONBStorageOrder(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if len(keys[i]) != len(keys[j]) {
			return len(keys[i]) < len(keys[j])
		}
		return keys[i] < keys[j]
	})
	return keys
}
