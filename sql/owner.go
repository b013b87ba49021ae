package sql

// ALTER { TABLE | VIEW | SEQUENCE | TYPE | SCHEMA } [IF EXISTS] name
// OWNER TO role: pg_dump writes one after every object it creates
// (ALTER TABLE for tables, views, sequences and materialized views alike,
// as PostgreSQL accepts). The statement is read here, before the parsers
// of each object's other ALTER forms; the engine changes the owner in
// sqlgate's metadata (engine/owners.go). ALTER DOMAIN and ALTER
// MATERIALIZED VIEW ... OWNER TO are read with their other forms
// (domains.go, matview.go); an ALTER TABLE whose OWNER TO comes with other
// actions is refused (altertable.go).

// OwnerStmt is ALTER kind name OWNER TO role (Statement.Owner; Kind
// Other, AST nil).
type OwnerStmt struct {
	// Object is the ALTER's object word: "TABLE", "VIEW", "SEQUENCE",
	// "TYPE" or "SCHEMA".
	Object   string
	Name     ObjectName
	IfExists bool
	// Role is the new owner as roleSpec reads it ("current_user",
	// "session_user", "public" or a role name).
	Role string
}

// parseOwner intercepts ALTER ... OWNER TO; any other ALTER is left to
// the other parsers (false).
func parseOwner(src string, toks []token, st *Statement) (bool, error) {
	p := &sessionParser{src: src, toks: toks}
	if !p.accept("ALTER") {
		return false, nil
	}
	o := &OwnerStmt{Object: p.word(0)}
	switch o.Object {
	case "TABLE", "VIEW", "SEQUENCE", "TYPE", "SCHEMA":
	default:
		return false, nil
	}
	p.pos++
	if o.Object != "TYPE" && o.Object != "SCHEMA" {
		o.IfExists = p.accept("IF", "EXISTS")
	}
	if o.Object == "TABLE" {
		p.accept("ONLY")
	}
	var err error
	if o.Object == "SCHEMA" {
		o.Name.Name, err = p.ident()
	} else {
		o.Name, err = p.objectName()
	}
	if err != nil || !p.accept("OWNER", "TO") {
		return false, nil // not this statement: its own parser reports the error
	}
	if o.Role, err = p.roleSpec(); err != nil {
		return true, err
	}
	if err := p.done(); err != nil {
		return true, err
	}
	st.Owner = o
	return true, nil
}
