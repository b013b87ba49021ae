package tree

// Node is any node of the parsed tree.
type Node interface {
	// Pos is the node's byte offset in the text the parser read (the
	// statement's rewritten text, sql.Statement.Rewritten; the sql
	// package's Statement.Position maps it to the user's text); 0, as in
	// TiDB's AST, when the node has no place of its own (an expansion the
	// binder builds).
	Pos() int
	// OriginTextPosition is Pos under TiDB's name, so that the binder's
	// error helpers take a node of either tree while the binder moves from
	// TiDB's AST onto this one (issue 32); it goes with the last TiDB node.
	OriginTextPosition() int
}

// Expr is a scalar expression.
type Expr interface {
	Node
	exprNode()
}

// At is the position every node embeds, and the TiDB node it was made
// from.
type At struct {
	Offset int
	// Src is the TiDB node the transformer made this node from (nil for a
	// node built otherwise). It is the migration's bridge: the binder binds
	// the kinds of node it has not moved onto the tree yet from Src. It
	// goes when the last moves (issue 32).
	Src any
}

// Pos implements Node.
func (a At) Pos() int { return a.Offset }

// Source is Src, for code that holds the node as an interface.
func (a At) Source() any { return a.Src }

// OriginTextPosition implements Node.
func (a At) OriginTextPosition() int { return a.Offset }

func (At) exprNode() {}

// ColumnRef is a column name, qualified or not: [schema.][table.]name.
// Names are as PostgreSQL sees them (unquoted words folded to lower case).
type ColumnRef struct {
	At
	Schema, Table, Name string
}

// LiteralKind is a literal's lexical kind (0: unknown).
type LiteralKind uint8

// Literal kinds. A number with a '.' is Decimal (PostgreSQL's numeric), one
// with an exponent Float, an integer beyond int64 Uint or Decimal; TRUE and
// FALSE are Bool; X'..' and B'..' Bytes.
const (
	LitNull LiteralKind = iota + 1
	LitBool
	LitInt
	LitUint
	LitFloat
	LitDecimal
	LitString
	LitBytes
)

var literalKindNames = [...]string{"Unknown", "Null", "Bool", "Int", "Uint", "Float", "Decimal", "String", "Bytes"}

func (k LiteralKind) String() string {
	if int(k) < len(literalKindNames) {
		return literalKindNames[k]
	}
	return "LiteralKind(?)"
}

// Value is a literal's value. Which field holds it depends on Kind: Bool
// and Int in Int (Bool: 0 or 1), Uint in Uint, Float in Float, Decimal and
// String in Text (a decimal's digits as written), Bytes in Bytes.
type Value struct {
	Kind  LiteralKind
	Int   int64
	Uint  uint64
	Float float64
	Text  string
	Bytes []byte
}

// Literal is a constant as written.
type Literal struct {
	At
	Value
}

// Param is a parameter marker. Order is its index among the statement's
// markers in text order (sql.Statement.ParamNumbers maps it to $n).
type Param struct {
	At
	Order int
}

// UnaryOp is a prefix operator of PostgreSQL's grammar that the tree names
// (the rest are Operator).
type UnaryOp uint8

// The unary operators.
const (
	UPlus  UnaryOp = iota + 1 // +x
	UMinus                    // -x
	UNot                      // NOT x
)

// Unary is +x, -x or NOT x.
type Unary struct {
	At
	Op UnaryOp
	X  Expr
}

// SignedLiteral peels the minus signs over a number literal, through
// parentheses (the tree keeps none): PostgreSQL's grammar writes each
// into the constant (doNegate), so the binder types and the deparser
// prints the signed value. odd: the literal is negated; ok false when x
// is no chain of minus signs over a literal.
func SignedLiteral(x *Unary) (lit *Literal, odd, ok bool) {
	var e Expr = x
	for {
		u, isUnary := e.(*Unary)
		if !isUnary || u.Op != UMinus {
			break
		}
		odd, e = !odd, u.X
	}
	lit, ok = e.(*Literal)
	return lit, odd, ok
}

// BinaryOp is an infix operator the tree names (the rest are Operator).
type BinaryOp uint8

// The binary operators.
const (
	Add BinaryOp = iota + 1
	Sub
	Mul
	Div
	IntDiv // DIV, MySQL's integer division (not PostgreSQL's; kept so nothing the grammar accepts is lost)
	Mod
	Pow // PostgreSQL's ^
	Eq
	Ne
	Lt
	Le
	Gt
	Ge
	And
	Or
	Xor    // MySQL's logical XOR (kept, see IntDiv)
	BitAnd // &
	BitOr  // |
	BitXor // MySQL's ^ on integers (PostgreSQL's is #, an Operator)
	Shl    // <<
	Shr    // >>
	// NotDistinct is IS NOT DISTINCT FROM; IS DISTINCT FROM is NOT over it
	// (the same thing in PostgreSQL's semantics).
	NotDistinct
)

// Binary is L op R for the operators BinaryOp names.
type Binary struct {
	At
	Op   BinaryOp
	L, R Expr
}

// Operator is one of PostgreSQL's operators TiDB's grammar lacks, by its
// PostgreSQL spelling: -> ->> #> #>> @> <@ ? ?| ?& ~<~ ~<=~ ~>=~ ~>~ ^@ #
// #- && as infix operators, ~ @ |/ ||/ as prefix ones (L nil).
type Operator struct {
	At
	Op   string
	L, R Expr
}

// Cast is CAST(x AS type), x::type or a typed literal (DATE '...').
// Type is the type name as written (sql.ParseTypeName reads it).
type Cast struct {
	At
	X    Expr
	Type string
	// TypeAt is where the cast itself stands, which PostgreSQL's
	// "cannot cast" points at: the :: of x::t, CAST of CAST(x AS t), the
	// type of a typed literal (At's own place is the operand's start, the
	// cast's place as an expression).
	TypeAt At
}

// IsNull is x IS [NOT] NULL.
type IsNull struct {
	At
	X   Expr
	Not bool
}

// IsBool is x IS [NOT] TRUE | FALSE | UNKNOWN: PostgreSQL's BooleanTest,
// whose argument must be boolean (IS UNKNOWN is no IS NULL: TiDB's
// grammar makes one of it, so the rewrite writes it as a pg__is_unknown
// call).
type IsBool struct {
	At
	X       Expr
	Not     bool
	Value   bool // TRUE or FALSE; not read when Unknown
	Unknown bool
}

// Clause is the test as PostgreSQL names it in its messages and
// deparses it ("IS NOT UNKNOWN": parse_expr.c's transformBooleanTest).
func (n *IsBool) Clause() string {
	c := "IS "
	if n.Not {
		c += "NOT "
	}
	switch {
	case n.Unknown:
		return c + "UNKNOWN"
	case n.Value:
		return c + "TRUE"
	}
	return c + "FALSE"
}

// Between is x [NOT] BETWEEN [SYMMETRIC] lo AND hi.
type Between struct {
	At
	X, Lo, Hi      Expr
	Not, Symmetric bool
}

// InList is x [NOT] IN (list).
type InList struct {
	At
	X    Expr
	List []Expr
	Not  bool
}

// Like is x [NOT] LIKE | ILIKE pattern [ESCAPE c].
type Like struct {
	At
	X, Pattern Expr
	Escape     byte
	Not, ILike bool
}

// Regexp is x [NOT] ~ | ~* pattern (PostgreSQL's POSIX match; SIMILAR TO
// arrives as a regexp over similar_to_escape(..)).
type Regexp struct {
	At
	X, Pattern      Expr
	Not, IgnoreCase bool
}

// When is one WHEN cond THEN result arm of a CASE.
type When struct {
	Cond, Result Expr
}

// Case is CASE [operand] WHEN .. THEN .. [ELSE ..] END.
type Case struct {
	At
	Operand Expr // nil: searched CASE
	Whens   []When
	Else    Expr // nil: none
}

// Subquery is a parenthesised query used as a value, in IN, EXISTS, ANY/ALL
// or ARRAY(..), and the query a statement holds (CREATE VIEW's, CREATE
// TABLE AS's). Until the queries move into the tree, Query is the TiDB
// statement (*ast.SelectStmt or *ast.SetOprStmt) the binder binds at its
// edge; Text is the query's text in the rewritten text where TiDB keeps it
// (CREATE VIEW's query, whose definition is stored as written; a
// parenthesised CREATE TABLE AS query, without its parentheses), else "".
type Subquery struct {
	At
	Query any
	Text  string
	// Tree is the query in sqlgate's tree, where QueryToTree made it (the
	// subqueries of a query it transformed); nil where the query is only
	// TiDB's yet.
	Tree Query
}

// Exists is [NOT] EXISTS (query).
type Exists struct {
	At
	Query *Subquery
	Not   bool
}

// InSubquery is x [NOT] IN (query).
type InSubquery struct {
	At
	X     Expr
	Query *Subquery
	Not   bool
}

// Quantified is x op ANY | SOME | ALL (right), right a subquery (*Subquery)
// or an array-valued expression. Op is the comparison's spelling; OpAt
// its place, where the errors about the array operand point, as
// PostgreSQL's do (0 when unknown).
type Quantified struct {
	At
	X     Expr
	Op    string
	All   bool
	Right Expr
	OpAt  At
}

// ArraySubquery is ARRAY(query).
type ArraySubquery struct {
	At
	Query *Subquery
}

// Array is ARRAY[elems..].
type Array struct {
	At
	Elems []Expr
}

// Subscript is x[index]. Chained says x is itself a subscript or slice
// written without parentheses: x[a][b] is one subscript of two
// dimensions, which PostgreSQL reads differently from (x[a])[b] (deeper
// than the array's nesting it is NULL, not an error).
type Subscript struct {
	At
	X, Index Expr
	Chained  bool
}

// SubscriptedValue is a VALUES cell of INSERT INTO t (col[i], ..): Value
// assigned at Target (a chain of *Subscript and *Slice over the column,
// as Assignment.Target) of Base, the array the column's earlier items in
// the same list made (nil: a NULL array). Column names the column; the
// binder builds the merged cells (binder/arrayassign.go).
type SubscriptedValue struct {
	At
	Column              string
	Target, Value, Base Expr
}

// Slice is x[lo:hi]; an omitted bound is nil. Chained is Subscript's.
type Slice struct {
	At
	X, Lo, Hi Expr
	Chained   bool
}

// Row is ROW(fields..) (Explicit) or (a, b, ..).
type Row struct {
	At
	Fields   []Expr
	Explicit bool
}

// Map is MAP[k1, v1, k2, v2, ..] (Fluss's map constructor).
type Map struct {
	At
	KeysValues []Expr
}

// FieldSelect is (x).field; Field "*" is (x).*.
type FieldSelect struct {
	At
	X     Expr
	Field string
}

// Collate is x COLLATE name: Name the possibly qualified collation name's
// parts, NameAt where the COLLATE keyword stands (PostgreSQL's
// CollateClause location, where its errors point).
type Collate struct {
	At
	X      Expr
	Name   []string
	NameAt At
}

// Extract is EXTRACT(field FROM x).
type Extract struct {
	At
	Field string
	X     Expr
}

// AtTimeZone is x AT TIME ZONE zone. (The rewrite in front of TiDB spells
// it timezone(zone, x), PostgreSQL's own function, which is what the
// transformer then sees: the node is for the parser that reads PostgreSQL's
// grammar directly.)
type AtTimeZone struct {
	At
	X, Zone Expr
}

// Position is position(sub IN str).
type Position struct {
	At
	Sub, Str Expr
}

// TrimDir is TRIM's direction.
type TrimDir uint8

// TRIM's directions.
const (
	TrimBoth TrimDir = iota + 1
	TrimLeading
	TrimTrailing
)

// Trim is TRIM([dir] [chars] FROM x); Chars nil is spaces.
type Trim struct {
	At
	Dir      TrimDir
	Chars, X Expr
}

// Default is DEFAULT as a value (INSERT and UPDATE); Column is set for
// MySQL's DEFAULT(col).
type Default struct {
	At
	Column string
}

// Excluded is MySQL's VALUES(col) that the rewrite of ON CONFLICT DO UPDATE
// SET x = EXCLUDED.x produces.
type Excluded struct {
	At
	Column string
}

// Ordinal is ORDER BY n / GROUP BY n: the n-th output column (Param set
// when n is a parameter).
type Ordinal struct {
	At
	N     int
	Param Expr
}

// TimeUnit is a bare date/time unit where TiDB's grammar takes one.
type TimeUnit struct {
	At
	Unit string
}

// OrderItem is one key of an ORDER BY: expr [DESC | USING op] [NULLS
// FIRST | LAST]. Nulls is "" (the direction's default), "first" or
// "last"; Using is the operator of USING ("" without), UsingAt where it
// stands.
type OrderItem struct {
	X       Expr
	Desc    bool
	Nulls   string
	Using   string
	UsingAt At
}

// FrameBound is one end of a window frame.
type FrameBound struct {
	// Kind is "unbounded preceding", "preceding", "current row",
	// "following" or "unbounded following".
	Kind   string
	Offset Expr // for preceding and following
	// Where is the offset of the bound's first word (0: unknown).
	Where At
}

// Frame is a window's ROWS | RANGE | GROUPS BETWEEN start AND end
// [EXCLUDE ..]. Single is the form without BETWEEN (End is then CURRENT
// ROW).
type Frame struct {
	Rows       bool // false: RANGE, or GROUPS when Groups is set
	Groups     bool
	Start, End FrameBound
	Single     bool
	// Exclude is "" (NO OTHERS), "current row", "group" or "ties".
	Exclude string
	// Where is the offset of the frame's first word, SpecWhere that of
	// its window specification's "(" (0: unknown).
	Where, SpecWhere At
}

// Window is OVER (...) or OVER name.
type Window struct {
	At
	Name        string // OVER name, or the name a WINDOW clause defines
	Ref         string // the window this one refines: OVER (w ORDER BY ..)
	OnlyName    bool   // OVER w without parentheses
	PartitionBy []Expr
	OrderBy     []OrderItem
	Frame       *Frame
}

// FuncCall is a function call: name(args) with the clauses aggregates and
// window functions take (count(*) reaches the tree as count(1), as TiDB
// reads it). OrderBy is agg(args ORDER BY
// ..); WithinGroup marks an ordered-set aggregate, f(args) WITHIN GROUP
// (ORDER BY ..), its keys in OrderBy. Filter is FILTER (WHERE ..); Over is
// the window of a window call. Aggregate says TiDB's grammar read the call
// as an aggregate (count, sum, ..: the binder treats them alike).
type FuncCall struct {
	At
	Schema, Name string
	Args         []Expr
	Distinct     bool
	OrderBy      []OrderItem
	WithinGroup  bool
	Filter       Expr
	Over         *Window
	IgnoreNulls  bool
	FromLast     bool
	Aggregate    bool
	// Star: f(*) of a function other than count (whose count(*) is TiDB's
	// count(1)); PostgreSQL looks f up with no arguments and refuses the
	// star of one that is no aggregate (parse_func.c).
	Star bool
	// OrderedOver: an aggregate ORDER BY in a call with OVER
	// (sum(x ORDER BY y) OVER w), which PostgreSQL's grammar takes and
	// its ParseFuncOrColumn refuses after the function's lookup; the keys
	// are not kept (PostgreSQL never binds them).
	OrderedOver bool
}

// GroupingKind is a GROUP BY construct's kind.
type GroupingKind uint8

// The GROUP BY constructs.
const (
	Rollup GroupingKind = iota + 1
	Cube
	GroupingSets
	EmptySet // ()
)

// GroupingSet is ROLLUP (..), CUBE (..), GROUPING SETS (..) or () in GROUP
// BY; the items of ROLLUP and CUBE may be Rows (composite keys).
type GroupingSet struct {
	At
	Kind  GroupingKind
	Items []Expr
}
