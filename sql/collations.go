package sql

// A COLLATE clause of an expression stays in the statement for the
// rewrite, which hands it to TiDB as pg__collate(x, 'name' [, ...]) (one
// string per part of the possibly qualified name, the marker's name
// arguments placed at the COLLATE keyword, where PostgreSQL reports the
// clause's errors); the binder looks the collation up and derives
// expressions' collations (binder/collate.go). The COLLATE clauses of
// types (a CREATE TABLE column's, ALTER COLUMN TYPE's, CREATE DOMAIN's,
// an index element's) are removed before the statement is parsed
// (normalizeTokens), the collation named checked here: sqlgate compares
// strings bytewise, which is the order of each collation it has. A
// CREATE TABLE column's COLLATE is still PostgreSQL catalog state
// (pg_attribute.attcollation, psql's Collation column): columnCollations
// reads them from the tokens before the removal, for the binder to keep.

// KnownCollation reports whether name is one of the collations sqlgate
// has (functions.Collations lists their pg_collation rows): PostgreSQL
// 15's "default", "C", "POSIX", ucs_basic and the C.utf8 that initdb
// imports from the C.UTF-8 locale, each of which orders strings by their
// bytes (the database's default collation is C where PostgreSQL is the
// oracle: internal/pgtest's initdb --locale=C).
func KnownCollation(name string) bool {
	switch name {
	case "default", "C", "POSIX", "ucs_basic", "C.utf8":
		return true
	}
	return false
}

func knownCollation(name string) bool { return KnownCollation(name) }

// exprCollateFrom is the index of the first token of a statement whose
// COLLATE clauses are expressions' (len(toks) when none is): a query's or
// DML statement's from its start, a CREATE statement's from the query
// after its top-level AS (CREATE VIEW, CREATE TABLE AS, CREATE
// MATERIALIZED VIEW). Other statements' COLLATE clauses are their types'.
func exprCollateFrom(src string, toks []token) int {
	if len(toks) == 0 {
		return 0
	}
	switch {
	case toks[0].isPunct(src, "("):
		return 0
	case toks[0].kind != tkIdent:
		return len(toks)
	}
	switch toks[0].word(src) {
	case "SELECT", "WITH", "VALUES", "TABLE", "INSERT", "UPDATE", "DELETE", "MERGE", "EXPLAIN", "PREPARE", "DECLARE":
		return 0
	case "CREATE":
		depth := 0
		for i := 1; i+1 < len(toks); i++ {
			switch t := toks[i]; {
			case t.isPunct(src, "("):
				depth++
			case t.isPunct(src, ")"):
				depth--
			case depth == 0 && t.is(src, "AS"):
				n := toks[i+1]
				if n.isPunct(src, "(") || n.is(src, "SELECT") || n.is(src, "WITH") || n.is(src, "VALUES") || n.is(src, "TABLE") {
					return i + 1
				}
			}
		}
	}
	return len(toks)
}

// columnCollations maps each column of a CREATE TABLE's column list that
// declares COLLATE C, POSIX, ucs_basic or C.utf8 to that collation's name (the
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
			if name != "default" && knownCollation(name) {
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

// collateMarker is x COLLATE name, the COLLATE at toks[k] and x the
// primary that ends out, as pg__collate(x, 'part', ..) placed where x
// starts, and the index after the name. ok is false when no primary
// precedes it (TiDB's grammar then refuses the keyword where
// PostgreSQL's does) or the name is no (qualified) identifier.
func (r *rewriter) collateMarker(out []item, k, j int) (item, int, bool) {
	s := r.primaryStart(out)
	if s < 0 {
		return item{}, 0, false
	}
	var parts []string
	e := k + 1
	for e < j {
		n, ok := identName(r.src, r.toks[e])
		if !ok {
			return item{}, 0, false
		}
		parts = append(parts, n)
		e++
		if e+1 < j && r.toks[e].isPunct(r.src, ".") {
			e++
			continue
		}
		break
	}
	if len(parts) == 0 {
		return item{}, 0, false
	}
	at := r.toks[k].start
	b := newComposite(out[s].lead)
	b.add("pg__collate(", out[s].firstOrig())
	b.addItems(out[s:], true)
	for _, p := range parts {
		b.add(", ", at)
		b.add(sqlQuote(p), at)
	}
	b.add(")", at)
	return b.it, e, true
}

// alterTypeCollate reports whether the COLLATE at toks[i] is ALTER TABLE's
// ALTER COLUMN ... TYPE t COLLATE name, which the statement's parser
// reads (altercolumn.go): a TYPE stands before it in its action (back to
// the action's comma).
func alterTypeCollate(src string, toks []token, i int) bool {
	if !toks[0].is(src, "ALTER") {
		return false
	}
	depth := 0
	for k := i - 1; k > 0; k-- {
		t := toks[k]
		switch {
		case t.isPunct(src, ")"):
			depth++
		case t.isPunct(src, "("):
			depth--
		case depth == 0 && t.isPunct(src, ","):
			return false
		case depth == 0 && t.is(src, "TYPE"):
			return true
		}
	}
	return false
}
