package sql

import (
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// ColumnDefault is a column's DEFAULT clause in CREATE TABLE.
type ColumnDefault struct {
	// Expr is the expression as written (PostgreSQL text).
	Expr string
	// Pos is its 1-based character position, for errors.
	Pos int
}

// CheckClause is a CHECK constraint of CREATE TABLE.
type CheckClause struct {
	// Name is CONSTRAINT name's ("" when not named).
	Name string
	// Column is the column a column constraint is written on ("" for a
	// table constraint).
	Column string
	// Expr is the expression inside CHECK ( ), as written.
	Expr string
	Pos  int
	// NoInherit is CHECK ( ... ) NO INHERIT.
	NoInherit bool
}

// IdentityClause is GENERATED { ALWAYS | BY DEFAULT } AS IDENTITY [ ( options ) ].
type IdentityClause struct {
	Always  bool
	Options SequenceOptions
	Pos     int
}

// GeneratedClause is GENERATED ALWAYS AS ( expr ) STORED: a stored
// generated column's expression, as written.
type GeneratedClause struct {
	Expr string
	// Pos is the expression's 1-based character position; At is the
	// GENERATED keyword's (PostgreSQL points conflicts there).
	Pos, At int
}

// columnClauses reads the constraints of one CREATE TABLE element, from
// toks[i] to the ',' or ')' that ends it, and returns the tokens TiDB
// should still see. DEFAULT expressions, CHECK constraints and identity
// clauses are taken out into st (column is the column the element
// defines, "" for a table constraint), with their text as written, for
// the binder to bind with PostgreSQL's grammar; CONSTRAINT names are
// dropped except a CHECK's, a UNIQUE's, a FOREIGN KEY's and a PRIMARY
// KEY's (st.PrimaryKeyName).
// dropped reports a table element that was only a CHECK constraint (a
// LIKE element's placeholder, already in out, is no such element).
func columnClauses(src string, toks []token, i int, column string, st *Statement, out []token) (_ int, _ []token, dropped bool, err error) {
	endOfElement := func(k int) bool {
		return k >= len(toks) || toks[k].isPunct(src, ",") || toks[k].isPunct(src, ")")
	}
	pendingName, pendingAt := "", 0
	kept, tookCheck := false, false
	for !endOfElement(i) {
		t := toks[i]
		switch {
		case t.is(src, "CONSTRAINT"):
			if i+1 >= len(toks) {
				return 0, nil, false, syntaxErrorAt(src, toks, i+1)
			}
			n, ok := identName(src, toks[i+1])
			if !ok {
				return 0, nil, false, syntaxErrorAt(src, toks, i+1)
			}
			pendingName, pendingAt = n, charPos(src, t.start)
			i += 2
			continue
		case t.is(src, "DEFAULT") && column != "":
			start := i + 1
			end := defaultEnd(src, toks, start)
			if end == start {
				return 0, nil, false, syntaxErrorAt(src, toks, start)
			}
			if st.ColumnDefaults == nil {
				st.ColumnDefaults = map[string]ColumnDefault{}
			}
			if _, dup := st.ColumnDefaults[column]; dup {
				return 0, nil, false, sqlerr.New(sqlerr.SyntaxError, "multiple default values specified for column \"%s\" of table \"%s\"", column, st.tableName).WithPosition(charPos(src, t.start))
			}
			if st.Generated[column] != nil {
				return 0, nil, false, errDefaultAndGenerated(column, st.tableName, charPos(src, t.start))
			}
			if err := exprSyntaxIn(src, toks, start, end); err != nil {
				return 0, nil, false, err
			}
			st.ColumnDefaults[column] = ColumnDefault{Expr: src[toks[start].start:toks[end-1].end], Pos: charPos(src, toks[start].start)}
			i = end
		case t.is(src, "CHECK"):
			if i+1 >= len(toks) || !toks[i+1].isPunct(src, "(") {
				return 0, nil, false, syntaxErrorAt(src, toks, i+1)
			}
			m := (&rewriter{src: src, toks: toks}).matchClose(i+1, len(toks))
			if m < 0 || m == i+2 {
				return 0, nil, false, syntaxErrorAt(src, toks, max(m, i+2))
			}
			c := CheckClause{Name: pendingName, Column: column, Expr: src[toks[i+2].start:toks[m-1].end], Pos: charPos(src, toks[i+2].start)}
			i = m + 1
			if i+1 < len(toks) && toks[i].is(src, "NO") && toks[i+1].is(src, "INHERIT") {
				c.NoInherit = true
				i += 2
			}
			st.Checks = append(st.Checks, c)
			tookCheck = true
		case t.is(src, "REFERENCES") && column != "" || t.is(src, "FOREIGN") && column == "":
			fk, k, err := foreignKeyClause(src, toks, i, column, pendingName) // foreignkey.go
			if err != nil {
				return 0, nil, false, err
			}
			st.ForeignKeys = append(st.ForeignKeys, fk)
			tookCheck = true
			i = k
		case t.is(src, "UNIQUE"):
			u, k, err := uniqueClause(src, toks, i, column, pendingName) // unique.go
			if err != nil {
				return 0, nil, false, err
			}
			if pendingName != "" {
				u.Pos = pendingAt // PostgreSQL points at the constraint's start
			}
			st.Uniques = append(st.Uniques, u)
			tookCheck = true
			i = k
		case t.is(src, "GENERATED") && column != "" && generatedAt(src, toks, i+1):
			k, err := generatedClause(src, toks, i, column, st)
			if err != nil {
				return 0, nil, false, err
			}
			i = k
		case t.is(src, "GENERATED") && column != "" && i+2 < len(toks) && identityAt(src, toks, i+1):
			c, k, err := identityClause(src, toks, i)
			if err != nil {
				return 0, nil, false, err
			}
			if st.Identity == nil {
				st.Identity = map[string]*IdentityClause{}
			}
			if st.Generated[column] != nil {
				return 0, nil, false, errIdentityAndGenerated(column, st.tableName, c.Pos)
			}
			if _, dup := st.Identity[column]; dup {
				return 0, nil, false, sqlerr.New(sqlerr.SyntaxError, "multiple identity specifications for column \"%s\" of table \"%s\"", column, st.tableName).WithPosition(c.Pos)
			}
			st.Identity[column] = c
			i = k
		default:
			// anything else (NOT NULL, PRIMARY KEY, UNIQUE, REFERENCES ...)
			// goes to TiDB as written, up to the next clause at depth 0;
			// a primary key's CONSTRAINT name is kept in st
			if t.is(src, "PRIMARY") && pendingName != "" {
				st.PrimaryKeyName = pendingName
			}
			kept = true
			depth := 0
			refs := false // REFERENCES ... ON DELETE SET DEFAULT is no DEFAULT clause
			for i < len(toks) {
				t := toks[i]
				if t.isPunct(src, "(") {
					depth++
				} else if t.isPunct(src, ")") {
					if depth == 0 {
						break
					}
					depth--
				} else if depth == 0 && t.isPunct(src, ",") {
					break
				}
				if t.is(src, "NOT") && i+1 < len(toks) && toks[i+1].is(src, "ENFORCED") {
					i += 2 // Flink's PRIMARY KEY (...) NOT ENFORCED
					continue
				}
				if depth == 0 && column != "" && t.is(src, "KEY") && !(i > 0 && (toks[i-1].is(src, "PRIMARY") || toks[i-1].is(src, "REFERENCES") || toks[i-1].isPunct(src, "."))) {
					// MySQL's column attribute KEY (TiDB's grammar takes
					// it for PRIMARY KEY): PostgreSQL has KEY after PRIMARY
					// only, and a referenced table's name
					return 0, nil, false, syntaxErrorAt(src, toks, i)
				}
				refs = refs || t.is(src, "REFERENCES")
				out = append(out, t)
				i++
				if depth == 0 && !refs && i < len(toks) && (toks[i].is(src, "DEFAULT") && column != "" || toks[i].is(src, "CHECK") || toks[i].is(src, "UNIQUE") || toks[i].is(src, "CONSTRAINT") || toks[i].is(src, "REFERENCES") && column != "" ||
					toks[i].is(src, "GENERATED") && column != "" && (identityAt(src, toks, i+1) || generatedAt(src, toks, i+1))) {
					break
				}
			}
		}
		pendingName, pendingAt = "", 0
	}
	return i, out, column == "" && !kept && tookCheck, nil
}

// identityAt reports whether ALWAYS AS IDENTITY or BY DEFAULT AS IDENTITY
// starts at toks[k].
// identityClause reads GENERATED { ALWAYS | BY DEFAULT } AS IDENTITY [ (
// sequence options ) ] from toks[i] (GENERATED, identityAt's checked) and
// returns the index after it.
func identityClause(src string, toks []token, i int) (*IdentityClause, int, error) {
	c := &IdentityClause{Pos: charPos(src, toks[i].start)}
	k := i + 1
	if toks[k].is(src, "ALWAYS") {
		c.Always = true
		k++
	} else {
		k += 2 // BY DEFAULT
	}
	k += 2 // AS IDENTITY
	if k < len(toks) && toks[k].isPunct(src, "(") {
		m := (&rewriter{src: src, toks: toks}).matchClose(k, len(toks))
		if m < 0 {
			return nil, 0, syntaxErrorAt(src, toks, len(toks))
		}
		p := &sessionParser{src: src, toks: toks[:m], pos: k + 1}
		if err := p.sequenceOptions(&c.Options, false, true); err != nil {
			return nil, 0, err
		}
		if p.pos < m {
			return nil, 0, syntaxErrorAt(src, toks, p.pos)
		}
		k = m + 1
	}
	return c, k, nil
}

func identityAt(src string, toks []token, k int) bool {
	switch {
	case k+2 < len(toks) && toks[k].is(src, "ALWAYS"):
		return toks[k+1].is(src, "AS") && toks[k+2].is(src, "IDENTITY")
	case k+3 < len(toks) && toks[k].is(src, "BY"):
		return toks[k+1].is(src, "DEFAULT") && toks[k+2].is(src, "AS") && toks[k+3].is(src, "IDENTITY")
	}
	return false
}

// generatedAt reports whether ALWAYS AS ( or BY DEFAULT AS ( starts at
// toks[k]: a generated column's clause rather than an identity's.
func generatedAt(src string, toks []token, k int) bool {
	switch {
	case k+2 < len(toks) && toks[k].is(src, "ALWAYS"):
		return toks[k+1].is(src, "AS") && toks[k+2].isPunct(src, "(")
	case k+3 < len(toks) && toks[k].is(src, "BY"):
		return toks[k+1].is(src, "DEFAULT") && toks[k+2].is(src, "AS") && toks[k+3].isPunct(src, "(")
	}
	return false
}

// generatedClause reads GENERATED { ALWAYS | BY DEFAULT } AS ( expr )
// STORED at toks[i] into st.Generated[column] and returns the index after
// it. PostgreSQL 15's grammar has only STORED generated columns (without
// it, a syntax error at the next token) and only ALWAYS.
func generatedClause(src string, toks []token, i int, column string, st *Statement) (int, error) {
	at := charPos(src, toks[i].start)
	if toks[i+1].is(src, "BY") { // PostgreSQL points at BY DEFAULT
		return 0, sqlerr.New(sqlerr.SyntaxError, "for a generated column, GENERATED ALWAYS must be specified").WithPosition(charPos(src, toks[i+1].start))
	}
	open := i + 3
	m := (&rewriter{src: src, toks: toks}).matchClose(open, len(toks))
	if m < 0 {
		return 0, syntaxErrorAt(src, toks, len(toks))
	}
	if m == open+1 {
		return 0, syntaxErrorAt(src, toks, m)
	}
	if m+1 >= len(toks) || !toks[m+1].is(src, "STORED") {
		return 0, syntaxErrorAt(src, toks, m+1)
	}
	if _, dup := st.Generated[column]; dup {
		return 0, sqlerr.New(sqlerr.SyntaxError, "multiple generation clauses specified for column \"%s\" of table \"%s\"", column, st.tableName).WithPosition(at)
	}
	if _, ok := st.ColumnDefaults[column]; ok {
		return 0, errDefaultAndGenerated(column, st.tableName, at)
	}
	if st.Identity[column] != nil {
		return 0, errIdentityAndGenerated(column, st.tableName, at)
	}
	if st.Generated == nil {
		st.Generated = map[string]*GeneratedClause{}
	}
	st.Generated[column] = &GeneratedClause{Expr: src[toks[open+1].start:toks[m-1].end], Pos: charPos(src, toks[open+1].start), At: at}
	return m + 2, nil
}

// errDefaultAndGenerated and errIdentityAndGenerated are PostgreSQL's
// refusals of a generated column with a DEFAULT or identity clause,
// positioned at the second of the two clauses.
func errDefaultAndGenerated(column, table string, pos int) error {
	return sqlerr.New(sqlerr.SyntaxError, "both default and generation expression specified for column \"%s\" of table \"%s\"", column, table).WithPosition(pos)
}

func errIdentityAndGenerated(column, table string, pos int) error {
	return sqlerr.New(sqlerr.SyntaxError, "both identity and generation expression specified for column \"%s\" of table \"%s\"", column, table).WithPosition(pos)
}

// defaultEnd is the end of a DEFAULT expression starting at toks[k]:
// PostgreSQL's b_expr, which no column constraint keyword continues, so it
// ends before one at depth 0 (CASE ... END nests), or at ',' or ')'.
func defaultEnd(src string, toks []token, k int) int {
	depth := 0
	for j := k; j < len(toks); j++ {
		t := toks[j]
		switch {
		case t.isPunct(src, "(") || t.isPunct(src, "["):
			depth++
		case t.isPunct(src, ")") || t.isPunct(src, "]"):
			if depth == 0 {
				return j
			}
			depth--
		case t.is(src, "CASE"):
			depth++
		case t.is(src, "END") && depth > 0:
			depth--
		case depth == 0 && t.isPunct(src, ","):
			return j
		case depth == 0 && j > k && columnConstraintWords[t.word(src)] && !strings.EqualFold(t.text(src), "key"):
			return j
		}
	}
	return len(toks)
}

// lastColumn is the column CREATE TABLE's rewrite read last.
func lastColumn(st *Statement) string {
	if n := len(st.columnOrder); n > 0 {
		return st.columnOrder[n-1]
	}
	return ""
}

// rewriteInsertDefaults takes INSERT's OVERRIDING { SYSTEM | USER } VALUE
// out into st.Overriding and turns DEFAULT VALUES into MySQL's () VALUES
// (), which TiDB reads as one row of no values: every column its default.
func rewriteInsertDefaults(src string, toks []token, st *Statement) []token {
	depth := 0
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.isPunct(src, "("):
			depth++
		case t.isPunct(src, ")"):
			depth--
		case depth == 0 && i+2 < len(toks) && t.is(src, "OVERRIDING") && toks[i+2].is(src, "VALUE") &&
			(toks[i+1].is(src, "SYSTEM") || toks[i+1].is(src, "USER")):
			st.Overriding = strings.ToLower(toks[i+1].text(src))
			toks = append(toks[:i:i], toks[i+3:]...)
			i--
		case depth == 0 && i+1 < len(toks) && t.is(src, "DEFAULT") && toks[i+1].is(src, "VALUES"):
			at, end := t.start, toks[i+1].end
			synth := []token{
				{kind: tkPunct, start: at, end: at, lead: t.lead, synth: "("},
				{kind: tkPunct, start: at, end: at, lead: at, synth: ")"},
				{kind: tkIdent, start: at, end: at, lead: at, synth: "values"},
				{kind: tkPunct, start: end, end: end, lead: end, synth: "("},
				{kind: tkPunct, start: end, end: end, lead: end, synth: ")"},
			}
			toks = append(append(toks[:i:i], synth...), toks[i+2:]...)
			return toks
		}
	}
	return toks
}

// exprSyntaxIn checks the syntax of the expression toks[start:end] of a
// statement (a DEFAULT the binder parses again on its own later) and
// places a syntax error in the statement, where PostgreSQL's one grammar
// finds it: inside the expression at the same token, or, where the text
// ended too soon, at the token after it ("1 + )" is an error at ")",
// not at the end of the expression's own text).
func exprSyntaxIn(src string, toks []token, start, end int) error {
	text := src[toks[start].start:toks[end-1].end]
	_, err := ParseExprText(text)
	se := sqlerr.As(err)
	if se == nil || se.Code != sqlerr.SyntaxError {
		return nil // (other errors are the binder's to report)
	}
	if strings.Contains(se.Message, "at end of input") || se.Position == 0 {
		return syntaxErrorAt(src, toks, end)
	}
	// the position counts characters of "SELECT " + text (ParseExprText)
	return se.WithPosition(charPos(src, toks[start].start) + se.Position - 1 - len("SELECT "))
}
