package binder

import (
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/types"
)

// (t)::jsonb -> k, ->> k, #> p and #>> p over a text t: the cast would
// parse and normalise the whole document for each row only for the
// operator to look one value up in it, so the two become one call that
// checks the text as jsonb's input does and reads the value in place
// (functions/jsonopkernel.go). The answer and the errors are the
// cast's and the operator's.

// fuseJSONCast returns the fused call of a JSON operator function over a
// cast of text to jsonb; ok is false when name(args) is not one.
func (b *binder) fuseJSONCast(n sourceNode, name string, args []Expr) (Expr, bool, error) {
	fused, ok := functions.JSONCastFusion(name)
	if !ok || len(args) != 2 {
		return nil, false, nil
	}
	c, ok := args[0].(*Cast)
	if !ok || !isJSONBType(c.T) || c.X.Type().Kind != types.String || isJSONBType(c.X.Type()) {
		return nil, false, nil
	}
	e, err := b.callFunction(n, fused, []Expr{c.X, args[1]})
	return e, true, err
}
