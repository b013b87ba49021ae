package exec

import (
	"bytes"
	"cmp"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// CmpOp is a comparison.
type CmpOp uint8

// The comparisons. NotDistinct/Distinct never return NULL.
const (
	Eq CmpOp = iota
	Ne
	Lt
	Le
	Gt
	Ge
	NotDistinct
	Distinct
)

var cmpNames = [...]string{"=", "<>", "<", "<=", ">", ">=", "IS NOT DISTINCT FROM", "IS DISTINCT FROM"}

// CmpExpr compares two operands of the same type.
type CmpExpr struct {
	Op   CmpOp
	L, R Expr
}

func (e *CmpExpr) Type() types.T { return types.BoolType }
func (e *CmpExpr) String() string {
	return "(" + e.L.String() + " " + cmpNames[e.Op] + " " + e.R.String() + ")"
}

func (e *CmpExpr) Eval(ec *EvalContext, batch arrow.RecordBatch) (arrow.Array, error) {
	if ec.backendFor(cmpFamily(e.Op, e.L.Type())) == BackendNative {
		if out, ok, err := e.evalIntCmp(ec, batch); ok {
			return out, err
		}
		if out, ok, err := e.evalStringCmp(ec, batch); ok {
			return out, err
		}
	}
	la, ra, err := evalBoth(ec, batch, e.L, e.R)
	if err != nil {
		return nil, err
	}
	defer la.Release()
	defer ra.Release()
	if ec.backendFor(cmpFamily(e.Op, e.L.Type())) == BackendArrow {
		return arrowCompare(ec, e, la, ra)
	}
	n := la.Len()
	c, err := comparator(la, ra)
	if err != nil {
		return nil, err
	}
	distinctOp := e.Op == NotDistinct || e.Op == Distinct
	hasNulls := la.NullN() > 0 || ra.NullN() > 0
	out := newBoolBuilder(ec.Mem, n, hasNulls && !distinctOp)
	for i := 0; i < n; i++ {
		if hasNulls {
			ln, rn := la.IsNull(i), ra.IsNull(i)
			if ln || rn {
				if distinctOp {
					same := ln && rn
					out.set(i, same == (e.Op == NotDistinct))
				} else {
					out.setNull(i)
				}
				continue
			}
		}
		r := c(i)
		var v bool
		switch e.Op {
		case Eq, NotDistinct:
			v = r == 0
		case Ne, Distinct:
			v = r != 0
		case Lt:
			v = r < 0
		case Le:
			v = r <= 0
		case Gt:
			v = r > 0
		case Ge:
			v = r >= 0
		}
		out.set(i, v)
	}
	return out.finish(), nil
}

// comparator returns a function comparing row i of a with row i of b.
func comparator(a, b arrow.Array) (func(i int) int, error) {
	return rowComparator(a, b, func(i int) (int, int) { return i, i })
}

// rowComparator compares row li of a with row ri of b for the index pair
// that idx returns; shared by comparisons and sorting.
func rowComparator(a, b arrow.Array, idx func(int) (int, int)) (func(i int) int, error) {
	switch x := a.(type) {
	case *array.Boolean:
		y := b.(*array.Boolean)
		return func(i int) int { l, r := idx(i); return cmpBool(x.Value(l), y.Value(r)) }, nil
	case *array.Int8:
		y := b.(*array.Int8)
		return func(i int) int { l, r := idx(i); return cmp.Compare(x.Value(l), y.Value(r)) }, nil
	case *array.Int16:
		y := b.(*array.Int16)
		return func(i int) int { l, r := idx(i); return cmp.Compare(x.Value(l), y.Value(r)) }, nil
	case *array.Int32:
		y := b.(*array.Int32)
		return func(i int) int { l, r := idx(i); return cmp.Compare(x.Value(l), y.Value(r)) }, nil
	case *array.Int64:
		y := b.(*array.Int64)
		return func(i int) int { l, r := idx(i); return cmp.Compare(x.Value(l), y.Value(r)) }, nil
	case *array.Uint32:
		y := b.(*array.Uint32)
		return func(i int) int { l, r := idx(i); return cmp.Compare(x.Value(l), y.Value(r)) }, nil
	case *array.Float32:
		y := b.(*array.Float32)
		return func(i int) int { l, r := idx(i); return types.CompareFloat64(float64(x.Value(l)), float64(y.Value(r))) }, nil
	case *array.Float64:
		y := b.(*array.Float64)
		return func(i int) int { l, r := idx(i); return types.CompareFloat64(x.Value(l), y.Value(r)) }, nil
	case *array.Decimal128:
		y := b.(*array.Decimal128)
		sx := x.DataType().(*arrow.Decimal128Type).Scale
		sy := y.DataType().(*arrow.Decimal128Type).Scale
		return func(i int) int {
			l, r := idx(i)
			return cmpDecimal(x.Value(l), int(sx), y.Value(r), int(sy))
		}, nil
	case *types.NumericArray:
		y, err := types.NewNumericReader(b)
		if err != nil {
			return nil, err
		}
		var dl, dr apd.Decimal
		return func(i int) int {
			l, r := idx(i)
			x.ValueInto(l, &dl)
			return numeric.Cmp(&dl, y(r, &dr))
		}, nil
	case *array.String:
		y := b.(*array.String)
		return func(i int) int { l, r := idx(i); return strings.Compare(x.Value(l), y.Value(r)) }, nil
	case *array.Binary:
		y := b.(*array.Binary)
		return func(i int) int { l, r := idx(i); return bytes.Compare(x.Value(l), y.Value(r)) }, nil
	case *array.FixedSizeBinary:
		y := b.(*array.FixedSizeBinary)
		return func(i int) int { l, r := idx(i); return bytes.Compare(x.Value(l), y.Value(r)) }, nil
	case *array.Date32:
		y := b.(*array.Date32)
		return func(i int) int { l, r := idx(i); return cmp.Compare(x.Value(l), y.Value(r)) }, nil
	case *array.Time32:
		y := b.(*array.Time32)
		return func(i int) int { l, r := idx(i); return cmp.Compare(x.Value(l), y.Value(r)) }, nil
	case *array.Time64:
		y := b.(*array.Time64)
		return func(i int) int { l, r := idx(i); return cmp.Compare(x.Value(l), y.Value(r)) }, nil
	case *array.Timestamp:
		y := b.(*array.Timestamp)
		return func(i int) int { l, r := idx(i); return cmp.Compare(x.Value(l), y.Value(r)) }, nil
	case *array.MonthDayNanoInterval:
		y := b.(*array.MonthDayNanoInterval)
		return func(i int) int { l, r := idx(i); return types.CompareIntervals(x.Value(l), y.Value(r)) }, nil
	}
	return nil, sqlerr.New(sqlerr.FeatureNotSupported, "comparison of %s values is not supported", a.DataType())
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

var decimalZero = decimal128.Num{}

func cmpDecimal(a decimal128.Num, sa int, b decimal128.Num, sb int) int {
	if sa < sb {
		a = rescale(a, sa, sb)
	} else if sb < sa {
		b = rescale(b, sb, sa)
	}
	return a.Cmp(b)
}
