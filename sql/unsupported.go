package sql

import (
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// The statements of PostgreSQL 15's grammar that sqlgate does not run:
// when one fails to parse (TiDB's grammar or sqlgate's statement parsers
// have no rule for it), the error is 0A000 naming what is not supported,
// never the 42601 that would tell a migration tool its SQL is wrong.
// unsupportedStatement recognises them by their leading words (and, for
// the forms of statements sqlgate runs in part, the clause it lacks); a
// statement it does not recognise keeps its syntax error. The forms are
// checked against PostgreSQL 15 by tests/difftest's TestDDLCorpusNoSyntaxError.
//
// A statement that begins like one of these and is not PostgreSQL's
// either (CREATE POLICY followed by nonsense) gets the 0A000 too: sqlgate
// has no grammar for it to find the error in.

// unsupportedObjects are the object kinds of CREATE / ALTER / DROP that
// sqlgate keeps none of (the first word after the verb, then the words
// that complete the kind's name), each with a hint where there is a way.
var unsupportedObjects = []struct {
	words []string
	verbs string // the verbs it takes: C(REATE) A(LTER) D(ROP)
	hint  string
}{
	{[]string{"POLICY"}, "CA", "sqlgate has no row-level security: restrict access with GRANT, or with a view that filters the rows."},
	{[]string{"STATISTICS"}, "CAD", "sqlgate plans without extended statistics."},
	{[]string{"AGGREGATE"}, "CA", "Compute the aggregate with the built-in aggregates, or in a LANGUAGE python function over an array_agg of the values."},
	{[]string{"OPERATOR", "CLASS"}, "CAD", ""},
	{[]string{"OPERATOR", "FAMILY"}, "CAD", ""},
	{[]string{"OPERATOR"}, "CAD", "Call a function instead of an operator."},
	{[]string{"CAST"}, "CD", "Call a conversion function explicitly."},
	{[]string{"COLLATION"}, "CAD", "sqlgate has the collations \"default\", \"C\", \"POSIX\", \"ucs_basic\" and \"C.utf8\"."},
	{[]string{"CONSTRAINT", "TRIGGER"}, "C", "Enforce the rule with a CHECK or FOREIGN KEY constraint."},
	{[]string{"EVENT", "TRIGGER"}, "CAD", ""},
	{[]string{"TRIGGER"}, "CA", "sqlgate runs no trigger functions: compute derived columns with GENERATED ALWAYS AS (expr) STORED or DEFAULT, and check rows with CHECK constraints."},
	{[]string{"RULE"}, "CA", "Use a view, or run the statements the rule would run yourself."},
	{[]string{"DEFAULT", "CONVERSION"}, "C", ""},
	{[]string{"CONVERSION"}, "CAD", "sqlgate's only encoding is UTF8."},
	{[]string{"TEXT", "SEARCH", "CONFIGURATION"}, "CAD", "sqlgate's text search configurations are the built-in ones (pg_ts_config)."},
	{[]string{"TEXT", "SEARCH", "DICTIONARY"}, "CAD", ""},
	{[]string{"TEXT", "SEARCH", "PARSER"}, "CAD", ""},
	{[]string{"TEXT", "SEARCH", "TEMPLATE"}, "CAD", ""},
	{[]string{"TABLESPACE"}, "CAD", "Fluss places a table's data itself: sqlgate has the tablespaces pg_default and pg_global only."},
	{[]string{"ACCESS", "METHOD"}, "CD", ""},
	{[]string{"FOREIGN", "DATA", "WRAPPER"}, "CAD", ""},
	{[]string{"SERVER"}, "CAD", ""},
	{[]string{"USER", "MAPPING"}, "CAD", ""},
	{[]string{"FOREIGN", "TABLE"}, "CAD", "Read files with read_parquet, or load them with COPY."},
	{[]string{"PUBLICATION"}, "CAD", "Follow a table's changes with SUBSCRIBE, or read its Fluss changelog."},
	{[]string{"SUBSCRIPTION"}, "CAD", ""},
	{[]string{"TRUSTED", "PROCEDURAL", "LANGUAGE"}, "C", ""},
	{[]string{"TRUSTED", "LANGUAGE"}, "C", ""},
	{[]string{"PROCEDURAL", "LANGUAGE"}, "CAD", ""},
	{[]string{"LANGUAGE"}, "CAD", "sqlgate runs LANGUAGE sql and LANGUAGE python functions."},
	{[]string{"TRANSFORM"}, "CD", ""},
	{[]string{"PROCEDURE"}, "CA", "Use a function (CREATE FUNCTION ... LANGUAGE sql), or run the statements one by one."},
	{[]string{"ROUTINE"}, "A", ""},
	{[]string{"DATABASE"}, "CAD", "A sqlgate server serves one database; Fluss databases are its schemas (CREATE SCHEMA)."},
	{[]string{"SYSTEM"}, "A", "Set the server's options on its command line."},
	{[]string{"EXTENSION"}, "A", ""},
	{[]string{"LARGE", "OBJECT"}, "A", ""},
	{[]string{"GROUP"}, "CAD", "Use CREATE ROLE, GRANT role TO role and DROP ROLE."},
	{[]string{"RECURSIVE", "VIEW"}, "C", "Write the view's query with WITH RECURSIVE."},
	{[]string{"TEMP", "VIEW"}, "C", "Create an ordinary view."},
	{[]string{"TEMPORARY", "VIEW"}, "C", "Create an ordinary view."},
	{[]string{"TEMP", "RECURSIVE", "VIEW"}, "C", ""},
	{[]string{"TEMPORARY", "RECURSIVE", "VIEW"}, "C", ""},
}

// unsupportedLeads are statements of other verbs, by their leading words.
var unsupportedLeads = []struct {
	words []string
	hint  string
}{
	{[]string{"SECURITY", "LABEL"}, "sqlgate has no label provider."},
	{[]string{"IMPORT", "FOREIGN", "SCHEMA"}, "Read files with read_parquet, or load them with COPY."},
	{[]string{"REASSIGN", "OWNED"}, "Change each object's owner with ALTER ... OWNER TO."},
	{[]string{"DROP", "OWNED"}, "Drop each object, or REVOKE the role's privileges on it."},
	{[]string{"CHECKPOINT"}, "sqlgate's writes are durable when their transaction commits."},
	{[]string{"LOAD"}, "sqlgate loads no shared libraries."},
}

// unsupportedActions are the actions of ALTER statements sqlgate runs in
// part whose other forms it lacks: the object kind, then the action's
// leading words, looked for after the object's name.
var unsupportedActions = []struct {
	object string
	action []string
	hint   string
}{
	{"SEQUENCE", []string{"SET", "LOGGED"}, "sqlgate's sequences are always logged."},
	{"SEQUENCE", []string{"SET", "UNLOGGED"}, "sqlgate's sequences are always logged."},
	{"SCHEMA", []string{"RENAME"}, "A schema is a Fluss database, which Fluss 0.9.1 cannot rename."},
	{"TABLE", []string{"ALL", "IN", "TABLESPACE"}, "sqlgate keeps every table in the default tablespace."},
	{"MATERIALIZED", []string{"ALL", "IN", "TABLESPACE"}, "sqlgate keeps every table in the default tablespace."},
}

// unsupportedClauses are CREATE TABLE's clauses sqlgate has no rule for.
var unsupportedClauses = []struct {
	words   []string
	feature string
	hint    string
}{
	{[]string{"USING", "INDEX", "TABLESPACE"}, "USING INDEX TABLESPACE", "Fluss places a table's data itself."},
	{[]string{"INCLUDE", "("}, "a constraint's INCLUDE columns", "sqlgate's indexes hold their key's columns only."},
	{[]string{"EXCLUDE"}, "EXCLUDE constraints", "Use a UNIQUE constraint or a primary key where equality is the rule."},
	{[]string{"COMPRESSION"}, "a column's COMPRESSION in CREATE TABLE", "Fluss compresses its log itself; ALTER TABLE ... ALTER COLUMN ... SET COMPRESSION records the method."},
	{[]string{"WITH", "NO", "DATA"}, "CREATE TABLE AS ... WITH NO DATA", "Add WHERE false to the query."},
	{[]string{"WITH", "DATA"}, "CREATE TABLE AS ... WITH DATA", "Leave WITH DATA out: it is the default."},
	{[]string{"WITH", "("}, "storage parameters (WITH (...)) of a constraint's index", "Leave them out: sqlgate's indexes have none."},
	{[]string{"OF"}, "typed tables (CREATE TABLE ... OF type)", "List the type's attributes as the table's columns."},
}

// unsupportedStatement is the 0A000 of a statement of PostgreSQL's that
// sqlgate does not run, or nil when toks are none of those above.
func unsupportedStatement(src string, toks []token) *sqlerr.Error {
	p := &sessionParser{src: src, toks: toks}
	at := func(i int, feature, hint string) *sqlerr.Error {
		e := sqlerr.New(sqlerr.FeatureNotSupported, "%s is not supported", feature).WithPosition(charPos(src, toks[i].start))
		if hint != "" {
			e = e.WithHint("%s", hint)
		}
		return e
	}
	verb := p.word(0)
	for _, l := range unsupportedLeads {
		if p.accept(l.words...) {
			return at(0, strings.Join(l.words, " "), l.hint)
		}
	}
	switch verb {
	case "CREATE", "ALTER", "DROP":
		p.pos = 1
		if verb == "CREATE" {
			p.accept("OR", "REPLACE")
		}
		kind := p.pos
		for _, o := range unsupportedObjects {
			if strings.Contains(o.verbs, verb[:1]) && p.accept(o.words...) {
				return at(0, verb+" "+strings.Join(o.words, " "), o.hint)
			}
		}
		if verb == "ALTER" {
			return unsupportedAction(p, at)
		}
		if verb == "CREATE" && createsTable(p, kind) {
			return unsupportedClause(p, at)
		}
	case "GRANT", "REVOKE":
		return unsupportedGrant(p, at)
	case "SELECT":
		if i, ok := selectIntoAt(src, toks); ok {
			return at(i, "SELECT ... INTO", "Use CREATE TABLE name AS SELECT ....")
		}
	}
	return nil
}

// selectIntoAt finds the INTO of SELECT targets INTO [TEMP | TEMPORARY |
// UNLOGGED] [TABLE] name ..., CREATE TABLE AS's older spelling: at the
// statement's level, after a select list and before FROM, followed by a
// name that is no reserved keyword. INTO anywhere else (a table or column
// named into, SELECT 1 INTO at the end) is PostgreSQL's syntax error.
func selectIntoAt(src string, toks []token) (int, bool) {
	items := 0
	for i := range topLevel(src, toks, 1, len(toks)) {
		switch {
		case toks[i].is(src, "FROM"):
			return 0, false
		case !toks[i].is(src, "INTO"):
			items++
			continue
		}
		if items == 0 || toks[i-1].isPunct(src, ".") || toks[i-1].is(src, "AS") {
			return 0, false
		}
		k := i + 1
		for k < len(toks) && (toks[k].is(src, "TEMP") || toks[k].is(src, "TEMPORARY") || toks[k].is(src, "UNLOGGED") || toks[k].is(src, "TABLE")) {
			k++
		}
		if k >= len(toks) || toks[k].kind != tkIdent && toks[k].kind != tkQIdent {
			return 0, false
		}
		if kw, ok := pgKeywords[toks[k].word(src)]; ok && toks[k].kind == tkIdent && kw.cat == kwReserved {
			return 0, false
		}
		return i, true
	}
	return 0, false
}

// createsTable reports whether the words at kind are CREATE's TABLE
// (after its persistence words).
func createsTable(p *sessionParser, kind int) bool {
	p.pos = kind
	for p.accept("GLOBAL") || p.accept("LOCAL") || p.accept("TEMP") || p.accept("TEMPORARY") || p.accept("UNLOGGED") {
	}
	return p.accept("TABLE")
}

// unsupportedAction is the 0A000 of ALTER object name action whose action
// is one of unsupportedActions.
func unsupportedAction(p *sessionParser, at func(int, string, string) *sqlerr.Error) *sqlerr.Error {
	p.pos = 1
	object := p.word(0)
	for i := 2; i < len(p.toks); i++ {
		for _, a := range unsupportedActions {
			if a.object != object {
				continue
			}
			p.pos = i
			if p.accept(a.action...) {
				return at(i, "ALTER "+objectWords(object)+" ... "+strings.Join(a.action, " "), a.hint)
			}
		}
	}
	return nil
}

// objectWords spells an ALTER statement's object kind.
func objectWords(object string) string {
	if object == "MATERIALIZED" {
		return "MATERIALIZED VIEW"
	}
	return object
}

// unsupportedClause is the 0A000 of CREATE TABLE with a clause of
// unsupportedClauses (p after TABLE).
func unsupportedClause(p *sessionParser, at func(int, string, string) *sqlerr.Error) *sqlerr.Error {
	start := p.pos
	for _, c := range unsupportedClauses {
		// from after the table's name (a table named with is
		// PostgreSQL's syntax error, not a clause)
		for i := start + 1; i < len(p.toks); i++ {
			if c.words[0] == "OF" && i != start+1 && !(i == start+3 && p.toks[start+1].isPunct(p.src, ".")) {
				continue // OF right after the table's name
			}
			ok := true
			for k, w := range c.words {
				t := i + k
				if t >= len(p.toks) || !(w == "(" && p.toks[t].isPunct(p.src, "(") || p.toks[t].is(p.src, w)) {
					ok = false
					break
				}
			}
			if ok {
				return at(i, c.feature, c.hint)
			}
		}
	}
	// PRIMARY KEY [(cols)] DEFERRABLE (a foreign key's DEFERRABLE is
	// sqlgate's: foreignkey.go)
	for i := start + 1; i < len(p.toks); i++ {
		if !p.toks[i].is(p.src, "DEFERRABLE") {
			continue
		}
		k := i - 1
		if p.toks[k].isPunct(p.src, ")") {
			for k > start && !p.toks[k].isPunct(p.src, "(") {
				k--
			}
			k--
		}
		if k > start && p.toks[k].is(p.src, "KEY") && p.toks[k-1].is(p.src, "PRIMARY") {
			return at(i, "a DEFERRABLE primary key", "sqlgate checks a key as each row is written; only a FOREIGN KEY can be deferred.")
		}
	}
	return nil
}

// unsupportedGrant is the 0A000 of GRANT and REVOKE forms sqlgate lacks:
// ON ALL FUNCTIONS | PROCEDURES | ROUTINES | SEQUENCES IN SCHEMA, ON
// PARAMETER.
func unsupportedGrant(p *sessionParser, at func(int, string, string) *sqlerr.Error) *sqlerr.Error {
	verb := p.toks[0].word(p.src)
	for i := 1; i < len(p.toks); i++ {
		if !p.toks[i].is(p.src, "ON") {
			continue
		}
		p.pos = i + 1
		switch {
		case p.accept("ALL", "FUNCTIONS"), p.accept("ALL", "PROCEDURES"), p.accept("ALL", "ROUTINES"), p.accept("ALL", "SEQUENCES"):
			return at(i, verb+" ... ON ALL "+p.word(-1)+" IN SCHEMA", "Grant the privilege on each object by name.")
		case p.accept("PARAMETER"):
			return at(i, verb+" ... ON PARAMETER", "")
		}
		return nil
	}
	// GRANT role [, ...] TO role, REVOKE role FROM role: no ON clause
	return at(0, verb+" of role membership", "sqlgate's roles hold no other roles: grant the privileges to each role.")
}
