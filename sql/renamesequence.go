package sql

import "strings"

// RenameRelationInRegclass rewrites, in text (a stored default, check,
// view query or function body), the names of the relation fromSchema.from
// that PostgreSQL resolves to an OID when it parses: a string constant
// cast to regclass ('s'::regclass, CAST('s' AS regclass), regclass 's')
// and the sequence argument of nextval, currval and setval (its 's' is
// coerced to regclass). PostgreSQL's stored expressions hold that OID,
// so they follow ALTER SEQUENCE ... RENAME TO / SET SCHEMA; sqlgate keeps
// the text, so the rename rewrites the constant to name toSchema.to. A
// constant written qualified stays qualified; a bare one (which names a
// relation of the default schema, defaultSchema) stays bare while the
// relation stays there. Any other string (pg_get_serial_sequence's
// argument, a text cast at run time) is text in PostgreSQL too and is kept.
//
// changed reports whether a constant was rewritten; ok is false when text
// does not lex.
func RenameRelationInRegclass(text, defaultSchema, fromSchema, from, toSchema, to string) (out string, changed, ok bool) {
	toks, err := lexInto(text, nil)
	if err != nil {
		return text, false, false
	}
	var b strings.Builder
	last := 0
	for k, t := range toks {
		if t.kind != tkString || text[t.start] != '\'' || !regclassConstant(text, toks, k) {
			continue
		}
		parts, named := relationNameParts(unquoteString(t.text(text)))
		if !named {
			continue
		}
		schema, name := defaultSchema, parts[len(parts)-1]
		if len(parts) == 2 {
			schema = parts[0]
		}
		if name != from || schema != fromSchema {
			continue
		}
		lit := NameText(to)
		if len(parts) == 2 || toSchema != defaultSchema {
			lit = NameText(toSchema) + "." + lit
		}
		b.WriteString(text[last:t.start])
		b.WriteString("'" + strings.ReplaceAll(lit, "'", "''") + "'")
		last = t.end
		changed = true
	}
	if !changed {
		return text, false, true
	}
	b.WriteString(text[last:])
	return b.String(), true, true
}

// regclassCalls are the functions whose first argument, a string
// constant, PostgreSQL coerces to regclass at parse time.
var regclassCalls = map[string]bool{"nextval": true, "currval": true, "setval": true}

// regclassConstant reports whether the string constant toks[k] is read
// as a regclass when text is parsed.
func regclassConstant(text string, toks []token, k int) bool {
	isRegclass := func(i int) bool { // pg_catalog.regclass too
		n, ok := identName(text, toks[i])
		return ok && n == "regclass"
	}
	next := func(i int) bool { return i < len(toks) }
	switch {
	case next(k+2) && toks[k+1].isPunct(text, "::") && isRegclass(k+2):
		return true
	case k >= 2 && next(k+2) && toks[k-1].isPunct(text, "(") && toks[k-2].is(text, "CAST") && toks[k+1].is(text, "AS") && isRegclass(k+2):
		return true
	case k >= 1 && isRegclass(k-1) && (k < 2 || !toks[k-2].isPunct(text, "::")):
		return true // regclass 's', a typed constant
	case k >= 2 && toks[k-1].isPunct(text, "(") && next(k+1) && (toks[k+1].isPunct(text, ",") || toks[k+1].isPunct(text, ")") || toks[k+1].isPunct(text, "::")):
		n, ok := identName(text, toks[k-2])
		if !ok || !regclassCalls[n] {
			return false
		}
		if k >= 4 && toks[k-3].isPunct(text, ".") {
			q, _ := identName(text, toks[k-4])
			return q == "pg_catalog"
		}
		return true
	}
	return false
}

// relationNameParts reads a regclass constant's text as regclassin
// does: name or schema.name, each part a word (folded to lower case) or
// a quoted name. named is false for anything else (a database-qualified
// name, an OID, a syntax error), which the rename leaves alone.
func relationNameParts(s string) ([]string, bool) {
	toks, err := lexInto(s, nil)
	if err != nil || len(toks) == 0 || len(toks) > 3 || len(toks)%2 == 0 {
		return nil, false
	}
	var parts []string
	for i, t := range toks {
		if i%2 == 1 {
			if !t.isPunct(s, ".") {
				return nil, false
			}
			continue
		}
		n, ok := identName(s, t)
		if !ok {
			return nil, false
		}
		parts = append(parts, n)
	}
	return parts, true
}

// RegclassNames reports whether text names the relation schema.name in a
// constant PostgreSQL resolves to its OID (RenameRelationInRegclass's):
// a dependency PostgreSQL records (DROP SEQUENCE refuses to leave a
// default drawing from a dropped sequence).
func RegclassNames(text, defaultSchema, schema, name string) bool {
	_, changed, _ := RenameRelationInRegclass(text, defaultSchema, schema, name, schema, name+"_")
	return changed
}
