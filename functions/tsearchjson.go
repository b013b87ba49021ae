package functions

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/types/tsearch"
)

// to_tsvector over json and jsonb documents, and json_to_tsvector and
// jsonb_to_tsvector with their filter of value kinds: the values the
// filter takes, in document order, through the configuration
// (tsearch's ToVectorParts). jsonb's text is stored normalised, so its
// order is jsonb's and its numbers print as jsonb's do.

// The value kinds of a filter (jsonfuncs.c's JsonToIndex flags).
const (
	jsonTSString = 1 << iota
	jsonTSNumeric
	jsonTSBool
	jsonTSKey
	jsonTSAll = jsonTSString | jsonTSNumeric | jsonTSBool | jsonTSKey
)

const jsonTSFlagHint = `Possible values are: "string", "numeric", "boolean", "key", and "all".`

// jsonTSFlags is parse_jsonb_index_flags: an array of kind names (a
// scalar is an array of one), case-insensitive.
func jsonTSFlags(filter string) (int, error) {
	d := json.NewDecoder(strings.NewReader(filter))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return 0, err
	}
	elems, ok := v.([]any)
	if !ok {
		if _, isObject := v.(map[string]any); isObject {
			return 0, sqlerr.New(sqlerr.InvalidParameterValue, "wrong flag type, only arrays and scalars are allowed")
		}
		elems = []any{v}
	}
	flags := 0
	for _, e := range elems {
		s, ok := e.(string)
		if !ok {
			return 0, sqlerr.New(sqlerr.InvalidParameterValue, "flag array element is not a string").WithHint(jsonTSFlagHint)
		}
		switch strings.ToLower(s) {
		case "all":
			flags |= jsonTSAll
		case "key":
			flags |= jsonTSKey
		case "string":
			flags |= jsonTSString
		case "numeric":
			flags |= jsonTSNumeric
		case "boolean":
			flags |= jsonTSBool
		default:
			return 0, sqlerr.New(sqlerr.InvalidParameterValue, "wrong flag in flag array: \"%s\"", s).WithHint(jsonTSFlagHint)
		}
	}
	return flags, nil
}

// jsonTSParts are the document's keys and scalar values that flags
// take, in document order (iterate_json_values).
func jsonTSParts(doc string, flags int) ([]string, error) {
	d := json.NewDecoder(strings.NewReader(doc))
	d.UseNumber()
	// inObject[i]: the i-th open container is an object; key: the next
	// string of the innermost object is a key
	var inObject []bool
	key := false
	var parts []string
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return parts, nil
		}
		if err != nil {
			return nil, err
		}
		if delim, ok := tok.(json.Delim); ok {
			switch delim {
			case '{':
				inObject = append(inObject, true)
				key = true
			case '[':
				inObject = append(inObject, false)
				key = false
			default:
				inObject = inObject[:len(inObject)-1]
				key = len(inObject) > 0 && inObject[len(inObject)-1]
			}
			continue
		}
		isKey := key
		key = len(inObject) > 0 && inObject[len(inObject)-1] && !isKey
		switch x := tok.(type) {
		case string:
			if isKey && flags&jsonTSKey != 0 || !isKey && flags&jsonTSString != 0 {
				parts = append(parts, x)
			}
		case json.Number:
			if flags&jsonTSNumeric != 0 {
				parts = append(parts, string(x))
			}
		case bool:
			if flags&jsonTSBool != 0 {
				parts = append(parts, map[bool]string{true: "true", false: "false"}[x])
			}
		}
	}
}

// jsonTSFuncs are to_tsvector([regconfig,] json|jsonb) (string values)
// and json_to_tsvector / jsonb_to_tsvector([regconfig,] doc, filter).
func jsonTSFuncs() []*Func {
	var fs []*Func
	add := func(name string, doc types.T, withFilter bool) {
		for _, withCfg := range []bool{true, false} {
			var args []types.T
			if withCfg {
				args = append(args, tRegConfig)
			}
			args = append(args, doc)
			if withFilter {
				args = append(args, tJSONB)
			}
			fs = append(fs, &Func{Name: name, Args: args, Ret: tTSVector, Strict: true, Volatile: !withCfg,
				Kernel: rowFunc(tTSVector, true, func(ctx context.Context, v []any) (any, error) {
					var c *tsearch.Config
					var err error
					if withCfg {
						c, err = tsearch.LookupConfig(v[0].(string))
						v = v[1:]
					} else {
						c, err = currentConfig(ctx)
					}
					if err != nil {
						return nil, err
					}
					flags := jsonTSString
					if withFilter {
						if flags, err = jsonTSFlags(v[1].(string)); err != nil {
							return nil, err
						}
					}
					parts, err := jsonTSParts(v[0].(string), flags)
					if err != nil {
						return nil, err
					}
					return c.ToVectorParts(parts).String(), nil
				})})
		}
	}
	add("to_tsvector", tJSON, false)
	add("to_tsvector", tJSONB, false)
	add("json_to_tsvector", tJSON, true)
	add("jsonb_to_tsvector", tJSONB, true)
	return fs
}
