package sql

// PostgreSQL's || sits with the "other" operators: below + - * / % and
// above comparisons, LIKE, BETWEEN and IN (sql-syntax-lexical, Operator
// Precedence). TiDB's || (PIPES_AS_CONCAT) binds tighter than every binary
// operator, so the rewrite hands a || b to TiDB as a | pg__pipes() | b: its
// | is at the level PostgreSQL's || has (ToTree reads the pair back as the
// concat call TiDB would have made, pipesOperand). TiDB's LIKE and REGEXP
// take only a SimpleExpr as their pattern, where PostgreSQL takes any
// expression binding tighter than LIKE: a pattern with a || or an
// arithmetic operator in it is parenthesised (patternOperand).

// patternStops are the words that end a LIKE / ILIKE / ~ pattern at its
// level: the operators of LIKE's precedence and lower, and the clause
// words.
var patternStops = map[string]bool{
	"AND": true, "OR": true, "NOT": true, "IS": true, "ISNULL": true, "NOTNULL": true, "BETWEEN": true,
	"IN": true, "LIKE": true, "ILIKE": true, "SIMILAR": true, "ESCAPE": true, "THEN": true, "ELSE": true,
	"END": true, "WHEN": true, "AS": true, "FROM": true, "WHERE": true, "GROUP": true, "HAVING": true,
	"ORDER": true, "LIMIT": true, "OFFSET": true, "FETCH": true, "FOR": true, "UNION": true,
	"INTERSECT": true, "EXCEPT": true, "WINDOW": true, "RETURNING": true, "ON": true, "USING": true,
	"JOIN": true, "INNER": true, "LEFT": true, "RIGHT": true, "FULL": true, "CROSS": true,
	"NATURAL": true, "ASC": true, "DESC": true, "NULLS": true, "INTO": true,
}

// patternTightOps are the operators that bind tighter than LIKE.
var patternTightOps = map[string]bool{"+": true, "-": true, "*": true, "/": true, "%": true, "^": true, "||": true, "::": true}

// patternOperand rewrites the pattern starting at token s (after LIKE,
// ILIKE or ~) when it has a || or an arithmetic operator at its level: "(" pattern ")" and the
// token after it; ok false when the pattern is left to the main loop.
//
// opLevel: the pattern is ~'s, an operator of PostgreSQL's "other" level,
// whose right operand ends at the next operator of that level (|| too).
func (r *rewriter) patternOperand(s, j int, opLevel bool) (it item, end int, ok bool, err error) {
	pipes := false
	e := s
scan:
	for ; e < j; e++ {
		t := r.toks[e]
		switch {
		case t.isPunct(r.src, "(") || t.isPunct(r.src, "["):
			m := r.matchClose(e, j)
			if m < 0 {
				return item{}, 0, false, nil
			}
			e = m
		case t.isPunct(r.src, ",") || t.isPunct(r.src, ")") || t.isPunct(r.src, ";") || t.isPunct(r.src, "]"):
			break scan
		case t.kind == tkOp:
			text := t.text(r.src)
			if text == ">" && e > s && r.isOpLevel(e-1) && !opLevel {
				continue // the second > of a >>
			}
			if opLevel && r.isOpLevel(e) || !patternTightOps[text] && (opLevel || !r.isOpLevel(e)) {
				break scan // (LIKE's pattern takes every operator of the "other" level)
			}
			if text != "::" && e > s { // an infix operator TiDB's SimpleExpr pattern cannot take
				pipes = true
			}
			if text == "::" { // the type after it is no pattern word
				continue
			}
		case t.kind == tkIdent && t.is(r.src, "CASE"):
			// CASE .. END is one operand of the pattern
			depth := 0
			for ; e < j; e++ {
				if r.toks[e].is(r.src, "CASE") {
					depth++
				} else if r.toks[e].is(r.src, "END") {
					if depth--; depth == 0 {
						break
					}
				}
			}
		case t.kind == tkIdent && t.is(r.src, "NOT") && e > s && r.toks[e-1].kind == tkOp:
			// a || NOT b: the NOT's operand is part of the pattern
			e = r.notOperandEnd(e+1, j) - 1
			pipes = true
		case t.kind == tkIdent && patternStops[t.word(r.src)] && e > s:
			break scan
		}
	}
	if !pipes || e == s {
		return item{}, 0, false, nil
	}
	inner, err := r.run(s, e)
	if err != nil {
		return item{}, 0, false, err
	}
	b := newComposite(r.leadOf(r.toks[s]))
	b.add("(", r.toks[s].start)
	b.addItems(inner, true)
	b.add(")", r.toks[e-1].end)
	return b.it, e, true, nil
}
