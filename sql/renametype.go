package sql

import "strings"

// RenameTypeInText renames the user-defined type from (in schema) to to in
// text, an expression, a query or a LANGUAGE sql function body kept as
// text (a default, a check, a view's query, a body): the stored texts
// name types by name where PostgreSQL's parse trees hold their OIDs, so
// ALTER TYPE / ALTER DOMAIN ... RENAME TO rewrites them to keep them
// meaning the same type. A type is named only in a type position: after
// ::, after AS inside CAST( or TREAT(, and before a string constant (a
// typed literal, st 'a'); there from, written bare (when unqualified
// names it) or qualified with schema, becomes to (qualified alike). A
// name elsewhere is a column's, a table's or a function's and is kept.
//
// changed reports whether a name was rewritten; ok is false when text
// does not lex (the caller refuses the rename rather than keep a text it
// cannot follow). The caller checks the result still parses as before.
func RenameTypeInText(text, schema, from, to string, unqualified bool) (out string, changed, ok bool) {
	return MoveTypeInText(text, schema, from, schema, to, unqualified)
}

// MoveTypeInText is RenameTypeInText for a type that moves to toSchema
// as well (ALTER TYPE / ALTER DOMAIN ... SET SCHEMA): a name written
// qualified is qualified with toSchema, and one written bare is qualified
// too unless toSchema is the default schema (public), where a bare name
// finds it.
func MoveTypeInText(text, schema, from, toSchema, to string, unqualified bool) (out string, changed, ok bool) {
	toks, err := lexInto(text, nil)
	if err != nil {
		return text, false, false
	}
	// castAS[k] marks the parentheses opened by CAST( / TREAT(, where AS
	// is followed by a type
	var parens []bool
	// a hit's span is the name, or the qualifier and the name when the
	// schema changes (nameStart: where the name begins)
	type span struct{ start, end, nameStart int }
	var hits []span
	for k := 0; k < len(toks); k++ {
		t := toks[k]
		switch {
		case t.isPunct(text, "("):
			parens = append(parens, k > 0 && (toks[k-1].is(text, "CAST") || toks[k-1].is(text, "TREAT")))
			continue
		case t.isPunct(text, ")"):
			if len(parens) > 0 {
				parens = parens[:len(parens)-1]
			}
			continue
		}
		name, isName := identName(text, t)
		if !isName || name != from {
			continue
		}
		if k > 0 && toks[k-1].isPunct(text, ".") {
			// schema.from: from is the type when the qualifier is schema
			if k < 2 {
				continue
			}
			q, qok := identName(text, toks[k-2])
			if !qok || q != schema || !typePosition(text, toks, k-2, parens) {
				continue
			}
			start := t.start
			if toSchema != schema {
				start = toks[k-2].start // the qualifier changes too
			}
			hits = append(hits, span{start, t.end, t.start})
			continue
		}
		if k+1 < len(toks) && toks[k+1].isPunct(text, ".") {
			continue // from.x: a table's or a schema's name
		}
		if unqualified && (typePosition(text, toks, k, parens) || k+1 < len(toks) && toks[k+1].kind == tkString && text[toks[k+1].start] == '\'') {
			hits = append(hits, span{t.start, t.end, t.start})
		}
	}
	if len(hits) == 0 {
		return text, false, true
	}
	var b strings.Builder
	last := 0
	for _, h := range hits {
		b.WriteString(text[last:h.start])
		if toSchema != schema && (h.start != h.nameStart || toSchema != defaultTypeSchema) {
			b.WriteString(NameText(toSchema) + ".")
		}
		b.WriteString(NameText(to))
		last = h.end
	}
	b.WriteString(text[last:])
	return b.String(), true, true
}

// defaultTypeSchema is the schema where a bare type name finds a type
// first (fluss.DefaultDatabase, which sql does not import).
const defaultTypeSchema = "public"

// typePosition reports whether the name at toks[k] stands where a type
// name does: after :: or after AS in a CAST( or TREAT( parenthesis.
func typePosition(text string, toks []token, k int, parens []bool) bool {
	if k == 0 {
		return false
	}
	p := toks[k-1]
	if p.isPunct(text, "::") {
		return true
	}
	return p.is(text, "AS") && len(parens) > 0 && parens[len(parens)-1]
}

// NameText is a type's or function's name as written into a stored text
// or signature: bare when it is a plain lower-case word, else quoted.
func NameText(s string) string {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || i > 0 && (r >= '0' && r <= '9' || r == '$')) {
			return quoteIdent(s)
		}
	}
	if s == "" {
		return quoteIdent(s)
	}
	return s
}

// RenameFunctionInText renames the function from (in schema) to to in
// text as RenameTypeInText renames a type: every call of it, from( written
// bare or qualified with schema, becomes to(; a name not followed by (
// is a column's or a table's and is kept, as is one after :: or a
// qualifier other than schema.
func RenameFunctionInText(text, schema, from, to string) (out string, changed, ok bool) {
	toks, err := lexInto(text, nil)
	if err != nil {
		return text, false, false
	}
	var b strings.Builder
	last := 0
	for k, t := range toks {
		name, isName := identName(text, t)
		if !isName || name != from || k+1 >= len(toks) || !toks[k+1].isPunct(text, "(") {
			continue
		}
		if k > 0 && toks[k-1].isPunct(text, "::") {
			continue
		}
		if k > 0 && toks[k-1].isPunct(text, ".") {
			if k < 2 {
				continue
			}
			if q, qok := identName(text, toks[k-2]); !qok || q != schema {
				continue
			}
		}
		b.WriteString(text[last:t.start])
		b.WriteString(NameText(to))
		last = t.end
		changed = true
	}
	if !changed {
		return text, false, true
	}
	b.WriteString(text[last:])
	return b.String(), true, true
}
