package binder

import (
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// zeroArgWindows are the window functions PostgreSQL has without
// arguments.
var zeroArgWindows = map[string]bool{"row_number": true, "rank": true, "dense_rank": true, "percent_rank": true, "cume_dist": true}

// bindEmptyCall gives PostgreSQL's answers (parse_func.c's
// ParseFuncOrColumn) to a call with no arguments, f() or f(*) (the
// rewrite's emptycall.go), found by the lookup with no arguments: count()
// is count(*) called without its star, a window function needs OVER, and
// * is allowed in an aggregate's or a window function's call only.
// handled is false for the calls bound as usual.
func (b *binder) bindEmptyCall(s *scope, n *pt.FuncCall) (e Expr, handled bool, err error) {
	if len(n.Args) != 0 || n.WithinGroup {
		return nil, false, nil
	}
	name := writtenName(n)
	switch {
	case n.Name == "count" && !n.Star:
		return nil, true, b.errAt(n, sqlerr.New(sqlerr.WrongObjectType, "%s(*) must be used to call a parameterless aggregate function", name))
	case zeroArgWindows[n.Name] && n.Over == nil:
		return nil, true, b.errAt(n, sqlerr.New(sqlerr.WrongObjectType, "window function %s requires an OVER clause", name))
	case n.Star && aggregateNames[n.Name]:
		// no aggregate but count has a form without arguments
		return nil, true, b.errAt(n, undefinedCall(n.Name, nil))
	case n.Star && !zeroArgWindows[n.Name]:
		// the star is refused before OVER and FILTER are looked at
		plain := *n
		plain.Star, plain.Over, plain.Filter, plain.Aggregate = false, nil, nil, false
		if _, err := b.bindFuncCallNamed(s, &plain); err != nil {
			return nil, true, err // no such function without arguments
		}
		return nil, true, b.errAt(n, sqlerr.New(sqlerr.WrongObjectType, "%s(*) specified, but %s is not an aggregate function", name, name))
	}
	return nil, false, nil
}
