package deparse

import (
	"slices"
	"strings"

	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
)

// Calls of user functions as PostgreSQL's parser reads them
// (parse_func.c's func_get_detail over namespace.c's
// FuncnameGetCandidates) and ruleutils.c's get_func_expr prints them:
// any number of arguments; named arguments (f(a => 1), f(1, c := 2)),
// each kept in the call's order and printed name => value; a function's
// trailing parameters left to their DEFAULTs (not printed: the planner
// adds them); a VARIADIC function's trailing arguments gathered into an
// array, printed VARIADIC ARRAY[..] (funcvariadic is set for the
// gathered form too), or the array given after the word VARIADIC.

// userForm is one way a call may match a user function: the types its
// arguments take, in the call's order (a named argument its parameter's,
// a gathered variadic argument the element's).
type userForm struct {
	f     int      // index in the analyzer's functions
	types []uint32 // per argument of the call
	// gather is the index of the first argument gathered into the
	// VARIADIC array (-1: none).
	gather int
}

func (u userForm) args() []uint32 { return u.types }

// userFunctions are the user functions a call may find (Scope.Functions,
// or the view's).
func (a *analyzer) userFunctions() []Function {
	if a.funcs == nil && a.qa != nil {
		return a.qa.funcs
	}
	return a.funcs
}

// hasUserFunction reports whether a user function is named name.
func (a *analyzer) hasUserFunction(name string) bool {
	for _, f := range a.userFunctions() {
		if f.Name == name {
			return true
		}
	}
	return false
}

// variadicArg reports whether the last of args is the rewrite's marker of
// an argument written VARIADIC x, and returns x.
func variadicArg(args []pt.Expr) (pt.Expr, bool) {
	if len(args) == 0 {
		return nil, false
	}
	c, ok := args[len(args)-1].(*pt.FuncCall)
	if !ok || c.Schema != "" || !strings.EqualFold(c.Name, sql.VariadicMarker) || len(c.Args) != 1 {
		return nil, false
	}
	return c.Args[0], true
}

// namedUserCall is the rewrite's pg__named_nomatch('f', 'name', arg, ..)
// of a call in named notation (” names a positional argument).
func (a *analyzer) namedUserCall(n *pt.FuncCall) (node, error) {
	if len(n.Args)%2 != 1 {
		return nil, errUnsupported("named call")
	}
	lit, ok := n.Args[0].(*pt.Literal)
	if !ok || lit.Kind != pt.LitString {
		return nil, errUnsupported("named call")
	}
	var args []pt.Expr
	var names []string
	for i := 1; i+1 < len(n.Args); i += 2 {
		l, ok := n.Args[i].(*pt.Literal)
		if !ok || l.Kind != pt.LitString {
			return nil, errUnsupported("named call")
		}
		names = append(names, l.Text)
		args = append(args, n.Args[i+1])
	}
	return a.userCall("", lit.Text, args, names)
}

// userCall is a call of a user function in schema ("": the one the
// search path finds; user functions live in public) with argExprs, names
// naming them (nil, or "" for a positional one).
func (a *analyzer) userCall(schema, name string, argExprs []pt.Expr, names []string) (node, error) {
	argExprs = append([]pt.Expr(nil), argExprs...)
	keyword := false // the last argument written VARIADIC x
	if x, ok := variadicArg(argExprs); ok {
		argExprs[len(argExprs)-1], keyword = x, true
	}
	args, err := a.exprs(argExprs)
	if err != nil {
		return nil, err
	}
	args = toBaseTypes(args)
	ts := make([]typ, len(args))
	for i, x := range args {
		ts[i] = x.typeOf()
	}
	funcs := a.userFunctions()
	var forms []userForm
	for i, f := range funcs {
		if f.Name != name || schema != "" && f.Schema != schema {
			continue
		}
		if form, ok := matchUserForm(f, i, len(args), names, keyword); ok {
			forms = append(forms, form)
		}
	}
	// forms alike: FuncnameGetCandidates keeps a plain one over one that
	// gathers VARIADIC elements; two others are ambiguous (not
	// reproduced)
	for i := 0; i < len(forms); i++ {
		for j := i + 1; j < len(forms); j++ {
			x, y := forms[i], forms[j]
			if !slices.Equal(x.types, y.types) {
				continue
			}
			switch {
			case x.gather >= 0 && y.gather < 0:
				forms = slices.Delete(forms, i, i+1)
				i, j = i-1, len(forms)
			case y.gather >= 0 && x.gather < 0:
				forms = slices.Delete(forms, j, j+1)
				j--
			default:
				return nil, errUnsupported("%s with several forms alike", name)
			}
		}
	}
	form, ok := resolve(forms, ts)
	if !ok {
		return nil, errUnsupported("no unique %s for %d arguments", name, len(args))
	}
	f := funcs[form.f]
	out := make([]node, 0, len(args))
	for i, x := range args {
		// (a gathered argument's type is the array's element type)
		c, err := a.coerce(x, typeOfOID(form.types[i]), castImplicit)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	if form.gather >= 0 {
		// the gathered arguments are one ARRAY[..] of the element type
		arr := &arrayNode{elems: out[form.gather:], t: typeOfT(f.Args[len(f.Args)-1])}
		out = append(out[:form.gather:form.gather], arr)
	}
	var argNames []string
	if slices.ContainsFunc(names, func(nm string) bool { return nm != "" }) {
		argNames = names
	}
	return &funcNode{name: f.Name, schema: f.Schema, args: out, argNames: argNames,
		variadic: keyword || form.gather >= 0, t: typeOfT(f.Ret)}, nil
}

// matchUserForm is FuncnameGetCandidates' test of function f (at index i)
// against a call of nargs arguments named names (nil: positional) whose
// last is written VARIADIC when keyword is set: the form the call takes,
// or false when f does not fit it.
func matchUserForm(f Function, i, nargs int, names []string, keyword bool) (userForm, bool) {
	form := userForm{f: i, gather: -1}
	params := make([]uint32, len(f.Args))
	for k, t := range f.Args {
		params[k] = typeOfT(t).oid
		if isPolymorphic(params[k]) || params[k] == 0 {
			return form, false // not analysed: shown as written
		}
	}
	np := len(params)
	firstDefault := np - f.Defaults
	named := slices.ContainsFunc(names, func(nm string) bool { return nm != "" })
	switch {
	case named:
		// MatchNamedCall: the positional arguments fill the first
		// parameters, each name one of the others, once; a parameter
		// left out must have a default
		if keyword && !f.Variadic || nargs > np || len(f.ArgNames) != np {
			return form, false
		}
		used := make([]bool, np)
		for k := range nargs {
			p := k
			if names[k] != "" {
				p = -1
				for j, an := range f.ArgNames {
					if an == names[k] {
						p = j
					}
				}
			}
			if p < 0 || used[p] {
				return form, false
			}
			used[p] = true
			form.types = append(form.types, params[p])
		}
		for k, u := range used {
			if !u && k < firstDefault {
				return form, false
			}
		}
	case keyword:
		// VARIADIC x: no expansion; x is the array itself
		if !f.Variadic || nargs != np {
			return form, false
		}
		form.types = params
	case f.Variadic && np <= nargs:
		// the trailing arguments are the array's elements
		elem := typeOfT(f.Args[np-1]).elem
		if elem == nil {
			return form, false
		}
		form.types = append(form.types, params[:np-1]...)
		for len(form.types) < nargs {
			form.types = append(form.types, elem.oid)
		}
		form.gather = np - 1
	case np > nargs:
		if nargs < firstDefault {
			return form, false
		}
		form.types = params[:nargs]
	case np == nargs:
		form.types = params
	default:
		return form, false
	}
	return form, true
}
