package functions

import (
	"context"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

func patternFuncs() []*Func {
	return []*Func{
		{Name: "like", Args: []types.T{text, text}, Ret: boolT, Strict: true, Kernel: likeKernel(false)},
		{Name: "like", Args: []types.T{text, text, text}, Ret: boolT, Strict: true, Kernel: likeKernel(false)},
		{Name: "ilike", Args: []types.T{text, text}, Ret: boolT, Strict: true, Kernel: likeKernel(true)},
		{Name: "ilike", Args: []types.T{text, text, text}, Ret: boolT, Strict: true, Kernel: likeKernel(true)},
		{Name: "like_escape", Args: []types.T{text, text}, Ret: text, Strict: true, Kernel: strictStringKernel(likeEscapeRow)},
		{Name: "regex_match", Args: []types.T{text, text, boolT}, Ret: boolT, Strict: true, Kernel: regexKernel},
		{Name: "regexp_like", Args: []types.T{text, text}, Ret: boolT, Strict: true, Kernel: regexKernel},
	}
}

// Pattern tokens: a byte value to match literally, or one of these.
const (
	tokAnyChar int16 = -1 // _
	tokAnySeq  int16 = -2 // %
)

// likePattern is a compiled LIKE pattern.
type likePattern struct {
	toks []int16
	// kind selects a fast path: exact, prefix, suffix, contains or general.
	kind    likeKind
	literal string
}

type likeKind uint8

const (
	likeGeneral likeKind = iota
	likeExact
	likePrefix   // lit%
	likeSuffix   // %lit
	likeContains // %lit%
	likeAny      // % alone
)

// compileLike compiles a LIKE pattern with escape character esc (-1: no
// escape). A pattern ending in the escape character is 22025, as in
// PostgreSQL.
func compileLike(p string, esc rune) (*likePattern, error) {
	toks := make([]int16, 0, len(p))
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRuneInString(p[i:])
		switch {
		case esc >= 0 && r == esc:
			i += size
			if i >= len(p) {
				return nil, sqlerr.New(sqlerr.InvalidEscapeSequence, "LIKE pattern must not end with escape character")
			}
			_, size = utf8.DecodeRuneInString(p[i:])
			for k := 0; k < size; k++ {
				toks = append(toks, int16(p[i+k]))
			}
		case r == '%':
			if len(toks) == 0 || toks[len(toks)-1] != tokAnySeq { // %% is %
				toks = append(toks, tokAnySeq)
			}
		case r == '_':
			toks = append(toks, tokAnyChar)
		default:
			for k := 0; k < size; k++ {
				toks = append(toks, int16(p[i+k]))
			}
		}
		i += size
	}
	lp := &likePattern{toks: toks, kind: likeGeneral}
	// classify: literals with % only at the ends get substring fast paths
	lead := len(toks) > 0 && toks[0] == tokAnySeq
	trail := len(toks) > 0 && toks[len(toks)-1] == tokAnySeq
	inner := toks
	if lead {
		inner = inner[1:]
	}
	if trail && len(inner) > 0 {
		inner = inner[:len(inner)-1]
	}
	literal := true
	for _, t := range inner {
		if t < 0 {
			literal = false
			break
		}
	}
	if literal {
		b := make([]byte, len(inner))
		for i, t := range inner {
			b[i] = byte(t)
		}
		lp.literal = string(b)
		switch {
		case lead && len(toks) == 1:
			lp.kind = likeAny
		case lead && trail:
			lp.kind = likeContains
		case lead:
			lp.kind = likeSuffix
		case trail:
			lp.kind = likePrefix
		default:
			lp.kind = likeExact
		}
	}
	return lp, nil
}

func (lp *likePattern) match(s string) bool {
	switch lp.kind {
	case likeExact:
		return s == lp.literal
	case likePrefix:
		return strings.HasPrefix(s, lp.literal)
	case likeSuffix:
		return strings.HasSuffix(s, lp.literal)
	case likeContains:
		return strings.Contains(s, lp.literal)
	case likeAny:
		return true
	}
	return matchTokens(s, lp.toks)
}

// matchTokens is the iterative wildcard match with backtracking to the
// last %: linear for most patterns, O(len(s)*len(p)) at worst, never
// exponential. Literal tokens compare bytes; _ and % advance by whole
// UTF-8 characters, so matches always stay on character boundaries.
func matchTokens(s string, p []int16) bool {
	si, pi := 0, 0
	starPi, starSi := -1, 0
	for si < len(s) {
		if pi < len(p) {
			switch t := p[pi]; {
			case t >= 0 && byte(t) == s[si]:
				si++
				pi++
				continue
			case t == tokAnyChar:
				si += charLen(s, si)
				pi++
				continue
			case t == tokAnySeq:
				starPi, starSi = pi, si
				pi++
				continue
			}
		}
		if starPi < 0 {
			return false
		}
		starSi += charLen(s, starSi)
		si, pi = starSi, starPi+1
	}
	for pi < len(p) && p[pi] == tokAnySeq {
		pi++
	}
	return pi == len(p)
}

func charLen(s string, i int) int {
	if s[i] < utf8.RuneSelf {
		return 1
	}
	_, size := utf8.DecodeRuneInString(s[i:])
	return size
}

// escapeRune reads LIKE's ESCAPE argument: one character, or empty for
// none; anything longer is 22019 as in PostgreSQL.
func escapeRune(e string) (rune, error) {
	switch utf8.RuneCountInString(e) {
	case 0:
		return -1, nil
	case 1:
		r, _ := utf8.DecodeRuneInString(e)
		return r, nil
	}
	return 0, sqlerr.New(sqlerr.Code("22019"), "invalid escape string").
		WithHint("Escape string must be empty or one character.")
}

// likeKernel is like(text, pattern [, escape]) and ilike. ILIKE lowers
// both sides with Unicode simple case mapping, as PostgreSQL does under a
// UTF-8 locale. The compiled pattern is reused while consecutive rows
// carry the same pattern (the constant-pattern case compiles once).
func likeKernel(fold bool) Kernel {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		if err := checkArity(args, n); err != nil {
			return nil, err
		}
		ss, err := strArgs(args)
		if err != nil {
			return nil, err
		}
		out := newBoolOut(mem, n, anyNullIn(args))
		var cached *likePattern
		cachedPat, cachedEsc := "", ""
		for i := 0; i < n; i++ {
			if anyNull(args, i) {
				out.setNull(i)
				continue
			}
			pat, esc := ss[1].Value(i), `\`
			if len(ss) > 2 {
				esc = ss[2].Value(i)
			}
			if cached == nil || pat != cachedPat || esc != cachedEsc {
				e, err := escapeRune(esc)
				if err != nil {
					return nil, err
				}
				p := pat
				if fold {
					p = strings.ToLower(p)
				}
				if cached, err = compileLike(p, e); err != nil {
					return nil, err
				}
				cachedPat, cachedEsc = pat, esc
			}
			s := ss[0].Value(i)
			if fold {
				s = strings.ToLower(s)
			}
			out.set(i, cached.match(s))
		}
		return out.finish(), nil
	}
}

// likeEscapeRow is like_escape(pattern, escape): the pattern rewritten to
// use backslash as its escape, which is what like() expects.
func likeEscapeRow(ss []*array.String, i int, buf []byte) ([]byte, error) {
	p := ss[0].Value(i)
	e, err := escapeRune(ss[1].Value(i))
	if err != nil {
		return nil, err
	}
	for k := 0; k < len(p); {
		r, size := utf8.DecodeRuneInString(p[k:])
		switch {
		case e >= 0 && r == e:
			k += size
			if k >= len(p) {
				return nil, sqlerr.New(sqlerr.InvalidEscapeSequence, "LIKE pattern must not end with escape character")
			}
			r2, size2 := utf8.DecodeRuneInString(p[k:])
			if r2 == '%' || r2 == '_' || r2 == '\\' {
				buf = append(buf, '\\')
			}
			buf = append(buf, p[k:k+size2]...)
			k += size2
			continue
		case r == '\\':
			buf = append(buf, '\\', '\\')
		default:
			buf = append(buf, p[k:k+size]...)
		}
		k += size
	}
	return buf, nil
}

// regexKernel is the `~` / `~*` helper regex_match(text, pattern,
// caseInsensitive) and regexp_like(text, pattern). It uses Go's RE2
// syntax, which differs from PostgreSQL's ARE flavour: no back-references
// or lookaround, no \m \M \y word anchors, [[:<:]] is not supported, and
// embedded options use (?i) rather than (?i) prefixes with ***: — the
// common subset (classes, anchors, alternation, repetition, \d \s \w)
// behaves the same. An invalid pattern is 2201B.
func regexKernel(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
	if err := checkArity(args, n); err != nil {
		return nil, err
	}
	ss, err := strArgs(args[:2])
	if err != nil {
		return nil, err
	}
	var ci *array.Boolean
	if len(args) > 2 {
		b, ok := args[2].(*array.Boolean)
		if !ok {
			return nil, badArg(2, args[2], "bool")
		}
		ci = b
	}
	out := newBoolOut(mem, n, anyNullIn(args))
	var re *regexp.Regexp
	cachedSrc := ""
	for i := 0; i < n; i++ {
		if anyNull(args, i) {
			out.setNull(i)
			continue
		}
		src := ss[1].Value(i)
		if ci != nil && ci.Value(i) {
			src = "(?i)" + src
		}
		if re == nil || src != cachedSrc {
			re, err = regexp.Compile(src)
			if err != nil {
				return nil, sqlerr.New(sqlerr.InvalidRegularExpression, "invalid regular expression: %s", regexErrText(err))
			}
			cachedSrc = src
		}
		out.set(i, re.MatchString(ss[0].Value(i)))
	}
	return out.finish(), nil
}

func regexErrText(err error) string {
	if e, ok := err.(*syntax.Error); ok {
		return string(e.Code)
	}
	return err.Error()
}

func anyNullIn(args []arrow.Array) bool {
	for _, a := range args {
		if a.NullN() > 0 {
			return true
		}
	}
	return false
}
