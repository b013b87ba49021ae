package sql

// COLLATE clauses are removed from the statement text before it is parsed
// (normalizeTokens: sqlgate compares strings bytewise, which is the order
// of PostgreSQL's C, POSIX and C.UTF-8 default collations alike). A CREATE
// TABLE column's COLLATE is still PostgreSQL catalog state (pg_attribute.
// attcollation, psql's Collation column): columnCollations reads them from
// the tokens before the removal, for the binder to keep.

// columnCollations maps each column of a CREATE TABLE's column list that
// declares COLLATE C, POSIX or ucs_basic to that collation's name (the
// default collation is no change, and unknown ones fail in
// normalizeTokens). nil for other statements.
func columnCollations(src string, toks []token) map[string]string {
	if len(toks) < 3 || !toks[0].is(src, "CREATE") {
		return nil
	}
	found := false
	for _, t := range toks {
		if t.is(src, "COLLATE") {
			found = true
			break
		}
	}
	if !found {
		return nil
	}
	i := 1
	for i < len(toks) && !toks[i].is(src, "TABLE") {
		if toks[i].isPunct(src, "(") || toks[i].is(src, "AS") {
			return nil
		}
		i++
	}
	for i < len(toks) && !toks[i].isPunct(src, "(") {
		i++
	}
	var out map[string]string
	depth, column, start := 0, "", true
	for ; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.isPunct(src, "("):
			depth++
			if depth == 1 {
				start = true
				continue
			}
		case t.isPunct(src, ")"):
			depth--
			if depth == 0 {
				return out
			}
		case depth == 1 && t.isPunct(src, ","):
			start = true
			continue
		case depth == 1 && start:
			start, column = false, ""
			if t.kind == tkIdent && columnListWords[t.word(src)] {
				continue // a table constraint or LIKE
			}
			if n, ok := identName(src, t); ok {
				column = n
			}
			continue
		case depth == 1 && column != "" && t.is(src, "COLLATE") && collateClauseAt(src, toks, i) && i+1 < len(toks):
			name := identNameOr(src, toks[i+1], "")
			if i+3 < len(toks) && toks[i+2].isPunct(src, ".") { // pg_catalog."C"
				if n, ok := identName(src, toks[i+3]); ok {
					name = n
				}
			}
			switch name {
			case "C", "POSIX", "ucs_basic":
				if out == nil {
					out = map[string]string{}
				}
				out[column] = name
			}
		}
	}
	return out
}

// columnListWords start a CREATE TABLE list item that is no column.
var columnListWords = map[string]bool{"CONSTRAINT": true, "PRIMARY": true, "UNIQUE": true, "CHECK": true,
	"FOREIGN": true, "EXCLUDE": true, "LIKE": true}
