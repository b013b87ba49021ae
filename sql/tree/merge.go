package tree

// MergeAction is what a WHEN clause of MERGE does.
type MergeAction uint8

// The actions of MERGE's WHEN clauses.
const (
	MergeUpdate MergeAction = iota + 1
	MergeDelete
	MergeInsert
	MergeNothing
)

// MergeClause is one WHEN [NOT] MATCHED [AND cond] THEN action of MERGE.
// Set is UPDATE's assignments; Columns, Overriding ("system", "user" or
// "") and Values are INSERT's (DEFAULT VALUES: no columns, no values).
type MergeClause struct {
	At
	Matched    bool
	Cond       Expr
	Action     MergeAction
	Set        []*Assignment
	Columns    []*InsertColumn
	Overriding string
	Values     []Expr
}

// Merge is PostgreSQL 15's [WITH ..] MERGE INTO target [[AS] alias] USING
// source ON cond WHEN ... (sql/merge.go): Target is the target's FROM
// item (Table and Alias name it), Source the source's (a table, a view,
// a parenthesised query, a join).
type Merge struct {
	At
	With    *With
	Target  FromItem
	Table   *TableName
	Alias   string
	Source  FromItem
	On      Expr
	Clauses []*MergeClause
}

func (*Merge) stmtNode() {}
