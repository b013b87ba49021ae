package sql

// typeCallWords are the names of PostgreSQL types, no keywords of
// PostgreSQL's grammar, that TiDB's grammar reads as its own type
// keywords, where they cannot start a function call: PostgreSQL reads
// int4('12'), float8(1), text(1), bool('t'), json('{}') as calls, which
// its func_get_detail then takes as casts (the binder's funccast.go). The
// other type names (date, name, oid, inet, jsonb ...) TiDB already reads
// as calls; PostgreSQL's keywords among the type names (int, numeric,
// varchar, char, time, timestamp, interval ...) are no function names
// there either, and TiDB's syntax error at them stands.
var typeCallWords = map[string]string{
	"BOOL": `"bool"`, "INT2": `"int2"`, "INT4": `"int4"`, "INT8": `"int8"`,
	"FLOAT4": `"float4"`, "FLOAT8": `"float8"`, "TEXT": `"text"`, "JSON": `"json"`,
}

// quoteTypeCalls quotes the name of a call of one of typeCallWords in an
// expression, so that TiDB reads an ordinary function call. Not a type
// with modifiers: after :: or AS or TYPE, after a column's name in a
// definition (a int4(11)), or before a string (a typed literal's
// int4(1) '2', which the rewrite reads as one).
func quoteTypeCalls(src string, toks []token) []token {
	out := toks
	copied := false
	for i := 0; i+1 < len(toks); i++ {
		t := toks[i]
		if t.kind != tkIdent || t.synth != "" || !toks[i+1].isPunct(src, "(") {
			continue
		}
		q, ok := typeCallWords[t.word(src)]
		if !ok || i > 0 && !typeCallFollows(src, toks[i-1]) {
			continue
		}
		if m := matchParen(src, toks, i+1); m < 0 || m+1 < len(toks) && isLiteralString(src, toks[m+1]) {
			continue
		}
		if !copied {
			out = append([]token(nil), toks...)
			copied = true
		}
		out[i].kind, out[i].synth = tkQIdent, q
	}
	return out
}

// typeCallFollows reports whether a call may follow prev where a type
// name with modifiers could too: not after a name (a column definition's
// type, a qualified name's part), ::, AS, TYPE, RETURNS or SETOF.
func typeCallFollows(src string, prev token) bool {
	switch prev.kind {
	case tkQIdent, tkUIdent:
		return false
	case tkPunct:
		return !prev.isPunct(src, ".")
	case tkOp:
		return prev.text(src) != "::"
	case tkIdent:
		w := prev.word(src)
		kw, keyword := pgKeywords[w]
		switch {
		case !keyword || w == "AS" || w == "SETOF":
			return false
		case kw.cat == kwUnreserved:
			// a column may be named by an unreserved keyword (name int4(11))
			return w == "BY"
		}
	}
	return true
}

// matchParen is the index of the ")" closing the "(" at open, or -1.
func matchParen(src string, toks []token, open int) int {
	depth := 0
	for k := open; k < len(toks); k++ {
		switch {
		case toks[k].isPunct(src, "("):
			depth++
		case toks[k].isPunct(src, ")"):
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}
