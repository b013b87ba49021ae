package tsearch

import "unicode"

// The default parser (PostgreSQL's pg_catalog.default, wparser_def.c): a
// table-driven state machine whose states push, pop and merge positions
// while a token is read. The tables below are PostgreSQL 15's, state for
// state and rule for rule, so that text splits into the same tokens; the
// character classes are those of a UTF-8 database whose LC_CTYPE is
// C.UTF-8 (a stock install): non-ASCII letters are letters, digits are
// only ASCII digits.

// Token types, numbered as PostgreSQL's (ts_token_type('default')).
const (
	TokAsciiWord      = 1
	TokWord           = 2
	TokNumWord        = 3
	TokEmail          = 4
	TokURL            = 5
	TokHost           = 6
	TokSFloat         = 7
	TokVersion        = 8
	TokHWordNumPart   = 9
	TokHWordPart      = 10
	TokHWordAsciiPart = 11
	TokBlank          = 12
	TokTag            = 13
	TokProtocol       = 14
	TokNumHWord       = 15
	TokAsciiHWord     = 16
	TokHWord          = 17
	TokURLPath        = 18
	TokFile           = 19
	TokFloat          = 20
	TokInt            = 21
	TokUint           = 22
	TokEntity         = 23
)

// TokenAliases are the token types' names, by number (index 0 unused).
var TokenAliases = [...]string{"", "asciiword", "word", "numword", "email", "url", "host", "sfloat",
	"version", "hword_numpart", "hword_part", "hword_asciipart", "blank", "tag", "protocol",
	"numhword", "asciihword", "hword", "url_path", "file", "float", "int", "uint", "entity"}

type pstate uint8

const (
	sBase pstate = iota
	sInNumWord
	sInAsciiWord
	sInWord
	sInUnsignedInt
	sInSignedIntFirst
	sInSignedInt
	sInSpace
	sInUDecimalFirst
	sInUDecimal
	sInDecimalFirst
	sInDecimal
	sInVerVersion
	sInSVerVersion
	sInVersionFirst
	sInVersion
	sInMantissaFirst
	sInMantissaSign
	sInMantissa
	sInXMLEntityFirst
	sInXMLEntity
	sInXMLEntityNumFirst
	sInXMLEntityNum
	sInXMLEntityHexNumFirst
	sInXMLEntityHexNum
	sInXMLEntityEnd
	sInTagFirst
	sInXMLBegin
	sInTagCloseFirst
	sInTagName
	sInTagBeginEnd
	sInTag
	sInTagEscapeK
	sInTagEscapeKK
	sInTagBackSleshed
	sInTagEnd
	sInCommentFirst
	sInCommentLast
	sInComment
	sInCloseCommentFirst
	sInCloseCommentLast
	sInCommentEnd
	sInHostFirstDomain
	sInHostDomainSecond
	sInHostDomain
	sInPortFirst
	sInPort
	sInHostFirstAN
	sInHost
	sInEmail
	sInFileFirst
	sInFileTwiddle
	sInPathFirst
	sInPathFirstFirst
	sInPathSecond
	sInFile
	sInFileNext
	sInURLPathFirst
	sInURLPathStart
	sInURLPath
	sInFURL
	sInProtocolFirst
	sInProtocolSecond
	sInProtocolEnd
	sInHyphenAsciiWordFirst
	sInHyphenAsciiWord
	sInHyphenWordFirst
	sInHyphenWord
	sInHyphenNumWordFirst
	sInHyphenNumWord
	sInHyphenDigitLookahead
	sInParseHyphen
	sInParseHyphenHyphen
	sInHyphenWordPart
	sInHyphenAsciiWordPart
	sInHyphenNumWordPart
	sInHyphenUnsignedInt
	sNull
)

// action flags
const (
	aNext   = 0
	aBingo  = 1
	aPop    = 2
	aPush   = 4
	aRerun  = 8
	aClear  = 16
	aMerge  = 32
	aClrAll = 64
)

type charTest func(p *tparser) bool

type action struct {
	test    charTest // nil: always
	c       rune     // the character of isEq/isNe
	flags   uint16
	to      pstate
	typ     int
	special func(p *tparser)
}

type position struct {
	pos      int // in characters
	charlen  int // 0 at the end
	lenTok   int // token so far, in characters
	state    pstate
	prev     *position
	pushedAt int // index+1 of the rule a PUSH was taken at (0: none)
}

type tparser struct {
	str      []rune
	state    *position
	ignore   bool
	wanthost bool
	c        rune

	// out
	tokStart int
	tokLen   int
	typ      int
}

func newParser(str []rune) *tparser {
	return &tparser{str: str, state: &position{state: sBase}}
}

func (p *tparser) cur() rune { return p.str[p.state.pos] }

func (p *tparser) atEOF() bool { return p.state.pos == len(p.str) || p.state.charlen == 0 }

func isAlnum(p *tparser) bool {
	if p.atEOF() {
		return false
	}
	r := p.cur()
	if r < 0x80 {
		return r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isNotAlnum(p *tparser) bool { return !isAlnum(p) }

func isAlpha(p *tparser) bool {
	if p.atEOF() {
		return false
	}
	r := p.cur()
	if r < 0x80 {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
	}
	return unicode.IsLetter(r)
}

func isDigit(p *tparser) bool { return !p.atEOF() && p.cur() >= '0' && p.cur() <= '9' }

func isXDigit(p *tparser) bool {
	if p.atEOF() {
		return false
	}
	r := p.cur()
	return r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F'
}

func isSpace(p *tparser) bool {
	if p.atEOF() {
		return false
	}
	r := p.cur()
	if r < 0x80 {
		return r == ' ' || r >= '\t' && r <= '\r'
	}
	// glibc's iswspace leaves out the no-break spaces
	return unicode.IsSpace(r) && r != 0xA0 && r != 0x2007 && r != 0x202F
}

func isEq(p *tparser) bool { return !p.atEOF() && p.cur() == p.c }

func isEOF(p *tparser) bool { return p.atEOF() }

func isAscLet(p *tparser) bool {
	if p.atEOF() {
		return false
	}
	r := p.cur()
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}

func isURLChar(p *tparser) bool {
	if p.atEOF() {
		return false
	}
	r := p.cur()
	if r <= 0x20 || r >= 0x7F {
		return false
	}
	switch r {
	case '"', '<', '>', '\\', '^', '`', '{', '|', '}':
		return false
	}
	return true
}

// isSpecial is a character of zero display width or a spacing combining
// mark: no word breaker, though no letter either.
func isSpecial(p *tparser) bool {
	if p.atEOF() {
		return false
	}
	r := p.cur()
	return r >= 0x80 && unicode.In(r, unicode.Mn, unicode.Me, unicode.Mc, unicode.Cf)
}

func isStopHost(p *tparser) bool {
	if p.wanthost {
		p.wanthost = false
		return true
	}
	return false
}

func isIgnore(p *tparser) bool { return p.ignore }

// sub is a parser over the rest of p's string from its position.
func (p *tparser) sub() *tparser {
	return newParser(p.str[p.state.pos:])
}

func (p *tparser) absorb(q *tparser) {
	p.state.pos += q.tokLen
	p.state.lenTok += q.tokLen
	p.state.charlen = q.state.charlen
}

func isHost(p *tparser) bool {
	q := p.sub()
	q.wanthost = true
	if q.next() && q.typ == TokHost {
		p.absorb(q)
		return true
	}
	return false
}

func isURLPath(p *tparser) bool {
	q := p.sub()
	q.state = &position{state: sInURLPathFirst, prev: q.state}
	if q.next() && q.typ == TokURLPath {
		p.absorb(q)
		return true
	}
	return false
}

func specialTags(p *tparser) {
	tok := p.str[p.tokStart : p.tokStart+p.state.lenTok]
	eq := func(s string) bool {
		if len(tok) != len([]rune(s)) {
			return false
		}
		for i, r := range s {
			if unicode.ToLower(tok[i]) != r {
				return false
			}
		}
		return true
	}
	switch {
	case eq("</script"), eq("</style"):
		p.ignore = false
	case eq("<script"), eq("<style"):
		p.ignore = true
	}
}

func specialFURL(p *tparser) {
	p.wanthost = true
	p.state.pos -= p.state.lenTok
}

func specialHyphen(p *tparser) { p.state.pos -= p.state.lenTok }

func specialVerVersion(p *tparser) {
	p.state.pos -= p.state.lenTok
	p.state.lenTok = 0
}

func eq(c rune, flags uint16, to pstate) action {
	return action{test: isEq, c: c, flags: flags, to: to}
}
func on(t charTest, flags uint16, to pstate) action {
	return action{test: t, flags: flags, to: to}
}
func bingo(t charTest, flags uint16, to pstate, typ int) action {
	return action{test: t, flags: flags | aBingo, to: to, typ: typ}
}
func pop(t charTest) action { return action{test: t, flags: aPop, to: sNull} }

var popAll = action{flags: aPop, to: sNull}

var actions [sNull][]action

func init() {
	actions = [sNull][]action{
		sBase: {on(isEOF, aNext, sNull), eq('<', aPush, sInTagFirst), on(isIgnore, aNext, sInSpace),
			on(isAscLet, aNext, sInAsciiWord), on(isAlpha, aNext, sInWord), on(isDigit, aNext, sInUnsignedInt),
			eq('-', aPush, sInSignedIntFirst), eq('+', aPush, sInSignedIntFirst), eq('&', aPush, sInXMLEntityFirst),
			eq('~', aPush, sInFileTwiddle), eq('/', aPush, sInFileFirst), eq('.', aPush, sInPathFirstFirst),
			on(nil, aNext, sInSpace)},
		sInNumWord: {bingo(isEOF, 0, sBase, TokNumWord), on(isAlnum, aNext, sInNumWord), on(isSpecial, aNext, sInNumWord),
			eq('@', aPush, sInEmail), eq('/', aPush, sInFileFirst), eq('.', aPush, sInFileNext),
			eq('-', aPush, sInHyphenNumWordFirst), bingo(nil, 0, sBase, TokNumWord)},
		sInAsciiWord: {bingo(isEOF, 0, sBase, TokAsciiWord), on(isAscLet, aNext, sNull),
			eq('.', aPush, sInHostFirstDomain), eq('.', aPush, sInFileNext), eq('-', aPush, sInHostFirstAN),
			eq('-', aPush, sInHyphenAsciiWordFirst), eq('_', aPush, sInHostFirstAN), eq('@', aPush, sInEmail),
			eq(':', aPush, sInProtocolFirst), eq('/', aPush, sInFileFirst), on(isDigit, aPush, sInHost),
			on(isDigit, aNext, sInNumWord), on(isAlpha, aNext, sInWord), on(isSpecial, aNext, sInWord),
			bingo(nil, 0, sBase, TokAsciiWord)},
		sInWord: {bingo(isEOF, 0, sBase, TokWord), on(isAlpha, aNext, sNull), on(isSpecial, aNext, sNull),
			on(isDigit, aNext, sInNumWord), eq('-', aPush, sInHyphenWordFirst), bingo(nil, 0, sBase, TokWord)},
		sInUnsignedInt: {bingo(isEOF, 0, sBase, TokUint), on(isDigit, aNext, sNull),
			eq('.', aPush, sInHostFirstDomain), eq('.', aPush, sInUDecimalFirst), eq('e', aPush, sInMantissaFirst),
			eq('E', aPush, sInMantissaFirst), eq('-', aPush, sInHostFirstAN), eq('_', aPush, sInHostFirstAN),
			eq('@', aPush, sInEmail), on(isAscLet, aPush, sInHost), on(isAlpha, aNext, sInNumWord),
			on(isSpecial, aNext, sInNumWord), eq('/', aPush, sInFileFirst), bingo(nil, 0, sBase, TokUint)},
		sInSignedIntFirst: {pop(isEOF), on(isDigit, aNext|aClear, sInSignedInt), popAll},
		sInSignedInt: {bingo(isEOF, 0, sBase, TokInt), on(isDigit, aNext, sNull), eq('.', aPush, sInDecimalFirst),
			eq('e', aPush, sInMantissaFirst), eq('E', aPush, sInMantissaFirst), bingo(nil, 0, sBase, TokInt)},
		sInSpace: {bingo(isEOF, 0, sBase, TokBlank), {test: isEq, c: '<', flags: aBingo, to: sBase, typ: TokBlank},
			on(isIgnore, aNext, sNull), {test: isEq, c: '-', flags: aBingo, to: sBase, typ: TokBlank},
			{test: isEq, c: '+', flags: aBingo, to: sBase, typ: TokBlank}, {test: isEq, c: '&', flags: aBingo, to: sBase, typ: TokBlank},
			{test: isEq, c: '/', flags: aBingo, to: sBase, typ: TokBlank}, on(isNotAlnum, aNext, sInSpace),
			bingo(nil, 0, sBase, TokBlank)},
		sInUDecimalFirst: {pop(isEOF), on(isDigit, aClear, sInUDecimal), popAll},
		sInUDecimal: {bingo(isEOF, 0, sBase, TokFloat), on(isDigit, aNext, sInUDecimal), eq('.', aPush, sInVersionFirst),
			eq('e', aPush, sInMantissaFirst), eq('E', aPush, sInMantissaFirst), bingo(nil, 0, sBase, TokFloat)},
		sInDecimalFirst: {pop(isEOF), on(isDigit, aClear, sInDecimal), popAll},
		sInDecimal: {bingo(isEOF, 0, sBase, TokFloat), on(isDigit, aNext, sInDecimal), eq('.', aPush, sInVerVersion),
			eq('e', aPush, sInMantissaFirst), eq('E', aPush, sInMantissaFirst), bingo(nil, 0, sBase, TokFloat)},
		sInVerVersion: {pop(isEOF), {test: isDigit, flags: aRerun, to: sInSVerVersion, special: specialVerVersion}, popAll},
		sInSVerVersion: {pop(isEOF), {test: isDigit, flags: aBingo | aClrAll, to: sInUnsignedInt, typ: TokBlank},
			on(nil, aNext, sNull)},
		sInVersionFirst: {pop(isEOF), on(isDigit, aClear, sInVersion), popAll},
		sInVersion: {bingo(isEOF, 0, sBase, TokVersion), on(isDigit, aNext, sInVersion), eq('.', aPush, sInVersionFirst),
			bingo(nil, 0, sBase, TokVersion)},
		sInMantissaFirst: {pop(isEOF), on(isDigit, aClear, sInMantissa), eq('+', aNext, sInMantissaSign),
			eq('-', aNext, sInMantissaSign), popAll},
		sInMantissaSign: {pop(isEOF), on(isDigit, aClear, sInMantissa), popAll},
		sInMantissa:     {bingo(isEOF, 0, sBase, TokSFloat), on(isDigit, aNext, sInMantissa), bingo(nil, 0, sBase, TokSFloat)},
		sInXMLEntityFirst: {pop(isEOF), eq('#', aNext, sInXMLEntityNumFirst), on(isAscLet, aNext, sInXMLEntity),
			eq(':', aNext, sInXMLEntity), eq('_', aNext, sInXMLEntity), popAll},
		sInXMLEntity: {pop(isEOF), on(isAlnum, aNext, sInXMLEntity), eq(':', aNext, sInXMLEntity), eq('_', aNext, sInXMLEntity),
			eq('.', aNext, sInXMLEntity), eq('-', aNext, sInXMLEntity), eq(';', aNext, sInXMLEntityEnd), popAll},
		sInXMLEntityNumFirst: {pop(isEOF), eq('x', aNext, sInXMLEntityHexNumFirst), eq('X', aNext, sInXMLEntityHexNumFirst),
			on(isDigit, aNext, sInXMLEntityNum), popAll},
		sInXMLEntityHexNumFirst: {pop(isEOF), on(isXDigit, aNext, sInXMLEntityHexNum), popAll},
		sInXMLEntityNum:         {pop(isEOF), on(isDigit, aNext, sInXMLEntityNum), eq(';', aNext, sInXMLEntityEnd), popAll},
		sInXMLEntityHexNum:      {pop(isEOF), on(isXDigit, aNext, sInXMLEntityHexNum), eq(';', aNext, sInXMLEntityEnd), popAll},
		sInXMLEntityEnd:         {bingo(nil, aClear, sBase, TokEntity)},
		sInTagFirst: {pop(isEOF), eq('/', aPush, sInTagCloseFirst), eq('!', aPush, sInCommentFirst), eq('?', aPush, sInXMLBegin),
			on(isAscLet, aPush, sInTagName), eq(':', aPush, sInTagName), eq('_', aPush, sInTagName), popAll},
		sInXMLBegin:      {pop(isEOF), eq('x', aNext, sInTag), popAll},
		sInTagCloseFirst: {pop(isEOF), on(isAscLet, aNext, sInTagName), popAll},
		sInTagName: {pop(isEOF), eq('/', aNext, sInTagBeginEnd), {test: isEq, c: '>', to: sInTagEnd, special: specialTags},
			{test: isSpace, to: sInTag, special: specialTags}, on(isAlnum, aNext, sNull), eq(':', aNext, sNull),
			eq('_', aNext, sNull), eq('.', aNext, sNull), eq('-', aNext, sNull), popAll},
		sInTagBeginEnd: {pop(isEOF), eq('>', aNext, sInTagEnd), popAll},
		sInTag: {pop(isEOF), {test: isEq, c: '>', to: sInTagEnd, special: specialTags}, eq('\'', aNext, sInTagEscapeK),
			eq('"', aNext, sInTagEscapeKK), on(isAscLet, aNext, sNull), on(isDigit, aNext, sNull), eq('=', aNext, sNull),
			eq('-', aNext, sNull), eq('_', aNext, sNull), eq('#', aNext, sNull), eq('/', aNext, sNull), eq(':', aNext, sNull),
			eq('.', aNext, sNull), eq('&', aNext, sNull), eq('?', aNext, sNull), eq('%', aNext, sNull), eq('~', aNext, sNull),
			{test: isSpace, to: sNull, special: specialTags}, popAll},
		sInTagEscapeK:        {pop(isEOF), eq('\\', aPush, sInTagBackSleshed), eq('\'', aNext, sInTag), on(nil, aNext, sInTagEscapeK)},
		sInTagEscapeKK:       {pop(isEOF), eq('\\', aPush, sInTagBackSleshed), eq('"', aNext, sInTag), on(nil, aNext, sInTagEscapeKK)},
		sInTagBackSleshed:    {pop(isEOF), on(nil, aMerge, sNull)},
		sInTagEnd:            {bingo(nil, aClrAll, sBase, TokTag)},
		sInCommentFirst:      {pop(isEOF), eq('-', aNext, sInCommentLast), eq('D', aNext, sInTag), eq('d', aNext, sInTag), popAll},
		sInCommentLast:       {pop(isEOF), eq('-', aNext, sInComment), popAll},
		sInComment:           {pop(isEOF), eq('-', aNext, sInCloseCommentFirst), on(nil, aNext, sNull)},
		sInCloseCommentFirst: {pop(isEOF), eq('-', aNext, sInCloseCommentLast), on(nil, aNext, sInComment)},
		sInCloseCommentLast:  {pop(isEOF), eq('-', aNext, sNull), eq('>', aNext, sInCommentEnd), on(nil, aNext, sInComment)},
		sInCommentEnd:        {bingo(nil, aClrAll, sBase, TokTag)},
		sInHostFirstDomain:   {pop(isEOF), on(isAscLet, aNext, sInHostDomainSecond), on(isDigit, aNext, sInHost), popAll},
		sInHostDomainSecond: {pop(isEOF), on(isAscLet, aNext, sInHostDomain), on(isDigit, aPush, sInHost),
			eq('-', aPush, sInHostFirstAN), eq('_', aPush, sInHostFirstAN), eq('.', aPush, sInHostFirstDomain),
			eq('@', aPush, sInEmail), popAll},
		sInHostDomain: {bingo(isEOF, aClrAll, sBase, TokHost), on(isAscLet, aNext, sInHostDomain), on(isDigit, aPush, sInHost),
			eq(':', aPush, sInPortFirst), eq('-', aPush, sInHostFirstAN), eq('_', aPush, sInHostFirstAN),
			eq('.', aPush, sInHostFirstDomain), eq('@', aPush, sInEmail), pop(isDigit),
			bingo(isStopHost, aClrAll, sInURLPathStart, TokHost), eq('/', aPush, sInFURL), bingo(nil, aClrAll, sBase, TokHost)},
		sInPortFirst: {pop(isEOF), on(isDigit, aNext, sInPort), popAll},
		sInPort: {bingo(isEOF, aClrAll, sBase, TokHost), on(isDigit, aNext, sInPort),
			bingo(isStopHost, aClrAll, sInURLPathStart, TokHost), eq('/', aPush, sInFURL), bingo(nil, aClrAll, sBase, TokHost)},
		sInHostFirstAN: {pop(isEOF), on(isDigit, aNext, sInHost), on(isAscLet, aNext, sInHost), popAll},
		sInHost: {pop(isEOF), on(isDigit, aNext, sInHost), on(isAscLet, aNext, sInHost), eq('@', aPush, sInEmail),
			eq('.', aPush, sInHostFirstDomain), eq('-', aPush, sInHostFirstAN), eq('_', aPush, sInHostFirstAN), popAll},
		sInEmail: {pop(isStopHost), bingo(isHost, aClrAll, sBase, TokEmail), popAll},
		sInFileFirst: {pop(isEOF), on(isAscLet, aNext, sInFile), on(isDigit, aNext, sInFile), eq('.', aNext, sInPathFirst),
			eq('_', aNext, sInFile), eq('~', aPush, sInFileTwiddle), popAll},
		sInFileTwiddle: {pop(isEOF), on(isAscLet, aNext, sInFile), on(isDigit, aNext, sInFile), eq('_', aNext, sInFile),
			eq('/', aNext, sInFileFirst), popAll},
		sInPathFirst: {pop(isEOF), on(isAscLet, aNext, sInFile), on(isDigit, aNext, sInFile), eq('_', aNext, sInFile),
			eq('.', aNext, sInPathSecond), eq('/', aNext, sInFileFirst), popAll},
		sInPathFirstFirst: {pop(isEOF), eq('.', aNext, sInPathSecond), eq('/', aNext, sInFileFirst), popAll},
		sInPathSecond: {bingo(isEOF, aClear, sBase, TokFile), eq('/', aNext|aPush, sInFileFirst),
			{test: isEq, c: '/', flags: aBingo | aClear, to: sBase, typ: TokFile}, bingo(isSpace, aClear, sBase, TokFile), popAll},
		sInFile: {bingo(isEOF, 0, sBase, TokFile), on(isAscLet, aNext, sInFile), on(isDigit, aNext, sInFile),
			eq('.', aPush, sInFileNext), eq('_', aNext, sInFile), eq('-', aNext, sInFile), eq('/', aPush, sInFileFirst),
			bingo(nil, 0, sBase, TokFile)},
		sInFileNext:       {pop(isEOF), on(isAscLet, aClear, sInFile), on(isDigit, aClear, sInFile), eq('_', aClear, sInFile), popAll},
		sInURLPathFirst:   {pop(isEOF), on(isURLChar, aNext, sInURLPath), popAll},
		sInURLPathStart:   {on(nil, aNext, sInURLPath)},
		sInURLPath:        {bingo(isEOF, 0, sBase, TokURLPath), on(isURLChar, aNext, sInURLPath), bingo(nil, 0, sBase, TokURLPath)},
		sInFURL:           {pop(isEOF), {test: isURLPath, flags: aBingo | aClrAll, to: sBase, typ: TokURL, special: specialFURL}, popAll},
		sInProtocolFirst:  {pop(isEOF), eq('/', aNext, sInProtocolSecond), popAll},
		sInProtocolSecond: {pop(isEOF), eq('/', aNext, sInProtocolEnd), popAll},
		sInProtocolEnd:    {bingo(nil, aClrAll, sBase, TokProtocol)},
		sInHyphenAsciiWordFirst: {pop(isEOF), on(isAscLet, aNext, sInHyphenAsciiWord), on(isAlpha, aNext, sInHyphenWord),
			on(isDigit, aNext, sInHyphenDigitLookahead), popAll},
		sInHyphenAsciiWord: {{test: isEOF, flags: aBingo | aClrAll, to: sInParseHyphen, typ: TokAsciiHWord, special: specialHyphen},
			on(isAscLet, aNext, sInHyphenAsciiWord), on(isAlpha, aNext, sInHyphenWord), on(isSpecial, aNext, sInHyphenWord),
			on(isDigit, aNext, sInHyphenNumWord), eq('-', aPush, sInHyphenAsciiWordFirst),
			{flags: aBingo | aClrAll, to: sInParseHyphen, typ: TokAsciiHWord, special: specialHyphen}},
		sInHyphenWordFirst: {pop(isEOF), on(isAlpha, aNext, sInHyphenWord), on(isDigit, aNext, sInHyphenDigitLookahead), popAll},
		sInHyphenWord: {{test: isEOF, flags: aBingo | aClrAll, to: sInParseHyphen, typ: TokHWord, special: specialHyphen},
			on(isAlpha, aNext, sInHyphenWord), on(isSpecial, aNext, sInHyphenWord), on(isDigit, aNext, sInHyphenNumWord),
			eq('-', aPush, sInHyphenWordFirst), {flags: aBingo | aClrAll, to: sInParseHyphen, typ: TokHWord, special: specialHyphen}},
		sInHyphenNumWordFirst: {pop(isEOF), on(isAlpha, aNext, sInHyphenNumWord), on(isDigit, aNext, sInHyphenDigitLookahead), popAll},
		sInHyphenNumWord: {{test: isEOF, flags: aBingo | aClrAll, to: sInParseHyphen, typ: TokNumHWord, special: specialHyphen},
			on(isAlnum, aNext, sInHyphenNumWord), on(isSpecial, aNext, sInHyphenNumWord), eq('-', aPush, sInHyphenNumWordFirst),
			{flags: aBingo | aClrAll, to: sInParseHyphen, typ: TokNumHWord, special: specialHyphen}},
		sInHyphenDigitLookahead: {pop(isEOF), on(isDigit, aNext, sInHyphenDigitLookahead), on(isAlpha, aNext, sInHyphenNumWord),
			on(isSpecial, aNext, sInHyphenNumWord), popAll},
		sInParseHyphen: {on(isEOF, aRerun, sBase), on(isAscLet, aNext, sInHyphenAsciiWordPart), on(isAlpha, aNext, sInHyphenWordPart),
			on(isDigit, aPush, sInHyphenUnsignedInt), eq('-', aPush, sInParseHyphenHyphen), on(nil, aRerun, sBase)},
		sInParseHyphenHyphen: {pop(isEOF), bingo(isAlnum, aClear, sInParseHyphen, TokBlank),
			bingo(isSpecial, aClear, sInParseHyphen, TokBlank), popAll},
		sInHyphenWordPart: {bingo(isEOF, 0, sBase, TokHWordPart), on(isAlpha, aNext, sInHyphenWordPart),
			on(isSpecial, aNext, sInHyphenWordPart), on(isDigit, aNext, sInHyphenNumWordPart), bingo(nil, 0, sInParseHyphen, TokHWordPart)},
		sInHyphenAsciiWordPart: {bingo(isEOF, 0, sBase, TokHWordAsciiPart), on(isAscLet, aNext, sInHyphenAsciiWordPart),
			on(isAlpha, aNext, sInHyphenWordPart), on(isSpecial, aNext, sInHyphenWordPart), on(isDigit, aNext, sInHyphenNumWordPart),
			bingo(nil, 0, sInParseHyphen, TokHWordAsciiPart)},
		sInHyphenNumWordPart: {bingo(isEOF, 0, sBase, TokHWordNumPart), on(isAlnum, aNext, sInHyphenNumWordPart),
			on(isSpecial, aNext, sInHyphenNumWordPart), bingo(nil, 0, sInParseHyphen, TokHWordNumPart)},
		sInHyphenUnsignedInt: {pop(isEOF), on(isDigit, aNext, sNull), on(isAlpha, aClear, sInHyphenNumWordPart),
			on(isSpecial, aClear, sInHyphenNumWordPart), popAll},
	}
}

// next reads the next token (TParserGet): false at the end of the text.
func (p *tparser) next() bool {
	if p.state.pos >= len(p.str) {
		return false
	}
	p.tokStart = p.state.pos
	p.state.pushedAt = 0
	var item *action
	for p.state.pos <= len(p.str) {
		if p.state.pos == len(p.str) {
			p.state.charlen = 0
		} else {
			p.state.charlen = 1
		}
		rules := actions[p.state.state]
		i := 0
		if p.state.pushedAt > 0 {
			// after a POP, pick up at the next rule
			i = p.state.pushedAt
			p.state.pushedAt = 0
		}
		for ; i < len(rules); i++ {
			r := &rules[i]
			if r.test == nil {
				break
			}
			p.c = r.c
			if r.test(p) {
				break
			}
		}
		if i >= len(rules) {
			i = len(rules) - 1 // tables end in a default rule
		}
		item = &rules[i]
		if item.special != nil {
			item.special(p)
		}
		if item.flags&aBingo != 0 {
			p.tokLen = p.state.lenTok
			p.state.lenTok = 0
			p.typ = item.typ
		}
		switch {
		case item.flags&aPop != 0:
			p.state = p.state.prev
		case item.flags&aPush != 0:
			p.state.pushedAt = i + 1
			cp := *p.state
			cp.prev = p.state
			cp.pushedAt = 0
			p.state = &cp
		case item.flags&aClear != 0:
			p.state.prev = p.state.prev.prev
		case item.flags&aClrAll != 0:
			p.state.prev = nil
		case item.flags&aMerge != 0:
			ptr := p.state
			p.state = p.state.prev
			p.state.pos, p.state.charlen, p.state.lenTok = ptr.pos, ptr.charlen, ptr.lenTok
		}
		if item.to != sNull {
			p.state.state = item.to
		}
		if item.flags&aBingo != 0 || p.state.pos >= len(p.str) && item.flags&aRerun == 0 {
			break
		}
		if item.flags&(aRerun|aPop) != 0 {
			continue
		}
		if p.state.charlen != 0 {
			p.state.pos++
			p.state.lenTok++
		}
	}
	return item != nil && item.flags&aBingo != 0
}

// Token is one token of the default parser.
type Token struct {
	Type int
	Text string
}

// Parse splits text into the default parser's tokens.
func Parse(text string) []Token {
	p := newParser([]rune(text))
	var out []Token
	for p.next() {
		out = append(out, Token{Type: p.typ, Text: string(p.str[p.tokStart : p.tokStart+p.tokLen])})
	}
	return out
}
