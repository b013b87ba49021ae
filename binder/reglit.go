package binder

import (
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// regLiteral runs the input function of the reg* type v over the literal
// c now, as PostgreSQL's parser does when it coerces a constant
// ('nope'::regclass, nextval('nope')): a name that does not exist is the
// bind's error, pointing at the literal. The call stays in the plan (the
// name is looked up again when it runs, after DDL too). Without a catalog
// in the binder's context, or for a reg* type whose names the input
// function does not read (0A000), nothing is checked here.
func (b *binder) regLiteral(c *Const, v types.Variant) error {
	s, ok := c.Value.(string)
	if !ok {
		return nil
	}
	_, err := functions.RegIn(b.ctx, v, s)
	se := sqlerr.As(err)
	if se == nil || se.Code == sqlerr.FeatureNotSupported {
		return nil
	}
	if c.At > 0 && b.stmt != nil {
		return se.WithPosition(b.stmt.Position(c.At - 1))
	}
	return se
}
