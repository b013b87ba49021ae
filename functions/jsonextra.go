package functions

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// array_to_json, json_object/jsonb_object, jsonb_insert and jsonb_set_lax,
// as PostgreSQL 15's json.c and jsonfuncs.c.

func jsonExtraFuncs() []*Func {
	return []*Func{
		{Name: "array_to_json", Args: []types.T{tAnyArray}, Ret: tJSON, Strict: true, specialize: arrayToJSONSpecialize},
		{Name: "array_to_json", Args: []types.T{tAnyArray, tBool}, Ret: tJSON, Strict: true, specialize: arrayToJSONSpecialize},
		{Name: "json_object", Args: []types.T{tTextArr}, Ret: tJSON, Strict: true, Kernel: rowFunc(tJSON, true, jsonObjectRow(false))},
		{Name: "json_object", Args: []types.T{tTextArr, tTextArr}, Ret: tJSON, Strict: true, Kernel: rowFunc(tJSON, true, jsonObjectRow(false))},
		{Name: "jsonb_object", Args: []types.T{tTextArr}, Ret: tJSONB, Strict: true, Kernel: rowFunc(tJSONB, true, jsonObjectRow(true))},
		{Name: "jsonb_object", Args: []types.T{tTextArr, tTextArr}, Ret: tJSONB, Strict: true, Kernel: rowFunc(tJSONB, true, jsonObjectRow(true))},
		{Name: "jsonb_insert", Args: []types.T{tJSONB, tTextArr, tJSONB}, Ret: tJSONB, Strict: true, Kernel: rowFunc(tJSONB, true, jsonbInsertRow)},
		{Name: "jsonb_insert", Args: []types.T{tJSONB, tTextArr, tJSONB, tBool}, Ret: tJSONB, Strict: true, Kernel: rowFunc(tJSONB, true, jsonbInsertRow)},
		{Name: "jsonb_set_lax", Args: []types.T{tJSONB, tTextArr, tJSONB}, Ret: tJSONB, Kernel: rowFunc(tJSONB, false, jsonbSetLaxRow)},
		{Name: "jsonb_set_lax", Args: []types.T{tJSONB, tTextArr, tJSONB, tBool}, Ret: tJSONB, Kernel: rowFunc(tJSONB, false, jsonbSetLaxRow)},
		{Name: "jsonb_set_lax", Args: []types.T{tJSONB, tTextArr, tJSONB, tBool, tText}, Ret: tJSONB, Kernel: rowFunc(tJSONB, false, jsonbSetLaxRow)},
	}
}

// arrayToJSONSpecialize is array_to_json(a [, pretty]): to_json of the
// array, with pretty a line break and a space between its top-level
// elements.
func arrayToJSONSpecialize(args []types.T, _ []any) (types.T, Kernel) {
	t := args[0]
	return tJSON, rowFunc(tJSON, true, func(ctx context.Context, a []any) (any, error) {
		loc := LocationOf(ctx)
		pretty := len(a) > 1 && a[1].(bool)
		elems, _ := a[0].([]any)
		if !pretty || t.Elem == nil {
			var b strings.Builder
			writeJSONValue(ctx, &b, a[0], t, loc)
			return b.String(), nil
		}
		return prettyArrayJSON(ctx, elems, *t.Elem, loc), nil
	})
}

func prettyArrayJSON(ctx context.Context, elems []any, elem types.T, loc *time.Location) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, e := range elems {
		if i > 0 {
			b.WriteString(",\n ")
		}
		writeJSONValue(ctx, &b, e, elem, loc)
	}
	b.WriteByte(']')
	return b.String()
}

// jsonObjectRow is json_object(pairs) and json_object(keys, values).
func jsonObjectRow(jsonb bool) func(context.Context, []any) (any, error) {
	return func(_ context.Context, a []any) (any, error) {
		var keys, vals []any
		if len(a) == 1 {
			all, _ := a[0].([]any)
			if len(all)%2 != 0 {
				return nil, sqlerr.New(sqlerr.Code("2202E"), "array must have even number of elements")
			}
			for i := 0; i < len(all); i += 2 {
				keys, vals = append(keys, all[i]), append(vals, all[i+1])
			}
		} else {
			keys, _ = a[0].([]any)
			vals, _ = a[1].([]any)
			if len(keys) != len(vals) {
				return nil, sqlerr.New(sqlerr.Code("2202E"), "mismatched array dimensions")
			}
		}
		type pair struct{ k, v string }
		var ps []pair
		for i, k := range keys {
			ks, ok := k.(string)
			if !ok {
				return nil, sqlerr.New(sqlerr.NullValueNotAllowed, "null value not allowed for object key")
			}
			v := "null"
			if s, ok := vals[i].(string); ok {
				v = jsonQuote(s)
			}
			ps = append(ps, pair{ks, v})
		}
		var b strings.Builder
		b.WriteByte('{')
		if jsonb {
			// jsonb: one value per key (the last), keys in jsonb's order
			last := map[string]string{}
			var order []string
			for _, p := range ps {
				if _, seen := last[p.k]; !seen {
					order = append(order, p.k)
				}
				last[p.k] = p.v
			}
			sort.SliceStable(order, func(i, j int) bool {
				if len(order[i]) != len(order[j]) {
					return len(order[i]) < len(order[j])
				}
				return order[i] < order[j]
			})
			for i, k := range order {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(jsonQuote(k) + ": " + last[k])
			}
		} else {
			for i, p := range ps {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(jsonQuote(p.k) + " : " + p.v)
			}
		}
		b.WriteByte('}')
		return b.String(), nil
	}
}

func textPath(v any) ([]string, error) {
	items, _ := v.([]any)
	path := make([]string, len(items))
	for k, p := range items {
		if p == nil {
			return nil, sqlerr.New(sqlerr.NullValueNotAllowed, "path element at position %d is null", k+1)
		}
		path[k] = p.(string)
	}
	return path, nil
}

// jsonbInsertRow is jsonb_insert(target, path, new_value [, insert_after]).
func jsonbInsertRow(_ context.Context, a []any) (any, error) {
	doc := a[0].(string)
	root, err := decodeJSONB(doc)
	if err != nil {
		return nil, err
	}
	nv, err := decodeJSONB(a[2].(string))
	if err != nil {
		return nil, err
	}
	after := len(a) > 3 && a[3].(bool)
	switch root.(type) {
	case map[string]any, []any:
	default:
		return nil, sqlerr.New(sqlerr.InvalidParameterValue, "cannot set path in scalar")
	}
	path, err := textPath(a[1])
	if err != nil {
		return nil, err
	}
	if len(path) == 0 {
		return doc, nil
	}
	out, err := insertPath(root, path, 0, nv, after)
	if err != nil {
		return nil, err
	}
	return encodeJSONB(out)
}

func insertPath(node any, path []string, level int, nv any, after bool) (any, error) {
	return walkJSONPath(node, path, level, jsonLeaf{
		object: func(x map[string]any, key string) (any, error) {
			if _, ok := x[key]; ok {
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "cannot replace existing key").
					WithHint("Try using the function jsonb_set to replace key value.")
			}
			x[key] = nv
			return x, nil
		},
		array: func(x []any, idx int) (any, error) {
			n := len(x)
			if idx < 0 {
				idx += n
			}
			switch {
			case idx < 0:
				return append([]any{nv}, x...), nil
			case idx >= n:
				return append(x, nv), nil
			}
			if after {
				idx++
			}
			return append(append(append([]any{}, x[:idx]...), nv), x[idx:]...), nil
		},
	})
}

// jsonbSetLaxRow is jsonb_set_lax: jsonb_set, except that an SQL NULL new
// value is handled as null_value_treatment says.
func jsonbSetLaxRow(ctx context.Context, a []any) (any, error) {
	if a[0] == nil || a[1] == nil || len(a) > 3 && a[3] == nil {
		return nil, nil
	}
	treatment := "use_json_null"
	if len(a) > 4 {
		s, ok := a[4].(string)
		if !ok {
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, `null_value_treatment must be "delete_key", "return_target", "use_json_null", or "raise_exception"`)
		}
		treatment = s
	}
	if a[2] != nil {
		return jsonbSetRow(ctx, a[:min(len(a), 4)])
	}
	switch treatment {
	case "raise_exception":
		return nil, sqlerr.New(sqlerr.NullValueNotAllowed, "JSON value must not be null").
			WithDetail(`Exception was raised because null_value_treatment is "raise_exception".`).
			WithHint("To avoid, either change the null_value_treatment argument or ensure that an SQL NULL is not passed.")
	case "use_json_null":
		b := append([]any{}, a[:min(len(a), 4)]...)
		b[2] = "null"
		return jsonbSetRow(ctx, b)
	case "delete_key":
		return jsonbDeletePathRow(ctx, a[:2])
	case "return_target":
		return a[0], nil
	}
	return nil, sqlerr.New(sqlerr.InvalidParameterValue, `null_value_treatment must be "delete_key", "return_target", "use_json_null", or "raise_exception"`)
}
