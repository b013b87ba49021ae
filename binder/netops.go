package binder

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// inet's operators (functions/netfuncs.go has their functions). inet
// values are their canonical text, so equality, GROUP BY and DISTINCT are
// the text's; their order is PostgreSQL's network_cmp (family, network,
// mask length, address), which comparisons, ORDER BY and window orders
// read from a key (textorder.go, types.InetKey) in place of the text.

// isInetType reports inet or cidr, which order alike.
func isInetType(t types.T) bool {
	return t.Kind == types.String && (t.Variant == types.Inet || t.Variant == types.Cidr)
}

// stringMapKernel is a kernel applying f to each string of its one
// argument, NULL for NULL.
func stringMapKernel(f func(string) (string, error)) functions.Kernel {
	return func(_ context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		in := args[0].(*array.String)
		bld := array.NewStringBuilder(mem)
		defer bld.Release()
		bld.Reserve(in.Len())
		for i := 0; i < in.Len(); i++ {
			if in.IsNull(i) {
				bld.AppendNull()
				continue
			}
			v, err := f(in.Value(i))
			if err != nil {
				return nil, err
			}
			bld.Append(v)
		}
		return bld.NewArray(), nil
	}
}

// inetComparison replaces the operands of an ordering comparison of two
// inet values by their keys (inetKey); other comparisons keep theirs.
// A cidr beside an inet is converted to inet first (cidr's implicit
// cast), as PostgreSQL's inet operators take it.
func (b *binder) inetComparison(op Op, l, r Expr, lt, rt types.T) (Expr, Expr) {
	if !isInetType(lt) || !isInetType(rt) {
		return l, r
	}
	if lt.Variant != rt.Variant {
		l, r = b.castTo(l, types.InetType), b.castTo(r, types.InetType)
	}
	return b.textOrderComparison(op, l, r, types.InetType, types.InetType) // textorder.go
}

// inetArithmetic binds inet + bigint, bigint + inet, inet - bigint and
// inet - inet (their overloads resolved as functions, so an unknown side
// is read as PostgreSQL's resolution reads it); ok is false when neither
// side is inet.
func (b *binder) inetArithmetic(n sourceNode, op Op, l, r Expr, lt, rt types.T) (Expr, bool, error) {
	if op != OpAdd && op != OpSub || !isInetType(lt) && !isInetType(rt) {
		return nil, false, nil
	}
	if lt.Kind == types.Array || rt.Kind == types.Array {
		return nil, false, nil
	}
	name := "pg__inet_plus"
	if op == OpSub {
		name = "pg__inet_minus"
	}
	e, err := b.callFunction(n, name, []Expr{l, r})
	if se := sqlerr.As(err); se != nil && se.Code == sqlerr.UndefinedFunction {
		return nil, true, b.binaryOpError(n, op, lt, rt)
	}
	return e, true, err
}

// inetBitwiseFuncs are the functions of the inet operators TiDB's grammar
// parses as the integer ones.
var inetBitwiseFuncs = map[string]string{"&": "inetand", "|": "inetor", "<<": "network_sub", ">>": "network_sup"}

// inetBitwise binds & | << >> when a side is inet; ok is false otherwise.
func (b *binder) inetBitwise(n sourceNode, op string, l, r Expr) (Expr, bool, error) {
	lt, rt := l.Type(), r.Type()
	if !isInetType(lt) && !isInetType(rt) {
		return nil, false, nil
	}
	if !isInetType(lt) && !isUnknown(lt) || !isInetType(rt) && !isUnknown(rt) {
		return nil, true, b.operatorError(n, op, lt, rt)
	}
	return b.callFunctionExpr(n, inetBitwiseFuncs[op], l, r)
}

// inetOtherOperators are the inet operators the rewrite passes on as
// pg__op_other (sql/operators.go): their functions.
var inetOtherOperators = map[string]string{"<<=": "network_subeq", ">>=": "network_supeq"}
