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
