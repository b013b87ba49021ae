package deparse

import (
	pt "github.com/sqlgate/sqlgate/sql/tree"
)

// Window functions in a view's query (WindowFunc): f(args) OVER
// (PARTITION BY .. ORDER BY ..), the window's keys target entries of the
// query (junk ones where the select list has none), printed as
// get_rule_windowspec prints them. A named window, a window refining
// another and a frame clause are not reproduced.

// winNode is a window function call.
type winNode struct {
	name      string
	args      []node
	star      bool
	spec      *pt.Window
	partition []int
	order     []sortItem
	t         typ
}

func (n *winNode) typeOf() typ { return n.t }

// window analyses f(args) OVER (..); its keys are resolved once the
// query's select list is complete (resolveWindows).
func (a *analyzer) window(n *pt.FuncCall, name string) (node, error) {
	w := n.Over
	if a.lv == nil || a.q == nil || n.Filter != nil || n.Distinct || len(n.OrderBy) > 0 || n.IgnoreNulls || n.FromLast ||
		w.Name != "" || w.Ref != "" || w.OnlyName || w.Frame != nil {
		return nil, errUnsupported("window clause")
	}
	out := &winNode{spec: w}
	if name == "count" && len(n.Args) == 1 && a.isStar(n, n.Args[0]) {
		out.name, out.star, out.t = "count", true, typeOfOID(oidInt8)
		a.q.windows = append(a.q.windows, out)
		return out, nil
	}
	args, err := a.exprs(n.Args)
	if err != nil {
		return nil, err
	}
	list := pgWindowFunctions
	if isAggregate(name) {
		list = pgAggregates
	}
	p, conv, t, err := a.apply(list, name, args)
	if err != nil {
		return nil, err
	}
	out.name, out.args, out.t = p.name, conv, t
	a.q.windows = append(a.q.windows, out)
	return out, nil
}

// resolveWindows makes the query's window keys target entries, as
// transformWindowDefinitions does after the select list.
func (qa *queryAnalyzer) resolveWindows(q *query, a *analyzer) error {
	for _, w := range q.windows {
		for _, e := range w.spec.PartitionBy {
			i, err := qa.exprTarget(e, q, a)
			if err != nil {
				return err
			}
			if !containsInt(w.partition, i) {
				w.partition = append(w.partition, i)
			}
		}
		for _, o := range w.spec.OrderBy {
			if o.Using != "" {
				return errUnsupported("ORDER BY USING")
			}
			i, err := qa.exprTarget(o.X, q, a)
			if err != nil {
				return err
			}
			w.order = append(w.order, sortItem{tle: i, desc: o.Desc, nullsFirst: nullsFirst(o)})
		}
	}
	return nil
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// windowFunc is get_windowfunc_expr with get_rule_windowspec.
func (p *printer) windowFunc(x *winNode) {
	p.sb.WriteString(quoteIdent(x.name) + "(")
	if x.star {
		p.sb.WriteByte('*')
	}
	p.list(x.args)
	p.sb.WriteString(") OVER (")
	space := false
	if len(x.partition) > 0 {
		p.sb.WriteString("PARTITION BY ")
		for i, k := range x.partition {
			if i > 0 {
				p.sb.WriteString(", ")
			}
			p.sortGroupClause(p.q, k, false, p.taken)
		}
		space = true
	}
	if len(x.order) > 0 {
		if space {
			p.sb.WriteByte(' ')
		}
		p.sb.WriteString("ORDER BY ")
		p.orderBy(p.q, x.order, false)
	}
	p.sb.WriteByte(')')
}

// orderBy is get_rule_orderby.
func (p *printer) orderBy(q *query, items []sortItem, forceColno bool) {
	for i, o := range items {
		if i > 0 {
			p.sb.WriteString(", ")
		}
		p.sortGroupClause(q, o.tle, forceColno, p.taken)
		switch {
		case !o.desc && o.nullsFirst:
			p.sb.WriteString(" NULLS FIRST")
		case o.desc && !o.nullsFirst:
			p.sb.WriteString(" DESC NULLS LAST")
		case o.desc:
			p.sb.WriteString(" DESC")
		}
	}
}
