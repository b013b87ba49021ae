package binder

import (
	"context"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/udf"
)

// Catalog is what the binder needs to know about tables.
type Catalog interface {
	// GetTable returns a table's info or a 42P01 error.
	GetTable(ctx context.Context, path fluss.TablePath) (fluss.TableInfo, error)
}

// binder holds the state of binding one statement.
type binder struct {
	// winPlace names the clause being bound where window calls are
	// refused (WHERE, GROUP BY, HAVING, JOIN conditions ...; PostgreSQL's
	// "window functions are not allowed in WHERE"), "" elsewhere.
	winPlace string
	ctx      context.Context
	cat      Catalog
	stmt     *sql.Statement
	// storedIn, when set, is the schema of the table whose stored
	// expression (a column's DEFAULT read back from the catalog) is being
	// bound: an unqualified name in its reg* literals is that schema's,
	// as the deparser reads it (deparse.Options.Schema), not the session's
	// search path's — PostgreSQL's stored expressions hold the OID and
	// never look the name up again (regLiteral).
	storedIn string
	// regNames, when not nil, records the relations the single-name
	// regclass literals of an expression being stored resolved to, by
	// the literal's text (qualifyRegNames): PostgreSQL stores their OIDs.
	regNames map[string]uint32
	params   []types.T
	// domainCasts are the casts to a domain bound so far, with the
	// domain's OID (pg_typeof names it; domains.go).
	domainCasts map[Expr]uint32
	// writeTarget is set while a write's target is bound, which names a
	// table, never a data-modifying WITH query (modifyingwith.go).
	writeTarget bool
	// writeVia is the view a write's target was rewritten through (the
	// innermost, viewwrite.go); nil for a table. The target is read as
	// through it: with the view owner's privileges.
	writeVia *View
	// viewChecks are the WITH CHECK OPTION conditions a write through
	// views collects as it is rewritten (viewcheck.go).
	viewChecks []viewCheck
	// assignInto is the table an INSERT or UPDATE writes, whose columns'
	// domains its assignment errors name (domains.go).
	assignInto *Scan
	// setOpBranch is set while the SELECT about to be bound is a branch of
	// a set operation, whose unknown literals stay unknown for the set
	// operation to type (select.go, setop.go).
	setOpBranch bool
	// keepUnknownOutputs is set while INSERT's SELECT is about to be
	// bound: its unknown outputs stay unknown for the target columns to
	// type (insertselect.go).
	keepUnknownOutputs bool
	// agg is the aggregate binder's state while an aggregating query's
	// SELECT list, HAVING and ORDER BY are bound; nil elsewhere.
	agg *aggState
	// win is the window binder's state while a SELECT list and ORDER BY
	// with window functions are bound; nil elsewhere.
	win *winState
	// srf collects the set-returning calls of the SELECT list being bound
	// (see ProjectSet); nil where they are not allowed.
	srf *srfState
	// outer is the scope of the query enclosing the subquery being bound
	// (nil at the top level), used to recognise correlated references.
	outer *scope
	// corr collects the outer references of the subquery being bound.
	corr *corrState
	// outerRefAt is where each column an outer slot of a subquery reads
	// was first named inside it (scope.go): an aggregating query's error
	// for an ungrouped one points there.
	outerRefAt map[*ColumnRef]sourceNode
	// implicitRefs are the sides' columns inside a USING join's merged
	// column that is a cast or a COALESCE of them (mergedExpr): PostgreSQL
	// gives such a Var no location, so an error about one has no position.
	implicitRefs map[*ColumnRef]bool
	// collMarks are the collations binding gave expressions: a COLLATE
	// clause's, a column's declared one (collate.go)
	collMarks map[Expr]collMark
	// level is the SELECT being bound, for aggregates of its level met
	// in its subqueries (agglevels.go); nil outside one.
	level *queryLevel
	// ctes are the WITH queries visible to the query being bound: items
	// of the tree's WITH lists, each transformed once with its statement,
	// so that an item is the same node wherever it is seen and keys the
	// maps below.
	ctes map[string]*pt.CTE
	// cteCorr is the correlation state of the query level that defined
	// each WITH query (nil at the top level): a reference at that level
	// binds the body seeing the same outer queries (ctecorr.go).
	cteCorr map[*pt.CTE]*corrState
	// cteRefs count the references to each WITH query; sharedCTEs are
	// those evaluated once (nil: decided to be inlined) (cte.go).
	cteRefs    map[*pt.CTE]int
	sharedCTEs map[*pt.CTE]*SharedCTE
	// rec is the WITH RECURSIVE state (recursive.go); nil until needed.
	rec *recState
	// excludedScope is the scope of ON CONFLICT DO UPDATE, where VALUES(x)
	// names the proposed row's column x.
	excludedScope *scope
	// uses collects the relations a CREATE VIEW query names (view.go);
	// viewStack are the views being expanded, innermost last.
	uses *[]ViewRelation
	// funcUses are the LANGUAGE sql functions a CREATE VIEW query calls
	// directly (their signatures), as uses are its relations
	funcUses  *[]string
	viewStack []fluss.TablePath
	// ctors are the ROW(...) and MAP[...] constructors bound so far, with
	// their arguments as written (rows.go), so an assignment can re-type them.
	ctors map[Expr]*ctorInfo
	// sqlFuncs are the LANGUAGE sql functions being expanded, innermost
	// last; sqlParams is the scope of the innermost one's parameters,
	// which its body's $n read (sqlfunc.go).
	sqlFuncs  []*udf.Scalar
	sqlParams *scope
	// sqlCheck is set while CREATE FUNCTION checks a body
	// (CheckSQLFunction), where a call of the function itself binds.
	sqlCheck bool
	// arena allocates the commonest bound expression nodes (arena.go).
	arena arena
	// trees transforms the expressions that bind through sql/tree
	// (bindViaTree), its nodes from chunks like arena's.
	trees sql.Transformer
	// finders are the visitors of the tree's aggregate and window
	// finders (select.go).
	finders struct {
		tree treeFinder
	}
	// scans are the table scans FROM clauses bound so far, whose whole
	// rows have their tables' row types (composite.go); scanBuf holds
	// the first few, so that most statements allocate nothing for them.
	scans   []*Scan
	scanBuf [2]*Scan
	// partitions are the FROM items bound so far that name a partition
	// of a PostgreSQL-partitioned table (a view, View.Partition), whose
	// tableoid is the partition's OID (systemcols.go).
	partitions []partitionItem
}

// Bind binds one parsed statement. declared holds the parameter types the
// client declared (Kind Unknown where it declared none); the bound statement's
// Params() extends it with inferred types.
func Bind(ctx context.Context, cat Catalog, stmt *sql.Statement, declared []types.T) (Statement, error) {
	n := stmt.NumParams
	if len(declared) > n {
		n = len(declared)
	}
	b := &binder{ctx: ctx, cat: cat, stmt: stmt, params: make([]types.T, n)}
	copy(b.params, declared)
	if stmt.AST == nil {
		return nil, sqlerr.New(sqlerr.InternalError, "statement has no syntax tree")
	}
	st, err := b.trees.BindStatement(stmt)
	if err != nil {
		return nil, b.transformError(err) // exprbind.go
	}
	if st != nil {
		out, err := b.bindStatementTree(st)
		if err == nil {
			err = b.checkCollations(out) // collate.go
		}
		if err != nil {
			return nil, err
		}
		return out, nil
	}
	return nil, sqlerr.New(sqlerr.FeatureNotSupported, "statement %q is not supported", firstWords(stmt.Text))
}

// bindStatementTree binds a statement of sqlgate's parsed tree
// (sql.Transformer.BindStatement): CREATE TABLE [AS], DROP TABLE | VIEW,
// CREATE VIEW here (a query inside one is transformed when bound, view.go's
// bindQuery), the queries, writes, EXPLAIN, TRUNCATE and DESCRIBE in
// exprbind.go's bindStatement.
func (b *binder) bindStatementTree(st pt.Statement) (Statement, error) {
	switch s := st.(type) {
	case *pt.CreateTable:
		out, err := b.bindCreateTable(s) // ddl.go
		if ct, ok := out.(*CreateTable); ok && err == nil && ct.Source != nil {
			err = refusePseudoColumns(ct.Source) // searchcycle.go
		}
		if err != nil {
			return nil, err
		}
		return out, nil
	case *pt.DropTable:
		return b.bindDropTable(s) // ddl.go
	case *pt.CreateView:
		return b.bindCreateView(s) // view.go
	}
	if out, ok, err := b.bindStatement(st); ok { // exprbind.go
		return out, err
	}
	return nil, sqlerr.New(sqlerr.InternalError, "statement %T has no binder", st)
}

// finishParams stamps the final parameter types into every Param node, since
// a parameter's type may have been inferred after its first use.
func (b *binder) finishParams(n Node) Node {
	if len(b.params) == 0 {
		return n // no parameter: no Param node anywhere, subqueries included
	}
	visitExprs(n, func(e Expr) {
		Walk(e, func(x Expr) {
			switch p := x.(type) {
			case *Param:
				p.T = b.params[p.Index]
			case *Subquery:
				b.finishParams(p.Plan)
			}
		})
	})
	return n
}

// visitExprs calls fn on every expression held by n and its inputs.
func visitExprs(n Node, fn func(Expr)) {
	nodeExprs(n, fn)
	for _, c := range n.Children() {
		visitExprs(c, fn)
	}
}

// nodeExprs calls fn on the expressions n itself holds (not its inputs').
func nodeExprs(n Node, fn func(Expr)) {
	switch x := n.(type) {
	case *Values:
		for _, r := range x.Rows {
			for _, e := range r {
				fn(e)
			}
		}
	case *Filter:
		fn(x.Cond)
	case *Join:
		if x.Cond != nil {
			fn(x.Cond)
		}
	case *Window:
		for _, e := range x.Call.Args {
			fn(e)
		}
		for _, e := range x.Call.Partition {
			fn(e)
		}
		for _, k := range x.Call.Order {
			fn(k.Expr)
		}
	case *Aggregate:
		for _, k := range x.GroupBy {
			fn(k)
		}
		for _, a := range x.Aggs {
			for _, e := range a.Args {
				fn(e)
			}
			if a.Filter != nil {
				fn(a.Filter)
			}
		}
	case *Project:
		for _, e := range x.Exprs {
			fn(e)
		}
	case *Sort:
		for _, k := range x.Keys {
			fn(k.Expr)
		}
	case *Limit:
		if x.Count != nil {
			fn(x.Count)
		}
		if x.Offset != nil {
			fn(x.Offset)
		}
	}
}

// sourceNode is what an error cursor needs of a syntax node: its byte
// offset in the statement's rewritten text. TiDB's nodes have it; the
// helpers that only position errors take this rather than TiDB's ast.Node,
// so that they serve sql/tree's nodes as the binder moves onto them.
type sourceNode interface{ OriginTextPosition() int }

// errAt returns err with the position of node in the original text.
func (b *binder) errAt(node sourceNode, err *sqlerr.Error) *sqlerr.Error {
	if node == nil || b.stmt == nil {
		return err
	}
	off := node.OriginTextPosition()
	x, isTable := node.(*pt.TableName)
	if off == 0 && isTable {
		// TiDB records no offset for table names and INSERT column lists;
		// find the identifier in the text instead (its first occurrence as
		// a whole word outside quotes, which is where these names stand);
		// a qualified name from its schema on, as PostgreSQL points
		off = identOffset(b.stmt.Rewritten, x.Name)
		if x.Schema != "" {
			if q := qualifiedOffset(b.stmt.Rewritten, x.Schema, x.Name); q >= 0 {
				off = q
			}
		}
	}
	if isTable {
		// the stores name the relation alone; PostgreSQL names it as
		// written (relation "public.x" does not exist), a missing
		// schema's too: a query's parserOpenTable looks the name up
		// with missing_ok, so no 3F000 comes first
		err = sqlerr.As(sqlerr.RelationAsWritten(err, x.Schema, x.Name, nil))
	}
	return err.WithPosition(b.stmt.Position(off))
}

// relationAsWritten is sqlerr.RelationAsWritten over the catalog's
// schemas (SchemaChecker; a catalog without it has every schema).
func (b *binder) relationAsWritten(err error, schema, name string) error {
	return sqlerr.RelationAsWritten(err, schema, name, func(schema string) bool {
		c, ok := b.cat.(SchemaChecker)
		if !ok {
			return true
		}
		exists, cerr := c.SchemaExists(b.ctx, schema)
		return exists || cerr != nil
	})
}

// qualifiedOffset returns the byte offset of the first occurrence in text
// of the qualified name schema.name (either part double-quoted or not,
// blanks around the dot), or -1.
func qualifiedOffset(text, schema, name string) int {
	ident := func(i int, want string) int { // the end of want at i, or -1
		if i < len(text) && text[i] == '"' {
			if strings.HasPrefix(text[i+1:], want+`"`) {
				return i + len(want) + 2
			}
			return -1
		}
		if i+len(want) <= len(text) && strings.EqualFold(text[i:i+len(want)], want) &&
			(i+len(want) == len(text) || !isIdentByte(strings.ToLower(text[i+len(want):])[0])) {
			return i + len(want)
		}
		return -1
	}
	blanks := func(i int) int {
		for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r') {
			i++
		}
		return i
	}
	for i := 0; i < len(text); i++ {
		if i > 0 && isIdentByte(strings.ToLower(text[i-1 : i])[0]) {
			continue
		}
		e := ident(i, schema)
		if e < 0 {
			continue
		}
		if d := blanks(e); d < len(text) && text[d] == '.' && ident(blanks(d+1), name) >= 0 {
			return i
		}
	}
	return -1
}

// identOffset returns the byte offset of the first whole-word, unquoted-
// string occurrence of name in text (case-insensitive), or 0.
func identOffset(text, name string) int {
	lower, lname := strings.ToLower(text), strings.ToLower(name)
	inString := false
	for i := 0; i < len(lower); i++ {
		c := lower[i]
		if c == '\'' {
			inString = !inString
			continue
		}
		if inString || !strings.HasPrefix(lower[i:], lname) {
			continue
		}
		before := i == 0 || !isIdentByte(lower[i-1])
		after := i+len(lname) >= len(lower) || !isIdentByte(lower[i+len(lname)])
		if before && after {
			return i
		}
	}
	return 0
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c == '"' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 0x80
}

func firstWords(s string) string {
	f := strings.Fields(s)
	if len(f) > 2 {
		f = f[:2]
	}
	return strings.Join(f, " ")
}

// operatorError is noBinaryOperator positioned at the operator token, where
// PostgreSQL's parser records an operator expression's location: the last
// spelling of op between the expression's start and its right operand's
// (so a literal of the left operand holding the same characters is never
// taken). Without a right operand's offset it falls back to the node's.
func (b *binder) operatorError(n sourceNode, op string, l, r types.T) *sqlerr.Error {
	return b.errAtOperator(n, op, noBinaryOperator(op, l, r))
}

// errAtOperator positions err at operator op of the two-operand expression n.
func (b *binder) errAtOperator(n sourceNode, op string, err *sqlerr.Error) *sqlerr.Error {
	if n == nil || b.stmt == nil {
		return err
	}
	if pos, ok := b.operatorAt(n, op); ok {
		return err.WithPosition(pos)
	}
	return b.errAt(n, err)
}

// operatorAt is the position of operator op of the two-operand expression
// n (ok false when its text does not spell op there).
func (b *binder) operatorAt(n sourceNode, op string) (int, bool) {
	if n == nil || b.stmt == nil {
		return 0, false
	}
	if off, ok := b.operatorOffset(n, op); ok {
		return b.stmt.Position(off), true
	}
	start, end := n.OriginTextPosition(), rightOperandOffset(n)
	if start < end && end <= len(b.stmt.Rewritten) {
		return b.stmt.OperatorPosition(start, end, op) // the rewrite made it a call
	}
	return 0, false
}

// operatorOffset is the text offset of operator op of the two-operand
// expression n: the last spelling of op between its start and its right
// operand's (ok false when the text does not spell it there).
func (b *binder) operatorOffset(n sourceNode, op string) (int, bool) {
	if n == nil || b.stmt == nil {
		return 0, false
	}
	start, end := n.OriginTextPosition(), rightOperandOffset(n)
	text := b.stmt.Rewritten
	if start < end && end <= len(text) {
		if i := strings.LastIndex(strings.ToLower(text[start:end]), strings.ToLower(op)); i >= 0 {
			return start + i, true
		}
	}
	return 0, false
}

// rightOperandOffset is the text offset of a two-operand expression's right
// operand (0 when n has none or TiDB recorded none).
func rightOperandOffset(n sourceNode) int {
	switch x := n.(type) {
	case *pt.Binary:
		return x.R.Pos()
	case *pt.FuncCall: // the same on sql/tree
		if len(x.Args) == 2 {
			return x.Args[1].Pos()
		}
	case *pt.Operator: // an infix operator TiDB's grammar lacks
		if x.L != nil {
			return x.R.Pos()
		}
	case *pt.Quantified:
		return x.Right.Pos()
	case *pt.Like:
		return x.Pattern.Pos()
	case *pt.Regexp:
		return x.Pattern.Pos()
	}
	return 0
}
