package functions

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// TestJSONScanMatchesCastThenLookup checks the fusion's claim: reading a
// value out of JSON text in place (castDoc) answers exactly what casting
// the text to jsonb (types.ParseJSON) and then looking the value up does,
// errors included, over valid and invalid documents and every kind of step.
func TestJSONScanMatchesCastThenLookup(t *testing.T) {
	docs := []string{
		`{"a": 1, "b": [1, {"c": "x", "b" : 2}], "a": "last"}`, `{"a":1e2,"b":-0}`, `{"a": -0.50, "b": 1.0E-2}`,
		`{"a": "\u00e9\n\"q\"", "b": "\ud83d\ude00"}`, ` {"a" : [ 1.0e1 , "x" , {"z":null, "y":true} ] } `,
		`{"a": null}`, `{"a": true, "b": false}`, `[1, "two", {"a": [3]}, [], {}]`, `"s"`, `12`, `null`, `{}`, `[]`,
		`{"é": "accent", "": "empty"}`, `{"a\"b": 1, "a\u0062": 2}`, `{"a":{"a":{"a":[[[0]]]}}}`,
		// not JSON
		`{"a": 1,}`, `{"a" 1}`, `[1,]`, `01`, `1.`, `.5`, `-`, `"abc`, `"\x"`, `{"a":tru}`, `nul`, `{} {}`, ``, `   `,
		`{"a":"\u12"}`, "\"a\tb\"", `[1 2]`, `{"a":1 "b":2}`, `{1:2}`, `{"a":[}`, `]`, `{"a":1}}`, `[-01]`, `[1e]`, `[+1]`,
		// jsonb's escape rules
		`{"a": 1, "b": "x\u0000"}`, `{"a": "\ud800"}`, `{"a": "\udc00x"}`, `{"a": "\ud800\u0041"}`,
		`{"a": "\u0000", "b": }`, `["\u0000", 1,]`, `{"a": 1} {"a": 2}`, `{"a": 1}]`, `  {"a": 1}  `,
	}
	steps := [][]pathStep{
		{{key: "a"}}, {{key: "b"}}, {{key: "zz"}}, {{key: "é"}}, {{key: ""}}, {{key: `a"b`}}, {{idx: 0, isIdx: true}},
		{{idx: -1, isIdx: true}}, {{idx: 9, isIdx: true}}, {{idx: -9, isIdx: true}}, {{key: "b"}, {key: "1"}},
		{{key: "b"}, {key: "1"}, {key: "c"}}, {{key: "a"}, {key: "a"}, {key: "a"}, {key: "0"}, {key: "-1"}}, {},
		{{key: "2"}, {key: "a"}, {key: " 0"}}, {{null: true}},
	}
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	run := func(doc string, st []pathStep, textIndex, asText bool, mode jsonDocMode) (string, error) {
		b := array.NewStringBuilder(mem)
		defer b.Release()
		if err := appendJSONExtract(b, []byte(doc), st, textIndex, asText, mode); err != nil {
			return "", err
		}
		a := b.NewStringArray()
		defer a.Release()
		if a.IsNull(0) {
			return "∅", nil
		}
		return a.Value(0), nil
	}
	for _, doc := range docs {
		norm, castErr := types.ParseJSON(doc, true)
		for _, st := range steps {
			for _, textIndex := range []bool{false, true} {
				for _, asText := range []bool{false, true} {
					got, err := run(doc, st, textIndex, asText, castDoc)
					if castErr != nil {
						if sqlerr.CodeOf(err) != sqlerr.CodeOf(castErr) {
							t.Errorf("%s %v: got %q, %v; the cast fails with %v", doc, st, got, err, castErr)
						}
						continue
					}
					want, wantErr := run(norm, st, textIndex, asText, jsonbDoc)
					if got != want || sqlerr.CodeOf(err) != sqlerr.CodeOf(wantErr) {
						t.Errorf("%s %v (textIndex %v, asText %v): got %q, %v; want %q, %v", doc, st, textIndex, asText, got, err, want, wantErr)
					}
				}
			}
		}
	}
}
