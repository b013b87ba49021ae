package sql

import "github.com/sqlgate/sqlgate/sqlerr"

// A call's last argument written VARIADIC arr (concat(VARIADIC
// ARRAY['a', 'b']), f(1, VARIADIC xs)) passes an array to a function's
// VARIADIC parameter whole, where a plain call gives its elements one by
// one. TiDB's grammar has no such word: the rewrite marks the argument
// pg__variadic(arr), which the binder reads (binder/variadic.go). As in
// PostgreSQL's grammar, VARIADIC may begin only a call's last argument
// (42601 at the comma after it otherwise), and GREATEST, LEAST, COALESCE
// and NULLIF, which are no functions there, take none (42601 at the word).

// VariadicMarker is the function the rewrite wraps a VARIADIC argument in.
const VariadicMarker = "pg__variadic"

// variadicKeywordCalls are the constructs written like calls that
// PostgreSQL's grammar reads as expressions: VARIADIC is no argument of
// theirs.
var variadicKeywordCalls = map[string]bool{"GREATEST": true, "LEAST": true, "COALESCE": true, "NULLIF": true}

// rewriteVariadicArgs marks the VARIADIC arguments of toks' calls (see
// above).
func rewriteVariadicArgs(src string, toks []token) ([]token, error) {
	found := false // every statement passes here: one compare per token
	for i := range toks {
		if toks[i].kind == tkIdent && toks[i].end-toks[i].start == len("VARIADIC") && toks[i].is(src, "VARIADIC") {
			found = true
			break
		}
	}
	if !found {
		return toks, nil
	}
	for k := 1; k < len(toks); k++ {
		t := toks[k]
		if !t.is(src, "VARIADIC") || !(toks[k-1].isPunct(src, "(") || toks[k-1].isPunct(src, ",")) {
			continue
		}
		open := callOpen(src, toks, k)
		if open < 1 || !callName(src, toks[open-1]) || namesList(src, toks, open) {
			return nil, syntaxErrorAt(src, toks, k)
		}
		if k+1 < len(toks) && (toks[k+1].isPunct(src, "=>") || toks[k+1].isPunct(src, ":=")) {
			// VARIADIC := x: the keyword is no parameter name, so the
			// grammar reads VARIADIC and fails at the operator
			return nil, syntaxErrorAt(src, toks, k+1)
		}
		// the argument runs to the call's ')' at its depth
		depth, end, named := 0, -1, false
		for i := k + 1; i < len(toks) && end < 0; i++ {
			switch {
			case toks[i].isPunct(src, "(") || toks[i].isPunct(src, "["):
				depth++
			case toks[i].isPunct(src, ")") || toks[i].isPunct(src, "]"):
				if depth == 0 {
					end = i
				}
				depth--
			case depth == 0 && toks[i].isPunct(src, ","):
				return nil, syntaxErrorAt(src, toks, i) // VARIADIC only before the last argument
			case depth == 0 && (toks[i].isPunct(src, "=>") || toks[i].isPunct(src, ":=")):
				named = true
			}
		}
		if named && end >= 0 {
			return nil, sqlerr.NotSupported("VARIADIC before a named argument")
		}
		if end < 0 || end == k+1 {
			return nil, syntaxErrorAt(src, toks, k+1)
		}
		synth := func(kind tokKind, text string) token {
			return token{kind: kind, start: t.start, end: t.start, lead: t.lead, synth: text}
		}
		closing := token{kind: tkPunct, start: toks[end].start, end: toks[end].start, lead: toks[end].start, synth: ")"}
		out := make([]token, 0, len(toks)+2)
		out = append(out, toks[:k]...)
		out = append(out, synth(tkIdent, VariadicMarker), synth(tkPunct, "("))
		out = append(out, toks[k+1:end]...)
		out = append(out, closing)
		toks = append(out, toks[end:]...)
	}
	return toks, nil
}

// callName reports whether t, before a '(', names a function whose
// arguments VARIADIC may begin: no reserved keyword (SELECT (..), IN
// (..)), no list that is no call (VALUES (..)), none of
// variadicKeywordCalls.
func callName(src string, t token) bool {
	if t.kind == tkQIdent {
		return true
	}
	if t.kind != tkIdent {
		return false
	}
	w := t.word(src)
	if kw, ok := pgKeywords[w]; ok && kw.cat == kwReserved || nonOperandWords[w] || notCallWords[w] {
		return false
	}
	return !variadicKeywordCalls[w]
}

// namesList reports whether the '(' at toks[open] opens a list of names
// rather than a call's arguments: a column list after INSERT INTO t,
// CREATE TABLE t, REFERENCES t, a view's or a CTE's name, or an alias (AS
// x(...), FROM t x(...)). There PostgreSQL's grammar wants a name, and
// the reserved VARIADIC fails where it stands.
func namesList(src string, toks []token, open int) bool {
	at := open - 2 // the word before the list's name
	if at >= 2 && toks[at].isPunct(src, ".") {
		at -= 2 // a qualified name: INSERT INTO s.t (...)
	}
	if at < 0 || toks[at].kind != tkIdent && toks[at].kind != tkQIdent {
		return false
	}
	if toks[at].kind == tkQIdent {
		return true // FROM "t" x(...)
	}
	w := toks[at].word(src)
	if namesListWords[w] {
		return true
	}
	// a word that is no keyword is a table's name before its alias (FROM
	// t x(...)); a keyword (LIKE, BETWEEN, ZONE...) ends an operand's
	// left side, and a call follows
	_, keyword := pgKeywords[w]
	return !keyword
}

// namesListWords are the words a name followed by a list of names comes
// after (see namesList).
var namesListWords = map[string]bool{
	"INTO": true, "TABLE": true, "AS": true, "EXISTS": true, "ON": true, "REFERENCES": true,
	"VIEW": true, "WITH": true, "RECURSIVE": true, "KEY": true, "ONLY": true,
}

// callOpen is the index of the '(' whose argument list holds toks[k] at
// its top level, or -1.
func callOpen(src string, toks []token, k int) int {
	depth := 0
	for i := k - 1; i >= 0; i-- {
		switch {
		case toks[i].isPunct(src, ")") || toks[i].isPunct(src, "]"):
			depth++
		case toks[i].isPunct(src, "(") || toks[i].isPunct(src, "["):
			if depth == 0 {
				if toks[i].isPunct(src, "[") {
					return -1
				}
				return i
			}
			depth--
		}
	}
	return -1
}
