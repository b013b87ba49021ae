package binder

import "github.com/pingcap/tidb/pkg/parser/ast"

// symmetricBound unwraps the lower bound of BETWEEN SYMMETRIC, which the
// rewrite marks as pg__symmetric(bound).
func symmetricBound(e ast.ExprNode) (ast.ExprNode, bool) {
	f, ok := e.(*ast.FuncCallExpr)
	if !ok || f.FnName.L != "pg__symmetric" || len(f.Args) != 1 {
		return nil, false
	}
	return f.Args[0], true
}
