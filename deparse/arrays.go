package deparse

import (
	"strings"

	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/pgtypes"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/types"
)

// Arrays beyond ARRAY[..]: an unknown literal read as an array
// ('{1,2}'::integer[], a constant printed as array_out prints it) and a
// subscript of a column (x[1], SubscriptingRef).

// arrayConst is an unknown literal converted to the one-dimensional
// array type t: its elements read by the element type and printed as
// array_out prints them ({1,2}, NULL, "a b").
func arrayConst(s string, t typ) (node, error) {
	e := *t.elem
	if e.elem != nil || e.t.Kind == 0 || e.t.IsEnum() {
		return nil, errUnsupported("array constant of type %d", t.oid)
	}
	vals, err := functions.ParseArray(s, e.t, nil)
	if err != nil {
		return nil, err
	}
	parts := make([]string, len(vals))
	for i, v := range vals {
		switch {
		case v == nil:
			parts[i] = "NULL"
		case e.oid == oidBool:
			parts[i] = map[bool]string{true: "t", false: "f"}[v.(bool)]
		default:
			parts[i] = pgtypes.ArrayElementText(types.FormatText(v, e.t))
		}
	}
	return &constNode{t: t, text: "{" + strings.Join(parts, ",") + "}"}, nil
}

// subscriptNode is x[i] over an array column (SubscriptingRef).
type subscriptNode struct {
	arg, index node
	t          typ
}

func (n *subscriptNode) typeOf() typ { return n.t }

// subscript analyses x[i]: one subscript of an array, its index an
// integer.
func (a *analyzer) subscript(n *pt.Subscript) (node, error) {
	if n.Chained {
		return nil, errUnsupported("chained subscripts")
	}
	x, err := a.expr(n.X)
	if err != nil {
		return nil, err
	}
	at := x.typeOf()
	if at.elem == nil {
		return nil, errUnsupported("subscript of a non-array")
	}
	i, err := a.expr(n.Index)
	if err != nil {
		return nil, err
	}
	if i, err = a.coerce(i, typeOfOID(oidInt4), castImplicit); err != nil {
		return nil, err
	}
	e := *at.elem
	e.mod = at.mod
	return &subscriptNode{arg: x, index: i, t: e}, nil
}
