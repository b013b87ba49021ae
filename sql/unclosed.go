package sql

import (
	"strings"
	"unicode/utf8"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// Unclosed brackets. The rewrite pairs every ( and [ with its closer
// before it reads what is between, so a statement with an opener that is
// never closed fails there, "at end of input". PostgreSQL's LALR parser
// reads the tokens in order and stops at the first one that cannot
// continue the statement, which is often well before the end (FROM t (
// WHERE ..: at WHERE; f('a'( ::regclass): at the second '('): the missing
// closer only matters when everything before the end is a valid prefix.
//
// unclosedError finds that first token: the statement is parsed again with
// the missing closers appended. Appending changes no prefix of the input,
// so a syntax error the second parse finds at a token of the statement
// itself is where PostgreSQL's parser stops too; one at an appended
// closer (or none) puts the error at the end of the input. The same holds
// for an error a rewrite step reported at a token before the end, misled
// by the missing closer (trim(BOTH 'x', 'y', f(a => 1, b => 2).

// truncatedError is the same reasoning for a statement refused at its
// end (at end of input, or at the ';' after it): a rewrite step that
// needs the operand of the statement's last word (LIMIT, OFFSET, ::, a
// typed literal's type) reports the missing operand before any error the
// tokens before it hold (ORDER BY id 8 OFFSET: PostgreSQL stops at 8).
// The statement without its last token is parsed: a syntax error at one
// of its tokens is where PostgreSQL's parser stops too, as what follows a
// token does not change whether the tokens up to it can start a
// statement.
//
// A syntax error at a string constant, or in a query at a comma, is
// checked the same way: the tokens before it are parsed alone,
// and an error before the last of them (the check for two string
// constants in a row looks ahead and reports the second first: f(,'a'
// 'b'); the checks of singleexpr.go report a comma before what the
// rewrite or TiDB would refuse earlier: 1 + * = ANY (a, b)) is
// PostgreSQL's.
func (p *Parser) truncatedError(src string, toks []token, err error) error {
	n := len(toks)
	if p.retrying || n < 3 {
		return err
	}
	keep := -1 // the tokens parsed again: toks[:keep]
	switch {
	case atStatementEnd(err, src, toks):
		if missingClosers(src, toks) == "" {
			keep = n - 1
		}
	default:
		if se := sqlerr.As(err); se != nil && se.Code == sqlerr.SyntaxError && se.Position > 1 {
			// only at a string constant (or a query's comma): sqlgate's own statement parsers
			// and the keyword checks report a statement cut short at its
			// last tokens (SET my. at the '.', SELECT double precision at
			// double), not at its end
			if i := tokenAtPosition(src, toks, se.Position); i > 0 && (toks[i].kind == tkString || toks[i].kind == tkEString || toks[i].kind == tkDollar ||
				toks[i].isPunct(src, ",") && queryOrWrite(src, toks[0])) {
				keep = i
			}
		}
	}
	if keep < 2 {
		return err
	}
	last := toks[keep-1]
	text := blankBefore(src, toks[0].start) + src[toks[0].start:last.end]
	more, lerr := lexInto(text, nil)
	if lerr != nil || len(more) != keep {
		return err
	}
	p.retrying = true
	_, again := p.parseOne(text, more, false)
	p.retrying = false
	limit := charPos(src, last.start) // the error at a token of the text parsed
	if keep < n-1 {
		limit-- // one before its last token
	}
	if se := sqlerr.As(again); se != nil && se.Code == sqlerr.SyntaxError && se.Position > 0 && se.Position <= limit {
		return again
	}
	return err
}

// prefixError is the syntax error PostgreSQL reports in toks[:at+1], the
// statement up to and including its token at, when it lies at one of
// those tokens (the reasoning of truncatedError: what follows a token
// does not change whether the tokens up to it can start a statement), or
// nil.
func (p *Parser) prefixError(src string, toks []token, at int) error {
	if p.retrying || at < 1 || at >= len(toks) {
		return nil
	}
	last := toks[at]
	text := blankBefore(src, toks[0].start) + src[toks[0].start:last.end]
	more, lerr := lexInto(text, nil)
	if lerr != nil || len(more) != at+1 {
		return nil
	}
	p.retrying = true
	_, again := p.parseOne(text, more, false)
	p.retrying = false
	if se := sqlerr.As(again); se != nil && se.Code == sqlerr.SyntaxError && se.Position > 0 && se.Position <= charPos(src, last.start) &&
		strings.HasPrefix(se.Message, "syntax error at or near") {
		return again
	}
	return nil
}

// tokenAtPosition is the index of the token of toks starting at the
// 1-based character position pos, or -1.
func tokenAtPosition(src string, toks []token, pos int) int {
	off, chars := 0, 1
	for off < len(src) && chars < pos {
		_, n := utf8.DecodeRuneInString(src[off:])
		off += n
		chars++
	}
	for i, t := range toks {
		if t.start == off && t.synth == "" {
			return i
		}
	}
	return -1
}

// atStatementEnd reports whether err is the syntax error at the end of the
// statement toks: "at end of input", or at the ';' that ends it.
func atStatementEnd(err error, src string, toks []token) bool {
	se := sqlerr.As(err)
	if se == nil || se.Code != sqlerr.SyntaxError || len(toks) == 0 {
		return false
	}
	return se.Message == "syntax error at end of input" ||
		se.Message == `syntax error at or near ";"` && se.Position > charPos(src, toks[len(toks)-1].start)
}

// blankBefore is src[:end] with every character a space (newlines kept),
// so that positions in the text after it stay src's.
func blankBefore(src string, end int) string {
	var b strings.Builder
	b.Grow(end)
	for k := 0; k < end; {
		_, n := utf8.DecodeRuneInString(src[k:])
		if src[k] == '\n' {
			b.WriteByte('\n')
		} else {
			b.WriteByte(' ')
		}
		k += n
	}
	return b.String()
}

// missingClosers is the text that closes the statement's unclosed ( and
// [ in order ("" when every bracket is closed, or when a closer closes
// nothing or one of the other kind: badCloser's case).
func missingClosers(src string, toks []token) string {
	var stack []byte
	for _, t := range toks {
		if t.kind != tkPunct || t.synth != "" || t.end-t.start != 1 {
			continue
		}
		switch c := src[t.start]; c {
		case '(', '[':
			stack = append(stack, c)
		case ')', ']':
			opener := byte('(')
			if c == ']' {
				opener = '['
			}
			if len(stack) == 0 || stack[len(stack)-1] != opener {
				return ""
			}
			stack = stack[:len(stack)-1]
		}
	}
	var b strings.Builder
	for k := len(stack) - 1; k >= 0; k-- {
		b.WriteByte(' ')
		if stack[k] == '(' {
			b.WriteByte(')')
		} else {
			b.WriteByte(']')
		}
	}
	return b.String()
}

// unclosedError is the syntax error PostgreSQL reports for a statement
// whose brackets are not all closed (see above), err for another
// statement or error.
func (p *Parser) unclosedError(src string, toks []token, err error) error {
	if se := sqlerr.As(err); se == nil || se.Code != sqlerr.SyntaxError || len(toks) == 0 {
		return err
	}
	closers := missingClosers(src, toks)
	if closers == "" {
		return err
	}
	first, last := toks[0], toks[len(toks)-1]
	// the statements before this one blanked, so that positions stay the
	// input's
	text := blankBefore(src, first.start) + src[first.start:last.end] + closers
	more, lerr := lexInto(text, nil)
	if lerr != nil || len(more) != len(toks)+len(closers)/2 {
		return err
	}
	_, again := p.parseOne(text, more, false)
	se := sqlerr.As(again)
	switch {
	case again == nil, se != nil && se.Code == sqlerr.SyntaxError && se.Position > charPos(src, last.start):
		// every token of the statement continues it: the error is at its
		// end (Parse moves it to a ';' that ends the statement)
		return syntaxErrorAt(src, toks, len(toks))
	case se != nil && se.Code == sqlerr.SyntaxError && se.Position > 0:
		return again
	}
	return err
}
