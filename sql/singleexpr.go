package sql

// Constructs whose brackets hold one expression (or a fixed shape) in
// PostgreSQL's grammar (gram.y), where a comma at their top level is the
// syntax error at that comma. The rewrite turns several of them into
// calls of its markers or of functions (x op ANY (..) -> pg__any(..),
// extract(f FROM x) -> pg__extract(..), position(a IN b) ->
// pg__position(..)), which take the extra argument and fail later with
// another error (malformed ANY/ALL, no function extract(unknown, ..,
// integer)), or not at all (overlay(.. FROM 1, 3)). singleExprError reads
// the statement's tokens for PostgreSQL's rule before any rewrite:
//
//   - a_expr subquery_Op sub_type '(' a_expr ')' (= ANY (..), LIKE ALL
//     (..)) unless a subquery stands there;
//   - CAST '(' a_expr AS Typename ')', TREAT (..), EXTRACT '(' extract_arg
//     FROM a_expr ')', POSITION '(' b_expr IN b_expr ')', COLLATION FOR
//     '(' a_expr ')' (not empty either);
//   - NULLIF '(' a_expr ',' a_expr ')', COALESCE, GREATEST and LEAST
//     '(' expr_list ')' (not empty), NORMALIZE '(' a_expr [','
//     unicode_normal_form] ')';
//   - SUBSTRING and OVERLAY: after their FROM, FOR, SIMILAR, ESCAPE or
//     PLACING (the keyword forms: substr_list, overlay_list) no comma; TRIM
//     '(' [BOTH|LEADING|TRAILING] a_expr FROM expr_list ')': no FROM after
//     a comma;
//   - a subscript '[' a_expr ']' or slice '[' a : b ']' (no comma), and
//     none after a string constant or an ARRAY[..] constructor;
//   - a keyword type's one integer modifier (char(n), varchar(n),
//     float(p), time(p), timestamp(p), interval(p)) after :: or CAST's AS;
//   - FILTER '(' WHERE a_expr ')', a window frame's bounds (no comma
//     after ROWS, RANGE or GROUPS), OFFSET's one value;
//   - ARRAY '(' holds a query; CURRENT_DATE, CURRENT_USER, CURRENT_ROLE,
//     SESSION_USER, USER and CURRENT_CATALOG take no parentheses.
//
// The first such token wins (PostgreSQL's parser stops at the first error);
// an earlier error of another kind is found by parsing the statement up to
// the token (truncatedError in unclosed.go).

// singleExprWords are the words that start one of the constructs.
var singleExprWords = map[string]uint8{
	"ANY": seQuantifier, "SOME": seQuantifier, "ALL": seQuantifier,
	"CAST": seOneExpr, "TREAT": seOneExpr, "EXTRACT": seOneExpr, "POSITION": seOneExpr,
	"NULLIF": seNullif, "COALESCE": seNonEmpty, "GREATEST": seNonEmpty, "LEAST": seNonEmpty,
	"NORMALIZE": seNormalize, "SUBSTRING": seKeywordForm, "OVERLAY": seKeywordForm, "TRIM": seTrim,
	"FILTER": seFilter, "OVER": seOver, "OFFSET": seOffset, "ARRAY": seArray,
	"CURRENT_DATE": seNoParens, "CURRENT_USER": seNoParens, "CURRENT_ROLE": seNoParens,
	"SESSION_USER": seNoParens, "USER": seNoParens, "CURRENT_CATALOG": seNoParens,
}

const (
	seQuantifier uint8 = iota + 1
	seOneExpr
	seNullif
	seNonEmpty
	seNormalize
	seKeywordForm
	seTrim
	seFilter
	seOver
	seOffset
	seArray
	seNoParens
)

// singleExprError is the syntax error of the first construct of the
// statement toks that holds more than its grammar takes (see above), or
// nil.
func singleExprError(src string, toks []token, terminated bool) error {
	if len(toks) == 0 || !queryOrWrite(src, toks[0]) && !toks[0].is(src, "MERGE") && !toks[0].is(src, "EXPLAIN") {
		return nil
	}
	first := -1
	note := func(i int) {
		if i >= 0 && (first < 0 || i < first) {
			first = i
		}
	}
	for k := 1; k < len(toks); k++ {
		t := toks[k]
		if first >= 0 && k >= first {
			break
		}
		switch {
		case t.isPunct(src, "["):
			if toks[k-1].is(src, "ARRAY") {
				note(arrayExprError(src, toks, k))
			} else {
				note(subscriptError(src, toks, k))
			}
			continue
		case t.isPunct(src, "(") && k+2 < len(toks) && toks[k+1].isPunct(src, "*") && toks[k+2].isPunct(src, ",") &&
			(toks[k-1].kind == tkIdent || toks[k-1].kind == tkQIdent):
			note(k + 2) // f(*) takes nothing more: count(*, x)
			continue
		case t.isPunct(src, "::"):
			note(typeModifierError(src, toks, k+1))
			continue
		case t.is(src, "COLLATION") && k+2 < len(toks) && toks[k+1].is(src, "FOR") && toks[k+2].isPunct(src, "(") &&
			typeCallFollows(src, toks[k-1]):
			// COLLATION FOR '(' a_expr ')'
			if m := matchParen(src, toks, k+2); m == k+3 {
				note(m)
			} else if m > 0 {
				note(topComma(src, toks, k+3, m))
			}
			continue
		case t.kind != tkIdent || t.synth != "":
			continue
		}
		kind, ok := lookupWord(src, t, singleExprWords)
		if !ok || toks[k-1].isPunct(src, ".") {
			continue
		}
		open := k + 1
		hasParen := open < len(toks) && toks[open].isPunct(src, "(")
		switch kind {
		case seNoParens:
			if hasParen && typeCallFollows(src, toks[k-1]) {
				note(open)
			}
			continue
		case seOffset:
			note(offsetError(src, toks, k))
			continue
		}
		if !hasParen {
			continue
		}
		m := matchParen(src, toks, open)
		if m < 0 {
			continue // unclosed: unclosedError's case
		}
		prev := toks[k-1]
		switch kind {
		case seQuantifier:
			if (prev.kind == tkOp && !prev.isPunct(src, "*")) || prev.is(src, "LIKE") || prev.is(src, "ILIKE") {
				if !subqueryIn(src, toks, open, m) {
					note(topComma(src, toks, open+1, m))
				}
			}
		case seOneExpr:
			if !typeCallFollows(src, prev) {
				continue
			}
			end := m
			if t.is(src, "CAST") || t.is(src, "TREAT") {
				// the type after AS: its own modifiers (a comma of
				// map<string, int>, sqlgate's own types, is no error)
				for i := range topLevel(src, toks, open+1, m) {
					if toks[i].is(src, "AS") {
						note(typeModifierError(src, toks, i+1))
						end = i
						break
					}
				}
			}
			note(topComma(src, toks, open+1, end))
		case seNullif:
			if !typeCallFollows(src, prev) {
				continue
			}
			commas := 0
			for i := range topLevel(src, toks, open+1, m) {
				if toks[i].isPunct(src, ",") {
					if commas++; commas == 2 {
						note(i)
						break
					}
				}
			}
			if commas == 0 {
				note(m)
			}
		case seNonEmpty:
			if m == open+1 && typeCallFollows(src, prev) {
				note(m)
			}
		case seNormalize:
			if !typeCallFollows(src, prev) {
				continue
			}
			if c := topComma(src, toks, open+1, m); c >= 0 {
				switch {
				case c+1 >= m || !isNormalForm(src, toks[c+1]):
					note(c + 1)
				case c+2 < m:
					note(c + 2)
				}
			}
		case seKeywordForm:
			if !typeCallFollows(src, prev) {
				continue
			}
			comma := false
			for i := range topLevel(src, toks, open+1, m) {
				w := toks[i]
				if w.isPunct(src, ",") {
					comma = true // func_arg_list: no keyword after it
					continue
				}
				if !(w.is(src, "FROM") || w.is(src, "FOR") || w.is(src, "SIMILAR") || w.is(src, "PLACING")) ||
					w.is(src, "FOR") && toks[i-1].is(src, "COLLATION") && i+1 < m && toks[i+1].isPunct(src, "(") {
					continue // COLLATION FOR (x), an argument
				}
				switch {
				case !comma:
					note(topComma(src, toks, i+1, m))
				case w.is(src, "SIMILAR"):
					// after an operand only: after an operator SIMILAR 'a' is
					// a typed literal (SIMILAR is a type_func_name keyword)
					if p := toks[i-1]; i+1 < m && !toks[i+1].is(src, "TO") && p.kind != tkOp && !p.isPunct(src, ",") && !p.isPunct(src, "(") {
						note(i + 1) // x SIMILAR TO y, the operator
					}
				default:
					note(i)
				}
				break
			}
		case seTrim:
			if !typeCallFollows(src, prev) {
				continue
			}
			comma := false
			for i := range topLevel(src, toks, open+1, m) {
				if toks[i].isPunct(src, ",") {
					comma = true
				} else if comma && toks[i].is(src, "FROM") {
					note(i)
					break
				}
			}
		case seFilter:
			if prev.isPunct(src, ")") && open+1 < m && toks[open+1].is(src, "WHERE") {
				note(topComma(src, toks, open+2, m))
			}
		case seOver:
			if !prev.isPunct(src, ")") {
				continue
			}
			for i := range topLevel(src, toks, open+1, m) {
				if w := toks[i]; w.is(src, "ROWS") || w.is(src, "RANGE") || w.is(src, "GROUPS") {
					note(topComma(src, toks, i+1, m))
					break
				}
			}
		case seArray:
			if !startsQuery(src, toks[open+1]) && !toks[open+1].isPunct(src, "(") {
				note(open + 1)
			}
		}
	}
	if first < 0 {
		return nil
	}
	return syntaxErrorAtToken(src, toks, first, terminated)
}

// topComma is the index of the first comma of toks[from:to] outside any
// bracket, or -1.
func topComma(src string, toks []token, from, to int) int {
	for i := range topLevel(src, toks, from, to) {
		if toks[i].isPunct(src, ",") {
			return i
		}
	}
	return -1
}

// startsQuery reports a word that starts a query (select_no_parens).
func startsQuery(src string, t token) bool {
	return t.is(src, "SELECT") || t.is(src, "VALUES") || t.is(src, "WITH") || t.is(src, "TABLE")
}

// subqueryIn reports whether the parentheses open..m of op ANY (..) hold
// a query: one that starts there, or a parenthesised one followed by a set
// operation or a query's trailing clause ((SELECT ..) UNION ..).
func subqueryIn(src string, toks []token, open, m int) bool {
	i := open + 1
	for i < m && toks[i].isPunct(src, "(") {
		c := matchParen(src, toks, i)
		if c < 0 || c+1 >= m {
			i++ // the parentheses hold all: look inside
			continue
		}
		switch after := toks[c+1]; {
		case after.is(src, "UNION"), after.is(src, "INTERSECT"), after.is(src, "EXCEPT"), after.is(src, "ORDER"),
			after.is(src, "LIMIT"), after.is(src, "OFFSET"), after.is(src, "FETCH"), after.is(src, "FOR"):
			return true
		}
		return false // an operand of an expression: ((SELECT ..) || x, y)
	}
	return i < m && startsQuery(src, toks[i])
}

// isNormalForm reports NORMALIZE's unicode_normal_form: NFC, NFD, NFKC or
// NFKD.
func isNormalForm(src string, t token) bool {
	return t.kind == tkIdent && (t.is(src, "NFC") || t.is(src, "NFD") || t.is(src, "NFKC") || t.is(src, "NFKD"))
}

// subscriptError is the error of the subscript opened by the '[' at k:
// at the '[' after a string constant or an ARRAY[..] constructor (neither
// takes indirection), at a comma in it, or -1 (also when the '[' is no
// subscript: an ARRAY's or a nested array's bracket).
func subscriptError(src string, toks []token, k int) int {
	if k == 0 {
		return -1
	}
	prev := toks[k-1]
	switch {
	case prev.kind == tkString || prev.kind == tkEString || prev.kind == tkDollar:
		return k
	case prev.isPunct(src, "]"):
		// ARRAY[..][..]: find the bracket's opener
		depth := 0
		for i := k - 1; i > 0; i-- {
			switch {
			case toks[i].isPunct(src, "]"):
				depth++
			case toks[i].isPunct(src, "["):
				if depth--; depth == 0 {
					if toks[i-1].is(src, "ARRAY") {
						return k
					}
					i = 0
				}
			}
		}
	case prev.kind == tkIdent:
		if prev.is(src, "ARRAY") || prev.is(src, "MAP") {
			return -1
		}
		if kw, ok := pgKeywords[prev.word(src)]; ok && kw.cat == kwReserved {
			return -1
		}
	case prev.kind == tkQIdent, prev.kind == tkParam, prev.isPunct(src, ")"):
	default:
		return -1
	}
	depth := 0
	for i := k + 1; i < len(toks); i++ {
		switch {
		case toks[i].isPunct(src, "[") || toks[i].isPunct(src, "("):
			depth++
		case toks[i].isPunct(src, "]") || toks[i].isPunct(src, ")"):
			if depth == 0 {
				return -1
			}
			depth--
		case depth == 0 && toks[i].isPunct(src, ","):
			return i
		}
	}
	return -1
}

// typeModifierError is the error of a keyword type name with one integer
// modifier (char(n), varchar(n), float(p), time(p), timestamp(p),
// interval(p)) starting at k, after :: or CAST's AS: at the token after
// the "(" that is no integer constant, or the one after it that is no
// ")"; -1 when the type is well formed or another.
func typeModifierError(src string, toks []token, k int) int {
	if k >= len(toks) {
		return -1
	}
	shape, ok := lookupWord(src, toks[k], typeKeywordShapes) // funccast.go
	if !ok || shape != oneInteger {
		return -1
	}
	w := toks[k].word(src)
	i := typeWordsEnd(src, toks, k, w)
	if i+1 >= len(toks) || !toks[i+1].isPunct(src, "(") {
		return -1
	}
	switch {
	case i+2 >= len(toks):
		return -1 // unclosed
	case !isIconst(src, toks[i+2]):
		return i + 2
	case i+3 < len(toks) && !toks[i+3].isPunct(src, ")"):
		return i + 3
	}
	return -1
}

// offsetError is the comma after OFFSET's value (at k) at its level, or
// -1: select_offset_value is one expression, and the clauses that may
// follow it at that level (LIMIT, FETCH, FOR UPDATE OF a, b, ON CONFLICT,
// RETURNING) end the search.
func offsetError(src string, toks []token, k int) int {
	depth := 0
	for i := k + 1; i < len(toks); i++ {
		t := toks[i]
		switch d := t.nesting(src); {
		case d > 0:
			depth++
			continue
		case d < 0:
			if depth--; depth < 0 {
				return -1
			}
			continue
		}
		if depth > 0 {
			continue
		}
		switch {
		case t.isPunct(src, ","):
			return i
		case t.kind == tkIdent && (t.is(src, "LIMIT") || t.is(src, "FETCH") || t.is(src, "FOR") || t.is(src, "ON") ||
			t.is(src, "RETURNING") || t.is(src, "UNION") || t.is(src, "INTERSECT") || t.is(src, "EXCEPT")):
			return -1
		}
	}
	return -1
}

// arrayExprError is the error of the ARRAY[..] whose "[" is at open:
// array_expr's items are all expressions or all nested [..] lists (ARRAY[[1,
// 2], x] is the error at x, ARRAY[1, [2]] at the "["), in each nested list
// too; -1 when they agree or a bracket is unclosed.
func arrayExprError(src string, toks []token, open int) int {
	depth, start, nested := 0, open+1, -1 // nested: the first item's kind, 1 a list
	for i := open + 1; i < len(toks); i++ {
		t := toks[i]
		if depth == 0 && (t.isPunct(src, ",") || t.isPunct(src, "]")) {
			if i > start {
				isList := 0
				if toks[start].isPunct(src, "[") {
					isList = 1
					if e := arrayExprError(src, toks, start); e >= 0 {
						return e
					}
				}
				if nested < 0 {
					nested = isList
				} else if nested != isList {
					return start
				}
			}
			if t.isPunct(src, "]") {
				return -1
			}
			start = i + 1
			continue
		}
		depth += t.nesting(src)
		if depth < 0 {
			return -1
		}
	}
	return -1
}

// ddlSingleExprError is the syntax error of a CREATE or ALTER statement's
// first construct whose parentheses hold one expression in PostgreSQL's
// grammar and a comma at their top level: a CHECK constraint's '('
// a_expr ')', a generated column's GENERATED ALWAYS AS '(' a_expr ')',
// and an index element's '(' a_expr ')' (CREATE INDEX .. ON t ((a, b)));
// nil when there is none. TiDB's grammar took the comma as a row
// constructor, refused later with another error.
func ddlSingleExprError(src string, toks []token, terminated bool) error {
	if len(toks) < 4 || !toks[0].is(src, "CREATE") && !toks[0].is(src, "ALTER") {
		return nil
	}
	first := -1
	note := func(i int) {
		if i >= 0 && (first < 0 || i < first) {
			first = i
		}
	}
	index := false // CREATE [UNIQUE] INDEX
	for k := 1; k < len(toks) && k < 4; k++ {
		if toks[k].is(src, "INDEX") {
			index = true
		}
	}
	for k := 1; k+1 < len(toks); k++ {
		if first >= 0 && k >= first {
			break
		}
		t := toks[k]
		switch {
		case t.is(src, "CHECK") && toks[k+1].isPunct(src, "("),
			t.is(src, "AS") && toks[k+1].isPunct(src, "(") && toks[k-1].is(src, "ALWAYS") && k >= 2 && toks[k-2].is(src, "GENERATED"):
			if m := matchParen(src, toks, k+1); m > 0 {
				note(topComma(src, toks, k+2, m))
			}
		case index && t.is(src, "ON"):
			index = false
			open := k + 1
			for open < len(toks) && !toks[open].isPunct(src, "(") {
				open++
			}
			m := -1
			if open < len(toks) {
				m = matchParen(src, toks, open)
			}
			if m < 0 {
				return nil
			}
			// each element that starts with '(' holds one expression
			start := open + 1
			for i := open + 1; i <= m; i++ {
				if d := toks[i].nesting(src); d > 0 {
					c := matchParen(src, toks, i)
					if c < 0 {
						return nil
					}
					if i == start {
						note(topComma(src, toks, i+1, c))
					}
					i = c
					continue
				}
				if toks[i].isPunct(src, ",") {
					start = i + 1
				}
			}
		}
	}
	if first < 0 {
		return nil
	}
	return syntaxErrorAtToken(src, toks, first, terminated)
}
