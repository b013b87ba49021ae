package exec

import (
	"context"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/scalar"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// The arrow backend: the families arrow-go compute serves with results
// identical to the native kernels (ArrowServes), called through its
// function registry. Its errors are mapped onto the SQLSTATEs and texts the
// native kernels raise, which the cross-backend test checks.

func (ec *EvalContext) arrowCtx() context.Context {
	ctx := ec.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	return compute.WithAllocator(ctx, ec.Mem)
}

// nullScalarOperand reports whether e is a NULL constant or parameter:
// arrow-go v18.8's comparison kernels panic (in a goroutine, beyond
// recover) on a NULL scalar, so the callers answer all-NULL themselves, as
// every kernel of these families would.
func nullScalarOperand(ec *EvalContext, es ...Expr) bool {
	for _, e := range es {
		if v, ok := scalarValue(ec, e); ok && v == nil {
			return true
		}
	}
	return false
}

// arrowDatum wraps an operand: a constant operand as a scalar (arrow-go
// broadcasts it), anything else as the array already evaluated.
func arrowDatum(ec *EvalContext, e Expr, a arrow.Array) (compute.Datum, error) {
	if _, ok := scalarValue(ec, e); ok && a.Len() > 0 {
		s, err := scalar.GetScalar(a, 0)
		if err != nil {
			return nil, err
		}
		return compute.NewDatum(s), nil
	}
	return compute.NewDatum(a), nil
}

// arrowCall runs a registry function and returns its array result.
// arrow-go's package is experimental: a panic inside a kernel becomes an
// internal error rather than taking the server down.
// An empty batch is answered without arrow-go, whose v18.8 kernels index
// the missing buffers of empty arrays (and panic in a goroutine no recover
// reaches).
func arrowCall(ec *EvalContext, name string, opts compute.FunctionOptions, n int, t types.T, args ...compute.Datum) (out arrow.Array, err error) {
	if n == 0 {
		for _, a := range args {
			a.Release()
		}
		return constArray(ec.Mem, nil, t, 0), nil
	}
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, sqlerr.New(sqlerr.InternalError, "arrow-go %s failed: %v", name, p)
		}
	}()
	res, err := compute.CallFunction(ec.arrowCtx(), name, opts, args...)
	for _, a := range args {
		a.Release()
	}
	if err != nil {
		return nil, err
	}
	defer res.Release()
	switch d := res.(type) {
	case *compute.ArrayDatum:
		return d.MakeArray(), nil
	case *compute.ScalarDatum:
		// every operand was a scalar: broadcast like the native kernels
		return scalar.MakeArrayFromScalar(d.Value, n, ec.Mem)
	}
	return nil, sqlerr.New(sqlerr.InternalError, "arrow-go %s returned a %s", name, res.Kind())
}

var arrowArithNames = [...]string{Add: "add", Sub: "subtract", Mul: "multiply"}

// arrowIntArith is checked integer + - * through arrow-go's (checked by
// default) arithmetic kernels.
func arrowIntArith(ec *EvalContext, e *ArithExpr, la, ra arrow.Array) (arrow.Array, error) {
	if nullScalarOperand(ec, e.L, e.R) {
		return constArray(ec.Mem, nil, e.T, la.Len()), nil
	}
	l, err := arrowDatum(ec, e.L, la)
	if err != nil {
		return nil, err
	}
	r, err := arrowDatum(ec, e.R, ra)
	if err != nil {
		l.Release()
		return nil, err
	}
	out, err := arrowCall(ec, arrowArithNames[e.Op], &compute.ArithmeticOptions{}, la.Len(), e.T, l, r)
	if err != nil {
		if strings.Contains(err.Error(), "overflow") {
			return nil, types.IntOutOfRange(e.T)
		}
		return nil, err
	}
	return out, nil
}

var arrowCmpNames = [...]string{Eq: "equal", Ne: "not_equal", Lt: "less", Le: "less_equal", Gt: "greater", Ge: "greater_equal"}

func arrowCompare(ec *EvalContext, e *CmpExpr, la, ra arrow.Array) (arrow.Array, error) {
	if nullScalarOperand(ec, e.L, e.R) {
		return constArray(ec.Mem, nil, types.BoolType, la.Len()), nil
	}
	l, err := arrowDatum(ec, e.L, la)
	if err != nil {
		return nil, err
	}
	r, err := arrowDatum(ec, e.R, ra)
	if err != nil {
		l.Release()
		return nil, err
	}
	return arrowCall(ec, arrowCmpNames[e.Op], nil, la.Len(), types.BoolType, l, r)
}

func arrowLogic(ec *EvalContext, and bool, la, ra arrow.Array) (arrow.Array, error) {
	name := "or_kleene"
	if and {
		name = "and_kleene"
	}
	return arrowCall(ec, name, nil, la.Len(), types.BoolType, compute.NewDatum(la), compute.NewDatum(ra))
}

// arrowNot is x XOR true: arrow-go v18.8's "not" misplaces the validity
// of a sliced input (offset not 0).
func arrowNot(ec *EvalContext, xa arrow.Array) (arrow.Array, error) {
	return arrowCall(ec, "xor", nil, xa.Len(), types.BoolType, compute.NewDatum(xa), compute.NewDatum(scalar.NewBooleanScalar(true)))
}

// arrowIsNull is is_null, negated for IS NOT NULL: arrow-go v18.8's
// is_not_null panics on decimal input (its dispatch casts decimal
// arguments as a comparison would).
func arrowIsNull(ec *EvalContext, not bool, xa arrow.Array) (arrow.Array, error) {
	isNull, err := arrowCall(ec, "is_null", &compute.NullOptions{}, xa.Len(), types.BoolType, compute.NewDatum(xa))
	if err != nil || !not {
		return isNull, err
	}
	defer isNull.Release()
	return arrowNot(ec, isNull)
}

// arrowIntCast is a safe cast between integer types; out of range is 22003
// as PostgreSQL words it.
func arrowIntCast(ec *EvalContext, xa arrow.Array, to types.T) (out arrow.Array, err error) {
	if xa.Len() == 0 {
		// arrow-go v18.8's cast panics on an empty array
		return constArray(ec.Mem, nil, to, 0), nil
	}
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, sqlerr.New(sqlerr.InternalError, "arrow-go cast failed: %v", p)
		}
	}()
	out, err = compute.CastArray(ec.arrowCtx(), xa, compute.SafeCastOptions(to.ArrowType()))
	if err != nil {
		if strings.Contains(err.Error(), "not in range") || strings.Contains(err.Error(), "overflow") {
			return nil, types.IntOutOfRange(to)
		}
		return nil, err
	}
	return out, nil
}

// arrowIntFloatCast is a cast from an integer type to real or double:
// arrow-go's unsafe cast converts each value as Go does, rounding to the
// nearest representable value as PostgreSQL's C casts (i4tof, i8tod...)
// do; its safe cast would refuse an int64 beyond 2^53, which PostgreSQL
// rounds.
func arrowIntFloatCast(ec *EvalContext, xa arrow.Array, to types.T) (out arrow.Array, err error) {
	if xa.Len() == 0 {
		return constArray(ec.Mem, nil, to, 0), nil // v18.8's cast panics on an empty array
	}
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, sqlerr.New(sqlerr.InternalError, "arrow-go cast failed: %v", p)
		}
	}()
	return compute.CastArray(ec.arrowCtx(), xa, compute.UnsafeCastOptions(to.ArrowType()))
}

// arrowFilter drops the rows whose mask entry is false or NULL.
func arrowFilter(ctx context.Context, ec *EvalContext, b arrow.RecordBatch, mask arrow.Array) (arrow.RecordBatch, error) {
	if ec != nil && ec.Mem != nil {
		ctx = compute.WithAllocator(ctx, ec.Mem)
	}
	return compute.FilterRecordBatch(ctx, b, mask, compute.DefaultFilterOptions())
}
