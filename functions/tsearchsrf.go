package functions

import (
	"context"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/types/tsearch"
)

// The set-returning functions of full text search: unnest(tsvector),
// the default parser's ts_parse and ts_token_type (by name or by
// its OID, 3722), and ts_debug([regconfig,] text).

// defaultParserOID is pg_ts_parser's default parser.
const defaultParserOID = 3722

// unnestTSVectorRowType is unnest(tsvector)'s (lexeme text, positions
// smallint[], weights text[]).
var unnestTSVectorRowType = types.T{Kind: types.Row, Fields: []types.Field{
	{Name: "lexeme", Type: types.StringType},
	{Name: "positions", Type: types.ArrayOf(types.Int16Type).Nullable()},
	{Name: "weights", Type: types.ArrayOf(types.StringType).Nullable()},
}}

var tsParseRowType = types.T{Kind: types.Row, Fields: []types.Field{
	{Name: "tokid", Type: types.Int32Type}, {Name: "token", Type: types.StringType},
}}

var tsTokenTypeRowType = types.T{Kind: types.Row, Fields: []types.Field{
	{Name: "tokid", Type: types.Int32Type}, {Name: "alias", Type: types.StringType}, {Name: "description", Type: types.StringType},
}}

// tsDebugRowType is ts_debug's (alias text, description text, token
// text, dictionaries regdictionary[], dictionary regdictionary, lexemes
// text[]); sqlgate has no regdictionary type, so the dictionaries are
// their names as text (the same text output).
var tsDebugRowType = types.T{Kind: types.Row, Fields: []types.Field{
	{Name: "alias", Type: types.StringType}, {Name: "description", Type: types.StringType}, {Name: "token", Type: types.StringType},
	{Name: "dictionaries", Type: types.ArrayOf(types.StringType)}, {Name: "dictionary", Type: types.StringType.Nullable()},
	{Name: "lexemes", Type: types.ArrayOf(types.StringType).Nullable()},
}}

// tokenDescriptions are the default parser's token descriptions
// (wparser_def.c's lex_descr), by token type.
var tokenDescriptions = [...]string{"", "Word, all ASCII", "Word, all letters", "Word, letters and digits",
	"Email address", "URL", "Host", "Scientific notation", "Version number",
	"Hyphenated word part, letters and digits", "Hyphenated word part, all letters",
	"Hyphenated word part, all ASCII", "Space symbols", "XML tag", "Protocol head",
	"Hyphenated word, letters and digits", "Hyphenated word, all ASCII", "Hyphenated word, all letters",
	"URL path", "File or path name", "Decimal notation", "Signed integer", "Unsigned integer", "XML entity"}

// resolveTSSetFunc is unnest(tsvector), ts_parse(parser, text) and
// ts_token_type(parser), a parser named (text) or numbered (oid); nil
// for other arguments.
func resolveTSSetFunc(name string, args []types.T) *SetFunc {
	parserArg := func(t types.T) (types.T, bool) {
		switch {
		case t.Kind == types.Oid || t.Kind == types.Int32 || t.Kind == types.Int64:
			return tOid, true
		case pgTypeOf(t) == pgText || pgTypeOf(t) == pgUnknown || t.Kind == types.Null:
			return tText, true
		}
		return types.T{}, false
	}
	switch name {
	case "ts_stat": // tsstat.go
		isText := func(t types.T) bool { return canCoerce(pgTypeOf(t), pgText) }
		switch {
		case len(args) == 1 && isText(args[0]):
			return &SetFunc{Name: name, Args: []types.T{tText}, Ret: tsStatRowType, Rows: tsStatRows}
		case len(args) == 2 && isText(args[0]) && isText(args[1]):
			return &SetFunc{Name: name, Args: []types.T{tText, tText}, Ret: tsStatRowType, Rows: tsStatRows}
		}
	case "unnest":
		if len(args) == 1 && args[0].Variant == types.TSVector {
			return &SetFunc{Name: name, Args: []types.T{tTSVector}, Ret: unnestTSVectorRowType, Rows: unnestTSVectorRows}
		}
	case "ts_parse":
		if len(args) == 2 {
			if p, ok := parserArg(args[0]); ok && canCoerce(pgTypeOf(args[1]), pgText) {
				return &SetFunc{Name: name, Args: []types.T{p, tText}, Ret: tsParseRowType, Rows: tsParseRows}
			}
		}
	case "ts_debug":
		isText := func(t types.T) bool { return canCoerce(pgTypeOf(t), pgText) }
		switch {
		case len(args) == 2 && (args[0].Variant == types.RegConfig || pgTypeOf(args[0]) == pgUnknown || args[0].Kind == types.Null) && isText(args[1]):
			return &SetFunc{Name: name, Args: []types.T{tRegConfig, tText}, Ret: tsDebugRowType, Rows: tsDebugRows}
		case len(args) == 1 && isText(args[0]):
			return &SetFunc{Name: name, Args: []types.T{tText}, Ret: tsDebugRowType, Rows: tsDebugRows}
		}
	case "ts_token_type":
		if len(args) == 1 {
			if p, ok := parserArg(args[0]); ok {
				return &SetFunc{Name: name, Args: []types.T{p}, Ret: tsTokenTypeRowType, Rows: tsTokenTypeRows}
			}
		}
	}
	return nil
}

func unnestTSVectorRows(_ context.Context, args []any) (func() (any, bool, error), error) {
	s, ok := args[0].(string)
	if !ok {
		return none, nil
	}
	v, err := tsearch.ParseVector(s)
	if err != nil {
		return nil, err
	}
	i := 0
	return func() (any, bool, error) {
		if i >= len(v) {
			return nil, false, nil
		}
		l := v[i]
		i++
		if len(l.Pos) == 0 {
			return []any{l.Word, nil, nil}, true, nil
		}
		pos := make([]any, len(l.Pos))
		ws := make([]any, len(l.Pos))
		for j, p := range l.Pos {
			pos[j] = int64(p.Position())
			ws[j] = string("DCBA"[p.Weight()])
		}
		return []any{l.Word, pos, ws}, true, nil
	}, nil
}

// checkParser accepts the default parser, by name or OID.
func checkParser(v any) error {
	switch p := v.(type) {
	case string:
		n := p
		if strings.HasPrefix(n, `"`) && strings.HasSuffix(n, `"`) && len(n) >= 2 {
			n = n[1 : len(n)-1]
		} else {
			n = strings.ToLower(n)
		}
		if strings.TrimPrefix(n, "pg_catalog.") == "default" {
			return nil
		}
		return sqlerr.New(sqlerr.UndefinedObject, "text search parser \"%s\" does not exist", p)
	case int64:
		if p == defaultParserOID {
			return nil
		}
		return sqlerr.New(sqlerr.InternalError, "cache lookup failed for text search parser %d", p)
	}
	return nil
}

func tsParseRows(_ context.Context, args []any) (func() (any, bool, error), error) {
	if args[0] == nil || args[1] == nil {
		return none, nil
	}
	if err := checkParser(args[0]); err != nil {
		return nil, err
	}
	toks := tsearch.Parse(args[1].(string))
	i := 0
	return func() (any, bool, error) {
		if i >= len(toks) {
			return nil, false, nil
		}
		i++
		return []any{int64(toks[i-1].Type), toks[i-1].Text}, true, nil
	}, nil
}

func tsTokenTypeRows(_ context.Context, args []any) (func() (any, bool, error), error) {
	if args[0] == nil {
		return none, nil
	}
	if err := checkParser(args[0]); err != nil {
		return nil, err
	}
	i := 0
	return func() (any, bool, error) {
		if i+1 >= len(tokenDescriptions) {
			return nil, false, nil
		}
		i++
		return []any{int64(i), tsearch.TokenAliases[i], tokenDescriptions[i]}, true, nil
	}, nil
}

// tsDebugRows is ts_debug: each token of the text as the default parser
// reads it, the configuration's dictionaries for its type, and the first
// of them that recognises it with its lexemes (both NULL for a type the
// configuration skips). The one-argument form takes the session's
// default_text_search_config.
func tsDebugRows(ctx context.Context, args []any) (func() (any, bool, error), error) {
	for _, a := range args {
		if a == nil {
			return none, nil
		}
	}
	var c *tsearch.Config
	var err error
	if len(args) == 2 {
		c, err = tsearch.LookupConfig(args[0].(string))
	} else {
		c, err = currentConfig(ctx)
	}
	if err != nil {
		return nil, err
	}
	toks := tsearch.Parse(args[len(args)-1].(string))
	i := 0
	return func() (any, bool, error) {
		if i >= len(toks) {
			return nil, false, nil
		}
		t := toks[i]
		i++
		dicts := c.Dictionaries(t.Type)
		names := make([]any, len(dicts))
		for k, d := range dicts {
			names[k] = d.Name()
		}
		var dict, lexemes any
		if len(dicts) > 0 { // both dictionaries recognise every token
			dict, lexemes = dicts[0].Name(), stringsToAny(dicts[0].Lexize(t.Text))
		}
		return []any{tsearch.TokenAliases[t.Type], tokenDescriptions[t.Type], t.Text, names, dict, lexemes}, true, nil
	}, nil
}
