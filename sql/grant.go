package sql

import (
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// GrantStmt is GRANT / REVOKE of table and schema privileges, and ALTER
// DEFAULT PRIVILEGES, intercepted before TiDB (whose GRANT is MySQL's,
// with 'user'@'host' grantees and db.* objects).
//
//	GRANT { priv [, ...] | ALL [PRIVILEGES] } ON { [TABLE] name [, ...] | ALL TABLES IN SCHEMA s [, ...] | SCHEMA s [, ...] }
//	    TO grantee [, ...] [WITH GRANT OPTION] [GRANTED BY role]
//	REVOKE [GRANT OPTION FOR] { priv [, ...] | ALL [PRIVILEGES] } ON ... FROM grantee [, ...] [CASCADE | RESTRICT]
//	ALTER DEFAULT PRIVILEGES [FOR { ROLE | USER } role [, ...]] [IN SCHEMA s [, ...]]
//	    { GRANT ... | REVOKE ... } ON { TABLES | SEQUENCES | FUNCTIONS | ROUTINES | TYPES | SCHEMAS } TO | FROM ...
type GrantStmt struct {
	// Revoke is REVOKE (else GRANT).
	Revoke bool
	// Privileges are upper-case privilege names (SELECT, INSERT, UPDATE,
	// DELETE, TRUNCATE, REFERENCES, TRIGGER, USAGE, CREATE, EXECUTE);
	// nil means ALL. The engine checks that they apply to the object.
	Privileges []string
	// Tables are the named tables as [schema, name] pairs (schema "" when
	// not given); AllInSchemas are the schemas of ALL TABLES IN SCHEMA.
	Tables       [][2]string
	AllInSchemas []string
	// Schemas are the schemas of ON SCHEMA.
	Schemas []string
	// Default is ALTER DEFAULT PRIVILEGES' scope (nil for GRANT/REVOKE).
	Default *DefaultPrivileges
	// Grantees are role names; "public" is PUBLIC; CURRENT_USER,
	// SESSION_USER and CURRENT_ROLE are kept as "current_user" etc. for the
	// engine to resolve.
	Grantees []string
	// WithGrantOption is WITH GRANT OPTION; GrantOptionFor is REVOKE GRANT
	// OPTION FOR.
	WithGrantOption, GrantOptionFor bool
}

// DefaultPrivileges is ALTER DEFAULT PRIVILEGES' scope: the roles whose
// new objects it is about (none: the current user), the schemas (none:
// every schema) and the objects' kind (TABLES, SEQUENCES, FUNCTIONS,
// TYPES, SCHEMAS; ROUTINES is FUNCTIONS).
type DefaultPrivileges struct {
	Roles   []string
	Schemas []string
	Objects string
}

// tablePrivileges are the privileges PostgreSQL defines on tables, and
// objectPrivileges those of the other objects sqlgate keeps grants of.
var (
	tablePrivileges = map[string]bool{"SELECT": true, "INSERT": true, "UPDATE": true, "DELETE": true,
		"TRUNCATE": true, "REFERENCES": true, "TRIGGER": true}
	objectPrivileges = map[string]bool{"USAGE": true, "CREATE": true, "EXECUTE": true}
)

// parseDefaultPrivileges reads ALTER DEFAULT PRIVILEGES ... into a
// GrantStmt whose Default is set.
func (p *sessionParser) parseDefaultPrivileges(st *Statement) error {
	p.pos += 3 // ALTER DEFAULT PRIVILEGES
	d := &DefaultPrivileges{}
	for {
		switch {
		case p.accept("FOR", "ROLE"), p.accept("FOR", "USER"):
			for {
				r, err := p.roleSpec()
				if err != nil {
					return err
				}
				d.Roles = append(d.Roles, r)
				if !p.punct(",") {
					break
				}
			}
			continue
		case p.accept("IN", "SCHEMA"):
			for {
				s, err := p.ident()
				if err != nil {
					return err
				}
				d.Schemas = append(d.Schemas, s)
				if !p.punct(",") {
					break
				}
			}
			continue
		}
		break
	}
	if p.word(0) != "GRANT" && p.word(0) != "REVOKE" {
		return p.err()
	}
	return p.grantBody(st, d)
}
func (p *sessionParser) parseGrant(st *Statement) error { return p.grantBody(st, nil) }

// grantBody reads GRANT / REVOKE, on objects or (def set) on ALTER
// DEFAULT PRIVILEGES' kind of objects.
func (p *sessionParser) grantBody(st *Statement, def *DefaultPrivileges) error {
	g := &GrantStmt{Default: def}
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
	if def != nil {
		switch w := p.word(0); w {
		case "TABLES", "SEQUENCES", "FUNCTIONS", "ROUTINES", "TYPES", "SCHEMAS":
			p.pos++
			if w == "ROUTINES" {
				w = "FUNCTIONS"
			}
			def.Objects = w
		default:
			return p.err()
		}
	} else if err := p.grantObjects(g); err != nil {
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
		if !tablePrivileges[w] && !objectPrivileges[w] {
			if w == "CONNECT" || w == "TEMPORARY" || w == "TEMP" {
				return sqlerr.NotSupported("GRANT " + w + ": sqlgate keeps privileges on tables and schemas")
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
	if p.accept("SCHEMA") {
		for {
			s, err := p.ident()
			if err != nil {
				return err
			}
			g.Schemas = append(g.Schemas, s)
			if !p.punct(",") {
				return nil
			}
		}
	}
	switch p.word(0) {
	case "DATABASE", "FUNCTION", "PROCEDURE", "ROUTINE", "SEQUENCE", "LANGUAGE", "TYPE", "DOMAIN", "TABLESPACE", "FOREIGN", "LARGE":
		return sqlerr.NotSupported("GRANT ON " + p.word(0) + ": sqlgate keeps privileges on tables and schemas")
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
