package sql

// rewriteRowLocks reads PostgreSQL's FOR NO KEY UPDATE and FOR KEY SHARE,
// which TiDB's grammar lacks, as FOR UPDATE and FOR SHARE, recording the
// strength asked for in st.RowLockStrength for the binder.
func rewriteRowLocks(src string, toks []token, st *Statement) []token {
	for i := 0; i+2 < len(toks); i++ {
		if !toks[i].is(src, "FOR") {
			continue
		}
		switch {
		case i+3 < len(toks) && toks[i+1].is(src, "NO") && toks[i+2].is(src, "KEY") && toks[i+3].is(src, "UPDATE"):
			st.RowLockStrength = "no key update"
			return append(toks[:i+1:i+1], toks[i+3:]...)
		case toks[i+1].is(src, "KEY") && toks[i+2].is(src, "SHARE"):
			st.RowLockStrength = "key share"
			return append(toks[:i+1:i+1], toks[i+2:]...)
		}
	}
	return toks
}
