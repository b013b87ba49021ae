package functions

import (
	"encoding/json"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types/jsonpath"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// The values jsonpath evaluation works on (jsonpath.go): a jsonb
// document decoded with its objects' keys in jsonb's order (shorter
// first, then bytewise) and its numbers as numeric, so that .* and
// .keyvalue() visit members as PostgreSQL does and arithmetic is
// numeric's. A value is nil (JSON null), bool, string, *apd.Decimal,
// []any or *jpObject.

type jpObject struct {
	keys []string
	vals []any
}

func (o *jpObject) get(k string) (any, bool) {
	i := sort.Search(len(o.keys), func(i int) bool { return !jsonbKeyLess(o.keys[i], k) })
	if i < len(o.keys) && o.keys[i] == k {
		return o.vals[i], true
	}
	return nil, false
}

// jsonbKeyLess is jsonb's key order: shorter first, then bytewise.
func jsonbKeyLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// jpDecode decodes a jsonb text.
func jpDecode(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	v, err := jpDecodeValue(dec)
	if err != nil {
		return nil, sqlerr.InvalidJSON()
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, sqlerr.InvalidJSON()
	}
	return v, nil
}

func jpDecodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			arr := []any{}
			for dec.More() {
				v, err := jpDecodeValue(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			_, err := dec.Token()
			return arr, err
		}
		m := map[string]any{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := jpDecodeValue(dec)
			if err != nil {
				return nil, err
			}
			m[kt.(string)] = v
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		return jpObjectOf(m), nil
	case json.Number:
		return numeric.Parse(string(t))
	default:
		return t, nil // string, bool, nil
	}
}

// jpObjectOf is the object of m's members, in jsonb's key order.
func jpObjectOf(m map[string]any) *jpObject {
	o := &jpObject{keys: make([]string, 0, len(m))}
	for k := range m {
		o.keys = append(o.keys, k)
	}
	sort.Slice(o.keys, func(i, j int) bool { return jsonbKeyLess(o.keys[i], o.keys[j]) })
	o.vals = make([]any, len(o.keys))
	for i, k := range o.keys {
		o.vals[i] = m[k]
	}
	return o
}

// jpEncode is v's jsonb text.
func jpEncode(v any) string {
	var b strings.Builder
	jpWrite(&b, v)
	return b.String()
}

func jpWrite(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case string:
		b.WriteString(jsonpath.Quote(x))
	case *apd.Decimal:
		b.WriteString(numeric.String(x))
	case jpDatetime:
		b.WriteString(jsonpath.Quote(x.text))
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			jpWrite(b, e)
		}
		b.WriteByte(']')
	case *jpObject:
		b.WriteByte('{')
		for i, k := range x.keys {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(jsonpath.Quote(k))
			b.WriteString(": ")
			jpWrite(b, x.vals[i])
		}
		b.WriteByte('}')
	}
}

// jpDatetime is a datetime item (.datetime()): its type's name and its
// value printed as PostgreSQL's jsonb output of it prints it.
type jpDatetime struct {
	typ  string // date, time without time zone, ...
	text string
}
