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
	// RowCompareMode: (x1, ..., xn) op (SELECT y1, ..., yn): X compared
	// row-wise with the subquery's one row (NULL over no rows, 21000 over
	// several).
	RowCompareMode
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
	X     Expr  // AnyMode / AllMode / RowCompareMode
	Op    CmpOp // AnyMode / AllMode / RowCompareMode
	// RowWise: X is a ROW constructor and the subquery's column its
	// fields' row, compared as PostgreSQL compares row constructors
	// (rowPairs), not as records.
	RowWise bool
	T       types.T
}

func (e *SubqueryExpr) Type() types.T  { return e.T }
func (e *SubqueryExpr) String() string { return "(subquery)" }

// subqueryRows is a subquery's cached result: its first column, and for an
// IN or NOT IN (of one value or row-wise) its rows in order (rowindex.go),
// made when first needed.
type subqueryRows struct {
	values arrow.Array
	index  *rowIndex
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
	if v, decided, err := e.overNoRow(r.values); decided || err != nil {
		// PostgreSQL does not compute X then (an error X would raise is
		// not the statement's).
		return constArray(ec.Mem, v, types.BoolType, n), err
	}
	x, err := e.X.Eval(ec, batch)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	pair, err := comparePairs(e.Op, x, r.values, e.RowWise)
	if err != nil {
		return nil, err
	}
	fold := func(i int) (bool, bool) { return e.fold(pair, i, r.values.Len()) }
	if e.rowMembership() {
		if fold, err = e.membershipFold(r, x, pair); err != nil {
			return nil, err
		}
	}
	out := newBoolBuilder(ec.Mem, n, true)
	for i := 0; i < n; i++ {
		if v, isNull := fold(i); isNull {
			out.setNull(i)
		} else {
			out.set(i, v)
		}
	}
	return out.finish(), nil
}

// membershipFold is fold for x IN | NOT IN the subquery's rows r, of one
// value or row-wise, through their index (rowindex.go), made when first
// needed: a binary search per row of x instead of a comparison with each
// of r's rows.
func (e *SubqueryExpr) membershipFold(r *subqueryRows, x arrow.Array, pair func(i, j int) (bool, bool)) (func(int) (bool, bool), error) {
	m := r.values.Len()
	if r.index == nil {
		ix, err := newRowIndex(membershipFields(r.values, e.RowWise), m)
		if err != nil {
			return nil, err
		}
		r.index = ix
	}
	return e.foldIndexed(r.index, membershipFields(x, e.RowWise), m, pair)
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

// quantified computes x[i] op ANY|ALL (values) with SQL's NULL rules, or
// in RowCompareMode x[i] op (the one row of values).
func (e *SubqueryExpr) quantified(x arrow.Array, i int, values arrow.Array) (val, isNull bool, err error) {
	if v, decided, err := e.overNoRow(values); decided || err != nil {
		if v == nil {
			return false, true, err
		}
		return v.(bool), false, err
	}
	pair, err := comparePairs(e.Op, x, values, e.RowWise)
	if err != nil {
		return false, false, err
	}
	val, isNull = e.fold(pair, i, values.Len())
	return val, isNull, nil
}

// overNoRow is the value of a quantified or row comparison that its
// subquery's rows decide without X: over no rows ANY is false, ALL true
// and a row comparison NULL (the subquery's row is NULLs); a row
// comparison over several rows is 21000.
func (e *SubqueryExpr) overNoRow(values arrow.Array) (v any, decided bool, err error) {
	m := values.Len()
	switch {
	case e.Mode == RowCompareMode && m > 1:
		return nil, true, sqlerr.New(sqlerr.CardinalityViolation, "more than one row returned by a subquery used as an expression")
	case e.Mode == RowCompareMode && m == 0:
		return nil, true, nil
	case m == 0:
		return e.Mode == AllMode, true, nil
	}
	return nil, false, nil
}

// fold combines x[i]'s comparisons with the m rows: ANY is true if one is,
// else NULL if one is NULL, else false; ALL is false if one is, else NULL
// if one is NULL, else true; a row comparison is its one row's.
func (e *SubqueryExpr) fold(pair func(i, j int) (res, null bool), i, m int) (val, isNull bool) {
	if e.Mode == RowCompareMode {
		return pair(i, 0)
	}
	sawNull := false
	for j := 0; j < m; j++ {
		res, null := pair(i, j)
		switch {
		case null:
			sawNull = true
		case e.Mode == AnyMode && res:
			return true, false
		case e.Mode == AllMode && !res:
			return false, false
		}
	}
	if sawNull {
		return false, true
	}
	return e.Mode == AllMode, false
}

// comparePairs returns x[i] op y[j] with SQL's NULL rules: a NULL side
// makes it NULL, or, rowWise, PostgreSQL's row constructor comparison of
// the two structs' fields (its make_row_comparison_op): = is false when a
// pair of fields differs, else NULL when a pair has a NULL, else true; <>
// the reverse; < <= > >= decided by the first pair that is unequal, NULL
// when a pair before it has a NULL.
func comparePairs(op CmpOp, x, y arrow.Array, rowWise bool) (func(i, j int) (res, null bool), error) {
	var li, lj int
	idx := func(int) (int, int) { return li, lj }
	if !rowWise {
		cmpAt, err := rowComparator(x, y, idx)
		if err != nil {
			return nil, err
		}
		return func(i, j int) (bool, bool) {
			if x.IsNull(i) || y.IsNull(j) {
				return false, true
			}
			li, lj = i, j
			return cmpResult(op, cmpAt(0)), false
		}, nil
	}
	xs, ys := x.(*array.Struct), y.(*array.Struct)
	n := xs.NumField()
	fields, err := fieldComparators(membershipFields(xs, true), membershipFields(ys, true), idx) // rowindex.go
	if err != nil {
		return nil, err
	}
	return func(i, j int) (bool, bool) {
		li, lj = i, j
		sawNull := false
		for k := 0; k < n; k++ {
			if xs.Field(k).IsNull(i) || ys.Field(k).IsNull(j) {
				if op != Eq && op != Ne {
					return false, true
				}
				sawNull = true
				continue
			}
			c := fields[k](0)
			switch {
			case c == 0:
			case op == Eq:
				return false, false
			case op == Ne:
				return true, false
			default:
				return cmpResult(op, c), false
			}
		}
		if sawNull {
			return false, true
		}
		return cmpResult(op, 0), false
	}, nil
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
