package tree

// The writes: INSERT, UPDATE and DELETE (issue 32). Their expressions are
// the tree's; the clauses whose nodes are the queries' (INSERT's query, the
// FROM list of UPDATE and the USING list of DELETE, a WITH written in
// front) are carried as WriteClause (Src: TiDB's node) until the queries
// move onto the tree, so that the two moves land apart. The type names say
// "write" so that they do not take names the queries' nodes will want.

// WriteClause is a clause of a write that belongs to the queries' part of
// the tree: Src is TiDB's node for it (*ast.SelectStmt or *ast.SetOprStmt
// for INSERT's query, *ast.TableRefsClause for the target table and for
// FROM / USING, *ast.WithClause for WITH), bound at the binder's edge until
// the queries move.
type WriteClause struct {
	At
}

// InsertColumn is a name in INSERT's column list.
type InsertColumn struct {
	At
	Name string
}

// Assignment is col = value of UPDATE's SET or ON CONFLICT DO UPDATE SET
// (Table: the qualifier of t.col, "" when none). Value is a Default for
// SET col = DEFAULT.
type Assignment struct {
	At
	Table, Column string
	Value         Expr
}

// Returning is the RETURNING list of a write: its items, and (Src) TiDB's
// *ast.FieldList, which the binder binds with the SELECT-list rules until
// the select list moves onto the tree with the queries.
type Returning struct {
	At
	Items []*ReturningItem
}

// ReturningItem is one item of a RETURNING list: expr [AS name], * or t.*
// (Star; Table names t). Alias is "" when none was written.
type ReturningItem struct {
	At
	X     Expr
	Alias string
	Star  bool
	Table string
}

// OnConflict is INSERT's ON CONFLICT [(columns)] DO NOTHING | DO UPDATE
// SET ... (Update nil: DO NOTHING). Target is nil when no column list was
// written; TargetPos is a 1-based character position in it for errors
// (the rewrite in front of TiDB keeps the clause, see sql.Statement).
type OnConflict struct {
	DoNothing bool
	Target    []string
	TargetPos int
	Update    []*Assignment
}

// Insert is INSERT INTO table [AS alias] [(columns)] [OVERRIDING SYSTEM |
// USER VALUE] VALUES (..), .. | query [ON CONFLICT ..] [RETURNING ..].
// DEFAULT VALUES reaches the tree as an empty column list and one empty
// row (the rewrite hands TiDB MySQL's () VALUES ()).
type Insert struct {
	At
	// Target is the table's clause as TiDB read it (Src: its
	// *ast.TableRefsClause); Table names it (nil when it is not one table).
	Target  *WriteClause
	Table   *TableName
	Alias   string
	Columns []*InsertColumn
	// Overriding is "system", "user" or "".
	Overriding string
	// Rows are VALUES' rows (nil for a query); a cell is a Default for
	// DEFAULT.
	Rows [][]Expr
	// Query is INSERT ... SELECT's query (Src: TiDB's), nil for VALUES;
	// PlainQuery says it is a SELECT with a plain select list (no DISTINCT,
	// GROUP BY, HAVING, ORDER BY, not a set operation), whose untyped
	// outputs the target columns type (binder/insertselect.go).
	Query      *WriteClause
	PlainQuery bool
	// QuerySelect says Query is a SELECT (not a set operation).
	QuerySelect bool
	// With is a WITH written in front of INSERT: the rewrite moves it onto
	// the inserted query, where Query carries it; With is then set to
	// that WITH clause, which the whole statement (RETURNING too) sees.
	With       *WriteClause
	OnConflict *OnConflict
	Returning  *Returning
	// Refused is a MySQL form TiDB's grammar reads and the binder refuses
	// (REPLACE, INSERT ... SET), as its 0A000 names it; "" for none.
	Refused string
}

// Update is [WITH ..] UPDATE table [[AS] alias] SET col = value, .. [FROM
// ..] [WHERE cond | WHERE CURRENT OF cursor] [RETURNING ..].
type Update struct {
	At
	With *WriteClause
	// Target is the table's clause as TiDB read it (Src: its
	// *ast.TableRefsClause); Table and Alias name it.
	Target    *WriteClause
	Table     *TableName
	Alias     string
	Set       []*Assignment
	From      *WriteClause
	Where     Expr
	CurrentOf string
	Returning *Returning
	Refused   string // a MySQL form (several tables, ORDER BY / LIMIT), as Insert's
}

// Delete is [WITH ..] DELETE FROM table [[AS] alias] [USING ..] [WHERE
// cond | WHERE CURRENT OF cursor] [RETURNING ..].
type Delete struct {
	At
	With      *WriteClause
	Target    *WriteClause
	Table     *TableName
	Alias     string
	Using     *WriteClause
	Where     Expr
	CurrentOf string
	Returning *Returning
	Refused   string // a MySQL form (several tables, ORDER BY / LIMIT), as Insert's
}

func (*Insert) stmtNode() {}
func (*Update) stmtNode() {}
func (*Delete) stmtNode() {}
