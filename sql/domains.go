package sql

import (
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// DomainOp is what a domain statement does.
type DomainOp int

// The domain statements (domains.go).
const (
	CreateDomain DomainOp = iota + 1
	DropDomain
	AlterDomainSetDefault
	AlterDomainDropDefault
	AlterDomainSetNotNull
	AlterDomainDropNotNull
	AlterDomainAddConstraint
	AlterDomainDropConstraint
	AlterDomainValidateConstraint
	AlterDomainRename
	AlterDomainRenameConstraint
	AlterDomainOwner
	AlterDomainSetSchema
)

// DomainConstraint is one constraint of CREATE DOMAIN or ALTER DOMAIN ...
// ADD: NOT NULL, NULL or CHECK (expr), optionally named.
type DomainConstraint struct {
	Name    string // "" when not written
	NotNull bool
	Null    bool
	// Check is CHECK's expression as written (VALUE names the value).
	Check    string
	NotValid bool
}

// DomainStmt is CREATE DOMAIN, ALTER DOMAIN and DROP DOMAIN
// (Statement.Domain; Kind Other, AST nil). TiDB's grammar has no domains,
// so they are read here, before it.
type DomainStmt struct {
	Op DomainOp
	// Names is the domain (several for DROP DOMAIN).
	Names    []ObjectName
	IfExists bool
	Cascade  bool
	// BaseType is CREATE DOMAIN's data type as written; Collation its
	// COLLATE ("" none).
	BaseType, Collation string
	// Default is the DEFAULT expression as written (CREATE DOMAIN, ALTER
	// DOMAIN SET DEFAULT); "" for none.
	Default     string
	Constraints []DomainConstraint
	// Constraint is the constraint DROP / VALIDATE / RENAME CONSTRAINT
	// names; NewName RENAME's new name, OWNER TO's role or SET SCHEMA's
	// schema.
	Constraint, NewName string
}

// parseDomainStmt intercepts CREATE DOMAIN, ALTER DOMAIN and DROP DOMAIN.
func parseDomainStmt(src string, toks []token, st *Statement) (bool, error) {
	p := &domainParser{sessionParser: sessionParser{src: src, toks: toks}, st: st}
	s := &DomainStmt{}
	switch p.ddlVerb("DOMAIN") { // typestmts.go
	case "CREATE":
		s.Op = CreateDomain
	case "DROP":
		s.Op = DropDomain
	case "":
		return false, nil
	}
	st.Domain = s
	switch s.Op {
	case CreateDomain:
		return true, p.createDomain(s)
	case DropDomain:
		var err error
		s.Names, s.IfExists, s.Cascade, err = p.dropNames()
		return true, err
	}
	return true, p.alterDomain(s)
}

// createDomain reads CREATE DOMAIN's name [AS] type [COLLATE c]
// [DEFAULT e] [constraint ...].
func (p *domainParser) createDomain(s *DomainStmt) error {
	n, err := p.objectName()
	if err != nil {
		return err
	}
	s.Names = []ObjectName{n}
	p.accept("AS")
	// the type is read here with the statement's tokens, as a cast's
	// (typename.go), so that a malformed one is PostgreSQL's syntax error
	// at its token in the statement, and it ends where the grammar's
	// Typename ends
	start := p.pos
	tp := &typeParser{src: p.src, toks: splitAngles(p.src, p.toks[start:])}
	if _, err := tp.parseType(false); err != nil {
		return err
	}
	last := tp.toks[tp.pos-1]
	for p.pos < len(p.toks) && p.toks[p.pos].start < last.end {
		p.pos++
	}
	s.BaseType = p.src[p.toks[start].start:last.end]
	for p.pos < len(p.toks) {
		switch {
		case p.accept("COLLATE"):
			if s.Collation, err = p.exprText(1, domainClauseWords...); err != nil {
				return err
			}
		case p.accept("DEFAULT"):
			if s.Default, err = p.expr(1, domainClauseWords...); err != nil {
				return err
			}
		default:
			c, err := p.domainConstraint(false)
			if err != nil {
				return err
			}
			s.Constraints = append(s.Constraints, c)
		}
	}
	return nil
}

// domainParser reads the domain statements into st.Domain.
type domainParser struct {
	sessionParser
	st *Statement
}

// expr reads a DEFAULT or CHECK expression (exprText), noted for
// checkInner: the engine parses it when the statement runs, as a query's
// select list (sql.ParseExprText), but PostgreSQL's grammar refuses a
// malformed one with the statement; a WHERE clause is where such an
// expression stands alone (no alias).
func (p *domainParser) expr(skip int, stop ...string) (string, error) {
	start := p.pos
	text, err := p.exprText(skip, stop...)
	if err == nil {
		p.st.holds(p.src, p.toks, start, p.pos, "SELECT 1 WHERE ")
	}
	return text, err
}

// domainClauseWords end a type or DEFAULT expression of CREATE DOMAIN.
var domainClauseWords = []string{"COLLATE", "DEFAULT", "CONSTRAINT", "NOT", "NULL", "CHECK"}

// domainConstraint reads [CONSTRAINT name] NOT NULL | NULL | CHECK (expr)
// [NOT VALID when alter].
func (p *domainParser) domainConstraint(alter bool) (DomainConstraint, error) {
	var c DomainConstraint
	if p.accept("CONSTRAINT") {
		n, err := p.ident()
		if err != nil {
			return c, err
		}
		c.Name = n
	}
	switch {
	case p.accept("NOT", "NULL"):
		c.NotNull = true
	case p.accept("NULL"):
		c.Null = true
	case p.accept("CHECK"):
		if !p.punct("(") {
			return c, p.err()
		}
		start := p.pos
		text, err := p.expr(0)
		if err != nil || p.pos == start || !p.punct(")") {
			return c, p.err()
		}
		c.Check = text
	default:
		return c, p.err()
	}
	if alter && p.accept("NOT", "VALID") {
		if c.Check == "" {
			return c, sqlerr.New(sqlerr.FeatureNotSupported, "NOT NULL constraints cannot be marked NOT VALID")
		}
		c.NotValid = true
	}
	return c, nil
}

// exprText reads tokens up to a closing parenthesis at depth 0, the end,
// or (from the skip-th token on) one of the words stop at depth 0, and
// returns their source text.
func (p *sessionParser) exprText(skip int, stop ...string) (string, error) {
	return p.tokensText(skip, false, stop...)
}

// argText is exprText of an argument in a list: it also ends at a comma
// at depth 0 (a function parameter's DEFAULT).
func (p *sessionParser) argText() (string, error) {
	return p.tokensText(0, true)
}

// tokensText is exprText, ending at a comma at depth 0 too when atComma.
func (p *sessionParser) tokensText(skip int, atComma bool, stop ...string) (string, error) {
	start, depth := p.pos, 0
loop:
	for p.pos < len(p.toks) {
		t := p.toks[p.pos]
		switch {
		case t.isPunct(p.src, "("), t.isPunct(p.src, "["):
			depth++
		case t.isPunct(p.src, ")"), t.isPunct(p.src, "]"):
			if depth == 0 {
				break loop
			}
			depth--
		case atComma && depth == 0 && t.isPunct(p.src, ","):
			break loop
		case depth == 0 && p.pos-start >= skip && t.kind == tkIdent:
			for _, w := range stop {
				if t.is(p.src, w) {
					break loop
				}
			}
		}
		p.pos++
	}
	if p.pos == start {
		return "", p.err()
	}
	return strings.TrimSpace(p.src[p.toks[start].start:p.toks[p.pos-1].end]), nil
}

// alterDomain reads ALTER DOMAIN name's action.
func (p *domainParser) alterDomain(s *DomainStmt) error {
	n, err := p.objectName()
	if err != nil {
		return err
	}
	s.Names = []ObjectName{n}
	switch {
	case p.accept("SET", "DEFAULT"):
		s.Op = AlterDomainSetDefault
		if s.Default, err = p.expr(0); err != nil {
			return err
		}
	case p.accept("DROP", "DEFAULT"):
		s.Op = AlterDomainDropDefault
	case p.accept("SET", "NOT", "NULL"):
		s.Op = AlterDomainSetNotNull
	case p.accept("DROP", "NOT", "NULL"):
		s.Op = AlterDomainDropNotNull
	case p.accept("ADD"):
		s.Op = AlterDomainAddConstraint
		c, err := p.domainConstraint(true)
		if err != nil {
			return err
		}
		if c.Null {
			return p.err()
		}
		s.Constraints = []DomainConstraint{c}
	case p.accept("DROP", "CONSTRAINT"):
		s.Op = AlterDomainDropConstraint
		s.IfExists = p.accept("IF", "EXISTS")
		if s.Constraint, err = p.ident(); err != nil {
			return err
		}
		s.Cascade = p.dropBehavior()
	case p.accept("VALIDATE", "CONSTRAINT"):
		s.Op = AlterDomainValidateConstraint
		if s.Constraint, err = p.ident(); err != nil {
			return err
		}
	case p.accept("RENAME", "CONSTRAINT"):
		s.Op = AlterDomainRenameConstraint
		if s.Constraint, err = p.ident(); err != nil {
			return err
		}
		if !p.accept("TO") {
			return p.err()
		}
		if s.NewName, err = p.ident(); err != nil {
			return err
		}
	case p.accept("RENAME", "TO"):
		s.Op = AlterDomainRename
		if s.NewName, err = p.ident(); err != nil {
			return err
		}
	case p.accept("OWNER", "TO"):
		s.Op = AlterDomainOwner
		if s.NewName, err = p.roleSpec(); err != nil {
			return err
		}
	case p.accept("SET", "SCHEMA"):
		s.Op = AlterDomainSetSchema
		if s.NewName, err = p.ident(); err != nil {
			return err
		}
	default:
		return p.err()
	}
	return p.done()
}
