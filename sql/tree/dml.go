package tree

// The writes: INSERT, UPDATE and DELETE (issue 32). Their expressions,
// the queries and FROM items they hold (INSERT's target and query, UPDATE
// ... FROM's and DELETE ... USING's tables, a WITH written in front) are
// the tree's. The type names say "write" where a name is the queries'.

// InsertColumn is a name in INSERT's column list.
type InsertColumn struct {
	At
	Name string
}

// Assignment is col = value of UPDATE's SET or ON CONFLICT DO UPDATE SET
// (Table: the qualifier of t.col, "" when none). Value is a Default for
// SET col = DEFAULT.
//
// Target is nil for a plain column; for PostgreSQL's subscripted
// assignment target col[i][lo:hi] = value it is that target as an
// expression: a chain of *Subscript and *Slice (Chained) over the column.
type Assignment struct {
	At
	Table, Column string
	Value         Expr
	Target        Expr
}

// Returning is the RETURNING list of a write: its items, which the binder
// binds with the SELECT-list rules.
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
//
// Where is DO UPDATE's WHERE condition (nil when none): over the existing
// row and EXCLUDED, as Update's values. TargetWhere is the inference
// clause's ON CONFLICT (cols) WHERE predicate (nil when none), over the
// table's columns.
type OnConflict struct {
	DoNothing bool
	Target    []string
	TargetPos int
	// Constraint is ON CONFLICT ON CONSTRAINT name's name ("" when none).
	Constraint  string
	Update      []*Assignment
	Where       Expr
	TargetWhere Expr
}

// Insert is INSERT INTO table [AS alias] [(columns)] [OVERRIDING SYSTEM |
// USER VALUE] VALUES (..), .. | query [ON CONFLICT ..] [RETURNING ..].
// DEFAULT VALUES reaches the tree as an empty column list and one empty
// row (the rewrite hands TiDB MySQL's () VALUES ()).
type Insert struct {
	At
	// Target is the table's FROM item as written (a *TableRef for one
	// table: the binder binds it as FROM binds a name, so that a view or
	// a WITH query of that name is found and refused); Table names it (nil
	// when it is not one table).
	Target  FromItem
	Table   *TableName
	Alias   string
	Columns []*InsertColumn
	// Overriding is "system", "user" or "".
	Overriding string
	// Rows are VALUES' rows (nil for a query); a cell is a Default for
	// DEFAULT.
	Rows [][]Expr
	// Query is INSERT ... SELECT's query, nil for VALUES;
	// PlainQuery says it is a SELECT with a plain select list (no DISTINCT,
	// GROUP BY, HAVING, ORDER BY, not a set operation), whose untyped
	// outputs the target columns type (binder/insertselect.go).
	Query      Query
	PlainQuery bool
	// QuerySelect says Query is a SELECT (not a set operation).
	QuerySelect bool
	// With is a WITH written in front of INSERT: the rewrite moves it onto
	// the inserted query, where Query carries it (Query.Clauses().With);
	// With is then that same clause, which the whole statement (RETURNING
	// too) sees.
	With       *With
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
	With *With
	// Target is the table's FROM item as written (see Insert's); Table and
	// Alias name it.
	Target FromItem
	Table  *TableName
	Alias  string
	Set    []*Assignment
	// From is FROM's tables (one FromItem, a cross Join for several); nil
	// without FROM. NoFromList says FROM was written without a table
	// list (a syntax error the binder reports).
	From       FromItem
	NoFromList bool
	Where      Expr
	CurrentOf  string
	Returning  *Returning
	Refused    string // a MySQL form (several tables, ORDER BY / LIMIT), as Insert's
}

// Delete is [WITH ..] DELETE FROM table [[AS] alias] [USING ..] [WHERE
// cond | WHERE CURRENT OF cursor] [RETURNING ..].
type Delete struct {
	At
	With   *With
	Target FromItem
	Table  *TableName
	Alias  string
	// Using and NoUsingList are Update's From and NoFromList.
	Using       FromItem
	NoUsingList bool
	Where       Expr
	CurrentOf   string
	Returning   *Returning
	Refused     string // a MySQL form (several tables, ORDER BY / LIMIT), as Insert's
}

func (*Insert) stmtNode() {}
func (*Update) stmtNode() {}
func (*Delete) stmtNode() {}
