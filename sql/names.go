package sql

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
)

// Keywords as names. PostgreSQL's grammar decides by keyword category
// (pgkeywords.go, generated from pg_get_keywords()) which words may be
// names where: unreserved (U) and column-name (C) keywords are identifiers
// (ColId) in column references, table names, aliases and column lists;
// type/function-name (T) and reserved (R) ones are not; after AS and after
// a dot any word is a label; a select-list label without AS must be an
// identifier or a BARE_LABEL keyword. TiDB's MySQL grammar reserves other
// words (key, rows, range, index, partition, read, ssl, rank, div, ...).
//
// quoteNames is the pass that reconciles the two before the rewrite: it
// walks the tokens once, keeping for each parenthesis level what kind of
// list it is and which clause is in force, and for a word standing where
// PostgreSQL takes a name it either replaces the word by its quoted,
// lower-cased form (a name for TiDB whatever its grammar reserves) or, when
// PostgreSQL's category does not allow a name there, reports PostgreSQL's
// syntax error. Keyword uses (PRIMARY KEY, ROWS BETWEEN, PARTITION BY,
// WITH RECURSIVE, ...) stand in positions none of the rules below match.

// wordFlags says what a word is to the two grammars.
type wordFlags uint8

const (
	wfPG        wordFlags = 1 << iota // a PostgreSQL keyword (see cat)
	wfBareLabel                       // PostgreSQL BARE_LABEL
	wfTiDB                            // a keyword of TiDB's grammar (reserved or not)
)

type wordInfo struct {
	flags wordFlags
	cat   kwCategory
}

// nameWords is PostgreSQL's keyword list merged with TiDB's reserved words:
// a word in neither is an identifier to both grammars and needs nothing.
var nameWords = buildNameWords()

func buildNameWords() map[string]wordInfo {
	m := make(map[string]wordInfo, len(pgKeywords)+len(parser.Keywords))
	for w, k := range pgKeywords {
		f := wfPG
		if k.bareLabel {
			f |= wfBareLabel
		}
		m[w] = wordInfo{flags: f, cat: k.cat}
	}
	// TiDB's unreserved keywords too: its grammar refuses several of them
	// as names in some positions (schema, schemas, dec), and a quoted name
	// means the same to it.
	for _, k := range parser.Keywords {
		wi := m[k.Word]
		wi.flags |= wfTiDB
		m[k.Word] = wi
	}
	return m
}

// colID reports whether PostgreSQL takes the word as an identifier (ColId):
// any word but its reserved and type/function-name keywords.
func (wi wordInfo) colID() bool {
	return wi.flags&wfPG == 0 || wi.cat == kwUnreserved || wi.cat == kwColName
}

// valueKeywords are reserved and type/function-name keywords that are whole
// expressions (or start one) where a column reference could stand, so a
// column-reference position does not make them a syntax error.
var valueKeywords = map[string]bool{
	"TRUE": true, "FALSE": true, "NULL": true, "DEFAULT": true,
	"CURRENT_DATE": true, "CURRENT_TIME": true, "CURRENT_TIMESTAMP": true,
	"LOCALTIME": true, "LOCALTIMESTAMP": true, "CURRENT_ROLE": true,
	"CURRENT_USER": true, "SESSION_USER": true, "USER": true,
	"CURRENT_CATALOG": true, "CURRENT_SCHEMA": true,
	"ALL": true, "DISTINCT": true, "NOT": true, "CASE": true, "ARRAY": true,
	"BOTH": true, "LEADING": true, "TRAILING": true,
}

// withOption are the words after a WITH that is no WITH clause.
var withOption = map[string]bool{"ORDINALITY": true, "LOCAL": true, "CASCADED": true, "CHECK": true, "TIME": true, "TIES": true}

// sqlValueFunctions are the keywords that are function calls without
// parentheses (PostgreSQL's SQLValueFunction).
var sqlValueFunctions = map[string]bool{
	"CURRENT_DATE": true, "CURRENT_TIME": true, "CURRENT_TIMESTAMP": true, "LOCALTIME": true,
	"LOCALTIMESTAMP": true, "CURRENT_ROLE": true, "CURRENT_USER": true, "SESSION_USER": true,
	"USER": true, "CURRENT_CATALOG": true, "CURRENT_SCHEMA": true,
}

// identNameOr is the name token t stands for, or def when it is no name.
func identNameOr(src string, t token, def string) string {
	if n, ok := identName(src, t); ok {
		return n
	}
	return def
}

// quoteIdent is name as a quoted identifier.
func quoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// exprStartWords are words after which an expression (so possibly a
// column reference) begins.
var exprStartWords = map[string]bool{
	"SELECT": true, "DISTINCT": true, "ALL": true, "WHERE": true, "AND": true, "OR": true,
	"NOT": true, "ON": true, "WHEN": true, "THEN": true, "ELSE": true, "BY": true,
	"HAVING": true, "SET": true, "RETURNING": true, "CASE": true, "LIMIT": true,
	"OFFSET": true, "BETWEEN": true, "LIKE": true, "ILIKE": true, "ESCAPE": true,
}

// onlyNameAtExprStart are PostgreSQL's unreserved keywords that TiDB's
// grammar reserves and that start none of PostgreSQL's constructs where
// an expression starts: there they are a column reference to PostgreSQL
// whatever follows (ORDER BY BY id, WHERE a AND key b), so its syntax
// error is at the token after them, where TiDB's is too once they are
// quoted. Type names (typed literals), EXISTS, ROW, BETWEEN, the window
// words (OVER (PARTITION BY, ROWS ..)), REPLACE (CREATE OR REPLACE) and
// the statement words (SET, INSERT, UPDATE, DELETE) start constructs
// there and are not among them.
var onlyNameAtExprStart = map[string]bool{
	"ADD": true, "ALTER": true, "BY": true, "CALL": true, "CASCADE": true, "CONTINUE": true,
	"CURSOR": true, "DATABASE": true, "DROP": true, "EXPLAIN": true, "FORCE": true, "INDEX": true,
	"INOUT": true, "KEY": true, "LOAD": true, "LOCK": true, "MAXVALUE": true, "OPTION": true,
	"OUT": true, "PROCEDURE": true, "READ": true, "RELEASE": true, "RENAME": true, "RESTRICT": true,
	"REVOKE": true, "SHOW": true, "SQL": true, "STORED": true, "TRIGGER": true, "UNTIL": true, "WRITE": true,
}

// exprFollowWords may follow a column reference.
var exprFollowWords = map[string]bool{
	"FROM": true, "AS": true, "AND": true, "OR": true, "IS": true, "IN": true, "NOT": true,
	"BETWEEN": true, "LIKE": true, "ILIKE": true, "SIMILAR": true, "THEN": true, "ELSE": true,
	"END": true, "WHEN": true, "WHERE": true, "GROUP": true, "ORDER": true, "HAVING": true,
	"LIMIT": true, "OFFSET": true, "FETCH": true, "UNION": true, "INTERSECT": true,
	"EXCEPT": true, "ASC": true, "DESC": true, "NULLS": true, "INTO": true, "ON": true,
	"USING": true, "JOIN": true, "LEFT": true, "RIGHT": true, "FULL": true, "INNER": true,
	"CROSS": true, "NATURAL": true, "WINDOW": true, "FOR": true, "RETURNING": true,
	"AT": true, "COLLATE": true, "ISNULL": true, "NOTNULL": true, "ESCAPE": true,
}

// fromFollowWords are the reserved and type/function-name keywords that may
// follow a FROM item (any other such word there is a syntax error).
var fromFollowWords = map[string]bool{
	"AS": true, "ON": true, "USING": true, "WHERE": true, "GROUP": true, "HAVING": true,
	"ORDER": true, "LIMIT": true, "OFFSET": true, "FETCH": true, "FOR": true, "WINDOW": true,
	"UNION": true, "INTERSECT": true, "EXCEPT": true, "RETURNING": true, "WITH": true,
	"JOIN": true, "LEFT": true, "RIGHT": true, "FULL": true, "INNER": true, "CROSS": true,
	"NATURAL": true, "TABLESAMPLE": true, "INTO": true,
}

// followsFromItem reports whether the reserved or type/function-name
// keyword w (next after it) may follow a FROM item: a clause, a join
// (LEFT, FULL, ... need JOIN or OUTER after them), RETURNING in DML only.
func followsFromItem(w, next string, dml bool) bool {
	switch w {
	case "LEFT", "RIGHT", "FULL", "INNER", "CROSS":
		return next == "JOIN" || next == "OUTER"
	case "NATURAL":
		return next == "JOIN" || next == "LEFT" || next == "RIGHT" || next == "FULL" || next == "INNER"
	case "RETURNING":
		return dml
	}
	return fromFollowWords[w]
}

// labelEndWords may follow a select-list item (so end a bare label).
var labelEndWords = map[string]bool{
	"FROM": true, "INTO": true, "WHERE": true, "GROUP": true, "HAVING": true, "ORDER": true,
	"LIMIT": true, "OFFSET": true, "FETCH": true, "FOR": true, "WINDOW": true, "UNION": true,
	"INTERSECT": true, "EXCEPT": true, "RETURNING": true, "ON": true,
}

// clauseWords change the clause in force at their parenthesis level.
var clauseWords = map[string]bool{
	"SELECT": true, "FROM": true, "WHERE": true, "GROUP": true, "HAVING": true, "ORDER": true,
	"LIMIT": true, "OFFSET": true, "FETCH": true, "WINDOW": true, "RETURNING": true,
	"VALUES": true, "INTO": true, "WITH": true, "UNION": true, "INTERSECT": true,
	"EXCEPT": true, "UPDATE": true, "DELETE": true, "INSERT": true, "TABLE": true, "SET": true,
	"ON": true, "JOIN": true, "USING": true, "CREATE": true, "DROP": true, "ALTER": true,
	"TRUNCATE": true, "FOR": true,
}

// nameStatements are the statements the pass reads: queries, DML and the
// table DDL sqlgate has (GRANT's privilege lists, CREATE FUNCTION and the
// like are left as they are).
var nameStatements = map[string]bool{
	"SELECT": true, "INSERT": true, "UPDATE": true, "DELETE": true, "WITH": true, "VALUES": true,
	"TABLE": true, "EXPLAIN": true, "CREATE": true, "DROP": true, "TRUNCATE": true,
}

// createsTableOrView: CREATE [OR REPLACE] [TEMP ...] TABLE | VIEW.
func createsTableOrView(src string, toks []token) bool {
	for _, t := range toks[1:min(len(toks), 6)] {
		switch t.word(src) {
		case "TABLE", "VIEW":
			return true
		case "OR", "REPLACE", "TEMP", "TEMPORARY", "UNLOGGED", "GLOBAL", "LOCAL", "MATERIALIZED", "RECURSIVE":
		default:
			return false
		}
	}
	return false
}

type frameKind uint8

const (
	frameQuery  frameKind = iota // the statement, a subquery: clauses apply
	frameExpr                    // a call's arguments, a parenthesised expression, a list
	frameNames                   // a list of column names (INSERT, USING, alias, CTE, KEY)
	frameWindow                  // OVER (...), WINDOW w AS (...)
	frameFrom                    // a parenthesised join in FROM
	frameSkip                    // CREATE TABLE's elements: ddl.go reads them
	frameCase                    // CASE ... END
)

type nameFrame struct {
	kind   frameKind
	clause string // the clause word in force at this level
	// fromItem: a FROM item (table, subquery, function) just ended here,
	// so a word may be its alias
	fromItem bool
}

// quoteNames returns toks with every word that stands as a name quoted for
// TiDB (a synthetic quoted identifier with the original offsets), or
// PostgreSQL's syntax error for a keyword its grammar does not take as a
// name there. It returns toks itself when nothing changes.
func quoteNames(src string, toks []token) ([]token, error) {
	out, _, err := scanNames(src, toks, false)
	return out, err
}

// namesToQuote reports whether quoteNames would quote a word of toks (or
// its error), without copying the tokens and building the quoted text it
// would: the plain-text shortcut (plain.go) only asks whether it may keep
// the text as written.
func namesToQuote(src string, toks []token) (bool, error) {
	_, quoted, err := scanNames(src, toks, true)
	return quoted, err
}

// namesMemo keeps one statement's quoteNames result so that the names are
// scanned once: the plain shortcut (plain.go) scans them to decide whether
// it may keep the text as written, and a statement it declines (a keyword
// as a name, "region") reaches the general rewrite's quoteNames with the
// same tokens when no step between changed them.
type namesMemo struct {
	in, out []token
	quoted  bool
	err     error
	valid   bool
}

// scan is namesToQuote, remembering the quoted tokens for quote; a nil
// memo only probes.
func (m *namesMemo) scan(src string, toks []token) (bool, error) {
	if m == nil {
		return namesToQuote(src, toks)
	}
	out, quoted, err := scanNames(src, toks, false)
	*m = namesMemo{in: toks, out: out, quoted: quoted, err: err, valid: true}
	return quoted, err
}

// quote is quoteNames(src, toks), from the memo when scan saw these very
// tokens (the steps between return their input when they change nothing).
func (m *namesMemo) quote(src string, toks []token) ([]token, error) {
	if m.valid && len(m.in) == len(toks) && len(toks) > 0 && &m.in[0] == &toks[0] {
		return m.out, m.err
	}
	return quoteNames(src, toks)
}

// scanNames is quoteNames, which also reports whether it quoted a word;
// with probe it only finds out, leaving toks as they are (and returning
// them).
func scanNames(src string, toks []token, probe bool) ([]token, bool, error) {
	if len(toks) == 0 || !nameStatements[toks[0].word(src)] && !toks[0].isPunct(src, "(") {
		return toks, false, nil
	}
	if toks[0].is(src, "CREATE") && !createsTableOrView(src, toks) {
		return toks, false, nil // CREATE FUNCTION's LANGUAGE sql, argument lists, ...
	}
	var stackBuf [16]nameFrame
	stack := append(stackBuf[:0], nameFrame{kind: frameQuery})
	// up is src upper-cased (ASCII), so every word's upper-case form is a
	// substring of one allocation.
	up := ""
	upper := func(k int) string {
		if k < 0 || k >= len(toks) || toks[k].kind != tkIdent || toks[k].synth != "" {
			return ""
		}
		if up == "" {
			up = asciiUpper(src)
		}
		return up[toks[k].start:toks[k].end]
	}
	out := toks
	copied, quoted := false, false
	punct := func(k int, p string) bool { return k >= 0 && k < len(toks) && toks[k].isPunct(src, p) }
	quote := func(k int) {
		quoted = true
		if probe {
			return
		}
		if !copied {
			out = append([]token(nil), toks...)
			copied = true
		}
		t := toks[k]
		t.kind = tkQIdent
		t.synth = `"` + foldASCII(src[t.start:t.end]) + `"`
		t.inPlace = true
		out[k] = t
	}
	// names[k]: token k was taken as a table name (so a word after it is
	// its alias).
	var prevTable, prevName bool
	// dml: RETURNING is a clause (else it is a reserved word out of place)
	dml := toks[0].is(src, "INSERT") || toks[0].is(src, "UPDATE") || toks[0].is(src, "DELETE")
	if toks[0].is(src, "WITH") || toks[0].is(src, "EXPLAIN") { // EXPLAIN [...] UPDATE ...
		for _, t := range toks {
			dml = dml || t.is(src, "INSERT") || t.is(src, "UPDATE") || t.is(src, "DELETE")
		}
	}
	fieldAt := -1
	for k := 0; k < len(toks); k++ {
		t := toks[k]
		top := &stack[len(stack)-1]
		wasTable, wasName := prevTable, prevName
		prevTable, prevName = false, false
		switch {
		case t.kind == tkPunct && t.synth == "":
			switch src[t.start:t.end] {
			case "(", "[":
				top.fromItem = false
				stack = append(stack, openFrame(src, toks, k, *top, wasTable, wasName, upper))
			case ")", "]":
				if len(stack) > 1 {
					closed := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					top = &stack[len(stack)-1]
					// a subquery or function in FROM may take an alias
					top.fromItem = (top.clause == "FROM" || top.kind == frameFrom) && closed.kind != frameNames
				}
				prevName = true
			case ",":
				top.fromItem = false
				if top.clause == "ON" && top.kind == frameQuery {
					top.clause = "FROM"
				}
			case ".":
				prevTable = wasTable // s.t: the table's name goes on
			}
			continue
		case t.kind == tkOp && t.synth == "" && src[t.start:t.end] == "::":
			// x::type: the type name is no name to quote
			if end, _, err := (&rewriter{src: src, toks: toks}).typeExtent(k+1, len(toks)); err == nil && end > k+1 {
				k = end - 1
			}
			prevName = true
			continue
		case t.kind != tkIdent || t.synth != "":
			top.fromItem = false
			prevName = t.kind != tkOp
			// s."T": a qualified table name's last part, which an alias
			// may follow
			prevTable = wasTable && t.kind == tkQIdent && punct(k-1, ".")
			continue
		}
		w := upper(k)
		switch {
		case w == "CASE" && pw0(upper, k) != "AS" && !punct(k-1, ".") && !labelEnds(src, toks, k+1, upper):
			stack = append(stack, nameFrame{kind: frameCase})
			continue
		case w == "END" && top.kind == frameCase:
			stack = stack[:len(stack)-1]
			prevName = true
			continue
		}
		switch {
		case w == "WITH" && withOption[upper(k+1)],
			w == "FROM" && (pw0(upper, k) == "DISTINCT" && (upper(k-2) == "IS" || upper(k-2) == "NOT")):
			// WITH ORDINALITY, WITH [LOCAL] CHECK OPTION; IS [NOT]
			// DISTINCT FROM: no clauses
			k++
			if w == "FROM" {
				k-- // the operand after FROM is an expression
			}
			prevName = false
			continue
		case w == "ON" && pw0(upper, k) == "DISTINCT":
			prevName = false // DISTINCT ON (..): no ON clause
			continue
		case w == "UNKNOWN" && (pw0(upper, k) == "IS" || pw0(upper, k) == "NOT" && upper(k-2) == "IS"):
			prevName = true // x IS [NOT] UNKNOWN: a test, no column; a label may follow
			continue
		case k == fieldAt:
			continue // EXTRACT(field FROM x): the field is no column
		case w == "EXTRACT" && punct(k+1, "("):
			fieldAt = k + 2
		}
		wi := nameWords[w]
		fromItem := top.fromItem
		top.fromItem = false
		p := k - 1
		pw := upper(p)
		nextOpen := punct(k+1, "(")
		// A function call or keyword construct (VALUES (, ROW (, EXISTS (,
		// f(...)): the word is no name, except where a name takes a column
		// list (INSERT INTO t (..), alias t(..), CTE t(..)).
		switch {
		case punct(p, "."):
			// a qualified name's part (PostgreSQL's attr_name is any word);
			// after a table's, a word may be its alias (pg_catalog.pg_am of)
			if !nextOpen && wi.flags != 0 {
				quote(k)
			}
			prevName = true
			prevTable = wasTable && !nextOpen
			continue
		case pw == "AS" && (top.clause == "FROM" || top.kind == frameFrom || top.clause == "INTO" || top.clause == "UPDATE"):
			// a table alias (AS ColId)
			if !wi.colID() {
				return nil, false, syntaxErrorAt(src, toks, k)
			}
			if wi.flags != 0 {
				quote(k)
			}
			prevName = true
			continue
		case pw == "AS" && !asFollowers[w]:
			prevName = true
			continue // a column label: the rewrite quotes it (isLabelAfterAS)
		}
		if top.kind == frameSkip {
			continue
		}
		if top.kind == frameNames && (punct(p, "(") || punct(p, ",")) && (punct(k+1, ",") || punct(k+1, ")")) {
			if !wi.colID() {
				return nil, false, syntaxErrorAt(src, toks, k)
			}
			if wi.flags != 0 {
				quote(k)
			}
			continue
		}
		if top.kind == frameQuery || top.kind == frameFrom {
			if isTableNamePosition(src, toks, k, top, upper) {
				switch {
				case w == "IF" && (upper(k+1) == "NOT" || upper(k+1) == "EXISTS"),
					w == "RECURSIVE" && pw == "WITH" && (k+1 < len(toks) && (toks[k+1].kind == tkIdent || toks[k+1].kind == tkQIdent)),
					w == "ROWS" && upper(k+1) == "FROM":
					// IF [NOT] EXISTS, WITH RECURSIVE, ROWS FROM (..)
				case !wi.colID() && (pw == "TABLE" && toks[0].is(src, "CREATE") ||
					(pw == "WITH" || pw == "RECURSIVE") && (nextOpen || upper(k+1) == "AS")):
					// CREATE TABLE select (..), WITH from AS (..): a new
					// table's or a WITH query's name is a ColId
					return nil, false, syntaxErrorAt(src, toks, k)
				case nextOpen && pw != "TABLE" && pw != "INTO" && pw != "WITH" && pw != "RECURSIVE" && top.clause != "WITH":
					// a function in FROM
				case wi.colID():
					if wi.flags != 0 {
						quote(k)
					}
					prevTable = top.clause == "FROM" || top.kind == frameFrom || top.clause == "UPDATE"
					prevName = true
				case sqlValueFunctions[w] && !nextOpen && (top.clause == "FROM" || top.kind == frameFrom):
					// FROM current_date: PostgreSQL's one-row table of the
					// value, its column named for the alias or the word
					name, alias := strings.ToLower(w), false
					switch {
					case upper(k+1) == "AS" && k+2 < len(toks):
						name, alias = identNameOr(src, toks[k+2], name), true
					case k+1 < len(toks) && (toks[k+1].kind == tkQIdent || toks[k+1].kind == tkIdent && nameWords[upper(k+1)].colID()):
						name, alias = identNameOr(src, toks[k+1], name), true
					}
					text := "(SELECT " + strings.ToLower(w) + " AS " + quoteIdent(name) + ")"
					if !alias {
						text += " AS " + quoteIdent(name)
					}
					quote(k)
					if copied { // not when probing
						out[k].synth = text
					}
					prevTable = true
				case valueKeywords[w] || nextOpen || k+1 < len(toks) && toks[k+1].kind != tkPunct && toks[k+1].kind != tkOp:
					// ONLY t, LATERAL (..), current_date: keywords
				default:
					return nil, false, keywordNameError(src, toks, k, fromItemFollow)
				}
				if clauseWords[w] && !prevName {
					top.clause = w
				}
				continue
			}
			if (wasTable || fromItem) && (top.clause == "FROM" || top.kind == frameFrom || top.clause == "UPDATE") {
				// a word after a FROM item: its alias when PostgreSQL
				// takes the word as a ColId (join and clause words are
				// reserved or type/function-name keywords)
				if wi.colID() && !(w == "SET" && top.clause == "UPDATE") {
					if wi.flags != 0 {
						quote(k)
					}
					prevName = true
					continue
				}
				if !wi.colID() && !followsFromItem(w, upper(k+1), dml) {
					return nil, false, keywordNameError(src, toks, k, joinWords) // no alias, no clause
				}
			}
			if (top.clause == "SELECT" || top.clause == "RETURNING") && wasName && w != "AS" && w != "ISNULL" && w != "NOTNULL" && (!labelEndWords[w] || w == "RETURNING" && !dml) &&
				!(w == "WITHIN" && upper(k+1) == "GROUP") && // f(..) WITHIN GROUP (withingroup.go)
				!(w == "ESCAPE" && escapeFollowsPattern(src, toks, k, upper)) &&
				!intervalField(src, toks, k, upper) && labelEnds(src, toks, k+1, upper) {
				// a select-list label without AS: an identifier or a
				// BARE_LABEL keyword
				if wi.flags&wfPG != 0 && wi.flags&wfBareLabel == 0 {
					return nil, false, syntaxErrorAt(src, toks, k)
				}
				if wi.flags != 0 {
					quote(k)
				}
				continue
			}
		}
		if clauseWords[w] && top.kind == frameQuery && (k == 0 || punct(p, "(")) {
			top.clause = w // a statement or subquery's first word
			continue
		}
		// SELECT FROM t, SELECT ALL FROM t: an empty select list; UNION
		// ALL SELECT FROM t: a query, not a column named select
		emptyList := emptyListEnd[w] && (pw == "SELECT" || pw == "ALL" && upper(p-1) == "SELECT") ||
			w == "SELECT" && (pw == "ALL" || pw == "DISTINCT") && emptyListEnd[upper(k+1)]
		if !nextOpen && !emptyList && exprStarts(src, toks, p, upper) && (exprFollows(src, toks, k+1, top.clause, upper) || onlyNameAtExprStart[w]) &&
			!(top.kind == frameWindow && punct(p, "(")) && !infixNotBetween(src, toks, k, upper) {
			// a column reference
			switch {
			case wi.colID():
				if wi.flags != 0 {
					quote(k)
				}
				prevName = true
				continue
			case valueKeywords[w]:
			default:
				if strongFollow(src, toks, k+1, upper) {
					return nil, false, keywordNameError(src, toks, k, columnRefFollow)
				}
			}
		}
		if clauseWords[w] && (top.kind == frameQuery || top.kind == frameFrom) {
			top.clause = clauseAfter(w, top.clause)
		}
		prevName = wi.flags&wfPG == 0 || valueKeywords[w] && w != "NOT" && w != "ALL" && w != "DISTINCT" && w != "CASE"
	}
	return out, quoted, nil
}

// infixNotBetween reports whether the BETWEEN at k is x NOT BETWEEN's:
// PostgreSQL's lexer makes NOT before BETWEEN the infix NOT_LA, so after
// an operand (x NOT BETWEEN y AND 2) it is the operator, never a column
// named between, which it is only after a prefix NOT (SELECT NOT between
// FROM t).
func infixNotBetween(src string, toks []token, k int, upper func(int) string) bool {
	return upper(k) == "BETWEEN" && upper(k-1) == "NOT" && k >= 2 && !exprStarts(src, toks, k-2, upper)
}

// pw0 is the word before k.
func pw0(upper func(int) string, k int) string { return upper(k - 1) }

// asciiUpper upper-cases ASCII letters only, keeping byte offsets.
func asciiUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - ('a' - 'A')
		}
	}
	return string(b)
}

// clauseAfter is the clause in force after the clause word w.
func clauseAfter(w, cur string) string {
	switch w {
	case "JOIN":
		return "FROM"
	case "USING":
		if cur == "FROM" || cur == "ON" {
			return "FROM" // DELETE ... USING t, JOIN ... USING (..) is a name list
		}
	case "SET":
		if cur != "UPDATE" && cur != "" {
			return cur // DO UPDATE SET, SET in other clauses
		}
	case "FOR":
		return "FOR" // FOR UPDATE OF t
	}
	return w
}

// openFrame says what the bracket at toks[k] opens.
func openFrame(src string, toks []token, k int, outer nameFrame, afterTable, afterName bool, upper func(int) string) nameFrame {
	if toks[k].isPunct(src, "[") {
		return nameFrame{kind: frameExpr}
	}
	next := upper(k + 1)
	switch next {
	case "SELECT", "WITH", "VALUES", "TABLE", "INSERT", "UPDATE", "DELETE", "MERGE":
		// a subquery, unless the word is a column name: INSERT INTO t
		// (values, update)
		if k+2 >= len(toks) || !toks[k+2].isPunct(src, ",") && !toks[k+2].isPunct(src, ")") {
			return nameFrame{kind: frameQuery}
		}
	}
	pw := upper(k - 1)
	switch {
	case pw == "EXPLAIN" || pw == "WITH":
		return nameFrame{kind: frameSkip} // EXPLAIN (options), WITH (properties)
	case pw == "OVER":
		return nameFrame{kind: frameWindow, clause: "WINDOW"}
	case pw == "AS" && outer.clause == "WINDOW":
		return nameFrame{kind: frameWindow, clause: "WINDOW"}
	case pw == "USING" || pw == "KEY" || pw == "UNIQUE":
		return nameFrame{kind: frameNames}
	}
	if k >= 2 && outer.clause == "TABLE" && upper(k-2) != "AS" && k-1 >= 0 && (toks[k-1].kind == tkIdent || toks[k-1].kind == tkQIdent) {
		before := upper(k - 2)
		if before == "TABLE" || before == "EXISTS" || toks[k-2].isPunct(src, ".") {
			return nameFrame{kind: frameSkip} // CREATE TABLE t (elements)
		}
	}
	if afterName && k >= 1 && (toks[k-1].kind == tkIdent || toks[k-1].kind == tkQIdent) {
		switch {
		case outer.clause == "INTO", outer.clause == "WITH" && k >= 2 && (toks[k-2].isPunct(src, ",") || upper(k-2) == "WITH" || upper(k-2) == "RECURSIVE"):
			return nameFrame{kind: frameNames} // INSERT INTO t (..), WITH t (..)
		case (outer.clause == "FROM" || outer.kind == frameFrom) && (afterTable || upper(k-2) == "AS"):
			return nameFrame{kind: frameNames} // an alias's column list
		}
	}
	if (outer.clause == "FROM" || outer.kind == frameFrom) && (pw == "FROM" || pw == "JOIN" || toks[k-1].isPunct(src, ",") || toks[k-1].isPunct(src, "(")) {
		return nameFrame{kind: frameFrom, clause: "FROM"}
	}
	return nameFrame{kind: frameExpr}
}

// isTableNamePosition reports whether the word at k names a table (or a
// CTE): after FROM, JOIN or a comma in FROM, INTO, TABLE, UPDATE starting a
// statement, WITH and a comma in WITH.
func isTableNamePosition(src string, toks []token, k int, top *nameFrame, upper func(int) string) bool {
	if k == 0 {
		return false
	}
	pw := upper(k - 1)
	inFrom := top.clause == "FROM" || top.kind == frameFrom
	switch {
	case pw == "FROM" || pw == "JOIN":
		return inFrom
	case pw == "ONLY":
		return inFrom
	case toks[k-1].isPunct(src, ","):
		return inFrom && top.kind != frameNames || top.clause == "WITH" && top.kind == frameQuery
	case pw == "INTO", pw == "TABLE":
		return true
	case pw == "EXISTS":
		return top.clause == "TABLE" // CREATE TABLE IF NOT EXISTS t, DROP TABLE IF EXISTS t
	case pw == "UPDATE":
		return k == 1 || toks[k-2].isPunct(src, ")")
	case pw == "WITH", pw == "RECURSIVE":
		return top.clause == "WITH" || top.clause == ""
	}
	return false
}

// exprStarts reports whether an expression may begin right after toks[p].
func exprStarts(src string, toks []token, p int, upper func(int) string) bool {
	if p < 0 {
		return false
	}
	t := toks[p]
	switch t.kind {
	case tkPunct:
		s := t.text(src)
		return s == "(" || s == "," || s == "["
	case tkOp:
		s := t.text(src)
		if s == "::" {
			return false // a type name follows
		}
		if s == "*" {
			// multiplication only after an operand (SELECT *, t.*, count(*))
			if p == 0 {
				return false
			}
			q := toks[p-1]
			return q.kind == tkNumber || q.kind == tkQIdent || q.kind == tkString || q.isPunct(src, ")") ||
				q.kind == tkIdent && nameWords[upper(p-1)].flags == 0
		}
		return true
	case tkIdent:
		return exprStartWords[upper(p)]
	}
	return false
}

// exprFollows reports whether toks[n] may follow a column reference.
func exprFollows(src string, toks []token, n int, clause string, upper func(int) string) bool {
	if n >= len(toks) {
		return true
	}
	t := toks[n]
	switch t.kind {
	case tkPunct:
		s := t.text(src)
		return s == "," || s == ")" || s == "]" || s == "." || s == "[" || s == ";"
	case tkOp:
		return true
	case tkIdent:
		w := upper(n)
		if exprFollowWords[w] {
			return true
		}
		if clause == "WINDOW" && (w == "ROWS" || w == "RANGE" || w == "GROUPS") {
			return true // OVER (ORDER BY x ROWS ...): the frame follows the key
		}
		// a bare label after a select-list column: a plain identifier
		return (clause == "SELECT" || clause == "RETURNING") && nameWords[w].flags == 0
	case tkQIdent:
		return clause == "SELECT" || clause == "RETURNING"
	}
	return false
}

// strongFollow: toks[n] can only follow a complete operand (so a reserved
// word before it was meant as a name).
func strongFollow(src string, toks []token, n int, upper func(int) string) bool {
	return endsOperand(src, toks, n, upper, func(w string) bool { return w == "FROM" })
}

// endsOperand reports whether toks[n] can only stand after a complete
// operand: the end of the text, one of , ) ; or a word that ends accepts.
func endsOperand(src string, toks []token, n int, upper func(int) string, ends func(string) bool) bool {
	if n >= len(toks) {
		return true
	}
	t := toks[n]
	switch t.kind {
	case tkPunct:
		s := t.text(src)
		return s == "," || s == ")" || s == ";"
	case tkIdent:
		return ends(upper(n))
	}
	return false
}

// intervalField reports whether the word at k is a field of an interval
// literal (INTERVAL '1' DAY, INTERVAL '1:30' HOUR TO MINUTE), not a label.
func intervalField(src string, toks []token, k int, upper func(int) string) bool {
	if upper(k-1) == "TO" {
		return true
	}
	return k >= 2 && toks[k-1].kind == tkString && upper(k-2) == "INTERVAL"
}

// labelEnds reports whether toks[n] ends a select-list item.
func labelEnds(src string, toks []token, n int, upper func(int) string) bool {
	return endsOperand(src, toks, n, upper, func(w string) bool { return labelEndWords[w] })
}

// fromItemFollow, columnRefFollow and joinWords are the keywords that
// begin a longer form where a FROM item (LATERAL (..), ONLY t), an
// expression (ARRAY[..], CAST(..), UNIQUE (..), a type/function-name
// keyword's call) or a FROM item's alias (a join) stands: PostgreSQL's
// grammar refuses the token after them, not the word.
var (
	fromItemFollow  = map[string]bool{"LATERAL": true, "ONLY": true, typeFuncNames: true}
	columnRefFollow = map[string]bool{"ARRAY": true, "CAST": true, "UNIQUE": true, typeFuncNames: true}
	joinWords       = map[string]bool{"CROSS": true, "FULL": true, "INNER": true, "LEFT": true, "NATURAL": true, "RIGHT": true, "JOIN": true}
)

// typeFuncNames in a follow set stands for every type/function-name
// keyword (a function's name, which a '(' or a string may follow).
const typeFuncNames = ""

// keywordNameError is PostgreSQL's syntax error for the keyword at k
// standing where a name would: at the word, or at the token after it for
// the words of follow.
func keywordNameError(src string, toks []token, k int, follow map[string]bool) error {
	w := toks[k].word(src)
	if kw, ok := pgKeywords[w]; ok && (kw.cat == kwTypeFuncName && follow[typeFuncNames] || follow[w]) {
		return (&rewriter{src: src, toks: toks}).errNear(k + 1) // rewrite.go: ';' or the end
	}
	return syntaxErrorAt(src, toks, k)
}

// errKeywordAsName is kept for callers outside the pass (ddl.go): a keyword
// PostgreSQL does not take as a column name.
func columnNameError(src string, toks []token, k int) error {
	if k >= len(toks) {
		return nil // no name at all: the caller's ident reports it
	}
	if toks[k].kind != tkIdent || toks[k].synth != "" {
		return nil
	}
	if wi := nameWords[strings.ToUpper(src[toks[k].start:toks[k].end])]; !wi.colID() {
		return syntaxErrorAt(src, toks, k)
	}
	return nil
}

// escapeFollowsPattern reports whether the ESCAPE at k follows a LIKE,
// ILIKE or SIMILAR TO pattern: PostgreSQL's grammar shifts it as the
// pattern's escape clause (ESCAPE binds tighter than LIKE, looser than
// the operators a pattern takes), so it is no select-list label there
// ('a' LIKE 'b' ESCAPE: at the end of the input). The operand is read
// back to the nearest comma, bracket, or operator that binds looser than
// LIKE.
func escapeFollowsPattern(src string, toks []token, k int, upper func(int) string) bool {
	depth := 0
	for i := k - 1; i >= 0; i-- {
		t := toks[i]
		switch d := t.nesting(src); {
		case d < 0:
			depth++
			continue
		case d > 0:
			if depth--; depth < 0 {
				return false
			}
			continue
		}
		if depth > 0 {
			continue
		}
		switch t.kind {
		case tkPunct:
			return false // a comma, ';'
		case tkOp:
			switch t.text(src) {
			case "=", "<", ">", "<=", ">=", "<>", "!=":
				return false
			}
		case tkIdent:
			switch upper(i) {
			case "LIKE", "ILIKE", "SIMILAR":
				return true
			case "AND", "OR", "NOT", "IS", "BETWEEN", "IN", "SELECT", "RETURNING", "WHEN", "THEN", "ELSE":
				return false
			}
		}
	}
	return false
}
