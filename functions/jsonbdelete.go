package functions

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// jsonb - text, jsonb - integer, jsonb - text[] (jsonb_delete) and
// jsonb #- text[] (jsonb_delete_path), as PostgreSQL 15's jsonfuncs.c:
// a key and its value out of an object, matching strings out of an
// array, an element by index (negative from the end), a path's last
// step; a scalar is 22023.

func jsonbDeleteFuncs() []*Func {
	return []*Func{
		{Name: "jsonb_delete", Args: []types.T{tJSONB, tText}, Ret: tJSONB, Strict: true, Kernel: rowFunc(tJSONB, true, jsonbDeleteRow)},
		{Name: "jsonb_delete", Args: []types.T{tJSONB, tInt4}, Ret: tJSONB, Strict: true, Kernel: rowFunc(tJSONB, true, jsonbDeleteRow)},
		{Name: "jsonb_delete", Args: []types.T{tJSONB, tTextArr}, Ret: tJSONB, Strict: true, Kernel: rowFunc(tJSONB, true, jsonbDeleteRow)},
		{Name: "jsonb_delete_path", Args: []types.T{tJSONB, tTextArr}, Ret: tJSONB, Strict: true, Kernel: rowFunc(tJSONB, true, jsonbDeletePathRow)},
	}
}

// decodeJSONB reads a jsonb value into Go values (numbers kept as text).
func decodeJSONB(doc string) (any, error) {
	var v any
	dec := json.NewDecoder(strings.NewReader(doc))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, sqlerr.InvalidJSON()
	}
	return v, nil
}

// encodeJSONB writes Go values back as jsonb text (keys in jsonb's order).
func encodeJSONB(v any) (any, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return types.ParseJSON(strings.TrimSpace(b.String()), true)
}

func textElems(v any) []string {
	items, _ := v.([]any)
	out := make([]string, 0, len(items))
	for _, it := range items {
		if s, ok := it.(string); ok { // NULL elements delete nothing
			out = append(out, s)
		}
	}
	return out
}

func jsonbDeleteRow(_ context.Context, a []any) (any, error) {
	doc := a[0].(string)
	root, err := decodeJSONB(doc)
	if err != nil {
		return nil, err
	}
	if idx, isIndex := a[1].(int64); isIndex {
		switch x := root.(type) {
		case map[string]any:
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "cannot delete from object using integer index")
		case []any:
			n := int64(len(x))
			if idx < 0 {
				idx += n
			}
			if idx < 0 || idx >= n {
				return doc, nil
			}
			return encodeJSONB(append(x[:idx:idx], x[idx+1:]...))
		}
		return nil, sqlerr.New(sqlerr.InvalidParameterValue, "cannot delete from scalar")
	}
	var keys []string
	if s, ok := a[1].(string); ok {
		keys = []string{s}
	} else {
		keys = textElems(a[1])
		if _, container := jsonbContainer(root); len(keys) == 0 && container {
			return doc, nil // jsonb_delete_array refuses a scalar before it looks at the keys
		}
	}
	drop := map[string]bool{}
	for _, k := range keys {
		drop[k] = true
	}
	switch x := root.(type) {
	case map[string]any:
		for k := range drop {
			delete(x, k)
		}
		return encodeJSONB(x)
	case []any:
		out := x[:0]
		for _, e := range x {
			if s, ok := e.(string); ok && drop[s] {
				continue
			}
			out = append(out, e)
		}
		return encodeJSONB(out)
	}
	return nil, sqlerr.New(sqlerr.InvalidParameterValue, "cannot delete from scalar")
}

func jsonbDeletePathRow(_ context.Context, a []any) (any, error) {
	doc := a[0].(string)
	root, err := decodeJSONB(doc)
	if err != nil {
		return nil, err
	}
	switch x := root.(type) {
	case map[string]any:
		if len(x) == 0 {
			return doc, nil // an empty container is returned before the path is read
		}
	case []any:
		if len(x) == 0 {
			return doc, nil
		}
	default:
		return nil, sqlerr.New(sqlerr.InvalidParameterValue, "cannot delete path in scalar")
	}
	path, err := textPath(a[1])
	if err != nil {
		return nil, err
	}
	if len(path) == 0 {
		return doc, nil
	}
	out, err := deletePath(root, path, 0)
	if err != nil {
		return nil, err
	}
	return encodeJSONB(out)
}

func deletePath(node any, path []string, level int) (any, error) {
	return walkJSONPath(node, path, level, jsonLeaf{
		object: func(x map[string]any, key string) (any, error) {
			delete(x, key)
			return x, nil
		},
		array: func(x []any, idx int) (any, error) {
			if idx < 0 {
				idx += len(x)
			}
			if idx < 0 || idx >= len(x) {
				return x, nil
			}
			return append(x[:idx:idx], x[idx+1:]...), nil
		},
	})
}

// jsonbContainer reports whether a decoded document is an object or an
// array (and so not a scalar).
func jsonbContainer(v any) (any, bool) {
	switch v.(type) {
	case map[string]any, []any:
		return v, true
	}
	return v, false
}
