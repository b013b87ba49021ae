package sql

import (
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// The schema-management statements that migration tools, ORMs and Fluss /
// Flink SQL users send and that TiDB's MySQL grammar cannot carry (or
// carries with MySQL meaning): intercepted before TiDB like the session
// statements, AST nil, details in Statement.DDL.

// DDLStmt is one of the statements of ddlstmts.go (Kinds CreateSchema ...
// AlterTable). Which fields are set depends on the Kind.
type DDLStmt struct {
	// Names: DROP SCHEMA's schemas; CREATE SCHEMA's one name; DROP
	// INDEX's index names, whose schemas are in NameSchemas.
	Names []string
	// NameSchemas are DROP INDEX's names' schemas ("" when unqualified),
	// one per name.
	NameSchemas []string
	// Authorization is CREATE SCHEMA ... AUTHORIZATION role.
	Authorization string
	IfExists      bool
	IfNotExists   bool
	// Cascade is DROP SCHEMA ... CASCADE and TRUNCATE ... CASCADE
	// (RESTRICT is the default).
	Cascade bool
	// RestartIdentity is TRUNCATE ... RESTART IDENTITY: the sequences the
	// tables' columns own start again.
	RestartIdentity bool
	// Table is the table of COMMENT ON, CREATE INDEX, ALTER TABLE, SHOW
	// CREATE TABLE, SHOW PARTITIONS; Tables those of ANALYZE / VACUUM /
	// TRUNCATE.
	Table  ObjectName
	Tables []ObjectName
	// Only is TRUNCATE's ONLY, one per name in Tables (ONLY a
	// partitioned table is refused, as PostgreSQL refuses it).
	Only []bool
	// Column is COMMENT ON COLUMN's column and COMMENT ON CONSTRAINT's
	// constraint (Table its table).
	Column string
	// CommentObject is COMMENT ON's object word ("TABLE", "COLUMN",
	// "VIEW", "MATERIALIZED VIEW", "SEQUENCE", "TYPE", "DOMAIN", "INDEX",
	// "SCHEMA", "ROLE", "CONSTRAINT", "FUNCTION"): the name is in Table,
	// Names[0] (SCHEMA, ROLE) or Function (Name, Args, HasArgs).
	CommentObject string
	Function      *FunctionStmt
	// Comment is COMMENT ON's text; nil for IS NULL (remove the comment).
	Comment *string
	// Index is CREATE / DROP INDEX's index name ("" when unnamed).
	Index string
	// Verb is what ANALYZE / VACUUM reports ("ANALYZE", "VACUUM").
	Verb string
	// Prepare is PREPARE's name, parameter types and statement.
	Prepare *PrepareStmt
	// Execute is EXECUTE's name and arguments.
	Execute *ExecuteStmt
	// Actions are ALTER TABLE's actions, in order.
	Actions []AlterAction
	// Cursor is DECLARE, FETCH / MOVE or CLOSE (cursorstmts.go).
	Cursor *CursorStmt
	// Subscribe is SUBSCRIBE (subscribe.go).
	Subscribe *SubscribeStmt
	// View is ALTER VIEW (Kind AlterTable; its one action a rename, or
	// an AlterUnsupported one).
	View bool
	// Scope is REINDEX's object kind (TABLE, INDEX, SCHEMA, DATABASE,
	// SYSTEM); Concurrently its CONCURRENTLY.
	Scope        string
	Concurrently bool
	// PartitionOf is CREATE TABLE ... PARTITION OF (partitions.go).
	PartitionOf *PartitionOfStmt
	// Matview is CREATE, REFRESH or ALTER MATERIALIZED VIEW (matview.go).
	Matview *MatviewStmt
	// Unique is CREATE UNIQUE INDEX, IndexColumns its key's column texts;
	// UniqueRefused the error of one on anything but a materialized view.
	Unique        bool
	IndexColumns  []string
	UniqueRefused error
	// IndexColumnAt are the 1-based character positions of IndexColumns
	// in the statement; IndexInclude are the INCLUDE list's column texts.
	IndexColumnAt []int
	IndexInclude  []string
	// IndexMethod is USING's access method ("" when not written).
	IndexMethod string
	// IndexPartial: CREATE INDEX ... WHERE (a partial index); IndexWhere
	// is the predicate's text, IndexWhereAt its 1-based character
	// position (the binder checks both as PostgreSQL's DefineIndex does).
	IndexPartial bool
	IndexWhere   string
	IndexWhereAt int
	// IndexNullsNotDistinct: CREATE UNIQUE INDEX ... NULLS NOT DISTINCT.
	IndexNullsNotDistinct bool
	// IndexOptions are CREATE INDEX's WITH (storage parameters), nil
	// when not written.
	IndexOptions []ViewOption
	// IndexAction is ALTER INDEX's action (Kind AlterIndex; the index is
	// Table, IF EXISTS IfExists).
	IndexAction *IndexAction
}

// PrepareStmt is PREPARE name [(types)] AS statement.
type PrepareStmt struct {
	Name  string
	Types []*TypeName
	// Body is the prepared statement's text; BodyPos its 1-based
	// character position in the text parsed (errors in it point into
	// the PREPARE as written).
	Body    string
	BodyPos int
}

// ExecuteStmt is EXECUTE name [(args)]: each argument's text, to be
// evaluated as a constant expression.
type ExecuteStmt struct {
	Name string
	Args []string
	// ArgPos holds each argument's 1-based character position in the
	// statement, where an error about it points.
	ArgPos []int
}

// AlterKind says what an ALTER TABLE action does.
type AlterKind int

// The ALTER TABLE actions.
const (
	// AlterAddColumn: ADD [COLUMN] [IF NOT EXISTS] name type [NULL].
	AlterAddColumn AlterKind = iota
	// AlterSetProperties: SET (k = v, ...); Props.
	AlterSetProperties
	// AlterResetProperties: RESET (k, ...); Keys.
	AlterResetProperties
	// AlterUnsupported: an action Fluss cannot do; Unsupported names it
	// and Instead says what to do instead.
	AlterUnsupported
	// AlterAddPartition, AlterDropPartition: ADD [IF NOT EXISTS] / DROP
	// [IF EXISTS] PARTITION (k = v, ...); Props, IfNotExists (for DROP:
	// IF EXISTS) (partitions.go).
	AlterAddPartition
	AlterDropPartition
	// AlterRename: RENAME TO NewName, alone in its statement (rename.go).
	AlterRename
	// AlterSetDefault: ALTER [COLUMN] Column SET DEFAULT Default (the
	// expression's text, at DefaultPos).
	AlterSetDefault
	// AlterDropDefault: ALTER [COLUMN] Column DROP DEFAULT.
	AlterDropDefault
	// AlterAddCheck: ADD [CONSTRAINT Constraint] CHECK (Default) [NO
	// INHERIT] [NOT VALID] (Default holds the expression's text).
	AlterAddCheck
	// AlterDropConstraint: DROP CONSTRAINT [IF EXISTS] Constraint
	// [RESTRICT | CASCADE] (IfNotExists holds IF EXISTS).
	AlterDropConstraint
	// AlterValidateConstraint: VALIDATE CONSTRAINT Constraint.
	AlterValidateConstraint
	// AlterSetNotNull, AlterDropNotNull: ALTER [COLUMN] Column SET / DROP
	// NOT NULL.
	AlterSetNotNull
	AlterDropNotNull
	// AlterAddForeignKey: ADD [CONSTRAINT name] FOREIGN KEY ...
	// (ForeignKey; foreignkey.go).
	AlterAddForeignKey
	// AlterColumnType: ALTER [COLUMN] Column [SET DATA] TYPE Type
	// [COLLATE c] [USING expr] (Default holds USING's text, at
	// DefaultPos; 0 without USING). The engine rewrites the table.
	AlterColumnType
	// AlterDropColumn: DROP [COLUMN] [IF EXISTS] Column [RESTRICT |
	// CASCADE] (IfNotExists holds IF EXISTS).
	AlterDropColumn
	// AlterRenameColumn: RENAME [COLUMN] Column TO NewName, alone in its
	// statement.
	AlterRenameColumn
	// AlterAddUnique: ADD [CONSTRAINT name] UNIQUE (cols) (Unique;
	// unique.go).
	AlterAddUnique
	// AlterAttachPartition: ATTACH PARTITION name FOR VALUES ... (Attach:
	// its Table and bound; Parent is the statement's table).
	AlterAttachPartition
	// AlterDetachPartition: DETACH PARTITION name [CONCURRENTLY |
	// FINALIZE] (Attach: its Table; Detach the option, upper-cased, or
	// "").
	AlterDetachPartition
	// AlterAddIdentity: ALTER [COLUMN] Column ADD GENERATED { ALWAYS |
	// BY DEFAULT } AS IDENTITY [ ( options ) ] (Identity; identity.go).
	AlterAddIdentity
	// AlterSetIdentity: ALTER [COLUMN] Column SET GENERATED { ALWAYS |
	// BY DEFAULT } (Identity.Always).
	AlterSetIdentity
	// AlterDropIdentity: ALTER [COLUMN] Column DROP IDENTITY [IF EXISTS]
	// (IfNotExists holds IF EXISTS).
	AlterDropIdentity
	// AlterAddPrimaryKey: ADD [CONSTRAINT name] PRIMARY KEY (cols)
	// (Unique holds the name and columns). The engine rewrites the table
	// (a Fluss log table into a primary-key table).
	AlterAddPrimaryKey
	// AlterReplicaIdentity: REPLICA IDENTITY { DEFAULT | FULL | NOTHING |
	// USING INDEX Constraint } (NewName: "d", "f", "n" or "i"); catalog
	// only (pgstorage.go in the engine).
	AlterReplicaIdentity
	// AlterSetStatistics: ALTER [COLUMN] Column SET STATISTICS Default
	// (the integer's text).
	AlterSetStatistics
	// AlterSetStorage: ALTER [COLUMN] Column SET STORAGE NewName (PLAIN,
	// EXTERNAL, EXTENDED or MAIN, as written, upper-cased).
	AlterSetStorage
	// AlterSetCompression: ALTER [COLUMN] Column SET COMPRESSION NewName
	// (the method's name, lower-cased).
	AlterSetCompression
	// AlterClusterOn: CLUSTER ON Constraint (an index); AlterSetWithoutCluster:
	// SET WITHOUT CLUSTER.
	AlterClusterOn
	AlterSetWithoutCluster
	// AlterNoOp: SET WITHOUT OIDS, which PostgreSQL 15 accepts and does
	// nothing for (old pg_dump output).
	AlterNoOp
	// AlterRenameConstraint: RENAME CONSTRAINT Constraint TO NewName,
	// alone in its statement.
	AlterRenameConstraint
	// AlterAddUniqueUsingIndex: ADD [CONSTRAINT Constraint] UNIQUE USING
	// INDEX NewName (the index's name; DefaultPos the action's position,
	// where PostgreSQL points its errors).
	AlterAddUniqueUsingIndex
)

// AlterAction is one action of ALTER TABLE.
type AlterAction struct {
	Kind AlterKind
	// Attach is AlterAttachPartition's partition and bound.
	Attach *PartitionOfStmt
	// Detach is AlterDetachPartition's CONCURRENTLY or FINALIZE.
	Detach string
	Column string
	Type   *TypeName
	// Collation is AlterColumnType's COLLATE name ("" when not given:
	// the new type's default).
	Collation   string
	IfNotExists bool
	// Constraint: what the added column declared beyond its type
	// (refused: Fluss adds nullable columns only); the constraint's name
	// of AlterAddCheck ("" when not given), AlterDropConstraint and
	// AlterValidateConstraint.
	Constraint string
	Props      [][2]string
	Keys       []string
	// ViewOptions are ALTER VIEW's SET (..) and RESET (..) options
	// (AlterSetProperties, AlterResetProperties; viewopts.go).
	ViewOptions []ViewOption
	// Unsupported and Instead describe an AlterUnsupported action.
	Unsupported, Instead string
	// NewName is AlterRename's new name; NewSchema is ALTER VIEW ... SET
	// SCHEMA's schema (an AlterRename to the same name in it).
	NewName, NewSchema string
	// Default is AlterSetDefault's expression as written, DefaultPos its
	// 1-based character position in the statement.
	Default    string
	DefaultPos int
	// NotValid is AlterAddCheck's NOT VALID: rows already stored are not
	// checked (until VALIDATE CONSTRAINT).
	NotValid bool
	// NotNull is AlterAddColumn's NOT NULL (its DEFAULT is in Default and
	// DefaultPos).
	NotNull bool
	// ForeignKey is AlterAddForeignKey's constraint.
	ForeignKey *ForeignKeyClause
	// Cascade is AlterDropColumn's and AlterDropConstraint's CASCADE.
	Cascade bool
	// Unique is AlterAddUnique's constraint, and AlterAddPrimaryKey's.
	Unique *UniqueClause
	// Identity is AlterAddIdentity's and AlterSetIdentity's clause.
	Identity *IdentityClause
}

// ddlParser parses the statements of this file over a sessionParser.
type ddlParser struct {
	sessionParser
	table string // ALTER TABLE's table, which some of its errors name
}

// notSupported is the 0A000 of a statement Fluss's model cannot express,
// at the current token.
func (p *ddlParser) notSupported(msg, hint string) error {
	e := sqlerr.New(sqlerr.FeatureNotSupported, "%s", msg)
	if p.pos < len(p.toks) {
		e = e.WithPosition(charPos(p.src, p.toks[p.pos].start))
	}
	if hint != "" {
		e = e.WithHint("%s", hint)
	}
	return e
}

// parseDDL handles the statement if it is one of this file's and reports
// whether it did.
func parseDDL(src string, toks []token, st *Statement) (bool, error) {
	if ok, err := parseCursor(src, toks, st); ok { // cursorstmts.go
		return true, err
	}
	if ok, err := parseSubscribe(src, toks, st); ok { // subscribe.go
		return true, err
	}
	p := &ddlParser{sessionParser: sessionParser{src: src, toks: toks}}
	switch p.word(0) {
	case "CREATE":
		k := 1
		if p.word(1) == "UNIQUE" {
			k = 2
		}
		switch p.word(k) {
		case "TABLE":
			if k == 1 {
				p.pos = 2
				if ok, err := p.createPartitionOf(st); ok { // partitions.go
					return true, err
				}
			}
		case "SCHEMA":
			p.pos = 2
			return true, p.createSchema(st)
		case "INDEX":
			p.pos = k + 1
			return true, p.createIndex(st, k == 2)
		case "EXTENSION":
			p.pos = 2
			return true, p.createExtension(st)
		case "MATERIALIZED":
			if p.word(2) == "VIEW" {
				p.pos = 3
				return true, p.createMatview(st) // matview.go
			}
		}
	case "DROP":
		switch p.word(1) {
		case "SCHEMA":
			p.pos = 2
			return true, p.dropSchema(st)
		case "INDEX":
			p.pos = 2
			return true, p.dropIndex(st)
		case "EXTENSION":
			p.pos = 2
			return true, p.dropNames(st, "DROP EXTENSION", false)
		case "TRIGGER", "POLICY", "RULE":
			verb := "DROP " + p.word(1)
			p.pos = 2
			return true, p.dropOnRelation(st, verb)
		case "MATERIALIZED":
			if p.word(2) == "VIEW" {
				p.pos = 3
				return true, p.dropNames(st, "DROP MATERIALIZED VIEW", true)
			}
		}
	case "REFRESH":
		if p.word(1) == "MATERIALIZED" && p.word(2) == "VIEW" {
			p.pos = 3
			return true, p.refreshMatview(st) // matview.go
		}
	case "CLUSTER":
		p.pos = 1
		return true, p.cluster(st)
	case "REINDEX":
		p.pos = 1
		return true, p.reindex(st)
	case "COMMENT":
		if p.word(1) == "ON" {
			p.pos = 2
			return true, p.commentOn(st)
		}
	case "ANALYZE", "ANALYSE", "VACUUM":
		return true, p.maintenance(st)
	case "TRUNCATE":
		p.pos = 1
		return true, p.truncate(st)
	case "DO":
		return true, sqlerr.New(sqlerr.FeatureNotSupported, "DO is not supported: sqlgate runs no procedural code (PL/pgSQL)").
			WithPosition(charPos(src, toks[0].start)).WithHint("Run the block's statements one by one.")
	case "PREPARE":
		if p.word(1) != "TRANSACTION" {
			p.pos = 1
			return true, p.prepare(st)
		}
	case "EXECUTE":
		p.pos = 1
		return true, p.execute(st)
	case "ALTER":
		switch p.word(1) {
		case "TABLE":
			p.pos = 2
			return true, p.alterTable(st)
		case "VIEW":
			p.pos = 2
			return true, p.alterView(st) // rename.go
		case "INDEX":
			// ALTER INDEX parent ATTACH PARTITION child, which pg_dump
			// writes after a partition's index: a partition here has its
			// parent's keys and indexes (engine/pgpartitions.go)
			p.pos = 2
			parent, err := p.objectName()
			if err != nil || p.word(0) != "ATTACH" || p.word(1) != "PARTITION" {
				p.pos = 2
				return true, p.alterIndex(st) // alterindex.go
			}
			p.pos += 2
			child, err := p.objectName()
			if err != nil {
				return true, err
			}
			st.Kind, st.DDL = Maintenance, &DDLStmt{Verb: "ALTER INDEX ATTACH PARTITION", Table: parent, Tables: []ObjectName{child}}
			return true, p.done()
		case "MATERIALIZED":
			if p.word(2) == "VIEW" {
				p.pos = 3
				return true, p.alterMatview(st) // matview.go
			}
		case "DEFAULT":
			if p.word(2) == "PRIVILEGES" {
				return true, p.parseDefaultPrivileges(st) // grant.go
			}
		}
	case "SHOW":
		switch {
		case p.word(1) == "DATABASES" && len(toks) == 2:
			st.Kind, st.DDL = ShowDatabases, &DDLStmt{}
			return true, nil
		case p.word(1) == "CREATE" && p.word(2) == "TABLE":
			p.pos = 3
			st.Kind, st.DDL = ShowCreateTable, &DDLStmt{}
			return true, p.tableThenDone(st)
		case p.word(1) == "PARTITIONS":
			p.pos = 2
			st.Kind, st.DDL = ShowPartitions, &DDLStmt{}
			return true, p.tableThenDone(st)
		}
	}
	return false, nil
}

func (p *ddlParser) tableThenDone(st *Statement) error {
	n, err := p.objectName()
	if err != nil {
		return err
	}
	st.DDL.Table = n
	return p.done()
}

// createSchema: CREATE SCHEMA [IF NOT EXISTS] name [AUTHORIZATION role] |
// CREATE SCHEMA [IF NOT EXISTS] AUTHORIZATION role (the schema is named
// after the role).
func (p *ddlParser) createSchema(st *Statement) error {
	st.Kind, st.DDL = CreateSchema, &DDLStmt{}
	d := st.DDL
	d.IfNotExists = p.accept("IF", "NOT", "EXISTS")
	if !p.accept("AUTHORIZATION") {
		n, err := p.ident()
		if err != nil {
			return err
		}
		d.Names = []string{n}
		if !p.accept("AUTHORIZATION") {
			return p.schemaElements()
		}
	}
	role, err := p.ident()
	if err != nil {
		return err
	}
	d.Authorization = role
	if len(d.Names) == 0 {
		d.Names = []string{role}
	}
	return p.schemaElements()
}

// schemaElements refuses CREATE SCHEMA's schema elements, which are
// PostgreSQL's CREATE (TABLE, VIEW, INDEX, SEQUENCE, TRIGGER) and GRANT
// statements: any other word there is its syntax error.
func (p *ddlParser) schemaElements() error {
	if p.pos >= len(p.toks) {
		return nil
	}
	if w := p.word(0); w != "CREATE" && w != "GRANT" {
		return p.err()
	}
	return p.notSupported("CREATE SCHEMA with schema elements is not supported", "Create the schema, then its tables with CREATE TABLE.")
}

// dropSchema: DROP SCHEMA [IF EXISTS] name [, ...] [CASCADE | RESTRICT].
func (p *ddlParser) dropSchema(st *Statement) error {
	st.Kind, st.DDL = DropSchema, &DDLStmt{}
	d := st.DDL
	d.IfExists = p.accept("IF", "EXISTS")
	for {
		n, err := p.ident()
		if err != nil {
			return err
		}
		d.Names = append(d.Names, n)
		if !p.punct(",") {
			break
		}
	}
	if p.accept("CASCADE") {
		d.Cascade = true
	} else {
		p.accept("RESTRICT")
	}
	return p.done()
}

// createIndex: CREATE [UNIQUE] INDEX [CONCURRENTLY] [[IF NOT EXISTS] name]
// ON [ONLY] table [USING method] (...) [...]. The index definition is not
// kept (Fluss has no secondary indexes), so everything after the table
// name is accepted as written; a UNIQUE index would be a constraint Fluss
// cannot enforce, and is refused.
func (p *ddlParser) createIndex(st *Statement, unique bool) error {
	st.Kind, st.DDL = CreateIndex, &DDLStmt{Unique: unique}
	d := st.DDL
	if unique { // only a materialized view's may be unique (engine/matview.go)
		d.UniqueRefused = p.notSupported("CREATE UNIQUE INDEX is not supported: a Fluss table has no unique constraint beyond its primary key",
			"Declare the columns as the table's PRIMARY KEY (CREATE TABLE new (...) then INSERT INTO new SELECT ...).")
	}
	d.Concurrently = p.accept("CONCURRENTLY")
	d.IfNotExists = p.accept("IF", "NOT", "EXISTS")
	if p.word(0) != "ON" {
		n, err := p.ident()
		if err != nil {
			return err
		}
		d.Index = n
	}
	if !p.accept("ON") {
		return p.err()
	}
	p.accept("ONLY")
	n, err := p.objectName()
	if err != nil {
		return err
	}
	d.Table = n
	if p.accept("USING") {
		m, err := p.ident()
		if err != nil {
			return err
		}
		d.IndexMethod = m
	}
	if !p.punct("(") {
		return p.err()
	}
	cols, at, err := p.itemsAt()
	if err != nil {
		return err
	}
	d.IndexColumns, d.IndexColumnAt = cols, at
	if p.accept("INCLUDE") && p.punct("(") {
		if d.IndexInclude, err = p.items(); err != nil {
			return err
		}
	}
	rest := p.toks[p.pos:]
	depth := 0
	for k, t := range rest {
		if depth == 0 && !d.IndexPartial && d.IndexOptions == nil && t.is(p.src, "WITH") && k+1 < len(rest) && rest[k+1].isPunct(p.src, "(") {
			opts, _, err := viewOptionList(p.src, p.toks, p.pos+k+1, true) // viewopts.go: reloptions' grammar
			if err != nil {
				return err
			}
			d.IndexOptions = []ViewOption{}
			d.IndexOptions = append(d.IndexOptions, opts...)
		}
		switch {
		case t.isPunct(p.src, "("):
			depth++
		case t.isPunct(p.src, ")"):
			depth--
		}
		if depth == 0 && !d.IndexPartial && t.is(p.src, "WHERE") && k+1 < len(rest) {
			d.IndexPartial = true
			end := len(rest)
			if rest[end-1].isPunct(p.src, ";") {
				end--
			}
			if k+1 < end {
				d.IndexWhere = p.src[rest[k+1].start:rest[end-1].end]
				d.IndexWhereAt = charPos(p.src, rest[k+1].start)
			}
		}
		if k+2 < len(rest) && t.is(p.src, "NULLS") && rest[k+1].is(p.src, "NOT") && rest[k+2].is(p.src, "DISTINCT") {
			d.IndexNullsNotDistinct = true
		}
	}
	p.pos = len(p.toks) // WITH, TABLESPACE: nothing to keep
	return nil
}

// dropIndex: DROP INDEX [CONCURRENTLY] [IF EXISTS] name [, ...] [CASCADE |
// RESTRICT].
func (p *ddlParser) dropIndex(st *Statement) error {
	st.Kind, st.DDL = DropIndex, &DDLStmt{}
	d := st.DDL
	d.Concurrently = p.accept("CONCURRENTLY")
	d.IfExists = p.accept("IF", "EXISTS")
	for {
		n, err := p.objectName()
		if err != nil {
			return err
		}
		d.Names = append(d.Names, n.Name)
		d.NameSchemas = append(d.NameSchemas, n.Schema)
		if !p.punct(",") {
			break
		}
	}
	d.Cascade = p.dropBehavior() // (a unique index a foreign key depends on)
	return p.done()
}

// commentObjectWords are the words that start an object kind of
// PostgreSQL 15's COMMENT ON (comment_type_any_name, comment_type_name and
// its other rules) that sqlgate keeps no comment for: 0A000. Any other
// word there is PostgreSQL's syntax error at it.
var commentObjectWords = map[string]bool{
	"ACCESS": true, "AGGREGATE": true, "CAST": true, "COLLATION": true, "CONVERSION": true,
	"DATABASE": true, "EVENT": true, "EXTENSION": true, "FOREIGN": true, "LANGUAGE": true,
	"LARGE": true, "MATERIALIZED": true, "OPERATOR": true, "POLICY": true, "PROCEDURAL": true,
	"PROCEDURE": true, "PUBLICATION": true, "ROUTINE": true, "RULE": true, "SERVER": true,
	"STATISTICS": true, "SUBSCRIPTION": true, "TABLESPACE": true, "TEXT": true, "TRANSFORM": true,
	"TRIGGER": true,
}

// commentOn: COMMENT ON object IS 'text' | NULL for the objects sqlgate
// keeps: TABLE t, COLUMN [schema.]t.c, VIEW, MATERIALIZED VIEW, SEQUENCE,
// TYPE, DOMAIN and INDEX [schema.]name, SCHEMA and ROLE name, CONSTRAINT c
// ON t, FUNCTION name [(args)]. Other objects are refused.
func (p *ddlParser) commentOn(st *Statement) error {
	st.Kind, st.DDL = CommentOn, &DDLStmt{}
	d := st.DDL
	switch {
	case p.accept("TABLE"):
		d.CommentObject = "TABLE"
		n, err := p.objectName()
		if err != nil {
			return err
		}
		d.Table = n
	case p.accept("COLUMN"):
		d.CommentObject = "COLUMN"
		var parts []string
		for {
			n, err := p.ident()
			if err != nil {
				return err
			}
			parts = append(parts, n)
			if !p.punct(".") {
				break
			}
		}
		switch len(parts) {
		case 2:
			d.Table, d.Column = ObjectName{Name: parts[0]}, parts[1]
		case 3:
			d.Table, d.Column = ObjectName{Schema: parts[0], Name: parts[1]}, parts[2]
		default:
			return sqlerr.New(sqlerr.SyntaxError, "column name must be qualified")
		}
	case p.accept("MATERIALIZED", "VIEW"):
		d.CommentObject = "MATERIALIZED VIEW"
		n, err := p.objectName()
		if err != nil {
			return err
		}
		d.Table = n
	case p.accept("VIEW"), p.accept("SEQUENCE"), p.accept("TYPE"), p.accept("DOMAIN"), p.accept("INDEX"):
		d.CommentObject = p.word(-1)
		n, err := p.objectName()
		if err != nil {
			return err
		}
		d.Table = n
	case p.accept("SCHEMA"), p.accept("ROLE"):
		d.CommentObject = p.word(-1)
		n, err := p.ident()
		if err != nil {
			return err
		}
		d.Names = []string{n}
	case p.accept("CONSTRAINT"):
		d.CommentObject = "CONSTRAINT"
		c, err := p.ident()
		if err != nil {
			return err
		}
		if !p.accept("ON") {
			return p.err()
		}
		p.accept("DOMAIN") // a domain's constraint: looked up as a table's, not found
		n, err := p.objectName()
		if err != nil {
			return err
		}
		d.Table, d.Column = n, c
	case p.accept("FUNCTION"):
		d.CommentObject = "FUNCTION"
		n, err := p.objectName()
		if err != nil {
			return err
		}
		f := &FunctionStmt{Name: n}
		if p.punct("(") {
			f.HasArgs = true
			if f.Args, err = p.functionArgs(true); err != nil {
				return err
			}
		}
		d.Function = f
	default:
		if p.pos < len(p.toks) && commentObjectWords[p.word(0)] {
			return p.notSupported("COMMENT ON "+strings.ToUpper(p.toks[p.pos].text(p.src))+" is not supported: sqlgate keeps comments on tables, columns, views, sequences, types, domains, schemas, constraints, functions and roles", "")
		}
		return p.err()
	}
	if !p.accept("IS") {
		return p.err()
	}
	if p.accept("NULL") {
		return p.done()
	}
	v, err := p.value()
	if err != nil {
		return err
	}
	if t := p.toks[p.pos-1]; t.kind != tkString && t.kind != tkEString && t.kind != tkDollar {
		return syntaxErrorAt(p.src, p.toks, p.pos-1)
	}
	d.Comment = &v
	return p.done()
}

// maintenance: ANALYZE [VERBOSE] [table [, ...]], VACUUM [FULL] [FREEZE]
// [VERBOSE] [ANALYZE] [(options)] [table [(columns)] [, ...]].
func (p *ddlParser) maintenance(st *Statement) error {
	st.Kind, st.DDL = Maintenance, &DDLStmt{}
	d := st.DDL
	d.Verb = p.word(0)
	if d.Verb == "ANALYSE" {
		d.Verb = "ANALYZE"
	}
	p.pos++
	if p.punct("(") {
		if err := p.utilityOptions(); err != nil {
			return err
		}
	}
	for p.accept("FULL") || p.accept("FREEZE") || p.accept("VERBOSE") || p.accept("ANALYZE") || p.accept("ANALYSE") || p.accept("SKIP_LOCKED") {
	}
	for p.pos < len(p.toks) {
		n, err := p.objectName()
		if err != nil {
			return err
		}
		d.Tables = append(d.Tables, n)
		if p.punct("(") { // a column list
			for !p.punct(")") {
				if _, err := p.ident(); err != nil {
					return err
				}
				p.punct(",")
			}
		}
		if !p.punct(",") {
			break
		}
	}
	return p.done()
}

// prepare: PREPARE name [(type [, ...])] AS statement.
func (p *ddlParser) prepare(st *Statement) error {
	st.Kind, st.DDL = Prepare, &DDLStmt{Prepare: &PrepareStmt{}}
	ps := st.DDL.Prepare
	if p.pos < len(p.toks) && p.toks[p.pos].kind == tkIdent {
		// the name is a ColId: a reserved keyword is the grammar's error
		// (PREPARE AS SELECT ..: at AS)
		if kw, ok := pgKeywords[p.toks[p.pos].word(p.src)]; ok && (kw.cat == kwReserved || kw.cat == kwTypeFuncName) {
			return p.err()
		}
	}
	n, err := p.ident()
	if err != nil {
		return err
	}
	ps.Name = n
	if p.punct("(") {
		items, starts, err := p.itemsAt()
		if err != nil {
			return err
		}
		for i, text := range items {
			tn, err := ParseTypeName(text)
			if err != nil {
				// the type's error where it stands in the statement
				if se := sqlerr.As(err); se != nil && se.Position > 0 && se.Message != "syntax error at end of input" {
					return se.WithPosition(starts[i] + se.Position - 1)
				}
				return err
			}
			ps.Types = append(ps.Types, tn)
		}
	}
	if !p.accept("AS") {
		return p.err()
	}
	if p.pos >= len(p.toks) {
		return p.err()
	}
	ps.Body = st.holds(p.src, p.toks, p.pos, len(p.toks), "")
	ps.BodyPos = charPos(p.src, p.toks[p.pos].start)
	switch p.word(0) {
	case "SELECT", "INSERT", "UPDATE", "DELETE", "VALUES", "WITH", "TABLE", "MERGE":
	default:
		return p.err()
	}
	return nil
}

// execute: EXECUTE name [(expr [, ...])].
func (p *ddlParser) execute(st *Statement) error {
	st.Kind, st.DDL = Execute, &DDLStmt{Execute: &ExecuteStmt{}}
	ex := st.DDL.Execute
	n, err := p.ident()
	if err != nil {
		return err
	}
	ex.Name = n
	if p.punct("(") {
		open := p.pos - 1
		items, starts, err := p.itemsAt()
		if err != nil {
			return err
		}
		ex.Args, ex.ArgPos = items, starts
		// each argument is an a_expr of the one grammar: its syntax
		// errors are the statement's, found now (checkInner; after "SELECT 1,"
		// an empty or keyword-led item is no target list)
		from, closer := open+1, p.pos-1
		for i := range topLevel(p.src, p.toks, open+1, closer) {
			if p.toks[i].isPunct(p.src, ",") {
				st.holds(p.src, p.toks, from, i, "SELECT 1, ")
				from = i + 1
			}
		}
		st.holds(p.src, p.toks, from, closer, "SELECT 1, ")
	}
	return p.done()
}

// items reads the rest of a parenthesised list (the "(" read): the text of
// each item, split at the commas outside nested brackets.
func (p *ddlParser) items() ([]string, error) {
	out, _, err := p.itemsAt()
	return out, err
}

// itemsAt is items with each item's 1-based character position.
func (p *ddlParser) itemsAt() (out []string, starts []int, err error) {
	for {
		start := p.pos
		depth := 0
		for p.pos < len(p.toks) {
			t := p.toks[p.pos]
			if t.isPunct(p.src, "(") || t.isPunct(p.src, "[") {
				depth++
			} else if t.isPunct(p.src, ")") || t.isPunct(p.src, "]") {
				if depth == 0 {
					break
				}
				depth--
			} else if depth == 0 && t.isPunct(p.src, ",") {
				break
			}
			p.pos++
		}
		if p.pos >= len(p.toks) || p.pos == start {
			return nil, nil, p.err()
		}
		out = append(out, p.src[p.toks[start].start:p.toks[p.pos-1].end])
		starts = append(starts, charPos(p.src, p.toks[start].start))
		if p.punct(")") {
			return out, starts, nil
		}
		p.pos++ // ','
	}
}

// truncate: TRUNCATE [TABLE] [ONLY] name [*] [, ...] [RESTART IDENTITY |
// CONTINUE IDENTITY] [CASCADE | RESTRICT]. ONLY and * choose whether
// inheriting tables go too (a Fluss table has none), and CASCADE
// whether tables referencing these by foreign key do (Cascade).
func (p *ddlParser) truncate(st *Statement) error {
	st.Kind, st.DDL = Truncate, &DDLStmt{}
	d := st.DDL
	p.accept("TABLE")
	for {
		only := p.accept("ONLY")
		n, err := p.objectName()
		if err != nil {
			return err
		}
		if p.pos < len(p.toks) && p.toks[p.pos].kind == tkOp && p.toks[p.pos].text(p.src) == "*" {
			p.pos++ // name *: the table and its descendants
		}
		d.Tables, d.Only = append(d.Tables, n), append(d.Only, only)
		if !p.punct(",") {
			break
		}
	}
	if w := p.word(0); w == "RESTART" || w == "CONTINUE" {
		p.pos++
		if !p.accept("IDENTITY") {
			return p.err()
		}
		d.RestartIdentity = w == "RESTART"
	}
	d.Cascade = p.dropBehavior()
	return p.done()
}

// The statements below are what tools and test cleaners send besides the
// schema statements: each is Kind Maintenance, told apart by Verb, and
// answers as PostgreSQL 15 does where sqlgate has nothing to do
// (engine/ddlstmts.go toolStatement).

// createExtension: CREATE EXTENSION [IF NOT EXISTS] name [WITH] [SCHEMA s]
// [VERSION v] [CASCADE].
func (p *ddlParser) createExtension(st *Statement) error {
	st.Kind, st.DDL = Maintenance, &DDLStmt{Verb: "CREATE EXTENSION"}
	d := st.DDL
	d.IfNotExists = p.accept("IF", "NOT", "EXISTS")
	n, err := p.ident()
	if err != nil {
		return err
	}
	d.Names = []string{n}
	p.accept("WITH")
	for p.pos < len(p.toks) {
		switch {
		case p.accept("SCHEMA"), p.accept("VERSION"):
			if _, err := p.value(); err != nil {
				return err
			}
		case p.accept("CASCADE"):
		default:
			return p.err()
		}
	}
	return nil
}

// dropNames: DROP EXTENSION | MATERIALIZED VIEW [IF EXISTS] name [, ...]
// [CASCADE | RESTRICT] (qualified names when qualified).
func (p *ddlParser) dropNames(st *Statement, verb string, qualified bool) error {
	st.Kind, st.DDL = Maintenance, &DDLStmt{Verb: verb}
	d := st.DDL
	d.IfExists = p.accept("IF", "EXISTS")
	for {
		if qualified {
			n, err := p.objectName()
			if err != nil {
				return err
			}
			d.Tables = append(d.Tables, n)
		} else {
			n, err := p.ident()
			if err != nil {
				return err
			}
			d.Names = append(d.Names, n)
		}
		if !p.punct(",") {
			break
		}
	}
	d.Cascade = p.dropBehavior()
	return p.done()
}

// dropOnRelation: DROP TRIGGER | POLICY | RULE [IF EXISTS] name ON
// table [CASCADE | RESTRICT], PostgreSQL's objects named within their
// relation (a Maintenance statement: the name in Names, the relation in
// Table).
func (p *ddlParser) dropOnRelation(st *Statement, verb string) error {
	st.Kind, st.DDL = Maintenance, &DDLStmt{Verb: verb}
	d := st.DDL
	d.IfExists = p.accept("IF", "EXISTS")
	name, err := p.ident()
	if err != nil {
		return err
	}
	d.Names = []string{name}
	if !p.accept("ON") {
		return p.err()
	}
	if d.Table, err = p.objectName(); err != nil {
		return err
	}
	d.Cascade = p.dropBehavior()
	return p.done()
}

// cluster: CLUSTER [VERBOSE] [table [USING index]], CLUSTER [VERBOSE]
// index ON table (the old form), CLUSTER [(options)] ....
func (p *ddlParser) cluster(st *Statement) error {
	st.Kind, st.DDL = Maintenance, &DDLStmt{Verb: "CLUSTER"}
	d := st.DDL
	if err := p.skipOptions(); err != nil {
		return err
	}
	p.accept("VERBOSE")
	if p.pos >= len(p.toks) {
		return nil
	}
	n, err := p.objectName()
	if err != nil {
		return err
	}
	switch {
	case p.accept("USING"):
		idx, err := p.ident()
		if err != nil {
			return err
		}
		d.Index = idx
	case p.accept("ON"):
		d.Index = n.Name
		if n, err = p.objectName(); err != nil {
			return err
		}
	}
	d.Tables = []ObjectName{n}
	return p.done()
}

// reindex: REINDEX [(options)] {INDEX | TABLE | SCHEMA | DATABASE |
// SYSTEM} [CONCURRENTLY] name (PostgreSQL 15 requires the name).
func (p *ddlParser) reindex(st *Statement) error {
	st.Kind, st.DDL = Maintenance, &DDLStmt{Verb: "REINDEX"}
	d := st.DDL
	if err := p.skipOptions(); err != nil {
		return err
	}
	switch w := p.word(0); w {
	case "INDEX", "TABLE", "SCHEMA", "DATABASE", "SYSTEM":
		d.Scope = w
		p.pos++
	default:
		return p.err()
	}
	d.Concurrently = p.accept("CONCURRENTLY")
	n, err := p.objectName()
	if err != nil {
		return err
	}
	d.Tables = []ObjectName{n}
	return p.done()
}

// utilityOptions reads the rest of VACUUM's or ANALYZE's option list
// (the "(" read), as PostgreSQL's utility_option_list: one or more name
// [value] items separated by commas, each value a word, string or signed
// number. The engine takes no option from it.
func (p *ddlParser) utilityOptions() error {
	for {
		if p.pos >= len(p.toks) {
			return p.err()
		}
		// the name is a NonReservedWord or ANALYZE
		switch t := p.toks[p.pos]; t.kind {
		case tkQIdent:
		case tkIdent:
			w := t.word(p.src)
			if kw, ok := pgKeywords[w]; ok && kw.cat == kwReserved && w != "ANALYZE" && w != "ANALYSE" {
				return p.err()
			}
		default:
			return p.err()
		}
		p.pos++
		if p.pos < len(p.toks) && !p.toks[p.pos].isPunct(p.src, ",") && !p.toks[p.pos].isPunct(p.src, ")") {
			if _, err := p.value(); err != nil {
				return err
			}
		}
		if p.punct(")") {
			return nil
		}
		if !p.punct(",") {
			return p.err()
		}
	}
}

// skipOptions skips a parenthesised option list, if there is one.
func (p *ddlParser) skipOptions() error {
	if !p.punct("(") {
		return nil
	}
	depth := 1
	for p.pos < len(p.toks) && depth > 0 {
		switch {
		case p.toks[p.pos].isPunct(p.src, "("):
			depth++
		case p.toks[p.pos].isPunct(p.src, ")"):
			depth--
		}
		p.pos++
	}
	if depth > 0 {
		return p.err()
	}
	return nil
}
