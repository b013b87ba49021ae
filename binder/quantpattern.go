package binder

import (
	"github.com/sqlgate/sqlgate/functions"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// patternOp is how an operator of LIKE's or ~'s family binds: the
// function it calls, case-insensitively (regex_match's flag), negated.
type patternOp struct {
	fn           string
	fold, negate bool
}

// quantifiedPatternOps are the operators other than the comparisons that
// x op ANY|ALL (..) takes (PostgreSQL's subquery_Op: LIKE and ILIKE are
// ~~ and ~~*).
var quantifiedPatternOps = map[string]patternOp{
	"~~": {"like", false, false}, "!~~": {"like", false, true},
	"~~*": {"ilike", false, false}, "!~~*": {"ilike", false, true},
	"~": {"regex_match", false, false}, "!~": {"regex_match", false, true},
	"~*": {"regex_match", true, false}, "!~*": {"regex_match", true, true},
}

// bindQuantifiedPattern binds x op ANY|ALL (array) for an operator of
// quantifiedPatternOps: the operator bound as x op elem (an element of
// the array's type), its call then run once over every element.
func (b *binder) bindQuantifiedPattern(n *pt.Quantified, po patternOp, x, arr Expr) (Expr, error) {
	depth := arrayDims(arr.Type())
	elem := functions.ArrayElementType(arr.Type()).Nullable()
	probe := &ColumnRef{Index: 0, Name: "", T: elem}
	subject, err := b.paddedChar(n, x)
	if err != nil {
		return nil, err
	}
	args := []Expr{subject, probe}
	if po.fn == "regex_match" {
		args = append(args, &Const{Value: po.fold, T: types.BoolType})
	}
	e, err := b.callFunction(n, po.fn, args)
	if err != nil {
		return nil, b.asPatternOperatorError(n, n.Op, "", []Expr{x, probe}, err) // operators.go
	}
	call, ok := e.(*FuncCall)
	if !ok || len(call.Args) != len(args) || call.Kernel == nil {
		return nil, b.errAt(n, sqlerr.NotSupported("this quantified pattern match"))
	}
	callArgs := append([]Expr(nil), call.Args...)
	switch p := callArgs[1].(type) {
	case *ColumnRef:
		if p != probe {
			return nil, b.errAt(n, sqlerr.NotSupported("this quantified pattern match"))
		}
		callArgs[1] = arr
	case *Cast:
		if p.X != probe {
			return nil, b.errAt(n, sqlerr.NotSupported("this quantified pattern match"))
		}
		callArgs[1] = &Cast{X: arr, T: arrayOfDims(p.T, depth)}
	default:
		return nil, b.errAt(n, sqlerr.NotSupported("this quantified pattern match"))
	}
	argTypes := make([]types.T, len(call.Args))
	for i, a := range call.Args {
		argTypes[i] = a.Type()
	}
	name := " any"
	if n.All {
		name = " all"
	}
	return &FuncCall{Name: n.Op + name, Args: callArgs, T: types.BoolType, Volatile: call.Volatile,
		Kernel: functions.QuantifiedCallKernel(call.Kernel, n.All, po.negate, argTypes, 1, depth)}, nil
}
