package functions

import (
	"context"
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
		{Name: "like", Args: []types.T{tText, tText}, Ret: tBool, Strict: true, Kernel: likeKernel(false)},
		{Name: "like", Args: []types.T{tText, tText, tText}, Ret: tBool, Strict: true, Kernel: likeKernel(false)},
		{Name: "ilike", Args: []types.T{tText, tText}, Ret: tBool, Strict: true, Kernel: likeKernel(true)},
		{Name: "ilike", Args: []types.T{tText, tText, tText}, Ret: tBool, Strict: true, Kernel: likeKernel(true)},
		{Name: "like_escape", Args: []types.T{tText, tText}, Ret: tText, Strict: true, Kernel: strictStringKernel(likeEscapeRow)},
		// bytea's LIKE (bytealike): the same rules over bytes, _ one byte
		{Name: "like", Args: []types.T{tBytes, tBytes}, Ret: tBool, Strict: true, Kernel: likeBytesKernel},
		{Name: "like", Args: []types.T{tBytes, tBytes, tText}, Ret: tBool, Strict: true, Kernel: likeBytesKernel},
		{Name: "like_escape", Args: []types.T{tBytes, tBytes}, Ret: tBytes, Strict: true, Kernel: rawRowFunc(tBytes, likeEscapeBytesRow)},
		{Name: "regex_match", Args: []types.T{tText, tText, tBool}, Ret: tBool, Strict: true, Kernel: regexKernel},
		{Name: "regexp_like", Args: []types.T{tText, tText}, Ret: tBool, Strict: true, Kernel: regexKernel},
	}
}

// Pattern tokens: a byte value to match literally, or one of these.
const (
	tokAnyChar int16 = -1 // _
	tokAnySeq  int16 = -2 // %
	// tokDanglingEscape is an escape character at the very end of the
	// pattern. PostgreSQL reports 22025 only when matching reaches it with
	// text left to match, so the error is raised lazily, here too.
	tokDanglingEscape int16 = -3
)

// likePattern is a compiled LIKE pattern.
type likePattern struct {
	toks []int16
	// segs are the pieces between %s, for the general case: the first is
	// anchored at the start unless the pattern begins with %, the last at
	// the end unless it ends with %, the ones between are found leftmost
	// (greedy leftmost placement is optimal for %-only wildcards).
	segs                   []likeSeg
	anchorStart, anchorEnd bool
	dangling               bool // has tokDanglingEscape: use the backtracking matcher
	// bytewise is bytea's pattern: _ is one byte, not one UTF-8
	// character, and a % steps over bytes
	bytewise bool
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
// escape).
func compileLike(p string, esc rune) *likePattern {
	return compilePattern(p, esc, false)
}

// compileBytesLike compiles a bytea LIKE pattern, whose escape is a byte
// (-1: none).
func compileBytesLike(p string, esc rune) *likePattern {
	return compilePattern(p, esc, true)
}

// compilePattern compiles a pattern read by UTF-8 characters or, when
// bytewise, by bytes.
func compilePattern(p string, esc rune, bytewise bool) *likePattern {
	next := func(i int) (rune, int) {
		if bytewise {
			return rune(p[i]), 1
		}
		return utf8.DecodeRuneInString(p[i:])
	}
	toks := make([]int16, 0, len(p))
	for i := 0; i < len(p); {
		r, size := next(i)
		switch {
		case esc >= 0 && r == esc:
			i += size
			if i >= len(p) {
				toks = append(toks, tokDanglingEscape)
				continue
			}
			_, size = next(i)
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
	lp := &likePattern{toks: toks, kind: likeGeneral, bytewise: bytewise}
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
	if lp.kind == likeGeneral && !bytewise {
		lp.compileSegments() // (bytewise patterns take matchTokens)
	}
	return lp
}

// likeSeg is a %-free piece of a pattern: literal bytes and _.
type likeSeg struct {
	toks    []int16
	literal string // the bytes when the piece has no _
	pure    bool   // no _: strings.Index finds it
	chars   int    // characters the piece matches
}

func (lp *likePattern) compileSegments() {
	lp.anchorStart = len(lp.toks) > 0 && lp.toks[0] != tokAnySeq
	lp.anchorEnd = len(lp.toks) > 0 && lp.toks[len(lp.toks)-1] != tokAnySeq
	var cur []int16
	flush := func() {
		seg := likeSeg{toks: cur, pure: true}
		var lit []byte
		for _, t := range cur {
			switch {
			case t == tokAnyChar:
				seg.pure = false
				seg.chars++
			case t == tokDanglingEscape:
				lp.dangling = true
			default:
				lit = append(lit, byte(t))
				if byte(t)&0xC0 != 0x80 { // not a UTF-8 continuation byte
					seg.chars++
				}
			}
		}
		seg.literal = string(lit)
		lp.segs = append(lp.segs, seg)
		cur = nil
	}
	for i, t := range lp.toks {
		if t == tokAnySeq {
			if i > 0 {
				flush()
			}
			continue
		}
		cur = append(cur, t)
	}
	if len(cur) > 0 || len(lp.toks) == 0 {
		flush()
	}
}

// matchSegAt matches seg at byte offset at of s; it returns the offset
// after the match.
func matchSegAt(s string, at int, seg *likeSeg) (int, bool) {
	if seg.pure {
		if strings.HasPrefix(s[at:], seg.literal) {
			return at + len(seg.literal), true
		}
		return 0, false
	}
	for _, t := range seg.toks {
		if at >= len(s) {
			return 0, false
		}
		if t == tokAnyChar {
			at += charLen(s, at)
			continue
		}
		if byte(t) != s[at] {
			return 0, false
		}
		at++
	}
	return at, true
}

// findSeg finds the leftmost match of seg at or after from.
func findSeg(s string, from int, seg *likeSeg) (int, int, bool) {
	if seg.pure {
		i := strings.Index(s[from:], seg.literal)
		if i < 0 {
			return 0, 0, false
		}
		return from + i, from + i + len(seg.literal), true
	}
	for p := from; p <= len(s); {
		if end, ok := matchSegAt(s, p, seg); ok {
			return p, end, true
		}
		if p == len(s) {
			break
		}
		p += charLen(s, p)
	}
	return 0, 0, false
}

// matchSegments is the general matcher: linear in len(s) per piece.
func (lp *likePattern) matchSegments(s string) bool {
	segs := lp.segs
	pos := 0
	if lp.anchorStart {
		end, ok := matchSegAt(s, 0, &segs[0])
		if !ok {
			return false
		}
		pos = end
		segs = segs[1:]
		if len(segs) == 0 {
			return !lp.anchorEnd || pos == len(s)
		}
	}
	var last *likeSeg
	if lp.anchorEnd {
		last = &segs[len(segs)-1]
		segs = segs[:len(segs)-1]
	}
	for i := range segs {
		_, end, ok := findSeg(s, pos, &segs[i])
		if !ok {
			return false
		}
		pos = end
	}
	if last == nil {
		return true
	}
	// the last piece matches a fixed number of characters at the very end
	start := len(s)
	for k := 0; k < last.chars; k++ {
		if start <= pos {
			return false
		}
		_, size := utf8.DecodeLastRuneInString(s[:start])
		start -= size
	}
	if start < pos {
		return false
	}
	end, ok := matchSegAt(s, start, last)
	return ok && end == len(s)
}

func errDanglingEscape() error {
	return sqlerr.New(sqlerr.InvalidEscapeSequence, "LIKE pattern must not end with escape character")
}

func (lp *likePattern) match(s string) (bool, error) {
	switch lp.kind {
	case likeExact:
		return s == lp.literal, nil
	case likePrefix:
		return strings.HasPrefix(s, lp.literal), nil
	case likeSuffix:
		return strings.HasSuffix(s, lp.literal), nil
	case likeContains:
		return strings.Contains(s, lp.literal), nil
	case likeAny:
		return true, nil
	}
	if lp.dangling || lp.bytewise {
		return matchTokens(s, lp.toks, lp.bytewise)
	}
	return lp.matchSegments(s), nil
}

// matchTokens is the iterative wildcard match with backtracking to the
// last %: linear for most patterns, O(len(s)*len(p)) at worst, never
// exponential. Literal tokens compare bytes; _ and % advance by whole
// UTF-8 characters, so matches always stay on character boundaries, or by
// single bytes when bytewise.
func matchTokens(s string, p []int16, bytewise bool) (bool, error) {
	step := charLen
	if bytewise {
		step = func(string, int) int { return 1 }
	}
	si, pi := 0, 0
	starPi, starSi := -1, 0
	for si < len(s) {
		if pi < len(p) {
			switch t := p[pi]; {
			case t == tokDanglingEscape:
				return false, errDanglingEscape()
			case t >= 0 && byte(t) == s[si]:
				si++
				pi++
				continue
			case t == tokAnyChar:
				si += step(s, si)
				pi++
				continue
			case t == tokAnySeq:
				if danglingAfterAnySeq(s, si, p, pi, step) {
					return false, errDanglingEscape()
				}
				starPi, starSi = pi, si
				pi++
				continue
			}
		}
		if starPi < 0 {
			return false, nil
		}
		starSi += step(s, starSi)
		si, pi = starSi, starPi+1
	}
	for pi < len(p) && p[pi] == tokAnySeq {
		pi++
	}
	return pi == len(p), nil
}

// danglingAfterAnySeq reports whether the % at p[pi], met at s[si:],
// raises PostgreSQL's dangling-escape error (like_match.c's MatchText):
// after a % it skips the %s and consumes a character per _ that follow
// (giving up when the text runs out), then looks at the next pattern
// character before it scans the text for it, so '\' LIKE '%_\' fails
// though the text ends before the escape.
func danglingAfterAnySeq(s string, si int, p []int16, pi int, step func(string, int) int) bool {
	for pi++; pi < len(p); pi++ {
		switch p[pi] {
		case tokAnySeq:
		case tokAnyChar:
			if si >= len(s) {
				return false
			}
			si += step(s, si)
		case tokDanglingEscape:
			return true
		default:
			return false
		}
	}
	return false
}

func charLen(s string, i int) int {
	if s[i] < utf8.RuneSelf {
		return 1
	}
	_, size := utf8.DecodeRuneInString(s[i:])
	return size
}

// errInvalidEscape is 22019 for an ESCAPE longer than one character (or
// byte), as in PostgreSQL.
func errInvalidEscape() error {
	return sqlerr.New(sqlerr.InvalidEscapeSequence, "invalid escape string").
		WithHint("Escape string must be empty or one character.")
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
	return 0, errInvalidEscape()
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
		defer out.release()
		var cache likeCache
		for i := 0; i < n; i++ {
			if anyNull(args, i) {
				out.setNull(i)
				continue
			}
			pat, esc := ss[1].Value(i), `\`
			if len(ss) > 2 {
				esc = ss[2].Value(i)
			}
			p, err := cache.get(pat, esc, func() (*likePattern, error) {
				e, err := escapeRune(esc)
				if err != nil {
					return nil, err
				}
				if fold {
					return compileLike(strings.ToLower(pat), e), nil
				}
				return compileLike(pat, e), nil
			})
			if err != nil {
				return nil, err
			}
			s := ss[0].Value(i)
			if fold {
				s = strings.ToLower(s)
			}
			m, err := p.match(s)
			if err != nil {
				return nil, err
			}
			out.set(i, m)
		}
		return out.finish(), nil
	}
}

// likeBytesKernel is bytea's like(x, pattern [, escape]): the pattern's
// bytes are matched as bytes (PostgreSQL's bytealike), the escape (one
// byte, or none) given as text by the binder's ESCAPE. The compiled
// pattern is reused while consecutive rows carry the same one.
func likeBytesKernel(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
	if err := checkArity(args, n); err != nil {
		return nil, err
	}
	for k := range 2 {
		if _, ok := args[k].(*array.Binary); !ok {
			return nil, badArg(k, args[k], "binary")
		}
	}
	out := newBoolOut(mem, n, anyNullIn(args))
	defer out.release()
	var cache likeCache
	for i := 0; i < n; i++ {
		if anyNull(args, i) {
			out.setNull(i)
			continue
		}
		// the bytes as strings without copies: pat and the cache live for
		// this call only, while the arrays do
		pat, esc := stringOf(byteArg(args, 1, i)), `\`
		if len(args) > 2 {
			esc = strArg(args, 2, i)
		}
		p, err := cache.get(pat, esc, func() (*likePattern, error) {
			e, err := escapeByte(esc)
			if err != nil {
				return nil, err
			}
			return compileBytesLike(pat, e), nil
		})
		if err != nil {
			return nil, err
		}
		m, err := p.match(stringOf(byteArg(args, 0, i)))
		if err != nil {
			return nil, err
		}
		out.set(i, m)
	}
	return out.finish(), nil
}

// likeCache keeps a LIKE kernel's compiled pattern while consecutive rows
// carry the same pattern and escape (a constant pattern compiles once).
type likeCache struct {
	p        *likePattern
	pat, esc string
}

// get is the pattern pat with escape esc, compiled by compile when it is
// not the one kept.
func (c *likeCache) get(pat, esc string, compile func() (*likePattern, error)) (*likePattern, error) {
	if c.p == nil || pat != c.pat || esc != c.esc {
		p, err := compile()
		if err != nil {
			return nil, err
		}
		c.p, c.pat, c.esc = p, pat, esc
	}
	return c.p, nil
}

// escapeByte reads bytea LIKE's ESCAPE: one byte, or empty for none;
// anything longer is 22019 as in PostgreSQL.
func escapeByte(e string) (rune, error) {
	switch len(e) {
	case 0:
		return -1, nil
	case 1:
		return rune(e[0]), nil
	}
	return 0, errInvalidEscape()
}

// likeEscapeRow is like_escape(pattern, escape), PostgreSQL's
// do_like_escape: the pattern rewritten to use backslash as its escape,
// which is what like() expects. An empty escape doubles every backslash
// (no escaping at all); a backslash escape leaves the pattern as it is.
func likeEscapeRow(ss []*array.String, i int, buf []byte) ([]byte, error) {
	p := ss[0].Value(i)
	e, err := escapeRune(ss[1].Value(i))
	if err != nil {
		return nil, err
	}
	return appendLikeEscaped(buf, p, e, false), nil
}

// likeEscapeBytesRow is like_escape(bytea, bytea), likeEscapeRow over
// bytes: the escape is one byte (or none).
func likeEscapeBytesRow(args []arrow.Array, i int) (any, error) {
	p := byteArg(args, 0, i)
	e, err := escapeByte(string(byteArg(args, 1, i)))
	if err != nil {
		return nil, err
	}
	return appendLikeEscaped(make([]byte, 0, len(p)+4), string(p), e, true), nil
}

// appendLikeEscaped appends pattern p rewritten from escape character e
// (-1: none) to the backslash that like() reads, PostgreSQL's
// do_like_escape: no escape doubles every backslash, a backslash escape
// leaves p as it is, another escape becomes a backslash and a backslash a
// doubled one. p is read by UTF-8 characters or, when bytewise (bytea's
// like_escape), by bytes.
func appendLikeEscaped(buf []byte, p string, e rune, bytewise bool) []byte {
	switch e {
	case -1:
		return append(buf, strings.ReplaceAll(p, `\`, `\\`)...)
	case '\\':
		return append(buf, p...)
	}
	afterEscape := false
	for k := 0; k < len(p); {
		r, size := rune(p[k]), 1
		if !bytewise {
			r, size = utf8.DecodeRuneInString(p[k:])
		}
		switch {
		case r == e && !afterEscape:
			buf = append(buf, '\\')
			afterEscape = true
		case r == '\\':
			buf = append(buf, '\\')
			if !afterEscape {
				buf = append(buf, '\\')
			}
			afterEscape = false
		default:
			buf = append(buf, p[k:k+size]...)
			afterEscape = false
		}
		k += size
	}
	return buf
}

// regexKernel is the `~` / `~*` helper regex_match(text, pattern,
// caseInsensitive) and regexp_like(text, pattern). Patterns are
// PostgreSQL AREs translated for Go's RE2 by compileARE (regex.go), which
// refuses with 0A000 what RE2 cannot match as PostgreSQL does. An invalid
// pattern is 2201B (the message text after "invalid regular expression: "
// is Go's, not PostgreSQL's).
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
	defer out.release()
	var re *areRE
	cachedSrc, cachedICase := "", false
	for i := 0; i < n; i++ {
		if anyNull(args, i) {
			out.setNull(i)
			continue
		}
		src := ss[1].Value(i)
		icase := ci != nil && ci.Value(i)
		if re == nil || src != cachedSrc || icase != cachedICase {
			re, err = compileARE(src, areFlags{icase: icase})
			if err != nil {
				return nil, err
			}
			cachedSrc, cachedICase = src, icase
		}
		ok, err := re.match(ctx, ss[0].Value(i))
		if err != nil {
			return nil, err
		}
		out.set(i, ok)
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
