package functions

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// The JSON operators -> ->> #> #>> reach this package as the synthetic
// functions the sql rewrite produces (sql/rewrite.go):
//
//	j -> k    pg__json_get(j, k)        json (jsonb for jsonb)
//	j ->> k   pg__json_get_text(j, k)   text
//	j #> p    pg__json_path(j, p)       json (jsonb for jsonb)
//	j #>> p   pg__json_path_text(j, p)  text
//
// k is text (an object key) or int4 (an array element, negative counting
// from the end); p is text[]. A missing key or element, or a step into the
// wrong kind of container, is NULL, as in PostgreSQL. json values keep the
// text as written (PostgreSQL returns the substring of the input); jsonb
// values are stored normalised, so their substrings are normalised too.
func jsonOpFuncs() []*Func {
	get := func(name string, asText bool, key types.T) *Func {
		return &Func{Name: name, Args: []types.T{tAny, key}, Ret: tJSON, Strict: true, specialize: jsonOpSpecialize(name, asText, false), check: jsonOperand}
	}
	path := func(name string, asText bool) *Func {
		return &Func{Name: name, Args: []types.T{tAny, tTextArr}, Ret: tJSON, Strict: true, specialize: jsonOpSpecialize(name, asText, true), check: jsonOperand}
	}
	return []*Func{
		get("pg__json_get", false, tText),
		get("pg__json_get", false, tInt4),
		get("pg__json_get_text", true, tText),
		get("pg__json_get_text", true, tInt4),
		path("pg__json_path", false),
		path("pg__json_path_text", true),
		// the functions behind -> and ->>, which some callers name
		// (json_object_field(j, 'k') is j -> 'k')
		named("json_object_field", "pg__json_get", tJSON, tText, false),
		named("json_object_field_text", "pg__json_get_text", tJSON, tText, true),
		named("json_array_element", "pg__json_get", tJSON, tInt4, false),
		named("json_array_element_text", "pg__json_get_text", tJSON, tInt4, true),
		named("jsonb_object_field", "pg__json_get", tJSONB, tText, false),
		named("jsonb_object_field_text", "pg__json_get_text", tJSONB, tText, true),
		named("jsonb_array_element", "pg__json_get", tJSONB, tInt4, false),
		named("jsonb_array_element_text", "pg__json_get_text", tJSONB, tInt4, true),
	}
}

// named is the function of one json type behind an operator: op's kernel.
func named(name, op string, doc, key types.T, asText bool) *Func {
	ret := doc
	if asText {
		ret = tText
	}
	spec := jsonOpSpecialize(op, asText, false)
	return &Func{Name: name, Args: []types.T{doc, key}, Ret: ret, Strict: true, specialize: spec}
}

// jsonOperand checks the operators' left operand: json or jsonb; an
// untyped literal could be either, which PostgreSQL finds ambiguous.
func jsonOperand(name string, args []types.T) error {
	if len(args) == 2 && args[1].Kind == types.Array && !textArray(args[1]) {
		// #> takes text[]: an int[] path is no match (resolution reads
		// every array as one kind)
		return undefinedFunction(name, args)
	}
	switch {
	case len(args) == 0 || args[0].Variant.IsJSON():
		return nil
	case args[0].Kind == types.Unknown || args[0].Kind == types.Null:
		return notUnique(name, args)
	}
	return undefinedFunction(name, args)
}

// textArray is an array of text, varchar or bpchar elements.
func textArray(t types.T) bool {
	if t.Elem == nil {
		return false
	}
	switch pgTypeOf(*t.Elem) {
	case pgText, pgVarchar, pgBpchar, pgName:
		return true
	}
	return false
}

// jsonOpOperators names each synthetic function's operator for the
// "operator does not exist" error.
var jsonOpOperators = map[string]string{
	"pg__json_get": "->", "pg__json_get_text": "->>",
	"pg__json_path": "#>", "pg__json_path_text": "#>>",
}

func jsonOpSpecialize(name string, asText, isPath bool) func(args []types.T, _ []any) (types.T, Kernel) {
	return func(args []types.T, _ []any) (types.T, Kernel) {
		ret := tText
		if !asText {
			ret = args[0].Nullable()
		}
		if !args[0].Variant.IsJSON() {
			// PostgreSQL defines these operators on json and jsonb only.
			err := sqlerr.New(sqlerr.UndefinedFunction, "operator does not exist: %s %s %s", args[0].PGName(), jsonOpOperators[name], args[1].PGName()).
				WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
			return tText, func(context.Context, memory.Allocator, []arrow.Array, int) (arrow.Array, error) { return nil, err }
		}
		return ret, jsonOpKernel(docModeOf(args[0]), asText, isPath)
	}
}

// jsonAsText is ->>'s result: a JSON string unescaped, null as SQL NULL,
// anything else as its JSON text.
func jsonAsText(v string) (any, error) {
	switch firstNonSpace([]byte(v)) {
	case 'n':
		return nil, nil
	case '"':
		var s string
		if err := json.Unmarshal([]byte(v), &s); err != nil {
			return nil, sqlerr.InvalidJSON()
		}
		if strings.IndexByte(s, 0) >= 0 {
			return nil, sqlerr.New(sqlerr.Code("22P05"), "unsupported Unicode escape sequence").
				WithDetail("%s", `\u0000 cannot be converted to text.`)
		}
		return s, nil
	}
	return v, nil
}

func firstNonSpace(b []byte) byte {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return c
	}
	return 0
}
