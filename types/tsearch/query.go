package tsearch

import (
	"encoding/binary"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// Operators of a tsquery, numbered as PostgreSQL's (ts_type.h).
const (
	OpNot    = 1
	OpAnd    = 2
	OpOr     = 3
	OpPhrase = 4
)

// opPriority is tsearch_op_priority: NOT binds tightest, then <->, &, |.
var opPriority = [...]int{OpNot: 4, OpAnd: 2, OpOr: 1, OpPhrase: 3}

// Node is a node of a tsquery: an operand (Op 0) or an operator; NOT's
// operand is R.
type Node struct {
	Op     int
	Dist   int // <N>'s distance
	Word   string
	Weight int // operand weight mask: A 8, B 4, C 2, D 1
	Prefix bool
	stop   bool // a stop word's placeholder (QI_VALSTOP), removed after parsing
	L, R   *Node
}

// Query is a tsquery; a nil Root is the empty query.
type Query struct{ Root *Node }

// String prints q as tsqueryout does.
func (q Query) String() string {
	if q.Root == nil {
		return ""
	}
	var b strings.Builder
	infix(&b, q.Root, -1, false)
	return b.String()
}

func infix(b *strings.Builder, n *Node, parentPriority int, rightPhrase bool) {
	switch n.Op {
	case 0:
		writeQuoted(b, n.Word)
		if n.Weight != 0 || n.Prefix {
			b.WriteByte(':')
			if n.Prefix {
				b.WriteByte('*')
			}
			for i, c := range "ABCD" {
				if n.Weight&(8>>i) != 0 {
					b.WriteRune(c)
				}
			}
		}
	case OpNot:
		pr := opPriority[OpNot]
		if pr < parentPriority {
			b.WriteString("( ")
		}
		b.WriteByte('!')
		infix(b, n.R, pr, false)
		if pr < parentPriority {
			b.WriteString(" )")
		}
	default:
		pr := opPriority[n.Op]
		paren := pr < parentPriority || n.Op == OpPhrase && rightPhrase
		if paren {
			b.WriteString("( ")
		}
		infix(b, n.L, pr, false)
		switch n.Op {
		case OpOr:
			b.WriteString(" | ")
		case OpAnd:
			b.WriteString(" & ")
		case OpPhrase:
			if n.Dist != 1 {
				b.WriteString(" <" + strconv.Itoa(n.Dist) + "> ")
			} else {
				b.WriteString(" <-> ")
			}
		}
		infix(b, n.R, pr, n.Op == OpPhrase)
		if paren {
			b.WriteString(" )")
		}
	}
}

// Operands are q's operands left to right.
func (q Query) Operands() []*Node {
	var out []*Node
	var walk func(n *Node)
	walk = func(n *Node) {
		if n == nil {
			return
		}
		if n.Op == 0 {
			out = append(out, n)
			return
		}
		walk(n.L)
		walk(n.R)
	}
	walk(q.Root)
	return out
}

// Size is the number of q's nodes (numnode).
func (q Query) Size() int {
	var count func(n *Node) int
	count = func(n *Node) int {
		if n == nil {
			return 0
		}
		return 1 + count(n.L) + count(n.R)
	}
	return count(q.Root)
}

// pushVal turns one operand of query text into nodes: as written
// (tsquery input) or through a configuration (to_tsquery).
type pushVal func(word string, weight int, prefix bool) *Node

// queryParser reads tsquery text (gettoken_query_standard and makepol).
type queryParser struct {
	src   string
	w     *wordScanner
	push  pushVal
	depth int
}

func (p *queryParser) syntax() error {
	return sqlerr.New(sqlerr.SyntaxError, "syntax error in tsquery: \"%s\"", p.src)
}

func (p *queryParser) skipSpace() {
	for p.w.i < len(p.w.s) && isSpaceRune(p.w.s[p.w.i]) {
		p.w.i++
	}
}

func (p *queryParser) peek() rune {
	p.skipSpace()
	if p.w.i >= len(p.w.s) {
		return 0
	}
	return p.w.s[p.w.i]
}

// modifiers reads :*ABCD after an operand (get_modifiers).
func (p *queryParser) modifiers() (weight int, prefix bool) {
	if p.w.i >= len(p.w.s) || p.w.s[p.w.i] != ':' {
		return 0, false
	}
	p.w.i++
	for ; p.w.i < len(p.w.s); p.w.i++ {
		switch p.w.s[p.w.i] {
		case 'a', 'A':
			weight |= 8
		case 'b', 'B':
			weight |= 4
		case 'c', 'C':
			weight |= 2
		case 'd', 'D':
			weight |= 1
		case '*':
			prefix = true
		default:
			return weight, prefix
		}
	}
	return weight, prefix
}

// operand reads a NOT chain, a parenthesised expression or an operand;
// first marks the query's first operand, where the end of the text is
// the empty query (ok false).
func (p *queryParser) operand(first bool) (*Node, bool, error) {
	switch r := p.peek(); r {
	case '!':
		p.w.i++
		n, ok, err := p.operand(false)
		if err != nil || !ok {
			return nil, ok, err
		}
		return &Node{Op: OpNot, R: n}, true, nil
	case '(':
		p.w.i++
		p.depth++
		n, err := p.expr(0, false)
		if err != nil {
			return nil, false, err
		}
		if p.peek() != ')' {
			return nil, false, p.syntax()
		}
		p.w.i++
		p.depth--
		return n, true, nil
	case ':':
		return nil, false, p.syntax()
	case 0:
		if first {
			return nil, false, nil
		}
		return nil, false, sqlerr.New(sqlerr.SyntaxError, "no operand in tsquery: \"%s\"", p.src)
	}
	word, ok, err := p.w.word()
	if err != nil || !ok {
		if first && p.w.i >= len(p.w.s) {
			return nil, false, nil
		}
		return nil, false, sqlerr.New(sqlerr.SyntaxError, "no operand in tsquery: \"%s\"", p.src)
	}
	if len(word) > maxStrLen {
		return nil, false, sqlerr.New(sqlerr.SyntaxError, "word is too long in tsquery: \"%s\"", p.src)
	}
	weight, prefix := p.modifiers()
	return p.push(word, weight, prefix), true, nil
}

// operator reads the operator at the parser's position: 0 at the end of
// an expression (end of text or ')').
func (p *queryParser) operator() (op, dist int, err error) {
	switch r := p.peek(); r {
	case 0, ')':
		return 0, 0, nil
	case '&':
		p.w.i++
		return OpAnd, 0, nil
	case '|':
		p.w.i++
		return OpOr, 0, nil
	case '<':
		s, i := p.w.s, p.w.i+1
		if i < len(s) && s[i] == '-' {
			if i+1 < len(s) && s[i+1] == '>' {
				p.w.i = i + 2
				return OpPhrase, 1, nil
			}
			return 0, 0, p.syntax()
		}
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start || i >= len(s) || s[i] != '>' {
			return 0, 0, p.syntax()
		}
		n, err := strconv.Atoi(string(s[start:i]))
		if err != nil || n > maxEntryPos {
			return 0, 0, sqlerr.New(sqlerr.InvalidParameterValue, "distance in phrase operator must be an integer value between zero and %d inclusive", maxEntryPos)
		}
		p.w.i = i + 1
		return OpPhrase, n, nil
	}
	return 0, 0, p.syntax()
}

// expr reads operands joined by operators of at least priority minPr,
// left-associative (precedence climbing, as makepol's operator stack).
func (p *queryParser) expr(minPr int, first bool) (*Node, error) {
	left, ok, err := p.operand(first)
	if err != nil || !ok {
		return nil, err
	}
	for {
		save := p.w.i
		op, dist, err := p.operator()
		if err != nil {
			return nil, err
		}
		if op == 0 {
			if p.peek() == ')' && p.depth == 0 {
				return nil, p.syntax()
			}
			return left, nil
		}
		pr := opPriority[op]
		if pr < minPr {
			p.w.i = save
			return left, nil
		}
		right, err := p.expr(pr+1, false)
		if err != nil {
			return nil, err
		}
		left = &Node{Op: op, Dist: dist, L: left, R: right}
	}
}

// parseQuery reads tsquery text, each operand through push, then drops
// stop words' placeholders (cleanup_tsquery_stopwords).
func parseQuery(s string, push pushVal) (Query, error) {
	p := &queryParser{src: s, w: &wordScanner{s: []rune(s), opr: true}, push: push}
	root, err := p.expr(0, true)
	if err != nil {
		return Query{}, err
	}
	if root == nil {
		return Query{}, nil
	}
	var l, r int
	root = cleanStop(root, &l, &r)
	return Query{Root: root}, nil
}

// ParseQuery reads tsquery text as tsqueryin does.
func ParseQuery(s string) (Query, error) {
	return parseQuery(s, func(word string, weight int, prefix bool) *Node {
		return &Node{Word: word, Weight: weight, Prefix: prefix}
	})
}

// NormalizeQuery is tsquery's text input printed back.
func NormalizeQuery(s string) (string, error) {
	q, err := ParseQuery(s)
	if err != nil {
		return "", err
	}
	return q.String(), nil
}

// cleanStop removes stop word placeholders, widening the phrase
// operators around them by the positions they held
// (clean_stopword_intree).
func cleanStop(n *Node, ladd, radd *int) *Node {
	*ladd, *radd = 0, 0
	if n.Op == 0 {
		if n.stop {
			return nil
		}
		return n
	}
	if n.Op == OpNot {
		n.R = cleanStop(n.R, ladd, radd)
		if n.R == nil {
			return nil
		}
		return n
	}
	var lladd, lradd, rladd, rradd int
	n.L = cleanStop(n.L, &lladd, &lradd)
	n.R = cleanStop(n.R, &rladd, &rradd)
	isPhrase := n.Op == OpPhrase
	nd := 0
	if isPhrase {
		nd = n.Dist
	}
	switch {
	case n.L == nil && n.R == nil:
		if isPhrase {
			*ladd = lladd + nd + rladd
			*radd = *ladd
		}
		return nil
	case n.L == nil:
		// the operand that stays carries its own corrections up; a
		// phrase adds its distance and the removed side's
		*ladd, *radd = rladd, rradd
		if isPhrase {
			*ladd = lladd + nd + rladd
		}
		return n.R
	case n.R == nil:
		*ladd, *radd = lladd, lradd
		if isPhrase {
			*radd = lradd + nd + rradd
		}
		return n.L
	case isPhrase:
		n.Dist += lradd + rladd
		*ladd, *radd = lladd, rradd
	}
	return n
}

// QueryBytes is q's binary form (tsquerysend): the item count, then
// items in PostgreSQL's polish order (an operator, its right operand,
// its left one).
func (q Query) Bytes() []byte {
	out := binary.BigEndian.AppendUint32(nil, uint32(q.Size()))
	var walk func(n *Node)
	walk = func(n *Node) {
		if n.Op == 0 {
			out = append(out, 1, byte(n.Weight))
			if n.Prefix {
				out = append(out, 1)
			} else {
				out = append(out, 0)
			}
			out = append(out, n.Word...)
			out = append(out, 0)
			return
		}
		out = append(out, 2, byte(n.Op))
		if n.Op == OpPhrase {
			out = binary.BigEndian.AppendUint16(out, uint16(n.Dist))
		}
		walk(n.R)
		if n.L != nil {
			walk(n.L)
		}
	}
	if q.Root != nil {
		walk(q.Root)
	}
	return out
}

// QueryFromBytes reads tsquery's binary form (tsqueryrecv).
func QueryFromBytes(b []byte) (Query, error) {
	bad := sqlerr.New(sqlerr.InvalidBinaryRepresentation, "insufficient data left in message")
	if len(b) < 4 {
		return Query{}, bad
	}
	n := int(binary.BigEndian.Uint32(b))
	b = b[4:]
	var read func() (*Node, error)
	count := 0
	read = func() (*Node, error) {
		if len(b) < 2 || count >= n {
			return nil, bad
		}
		count++
		typ := b[0]
		switch typ {
		case 1:
			if len(b) < 3 {
				return nil, bad
			}
			node := &Node{Weight: int(b[1]), Prefix: b[2] != 0}
			b = b[3:]
			z := strings.IndexByte(string(b), 0)
			if z < 0 {
				return nil, bad
			}
			node.Word = string(b[:z])
			b = b[z+1:]
			return node, nil
		case 2:
			node := &Node{Op: int(b[1])}
			b = b[2:]
			if node.Op < OpNot || node.Op > OpPhrase {
				return nil, sqlerr.New(sqlerr.InvalidBinaryRepresentation, "unrecognized operator type: %d", node.Op)
			}
			if node.Op == OpPhrase {
				if len(b) < 2 {
					return nil, bad
				}
				node.Dist = int(binary.BigEndian.Uint16(b))
				b = b[2:]
			}
			var err error
			if node.R, err = read(); err != nil {
				return nil, err
			}
			if node.Op != OpNot {
				if node.L, err = read(); err != nil {
					return nil, err
				}
			}
			return node, nil
		}
		return nil, sqlerr.New(sqlerr.InvalidBinaryRepresentation, "unrecognized tsquery node type: %d", typ)
	}
	if n == 0 {
		return Query{}, nil
	}
	root, err := read()
	if err != nil {
		return Query{}, err
	}
	return Query{Root: root}, nil
}
