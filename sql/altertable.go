package sql

import "github.com/sqlgate/sqlgate/sqlerr"

// ALTER TABLE as Fluss 0.9.1 allows it (its coordinator's SchemaUpdate
// adds nullable columns at the end, and nothing else; table properties
// change through AlterTable's config changes): ADD COLUMN (with DEFAULT and
// NOT NULL), SET / RESET (properties) and ALTER COLUMN SET / DROP DEFAULT
// and SET / DROP NOT NULL (sqlgate's metadata, kept in the table's custom
// properties) are parsed into actions, and so are ALTER COLUMN TYPE, DROP
// COLUMN and RENAME COLUMN (altercolumn.go), which the engine carries out
// by rewriting the table; every other action into an
// AlterUnsupported action naming the Fluss limit and what to do instead,
// which the engine reports once it knows the table exists (42P01 first, as
// PostgreSQL does).

const (
	insteadCopy = "Create a new table with the columns you want and copy the rows: CREATE TABLE new AS SELECT ... FROM t; then DROP TABLE t."
)

// alterTable: ALTER TABLE [IF EXISTS] [ONLY] name [*] action [, ...].
func (p *ddlParser) alterTable(st *Statement) error {
	st.Kind, st.DDL = AlterTable, &DDLStmt{}
	d := st.DDL
	d.IfExists = p.accept("IF", "EXISTS")
	p.accept("ONLY")
	n, err := p.objectName()
	if err != nil {
		return err
	}
	d.Table = n
	p.table = n.Name
	p.punct("*")
	if p.pos >= len(p.toks) {
		return p.err()
	}
	for {
		a, err := p.alterAction()
		if err != nil {
			return err
		}
		d.Actions = append(d.Actions, a)
		if a.Kind == AlterRename || a.Kind == AlterRenameColumn || a.Kind == AlterRenameConstraint {
			if len(d.Actions) > 1 {
				return p.renameNotAlone()
			}
			return p.done() // RENAME TO is a statement of its own: a ',' after it is a syntax error
		}
		if !p.punct(",") {
			break
		}
	}
	return p.done()
}

// skipAction moves past the rest of an action: up to a ',' outside
// brackets (an ARRAY['x', 'y'] or a function's arguments) or the end.
func (p *ddlParser) skipAction() {
	for i := range topLevel(p.src, p.toks, p.pos, len(p.toks)) {
		if p.toks[i].isPunct(p.src, ",") {
			p.pos = i
			return
		}
	}
	p.pos = len(p.toks)
}

// setDefault parses SET DEFAULT expr of ALTER COLUMN column: the
// expression's text runs to the action's end (a ',' outside brackets or
// the statement's end); the engine binds it as CREATE TABLE binds a
// DEFAULT.
func (p *ddlParser) setDefault(column string) (AlterAction, error) {
	p.pos += 2
	start := p.pos
	p.skipAction()
	if p.pos == start {
		return AlterAction{}, p.err()
	}
	if err := exprSyntaxIn(p.src, p.toks, start, p.pos); err != nil {
		return AlterAction{}, err
	}
	return AlterAction{Kind: AlterSetDefault, Column: column,
		Default: p.src[p.toks[start].start:p.toks[p.pos-1].end], DefaultPos: charPos(p.src, p.toks[start].start)}, nil
}

// addConstraint parses ADD [CONSTRAINT name] CHECK (expr) [NO INHERIT]
// [NOT VALID], ADD [CONSTRAINT name] FOREIGN KEY ..., UNIQUE (...) and
// PRIMARY KEY (...): CHECK and foreign key constraints are sqlgate's
// metadata, a UNIQUE constraint an index table sqlgate keeps, and a
// primary key a rewrite of a log table into a primary-key table (the
// engine's); an exclusion constraint is refused.
func (p *ddlParser) addConstraint() (AlterAction, error) {
	a := AlterAction{Kind: AlterAddCheck}
	start := p.pos // (where PostgreSQL places a constraint's errors)
	if p.accept("CONSTRAINT") {
		n, err := p.ident()
		if err != nil {
			return a, err
		}
		a.Constraint = n
	}
	switch {
	case p.accept("CHECK"):
	case p.word(0) == "UNIQUE" && p.word(1) == "USING" && p.word(2) == "INDEX":
		// a unique index becomes the constraint, renamed to its name
		// (engine/uniqueusing.go)
		p.pos += 3
		idx, err := p.ident()
		if err != nil {
			return a, err
		}
		switch p.word(0) {
		case "DEFERRABLE", "INITIALLY":
			return a, sqlerr.New(sqlerr.FeatureNotSupported, "UNIQUE ... %s is not supported", p.word(0)).
				WithPosition(charPos(p.src, p.toks[p.pos].start))
		case "NOT":
			p.accept("NOT", "DEFERRABLE")
		}
		return AlterAction{Kind: AlterAddUniqueUsingIndex, Constraint: a.Constraint, NewName: idx, DefaultPos: charPos(p.src, p.toks[start].start)}, nil
	case p.word(0) == "UNIQUE":
		u, next, err := uniqueClause(p.src, p.toks, p.pos, "", a.Constraint) // unique.go
		if err != nil {
			return a, err
		}
		p.pos = next
		return AlterAction{Kind: AlterAddUnique, Constraint: a.Constraint, Unique: &u}, nil
	case p.word(0) == "PRIMARY" && p.word(1) == "KEY" && p.word(2) == "USING":
		return p.unsupported("ALTER TABLE ... ADD PRIMARY KEY USING INDEX is not supported: a Fluss table's primary key is its storage key, which no index becomes",
			"Name the columns instead: ALTER TABLE t ADD PRIMARY KEY (cols), then DROP INDEX the unique index.")
	case p.word(0) == "PRIMARY":
		u, next, err := primaryKeyClause(p.src, p.toks, p.pos, a.Constraint) // unique.go
		if err != nil {
			return a, err
		}
		u.Pos, p.pos = charPos(p.src, p.toks[start].start), next
		return AlterAction{Kind: AlterAddPrimaryKey, Constraint: a.Constraint, Unique: &u}, nil
	case p.word(0) == "FOREIGN":
		fk, next, err := foreignKeyClause(p.src, p.toks, p.pos, "", a.Constraint) // foreignkey.go
		if err != nil {
			return a, err
		}
		p.pos = next
		return AlterAction{Kind: AlterAddForeignKey, Constraint: a.Constraint, ForeignKey: &fk}, nil
	case p.word(0) == "EXCLUDE":
		return p.unsupported("EXCLUDE constraints are not supported", "")
	default:
		return a, p.err()
	}
	open := p.pos
	if open >= len(p.toks) || !p.toks[open].isPunct(p.src, "(") {
		return a, p.err()
	}
	end := matchingClose(p.src, p.toks, open) // modifyingwith.go
	if end < 0 {
		return a, syntaxErrorAt(p.src, p.toks, len(p.toks))
	}
	if end == open+1 {
		return a, syntaxErrorAt(p.src, p.toks, end)
	}
	if err := exprSyntaxIn(p.src, p.toks, open+1, end); err != nil {
		return a, err
	}
	a.Default = p.src[p.toks[open+1].start:p.toks[end-1].end]
	a.DefaultPos = charPos(p.src, p.toks[open+1].start)
	p.pos = end + 1
	p.accept("NO", "INHERIT") // (sqlgate has no table inheritance)
	a.NotValid = p.accept("NOT", "VALID")
	return a, nil
}

func (p *ddlParser) unsupported(what, instead string) (AlterAction, error) {
	p.skipAction()
	return AlterAction{Kind: AlterUnsupported, Unsupported: what, Instead: instead}, nil
}

func (p *ddlParser) alterAction() (AlterAction, error) {
	switch {
	case p.accept("ADD"):
		if a, ok, err := p.partitionAction(true); ok || err != nil { // partitions.go
			return a, err
		}
		switch p.word(0) {
		case "CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN", "EXCLUDE":
			return p.addConstraint()
		}
		p.accept("COLUMN")
		return p.addColumn()
	case p.accept("DROP"):
		if a, ok, err := p.partitionAction(false); ok || err != nil { // partitions.go
			return a, err
		}
		if p.accept("CONSTRAINT") {
			a := AlterAction{Kind: AlterDropConstraint, IfNotExists: p.accept("IF", "EXISTS")}
			n, err := p.ident()
			if err != nil {
				return a, err
			}
			a.Constraint = n
			if !p.accept("RESTRICT") {
				a.Cascade = p.accept("CASCADE") // (a UNIQUE constraint's foreign keys)
			}
			return a, nil
		}
		return p.dropColumn() // altercolumn.go
	case p.accept("ALTER"):
		if p.word(0) == "CONSTRAINT" {
			return p.unsupported("ALTER TABLE ... ALTER CONSTRAINT is not supported", "Drop the constraint and add it again with the attributes you want.")
		}
		p.accept("COLUMN")
		column, err := p.colID() // (a reserved word is no column's name)
		if err != nil {
			return AlterAction{}, err
		}
		switch {
		case p.word(0) == "TYPE" || p.word(0) == "SET" && p.word(1) == "DATA" && p.word(2) == "TYPE":
			return p.columnType(column) // altercolumn.go
		case p.word(0) == "SET" && p.word(1) == "NOT" && p.word(2) == "NULL":
			p.pos += 3
			return AlterAction{Kind: AlterSetNotNull, Column: column}, nil
		case p.word(0) == "DROP" && p.word(1) == "NOT" && p.word(2) == "NULL":
			p.pos += 3
			return AlterAction{Kind: AlterDropNotNull, Column: column}, nil
		case p.word(0) == "DROP" && p.word(1) == "EXPRESSION":
			// a generated column's expression lives in the table's
			// metadata, which ALTER TABLE does not rewrite
			return p.unsupported("ALTER TABLE ... ALTER COLUMN ... DROP EXPRESSION is not supported: sqlgate cannot change a column's generation expression",
				"Copy the rows into a new table whose column is not generated: "+insteadCopy)
		case p.word(0) == "SET" && p.word(1) == "DEFAULT":
			return p.setDefault(column)
		case p.word(0) == "SET" && (p.word(1) == "STATISTICS" || p.word(1) == "STORAGE" || p.word(1) == "COMPRESSION"):
			return p.columnStorage(column) // pgstorage.go
		case p.word(0) == "DROP" && p.word(1) == "DEFAULT":
			p.pos += 2
			return AlterAction{Kind: AlterDropDefault, Column: column}, nil
		case p.word(0) == "ADD" && p.word(1) == "GENERATED" && identityAt(p.src, p.toks, p.pos+2),
			p.word(0) == "SET" && p.word(1) == "GENERATED",
			p.word(0) == "DROP" && p.word(1) == "IDENTITY":
			return p.identityAction(column) // identity.go
		}
		if p.pos >= len(p.toks) {
			return AlterAction{}, p.err()
		}
		if err := p.actionSyntax(columnActions); err != nil {
			return AlterAction{}, err
		}
		return p.unsupported("this ALTER TABLE ... ALTER COLUMN action is not supported: Fluss 0.9.1 cannot modify a column", insteadCopy)
	case p.accept("VALIDATE", "CONSTRAINT"):
		n, err := p.ident()
		return AlterAction{Kind: AlterValidateConstraint, Constraint: n}, err
	case p.accept("RENAME"):
		if p.word(0) == "TO" {
			return p.renameTo() // rename.go
		}
		if p.accept("CONSTRAINT") {
			// a statement of its own, as RENAME TO is (engine/renameconstraint.go)
			old, err := p.ident()
			if err != nil {
				return AlterAction{}, err
			}
			if !p.accept("TO") {
				return AlterAction{}, p.err()
			}
			n, err := p.ident()
			return AlterAction{Kind: AlterRenameConstraint, Constraint: old, NewName: n}, err
		}
		return p.renameColumn() // altercolumn.go
	case p.word(0) == "SET" && p.pos+1 < len(p.toks) && p.toks[p.pos+1].isPunct(p.src, "("):
		p.pos += 2
		a := AlterAction{Kind: AlterSetProperties}
		for {
			key, next, ok := propertyKey(p.src, p.toks, p.pos)
			if !ok {
				return a, syntaxErrorAt(p.src, p.toks, p.pos)
			}
			p.pos = next
			if !p.punct("=") {
				return a, p.err()
			}
			v, err := p.value()
			if err != nil {
				return a, err
			}
			a.Props = append(a.Props, [2]string{key, v})
			if p.punct(")") {
				return a, nil
			}
			if !p.punct(",") {
				return a, p.err()
			}
		}
	case p.word(0) == "RESET" && p.pos+1 < len(p.toks) && p.toks[p.pos+1].isPunct(p.src, "("):
		p.pos += 2
		a := AlterAction{Kind: AlterResetProperties}
		for {
			key, next, ok := propertyKey(p.src, p.toks, p.pos)
			if !ok {
				return a, syntaxErrorAt(p.src, p.toks, p.pos)
			}
			p.pos = next
			a.Keys = append(a.Keys, key)
			if p.punct(")") {
				return a, nil
			}
			if !p.punct(",") {
				return a, p.err()
			}
		}
	case p.word(0) == "REPLICA" && p.word(1) == "IDENTITY",
		p.word(0) == "CLUSTER" && p.word(1) == "ON",
		p.word(0) == "SET" && p.word(1) == "WITHOUT" && (p.word(2) == "CLUSTER" || p.word(2) == "OIDS"):
		return p.tableStorage() // pgstorage.go
	case p.word(0) == "DETACH" && p.word(1) == "PARTITION":
		// the partition becomes a table of its own, its rows copied out
		// of its parent's Fluss partitions (engine/pgpartitions.go)
		p.pos += 2
		name, err := p.objectName()
		if err != nil {
			return AlterAction{}, err
		}
		a := AlterAction{Kind: AlterDetachPartition, Attach: &PartitionOfStmt{Table: name}}
		switch {
		case p.accept("CONCURRENTLY"):
			a.Detach = "CONCURRENTLY"
		case p.accept("FINALIZE"):
			a.Detach = "FINALIZE"
		}
		return a, nil
	case p.word(0) == "ATTACH" && p.word(1) == "PARTITION":
		// an empty table becomes the partition (pg_dump's shape:
		// CREATE TABLE p (...); ALTER TABLE ONLY t ATTACH PARTITION p
		// FOR VALUES IN (v); engine/pgpartitions.go)
		p.pos += 2
		name, err := p.objectName()
		if err != nil {
			return AlterAction{}, err
		}
		po := &PartitionOfStmt{Table: name}
		done, err := p.partitionBoundSpec(po) // partitions.go
		if err != nil {
			return AlterAction{}, err
		}
		if done {
			p.skipAction()
		}
		return AlterAction{Kind: AlterAttachPartition, Attach: po}, nil
	case p.accept("SET", "SCHEMA"):
		return p.unsupported("ALTER TABLE ... SET SCHEMA is not supported: Fluss 0.9.1 cannot move a table to another database",
			"Copy it: CREATE TABLE s.t AS SELECT * FROM t; then DROP TABLE t.")
	case p.accept("OWNER", "TO"):
		return p.unsupported("ALTER TABLE ... OWNER TO is not supported", "")
	}
	if p.pos >= len(p.toks) {
		return AlterAction{}, p.err()
	}
	if err := p.actionSyntax(otherActions); err != nil {
		return AlterAction{}, err
	}
	return p.unsupported("ALTER TABLE ... "+p.word(0)+" is not supported: Fluss 0.9.1 can add nullable columns at the end and change table properties", insteadCopy)
}

// otherActions are the first words of PostgreSQL's ALTER TABLE actions
// (gram.y's alter_table_cmd and partition_cmd) that alterAction does not
// parse itself, each with the words that may follow it (nil: any). An
// action it refuses as unsupported must still be one of PostgreSQL's:
// anything else is the syntax error PostgreSQL reports, at the first
// word its grammar cannot take, and not a statement sqlgate accepts
// until it runs.
var otherActions = map[string][]string{
	"VALIDATE": {"CONSTRAINT"},
	"SET":      {"LOGGED", "UNLOGGED", "ACCESS", "TABLESPACE", "SCHEMA", "WITHOUT", "("},
	"RESET":    {"("},
	"ENABLE":   {"TRIGGER", "ALWAYS", "REPLICA", "RULE", "ROW"},
	"DISABLE":  {"TRIGGER", "RULE", "ROW"},
	"FORCE":    {"ROW"},
	"NO":       {"FORCE", "INHERIT"},
	"NOT":      {"OF"},
	"INHERIT":  nil,
	"OF":       nil,
	"OPTIONS":  {"("},
	"OWNER":    {"TO"},
	"REPLICA":  {"IDENTITY"},
	"CLUSTER":  {"ON"},
	"ATTACH":   {"PARTITION"},
	"DETACH":   {"PARTITION"},
	"RENAME":   nil,
}

// columnActions are otherActions' counterpart after ALTER [COLUMN] name:
// the column actions of PostgreSQL's grammar alterAction does not parse
// itself (SET followed by a sequence option is an identity column's).
var columnActions = map[string][]string{
	"SET": {"(", "DATA", "DEFAULT", "NOT", "STATISTICS", "STORAGE", "COMPRESSION", "GENERATED",
		"AS", "CACHE", "CYCLE", "NO", "INCREMENT", "MAXVALUE", "MINVALUE", "OWNED", "SEQUENCE", "START", "RESTART", "LOGGED", "UNLOGGED"},
	"RESET":   {"("},
	"DROP":    {"DEFAULT", "NOT", "EXPRESSION", "IDENTITY"},
	"ADD":     {"GENERATED"},
	"RESTART": nil,
	"OPTIONS": {"("},
	"TYPE":    nil,
}

// actionSyntax is the syntax error of an action whose first words are not
// among grammar's (nil when they are).
func (p *ddlParser) actionSyntax(grammar map[string][]string) error {
	next, ok := grammar[p.word(0)]
	if !ok {
		return p.err()
	}
	if next == nil {
		return nil
	}
	if p.pos+1 < len(p.toks) {
		t := p.toks[p.pos+1]
		for _, w := range next {
			if w == "(" && t.isPunct(p.src, "(") || t.kind == tkIdent && t.word(p.src) == w {
				return nil
			}
		}
	}
	return syntaxErrorAt(p.src, p.toks, p.pos+1)
}

// addColumn: [IF NOT EXISTS] name type [NULL | NOT NULL | DEFAULT expr |
// CONSTRAINT name] ...; any other constraint is kept in Constraint (the
// engine refuses it: Fluss adds nullable columns, and a default or NOT
// NULL is sqlgate's metadata).
func (p *ddlParser) addColumn() (AlterAction, error) {
	a := AlterAction{Kind: AlterAddColumn}
	a.IfNotExists = p.accept("IF", "NOT", "EXISTS")
	if err := columnNameError(p.src, p.toks, p.pos); err != nil {
		return a, err
	}
	n, err := p.ident()
	if err != nil {
		return a, err
	}
	a.Column = n
	ts := p.pos
	p.pos = typeEnd(p.src, p.toks, p.pos)
	if ts == p.pos {
		return a, p.err()
	}
	tn, err := ParseTypeName(p.src[p.toks[ts].start:p.toks[p.pos-1].end])
	if err != nil {
		return a, err
	}
	a.Type = tn
	null := false
	for p.pos < len(p.toks) && !p.toks[p.pos].isPunct(p.src, ",") {
		switch {
		case p.word(0) == "NULL":
			if a.NotNull {
				return a, p.columnConflict("conflicting NULL/NOT NULL declarations", a.Column)
			}
			null = true
			p.pos++
			continue
		case p.word(0) == "NOT" && p.word(1) == "NULL":
			if null {
				return a, p.columnConflict("conflicting NULL/NOT NULL declarations", a.Column)
			}
			a.NotNull = true
			p.pos += 2
			continue
		case p.word(0) == "DEFAULT":
			if a.DefaultPos != 0 {
				return a, p.columnConflict("multiple default values specified", a.Column)
			}
			if err := p.columnDefault(&a); err != nil {
				return a, err
			}
			continue
		case p.word(0) == "CONSTRAINT" && p.pos+2 < len(p.toks) && (p.word(2) == "NOT" || p.word(2) == "NULL" || p.word(2) == "DEFAULT"):
			p.pos += 2 // a constraint's name: NOT NULL and DEFAULT keep none
			continue
		}
		if a.Constraint == "" {
			a.Constraint = p.word(0)
			if a.Constraint == "NOT" {
				a.Constraint = "NOT NULL"
			}
		}
		p.skipAction()
	}
	return a, nil
}

// columnConflict is PostgreSQL's 42601 for a column's declarations that
// contradict each other (NULL and NOT NULL, two DEFAULTs), at the second.
func (p *ddlParser) columnConflict(what, column string) error {
	return sqlerr.New(sqlerr.SyntaxError, "%s for column \"%s\" of table \"%s\"", what, column, p.table).
		WithPosition(charPos(p.src, p.toks[p.pos].start))
}

// columnDefault parses ADD COLUMN's DEFAULT expr into a.Default (its text)
// and a.DefaultPos: the expression (PostgreSQL's b_expr, which has no
// NOT, IS NULL or COLLATE at its top) runs to the action's end or the
// column's next constraint.
func (p *ddlParser) columnDefault(a *AlterAction) error {
	p.pos++
	start := p.pos
	depth := 0
	for p.pos < len(p.toks) {
		t := p.toks[p.pos]
		switch {
		case t.isPunct(p.src, "("), t.isPunct(p.src, "["):
			depth++
		case t.isPunct(p.src, ")"), t.isPunct(p.src, "]"):
			depth--
		case depth == 0 && t.isPunct(p.src, ","):
			goto end
		case depth == 0 && p.pos > start && endsDefault[t.word(p.src)]:
			goto end
		}
		p.pos++
	}
end:
	if p.pos == start {
		return p.err()
	}
	if err := exprSyntaxIn(p.src, p.toks, start, p.pos); err != nil {
		return err
	}
	a.Default = p.src[p.toks[start].start:p.toks[p.pos-1].end]
	a.DefaultPos = charPos(p.src, p.toks[start].start)
	return nil
}

// endsDefault are the words that start a column's next constraint after
// a DEFAULT expression.
var endsDefault = map[string]bool{"NOT": true, "NULL": true, "CONSTRAINT": true, "CHECK": true, "PRIMARY": true,
	"UNIQUE": true, "REFERENCES": true, "GENERATED": true, "COLLATE": true, "DEFAULT": true}
