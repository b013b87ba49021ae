package tsearch

import (
	"strings"
	"unicode"
)

// WebsearchToQuery is websearch_to_tsquery(c, text): words joined by &,
// "quoted text" a phrase, "or" between words |, a leading - NOT; any
// other punctuation is ignored and no input is an error
// (gettoken_query_websearch).
func (c *Config) WebsearchToQuery(text string) Query {
	s := []rune(text)
	i := 0
	push := c.morph(OpPhrase)
	type item struct {
		node *Node
		op   int
	}
	// the operands and operators in order, then precedence applied
	var ops []item
	waitOperand := true
	isWordChr := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }
	isOr := func(w []rune) bool { return len(w) == 2 && strings.EqualFold(string(w), "or") }
	for i < len(s) {
		r := s[i]
		if waitOperand {
			switch {
			case r == '-':
				i++
				ops = append(ops, item{op: OpNot})
				continue
			case r == '"':
				i++
				start := i
				for i < len(s) && s[i] != '"' {
					i++
				}
				word := string(s[start:i])
				if i < len(s) {
					i++
				}
				ops = append(ops, item{node: push(word, 0, false)})
				waitOperand = false
				continue
			case isWordChr(r):
				start := i
				for i < len(s) && !isSpaceRune(s[i]) && s[i] != '"' && s[i] != ':' && !isOperatorRune(s[i]) {
					i++
				}
				if len(ops) > 0 && isOr(s[start:i]) {
					continue // "or" where an operand belongs is dropped
				}
				ops = append(ops, item{node: push(string(s[start:i]), 0, false)})
				waitOperand = false
				continue
			}
			i++
			continue
		}
		switch {
		case r == '"' || r == '-':
			ops = append(ops, item{op: OpAnd})
			waitOperand = true
			continue
		case isWordChr(r):
			start := i
			j := i
			for j < len(s) && isWordChr(s[j]) {
				j++
			}
			// "or" is OR when an operand follows it; at the end it is a word
			rest := j
			for rest < len(s) && !isWordChr(s[rest]) && s[rest] != '"' && s[rest] != '-' {
				rest++
			}
			if isOr(s[start:j]) && (j == len(s) || !isWordChr(s[j])) && rest < len(s) {
				i = j
				ops = append(ops, item{op: OpOr})
				waitOperand = true
				continue
			}
			if isOr(s[start:j]) && rest == len(s) {
				// a trailing "or" is a word
				ops = append(ops, item{op: OpAnd}, item{node: push(string(s[start:j]), 0, false)})
				i = j
				continue
			}
			ops = append(ops, item{op: OpAnd})
			waitOperand = true
			continue
		}
		i++
	}
	// drop operators left without an operand
	for len(ops) > 0 && ops[len(ops)-1].node == nil {
		ops = ops[:len(ops)-1]
	}
	// precedence: NOT, then AND, then OR (a shunting yard, as makepol)
	var out []*Node
	var stack []int
	apply := func(op int) {
		if op == OpNot {
			if len(out) == 0 {
				return
			}
			out[len(out)-1] = &Node{Op: OpNot, R: out[len(out)-1]}
			return
		}
		if len(out) < 2 {
			return
		}
		l, r := out[len(out)-2], out[len(out)-1]
		out = append(out[:len(out)-2], &Node{Op: op, L: l, R: r})
	}
	for _, it := range ops {
		if it.node != nil {
			out = append(out, it.node)
			continue
		}
		pr := opPriority[it.op]
		for len(stack) > 0 {
			top := stack[len(stack)-1]
			if it.op != OpNot && pr > opPriority[top] || it.op == OpNot && pr >= opPriority[top] {
				break
			}
			stack = stack[:len(stack)-1]
			apply(top)
		}
		stack = append(stack, it.op)
	}
	for len(stack) > 0 {
		apply(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
	}
	if len(out) == 0 {
		return Query{}
	}
	var l, r int
	return Query{Root: cleanStop(out[len(out)-1], &l, &r)}
}
