package functions

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// PostgreSQL's regular-expression syntax, parsed as its compiler
// (src/backend/regex: regc_lex.c's lexer, regcomp.c's parser) reads it,
// so that a faulty pattern fails with the REG_* error PostgreSQL reports
// for that class of fault, found in PostgreSQL's order, and a valid one
// becomes a tree that regexemit.go writes in RE2's syntax. The three
// flavours are read: AREs (the default), EREs (the embedded option e) and
// BREs (the b flag, and PostgreSQL 15's e flag, which clears the ERE bit
// together with the ARE one), and quoted literal patterns (q, ***=).

// reErrCode is one of PostgreSQL's REG_* compile errors.
type reErrCode int

const (
	regBadPat reErrCode = iota
	regECollate
	regECType
	regEEscape
	regESubReg
	regEBrack
	regEParen
	regEBrace
	regBadBR
	regERange
	regBadRpt
	regBadOpt
	regInvArg
	regETooBig
)

// reErrText is regerrs.h's message of each code.
var reErrText = [...]string{
	regBadPat:   "invalid regexp (reg version 0.8)",
	regECollate: "invalid collating element",
	regECType:   "invalid character class",
	regEEscape:  "invalid escape \\ sequence",
	regESubReg:  "invalid backreference number",
	regEBrack:   "brackets [] not balanced",
	regEParen:   "parentheses () not balanced",
	regEBrace:   "braces {} not balanced",
	regBadBR:    "invalid repetition count(s)",
	regERange:   "invalid character range",
	regBadRpt:   "quantifier operand invalid",
	regBadOpt:   "invalid embedded option",
	regInvArg:   "invalid argument to regex function",
	regETooBig:  "regular expression is too complex",
}

// reError is the one place a regular expression's compile error is built
// (RE_compile_and_cache's 2201B and message).
func reError(code reErrCode) error {
	return sqlerr.New(sqlerr.InvalidRegularExpression, "invalid regular expression: %s", reErrText[code])
}

// reCflags are regex.h's compile flags that the syntax depends on.
type reCflags uint16

const (
	cfExtended reCflags = 1 << iota
	cfAdvF
	cfQuote
	cfICase
	cfNLStop
	cfNLAnch
	cfExpanded

	cfAdvanced = cfExtended | cfAdvF
	cfNewline  = cfNLStop | cfNLAnch
)

// cflags is f as PostgreSQL's compile flags.
func (f areFlags) cflags() reCflags {
	cf := cfAdvanced
	if f.basic {
		cf = 0
	}
	if f.quote {
		cf |= cfQuote
	}
	if f.icase {
		cf |= cfICase
	}
	if f.expanded {
		cf |= cfExpanded
	}
	switch {
	case f.newline:
		cf |= cfNewline
	case f.partialNL:
		cf |= cfNLStop
	case f.weirdNL:
		cf |= cfNLAnch
	}
	return cf
}

// reOp is a parsed node's kind.
type reOp uint8

const (
	opLit       reOp = iota // r
	opAny                   // .
	opBracket               // set
	opClass                 // \d \s \w (neg: \D \S \W): class
	opBOL                   // ^
	opEOL                   // $
	opBOS                   // \A
	opEOS                   // \Z
	opWordB                 // \y
	opNWordB                // \Y
	opWordStart             // \m [[:<:]] (BRE \<)
	opWordEnd               // \M [[:>:]] (BRE \>)
	opLook                  // lookaround constraint: look, subs[0]
	opBackref               // \n: group
	opGroup                 // (...) capturing when group > 0: subs[0]
	opConcat                // subs
	opAlt                   // subs
	opRepeat                // subs[0]{min,max}, pref
	opEmpty
)

// Lookaround kinds (LATYPE_*).
const (
	lookAheadPos = iota
	lookAheadNeg
	lookBehindPos
	lookBehindNeg
)

// reDupInf is an unbounded repetition's max; reDupMax PostgreSQL's
// largest count (DUPMAX).
const (
	reDupInf = -1
	reDupMax = 255
)

// reNode is one node of a parsed pattern.
type reNode struct {
	op       reOp
	r        rune
	neg      bool
	class    string
	set      *reSet
	look     int
	group    int
	min, max int
	pref     int8 // +1 greedy, -1 non-greedy, 0 none ({m})
	subs     []*reNode
}

// reSet is a bracket expression's contents: single characters, ranges,
// named classes and complemented escapes (\D \S \W, allowed inside
// brackets).
type reSet struct {
	neg     bool
	ranges  [][2]rune
	classes []string
	comps   []string
}

// Token kinds of the lexer (regcomp.c's nexttype values).
const (
	tkEmpty = iota // before the first token
	tkEOS
	tkPlain
	tkOr
	tkStar
	tkPlus
	tkQuest
	tkBound // {
	tkLParen
	tkRParen
	tkLBrack
	tkDot
	tkCaret
	tkDollar
	tkBackref
	tkSBegin
	tkSEnd
	tkWordStart
	tkWordEnd
	tkWBdry
	tkNWBdry
	tkLacon
	tkClassS // \d \s \w
	tkClassC // \D \S \W
)

// reParser holds the scan of one pattern.
type reParser struct {
	p        []rune
	i        int
	cf       reCflags
	tok      int
	val      int // token value: a character, greedy (1) or not, capturing, a class
	lastTok  int
	nsub     int    // capturing parentheses opened so far
	closed   []bool // closed[n]: group n is complete (a {0} on it does not matter: \n to it never matches)
	err      error
	greedy   bool // some quantifier prefers longer matches
	lazy     bool // some quantifier prefers shorter ones
	features []string
}

// parseARE parses pat under f: its tree, or PostgreSQL's error.
func parseARE(pat string, f areFlags) (*reNode, *reParser, error) {
	cf := f.cflags()
	if cf&cfQuote != 0 && cf&(cfExpanded|cfNewline) != 0 {
		return nil, nil, reError(regInvArg)
	}
	v := &reParser{p: []rune(pat), cf: cf, closed: []bool{false}}
	v.prefixes()
	if v.err != nil {
		return nil, nil, v.err
	}
	v.tok = tkEmpty
	v.next()
	n := v.parse(tkEOS, false)
	if v.err != nil {
		return nil, nil, v.err
	}
	return n, v, nil
}

func (v *reParser) fail(code reErrCode) {
	if v.err == nil {
		v.err = reError(code)
	}
	v.tok = tkEOS
}

func (v *reParser) atEOS() bool       { return v.i >= len(v.p) }
func (v *reParser) have(n int) bool   { return len(v.p)-v.i >= n }
func (v *reParser) next1(c rune) bool { return !v.atEOS() && v.p[v.i] == c }

// prefixes reads the *** directors and leading embedded options.
func (v *reParser) prefixes() {
	if v.cf&cfQuote != 0 {
		return
	}
	if v.have(4) && v.p[0] == '*' && v.p[1] == '*' && v.p[2] == '*' {
		switch v.p[3] {
		case '?':
			v.fail(regBadPat)
			return
		case '=':
			v.cf |= cfQuote
			v.cf &^= cfAdvanced | cfExpanded | cfNewline
			v.i = 4
			return
		case ':':
			v.cf |= cfAdvanced
			v.i = 4
		default:
			v.fail(regBadRpt)
			return
		}
	}
	if v.cf&cfAdvanced != cfAdvanced {
		return
	}
	if !(v.have(3) && v.p[v.i] == '(' && v.p[v.i+1] == '?' && isASCIIAlpha(v.p[v.i+2])) {
		return
	}
	for v.i += 2; !v.atEOS() && isASCIIAlpha(v.p[v.i]); v.i++ {
		switch v.p[v.i] {
		case 'b':
			v.cf &^= cfAdvanced | cfQuote
		case 'c':
			v.cf &^= cfICase
		case 'e':
			v.cf |= cfExtended
			v.cf &^= cfAdvF | cfQuote
		case 'i':
			v.cf |= cfICase
		case 'm', 'n':
			v.cf |= cfNewline
		case 'p':
			v.cf |= cfNLStop
			v.cf &^= cfNLAnch
		case 'q':
			v.cf |= cfQuote
			v.cf &^= cfAdvanced
		case 's':
			v.cf &^= cfNewline
		case 't':
			v.cf &^= cfExpanded
		case 'w':
			v.cf &^= cfNLStop
			v.cf |= cfNLAnch
		case 'x':
			v.cf |= cfExpanded
		default:
			v.fail(regBadOpt)
			return
		}
	}
	if !v.next1(')') {
		v.fail(regBadOpt)
		return
	}
	v.i++
	if v.cf&cfQuote != 0 {
		v.cf &^= cfExpanded | cfNewline
	}
}

func isASCIIAlpha(c rune) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// isDigitRune reports an ASCII digit.
func isDigitRune(c rune) bool { return c >= '0' && c <= '9' }

// skip passes white space and # comments under the x flag.
func (v *reParser) skip() {
	for {
		for !v.atEOS() && v.p[v.i] < 0x80 && isCSpace(byte(v.p[v.i])) {
			v.i++
		}
		if v.atEOS() || v.p[v.i] != '#' {
			return
		}
		for !v.atEOS() && v.p[v.i] != '\n' {
			v.i++
		}
	}
}

func (v *reParser) set(tok, val int) {
	v.tok, v.val = tok, val
}

// next reads the next token of the main line (outside brackets and
// bounds, which their parsers read themselves).
func (v *reParser) next() {
	if v.err != nil {
		v.tok = tkEOS
		return
	}
	v.lastTok = v.tok
restart:
	if v.cf&cfQuote != 0 {
		if v.atEOS() {
			v.set(tkEOS, 0)
		} else {
			v.set(tkPlain, int(v.p[v.i]))
			v.i++
		}
		return
	}
	if v.cf&cfExpanded != 0 {
		v.skip()
	}
	if v.atEOS() {
		v.set(tkEOS, 0)
		return
	}
	c := v.p[v.i]
	v.i++
	if v.cf&cfExtended == 0 {
		v.breNext(c)
		return
	}
	adv := v.cf&cfAdvF != 0
	quant := func(tok int) {
		if adv && v.next1('?') {
			v.i++
			v.set(tok, 0)
			return
		}
		v.set(tok, 1)
	}
	switch c {
	case '|':
		v.set(tkOr, 0)
	case '*':
		quant(tkStar)
	case '+':
		quant(tkPlus)
	case '?':
		quant(tkQuest)
	case '{':
		if v.cf&cfExpanded != 0 {
			v.skip()
		}
		if v.atEOS() || !isDigitRune(v.p[v.i]) {
			v.set(tkPlain, '{')
		} else {
			v.set(tkBound, 0)
		}
	case '(':
		if !adv || !v.next1('?') {
			v.set(tkLParen, 1)
			return
		}
		v.i++
		d, ok := v.take()
		if !ok {
			return
		}
		switch d {
		case ':':
			v.set(tkLParen, 0)
		case '#':
			for !v.atEOS() && v.p[v.i] != ')' {
				v.i++
			}
			if !v.atEOS() {
				v.i++
			}
			goto restart
		case '=':
			v.set(tkLacon, lookAheadPos)
		case '!':
			v.set(tkLacon, lookAheadNeg)
		case '<':
			e, ok := v.take()
			if !ok {
				return
			}
			switch e {
			case '=':
				v.set(tkLacon, lookBehindPos)
			case '!':
				v.set(tkLacon, lookBehindNeg)
			default:
				v.fail(regBadRpt)
			}
		default:
			v.fail(regBadRpt)
		}
	case ')':
		v.set(tkRParen, 0)
	case '[':
		v.lbrack()
	case '.':
		v.set(tkDot, 0)
	case '^':
		v.set(tkCaret, 0)
	case '$':
		v.set(tkDollar, 0)
	case '\\':
		if v.atEOS() {
			v.fail(regEEscape)
			return
		}
		if !adv {
			v.set(tkPlain, int(v.p[v.i]))
			v.i++
			return
		}
		v.lexEscape()
	default:
		v.set(tkPlain, int(c))
	}
}

// take reads the next character of a (? opener; the pattern's end there
// is PostgreSQL's "quantifier operand invalid".
func (v *reParser) take() (rune, bool) {
	if v.atEOS() {
		v.fail(regBadRpt)
		return 0, false
	}
	v.i++
	return v.p[v.i-1], true
}

// lbrack reads what follows a main-line [: a word start or end
// ([[:<:]] [[:>:]]) or a bracket expression's start.
func (v *reParser) lbrack() {
	if v.have(6) && v.p[v.i] == '[' && v.p[v.i+1] == ':' && (v.p[v.i+2] == '<' || v.p[v.i+2] == '>') &&
		v.p[v.i+3] == ':' && v.p[v.i+4] == ']' && v.p[v.i+5] == ']' {
		tok := tkWordStart
		if v.p[v.i+2] == '>' {
			tok = tkWordEnd
		}
		v.i += 6
		v.set(tok, 0)
		return
	}
	if v.next1('^') {
		v.i++
		v.set(tkLBrack, 0)
		return
	}
	v.set(tkLBrack, 1)
}

// breNext reads a BRE token (brenext): most operators need a backslash,
// and * ^ $ are plain where they cannot be operators.
func (v *reParser) breNext(c rune) {
	switch c {
	case '*':
		if v.lastTok == tkEmpty || v.lastTok == tkLParen || v.lastTok == tkCaret {
			v.set(tkPlain, int(c))
		} else {
			v.set(tkStar, 1)
		}
		return
	case '[':
		v.lbrack()
		return
	case '.':
		v.set(tkDot, 0)
		return
	case '^':
		if v.lastTok == tkEmpty || v.lastTok == tkLParen {
			v.set(tkCaret, 0)
		} else {
			v.set(tkPlain, int(c))
		}
		return
	case '$':
		if v.cf&cfExpanded != 0 {
			v.skip()
		}
		if v.atEOS() || v.have(2) && v.p[v.i] == '\\' && v.p[v.i+1] == ')' {
			v.set(tkDollar, 0)
		} else {
			v.set(tkPlain, int(c))
		}
		return
	case '\\':
	default:
		v.set(tkPlain, int(c))
		return
	}
	if v.atEOS() {
		v.fail(regEEscape)
		return
	}
	c = v.p[v.i]
	v.i++
	switch {
	case c == '{':
		v.set(tkBound, 0)
	case c == '(':
		v.set(tkLParen, 1)
	case c == ')':
		v.set(tkRParen, 0)
	case c == '<':
		v.set(tkWordStart, 0)
	case c == '>':
		v.set(tkWordEnd, 0)
	case c >= '1' && c <= '9':
		v.set(tkBackref, int(c-'0'))
	default:
		v.set(tkPlain, int(c))
	}
}

// lexEscape reads an ARE escape, the backslash consumed (lexescape).
func (v *reParser) lexEscape() {
	c := v.p[v.i]
	v.i++
	if !isASCIIAlpha(c) && !isDigitRune(c) {
		v.set(tkPlain, int(c))
		return
	}
	if e, ok := simpleEscapes[c]; ok {
		v.set(e[0], e[1])
		return
	}
	switch c {
	case 'c':
		if v.atEOS() {
			v.fail(regEEscape)
			return
		}
		v.set(tkPlain, int(v.p[v.i]&037))
		v.i++
	case 'u', 'U', 'x':
		minLen, maxLen := 4, 4
		switch c {
		case 'U':
			minLen, maxLen = 8, 8
		case 'x':
			minLen, maxLen = 1, 255
		}
		n, ok := v.digits(16, minLen, maxLen)
		if !ok || n > 0x7ffffffe {
			v.fail(regEEscape)
			return
		}
		v.set(tkPlain, int(n))
	case '1', '2', '3', '4', '5', '6', '7', '8', '9', '0':
		if c != '0' {
			save := v.i
			v.i--
			n, ok := v.digits(10, 1, 255)
			if !ok {
				v.fail(regEEscape)
				return
			}
			// one digit is always a back-reference; more are one if
			// that many groups have been opened, else octal
			if v.i == save || n > 0 && int(n) <= v.nsub {
				v.set(tkBackref, int(n))
				return
			}
			v.i = save
		}
		v.i--
		n, ok := v.digits(8, 1, 3)
		if !ok {
			v.fail(regEEscape)
			return
		}
		if n > 0xff {
			v.i--
			n >>= 3
		}
		v.set(tkPlain, int(n))
	default:
		v.fail(regEEscape)
	}
}

// simpleEscapes are the ARE escapes of one letter: their token and value
// (lexescape's cases; \d \s \w and their complements name their class by
// the lower-case letter).
var simpleEscapes = map[rune][2]int{
	'a': {tkPlain, 7}, 'b': {tkPlain, '\b'}, 'B': {tkPlain, '\\'}, 'e': {tkPlain, 033}, 'f': {tkPlain, '\f'},
	'n': {tkPlain, '\n'}, 'r': {tkPlain, '\r'}, 't': {tkPlain, '\t'}, 'v': {tkPlain, '\v'},
	'A': {tkSBegin, 0}, 'Z': {tkSEnd, 0}, 'm': {tkWordStart, 0}, 'M': {tkWordEnd, 0}, 'y': {tkWBdry, 0}, 'Y': {tkNWBdry, 0},
	'd': {tkClassS, 'd'}, 's': {tkClassS, 's'}, 'w': {tkClassS, 'w'},
	'D': {tkClassC, 'd'}, 'S': {tkClassC, 's'}, 'W': {tkClassC, 'w'},
}

// digits reads between minLen and maxLen digits of base (lexdigits;
// the value wraps as PostgreSQL's unsigned arithmetic does).
func (v *reParser) digits(base uint32, minLen, maxLen int) (uint32, bool) {
	var n uint32
	k := 0
	for ; k < maxLen && !v.atEOS(); k++ {
		c := v.p[v.i]
		d := uint32(99)
		switch {
		case isDigitRune(c):
			d = uint32(c - '0')
		case c >= 'a' && c <= 'f':
			d = uint32(c-'a') + 10
		case c >= 'A' && c <= 'F':
			d = uint32(c-'A') + 10
		}
		if d >= base {
			break
		}
		v.i++
		n = n*base + d
	}
	return n, k >= minLen
}

func (v *reParser) see(tok int) bool { return v.tok == tok }

// parse reads alternatives up to stopper (tkEOS or tkRParen); inLook is
// true inside a lookaround constraint.
func (v *reParser) parse(stopper int, inLook bool) *reNode {
	alt := &reNode{op: opAlt}
	for {
		br := v.parseBranch(stopper, inLook)
		if v.err != nil {
			return nil
		}
		alt.subs = append(alt.subs, br)
		if !v.see(tkOr) {
			break
		}
		v.next()
	}
	if !v.see(stopper) {
		v.fail(regEParen)
		return nil
	}
	if len(alt.subs) == 1 {
		return alt.subs[0]
	}
	return alt
}

func (v *reParser) parseBranch(stopper int, inLook bool) *reNode {
	cat := &reNode{op: opConcat}
	for !v.see(tkOr) && !v.see(stopper) && !v.see(tkEOS) {
		n := v.parseQAtom(inLook)
		if v.err != nil {
			return nil
		}
		cat.subs = append(cat.subs, n)
	}
	return cat
}

// constraintOps are the tokens that are constraints (no quantifier may
// follow them).
var constraintOps = map[int]reOp{
	tkCaret: opBOL, tkDollar: opEOL, tkSBegin: opBOS, tkSEnd: opEOS,
	tkWordStart: opWordStart, tkWordEnd: opWordEnd, tkWBdry: opWordB, tkNWBdry: opNWordB,
}

// parseQAtom reads an atom and its quantifier, or a constraint.
func (v *reParser) parseQAtom(inLook bool) *reNode {
	var atom *reNode
	capIdx := 0
	if op, ok := constraintOps[v.tok]; ok {
		v.note(op)
		v.next()
		return &reNode{op: op}
	}
	switch v.tok {
	case tkLacon:
		look := v.val
		v.next()
		sub := v.parse(tkRParen, true)
		if v.err != nil {
			return nil
		}
		v.next()
		v.features = append(v.features, "lookahead or lookbehind constraint")
		return &reNode{op: opLook, look: look, subs: []*reNode{sub}}
	case tkStar, tkPlus, tkQuest, tkBound:
		v.fail(regBadRpt)
		return nil
	case tkRParen:
		if v.cf&cfAdvanced != cfExtended {
			v.fail(regEParen)
			return nil
		}
		atom = &reNode{op: opLit, r: ')'}
		v.next()
	case tkPlain:
		atom = &reNode{op: opLit, r: rune(v.val)}
		v.next()
	case tkLBrack:
		atom = &reNode{op: opBracket, set: v.bracket(v.val == 0)}
		if v.err != nil {
			return nil
		}
		v.next()
	case tkClassS, tkClassC:
		atom = &reNode{op: opClass, class: string(rune(v.val)), neg: v.tok == tkClassC}
		v.next()
	case tkDot:
		atom = &reNode{op: opAny}
		v.next()
	case tkLParen:
		if v.val == 1 && !inLook {
			v.nsub++
			capIdx = v.nsub
			v.closed = append(v.closed, false)
		}
		v.next()
		sub := v.parse(tkRParen, inLook)
		if v.err != nil {
			return nil
		}
		v.next()
		if capIdx > 0 {
			v.closed[capIdx] = true
		}
		atom = &reNode{op: opGroup, group: capIdx, subs: []*reNode{sub}}
	case tkBackref:
		if inLook || v.val >= len(v.closed) || !v.closed[v.val] {
			v.fail(regESubReg)
			return nil
		}
		v.features = append(v.features, fmt.Sprintf("back-reference \\%d", v.val))
		atom = &reNode{op: opBackref, group: v.val}
		v.next()
	default:
		v.fail(regBadRpt)
		return nil
	}
	min, max, pref := 1, 1, int8(0)
	switch v.tok {
	case tkStar, tkPlus, tkQuest:
		min, max = 0, reDupInf
		switch v.tok {
		case tkPlus:
			min = 1
		case tkQuest:
			max = 1
		}
		pref = prefOf(v.val)
		v.next()
	case tkBound:
		var ok bool
		if min, max, pref, ok = v.bound(); !ok {
			return nil
		}
		v.next()
	default:
		return atom
	}
	switch pref {
	case 1:
		v.greedy = true
	case -1:
		v.lazy = true
	}
	return &reNode{op: opRepeat, min: min, max: max, pref: pref, subs: []*reNode{atom}}
}

func prefOf(greedy int) int8 {
	if greedy == 1 {
		return 1
	}
	return -1
}

// note records a constraint RE2 cannot evaluate as PostgreSQL does.
func (v *reParser) note(op reOp) {
	if op == opWordStart || op == opWordEnd {
		v.features = append(v.features, "word start or end (\\m \\M [[:<:]] [[:>:]])")
	}
}

// bound reads {m}, {m,}, {m,n} (and BRE's \{ \}) after the {: min, max,
// preference, and false on an error.
func (v *reParser) bound() (int, int, int8, bool) {
	bre := v.cf&cfExtended == 0
	// bound tokens: a digit, ',' or the end
	const (
		bDigit = iota
		bComma
		bEnd
	)
	var kind, val int
	lex := func() bool {
		if v.cf&cfExpanded != 0 {
			v.skip()
		}
		if v.atEOS() {
			v.fail(regEBrace)
			return false
		}
		c := v.p[v.i]
		v.i++
		switch {
		case isDigitRune(c):
			kind, val = bDigit, int(c-'0')
		case c == ',':
			kind = bComma
		case c == '}' && !bre:
			kind, val = bEnd, 1
			if v.cf&cfAdvF != 0 && v.next1('?') {
				v.i++
				val = 0
			}
		case c == '\\' && bre && v.next1('}'):
			v.i++
			kind, val = bEnd, 1
		default:
			v.fail(regBadBR)
			return false
		}
		return true
	}
	scanNum := func() (int, bool) {
		n := 0
		for kind == bDigit && n < reDupMax {
			n = n*10 + val
			if !lex() {
				return 0, false
			}
		}
		if kind == bDigit || n > reDupMax {
			v.fail(regBadBR)
			return 0, false
		}
		return n, true
	}
	if !lex() {
		return 0, 0, 0, false
	}
	m, ok := scanNum()
	if !ok {
		return 0, 0, 0, false
	}
	n, pref := m, int8(0)
	if kind == bComma {
		if !lex() {
			return 0, 0, 0, false
		}
		n = reDupInf
		if kind == bDigit {
			if n, ok = scanNum(); !ok {
				return 0, 0, 0, false
			}
		}
		if n != reDupInf && m > n {
			v.fail(regBadBR)
			return 0, 0, 0, false
		}
		pref = prefOf(val)
	}
	if kind != bEnd {
		v.fail(regBadBR)
		return 0, 0, 0, false
	}
	return m, n, pref, true
}

// Bracket tokens.
const (
	bkPlain = iota
	bkRange
	bkEnd
	bkCollEl
	bkEClass
	bkCClass
	bkClassS
	bkClassC
)

// bracket reads a bracket expression after its [ (or [^).
func (v *reParser) bracket(neg bool) *reSet {
	s := &reSet{neg: neg}
	first := true
	var kind int
	var val rune
	lex := func() bool {
		atFirst := first
		first = false
		if v.atEOS() {
			v.fail(regEBrack)
			return false
		}
		c := v.p[v.i]
		v.i++
		switch c {
		case ']':
			if atFirst {
				kind, val = bkPlain, c
			} else {
				kind = bkEnd
			}
		case '\\':
			if v.cf&cfAdvF == 0 {
				kind, val = bkPlain, c
				return true
			}
			if v.atEOS() {
				v.fail(regEEscape)
				return false
			}
			v.lexEscape()
			if v.err != nil {
				return false
			}
			switch v.tok {
			case tkPlain:
				kind, val = bkPlain, rune(v.val)
			case tkClassS:
				kind, val = bkClassS, rune(v.val)
			case tkClassC:
				kind, val = bkClassC, rune(v.val)
			default:
				v.fail(regEEscape)
				return false
			}
		case '-':
			if atFirst || v.next1(']') {
				kind, val = bkPlain, c
			} else {
				kind = bkRange
			}
		case '[':
			if v.atEOS() {
				v.fail(regEBrack)
				return false
			}
			switch v.p[v.i] {
			case '.':
				kind = bkCollEl
			case '=':
				kind = bkEClass
			case ':':
				kind = bkCClass
			default:
				kind, val = bkPlain, c
				return true
			}
			v.i++
		default:
			kind, val = bkPlain, c
		}
		return true
	}
	// name reads a [. .] [= =] [: :] name up to its terminator and, as
	// PostgreSQL's scanplain does, the token after it: an error there
	// comes before the name's own.
	name := func(term rune) (string, bool) {
		start := v.i
		for {
			if v.atEOS() {
				v.fail(regEBrack)
				return "", false
			}
			if v.p[v.i] == term && v.i+1 < len(v.p) && v.p[v.i+1] == ']' {
				break
			}
			v.i++
		}
		nm := string(v.p[start:v.i])
		v.i += 2
		return nm, lex()
	}
	// element is a collating element's character (a single character or
	// one of regc_locale.c's names).
	element := func(nm string) (rune, bool) {
		if utf8.RuneCountInString(nm) == 1 {
			r, _ := utf8.DecodeRuneInString(nm)
			return r, true
		}
		if r, ok := collNames[nm]; ok {
			return r, true
		}
		v.fail(regECollate)
		return 0, false
	}
	if !lex() {
		return nil
	}
	for kind != bkEnd {
		var lo rune
		switch kind {
		case bkRange:
			v.fail(regERange)
			return nil
		case bkPlain:
			lo = val
			if !lex() {
				return nil
			}
		case bkCollEl, bkEClass:
			k := kind
			nm, ok := name(map[int]rune{bkCollEl: '.', bkEClass: '='}[k])
			if !ok {
				return nil
			}
			if lo, ok = element(nm); !ok {
				return nil
			}
			if k == bkEClass {
				s.ranges = append(s.ranges, [2]rune{lo, lo})
				continue
			}
		case bkCClass:
			nm, ok := name(':')
			if !ok {
				return nil
			}
			if !isClassName(nm) {
				v.fail(regECType)
				return nil
			}
			s.classes = append(s.classes, nm)
			continue
		case bkClassS, bkClassC:
			if kind == bkClassS {
				s.classes = append(s.classes, escapeClass(val))
			} else {
				s.comps = append(s.comps, escapeClass(val))
			}
			if !lex() {
				return nil
			}
			continue
		}
		hi := lo
		if kind == bkRange {
			if !lex() {
				return nil
			}
			switch kind {
			case bkPlain, bkRange:
				if kind == bkPlain {
					hi = val
				} else {
					hi = '-'
				}
				if !lex() {
					return nil
				}
			case bkCollEl:
				nm, ok := name('.')
				if !ok {
					return nil
				}
				if hi, ok = element(nm); !ok {
					return nil
				}
			default:
				v.fail(regERange)
				return nil
			}
			if lo > hi {
				v.fail(regERange)
				return nil
			}
		}
		s.ranges = append(s.ranges, [2]rune{lo, hi})
	}
	return s
}

// preference is a node's greediness by PostgreSQL's rules (the
// documentation's 9.7.3.5): +1 prefers longer matches, -1 shorter, 0 has
// none. Parentheses keep their contents'; a quantifier other than {m}
// sets it; a branch has its first quantified atom's that has one; two or
// more branches are greedy. A pattern with none matches longest.
func (n *reNode) preference() int8 {
	switch n.op {
	case opGroup:
		return n.subs[0].preference()
	case opRepeat:
		if n.pref != 0 {
			return n.pref
		}
		return n.subs[0].preference()
	case opConcat:
		for _, s := range n.subs {
			if p := s.preference(); p != 0 {
				return p
			}
		}
	case opAlt:
		return 1
	}
	return 0
}

// escapeClass is the class name an escape letter (d, s, w) stands for.
func escapeClass(c rune) string {
	return map[rune]string{'d': "digit", 's': "space", 'w': "word"}[c]
}

// isClassName reports a [:name:] PostgreSQL 15 knows (regc_locale.c's
// classNames).
func isClassName(nm string) bool {
	switch nm {
	case "alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space", "upper", "xdigit", "word":
		return true
	}
	return false
}

// collNames are the multi-character collating element names of
// regc_locale.c's cnames table: the POSIX names of the ASCII characters.
var collNames = func() map[string]rune {
	m := map[string]rune{}
	ctl := strings.Fields("NUL SOH STX ETX EOT ENQ ACK BEL BS HT LF VT FF CR SO SI DLE DC1 DC2 DC3 DC4 NAK SYN ETB CAN EM SUB ESC IS4 IS3 IS2 IS1")
	for i, nm := range ctl[:28] {
		m[nm] = rune(i)
	}
	for i, nm := range ctl[28:] {
		m[nm] = rune(28 + i)
	}
	for nm, r := range map[string]rune{
		"alert": 7, "backspace": 8, "tab": 9, "newline": 10, "vertical-tab": 11, "form-feed": 12, "carriage-return": 13,
		"FS": 28, "GS": 29, "RS": 30, "US": 31, "space": ' ', "exclamation-mark": '!', "quotation-mark": '"',
		"number-sign": '#', "dollar-sign": '$', "percent-sign": '%', "ampersand": '&', "apostrophe": '\'',
		"left-parenthesis": '(', "right-parenthesis": ')', "asterisk": '*', "plus-sign": '+', "comma": ',',
		"hyphen": '-', "hyphen-minus": '-', "period": '.', "full-stop": '.', "slash": '/', "solidus": '/',
		"zero": '0', "one": '1', "two": '2', "three": '3', "four": '4', "five": '5', "six": '6', "seven": '7',
		"eight": '8', "nine": '9', "colon": ':', "semicolon": ';', "less-than-sign": '<', "equals-sign": '=',
		"greater-than-sign": '>', "question-mark": '?', "commercial-at": '@', "left-square-bracket": '[',
		"backslash": '\\', "reverse-solidus": '\\', "right-square-bracket": ']', "circumflex": '^',
		"circumflex-accent": '^', "underscore": '_', "low-line": '_', "grave-accent": '`', "left-brace": '{',
		"left-curly-bracket": '{', "vertical-line": '|', "right-brace": '}', "right-curly-bracket": '}',
		"tilde": '~', "DEL": 0x7f,
	} {
		m[nm] = r
	}
	return m
}()
