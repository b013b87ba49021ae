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
	if p.accept("RENAME") && p.word(0) == "TO" {
		a, err := p.renameTo()
		if err != nil {
			return err
		}
		d.Actions = []AlterAction{a}
		return p.done()
	}
	d.Actions = []AlterAction{{Kind: AlterUnsupported, Unsupported: "this ALTER VIEW action is not supported: sqlgate's views can be renamed (ALTER VIEW v RENAME TO w) and replaced",
		Instead: "Use CREATE OR REPLACE VIEW, or DROP VIEW and CREATE VIEW."}}
	p.pos = len(p.toks)
	return nil
}
