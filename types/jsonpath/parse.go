package jsonpath

import (
	"errors"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// The scanner splits the text into tokens; the parser reads them by
// recursive descent, one function per precedence level (lowest first):
// || , && , ! , comparisons (not associative) with like_regex and
// starts with, + - , * / % , unary + - , and a primary with its
// accessors. Expressions and predicates share the levels; each level
// checks that its operands are the kind the grammar wants (a predicate
// for && || ! and filters, an expression for arithmetic and comparisons)
// and reports a syntax error at the token where PostgreSQL's does.

type tokKind uint8

const (
	tEOF tokKind = iota
	tPunct
	tWord   // an unquoted identifier or keyword
	tString // "..."
	tVar    // $name or $"name"
	tNum
)

type token struct {
	kind tokKind
	text string // punctuation; the decoded word, string or variable name; the number's text
	// near is what a syntax error at this token names: the token as
	// written, or for a word the character after it, "" at the end
	near string
	num  *apd.Decimal
	int  bool // an integer literal
}

const specials = "?%$.[]{}()|&!=<>@#,*:-+/\\\"'"

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func isOther(c byte) bool { return !isSpace(c) && !strings.ContainsRune(specials, rune(c)) }

func syntaxErr(near string) error {
	if near == "" {
		return sqlerr.New(sqlerr.SyntaxError, "syntax error at end of jsonpath input")
	}
	return sqlerr.New(sqlerr.SyntaxError, "syntax error at or near \"%s\" of jsonpath input", near)
}

func lexErr(msg, near string) error {
	if near == "" {
		return sqlerr.New(sqlerr.SyntaxError, "%s at end of jsonpath input", msg)
	}
	return sqlerr.New(sqlerr.SyntaxError, "%s at or near \"%s\" of jsonpath input", msg, near)
}

func detailErr(detail string) error {
	e := sqlerr.New(sqlerr.SyntaxError, "invalid input syntax for type jsonpath")
	e.Detail = detail
	return e
}

type scanner struct {
	src string
	pos int
}

// next scans one token.
func (s *scanner) next() (token, error) {
	for {
		for s.pos < len(s.src) && isSpace(s.src[s.pos]) {
			s.pos++
		}
		if strings.HasPrefix(s.src[s.pos:], "/*") {
			end := strings.Index(s.src[s.pos+2:], "*/")
			if end < 0 {
				return token{}, lexErr("unexpected end of comment", "")
			}
			s.pos += end + 4
			continue
		}
		break
	}
	if s.pos >= len(s.src) {
		return token{kind: tEOF}, nil
	}
	start := s.pos
	c := s.src[s.pos]
	switch {
	case c >= '0' && c <= '9' || c == '.' && s.pos+1 < len(s.src) && s.src[s.pos+1] >= '0' && s.src[s.pos+1] <= '9':
		return s.number()
	case c == '"':
		str, err := s.quoted()
		if err != nil {
			return token{}, err
		}
		return token{kind: tString, text: str, near: `"`}, nil
	case c == '$':
		s.pos++
		if s.pos < len(s.src) && s.src[s.pos] == '"' {
			str, err := s.quoted()
			if err != nil {
				return token{}, err
			}
			return token{kind: tVar, text: str, near: `"`}, nil
		}
		if s.pos < len(s.src) && (isOther(s.src[s.pos]) || s.src[s.pos] == '\\') {
			w, err := s.word()
			if err != nil {
				return token{}, err
			}
			return token{kind: tVar, text: w, near: s.src[start:s.pos]}, nil
		}
		return token{kind: tPunct, text: "$", near: "$"}, nil
	case isOther(c) || c == '\\':
		w, err := s.word()
		if err != nil {
			return token{}, err
		}
		return token{kind: tWord, text: w, near: s.nearAfter()}, nil
	}
	for _, op := range []string{"==", "!=", "<>", "<=", ">=", "&&", "||", "**"} {
		if strings.HasPrefix(s.src[s.pos:], op) {
			s.pos += 2
			return token{kind: tPunct, text: op, near: op}, nil
		}
	}
	_, n := utf8.DecodeRuneInString(s.src[start:])
	s.pos += n
	return token{kind: tPunct, text: s.src[start:s.pos], near: s.src[start:s.pos]}, nil
}

// nearAfter is what an error at a word names, as PostgreSQL's scanner
// leaves it: the blanks after the word, or nothing (the end) when a
// special character or the end follows.
func (s *scanner) nearAfter() string {
	i := s.pos
	for i < len(s.src) && isSpace(s.src[i]) {
		i++
	}
	return s.src[s.pos:i]
}

func digitsAt(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// number scans a numeric literal as PostgreSQL 15's flex scanner does,
// by the longest match among its rules, the earlier rule on a tie: an
// integer (0 or no leading zero), a decimal (1.5, 1., .5), either with
// an exponent; a mantissa with an exponent's e and sign but no digits
// ("1e+") is an invalid numeric literal; a literal and the one "other"
// character straight after it (1a, 1.5a, 01) is trailing junk. A run of
// "other" characters longer than all of those ("1lax", "1abc", "0x1")
// is a word, as {other}+ (a later rule) reads it, and what follows is
// parsed after it.
func (s *scanner) number() (token, error) {
	src, start := s.src, s.pos
	i := start
	isInt := true
	if src[i] == '.' {
		i = digitsAt(src, i+1)
		isInt = false
	} else {
		if src[i] == '0' {
			i++
		} else {
			i = digitsAt(src, i)
		}
		if i < len(src) && src[i] == '.' {
			i = digitsAt(src, i+1)
			isInt = false
		}
	}
	fail := 0 // the end of an exponent without digits ({realfail})
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		j := i + 1
		signed := j < len(src) && (src[j] == '+' || src[j] == '-')
		if signed {
			j++
		}
		if k := digitsAt(src, j); k > j {
			i = k
			isInt = false
		} else if signed {
			fail = j
		}
	}
	longest := max(i, fail)
	junk := i < len(src) && isOther(src[i]) && i+1 > fail
	if junk {
		longest = i + 1
	}
	other := start
	for other < len(src) && isOther(src[other]) {
		other++
	}
	if other > longest {
		w, err := s.word()
		if err != nil {
			return token{}, err
		}
		return token{kind: tWord, text: w, near: s.nearAfter()}, nil
	}
	if junk {
		s.pos = i + 1 // (a multi-byte character is a longer run: a word)
		return token{}, lexErr("trailing junk after numeric literal", src[start:i+1])
	}
	if fail > i {
		s.pos = fail
		return token{}, lexErr("invalid numeric literal", src[start:fail])
	}
	s.pos = i
	text := src[start:i]
	d, err := numeric.Parse(text)
	if err != nil {
		return token{}, syntaxErr(text)
	}
	return token{kind: tNum, text: numeric.String(d), near: text, num: d, int: isInt}, nil
}

// quoted scans a double-quoted string with its escapes.
func (s *scanner) quoted() (string, error) {
	s.pos++ // the opening quote
	var b strings.Builder
	for {
		if s.pos >= len(s.src) {
			return "", lexErr("unexpected end of quoted string", "")
		}
		c := s.src[s.pos]
		switch c {
		case '"':
			s.pos++
			return b.String(), nil
		case '\\':
			if err := s.escape(&b); err != nil {
				return "", err
			}
		default:
			b.WriteByte(c)
			s.pos++
		}
	}
}

// word scans an unquoted identifier: characters that are not special,
// with backslash escapes.
func (s *scanner) word() (string, error) {
	var b strings.Builder
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		if c == '\\' {
			if err := s.escape(&b); err != nil {
				return "", err
			}
			continue
		}
		if !isOther(c) {
			break
		}
		b.WriteByte(c)
		s.pos++
	}
	return b.String(), nil
}

// escape reads the escape at s.pos (a backslash) into b: \b \f \n \r \t
// \v, \xNN, \uNNNN (surrogate pairs joined), \u{N..}, and any other
// character as itself.
func (s *scanner) escape(b *strings.Builder) error {
	start := s.pos
	s.pos++
	if s.pos >= len(s.src) {
		return lexErr("unexpected end after backslash", "")
	}
	c := s.src[s.pos]
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
	case 'v':
		b.WriteByte('\v')
	case 'x':
		j := s.pos + 1
		for j < len(s.src) && j < s.pos+3 && isHex(s.src[j]) {
			j++
		}
		if j != s.pos+3 {
			return lexErr("invalid hex character sequence", s.src[start:j])
		}
		v, _ := strconv.ParseUint(s.src[s.pos+1:j], 16, 8)
		if v == 0 {
			return sqlerr.New(sqlerr.Code("22P05"), "unsupported Unicode escape sequence")
		}
		b.WriteRune(rune(v))
		s.pos = j
		return nil
	case 'u':
		r, err := s.unicode(start)
		if err != nil {
			return err
		}
		if r >= 0xD800 && r <= 0xDBFF { // a high surrogate: its low one must follow
			if !strings.HasPrefix(s.src[s.pos:], `\u`) {
				return detailErr("Unicode low surrogate must follow a high surrogate.")
			}
			lo, err := s.unicode(s.pos)
			if err != nil {
				return err
			}
			if lo < 0xDC00 || lo > 0xDFFF {
				return detailErr("Unicode low surrogate must follow a high surrogate.")
			}
			r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
		} else if r >= 0xDC00 && r <= 0xDFFF {
			return detailErr("Unicode low surrogate must follow a high surrogate.")
		}
		if r == 0 {
			return sqlerr.New(sqlerr.Code("22P05"), "unsupported Unicode escape sequence")
		}
		b.WriteRune(r)
		return nil
	default:
		_, n := utf8.DecodeRuneInString(s.src[s.pos:])
		b.WriteString(s.src[s.pos : s.pos+n])
		s.pos += n
		return nil
	}
	s.pos++
	return nil
}

// unicode reads \uNNNN or \u{N...} starting at the backslash at start.
func (s *scanner) unicode(start int) (rune, error) {
	j := start + 2
	if j < len(s.src) && s.src[j] == '{' {
		k := j + 1
		for k < len(s.src) && isHex(s.src[k]) {
			k++
		}
		if k == j+1 || k-j-1 > 6 || k >= len(s.src) || s.src[k] != '}' {
			return 0, lexErr("invalid Unicode escape sequence", s.src[start:min(k+1, len(s.src))])
		}
		v, _ := strconv.ParseUint(s.src[j+1:k], 16, 32)
		s.pos = k + 1
		return rune(v), nil
	}
	k := j
	for k < len(s.src) && k < j+4 && isHex(s.src[k]) {
		k++
	}
	if k != j+4 {
		return 0, lexErr("invalid Unicode escape sequence", s.src[start:k])
	}
	v, _ := strconv.ParseUint(s.src[j:k], 16, 32)
	s.pos = k
	return rune(v), nil
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

type parser struct {
	sc  scanner
	tok token
	// filter and subscript count the filters and array subscripts the
	// parser is inside, for @ and last; semantic is the first misplaced
	// one, reported once the text has parsed
	filter, subscript int
	semantic          error
	// predicateRead is set when the primary just read was "(p) is
	// unknown" or "exists (e)": predicates of PostgreSQL's grammar
	// (delimited_predicate and predicate), not accessor_exprs, so no
	// accessor follows them (a "[" or "." after one is the syntax error,
	// at that token)
	predicateRead bool
}

func (p *parser) advance() error {
	t, err := p.sc.next()
	if err != nil {
		return err
	}
	p.tok = t
	return nil
}

func (p *parser) isPunct(s string) bool { return p.tok.kind == tPunct && p.tok.text == s }

// isWord reports whether the token is the keyword w (keywords are not
// case-sensitive).
func (p *parser) isWord(w string) bool {
	return p.tok.kind == tWord && strings.EqualFold(p.tok.text, w)
}

func (p *parser) errHere() error { return syntaxErr(p.tok.near) }

func (p *parser) expect(s string) error {
	if !p.isPunct(s) {
		return p.errHere()
	}
	return p.advance()
}

// Parse reads a jsonpath's text.
func Parse(src string) (*Path, error) {
	if strings.TrimLeft(src, " \t\n\r\f\v") == "" {
		return nil, sqlerr.New(sqlerr.InvalidTextRepresentation, "invalid input syntax for type jsonpath: \"%s\"", src)
	}
	p := &parser{sc: scanner{src: src}}
	if err := p.advance(); err != nil {
		return nil, err
	}
	path := &Path{}
	if p.isWord("strict") || p.isWord("lax") {
		path.Strict = p.isWord("strict")
		if err := p.advance(); err != nil {
			return nil, err
		}
	}
	e, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.tok.kind != tEOF {
		return nil, p.errHere()
	}
	if p.semantic != nil {
		return nil, p.semantic
	}
	path.Expr = e
	return path, nil
}

// Normalize is the jsonpath type's input: the text as PostgreSQL prints
// the path it reads.
func Normalize(src string) (string, error) {
	p, err := Parse(src)
	if err != nil {
		return "", err
	}
	return p.String(), nil
}

func (p *parser) or() (*Item, error) { return p.binaryLevel(p.and, true, "||") }

func (p *parser) and() (*Item, error) { return p.binaryLevel(p.not, true, "&&") }

// binaryLevel parses one precedence level of left-associative binary
// operators, next (op next)*: the boolean ones (||, &&) join predicates
// (predicates), the arithmetic ones values; an operand of the other kind
// is a syntax error where PostgreSQL's grammar finds it (at the operator
// after a left operand, after a right one).
func (p *parser) binaryLevel(next func() (*Item, error), predicates bool, ops ...string) (*Item, error) {
	l, err := next()
	if err != nil {
		return nil, err
	}
	for p.tok.kind == tPunct && slices.Contains(ops, p.tok.text) {
		op := p.tok.text
		if l.IsPredicate() != predicates {
			return nil, p.errHere()
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		r, err := next()
		if err != nil {
			return nil, err
		}
		if r.IsPredicate() != predicates {
			return nil, p.errHere()
		}
		l = &Item{Kind: Binary, Op: op, L: l, R: r}
	}
	return l, nil
}

// not is ! followed by a parenthesised predicate or exists (...).
func (p *parser) not() (*Item, error) {
	if !p.isPunct("!") {
		return p.comparison()
	}
	if err := p.advance(); err != nil {
		return nil, err
	}
	if p.isWord("exists") {
		e, err := p.exists()
		if err != nil {
			return nil, err
		}
		return &Item{Kind: Not, L: e}, nil
	}
	if !p.isPunct("(") {
		return nil, p.errHere()
	}
	if err := p.advance(); err != nil {
		return nil, err
	}
	e, err := p.or()
	if err != nil {
		return nil, err
	}
	if !e.IsPredicate() || !p.isPunct(")") {
		return nil, p.errHere()
	}
	// ! takes a delimited predicate only: "! (p) is unknown" is a syntax
	// error in PostgreSQL's grammar (NOT_P delimited_predicate), not
	// !((p) is unknown)
	if err := p.advance(); err != nil {
		return nil, err
	}
	return &Item{Kind: Not, L: e}, nil
}

func (p *parser) isUnknown(e *Item) (*Item, error) {
	if err := p.advance(); err != nil {
		return nil, err
	}
	if !p.isWord("unknown") {
		return nil, p.errHere()
	}
	if err := p.advance(); err != nil {
		return nil, err
	}
	p.predicateRead = true
	return &Item{Kind: IsUnknown, L: e}, nil
}

func (p *parser) exists() (*Item, error) {
	if err := p.advance(); err != nil {
		return nil, err
	}
	if err := p.expect("("); err != nil {
		return nil, err
	}
	e, err := p.additive()
	if err != nil {
		return nil, err
	}
	if e.IsPredicate() || !p.isPunct(")") {
		return nil, p.errHere()
	}
	if err := p.advance(); err != nil {
		return nil, err
	}
	return &Item{Kind: Exists, L: e}, nil
}

var comparisons = map[string]string{"==": "==", "!=": "!=", "<>": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}

func (p *parser) comparison() (*Item, error) {
	l, err := p.additive()
	if err != nil {
		return nil, err
	}
	var out *Item
	switch {
	case p.tok.kind == tPunct && comparisons[p.tok.text] != "":
		if l.IsPredicate() {
			return nil, p.errHere()
		}
		op := comparisons[p.tok.text]
		if err := p.advance(); err != nil {
			return nil, err
		}
		r, err := p.additive()
		if err != nil {
			return nil, err
		}
		if r.IsPredicate() {
			return nil, p.errHere()
		}
		out = &Item{Kind: Binary, Op: op, L: l, R: r}
	case p.isWord("starts"):
		if l.IsPredicate() {
			return nil, p.errHere()
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		if !p.isWord("with") {
			return nil, p.errHere()
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		var r *Item
		switch p.tok.kind {
		case tString:
			r = &Item{Kind: String, Str: p.tok.text}
		case tVar:
			r = &Item{Kind: Var, Str: p.tok.text}
		default:
			return nil, p.errHere()
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		out = &Item{Kind: StartsWith, L: l, R: r}
	case p.isWord("like_regex"):
		if l.IsPredicate() {
			return nil, p.errHere()
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		if p.tok.kind != tString {
			return nil, p.errHere()
		}
		out = &Item{Kind: LikeRegex, L: l, Str: p.tok.text}
		if err := p.advance(); err != nil {
			return nil, err
		}
		if p.isWord("flag") {
			if err := p.advance(); err != nil {
				return nil, err
			}
			if p.tok.kind != tString {
				return nil, p.errHere()
			}
			flags, err := regexFlags(p.tok.text)
			if err != nil {
				return nil, err
			}
			out.Flags = flags
			if err := p.advance(); err != nil {
				return nil, err
			}
		}
		if err := regexCheck(out.Str, out.Flags); err != nil {
			return nil, err
		}
	default:
		return l, nil
	}
	return out, nil
}

// regexCheck is PostgreSQL's makeItemLikeRegex check of a pattern, after
// its flags (jspConvertRegexFlags): under q the pattern is a literal string
// (x ignored) and always valid; otherwise x is not implemented (0A000) and
// the pattern must compile.
func regexCheck(pat, flags string) error {
	if strings.Contains(flags, "q") {
		return nil
	}
	if strings.Contains(flags, "x") {
		return sqlerr.New(sqlerr.FeatureNotSupported, "XQuery \"x\" flag (expanded regular expressions) is not implemented")
	}
	return RegexError(pat)
}

// regexFlags checks like_regex's flags and puts them in printing order.
func regexFlags(s string) (string, error) {
	var has [5]bool
	for _, r := range s {
		k := strings.IndexRune("ismxq", r)
		if k < 0 {
			return "", detailErr("Unrecognized flag character \"" + string(r) + "\" in LIKE_REGEX predicate.")
		}
		has[k] = true
	}
	var b strings.Builder
	for k, h := range has {
		if h {
			b.WriteByte("ismxq"[k])
		}
	}
	return b.String(), nil
}

func (p *parser) additive() (*Item, error) { return p.binaryLevel(p.multiplicative, false, "+", "-") }

func (p *parser) multiplicative() (*Item, error) {
	return p.binaryLevel(p.unary, false, "*", "/", "%")
}

// unary is + or - before an operand; on a number literal it folds into
// the number, as PostgreSQL's parser does (-1 prints as -1, - -1 as 1).
func (p *parser) unary() (*Item, error) {
	if !p.isPunct("+") && !p.isPunct("-") {
		return p.accessorExpr()
	}
	op := p.tok.text
	if err := p.advance(); err != nil {
		return nil, err
	}
	e, err := p.unary()
	if err != nil {
		return nil, err
	}
	if e.IsPredicate() {
		return nil, p.errHere()
	}
	if e.Kind == Number && e.Next == nil {
		if op == "-" {
			e.Num = numeric.Neg(e.Num)
			e.Str = numeric.String(e.Num)
		}
		return e, nil
	}
	return &Item{Kind: Unary, Op: op, L: e}, nil
}

// accessorExpr is a primary followed by its accessors.
func (p *parser) accessorExpr() (*Item, error) {
	head, err := p.primary()
	if err != nil {
		return nil, err
	}
	if p.predicateRead {
		p.predicateRead = false
		return head, nil
	}
	tail := head
	for tail.Next != nil {
		tail = tail.Next
	}
	for {
		var acc *Item
		switch {
		case p.isPunct("."):
			if acc, err = p.dotAccessor(); err != nil {
				return nil, err
			}
		case p.isPunct("["):
			if acc, err = p.subscripts(); err != nil {
				return nil, err
			}
		case p.isPunct("?"):
			if err := p.advance(); err != nil {
				return nil, err
			}
			if err := p.expect("("); err != nil {
				return nil, err
			}
			p.filter++
			e, err := p.or()
			p.filter--
			if err != nil {
				return nil, err
			}
			if !e.IsPredicate() || !p.isPunct(")") {
				return nil, p.errHere()
			}
			if err := p.advance(); err != nil {
				return nil, err
			}
			acc = &Item{Kind: Filter, L: e}
		default:
			return head, nil
		}
		tail.Next = acc
		tail = acc
	}
}

var methods = map[string]bool{"type": true, "size": true, "double": true, "ceiling": true, "floor": true, "abs": true, "keyvalue": true}

func (p *parser) dotAccessor() (*Item, error) {
	if err := p.advance(); err != nil {
		return nil, err
	}
	switch {
	case p.isPunct("*"):
		return &Item{Kind: AnyKey}, p.advance()
	case p.isPunct("**"):
		if err := p.advance(); err != nil {
			return nil, err
		}
		it := &Item{Kind: AnyPath, Lo: 0, Hi: -1}
		if !p.isPunct("{") {
			return it, nil
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		lo, err := p.level()
		if err != nil {
			return nil, err
		}
		it.Lo, it.Hi = lo, lo
		if p.isWord("to") {
			if err := p.advance(); err != nil {
				return nil, err
			}
			if it.Hi, err = p.level(); err != nil {
				return nil, err
			}
		}
		return it, p.expect("}")
	case p.tok.kind == tString:
		it := &Item{Kind: Key, Str: p.tok.text}
		return it, p.advance()
	case p.tok.kind == tWord:
		name := p.tok.text
		if err := p.advance(); err != nil {
			return nil, err
		}
		if !p.isPunct("(") {
			return &Item{Kind: Key, Str: name}, nil
		}
		lname := strings.ToLower(name)
		if lname == "datetime" {
			if err := p.advance(); err != nil {
				return nil, err
			}
			it := &Item{Kind: Datetime}
			if p.tok.kind == tString {
				it.Str, it.HasArg = p.tok.text, true
				if err := p.advance(); err != nil {
					return nil, err
				}
			}
			return it, p.expect(")")
		}
		if !methods[lname] {
			return nil, p.errHere()
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		return &Item{Kind: Method, Str: lname}, p.expect(")")
	}
	return nil, p.errHere()
}

// level is a level of .**{...}: an integer or last.
func (p *parser) level() (int, error) {
	if p.isWord("last") {
		return -1, p.advance()
	}
	if p.tok.kind != tNum || !p.tok.int {
		return 0, p.errHere()
	}
	v, err := strconv.ParseInt(p.tok.text, 10, 32)
	if err != nil {
		return 0, p.errHere()
	}
	return int(v), p.advance()
}

func (p *parser) subscripts() (*Item, error) {
	if err := p.advance(); err != nil {
		return nil, err
	}
	if p.isPunct("*") {
		if err := p.advance(); err != nil {
			return nil, err
		}
		return &Item{Kind: AnyArray}, p.expect("]")
	}
	p.subscript++
	defer func() { p.subscript-- }()
	it := &Item{Kind: Index}
	for {
		from, err := p.additive()
		if err != nil {
			return nil, err
		}
		if from.IsPredicate() {
			return nil, p.errHere()
		}
		sub := Sub{From: from}
		if p.isWord("to") {
			if err := p.advance(); err != nil {
				return nil, err
			}
			if sub.To, err = p.additive(); err != nil {
				return nil, err
			}
			if sub.To.IsPredicate() {
				return nil, p.errHere()
			}
		}
		it.Subs = append(it.Subs, sub)
		if p.isPunct(",") {
			if err := p.advance(); err != nil {
				return nil, err
			}
			continue
		}
		return it, p.expect("]")
	}
}

func (p *parser) primary() (*Item, error) {
	t := p.tok
	var it *Item
	switch t.kind {
	case tNum:
		it = &Item{Kind: Number, Num: t.num, Str: t.text}
	case tString:
		it = &Item{Kind: String, Str: t.text}
	case tVar:
		it = &Item{Kind: Var, Str: t.text}
	case tPunct:
		switch t.text {
		case "$":
			it = &Item{Kind: Root}
		case "@":
			if p.filter == 0 && p.semantic == nil {
				p.semantic = sqlerr.New(sqlerr.SyntaxError, "@ is not allowed in root expressions")
			}
			it = &Item{Kind: Current}
		case "(":
			return p.parenthesised()
		}
	case tWord:
		switch strings.ToLower(t.text) {
		case "null":
			it = &Item{Kind: Null}
		case "true", "false":
			it = &Item{Kind: Bool, Bool: strings.EqualFold(t.text, "true")}
		case "last":
			if p.subscript == 0 && p.semantic == nil {
				p.semantic = sqlerr.New(sqlerr.SyntaxError, "LAST is allowed only in array subscripts")
			}
			it = &Item{Kind: Last}
		case "exists":
			e, err := p.exists()
			p.predicateRead = err == nil
			return e, err
		}
	}
	if it == nil {
		return nil, p.errHere()
	}
	return it, p.advance()
}

// parenthesised is ( expression ) or ( predicate ), the latter maybe
// followed by is unknown.
func (p *parser) parenthesised() (*Item, error) {
	if err := p.advance(); err != nil {
		return nil, err
	}
	e, err := p.or()
	if err != nil {
		return nil, err
	}
	if err := p.expect(")"); err != nil {
		return nil, err
	}
	if e.IsPredicate() && p.isWord("is") {
		return p.isUnknown(e)
	}
	// ( expression ) is the expression: accessors continue its chain
	return e, nil
}

// RegexError is like_regex's check of its pattern when the path is read:
// unbalanced parentheses or brackets and a quantifier with nothing
// before it or on another quantifier are errors, as PostgreSQL's regular expression compiler
// reports them.
func RegexError(pat string) error {
	_, err := syntax.Parse(pat, syntax.Perl)
	var se *syntax.Error
	if !errors.As(err, &se) {
		return nil
	}
	msg := ""
	switch se.Code {
	case syntax.ErrMissingParen, syntax.ErrUnexpectedParen:
		msg = "parentheses () not balanced"
	case syntax.ErrMissingBracket:
		msg = "brackets [] not balanced"
	case syntax.ErrMissingRepeatArgument, syntax.ErrInvalidRepeatOp:
		// a quantifier with nothing before it, or on another (a**, a{2}*)
		msg = "quantifier operand invalid"
	default:
		return nil
	}
	return sqlerr.New(sqlerr.InvalidRegularExpression, "invalid regular expression: %s", msg)
}
