package sql

import (
	"slices"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// FunctionStmt is CREATE [OR REPLACE] FUNCTION, DROP FUNCTION or ALTER
// FUNCTION ... OWNER TO (Statement.Function; Kind Other, AST nil). Types
// are kept as written (ParseTypeName reads them); the engine resolves
// them.
type FunctionStmt struct {
	Drop bool
	// Object is the kind DROP named: "" FUNCTION, else "procedure",
	// "routine" or "aggregate" (DROP PROCEDURE / ROUTINE / AGGREGATE,
	// whose messages name the kind); Star is DROP AGGREGATE name(*).
	Object string
	Star   bool
	// Owner is ALTER FUNCTION name [(args)] OWNER TO Owner's role (Name,
	// Args and HasArgs as DROP's).
	Owner string
	// RenameTo is ALTER FUNCTION name [(args)] RENAME TO RenameTo.
	RenameTo  string
	OrReplace bool
	IfExists  bool
	Name      ObjectName
	// Args are the arguments; for DROP, HasArgs says whether an argument
	// list was written (DROP FUNCTION f drops f's one overload).
	Args    []FunctionArg
	HasArgs bool
	// Returns is RETURNS type ("" with RETURNS TABLE); Table is RETURNS
	// TABLE (col type, ...).
	Returns string
	Table   []FunctionArg
	// SetOf is RETURNS SETOF type (Returns the type without SETOF);
	// Rows is the ROWS clause's estimate as written ("" none).
	SetOf    bool
	Rows     string
	Language string
	Body     string
	// Defaults are the arguments' DEFAULT expressions as written, one per
	// argument ("" none); nil when no argument has one.
	Defaults []string
	// Volatility is 'i' (IMMUTABLE), 's' (STABLE), 'v' (VOLATILE) or 0
	// (not written: volatile); Strict is STRICT or RETURNS NULL ON NULL
	// INPUT.
	Volatility byte
	Strict     bool
	// BodyKind is how the body was written: "" AS 'text', "return" a
	// RETURN expr clause (Body is the expression), "atomic" BEGIN ATOMIC
	// ... END (Body is the statements between).
	BodyKind string
	// BodyAt is the byte offset in the input passed to Parse where a RETURN
	// or BEGIN ATOMIC body starts (0 for a body written as a string),
	// for BodyPosition.
	BodyAt int
	// Cascade is DROP ... CASCADE.
	Cascade bool
	// More are the further routines of DROP FUNCTION f1(..), f2(..), ...
	// (each a DROP of one routine, with the statement's Object, IfExists
	// and Cascade), dropped all or none with the first.
	More []FunctionStmt
}

// alterFunctionOwner reads name [(args)] OWNER TO role after ALTER
// FUNCTION (what pg_dump writes after each function); no other ALTER
// FUNCTION is supported.
func (p *sessionParser) alterFunctionOwner(f *FunctionStmt, st *Statement) error {
	name, err := p.objectName()
	if err != nil {
		return err
	}
	f.Name = name
	if p.punct("(") {
		f.HasArgs = true
		if f.Args, err = p.functionArgs(true); err != nil {
			return err
		}
	}
	if p.accept("RENAME", "TO") {
		if f.RenameTo, err = p.ident(); err != nil {
			return err
		}
		st.Function = f
		return p.done()
	}
	if p.word(0) == "SET" && p.word(1) == "SCHEMA" {
		return sqlerr.New(sqlerr.FeatureNotSupported, "ALTER FUNCTION ... SET SCHEMA is not supported: sqlgate's functions are all in schema public").
			WithHint("Call the function by its name alone, or create it again under another name.").WithPosition(charPos(p.src, p.toks[p.pos].start))
	}
	if !p.accept("OWNER", "TO") {
		return sqlerr.NotSupported("ALTER FUNCTION other than OWNER TO and RENAME TO")
	}
	if f.Owner, err = p.roleSpec(); err != nil {
		return err
	}
	st.Function = f
	return p.done()
}

// FunctionArg is one argument or RETURNS TABLE column: an optional name and
// the type as written.
type FunctionArg struct {
	Name string
	Type string
	// Mode is an argument's mode: 0 IN, 'o' OUT, 'b' INOUT.
	Mode byte
}

// parseFunction intercepts CREATE [OR REPLACE] FUNCTION, DROP FUNCTION and
// ALTER FUNCTION ... OWNER TO, which TiDB's grammar does not have.
func parseFunction(src string, toks []token, st *Statement) (bool, error) {
	p := &sessionParser{src: src, toks: toks}
	f := &FunctionStmt{}
	switch {
	case p.accept("CREATE", "FUNCTION"):
	case p.accept("CREATE", "OR", "REPLACE", "FUNCTION"):
		f.OrReplace = true
	case p.accept("DROP", "FUNCTION"):
		f.Drop = true
		f.IfExists = p.accept("IF", "EXISTS")
	case p.word(0) == "DROP" && (p.word(1) == "PROCEDURE" || p.word(1) == "ROUTINE" || p.word(1) == "AGGREGATE"):
		// PostgreSQL's DROP PROCEDURE / ROUTINE / AGGREGATE take
		// DROP FUNCTION's function_with_argtypes (an aggregate's list
		// is required, and may be (*))
		f.Drop, f.Object = true, strings.ToLower(p.word(1))
		p.pos = 2
		f.IfExists = p.accept("IF", "EXISTS")
	case p.accept("ALTER", "FUNCTION"):
		return true, p.alterFunctionOwner(f, st)
	default:
		return false, nil
	}
	name, err := p.objectName()
	if err != nil {
		return true, err
	}
	f.Name = name
	if f.Drop {
		if err := p.dropRoutineArgs(f); err != nil {
			return true, err
		}
		for p.punct(",") {
			// DROP FUNCTION f1(..), f2(..): each routine with its own
			// argument list, the statement's IF EXISTS and CASCADE
			r := FunctionStmt{Drop: true, Object: f.Object, IfExists: f.IfExists}
			if r.Name, err = p.objectName(); err != nil {
				return true, err
			}
			if err := p.dropRoutineArgs(&r); err != nil {
				return true, err
			}
			f.More = append(f.More, r)
		}
		f.Cascade = p.accept("CASCADE")
		p.accept("RESTRICT")
		for i := range f.More {
			f.More[i].Cascade = f.Cascade
		}
		st.Function = f
		return true, p.done()
	}
	if !p.punct("(") {
		return true, p.err()
	}
	if f.Args, f.Defaults, err = p.functionArgsDefaults(); err != nil {
		return true, err
	}
	if !p.accept("RETURNS") {
		// optional with OUT arguments (the engine checks)
	} else if p.accept("TABLE") {
		if !p.punct("(") {
			return true, p.err()
		}
		if f.Table, err = p.functionArgs(false); err != nil {
			return true, err
		}
	} else {
		f.SetOf = p.accept("SETOF")
		if f.Returns, err = p.typeText(); err != nil {
			return true, err
		}
	}
	for p.pos < len(p.toks) {
		switch {
		case p.accept("LANGUAGE"):
			if p.pos >= len(p.toks) {
				return true, p.err()
			}
			lang, err := p.value()
			if err != nil {
				return true, err
			}
			f.Language = strings.ToLower(lang)
		case p.accept("AS"):
			if p.pos >= len(p.toks) || p.toks[p.pos].kind != tkDollar && p.toks[p.pos].kind != tkString && p.toks[p.pos].kind != tkEString {
				return true, p.err()
			}
			if f.Body, err = p.value(); err != nil {
				return true, err
			}
		case p.accept("VOLATILE"):
			f.Volatility = 'v'
		case p.accept("STABLE"):
			f.Volatility = 's'
		case p.accept("IMMUTABLE"):
			f.Volatility = 'i'
		case p.accept("STRICT"), p.accept("RETURNS", "NULL", "ON", "NULL", "INPUT"):
			f.Strict = true
		case p.accept("CALLED", "ON", "NULL", "INPUT"):
			f.Strict = false
		case p.accept("PARALLEL"):
			// a planner hint sqlgate has no use for (pg_dump writes it)
			if !p.accept("SAFE") && !p.accept("UNSAFE") && !p.accept("RESTRICTED") {
				return true, p.err()
			}
		case p.accept("SECURITY", "INVOKER"), p.accept("EXTERNAL", "SECURITY", "INVOKER"),
			p.accept("NOT", "LEAKPROOF"), p.accept("LEAKPROOF"):
		case p.accept("COST"):
			if _, err := p.value(); err != nil {
				return true, err
			}
		case p.accept("ROWS"):
			if f.Rows, err = p.value(); err != nil {
				return true, err
			}
		case p.word(0) == "RETURN":
			p.pos++
			if p.pos >= len(p.toks) {
				return true, p.err()
			}
			// the rest of the statement: PostgreSQL's RETURN clause ends it
			f.BodyKind, f.BodyAt = "return", p.toks[p.pos].start
			f.Body = strings.TrimSpace(p.src[p.toks[p.pos].start:p.toks[len(p.toks)-1].end])
			p.pos = len(p.toks)
		case p.accept("BEGIN", "ATOMIC"):
			// statements up to the final END
			if len(p.toks)-1 < p.pos || !p.toks[len(p.toks)-1].is(p.src, "END") {
				return true, p.err()
			}
			f.BodyKind = "atomic"
			if p.pos < len(p.toks)-1 {
				f.BodyAt = p.toks[p.pos].start
				f.Body = strings.TrimSpace(p.src[p.toks[p.pos].start:p.toks[len(p.toks)-2].end])
			}
			p.pos = len(p.toks)
		default:
			return true, sqlerr.NotSupported("CREATE FUNCTION option " + p.word(0))
		}
	}
	if f.Language == "" {
		return true, sqlerr.New(sqlerr.Code("42P13"), "no language specified")
	}
	st.Function = f
	return true, nil
}

// dropRoutineArgs reads the optional argument list after a routine's name
// in DROP FUNCTION / PROCEDURE / ROUTINE / AGGREGATE (function_with_argtypes,
// an aggregate's aggr_args: required, one argument at least, or *).
func (p *sessionParser) dropRoutineArgs(f *FunctionStmt) error {
	if !p.punct("(") {
		if f.Object == "aggregate" {
			return p.err() // aggr_args is not optional
		}
		return nil
	}
	f.HasArgs = true
	if f.Object == "aggregate" && p.pos < len(p.toks) && p.toks[p.pos].isPunct(p.src, ")") {
		return p.err() // aggr_args has one argument at least, or *
	}
	if f.Object == "aggregate" && p.punct("*") {
		if f.Star = true; !p.punct(")") {
			return p.err()
		}
		return nil
	}
	var err error
	f.Args, err = p.functionArgs(true)
	return err
}

// functionArgsDefaults reads an argument list whose arguments may have a
// DEFAULT expr (or = expr): the arguments and their defaults' texts (nil
// when none has one).
func (p *sessionParser) functionArgsDefaults() ([]FunctionArg, []string, error) {
	var out []FunctionArg
	var defs []string
	if p.punct(")") {
		return out, nil, nil
	}
	for {
		mode, err := p.argMode()
		if err != nil {
			return nil, nil, err
		}
		args, err := p.oneArg(true)
		if err != nil {
			return nil, nil, err
		}
		args.Mode = mode
		out = append(out, args)
		def := ""
		if p.accept("DEFAULT") || p.punct("=") {
			if def, err = p.argText(); err != nil {
				return nil, nil, err
			}
		} else if defs != nil && args.Mode != 'o' {
			return nil, nil, sqlerr.New(sqlerr.Code("42P13"), "input parameters after one with a default value must also have defaults")
		}
		if def != "" && defs == nil {
			defs = make([]string, len(out)-1, len(out))
		}
		if defs != nil {
			defs = append(defs, def)
		}
		if p.punct(")") {
			return out, defs, nil
		}
		if !p.punct(",") {
			return nil, nil, p.err()
		}
	}
}

// argMode reads an argument's mode word: IN (0, the default), OUT ('o'),
// INOUT ('b') or VARIADIC ('v').
func (p *sessionParser) argMode() (byte, error) {
	switch {
	case p.accept("IN"):
	case p.accept("OUT"):
		return 'o', nil
	case p.accept("INOUT"):
		return 'b', nil
	case p.accept("VARIADIC"):
		return 'v', nil
	}
	return 0, nil
}

// functionArgs reads "[name] type, ..." up to the closing parenthesis
// (after the opening one). Names are optional when optionalNames (an
// argument list), required otherwise (RETURNS TABLE).
func (p *sessionParser) functionArgs(optionalNames bool) ([]FunctionArg, error) {
	var out []FunctionArg
	if p.punct(")") {
		return out, nil
	}
	for {
		var mode byte
		if optionalNames {
			var err error
			if mode, err = p.argMode(); err != nil {
				return nil, err
			}
		}
		a, err := p.oneArg(optionalNames)
		if err != nil {
			return nil, err
		}
		if mode != 'o' {
			// an OUT argument is no part of the function's signature
			// (DROP FUNCTION f(int, OUT int) is f(int)'s)
			out = append(out, a)
		}
		if p.punct(")") {
			return out, nil
		}
		if !p.punct(",") {
			return nil, p.err()
		}
	}
}

// oneArg reads "[name] type" (the name required unless optionalName).
func (p *sessionParser) oneArg(optionalName bool) (FunctionArg, error) {
	start := p.pos
	text, err := p.typeText()
	if err != nil {
		return FunctionArg{}, err
	}
	// "name type": the first word is a name when more of the
	// argument follows it
	a := FunctionArg{Type: text}
	if p.pos-start > 1 {
		if n, ok := identName(p.src, p.toks[start]); ok {
			if _, err := ParseTypeName(text); err != nil || p.toks[start].kind == tkQIdent {
				a.Name = n
				a.Type = strings.TrimSpace(p.src[p.toks[start+1].start:p.toks[p.pos-1].end])
			}
		}
	}
	if a.Name == "" && !optionalName {
		return FunctionArg{}, syntaxErrorAt(p.src, p.toks, start)
	}
	return a, nil
}

// functionClauseWords end a type at depth 0: the clauses that may follow
// an argument's or the result's type.
var functionClauseWords = []string{"LANGUAGE", "AS", "VOLATILE", "STABLE", "IMMUTABLE", "STRICT", "RETURNS", "RETURN",
	"CALLED", "PARALLEL", "SECURITY", "EXTERNAL", "LEAKPROOF", "NOT", "COST", "ROWS", "BEGIN", "DEFAULT"}

// typeText reads the tokens of one type (up to a comma or closing
// parenthesis at depth 0, or a clause word of CREATE FUNCTION) and
// returns their source text.
func (p *sessionParser) typeText() (string, error) {
	start, depth := p.pos, 0
	for p.pos < len(p.toks) {
		t := p.toks[p.pos]
		switch {
		case t.isPunct(p.src, "("), t.isPunct(p.src, "<"):
			depth++
		case t.isPunct(p.src, ")"), t.isPunct(p.src, ">"):
			if depth == 0 {
				goto end
			}
			depth--
		case t.isPunct(p.src, ","):
			if depth == 0 {
				goto end
			}
		case depth == 0 && t.isPunct(p.src, "="):
			goto end
		case depth == 0 && p.pos > start && t.kind == tkIdent && slices.ContainsFunc(functionClauseWords, func(w string) bool { return t.is(p.src, w) }):
			goto end
		}
		p.pos++
	}
end:
	if p.pos == start {
		return "", p.err()
	}
	return strings.TrimSpace(p.src[p.toks[start].start:p.toks[p.pos-1].end]), nil
}

// inAtomicBody reports whether toks, a CREATE FUNCTION statement read up
// to a ';', is inside its BEGIN ATOMIC ... END body, whose statements the
// ';' separates: the statement goes on to the END matching it, counting
// BEGIN and CASE as opening an END as psql does.
func inAtomicBody(src string, toks []token) bool {
	if !toks[0].is(src, "CREATE") {
		return false
	}
	depth := -1
	for i := 1; i < len(toks); i++ {
		switch {
		case depth < 0 && toks[i].is(src, "BEGIN") && i+1 < len(toks) && toks[i+1].is(src, "ATOMIC"):
			depth = 1
			i++
		case depth > 0 && (toks[i].is(src, "BEGIN") || toks[i].is(src, "CASE")):
			depth++
		case depth > 0 && toks[i].is(src, "END"):
			depth--
		}
	}
	return depth > 0
}
