package sql

import (
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TypeOp is what a type statement does.
type TypeOp int

// The type statements (typestmts.go).
const (
	CreateEnumType TypeOp = iota + 1
	DropType
	AlterTypeAddValue
	AlterTypeRenameValue
	// The composite type statements (CREATE TYPE name AS (f type, ...),
	// ALTER TYPE ... RENAME TO | ADD ATTRIBUTE | DROP ATTRIBUTE | RENAME
	// ATTRIBUTE).
	CreateCompositeType
	AlterTypeRename
	AlterTypeAddAttribute
	AlterTypeDropAttribute
	AlterTypeRenameAttribute
	// AlterTypeSetSchema is ALTER TYPE name SET SCHEMA s (NewValue: s).
	AlterTypeSetSchema
)

// TypeAttr is one attribute of a composite type: its name and its type as
// written.
type TypeAttr struct {
	Name, Type string
}

// TypeStmt is CREATE TYPE ... AS ENUM, DROP TYPE and ALTER TYPE ... ADD
// VALUE | RENAME VALUE (Statement.Type; Kind Other, AST nil). TiDB's
// grammar has no user-defined types, so they are read here, before it.
type TypeStmt struct {
	Op TypeOp
	// Names is the type (several for DROP TYPE).
	Names    []ObjectName
	IfExists bool
	// IfNotExists is ADD VALUE IF NOT EXISTS.
	IfNotExists bool
	// Cascade is DROP TYPE ... CASCADE.
	Cascade bool
	// Labels are CREATE TYPE ... AS ENUM's labels, in order.
	Labels []string
	// Value is ADD VALUE's new label, or RENAME VALUE's old one; Neighbor
	// is BEFORE / AFTER's label ("" when not written), Before tells which;
	// NewValue is RENAME VALUE's new label.
	Value, Neighbor, NewValue string
	Before                    bool
	// Attrs are CREATE TYPE ... AS (...)'s attributes, in order, or ADD
	// ATTRIBUTE's one; DROP ATTRIBUTE and RENAME ATTRIBUTE name theirs in
	// Value (RENAME's new name in NewValue), RENAME TO the new type name.
	Attrs []TypeAttr
}

// parseTypeStmt intercepts CREATE TYPE, DROP TYPE and ALTER TYPE.
func parseTypeStmt(src string, toks []token, st *Statement) (bool, error) {
	p := &sessionParser{src: src, toks: toks}
	s := &TypeStmt{}
	switch p.ddlVerb("TYPE") {
	case "CREATE":
		s.Op = CreateEnumType
	case "DROP":
		s.Op = DropType
	case "":
		return false, nil
	}
	st.Type = s
	switch s.Op {
	case CreateEnumType:
		n, err := p.objectName()
		if err != nil {
			return true, err
		}
		s.Names = []ObjectName{n}
		if !p.accept("AS") {
			switch {
			case p.pos >= len(p.toks):
				return true, sqlerr.NotSupported("shell types (CREATE TYPE without AS)")
			case p.toks[p.pos].isPunct(src, "("):
				return true, sqlerr.NotSupported("CREATE TYPE other than AS ENUM")
			}
			// PostgreSQL's grammar takes nothing else after the name
			return true, p.err()
		}
		if !p.accept("ENUM") {
			switch {
			case p.word(0) == "RANGE":
				return true, sqlerr.NotSupported("range types")
			case p.pos < len(p.toks) && p.toks[p.pos].isPunct(src, "("):
				s.Op = CreateCompositeType
				return true, p.compositeAttrs(s)
			}
			return true, p.err()
		}
		if !p.punct("(") {
			return true, p.err()
		}
		if p.punct(")") {
			return true, p.done()
		}
		for {
			l, err := p.stringLit()
			if err != nil {
				return true, err
			}
			s.Labels = append(s.Labels, l)
			if p.punct(",") {
				continue
			}
			if !p.punct(")") {
				return true, p.err()
			}
			return true, p.done()
		}
	case DropType:
		var err error
		s.Names, s.IfExists, s.Cascade, err = p.dropNames()
		return true, err
	}
	// ALTER TYPE name ...
	n, err := p.objectName()
	if err != nil {
		return true, err
	}
	s.Names = []ObjectName{n}
	switch {
	case p.accept("ADD", "VALUE"):
		s.Op = AlterTypeAddValue
		s.IfNotExists = p.accept("IF", "NOT", "EXISTS")
		if s.Value, err = p.stringLit(); err != nil {
			return true, err
		}
		switch {
		case p.accept("BEFORE"):
			s.Before = true
		case p.accept("AFTER"):
		default:
			return true, p.done()
		}
		if s.Neighbor, err = p.stringLit(); err != nil {
			return true, err
		}
		return true, p.done()
	case p.accept("RENAME", "VALUE"):
		s.Op = AlterTypeRenameValue
		if s.Value, err = p.stringLit(); err != nil {
			return true, err
		}
		if !p.accept("TO") {
			return true, p.err()
		}
		if s.NewValue, err = p.stringLit(); err != nil {
			return true, err
		}
		return true, p.done()
	case p.word(0) == "RENAME" || p.word(0) == "ADD" || p.word(0) == "DROP":
		return true, p.alterComposite(s)
	case p.accept("SET", "SCHEMA"):
		s.Op = AlterTypeSetSchema
		if s.NewValue, err = p.ident(); err != nil {
			return true, err
		}
		return true, p.done()
	case p.word(0) == "ALTER" || p.word(0) == "SET" || p.word(0) == "OWNER":
		return true, sqlerr.NotSupported("ALTER TYPE other than ADD VALUE, RENAME VALUE, RENAME TO, SET SCHEMA and ADD, DROP, RENAME ATTRIBUTE")
	}
	// PostgreSQL's grammar has no other action
	return true, p.err()
}

// ddlVerb reads CREATE, DROP or ALTER followed by the word noun (TYPE,
// DOMAIN) and returns the verb, "" (nothing read) when the statement is
// none of the three.
func (p *sessionParser) ddlVerb(noun string) string {
	for _, verb := range []string{"CREATE", "DROP", "ALTER"} {
		if p.accept(verb, noun) {
			return verb
		}
	}
	return ""
}

// dropNames reads the rest of DROP TYPE and DROP DOMAIN: [IF EXISTS]
// name [, ...] [CASCADE | RESTRICT], to the statement's end.
func (p *sessionParser) dropNames() (names []ObjectName, ifExists, cascade bool, err error) {
	ifExists = p.accept("IF", "EXISTS")
	for {
		n, err := p.objectName()
		if err != nil {
			return nil, false, false, err
		}
		names = append(names, n)
		if !p.punct(",") {
			break
		}
	}
	cascade = p.dropBehavior()
	return names, ifExists, cascade, p.done()
}

// stringLit reads one string constant ('...', E'...', $$...$$).
func (p *sessionParser) stringLit() (string, error) {
	if p.pos >= len(p.toks) {
		return "", p.err()
	}
	t := p.toks[p.pos]
	text := t.text(p.src)
	switch {
	case t.kind == tkString && text[0] == '\'':
		p.pos++
		return unquoteString(text), nil
	case t.kind == tkEString:
		p.pos++
		return decodeEStringAt(p.src, t)
	case t.kind == tkDollar:
		p.pos++
		return dollarBody(text), nil
	}
	return "", p.err()
}

// compositeAttrs reads CREATE TYPE ... AS's attribute list, "(f type,
// ...)" (it may be empty), to the statement's end.
func (p *sessionParser) compositeAttrs(s *TypeStmt) error {
	p.punct("(")
	if p.punct(")") {
		return p.done()
	}
	for {
		a, err := p.typeAttr()
		if err != nil {
			return err
		}
		s.Attrs = append(s.Attrs, a)
		if p.punct(",") {
			continue
		}
		if !p.punct(")") {
			return p.err()
		}
		return p.done()
	}
}

// typeAttr reads one attribute: a name and a type (COLLATE is refused).
func (p *sessionParser) typeAttr() (TypeAttr, error) {
	name, err := p.ident()
	if err != nil {
		return TypeAttr{}, err
	}
	t, err := p.typeText()
	if err != nil {
		return TypeAttr{}, err
	}
	if strings.Contains(strings.ToUpper(t), " COLLATE ") {
		return TypeAttr{}, sqlerr.NotSupported("COLLATE in a composite type's attribute")
	}
	return TypeAttr{Name: name, Type: t}, nil
}

// alterComposite reads the rest of ALTER TYPE name RENAME TO new | ADD
// ATTRIBUTE f type | DROP ATTRIBUTE [IF EXISTS] f | RENAME ATTRIBUTE f TO
// g, each with an optional CASCADE | RESTRICT.
func (p *sessionParser) alterComposite(s *TypeStmt) error {
	var err error
	switch {
	case p.accept("RENAME", "TO"):
		s.Op = AlterTypeRename
		s.NewValue, err = p.ident()
	case p.accept("ADD", "ATTRIBUTE"):
		s.Op = AlterTypeAddAttribute
		var a TypeAttr
		if a, err = p.typeAttr(); err == nil {
			s.Attrs = []TypeAttr{a}
		}
	case p.accept("DROP", "ATTRIBUTE"):
		s.Op = AlterTypeDropAttribute
		s.IfExists = p.accept("IF", "EXISTS")
		s.Value, err = p.ident()
	case p.accept("RENAME", "ATTRIBUTE"):
		s.Op = AlterTypeRenameAttribute
		if s.Value, err = p.ident(); err == nil {
			if !p.accept("TO") {
				return p.err()
			}
			s.NewValue, err = p.ident()
		}
	default:
		// RENAME, ADD or DROP followed by a word no action of
		// PostgreSQL's grammar starts with: its syntax error there
		return syntaxErrorAt(p.src, p.toks, p.pos+1)
	}
	if err != nil {
		return err
	}
	s.Cascade = p.dropBehavior()
	return p.done()
}
