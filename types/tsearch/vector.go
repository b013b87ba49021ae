package tsearch

import (
	"encoding/binary"
	"sort"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// Position limits (ts_type.h): a position is 14 bits, a lexeme keeps at
// most 256 of them.
const (
	maxEntryPos = 1 << 14
	maxNumPos   = 256
	maxStrLen   = 1<<11 - 1 // a lexeme's bytes (MAXSTRLEN)
)

// Pos is a WordEntryPos: the position in the low 14 bits, the weight
// (3 A, 2 B, 1 C, 0 D) in the top two.
type Pos uint16

// Position is p's position.
func (p Pos) Position() int { return int(p & 0x3fff) }

// Weight is p's weight, 3 for A down to 0 for D.
func (p Pos) Weight() int { return int(p >> 14) }

func makePos(pos, weight int) Pos {
	if pos >= maxEntryPos {
		pos = maxEntryPos - 1
	}
	return Pos(weight<<14 | pos)
}

// Lexeme is one lexeme of a tsvector and its positions (none for a
// stripped one).
type Lexeme struct {
	Word string
	Pos  []Pos
}

// Vector is a tsvector: lexemes in byte order, each once.
type Vector []Lexeme

// normalise sorts v's lexemes, merging a repeated lexeme's positions,
// and sorts each lexeme's positions, a repeated position keeping its
// highest weight (tsvectorin's uniqueentry and uniquePos).
func normalise(v Vector) Vector {
	sort.SliceStable(v, func(i, j int) bool { return v[i].Word < v[j].Word })
	out := v[:0]
	for _, l := range v {
		if n := len(out); n > 0 && out[n-1].Word == l.Word {
			out[n-1].Pos = append(out[n-1].Pos, l.Pos...)
			continue
		}
		out = append(out, l)
	}
	for i := range out {
		out[i].Pos = uniquePos(out[i].Pos)
	}
	return out
}

func uniquePos(ps []Pos) []Pos {
	if len(ps) == 0 {
		return nil
	}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Position() < ps[j].Position() })
	out := ps[:1]
	for _, p := range ps[1:] {
		last := &out[len(out)-1]
		if p.Position() == last.Position() {
			if p.Weight() > last.Weight() {
				*last = makePos(last.Position(), p.Weight())
			}
			continue
		}
		if len(out) == maxNumPos {
			break
		}
		out = append(out, p)
	}
	return out
}

// String prints v as tsvectorout does.
func (v Vector) String() string {
	var b strings.Builder
	for i, l := range v {
		if i > 0 {
			b.WriteByte(' ')
		}
		writeQuoted(&b, l.Word)
		for j, p := range l.Pos {
			if j == 0 {
				b.WriteByte(':')
			} else {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(p.Position()))
			switch p.Weight() {
			case 3:
				b.WriteByte('A')
			case 2:
				b.WriteByte('B')
			case 1:
				b.WriteByte('C')
			}
		}
	}
	return b.String()
}

// writeQuoted writes s in single quotes, doubling quotes and backslashes.
func writeQuoted(b *strings.Builder, s string) {
	b.WriteByte('\'')
	for _, r := range s {
		if r == '\'' || r == '\\' {
			b.WriteRune(r)
		}
		b.WriteRune(r)
	}
	b.WriteByte('\'')
}

func isSpaceRune(r rune) bool {
	return r == ' ' || r >= '\t' && r <= '\r'
}

// wordScanner reads the lexemes of tsvector and tsquery text
// (gettoken_tsvector): a bare word up to a space (or, in a tsquery, an
// operator character or a colon) or a quoted word, backslash escaping
// the next character.
type wordScanner struct {
	s   []rune
	i   int
	opr bool // tsquery: operators and ':' end a bare word
}

func isOperatorRune(r rune) bool {
	return r == '!' || r == '&' || r == '|' || r == '(' || r == ')' || r == '<'
}

// word reads one word at i (after spaces); ok is false at the end of the
// text, and for a syntax error err is set.
func (w *wordScanner) word() (word string, ok bool, err error) {
	for w.i < len(w.s) && isSpaceRune(w.s[w.i]) {
		w.i++
	}
	if w.i >= len(w.s) {
		return "", false, nil
	}
	var b strings.Builder
	if w.s[w.i] == '\'' {
		w.i++
		for {
			if w.i >= len(w.s) {
				return "", false, errSyntax
			}
			r := w.s[w.i]
			switch {
			case r == '\\':
				w.i++
				if w.i >= len(w.s) {
					return "", false, errSyntax
				}
				b.WriteRune(w.s[w.i])
			case r == '\'':
				if w.i+1 < len(w.s) && w.s[w.i+1] == '\'' {
					b.WriteByte('\'')
					w.i++
				} else {
					w.i++
					return b.String(), true, nil
				}
			default:
				b.WriteRune(r)
			}
			w.i++
		}
	}
	if w.opr && isOperatorRune(w.s[w.i]) {
		return "", false, errSyntax
	}
	for w.i < len(w.s) {
		r := w.s[w.i]
		if r == '\\' {
			w.i++
			if w.i >= len(w.s) {
				return "", false, errSyntax
			}
			b.WriteRune(w.s[w.i])
			w.i++
			continue
		}
		if isSpaceRune(r) || r == ':' || w.opr && isOperatorRune(r) {
			break
		}
		b.WriteRune(r)
		w.i++
	}
	if b.Len() == 0 {
		return "", false, errSyntax
	}
	return b.String(), true, nil
}

// errSyntax marks a syntax error the caller words for its type.
var errSyntax = sqlerr.New(sqlerr.SyntaxError, "syntax error")

// ParseVector reads tsvector text (tsvectorin).
func ParseVector(s string) (Vector, error) {
	w := &wordScanner{s: []rune(s)}
	syntax := func() error {
		return sqlerr.New(sqlerr.SyntaxError, "syntax error in tsvector: \"%s\"", s)
	}
	var v Vector
	for {
		word, ok, err := w.word()
		if err != nil {
			return nil, syntax()
		}
		if !ok {
			break
		}
		if len(word) > maxStrLen {
			return nil, sqlerr.New(sqlerr.ProgramLimitExceeded, "word is too long (%d bytes, max %d bytes)", len(word), maxStrLen)
		}
		l := Lexeme{Word: word}
		if w.i < len(w.s) && w.s[w.i] == ':' {
			w.i++
			for {
				start := w.i
				for w.i < len(w.s) && w.s[w.i] >= '0' && w.s[w.i] <= '9' {
					w.i++
				}
				if w.i == start {
					if w.i < len(w.s) && w.s[w.i] == '-' {
						return nil, sqlerr.New(sqlerr.SyntaxError, "wrong position info in tsvector: \"%s\"", s)
					}
					return nil, syntax()
				}
				n, _ := strconv.Atoi(string(w.s[start:w.i]))
				if n == 0 {
					return nil, sqlerr.New(sqlerr.SyntaxError, "wrong position info in tsvector: \"%s\"", s)
				}
				weight := 0
				if w.i < len(w.s) {
					switch w.s[w.i] {
					case 'a', 'A':
						weight = 3
					case 'b', 'B':
						weight = 2
					case 'c', 'C':
						weight = 1
					case 'd', 'D':
						weight = 0
					default:
						weight = -1
					}
					if weight >= 0 {
						w.i++
					} else {
						weight = 0
					}
				}
				l.Pos = append(l.Pos, makePos(n, weight))
				if w.i < len(w.s) && w.s[w.i] == ',' {
					w.i++
					continue
				}
				if w.i < len(w.s) && !isSpaceRune(w.s[w.i]) {
					return nil, syntax()
				}
				break
			}
		} else if w.i < len(w.s) && !isSpaceRune(w.s[w.i]) {
			return nil, syntax()
		}
		v = append(v, l)
	}
	return normalise(v), nil
}

// Normalize is tsvector's text input printed back.
func Normalize(s string) (string, error) {
	v, err := ParseVector(s)
	if err != nil {
		return "", err
	}
	return v.String(), nil
}

// Bytes is v's binary form (tsvectorsend): the lexeme count, then each
// lexeme's text with a NUL, its position count and positions.
func (v Vector) Bytes() []byte {
	out := binary.BigEndian.AppendUint32(nil, uint32(len(v)))
	for _, l := range v {
		out = append(out, l.Word...)
		out = append(out, 0)
		out = binary.BigEndian.AppendUint16(out, uint16(len(l.Pos)))
		for _, p := range l.Pos {
			out = binary.BigEndian.AppendUint16(out, uint16(p))
		}
	}
	return out
}

// VectorFromBytes reads tsvector's binary form (tsvectorrecv).
func VectorFromBytes(b []byte) (Vector, error) {
	bad := sqlerr.New(sqlerr.InvalidBinaryRepresentation, "insufficient data left in message")
	if len(b) < 4 {
		return nil, bad
	}
	n := binary.BigEndian.Uint32(b)
	b = b[4:]
	var v Vector
	for i := uint32(0); i < n; i++ {
		z := strings.IndexByte(string(b), 0)
		if z < 0 || len(b) < z+3 {
			return nil, bad
		}
		l := Lexeme{Word: string(b[:z])}
		np := int(binary.BigEndian.Uint16(b[z+1:]))
		b = b[z+3:]
		if len(b) < 2*np {
			return nil, bad
		}
		for j := 0; j < np; j++ {
			l.Pos = append(l.Pos, Pos(binary.BigEndian.Uint16(b[2*j:])))
		}
		b = b[2*np:]
		v = append(v, l)
	}
	return normalise(v), nil
}

// Find is the index of word in v, or -1.
func (v Vector) Find(word string) int {
	i := sort.Search(len(v), func(i int) bool { return v[i].Word >= word })
	if i < len(v) && v[i].Word == word {
		return i
	}
	return -1
}

// prefixRange is the lexemes of v starting with prefix.
func (v Vector) prefixRange(prefix string) (int, int) {
	i := sort.Search(len(v), func(i int) bool { return v[i].Word >= prefix })
	j := i
	for j < len(v) && strings.HasPrefix(v[j].Word, prefix) {
		j++
	}
	return i, j
}
