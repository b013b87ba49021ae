package sql

import (
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// PostgreSQL's grammar declares three precedence levels non-associative
// (gram.y: %nonassoc IS ISNULL NOTNULL; %nonassoc < > = <= >= <>;
// %nonassoc BETWEEN IN LIKE ILIKE SIMILAR): an operator of one of them
// whose right operand is followed by an operator of the same level is a
// syntax error at the second one (1 < 2 < 3, a LIKE b BETWEEN c AND d,
// a IS DISTINCT FROM b IS NULL). TiDB's MySQL grammar chains comparisons
// left to right and takes a LIKE in BETWEEN's upper bound, so
// nonAssocError reads the statement's tokens for PostgreSQL's rule before
// any rewrite. A rule that ends in something other than an expression
// leaves nothing open: IN (..), op ANY (..) and the postfix IS NULL, IS
// TRUE, ISNULL. Each parenthesis, bracket and CASE .. END opens a level of
// its own; a word that starts another expression (a reserved keyword
// but the constants, AND, OR, a prefix NOT, WHEN, THEN, ELSE, SET, BY, a
// comma) closes everything open at its level, so a missed boundary can
// only miss an error, never invent one.

// assocFrame is what is open at one level of nesting.
type assocFrame struct {
	cmp, like, is bool // an operator of the level waits for its right operand's end
	betweenAnd    bool // the next AND is BETWEEN's
	inSet         bool // an UPDATE's (or ON CONFLICT's) SET list
	assign        bool // the next = is a SET item's assignment
	caseEnd       bool // the level is CASE's, closed by END
}

func (f *assocFrame) reset() { *f = assocFrame{caseEnd: f.caseEnd, inSet: f.inSet} }

// assocWord is how nonAssocError reads a word.
type assocWord uint8

const (
	awNeutral assocWord = iota
	awReset
	awAnd
	awNot
	awLike // LIKE, ILIKE, SIMILAR
	awBetween
	awIn
	awIs
	awIsNull // ISNULL, NOTNULL
	awCase
	awEnd
	awSet
	awSetEnd // WHERE, FROM, RETURNING: the SET list is over
	awQuantifier
	awTypeCtor // ARRAY, MAP, ROW: ARRAY<INT> is a type, its < > no operators
)

// assocWords are the words read other than by their keyword category.
var assocWords = map[string]assocWord{
	"AND": awAnd, "NOT": awNot, "LIKE": awLike, "ILIKE": awLike, "SIMILAR": awLike,
	"BETWEEN": awBetween, "IN": awIn, "IS": awIs, "ISNULL": awIsNull, "NOTNULL": awIsNull,
	"CASE": awCase, "END": awEnd, "SET": awSet, "WHERE": awSetEnd, "FROM": awSetEnd,
	"RETURNING": awSetEnd, "ANY": awQuantifier, "ALL": awQuantifier, "SOME": awQuantifier,
	"ARRAY": awTypeCtor, "MAP": awTypeCtor, "ROW": awTypeCtor,
	// constants and the functions without parentheses stand as operands
	"TRUE": awNeutral, "FALSE": awNeutral, "NULL": awNeutral, "CURRENT_DATE": awNeutral,
	"CURRENT_TIME": awNeutral, "CURRENT_TIMESTAMP": awNeutral, "LOCALTIME": awNeutral,
	"LOCALTIMESTAMP": awNeutral, "CURRENT_USER": awNeutral, "SESSION_USER": awNeutral,
	"USER": awNeutral, "CURRENT_ROLE": awNeutral, "CURRENT_CATALOG": awNeutral,
	"CURRENT_SCHEMA": awNeutral, "ESCAPE": awNeutral, "COLLATE": awNeutral,
	// unreserved words that start an expression
	"BY": awReset, "VALUES": awReset, "ROWS": awReset, "RANGE": awReset, "GROUPS": awReset,
	"PRECEDING": awReset, "FOLLOWING": awReset, "OVER": awReset, "PARTITION": awReset,
}

// assocWordOf reads the bare word t without allocating.
func assocWordOf(src string, t token) assocWord {
	if t.kind != tkIdent {
		return awNeutral
	}
	var buf [24]byte
	b, ok := upperWordInto(src, t, &buf) // oplevel.go
	if !ok {
		return awNeutral
	}
	if w, ok := assocWords[string(b)]; ok {
		return w
	}
	if k, ok := pgKeywords[string(b)]; ok && k.cat == kwReserved {
		return awReset
	}
	return awNeutral
}

// opRun is PostgreSQL's reading of the operator starting at token k: the
// run of operator tokens written together (the lexer keeps >> as two >),
// with a trailing + or - split off as PostgreSQL's lexer does unless the
// run holds one of ~ ! @ # % ^ & | ` ?. It returns the operator's text
// and the token after it.
func opRun(src string, toks []token, k int) (string, int) {
	e := k + 1
	for e < len(toks) && toks[e].kind == tkOp && toks[e].synth == "" && toks[e].start == toks[e-1].end && toks[e-1].synth == "" {
		e++
	}
	if toks[k].synth != "" {
		return toks[k].synth, k + 1
	}
	text := src[toks[k].start:toks[e-1].end]
	if len(text) > 1 && !strings.ContainsAny(text, "~!@#%^&|`?") {
		for len(text) > 1 && (text[len(text)-1] == '+' || text[len(text)-1] == '-') {
			text = text[:len(text)-1]
		}
		for e > k+1 && toks[e-1].start >= toks[k].start+len(text) {
			e--
		}
	}
	return text, e
}

// isComparison reports whether op is one of PostgreSQL's comparison
// tokens (< > = and the LESS_EQUALS, GREATER_EQUALS, NOT_EQUALS ones).
func isComparison(op string) bool {
	switch op {
	case "<", ">", "=", "<=", ">=", "<>", "!=":
		return true
	}
	return false
}

// nonAssocError is PostgreSQL's syntax error for two operators of one
// non-associative level in a row (see above), nil when there is none.
func nonAssocError(src string, toks []token) error {
	return assocScan(src, toks, nil)
}

// setAssignments is the start of each = token in toks that is an UPDATE's
// (or ON CONFLICT's, MERGE's) SET item's assignment rather than an
// operator, as assocScan reads them: PostgreSQL's grammar parses
// SET col = a_expr, so the rewrite's scans back for an operand's start
// stop there (SET b = x IS DISTINCT FROM y assigns the IS DISTINCT FROM).
func setAssignments(src string, toks []token) []int {
	var starts []int
	_ = assocScan(src, toks, &starts)
	return starts
}

// assocScan is nonAssocError's reading; with assigns set it appends the
// start of each SET item's = to it (setAssignments). A statement nested
// too deep to follow ends the scan without a verdict.
func assocScan(src string, toks []token, assigns *[]int) error {
	var stack [48]assocFrame
	d := 0
	near := func(k int, text string) error {
		return sqlerr.New(sqlerr.SyntaxError, "syntax error at or near %s", quoteNear(text)).WithPosition(charPos(src, toks[k].start))
	}
	for k := 0; k < len(toks); k++ {
		t := toks[k]
		f := &stack[d]
		switch t.kind {
		case tkPunct:
			switch t.text(src) {
			case "(", "[":
				if d+1 == len(stack) {
					return nil // too deep to follow: no verdict
				}
				d++
				stack[d] = assocFrame{}
			case ")", "]":
				if d > 0 {
					d--
				}
			case ",":
				f.reset()
				f.assign = f.inSet
			case ";":
				d = 0
				stack[0] = assocFrame{}
			}
		case tkOp:
			op, e := opRun(src, toks, k)
			if isComparison(op) {
				if f.assign && op == "=" {
					f.assign = false
					if assigns != nil {
						*assigns = append(*assigns, t.start)
					}
					k = e - 1
					continue
				}
				if f.cmp {
					return near(k, op)
				}
				f.like = false
				f.cmp = e >= len(toks) || assocWordOf(src, toks[e]) != awQuantifier
			}
			k = e - 1
		case tkIdent:
			switch assocWordOf(src, t) {
			case awReset:
				f.reset()
			case awSetEnd:
				f.reset()
				f.inSet = false
			case awSet:
				f.reset()
				f.inSet, f.assign = true, true
			case awAnd:
				if f.betweenAnd {
					f.betweenAnd = false
				} else {
					f.reset()
				}
			case awNot:
				if f.betweenAnd {
					return near(k, t.text(src)) // BETWEEN's lower bound takes no NOT (b_expr)
				}
				if k+1 < len(toks) {
					switch assocWordOf(src, toks[k+1]) {
					case awLike, awBetween, awIn: // NOT LIKE, NOT BETWEEN, NOT IN
						if f.like {
							return near(k, t.text(src))
						}
						continue // the word after NOT opens it
					}
				}
				f.reset() // a prefix NOT: its operand is a new expression
			case awLike:
				if f.like || f.betweenAnd {
					return near(k, t.text(src))
				}
				if t.is(src, "SIMILAR") && k+1 < len(toks) && toks[k+1].is(src, "TO") {
					k++ // TO is no clause word here
				}
				f.like = k+1 >= len(toks) || assocWordOf(src, toks[k+1]) != awQuantifier
			case awBetween:
				if f.like || f.betweenAnd {
					return near(k, t.text(src))
				}
				f.like, f.betweenAnd = true, true
				if k+1 < len(toks) && (toks[k+1].is(src, "SYMMETRIC") || toks[k+1].is(src, "ASYMMETRIC")) {
					k++
				}
			case awIn:
				if f.like || f.betweenAnd {
					return near(k, t.text(src))
				}
			case awIs, awIsNull:
				if f.is {
					return near(k, t.text(src))
				}
				if f.betweenAnd && !(k+2 < len(toks) && (toks[k+1].is(src, "DISTINCT") || toks[k+1].is(src, "NOT") && toks[k+2].is(src, "DISTINCT"))) {
					return near(k, t.text(src)) // in BETWEEN's lower bound only IS [NOT] DISTINCT FROM (b_expr)
				}
				f.cmp, f.like = false, false
				if assocWordOf(src, t) == awIs {
					n := k + 1
					if n < len(toks) && toks[n].is(src, "NOT") {
						n++
					}
					// IS [NOT] DISTINCT FROM leaves its right operand
					// open; the postfix forms close at their last word
					f.is = n+1 < len(toks) && toks[n].is(src, "DISTINCT") && toks[n+1].is(src, "FROM")
					if f.is {
						k = n + 1
					} else {
						k = n - 1
					}
				}
			case awCase:
				if d+1 == len(stack) {
					return nil
				}
				d++
				stack[d] = assocFrame{caseEnd: true}
			case awEnd:
				if f.caseEnd {
					d--
				} else {
					f.reset()
				}
			case awTypeCtor:
				// ARRAY<INT>, MAP<K, V>, ROW<a INT>: skip to the closing >
				if k+1 < len(toks) && toks[k+1].kind == tkOp && toks[k+1].text(src) == "<" {
					depth := 0
					for k++; k < len(toks); k++ {
						switch toks[k].text(src) {
						case "<":
							depth++
						case ">":
							depth--
						}
						if depth == 0 {
							break
						}
					}
				}
			}
		}
	}
	return nil
}
