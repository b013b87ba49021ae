package sql

import (
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// GrantStmt is GRANT / REVOKE of table privileges, intercepted before TiDB
// (whose GRANT is MySQL's, with 'user'@'host' grantees and db.* objects).
//
//	GRANT { priv [, ...] | ALL [PRIVILEGES] } ON { [TABLE] name [, ...] | ALL TABLES IN SCHEMA s [, ...] }
//	    TO grantee [, ...] [WITH GRANT OPTION] [GRANTED BY role]
//	REVOKE [GRANT OPTION FOR] { priv [, ...] | ALL [PRIVILEGES] } ON ... FROM grantee [, ...] [CASCADE | RESTRICT]
type GrantStmt struct {
	// Revoke is REVOKE (else GRANT).
	Revoke bool
	// Privileges are upper-case privilege names (SELECT, INSERT, UPDATE,
	// DELETE, TRUNCATE, REFERENCES, TRIGGER); nil means ALL.
	Privileges []string
	// Tables are the named tables as [schema, name] pairs (schema "" when
	// not given); AllInSchemas are the schemas of ALL TABLES IN SCHEMA.
	Tables       [][2]string
	AllInSchemas []string
	// Grantees are role names; "public" is PUBLIC; CURRENT_USER,
	// SESSION_USER and CURRENT_ROLE are kept as "current_user" etc. for the
	// engine to resolve.
	Grantees []string
	// WithGrantOption is WITH GRANT OPTION; GrantOptionFor is REVOKE GRANT
	// OPTION FOR.
	WithGrantOption, GrantOptionFor bool
}

// tablePrivileges are the privileges PostgreSQL defines on tables.
var tablePrivileges = map[string]bool{"SELECT": true, "INSERT": true, "UPDATE": true, "DELETE": true,
	"TRUNCATE": true, "REFERENCES": true, "TRIGGER": true}

func (p *sessionParser) parseGrant(st *Statement) error {
	g := &GrantStmt{}
	st.Grant = g
	if p.accept("GRANT") {
		st.Kind = Grant
	} else {
		p.accept("REVOKE")
		st.Kind = Revoke
		g.Revoke = true
		if p.accept("GRANT", "OPTION", "FOR") {
			g.GrantOptionFor = true
		}
	}
	if err := p.privileges(g); err != nil {
		return err
	}
	if !p.accept("ON") {
		return p.err()
	}
	if err := p.grantObjects(g); err != nil {
		return err
	}
	if g.Revoke {
		if !p.accept("FROM") {
			return p.err()
		}
	} else if !p.accept("TO") {
		return p.err()
	}
	for {
		r, err := p.roleSpec()
		if err != nil {
			return err
		}
		g.Grantees = append(g.Grantees, r)
		if !p.punct(",") {
			break
		}
	}
	switch {
	case !g.Revoke && p.accept("WITH", "GRANT", "OPTION"):
		g.WithGrantOption = true
	case g.Revoke && (p.accept("CASCADE") || p.accept("RESTRICT")):
	}
	if p.accept("GRANTED", "BY") {
		if _, err := p.roleSpec(); err != nil {
			return err
		}
	}
	return p.done()
}

func (p *sessionParser) privileges(g *GrantStmt) error {
	if p.accept("ALL") {
		p.accept("PRIVILEGES")
		return nil
	}
	for {
		w := p.word(0)
		if !tablePrivileges[w] {
			if w == "USAGE" || w == "CREATE" || w == "CONNECT" || w == "TEMPORARY" || w == "TEMP" || w == "EXECUTE" {
				return sqlerr.NotSupported("GRANT " + w + ": sqlgate has table privileges only")
			}
			return p.err()
		}
		p.pos++
		if p.pos < len(p.toks) && p.toks[p.pos].isPunct(p.src, "(") {
			return sqlerr.NotSupported("column privileges")
		}
		g.Privileges = append(g.Privileges, w)
		if !p.punct(",") {
			return nil
		}
	}
}

func (p *sessionParser) grantObjects(g *GrantStmt) error {
	if p.accept("ALL", "TABLES", "IN", "SCHEMA") {
		for {
			s, err := p.ident()
			if err != nil {
				return err
			}
			g.AllInSchemas = append(g.AllInSchemas, s)
			if !p.punct(",") {
				return nil
			}
		}
	}
	switch p.word(0) {
	case "SCHEMA", "DATABASE", "FUNCTION", "PROCEDURE", "ROUTINE", "SEQUENCE", "LANGUAGE", "TYPE", "DOMAIN", "TABLESPACE", "FOREIGN", "LARGE":
		return sqlerr.NotSupported("GRANT ON " + p.word(0) + ": sqlgate has table privileges only")
	}
	p.accept("TABLE")
	for {
		a, err := p.ident()
		if err != nil {
			return err
		}
		name := [2]string{"", a}
		if p.punct(".") {
			b, err := p.ident()
			if err != nil {
				return err
			}
			name = [2]string{a, b}
		}
		g.Tables = append(g.Tables, name)
		if !p.punct(",") {
			return nil
		}
	}
}

// roleSpec reads a grantee: a role name, PUBLIC, CURRENT_USER ...
func (p *sessionParser) roleSpec() (string, error) {
	for _, w := range []string{"PUBLIC", "CURRENT_USER", "SESSION_USER", "CURRENT_ROLE"} {
		if p.pos < len(p.toks) && p.toks[p.pos].is(p.src, w) {
			p.pos++
			if w == "PUBLIC" {
				return "public", nil
			}
			if w == "CURRENT_ROLE" {
				return "current_user", nil
			}
			return strings.ToLower(w), nil
		}
	}
	return p.ident()
}

// ident reads one identifier (unquoted ones lower-cased, as PostgreSQL).
func (p *sessionParser) ident() (string, error) {
	if p.pos >= len(p.toks) {
		return "", p.err()
	}
	n, ok := identName(p.src, p.toks[p.pos])
	if !ok {
		return "", p.err()
	}
	p.pos++
	return n, nil
}

// punct consumes the punctuation token c if it is next.
func (p *sessionParser) punct(c string) bool {
	if p.pos < len(p.toks) && p.toks[p.pos].isPunct(p.src, c) {
		p.pos++
		return true
	}
	return false
}
