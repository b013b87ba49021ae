package types

import (
	"bytes"
	"encoding/json"
	"github.com/sqlgate/sqlgate/types/jsonpath"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// ParseJSON is json's (normalize false) and jsonb's (normalize true) text
// input: the text must be one JSON value. json keeps the text as written;
// jsonb prints it as PostgreSQL's jsonb output does: object keys sorted
// (shorter first, then bytewise) with the last of duplicate keys kept, one
// space after ':' and ',', numbers as numeric prints them (1e2 is 100).
func ParseJSON(s string, normalize bool) (string, error) {
	bad := func() (string, error) {
		// jsonb's input reports json too, as PostgreSQL's does
		return "", sqlerr.InvalidJSON()
	}
	if !normalize {
		if !json.Valid([]byte(s)) {
			return bad()
		}
		return s, nil
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var b bytes.Buffer
	if err := writeJSONB(&b, dec); err != nil {
		return bad()
	}
	if _, err := dec.Token(); err != io.EOF {
		return bad()
	}
	if err := CheckJSONBEscapes([]byte(s)); err != nil {
		return "", err
	}
	return b.String(), nil
}

// writeJSONB reads one value from dec and writes its jsonb form.
func writeJSONB(b *bytes.Buffer, dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch v := tok.(type) {
	case json.Delim:
		switch v {
		case '[':
			b.WriteByte('[')
			for i := 0; dec.More(); i++ {
				if i > 0 {
					b.WriteString(", ")
				}
				if err := writeJSONB(b, dec); err != nil {
					return err
				}
			}
			if _, err := dec.Token(); err != nil {
				return err
			}
			b.WriteByte(']')
		case '{':
			vals := map[string]string{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return err
				}
				k, _ := kt.(string)
				var vb bytes.Buffer
				if err := writeJSONB(&vb, dec); err != nil {
					return err
				}
				vals[k] = vb.String() // the last duplicate wins, as in jsonb
			}
			if _, err := dec.Token(); err != nil {
				return err
			}
			keys := make([]string, 0, len(vals))
			for k := range vals {
				keys = append(keys, k)
			}
			sort.Slice(keys, func(i, j int) bool {
				if len(keys[i]) != len(keys[j]) {
					return len(keys[i]) < len(keys[j])
				}
				return keys[i] < keys[j]
			})
			b.WriteByte('{')
			for i, k := range keys {
				if i > 0 {
					b.WriteString(", ")
				}
				writeJSONBString(b, k)
				b.WriteString(": ")
				b.WriteString(vals[k])
			}
			b.WriteByte('}')
		}
	case string:
		writeJSONBString(b, v)
	case json.Number:
		b.WriteString(jsonbNumber(string(v)))
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case nil:
		b.WriteString("null")
	}
	return nil
}

// QuoteJSON is s as a JSON string, quoted as PostgreSQL's escape_json
// quotes it (json_build_object, row_to_json, jsonb output).
func QuoteJSON(s string) string {
	var b bytes.Buffer
	b.Grow(len(s) + 2)
	writeJSONBString(&b, s)
	return b.String()
}

// writeJSONBString quotes s as PostgreSQL's escape_json does
// (jsonpath.AppendJSONString).
func writeJSONBString(b *bytes.Buffer, s string) {
	b.Write(jsonpath.AppendJSONString(b.AvailableBuffer(), s))
}

// jsonbNumber prints a JSON number as PostgreSQL's numeric does: the
// exponent is applied (1.5e1 is 15, 1e-2 is 0.01, keeping the digits the
// mantissa and exponent imply) and a negative zero loses its sign.
func jsonbNumber(n string) string {
	neg := strings.HasPrefix(n, "-")
	n = strings.TrimPrefix(n, "-")
	mant, exp := n, 0
	if i := strings.IndexAny(n, "eE"); i >= 0 {
		e, err := strconv.Atoi(n[i+1:])
		if err != nil {
			return n
		}
		mant, exp = n[:i], e
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	scale := len(frac) - exp
	if scale < 0 {
		digits += strings.Repeat("0", -scale)
		scale = 0
	}
	if digits == "" {
		digits = "0"
	}
	if len(digits) <= scale {
		digits = strings.Repeat("0", scale-len(digits)+1) + digits
	}
	out := digits
	if scale > 0 {
		out = digits[:len(digits)-scale] + "." + digits[len(digits)-scale:]
	}
	if neg && strings.Trim(out, "0.") != "" {
		out = "-" + out
	}
	return out
}

// JSONBScalarCast reports whether from -> to is one of pg_cast's explicit
// casts from jsonb to a number or boolean (jsonb_numeric, jsonb_int4,
// jsonb_bool ...; exec/jsonbcast.go runs them), with the name those
// functions give the target in their errors.
func JSONBScalarCast(from, to T) (string, bool) {
	if from.Variant != JSONB || from.Kind != String || to.Variant != NoVariant {
		return "", false
	}
	switch to.Kind {
	case Bool:
		return "boolean", true
	case Int8, Int16:
		return "smallint", true
	case Int32:
		return "integer", true
	case Int64:
		return "bigint", true
	case Float32:
		return "real", true
	case Float64:
		return "double precision", true
	case Decimal:
		return "numeric", true
	}
	return "", false
}
