package types

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// MapEntry is one key/value pair of a MAP value. A MAP's physical value is
// a []MapEntry in the map's own order (Fluss maps keep order and may hold
// duplicate keys, so a Go map would lose information).
type MapEntry struct {
	Key, Value any
}

// mapValueAt reads row i of a non-null map array.
func mapValueAt(m *array.Map, i int) []MapEntry {
	start, end := m.ValueOffsets(i)
	keys, items := m.Keys(), m.Items()
	out := make([]MapEntry, 0, end-start)
	for k := int(start); k < int(end); k++ {
		out = append(out, MapEntry{Key: ValueAt(keys, k), Value: ValueAt(items, k)})
	}
	return out
}

// appendMap appends a []MapEntry to a map builder; ok is false for another
// Go type.
func appendMap(b *array.MapBuilder, v any) (bool, error) {
	entries, ok := v.([]MapEntry)
	if !ok {
		return false, nil
	}
	b.Append(true)
	for _, e := range entries {
		if e.Key == nil {
			return true, sqlerr.New(sqlerr.NullValueNotAllowed, "map key must not be null")
		}
		if err := AppendValue(b.KeyBuilder(), e.Key); err != nil {
			return true, err
		}
		if err := AppendValue(b.ItemBuilder(), e.Value); err != nil {
			return true, err
		}
	}
	return true, nil
}

// The text forms of MAP and ROW values are the JSON sqlgate prints them in
// (DESIGN.md's type table): a MAP is an array of [key, value] pairs, a ROW
// an object keyed by field name. Input also accepts a JSON object for a
// MAP (its members in order, keys read as the key type) and a JSON array
// for a ROW (fields by position), the forms users most often write.

// jsonMember is one member of a JSON object, in document order.
type jsonMember struct {
	key string
	val any
}

// jsonObject is a decoded JSON object with its members in order.
type jsonObject []jsonMember

// decodeOrderedJSON decodes one JSON document keeping object member order;
// numbers stay json.Number so no digit is lost.
func decodeOrderedJSON(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	v, err := decodeJSONValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, sqlerr.New(sqlerr.InvalidTextRepresentation, "trailing data")
	}
	return v, nil
}

func decodeJSONValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch d := tok.(type) {
	case json.Delim:
		switch d {
		case '[':
			out := []any{}
			for dec.More() {
				v, err := decodeJSONValue(dec)
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return out, nil
		case '{':
			out := jsonObject{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := decodeJSONValue(dec)
				if err != nil {
					return nil, err
				}
				out = append(out, jsonMember{key: k, val: v})
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return out, nil
		}
		return nil, sqlerr.New(sqlerr.InvalidTextRepresentation, "unexpected %v", d)
	}
	return tok, nil
}

// parseNestedText reads the JSON text form of a MAP or ROW (or an ARRAY
// nested in one) as a value of t.
func parseNestedText(s string, t T, loc *time.Location) (any, error) {
	doc, err := decodeOrderedJSON(s)
	if err != nil {
		if se := sqlerr.As(err); se != nil && se.Code != sqlerr.InvalidTextRepresentation {
			return nil, err
		}
		return nil, malformed(t, s)
	}
	v, err := fromJSON(doc, t, loc)
	if err != nil {
		if se := sqlerr.As(err); se != nil && se.Code == sqlerr.InvalidTextRepresentation && se.Detail == "" {
			return nil, malformed(t, s).WithDetail("%s", se.Message)
		}
		return nil, err
	}
	return v, nil
}

func malformed(t T, s string) *sqlerr.Error {
	what := "map"
	switch t.Kind {
	case Row:
		what = "record"
	case Array:
		what = "array"
	}
	return sqlerr.New(sqlerr.InvalidTextRepresentation, "malformed %s literal: %q", what, s)
}

func structural(format string, args ...any) *sqlerr.Error {
	return sqlerr.New(sqlerr.InvalidTextRepresentation, format, args...)
}

// fromJSON converts a decoded JSON value to the physical value of t.
func fromJSON(doc any, t T, loc *time.Location) (any, error) {
	if doc == nil {
		return nil, nil
	}
	switch t.Kind {
	case Map:
		var entries []MapEntry
		add := func(k, v any) error {
			kv, err := fromJSON(k, *t.Key, loc)
			if err != nil {
				return err
			}
			if kv == nil {
				return sqlerr.New(sqlerr.NullValueNotAllowed, "map key must not be null")
			}
			vv, err := fromJSON(v, *t.Elem, loc)
			if err != nil {
				return err
			}
			entries = append(entries, MapEntry{Key: kv, Value: vv})
			return nil
		}
		switch d := doc.(type) {
		case []any:
			for _, p := range d {
				pair, ok := p.([]any)
				if !ok || len(pair) != 2 {
					return nil, structural("a map entry must be a [key, value] pair")
				}
				if err := add(pair[0], pair[1]); err != nil {
					return nil, err
				}
			}
		case jsonObject:
			for _, m := range d {
				if err := add(m.key, m.val); err != nil {
					return nil, err
				}
			}
		default:
			return nil, structural("a map must be a JSON array of [key, value] pairs or a JSON object")
		}
		if entries == nil {
			entries = []MapEntry{}
		}
		return entries, nil
	case Row:
		out := make([]any, len(t.Fields))
		switch d := doc.(type) {
		case jsonObject:
			for _, m := range d {
				idx := -1
				for i, f := range t.Fields {
					if f.Name == m.key {
						idx = i
						break
					}
				}
				if idx < 0 {
					return nil, structural("record has no field %q", m.key)
				}
				v, err := fromJSON(m.val, t.Fields[idx].Type, loc)
				if err != nil {
					return nil, err
				}
				out[idx] = v
			}
		case []any:
			if len(d) != len(t.Fields) {
				return nil, structural("record has %d fields, not %d", len(t.Fields), len(d))
			}
			for i := range d {
				v, err := fromJSON(d[i], t.Fields[i].Type, loc)
				if err != nil {
					return nil, err
				}
				out[i] = v
			}
		default:
			return nil, structural("a record must be a JSON object")
		}
		return out, nil
	case Array:
		d, ok := doc.([]any)
		if !ok {
			if s, isStr := doc.(string); isStr && !t.Elem.IsNested() {
				// PostgreSQL's own array text ('{1,2}') inside the JSON
				return nil, structural("array text %q inside JSON is not supported", s)
			}
			return nil, structural("an array must be a JSON array")
		}
		out := make([]any, len(d))
		for i := range d {
			v, err := fromJSON(d[i], *t.Elem, loc)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	}
	switch d := doc.(type) {
	case string:
		return ParseTextIn(d, t, loc)
	case json.Number:
		if t.Kind == Bool {
			return nil, structural("a number is not a boolean")
		}
		return ParseTextIn(d.String(), t, loc)
	case bool:
		if t.Kind == Bool || t.IsString() {
			return ParseTextIn(strconv.FormatBool(d), t, loc)
		}
		return nil, structural("a boolean is not a %s", t.PGName())
	}
	return nil, structural("a JSON object or array is not a %s", t.PGName())
}

// formatNestedText renders a MAP, ROW or ARRAY value as the JSON sqlgate
// prints for MAP and ROW values.
func formatNestedText(v any, t T, loc *time.Location, st Style) string {
	var b bytes.Buffer
	// JSON writes dates, times and intervals in ISO form whatever the
	// session's DateStyle and IntervalStyle (as PostgreSQL's to_json);
	// only extra_float_digits reaches it
	writeJSON(&b, v, t, loc, Style{Float: st.Float})
	return b.String()
}

func writeJSON(b *bytes.Buffer, v any, t T, loc *time.Location, st Style) {
	if v == nil {
		b.WriteString("null")
		return
	}
	switch t.Kind {
	case Map:
		b.WriteByte('[')
		for i, e := range v.([]MapEntry) {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteByte('[')
			writeJSON(b, e.Key, *t.Key, loc, st)
			b.WriteByte(',')
			writeJSON(b, e.Value, *t.Elem, loc, st)
			b.WriteByte(']')
		}
		b.WriteByte(']')
	case Row:
		b.WriteByte('{')
		for i, f := range t.Fields {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONString(b, f.Name)
			b.WriteByte(':')
			var fv any
			if vs := v.([]any); i < len(vs) {
				fv = vs[i]
			}
			writeJSON(b, fv, f.Type, loc, st)
		}
		b.WriteByte('}')
	case Array:
		b.WriteByte('[')
		for i, e := range v.([]any) {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, e, *t.Elem, loc, st)
		}
		b.WriteByte(']')
	case Bool:
		b.WriteString(FormatTextStyle(v, t, loc, st))
	case Int8, Int16, Int32, Int64, Oid, Decimal:
		b.WriteString(FormatTextStyle(v, t, loc, st))
	case Float32, Float64:
		s := FormatTextStyle(v, t, loc, st)
		if s == "NaN" || strings.HasSuffix(s, "Infinity") {
			writeJSONString(b, s)
		} else {
			b.WriteString(s)
		}
	case Timestamp, TimestampTZ:
		// JSON's ISO 8601 form, as PostgreSQL's to_json
		writeJSONString(b, strings.Replace(FormatTextStyle(v, t, loc, st), " ", "T", 1))
	default:
		writeJSONString(b, FormatTextStyle(v, t, loc, st))
	}
}

func writeJSONString(b *bytes.Buffer, s string) {
	enc, _ := json.Marshal(s)
	// json.Marshal escapes <, > and & for HTML; PostgreSQL does not
	enc = bytes.ReplaceAll(enc, []byte(`\u003c`), []byte("<"))
	enc = bytes.ReplaceAll(enc, []byte(`\u003e`), []byte(">"))
	enc = bytes.ReplaceAll(enc, []byte(`\u0026`), []byte("&"))
	b.Write(enc)
}
