package sql

import (
	"iter"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// tokKind classifies a token of PostgreSQL's lexical grammar. The lexer is
// deliberately close to PostgreSQL's scan.l so that everything the rewrite
// looks at ($n, ::, E'...', $$, ~) is recognised exactly where PostgreSQL would
// recognise it, and never inside a string, identifier or comment.
type tokKind uint8

const (
	tkIdent   tokKind = iota + 1 // bare word: keyword or identifier
	tkQIdent                     // "quoted identifier"
	tkString                     // '...' with optional X/B/N prefix
	tkEString                    // E'...' (backslash escapes)
	tkDollar                     // $$...$$ or $tag$...$tag$
	tkNumber                     // 12, 1.5, 1e-3
	tkParam                      // $n
	tkOp                         // operator: + - * / < > = ~ ! ... and multi-char ones
	tkPunct                      // ( ) [ ] , ; . :
	tkUString                    // U&'...' (decodeUnicodeTokens makes it a tkString)
	tkUIdent                     // U&"..." (decodeUnicodeTokens makes it a tkQIdent)
)

// token is one lexical token. start/end are byte offsets into the text given
// to the lexer. lead is the byte offset where the whitespace/comments before
// the token begin, so the rewrite can keep the original spacing; hasComment
// says that gap contained a comment (which the rewrite replaces by a space,
// because TiDB reads /*! */ and /*+ */ comments as code).
//
// Synthetic tokens (synth != "") are produced by statement-level rewrites
// (CREATE TABLE types, ON CONFLICT); their start is the original position
// they stand for.
type token struct {
	kind       tokKind
	flags      tokFlags // what the lexer learnt of the token for the fast path
	hasComment bool
	// inPlace: synth replaces the token's own text where it stands (a
	// word quoted as a name), so it keeps the source's spacing.
	inPlace bool
	// callName: a synthesised word that names a function, never a
	// keyword to the rewrite (EXCLUDED.x's VALUES(x), ddl.go): its word is
	// "", so that the scans for an operand's start (IS DISTINCT FROM's
	// left operand, a cast's, ANY's) take the call as an operand, as
	// PostgreSQL's excluded.x is a column
	callName bool
	// hash is a bare word's wordHash (which lower-cases ASCII letters,
	// as the rewrite writes the word), for the fast path's keyword table
	// (fasttoks.go); 0 for other tokens.
	hash       uint32
	start, end int
	lead       int
	synth      string
}

// tokFlags are the facts the fast parser needs of a token that only a
// look at its bytes tells, recorded by the one pass that reads them
// (lexInto), so that the fast path builds its tokens from these
// (fasttoks.go) instead of lexing the statement again.
type tokFlags uint8

const (
	// tfNotFast: the fast path declines the token (its own lexer refused
	// it): a word with a non-ASCII byte; a string or quoted name holding
	// a NUL or invalid UTF-8, a quoted name holding a backslash; a number
	// that starts with '.' or has a '.' without digits after it.
	tfNotFast tokFlags = 1 << iota
	// tfDoubled: a quoted token holding a doubled quote, so its value is
	// not the text between its quotes.
	tfDoubled
	// tfOddSpace: the whitespace before the token holds \f or \v, which
	// the fast path's lexer refused.
	tfOddSpace
	// tfDec, tfFloat: a number with a fraction, with an exponent.
	tfDec
	tfFloat
)

// text returns the token's text: the original bytes or the synthetic text.
func (t token) text(src string) string {
	if t.synth != "" {
		return t.synth
	}
	return src[t.start:t.end]
}

// is reports whether the token is the bare word w (w must be upper case).
func (t token) is(src string, w string) bool {
	return t.kind == tkIdent && t.synth == "" && t.end-t.start == len(w) && equalFoldWord(src, t.start, w)
}

// equalFoldWord is strings.EqualFold(s, w) for s = src[start:start+len(w)],
// without its call and rune decoding when w is ASCII (every word the
// rewrite looks for): then a non-ASCII s never matches, because a
// multi-byte rune makes s fewer runes than w, and EqualFold compares rune
// by rune.
func equalFoldWord(src string, start int, w string) bool {
	s := src[start : start+len(w)]
	for i := 0; i < len(w); i++ {
		c, d := s[i], w[i]
		if c|d >= 0x80 {
			return strings.EqualFold(s, w)
		}
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		if d >= 'a' && d <= 'z' {
			d -= 'a' - 'A'
		}
		if c != d {
			return false
		}
	}
	return true
}

// nesting is +1 for a token that opens a bracket, '(' or '[', -1 for one
// that closes one and 0 otherwise: the rewrites look for keywords and
// commas outside any bracket, where PostgreSQL's grammar would see them.
func (t token) nesting(src string) int {
	switch {
	case t.isPunct(src, "(") || t.isPunct(src, "["):
		return 1
	case t.isPunct(src, ")") || t.isPunct(src, "]"):
		return -1
	}
	return 0
}

// topLevel yields the index of each token of toks[from:to] outside any
// bracket, the brackets themselves left out.
func topLevel(src string, toks []token, from, to int) iter.Seq[int] {
	return func(yield func(int) bool) {
		depth := 0
		for i := from; i < to; i++ {
			if d := toks[i].nesting(src); d != 0 {
				depth += d
			} else if depth == 0 && !yield(i) {
				return
			}
		}
	}
}

// isPunct reports whether the token is the punctuation or operator p.
func (t token) isPunct(src string, p string) bool {
	return (t.kind == tkPunct || t.kind == tkOp) && t.text(src) == p
}

// isSemicolon is isPunct(src, ";") for the statement splitter, which asks
// it of every token: one byte compared instead of the token's text.
func (t *token) isSemicolon(src string) bool {
	return t.kind == tkPunct && t.synth == "" && t.end-t.start == 1 && src[t.start] == ';'
}

// word returns the upper-cased text of a bare word, "" for other tokens
// (and a callName).
func (t token) word(src string) string {
	if t.kind != tkIdent || t.callName {
		return ""
	}
	return strings.ToUpper(t.text(src))
}

// multiOps are the multi-character operators the lexer keeps together. Every
// other operator character is a token of its own; that is enough because
// operators the rewrite does not touch are copied verbatim and TiDB lexes
// them again.
var multiOps = [...]string{"!~~*", "~<=~", "~>=~", "<=>", "!~~", "~~*", "~<~", "~>~", "||/", "!~*", "->>", "#>>", "::", "!~", "~~", "~*", "<=", ">=", "<>", "!=", "||", "|/", "->", "#>", "#-", "^@", "=>", ":=", "&&", "<<", "@>", "<@", "?|", "?&", "@?", "@@"}

func isIdentStart(c byte) bool { return byteClass[c]&bcIdentStart != 0 }

func isIdentCont(c byte) bool { return byteClass[c]&bcIdentCont != 0 }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isSpace(c byte) bool { return byteClass[c]&bcSpace != 0 }

// Byte classes of the lexer: one table load per byte instead of a chain of
// compares in its inner loops.
const (
	bcSpace      uint8 = 1 << iota // ' ' \t \n \r \f \v
	bcIdentStart                   // _ a-z A-Z and every byte >= 0x80
	bcIdentCont                    // bcIdentStart, 0-9 and $
	bcMultiOp                      // the first byte of a multiOps entry
	bcOpChar                       // PostgreSQL's op_chars: ~ ! @ # ^ & | ` ? + - * / % < > =
)

// byteClass is built once and only read.
var byteClass = func() (t [256]uint8) {
	for _, c := range []byte(" \t\n\r\f\v") {
		t[c] |= bcSpace
	}
	for c := 0; c < 256; c++ {
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 {
			t[c] |= bcIdentStart | bcIdentCont
		}
		if c >= '0' && c <= '9' || c == '$' {
			t[c] |= bcIdentCont
		}
	}
	for _, op := range multiOps {
		t[op[0]] |= bcMultiOp
	}
	for _, c := range []byte("~!@#^&|`?+-*/%<>=") {
		t[c] |= bcOpChar
	}
	return t
}()

// lexError is a lexical error in PostgreSQL's wording, positioned at off.
func lexError(src string, off int, what string) *sqlerr.Error {
	return sqlerr.New(sqlerr.SyntaxError, "%s at or near %s", what, quoteNear(src[off:])).WithPosition(charPos(src, off))
}

// quoteNear renders a token for an "at or near" message as PostgreSQL does.
func quoteNear(tok string) string {
	return `"` + tok + `"`
}

// charPos converts a byte offset into PostgreSQL's 1-based character position.
func charPos(src string, off int) int {
	if off > len(src) {
		off = len(src)
	}
	if off < 0 {
		off = 0
	}
	return utf8.RuneCountInString(src[:off]) + 1
}

// lex splits src into tokens (whitespace and comments are not tokens; they
// are remembered through token.lead). It never panics; unterminated
// strings, identifiers and comments are reported as PostgreSQL does.
func lex(src string) ([]token, error) { return lexInto(src, nil) }

// lexInto is lex appending to buf[:0] (the Parser's tokens of the previous
// call, whose statements no longer refer to them) when it is large enough.
func lexInto(src string, buf []token) ([]token, error) {
	toks := buf[:0]
	if cap(toks) < len(src)/3+8 {
		toks = make([]token, 0, len(src)/3+8)
	}
	i := 0
	// angles counts the type arguments' < still open (ARRAY<, MAP<, ROW<,
	// STRUCT<: typename.go), whose closing > stay tokens of their own
	// (ARRAY<ARRAY<ARRAY<INT>>>); elsewhere a run of > is one operator
	// as PostgreSQL's scan.l reads it (3.5 >>> 2 is the operator >>>)
	angles := 0
	for {
		lead := i
		comment, odd := false, false
		var fl tokFlags // the token's flags
		// skip whitespace and comments
		for i < len(src) {
			c := src[i]
			if isSpace(c) {
				if c == '\f' || c == '\v' {
					odd = true
				}
				i++
				continue
			}
			if c == '-' && i+1 < len(src) && src[i+1] == '-' {
				comment = true
				for i < len(src) && src[i] != '\n' && src[i] != '\r' {
					i++
				}
				continue
			}
			if c == '/' && i+1 < len(src) && src[i+1] == '*' {
				// PostgreSQL block comments nest.
				comment = true
				start := i
				depth := 0
				for {
					if i+1 >= len(src) {
						return nil, lexError(src, start, "unterminated /* comment")
					}
					if src[i] == '/' && src[i+1] == '*' {
						depth++
						i += 2
					} else if src[i] == '*' && src[i+1] == '/' {
						depth--
						i += 2
						if depth == 0 {
							break
						}
					} else {
						i++
					}
				}
				continue
			}
			break
		}
		if i >= len(src) {
			return toks, nil
		}
		start := i
		c := src[i]
		var kind tokKind
		var flags tokFlags
		if odd {
			flags = tfOddSpace
		}
		switch {
		case (c == 'u' || c == 'U') && i+2 < len(src) && src[i+1] == '&' && (src[i+2] == '\'' || src[i+2] == '"'):
			// U&'..', U&"..": Unicode escapes (unicode.go); no backslash
			// escapes a quote inside
			end, _, ok := scanQuoted(src, i+2, src[i+2], false)
			if !ok {
				if src[i+2] == '"' {
					return nil, lexError(src, start, "unterminated quoted identifier")
				}
				return nil, lexError(src, start, "unterminated quoted string")
			}
			i, kind = end, tkUString
			if src[start+2] == '"' {
				kind = tkUIdent
			}
		case isIdentStart(c) && i+1 < len(src) && src[i+1] == '\'' && stringPrefix(c):
			// E'..', X'..', B'..', N'..': a prefixed string, not a word
			e := c == 'e' || c == 'E'
			end, _, ok := scanQuoted(src, i+1, '\'', e)
			if !ok {
				if e { // scan.l reports an escape error met before the end
					if _, off, err := decodeEString(src[start:] + "'"); err != nil && off >= 0 && start+off < len(src) {
						return nil, err.WithPosition(charPos(src, start+off))
					}
				}
				return nil, lexError(src, start, "unterminated quoted string")
			}
			i, kind = end, tkString
			if e {
				kind = tkEString
			}
		case isIdentStart(c):
			high := c
			i++
			for i < len(src) && isIdentCont(src[i]) {
				high |= src[i]
				i++
			}
			kind = tkIdent
			toks = appendToken(toks, kind, start, i, lead, comment)
			t := &toks[len(toks)-1]
			t.hash = wordHash(src[start:i]) // as the rewrite writes the word: lower-cased
			if high >= 0x80 {
				t.flags |= tfNotFast
			}
			if odd {
				t.flags |= tfOddSpace
			}
			continue
		case c == '\'':
			end, f, ok := scanQuoted(src, i, '\'', false)
			if !ok {
				return nil, lexError(src, start, "unterminated quoted string")
			}
			i, kind, fl = end, tkString, f&^qfBackslash
		case c == '"':
			end, f, ok := scanQuoted(src, i, '"', false)
			fl = f
			if f&qfBackslash != 0 {
				fl = f&^qfBackslash | tfNotFast
			}
			if !ok {
				return nil, lexError(src, start, "unterminated quoted identifier")
			}
			if end-start == 2 {
				return nil, lexError(src, start, "zero-length delimited identifier")
			}
			i, kind = end, tkQIdent
		case c == '$':
			if i+1 < len(src) && isDigit(src[i+1]) {
				i++
				for i < len(src) && isDigit(src[i]) {
					i++
				}
				kind = tkParam
				break
			}
			// $tag$ ... $tag$
			j := i + 1
			for j < len(src) && src[j] != '$' && isIdentCont(src[j]) {
				j++
			}
			if j >= len(src) || src[j] != '$' {
				return nil, lexError(src, start, "syntax error")
			}
			tag := src[i : j+1]
			k := strings.Index(src[j+1:], tag)
			if k < 0 {
				return nil, lexError(src, start, "unterminated dollar-quoted string")
			}
			i, kind = j+1+k+len(tag), tkDollar
		case isDigit(c) || (c == '.' && i+1 < len(src) && isDigit(src[i+1])):
			i, fl = scanNumber(src, i)
			kind = tkNumber
			if j := numberJunk(src, i); j > i {
				// PostgreSQL 15's integer_junk, numeric_junk, real_junk
				// and realfail: a number followed by an identifier's
				// characters (1abc, 1.5e, 12e+) is one refused token
				return nil, sqlerr.New(sqlerr.SyntaxError, "trailing junk after numeric literal at or near %s",
					quoteNear(src[start:j])).WithPosition(charPos(src, start))
			}
		case c == '(' || c == ')' || c == '[' || c == ']' || c == ',' || c == ';' || c == '.':
			i++
			kind = tkPunct
		default:
			kind = tkOp
			n := 1
			if byteClass[c]&bcMultiOp != 0 { // most operators are one byte
				n = multiOpLen(src[i:])
			}
			if i+n < len(src) && byteClass[src[i+n]]&bcOpChar != 0 {
				// PostgreSQL's token may be longer than the operator we
				// know (2 !=- 1 is one operator there, not != -1): take
				// its length, so that an operator it reads as one is
				// one here too (rewrite.go reports those we lack).
				// A comment inside the run ends it sooner (3 #-- c is 3 #).
				// A run of > alone stays apart where it closes nested
				// type arguments (ARRAY<ARRAY<INT>>, typename.go: angles),
				// and >> does too (TiDB reads > > written together as
				// its shift).
				m := pgOperatorLen(src[i:])
				gts := strings.Trim(src[i:i+m], ">") == ""
				if (m > n && (!gts || angles == 0 && m > 2)) || strings.HasPrefix(src[i+m:], "--") || strings.HasPrefix(src[i+m:], "/*") {
					n = m
				}
			}
			switch {
			case n == 1 && c == '<' && typeArgsOpen(src, toks):
				angles++
			case n == 1 && c == '>' && angles > 0:
				angles--
			}
			i += n
		}
		toks = appendToken(toks, kind, start, i, lead, comment)
		if flags|fl != 0 {
			toks[len(toks)-1].flags = flags | fl
		}
	}
}

// typeArgsOpen reports whether a < after toks opens a type's arguments:
// it follows ARRAY, MAP, ROW or STRUCT (typename.go's forms).
func typeArgsOpen(src string, toks []token) bool {
	if len(toks) == 0 {
		return false
	}
	w := toks[len(toks)-1].word(src)
	return w == "ARRAY" || w == "MAP" || w == "ROW" || w == "STRUCT"
}

// stringPrefix reports whether c followed by a quote starts a prefixed
// string literal: E'..' (escapes), X'..', B'..' (bit strings), N'..'.
func stringPrefix(c byte) bool {
	switch c {
	case 'e', 'E', 'x', 'X', 'b', 'B', 'n', 'N':
		return true
	}
	return false
}

// multiOpLen is the length of the operator at the start of s: the longest
// multiOps entry it starts with, else 1. A switch by first byte rather than
// a walk of multiOps: it runs for most operators of every statement.
// TestMultiOpLen checks it against multiOps.
func multiOpLen(s string) int {
	if len(s) < 2 {
		return 1
	}
	c1 := s[1]
	switch s[0] {
	case '<':
		switch c1 {
		case '=':
			if len(s) > 2 && s[2] == '>' {
				return 3 // <=>
			}
			return 2
		case '>', '<', '@':
			return 2 // <> << <@
		}
	case '@':
		if c1 == '>' || c1 == '?' || c1 == '@' {
			return 2 // @> @? @@
		}
	case '?':
		if c1 == '|' || c1 == '&' {
			return 2
		}
	case '!':
		switch c1 {
		case '~':
			if len(s) > 2 && s[2] == '*' {
				return 3 // !~*
			}
			if len(s) > 2 && s[2] == '~' {
				if len(s) > 3 && s[3] == '*' {
					return 4 // !~~*
				}
				return 3 // !~~
			}
			return 2
		case '=':
			return 2
		}
	case '-', '#':
		if c1 == '-' && s[0] == '#' {
			return 2 // #-
		}
		if c1 == '>' {
			if len(s) > 2 && s[2] == '>' {
				return 3 // ->> #>>
			}
			return 2
		}
	case ':':
		if c1 == ':' || c1 == '=' {
			return 2
		}
	case '~':
		switch c1 {
		case '*':
			return 2
		case '~':
			if len(s) > 2 && s[2] == '*' {
				return 3 // ~~*
			}
			return 2 // ~~
		case '<', '>':
			// the text pattern comparisons ~<~ ~<=~ ~>=~ ~>~
			if len(s) > 2 && s[2] == '~' {
				return 3
			}
			if len(s) > 3 && s[2] == '=' && s[3] == '~' {
				return 4
			}
		}
	case '>', '=':
		if c1 == '=' && s[0] == '>' || c1 == '>' && s[0] == '=' {
			return 2 // >= =>
		}
	case '|':
		if c1 == '|' {
			if len(s) > 2 && s[2] == '/' {
				return 3 // ||/
			}
			return 2
		}
		if c1 == '/' {
			return 2 // |/
		}
	case '^':
		if c1 == '@' {
			return 2 // ^@
		}
	case '&':
		if c1 == '&' {
			return 2
		}
	}
	return 1
}

// pgOperatorLen is the length of the operator token PostgreSQL's lexer
// reads at the start of s (scan.l, {operator}): the longest run of
// op_chars, cut where a comment starts inside it (-- or /*), then, when it
// is longer than one character and ends in + or -, stripped of its
// trailing + and - unless it holds a character no SQL-standard operator
// has (~ ! @ # ^ & | ` ? %): so =- is = then a minus sign, but ?- and !=-
// are operators of their own.
func pgOperatorLen(s string) int {
	n := 0
	for n < len(s) && byteClass[s[n]]&bcOpChar != 0 {
		if n > 0 && (s[n-1] == '-' && s[n] == '-' || s[n-1] == '/' && s[n] == '*') {
			n--
			break
		}
		n++
	}
	if n > 1 && (s[n-1] == '+' || s[n-1] == '-') && !strings.ContainsAny(s[:n-1], "~!@#^&|`?%") {
		for n > 1 && (s[n-1] == '+' || s[n-1] == '-') {
			n--
		}
	}
	return max(n, 1)
}

// otherOperator reports whether an operator token is one PostgreSQL's
// lexer reads whole where ours knows no such operator (pgOperatorLen), or
// <=>, MySQL's null-safe equality, which TiDB's grammar would take and
// PostgreSQL has no operator of (the rewrite writes it itself for IS [NOT]
// DISTINCT FROM): the rewrite passes it to the binder, which reports that
// it does not exist.
func otherOperator(text string) bool {
	// ` is an operator character to PostgreSQL, a quote to TiDB
	return text == "<=>" || len(text) > 1 && len(text) > multiOpLen(text) || strings.Contains(text, "`")
}

// appendToken appends a lexed token field by field. Appending a token
// value would copy it with typedmemmove, which runs the write barrier over
// the whole element whenever the GC is marking (its synth string is a
// pointer): a tenth of the lexer's cost in a parse-heavy loop. Only a stale
// synth left by the buffer's previous use needs a pointer write at all.
func appendToken(toks []token, kind tokKind, start, end, lead int, comment bool) []token {
	if len(toks) == cap(toks) {
		toks = append(toks, token{})
	} else {
		toks = toks[:len(toks)+1]
	}
	t := &toks[len(toks)-1]
	t.kind, t.start, t.end, t.lead, t.hasComment = kind, start, end, lead, comment
	t.flags, t.hash, t.inPlace = 0, 0, false
	if t.synth != "" {
		t.synth = ""
	}
	return toks
}

// scanQuoted returns the offset just past the closing quote of a literal
// starting at src[i] == q. A doubled quote is an escaped quote; in E'...'
// strings a backslash escapes the next byte too. The flags say what the
// fast path must know of the literal's bytes (tfDoubled; tfNotFast for a
// NUL or invalid UTF-8; qfBackslash for a backslash), read in the same
// pass.
func scanQuoted(src string, i int, q byte, backslash bool) (int, tokFlags, bool) {
	var fl tokFlags
	i++
	for i < len(src) {
		c := src[i]
		if quoteClass[c] == 0 { // most bytes: nothing to note
			i++
			continue
		}
		switch {
		case c == '\\':
			fl |= qfBackslash
			if backslash {
				i += 2
				continue
			}
		case c == q:
			if i+1 < len(src) && src[i+1] == q {
				fl |= tfDoubled
				i += 2
				continue
			}
			return i + 1, fl, true
		case c == 0:
			fl |= tfNotFast
		case c >= 0x80:
			if r, n := utf8.DecodeRuneInString(src[i:]); r == utf8.RuneError && n <= 1 {
				fl |= tfNotFast
			} else {
				i += n
				continue
			}
		}
		i++
	}
	return len(src), fl, false
}

// qfBackslash is scanQuoted's flag for a backslash (which only a quoted
// name refuses to the fast path); it is no token flag.
const qfBackslash = tfFloat << 1

// quoteClass marks the bytes scanQuoted looks at: the quotes, the
// backslash, NUL and the bytes of multi-byte characters.
var quoteClass = func() (t [256]uint8) {
	for _, c := range []byte{'\'', '"', '\\', 0} {
		t[c] = 1
	}
	for c := 0x80; c < 256; c++ {
		t[c] = 1
	}
	return t
}()

// lowerASCII maps a byte to its lower case (ASCII letters only).
var lowerASCII = func() (t [256]uint8) {
	for c := range t {
		t[c] = uint8(c)
		if c >= 'A' && c <= 'Z' {
			t[c] = uint8(c) + 'a' - 'A'
		}
	}
	return t
}()

// scanNumber returns the offset past the number at src[i] and its flags:
// tfDec with a fraction, tfFloat with an exponent, tfNotFast when it
// starts with '.' or its '.' has no digit after it (the fast path's lexer
// refused both).
func scanNumber(src string, i int) (int, tokFlags) {
	var fl tokFlags
	if src[i] == '.' {
		fl = tfNotFast
	}
	for i < len(src) && isDigit(src[i]) {
		i++
	}
	if i < len(src) && src[i] == '.' && !(i+1 < len(src) && src[i+1] == '.') {
		i++
		fl |= tfDec
		if i >= len(src) || !isDigit(src[i]) {
			fl |= tfNotFast
		}
		for i < len(src) && isDigit(src[i]) {
			i++
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		j := i + 1
		if j < len(src) && (src[j] == '+' || src[j] == '-') {
			j++
		}
		if j < len(src) && isDigit(src[j]) {
			for j < len(src) && isDigit(src[j]) {
				j++
			}
			i = j
			fl |= tfFloat
		}
	}
	return i, fl
}

// numberJunk is the end of the junk that follows the number ending at i
// (i when none): a failed exponent (1e, 12e+) or an identifier's
// characters, through the identifier characters after them.
func numberJunk(src string, i int) int {
	j := i
	if j < len(src) && (src[j] == 'e' || src[j] == 'E') {
		j++
		if j < len(src) && (src[j] == '+' || src[j] == '-') {
			return j + 1
		}
	} else if j >= len(src) || !isIdentStart(src[j]) {
		return i
	}
	for j < len(src) && isIdentCont(src[j]) {
		j++
	}
	return j
}

// unquoteString returns the value of a standard '...' literal (a doubled quote is one quote).
func unquoteString(raw string) string {
	if len(raw) < 2 {
		return ""
	}
	return strings.ReplaceAll(raw[1:len(raw)-1], "''", "'")
}

// unquoteIdent returns the name of a "quoted" identifier ("" -> ").
func unquoteIdent(raw string) string {
	if len(raw) < 2 {
		return ""
	}
	return strings.ReplaceAll(raw[1:len(raw)-1], `""`, `"`)
}

// dollarBody returns the body of $tag$body$tag$.
func dollarBody(raw string) string {
	j := strings.IndexByte(raw[1:], '$')
	if j < 0 {
		return ""
	}
	tagLen := j + 2
	if len(raw) < 2*tagLen {
		return ""
	}
	return raw[tagLen : len(raw)-tagLen]
}

// decodeEStringAt decodes the E'...' literal t of src, an error placed where
// PostgreSQL's scanner places it.
func decodeEStringAt(src string, t token) (string, error) {
	v, off, err := decodeEString(t.text(src))
	if err != nil {
		if off < 0 { // an encoding error: PostgreSQL gives no position
			return "", err
		}
		return "", err.WithPosition(charPos(src, t.start+off))
	}
	return v, nil
}

// decodeEString resolves the escapes of a PostgreSQL E'...' literal (raw
// includes the E and the quotes), as PostgreSQL's scanner does: \b \f \n \r
// \t, \ooo octal, \xhh hex, \uXXXX and \UXXXXXXXX Unicode (a UTF-16
// surrogate pair of them joined), a doubled quote and \' for a quote, any
// other escaped character stands for itself. On an error it returns the
// offset in raw PostgreSQL reports it at (-1: none); the messages scan.l reports with
// yyerror say "at or near" the text there.
func decodeEString(raw string) (string, int, *sqlerr.Error) {
	if len(raw) < 3 {
		return "", 0, sqlerr.New(sqlerr.SyntaxError, "invalid escape string")
	}
	s := raw[2 : len(raw)-1]
	const base = 2 // s[0] is raw[2]
	var b strings.Builder
	b.Grow(len(s))
	var pairs utf16Joiner
	// nearErr is scan.l's yyerror: the message "at or near" the token
	// starting at s[at:] (the escape, the next character, or the quote).
	nearErr := func(msg string, at, n int) (string, int, *sqlerr.Error) {
		near := "'"
		if at < len(s) {
			near = s[at:min(at+n, len(s))]
		}
		return "", base + at, sqlerr.New(sqlerr.SyntaxError, "%s at or near %s", msg, quoteNear(near))
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if pairs.pending() && !(c == '\\' && i+1 < len(s) && (s[i+1] == 'u' || s[i+1] == 'U')) {
			return nearErr("invalid Unicode surrogate pair", i, 1)
		}
		if c == '\'' { // doubled quote
			b.WriteByte('\'')
			i++
			continue
		}
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		c = s[i]
		switch c {
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v, n := 0, 0
			for n < 3 && i < len(s) && s[i] >= '0' && s[i] <= '7' {
				v = v*8 + int(s[i]-'0')
				i++
				n++
			}
			i--
			b.WriteByte(byte(v)) // a NUL or a bad sequence is refused at the end, as scan.l does
		case 'x':
			v, n := 0, 0
			for n < 2 && i+1 < len(s) && isHex(s[i+1]) {
				i++
				v = v*16 + hexVal(s[i])
				n++
			}
			if n == 0 {
				b.WriteByte('x')
				continue
			}
			b.WriteByte(byte(v))
		case 'u', 'U':
			n := 4
			if c == 'U' {
				n = 8
			}
			if !hexRun(s, i+1, n) {
				return "", base + i - 1, sqlerr.New(sqlerr.InvalidEscapeSequence, "invalid Unicode escape").WithHint(`Unicode escapes must be \uXXXX or \UXXXXXXXX.`)
			}
			// scan.l's order: the pair first, then the value's range
			v := hexValue(s[i+1 : i+1+n])
			if !pairs.pending() && (v == 0 || v > utf8.MaxRune) {
				return nearErr("invalid Unicode escape value", i-1, n+2)
			}
			if !pairs.add(&b, v) {
				return nearErr("invalid Unicode surrogate pair", i-1, n+2)
			}
			i += n
		default:
			b.WriteByte(c)
		}
	}
	if pairs.pending() {
		return nearErr("invalid Unicode surrogate pair", len(s), 1)
	}
	out := b.String()
	if err := sqlerr.InvalidUTF8([]byte(out)); err != nil {
		return "", -1, err
	}
	return out, 0, nil
}

func isHex(c byte) bool {
	return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func hexVal(c byte) int {
	switch {
	case isDigit(c):
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	default:
		return int(c-'A') + 10
	}
}

// beyondDouble reports whether a number literal with an exponent is
// beyond a double's range (overflow, or underflow to zero), where TiDB's
// lexer fails.
func beyondDouble(text string) bool {
	if !strings.ContainsAny(text, "eE") {
		return false
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return true
	}
	if f != 0 {
		return false
	}
	for i := 0; i < len(text) && text[i] != 'e' && text[i] != 'E'; i++ {
		if text[i] >= '1' && text[i] <= '9' {
			return true
		}
	}
	return false
}

// sqlQuote renders s as a standard SQL literal (quotes doubled; with
// NO_BACKSLASH_ESCAPES a backslash needs no escaping).
func sqlQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
