package sql

import "strings"

// PostgreSQL operators TiDB's grammar lacks, rewritten into what it
// parses (rewrite.go's operator cases): LIKE's operator spellings, the
// text pattern comparisons, ^@, #, #-, && and the prefix operators @ |/
// ||/ ~, most of them into pg__op_* calls (functions/opfuncs.go)
// that the binder labels ?column? as PostgreSQL does.

// infixOps maps an operator to what goes before its left operand, between
// the operands and after the right one. Like the JSON operators they take
// the primary before them and a primary after them (with the arithmetic
// that binds tighter).
var infixOps = map[string][3]string{
	"~~":   {"(", " LIKE ", ")"},
	"!~~":  {"(", " NOT LIKE ", ")"},
	"~~*":  {"(", " ILIKE ", ")"},
	"!~~*": {"(", " NOT ILIKE ", ")"},
	"~<~":  {"pg__op_pattern_lt(", ", ", ")"},
	"~<=~": {"pg__op_pattern_le(", ", ", ")"},
	"~>=~": {"pg__op_pattern_ge(", ", ", ")"},
	"~>~":  {"pg__op_pattern_gt(", ", ", ")"},
	"^@":   {"pg__op_starts_with(", ", ", ")"},
	"#":    {"pg__op_xor(", ", ", ")"},
	"#-":   {"pg__op_delete_path(", ", ", ")"},
	"&&":   {"pg__op_overlap(", ", ", ")"},
}

// prefixOps are the prefix operators PostgreSQL has beyond - + NOT: the
// function each is.
var prefixOps = map[string]string{"@": "pg__op_abs", "|/": "pg__op_sqrt", "||/": "pg__op_cbrt"}

// prefixOperand is the end of a prefix operator's operand starting after
// token k: a primary, optionally signed, with the arithmetic after it
// (PostgreSQL's prefix operators bind looser than + - * / % ^).
func (r *rewriter) prefixOperand(k, j int) (int, error) {
	rs := k + 1
	if rs < j && r.toks[rs].kind == tkOp && (r.toks[rs].text(r.src) == "-" || r.toks[rs].text(r.src) == "+") {
		rs++
	}
	if rs >= j {
		return 0, r.errNear(j)
	}
	e, err := r.primaryEnd(rs, j)
	if err != nil {
		return 0, err
	}
	for e+1 < j && r.toks[e].kind == tkOp && len(r.toks[e].text(r.src)) == 1 && strings.Contains("+-*/%^", r.toks[e].text(r.src)) {
		n := e + 1
		if r.toks[n].kind == tkOp && (r.toks[n].text(r.src) == "-" || r.toks[n].text(r.src) == "+") {
			n++
		}
		if n >= j {
			break
		}
		if e, err = r.primaryEnd(n, j); err != nil {
			return 0, err
		}
	}
	return e, nil
}

// otherOperatorCall rewrites an operator PostgreSQL's lexer reads as one
// token and we have no operator of (a <-> b, 2 !=- 1, 2 ^- 1; lexer.go's
// otherOperator), at token k, into pg__op_other(a, b, 'op'), or
// pg__op_other(b, 'op') for a prefix one (the operator last: the binder
// looks for an operator's position between its operands' starts): the binder binds the operands
// and reports "operator does not exist" with their types, as PostgreSQL
// does for an operator no catalog entry matches. The operands are taken
// as for PostgreSQL's other operators: the primary before (with a unary
// minus on it) and the primary after with the arithmetic that binds
// tighter. It returns the output and the token after the right operand.
func (r *rewriter) otherOperatorCall(out []item, k, j int) ([]item, int, error) {
	t := r.toks[k]
	prefix := len(out) == 0 || !r.isOperand(out[len(out)-1])
	name := t.text(r.src)
	if prefix {
		// a run of > written together is one operator (>>, >>>), which the
		// lexer leaves as single >s (they close type arguments)
		last := r.greaterRunEnd(k, j)
		name = r.src[t.start:r.toks[last].end]
		k = last
	}
	s := len(out) // where the left operand starts (none for a prefix one)
	if !prefix {
		if s = r.primaryStart(out); s < 0 {
			return nil, 0, r.errNear(k)
		}
		if s > 0 && (r.itemIs(out[s-1], "-") || r.itemIs(out[s-1], "+")) && (s == 1 || !r.isOperand(out[s-2])) {
			s--
		}
	}
	e, err := r.prefixOperand(k, j)
	if err != nil {
		return nil, 0, err
	}
	right, err := r.run(k+1, e)
	if err != nil {
		return nil, 0, err
	}
	var b *compositeBuilder
	if prefix {
		b = newComposite(r.leadOf(t))
		b.add("pg__op_other(", t.start)
	} else {
		b = newComposite(out[s].lead)
		b.add("pg__op_other(", out[s].firstOrig())
		b.addItems(out[s:], true)
		b.add(", ", t.start)
	}
	b.addItems(right, true)
	b.add(", "+sqlQuote(name)+")", r.toks[e-1].end)
	return append(out[:s], b.it), e, nil
}

// prefixOnlyOther reports whether the operator at token k, in a prefix
// place, is an operator token of PostgreSQL's grammar (its lexer's Op:
// any run of operator characters but the single ones its grammar spells
// itself, + - * / % ^ < > =, and <= >= <> != => := ::) that is no prefix
// operator we have (- + ~ @ |/ ||/): PostgreSQL's grammar takes any Op
// as a prefix one (qual_Op a_expr) and the operator lookup then fails
// (<< 3.5: operator does not exist: << numeric), where TiDB's grammar
// refuses the ones it knows as infix only (<<, >>, ||).
func (r *rewriter) prefixOnlyOther(k, j int) bool {
	text := r.toks[k].text(r.src)
	switch text {
	case "-", "+", "~", "@", "|/", "||/", "*", "/", "%", "^", "<", "=", "<=", ">=", "<>", "!=", "=>", ":=", "::":
		return false
	case ">":
		return r.greaterRunEnd(k, j) > k
	}
	return true
}

// greaterRunEnd is the last of the > tokens written together from token
// k (k itself when the next is not one): PostgreSQL's lexer reads >> and
// >>> as one operator.
func (r *rewriter) greaterRunEnd(k, j int) int {
	if !r.toks[k].isPunct(r.src, ">") {
		return k
	}
	for k+1 < j && r.toks[k+1].isPunct(r.src, ">") && r.toks[k+1].start == r.toks[k].end {
		k++
	}
	return k
}
