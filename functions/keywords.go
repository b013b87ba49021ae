package functions

import (
	"context"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/types"
)

// keyword is one of PostgreSQL 15's keywords.
type keyword struct {
	word     string
	category byte
	bare     bool
}

// keywords is PostgreSQL 15's keyword list in alphabetical order, from the
// table sql generates from pg_get_keywords() (sql/pgkeywords.go): the one
// table behind the rewrite, pg_get_keywords() and quote_ident.
func keywords() []keyword {
	all := sql.Keywords()
	out := make([]keyword, len(all))
	for i, k := range all {
		out[i] = keyword{word: k.Word, category: k.Category, bare: k.BareLabel}
	}
	return out
}

// reservedKeywords are the keywords quote_ident quotes: all but the
// unreserved ones (category U), as PostgreSQL's quote_identifier does.
var reservedKeywords = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range keywords() {
		if k.category != 'U' {
			m[k.word] = true
		}
	}
	return m
}()

// keywordRowType is pg_get_keywords()'s composite: (word text, catcode
// "char", barelabel bool, catdesc text, baredesc text).
var keywordRowType = types.T{Kind: types.Row, Fields: []types.Field{
	{Name: "word", Type: types.StringType}, {Name: "catcode", Type: types.QCharType},
	{Name: "barelabel", Type: types.BoolType}, {Name: "catdesc", Type: types.StringType},
	{Name: "baredesc", Type: types.StringType},
}}

// keywordRows is pg_get_keywords(): one composite per keyword.
func keywordRows(context.Context, []any) (func() (any, bool, error), error) {
	all := keywords()
	i := 0
	return func() (any, bool, error) {
		if i >= len(all) {
			return nil, false, nil
		}
		k := all[i]
		i++
		desc := map[byte]string{
			'U': "unreserved", 'C': "unreserved (cannot be function or type name)",
			'T': "reserved (can be function or type name)", 'R': "reserved",
		}[k.category]
		bare := "requires AS"
		if k.bare {
			bare = "can be bare label"
		}
		return []any{k.word, string(k.category), k.bare, desc, bare}, true, nil
	}, nil
}
