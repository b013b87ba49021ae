package exec

import (
	"context"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// Kernel is a scalar function's batch implementation (functions.Kernel
// has the same shape; lower/ passes one in).
type Kernel func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error)

// FuncExpr calls a scalar function kernel on its evaluated arguments.
type FuncExpr struct {
	Name   string
	Args   []Expr
	T      types.T
	Kernel Kernel
}

func (e *FuncExpr) Type() types.T { return e.T }
func (e *FuncExpr) String() string {
	parts := make([]string, len(e.Args))
	for i, a := range e.Args {
		parts[i] = a.String()
	}
	return e.Name + "(" + strings.Join(parts, ", ") + ")"
}

func (e *FuncExpr) Eval(ec *EvalContext, batch arrow.RecordBatch) (arrow.Array, error) {
	args := make([]arrow.Array, len(e.Args))
	defer func() {
		for _, a := range args {
			if a != nil {
				a.Release()
			}
		}
	}()
	for i, a := range e.Args {
		v, err := a.Eval(ec, batch)
		if err != nil {
			return nil, err
		}
		args[i] = v
	}
	ctx := ec.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	return e.Kernel(ctx, ec.Mem, args, int(batch.NumRows()))
}
