package sql

import "github.com/sqlgate/sqlgate/sqlerr"

// RoleStmt is CREATE / ALTER / DROP of a role, intercepted before TiDB
// (whose CREATE USER is MySQL's, with 'user'@'host' names):
//
//	CREATE { ROLE | USER } name [ [ WITH ] option [ ... ] ]
//	ALTER { ROLE | USER } name [ WITH ] option [ ... ]
//	DROP { ROLE | USER } [ IF EXISTS ] name [, ...]
//
// where option is SUPERUSER | NOSUPERUSER | LOGIN | NOLOGIN |
// PASSWORD 'password' | PASSWORD NULL. PostgreSQL's other options
// (CREATEDB, INHERIT, CONNECTION LIMIT, VALID UNTIL, ...) are refused by
// the engine with 0A000, naming them.
type RoleStmt struct {
	// Verb is "CREATE", "ALTER" or "DROP"; User: the statement said USER
	// (CREATE USER implies LOGIN).
	Verb string
	User bool
	// Names are the roles (one unless DROP).
	Names    []string
	IfExists bool
	// Superuser and Login are set when the statement says so.
	Superuser, Login *bool
	// Password is set by PASSWORD 'x' (PasswordNull by PASSWORD NULL).
	Password     *string
	PasswordNull bool
	// Unsupported names the first option sqlgate does not keep.
	Unsupported string
}

// isRoleStatement reports whether the words start a role statement.
func (p *sessionParser) isRoleStatement() bool {
	switch p.word(0) {
	case "CREATE", "ALTER", "DROP":
		return p.word(1) == "ROLE" || p.word(1) == "USER"
	}
	return false
}

func (p *sessionParser) parseRole(st *Statement) error {
	r := &RoleStmt{Verb: p.word(0), User: p.word(1) == "USER"}
	p.pos += 2
	st.Kind, st.Role = Role, r
	if r.Verb == "DROP" {
		r.IfExists = p.accept("IF", "EXISTS")
		for {
			n, err := p.ident()
			if err != nil {
				return err
			}
			r.Names = append(r.Names, n)
			if !p.punct(",") {
				break
			}
		}
		return p.done()
	}
	n, err := p.ident()
	if err != nil {
		return err
	}
	r.Names = []string{n}
	p.accept("WITH")
	yes, no := true, false
	// An option given twice, in either spelling, is PostgreSQL's
	// errorConflictingDefElem: 42601 at the second one.
	seen := map[string]bool{}
	for p.pos < len(p.toks) {
		at := p.pos
		key := map[string]string{"SUPERUSER": "superuser", "NOSUPERUSER": "superuser", "LOGIN": "login", "NOLOGIN": "login",
			"PASSWORD": "password", "ENCRYPTED": "password"}[p.word(0)]
		if key != "" && seen[key] {
			return sqlerr.New(sqlerr.SyntaxError, "conflicting or redundant options").WithPosition(charPos(p.src, p.toks[at].start))
		}
		seen[key] = true
		switch {
		case p.accept("SUPERUSER"):
			r.Superuser = &yes
		case p.accept("NOSUPERUSER"):
			r.Superuser = &no
		case p.accept("LOGIN"):
			r.Login = &yes
		case p.accept("NOLOGIN"):
			r.Login = &no
		case p.accept("PASSWORD", "NULL"):
			r.PasswordNull = true
		case p.accept("ENCRYPTED", "PASSWORD") || p.accept("PASSWORD"):
			if p.pos >= len(p.toks) || p.toks[p.pos].kind != tkString && p.toks[p.pos].kind != tkEString {
				return p.err()
			}
			v, err := p.value()
			if err != nil {
				return err
			}
			r.Password = &v
		default:
			// An option sqlgate does not keep: remember the first, skip
			// its words up to the next option we know.
			if r.Unsupported == "" {
				r.Unsupported = p.word(0)
			}
			p.pos++
		}
	}
	return nil
}
