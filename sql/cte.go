package sql

import "github.com/sqlgate/sqlgate/sqlerr"

// searchCycleClause reports the SEARCH and CYCLE clauses of a WITH
// RECURSIVE item (PostgreSQL 15: "... AS (query) SEARCH DEPTH FIRST BY id
// SET ord", "... AS (query) CYCLE id SET is_cycle USING path") as the
// unsupported feature they are, instead of the syntax error TiDB's grammar
// gives. They add a column of type record (BREADTH FIRST) or record[]
// (DEPTH FIRST, and CYCLE's path) whose text output and ordering are
// PostgreSQL's composite types', which sqlgate does not have: its ROW is
// Fluss's, printed as JSON and not orderable, so the clauses are refused
// rather than answered differently. A recursive query can say the same
// with columns of its own (a depth counter, a path kept as a string or an
// array, a cycle test on it), which works.
//
// It runs only when the grammar has refused the statement (as
// dataModifyingWith does), so the token patterns need not be exact: ")"
// followed by SEARCH DEPTH|BREADTH FIRST BY, or by CYCLE name, after WITH
// RECURSIVE.
func searchCycleClause(src string, toks []token) error {
	recursive := false
	for i := 1; i < len(toks); i++ {
		if toks[i].is(src, "RECURSIVE") && toks[i-1].is(src, "WITH") {
			recursive = true
		}
		if !recursive || !toks[i-1].isPunct(src, ")") {
			continue
		}
		t := toks[i]
		switch {
		case t.is(src, "SEARCH") && i+3 < len(toks) && (toks[i+1].is(src, "DEPTH") || toks[i+1].is(src, "BREADTH")) &&
			toks[i+2].is(src, "FIRST") && toks[i+3].is(src, "BY"):
			typ := "record" // BREADTH FIRST: (depth, columns)
			if toks[i+1].is(src, "DEPTH") {
				typ = "record[]" // the path of (columns) from the root
			}
			return sqlerr.New(sqlerr.FeatureNotSupported, "SEARCH %s FIRST in WITH RECURSIVE is not supported", toks[i+1].word(src)).
				WithDetail("Its sequence column is of type %s, which sqlgate cannot represent.", typ).
				WithHint("Order by a depth counter or a path column computed in the recursive query instead.").
				WithPosition(charPos(src, t.start))
		case t.is(src, "CYCLE") && i+2 < len(toks) && (toks[i+1].kind == tkIdent || toks[i+1].kind == tkQIdent):
			return sqlerr.New(sqlerr.FeatureNotSupported, "CYCLE in WITH RECURSIVE is not supported").
				WithDetail("Its path column is of type record[], which sqlgate cannot represent.").
				WithHint("Use UNION instead of UNION ALL to stop at rows seen before, or keep a path column and test it in the recursive term.").
				WithPosition(charPos(src, t.start))
		}
	}
	return nil
}
