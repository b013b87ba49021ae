package tree

// Query is a query expression as PostgreSQL's grammar has one: a *Select,
// a *SetOp (UNION / INTERSECT / EXCEPT) or a *Values. It is a Statement
// too (a SELECT statement is its query).
type Query interface {
	Statement
	queryNode()
	// Clauses are the query's WITH, ORDER BY, LIMIT and OFFSET, which
	// every kind of query takes.
	Clauses() *QueryClauses
}

// QueryClauses are the clauses that wrap any query: WITH ... before it,
// ORDER BY, LIMIT and OFFSET after it (PostgreSQL's select_no_parens).
type QueryClauses struct {
	With    *With
	OrderBy []OrderItem
	Limit   Expr // nil: none
	Offset  Expr // nil: none
	// WithTies: FETCH FIRST Limit ROWS WITH TIES (rows that tie with the
	// last one under ORDER BY are kept too).
	WithTies bool
	// LimitAt is the LIMIT clause's position (where an error about the
	// clause as a whole points); 0 without one.
	LimitAt int
}

// Clauses implements Query.
func (c *QueryClauses) Clauses() *QueryClauses { return c }

// With is WITH [RECURSIVE] name [(columns)] AS (query), ...
type With struct {
	At
	Recursive bool
	CTEs      []*CTE
}

// Materialization is a WITH item's [NOT] MATERIALIZED (0: not written).
type Materialization uint8

// The materializations.
const (
	Materialized Materialization = iota + 1
	NotMaterialized
)

// CTE is one item of a WITH list. Columns are its column aliases as
// written; the SEARCH and CYCLE clauses (PostgreSQL 14+) are Search and
// Cycle.
type CTE struct {
	At
	Name         string
	Columns      []string
	Materialized Materialization
	Query        Query
	Search       *SearchClause
	Cycle        *CycleClause
	// ClauseAt is the 1-based character position of the first of SEARCH
	// and CYCLE in the user's text, where their errors point (0: neither).
	ClauseAt int
}

// SearchClause is SEARCH {DEPTH | BREADTH} FIRST BY columns SET column.
type SearchClause struct {
	Breadth bool
	By      []string
	Set     string
}

// CycleClause is CYCLE columns SET mark [TO value DEFAULT default] USING
// path. MarkValue and MarkDefault are the TO and DEFAULT values' SQL text
// ("" when not written: true and false).
type CycleClause struct {
	Columns     []string
	Mark        string
	MarkValue   string
	MarkDefault string
	Path        string
}

// Select is one SELECT: [WITH ..] SELECT [DISTINCT [ON (..)]] targets
// [FROM ..] [WHERE ..] [GROUP BY ..] [HAVING ..] [WINDOW ..] [ORDER BY ..]
// [LIMIT ..] [OFFSET ..] [FOR UPDATE | ...].
type Select struct {
	At
	QueryClauses
	Distinct   bool
	DistinctOn []Expr // DISTINCT ON (..); Distinct is set too
	// Targets is the select list; empty is SELECT FROM t (PostgreSQL's
	// empty target list).
	Targets []*Target
	From    FromItem // nil: no FROM
	Where   Expr
	// GroupBy holds expressions, ordinals and GroupingSets; GroupDistinct is
	// GROUP BY DISTINCT.
	GroupBy       []Expr
	GroupDistinct bool
	Having        Expr
	Windows       []*Window // WINDOW name AS (..), Name set
	Locking       *Locking
	// Table is TABLE name (PostgreSQL's shorthand for SELECT * FROM name):
	// From holds the name, Targets is nil.
	Table bool
}

// Target is one item of a select list: an expression with its alias
// (Alias "" when none is written), or * / t.* (X a *Star).
type Target struct {
	At
	X     Expr
	Alias string
}

// Star is * or [schema.]table.* in a select list (or count(*)'s argument
// as PostgreSQL reads it).
type Star struct {
	At
	Schema, Table string
}

// SetOpKind is a set operation's kind.
type SetOpKind uint8

// The set operations.
const (
	Union SetOpKind = iota + 1
	Intersect
	Except
)

var setOpText = [...]string{Union: "UNION", Intersect: "INTERSECT", Except: "EXCEPT"}

func (k SetOpKind) String() string {
	if int(k) < len(setOpText) && setOpText[k] != "" {
		return setOpText[k]
	}
	return "?setop"
}

// SetOp is L op [ALL] R, with the clauses of the whole (ORDER BY, LIMIT
// over the result). TiDB's grammar reads a chain of them as a list that
// the binder folds from the left; the transformer builds the same left
// fold, and a parenthesised operand keeps its own node.
type SetOp struct {
	At
	QueryClauses
	Op   SetOpKind
	All  bool
	L, R Query
}

// Values is VALUES (row), (row), ... as a query.
type Values struct {
	At
	QueryClauses
	Rows [][]Expr
}

// LockStrength is a locking clause's strength.
type LockStrength uint8

// The lock strengths.
const (
	ForUpdate LockStrength = iota + 1
	ForNoKeyUpdate
	ForShare
	ForKeyShare
)

var lockText = [...]string{ForUpdate: "FOR UPDATE", ForNoKeyUpdate: "FOR NO KEY UPDATE", ForShare: "FOR SHARE", ForKeyShare: "FOR KEY SHARE"}

func (s LockStrength) String() string {
	if int(s) < len(lockText) && lockText[s] != "" {
		return lockText[s]
	}
	return "?lock"
}

// LockWait is a locking clause's wait policy.
type LockWait uint8

// The wait policies (0: wait).
const (
	LockBlock LockWait = iota
	LockNoWait
	LockSkipLocked
)

// Locking is FOR UPDATE | NO KEY UPDATE | SHARE | KEY SHARE [OF tables]
// [NOWAIT | SKIP LOCKED].
type Locking struct {
	Strength LockStrength
	Of       []*TableName
	Wait     LockWait
}

// FromItem is an item of FROM: *TableRef, *DerivedTable, *FuncTable or
// *Join. FROM a, b is a cross Join.
type FromItem interface {
	Node
	fromNode()
}

// Alias is a FROM item's AS alias [(columns)] (Name "": none).
type Alias struct {
	Name    string
	Columns []string
}

// TableRef is a table or view named in FROM: [ONLY] [schema.]name [AS
// alias [(columns)]].
type TableRef struct {
	At
	Name *TableName
	Alias
}

// DerivedTable is [LATERAL] (query) [AS] alias [(columns)].
type DerivedTable struct {
	At
	Query   Query
	Lateral bool
	Alias
}

// FuncColumn is one column definition of a function in FROM that returns
// record: name type (Type as written, sql.ParseTypeName reads it).
type FuncColumn struct {
	At
	Name, Type string
}

// RowsFromFunc is one function of ROWS FROM (f(args) [AS (column
// definitions)], ..).
type RowsFromFunc struct {
	At
	Call       *FuncCall
	ColumnDefs []FuncColumn
}

// FuncTable is a function in FROM: [LATERAL] f(args) [WITH ORDINALITY]
// [AS] alias [(columns | column definitions)]. Call is the call (name and
// arguments; a first argument TABLE name or a query reaches the tree as
// a Subquery). AliasExplicit says an alias was written (a function's one
// output column takes the alias's name). A function in FROM is lateral
// with or without the word, as in PostgreSQL. ROWS FROM (..) is the
// FuncTable with RowsFrom set and its functions in Funcs (Call is then
// the rewrite's call of them, which the text is written back from).
type FuncTable struct {
	At
	Call          *FuncCall
	Ordinality    bool
	Lateral       bool
	AliasExplicit bool
	Alias
	ColumnDefs []FuncColumn
	RowsFrom   bool
	Funcs      []RowsFromFunc
}

// JoinKind is a join's kind.
type JoinKind uint8

// The joins. Cross is CROSS JOIN and FROM's comma (TiDB's grammar reads
// both, and JOIN without ON, alike).
const (
	CrossJoin JoinKind = iota + 1
	InnerJoin
	LeftJoin
	RightJoin
	FullJoin
)

var joinText = [...]string{CrossJoin: "CROSS JOIN", InnerJoin: "JOIN", LeftJoin: "LEFT JOIN", RightJoin: "RIGHT JOIN", FullJoin: "FULL JOIN"}

func (k JoinKind) String() string {
	if int(k) < len(joinText) && joinText[k] != "" {
		return joinText[k]
	}
	return "?join"
}

// Join is L [NATURAL] kind JOIN R [ON cond | USING (columns)]. A
// parenthesised join without an alias keeps no node of its own.
type Join struct {
	At
	Kind    JoinKind
	L, R    FromItem
	On      Expr
	Using   []string
	Natural bool
}

// ParenQuery is a statement's query (or a view's) written as one
// parenthesised query with clauses after it, (query) ORDER BY .. LIMIT ..,
// or as a set operation whose parenthesised operand list carries its own
// ORDER BY or LIMIT: the binder binds it as it always has, the query
// ordered by its output columns, and refuses a second ORDER BY or LIMIT
// inside. Its QueryClauses are the clauses outside the parentheses
// (HasOrder, HasLimit: an ORDER BY, a LIMIT or OFFSET is there). The refusals are reported where
// the binder meets them: Refused (the query's, or the clauses inside it)
// after the WITH binds, OrderRefused and LimitRefused after the query and
// the ORDER BY bind.
type ParenQuery struct {
	At
	QueryClauses
	Query                      Query
	HasOrder, HasLimit         bool
	Refused                    error
	OrderRefused, LimitRefused error
}

func (*ParenQuery) queryNode() {}
func (*ParenQuery) stmtNode()  {}

func (*Select) queryNode() {}
func (*SetOp) queryNode()  {}
func (*Values) queryNode() {}
func (*Select) stmtNode()  {}
func (*SetOp) stmtNode()   {}
func (*Values) stmtNode()  {}

func (*TableRef) fromNode()     {}
func (*DerivedTable) fromNode() {}
func (*FuncTable) fromNode()    {}
func (*Join) fromNode()         {}
