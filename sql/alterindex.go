package sql

import "strings"

// ALTER INDEX [IF EXISTS] name action, PostgreSQL 15's forms (gram.y's
// AlterTableStmt over an index, RenameStmt, AlterOwnerStmt and
// AlterObjectDependsStmt): RENAME TO, SET / RESET (storage parameters),
// SET TABLESPACE, OWNER TO, ALTER [COLUMN] n SET STATISTICS, [NO] DEPENDS
// ON EXTENSION, and ALTER INDEX ALL IN TABLESPACE. sqlgate's indexes are
// the primary key's and those of UNIQUE constraints and unique indexes
// (engine/alterindex.go runs the statement once it has found the index);
// ATTACH PARTITION is read in ddlstmts.go.

// IndexActionKind says what an ALTER INDEX does.
type IndexActionKind int

// The ALTER INDEX actions.
const (
	// IndexRename: RENAME TO NewName.
	IndexRename IndexActionKind = iota
	// IndexSetOptions, IndexResetOptions: SET (name [= value], ...) and
	// RESET (name, ...); Options holds the names.
	IndexSetOptions
	IndexResetOptions
	// IndexSetTablespace: SET TABLESPACE NewName.
	IndexSetTablespace
	// IndexOwner: OWNER TO NewName (the role as roleSpec reads it).
	IndexOwner
	// IndexSetStatistics: ALTER [COLUMN] Column SET STATISTICS n (Column
	// the column's number as written).
	IndexSetStatistics
	// IndexDependsOnExtension: [NO] DEPENDS ON EXTENSION NewName.
	IndexDependsOnExtension
)

// IndexAction is ALTER INDEX's action.
type IndexAction struct {
	Kind    IndexActionKind
	NewName string
	Options []string
	// Params are SET's options with their values (RESET's names alone).
	Params []ViewOption
	Column string
	// No is NO DEPENDS ON EXTENSION.
	No bool
}

// alterIndex: ALTER INDEX after its first two words.
func (p *ddlParser) alterIndex(st *Statement) error {
	if p.word(0) == "ALL" {
		// ALTER INDEX ALL IN TABLESPACE a [OWNED BY r] SET TABLESPACE b
		// [NOWAIT]: the tablespaces PostgreSQL moves indexes between
		// sqlgate has none of but pg_default
		if !p.accept("ALL", "IN", "TABLESPACE") {
			p.pos++
			return p.err()
		}
		return p.notSupported("ALTER INDEX ALL IN TABLESPACE is not supported: sqlgate keeps every index in the default tablespace", "")
	}
	st.Kind, st.DDL = AlterIndex, &DDLStmt{}
	d := st.DDL
	d.IfExists = p.accept("IF", "EXISTS")
	n, err := p.objectName()
	if err != nil {
		return err
	}
	d.Table = n
	a := &IndexAction{}
	d.IndexAction = a
	switch {
	case p.accept("RENAME", "TO"):
		a.Kind = IndexRename
		if a.NewName, err = p.ident(); err != nil {
			return err
		}
	case p.accept("SET", "TABLESPACE"):
		a.Kind = IndexSetTablespace
		if a.NewName, err = p.ident(); err != nil {
			return err
		}
	case (p.word(0) == "SET" || p.word(0) == "RESET") && p.pos+1 < len(p.toks) && p.toks[p.pos+1].isPunct(p.src, "("):
		a.Kind = IndexSetOptions
		set := p.word(0) == "SET"
		if !set {
			a.Kind = IndexResetOptions
		}
		opts, next, err := viewOptionList(p.src, p.toks, p.pos+1, set) // viewopts.go: reloptions' grammar
		if err != nil {
			return err
		}
		for _, o := range opts {
			a.Options = append(a.Options, o.Name)
		}
		a.Params = opts
		p.pos = next
	case p.accept("OWNER", "TO"):
		a.Kind = IndexOwner
		if a.NewName, err = p.roleSpec(); err != nil {
			return err
		}
	case p.accept("ALTER"):
		a.Kind = IndexSetStatistics
		p.accept("COLUMN")
		if p.pos >= len(p.toks) || p.toks[p.pos].kind != tkNumber {
			return p.err() // an index's column is named by its number
		}
		a.Column = p.toks[p.pos].text(p.src)
		p.pos++
		if !p.accept("SET", "STATISTICS") {
			return p.err()
		}
		if _, err := p.signedInt(); err != nil {
			return err
		}
	case p.accept("DEPENDS", "ON", "EXTENSION"), p.accept("NO", "DEPENDS", "ON", "EXTENSION"):
		a.Kind = IndexDependsOnExtension
		a.No = strings.EqualFold(p.toks[p.pos-4].text(p.src), "NO")
		if a.NewName, err = p.ident(); err != nil {
			return err
		}
	default:
		return p.err()
	}
	return p.done()
}
