package deparse

import (
	"strings"

	pt "github.com/sqlgate/sqlgate/sql/tree"
)

// The expressions only a view's query holds: subqueries (SubLink) and
// aggregate calls (Aggref).

// subLink analyses a subquery in an expression: its query at a level
// under the current one; for ANY / ALL the operator resolved over the
// test and the subquery's one column, the test coerced to its left type.
func (a *analyzer) subLink(kind subLinkKind, test node, op string, sq *pt.Subquery) (node, error) {
	if a.lv == nil || sq == nil || sq.Tree == nil {
		return nil, errUnsupported("subquery")
	}
	q, err := a.qa.query(sq.Tree, a.lv, a.ctes)
	if err != nil {
		return nil, err
	}
	out := &subLinkNode{kind: kind, q: q, t: boolType}
	switch kind {
	case subLinkExpr:
		if len(q.colTypes) != 1 {
			return nil, errUnsupported("subquery of %d columns", len(q.colTypes))
		}
		out.t = q.colTypes[0]
		if out.t.oid == oidUnknown {
			out.t = typeOfOID(oidText)
		}
	case subLinkAny, subLinkAll:
		if len(q.colTypes) != 1 {
			return nil, errUnsupported("subquery of %d columns", len(q.colTypes))
		}
		right := q.colTypes[0]
		p, ok := resolve(candidates(pgOperators, op, 2), []typ{test.typeOf(), right})
		if !ok || p.ret != oidBool || right.oid == oidUnknown || !isPolymorphic(p.r) && p.r != right.oid {
			return nil, errUnsupported("operator %s over a subquery", op)
		}
		l, err := a.coerce(test, typeOfOID(p.l), castImplicit)
		if err != nil {
			return nil, err
		}
		out.test, out.op = l, p.name
	}
	return out, nil
}

// isAggregate reports whether name is an aggregate of the catalog tables.
func isAggregate(name string) bool {
	for _, p := range pgAggregates {
		if p.name == name {
			return true
		}
	}
	return false
}

// aggregate analyses an aggregate call; count(*) reaches the tree as
// count(1) (TiDB's reading), told apart by the text at its argument.
func (a *analyzer) aggregate(n *pt.FuncCall, name string) (node, error) {
	if n.Filter != nil || len(n.OrderBy) > 0 || n.WithinGroup || n.Over != nil || a.lv == nil {
		return nil, errUnsupported("aggregate clauses")
	}
	if name == "count" && len(n.Args) == 1 && a.isStar(n, n.Args[0]) {
		if n.Distinct {
			return nil, errUnsupported("count(DISTINCT *)")
		}
		return &aggNode{name: "count", star: true, t: typeOfOID(oidInt8)}, nil
	}
	args, err := a.exprs(n.Args)
	if err != nil {
		return nil, err
	}
	p, out, t, err := a.apply(pgAggregates, name, args)
	if err != nil {
		return nil, err
	}
	return &aggNode{name: p.name, args: out, distinct: n.Distinct, t: t}, nil
}

// isStar reports whether a call's one argument is written * in the
// query's text (TiDB reads count(*) as count(1)).
func (a *analyzer) isStar(call *pt.FuncCall, x pt.Expr) bool {
	if _, ok := x.(*pt.Star); ok {
		return true
	}
	if _, ok := x.(*pt.Literal); !ok || a.qa == nil {
		return false
	}
	pos := call.Pos()
	if pos < 0 || pos >= len(a.qa.text) {
		return false
	}
	rest := a.qa.text[pos:]
	open := strings.IndexByte(rest, '(')
	return open >= 0 && strings.HasPrefix(strings.TrimLeft(rest[open+1:], " \t\n\r"), "*")
}
