package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/sqlgate/sqlgate/types"
)

// CaseWhen is one WHEN cond THEN result branch.
type CaseWhen struct {
	Cond, Result Expr
}

// CaseExpr is a searched CASE (a simple CASE is lowered to one). Branches
// are evaluated lazily, as PostgreSQL does: a THEN (or ELSE) expression runs
// only on the rows that reach it, so CASE WHEN x = 0 THEN 0 ELSE 1/x END
// never divides by zero.
type CaseExpr struct {
	Whens []CaseWhen
	Else  Expr // nil: NULL
	T     types.T
}

func (e *CaseExpr) Type() types.T { return e.T }
func (e *CaseExpr) String() string {
	s := "CASE"
	for _, w := range e.Whens {
		s += " WHEN " + w.Cond.String() + " THEN " + w.Result.String()
	}
	if e.Else != nil {
		s += " ELSE " + e.Else.String()
	}
	return s + " END"
}

func (e *CaseExpr) Eval(ec *EvalContext, batch arrow.RecordBatch) (arrow.Array, error) {
	ec.backendFor(FamConditional) // native; recorded for the report's check
	n := int(batch.NumRows())
	out := make([]any, n)
	pending := make([]int32, n) // rows not decided yet
	for i := range pending {
		pending[i] = int32(i)
	}
	for _, w := range e.Whens {
		if len(pending) == 0 {
			break
		}
		sub, err := takeRows(ec, batch, pending)
		if err != nil {
			return nil, err
		}
		cond, err := w.Cond.Eval(ec, sub)
		if err != nil {
			sub.Release()
			return nil, err
		}
		c := cond.(*array.Boolean)
		var hit, rest []int32
		var hitLocal []int32
		for i, row := range pending {
			if c.IsValid(i) && c.Value(i) {
				hit = append(hit, row)
				hitLocal = append(hitLocal, int32(i))
			} else {
				rest = append(rest, row)
			}
		}
		cond.Release()
		if len(hit) > 0 {
			if err := scatter(ec, sub, hitLocal, hit, w.Result, out); err != nil {
				sub.Release()
				return nil, err
			}
		}
		sub.Release()
		pending = rest
	}
	if e.Else != nil && len(pending) > 0 {
		if err := evalRows(ec, batch, pending, e.Else, out); err != nil {
			return nil, err
		}
	}
	return buildArray(ec, e.T, out), nil
}

// evalRows evaluates e on the rows of batch at the given indexes only and
// stores each value at out[row].
func evalRows(ec *EvalContext, batch arrow.RecordBatch, rows []int32, e Expr, out []any) error {
	sub, err := takeRows(ec, batch, rows)
	if err != nil {
		return err
	}
	defer sub.Release()
	local := make([]int32, len(rows))
	for i := range local {
		local[i] = int32(i)
	}
	return scatter(ec, sub, local, rows, e, out)
}

// CoalesceExpr returns its first non-NULL argument, evaluating each next
// argument only on the rows still NULL.
type CoalesceExpr struct {
	Args []Expr
	T    types.T
}

func (e *CoalesceExpr) Type() types.T { return e.T }
func (e *CoalesceExpr) String() string {
	s := "COALESCE("
	for i, a := range e.Args {
		if i > 0 {
			s += ", "
		}
		s += a.String()
	}
	return s + ")"
}

func (e *CoalesceExpr) Eval(ec *EvalContext, batch arrow.RecordBatch) (arrow.Array, error) {
	ec.backendFor(FamConditional) // native; recorded for the report's check
	n := int(batch.NumRows())
	out := make([]any, n)
	pending := make([]int32, n)
	for i := range pending {
		pending[i] = int32(i)
	}
	for _, a := range e.Args {
		if len(pending) == 0 {
			break
		}
		sub, err := takeRows(ec, batch, pending)
		if err != nil {
			return nil, err
		}
		v, err := a.Eval(ec, sub)
		sub.Release()
		if err != nil {
			return nil, err
		}
		var rest []int32
		for i, row := range pending {
			if v.IsNull(i) {
				rest = append(rest, row)
				continue
			}
			out[row] = valueAt(v, i)
		}
		v.Release()
		pending = rest
	}
	return buildArray(ec, e.T, out), nil
}

// takeColumn is col's rows at the indexes idx (rows, as ints): arrow's
// take kernel, which has none for the 16-byte interval ("invalid values
// byte width"): an interval is gathered as filter.go gathers it, and an
// array or record holding intervals value by value.
func takeColumn(ec *EvalContext, col arrow.Array, idx arrow.Array, rows []int32) (arrow.Array, error) {
	if iv, ok := col.(*array.MonthDayNanoInterval); ok {
		validity, nulls := gatherValidity(ec.Mem, col, rows)
		if validity != nil {
			defer validity.Release()
		}
		return gatherFixed(ec.Mem, col.DataType(), iv.MonthDayNanoIntervalValues(), rows, validity, nulls), nil
	}
	if HoldsInterval(col.DataType()) {
		return gatherValues(ec.Mem, col, rows)
	}
	return compute.TakeArray(ec.Ctx, col, idx)
}

// inOrder reports whether rows are 0, 1, 2, ...: all of a batch's rows
// in order when there are as many as the batch holds (a permutation, as
// ON CONFLICT DO UPDATE's merge takes, is not).
func inOrder(rows []int32) bool {
	for i, r := range rows {
		if r != int32(i) {
			return false
		}
	}
	return true
}

// takeRows returns the rows of batch at the given indexes (batch itself,
// retained, when they are all of its rows in order).
func takeRows(ec *EvalContext, batch arrow.RecordBatch, rows []int32) (arrow.RecordBatch, error) {
	if len(rows) == int(batch.NumRows()) && inOrder(rows) {
		batch.Retain()
		return batch, nil
	}
	ib := array.NewInt32Builder(ec.Mem)
	ib.AppendValues(rows, nil)
	idx := ib.NewArray()
	ib.Release()
	defer idx.Release()
	cols := make([]arrow.Array, batch.NumCols())
	for i := range cols {
		c, err := takeColumn(ec, batch.Column(i), idx, rows)
		if err != nil {
			for _, done := range cols[:i] {
				done.Release()
			}
			return nil, err
		}
		cols[i] = c
	}
	out := array.NewRecordBatch(batch.Schema(), cols, int64(len(rows)))
	for _, c := range cols {
		c.Release()
	}
	return out, nil
}

// scatter evaluates e on sub and stores the values of sub's rows local[i]
// at out[global[i]].
func scatter(ec *EvalContext, sub arrow.RecordBatch, local, global []int32, e Expr, out []any) error {
	var target arrow.RecordBatch = sub
	if len(local) != int(sub.NumRows()) {
		t, err := takeRows(ec, sub, local)
		if err != nil {
			return err
		}
		defer t.Release()
		target = t
		for i := range local {
			local[i] = int32(i)
		}
	}
	v, err := e.Eval(ec, target)
	if err != nil {
		return err
	}
	defer v.Release()
	for i, g := range global {
		out[g] = valueAt(v, int(local[i]))
	}
	return nil
}

func buildArray(ec *EvalContext, t types.T, vals []any) arrow.Array {
	b := array.NewBuilder(ec.Mem, t.ArrowType())
	defer b.Release()
	b.Reserve(len(vals))
	for _, v := range vals {
		appendValue(b, v)
	}
	return b.NewArray()
}
