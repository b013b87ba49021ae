package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/types"
)

// ConcatExpr is text || text (NULL if either side is NULL).
type ConcatExpr struct{ L, R Expr }

func (e *ConcatExpr) Type() types.T  { return types.StringType }
func (e *ConcatExpr) String() string { return "(" + e.L.String() + " || " + e.R.String() + ")" }
func (e *ConcatExpr) Eval(ec *EvalContext, batch arrow.RecordBatch) (arrow.Array, error) {
	if parts := concatParts(e, nil); len(parts) > 2 || isConstText(parts) { // textfast.go
		return concatChain(ec, batch, parts)
	}
	la, ra, err := evalBoth(ec, batch, e.L, e.R)
	if err != nil {
		return nil, err
	}
	defer la.Release()
	defer ra.Release()
	l, r := la.(*array.String), ra.(*array.String)
	b := array.NewStringBuilder(ec.Mem)
	defer b.Release()
	n := l.Len()
	b.Reserve(n)
	b.ReserveData(len(l.ValueBytes()) + len(r.ValueBytes()))
	buf := make([]byte, 0, 64)
	for i := 0; i < n; i++ {
		if l.IsNull(i) || r.IsNull(i) {
			b.AppendNull()
			continue
		}
		buf = append(append(buf[:0], l.Value(i)...), r.Value(i)...)
		b.BinaryBuilder.Append(buf)
	}
	return b.NewArray(), nil
}
