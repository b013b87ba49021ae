package functions

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// The json and jsonb function family over JSON text: jsonb_build_object,
// jsonb_build_array, to_jsonb, json(b)_typeof, json(b)_array_length,
// json(b)_strip_nulls, json(b)_extract_path(_text), jsonb_set,
// jsonb_pretty, and the set-returning json(b)_object_keys,
// json(b)_array_elements(_text) and json(b)_each(_text). jsonb values are
// held as PostgreSQL prints jsonb (types.ParseJSON normalises them), so a
// jsonb result is built as JSON text and normalised; json values keep the
// text as written, and their parts are substrings of it, as in PostgreSQL.

var tJSONB = types.JSONBType

// jsonbOf turns a json-building specialisation into its jsonb twin: the
// same JSON, normalised as jsonb prints.
func jsonbOf(spec func([]types.T, []any) (types.T, Kernel)) func([]types.T, []any) (types.T, Kernel) {
	return func(args []types.T, consts []any) (types.T, Kernel) {
		_, k := spec(args, consts)
		return tJSONB, func(ctx context.Context, mem memory.Allocator, in []arrow.Array, n int) (arrow.Array, error) {
			out, err := k(ctx, mem, in, n)
			if err != nil {
				return nil, err
			}
			defer out.Release()
			s := out.(*array.String)
			b := array.NewStringBuilder(mem)
			defer b.Release()
			for i := 0; i < n; i++ {
				if s.IsNull(i) {
					b.AppendNull()
					continue
				}
				v, err := types.ParseJSON(s.Value(i), true)
				if err != nil {
					return nil, err
				}
				b.Append(v)
			}
			return b.NewArray(), nil
		}
	}
}

// JSONKind is the type of the JSON value that doc holds: object, array,
// string, number, boolean or null.
func JSONKind(doc string) string {
	switch firstNonSpace([]byte(doc)) {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// jsonElements splits a JSON array's text into its elements' texts (as
// written); ok false when doc is not an array.
func jsonElements(doc string) ([]string, bool, error) {
	if JSONKind(doc) != "array" {
		return nil, false, nil
	}
	var raw []json.RawMessage
	if err := json.Unmarshal([]byte(doc), &raw); err != nil {
		return nil, true, sqlerr.InvalidJSON()
	}
	out := make([]string, len(raw))
	for k, r := range raw {
		out[k] = string(r)
	}
	return out, true, nil
}

// jsonField is one key and value text of an object, in document order.
type jsonField struct{ key, value string }

// jsonFields splits a JSON object's text into its fields, in order (for
// jsonb the normalised order, with duplicate keys already merged).
func jsonFields(doc string) ([]jsonField, bool, error) {
	if JSONKind(doc) != "object" {
		return nil, false, nil
	}
	dec := json.NewDecoder(strings.NewReader(doc))
	bad := sqlerr.InvalidJSON()
	if _, err := dec.Token(); err != nil {
		return nil, true, bad
	}
	var out []jsonField
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, true, bad
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, true, bad
		}
		out = append(out, jsonField{k.(string), string(v)})
	}
	return out, true, nil
}

func jsonFuncsFamily() []*Func {
	var fs []*Func
	for _, t := range []types.T{tJSON, tJSONB} {
		pre := "json"
		if t.Variant == types.JSONB {
			pre = "jsonb"
		}
		fs = append(fs,
			&Func{Name: pre + "_typeof", Args: []types.T{t}, Ret: tText, Strict: true, Kernel: rawRowFunc(tText, func(a []arrow.Array, i int) (any, error) {
				return JSONKind(strArg(a, 0, i)), nil
			})},
			&Func{Name: pre + "_array_length", Args: []types.T{t}, Ret: tInt4, Strict: true, Kernel: rawRowFunc(tInt4, func(a []arrow.Array, i int) (any, error) {
				doc := strArg(a, 0, i)
				els, ok, err := jsonElements(doc)
				if err != nil {
					return nil, err
				}
				if !ok {
					if JSONKind(doc) == "object" {
						return nil, sqlerr.New(sqlerr.InvalidParameterValue, "cannot get array length of a non-array")
					}
					return nil, sqlerr.New(sqlerr.InvalidParameterValue, "cannot get array length of a scalar")
				}
				return int64(len(els)), nil
			})},
			&Func{Name: pre + "_strip_nulls", Args: []types.T{t}, Ret: t, Strict: true, Kernel: rawRowFunc(t, stripNullsRow(t.Variant == types.JSONB))},
			&Func{Name: pre + "_extract_path", Args: []types.T{t, tText}, Variadic: true, Ret: t, Strict: true, Kernel: extractPathKernel(t, false)},
			&Func{Name: pre + "_extract_path_text", Args: []types.T{t, tText}, Variadic: true, Ret: tText, Strict: true, Kernel: extractPathKernel(t, true)},
		)
	}
	fs = append(fs,
		&Func{Name: "jsonb_build_object", Args: []types.T{tAny}, Variadic: true, Ret: tJSONB, specialize: jsonbOf(jsonBuildObjectSpecialize)},
		&Func{Name: "jsonb_build_object", Ret: tJSONB, Kernel: rawRowFunc(tJSONB, func([]arrow.Array, int) (any, error) { return "{}", nil })},
		&Func{Name: "jsonb_build_array", Args: []types.T{tAny}, Variadic: true, Ret: tJSONB, specialize: jsonbOf(jsonBuildArraySpecialize)},
		&Func{Name: "jsonb_build_array", Ret: tJSONB, Kernel: rawRowFunc(tJSONB, func([]arrow.Array, int) (any, error) { return "[]", nil })},
		&Func{Name: "to_jsonb", Args: []types.T{tAny}, Ret: tJSONB, Strict: true, specialize: jsonbOf(toJSONSpecialize)},
		&Func{Name: "jsonb_set", Args: []types.T{tJSONB, tTextArr, tJSONB}, Ret: tJSONB, Strict: true, Kernel: rowFunc(tJSONB, true, jsonbSetRow)},
		&Func{Name: "jsonb_set", Args: []types.T{tJSONB, tTextArr, tJSONB, tBool}, Ret: tJSONB, Strict: true, Kernel: rowFunc(tJSONB, true, jsonbSetRow)},
		&Func{Name: "jsonb_pretty", Args: []types.T{tJSONB}, Ret: tText, Strict: true, Kernel: rawRowFunc(tText, func(a []arrow.Array, i int) (any, error) {
			dec := json.NewDecoder(strings.NewReader(strArg(a, 0, i)))
			dec.UseNumber()
			var b strings.Builder
			if err := prettyJSON(&b, dec, 0); err != nil {
				return nil, sqlerr.InvalidJSON()
			}
			return b.String(), nil
		})},
	)
	return fs
}

// stripNullsRow is json(b)_strip_nulls: object fields whose value is null
// are dropped, at every depth (array elements stay). json's result is
// compact, as PostgreSQL's re-emitted json is.
func stripNullsRow(jsonb bool) func([]arrow.Array, int) (any, error) {
	return func(a []arrow.Array, i int) (any, error) {
		dec := json.NewDecoder(strings.NewReader(strArg(a, 0, i)))
		dec.UseNumber()
		var b strings.Builder
		if err := stripNulls(&b, dec); err != nil {
			return nil, sqlerr.InvalidJSON()
		}
		if jsonb {
			return types.ParseJSON(b.String(), true)
		}
		return b.String(), nil
	}
}

func stripNulls(b *strings.Builder, dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	return stripNullsTok(b, dec, tok)
}

func stripNullsTok(b *strings.Builder, dec *json.Decoder, tok json.Token) error {
	switch x := tok.(type) {
	case json.Delim:
		if x == '[' {
			b.WriteByte('[')
			for n := 0; dec.More(); n++ {
				if n > 0 {
					b.WriteByte(',')
				}
				if err := stripNulls(b, dec); err != nil {
					return err
				}
			}
			b.WriteByte(']')
		} else {
			b.WriteByte('{')
			n := 0
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				v, err := dec.Token()
				if err != nil {
					return err
				}
				if v == nil {
					continue
				}
				if n > 0 {
					b.WriteByte(',')
				}
				n++
				b.WriteString(jsonQuote(k.(string)))
				b.WriteByte(':')
				if err := stripNullsTok(b, dec, v); err != nil {
					return err
				}
			}
			b.WriteByte('}')
		}
		_, err := dec.Token() // the closing delimiter
		return err
	case string:
		b.WriteString(jsonQuote(x))
	case json.Number:
		b.WriteString(x.String())
	case bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case nil:
		b.WriteString("null")
	}
	return nil
}

// jsonbSetRow is jsonb_set(target, path, new_value [, create_missing]):
// the value at path replaced (or, with create_missing, the last step's key
// or element added), as PostgreSQL's setPath does.
func jsonbSetRow(_ context.Context, v []any) (any, error) {
	doc, _ := v[0].(string)
	pathAny, _ := v[1].([]any)
	newVal, _ := v[2].(string)
	create := true
	if len(v) > 3 {
		create, _ = v[3].(bool)
	}
	path, err := textPath(pathAny)
	if err != nil {
		return nil, err
	}
	var root any
	dec := json.NewDecoder(strings.NewReader(doc))
	dec.UseNumber()
	if err := dec.Decode(&root); err != nil {
		return nil, sqlerr.InvalidJSON()
	}
	var nv any
	dec = json.NewDecoder(strings.NewReader(newVal))
	dec.UseNumber()
	if err := dec.Decode(&nv); err != nil {
		return nil, sqlerr.InvalidJSON()
	}
	switch root.(type) {
	case map[string]any, []any:
	default:
		return nil, sqlerr.New(sqlerr.InvalidParameterValue, "cannot set path in scalar")
	}
	if !create && jsonEmptyContainer(root) {
		return doc, nil // jsonb_set returns an empty input untouched without create, before reading the path
	}
	if len(path) == 0 {
		return doc, nil
	}
	out, err := setPath(root, path, 0, nv, create)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return types.ParseJSON(strings.TrimSpace(b.String()), true)
}

// jsonLeaf is what a path operation does at the path's last step, in an
// object (key) or an array (the index as written, negative from the end).
type jsonLeaf struct {
	object func(x map[string]any, key string) (any, error)
	array  func(x []any, idx int) (any, error)
}

// walkJSONPath walks path down a decoded document and applies leaf at its
// last step, as PostgreSQL's setPath walks: a missing key or an index out
// of range above the last step leaves the document as it is.
func walkJSONPath(node any, path []string, level int, leaf jsonLeaf) (any, error) {
	step := path[level]
	last := level == len(path)-1
	switch x := node.(type) {
	case map[string]any:
		if last {
			return leaf.object(x, step)
		}
		if child, ok := x[step]; ok {
			c, err := walkJSONPath(child, path, level+1, leaf)
			if err != nil {
				return nil, err
			}
			x[step] = c
		}
		return x, nil
	case []any:
		idx, err := parsePathIndex(step, level)
		if err != nil {
			return nil, err
		}
		if last {
			return leaf.array(x, idx)
		}
		if idx < 0 {
			idx += len(x)
		}
		if idx < 0 || idx >= len(x) {
			return x, nil
		}
		c, err := walkJSONPath(x[idx], path, level+1, leaf)
		if err != nil {
			return nil, err
		}
		x[idx] = c
		return x, nil
	}
	return node, nil
}

// setPath is jsonb_set's step: replace (or, with create, add) the value.
func setPath(node any, path []string, level int, nv any, create bool) (any, error) {
	return walkJSONPath(node, path, level, jsonLeaf{
		object: func(x map[string]any, key string) (any, error) {
			if _, ok := x[key]; ok || create {
				x[key] = nv
			}
			return x, nil
		},
		array: func(x []any, idx int) (any, error) {
			n := len(x)
			if idx < 0 {
				idx += n
			}
			switch {
			case idx < 0:
				if create {
					return append([]any{nv}, x...), nil
				}
			case idx >= n:
				if create {
					return append(x, nv), nil
				}
			default:
				x[idx] = nv
			}
			return x, nil
		},
	})
}

func parsePathIndex(s string, level int) (int, error) {
	n := 0
	neg := false
	t := s
	if strings.HasPrefix(t, "-") {
		neg, t = true, t[1:]
	}
	if t == "" || len(t) > 9 {
		return 0, badPathElem(s, level)
	}
	for _, c := range t {
		if c < '0' || c > '9' {
			return 0, badPathElem(s, level)
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, nil
}

func badPathElem(s string, level int) error {
	return sqlerr.New(sqlerr.InvalidTextRepresentation, "path element at position %d is not an integer: \"%s\"", level+1, s)
}

// resolveJSONSetFunc is json(b)_object_keys, json(b)_array_elements(_text)
// and json(b)_each(_text); nil when name or the arguments do not fit.
func resolveJSONSetFunc(name string, args []types.T) *SetFunc {
	if len(args) != 1 {
		return nil
	}
	jt := tJSON
	base := strings.TrimPrefix(name, "json_")
	if strings.HasPrefix(name, "jsonb_") {
		jt, base = tJSONB, strings.TrimPrefix(name, "jsonb_")
	}
	a := args[0]
	if pgTypeOf(a) != pgUnknown && !(a.Kind == types.String && a.Variant == jt.Variant) {
		return nil
	}
	want := []types.T{jt}
	switch base {
	case "object_keys":
		return &SetFunc{Name: name, Args: want, Ret: tText, Rows: func(_ context.Context, v []any) (func() (any, bool, error), error) {
			fs, err := fieldsOf(v, name)
			if err != nil {
				return nil, err
			}
			items := make([]any, len(fs))
			for k, f := range fs {
				items[k] = f.key
			}
			return listRows(items), nil
		}}
	case "array_elements", "array_elements_text":
		asText := base == "array_elements_text"
		ret := jt
		if asText {
			ret = tText
		}
		return &SetFunc{Name: name, OutName: "value", Args: want, Ret: ret, Rows: func(_ context.Context, v []any) (func() (any, bool, error), error) {
			if v[0] == nil {
				return none, nil
			}
			doc := v[0].(string)
			els, ok, err := jsonElements(doc)
			if err != nil {
				return nil, err
			}
			if !ok {
				if JSONKind(doc) == "object" {
					return nil, sqlerr.New(sqlerr.InvalidParameterValue, "cannot extract elements from an object")
				}
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "cannot extract elements from a scalar")
			}
			items := make([]any, len(els))
			for k, e := range els {
				if asText {
					if items[k], err = jsonAsText(e); err != nil {
						return nil, err
					}
				} else {
					items[k] = e
				}
			}
			return listRows(items), nil
		}}
	case "each", "each_text":
		asText := base == "each_text"
		vt := jt
		if asText {
			vt = tText
		}
		ret := types.T{Kind: types.Row, Fields: []types.Field{{Name: "key", Type: tText}, {Name: "value", Type: vt}}}
		return &SetFunc{Name: name, Args: want, Ret: ret, Rows: func(_ context.Context, v []any) (func() (any, bool, error), error) {
			fs, err := fieldsOf(v, name)
			if err != nil {
				return nil, err
			}
			items := make([]any, len(fs))
			for k, f := range fs {
				var val any = f.value
				if asText {
					if val, err = jsonAsText(f.value); err != nil {
						return nil, err
					}
				}
				items[k] = []any{f.key, val}
			}
			return listRows(items), nil
		}}
	}
	return nil
}

// fieldsOf reads the object argument of a set-returning JSON function.
func fieldsOf(v []any, name string) ([]jsonField, error) {
	if v[0] == nil {
		return nil, nil
	}
	doc := v[0].(string)
	fs, ok, err := jsonFields(doc)
	if err != nil {
		return nil, err
	}
	if !ok {
		if name == "json_each" || name == "json_each_text" {
			// json's each_worker reports the structure it met
			if JSONKind(doc) == "array" {
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "cannot deconstruct an array as an object")
			}
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "cannot deconstruct a scalar")
		}
		what := "a scalar"
		switch {
		case !strings.HasSuffix(name, "object_keys"):
			what = "a non-object"
		case JSONKind(doc) == "array":
			what = "an array"
		}
		return nil, sqlerr.New(sqlerr.InvalidParameterValue, "cannot call %s on %s", name, what)
	}
	return fs, nil
}

// prettyJSON is jsonb_pretty's layout: four spaces per level, one member
// or element per line, and an empty container as its brackets on two
// lines.
func prettyJSON(b *strings.Builder, dec *json.Decoder, level int) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		var sb strings.Builder
		if err := stripNullsTok(&sb, dec, tok); err != nil {
			return err
		}
		b.WriteString(sb.String())
		return nil
	}
	closer := byte(']')
	if d == '{' {
		closer = '}'
	}
	b.WriteByte(byte(d))
	for n := 0; dec.More(); n++ {
		if n > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n" + strings.Repeat("    ", level+1))
		if d == '{' {
			k, err := dec.Token()
			if err != nil {
				return err
			}
			b.WriteString(jsonQuote(k.(string)) + ": ")
		}
		if err := prettyJSON(b, dec, level+1); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return err
	}
	b.WriteString("\n" + strings.Repeat("    ", level))
	b.WriteByte(closer)
	return nil
}

// jsonEmptyContainer reports {} and [].
func jsonEmptyContainer(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		return len(x) == 0
	case []any:
		return len(x) == 0
	}
	return false
}
