package sql

import "strings"

// CREATE VIEW's options, which TiDB's grammar does not have in
// PostgreSQL's places: WITH (name [= value], ...) after the view's name
// (and column list), and WITH [CASCADED | LOCAL] CHECK OPTION after its
// query. Both are taken out of the text TiDB parses, into
// Statement.ViewOptions in the order written, the check option last (as
// PostgreSQL's DefineView appends it to the list: check_option=local or
// cascaded). ALTER VIEW ... SET (..) | RESET (..) (rename.go) reads its
// list with viewOptionList.

// ViewOption is one option of a view's WITH (..) list, SET (..) or RESET
// (..): Value is the text written (an unquoted word lower-cased), "" with
// HasValue false when none was (RESET's names, or a bare boolean).
type ViewOption struct {
	Name, Value string
	HasValue    bool
}

// rewriteCreateView takes CREATE [OR REPLACE] VIEW's options out of toks
// (toks unchanged for another statement); st.end moves before a removed
// check option, so that the view's stored definition (OriginalFrom) ends
// with its query.
func rewriteCreateView(src string, toks []token, st *Statement) ([]token, error) {
	if len(toks) < 3 || !toks[0].is(src, "CREATE") {
		return toks, nil
	}
	i := 1
	if i+1 < len(toks) && toks[i].is(src, "OR") && toks[i+1].is(src, "REPLACE") {
		i += 2
	}
	if i >= len(toks) || !toks[i].is(src, "VIEW") {
		return toks, nil
	}
	i++
	// the name: words, quoted names and dots
	for i < len(toks) && (toks[i].kind == tkIdent && !toks[i].is(src, "AS") && !toks[i].is(src, "WITH") || toks[i].kind == tkQIdent || toks[i].isPunct(src, ".")) {
		i++
	}
	if i < len(toks) && toks[i].isPunct(src, "(") { // the column list
		depth := 0
		for ; i < len(toks); i++ {
			if toks[i].isPunct(src, "(") {
				depth++
			} else if toks[i].isPunct(src, ")") {
				if depth--; depth == 0 {
					i++
					break
				}
			}
		}
	}
	out := toks
	if i+1 < len(toks) && toks[i].is(src, "WITH") && toks[i+1].isPunct(src, "(") {
		opts, next, err := viewOptionList(src, toks, i+1, true)
		if err != nil {
			return nil, err
		}
		st.ViewOptions = opts
		out = append(append([]token(nil), toks[:i]...), toks[next:]...)
	}
	// WITH [CASCADED | LOCAL] CHECK OPTION at the end
	n := len(out)
	if n >= 4 && out[n-1].is(src, "OPTION") && out[n-2].is(src, "CHECK") {
		k, level := n-3, "cascaded"
		if out[k].is(src, "CASCADED") || out[k].is(src, "LOCAL") {
			level = strings.ToLower(out[k].text(src))
			k--
		}
		if k > 0 && out[k].is(src, "WITH") {
			st.ViewOptions = append(st.ViewOptions, ViewOption{Name: "check_option", Value: level, HasValue: true})
			out = out[:k]
			st.end = out[len(out)-1].end
		}
	}
	return out, nil
}

// viewOptionList reads a parenthesized option list starting at toks[i]
// ("("): name [= value], ... (values: a word, a quoted string or name, a
// number, optionally signed); withValues false (RESET) takes names alone.
// next is the index after ")".
func viewOptionList(src string, toks []token, i int, withValues bool) (opts []ViewOption, next int, err error) {
	if i >= len(toks) || !toks[i].isPunct(src, "(") {
		return nil, 0, syntaxErrorAt(src, toks, i)
	}
	i++
	for {
		if i >= len(toks) {
			return nil, 0, syntaxErrorAt(src, toks, i)
		}
		name, ok := identName(src, toks[i])
		if !ok {
			return nil, 0, syntaxErrorAt(src, toks, i)
		}
		i++
		// a qualified name (namespace.option): kept whole
		if i+1 < len(toks) && toks[i].isPunct(src, ".") {
			n2, ok := identName(src, toks[i+1])
			if !ok {
				return nil, 0, syntaxErrorAt(src, toks, i+1)
			}
			name, i = name+"."+n2, i+2
		}
		o := ViewOption{Name: name}
		if withValues && i < len(toks) && toks[i].isPunct(src, "=") {
			i++
			if i >= len(toks) {
				return nil, 0, syntaxErrorAt(src, toks, i)
			}
			sign := ""
			if toks[i].kind == tkOp && (toks[i].text(src) == "-" || toks[i].text(src) == "+") && i+1 < len(toks) && toks[i+1].kind == tkNumber {
				sign = toks[i].text(src)
				if sign == "+" {
					sign = ""
				}
				i++
			}
			switch toks[i].kind {
			case tkString:
				o.Value = unquoteString(toks[i].text(src))
			case tkNumber:
				o.Value = sign + toks[i].text(src)
			case tkIdent, tkQIdent:
				o.Value, _ = identName(src, toks[i])
			default:
				return nil, 0, syntaxErrorAt(src, toks, i)
			}
			o.HasValue = true
			i++
		}
		opts = append(opts, o)
		if i < len(toks) && toks[i].isPunct(src, ",") {
			i++
			continue
		}
		if i < len(toks) && toks[i].isPunct(src, ")") {
			return opts, i + 1, nil
		}
		return nil, 0, syntaxErrorAt(src, toks, i)
	}
}
