package difftest

import (
	"fmt"
	"strconv"
	"strings"
)

// Type is the SQL type of a generated expression, spelled as PostgreSQL
// spells it in a cast.
type Type string

const (
	Int2      Type = "smallint"
	Int4      Type = "integer"
	Int8      Type = "bigint"
	Float4    Type = "real"
	Float8    Type = "double precision"
	Numeric   Type = "numeric"
	Bool      Type = "boolean"
	Text      Type = "text"
	Varchar   Type = "varchar"
	Date      Type = "date"
	Timestamp Type = "timestamp"
)

// allTypes lists every scalar type the generator produces, in a fixed order
// so that generation is deterministic.
var allTypes = []Type{Int2, Int4, Int8, Float4, Float8, Numeric, Bool, Text, Date, Timestamp}

func (t Type) isInt() bool     { return t == Int2 || t == Int4 || t == Int8 }
func (t Type) isFloat() bool   { return t == Float4 || t == Float8 }
func (t Type) isNumeric() bool { return t.isInt() || t.isFloat() || t == Numeric }
func (t Type) isText() bool    { return t == Text || t == Varchar }
func (t Type) isTime() bool    { return t == Date || t == Timestamp }

// intRank orders the integer types by width.
func intRank(t Type) int {
	switch t {
	case Int2:
		return 1
	case Int4:
		return 2
	case Int8:
		return 3
	}
	return 0
}

// category groups the types that compare with one another.
func (t Type) category() string {
	switch {
	case t.isNumeric():
		return "number"
	case t.isText():
		return "text"
	case t.isTime():
		return "time"
	}
	return string(t)
}

// Kind names an expression node kind; coverage counts them.
type Kind string

const (
	KCol      Kind = "column"
	KLit      Kind = "literal"
	KNull     Kind = "null"
	KArith    Kind = "arith"   // Op: + - * / %
	KNeg      Kind = "negate"  // unary minus
	KCmp      Kind = "compare" // Op: = <> < <= > >=
	KAnd      Kind = "and"
	KOr       Kind = "or"
	KNot      Kind = "not"
	KIsNull   Kind = "isnull"   // Op: IS NULL / IS NOT NULL
	KDistinct Kind = "distinct" // Op: IS DISTINCT FROM / IS NOT DISTINCT FROM
	KIn       Kind = "in"       // Op: IN / NOT IN; Args[0] IN (Args[1:])
	KBetween  Kind = "between"  // Op: BETWEEN / NOT BETWEEN
	KCase     Kind = "case"     // searched: Args = when1, then1, ..., [else]; Op "else" when an ELSE is present
	KCoalesce Kind = "coalesce"
	KNullif   Kind = "nullif"
	KCast     Kind = "cast"
	KConcat   Kind = "concat"
	KFunc     Kind = "func"     // Op: function name
	KAgg      Kind = "agg"      // Op: aggregate name; no Args means count(*)
	KInSub    Kind = "insubq"   // Args[0] IN (Sub)
	KExists   Kind = "exists"   // EXISTS (Sub)
	KScalarSq Kind = "scalarsq" // (Sub), one column, at most one row
)

// Expr is one node of a generated expression. The shape is uniform (a kind,
// an operator, children) so that the minimiser can walk and replace any node
// without knowing its kind.
type Expr struct {
	Kind Kind
	Op   string
	Type Type
	Args []*Expr
	Text string // column reference or literal text, as SQL
	Sub  *Query // subquery of KInSub, KExists, KScalarSq
	// Table is the alias a column reference belongs to, so that join
	// generation can tell sides apart.
	Table string
	// Literal facts for the rules in semantics.go.
	IntValue   *int64
	FloatValue *float64
}

// SQL renders the expression fully parenthesised, so that precedence
// never depends on either system's parser.
func (e *Expr) SQL() string {
	var b strings.Builder
	e.write(&b)
	return b.String()
}

func (e *Expr) write(b *strings.Builder) {
	w := func(x *Expr) { x.write(b) }
	switch e.Kind {
	case KCol, KLit:
		b.WriteString(e.Text)
	case KNull:
		fmt.Fprintf(b, "NULL::%s", e.Type)
	case KArith, KCmp, KConcat:
		b.WriteString("(")
		w(e.Args[0])
		op := e.Op
		if e.Kind == KConcat {
			op = "||"
		}
		fmt.Fprintf(b, " %s ", op)
		w(e.Args[1])
		b.WriteString(")")
	case KAnd, KOr:
		b.WriteString("(")
		for i, a := range e.Args {
			if i > 0 {
				fmt.Fprintf(b, " %s ", strings.ToUpper(string(e.Kind)))
			}
			w(a)
		}
		b.WriteString(")")
	case KNeg:
		b.WriteString("(- ")
		w(e.Args[0])
		b.WriteString(")")
	case KNot:
		b.WriteString("(NOT ")
		w(e.Args[0])
		b.WriteString(")")
	case KIsNull:
		b.WriteString("(")
		w(e.Args[0])
		fmt.Fprintf(b, " %s)", e.Op)
	case KDistinct:
		b.WriteString("(")
		w(e.Args[0])
		fmt.Fprintf(b, " %s ", e.Op)
		w(e.Args[1])
		b.WriteString(")")
	case KIn:
		b.WriteString("(")
		w(e.Args[0])
		fmt.Fprintf(b, " %s (", e.Op)
		for i, a := range e.Args[1:] {
			if i > 0 {
				b.WriteString(", ")
			}
			w(a)
		}
		b.WriteString("))")
	case KBetween:
		b.WriteString("(")
		w(e.Args[0])
		fmt.Fprintf(b, " %s ", e.Op)
		w(e.Args[1])
		b.WriteString(" AND ")
		w(e.Args[2])
		b.WriteString(")")
	case KCase:
		b.WriteString("CASE")
		n := len(e.Args)
		pairs := n
		if e.Op == "else" {
			pairs = n - 1
		}
		for i := 0; i+1 < pairs; i += 2 {
			b.WriteString(" WHEN ")
			w(e.Args[i])
			b.WriteString(" THEN ")
			w(e.Args[i+1])
		}
		if e.Op == "else" {
			b.WriteString(" ELSE ")
			w(e.Args[n-1])
		}
		b.WriteString(" END")
	case KCoalesce, KNullif, KFunc, KAgg:
		name := e.Op
		switch e.Kind {
		case KCoalesce:
			name = "COALESCE"
		case KNullif:
			name = "NULLIF"
		}
		b.WriteString(name)
		b.WriteString("(")
		if e.Kind == KAgg && len(e.Args) == 0 {
			b.WriteString("*")
		}
		for i, a := range e.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			w(a)
		}
		b.WriteString(")")
	case KCast:
		b.WriteString("(")
		w(e.Args[0])
		fmt.Fprintf(b, ")::%s", e.Type)
	case KInSub:
		b.WriteString("(")
		w(e.Args[0])
		fmt.Fprintf(b, " %s (%s))", e.Op, e.Sub.SQL())
	case KExists:
		fmt.Fprintf(b, "(%sEXISTS (%s))", e.Op, e.Sub.SQL())
	case KScalarSq:
		fmt.Fprintf(b, "(%s)", e.Sub.SQL())
	default:
		fmt.Fprintf(b, "<?%s>", e.Kind)
	}
}

// clone copies the expression tree (subqueries included).
func (e *Expr) clone() *Expr {
	if e == nil {
		return nil
	}
	c := *e
	c.Args = make([]*Expr, len(e.Args))
	for i, a := range e.Args {
		c.Args[i] = a.clone()
	}
	c.Sub = e.Sub.clone()
	return &c
}

// walk visits e and every descendant, subqueries included, pre-order.
func (e *Expr) walk(visit func(*Expr)) {
	if e == nil {
		return
	}
	visit(e)
	for _, a := range e.Args {
		a.walk(visit)
	}
	if e.Sub != nil {
		e.Sub.walkExprs(visit)
	}
}

// OrderItem is one ORDER BY key.
type OrderItem struct {
	Expr  *Expr
	Pos   int // 1-based select-list position when > 0 (Expr is then nil)
	Desc  bool
	Nulls string // "", "FIRST" or "LAST"
}

// FromItem is one table in FROM, under an alias.
type FromItem struct {
	Table string
	Alias string
}

// Join joins Right to the FROM list's first item.
type Join struct {
	Kind  string // INNER, LEFT, RIGHT, FULL, CROSS
	Right FromItem
	On    *Expr // nil for CROSS
}

// Query is one generated SELECT (or a set operation of two).
type Query struct {
	Distinct bool
	Items    []*Expr
	From     []FromItem // empty for a SELECT without FROM
	Join     *Join
	Where    *Expr
	GroupBy  []*Expr
	Having   *Expr
	OrderBy  []OrderItem
	Limit    int // -1: none
	Offset   int // -1: none

	// SetOp combines this query's SELECT with Right: UNION, UNION ALL,
	// INTERSECT, EXCEPT ... (ORDER BY/LIMIT then apply to the whole).
	SetOp string
	Right *Query

	// Keys are the expressions whose values identify a row (primary keys of
	// the tables in FROM, or the GROUP BY keys); an ORDER BY that ends with
	// all of them orders the result completely.
	Keys []*Expr

	// Shape names how the generator built the query (coverage only).
	Shape string
}

// SQL renders the query.
func (q *Query) SQL() string {
	var b strings.Builder
	b.WriteString(q.selectCore())
	if q.SetOp != "" && q.Right != nil {
		fmt.Fprintf(&b, " %s %s", q.SetOp, q.Right.selectCore())
	}
	if len(q.OrderBy) > 0 {
		b.WriteString(" ORDER BY ")
		for i, o := range q.OrderBy {
			if i > 0 {
				b.WriteString(", ")
			}
			if o.Pos > 0 {
				b.WriteString(strconv.Itoa(o.Pos))
			} else {
				b.WriteString(o.Expr.SQL())
			}
			if o.Desc {
				b.WriteString(" DESC")
			}
			if o.Nulls != "" {
				b.WriteString(" NULLS " + o.Nulls)
			}
		}
	}
	if q.Limit >= 0 {
		fmt.Fprintf(&b, " LIMIT %d", q.Limit)
	}
	if q.Offset >= 0 {
		fmt.Fprintf(&b, " OFFSET %d", q.Offset)
	}
	return b.String()
}

func (q *Query) selectCore() string {
	var b strings.Builder
	b.WriteString("SELECT ")
	if q.Distinct {
		b.WriteString("DISTINCT ")
	}
	for i, it := range q.Items {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(it.SQL())
	}
	if len(q.From) > 0 {
		b.WriteString(" FROM ")
		for i, f := range q.From {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s %s", f.Table, f.Alias)
		}
		if q.Join != nil {
			fmt.Fprintf(&b, " %s JOIN %s %s", q.Join.Kind, q.Join.Right.Table, q.Join.Right.Alias)
			if q.Join.On != nil {
				fmt.Fprintf(&b, " ON %s", q.Join.On.SQL())
			}
		}
	}
	if q.Where != nil {
		fmt.Fprintf(&b, " WHERE %s", q.Where.SQL())
	}
	if len(q.GroupBy) > 0 {
		b.WriteString(" GROUP BY ")
		for i, g := range q.GroupBy {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(g.SQL())
		}
	}
	if q.Having != nil {
		fmt.Fprintf(&b, " HAVING %s", q.Having.SQL())
	}
	return b.String()
}

func (q *Query) clone() *Query {
	if q == nil {
		return nil
	}
	c := *q
	c.Items = cloneExprs(q.Items)
	c.From = append([]FromItem(nil), q.From...)
	if q.Join != nil {
		j := *q.Join
		j.On = q.Join.On.clone()
		c.Join = &j
	}
	c.Where = q.Where.clone()
	c.GroupBy = cloneExprs(q.GroupBy)
	c.Having = q.Having.clone()
	c.OrderBy = make([]OrderItem, len(q.OrderBy))
	for i, o := range q.OrderBy {
		o.Expr = o.Expr.clone()
		c.OrderBy[i] = o
	}
	c.Right = q.Right.clone()
	c.Keys = cloneExprs(q.Keys)
	return &c
}

func cloneExprs(es []*Expr) []*Expr {
	if es == nil {
		return nil
	}
	out := make([]*Expr, len(es))
	for i, e := range es {
		out[i] = e.clone()
	}
	return out
}

// walkExprs visits every expression node of the query, subqueries and the
// right side of a set operation included.
func (q *Query) walkExprs(visit func(*Expr)) {
	if q == nil {
		return
	}
	for _, it := range q.Items {
		it.walk(visit)
	}
	if q.Join != nil {
		q.Join.On.walk(visit)
	}
	q.Where.walk(visit)
	for _, g := range q.GroupBy {
		g.walk(visit)
	}
	q.Having.walk(visit)
	for _, o := range q.OrderBy {
		o.Expr.walk(visit)
	}
	q.Right.walkExprs(visit)
}

// anyExpr reports whether some node of the query satisfies pred.
func (q *Query) anyExpr(pred func(*Expr) bool) bool {
	found := false
	q.walkExprs(func(e *Expr) {
		if !found && pred(e) {
			found = true
		}
	})
	return found
}

// CompletelyOrdered reports whether the ORDER BY fixes the order of every
// row: it must cover every key (or, for a set operation, every output
// column), so that rows tied on all keys are identical anyway.
func (q *Query) CompletelyOrdered() bool {
	if len(q.OrderBy) == 0 {
		return false
	}
	if q.SetOp != "" || q.Distinct {
		seen := map[int]bool{}
		for _, o := range q.OrderBy {
			if o.Pos > 0 {
				seen[o.Pos] = true
			}
		}
		for i := range q.Items {
			if !seen[i+1] {
				return false
			}
		}
		return true
	}
	if len(q.Keys) == 0 {
		// A SELECT without FROM returns one row; an ungrouped aggregate too.
		return len(q.From) == 0 || (len(q.GroupBy) == 0 && q.hasAggregate())
	}
	covered := map[string]bool{}
	for _, o := range q.OrderBy {
		if o.Pos > 0 && o.Pos <= len(q.Items) {
			covered[q.Items[o.Pos-1].SQL()] = true
		} else if o.Expr != nil {
			covered[o.Expr.SQL()] = true
		}
	}
	for _, k := range q.Keys {
		if !covered[k.SQL()] {
			return false
		}
	}
	return true
}

// hasAggregate reports whether the query's own select list or HAVING holds
// an aggregate (subqueries do not count).
func (q *Query) hasAggregate() bool {
	found := false
	var look func(e *Expr)
	look = func(e *Expr) {
		if e == nil || found {
			return
		}
		if e.Kind == KAgg {
			found = true
			return
		}
		for _, a := range e.Args {
			look(a)
		}
	}
	for _, it := range q.Items {
		look(it)
	}
	look(q.Having)
	return found
}

// hasAnyAggregate reports whether an aggregate appears anywhere in the
// query, subqueries included (their float sums may differ in the last bits).
func (q *Query) hasAnyAggregate() bool {
	return q.anyExpr(func(e *Expr) bool { return e.Kind == KAgg })
}
