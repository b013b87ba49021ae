package deparse

// The nodes of the analysed tree the deparser prints: the shapes of
// PostgreSQL's parse tree (primnodes.h) that ruleutils.c prints, typed.

// node is an analysed expression.
type node interface{ typeOf() typ }

// varNode is a column (Var), or VALUE of a domain's CHECK
// (CoerceToDomainValue: name "").
type varNode struct {
	name string
	t    typ
	// rte and col: a view query's column, printed qualified by the
	// entry's name (nil for a stored expression's column)
	rte *rangeEntry
	col int
}

// constNode is a constant: text is its value as the type's output
// function prints it (isNull: NULL).
type constNode struct {
	t      typ
	text   string
	isNull bool
}

// opNode is an operator call (OpExpr): one argument for a prefix
// operator.
type opNode struct {
	name string
	args []node
	t    typ
}

// arrayOpNode is x op ANY|ALL (array) (ScalarArrayOpExpr).
type arrayOpNode struct {
	name  string
	useOr bool
	l, r  node
}

// distinctNode is a IS DISTINCT FROM b (DistinctExpr).
type distinctNode struct{ l, r node }

// boolKind is a BoolExpr's operator.
type boolKind uint8

const (
	boolAnd boolKind = iota
	boolOr
	boolNot
)

// boolNode is AND, OR (of two or more arguments) or NOT (BoolExpr).
type boolNode struct {
	kind boolKind
	args []node
}

// nullTestNode is x IS [NOT] NULL (NullTest).
type nullTestNode struct {
	arg node
	not bool
}

// boolTestNode is x IS [NOT] TRUE | FALSE (BooleanTest); test is its
// keywords ("IS NOT TRUE").
type boolTestNode struct {
	arg  node
	test string
}

// castForm is how a coercion was written: implicit ones are shown only
// where ruleutils shows implicit casts (an operator's or function's
// arguments).
type castForm uint8

const (
	castImplicit castForm = iota
	castExplicit
)

// coerceNode converts arg to t (a cast function, RelabelType,
// CoerceViaIO, ArrayCoerceExpr, a length coercion).
type coerceNode struct {
	arg  node
	t    typ
	form castForm
}

// funcNode is a function call (FuncExpr, COERCE_EXPLICIT_CALL).
type funcNode struct {
	name string
	// schema is a user function's schema ("" a built-in's: pg_catalog
	// is always searched).
	schema string
	args   []node
	t      typ
	// argNames name the arguments given in named notation ("" or nil:
	// positional), printed name => value; variadic prints VARIADIC
	// before the last argument (get_func_expr's use_variadic).
	argNames []string
	variadic bool
}

// sqlValueNode is CURRENT_TIMESTAMP and the other SQL-standard value
// keywords (SQLValueFunction); text is how it prints.
type sqlValueNode struct {
	text string
	t    typ
}

// whenNode is one WHEN arm of a CASE: cond is, for a simple CASE, the
// value compared with the CASE's argument.
type whenNode struct{ cond, result node }

// caseNode is CASE [arg] WHEN .. THEN .. ELSE .. END (CaseExpr); els is
// never nil (NULL of the CASE's type when none was written).
type caseNode struct {
	arg   node
	whens []whenNode
	els   node
	t     typ
}

// listFuncNode is COALESCE, GREATEST, LEAST or NULLIF (CoalesceExpr,
// MinMaxExpr, NullIfExpr): name is its keyword.
type listFuncNode struct {
	name string
	args []node
	t    typ
}

// arrayNode is ARRAY[...] (ArrayExpr).
type arrayNode struct {
	elems []node
	t     typ
}

var boolType = typ{oid: oidBool, mod: -1}

func (n *varNode) typeOf() typ      { return n.t }
func (n *constNode) typeOf() typ    { return n.t }
func (n *opNode) typeOf() typ       { return n.t }
func (n *arrayOpNode) typeOf() typ  { return boolType }
func (n *distinctNode) typeOf() typ { return boolType }
func (n *boolNode) typeOf() typ     { return boolType }
func (n *nullTestNode) typeOf() typ { return boolType }
func (n *boolTestNode) typeOf() typ { return boolType }
func (n *coerceNode) typeOf() typ   { return n.t }
func (n *funcNode) typeOf() typ     { return n.t }
func (n *sqlValueNode) typeOf() typ { return n.t }
func (n *caseNode) typeOf() typ     { return n.t }
func (n *listFuncNode) typeOf() typ { return n.t }
func (n *arrayNode) typeOf() typ    { return n.t }

// syntaxNode is a function PostgreSQL prints in its SQL syntax
// (COERCE_SQL_SYNTAX): EXTRACT, POSITION, SUBSTRING, TRIM, AT TIME ZONE.
// kind names the form; args are the function's arguments in its order
// (extract's field first, timezone's zone first).
type syntaxNode struct {
	kind string
	args []node
	t    typ
}

func (n *syntaxNode) typeOf() typ { return n.t }

// aggNode is an aggregate call (Aggref): star is count(*).
type aggNode struct {
	name     string
	args     []node
	star     bool
	distinct bool
	t        typ
}

func (n *aggNode) typeOf() typ { return n.t }

// subLinkKind is a SubLink's type.
type subLinkKind uint8

const (
	subLinkExists subLinkKind = iota + 1
	subLinkAny
	subLinkAll
	subLinkExpr
)

// subLinkNode is a subquery in an expression (SubLink): EXISTS (q),
// test op ANY|ALL (q) (IN is = ANY), or (q) as a value.
type subLinkNode struct {
	kind subLinkKind
	test node
	op   string
	q    *query
	t    typ
}

func (n *subLinkNode) typeOf() typ { return n.t }
