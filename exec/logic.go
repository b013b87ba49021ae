package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// LogicExpr is AND / OR with SQL's three-valued logic.
type LogicExpr struct {
	And  bool
	L, R Expr
	// Qual: the AND is a conjunct list of a filter (a WHERE clause),
	// where a row L makes NULL is dropped whatever R is; as PostgreSQL's
	// qual evaluation stops at the first conjunct that is not true, R
	// is then not computed for it (the result is false, not NULL, which
	// the filter treats alike).
	Qual bool
	// Eager: R is computed for every row, and its error is the row's
	// even where L decides (the items of PostgreSQL's x = ANY
	// (ARRAY[...]), all computed before any comparison: binder.BinaryOp's
	// Eager).
	Eager bool
}

func (e *LogicExpr) Type() types.T { return types.BoolType }
func (e *LogicExpr) String() string {
	op := " OR "
	if e.And {
		op = " AND "
	}
	return "(" + e.L.String() + op + e.R.String() + ")"
}

// Eval evaluates L, then R. PostgreSQL evaluates R only on the rows L
// leaves undecided (not false for AND, not true for OR), so an error R
// raises on another row is not the statement's: R runs on the whole batch
// first (the common case, no error, costs no selection), and only when it
// fails runs again on the undecided rows alone, whose error then stands.
func (e *LogicExpr) Eval(ec *EvalContext, batch arrow.RecordBatch) (arrow.Array, error) {
	la, err := e.L.Eval(ec, batch)
	if err != nil {
		return nil, err
	}
	defer la.Release()
	ra, err := e.R.Eval(ec, batch)
	if err != nil {
		if e.Eager {
			return nil, err
		}
		if ra, err = e.evalUndecided(ec, batch, la.(*array.Boolean), err); err != nil {
			return nil, err
		}
	}
	defer ra.Release()
	if ec.backendFor(FamBoolLogic) == BackendArrow {
		return arrowLogic(ec, e.And, la, ra)
	}
	l, r := la.(*array.Boolean), ra.(*array.Boolean)
	if out, ok := logicBitmap(ec.Mem, e.And, l, r); ok {
		return out, nil
	}
	n := l.Len()
	hasNulls := l.NullN() > 0 || r.NullN() > 0
	out := newBoolBuilder(ec.Mem, n, hasNulls)
	for i := 0; i < n; i++ {
		ln, rn := l.IsNull(i), r.IsNull(i)
		lv, rv := !ln && l.Value(i), !rn && r.Value(i)
		if e.And {
			switch {
			case (!ln && !lv) || (!rn && !rv):
				// false AND anything is false
			case ln || rn:
				out.setNull(i)
			default:
				out.set(i, true)
			}
		} else {
			switch {
			case lv || rv:
				out.set(i, true)
			case ln || rn:
				out.setNull(i)
			}
		}
	}
	return out.finish(), nil
}

// NotExpr is NOT x.
type NotExpr struct{ X Expr }

func (e *NotExpr) Type() types.T  { return types.BoolType }
func (e *NotExpr) String() string { return "NOT " + e.X.String() }
func (e *NotExpr) Eval(ec *EvalContext, batch arrow.RecordBatch) (arrow.Array, error) {
	xa, err := e.X.Eval(ec, batch)
	if err != nil {
		return nil, err
	}
	defer xa.Release()
	if ec.backendFor(FamBoolLogic) == BackendArrow {
		return arrowNot(ec, xa)
	}
	x := xa.(*array.Boolean)
	if out, ok := notBitmap(ec.Mem, x); ok {
		return out, nil
	}
	out := newBoolBuilder(ec.Mem, x.Len(), x.NullN() > 0)
	for i := 0; i < x.Len(); i++ {
		if x.IsNull(i) {
			out.setNull(i)
			continue
		}
		out.set(i, !x.Value(i))
	}
	return out.finish(), nil
}

// IsNullExpr is x IS [NOT] NULL.
type IsNullExpr struct {
	X   Expr
	Not bool
}

func (e *IsNullExpr) Type() types.T { return types.BoolType }
func (e *IsNullExpr) String() string {
	if e.Not {
		return e.X.String() + " IS NOT NULL"
	}
	return e.X.String() + " IS NULL"
}
func (e *IsNullExpr) Eval(ec *EvalContext, batch arrow.RecordBatch) (arrow.Array, error) {
	xa, err := e.X.Eval(ec, batch)
	if err != nil {
		return nil, err
	}
	defer xa.Release()
	if ec.backendFor(isNullFamily(e.X.Type())) == BackendArrow {
		return arrowIsNull(ec, e.Not, xa)
	}
	if out, ok := isNullBitmap(ec.Mem, xa, e.Not); ok {
		return out, nil
	}
	out := newBoolBuilder(ec.Mem, xa.Len(), false)
	for i := 0; i < xa.Len(); i++ {
		out.set(i, xa.IsNull(i) != e.Not)
	}
	return out.finish(), nil
}

// NegExpr is unary minus (checked for integers).
type NegExpr struct {
	X Expr
	T types.T
}

func (e *NegExpr) Type() types.T  { return e.T }
func (e *NegExpr) String() string { return "-" + e.X.String() }
func (e *NegExpr) Eval(ec *EvalContext, batch arrow.RecordBatch) (arrow.Array, error) {
	if e.T.IsFloat() {
		// -x, not 0 - x: the sign of zero flips (-(0.0) is -0).
		return (&ArithExpr{Op: Mul, L: &ConstExpr{Value: float64(-1), T: e.T}, R: e.X, T: e.T}).Eval(ec, batch)
	}
	zero := &ConstExpr{Value: zeroOf(e.T), T: e.T}
	return (&ArithExpr{Op: Sub, L: zero, R: e.X, T: e.T}).Eval(ec, batch)
}

func zeroOf(t types.T) any {
	switch {
	case t.IsInteger():
		return int64(0)
	case t.IsFloat():
		return float64(0)
	case t.Kind == types.Decimal && t.Precision == 0:
		return numeric.FromInt64(0)
	case t.Kind == types.Decimal:
		return decimalZero
	}
	return nil
}

// evalUndecided evaluates R on the rows l leaves undecided and returns it
// for the whole batch, the decided rows holding L's deciding value (which
// decides them whatever R is). failed is R's error on the whole batch,
// returned as it is when every row is undecided.
func (e *LogicExpr) evalUndecided(ec *EvalContext, batch arrow.RecordBatch, l *array.Boolean, failed error) (arrow.Array, error) {
	n := l.Len()
	decides := !e.And // L true decides OR, L false decides AND
	var rows []int32
	for i := 0; i < n; i++ {
		if e.Qual && e.And && l.IsNull(i) {
			continue
		}
		if l.IsNull(i) || l.Value(i) != decides {
			rows = append(rows, int32(i))
		}
	}
	if len(rows) == n {
		return nil, failed
	}
	vals := make([]any, n)
	for i := range vals {
		vals[i] = decides // with Qual, false also for a NULL L: NULL AND false is false
	}
	if len(rows) > 0 {
		if err := evalRows(ec, batch, rows, e.R, vals); err != nil {
			return nil, err
		}
	}
	return buildArray(ec, types.BoolType, vals), nil
}
