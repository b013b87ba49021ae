package functions

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// jsonDocMode says what the JSON text a kernel reads is.
type jsonDocMode uint8

const (
	// jsonbDoc is stored jsonb: checked and normalised on input, keys
	// unique, so the first match is the match and values print as they are.
	jsonbDoc jsonDocMode = iota
	// jsonDoc is stored json: checked on input, kept as written, so the
	// last of duplicate keys wins and values print as written.
	jsonDoc
	// castDoc is text cast to jsonb in the same expression
	// (binder/jsonfuse.go): the whole text is checked as jsonb's input
	// would, the last duplicate wins, and values print normalised.
	castDoc
)

// jsonOpKernel is -> (asText false) or ->> over a key (text or int4), or
// #> / #>> over a text[] path (isPath), reading docs with jsonscan.go's
// scanner: no tree, no allocation per row beyond what the result needs.
func jsonOpKernel(mode jsonDocMode, asText, isPath bool) Kernel {
	return func(_ context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		if err := checkArity(args, n); err != nil {
			return nil, err
		}
		docs, ok := args[0].(*array.String)
		if !ok {
			return nil, badArg(0, args[0], "json text")
		}
		step, err := jsonStepReader(args[1], isPath)
		if err != nil {
			return nil, err
		}
		b := array.NewStringBuilder(mem)
		defer b.Release()
		b.Reserve(n)
		var steps []pathStep
		for i := 0; i < n; i++ {
			if docs.IsNull(i) || args[1].IsNull(i) {
				b.AppendNull()
				continue
			}
			steps = step(i, steps[:0])
			if err := appendJSONExtract(b, bytesOf(docs.Value(i)), steps, isPath, asText, mode); err != nil {
				return nil, err
			}
		}
		return b.NewArray(), nil
	}
}

// jsonStepReader returns a reader of row i's steps: the key or the
// path's elements.
func jsonStepReader(a arrow.Array, isPath bool) (func(int, []pathStep) []pathStep, error) {
	if isPath {
		l, ok := a.(*array.List)
		if !ok {
			return nil, badArg(1, a, "text[]")
		}
		elems, ok := l.ListValues().(*array.String)
		if !ok {
			return nil, badArg(1, a, "text[]")
		}
		return func(i int, dst []pathStep) []pathStep {
			s, e := l.ValueOffsets(i)
			for k := int(s); k < int(e); k++ {
				if elems.IsNull(k) {
					dst = append(dst, pathStep{null: true})
				} else {
					dst = append(dst, pathStep{key: elems.Value(k)})
				}
			}
			return dst
		}, nil
	}
	switch x := a.(type) {
	case *array.String:
		return func(i int, dst []pathStep) []pathStep { return append(dst, pathStep{key: x.Value(i)}) }, nil
	case *array.Int32:
		return func(i int, dst []pathStep) []pathStep {
			return append(dst, pathStep{idx: int64(x.Value(i)), isIdx: true})
		}, nil
	}
	return nil, badArg(1, a, "text or integer")
}

// appendJSONExtract follows steps through doc and appends the value
// reached (its text with asText) to b, or NULL when there is none.
func appendJSONExtract(b *array.StringBuilder, doc []byte, steps []pathStep, textIndex, asText bool, mode jsonDocMode) error {
	lastWins, normalize := mode != jsonbDoc, mode == castDoc
	s, e := jsSpace(doc, 0), len(doc)
	for e > s && (doc[e-1] == ' ' || doc[e-1] == '\t' || doc[e-1] == '\n' || doc[e-1] == '\r') {
		e--
	}
	if s >= e {
		return errJSONSyntax()
	}
	if mode == castDoc {
		if len(steps) > 0 && !steps[0].null && !steps[0].isIdx && doc[s] == '{' {
			// the first step reads the whole object, checking it on the
			// way: the document is checked once it ends where the text does
			vs, ve, ok, objEnd, err := jsonObjectFieldEnd(doc, s, steps[0].key, true)
			if err != nil {
				return err
			}
			if objEnd != e {
				return errJSONSyntax()
			}
			if err := types.CheckJSONBEscapes(doc); err != nil {
				return err
			}
			if !ok {
				b.AppendNull()
				return nil
			}
			s, e, steps = vs, ve, steps[1:]
		} else {
			if err := jsonCheckDoc(doc); err != nil {
				return err
			}
			if err := types.CheckJSONBEscapes(doc); err != nil {
				return err
			}
		}
	}
	if mode != jsonDoc && jsonbScalarIndex(doc[s], steps) {
		steps = nil // the scalar is its own element
	}
	for _, st := range steps {
		if st.null {
			b.AppendNull()
			return nil
		}
		vs, ve, ok, err := jsonStep(doc[s:e], st, textIndex, lastWins)
		if err != nil {
			return err
		}
		if !ok {
			b.AppendNull()
			return nil
		}
		s, e = s+vs, s+ve
	}
	v := doc[s:e]
	if asText {
		t, ok, err := jsonValueText(v, normalize)
		if err != nil {
			return err
		}
		if !ok {
			b.AppendNull()
			return nil
		}
		b.Append(t)
		return nil
	}
	t, err := jsonValueJSON(v, normalize)
	if err != nil {
		return err
	}
	b.Append(t)
	return nil
}

// jsonbScalarIndex reports jsonb's -> or ->> of index 0 or -1 on a
// scalar document: jsonb keeps a scalar as a one-element array flagged
// scalar, and jsonb_array_element looks at the array flag alone, so
// '1'::jsonb -> 0 is 1 (json's is NULL).
func jsonbScalarIndex(first byte, steps []pathStep) bool {
	return len(steps) == 1 && steps[0].isIdx && (steps[0].idx == 0 || steps[0].idx == -1) && first != '{' && first != '['
}

// extractPathKernel is json(b)_extract_path(_text)(doc, VARIADIC path):
// #> and #>> as functions, one path element per argument column.
func extractPathKernel(t types.T, asText bool) Kernel {
	mode := docModeOf(t)
	return func(_ context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		if err := checkArity(args, n); err != nil {
			return nil, err
		}
		ss, err := strArgs(args)
		if err != nil {
			return nil, err
		}
		b := array.NewStringBuilder(mem)
		defer b.Release()
		b.Reserve(n)
		steps := make([]pathStep, len(ss)-1)
		for i := 0; i < n; i++ {
			if ss[0].IsNull(i) {
				b.AppendNull()
				continue
			}
			for k := range steps {
				steps[k] = pathStep{key: ss[k+1].Value(i), null: ss[k+1].IsNull(i)}
			}
			if err := appendJSONExtract(b, bytesOf(ss[0].Value(i)), steps, true, asText, mode); err != nil {
				return nil, err
			}
		}
		return b.NewArray(), nil
	}
}

// jsonCastOpFuncs are -> ->> #> #>> over text cast to jsonb in the same
// expression, ((t)::jsonb ->> 'k'), which the binder fuses into one call
// (binder/jsonfuse.go, JSONCastFusion): the text is checked as jsonb's
// input checks it and read in place, never normalised whole.
func jsonCastOpFuncs() []*Func {
	mk := func(name string, key types.T, asText, isPath bool) *Func {
		ret := tJSONB
		if asText {
			ret = tText
		}
		return &Func{Name: name, Args: []types.T{tText, key}, Ret: ret, Strict: true, Kernel: jsonOpKernel(castDoc, asText, isPath)}
	}
	return []*Func{
		mk("pg__jsonbtext_get", tText, false, false),
		mk("pg__jsonbtext_get", tInt4, false, false),
		mk("pg__jsonbtext_get_text", tText, true, false),
		mk("pg__jsonbtext_get_text", tInt4, true, false),
		mk("pg__jsonbtext_path", tTextArr, false, true),
		mk("pg__jsonbtext_path_text", tTextArr, true, true),
	}
}

// JSONCastFusion names the fused form of a JSON operator function
// (jsonops.go) applied to text cast to jsonb.
func JSONCastFusion(name string) (string, bool) {
	switch name {
	case "pg__json_get", "pg__json_get_text", "pg__json_path", "pg__json_path_text":
		return "pg__jsonbtext_" + name[len("pg__json_"):], true
	}
	return "", false
}

// docModeOf is the mode of stored JSON text of type t (json or jsonb).
func docModeOf(t types.T) jsonDocMode {
	if t.Variant == types.JSONB {
		return jsonbDoc
	}
	return jsonDoc
}
