package functions

import (
	"fmt"
	"strings"
	"unicode"
)

// reEmitter writes a parsed pattern (regexparse.go) in RE2's syntax: each
// literal as itself or as \x{..}, so that nothing PostgreSQL reads as a
// character becomes an RE2 operator (PostgreSQL's \b is a backspace and
// \B a backslash, RE2's are word boundaries), "." and [^...] without a
// newline under the n and p flags, the classes as the locale's ranges
// (regexclass.go).
type reEmitter struct {
	b  strings.Builder
	cf reCflags
	// widen: write a pattern whose language holds the pattern's (a
	// necessary condition for a match, as PostgreSQL's DFA pre-check
	// reads it): each back-reference as its group's contents, the
	// lookaround and word constraints as nothing, no group capturing
	widen  bool
	groups map[int]*reNode // widen: each group's contents, by number
}

// emitRE2 writes tree in RE2's syntax under compile flags cf, widened
// (see reEmitter.widen) or not.
func emitRE2(tree *reNode, cf reCflags, widen bool) (string, error) {
	e := &reEmitter{cf: cf, widen: widen, groups: map[int]*reNode{}}
	if cf&(cfNLAnch|cfICase) != 0 {
		e.b.WriteString("(?")
		if cf&cfNLAnch != 0 {
			e.b.WriteByte('m')
		}
		if cf&cfICase != 0 {
			e.b.WriteByte('i')
		}
		e.b.WriteByte(')')
	}
	if err := e.emit(tree); err != nil {
		return "", err
	}
	return e.b.String(), nil
}

// reNever matches no character (a literal beyond Unicode).
const reNever = `[^\x00-\x{10ffff}]`

func (e *reEmitter) emit(n *reNode) error {
	b := &e.b
	switch n.op {
	case opLit:
		if n.r > unicode.MaxRune || n.r < 0 {
			b.WriteString(reNever)
		} else {
			writeRE2Rune(b, n.r)
		}
	case opAny:
		if e.cf&cfNLStop != 0 {
			b.WriteString(`[^\n]`)
		} else {
			b.WriteString(`(?s:.)`)
		}
	case opBracket:
		return e.bracket(n.set)
	case opClass:
		body := e.classBody(escapeClass(n.r0()))
		if n.neg {
			b.WriteString("[^" + body + "]")
		} else {
			b.WriteString("[" + body + "]")
		}
	case opBOL:
		b.WriteByte('^')
	case opEOL:
		b.WriteByte('$')
	case opBOS:
		b.WriteString(`\A`)
	case opEOS:
		b.WriteString(`\z`)
	case opWordB, opNWordB, opWordStart, opWordEnd, opLook:
		if !e.widen {
			if n.op == opWordB {
				b.WriteString(`\b`)
			} else if n.op == opNWordB {
				b.WriteString(`\B`)
			} else {
				return errAREUnsupported("constraint")
			}
		}
	case opBackref:
		g := e.groups[n.group]
		if !e.widen {
			return errAREUnsupported("back-reference")
		} else if g == nil {
			b.WriteString(reNever)
			return nil
		}
		b.WriteString("(?:")
		if err := e.emit(g); err != nil {
			return err
		}
		b.WriteByte(')')
	case opGroup:
		if e.widen {
			if n.group > 0 {
				e.groups[n.group] = n.subs[0]
			}
			b.WriteString("(?:")
		} else if n.group > 0 {
			b.WriteByte('(')
		} else {
			b.WriteString("(?:")
		}
		if err := e.emit(n.subs[0]); err != nil {
			return err
		}
		b.WriteByte(')')
	case opConcat:
		for _, s := range n.subs {
			if err := e.emit(s); err != nil {
				return err
			}
		}
	case opAlt:
		b.WriteString("(?:")
		for i, s := range n.subs {
			if i > 0 {
				b.WriteByte('|')
			}
			if err := e.emit(s); err != nil {
				return err
			}
		}
		b.WriteByte(')')
	case opRepeat:
		b.WriteString("(?:")
		if err := e.emit(n.subs[0]); err != nil {
			return err
		}
		b.WriteByte(')')
		switch {
		case n.max == reDupInf && n.min == 0:
			b.WriteByte('*')
		case n.max == reDupInf && n.min == 1:
			b.WriteByte('+')
		case n.max == reDupInf:
			fmt.Fprintf(b, "{%d,}", n.min)
		case n.min == 0 && n.max == 1:
			b.WriteByte('?')
		case n.min == n.max:
			fmt.Fprintf(b, "{%d}", n.min)
		default:
			fmt.Fprintf(b, "{%d,%d}", n.min, n.max)
		}
		if n.pref < 0 {
			b.WriteByte('?')
		}
	default:
		return errAREUnsupported("construct")
	}
	return nil
}

// r0 is an escape class node's letter (d, s, w).
func (n *reNode) r0() rune { return rune(n.class[0]) }

// classBody is the RE2 bracket contents of a class name.
func (e *reEmitter) classBody(name string) string {
	body, _ := areClass(name, e.cf&cfICase != 0)
	return body
}

// bracket writes a bracket expression. A complemented escape inside a
// positive one (PostgreSQL 15 accepts [a\D]) becomes an alternative;
// inside a negated one it would need set intersection, which RE2 lacks.
func (e *reEmitter) bracket(s *reSet) error {
	items := e.bracketItems(s)
	b := &e.b
	if s.neg {
		if len(s.comps) > 0 {
			return errAREUnsupported(`\D, \S or \W inside a negated bracket expression`)
		}
		if e.cf&cfNLStop != 0 {
			items += `\n`
		}
		if items == "" {
			b.WriteString(`(?s:.)`)
			return nil
		}
		b.WriteString("[^" + items + "]")
		return nil
	}
	alts := []string{}
	if items != "" {
		alts = append(alts, "["+items+"]")
	}
	for _, c := range s.comps {
		alts = append(alts, "[^"+e.classBody(c)+"]")
	}
	switch len(alts) {
	case 0:
		b.WriteString(reNever)
	case 1:
		b.WriteString(alts[0])
	default:
		b.WriteString("(?:" + strings.Join(alts, "|") + ")")
	}
	return nil
}

// bracketItems is the RE2 bracket contents of a bracket expression's
// characters, ranges and named classes (not its complemented escapes,
// nor its negation).
func (e *reEmitter) bracketItems(s *reSet) string {
	var items strings.Builder
	for _, rg := range s.ranges {
		lo, hi := rg[0], min(rg[1], unicode.MaxRune)
		if lo > hi || lo < 0 {
			continue
		}
		writeRE2Rune(&items, lo)
		if hi > lo {
			items.WriteByte('-')
			writeRE2Rune(&items, hi)
		}
	}
	for _, c := range s.classes {
		items.WriteString(e.classBody(c))
	}
	return items.String()
}

// writeRE2Rune writes r as an RE2 literal.
func writeRE2Rune(b *strings.Builder, r rune) {
	if r < 0x80 && !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
		fmt.Fprintf(b, `\x{%x}`, r)
		return
	}
	b.WriteRune(r)
}
