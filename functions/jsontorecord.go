package functions

import (
	"context"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// json_to_record, jsonb_to_record, json_to_recordset and
// jsonb_to_recordset: functions returning record, which PostgreSQL lets a
// FROM item call only with a column definition list
// (FROM json_to_record(j) AS x(a int, b text)).
//
// The functions here produce each column's value as PostgreSQL's
// populate_record_field hands it to the column type's input function: a
// JSON string's contents, the text of any other scalar, the JSON text of
// an object; the JSON text itself for a json or jsonb column; for an array
// column a JSON array becomes the array's text form (a JSON string is
// array text already). The binder casts each text to the column's type
// (binder/srf.go), so the input rules and their errors are the type's
// own, in the session's TimeZone.

// RecordColumnKind is how a column of a column definition list takes its
// JSON value.
type RecordColumnKind int

const (
	// RecordScalar: the input function of a scalar type reads the text.
	RecordScalar RecordColumnKind = iota
	// RecordJSON: json or jsonb, which take the JSON text itself.
	RecordJSON
	// RecordArray: an array type, which takes a JSON array or array text.
	RecordArray
)

// RecordColumn is one column of a column definition list.
type RecordColumn struct {
	Name string
	Kind RecordColumnKind
	// Input, when set, is a character type with a length whose input
	// function the text goes through here (22001 for a value too long),
	// since the caller's cast to it would truncate instead.
	Input *types.T
}

// ReturnsRecord reports whether name is a built-in function returning
// record, which needs a column definition list in FROM.
func ReturnsRecord(name string) bool {
	switch strings.ToLower(name) {
	case "json_to_record", "jsonb_to_record", "json_to_recordset", "jsonb_to_recordset":
		return true
	}
	return false
}

// ResolveRecordFunc resolves a function returning record with the
// columns of its definition list: the result is a row of text fields,
// one per column, which the caller casts to the columns' types. A nil
// result with no error means no such function for these arguments.
func ResolveRecordFunc(name string, args []types.T, cols []RecordColumn) *SetFunc {
	lname := strings.ToLower(name)
	if !ReturnsRecord(lname) || len(args) != 1 {
		return nil
	}
	jt := tJSON
	if strings.HasPrefix(lname, "jsonb_") {
		jt = tJSONB
	}
	if a := args[0]; pgTypeOf(a) != pgUnknown && !(a.Kind == types.String && a.Variant == jt.Variant) {
		return nil
	}
	fields := make([]types.Field, len(cols))
	for k, c := range cols {
		fields[k] = types.Field{Name: c.Name, Type: tText}
	}
	ret := types.T{Kind: types.Row, Fields: fields}
	set := strings.HasSuffix(lname, "recordset")
	return &SetFunc{Name: lname, Args: []types.T{jt}, Ret: ret, Rows: func(_ context.Context, v []any) (func() (any, bool, error), error) {
		if v[0] == nil {
			if set {
				return none, nil
			}
			// populate_record of a NULL document: one row of NULLs
			return listRows([]any{make([]any, len(cols))}), nil
		}
		doc := v[0].(string)
		if !set {
			row, err := jsonRecordRow(doc, cols, lname)
			if err != nil {
				return nil, err
			}
			return listRows([]any{row}), nil
		}
		els, ok, err := jsonElements(doc)
		if err != nil {
			return nil, err
		}
		if !ok {
			// json's parser names what it met; jsonb's check does not
			what := "a non-array"
			if jt.Variant != types.JSONB {
				what = "a scalar"
				if jsonKind(doc) == "object" {
					what = "an object"
				}
			}
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "cannot call %s on %s", lname, what)
		}
		k := 0
		return func() (any, bool, error) {
			if k >= len(els) {
				return nil, false, nil
			}
			el := els[k]
			k++
			if jsonKind(el) != "object" {
				return nil, false, sqlerr.New(sqlerr.InvalidParameterValue, "argument of %s must be an array of objects", lname)
			}
			row, err := jsonRecordRow(el, cols, lname)
			return row, err == nil, err
		}, nil
	}}
}

// jsonRecordRow reads one object into the columns' texts; a key the
// object lacks, or a JSON null, is NULL. Of duplicate keys (json) the last
// wins, as PostgreSQL's hash of the object's fields keeps it.
func jsonRecordRow(doc string, cols []RecordColumn, name string) ([]any, error) {
	fs, ok, err := jsonFields(doc)
	if err != nil {
		return nil, err
	}
	if !ok {
		// populate_composite's words, whatever the function
		what := "a scalar"
		if jsonKind(doc) == "array" {
			what = "an array"
		}
		return nil, sqlerr.New(sqlerr.InvalidParameterValue, "cannot call populate_composite on %s", what)
	}
	byKey := make(map[string]string, len(fs))
	for _, f := range fs {
		byKey[f.key] = f.value
	}
	row := make([]any, len(cols))
	for k, c := range cols {
		val, found := byKey[c.Name]
		if !found || jsonKind(val) == "null" {
			continue
		}
		switch c.Kind {
		case RecordJSON:
			row[k] = strings.TrimSpace(val)
		case RecordArray:
			if jsonKind(val) == "array" {
				var b strings.Builder
				if err := jsonArrayText(&b, val, c.Name); err != nil {
					return nil, err
				}
				row[k] = b.String()
				continue
			}
			if jsonKind(val) != "string" {
				return nil, expectedJSONArray(c.Name)
			}
			fallthrough
		default:
			if row[k], err = jsonAsText(val); err != nil {
				return nil, err
			}
			if c.Input != nil && row[k] != nil {
				if row[k], err = types.ParseText(row[k].(string), *c.Input); err != nil {
					return nil, err
				}
			}
		}
	}
	return row, nil
}

func expectedJSONArray(key string) error {
	return sqlerr.New(sqlerr.InvalidTextRepresentation, "expected JSON array").
		WithHint("See the value of key %q.", key)
}

// jsonArrayText writes a JSON array as PostgreSQL's array text: elements
// quoted with backslash escapes, null as NULL, nested arrays as inner
// braces (the input of the column's type then decides what it accepts).
func jsonArrayText(b *strings.Builder, doc, key string) error {
	els, _, err := jsonElements(doc)
	if err != nil {
		return err
	}
	b.WriteByte('{')
	for i, el := range els {
		if i > 0 {
			b.WriteByte(',')
		}
		switch jsonKind(el) {
		case "null":
			b.WriteString("NULL")
		case "array":
			if err := jsonArrayText(b, el, key); err != nil {
				return err
			}
		default:
			t, err := jsonAsText(el)
			if err != nil {
				return err
			}
			s := t.(string)
			b.WriteByte('"')
			for _, r := range s {
				if r == '"' || r == '\\' {
					b.WriteByte('\\')
				}
				b.WriteRune(r)
			}
			b.WriteByte('"')
		}
	}
	b.WriteByte('}')
	return nil
}
