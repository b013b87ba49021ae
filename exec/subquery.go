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
	// Hashed says PostgreSQL hashes an uncorrelated x op ANY | ALL: = ANY
	// (IN, and NOT IN, its negation) of types with hash support, whose
	// hashed SubPlan reads all of the subquery's rows when a row first
	// needs them. Any other uncorrelated ANY | ALL reads them only as far
	// as its rows' comparisons need (subplanscan.go).
	Hashed bool
	T      types.T
}

func (e *SubqueryExpr) Type() types.T  { return e.T }
func (e *SubqueryExpr) String() string { return "(subquery)" }

// subqueryRows is a subquery's cached result: its first column, and for an
// IN or NOT IN (of one value or row-wise) its rows in order (rowindex.go),
// made when first needed.
type subqueryRows struct {
	values arrow.Array
	index  *rowIndex
	// complete says the plan was read to its end (run stopped nowhere
	// early), so the rows are all of them: another outer row with the same
	// correlation values may fold over them.
	complete bool
}

func (e *SubqueryExpr) rows(ec *EvalContext) (*subqueryRows, error) {
	if r, ok := ec.subqueries[e]; ok {
		return r, nil
	}
	r, err := e.run(ec, nil)
	if err != nil {
		return nil, err
	}
	if ec.subqueries == nil {
		ec.subqueries = map[*SubqueryExpr]*subqueryRows{}
	}
	ec.subqueries[e] = r
	return r, nil
}

// run executes the subquery's plan once and collects its first column,
// reading no further than PostgreSQL's subplan does (ExecScanSubPlan,
// ExecSetParamPlan): EXISTS stops at its first row; a scalar or row
// comparison subquery at its second, whose 21000 is the statement's
// whatever the rows after it hold; a quantified comparison when decided,
// if set, says the rows of its last batch settle it (a correlated x op
// ANY | ALL stops at its first true | false comparison). The batches a
// filter or projection below returns end before a failing row
// (roworder.go), so a stop is at that row's place.
func (e *SubqueryExpr) run(ec *EvalContext, decided func(part arrow.Array) (bool, error)) (*subqueryRows, error) {
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
	complete, read := false, 0
	for !complete {
		b, err := op.Next(ctx)
		if err != nil {
			return nil, err
		}
		if b == nil {
			complete = true
			break
		}
		c := firstColumn(b)
		parts = append(parts, c)
		read += c.Len()
		stop, err := e.readEnough(read, c, decided)
		if err != nil {
			return nil, err
		}
		if stop {
			break
		}
	}
	r := &subqueryRows{complete: complete}
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

// firstColumn is a subquery's batch b's first column (b's rows of no
// column, as a rows-only plan gives them, as NULLs), b released.
func firstColumn(b arrow.RecordBatch) arrow.Array {
	defer b.Release()
	if b.NumCols() == 0 {
		return array.NewNull(int(b.NumRows()))
	}
	c := b.Column(0)
	c.Retain()
	return c
}

// readEnough reports whether the read rows (read of them, part the last
// batch's) settle the subquery's value, as run says.
func (e *SubqueryExpr) readEnough(read int, part arrow.Array, decided func(arrow.Array) (bool, error)) (bool, error) {
	switch {
	case read == 0:
		return false, nil
	case e.Mode == ExistsMode:
		return true, nil // one row settles EXISTS
	case e.Mode == ScalarMode || e.Mode == RowCompareMode:
		return read > 1, nil // a second row is 21000
	case decided != nil && part.Len() > 0:
		return decided(part)
	}
	return false, nil
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
	if (e.Mode == AnyMode || e.Mode == AllMode) && !e.Hashed {
		return e.evalScanned(ec, batch) // subplanscan.go
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

// evalCorrelated runs the subquery for each outer row of batch (a
// nested-loop apply; a row whose correlation values an earlier row read to
// the end reuses its rows) and combines each row's result as Eval does. X
// is computed for a row only when its subquery has a row, as PostgreSQL's
// testexpr is per inner row (lazyX).
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
	x := &lazyX{e: e.X, ec: ec, batch: batch}
	defer x.release()
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
			var decided func(arrow.Array) (bool, error)
			if e.Mode == AnyMode || e.Mode == AllMode {
				decided = func(part arrow.Array) (bool, error) { return e.decides(x, i, part) }
			}
			var err error
			if r, err = e.run(ec.outerRow(ec.Ctx, vals), decided); err != nil {
				return nil, err
			}
			if r.complete {
				cache[string(key)] = r
			}
		}
		v, err := e.correlatedValue(x, i, r)
		if !r.complete {
			r.values.Release()
		}
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return buildArray(ec, e.T, out), nil
}

// correlatedValue is outer row i's value over its subquery's rows r.
func (e *SubqueryExpr) correlatedValue(x *lazyX, i int, r *subqueryRows) (any, error) {
	switch e.Mode {
	case ScalarMode:
		if r.values.Len() > 1 {
			return nil, sqlerr.New(sqlerr.CardinalityViolation, "more than one row returned by a subquery used as an expression")
		}
		if r.values.Len() == 1 {
			return valueAt(r.values, 0), nil
		}
		return nil, nil
	case ExistsMode:
		return r.values.Len() > 0, nil
	case ArrayMode:
		return arrayOf(r.values), nil
	}
	if v, decided, err := e.overNoRow(r.values); decided || err != nil {
		return v, err // X is not computed
	}
	xa, xi, err := x.at(i)
	if err != nil {
		return nil, err
	}
	pair, err := comparePairs(e.Op, xa, r.values, e.RowWise)
	if err != nil {
		return nil, err
	}
	if v, isNull := e.fold(pair, xi, r.values.Len()); !isNull {
		return v, nil
	}
	return nil, nil
}

// decides reports whether part, rows of outer row i's subquery, settles
// x op ANY (a comparison is true) or x op ALL (one is false).
func (e *SubqueryExpr) decides(x *lazyX, i int, part arrow.Array) (bool, error) {
	xa, xi, err := x.at(i)
	if err != nil {
		return false, err
	}
	pair, err := comparePairs(e.Op, xa, part, e.RowWise)
	if err != nil {
		return false, err
	}
	for j := 0; j < part.Len(); j++ {
		if res, null := pair(xi, j); !null && res == (e.Mode == AnyMode) {
			return true, nil
		}
	}
	return false, nil
}

// lazyX is a correlated comparison's X over a batch, computed when a row
// first needs it: over the whole batch, or, when that fails on a row's
// value, row by row, so that a row whose subquery has no row (X is never
// computed) or that comes before the failing one is not failed by it.
type lazyX struct {
	e     Expr
	ec    *EvalContext
	batch arrow.RecordBatch
	all   arrow.Array // X over the batch, once computed
	bad   bool        // X over the batch failed on a row: computed per row
	one   arrow.Array // X over row oneAt alone
	oneAt int
}

// at returns X's array holding row i's value and that value's index in it.
func (l *lazyX) at(i int) (arrow.Array, int, error) {
	if l.all != nil {
		return l.all, i, nil
	}
	if !l.bad {
		a, err := l.e.Eval(l.ec, l.batch)
		if err == nil {
			l.all = a
			return a, i, nil
		}
		if l.batch.NumRows() < 2 || !rowLocal(err) {
			return nil, 0, err
		}
		l.bad = true
	}
	if l.one != nil && l.oneAt == i {
		return l.one, 0, nil
	}
	if l.one != nil {
		l.one.Release()
		l.one = nil
	}
	s := l.batch.NewSlice(int64(i), int64(i+1))
	defer s.Release()
	a, err := l.e.Eval(l.ec, s)
	if err != nil {
		return nil, 0, err
	}
	l.one, l.oneAt = a, i
	return a, 0, nil
}

func (l *lazyX) release() {
	for _, a := range []arrow.Array{l.all, l.one} {
		if a != nil {
			a.Release()
		}
	}
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
