package binder

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/sqlgate/sqlgate/types"
)

// jsonb - x is PostgreSQL's jsonb_delete: jsonb - text (a key, or string
// elements), jsonb - integer (an element by index), jsonb - text[] (keys).
// An unknown literal on the right is text, as PostgreSQL's resolution
// prefers the string category.

func isJSONBType(t types.T) bool { return t.Kind == types.String && t.Variant == types.JSONB }

func (b *binder) bindJSONBDelete(n ast.Node, l, r Expr) (Expr, error) {
	rt := r.Type()
	switch {
	case isUnknown(rt):
		r = b.resolveUnknown(r, types.StringType)
	case rt.IsInteger():
		r = b.castTo(r, types.Int32Type)
	}
	return b.callFunction(n, "jsonb_delete", []Expr{l, r})
}
