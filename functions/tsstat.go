package functions

import (
	"context"
	"slices"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/types/tsearch"
)

// The full text search functions that run a query given as text
// (Session.Query, PostgreSQL's SPI): ts_stat(sqlquery [, weights]), the
// statistics of the lexemes of a tsvector column, and
// ts_rewrite(query, select), which rewrites a tsquery by the (target,
// substitute) pairs a select gives.

// tsStatRowType is ts_stat's (word text, ndoc integer, nentry integer).
var tsStatRowType = types.T{Kind: types.Row, Fields: []types.Field{
	{Name: "word", Type: types.StringType}, {Name: "ndoc", Type: types.Int32Type}, {Name: "nentry", Type: types.Int32Type},
}}

// runFunctionQuery runs a function's query text through the session.
func runFunctionQuery(ctx context.Context, text string) ([]types.T, [][]any, error) {
	q := sessionOf(ctx).Query
	if q == nil {
		return nil, nil, sqlerr.New(sqlerr.FeatureNotSupported, "a query given as text cannot run here")
	}
	return q(ctx, text)
}

// tsStatRows is ts_stat: for each lexeme of the query's tsvectors, the
// number of documents (non-NULL rows) holding it and of its occurrences
// (its positions, 1 for one without), counting with weights given only
// the positions of those weights (a lexeme without positions then
// counts for none); lexemes in descending byte order, PostgreSQL's walk
// of its tree. The query must give one tsvector column (22023).
func tsStatRows(ctx context.Context, args []any) (func() (any, bool, error), error) {
	for _, a := range args {
		if a == nil {
			return none, nil
		}
	}
	weights := 0
	if len(args) == 2 {
		for _, r := range args[1].(string) { // other characters add no weight
			switch r {
			case 'A', 'a':
				weights |= 1 << 3
			case 'B', 'b':
				weights |= 1 << 2
			case 'C', 'c':
				weights |= 1 << 1
			case 'D', 'd':
				weights |= 1
			}
		}
	}
	cols, rows, err := runFunctionQuery(ctx, args[0].(string))
	if err != nil {
		return nil, err
	}
	if len(cols) != 1 || cols[0].Variant != types.TSVector {
		return nil, sqlerr.New(sqlerr.InvalidParameterValue, "ts_stat query must return one tsvector column")
	}
	type stat struct{ ndoc, nentry int64 }
	stats := map[string]*stat{}
	for _, r := range rows {
		if r[0] == nil {
			continue
		}
		v, err := vectorArg(r[0])
		if err != nil {
			return nil, err
		}
		for _, l := range v {
			n := int64(0)
			switch {
			case weights == 0 && len(l.Pos) == 0:
				n = 1
			case weights == 0:
				n = int64(len(l.Pos))
			default:
				for _, p := range l.Pos {
					if weights&(1<<p.Weight()) != 0 {
						n++
					}
				}
			}
			if n == 0 {
				continue
			}
			s := stats[l.Word]
			if s == nil {
				s = &stat{}
				stats[l.Word] = s
			}
			s.ndoc++
			s.nentry += n
		}
	}
	words := make([]string, 0, len(stats))
	for w := range stats {
		words = append(words, w)
	}
	slices.SortFunc(words, func(a, b string) int { return strings.Compare(b, a) })
	i := 0
	return func() (any, bool, error) {
		if i >= len(words) {
			return nil, false, nil
		}
		w := words[i]
		i++
		return []any{w, stats[w].ndoc, stats[w].nentry}, true, nil
	}, nil
}

// tsRewriteQuery is ts_rewrite(query, select): the select must give two
// tsquery columns (22023); a row with a NULL is passed over.
func tsRewriteQuery(ctx context.Context, a []any) (any, error) {
	q, err := queryArg(a[0])
	if err != nil {
		return nil, err
	}
	if q.Root == nil {
		return a[0], nil // an empty query is not rewritten, nor the select run
	}
	cols, rows, err := runFunctionQuery(ctx, a[1].(string))
	if err != nil {
		return nil, err
	}
	if len(cols) != 2 || cols[0].Variant != types.TSQuery || cols[1].Variant != types.TSQuery {
		return nil, sqlerr.New(sqlerr.InvalidParameterValue, "ts_rewrite query must return two tsquery columns")
	}
	pairs := make([][2]tsearch.Query, 0, len(rows))
	for _, r := range rows {
		if r[0] == nil || r[1] == nil {
			continue
		}
		var p [2]tsearch.Query
		for k := range p {
			if p[k], err = queryArg(r[k]); err != nil {
				return nil, err
			}
		}
		pairs = append(pairs, p)
	}
	return tsearch.RewriteEach(q, pairs).String(), nil
}
