package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// SubqueryMode mirrors the binder's: how a subquery's rows become a value.
type SubqueryMode uint8

// The modes.
const (
	ScalarMode SubqueryMode = iota
	ExistsMode
	AnyMode
	AllMode
	// ArrayMode: ARRAY(subquery), the first column's values as one array
	// (empty, not NULL, over no rows).
	ArrayMode
)

// SubqueryExpr evaluates an uncorrelated subquery once per execution (the
// rows are cached in the EvalContext) and then, per row, a scalar value,
// EXISTS, or a quantified comparison x op ANY/ALL with SQL's NULL rules.
type SubqueryExpr struct {
	// Open instantiates the subquery's plan for this execution, evaluating
	// its expressions in ec (whose Outer holds the enclosing row's values
	// for a correlated subquery).
	Open func(ec *EvalContext) (Operator, error)
	// Outer are the enclosing row's values a correlated subquery reads,
	// one per OuterRefExpr slot; empty when uncorrelated.
	Outer []Expr
	Mode  SubqueryMode
	X     Expr  // AnyMode / AllMode
	Op    CmpOp // AnyMode / AllMode
	T     types.T
}

func (e *SubqueryExpr) Type() types.T  { return e.T }
func (e *SubqueryExpr) String() string { return "(subquery)" }

// subqueryRows is a subquery's cached result: its first column.
type subqueryRows struct {
	values arrow.Array
}

func (e *SubqueryExpr) rows(ec *EvalContext) (*subqueryRows, error) {
	if r, ok := ec.subqueries[e]; ok {
		return r, nil
	}
	r, err := e.run(ec)
	if err != nil {
		return nil, err
	}
	if ec.subqueries == nil {
		ec.subqueries = map[*SubqueryExpr]*subqueryRows{}
	}
	ec.subqueries[e] = r
	return r, nil
}

// run executes the subquery's plan once and collects its first column.
func (e *SubqueryExpr) run(ec *EvalContext) (*subqueryRows, error) {
	ctx := ec.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	op, err := e.Open(ec.Untraced())
	if err != nil {
		return nil, err
	}
	defer op.Close()
	var parts []arrow.Array
	defer func() {
		for _, p := range parts {
			p.Release()
		}
	}()
	for {
		b, err := op.Next(ctx)
		if err != nil {
			return nil, err
		}
		if b == nil {
			break
		}
		if b.NumCols() > 0 {
			c := b.Column(0)
			c.Retain()
			parts = append(parts, c)
		} else {
			parts = append(parts, array.NewNull(int(b.NumRows())))
		}
		b.Release()
		if e.Mode == ExistsMode && len(parts) > 0 && parts[len(parts)-1].Len() > 0 {
			break // one row settles EXISTS
		}
	}
	r := &subqueryRows{}
	if len(parts) == 0 {
		r.values = array.NewNull(0)
	} else {
		merged, err := array.Concatenate(parts, ec.Mem)
		if err != nil {
			return nil, err
		}
		r.values = merged
	}
	return r, nil
}

func (e *SubqueryExpr) Eval(ec *EvalContext, batch arrow.RecordBatch) (arrow.Array, error) {
	ec.backendFor(FamSubquery) // recorded for the report's check
	if batch.NumRows() == 0 {
		// No row needs it: PostgreSQL runs an uncorrelated subquery (an
		// InitPlan) when a row first reads it, so over no rows it never
		// runs, and its error is not the statement's.
		return constArray(ec.Mem, nil, e.T, 0), nil
	}
	if len(e.Outer) > 0 {
		return e.evalCorrelated(ec, batch)
	}
	r, err := e.rows(ec)
	if err != nil {
		return nil, err
	}
	n := int(batch.NumRows())
	switch e.Mode {
	case ScalarMode:
		if r.values.Len() > 1 {
			return nil, sqlerr.New(sqlerr.CardinalityViolation, "more than one row returned by a subquery used as an expression")
		}
		var v any
		if r.values.Len() == 1 {
			v = valueAt(r.values, 0)
		}
		return constArray(ec.Mem, v, e.T, n), nil
	case ExistsMode:
		return constArray(ec.Mem, r.values.Len() > 0, types.BoolType, n), nil
	case ArrayMode:
		return constArray(ec.Mem, arrayOf(r.values), e.T, n), nil
	}
	if r.values.Len() == 0 {
		// Over no rows ANY is false and ALL true whatever X is, and
		// PostgreSQL does not compute X then (an error X would raise
		// is not the statement's).
		return constArray(ec.Mem, e.Mode == AllMode, types.BoolType, n), nil
	}
	x, err := e.X.Eval(ec, batch)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	m := r.values.Len()
	out := newBoolBuilder(ec.Mem, n, true)
	var li, lj int
	var cmpAt func(int) int
	if m > 0 { // an empty result has no typed column to compare with
		if cmpAt, err = rowComparator(x, r.values, func(int) (int, int) { return li, lj }); err != nil {
			return nil, err
		}
	}
	for i := 0; i < n; i++ {
		// ANY: true if some comparison is true, else NULL if some is NULL,
		// else false. ALL: false if some is false, else NULL if some is
		// NULL, else true. Over no rows ANY is false and ALL true.
		sawNull, decided := false, false
		for j := 0; j < m && !decided; j++ {
			if x.IsNull(i) || r.values.IsNull(j) {
				sawNull = true
				continue
			}
			li, lj = i, j
			res := cmpResult(e.Op, cmpAt(0))
			if e.Mode == AnyMode && res {
				out.set(i, true)
				decided = true
			}
			if e.Mode == AllMode && !res {
				decided = true // stays false
			}
		}
		if decided {
			continue
		}
		if sawNull {
			out.setNull(i)
			continue
		}
		out.set(i, e.Mode == AllMode)
	}
	return out.finish(), nil
}

func cmpResult(op CmpOp, r int) bool {
	switch op {
	case Eq, NotDistinct:
		return r == 0
	case Ne, Distinct:
		return r != 0
	case Lt:
		return r < 0
	case Le:
		return r <= 0
	case Gt:
		return r > 0
	}
	return r >= 0
}

// evalCorrelated runs the subquery for each distinct outer row of batch (a
// nested-loop apply) and combines each row's result as Eval does.
func (e *SubqueryExpr) evalCorrelated(ec *EvalContext, batch arrow.RecordBatch) (arrow.Array, error) {
	n := int(batch.NumRows())
	outer := make([]arrow.Array, len(e.Outer))
	defer func() {
		for _, a := range outer {
			if a != nil {
				a.Release()
			}
		}
	}()
	for i, o := range e.Outer {
		a, err := o.Eval(ec, batch)
		if err != nil {
			return nil, err
		}
		outer[i] = a
	}
	var x arrow.Array
	if e.X != nil {
		var err error
		if x, err = e.X.Eval(ec, batch); err != nil {
			return nil, err
		}
		defer x.Release()
	}
	cache := map[string]*subqueryRows{}
	defer func() {
		for _, r := range cache {
			r.values.Release()
		}
	}()
	out := make([]any, n)
	for i := 0; i < n; i++ {
		vals := make([]any, len(outer))
		var key []byte
		for k, a := range outer {
			vals[k] = valueAt(a, i)
			key = fmt.Appendf(key, "%T:%v\x00", vals[k], vals[k])
		}
		r, ok := cache[string(key)]
		if !ok {
			sub := ec.outerRow(ec.Ctx, vals)
			var err error
			if r, err = e.run(sub); err != nil {
				return nil, err
			}
			cache[string(key)] = r
		}
		switch e.Mode {
		case ScalarMode:
			if r.values.Len() > 1 {
				return nil, sqlerr.New(sqlerr.CardinalityViolation, "more than one row returned by a subquery used as an expression")
			}
			if r.values.Len() == 1 {
				out[i] = valueAt(r.values, 0)
			}
		case ExistsMode:
			out[i] = r.values.Len() > 0
		case ArrayMode:
			out[i] = arrayOf(r.values)
		default:
			v, isNull, err := e.quantified(x, i, r.values)
			if err != nil {
				return nil, err
			}
			if !isNull {
				out[i] = v
			}
		}
	}
	return buildArray(ec, e.T, out), nil
}

// quantified computes x[i] op ANY|ALL (values) with SQL's NULL rules.
func (e *SubqueryExpr) quantified(x arrow.Array, i int, values arrow.Array) (val, isNull bool, err error) {
	m := values.Len()
	if m == 0 {
		return e.Mode == AllMode, false, nil
	}
	var li, lj int
	cmpAt, err := rowComparator(x, values, func(int) (int, int) { return li, lj })
	if err != nil {
		return false, false, err
	}
	sawNull := false
	for j := 0; j < m; j++ {
		if x.IsNull(i) || values.IsNull(j) {
			sawNull = true
			continue
		}
		li, lj = i, j
		res := cmpResult(e.Op, cmpAt(0))
		if e.Mode == AnyMode && res {
			return true, false, nil
		}
		if e.Mode == AllMode && !res {
			return false, false, nil
		}
	}
	if sawNull {
		return false, true, nil
	}
	return e.Mode == AllMode, false, nil
}

// OuterRefExpr reads slot Slot of the enclosing row (correlated subqueries).
type OuterRefExpr struct {
	Slot int
	Name string
	T    types.T
}

func (e *OuterRefExpr) Type() types.T  { return e.T }
func (e *OuterRefExpr) String() string { return "outer." + e.Name }
func (e *OuterRefExpr) Eval(ec *EvalContext, batch arrow.RecordBatch) (arrow.Array, error) {
	var v any
	if e.Slot < len(ec.Outer) {
		v = ec.Outer[e.Slot]
	}
	return constArray(ec.Mem, v, e.T, int(batch.NumRows())), nil
}

// arrayOf collects a subquery's first column as an array value.
func arrayOf(values arrow.Array) []any {
	out := make([]any, values.Len())
	for i := range out {
		out[i] = valueAt(values, i)
	}
	return out
}

// outerRow is the context a correlated plan runs in for one outer row
// vals: the statement's, with its backend request (the plan's nodes resolve
// it as the statement's do) but not the node's kernel log.
func (ec *EvalContext) outerRow(ctx context.Context, vals []any) *EvalContext {
	return &EvalContext{Ctx: ctx, Mem: ec.Mem, Params: ec.Params, Env: ec.Env, Outer: vals, Backend: ec.Backend, Families: ec.Families}
}
