package tree

// Statement is a whole statement of the parsed tree. The DDL-side
// statements have moved here (CREATE TABLE, DROP TABLE / VIEW, CREATE
// VIEW); the queries and the writes are still TiDB's (issue 32's next
// stages), so a statement that holds a query holds it as a Subquery.
type Statement interface {
	Node
	stmtNode()
}

// TableName is a relation's name, [schema.]name, as PostgreSQL sees it
// (unquoted words folded to lower case; the database part of a
// catalog-qualified name is gone before the tree, see sql/catalogs.go).
type TableName struct {
	At
	Schema, Name string
}

// ColumnOptionKind is a column constraint's kind in CREATE TABLE.
type ColumnOptionKind uint8

// The column constraints TiDB's grammar reads. DEFAULT, CHECK and GENERATED
// ... AS IDENTITY written as PostgreSQL writes them never reach the tree:
// the rewrite in front of TiDB takes them (sql.Statement.ColumnDefaults,
// Checks, Identity); the kinds here that sqlgate refuses are kept so that
// the binder can name them.
const (
	ColNotNull ColumnOptionKind = iota + 1
	ColNull
	ColPrimaryKey
	ColComment
	ColDefault
	ColUnique
	ColAutoIncrement
	ColCheck
	ColReferences
	ColGenerated
	ColCollate
	ColOther // a MySQL option with no PostgreSQL meaning
)

// ColumnOption is one column constraint; Comment is COMMENT's text.
type ColumnOption struct {
	At
	Kind    ColumnOptionKind
	Comment string
}

// ColumnDef is one column of CREATE TABLE: its name and constraints. Its
// type is not here: the rewrite in front of TiDB parses every Fluss and
// PostgreSQL spelling of it (sql.Statement.ColumnTypes, by column name),
// and TiDB sees a placeholder.
type ColumnDef struct {
	At
	Name    string
	Options []ColumnOption
}

// ConstraintKind is a table constraint's kind.
type ConstraintKind uint8

// The table constraints (CHECK is the rewrite's, see ColumnOptionKind).
const (
	ConPrimaryKey ConstraintKind = iota + 1
	ConUnique
	ConForeignKey
	ConOther // MySQL's KEY, INDEX, FULLTEXT ...
)

// Constraint is a table constraint: Keys are the key's columns; KeyExpr
// says a key part is an expression rather than a column (its name is then
// "").
type Constraint struct {
	At
	Kind    ConstraintKind
	Keys    []string
	KeyExpr bool
}

// CreateTable is CREATE TABLE [IF NOT EXISTS] name (columns, constraints)
// or CREATE TABLE name [(names)] AS query (Query set; Columns then carry
// only the names). Temporary, Like and Partitioned are MySQL forms the
// binder refuses (PostgreSQL's TEMP, LIKE element and PARTITIONED BY are
// the rewrite's: sql.Statement.Temporary, CreateLike, PartitionKeys).
type CreateTable struct {
	At
	Name        *TableName
	IfNotExists bool
	Temporary   bool
	Like        *TableName
	Partitioned bool
	Columns     []*ColumnDef
	Constraints []*Constraint
	// Comment is the last COMMENT table option's text (HasComment: there
	// is one).
	Comment    string
	HasComment bool
	Query      *Subquery
}

// DropTable is DROP TABLE | VIEW [IF EXISTS] name, ...
type DropTable struct {
	At
	Names    []*TableName
	IfExists bool
	View     bool
}

// CreateView is CREATE [OR REPLACE] VIEW name [(columns)] AS query.
type CreateView struct {
	At
	Name      *TableName
	OrReplace bool
	Columns   []string
	Query     *Subquery
}

// Explain is EXPLAIN [ANALYZE] statement (its options, such as FORMAT,
// are the rewrite's: sql.Statement.ExplainOptions). Stmt is the query or
// write explained; nil for a statement the binder does not explain.
type Explain struct {
	At
	Analyze bool
	Stmt    Statement
}

// Describe is DESCRIBE name (SHOW COLUMNS of a relation), which is not
// PostgreSQL's but which sqlgate answers.
type Describe struct {
	At
	Table *TableName
}

func (*CreateTable) stmtNode() {}
func (*DropTable) stmtNode()   {}
func (*CreateView) stmtNode()  {}
func (*Explain) stmtNode()     {}
func (*Describe) stmtNode()    {}
