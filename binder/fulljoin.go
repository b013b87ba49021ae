package binder

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// joinSpec is what a JOIN clause asks for, read from TiDB's Join node with
// sql's FULL JOIN markers unwrapped (see sql/fulljoin.go): the AST itself
// is never changed, because a prepared statement's AST is bound again
// when a table it uses changes.
type joinSpec struct {
	full    bool
	on      ast.ExprNode // nil: none
	using   []string
	natural bool
}

func joinSpecOf(j *ast.Join) (joinSpec, error) {
	spec := joinSpec{natural: j.NaturalJoin}
	for _, c := range j.Using {
		spec.using = append(spec.using, ident(c.Name))
	}
	if j.On != nil {
		spec.on = j.On.Expr
	}
	f, ok := spec.on.(*ast.FuncCallExpr)
	if !ok || j.Tp != ast.LeftJoin {
		return spec, nil
	}
	switch f.FnName.L {
	case "pg__full_join":
		if len(f.Args) != 1 {
			return spec, sqlerr.New(sqlerr.InternalError, "malformed FULL JOIN marker")
		}
		spec.full, spec.on = true, f.Args[0]
	case "pg__full_join_using":
		spec.full, spec.on = true, nil
		for _, a := range f.Args {
			v, ok := a.(*test_driver.ValueExpr)
			if !ok {
				return spec, sqlerr.New(sqlerr.InternalError, "malformed FULL JOIN USING marker")
			}
			spec.using = append(spec.using, v.GetString())
		}
	case "pg__full_join_natural":
		spec.full, spec.on, spec.natural = true, nil, true
	}
	return spec, nil
}
