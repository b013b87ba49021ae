package binder

import (
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/types"
)

// Column is one column of a node's output.
type Column struct {
	Name string
	T    types.T
	// Table is the alias that qualifies the column in the FROM clause ("" for
	// computed columns); used for qualified name resolution.
	Table string
	// TableID and Ordinal identify a plain table column (RowDescription's
	// table OID and attribute number); 0 for computed columns.
	TableID int64
	Ordinal int
	// Hidden: one side's column of a JOIN ... USING or NATURAL JOIN,
	// merged into an unqualified column. As in PostgreSQL it is reachable
	// only qualified (l.x) and belongs to l.* but not to *.
	Hidden bool
	// Merge, on the merged column of a USING/NATURAL join, is the offset
	// from it to the side's column it shows (the left's for INNER or LEFT,
	// the right's for RIGHT), or to the left's and the right's for a FULL
	// join's COALESCE; {0, 0} for any other column. A name that resolves
	// to it binds to that expression over the sides' columns (mergedExpr),
	// as PostgreSQL's buildMergedJoinVar makes the merged column the Var
	// itself, a cast of it, or a COALESCE: so GROUP BY d covers l.d. Offsets,
	// not indexes, so that they stay true while the columns are shifted as
	// a whole (a join, a USING projection above).
	Merge [2]int
	// Domain is the OID of the domain a table column is declared with
	// (pg_typeof names it; domains.go), 0 for none.
	Domain uint32
	// Collation is the collation a table column is declared with
	// (collate.go), "" for the default.
	Collation string
}

// Node is a logical plan node. Its output schema is known when it is built.
type Node interface {
	Columns() []Column
	Children() []Node
}

// Scan reads every current row of a table, or, with Changelog, every
// change recorded in its log (the t$changelog view).
type Scan struct {
	Table     fluss.TableInfo
	Alias     string
	Changelog bool
	cols      []Column

	// Binlog (with Changelog) reads the changes as Fluss's t$binlog shows
	// them: one row per change with the row before and after it (binlog.go).
	Binlog bool
}

// Values produces constant rows (SELECT without FROM has one row, no columns).
type Values struct {
	Rows [][]Expr
	Cols []Column
	// FoldOrder, when set, is the order of the columns in which planning
	// computes each row's constants: an INSERT's multi-row VALUES list
	// folds in the order the statement writes its columns, as PostgreSQL's
	// VALUES range table does, so that the first error is the same (nil:
	// column order).
	FoldOrder []int
}

// Filter keeps the rows for which Cond is true (NULL drops the row).
type Filter struct {
	Input Node
	Cond  Expr
}

// Project computes one expression per output column.
type Project struct {
	Input Node
	Exprs []Expr
	Cols  []Column
	// Generated says the projection computes a write's stored generated
	// columns from the new row (generated.go): PostgreSQL's executor
	// does (ExecComputeStoredGenerated), so planning never folds a
	// constant of the row into them (lower's pulled-up constants).
	Generated bool
	// Placeholders says the projection is a derived table PostgreSQL
	// pulls up below an outer join that NULL-extends it, so that the
	// query above reads its constant outputs as PlaceHolderVars: a
	// condition over one is computed for each of the derived table's
	// rows, never as a one-time filter (lower's pulled-up constants).
	Placeholders bool
}

// SortKey is one ORDER BY key over the input's columns.
type SortKey struct {
	Expr       Expr
	Desc       bool
	NullsFirst bool
}

// Sort orders its input.
type Sort struct {
	Input Node
	Keys  []SortKey
}

// Limit keeps Count rows after skipping Offset; nil means none. Both are
// constant or parameter expressions of type bigint.
type Limit struct {
	Input  Node
	Count  Expr
	Offset Expr
}

func (n *Scan) Columns() []Column    { return n.cols }
func (n *Values) Columns() []Column  { return n.Cols }
func (n *Filter) Columns() []Column  { return n.Input.Columns() }
func (n *Project) Columns() []Column { return n.Cols }
func (n *Sort) Columns() []Column    { return n.Input.Columns() }
func (n *Limit) Columns() []Column   { return n.Input.Columns() }

func (n *Scan) Children() []Node    { return nil }
func (n *Values) Children() []Node  { return nil }
func (n *Filter) Children() []Node  { return []Node{n.Input} }
func (n *Project) Children() []Node { return []Node{n.Input} }
func (n *Sort) Children() []Node    { return []Node{n.Input} }
func (n *Limit) Children() []Node   { return []Node{n.Input} }

// NewScan returns a scan of every column of table, qualified by alias.
func NewScan(table fluss.TableInfo, alias string) *Scan {
	cols := make([]Column, len(table.Descriptor.Schema.Columns))
	for i, c := range table.Descriptor.Schema.Columns {
		cols[i] = Column{Name: c.Name, T: c.Type, Table: alias, TableID: table.TableID, Ordinal: i + 1}
	}
	noteScanDomains(table, cols)    // domains.go
	noteScanCollations(table, cols) // collate.go
	return &Scan{Table: table, Alias: alias, cols: cols}
}

// NewChangelogScan returns a scan of table's changelog (t$changelog):
// Fluss's metadata columns, then the table's columns.
func NewChangelogScan(table fluss.TableInfo, alias string) *Scan {
	var cols []Column
	for i, c := range fluss.ChangelogColumns(table) {
		cols = append(cols, Column{Name: c.Name, T: c.Type, Table: alias, Ordinal: i + 1})
	}
	return &Scan{Table: table, Alias: alias, Changelog: true, cols: cols}
}

// Statement is a bound statement.
type Statement interface {
	// Params are the types of $1..$n (types.Unknown where nothing decided).
	Params() []types.T
}

// Query is a statement that returns rows.
type Query struct {
	Plan   Node
	params []types.T
}

// Insert writes the rows of Source into Table. Source's columns are the
// table's columns in table order, with the table's exact types.
type Insert struct {
	Table  fluss.TableInfo
	Source Node
	// Volatile: Source calls something volatile (a SERIAL's nextval):
	// the executor journals its sequence calls (exec.Insert.Journal).
	Volatile bool
	// Via is the view the INSERT names when it writes the view's base
	// table (viewwrite.go); nil for a table.
	Via *View
	// ViewChecks are the check options of the views it writes through
	// (viewcheck.go), over each row written.
	ViewChecks          []ViewCheck
	OnConflictDoNothing bool
	// OnConflictUpdate, when set, merges a proposed row into an existing
	// row with the same key: one expression per table column over the
	// existing row's columns followed by the proposed row's. A generated
	// column's is a placeholder: its value is computed over the merged
	// row (exec.Insert.MergeGenerated).
	OnConflictUpdate []Expr
	// OnConflictWhere is DO UPDATE's WHERE over the same pair (nil when
	// none): a conflicting row for which it is not true is left as it is,
	// neither written, counted nor returned.
	OnConflictWhere Expr
	// Arbiter is the constraint ON CONFLICT names (its columns or ON
	// CONSTRAINT): the primary key's name, or a unique constraint's,
	// whose conflicts alone DO NOTHING skips; "" for every constraint
	// (binder/unique.go).
	Arbiter string
	params  []types.T

	// Returning is the RETURNING list (nil when none).
	Returning *Returning
}

// CreateTable creates a table; with Source (CREATE TABLE ... AS SELECT) it
// then fills it with Source's rows, whose columns are the table's.
type CreateTable struct {
	Path        fluss.TablePath
	Descriptor  fluss.TableDescriptor
	IfNotExists bool
	Source      Node
	params      []types.T
	// Sequences are created first, for SERIAL and identity columns
	// (coldefs.go).
	Sequences []NewSequence
}

// Describe lists a table's columns (DESCRIBE t).
type Describe struct {
	Table fluss.TableInfo
}

// DropTable drops tables.
type DropTable struct {
	Paths    []fluss.TablePath
	IfExists bool
}

// Explain describes the plan of Statement without running it, or runs it
// and reports per-node metrics when Analyze is set.
type Explain struct {
	Statement Statement
	Analyze   bool
	// Format is "text" (default) or "json".
	Format string
	// Metrics is EXPLAIN ANALYZE's METRICS level: "counts", "timing" or
	// "stalls" (the default, "" when not given).
	Metrics string
}

func (s *Query) Params() []types.T       { return s.params }
func (s *Insert) Params() []types.T      { return s.params }
func (s *CreateTable) Params() []types.T { return s.params }
func (s *Describe) Params() []types.T    { return nil }
func (s *DropTable) Params() []types.T   { return nil }
func (s *Explain) Params() []types.T     { return s.Statement.Params() }

// JoinType is the kind of a join.
type JoinType uint8

// The join types.
const (
	InnerJoin JoinType = iota
	LeftJoin
	RightJoin
	FullJoin
	CrossJoin
	SemiJoin
	AntiJoin
)

var joinNames = [...]string{"inner", "left", "right", "full", "cross", "semi", "anti"}

func (t JoinType) String() string { return joinNames[t] }

// Join combines two inputs; its columns are the left's then the right's
// (semi and anti joins output the left's only). Cond is bound over the
// concatenated columns; nil means true.
type Join struct {
	Left, Right Node
	Type        JoinType
	Cond        Expr
	// NullAware marks an anti join that implements NOT IN: a NULL on the
	// right side makes every row unknown (no output).
	NullAware bool
	cols      []Column
}

func (n *Join) Columns() []Column { return n.cols }
func (n *Join) Children() []Node  { return []Node{n.Left, n.Right} }

// NewJoin builds a join of left and right.
func NewJoin(left, right Node, t JoinType, cond Expr) *Join {
	j := &Join{Left: left, Right: right, Type: t, Cond: cond}
	if t == SemiJoin || t == AntiJoin {
		j.cols = left.Columns()
		return j
	}
	lc, rc := left.Columns(), right.Columns()
	j.cols = make([]Column, 0, len(lc)+len(rc))
	for _, c := range lc {
		if t == RightJoin || t == FullJoin {
			c.T = c.T.Nullable()
		}
		j.cols = append(j.cols, c)
	}
	for _, c := range rc {
		if t == LeftJoin || t == FullJoin {
			c.T = c.T.Nullable()
		}
		j.cols = append(j.cols, c)
	}
	return j
}

// AggCall is one aggregate computed by an Aggregate node.
type AggCall struct {
	Func     string
	Args     []Expr // over the Aggregate's input; empty for count(*)
	Distinct bool
	Filter   Expr // nil: none
	OrderBy  []SortKey
	T        types.T
	// Arrays marks a user's array_agg(anyarray), which refuses NULL,
	// empty and unequal arrays (json_agg's inner array_agg does not).
	Arrays bool
	// ArrayMinMax is "min" or "max" for the array_agg that min(anyarray)
	// or max(anyarray) is bound as (bindArrayMinMax): PostgreSQL's
	// aggregate, which its planner rewrites as other min and max
	// aggregates (planagg.c), where a user's array_agg is not.
	ArrayMinMax string
}

func (a AggCall) String() string {
	s := a.Func + "("
	if a.Distinct {
		s += "DISTINCT "
	}
	if len(a.Args) == 0 {
		s += "*"
	}
	for i, e := range a.Args {
		if i > 0 {
			s += ", "
		}
		s += e.String()
	}
	for i, k := range a.OrderBy {
		if i == 0 {
			s += " ORDER BY "
		} else {
			s += ", "
		}
		s += k.Expr.String()
		if k.Desc {
			s += " DESC"
		}
		if k.NullsFirst != k.Desc {
			s += map[bool]string{true: " NULLS FIRST", false: " NULLS LAST"}[k.NullsFirst]
		}
	}
	s += ")"
	if a.Filter != nil {
		s += " FILTER (WHERE " + a.Filter.String() + ")"
	}
	return s
}

// Aggregate groups its input by GroupBy and computes Aggs per group. Its
// columns are the group keys, then the aggregates.
type Aggregate struct {
	Input   Node
	GroupBy []Expr
	Aggs    []AggCall
	cols    []Column

	// OneRelation says the query level the aggregation belongs to has no
	// WITH clause and reads one table, through the derived tables
	// PostgreSQL pulls up (oneRelation): planagg.c's
	// preprocess_minmax_aggregates rewrites only such a level. The binder
	// decides it, before the optimiser's rules remove the sorts and
	// derived tables that decide it.
	OneRelation bool
	// Grouped says the aggregation is one grouping set's of a GROUP BY
	// with grouping expressions (PostgreSQL's groupClause is not empty):
	// even its empty set is no degenerate grouping (planner.c's
	// is_degenerate_grouping), and it reads its input.
	Grouped bool
	// GroupingSet says the aggregation is one grouping set's: PostgreSQL
	// wraps the expressions of the derived tables such a query pulls up
	// in PlaceHolderVars (pull_up_simple_subquery's wrap_non_vars when
	// parse->groupingSets), computed at the derived table's scan for
	// each of its rows, so lower's late_projection leaves its input be.
	GroupingSet bool
}

func (n *Aggregate) Columns() []Column { return n.cols }
func (n *Aggregate) Children() []Node  { return []Node{n.Input} }

// Distinct removes duplicate rows.
type Distinct struct{ Input Node }

func (n *Distinct) Columns() []Column { return n.Input.Columns() }
func (n *Distinct) Children() []Node  { return []Node{n.Input} }

// DistinctOn keeps the first row of each run of equal Keys (columns of its
// input, which is sorted with those keys leading): SELECT DISTINCT ON.
type DistinctOn struct {
	Input Node
	Keys  []int
}

func (n *DistinctOn) Columns() []Column { return n.Input.Columns() }
func (n *DistinctOn) Children() []Node  { return []Node{n.Input} }
