package binder

import (
	"fmt"
	"strings"

	"github.com/sqlgate/sqlgate/types"
)

// Expr is a bound, typed scalar expression.
type Expr interface {
	// Type is the expression's SQL type.
	Type() types.T
	// String prints the expression for EXPLAIN and error messages.
	String() string
}

// ColumnRef reads column Index of the input row.
type ColumnRef struct {
	Index int
	Name  string
	T     types.T
}

// Const is a constant. Value holds the physical representation of T's kind
// (see exec.Scalar); nil is NULL.
type Const struct {
	Value any
	T     types.T
	// At is, for an untyped string literal of the statement's text, 1 +
	// its offset in the rewritten text (0 otherwise): when the literal
	// later proves no value of the type its context gives it, PostgreSQL
	// points the error at the literal, not at the call or operator.
	At int
}

// Param is the statement parameter $Index+1, typed T (declared or inferred).
type Param struct {
	Index int
	T     types.T
}

// BinaryOp is an arithmetic, comparison, boolean or string operator.
type BinaryOp struct {
	Op   Op
	L, R Expr
	T    types.T
	// Eager marks an OR (AND) whose both operands are computed for every
	// row, the operands of a chain of Eager ones (flattened) each before
	// any is combined: the comparisons x IN (a, b, ...) makes of the items
	// that read no column, which PostgreSQL compares as x = ANY
	// (ARRAY[a, b, ...]), computing the whole array first, so that an item
	// that fails fails the row even when an item before it matches.
	Eager bool
}

// UnaryOp is unary minus or NOT.
type UnaryOp struct {
	Op Op
	X  Expr
	T  types.T
}

// IsNull is X IS [NOT] NULL.
type IsNull struct {
	X   Expr
	Not bool
}

// Cast converts X to T with PostgreSQL's rules (22P02, 22003 on failure).
type Cast struct {
	X Expr
	T types.T
	// Assign: the cast of an assignment to a varchar(n) or character(n)
	// column, whose X is a string (binder.assign): a value too long is
	// refused rather than truncated.
	Assign bool
}

// Op is an operator.
type Op uint8

// The operators.
const (
	OpAdd Op = iota
	OpSub
	OpMul
	OpDiv
	OpMod
	OpEq
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe
	OpAnd
	OpOr
	OpNot
	OpNeg
	OpConcat
	OpIsNotDistinct // a IS NOT DISTINCT FROM b (<=>)
	OpIsDistinct    // a IS DISTINCT FROM b
)

var opNames = [...]string{
	OpAdd: "+", OpSub: "-", OpMul: "*", OpDiv: "/", OpMod: "%",
	OpEq: "=", OpNe: "<>", OpLt: "<", OpLe: "<=", OpGt: ">", OpGe: ">=",
	OpAnd: "AND", OpOr: "OR", OpNot: "NOT", OpNeg: "-", OpConcat: "||",
	OpIsNotDistinct: "IS NOT DISTINCT FROM", OpIsDistinct: "IS DISTINCT FROM",
}

func (o Op) String() string { return opNames[o] }

// IsComparison reports whether o compares two values.
func (o Op) IsComparison() bool {
	return (o >= OpEq && o <= OpGe) || o == OpIsDistinct || o == OpIsNotDistinct
}

// IsArithmetic reports whether o is + - * / %.
func (o Op) IsArithmetic() bool { return o <= OpMod }

func (e *ColumnRef) Type() types.T { return e.T }
func (e *Const) Type() types.T     { return e.T }
func (e *Param) Type() types.T     { return e.T }
func (e *BinaryOp) Type() types.T  { return e.T }
func (e *UnaryOp) Type() types.T   { return e.T }
func (e *IsNull) Type() types.T    { return types.BoolType }
func (e *Cast) Type() types.T      { return e.T }

func (e *ColumnRef) String() string { return e.Name }
func (e *Const) String() string {
	if e.Value == nil {
		return "NULL"
	}
	if s, ok := e.Value.(string); ok {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return fmt.Sprint(e.Value)
}
func (e *Param) String() string { return fmt.Sprintf("$%d", e.Index+1) }
func (e *BinaryOp) String() string {
	return "(" + e.L.String() + " " + e.Op.String() + " " + e.R.String() + ")"
}
func (e *UnaryOp) String() string { return e.Op.String() + " " + e.X.String() }
func (e *IsNull) String() string {
	if e.Not {
		return e.X.String() + " IS NOT NULL"
	}
	return e.X.String() + " IS NULL"
}
func (e *Cast) String() string { return "CAST(" + e.X.String() + " AS " + e.T.String() + ")" }

// Walk calls fn on e and every sub-expression, parents first.
func Walk(e Expr, fn func(Expr)) {
	fn(e)
	// The commonest nodes are walked directly, in MapChildren's order:
	// its callback and its comparison of each child with the result cost
	// more than the visit, and planning walks every condition several
	// times.
	switch x := e.(type) {
	case *ColumnRef, *Const, *Param:
		return
	case *BinaryOp:
		Walk(x.L, fn)
		Walk(x.R, fn)
		return
	case *Cast:
		Walk(x.X, fn)
		return
	case *FuncCall:
		for _, a := range x.Args {
			Walk(a, fn)
		}
		return
	}
	MapChildren(e, func(c Expr) (Expr, error) {
		Walk(c, fn)
		return c, nil
	})
}

// MapChildren returns e with each direct sub-expression replaced by fn's
// result (e itself when it has none). It copies only what changed: when fn
// returns every child unchanged, the result is e itself, so walks that only
// look (Walk, the UDF search) allocate nothing; a copy never shares a
// changed child list with e, so e is never modified.
func MapChildren(e Expr, fn func(Expr) (Expr, error)) (Expr, error) {
	switch x := e.(type) {
	case *BinaryOp:
		l, err := fn(x.L)
		if err != nil {
			return nil, err
		}
		r, err := fn(x.R)
		if err != nil {
			return nil, err
		}
		if l == x.L && r == x.R {
			return x, nil
		}
		c := *x
		c.L, c.R = l, r
		return &c, nil
	case *UnaryOp:
		in, err := fn(x.X)
		if err != nil || in == x.X {
			return orNil(x, err)
		}
		c := *x
		c.X = in
		return &c, nil
	case *IsNull:
		in, err := fn(x.X)
		if err != nil || in == x.X {
			return orNil(x, err)
		}
		c := *x
		c.X = in
		return &c, nil
	case *Cast:
		in, err := fn(x.X)
		if err != nil || in == x.X {
			return orNil(x, err)
		}
		c := *x
		c.X = in
		return &c, nil
	case *Case:
		changed := false
		whens := make([]When, len(x.Whens))
		for i, w := range x.Whens {
			cond, err := fn(w.Cond)
			if err != nil {
				return nil, err
			}
			res, err := fn(w.Result)
			if err != nil {
				return nil, err
			}
			whens[i] = When{Cond: cond, Result: res}
			changed = changed || cond != w.Cond || res != w.Result
		}
		el := x.Else
		if x.Else != nil {
			var err error
			if el, err = fn(x.Else); err != nil {
				return nil, err
			}
			changed = changed || el != x.Else
		}
		if !changed {
			return x, nil
		}
		return &Case{T: x.T, Whens: whens, Else: el}, nil
	case *Subquery:
		in := x.X
		if x.X != nil {
			var err error
			if in, err = fn(x.X); err != nil {
				return nil, err
			}
		}
		outer, changed, err := mapAll(x.Outer, fn)
		if err != nil {
			return nil, err
		}
		if !changed && in == x.X {
			return x, nil
		}
		c := *x
		c.X, c.Outer = in, outer
		return &c, nil
	case *FuncCall:
		args, changed, err := mapAll(x.Args, fn)
		if err != nil || !changed {
			return orNil(x, err)
		}
		c := *x
		c.Args = args
		return &c, nil
	case *Coalesce:
		args, changed, err := mapAll(x.Args, fn)
		if err != nil || !changed {
			return orNil(x, err)
		}
		c := *x
		c.Args = args
		return &c, nil
	case *UDFCall:
		args, changed, err := mapAll(x.Args, fn)
		if err != nil || !changed {
			return orNil(x, err)
		}
		c := *x
		c.Args = args
		return &c, nil
	}
	return e, nil
}

// orNil is (e, nil), or (nil, err) when err is set.
func orNil(e Expr, err error) (Expr, error) {
	if err != nil {
		return nil, err
	}
	return e, nil
}

// mapAll applies fn to each expression of a list. The list is copied on
// the first change only: changed is false and the result is es itself when
// fn returned every element unchanged.
func mapAll(es []Expr, fn func(Expr) (Expr, error)) (out []Expr, changed bool, err error) {
	out = es
	for i, e := range es {
		y, err := fn(e)
		if err != nil {
			return nil, false, err
		}
		if y != e && !changed {
			out = make([]Expr, len(es))
			copy(out, es[:i])
			changed = true
		}
		if changed {
			out[i] = y
		}
	}
	return out, changed, nil
}
