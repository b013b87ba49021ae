package sql

import (
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// PostgreSQL's lexer joins two quoted string constants into one only when
// the white space between them holds a newline (scan.l's quotecontinue:
// 'a'<newline>'b' is 'ab', a -- comment before the newline allowed, a /*
// */ comment not) and the second is a plain '...'. Otherwise they are two
// constants in a row, which no rule of its grammar takes: a syntax error
// at the second. TiDB's lexer joins any two, so adjacentStringError reads
// the tokens for PostgreSQL's rule before any rewrite.

// adjacentStringError is PostgreSQL's syntax error for a string constant
// directly after another that does not continue it, or nil.
func adjacentStringError(src string, toks []token) error {
	for i := 1; i < len(toks); i++ {
		prev, cur := toks[i-1], toks[i]
		if !isStringToken(prev) || !isStringToken(cur) {
			continue
		}
		gap := src[prev.end:cur.start]
		continues := prev.kind != tkDollar && cur.kind == tkString && src[cur.start] == '\'' &&
			strings.ContainsAny(gap, "\n\r") && !strings.Contains(gap, "/*")
		if !continues {
			return sqlerr.New(sqlerr.SyntaxError, "syntax error at or near %s", quoteNear(cur.text(src))).WithPosition(charPos(src, cur.start))
		}
	}
	return nil
}

// isStringToken reports whether t is a string constant of any form.
func isStringToken(t token) bool {
	switch t.kind {
	case tkString, tkEString, tkDollar, tkUString:
		return true
	}
	return false
}

// A string constant after a complete operand is no typed literal
// (PostgreSQL's func_name ( args ) Sconst and Typename Sconst need a type's
// name before it) and no alias (a label is an identifier): PostgreSQL's
// syntax error at the string, where TiDB's grammar takes the string for a
// select-list alias or lets a later rule fail. stringAfterOperandError
// finds the operands that are never a type's name: a number; a ']'; a
// type after ::; a '(' ... ')' that is empty, holds a parenthesised
// expression (no name before it) or a cast type's modifiers. DISTINCT ON's
// list is no operand: the select list starts after it.
func stringAfterOperandError(src string, toks []token) *sqlerr.Error {
	afterCast := func(k int) bool { return k > 0 && toks[k-1].kind == tkOp && toks[k-1].text(src) == "::" }
	for i := 1; i < len(toks); i++ {
		if !isStringToken(toks[i]) {
			continue
		}
		p := toks[i-1]
		bad := false
		switch {
		case p.kind == tkNumber, p.isPunct(src, "]"):
			bad = true
		case p.kind == tkIdent || p.kind == tkQIdent:
			bad = afterCast(i - 1)
		case p.isPunct(src, ")"):
			o := matchingOpen(src, toks, i-1) // cte.go
			if o < 0 {
				break
			}
			// a type's or function's name: no reserved word (SELECT (1) 'x')
			name := o > 0 && (toks[o-1].kind == tkQIdent ||
				toks[o-1].kind == tkIdent && !(nameWords[toks[o-1].word(src)].flags&wfPG != 0 && nameWords[toks[o-1].word(src)].cat == kwReserved))
			bad = (o == i-2 || !name || afterCast(o-1)) && !distinctOnList(src, toks, o)
		}
		if bad {
			return sqlerr.New(sqlerr.SyntaxError, "syntax error at or near %s", quoteNear(toks[i].text(src))).WithPosition(charPos(src, toks[i].start))
		}
	}
	return nil
}

// distinctOnList reports whether the '(' at toks[o] opens DISTINCT ON's
// list, after which a string constant is the select list's first item.
func distinctOnList(src string, toks []token, o int) bool {
	return o >= 2 && toks[o-1].kind == tkIdent && toks[o-1].word(src) == "ON" &&
		toks[o-2].kind == tkIdent && toks[o-2].word(src) == "DISTINCT"
}
