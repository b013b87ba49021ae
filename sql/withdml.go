package sql

// hoistWithIntoInsert turns WITH ... INSERT INTO t [(cols)] SELECT ... into
// INSERT INTO t [(cols)] WITH ... SELECT ...: PostgreSQL allows a WITH
// clause before INSERT, TiDB's grammar only before the inserted query, and
// the two mean the same when the query is a SELECT (the WITH queries are
// visible to it either way). Other shapes (INSERT ... VALUES, a second
// WITH inside) are left for TiDB to reject.
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
	if q < len(toks) && toks[q].isPunct(src, "(") { // the column list
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
	if q >= len(toks) || !toks[q].is(src, "SELECT") {
		return toks
	}
	out := make([]token, 0, len(toks))
	out = append(out, toks[at:q]...)
	with := append([]token(nil), toks[:at]...)
	// a synthesised word gets a space before it, separating it from the
	// table name or column list
	with[0].synth, with[0].lead = "with", with[0].start
	out = append(out, with...)
	return append(out, toks[q:]...)
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
