package sql

// Forms of INSERT that TiDB's MySQL grammar takes and PostgreSQL's does
// not: INSERT without INTO (INSERT t VALUES ..), and an empty list where
// PostgreSQL's grammar wants at least one element (VALUES (), a VALUES
// row (), INSERT INTO t () and ON CONFLICT ()). insertFormError reads the
// tokens for them before any rewrite, so that such a statement is
// PostgreSQL's syntax error, at the token PostgreSQL names, and not one
// sqlgate runs or fails later with another error.

// insertFormError is PostgreSQL's syntax error for the first of those
// forms in an INSERT (at the statement's start, a WITH query's or after
// the WITH list), or nil.
func insertFormError(src string, toks []token) error {
	for i := range toks {
		if !toks[i].is(src, "INSERT") || !insertStarts(src, toks, i) {
			continue
		}
		if i+1 >= len(toks) || !toks[i+1].is(src, "INTO") {
			return syntaxErrorAt(src, toks, i+1)
		}
		if k := emptyInsertList(src, toks, i+2); k >= 0 {
			return syntaxErrorAt(src, toks, k)
		}
	}
	return nil
}

// insertStarts reports whether the INSERT at toks[i] starts an INSERT
// statement: the statement's first word, a WITH query's (AS [NOT]
// [MATERIALIZED] ( INSERT) or the statement after a WITH list (a ')').
// INSERT is an unreserved word elsewhere (a privilege, MERGE's THEN
// INSERT, a name).
func insertStarts(src string, toks []token, i int) bool {
	if i == 0 {
		return true
	}
	return toks[i-1].isPunct(src, "(") && i >= 2 && (toks[i-2].is(src, "AS") || toks[i-2].is(src, "MATERIALIZED")) ||
		toks[i-1].isPunct(src, ")")
}

// emptyInsertList returns the index of the ')' of an empty list in the
// INSERT whose target starts at toks[from] (-1: none): the target's
// column list, a VALUES row, ON CONFLICT's target. It stops at the end of
// the INSERT (a ')' closing the WITH query that holds it).
func emptyInsertList(src string, toks []token, from int) int {
	depth := 0
	for k := from; k+1 < len(toks); k++ {
		t := toks[k]
		switch {
		case t.isPunct(src, "("):
			if depth == 0 && toks[k+1].isPunct(src, ")") && k > from {
				p := toks[k-1]
				// the target's column list: INSERT INTO [s.]t ()
				target := k == from+1 || k == from+3 && toks[from+1].isPunct(src, ".")
				if target || p.is(src, "VALUES") || p.is(src, "CONFLICT") || p.isPunct(src, ",") && insideValues(src, toks, from, k) {
					return k + 1
				}
			}
			depth++
		case t.isPunct(src, ")"):
			if depth == 0 {
				return -1
			}
			depth--
		case depth == 0 && (t.is(src, "SELECT") || t.is(src, "RETURNING") || t.is(src, "ON")):
			if !t.is(src, "ON") {
				return -1 // a query's or RETURNING's own lists
			}
		}
	}
	return -1
}

// insideValues reports whether toks[k] stands at the top level of the
// VALUES list of the INSERT whose target starts at toks[from].
func insideValues(src string, toks []token, from, k int) bool {
	depth := 0
	for j := from; j < k; j++ {
		switch {
		case toks[j].isPunct(src, "("):
			depth++
		case toks[j].isPunct(src, ")"):
			depth--
		case depth == 0 && toks[j].is(src, "VALUES"):
			return true
		}
	}
	return false
}
