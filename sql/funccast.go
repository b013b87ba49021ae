package sql

import (
	"slices"
	"strconv"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// typeCallWords are the names of PostgreSQL types, no keywords of
// PostgreSQL's grammar, that TiDB's grammar reads as its own type
// keywords, where they cannot start a function call: PostgreSQL reads
// int4('12'), float8(1), text(1), bool('t'), json('{}') as calls, which
// its func_get_detail then takes as casts (the binder's funccast.go). The
// other type names (date, name, oid, inet, jsonb ...) TiDB already reads
// as calls; PostgreSQL's keywords among the type names (int, numeric,
// varchar, char, time, timestamp, interval ...) are no function names
// there either, and TiDB's syntax error at them stands.
var typeCallWords = map[string]string{
	"BOOL": `"bool"`, "INT2": `"int2"`, "INT4": `"int4"`, "INT8": `"int8"`,
	"FLOAT4": `"float4"`, "FLOAT8": `"float8"`, "TEXT": `"text"`, "JSON": `"json"`,
}

// quoteTypeCalls quotes the name of a call of one of typeCallWords in an
// expression, so that TiDB reads an ordinary function call. Not a type
// with modifiers: after :: or AS or TYPE, after a column's name in a
// definition (a int4(11)), or before a string (a typed literal's
// int4(1) '2', which the rewrite reads as one).
func quoteTypeCalls(src string, toks []token) []token {
	out := toks
	copied := false
	for i := 0; i+1 < len(toks); i++ {
		t := toks[i]
		if t.kind != tkIdent || t.synth != "" || !toks[i+1].isPunct(src, "(") {
			continue
		}
		q, ok := lookupWord(src, t, typeCallWords)
		if !ok || i > 0 && !typeCallFollows(src, toks[i-1]) {
			continue
		}
		if m := matchParen(src, toks, i+1); m < 0 || m+1 < len(toks) && isLiteralString(src, toks[m+1]) {
			continue
		}
		if !copied {
			out = append([]token(nil), toks...)
			copied = true
		}
		out[i].kind, out[i].synth = tkQIdent, q
	}
	return out
}

// typeCallFollows reports whether a call may follow prev where a type
// name with modifiers could too: not after a name (a column definition's
// type, a qualified name's part), ::, AS, TYPE, RETURNS or SETOF.
func typeCallFollows(src string, prev token) bool {
	switch prev.kind {
	case tkQIdent, tkUIdent:
		return false
	case tkPunct:
		return !prev.isPunct(src, ".")
	case tkOp:
		return prev.text(src) != "::"
	case tkIdent:
		w := prev.word(src)
		kw, keyword := pgKeywords[w]
		switch {
		case !keyword || w == "AS" || w == "SETOF":
			return false
		case kw.cat == kwUnreserved:
			// a column may be named by an unreserved keyword (name int4(11))
			return w == "BY"
		}
	}
	return true
}

// matchParen is the index of the ")" closing the "(" at open, or -1.
func matchParen(src string, toks []token, open int) int {
	depth := 0
	for k := open; k < len(toks); k++ {
		switch {
		case toks[k].isPunct(src, "("):
			depth++
		case toks[k].isPunct(src, ")"):
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

// typeKeywordShapes are the type names among PostgreSQL's keywords by what
// their grammar (ConstTypename, ConstInterval) reads after an open
// parenthesis in an expression, where the type must then be followed by a
// string (a typed literal): nothing (int(..) fails at the parenthesis), one
// integer (float(p), char(n), timestamp(p), interval(p)) or an expression
// list (numeric(..), bit(..)). None is a function's name there.
var typeKeywordShapes = map[string]typeModifiers{
	"INT": noModifiers, "INTEGER": noModifiers, "SMALLINT": noModifiers, "BIGINT": noModifiers,
	"REAL": noModifiers, "BOOLEAN": noModifiers, "DOUBLE": noModifiers, "NATIONAL": noModifiers,
	"FLOAT": oneInteger, "CHAR": oneInteger, "CHARACTER": oneInteger, "NCHAR": oneInteger, "VARCHAR": oneInteger,
	"TIME": oneInteger, "TIMESTAMP": oneInteger, "INTERVAL": oneInteger,
	"DECIMAL": exprList, "DEC": exprList, "NUMERIC": exprList, "BIT": exprList,
}

type typeModifiers uint8

const (
	noModifiers typeModifiers = iota + 1
	oneInteger
	exprList
)

// typeKeywordCallError is PostgreSQL's syntax error for a keyword type
// name written as a call in an expression of a query or a data-modifying
// statement (int('1'), numeric(1), timestamp('2024-01-01'), char('a')):
// at the token its grammar cannot take, the one after the type when no
// string follows. TiDB reads some of these as its own functions
// (timestamp(x), char(x)), others it fails at the name.
func typeKeywordCallError(src string, toks []token, terminated bool) error {
	if len(toks) == 0 || !queryOrWrite(src, toks[0]) && !toks[0].is(src, "MERGE") {
		return nil
	}
	// the grammar stops at the first failing token: one nested in another
	// call's parentheses (numeric(numeric('x'))) may come first
	first, firstErr := len(toks)+1, error(nil)
	for k := 0; k+1 < len(toks); k++ {
		t := toks[k]
		if t.kind != tkIdent || t.synth != "" {
			continue
		}
		shape, ok := lookupWord(src, t, typeKeywordShapes)
		if !ok {
			continue
		}
		w := t.word(src)
		if k > 0 && (!typeCallFollows(src, toks[k-1]) || inAngleType(src, toks, k)) {
			continue
		}
		i := typeWordsEnd(src, toks, k, w) // the type's last word, before its "("
		if i+1 >= len(toks) || !toks[i+1].isPunct(src, "(") {
			continue
		}
		if w == "NATIONAL" && i > k {
			shape = oneInteger // NATIONAL CHARACTER (n)
		}
		at, complete := i+1, false // the token the grammar fails at; whether the type ends before it
		switch shape {
		case oneInteger:
			switch {
			case i+2 >= len(toks) || !isIconst(src, toks[i+2]):
				at = i + 2
			case i+3 >= len(toks) || !toks[i+3].isPunct(src, ")"):
				at = i + 3
			case w == "FLOAT":
				// opt_float's own check, made as the grammar reduces it
				if err := floatPrecision(src, toks[i+2]); err != nil && i+3 < first {
					first, firstErr = i+3, err
					continue
				}
				at, complete = i+4, true
			default:
				at, complete = i+4, true
				if (w == "TIME" || w == "TIMESTAMP") && at+2 < len(toks) && (toks[at].is(src, "WITH") || toks[at].is(src, "WITHOUT")) &&
					toks[at+1].is(src, "TIME") && toks[at+2].is(src, "ZONE") {
					at += 3
				}
			}
		case exprList:
			m := matchParen(src, toks, i+1)
			if m < 0 {
				continue // TiDB's error at the unclosed parenthesis
			}
			at, complete = m+1, true
		}
		if complete && at < len(toks) && isLiteralString(src, toks[at]) {
			continue // a typed literal: numeric(5,2) '1.5'
		}
		if at < first {
			first, firstErr = at, syntaxErrorAtToken(src, toks, at, terminated)
		}
	}
	return firstErr
}

// typeWordsEnd is the index of the last word of the keyword type name
// whose first word w is at k: DOUBLE PRECISION, CHARACTER VARYING, BIT
// VARYING, NATIONAL CHARACTER VARYING.
func typeWordsEnd(src string, toks []token, k int, w string) int {
	next := func(word string) bool {
		if k+1 < len(toks) && toks[k+1].is(src, word) {
			k++
			return true
		}
		return false
	}
	switch w {
	case "DOUBLE":
		next("PRECISION")
	case "NATIONAL":
		if next("CHARACTER") || next("CHAR") {
			next("VARYING")
		}
	case "CHAR", "CHARACTER", "NCHAR", "BIT":
		next("VARYING")
	}
	return k
}

// floatPrecision is PostgreSQL's check of FLOAT(p)'s precision, 1 to 53.
func floatPrecision(src string, t token) error {
	n, err := strconv.Atoi(t.text(src))
	switch {
	case err == nil && n < 1:
		return sqlerr.New(sqlerr.InvalidParameterValue, "precision for type float must be at least 1 bit").WithPosition(charPos(src, t.start))
	case err != nil || n >= 54:
		return sqlerr.New(sqlerr.InvalidParameterValue, "precision for type float must be less than 54 bits").WithPosition(charPos(src, t.start))
	}
	return nil
}

// isIconst reports an unsigned integer literal, PostgreSQL's Iconst.
func isIconst(src string, t token) bool {
	if t.kind != tkNumber {
		return false
	}
	for _, c := range []byte(t.text(src)) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// inAngleType reports whether toks[i] stands in the <..> of an ARRAY<..>,
// MAP<..> or ROW<..> type, where a type name's modifiers follow a comma or
// the angle bracket.
func inAngleType(src string, toks []token, i int) bool {
	depth := 0
	for k := i - 1; k > 0; k-- {
		switch t := toks[k]; {
		case t.isPunct(src, ")"):
			depth++
		case t.isPunct(src, "("):
			if depth == 0 {
				return false
			}
			depth--
		case depth == 0 && t.kind == tkOp && t.text(src) == "<":
			w := toks[k-1].word(src)
			return w == "ARRAY" || w == "MAP" || w == "ROW" || w == "STRUCT"
		}
	}
	return false
}

// syntaxErrorAtToken is syntaxErrorAt where the statement ends in a ';'
// past its tokens: PostgreSQL reads on to it and reports it.
func syntaxErrorAtToken(src string, toks []token, i int, terminated bool) error {
	if i >= len(toks) && terminated {
		semi := toks[len(toks)-1].end
		for semi < len(src) && src[semi] != ';' {
			semi++
		}
		if semi < len(src) {
			return sqlerr.New(sqlerr.SyntaxError, `syntax error at or near ";"`).WithPosition(charPos(src, semi))
		}
	}
	return syntaxErrorAt(src, toks, i)
}

// lookupWord looks the upper-cased word of t up in m without allocating
// (a statement's every word passes here).
func lookupWord[V any](src string, t token, m map[string]V) (V, bool) {
	var zero V
	var buf [16]byte
	text := t.text(src)
	if t.kind != tkIdent || len(text) > len(buf) {
		return zero, false
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		buf[i] = c
	}
	v, ok := m[string(buf[:len(text)])]
	return v, ok
}

// collationForCalls turns COLLATION FOR (x), PostgreSQL's grammar for
// pg_collation_for(x) (func_expr_common_subexpr), into a call of that
// function where an expression may stand: one token, the quoted name,
// spanning both words (TiDB's grammar has no such form).
func collationForCalls(src string, toks []token) []token {
	var out []token
	done := 0 // toks[:done] are in out
	for i := 0; i+2 < len(toks); i++ {
		if !toks[i].is(src, "COLLATION") || !toks[i+1].is(src, "FOR") || !toks[i+2].isPunct(src, "(") ||
			i > 0 && !typeCallFollows(src, toks[i-1]) {
			continue
		}
		out = append(out, toks[done:i]...)
		t := toks[i]
		t.kind, t.synth, t.end = tkQIdent, `"pg_collation_for"`, toks[i+1].end
		out = append(out, t)
		done = i + 2
	}
	if out == nil {
		return toks
	}
	return append(out, toks[done:]...)
}

// treatCalls turns TREAT(x AS type), PostgreSQL's grammar for a call of
// the function the type's last name names (func_expr_common_subexpr:
// TREAT(a AS int) is int4(a), TREAT(b AS character varying(3)) is
// varchar(b): the type's modifiers and array bounds go), into that call:
// the TREAT word becomes the quoted name, the AS and the type go. TiDB's
// grammar has no such form.
func treatCalls(src string, toks []token) []token {
	var out []token
	done := 0 // toks[:done] are in out
	for i := 0; i+1 < len(toks); i++ {
		if !toks[i].is(src, "TREAT") || !toks[i+1].isPunct(src, "(") || i > 0 && !typeCallFollows(src, toks[i-1]) {
			continue
		}
		depth, as, c := 0, -1, -1
		for k := i + 1; k < len(toks) && c < 0; k++ {
			switch {
			case toks[k].isPunct(src, "(") || toks[k].isPunct(src, "["):
				depth++
			case toks[k].isPunct(src, ")") || toks[k].isPunct(src, "]"):
				if depth--; depth == 0 {
					c = k
				}
			case depth == 1 && toks[k].is(src, "AS"):
				as = k
			}
		}
		if as < 0 || c < 0 || as+1 >= c {
			continue // TiDB's syntax error
		}
		name, ok := treatFuncName(src, toks[as+1:c])
		if !ok {
			continue
		}
		out = append(out, toks[done:i]...)
		t := toks[i]
		t.kind, t.synth, t.inPlace = tkQIdent, "pg_catalog."+quoteIdent(name), true // SystemFuncName
		out = append(out, t)
		out = append(out, treatCalls(src, toks[i+1:as])...) // TREAT(TREAT(..) AS t) AS u)
		done, i = c, c-1
	}
	if out == nil {
		return toks
	}
	return append(out, toks[done:]...)
}

// treatTypeNames are the SQL-standard type spellings whose internal name
// differs from their first word (SystemTypeName in PostgreSQL's grammar).
var treatTypeNames = map[string]string{
	"INT": "int4", "INTEGER": "int4", "SMALLINT": "int2", "BIGINT": "int8", "REAL": "float4",
	"BOOLEAN": "bool", "DECIMAL": "numeric", "DEC": "numeric", "NUMERIC": "numeric",
	"VARCHAR": "varchar", "CHAR": "bpchar", "CHARACTER": "bpchar", "NCHAR": "bpchar", "NATIONAL": "bpchar",
}

// treatFuncName is the internal name of the type written in typ (tokens),
// as TREAT calls it: a standard spelling's (int4, varchar, timestamptz,
// ...), else the last part of the (qualified) name.
func treatFuncName(src string, typ []token) (string, bool) {
	var words []string
	var last string
	precision := -1 // float(p)'s p
	for k := 0; k < len(typ); k++ {
		t := typ[k]
		switch {
		case t.isPunct(src, "(") || t.isPunct(src, "["):
			if k+2 < len(typ) && t.isPunct(src, "(") && typ[k+2].isPunct(src, ")") {
				if p, err := strconv.Atoi(typ[k+1].text(src)); err == nil {
					precision = p
				}
			}
			d := 0
			for ; k < len(typ); k++ { // a modifier or array bounds
				if typ[k].isPunct(src, "(") || typ[k].isPunct(src, "[") {
					d++
				} else if typ[k].isPunct(src, ")") || typ[k].isPunct(src, "]") {
					if d--; d == 0 {
						break
					}
				}
			}
		case t.isPunct(src, "."):
		case t.kind == tkIdent || t.kind == tkQIdent:
			n, _ := identName(src, t)
			last = n
			if t.kind == tkIdent {
				words = append(words, t.word(src))
			} else {
				words = append(words, "")
			}
		default:
			return "", false
		}
	}
	if len(words) == 0 {
		return "", false
	}
	first := words[0]
	has := func(w string) bool { return slices.Contains(words, w) }
	switch {
	case first == "FLOAT" && precision >= 1 && precision <= 24:
		return "float4", true
	case first == "DOUBLE" || first == "FLOAT":
		return "float8", true
	case first == "TIMESTAMP":
		if has("WITH") {
			return "timestamptz", true
		}
		return "timestamp", true
	case first == "TIME":
		if has("WITH") {
			return "timetz", true
		}
		return "time", true
	case first == "INTERVAL":
		return "interval", true
	case first == "BIT":
		if has("VARYING") {
			return "varbit", true
		}
		return "bit", true
	case (first == "CHARACTER" || first == "CHAR" || first == "NATIONAL" || first == "NCHAR") && has("VARYING"):
		return "varchar", true
	}
	if n, ok := treatTypeNames[first]; ok && len(words) <= 3 {
		return n, true
	}
	return last, true
}
