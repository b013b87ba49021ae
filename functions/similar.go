package functions

import (
	"context"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// SQL regular expressions and overlay:
//
//   - similar_to_escape(pattern [, escape]): PostgreSQL's translation of a
//     SIMILAR TO pattern into an ARE (regexp.c's similar_escape_internal,
//     character for character); x SIMILAR TO p ESCAPE e is bound as
//     x ~ similar_to_escape(p, e) (sql's rewrite), as in PostgreSQL 15.
//   - substring(text, pattern): the part of text the ARE matches, or its
//     first parenthesised subexpression's.
//   - substring(text, pattern, escape) (substring(x SIMILAR p ESCAPE e) and
//     substring(x FROM p FOR e)): the part between the two escape-double-
//     quote separators: PostgreSQL's ARE (first part {1,1}?, the middle
//     one {1,1}, so greediness is mixed), matched by the backtracker
//     (regexbt.go) as PostgreSQL matches it.
//   - overlay(x, y, from [, for]) for text and bytea: x's first from-1
//     characters (bytes), y, then x from position from+for on.

func similarFuncs() []*Func {
	// each kernel call keeps the last pattern compiled (reCache): a
	// column's constant pattern compiles once a batch, not once a row
	sub := func() func(ctx context.Context, v []any) (any, error) {
		var c reCache
		return func(ctx context.Context, v []any) (any, error) {
			re, _, err := c.get(v[1].(string), "", "substring", false)
			if err != nil {
				return nil, err
			}
			return firstGroup(ctx, re, v[0].(string))
		}
	}
	similarSub := func() func(ctx context.Context, v []any) (any, error) {
		var c reCache
		return func(ctx context.Context, v []any) (any, error) {
			src, err := similarPattern(v[1].(string), v[2].(string), true)
			if err != nil {
				return nil, err
			}
			re, _, err := c.get(src, "", "substring", false)
			if err != nil {
				return nil, err
			}
			return firstGroup(ctx, re, v[0].(string))
		}
	}
	return []*Func{
		{Name: "similar_to_escape", Args: []types.T{tText}, Ret: tText, Strict: true,
			Kernel: rowFunc(tText, true, func(_ context.Context, v []any) (any, error) {
				return similarPattern(v[0].(string), `\`, true)
			})},
		{Name: "similar_to_escape", Args: []types.T{tText, tText}, Ret: tText, Strict: true,
			Kernel: rowFunc(tText, true, func(_ context.Context, v []any) (any, error) {
				return similarPattern(v[0].(string), v[1].(string), true)
			})},
		{Name: "substring", Args: []types.T{tText, tText}, Ret: tText, Strict: true, Kernel: cachingRowFunc(sub)},
		{Name: "substring", Args: []types.T{tText, tText, tText}, Ret: tText, Strict: true, Kernel: cachingRowFunc(similarSub)},
		{Name: "overlay", Args: []types.T{tText, tText, tInt4, tInt4}, Ret: tText, Strict: true, Kernel: rowFunc(tText, true, overlayKernel(false))},
		{Name: "overlay", Args: []types.T{tText, tText, tInt4}, Ret: tText, Strict: true, Kernel: rowFunc(tText, true, overlayKernel(false))},
		{Name: "overlay", Args: []types.T{tBytes, tBytes, tInt4, tInt4}, Ret: tBytes, Strict: true, Kernel: rowFunc(tBytes, true, overlayKernel(true))},
		{Name: "overlay", Args: []types.T{tBytes, tBytes, tInt4}, Ret: tBytes, Strict: true, Kernel: rowFunc(tBytes, true, overlayKernel(true))},
	}
}

// cachingRowFunc is rowFunc (text, strict) over a body made afresh for
// each kernel call, so that what it keeps (a compiled pattern) belongs to
// that call alone.
func cachingRowFunc(body func() func(ctx context.Context, v []any) (any, error)) Kernel {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		return rowFunc(tText, true, body())(ctx, mem, args, n)
	}
}

// firstGroup is the text re matches in s (its first subexpression's when
// it has one), or nil.
func firstGroup(ctx context.Context, re *areRE, s string) (any, error) {
	m, err := re.firstMatch(ctx, s)
	if m == nil || err != nil {
		return nil, err
	}
	if re.numSubexp() > 0 {
		if m[2] < 0 {
			return nil, nil
		}
		return s[m[2]:m[3]], nil
	}
	return s[m[0]:m[1]], nil
}

// similarPattern translates a SIMILAR TO pattern with escape character
// esc ("" for none) into an ARE, PostgreSQL's similar_to_escape result.
func similarPattern(pat, esc string, hasEsc bool) (string, error) {
	if hasEsc && esc != "" && utf8.RuneCountInString(esc) != 1 {
		return "", sqlerr.New(sqlerr.Code("22025"), "invalid escape string").WithHint("Escape string must be empty or one character.")
	}
	var e rune = -1
	if esc != "" {
		e, _ = utf8.DecodeRuneInString(esc)
	}
	var b strings.Builder
	b.WriteString("^(?:")
	afterEscape, inClass := false, false
	nquotes := 0
	for _, c := range pat {
		switch {
		case afterEscape:
			if c == '"' && !inClass {
				switch nquotes {
				case 0:
					b.WriteString("){1,1}?(")
				case 1:
					b.WriteString("){1,1}(?:")
				default:
					return "", sqlerr.New(sqlerr.Code("2200C"), "SQL regular expression may not contain more than two escape-double-quote separators")
				}
				nquotes++
			} else {
				b.WriteByte('\\')
				b.WriteRune(c)
			}
			afterEscape = false
		case c == e:
			afterEscape = true
		case inClass:
			if c == '\\' {
				b.WriteByte('\\')
			}
			b.WriteRune(c)
			if c == ']' {
				inClass = false
			}
		case c == '[':
			b.WriteRune(c)
			inClass = true
		case c == '%':
			b.WriteString(".*")
		case c == '_':
			b.WriteByte('.')
		case c == '(':
			b.WriteString("(?:")
		case c == '\\' || c == '.' || c == '^' || c == '$':
			b.WriteByte('\\')
			b.WriteRune(c)
		case c == '*' || c == '+' || c == '?' || c == '}':
			b.WriteRune(c)
		default:
			b.WriteRune(c)
		}
	}
	b.WriteString(")$")
	return b.String(), nil
}

// overlayKernel is overlay(x placing y from sp [for sl]) over text
// (characters) or bytea (bytes).
func overlayKernel(bytea bool) func(context.Context, []any) (any, error) {
	return func(_ context.Context, v []any) (any, error) {
		var x, y []rune
		var xb, yb []byte
		n := 0
		if bytea {
			xb, yb = v[0].([]byte), v[1].([]byte)
			n = len(yb)
		} else {
			x, y = []rune(v[0].(string)), []rune(v[1].(string))
			n = len(y)
		}
		sp := v[2].(int64)
		sl := int64(n)
		if len(v) > 3 {
			sl = v[3].(int64)
		}
		if sp-1 < 0 { // a negative count only moves where the rest of x resumes, as PostgreSQL computes it
			return nil, sqlerr.New(sqlerr.Code("22011"), "negative substring length not allowed")
		}
		end := sp + sl
		if end > math.MaxInt32 {
			return nil, types.IntOutOfRange(types.Int32Type)
		}
		if bytea {
			size := int64(len(xb))
			head := xb[:min(sp-1, size)]
			tail := xb[min(max(end-1, 0), size):]
			out := make([]byte, 0, len(head)+len(yb)+len(tail))
			return append(append(append(out, head...), yb...), tail...), nil
		}
		size := int64(len(x))
		head := x[:min(sp-1, size)]
		tail := x[min(max(end-1, 0), size):]
		return string(head) + string(y) + string(tail), nil
	}
}
