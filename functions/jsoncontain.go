package functions

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// The jsonb operators @> <@ ? ?| ?& and ||, the array operators @> <@ &&
// and bytea's ||, under PostgreSQL's function names (jsonb_contains,
// jsonb_contained, jsonb_exists, jsonb_exists_any, jsonb_exists_all,
// jsonb_concat, arraycontains, arraycontained, arrayoverlap, byteacat),
// which the binder calls for the operators (binder/operators.go).
//
// Containment follows PostgreSQL's JsonbDeepContains: an object contains
// another when every key of the other is there with a value that contains
// the other's; an array contains another when every element of the other
// is contained in some element of it (a top-level array also contains a
// scalar); scalars are equal (numbers by value). jsonb_concat merges two
// objects (the right's keys win), concatenates two arrays, and otherwise
// treats a non-array operand as a one-element array.

func jsonContainFuncs() []*Func {
	tTextArray := types.ArrayOf(tText)
	contains := func(swap bool) Kernel {
		return rowFunc(tBool, true, func(_ context.Context, v []any) (any, error) {
			a, b := v[0].(string), v[1].(string)
			if swap {
				a, b = b, a
			}
			x, y, err := decodeJSONPair(a, b)
			if err != nil {
				return nil, err
			}
			return jsonContains(x, y, true), nil
		})
	}
	exists := func(mode int) Kernel { // 0: one key, 1: any, 2: all
		return rowFunc(tBool, true, func(_ context.Context, v []any) (any, error) {
			doc, err := decodeJSON(v[0].(string))
			if err != nil {
				return nil, err
			}
			if mode == 0 {
				return jsonHasKey(doc, v[1].(string)), nil
			}
			keys, _ := v[1].([]any)
			for _, k := range keys {
				s, ok := k.(string)
				has := ok && jsonHasKey(doc, s)
				if mode == 1 && has {
					return true, nil
				}
				if mode == 2 && !has && ok { // PostgreSQL skips NULL keys
					return false, nil
				}
			}
			return mode == 2, nil
		})
	}
	arrayContains := func(swap bool) Kernel {
		return rowFunc(tBool, true, func(_ context.Context, v []any) (any, error) {
			a, b := v[0].([]any), v[1].([]any)
			if swap {
				a, b = b, a
			}
			for _, y := range b {
				if y == nil || !arrayHas(a, y) {
					return false, nil // a NULL element is contained in nothing
				}
			}
			return true, nil
		})
	}
	return []*Func{
		{Name: "jsonb_contains", Args: []types.T{tJSONB, tJSONB}, Ret: tBool, Strict: true, Kernel: contains(false)},
		{Name: "jsonb_contained", Args: []types.T{tJSONB, tJSONB}, Ret: tBool, Strict: true, Kernel: contains(true)},
		{Name: "jsonb_exists", Args: []types.T{tJSONB, tText}, Ret: tBool, Strict: true, Kernel: exists(0)},
		{Name: "jsonb_exists_any", Args: []types.T{tJSONB, tTextArray}, Ret: tBool, Strict: true, Kernel: exists(1)},
		{Name: "jsonb_exists_all", Args: []types.T{tJSONB, tTextArray}, Ret: tBool, Strict: true, Kernel: exists(2)},
		{Name: "jsonb_concat", Args: []types.T{tJSONB, tJSONB}, Ret: tJSONB, Strict: true,
			Kernel: rowFunc(tJSONB, true, func(_ context.Context, v []any) (any, error) { return jsonConcat(v[0].(string), v[1].(string)) })},
		{Name: "arraycontains", Args: []types.T{tAnyArray, tAnyArray}, Ret: tBool, Strict: true, sameArrays: true, Kernel: arrayContains(false)},
		{Name: "arraycontained", Args: []types.T{tAnyArray, tAnyArray}, Ret: tBool, Strict: true, sameArrays: true, Kernel: arrayContains(true)},
		{Name: "arrayoverlap", Args: []types.T{tAnyArray, tAnyArray}, Ret: tBool, Strict: true, sameArrays: true,
			Kernel: rowFunc(tBool, true, func(_ context.Context, v []any) (any, error) {
				for _, y := range v[1].([]any) {
					if y != nil && arrayHas(v[0].([]any), y) {
						return true, nil
					}
				}
				return false, nil
			})},
		{Name: "byteacat", Args: []types.T{tBytes, tBytes}, Ret: tBytes, Strict: true,
			Kernel: rowFunc(tBytes, true, func(_ context.Context, v []any) (any, error) {
				a, b := v[0].([]byte), v[1].([]byte)
				out := make([]byte, 0, len(a)+len(b))
				return append(append(out, a...), b...), nil
			})},
	}
}

func arrayHas(a []any, y any) bool {
	for _, x := range a {
		if x == nil {
			continue
		}
		if c, err := CompareValues(x, y); err == nil && c == 0 {
			return true
		}
	}
	return false
}

// decodeJSON decodes a jsonb text into map[string]any, []any, string,
// json.Number, bool or nil.
func decodeJSON(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, sqlerr.InvalidJSON()
	}
	return v, nil
}

// decodeJSONPair decodes the two operands of a jsonb operator.
func decodeJSONPair(a, b string) (x, y any, err error) {
	if x, err = decodeJSON(a); err != nil {
		return nil, nil, err
	}
	y, err = decodeJSON(b)
	return x, y, err
}

// jsonContains reports whether a contains b; top is set for the operands
// themselves (where an array contains a scalar).
func jsonContains(a, b any, top bool) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return false
		}
		for k, yv := range y {
			xv, ok := x[k]
			if !ok || !jsonContains(xv, yv, false) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok {
			if _, nested := b.(map[string]any); nested || !top {
				return false
			}
			y = []any{b} // a top-level array contains a scalar
		}
		for _, yv := range y {
			found := false
			for _, xv := range x {
				if jsonSameKind(xv, yv) && jsonContains(xv, yv, false) {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	}
	return jsonScalarEqual(a, b)
}

// jsonSameKind: array elements match elements of their own kind (object,
// array or scalar).
func jsonSameKind(a, b any) bool {
	kind := func(v any) int {
		switch v.(type) {
		case map[string]any:
			return 1
		case []any:
			return 2
		}
		return 0
	}
	return kind(a) == kind(b)
}

func jsonScalarEqual(a, b any) bool {
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		p, ok1 := new(big.Rat).SetString(string(x))
		q, ok2 := new(big.Rat).SetString(string(y))
		return ok1 && ok2 && p.Cmp(q) == 0
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case nil:
		return b == nil
	}
	return false
}

// jsonHasKey is jsonb ? key: a key of a top-level object, or a string
// element of a top-level array (or the top-level string itself).
func jsonHasKey(doc any, key string) bool {
	switch x := doc.(type) {
	case map[string]any:
		_, ok := x[key]
		return ok
	case []any:
		for _, e := range x {
			if s, ok := e.(string); ok && s == key {
				return true
			}
		}
	case string:
		return x == key
	}
	return false
}

// jsonConcat is jsonb || jsonb.
func jsonConcat(a, b string) (any, error) {
	x, y, err := decodeJSONPair(a, b)
	if err != nil {
		return nil, err
	}
	var out any
	xo, xObj := x.(map[string]any)
	yo, yObj := y.(map[string]any)
	if xObj && yObj {
		for k, v := range yo {
			xo[k] = v
		}
		out = xo
	} else {
		asArray := func(v any) []any {
			if arr, ok := v.([]any); ok {
				return arr
			}
			return []any{v}
		}
		out = append(asArray(x), asArray(y)...)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return types.ParseJSON(strings.TrimSpace(buf.String()), true)
}
