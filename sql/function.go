package sql

import (
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// FunctionStmt is CREATE [OR REPLACE] FUNCTION, DROP FUNCTION or ALTER
// FUNCTION ... OWNER TO (Statement.Function; Kind Other, AST nil). Types
// are kept as written (ParseTypeName reads them); the engine resolves
// them.
type FunctionStmt struct {
	Drop bool
	// Owner is ALTER FUNCTION name [(args)] OWNER TO Owner's role (Name,
	// Args and HasArgs as DROP's).
	Owner     string
	OrReplace bool
	IfExists  bool
	Name      ObjectName
	// Args are the arguments; for DROP, HasArgs says whether an argument
	// list was written (DROP FUNCTION f drops f's one overload).
	Args    []FunctionArg
	HasArgs bool
	// Returns is RETURNS type ("" with RETURNS TABLE); Table is RETURNS
	// TABLE (col type, ...).
	Returns  string
	Table    []FunctionArg
	Language string
	Body     string
	// Cascade is DROP ... CASCADE.
	Cascade bool
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
	if !p.accept("OWNER", "TO") {
		return sqlerr.NotSupported("ALTER FUNCTION other than OWNER TO")
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
		if p.punct("(") {
			f.HasArgs = true
			if f.Args, err = p.functionArgs(true); err != nil {
				return true, err
			}
		}
		if p.punct(",") {
			return true, sqlerr.NotSupported("DROP FUNCTION of several functions")
		}
		f.Cascade = p.accept("CASCADE")
		p.accept("RESTRICT")
		st.Function = f
		return true, p.done()
	}
	if !p.punct("(") {
		return true, p.err()
	}
	if f.Args, err = p.functionArgs(true); err != nil {
		return true, err
	}
	if !p.accept("RETURNS") {
		return true, p.err()
	}
	if p.accept("TABLE") {
		if !p.punct("(") {
			return true, p.err()
		}
		if f.Table, err = p.functionArgs(false); err != nil {
			return true, err
		}
	} else if f.Returns, err = p.typeText(); err != nil {
		return true, err
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
		case p.accept("VOLATILE"), p.accept("CALLED", "ON", "NULL", "INPUT"):
			// what a Python function is anyway
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

// functionArgs reads "[name] type, ..." up to the closing parenthesis
// (after the opening one). Names are optional when optionalNames (an
// argument list), required otherwise (RETURNS TABLE).
func (p *sessionParser) functionArgs(optionalNames bool) ([]FunctionArg, error) {
	var out []FunctionArg
	if p.punct(")") {
		return out, nil
	}
	for {
		start := p.pos
		text, err := p.typeText()
		if err != nil {
			return nil, err
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
		if a.Name == "" && !optionalNames {
			return nil, syntaxErrorAt(p.src, p.toks, start)
		}
		out = append(out, a)
		if p.punct(")") {
			return out, nil
		}
		if !p.punct(",") {
			return nil, p.err()
		}
	}
}

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
		case depth == 0 && (t.is(p.src, "LANGUAGE") || t.is(p.src, "AS") || t.is(p.src, "VOLATILE")):
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
