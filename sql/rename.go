package sql

// ALTER TABLE | VIEW [IF EXISTS] name RENAME TO new_name: a statement of
// its own in PostgreSQL's grammar (RenameStmt), so neither another action
// before it nor one after it parses; the new name is unqualified (the
// relation stays in its schema). The engine renames a view in sqlgate's
// metadata and a table in the store (engine/rename.go). ALTER VIEW's other
// forms are refused with 0A000.

// renameTo reads TO new_name after RENAME.
func (p *ddlParser) renameTo() (AlterAction, error) {
	p.accept("TO")
	n, err := p.ident()
	if err != nil {
		return AlterAction{}, err
	}
	return AlterAction{Kind: AlterRename, NewName: n}, nil
}

// renameNotAlone is the syntax error of RENAME TO after another action,
// at the word RENAME.
func (p *ddlParser) renameNotAlone() error {
	for i := p.pos - 1; i >= 0; i-- {
		if p.toks[i].is(p.src, "RENAME") {
			return syntaxErrorAt(p.src, p.toks, i)
		}
	}
	return p.err()
}

// alterView: ALTER VIEW [IF EXISTS] name action, after ALTER VIEW.
func (p *ddlParser) alterView(st *Statement) error {
	st.Kind, st.DDL = AlterTable, &DDLStmt{View: true}
	d := st.DDL
	d.IfExists = p.accept("IF", "EXISTS")
	n, err := p.objectName()
	if err != nil {
		return err
	}
	d.Table = n
	if p.pos >= len(p.toks) {
		return p.err()
	}
	if p.word(0) == "RENAME" && p.word(1) == "TO" {
		p.pos++
		a, err := p.renameTo()
		if err != nil {
			return err
		}
		d.Actions = []AlterAction{a}
		return p.done()
	}
	if p.accept("SET", "SCHEMA") {
		// SET SCHEMA s: a move to the same name in s (engine/rename.go)
		sc, err := p.ident()
		if err != nil {
			return err
		}
		d.Actions = []AlterAction{{Kind: AlterRename, NewName: n.Name, NewSchema: sc}}
		return p.done()
	}
	if w := p.word(0); (w == "SET" || w == "RESET") && p.pos+1 < len(p.toks) && p.toks[p.pos+1].isPunct(p.src, "(") {
		// SET (name [= value], ...) | RESET (name, ...): the view's
		// options (viewopts.go)
		opts, next, err := viewOptionList(p.src, p.toks, p.pos+1, w == "SET")
		if err != nil {
			return err
		}
		kind := AlterSetProperties
		if w == "RESET" {
			kind = AlterResetProperties
		}
		d.Actions = []AlterAction{{Kind: kind, ViewOptions: opts}}
		p.pos = next
		return p.done()
	}
	if err := p.viewActionSyntax(); err != nil {
		return err
	}
	d.Actions = []AlterAction{{Kind: AlterUnsupported, Unsupported: "this ALTER VIEW action is not supported: sqlgate's views can be renamed (ALTER VIEW v RENAME TO w) and replaced",
		Instead: "Use CREATE OR REPLACE VIEW, or DROP VIEW and CREATE VIEW."}}
	p.pos = len(p.toks)
	return nil
}

// viewActionSyntax reads an ALTER VIEW action sqlgate does not run, as
// PostgreSQL's grammar has it (OWNER TO role, RENAME [COLUMN] c TO d,
// ALTER [COLUMN] c {SET DEFAULT expr | DROP DEFAULT}): a
// statement PostgreSQL cannot parse is its syntax error, at the same
// token, before the action's 0A000.
func (p *ddlParser) viewActionSyntax() error {
	switch {
	case p.accept("OWNER"):
		if !p.accept("TO") {
			return p.err()
		}
		if _, err := p.roleSpec(); err != nil {
			return err
		}
	case p.accept("RENAME"):
		p.accept("COLUMN")
		if _, err := p.ident(); err != nil {
			return err
		}
		if !p.accept("TO") {
			return p.err()
		}
		if _, err := p.ident(); err != nil {
			return err
		}
	case p.accept("ALTER"):
		p.accept("COLUMN")
		if _, err := p.ident(); err != nil {
			return err
		}
		switch {
		case p.accept("DROP"):
			if !p.accept("DEFAULT") {
				return p.err()
			}
		case p.accept("SET"):
			// the default's expression is not read here
			if !p.accept("DEFAULT") || p.pos >= len(p.toks) {
				return p.err()
			}
			return nil
		default:
			return p.err()
		}
	default:
		if w := p.word(0); w == "SET" || w == "RESET" {
			p.pos++ // SET / RESET without its "(" (read by alterView)
		}
		return p.err()
	}
	return p.done()
}

// RenameInDefinition rewrites a view's stored definition (its query as
// written) after the relation schema.from was renamed to to: every name
// standing for it where a relation name stands (from, schema.from,
// db.schema.from) names schema.to instead, and one without an alias keeps
// the old name as its alias ("schema"."to" AS "from"), so that the
// columns it qualifies still resolve. PostgreSQL's views follow a rename
// because they hold the relation's oid; a view kept as text follows it by
// this rewrite. ok is false when no such name was found.
func RenameInDefinition(def, schema, from, to string) (string, bool) {
	return MoveInDefinition(def, schema, from, schema, to)
}

// MoveInDefinition is RenameInDefinition for a relation that moves to
// toSchema as well (ALTER VIEW ... SET SCHEMA): its names become
// toSchema.to.
func MoveInDefinition(def, schema, from, toSchema, to string) (string, bool) {
	toks, err := lexInto(def, nil)
	if err != nil {
		return def, false
	}
	type edit struct {
		start, end int
		text       string
	}
	var edits []edit
	_ = walkNames(def, toks, func(k, n int, relation bool) error {
		if !relation || n > 3 {
			return nil
		}
		parts := make([]string, n)
		for i := range parts {
			parts[i], _ = identName(def, toks[k+2*i])
		}
		if parts[n-1] != from || n >= 2 && parts[n-2] != schema {
			return nil
		}
		end := k + 2*n - 1
		text := quoteIdent(toSchema) + "." + quoteIdent(to)
		if !aliasAt(def, toks, end) {
			text += " AS " + quoteIdent(from)
		}
		edits = append(edits, edit{toks[k].start, toks[end-1].end, text})
		return nil
	})
	if len(edits) == 0 {
		return def, false
	}
	var b []byte
	last := 0
	for _, e := range edits {
		b = append(b, def[last:e.start]...)
		b = append(b, e.text...)
		last = e.end
	}
	b = append(b, def[last:]...)
	return string(b), true
}

// aliasAt reports whether toks[i], after a FROM item's name, starts its
// alias: AS, a quoted name, or a word that is no keyword following a FROM
// item (WHERE, JOIN, ON, ...).
func aliasAt(src string, toks []token, i int) bool {
	if i >= len(toks) {
		return false
	}
	t := toks[i]
	switch t.kind {
	case tkQIdent:
		return true
	case tkIdent:
		w := t.word(src)
		if w == "AS" {
			return true
		}
		next := ""
		if i+1 < len(toks) {
			next = toks[i+1].word(src)
		}
		return !followsFromItem(w, next, true) && !relationListEnds[w]
	}
	return false
}

// DropCascade reports whether st is a DROP statement ending in CASCADE
// (TiDB's grammar takes CASCADE and keeps nothing of it).
// Parse notes it from the statement's tokens (no second lexing pass).
func DropCascade(st *Statement) bool {
	return st.cascade
}
