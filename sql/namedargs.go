package sql

import (
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// Named argument notation, f(a => 1, b := 2), for the built-in functions
// PostgreSQL 15 gives parameter names (pg_proc.proargnames) and sqlgate
// implements. TiDB's grammar has no such notation: the rewrite puts the
// arguments in their parameters' order, filling a skipped parameter with
// its default, each argument's own tokens kept (errors inside point where
// they were written). As PostgreSQL's parser does, a positional argument
// after a named one is 42601, and so is a name given twice; a name the
// function does not have, a parameter given twice or one without a
// default left out is 42883 "function f(...) does not exist", which the
// binder words with the arguments' types: the call becomes
// pg__named_nomatch('f', name1, arg1, ...), '' naming a positional one.
// A function without parameter names matches no named argument.

// NamedNoMatch is the function the rewrite calls for a named-notation call
// that matches no overload of a built-in (see above).
const NamedNoMatch = "pg__named_nomatch"

// namedParam is one parameter of a built-in: its name and, when it may be
// left out, its default's text ("" with optional: only trailing, another
// overload has fewer parameters).
type namedParam struct {
	name     string
	dflt     string
	optional bool
}

// namedParams are PostgreSQL 15's parameter names and defaults
// (pg_get_function_arguments) of the built-ins sqlgate implements.
func namedParams(fn string) ([]namedParam, bool) {
	p := func(names ...string) []namedParam {
		ps := make([]namedParam, len(names))
		for i, n := range names {
			ps[i] = namedParam{name: n}
		}
		return ps
	}
	switch fn {
	case "make_date":
		return p("year", "month", "day"), true
	case "make_time":
		return p("hour", "min", "sec"), true
	case "make_timestamp":
		return p("year", "month", "mday", "hour", "min", "sec"), true
	case "make_timestamptz":
		return append(p("year", "month", "mday", "hour", "min", "sec"), namedParam{name: "timezone", optional: true}), true
	case "make_interval":
		return []namedParam{{"years", "0", true}, {"months", "0", true}, {"weeks", "0", true}, {"days", "0", true},
			{"hours", "0", true}, {"mins", "0", true}, {"secs", "0.0", true}}, true
	case "jsonb_set":
		return append(p("jsonb_in", "path", "replacement"), namedParam{"create_if_missing", "true", true}), true
	case "jsonb_insert":
		return append(p("jsonb_in", "path", "replacement"), namedParam{"insert_after", "false", true}), true
	case "jsonb_set_lax":
		return append(p("jsonb_in", "path", "replacement"), namedParam{"create_if_missing", "true", true},
			namedParam{"null_value_treatment", "'use_json_null'", true}), true
	case "parse_ident":
		return append(p("str"), namedParam{"strict", "true", true}), true
	case "pg_terminate_backend":
		return append(p("pid"), namedParam{"timeout", "0", true}), true
	case "json_array_elements", "json_array_elements_text", "json_each", "json_each_text",
		"jsonb_array_elements", "jsonb_array_elements_text", "jsonb_each", "jsonb_each_text":
		return p("from_json"), true
	}
	return nil, false
}

// rewriteNamedArgs rewrites the named-notation calls of toks (see above).
func rewriteNamedArgs(src string, toks []token) ([]token, error) {
	found := false // every statement passes here: two compares per token
	for i := range toks {
		if t := &toks[i]; t.kind == tkOp && t.end-t.start == 2 && t.synth == "" {
			if op := src[t.start:t.end]; op != "=>" && op != ":=" {
				continue
			}
			found = true
			break
		}
	}
	if !found {
		return toks, nil
	}
	for i := 0; i+1 < len(toks); i++ {
		t := toks[i]
		if t.kind != tkIdent || t.synth != "" || !toks[i+1].isPunct(src, "(") {
			continue
		}
		if i > 0 && toks[i-1].isPunct(src, ".") {
			continue // a qualified name: another schema's function, or left to TiDB
		}
		if w := t.word(src); nonOperandWords[w] || notCallWords[w] {
			continue // IN (...), VALUES (...), OVER (...): no call (aggorder.go)
		}
		// a function with no parameter names (or one sqlgate lacks) has
		// no overload a named argument matches: 42883, as PostgreSQL
		params, _ := namedParams(strings.ToLower(t.text(src)))
		args, closing := callArgs(src, toks, i+1)
		if closing < 0 {
			continue
		}
		call, err := namedCall(src, toks, i, args, params)
		if err != nil {
			return nil, err
		}
		if call == nil {
			continue
		}
		out := make([]token, 0, len(toks)-(closing+1-i)+len(call))
		out = append(out, toks[:i]...)
		out = append(out, call...)
		toks = append(out, toks[closing+1:]...)
	}
	return toks, nil
}

// callArgs splits the arguments of the call whose '(' is toks[open] at its
// top-level commas: each a [from, to) range of toks. closing is the index
// of the ')', or -1 when there is none.
func callArgs(src string, toks []token, open int) (args [][2]int, closing int) {
	depth, from := 0, open+1
	for i := open; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.isPunct(src, "(") || t.isPunct(src, "["):
			depth++
		case t.isPunct(src, ")") || t.isPunct(src, "]"):
			depth--
			if depth == 0 {
				if i > from || len(args) > 0 {
					args = append(args, [2]int{from, i})
				}
				return args, i
			}
		case depth == 1 && t.isPunct(src, ","):
			args = append(args, [2]int{from, i})
			from = i + 1
		}
	}
	return nil, -1
}

// namedArg is one argument of a call: its name ("" when positional) and
// its expression's tokens [from, to).
type namedArg struct {
	name     string
	from, to int
}

// namedCall returns the tokens that replace the call of toks[name] with
// the arguments args, or nil when none is named.
func namedCall(src string, toks []token, name int, args [][2]int, params []namedParam) ([]token, error) {
	var list []namedArg
	named := false
	for _, a := range args {
		from, to := a[0], a[1]
		if to-from >= 2 && (toks[from].kind == tkIdent || toks[from].kind == tkQIdent) &&
			(toks[from+1].isPunct(src, "=>") || toks[from+1].isPunct(src, ":=")) {
			if err := paramNameError(src, toks, from); err != nil {
				return nil, err
			}
			n, _ := identName(src, toks[from]) // ddl.go
			for _, prev := range list {
				if prev.name == n {
					return nil, sqlerr.New(sqlerr.SyntaxError, "argument name %q used more than once", n).WithPosition(charPos(src, toks[from].start))
				}
			}
			named = true
			list = append(list, namedArg{name: n, from: from + 2, to: to})
			continue
		}
		if named {
			return nil, sqlerr.New(sqlerr.SyntaxError, "positional argument cannot follow named argument").WithPosition(charPos(src, toks[from].start))
		}
		list = append(list, namedArg{from: from, to: to})
	}
	if !named {
		return nil, nil
	}
	at := toks[name]
	synth := func(kind tokKind, text string) token {
		return token{kind: kind, start: at.start, end: at.start, lead: at.start, synth: text}
	}
	slot := make([]int, len(params))
	for i := range slot {
		slot[i] = -1
	}
	match, last := true, -1
	for i, a := range list {
		p := i
		if a.name != "" {
			p = -1
			for k, prm := range params {
				if prm.name == a.name {
					p = k
				}
			}
		}
		if p < 0 || p >= len(params) || slot[p] >= 0 {
			match = false
			break
		}
		slot[p], last = i, max(last, p)
	}
	for k := range params {
		if match && slot[k] < 0 && (params[k].dflt == "" && (k < last || !params[k].optional)) {
			match = false
		}
	}
	var out []token
	if !match {
		out = append(out, synth(tkIdent, NamedNoMatch), toks[name+1], synth(tkString, quoteLiteral(strings.ToLower(at.text(src)))))
		for _, a := range list {
			out = append(out, synth(tkPunct, ","), synth(tkString, quoteLiteral(a.name)), synth(tkPunct, ","))
			out = append(out, toks[a.from:a.to]...)
		}
		return append(out, synth(tkPunct, ")")), nil
	}
	out = append(out, at, toks[name+1])
	for k := 0; k <= last; k++ {
		if k > 0 {
			out = append(out, synth(tkPunct, ","))
		}
		if slot[k] < 0 {
			kind := tkNumber
			if strings.HasPrefix(params[k].dflt, "'") {
				kind = tkString
			} else if params[k].dflt == "true" || params[k].dflt == "false" {
				kind = tkIdent
			}
			out = append(out, synth(kind, params[k].dflt))
			continue
		}
		a := list[slot[k]]
		out = append(out, toks[a.from:a.to]...)
	}
	return append(out, synth(tkPunct, ")")), nil
}

// quoteLiteral is s as a standard string literal.
func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// exprStartReserved are the reserved keywords that begin an expression
// (or, ALL, DISTINCT and VARIADIC, a call's argument list): before a =>
// or := PostgreSQL's grammar reads them so and refuses the operator.
var exprStartReserved = map[string]bool{
	"ALL": true, "ARRAY": true, "CASE": true, "CAST": true, "CURRENT_CATALOG": true,
	"CURRENT_DATE": true, "CURRENT_ROLE": true, "CURRENT_TIME": true, "CURRENT_TIMESTAMP": true,
	"CURRENT_USER": true, "DEFAULT": true, "DISTINCT": true, "FALSE": true, "LOCALTIME": true,
	"LOCALTIMESTAMP": true, "NOT": true, "NULL": true, "SESSION_USER": true, "TRUE": true,
	"UNIQUE": true, "USER": true, "VARIADIC": true,
}

// paramNameError is PostgreSQL's syntax error for an argument name (the
// word at toks[k], before => or :=) that is no type_function_name: a
// reserved keyword is refused where it stands, unless it begins an
// expression, and a column-name keyword (a column reference there) is
// refused at the operator after it, as are those reserved ones.
func paramNameError(src string, toks []token, k int) error {
	if toks[k].kind != tkIdent {
		return nil
	}
	w := toks[k].word(src)
	kw, ok := pgKeywords[w]
	switch {
	case !ok || kw.cat == kwUnreserved || kw.cat == kwTypeFuncName:
		return nil
	case kw.cat == kwReserved && !exprStartReserved[w]:
		return syntaxErrorAt(src, toks, k)
	}
	return syntaxErrorAt(src, toks, k+1)
}
