package functions

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/types/tsearch"
)

// PostgreSQL 15's full text search functions and operators over tsvector,
// tsquery and regconfig (types/tsearch does the work): to_tsvector,
// to_tsquery, plainto_tsquery, phraseto_tsquery, websearch_to_tsquery
// (each with or without a configuration; without, the session's
// default_text_search_config; to_tsvector over json and jsonb too, and
// json(b)_to_tsvector, in tsearchjson.go), get_current_ts_config, setweight, strip,
// length, numnode, querytree, ts_lexize, ts_rank, ts_rank_cd, ts_headline (text,
// json and jsonb documents), ts_rewrite(query, target, substitute),
// tsvector_to_array,
// array_to_tsvector, ts_delete, ts_filter, tsquery_and/or/not/phrase and
// tsvector_concat; @@ arrives as pg__op_path_match (tsvector @@ tsquery,
// tsquery @@ tsvector, text @@ tsquery, text @@ text), && over tsqueries
// as pg__op_overlap, !! as pg__op_tsquery_not, <-> as
// pg__op_tsquery_phrase.

var (
	tTSVector  = types.TSVectorType
	tTSQuery   = types.TSQueryType
	tRegConfig = types.RegConfigType
	tFloat4    = types.Float32Type
)

// currentConfig is the session's default_text_search_config.
func currentConfig(ctx context.Context) (*tsearch.Config, error) {
	name, ok := SettingOf(ctx, "default_text_search_config")
	if !ok || name == "" {
		name = "pg_catalog.english"
	}
	return tsearch.LookupConfig(name)
}

func vectorArg(v any) (tsearch.Vector, error) { return tsearch.ParseVector(v.(string)) }

// perCall is rowFunc (strict) with a body made afresh for each call of
// the kernel, so that it may keep what it computed for the batch's
// earlier rows.
func perCall(ret types.T, body func() func(ctx context.Context, v []any) (any, error)) Kernel {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		return rowFunc(ret, true, body())(ctx, mem, args, n)
	}
}

// queryMemo keeps the tsquery a kernel call parsed last: most queries
// are constants, the same text on every row. Match and Rank only read a
// query.
type queryMemo struct {
	text string
	q    tsearch.Query
	ok   bool
}

func (m *queryMemo) parse(s string) (tsearch.Query, error) {
	if m.ok && m.text == s {
		return m.q, nil
	}
	q, err := tsearch.ParseQuery(s)
	if err != nil {
		return q, err
	}
	m.text, m.q, m.ok = s, q, true
	return q, nil
}

// configMemo is the session's text search configuration, looked up at a
// kernel call's first row that needs it.
type configMemo struct {
	c *tsearch.Config
}

func (m *configMemo) get(ctx context.Context) (*tsearch.Config, error) {
	if m.c != nil {
		return m.c, nil
	}
	c, err := currentConfig(ctx)
	m.c = c
	return c, err
}
func queryArg(v any) (tsearch.Query, error) { return tsearch.ParseQuery(v.(string)) }

// withConfig makes the (regconfig, text) and (text) forms of a function
// of a configuration and a text.
func withConfig(name string, ret types.T, body func(c *tsearch.Config, text string) (any, error)) []*Func {
	return []*Func{
		{Name: name, Args: []types.T{tRegConfig, tText}, Ret: ret, Strict: true,
			Kernel: rowFunc(ret, true, func(_ context.Context, v []any) (any, error) {
				c, err := tsearch.LookupConfig(v[0].(string))
				if err != nil {
					return nil, err
				}
				return body(c, v[1].(string))
			})},
		{Name: name, Args: []types.T{tText}, Ret: ret, Strict: true, Volatile: true,
			Kernel: rowFunc(ret, true, func(ctx context.Context, v []any) (any, error) {
				c, err := currentConfig(ctx)
				if err != nil {
					return nil, err
				}
				return body(c, v[0].(string))
			})},
	}
}

func tsearchFuncs() []*Func {
	var fs []*Func
	fs = append(fs, withConfig("to_tsvector", tTSVector, func(c *tsearch.Config, s string) (any, error) {
		return c.ToVector(s).String(), nil
	})...)
	fs = append(fs, withConfig("to_tsquery", tTSQuery, func(c *tsearch.Config, s string) (any, error) {
		q, err := c.ToQuery(s)
		if err != nil {
			return nil, err
		}
		return q.String(), nil
	})...)
	fs = append(fs, withConfig("plainto_tsquery", tTSQuery, func(c *tsearch.Config, s string) (any, error) {
		return c.PlainToQuery(s).String(), nil
	})...)
	fs = append(fs, withConfig("phraseto_tsquery", tTSQuery, func(c *tsearch.Config, s string) (any, error) {
		return c.PhraseToQuery(s).String(), nil
	})...)
	fs = append(fs, withConfig("websearch_to_tsquery", tTSQuery, func(c *tsearch.Config, s string) (any, error) {
		return c.WebsearchToQuery(s).String(), nil
	})...)
	row := func(name string, args []types.T, ret types.T, body func(v []any) (any, error)) *Func {
		return &Func{Name: name, Args: args, Ret: ret, Strict: true,
			Kernel: rowFunc(ret, true, func(_ context.Context, v []any) (any, error) { return body(v) })}
	}
	// @@'s kernels parse the query once per batch when it is the same on
	// every row (a constant: WHERE doc @@ to_tsquery('...')), and look the
	// session's configuration up once
	match := func(textVec bool, vecAt, qAt int) *Func {
		args := []types.T{tTSVector, tTSQuery}
		if textVec {
			args[0] = tText
		}
		if vecAt == 1 {
			args[0], args[1] = args[1], args[0]
		}
		return &Func{Name: "pg__op_path_match", Args: args, Ret: tBool, Strict: true,
			Kernel: perCall(tBool, func() func(ctx context.Context, v []any) (any, error) {
				var queries queryMemo
				var cfg configMemo
				return func(ctx context.Context, v []any) (any, error) {
					var vec tsearch.Vector
					if textVec {
						c, err := cfg.get(ctx)
						if err != nil {
							return nil, err
						}
						vec = c.ToVector(v[vecAt].(string))
					} else {
						var err error
						if vec, err = vectorArg(v[vecAt]); err != nil {
							return nil, err
						}
					}
					q, err := queries.parse(v[qAt].(string))
					if err != nil {
						return nil, err
					}
					return tsearch.Match(vec, q), nil
				}
			})}
	}
	fs = append(fs,
		&Func{Name: "get_current_ts_config", Ret: tRegConfig, Volatile: true,
			Kernel: rowFunc(tRegConfig, false, func(ctx context.Context, _ []any) (any, error) {
				c, err := currentConfig(ctx)
				if err != nil {
					return nil, err
				}
				return c.Name, nil
			})},
		match(false, 0, 1),
		match(false, 1, 0),
		match(true, 0, 1),
		// text @@ text: to_tsvector(a) @@ plainto_tsquery(b)
		&Func{Name: "pg__op_path_match", Args: []types.T{tText, tText}, Ret: tBool, Strict: true,
			Kernel: perCall(tBool, func() func(ctx context.Context, v []any) (any, error) {
				var cfg configMemo
				return func(ctx context.Context, v []any) (any, error) {
					c, err := cfg.get(ctx)
					if err != nil {
						return nil, err
					}
					return tsearch.Match(c.ToVector(v[0].(string)), c.PlainToQuery(v[1].(string))), nil
				}
			})},
		row("strip", []types.T{tTSVector}, tTSVector, func(v []any) (any, error) {
			vec, err := vectorArg(v[0])
			if err != nil {
				return nil, err
			}
			return tsearch.Strip(vec).String(), nil
		}),
		row("length", []types.T{tTSVector}, tInt4, func(v []any) (any, error) {
			vec, err := vectorArg(v[0])
			if err != nil {
				return nil, err
			}
			return int64(len(vec)), nil
		}),
		row("numnode", []types.T{tTSQuery}, tInt4, func(v []any) (any, error) {
			q, err := queryArg(v[0])
			if err != nil {
				return nil, err
			}
			return int64(q.Size()), nil
		}),
		row("querytree", []types.T{tTSQuery}, tText, func(v []any) (any, error) {
			q, err := queryArg(v[0])
			if err != nil {
				return nil, err
			}
			return tsearch.QueryTree(q), nil
		}),
		row("setweight", []types.T{tTSVector, types.QCharType}, tTSVector, func(v []any) (any, error) {
			vec, err := vectorArg(v[0])
			if err != nil {
				return nil, err
			}
			w, err := weightOf(v[1].(string), weightNumber)
			if err != nil {
				return nil, err
			}
			return tsearch.SetWeight(vec, w, nil).String(), nil
		}),
		row("setweight", []types.T{tTSVector, types.QCharType, tTextArr}, tTSVector, func(v []any) (any, error) {
			vec, err := vectorArg(v[0])
			if err != nil {
				return nil, err
			}
			w, err := weightOf(v[1].(string), weightLetter)
			if err != nil {
				return nil, err
			}
			words, err := lexemeElems(v[2], "lexeme array may not contain nulls")
			if err != nil {
				return nil, err
			}
			if len(words) == 0 { // no lexeme named: none changes
				return vec.String(), nil
			}
			return tsearch.SetWeight(vec, w, words).String(), nil
		}),
		// ts_lexize(regdictionary, text): the dictionary by its OID
		// (regcollation.go's Dictionaries name types/tsearch's)
		row("ts_lexize", []types.T{types.RegOf(types.RegDictionary), tText}, tTextArr, func(v []any) (any, error) {
			oid := oidArg(v[0])
			for _, dict := range Dictionaries() {
				if dict.OID == oid {
					d, err := tsearch.LookupDictionary(dict.Name)
					if err != nil {
						return nil, err
					}
					return stringsToAny(d.Lexize(v[1].(string))), nil
				}
			}
			return nil, sqlerr.New(sqlerr.InternalError, "cache lookup failed for text search dictionary %d", oid)
		}),
		row("tsvector_to_array", []types.T{tTSVector}, tTextArr, func(v []any) (any, error) {
			vec, err := vectorArg(v[0])
			if err != nil {
				return nil, err
			}
			out := make([]any, len(vec))
			for i, l := range vec {
				out[i] = l.Word
			}
			return out, nil
		}),
		row("array_to_tsvector", []types.T{tTextArr}, tTSVector, func(v []any) (any, error) {
			words, err := lexemeElems(v[0], "lexeme array may not contain nulls")
			if err != nil {
				return nil, err
			}
			for _, w := range words {
				if w == "" {
					return nil, sqlerr.New(sqlerr.ZeroLengthCharacterString, "lexeme array may not contain empty strings")
				}
			}
			return tsearch.FromWords(words).String(), nil
		}),
		row("ts_delete", []types.T{tTSVector, tText}, tTSVector, func(v []any) (any, error) {
			vec, err := vectorArg(v[0])
			if err != nil {
				return nil, err
			}
			return tsearch.Delete(vec, []string{v[1].(string)}).String(), nil
		}),
		row("ts_delete", []types.T{tTSVector, tTextArr}, tTSVector, func(v []any) (any, error) {
			vec, err := vectorArg(v[0])
			if err != nil {
				return nil, err
			}
			words, err := lexemeElems(v[1], "lexeme array may not contain nulls")
			if err != nil {
				return nil, err
			}
			return tsearch.Delete(vec, words).String(), nil
		}),
		row("ts_filter", []types.T{tTSVector, types.ArrayOf(types.QCharType)}, tTSVector, func(v []any) (any, error) {
			vec, err := vectorArg(v[0])
			if err != nil {
				return nil, err
			}
			var mask int
			for _, e := range v[1].([]any) {
				if e == nil {
					return nil, sqlerr.New(sqlerr.NullValueNotAllowed, "weight array may not contain nulls")
				}
				w, err := weightOf(e.(string), weightQuoted)
				if err != nil {
					return nil, err
				}
				mask |= 1 << w
			}
			return tsearch.Filter(vec, mask).String(), nil
		}),
		row("tsvector_concat", []types.T{tTSVector, tTSVector}, tTSVector, func(v []any) (any, error) {
			a, err := vectorArg(v[0])
			if err != nil {
				return nil, err
			}
			b, err := vectorArg(v[1])
			if err != nil {
				return nil, err
			}
			return tsearch.Concat(a, b).String(), nil
		}),
	)
	two := func(name string, op int) *Func {
		return row(name, []types.T{tTSQuery, tTSQuery}, tTSQuery, func(v []any) (any, error) {
			a, err := queryArg(v[0])
			if err != nil {
				return nil, err
			}
			b, err := queryArg(v[1])
			if err != nil {
				return nil, err
			}
			return tsearch.Combine(op, 1, a, b).String(), nil
		})
	}
	fs = append(fs, two("tsquery_and", tsearch.OpAnd), two("tsquery_or", tsearch.OpOr), two("tsquery_phrase", tsearch.OpPhrase),
		two("pg__op_tsquery_phrase", tsearch.OpPhrase),
		two("pg__op_overlap", tsearch.OpAnd),
		row("tsquery_phrase", []types.T{tTSQuery, tTSQuery, tInt4}, tTSQuery, func(v []any) (any, error) {
			a, err := queryArg(v[0])
			if err != nil {
				return nil, err
			}
			b, err := queryArg(v[1])
			if err != nil {
				return nil, err
			}
			d := v[2].(int64)
			if d < 0 || d > 16384 {
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "distance in phrase operator must be an integer value between zero and 16384 inclusive")
			}
			return tsearch.Combine(tsearch.OpPhrase, int(d), a, b).String(), nil
		}))
	for _, name := range []string{"tsquery_not", "pg__op_tsquery_not"} {
		fs = append(fs, row(name, []types.T{tTSQuery}, tTSQuery, func(v []any) (any, error) {
			a, err := queryArg(v[0])
			if err != nil {
				return nil, err
			}
			return tsearch.Not(a).String(), nil
		}))
	}
	fs = append(fs, headlineFuncs()...)
	fs = append(fs, &Func{Name: "ts_rewrite", Args: []types.T{tTSQuery, tText}, Ret: tTSQuery, Strict: true, Volatile: true,
		Kernel: rowFunc(tTSQuery, true, tsRewriteQuery)}) // tsstat.go
	fs = append(fs, row("ts_rewrite", []types.T{tTSQuery, tTSQuery, tTSQuery}, tTSQuery, func(v []any) (any, error) {
		var qs [3]tsearch.Query
		for i := range qs {
			var err error
			if qs[i], err = queryArg(v[i]); err != nil {
				return nil, err
			}
		}
		return tsearch.Rewrite(qs[0], qs[1], qs[2]).String(), nil
	}))
	// ts_rank([weights,] vector, query [, normalization])
	rank := func(v []any, weights, norm bool, queries *queryMemo, calc func([4]float32, tsearch.Vector, tsearch.Query, int) float32) (any, error) {
		w := tsearch.DefaultWeights
		if weights {
			var err error
			if w, err = rankWeights(v[0]); err != nil {
				return nil, err
			}
			v = v[1:]
		}
		vec, err := vectorArg(v[0])
		if err != nil {
			return nil, err
		}
		q, err := queries.parse(v[1].(string))
		if err != nil {
			return nil, err
		}
		method := 0
		if norm {
			method = int(v[2].(int64))
		}
		// a float4 travels as float64 holding the float32
		return float64(calc(w, vec, q, method)), nil
	}
	tFloat4Arr := types.ArrayOf(tFloat4)
	for _, f := range []struct {
		args          []types.T
		weights, norm bool
	}{
		{[]types.T{tTSVector, tTSQuery}, false, false},
		{[]types.T{tTSVector, tTSQuery, tInt4}, false, true},
		{[]types.T{tFloat4Arr, tTSVector, tTSQuery}, true, false},
		{[]types.T{tFloat4Arr, tTSVector, tTSQuery, tInt4}, true, true},
	} {
		f := f
		for _, r := range []struct {
			name string
			calc func([4]float32, tsearch.Vector, tsearch.Query, int) float32
		}{{"ts_rank", tsearch.Rank}, {"ts_rank_cd", tsearch.RankCD}} {
			name, calc := r.name, r.calc
			fs = append(fs, &Func{Name: name, Args: f.args, Ret: tFloat4, Strict: true,
				Kernel: perCall(tFloat4, func() func(ctx context.Context, v []any) (any, error) {
					var queries queryMemo
					return func(_ context.Context, v []any) (any, error) { return rank(v, f.weights, f.norm, &queries, calc) }
				})})
		}
	}
	return fs
}

// weightOf reads a weight letter (setweight, ts_filter): 3 for A .. 0
// for D. PostgreSQL words the error for another letter three ways:
// setweight(v, w) with the byte's number and setweight(v, w, lexemes)
// with the letter, both internal errors (XX000), and ts_filter with the
// letter quoted, 22023.
func weightOf(s string, style weightError) (int, error) {
	switch strings.ToLower(s) {
	case "a":
		return 3, nil
	case "b":
		return 2, nil
	case "c":
		return 1, nil
	case "d":
		return 0, nil
	}
	var c byte
	if s != "" {
		c = s[0]
	}
	letter := ""
	if c != 0 { // a NUL ends the message's %c in C
		letter = string(rune(c))
	}
	switch style {
	case weightNumber:
		return 0, sqlerr.New(sqlerr.InternalError, "unrecognized weight: %d", int(c))
	case weightLetter:
		return 0, sqlerr.New(sqlerr.InternalError, "unrecognized weight: %s", letter)
	}
	return 0, sqlerr.New(sqlerr.InvalidParameterValue, "unrecognized weight: \"%s\"", letter)
}

// weightError is how weightOf words its error (tsvector_op.c's three).
type weightError int

const (
	weightNumber weightError = iota // tsvector_setweight
	weightLetter                    // tsvector_setweight_by_filter
	weightQuoted                    // tsvector_filter
)

// lexemeElems are a text[]'s elements; a NULL one is nullMsg's error.
func lexemeElems(v any, nullMsg string) ([]string, error) {
	var out []string
	for _, e := range v.([]any) {
		if e == nil {
			return nil, sqlerr.New(sqlerr.NullValueNotAllowed, "%s", nullMsg)
		}
		out = append(out, e.(string))
	}
	return out, nil
}

// rankWeights reads ts_rank's weight array (D, C, B, A), each in 0..1
// (a negative one keeps the default).
func rankWeights(v any) ([4]float32, error) {
	w := tsearch.DefaultWeights
	arr := v.([]any)
	if len(arr) < 4 {
		return w, sqlerr.New(sqlerr.ArraySubscriptError, "array of weight is too short")
	}
	for i := 0; i < 4; i++ {
		if arr[i] == nil {
			return w, sqlerr.New(sqlerr.NullValueNotAllowed, "array of weight must not contain nulls")
		}
		f := float32(arr[i].(float64))
		if f > 1 {
			return w, sqlerr.New(sqlerr.InvalidParameterValue, "weight out of range")
		}
		if f >= 0 {
			w[i] = f
		}
	}
	return w, nil
}

// headlineFuncs are ts_headline([config,] document, query [, options])
// for a text document, and for a json or jsonb one, whose string values
// (not its keys) each become their headline.
func headlineFuncs() []*Func {
	var fs []*Func
	for _, doc := range []types.T{tText, tJSONB, tJSON} {
		fs = append(fs, headlineOf(doc)...)
	}
	return fs
}

func headlineOf(doc types.T) []*Func {
	var fs []*Func
	for _, withCfg := range []bool{true, false} {
		for _, withOpts := range []bool{true, false} {
			args := []types.T{doc, tTSQuery}
			if withCfg {
				args = append([]types.T{tRegConfig}, args...)
			}
			if withOpts {
				args = append(args, tText)
			}
			withCfg, withOpts := withCfg, withOpts
			fs = append(fs, &Func{Name: "ts_headline", Args: args, Ret: doc, Strict: true, Volatile: !withCfg,
				Kernel: perCall(doc, func() func(ctx context.Context, v []any) (any, error) {
					var queries queryMemo
					var cfg configMemo
					return func(ctx context.Context, v []any) (any, error) {
						var c *tsearch.Config
						var err error
						if withCfg {
							c, err = tsearch.LookupConfig(v[0].(string))
							v = v[1:]
						} else {
							c, err = cfg.get(ctx)
						}
						if err != nil {
							return nil, err
						}
						q, err := queries.parse(v[1].(string))
						if err != nil {
							return nil, err
						}
						var opts []tsearch.HeadlineOption
						if withOpts {
							if opts, err = tsearch.ParseHeadlineOptions(v[2].(string)); err != nil {
								return nil, err
							}
						}
						if doc.Equal(tText) {
							return c.Headline(v[0].(string), q, opts)
						}
						return headlineJSON(v[0].(string), doc.Equal(tJSONB), func(s string) (string, error) {
							return c.Headline(s, q, opts)
						})
					}
				})})
		}
	}
	return fs
}

// headlineJSON is ts_headline over a json or jsonb document: each string
// value through hl, keys and other values as they are; json comes back
// compact, as PostgreSQL's transform_json_string_values writes it.
func headlineJSON(doc string, jsonb bool, hl func(string) (string, error)) (any, error) {
	dec := json.NewDecoder(strings.NewReader(doc))
	dec.UseNumber()
	var b strings.Builder
	var hlErr error
	var walk func(tok json.Token) error
	walk = func(tok json.Token) error {
		switch x := tok.(type) {
		case json.Delim:
			open, close := byte('{'), byte('}')
			if x == '[' {
				open, close = '[', ']'
			}
			b.WriteByte(open)
			for n := 0; dec.More(); n++ {
				if n > 0 {
					b.WriteByte(',')
				}
				if x == '{' {
					k, err := dec.Token()
					if err != nil {
						return err
					}
					b.WriteString(jsonQuote(k.(string)))
					b.WriteByte(':')
				}
				v, err := dec.Token()
				if err != nil {
					return err
				}
				if err := walk(v); err != nil {
					return err
				}
			}
			b.WriteByte(close)
			_, err := dec.Token()
			return err
		case string:
			out, err := hl(x)
			if err != nil {
				hlErr = err
				return err
			}
			b.WriteString(jsonQuote(out))
		case json.Number:
			b.WriteString(x.String())
		case bool:
			b.WriteString(strconv.FormatBool(x))
		case nil:
			b.WriteString("null")
		}
		return nil
	}
	tok, err := dec.Token()
	if err == nil {
		err = walk(tok)
	}
	if hlErr != nil {
		return nil, hlErr
	}
	if err != nil {
		return nil, sqlerr.InvalidJSON()
	}
	if jsonb {
		return types.ParseJSON(b.String(), true)
	}
	return b.String(), nil
}

// stringsToAny is a text[] value of ss.
func stringsToAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
