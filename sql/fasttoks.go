package sql

import (
	"math"

	"github.com/pingcap/tidb/pkg/parser/charset"
)

// The fast path's tokens without a second lexer pass (issue 32: the
// lexing of one statement happens once). The fast parser reads the
// rewritten text, so its tokens must be those of that text; but nearly all
// of that text is the user's tokens copied (case-folded), which lexInto has
// already read. So the fast parser's tokens (ftok) are built from what the
// rewrite knows of its output:
//
//   - the plain shortcut (plain.go): the statement's own tokens, shifted by
//     the quotes its labels gained (fastSource.toks, .edits);
//   - the general rewrite: emit's marks (rwMark), one per copied token
//     (with the lexer's facts: kind, flags, word hash), per "?" marker,
//     and per run of text the rewrite itself wrote (pg__cast(, quoted
//     names, literals it re-spelled, ...). Only those runs, never the
//     user's text, go through the fast lexer (lexRange).
//
// The facts the fast lexer used to read from the bytes (a word's keyword
// class through its hash, a number's form, a literal's doubled quotes, the
// bytes it refused) come from token.flags and token.hash; the bytes right
// around a token (a quote or letter glued to a word, a digit after a
// number, an operator the fast lexer reads longer) are checked where the
// fast lexer checked them, so the tokens are exactly the ones it would
// make: TestFastTokensMatchLexer checks that over the corpus, and
// FuzzFastTokens on random input.

// fastSource is where the fast path takes a rewritten statement's tokens
// from. The zero fastSource has none: the fast lexer reads the text
// (fastStmt, the tests' reference).
type fastSource struct {
	// plain: Rewritten is plainRewrite's output for toks (the statement's
	// tokens in src), edits its edits (labels quoted, sorted by token).
	plain bool
	src   string
	toks  []token
	edits []int32
	// marks: emit's marks of the general rewrite's output.
	marks []rwMark
	// refused: the statement has a token the fast path refuses wherever
	// it stands (tfOddSpace: \f or \v in whitespace the rewrite copies).
	refused bool
}

// rwMark is one piece of the rewritten text as emit wrote it: a copied
// token with the lexer's facts of it, a "?" marker, or text the rewrite
// made (markText; consecutive runs joined).
type rwMark struct {
	start, end int32 // in the rewritten text
	hash       uint32
	kind       tokKind
	flags      tokFlags
	mark       uint8
}

const (
	markToken uint8 = iota + 1
	markParam
	markText
)

// fromSource fills fp.toks with the tokens of fp.src (the rewritten text)
// from fs instead of lexing it: false where the fast lexer would have
// declined (or the tokens cannot be told without it).
func (fp *fastParser) fromSource(fs *fastSource) bool {
	if len(fp.src) > math.MaxInt32 || fs.refused {
		return false
	}
	n := len(fs.toks) + len(fs.marks) + 8
	if cap(fp.toks) < n {
		fp.toks = make([]ftok, 0, n)
	}
	fp.between = 0
	if fs.plain {
		if !fp.fromPlain(fs) {
			return false
		}
	} else {
		for k := range fs.marks {
			m := &fs.marks[k]
			i, j := int(m.start), int(m.end)
			switch m.mark {
			case markToken:
				if !fp.pushToken(m.kind, m.flags, m.hash, i, j) {
					return false
				}
			case markParam:
				fp.toks = append(fp.toks, ftok{kind: ftParam, start: m.start, end: m.end})
			default:
				if !fp.hardBoundary(i) || !fp.hardBoundary(j) || !fp.lexRange(i, j) {
					return false
				}
			}
		}
	}
	fp.toks = append(fp.toks, ftok{kind: ftEnd, start: int32(len(fp.src)), end: int32(len(fp.src))})
	return true
}

// fromPlain is fromSource for the plain shortcut's output: the tokens at
// their offsets less the statement's start, each label after the quotes
// the labels before it gained.
func (fp *fastParser) fromPlain(fs *fastSource) bool {
	toks, edits := fs.toks, fs.edits
	base, shift, e := toks[0].start, 0, 0
	for k := range toks {
		t := &toks[k]
		i, j := t.start-base+shift, t.end-base+shift
		for e < len(edits) && int(edits[e]>>1) < k {
			e++
		}
		if e < len(edits) && int(edits[e]>>1) == k && edits[e]&1 != 0 {
			// a label: the word lower-cased between double quotes
			shift += 2
			if t.flags&tfNotFast != 0 {
				return false
			}
			fp.toks = append(fp.toks, ftok{kind: ftQIdent, start: int32(i), end: int32(j + 2)})
			continue
		}
		if !fp.pushToken(t.kind, t.flags, t.hash, i, j) {
			return false
		}
	}
	return true
}

// pushToken appends the ftok of a token the lexer read (kind, flags,
// hash) that stands at fp.src[i:j]: what the fast lexer makes of those
// bytes, or false where it declines.
func (fp *fastParser) pushToken(kind tokKind, flags tokFlags, hash uint32, i, j int) bool {
	if flags&(tfNotFast|tfOddSpace) != 0 {
		return false
	}
	s := fp.src
	switch kind {
	case tkIdent:
		if i > 0 && isWordByte(s[i-1]) {
			return false // glued to the text before it
		}
		return fp.pushWord(i, j, hash)
	case tkNumber:
		if i > 0 && (isWordByte(s[i-1]) || s[i-1] == '.') {
			return false
		}
		k := ftInt
		if flags&tfFloat != 0 {
			k = ftFloat
		} else if flags&tfDec != 0 {
			k = ftDec
		}
		return fp.pushNumber(i, j, k)
	case tkString:
		if s[i] != '\'' {
			return false // X'..', B'..', N'..'
		}
		return fp.pushQuoted(i, j, flags&tfDoubled != 0)
	case tkQIdent:
		return fp.pushQuoted(i, j, flags&tfDoubled != 0)
	case tkOp, tkPunct:
		if j-i == 1 && s[i] == '?' {
			fp.toks = append(fp.toks, ftok{kind: ftParam, start: int32(i), end: int32(j)})
			return true
		}
		n, ok := fp.pushOp(i)
		return ok && n == j-i
	}
	return false
}

// hardBoundary reports whether the fast lexer reads the same tokens from
// fp.src whether or not it stops at offset at: unless the bytes on either
// side could be read into one token (joinable).
func (fp *fastParser) hardBoundary(at int) bool {
	s := fp.src
	return at == 0 || at >= len(s) || !joinable(s[at-1], s[at])
}

// joinable reports whether the fast lexer may read a and b (adjacent
// bytes) into one token, or refuse a token for what follows it: a word or
// number going on (or a letter, quote or '.' it refuses after one, or an
// exponent's sign), a quote doubled, or two operator bytes (<=, ||, --).
// Whitespace, ( ) , and a '.' not after a digit always part tokens.
func joinable(a, b byte) bool {
	switch {
	case wordish(a):
		return wordish(b) || b == '\'' || b == '"' || b == '.' && isDigit(a) || (a == 'e' || a == 'E') && (b == '+' || b == '-')
	case a == '\'' || a == '"':
		return b == a
	}
	return opByte(a) && opByte(b)
}

// wordish: a byte of a word or number, or one the fast lexer refuses
// right after a word (an upper-case letter, a non-ASCII byte).
func wordish(c byte) bool { return isWordByte(c) || c >= 0x80 || c >= 'A' && c <= 'Z' }

// opByte: a byte that may be part of an operator of more than one byte.
func opByte(c byte) bool {
	switch c {
	case '<', '>', '=', '!', '|', '-', '+', '*', '/', '%', '&', '^', '~', '#', '@', ':', '?':
		return true
	}
	return false
}

// pushWord appends the word fp.src[i:j] (h its wordHash), false where the
// fast lexer declines it: a letter, quote or non-ASCII byte right after
// it, or a character set introducer (_utf8mb4 ...).
func (fp *fastParser) pushWord(i, j int, h uint32) bool {
	s := fp.src
	if j < len(s) && (s[j] >= 0x80 || s[j] >= 'A' && s[j] <= 'Z' || s[j] == '\'' || s[j] == '"' || isWordByte(s[j])) {
		return false
	}
	if s[i] == '_' {
		// TiDB reads _charset as a character set introducer, as
		// its lexer decides (aliases and unsupported sets included).
		if cs, _ := charset.GetCharsetInfo(s[i+1 : j]); cs != nil {
			return false
		}
	}
	info := fastWords.lookup(s[i:j], h)
	switch info.id {
	case kwNull, kwTrue, kwFalse:
		fp.nLits++
	case kwBetween:
		fp.between++
	case kwAnd:
		if fp.between > 0 {
			fp.between-- // BETWEEN's AND
		} else {
			fp.nOps++
		}
	case kwOr:
		fp.nOps++
	}
	if info.class != wordHard && info.id == kwNone && fp.maybeColumn(len(fp.toks)) {
		fp.nNames++ // a column, unless '(' follows (see pushOp)
	}
	fp.toks = append(fp.toks, ftok{kind: ftWord, start: int32(i), end: int32(j), id: info.id, class: info.class,
		follow: wordFollow[info.id]})
	return true
}

// pushNumber appends the number fp.src[i:j] of form k, false when a
// letter, digit, '.' or non-ASCII byte follows it.
func (fp *fastParser) pushNumber(i, j int, k ftKind) bool {
	s := fp.src
	if j < len(s) && (isWordByte(s[j]) || s[j] >= 0x80 || s[j] == '.' || s[j] >= 'A' && s[j] <= 'Z') {
		return false
	}
	fp.nLits++
	fp.toks = append(fp.toks, ftok{kind: k, start: int32(i), end: int32(j)})
	return true
}

// pushQuoted appends the string or quoted name fp.src[i:j] (doubled: it
// holds a doubled quote), false when the same quote stands right before
// or after it (the fast lexer would have read one literal).
func (fp *fastParser) pushQuoted(i, j int, doubled bool) bool {
	s := fp.src
	q := s[i]
	if i > 0 && s[i-1] == q || j < len(s) && s[j] == q {
		return false
	}
	var class uint8
	if doubled {
		class = escaped
	}
	kind := ftString
	if q == '"' {
		kind = ftQIdent
	} else {
		fp.nLits++
		fp.strBytes += j - i - 2 // the value's bytes or more: a capacity
	}
	fp.toks = append(fp.toks, ftok{kind: kind, start: int32(i), end: int32(j), class: class})
	return true
}

// pushOp appends the operator at fp.src[i] and returns its length; false
// for one outside the subset.
func (fp *fastParser) pushOp(i int) (int, bool) {
	id, n := lexOp(fp.src[i:])
	if id == opNone {
		return 0, false
	}
	if id > opDot && id != opConcat { // || is a call (concat)
		fp.nOps++
	}
	if id == opLParen && len(fp.toks) > 0 {
		if k := len(fp.toks) - 1; fp.toks[k].kind == ftWord && fp.toks[k].class != wordHard && fp.toks[k].id == kwNone &&
			fp.maybeColumn(k) {
			fp.nNames-- // a function name
		}
	}
	fp.toks = append(fp.toks, ftok{kind: ftOp, start: int32(i), end: int32(i + n), id: id, follow: opFollow[id]})
	return n, true
}
