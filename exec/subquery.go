package exec

import (
	"context"

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
)

// SubqueryExpr evaluates an uncorrelated subquery once per execution (the
// rows are cached in the EvalContext) and then, per row, a scalar value,
// EXISTS, or a quantified comparison x op ANY/ALL with SQL's NULL rules.
type SubqueryExpr struct {
	// Open instantiates the subquery's plan for this execution.
	Open func(ec *EvalContext) (Operator, error)
	Mode SubqueryMode
	X    Expr  // AnyMode / AllMode
	Op   CmpOp // AnyMode / AllMode
	T    types.T
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
	ctx := ec.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	op, err := e.Open(ec)
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
	if ec.subqueries == nil {
		ec.subqueries = map[*SubqueryExpr]*subqueryRows{}
	}
	ec.subqueries[e] = r
	return r, nil
}

func (e *SubqueryExpr) Eval(ec *EvalContext, batch arrow.RecordBatch) (arrow.Array, error) {
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
	}
	x, err := e.X.Eval(ec, batch)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	m := r.values.Len()
	out := newBoolBuilder(ec.Mem, n, true)
	var li, lj int
	cmpAt, err := rowComparator(x, r.values, func(int) (int, int) { return li, lj })
	if err != nil && m > 0 {
		return nil, err
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
