package sql

import (
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// Catalog-qualified names. PostgreSQL takes a relation name of three parts,
// database.schema.relation, and a column reference of four,
// database.schema.table.column, when the database is the one the session
// is connected to; any other database is 0A000 "cross-database references
// are not implemented". Tools qualify every name that way (dbt writes
// "db"."schema"."model" everywhere). TiDB's grammar has no catalog part,
// so stripCatalogs removes it from the tokens before any other pass, after
// checking it names the session's database (Parser.SetDatabase).
//
// Which names are relation names is decided by the token before them, as
// PostgreSQL's grammar decides by position: after FROM, JOIN, INTO,
// UPDATE, TABLE, VIEW, SEQUENCE, [IF [NOT]] EXISTS, ONLY, TRUNCATE,
// ANALYZE, VACUUM, COPY, DELETE's USING, GRANT's ON and CREATE INDEX's ON,
// and after a ',' in a FROM list or a DROP / TRUNCATE list. Elsewhere a
// three-part name is schema.table.column and is left alone; four parts are
// always catalog-qualified.

// SetDatabase sets the database this parser's session is connected to: a
// catalog qualifier naming it is dropped, any other is 0A000.
func (p *Parser) SetDatabase(name string) { p.database = name }

// AcceptAnyCatalog makes the parser drop every catalog qualifier without
// checking it: for definitions stored after they were checked (a view's
// SELECT), which a session connected under another database name reads.
func (p *Parser) AcceptAnyCatalog() { p.anyCatalog = true }

// relationWords are the words after which a name is a relation's.
var relationWords = map[string]bool{
	"FROM": true, "JOIN": true, "INTO": true, "UPDATE": true, "TABLE": true, "VIEW": true,
	"SEQUENCE": true, "EXISTS": true, "ONLY": true, "TRUNCATE": true, "ANALYZE": true,
	"VACUUM": true, "COPY": true,
}

// relationListEnds end a FROM / DROP list at their parenthesis level.
var relationListEnds = map[string]bool{
	"WHERE": true, "GROUP": true, "HAVING": true, "ORDER": true, "LIMIT": true, "OFFSET": true,
	"FETCH": true, "WINDOW": true, "UNION": true, "INTERSECT": true, "EXCEPT": true, "SET": true,
	"VALUES": true, "SELECT": true, "RETURNING": true, "ON": true, "CASCADE": true,
	"RESTRICT": true, "FOR": true,
}

// queryStarts are the words that make a parenthesis a subquery.
var queryStarts = map[string]bool{"SELECT": true, "WITH": true, "VALUES": true, "TABLE": true}

// isNamePart reports whether toks[k] is an identifier (bare or quoted).
func isNamePart(toks []token, k int) bool {
	return k >= 0 && k < len(toks) && (toks[k].kind == tkIdent || toks[k].kind == tkQIdent) && toks[k].synth == ""
}

// dottedAt returns how many dot-separated identifiers start at toks[k]
// (0 when toks[k] is no identifier).
func dottedAt(src string, toks []token, k int) int {
	n := 0
	for isNamePart(toks, k) {
		n++
		if k+1 < len(toks) && toks[k+1].isPunct(src, ".") {
			k += 2
			continue
		}
		break
	}
	return n
}

// stripCatalogs returns toks without the catalog part (and its dot) of
// every catalog-qualified name, or the 0A000 of one naming another
// database; changed says whether anything was removed.
func (p *Parser) stripCatalogs(src string, toks []token) (out []token, changed bool, err error) {
	// Most statements have no name of three parts: one cheap scan.
	found := false
	for k := 0; k+4 < len(toks); k++ {
		if toks[k+1].isPunct(src, ".") && toks[k+3].isPunct(src, ".") && isNamePart(toks, k) && isNamePart(toks, k+2) && isNamePart(toks, k+4) {
			found = true
			break
		}
	}
	if !found {
		return toks, false, nil
	}
	drop := map[int]bool{}
	err = walkNames(src, toks, func(k, n int, relation bool) error {
		switch {
		case n < 3, n == 3 && !relation:
			return nil // schema.table.column
		case n > 4, n == 4 && relation:
			return nil // PostgreSQL's "too many dotted names": TiDB's syntax error
		}
		catalog, _ := identName(src, toks[k])
		if !p.anyCatalog && catalog != p.database {
			parts := make([]string, n)
			for i := range parts {
				parts[i], _ = identName(src, toks[k+2*i])
			}
			name := strings.Join(parts, ".")
			if relation {
				name = `"` + name + `"`
			}
			return sqlerr.New(sqlerr.FeatureNotSupported, "cross-database references are not implemented: %s", name).
				WithPosition(charPos(src, toks[k].start))
		}
		drop[k] = true
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	if len(drop) == 0 {
		return toks, false, nil
	}
	// Each catalog token k and its dot k+1 go; the schema part k+2, which
	// now starts the name, becomes a synthetic quoted identifier (so
	// keywords stay names) with a space before it, so "FROM db.s.t" does
	// not become "FROMs.t".
	out = make([]token, 0, len(toks)-2*len(drop))
	for k := 0; k < len(toks); k++ {
		if !drop[k] {
			out = append(out, toks[k])
			continue
		}
		s := toks[k+2]
		name, _ := identName(src, s)
		s.kind, s.synth, s.inPlace, s.lead, s.hasComment = tkQIdent, quoteIdent(name), false, s.start, false
		out = append(out, s)
		k += 2
	}
	return out, true, nil
}

// walkNames calls fn for every dotted name of toks (its first token k and
// its number of parts n) with whether it stands where PostgreSQL's grammar
// takes a relation name (see the top of this file); a name followed by
// "(" is a function's, unless a column list follows a table's name (INTO,
// TABLE, VIEW). It stops at fn's first error.
func walkNames(src string, toks []token, fn func(k, n int, relation bool) error) error {
	if len(toks) == 0 {
		return nil
	}
	first := toks[0].word(src)
	type frame struct{ query, list bool }
	stack := []frame{{query: true}}
	for k := 0; k < len(toks); k++ {
		t := toks[k]
		top := &stack[len(stack)-1]
		switch {
		case t.isPunct(src, "("):
			q := k+1 < len(toks) && (queryStarts[toks[k+1].word(src)] || toks[k+1].isPunct(src, "("))
			stack = append(stack, frame{query: q})
			continue
		case t.isPunct(src, ")"):
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
			continue
		case !isNamePart(toks, k) || k > 0 && toks[k-1].isPunct(src, "."):
			continue
		}
		n := dottedAt(src, toks, k)
		if n == 1 && t.kind == tkIdent {
			switch w := t.word(src); {
			case relationListEnds[w]:
				top.list = false
			case w == "FROM" && top.query && !(k > 0 && toks[k-1].is(src, "DISTINCT")),
				w == "USING" && first == "DELETE" && top.query,
				(w == "TABLE" || w == "VIEW" || w == "SEQUENCE") && (first == "DROP" || first == "TRUNCATE"),
				(w == "TRUNCATE" || w == "ANALYZE" || w == "VACUUM") && k == 0:
				top.list = true
			}
		}
		relation := false
		if k > 0 {
			prev := toks[k-1]
			pw := prev.word(src)
			switch {
			case relationWords[pw] && (pw != "FROM" || top.query) && !(pw == "FROM" && k > 1 && toks[k-2].is(src, "DISTINCT")):
				relation = true
			case pw == "USING" && first == "DELETE",
				pw == "ON" && (first == "GRANT" || first == "REVOKE" || first == "CREATE" && indexStatement(src, toks)):
				relation = true
			case prev.isPunct(src, ","):
				relation = top.list
			}
		}
		end := k + 2*n - 1 // the token after the name
		if end < len(toks) && toks[end].isPunct(src, "(") && k > 0 {
			switch toks[k-1].word(src) {
			case "INTO", "TABLE", "VIEW": // a column list
			default:
				relation = false // a function call
			}
		}
		if err := fn(k, n, relation); err != nil {
			return err
		}
		k = end - 1
	}
	return nil
}

// indexStatement: CREATE [UNIQUE] INDEX.
func indexStatement(src string, toks []token) bool {
	return len(toks) > 2 && (toks[1].is(src, "INDEX") || toks[1].is(src, "UNIQUE") && toks[2].is(src, "INDEX"))
}
