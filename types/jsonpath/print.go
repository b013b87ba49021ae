package jsonpath

import (
	"strconv"
	"strings"
)

// String prints the path as PostgreSQL's jsonpath output does: keys and
// variables double-quoted, numbers as numeric prints them, an operation
// in parentheses when it is the whole path or an operand of an operation
// that binds as tightly or tighter (so (1 - 2) - 3 keeps them), filters
// and subscripts without spaces.
func (p *Path) String() string {
	var b strings.Builder
	if p.Strict {
		b.WriteString("strict ")
	}
	printItem(&b, p.Expr, true)
	return b.String()
}

// priority is how tightly an operation binds, as printing weighs it.
func priority(it *Item) int {
	switch it.Kind {
	case Binary:
		switch it.Op {
		case "||":
			return 0
		case "&&":
			return 1
		case "+", "-":
			return 3
		case "*", "/", "%":
			return 4
		}
		return 2
	case StartsWith:
		return 2
	case Unary:
		return 5
	}
	return 6
}

func printItem(b *strings.Builder, it *Item, brackets bool) {
	switch it.Kind {
	case Binary, StartsWith:
		if brackets {
			b.WriteByte('(')
		}
		printItem(b, it.L, priority(it.L) <= priority(it))
		b.WriteByte(' ')
		if it.Kind == StartsWith {
			b.WriteString("starts with")
		} else {
			b.WriteString(it.Op)
		}
		b.WriteByte(' ')
		printItem(b, it.R, priority(it.R) <= priority(it))
		if brackets {
			b.WriteByte(')')
		}
	case LikeRegex:
		if brackets {
			b.WriteByte('(')
		}
		printItem(b, it.L, priority(it.L) <= priority(it))
		b.WriteString(" like_regex ")
		quote(b, it.Str)
		if it.Flags != "" {
			b.WriteString(" flag \"")
			b.WriteString(it.Flags)
			b.WriteByte('"')
		}
		if brackets {
			b.WriteByte(')')
		}
	case Unary:
		if brackets {
			b.WriteByte('(')
		}
		b.WriteString(it.Op)
		printItem(b, it.L, priority(it.L) <= priority(it))
		if brackets {
			b.WriteByte(')')
		}
	case Not:
		b.WriteString("!(")
		printItem(b, it.L, false)
		b.WriteByte(')')
	case IsUnknown:
		b.WriteByte('(')
		printItem(b, it.L, false)
		b.WriteString(") is unknown")
	case Exists:
		b.WriteString("exists (")
		printItem(b, it.L, false)
		b.WriteByte(')')
	case Filter:
		b.WriteString("?(")
		printItem(b, it.L, false)
		b.WriteByte(')')
	case Root:
		b.WriteByte('$')
	case Current:
		b.WriteByte('@')
	case Last:
		b.WriteString("last")
	case Var:
		b.WriteByte('$')
		quote(b, it.Str)
	case Null:
		b.WriteString("null")
	case Bool:
		b.WriteString(strconv.FormatBool(it.Bool))
	case Number:
		if it.Next != nil { // 1.a would read as a number
			b.WriteByte('(')
			b.WriteString(it.Str)
			b.WriteByte(')')
		} else {
			b.WriteString(it.Str)
		}
	case String:
		quote(b, it.Str)
	case Key:
		b.WriteByte('.')
		quote(b, it.Str)
	case AnyKey:
		b.WriteString(".*")
	case AnyArray:
		b.WriteString("[*]")
	case Index:
		b.WriteByte('[')
		for k, s := range it.Subs {
			if k > 0 {
				b.WriteByte(',')
			}
			printItem(b, s.From, false)
			if s.To != nil {
				b.WriteString(" to ")
				printItem(b, s.To, false)
			}
		}
		b.WriteByte(']')
	case AnyPath:
		b.WriteString(".**")
		switch {
		case it.Lo == 0 && it.Hi == -1:
		case it.Lo == it.Hi:
			b.WriteByte('{')
			level(b, it.Lo)
			b.WriteByte('}')
		default:
			b.WriteByte('{')
			level(b, it.Lo)
			b.WriteString(" to ")
			level(b, it.Hi)
			b.WriteByte('}')
		}
	case Method:
		b.WriteByte('.')
		b.WriteString(it.Str)
		b.WriteString("()")
	case Datetime:
		b.WriteString(".datetime(")
		if it.HasArg {
			quote(b, it.Str)
		}
		b.WriteByte(')')
	}
	if it.Next != nil {
		printItem(b, it.Next, false)
	}
}

func level(b *strings.Builder, n int) {
	if n < 0 {
		b.WriteString("last")
	} else {
		b.WriteString(strconv.Itoa(n))
	}
}

// quote writes s as a JSON string the way PostgreSQL's escape_json does.
func quote(b *strings.Builder, s string) {
	var buf [64]byte
	b.Write(AppendJSONString(buf[:0], s))
}

// AppendJSONString appends s as a JSON string the way PostgreSQL's
// escape_json does: ", \ and the control characters are escaped,
// everything else is kept (no \/, no \u escapes for non-ASCII). jsonb's
// output (types/json.go) and jsonpath's printer share it.
func AppendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			dst = append(dst, `\"`...)
		case '\\':
			dst = append(dst, `\\`...)
		case '\b':
			dst = append(dst, `\b`...)
		case '\f':
			dst = append(dst, `\f`...)
		case '\n':
			dst = append(dst, `\n`...)
		case '\r':
			dst = append(dst, `\r`...)
		case '\t':
			dst = append(dst, `\t`...)
		default:
			if c < 0x20 {
				dst = append(dst, `\u00`...)
				dst = append(dst, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
			} else {
				dst = append(dst, c)
			}
		}
	}
	return append(dst, '"')
}

// Quote is s as a JSON string, quoted as jsonpath and jsonb print it.
func Quote(s string) string {
	var b strings.Builder
	quote(&b, s)
	return b.String()
}
