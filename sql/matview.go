package sql

// Materialized views: CREATE MATERIALIZED VIEW, REFRESH MATERIALIZED VIEW
// and ALTER MATERIALIZED VIEW are read here into Statement.DDL.Matview
// (Kind Maintenance, Verb the statement's tag); DROP MATERIALIZED VIEW is
// dropNames's (ddlstmts.go). The engine runs them (engine/matview.go).

// MatviewStmt is a CREATE, REFRESH or ALTER MATERIALIZED VIEW.
type MatviewStmt struct {
	Name ObjectName
	// CREATE: IF NOT EXISTS, the column list, the query as written (the
	// user's text, from its first token to its last before WITH [NO]
	// DATA) and WITH NO DATA.
	IfNotExists bool
	Columns     []string
	Query       string
	NoData      bool
	// QueryPos is the 1-based character position of Query in the text
	// parsed (errors in the query point into the statement as written).
	QueryPos int
	// REFRESH: CONCURRENTLY (and NoData).
	Concurrently bool
	// ALTER [IF EXISTS]: Action is "RENAME", "RENAME COLUMN", "OWNER",
	// "SET SCHEMA" or "" (another action, refused); Column the renamed
	// column; NewName the new name, owner or schema.
	IfExists bool
	Action   string
	Column   string
	NewName  string
}

// createMatview: CREATE MATERIALIZED VIEW [IF NOT EXISTS] name [(cols)]
// [USING method] [WITH (options)] [TABLESPACE ts] AS query [WITH [NO]
// DATA], after CREATE MATERIALIZED VIEW.
func (p *ddlParser) createMatview(st *Statement) error {
	m := &MatviewStmt{}
	st.Kind, st.DDL = Maintenance, &DDLStmt{Verb: "CREATE MATERIALIZED VIEW", Matview: m}
	m.IfNotExists = p.accept("IF", "NOT", "EXISTS")
	n, err := p.objectName()
	if err != nil {
		return err
	}
	m.Name = n
	if p.punct("(") {
		for {
			c, err := p.ident()
			if err != nil {
				return err
			}
			m.Columns = append(m.Columns, c)
			if p.punct(")") {
				break
			}
			if !p.punct(",") {
				return p.err()
			}
		}
	}
	if p.accept("USING") {
		if _, err := p.ident(); err != nil {
			return err
		}
	}
	if p.word(0) == "WITH" && p.pos+1 < len(p.toks) && p.toks[p.pos+1].isPunct(p.src, "(") {
		p.pos++
		if err := p.skipOptions(); err != nil { // storage parameters: nothing to keep
			return err
		}
	}
	if p.accept("TABLESPACE") {
		if _, err := p.ident(); err != nil {
			return err
		}
	}
	if !p.accept("AS") || p.pos >= len(p.toks) {
		return p.err()
	}
	end := matviewQueryEnd(p.src, p.toks)
	if end <= p.pos {
		return p.err()
	}
	m.Query = st.holds(p.src, p.toks, p.pos, end, "")
	m.QueryPos = charPos(p.src, p.toks[p.pos].start)
	p.pos = end
	if p.accept("WITH") {
		m.NoData = p.accept("NO")
		if !p.accept("DATA") {
			return p.err()
		}
	}
	return p.done()
}

// matviewQueryEnd is the index of the statement's trailing WITH [NO] DATA
// (len(toks) when there is none): the query ends before it.
func matviewQueryEnd(src string, toks []token) int {
	n := len(toks)
	switch {
	case n >= 3 && toks[n-3].is(src, "WITH") && toks[n-2].is(src, "NO") && toks[n-1].is(src, "DATA"):
		return n - 3
	case n >= 2 && toks[n-2].is(src, "WITH") && toks[n-1].is(src, "DATA"):
		return n - 2
	}
	return n
}

// refreshMatview: REFRESH MATERIALIZED VIEW [CONCURRENTLY] name [WITH [NO]
// DATA], after REFRESH MATERIALIZED VIEW.
func (p *ddlParser) refreshMatview(st *Statement) error {
	m := &MatviewStmt{}
	st.Kind, st.DDL = Maintenance, &DDLStmt{Verb: "REFRESH MATERIALIZED VIEW", Matview: m}
	d := st.DDL
	d.Concurrently = p.accept("CONCURRENTLY")
	m.Concurrently = d.Concurrently
	n, err := p.objectName()
	if err != nil {
		return err
	}
	d.Tables, m.Name = []ObjectName{n}, n
	if p.accept("WITH") {
		m.NoData = p.accept("NO")
		if !p.accept("DATA") {
			return p.err()
		}
	}
	return p.done()
}

// alterMatview: ALTER MATERIALIZED VIEW [IF EXISTS] name RENAME [COLUMN]
// a TO b | RENAME TO n | OWNER TO role | SET SCHEMA s, after ALTER
// MATERIALIZED VIEW; other actions are kept as Action "" (refused when
// run).
func (p *ddlParser) alterMatview(st *Statement) error {
	m := &MatviewStmt{}
	st.Kind, st.DDL = Maintenance, &DDLStmt{Verb: "ALTER MATERIALIZED VIEW", Matview: m}
	m.IfExists = p.accept("IF", "EXISTS")
	n, err := p.objectName()
	if err != nil {
		return err
	}
	m.Name = n
	if p.pos >= len(p.toks) {
		return p.err()
	}
	var target error
	switch {
	case p.accept("RENAME", "TO"):
		m.Action = "RENAME"
		m.NewName, target = p.ident()
	case p.accept("RENAME"):
		p.accept("COLUMN")
		m.Action = "RENAME COLUMN"
		if m.Column, target = p.ident(); target == nil {
			if !p.accept("TO") {
				return p.err()
			}
			m.NewName, target = p.ident()
		}
	case p.accept("OWNER", "TO"):
		m.Action = "OWNER"
		m.NewName, target = p.roleSpec()
	case p.accept("SET", "SCHEMA"):
		m.Action = "SET SCHEMA"
		m.NewName, target = p.ident()
	default:
		p.pos = len(p.toks)
		return nil
	}
	if target != nil {
		return target
	}
	return p.done()
}
