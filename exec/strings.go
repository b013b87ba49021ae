package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/types"
)

// ConcatExpr is text || text (NULL if either side is NULL).
type ConcatExpr struct{ L, R Expr }

func (e *ConcatExpr) Type() types.T  { return types.StringType }
func (e *ConcatExpr) String() string { return "(" + e.L.String() + " || " + e.R.String() + ")" }
func (e *ConcatExpr) Eval(ec *EvalContext, batch arrow.RecordBatch) (arrow.Array, error) {
	// native; recorded for the report's check
	ec.backendFor(FamConcat)
	return concatChain(ec, batch, concatParts(e, nil)) // textfast.go
}
