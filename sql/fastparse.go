package sql

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/charset"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	"github.com/pingcap/tidb/pkg/parser/test_driver"
	pt "github.com/sqlgate/sqlgate/sql/tree"
)

// The fast path: a hand-written recursive-descent parser for the common
// subset of SELECT, run on the rewritten text in place of TiDB's generated
// parser (which costs ~50 µs and ~90 allocations for a 200-character query,
// most of it in goyacc's table walk and its lexer). It builds the same AST
// TiDB builds for the same text — node types, values, OriginTextPosition
// offsets, SelectField and parenthesised-expression texts — so nothing after
// it can tell which parser ran; fastparse_test.go checks that with
// reflect.DeepEqual over the sqllogictest corpus, and a fuzz target does the
// same on random input.
//
// It runs on the rewritten text, not on the PostgreSQL text, so that
// Statement.Rewritten, the offset map and ParamNumbers stay exactly those of
// the rewrite: AST offsets point into Rewritten either way.
//
// Anything outside the subset — and any error — returns ok false, and the
// statement goes to TiDB, which then also reports syntax errors exactly as
// before. Being conservative costs only speed: every keyword TiDB knows is
// refused as an identifier, so no word the grammar treats specially (builtin
// function tokens like COUNT or NOW, unreserved keywords like DATE) is
// misread.

// fastStmt parses text, one statement in the subset, into TiDB's AST.
// An INSERT whose rows the fast path reads into sqlgate's tree
// (insertfast.go) comes back without them.
func fastStmt(text string) (ast.StmtNode, bool) {
	n, _, _, ok := fastStmtBuf(text, nil)
	return n, ok
}

// fastStmtBuf is fastStmt lexing into buf[:0] when it is large enough; it
// returns the token buffer for the next call (the AST does not refer to
// it), and an INSERT's rows when it read them into sqlgate's tree (the
// AST's InsertStmt then holds no Lists: see insertfast.go).
func fastStmtBuf(text string, buf []ftok) (_ ast.StmtNode, rows [][]pt.Expr, toks []ftok, ok bool) {
	return fastStmtFrom(text, nil, buf)
}

// fastStmtFrom is fastStmtBuf with the tokens built from fs (fasttoks.go)
// when it is not nil, instead of lexing text.
func fastStmtFrom(text string, fs *fastSource, buf []ftok) (_ ast.StmtNode, rows [][]pt.Expr, toks []ftok, ok bool) {
	fp := fastParser{src: text, toks: buf[:0]}
	defer func() {
		// A bug here must cost only the fast path: TiDB parses instead.
		if recover() != nil {
			rows, toks, ok = nil, nil, false
		}
	}()
	if fs != nil && !fp.fromSource(fs) || fs == nil && !fp.lex() {
		return nil, nil, fp.toks, false
	}
	var st ast.StmtNode
	if fp.wordIs(fp.peek(), "insert") {
		st, rows, ok = fp.insertStmt() // insertfast.go
	} else {
		st, ok = fp.selectStmt()
	}
	if !ok || fp.pos != len(fp.toks)-1 { // all but the end token read
		return nil, nil, fp.toks, false
	}
	if n, ok := st.(interface{ SetNoBackslashEscapes(bool) }); ok {
		n.SetNoBackslashEscapes(true)
	}
	st.SetText(utf8Encoding, text)
	return st, rows, fp.toks, true
}

// mark sets an expression node's offset (TiDB's reduction sets it to its
// first token's) and its flag. The flag is what ast.SetFlag's walk, which
// TiDB's parser runs over every statement, would set: the node's own bits
// and its children's, which are final by the time their parent is built,
// so no second walk over the tree is needed.
func mark(n ast.ExprNode, offset int, flag uint64) {
	n.SetOriginTextPosition(offset)
	n.SetFlag(flag)
}

// flagsOf is the union of the expressions' flags.
func flagsOf(list []ast.ExprNode) uint64 {
	var f uint64
	for _, e := range list {
		f |= e.GetFlag()
	}
	return f
}

// utf8Encoding is the connection encoding TiDB's parser attaches to node
// texts (its lexer's client encoding for the default charset utf8mb4).
var utf8Encoding = charset.FindEncoding(mysql.DefaultCharset)

// fastWords classifies every word the fast path must tell from a plain
// identifier, once per word at lex time (fwInfo: TiDB's class and the
// parser's own keyword id). class is wordSoft for TiDB's unreserved and TiDB
// keywords (identifiers in most positions), wordHard for its reserved
// keywords and for the builtin-function and other tokens of its token map
// that parser.Keywords omits. Lower case, built once, read-only.
var fastWords = newWordTable(fastWordMap())

// fastWordMap builds fastWords' entries.
func fastWordMap() map[string]fwInfo {
	m := make(map[string]fwInfo, len(parser.Keywords)+160)
	for _, k := range parser.Keywords {
		c := wordSoft
		if k.Reserved {
			c = wordHard
		}
		m[strings.ToLower(k.Word)] = fwInfo{class: c}
	}
	for _, w := range strings.Fields(tidbExtraTokens) {
		m[strings.ToLower(w)] = fwInfo{class: wordHard}
	}
	for id, w := range fastKeywords {
		if w != "" {
			info := m[w]
			info.id = fid(id)
			m[w] = info
		}
	}
	return m
}

// wordTable is a read-only open-addressing hash table of fastWords: the lexer looks up
// every word of every statement, and a Go map's lookup (its aeshash and
// group probing) was a third of the fast lexer's time. Here a lookup is a
// multiplicative hash of a few bytes and, at a load under 1/4, mostly one
// slot compared.
type wordTable struct {
	slots []wordSlot // len a power of two; word "" marks an empty slot
	mask  uint32
}

type wordSlot struct {
	word string
	info fwInfo
}

func newWordTable(m map[string]fwInfo) wordTable {
	n := 1
	for n < 4*len(m) {
		n *= 2
	}
	t := wordTable{slots: make([]wordSlot, n), mask: uint32(n - 1)}
	for w, info := range m {
		i := wordHash(w) & t.mask
		for t.slots[i].word != "" {
			i = (i + 1) & t.mask
		}
		t.slots[i] = wordSlot{word: w, info: info}
	}
	return t
}

// wordHash is the word's hash for the table, read from four bytes of it
// (its length, first, middle and last letters, ASCII-lower-cased, so that
// the lexer hashes a word as written and the table as folded) at the word's
// end instead of a multiply per byte as it is scanned: that serial chain
// was the lexer's dearest step, and words that agree on all four mostly
// differ in length or land a slot or two apart.
func wordHash(w string) uint32 {
	n := len(w)
	if n == 0 {
		return 0
	}
	x := uint32(n)<<24 | uint32(lowerASCII[w[0]])<<16 | uint32(lowerASCII[w[n/2]])<<8 | uint32(lowerASCII[w[n-1]])
	x *= 0x9E3779B1
	return x ^ x>>15
}

func (t *wordTable) get(w string) fwInfo { return t.lookup(w, wordHash(w)) }

// lookup is get(w) for h = wordHash(w).
func (t *wordTable) lookup(w string, h uint32) fwInfo {
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		s := &t.slots[i]
		if s.word == w {
			return s.info
		}
		if s.word == "" {
			return fwInfo{}
		}
	}
}

// fwInfo is a word's entry in fastWords.
type fwInfo struct {
	class uint8
	id    fid
}

const (
	wordSoft uint8 = 1
	wordHard uint8 = 2
)

// fid identifies the words and operators the fast parser looks for, so
// that it compares small integers, not text, at every precedence level.
type fid uint8

// Keyword ids (fastKeywords spells them).
const (
	kwNone fid = iota
	kwAll
	kwAnd
	kwAny
	kwAs
	kwAsc
	kwAvg
	kwBetween
	kwBy
	kwCollate
	kwCount
	kwDesc
	kwDistinct
	kwDistinctrow
	kwDiv
	kwEscape
	kwExists
	kwFalse
	kwFilter
	kwFrom
	kwGroup
	kwHaving
	kwIn
	kwInner
	kwInterval
	kwIs
	kwJoin
	kwLeft
	kwLike
	kwLimit
	kwMax
	kwMin
	kwMod
	kwNot
	kwNull
	kwOffset
	kwOn
	kwOr
	kwOrder
	kwOuter
	kwOver
	kwRegexp
	kwRight
	kwSelect
	kwSome
	kwSum
	kwTable
	kwTrue
	kwValues
	kwWhere
	kwWith
	kwXor
	numKeywords
)

// fastKeywords spells the keyword ids.
var fastKeywords = [numKeywords]string{"", "all", "and", "any", "as", "asc", "avg", "between", "by", "collate",
	"count", "desc", "distinct", "distinctrow", "div", "escape", "exists", "false", "filter", "from", "group",
	"having", "in", "inner", "interval", "is", "join", "left", "like", "limit", "max", "min", "mod", "not", "null",
	"offset", "on", "or", "order", "outer", "over", "regexp", "right", "select", "some", "sum", "table", "true",
	"values", "where", "with", "xor"}

// Operator ids, in the id space of ftOp tokens.
const (
	opNone fid = iota
	opLParen
	opRParen
	opComma
	opDot
	opMul
	opPlus
	opMinus
	opDiv
	opMod
	opEQ
	opLT
	opLE
	opNE  // <>
	opNE2 // !=
	opNullEQ
	opGT
	opGE
	opBitOr // | (the rewrite's a | pg__pipes() | b, pipes.go)
	opConcat
)

// tidbExtraTokens are the words of TiDB's lexer token map (misc.go tokenMap
// and btFuncTokenMap) missing from parser.Keywords.
const tidbExtraTokens = `ADDDATE APPROX_COUNT_DISTINCT APPROX_PERCENTILE BACKGROUND BIT_AND BIT_OR BIT_XOR BOUND BR
BRIEF BURSTABLE CAST COMPRESS CONSTRAINTS COOLDOWN COPY CURDATE CURTIME DATE_ADD DATE_SUB DEC DEFINED DOT DRYRUN
DUMP DURATION END_TIME EXACT EXEC_ELAPSED EXPR_PUSHDOWN_BLACKLIST EXTRACT FLASHBACK FOLLOWER FOLLOWERS
FOLLOWER_CONSTRAINTS FULL_BACKUP_STORAGE GC_TTL GET_FORMAT GROUP_CONCAT HIGH HNSW INPLACE INSTANT INTERNAL INVERTED
IO_READ_BANDWIDTH IO_WRITE_BANDWIDTH JSON_ARRAYAGG JSON_OBJECTAGG JSON_SUM_CRC32 LEADER LEADER_CONSTRAINTS LEARNER
LEARNERS LEARNER_CONSTRAINTS LOG LOW MAX MEDIUM METADATA MIN MODERATED MONITOR NEXT_ROW_ID NOW OPT_RULE_BLACKLIST
PLACEMENT PLAN PLAN_CACHE POSITION PREDICATE PRIMARY_REGION PRIORITY PROCESSED_KEYS QUERY_LIMIT READ_ONLY RECENT
REPLAY REPLAYER RESTORED_TS RU RUNNING RU_PER_SEC S3 SCHEDULE SCHEMA SCHEMAS SIMILAR SPEED STALENESS START_TIME
START_TS STD STDDEV STDDEV_POP STDDEV_SAMP STOP STRICT STRONG SUBDATE SUBSTR SUBSTRING SUM SURVIVAL_PREFERENCES
SWITCH_GROUP TARGET TASK_TYPES TIDB_JSON TIMESTAMPADD TIMESTAMPDIFF TLS TOKUDB_DEFAULT TOKUDB_FAST TOKUDB_LZMA
TOKUDB_QUICKLZ TOKUDB_SMALL TOKUDB_SNAPPY TOKUDB_UNCOMPRESSED TOKUDB_ZLIB TOKUDB_ZSTD TOP TRAFFIC TRIM
TRUE_CARD_COST UNLIMITED UNTIL_TS UTILIZATION_LIMIT VARIANCE VAR_POP VAR_SAMP VERBOSE VOTER VOTERS
VOTER_CONSTRAINTS WATCH COUNT AVG MID RANK ROW_NUMBER OVER WINDOW GROUPS LAG LEAD NTILE`

type ftKind uint8

const (
	ftEnd    ftKind = iota // the end of input: lex's last token
	ftWord                 // unquoted word, all lower case
	ftQIdent               // "quoted identifier"; val unescaped
	ftString               // '...'; val unescaped
	ftInt                  // digits only
	ftDec                  // digits '.' digits
	ftFloat                // with an exponent
	ftParam                // ?
	ftOp                   // operator or punctuation
)

// ftok is one token: 12 bytes, so a statement's tokens take one small
// allocation. id is the keyword (ftWord) or operator (ftOp) id, class a
// word's fastWords class (escaped or 0 for a string or quoted name),
// follow the precedence levels that act on the
// token when it follows an operand (fTerm ...).
type ftok struct {
	start, end int32
	kind       ftKind
	id         fid
	class      uint8
	follow     uint8
}

// ftok.follow's bits: which precedence level (the function of that name)
// looks at the token after an operand. A level whose bit the next token
// lacks returns its operand at once, instead of testing the token against
// each of its operators in turn (most operands are followed by ',', ')' or
// a clause keyword, and every operand passes through every level).
const (
	fTerm   uint8 = 1 << iota // term: * / % and DIV MOD (which it refuses)
	fBit                      // bitExpr: + - and DIV MOD (which it refuses)
	fPred                     // predicate: NOT IN BETWEEN LIKE REGEXP
	fBool                     // boolPri: IS and the comparisons
	fConcat                   // simpleExpr: || and COLLATE (which it refuses)
	fBitOr                    // bitOrExpr: |
)

// wordFollow and opFollow are ftok.follow by keyword and operator id.
var (
	wordFollow = [numKeywords]uint8{kwDiv: fTerm | fBit, kwMod: fTerm | fBit, kwNot: fPred, kwIn: fPred,
		kwBetween: fPred, kwLike: fPred, kwRegexp: fPred, kwIs: fBool, kwCollate: fConcat}
	opFollow = [opConcat + 1]uint8{opMul: fTerm, opDiv: fTerm, opMod: fTerm, opPlus: fBit, opMinus: fBit,
		opEQ: fBool, opLT: fBool, opLE: fBool, opNE: fBool, opNE2: fBool, opNullEQ: fBool, opGT: fBool, opGE: fBool,
		opBitOr: fBitOr, opConcat: fConcat}
)

// val is the token's text; for a string or quoted identifier its value.
func (fp *fastParser) val(t *ftok) string {
	if t.kind == ftString || t.kind == ftQIdent {
		if t.class != escaped {
			return fp.src[t.start+1 : t.end-1] // no doubled quote: the text between the quotes
		}
		v, _, _ := unquote(fp.src, int(t.start), fp.src[t.start])
		return v
	}
	return fp.src[t.start:t.end]
}

// escaped is ftok.class of a string or quoted name with a doubled quote,
// whose value val must build.
const escaped uint8 = 1

type fastParser struct {
	src  string
	toks []ftok
	pos  int
	// nLits, nOps and nNames estimate the statement's literals, binary
	// operators and column references (counted by lex: the sizes of the
	// slabs below); strBytes bounds its string literals' bytes.
	nLits, nOps, nNames, strBytes int
	between                       int // BETWEENs whose AND the tokens have not yet reached
	// The AST's nodes of the common kinds are cut from slabs, so that a
	// statement costs a few allocations, not one per node. A slab lives as
	// long as the AST, whose nodes all share one lifetime anyway.
	vals   slab[test_driver.ValueExpr]
	bins   slab[ast.BinaryOperationExpr]
	fields slab[ast.SelectField]
	cols   slab[colRef]
	// strs holds the bytes of the string literals' values (Datum keeps a
	// []byte: one buffer for all of them instead of one copy each).
	strs []byte
}

// slab hands out zeroed T's from one backing array. The first array holds
// max(hint, 4) (hint: the lexer's estimate); when the estimate falls short,
// the next arrays are half as large as the last, at least 4.
type slab[T any] []T

func (s *slab[T]) next(hint int) *T {
	if len(*s) == cap(*s) {
		n := hint
		if cap(*s) > 0 {
			n = cap(*s) / 2
		}
		*s = make([]T, 0, max(n, 4))
	}
	*s = (*s)[:len(*s)+1]
	return &(*s)[len(*s)-1]
}

// colRef is a column reference and its name: one slab element.
type colRef struct {
	e ast.ColumnNameExpr
	n ast.ColumnName
}

func isWordStart(c byte) bool { return fastClass[c] == fcWord }
func isWordByte(c byte) bool  { return fastClass[c] == fcWord || fastClass[c] == fcDigit || c == '$' }

// Byte classes of the fast lexer (fastClass), so that it dispatches on one
// table load per token.
const (
	fcOther uint8 = iota
	fcSpace       // ' ' \n \t \r (TiDB's lexer skips \v \f too; the fast path declines them)
	fcWord        // a-z _: a word's start
	fcDigit       // 0-9
	fcQuote       // ' "
	fcParam       // ?
)

// fastClass is built once and only read.
var fastClass = func() (t [256]uint8) {
	for _, c := range []byte(" \n\t\r") {
		t[c] = fcSpace
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = fcWord
	}
	t['_'] = fcWord
	for c := '0'; c <= '9'; c++ {
		t[c] = fcDigit
	}
	t['\''], t['"'], t['?'] = fcQuote, fcQuote, fcParam
	return t
}()

// lex splits the rewritten text into tokens, the last of them an ftEnd at
// len(src) (so that the parser's peeks need no bounds test of their own);
// false for anything the subset does not cover (upper-case or non-ASCII
// words, comments, hex literals, backquotes, ...), which TiDB then handles.
func (fp *fastParser) lex() bool {
	s := fp.src
	if len(s) > math.MaxInt32 {
		return false
	}
	if cap(fp.toks) < len(s)/2+8 {
		fp.toks = make([]ftok, 0, len(s)/2+8)
	}
	fp.between = 0
	if !fp.lexRange(0, len(s)) {
		return false
	}
	fp.toks = append(fp.toks, ftok{kind: ftEnd, start: int32(len(s)), end: int32(len(s))})
	return true
}

// lexRange appends the tokens of fp.src[from:to] (the whole text for lex,
// a run of text the rewrite wrote for fromSource), false for anything the
// subset does not cover or a token running past to.
func (fp *fastParser) lexRange(from, to int) bool {
	s := fp.src
	for i := from; i < to; {
		c := s[i]
		switch fastClass[c] {
		case fcSpace:
			i++
			continue
		case fcWord:
			j := i + 1
			for j < to && isWordByte(s[j]) {
				j++
			}
			if !fp.pushWord(i, j, wordHash(s[i:j])) {
				return false
			}
			i = j
			continue
		case fcDigit:
			j := i
			for j < to && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			kind := ftInt
			if j < to && s[j] == '.' {
				j++
				if j >= to || s[j] < '0' || s[j] > '9' {
					return false
				}
				for j < to && s[j] >= '0' && s[j] <= '9' {
					j++
				}
				kind = ftDec
			}
			if j < to && (s[j] == 'e' || s[j] == 'E') {
				j++
				if j < to && (s[j] == '+' || s[j] == '-') {
					j++
				}
				if j >= to || s[j] < '0' || s[j] > '9' {
					return false
				}
				for j < to && s[j] >= '0' && s[j] <= '9' {
					j++
				}
				kind = ftFloat
			}
			if !fp.pushNumber(i, j, kind) {
				return false
			}
			i = j
			continue
		case fcQuote:
			val, j, ok := unquote(s[:to], i, c)
			if !ok || c == '"' && val == "" || !fp.pushQuoted(i, j, len(val) != j-i-2) {
				return false
			}
			i = j
			continue
		case fcParam:
			fp.toks = append(fp.toks, ftok{kind: ftParam, start: int32(i), end: int32(i + 1)})
			i++
			continue
		}
		n, ok := fp.pushOp(i)
		if !ok || i+n > to {
			return false
		}
		i += n
	}
	return true
}

// maybeColumn reports whether a name at token k may start a column
// reference, for the estimate of nNames: not when it follows AS, '.',
// FROM, JOIN or another name (an alias). A name before '(' is not one
// either; lex checks that when it reads the '('.
func (fp *fastParser) maybeColumn(k int) bool {
	if k == 0 {
		return true
	}
	p := &fp.toks[k-1]
	switch p.kind {
	case ftWord:
		if p.id == kwNone {
			return p.class == wordHard
		}
		return p.id != kwAs && p.id != kwFrom && p.id != kwJoin
	case ftOp:
		return p.id != opDot
	}
	return true
}

// lexOp reads the operator or punctuation at the start of s: its id and
// length, opNone for anything outside the subset (a "--" comment, << >>,
// a lone ! or |, ...).
func lexOp(s string) (fid, int) {
	switch s[0] {
	case '(':
		return opLParen, 1
	case ')':
		return opRParen, 1
	case ',':
		return opComma, 1
	case '.':
		return opDot, 1
	case '*':
		return opMul, 1
	case '+':
		return opPlus, 1
	case '/':
		return opDiv, 1
	case '%':
		return opMod, 1
	case '=':
		return opEQ, 1
	case '-':
		if strings.HasPrefix(s, "--") {
			return opNone, 0 // a comment to TiDB
		}
		return opMinus, 1
	case '<':
		switch {
		case strings.HasPrefix(s, "<=>"):
			return opNullEQ, 3
		case strings.HasPrefix(s, "<="):
			return opLE, 2
		case strings.HasPrefix(s, "<>"):
			return opNE, 2
		case strings.HasPrefix(s, "<<"):
			return opNone, 0
		}
		return opLT, 1
	case '>':
		switch {
		case strings.HasPrefix(s, ">="):
			return opGE, 2
		case strings.HasPrefix(s, ">>"):
			return opNone, 0
		}
		return opGT, 1
	case '!':
		if strings.HasPrefix(s, "!=") {
			return opNE2, 2
		}
	case '|':
		if strings.HasPrefix(s, "||") {
			return opConcat, 2
		}
		if !strings.HasPrefix(s, "|/") {
			return opBitOr, 1
		}
	}
	return opNone, 0
}

// unquote reads a q-quoted literal starting at s[i] (doubled q escapes q;
// no backslash escapes: NO_BACKSLASH_ESCAPES). It returns the value and the
// offset after the closing quote. A literal with a NUL or non-UTF-8 byte is
// refused (TiDB's lexer treats those specially).
func unquote(s string, i int, q byte) (string, int, bool) {
	j := i + 1
	start := j
	var b []byte
	for j < len(s) {
		c := s[j]
		if c == q {
			if j+1 < len(s) && s[j+1] == q {
				if b == nil {
					b = make([]byte, 0, 16)
				}
				b = append(b, s[start:j+1]...)
				j += 2
				start = j
				continue
			}
			if b == nil {
				return s[i+1 : j], j + 1, true
			}
			return string(append(b, s[start:j]...)), j + 1, true
		}
		if c == 0 || c == '\\' && q == '"' {
			return "", 0, false
		}
		if c >= 0x80 {
			// TiDB replaces invalid UTF-8 in names; leave such text to it.
			r, n := utf8.DecodeRuneInString(s[j:])
			if r == utf8.RuneError && n <= 1 {
				return "", 0, false
			}
			j += n
			continue
		}
		j++
	}
	return "", 0, false
}

// peek is the next token, the ftEnd token at the end of input (the parser
// never moves past it: it only steps over tokens it has recognised).
func (fp *fastParser) peek() *ftok {
	return &fp.toks[fp.pos]
}

// peekAt is the token k after the next one (ftEnd past the end).
func (fp *fastParser) peekAt(k int) *ftok {
	return &fp.toks[min(fp.pos+k, len(fp.toks)-1)]
}

// isWord reports whether the next token is the keyword kw.
func (fp *fastParser) isWord(kw fid) bool {
	t := fp.peek()
	return t.kind == ftWord && t.id == kw
}

// isOp reports whether the next token is the operator op.
func (fp *fastParser) isOp(op fid) bool {
	t := fp.peek()
	return t.kind == ftOp && t.id == op
}

func (fp *fastParser) acceptWord(kw fid) bool {
	if fp.isWord(kw) {
		fp.pos++
		return true
	}
	return false
}

func (fp *fastParser) acceptOp(op fid) bool {
	if fp.isOp(op) {
		fp.pos++
		return true
	}
	return false
}

// ident accepts an identifier: a quoted one, or a word TiDB reads as an
// identifier here. A word next to a '.' always is one (TiDB's lexer checks
// that); soft says the position also takes TiDB's unreserved keywords (a
// column or table name, an alias after AS), unless '(' or a string follows,
// which could make the word the start of special syntax (DATE '..', f(..)).
func (fp *fastParser) ident(soft bool) (ast.CIStr, bool) {
	t := fp.peek()
	switch t.kind {
	case ftQIdent:
		fp.pos++
		return ast.NewCIStr(fp.val(t)), true
	case ftWord:
		if t.class != 0 && !fp.qualified(t) {
			if t.class == wordHard || !soft {
				return ast.CIStr{}, false
			}
			if n := fp.peekAt(1); n.kind == ftString || n.kind == ftOp && n.id == opLParen {
				return ast.CIStr{}, false
			}
		}
		fp.pos++
		return fp.word(t), true
	}
	return ast.CIStr{}, false
}

// uintVal is strconv.ParseUint(fp.val(t), 10, 64) of an ftInt token (digits
// only), computed in place when it has at most 19 digits (below 1e19, so it
// cannot overflow): most integer literals are short, and ParseUint's
// generality cost more than the literal's node.
func (fp *fastParser) uintVal(t *ftok) (uint64, bool) {
	s := fp.src[t.start:t.end]
	if len(s) > 19 {
		n, err := strconv.ParseUint(s, 10, 64)
		return n, err == nil
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		n = n*10 + uint64(s[i]-'0')
	}
	return n, true
}

// word is the name of a word token: the lexer's words are all lower case,
// so it is ast.NewCIStr's result without its strings.ToLower scan.
func (fp *fastParser) word(t *ftok) ast.CIStr {
	w := fp.src[t.start:t.end]
	return ast.CIStr{O: w, L: w}
}

// qualified reports whether a '.' immediately follows the word or precedes
// it (spaces allowed), where TiDB's lexer never returns a keyword.
func (fp *fastParser) qualified(t *ftok) bool {
	if int(t.end) < len(fp.src) && fp.src[t.end] == '.' {
		return true
	}
	for i := t.start - 1; i >= 0; i-- {
		if fp.src[i] != ' ' {
			return fp.src[i] == '.'
		}
	}
	return false
}

// implicitAlias reports whether the next token can be an alias without AS.
func (fp *fastParser) implicitAlias() bool {
	t := fp.peek()
	return t.kind == ftQIdent || t.kind == ftWord && t.class == 0
}

// endOffset is TiDB's parser.endOffset: the offset of token k, less the
// whitespace before it (len(src) at the end of input).
func (fp *fastParser) endOffset(k int) int {
	off := fp.tokStart(k)
	for off > 0 && isFastSpace(fp.src[off-1]) {
		off--
	}
	return off
}

func isFastSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

// tokStart is the offset of token k (len(src) at the end of input), TiDB's
// lookahead offset.
func (fp *fastParser) tokStart(k int) int {
	return int(fp.toks[k].start) // ftEnd's is len(src)
}

func (fp *fastParser) selectStmt() (*ast.SelectStmt, bool) {
	if !fp.acceptWord(kwSelect) {
		return nil, false
	}
	// The statement's one-per-query nodes come in one allocation (they
	// share the AST's lifetime); unused ones cost only their bytes.
	a := &struct {
		st      ast.SelectStmt
		opts    ast.SelectStmtOpts
		fields  ast.FieldList
		from    ast.TableRefsClause
		group   ast.GroupByClause
		having  ast.HavingClause
		order   ast.OrderByClause
		limit   ast.Limit
		fieldPs [4]*ast.SelectField
	}{}
	opts := &a.opts
	opts.SQLCache = true
	if fp.acceptWord(kwDistinct) {
		opts.Distinct = true
	}
	st := &a.st
	st.SelectStmtOpts, st.Distinct, st.Kind = opts, opts.Distinct, ast.SelectStmtKindSelect
	fields := a.fieldPs[:0]
	for {
		f, ok := fp.field()
		if !ok {
			return nil, false
		}
		fields = append(fields, f)
		if !fp.acceptOp(opComma) {
			break
		}
	}
	a.fields.Fields = fields
	st.Fields = &a.fields
	if fp.isWord(kwFrom) {
		fromTok := fp.pos
		fp.pos++
		refs, ok := fp.tableRefs()
		if !ok {
			return nil, false
		}
		a.from.TableRefs = refs
		st.From = &a.from
		if last := fields[len(fields)-1]; last.Expr != nil && last.AsName.O == "" {
			last.SetText(utf8Encoding, fp.src[last.Offset:fp.endOffset(fromTok)])
		}
	}
	if fp.acceptWord(kwWhere) {
		e, ok := fp.expr()
		if !ok {
			return nil, false
		}
		st.Where = e
	}
	if items, ok := fp.byClause(kwGroup); !ok {
		return nil, false
	} else if items != nil {
		a.group.Items = items
		st.GroupBy = &a.group
	}
	if st.From == nil && (st.Where != nil || st.GroupBy != nil) && fp.isWord(kwHaving) {
		// Without FROM, TiDB's grammar takes HAVING only right after the
		// select list (SelectStmtBasic): left to it, for its error.
		return nil, false
	}
	if fp.acceptWord(kwHaving) {
		e, ok := fp.expr()
		if !ok {
			return nil, false
		}
		a.having.Expr = e
		st.Having = &a.having
	}
	if items, ok := fp.byClause(kwOrder); !ok {
		return nil, false
	} else if items != nil {
		a.order.Items = items
		st.OrderBy = &a.order
	}
	if fp.acceptWord(kwLimit) {
		count, ok := fp.limitOption()
		if !ok {
			return nil, false
		}
		a.limit.Count = count
		st.Limit = &a.limit
		if fp.acceptWord(kwOffset) {
			off, ok := fp.limitOption()
			if !ok {
				return nil, false
			}
			st.Limit.Offset = off
		}
	}
	return st, true
}

// field is one select-list item: *, t.*, or an expression with an optional
// alias. Its Offset and text follow TiDB's FieldList rule: the text runs to
// the next token (the ',' or the clause keyword), trimmed.
func (fp *fastParser) field() (*ast.SelectField, bool) {
	start := fp.tokStart(fp.pos)
	if fp.acceptOp(opMul) {
		return &ast.SelectField{Offset: start, WildCard: &ast.WildCardField{}}, true
	}
	if dot, star := fp.peekAt(1), fp.peekAt(2); dot.kind == ftOp && dot.id == opDot && star.kind == ftOp && star.id == opMul {
		name, ok := fp.ident(true)
		if !ok {
			return nil, false
		}
		fp.pos += 2
		return &ast.SelectField{Offset: start, WildCard: &ast.WildCardField{Table: name}}, true
	}
	e, ok := fp.expr()
	if !ok {
		return nil, false
	}
	f := fp.fields.next(4)
	f.Expr, f.Offset = e, start
	if fp.acceptWord(kwAs) {
		t := fp.peek()
		if t.kind == ftEnd || t.kind == ftString {
			return nil, false
		}
		name, ok := fp.ident(true)
		if !ok {
			return nil, false
		}
		f.AsName = name
	} else if fp.implicitAlias() {
		name, _ := fp.ident(false)
		f.AsName = name
	}
	f.SetNoBackslashEscapes(true)
	f.SetText(utf8Encoding, strings.TrimSpace(fp.src[start:fp.tokStart(fp.pos)]))
	return f, true
}

func (fp *fastParser) limitOption() (ast.ExprNode, bool) {
	t := fp.peek()
	switch t.kind {
	case ftInt:
		n, ok := fp.uintVal(t)
		if !ok {
			return nil, false
		}
		fp.pos++
		return fp.value(n), true
	case ftParam:
		fp.pos++
		p := ast.NewParamMarkerExpr(int(t.start))
		p.SetFlag(ast.FlagHasParamMarker)
		return p, true
	}
	return nil, false
}

func (fp *fastParser) param(t *ftok) ast.ExprNode {
	p := ast.NewParamMarkerExpr(int(t.start))
	mark(p, int(t.start), ast.FlagHasParamMarker)
	return p
}

// byClause reads "word BY list" (GROUP BY, ORDER BY): nil items and ok
// true when the next token is not word, ok false on anything outside the
// subset.
func (fp *fastParser) byClause(word fid) ([]*ast.ByItem, bool) {
	if !fp.acceptWord(word) {
		return nil, true
	}
	if !fp.acceptWord(kwBy) {
		return nil, false
	}
	return fp.byList()
}

func (fp *fastParser) byList() ([]*ast.ByItem, bool) {
	n := fp.listLen()
	items := make([]*ast.ByItem, 0, n)
	var store slab[ast.ByItem] // the items, one allocation
	for {
		e, ok := fp.expr()
		if !ok {
			return nil, false
		}
		if v, ok := e.(ast.ValueExpr); ok {
			if n, ok := v.GetValue().(int64); ok {
				p := &ast.PositionExpr{N: int(n)}
				p.SetFlag(ast.FlagHasReference)
				e = p
			}
		}
		item := store.next(n)
		item.Expr, item.NullOrder = e, true
		if fp.acceptWord(kwAsc) {
			item.NullOrder = false
		} else if fp.acceptWord(kwDesc) {
			item.NullOrder = false
			item.Desc = true
		}
		items = append(items, item)
		if !fp.acceptOp(opComma) {
			return items, true
		}
	}
}

// tableRefs is FROM's list: t [, t ...], each a chain of joins.
func (fp *fastParser) tableRefs() (*ast.Join, bool) {
	first, ok := fp.tableRef()
	if !ok {
		return nil, false
	}
	j, isJoin := first.(*ast.Join)
	if !isJoin {
		j = &ast.Join{Left: first}
	}
	for fp.acceptOp(opComma) {
		r, ok := fp.tableRef()
		if !ok {
			return nil, false
		}
		j = &ast.Join{Left: j, Right: r, Tp: ast.CrossJoin}
	}
	return j, true
}

// tableRef is a table followed by [INNER|LEFT [OUTER]|RIGHT [OUTER]] JOIN
// t ON cond, left-associated. A join without ON goes to TiDB (its cross
// join re-associates).
func (fp *fastParser) tableRef() (ast.ResultSetNode, bool) {
	var left ast.ResultSetNode
	ts, ok := fp.tableFactor()
	if !ok {
		return nil, false
	}
	left = ts
	for {
		tp := ast.CrossJoin
		switch {
		case fp.isWord(kwJoin):
			fp.pos++
		case fp.isWord(kwInner):
			fp.pos++
			if !fp.acceptWord(kwJoin) {
				return nil, false
			}
		case fp.isWord(kwLeft), fp.isWord(kwRight):
			tp = ast.LeftJoin
			if fp.isWord(kwRight) {
				tp = ast.RightJoin
			}
			fp.pos++
			fp.acceptWord(kwOuter)
			if !fp.acceptWord(kwJoin) {
				return nil, false
			}
		default:
			return left, true
		}
		right, ok := fp.tableFactor()
		if !ok || !fp.acceptWord(kwOn) {
			return nil, false
		}
		cond, ok := fp.expr()
		if !ok {
			return nil, false
		}
		left = &ast.Join{Left: left, Right: right, Tp: tp, On: &ast.OnCondition{Expr: cond}}
	}
}

func (fp *fastParser) tableFactor() (*ast.TableSource, bool) {
	name, ok := fp.ident(true)
	if !ok {
		return nil, false
	}
	// one allocation for the source and its name
	ref := &struct {
		ts ast.TableSource
		tn ast.TableName
	}{}
	tn := &ref.tn
	tn.Name = name
	if fp.isOp(opDot) {
		fp.pos++
		n2, ok := fp.ident(true)
		if !ok {
			return nil, false
		}
		tn.Schema, tn.Name = name, n2
	}
	tn.PartitionNames = []ast.CIStr{}
	tn.IndexHints = []*ast.IndexHint{}
	ts := &ref.ts
	ts.Source = tn
	if fp.acceptWord(kwAs) {
		alias, ok := fp.ident(true)
		if !ok {
			return nil, false
		}
		ts.AsName = alias
	} else if fp.implicitAlias() {
		alias, _ := fp.ident(false)
		ts.AsName = alias
	}
	return ts, true
}

// Expressions, by TiDB's precedence (parser.y): OR < XOR < AND < NOT <
// BETWEEN < comparison/IS/LIKE/IN < | < & < + - < * / % < unary < ||
// (PIPES_AS_CONCAT's concat sits at SimpleExpr level, so it binds tighter
// than every binary operator but looser than unary minus). Every node gets
// OriginTextPosition = the offset of its first token, as TiDB's reductions
// set it.

func (fp *fastParser) expr() (ast.ExprNode, bool) {
	first := fp.pos // its offset is read only for a node built here
	l, ok := fp.andExpr()
	if !ok {
		return nil, false
	}
	for fp.isWord(kwOr) {
		fp.pos++
		r, ok := fp.andExpr()
		if !ok {
			return nil, false
		}
		l = fp.bin(opcode.LogicOr, l, r, fp.tokStart(first))
	}
	if fp.isWord(kwXor) {
		return nil, false
	}
	return l, true
}

// bin is a BinaryOperationExpr cut from a slab sized by the lexer's
// operator count (see value).
func (fp *fastParser) bin(op opcode.Op, l, r ast.ExprNode, start int) ast.ExprNode {
	b := fp.bins.next(fp.nOps)
	b.Op, b.L, b.R = op, l, r
	mark(b, start, l.GetFlag()|r.GetFlag())
	return b
}

// value is ast.NewValueExpr (test_driver's newValueExpr, step by step),
// with the node cut from a slab sized by the lexer's literal count: one
// allocation per statement instead of one per literal.
func (fp *fastParser) value(v any) ast.ValueExpr {
	ve := fp.newValue(v)
	ve.SetValue(v)
	return ve
}

// intValue and stringValue are value for the commonest literals without
// boxing them into an interface that escapes (Datum.SetValue keeps it): an
// allocation each saved. stringValue's bytes come from strs, sized by the
// lexer's count.
func (fp *fastParser) intValue(n int64) ast.ValueExpr {
	ve := fp.newValue(n)
	ve.SetInt64(n)
	return ve
}

func (fp *fastParser) stringValue(s string) ast.ValueExpr {
	ve := fp.newValue(s)
	if fp.strs == nil {
		// never nil, even for '': TiDB's []byte(s) is not nil either
		fp.strs = make([]byte, 0, fp.strBytes)
	}
	k := len(fp.strs)
	fp.strs = append(fp.strs, s...)
	ve.SetBytesAsString(fp.strs[k:len(fp.strs):len(fp.strs)])
	return ve
}

// newValue is a value node from the slab, its type set as for typeOf (which
// does not escape: DefaultTypeForValue only reads it).
func (fp *fastParser) newValue(typeOf any) *test_driver.ValueExpr {
	ve := fp.vals.next(fp.nLits)
	test_driver.DefaultTypeForValue(typeOf, &ve.Type, mysql.DefaultCharset, mysql.DefaultCollationName)
	ve.SetProjectionOffset(-1)
	return ve
}

func (fp *fastParser) andExpr() (ast.ExprNode, bool) {
	first := fp.pos // its offset is read only for a node built here
	l, ok := fp.notExpr()
	if !ok {
		return nil, false
	}
	for fp.isWord(kwAnd) {
		fp.pos++
		r, ok := fp.notExpr()
		if !ok {
			return nil, false
		}
		l = fp.bin(opcode.LogicAnd, l, r, fp.tokStart(first))
	}
	return l, true
}

func (fp *fastParser) notExpr() (ast.ExprNode, bool) {
	if fp.isWord(kwNot) {
		start := fp.tokStart(fp.pos)
		fp.pos++
		if fp.isWord(kwExists) {
			return nil, false
		}
		v, ok := fp.notExpr()
		if !ok {
			return nil, false
		}
		u := &ast.UnaryOperationExpr{Op: opcode.Not, V: v}
		mark(u, start, v.GetFlag())
		return u, true
	}
	return fp.boolPri()
}

// boolPri is TiDB's BoolPri: left-associative comparisons and IS [NOT] NULL
// over predicates.
func (fp *fastParser) boolPri() (ast.ExprNode, bool) {
	first := fp.pos // its offset is read only for a node built here
	l, ok := fp.predicate()
	if !ok {
		return nil, false
	}
	for {
		t := fp.peek()
		if t.follow&fBool == 0 {
			return l, true
		}
		if t.kind == ftWord && t.id == kwIs {
			fp.pos++
			not := fp.acceptWord(kwNot)
			if !fp.acceptWord(kwNull) {
				return nil, false // IS TRUE / FALSE / UNKNOWN
			}
			n := &ast.IsNullExpr{Expr: l, Not: not}
			mark(n, fp.tokStart(first), l.GetFlag())
			l = n
			continue
		}
		if t.kind != ftOp {
			return l, true
		}
		var op opcode.Op
		switch t.id {
		case opGE:
			op = opcode.GE
		case opGT:
			op = opcode.GT
		case opLE:
			op = opcode.LE
		case opLT:
			op = opcode.LT
		case opNE, opNE2:
			op = opcode.NE
		case opEQ:
			op = opcode.EQ
		case opNullEQ:
			op = opcode.NullEQ
		default:
			return l, true
		}
		fp.pos++
		if fp.isWord(kwAny) || fp.isWord(kwSome) || fp.isWord(kwAll) {
			return nil, false
		}
		r, ok := fp.predicate()
		if !ok {
			return nil, false
		}
		l = fp.bin(op, l, r, fp.tokStart(first))
	}
}

// predicate is TiDB's PredicateExpr: [NOT] IN (list), [NOT] BETWEEN,
// [NOT] LIKE, [NOT] REGEXP over a bit expression.
func (fp *fastParser) predicate() (ast.ExprNode, bool) {
	first := fp.pos // its offset is read only for a node built here
	l, ok := fp.bitOrExpr()
	if !ok {
		return nil, false
	}
	if fp.peek().follow&fPred == 0 {
		return l, true
	}
	not := false
	save := fp.pos
	if fp.acceptWord(kwNot) {
		not = true
	}
	switch {
	case fp.isWord(kwIn):
		fp.pos++
		if !fp.acceptOp(opLParen) || fp.isWord(kwSelect) || fp.isWord(kwWith) || fp.isWord(kwValues) || fp.isWord(kwTable) {
			return nil, false
		}
		list, ok := fp.exprList()
		if !ok || !fp.acceptOp(opRParen) {
			return nil, false
		}
		n := &ast.PatternInExpr{Expr: l, Not: not, List: list}
		mark(n, fp.tokStart(first), l.GetFlag()|flagsOf(list))
		return n, true
	case fp.isWord(kwBetween):
		fp.pos++
		lo, ok := fp.bitOrExpr()
		if !ok || !fp.acceptWord(kwAnd) {
			return nil, false
		}
		hi, ok := fp.predicate()
		if !ok {
			return nil, false
		}
		n := &ast.BetweenExpr{Expr: l, Left: lo, Right: hi, Not: not}
		mark(n, fp.tokStart(first), l.GetFlag()|lo.GetFlag()|hi.GetFlag())
		return n, true
	case fp.isWord(kwLike):
		fp.pos++
		pat, ok := fp.simpleExpr()
		if !ok || fp.isWord(kwEscape) {
			return nil, false
		}
		n := &ast.PatternLikeOrIlikeExpr{Expr: l, Pattern: pat, Not: not, Escape: '\\', IsLike: true}
		mark(n, fp.tokStart(first), l.GetFlag()|pat.GetFlag())
		return n, true
	case fp.isWord(kwRegexp):
		fp.pos++
		pat, ok := fp.simpleExpr()
		if !ok {
			return nil, false
		}
		n := &ast.PatternRegexpExpr{Expr: l, Pattern: pat, Not: not}
		mark(n, fp.tokStart(first), l.GetFlag()|pat.GetFlag())
		return n, true
	}
	if not {
		fp.pos = save
		return nil, false // NOT after an operand: something this subset does not know
	}
	return l, true
}

func (fp *fastParser) exprList() ([]ast.ExprNode, bool) {
	list := make([]ast.ExprNode, 0, fp.listLen())
	for {
		e, ok := fp.expr()
		if !ok {
			return nil, false
		}
		list = append(list, e)
		if !fp.acceptOp(opComma) {
			return list, true
		}
	}
}

// listLenScan bounds how many tokens listLen looks at. Its answer is only a
// capacity hint, and an unbounded scan from every nested list (pg__cast of
// pg__cast of ..., subqueries in subqueries) made deeply nested input
// quadratic: 5000 nested casts took seconds.
const listLenScan = 256

// listLen is the number of items of the comma-separated list at pos, up to
// the ')' that closes it, a clause keyword, the end of input or
// listLenScan tokens: the capacity exprList and byList start with.
func (fp *fastParser) listLen() int {
	n, depth := 1, 0
	toks := fp.toks[fp.pos:]
	if len(toks) > listLenScan {
		toks = toks[:listLenScan]
	}
	for _, t := range toks {
		if t.kind == ftWord && depth == 0 {
			switch t.id {
			case kwFrom, kwWhere, kwGroup, kwHaving, kwOrder, kwLimit, kwOffset:
				return n
			}
		}
		if t.kind != ftOp {
			continue
		}
		switch t.id {
		case opLParen:
			depth++
		case opRParen:
			if depth == 0 {
				return n
			}
			depth--
		case opComma:
			if depth == 0 {
				n++
			}
		}
	}
	return n
}

// bitOrExpr is TiDB's BitExpr at its | level (left-associative, over
// bitExpr): the rewrite writes PostgreSQL's a || b as a | pg__pipes() | b
// (pipes.go).
func (fp *fastParser) bitOrExpr() (ast.ExprNode, bool) {
	first := fp.pos // its offset is read only for a node built here
	l, ok := fp.bitExpr()
	if !ok {
		return nil, false
	}
	for fp.peek().follow&fBitOr != 0 {
		fp.pos++
		r, ok := fp.bitExpr()
		if !ok {
			return nil, false
		}
		l = fp.bin(opcode.Or, l, r, fp.tokStart(first))
	}
	return l, true
}

// bitExpr is TiDB's BitExpr restricted to + - * / % (left-associative, two
// levels); & << >> ^ DIV MOD go to TiDB.
func (fp *fastParser) bitExpr() (ast.ExprNode, bool) {
	first := fp.pos // its offset is read only for a node built here
	l, ok := fp.term()
	if !ok {
		return nil, false
	}
	for {
		if fp.peek().follow&fBit == 0 {
			return l, true
		}
		var op opcode.Op
		switch {
		case fp.isOp(opPlus):
			op = opcode.Plus
		case fp.isOp(opMinus):
			op = opcode.Minus
		default:
			if fp.isWord(kwDiv) || fp.isWord(kwMod) {
				return nil, false
			}
			return l, true
		}
		fp.pos++
		if fp.isWord(kwInterval) {
			return nil, false
		}
		r, ok := fp.term()
		if !ok {
			return nil, false
		}
		l = fp.bin(op, l, r, fp.tokStart(first))
	}
}

func (fp *fastParser) term() (ast.ExprNode, bool) {
	first := fp.pos // its offset is read only for a node built here
	l, ok := fp.simpleExpr()
	if !ok {
		return nil, false
	}
	for {
		if fp.peek().follow&fTerm == 0 {
			return l, true
		}
		var op opcode.Op
		switch {
		case fp.isOp(opMul):
			op = opcode.Mul
		case fp.isOp(opDiv):
			op = opcode.Div
		case fp.isOp(opMod):
			op = opcode.Mod
		default:
			if fp.isWord(kwDiv) || fp.isWord(kwMod) {
				return nil, false
			}
			return l, true
		}
		fp.pos++
		r, ok := fp.simpleExpr()
		if !ok {
			return nil, false
		}
		l = fp.bin(op, l, r, fp.tokStart(first))
	}
}

// simpleExpr is TiDB's SimpleExpr: a unary expression, then || chains
// (concat).
func (fp *fastParser) simpleExpr() (ast.ExprNode, bool) {
	first := fp.pos // its offset is read only for a node built here
	l, ok := fp.unary()
	if !ok {
		return nil, false
	}
	if fp.peek().follow&fConcat == 0 {
		return l, true
	}
	for fp.isOp(opConcat) {
		fp.pos++
		r, ok := fp.unary()
		if !ok {
			return nil, false
		}
		// one allocation for the call and its arguments
		c := &struct {
			f    ast.FuncCallExpr
			args [2]ast.ExprNode
		}{args: [2]ast.ExprNode{l, r}}
		c.f.FnName, c.f.Args = ast.NewCIStr(ast.Concat), c.args[:]
		mark(&c.f, fp.tokStart(first), ast.FlagHasFunc|l.GetFlag()|r.GetFlag())
		l = &c.f
	}
	if fp.isWord(kwCollate) {
		return nil, false
	}
	return l, true
}

func (fp *fastParser) unary() (ast.ExprNode, bool) {
	t := fp.peek()
	if t.kind == ftOp && (t.id == opMinus || t.id == opPlus) {
		fp.pos++
		v, ok := fp.unary()
		if !ok {
			return nil, false
		}
		op := opcode.Minus
		if t.id == opPlus {
			op = opcode.Plus
		}
		u := &ast.UnaryOperationExpr{Op: op, V: v}
		mark(u, int(t.start), v.GetFlag())
		return u, true
	}
	return fp.primary()
}

func (fp *fastParser) primary() (ast.ExprNode, bool) {
	t := fp.peek()
	var v ast.ExprNode
	switch t.kind {
	case ftParam:
		fp.pos++
		return fp.param(t), true
	case ftString:
		fp.pos++
		if fp.peek().kind == ftString {
			return nil, false // adjacent literals concatenate in TiDB
		}
		v = fp.stringValue(fp.val(t))
	case ftInt:
		n, ok := fp.uintVal(t)
		if !ok {
			// beyond uint64: a decimal, as TiDB's lexer makes it (toInt)
			d, err := ast.NewDecimal(fp.val(t))
			if err != nil {
				return nil, false
			}
			fp.pos++
			v = fp.value(d)
			break
		}
		fp.pos++
		if n <= math.MaxInt64 {
			v = fp.intValue(int64(n))
		} else {
			v = fp.value(n)
		}
	case ftDec:
		d, err := ast.NewDecimal(fp.val(t))
		if err != nil {
			return nil, false
		}
		fp.pos++
		v = fp.value(d)
	case ftFloat:
		f, err := strconv.ParseFloat(fp.val(t), 64)
		if err != nil {
			return nil, false
		}
		fp.pos++
		v = fp.value(f)
	case ftOp:
		if t.id != opLParen {
			return nil, false
		}
		fp.pos++
		if fp.isWord(kwSelect) || fp.isWord(kwWith) || fp.isWord(kwValues) || fp.isWord(kwTable) || fp.isOp(opLParen) {
			return nil, false
		}
		innerStart := fp.tokStart(fp.pos)
		inner, ok := fp.expr()
		if !ok || !fp.isOp(opRParen) {
			return nil, false
		}
		// TiDB's '(' Expression ')' sets the inner expression's text to the
		// source up to the ')', trailing whitespace trimmed.
		// (The flag first: set before the text, it costs no allocation, and
		// the node ends up as TiDB's setNodeText leaves it.)
		if n, ok := inner.(interface{ SetNoBackslashEscapes(bool) }); ok {
			n.SetNoBackslashEscapes(true)
		}
		inner.SetText(utf8Encoding, fp.src[innerStart:fp.endOffset(fp.pos)])
		fp.pos++
		p := &ast.ParenthesesExpr{Expr: inner}
		mark(p, int(t.start), inner.GetFlag())
		return p, true
	case ftWord:
		switch t.id {
		case kwNull:
			fp.pos++
			v = fp.value(nil)
		case kwTrue, kwFalse:
			fp.pos++
			v = fp.value(t.id == kwTrue)
		default:
			return fp.identExpr()
		}
	case ftQIdent:
		return fp.identExpr()
	default:
		return nil, false
	}
	v.SetOriginTextPosition(int(t.start))
	return v, true
}

// identExpr is a column reference (a, t.a, s.t.a), a function call f(..)
// or an aggregate count/sum/avg/min/max(..).
func (fp *fastParser) identExpr() (ast.ExprNode, bool) {
	t := fp.peek()
	start := int(t.start)
	if n := fp.peekAt(1); t.kind == ftWord && n.kind == ftOp && n.id == opLParen {
		switch t.id {
		case kwCount, kwSum, kwAvg, kwMin, kwMax:
			return fp.aggregate()
		}
		if t.class != 0 {
			return nil, false
		}
		name := fp.word(t)
		fp.pos += 2 // name (
		args := []ast.ExprNode{}
		if !fp.isOp(opRParen) {
			if fp.isWord(kwDistinct) || fp.isWord(kwAll) {
				return nil, false
			}
			var ok bool
			if args, ok = fp.exprList(); !ok {
				return nil, false
			}
		}
		if !fp.acceptOp(opRParen) || fp.isWord(kwOver) || fp.isWord(kwFilter) {
			return nil, false
		}
		f := &ast.FuncCallExpr{FnName: name, Args: args}
		mark(f, start, ast.FlagHasFunc|flagsOf(args))
		return f, true
	}
	var parts [3]ast.CIStr
	n := 0
	for {
		name, ok := fp.ident(true)
		if !ok {
			return nil, false
		}
		parts[n] = name
		n++
		if !fp.isOp(opDot) {
			break
		}
		if n == 3 {
			return nil, false
		}
		fp.pos++
	}
	if fp.isOp(opLParen) {
		return nil, false // qualified function name
	}
	ref := fp.cols.next(fp.nNames)
	col := &ref.n
	switch n {
	case 1:
		col.Name = parts[0]
	case 2:
		col.Table, col.Name = parts[0], parts[1]
	case 3:
		col.Schema, col.Table, col.Name = parts[0], parts[1], parts[2]
	}
	c := &ref.e
	c.Name = col
	mark(c, start, ast.FlagHasReference)
	return c, true
}

func (fp *fastParser) aggregate() (ast.ExprNode, bool) {
	t := fp.peek()
	fp.pos += 2 // name (
	agg := &ast.AggregateFuncExpr{F: fp.val(t)}
	if t.id == kwCount && fp.isOp(opMul) {
		fp.pos++
		one := fp.value(1)
		agg.Args = []ast.ExprNode{one}
	} else {
		if fp.acceptWord(kwDistinct) {
			agg.Distinct = true
		} else if fp.isWord(kwAll) || fp.isWord(kwDistinctrow) {
			return nil, false
		}
		e, ok := fp.expr()
		if !ok {
			return nil, false
		}
		if fp.isOp(opComma) {
			return nil, false
		}
		agg.Args = []ast.ExprNode{e}
	}
	if !fp.acceptOp(opRParen) || fp.isWord(kwOver) || fp.isWord(kwFilter) {
		return nil, false
	}
	mark(agg, int(t.start), ast.FlagHasAggregateFunc|flagsOf(agg.Args))
	return agg, true
}
