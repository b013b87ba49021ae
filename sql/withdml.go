package sql

// hoistWithIntoInsert turns WITH ... INSERT INTO t [(cols)] SELECT ... into
// INSERT INTO t [(cols)] WITH ... SELECT ...: PostgreSQL allows a WITH
// clause before INSERT, TiDB's grammar only before the inserted query, and
// the two mean the same when the query is a SELECT (the WITH queries are
// visible to it either way). INSERT ... VALUES and DEFAULT VALUES, which
// TiDB takes no WITH with, become such a SELECT from a derived table the
// tree reads back as the VALUES rows (insertValuesMarker, totree_dml.go):
//
//	WITH x AS (..) INSERT INTO t VALUES (1), (2) -> INSERT INTO t WITH x AS (..) select * from (VALUES (1), (2)) as pg__insert_values
//	WITH x AS (..) INSERT INTO t DEFAULT VALUES  -> INSERT INTO t WITH x AS (..) select * from (values (default)) as pg__default_values
//
// Other shapes (a second WITH inside) are left for TiDB to reject.
func hoistWithIntoInsert(src string, toks []token) []token {
	at := dmlVerb(src, toks)
	if at <= 0 || !toks[0].is(src, "WITH") || !toks[at].is(src, "INSERT") {
		return toks
	}
	q := at + 1
	if q < len(toks) && toks[q].is(src, "INTO") {
		q++
	}
	// the table name: a word, maybe qualified, maybe AS alias
	for q < len(toks) && (toks[q].kind == tkIdent || toks[q].kind == tkQIdent || toks[q].isPunct(src, ".")) &&
		!toks[q].is(src, "SELECT") && !toks[q].is(src, "VALUES") && !toks[q].is(src, "DEFAULT") && !toks[q].is(src, "OVERRIDING") {
		q++
	}
	cols := false
	if q < len(toks) && toks[q].isPunct(src, "(") { // the column list
		cols = true
		depth := 0
		for ; q < len(toks); q++ {
			if toks[q].isPunct(src, "(") {
				depth++
			} else if toks[q].isPunct(src, ")") {
				if depth--; depth == 0 {
					q++
					break
				}
			}
		}
	}
	// OVERRIDING { SYSTEM | USER } VALUE stays with INSERT (coldefs.go)
	if q+2 < len(toks) && toks[q].is(src, "OVERRIDING") && toks[q+2].is(src, "VALUE") {
		q += 3
	}
	var query, rest []token
	switch {
	case q >= len(toks):
		return toks
	case toks[q].is(src, "SELECT"):
		rest = toks[q:]
	case toks[q].is(src, "VALUES"):
		end := valuesRowsEnd(src, toks, q)
		if end < 0 {
			return toks
		}
		query = insertValuesQuery(toks[q].start, toks[end-1].end, insertValuesMarker, toks[q:end])
		rest = toks[end:]
	case !cols && q+1 < len(toks) && toks[q].is(src, "DEFAULT") && toks[q+1].is(src, "VALUES"):
		query = insertValuesQuery(toks[q].start, toks[q+1].end, defaultValuesMarker, []token{toks[q+1]})
		rest = toks[q+2:]
	default:
		return toks
	}
	out := make([]token, 0, len(toks)+len(query))
	out = append(out, toks[at:q]...)
	with := append([]token(nil), toks[:at]...)
	// a synthesised word gets a space before it, separating it from the
	// table name or column list
	with[0].synth, with[0].lead = "with", with[0].start
	out = append(out, with...)
	out = append(out, query...)
	return append(out, rest...)
}

// The derived tables' aliases that stand for INSERT's VALUES rows and
// DEFAULT VALUES after a WITH (hoistWithIntoInsert).
const (
	insertValuesMarker  = "pg__insert_values"
	defaultValuesMarker = "pg__default_values"
)

// valuesRowsEnd is the index after the last row of the VALUES list whose
// VALUES is token k ((..), (..), ...), -1 when it has no row or an
// unclosed one.
func valuesRowsEnd(src string, toks []token, k int) int {
	q := k + 1
	for {
		if q >= len(toks) || !toks[q].isPunct(src, "(") {
			return -1
		}
		depth := 0
		for ; q < len(toks); q++ {
			if toks[q].isPunct(src, "(") {
				depth++
			} else if toks[q].isPunct(src, ")") {
				if depth--; depth == 0 {
					break
				}
			}
		}
		if q >= len(toks) {
			return -1
		}
		q++
		if q+1 < len(toks) && toks[q].isPunct(src, ",") && toks[q+1].isPunct(src, "(") {
			q++
			continue
		}
		return q
	}
}

// insertValuesQuery is select * from (rows) as marker, its synthesised
// words at the VALUES list's start and end. For DEFAULT VALUES, rows is
// the VALUES word alone (a written one, which the rewrite reads as a
// query's VALUES), given one row of DEFAULT.
func insertValuesQuery(start, end int, marker string, rows []token) []token {
	word := func(at int, w string) token { return token{kind: tkIdent, start: at, end: at, lead: at, synth: w} }
	punct := func(at int, p string, kind tokKind) token {
		return token{kind: kind, start: at, end: at, lead: at, synth: p}
	}
	out := []token{word(start, "select"), punct(start, "*", tkOp), word(start, "from"), punct(start, "(", tkPunct)}
	out = append(out, rows...)
	if len(rows) == 1 {
		out = append(out, punct(end, "(", tkPunct), word(end, "default"), punct(end, ")", tkPunct))
	}
	return append(out, punct(end, ")", tkPunct), word(end, "as"), token{kind: tkQIdent, start: end, end: end, lead: end, synth: `"` + marker + `"`})
}

// rewriteInsert rewrites INSERT's PostgreSQL-only clauses: INSERT INTO t
// AS alias, DEFAULT in VALUES, ON CONFLICT, RETURNING.
func rewriteInsert(src string, toks []token, st *Statement) ([]token, error) {
	toks = rewriteInsertAlias(src, toks, st)
	toks = rewriteInsertDefaults(src, toks, st) // coldefs.go
	toks, err := rewriteOnConflict(src, toks, st)
	if err != nil {
		return nil, err
	}
	return rewriteDML(src, toks, st)
}
