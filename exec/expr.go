package exec

import (
	"context"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/types"
)

// EvalContext is what expressions need while they run: the allocator and
// the statement's parameter values (physical values of their types).
type EvalContext struct {
	Ctx    context.Context
	Mem    memory.Allocator
	Params []any
	// Env is the planner's per-execution runtime, for subquery plans
	// (see SubqueryExpr.Open).
	Env any
	// Outer holds the enclosing row's values inside a correlated subquery.
	Outer []any
	// Backend is the kernel backend the statement requested (the
	// sqlgate.backend setting or a backend hint); SelectBackend resolves it
	// per kernel family. The zero value is auto. Families overrides it
	// for some families (a backend hint's family entries; read only).
	Backend  Backend
	Families map[Family]Backend
	// Kernels, when set, records the kernel families evaluated and the
	// backend each ran on (EXPLAIN ANALYZE: one log per plan node).
	Kernels *KernelLog
	// subqueries caches each uncorrelated subquery's rows for this execution.
	subqueries map[*SubqueryExpr]*subqueryRows
}

// Location is the session's TimeZone (functions.LocationOf of Ctx): what
// timestamptz casts and output use. UTC without a session in Ctx.
func (ec *EvalContext) Location() *time.Location {
	if ec == nil {
		return time.UTC
	}
	return functions.LocationOf(ec.Ctx)
}

// Style is the session's DateStyle, IntervalStyle and extra_float_digits
// (functions.StyleOf), which values print under beside its Location:
// PostgreSQL's defaults without a session in Ctx.
func (ec *EvalContext) Style() types.Style {
	if ec == nil {
		return types.Style{}
	}
	return functions.StyleOf(ec.Ctx)
}

// Expr is a node of the lowerable expression tier. Eval returns an array of
// batch's length; the caller releases it.
type Expr interface {
	Type() types.T
	Eval(ec *EvalContext, batch arrow.RecordBatch) (arrow.Array, error)
	String() string
}

// ColExpr reads a column of the input batch (no copy).
type ColExpr struct {
	Index int
	Name  string
	T     types.T
}

func (e *ColExpr) Type() types.T  { return e.T }
func (e *ColExpr) String() string { return e.Name }
func (e *ColExpr) Eval(_ *EvalContext, batch arrow.RecordBatch) (arrow.Array, error) {
	c := batch.Column(e.Index)
	c.Retain()
	return c, nil
}

// ConstExpr is a constant, broadcast to the batch length.
type ConstExpr struct {
	Value any
	T     types.T
}

func (e *ConstExpr) Type() types.T { return e.T }
func (e *ConstExpr) String() string {
	if e.Value == nil {
		return "NULL"
	}
	return fmt.Sprint(e.Value)
}
func (e *ConstExpr) Eval(ec *EvalContext, batch arrow.RecordBatch) (arrow.Array, error) {
	return constArray(ec.Mem, e.Value, e.T, int(batch.NumRows())), nil
}

// ParamExpr reads a statement parameter, broadcast to the batch length.
type ParamExpr struct {
	Index int
	T     types.T
}

func (e *ParamExpr) Type() types.T  { return e.T }
func (e *ParamExpr) String() string { return fmt.Sprintf("$%d", e.Index+1) }
func (e *ParamExpr) Eval(ec *EvalContext, batch arrow.RecordBatch) (arrow.Array, error) {
	var v any
	if e.Index < len(ec.Params) {
		v = ec.Params[e.Index]
	}
	return constArray(ec.Mem, v, e.T, int(batch.NumRows())), nil
}

// scalarValue returns the value of a constant or parameter expression.
func scalarValue(ec *EvalContext, e Expr) (any, bool) {
	switch x := e.(type) {
	case *ConstExpr:
		return x.Value, true
	case *ParamExpr:
		if x.Index < len(ec.Params) {
			return ec.Params[x.Index], true
		}
		return nil, true
	}
	return nil, false
}

// EvalScalar evaluates an expression that reads no column (LIMIT counts,
// VALUES rows) to one value.
func EvalScalar(ec *EvalContext, e Expr) (any, error) {
	if v, ok := scalarValue(ec, e); ok {
		return v, nil
	}
	one := array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, 1)
	defer one.Release()
	arr, err := e.Eval(ec, one)
	if err != nil {
		return nil, err
	}
	defer arr.Release()
	return valueAt(arr, 0), nil
}

// evalBoth evaluates two operands.
func evalBoth(ec *EvalContext, batch arrow.RecordBatch, l, r Expr) (arrow.Array, arrow.Array, error) {
	la, err := l.Eval(ec, batch)
	if err != nil {
		return nil, nil, err
	}
	ra, err := r.Eval(ec, batch)
	if err != nil {
		la.Release()
		return nil, nil, err
	}
	return la, ra, nil
}
