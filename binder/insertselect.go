package binder

import (
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/types"
)

// bindInsertSelect binds the query of INSERT ... SELECT as PostgreSQL's
// transformInsertStmt does: like a standalone SELECT, except that an output
// column of unknown type (a string literal or NULL written in the select
// list) is not resolved as text there, so that the target column's type
// decides it (INSERT INTO t SELECT g, NULL, '5' FROM ... into integer
// columns is valid; SELECT g, NULL alone would make NULL a text column).
// Only a plain select list keeps them (ins.PlainQuery, or one whose only
// extra is ORDER BY): DISTINCT and GROUP BY resolve every output as text
// here, and a set operation types its columns itself, so those queries
// bind as before; ORDER BY resolves only the outputs it sorts by
// (bindOrderItem, as PostgreSQL's addTargetToSortList), so that INSERT
// INTO t (id, d) SELECT s.id, '2020-01-01' FROM s ORDER BY s.id is valid
// for a date column d. The query binds from the tree (bindQueryTree), its
// own WITH included.
func (b *binder) bindInsertSelect(ins *pt.Insert) (Node, error) {
	if ins.PlainQuery || orderedPlainSelect(ins.Query) {
		b.keepUnknownOutputs = true
	}
	defer func() { b.keepUnknownOutputs = false }()
	return b.bindQueryTree(ins.Query)
}

// orderedPlainSelect reports whether q is a SELECT whose select list
// keeps its unknown outputs but for ORDER BY's keys: no DISTINCT, GROUP
// BY or HAVING (sql marks the query without ORDER BY as PlainQuery).
func orderedPlainSelect(q pt.Query) bool {
	sel, ok := q.(*pt.Select)
	return ok && !sel.Table && !sel.Distinct && sel.DistinctOn == nil && sel.GroupBy == nil && !sel.GroupDistinct && sel.Having == nil
}

// constantOutput is the expression of output i of an INSERT's query when
// PostgreSQL's planner would fold the column's assignment coercion with
// it: the query is a plain SELECT (no aggregate, window, DISTINCT, LIMIT,
// set operation or set-returning call: one PostgreSQL pulls up into the
// INSERT) and the output is an expression of constants. The assignment
// is then made over the expression itself, so that plan-time folding
// (lower's plan_time_folding) raises its error though no row comes
// (INSERT INTO t (v) SELECT 40000 WHERE false into a varchar(3) column).
// The query still computes the output; the copy computes the same
// constant.
func constantOutput(q Node, i int) (Expr, bool) {
	p, ok := q.(*Project)
	if !ok || i < 0 || i >= len(p.Exprs) {
		return nil, false
	}
	for n := p.Input; ; {
		switch x := n.(type) {
		case *Aggregate, *Window, *Distinct, *DistinctOn, *ProjectSet:
			return nil, false
		case *Filter: // WHERE, or HAVING over an aggregate
			n = x.Input
			continue
		}
		break
	}
	e := p.Exprs[i]
	return e, constantTree(e)
}

// constantTree reports whether e is computed from constants alone by
// operators, casts and non-volatile functions.
func constantTree(e Expr) bool {
	switch x := e.(type) {
	case *Const:
		return true
	case *Cast:
		return constantTree(x.X)
	case *BinaryOp:
		return constantTree(x.L) && constantTree(x.R)
	case *UnaryOp:
		return constantTree(x.X)
	case *FuncCall:
		if x.Volatile {
			return false
		}
		for _, a := range x.Args {
			if !constantTree(a) {
				return false
			}
		}
		return true
	}
	return false
}

// insertProjection returns the projection whose outputs are the query's
// columns, through LIMIT, or nil.
func insertProjection(n Node) *Project {
	for {
		switch x := n.(type) {
		case *Project:
			return x
		case *Limit:
			n = x.Input
		default:
			return nil
		}
	}
}

// assignUnknownOutputs types each unknown output column of query that a
// target column receives by that column (the assignment of its literal),
// in place; the other unknown outputs become text. When ORDER BY's
// hidden keys sit between the select list and the query's outputs (a
// projection of columns over a Sort), the literals are instead copied up,
// as PostgreSQL's transformInsertStmt copies an unknown constant into
// the INSERT's own list: copied maps such an output to its assigned
// literal, which the INSERT writes in place of the column, and the query
// computes the literal as text.
func (b *binder) assignUnknownOutputs(query Node, provided []int, cols []colTarget, table string) (copied map[int]Expr, err error) {
	p := insertProjection(query)
	if p == nil {
		return nil, nil
	}
	if inner := computingProjection(p); inner != p {
		for _, c := range cols {
			pos := provided[c.index]
			if pos < 0 || pos >= len(p.Exprs) {
				continue
			}
			e, ok := outputExpr(p, pos)
			if !ok || !isUnknown(e.Type()) {
				continue
			}
			out, err := b.assign(nil, e, c.name, c.t, table)
			if err != nil {
				return nil, err
			}
			if copied == nil {
				copied = map[int]Expr{}
			}
			copied[pos] = out
		}
		for i, e := range inner.Exprs {
			if isUnknown(e.Type()) {
				inner.Exprs[i] = b.resolveUnknown(e, types.StringType)
				inner.Cols[i].T = inner.Exprs[i].Type().Nullable()
			}
		}
		retypePassThrough(query)
		return copied, nil
	}
	for _, c := range cols {
		pos := provided[c.index]
		if pos < 0 || pos >= len(p.Exprs) || !isUnknown(p.Exprs[pos].Type()) {
			continue
		}
		out, err := b.assign(nil, p.Exprs[pos], c.name, c.t, table)
		if err != nil {
			return nil, err
		}
		p.Exprs[pos] = out
		p.Cols[pos].T = out.Type().Nullable()
	}
	for i, e := range p.Exprs { // an output no column receives (an error follows)
		if isUnknown(e.Type()) {
			p.Exprs[i] = b.resolveUnknown(e, types.StringType)
			p.Cols[i].T = p.Exprs[i].Type().Nullable()
		}
	}
	return nil, nil
}

// passThrough reports whether p only passes its input's columns on (the
// projection dropHidden puts over ORDER BY's hidden keys).
func passThrough(p *Project) bool {
	for _, e := range p.Exprs {
		if _, ok := e.(*ColumnRef); !ok {
			return false
		}
	}
	return true
}

// belowPassThrough is the node under p's Sort and Limit nodes, or nil.
func belowPassThrough(p *Project) *Project {
	for n := p.Input; ; {
		switch x := n.(type) {
		case *Sort:
			n = x.Input
		case *Limit:
			n = x.Input
		case *Project:
			return x
		default:
			return nil
		}
	}
}

// computingProjection is the projection under p's pass-through
// projections, Sorts and Limits that computes the select list (p itself
// when p computes it).
func computingProjection(p *Project) *Project {
	for passThrough(p) {
		next := belowPassThrough(p)
		if next == nil {
			return p
		}
		p = next
	}
	return p
}

// outputExpr is the expression computing output i of p, followed down
// through pass-through projections.
func outputExpr(p *Project, i int) (Expr, bool) {
	for passThrough(p) {
		next := belowPassThrough(p)
		if next == nil {
			break
		}
		i = p.Exprs[i].(*ColumnRef).Index
		p = next
	}
	if i < 0 || i >= len(p.Exprs) {
		return nil, false
	}
	return p.Exprs[i], true
}

// retypePassThrough refreshes the column types of n's pass-through
// projections (through Sort and Limit) from their inputs, after the
// computing projection's outputs were typed.
func retypePassThrough(n Node) {
	switch x := n.(type) {
	case *Sort:
		retypePassThrough(x.Input)
	case *Limit:
		retypePassThrough(x.Input)
	case *Project:
		if !passThrough(x) || belowPassThrough(x) == nil {
			return
		}
		retypePassThrough(x.Input)
		in := x.Input.Columns()
		for j, e := range x.Exprs {
			cr := e.(*ColumnRef)
			cr.T = in[cr.Index].T
			x.Cols[j].T = cr.T
		}
	}
}

// colTarget is a table column an INSERT writes.
type colTarget struct {
	index int
	name  string
	t     types.T
}

// insertSelectTarget is the select-list item of INSERT ... SELECT that
// gives output column k of width, where PostgreSQL points an error
// assigning it to its column (42804, a literal's input error): the
// expression. nil (no position) for a * (PostgreSQL points at it; the
// tree keeps no offset for it), a set operation, or more than one *.
func insertSelectTarget(ins *pt.Insert, k, width int) sourceNode {
	sel, ok := ins.Query.(*pt.Select)
	if !ok || sel.Table {
		return nil
	}
	stars := 0
	for _, t := range sel.Targets {
		if isStarTarget(t.X) {
			stars++
		}
	}
	if stars > 1 || stars == 0 && len(sel.Targets) != width {
		return nil
	}
	starWidth := width - (len(sel.Targets) - stars) // the columns the one * gives
	at := 0
	for _, t := range sel.Targets {
		n := 1
		if isStarTarget(t.X) {
			n = starWidth
		}
		if k < at+n {
			if isStarTarget(t.X) {
				return nil // the tree keeps no position for a *
			}
			return t.X
		}
		at += n
	}
	return nil
}

// isStarTarget: a select-list item that expands to several columns (*,
// t.*, (x).*).
func isStarTarget(e pt.Expr) bool {
	switch x := e.(type) {
	case *pt.Star:
		return true
	case *pt.FieldSelect:
		return x.Field == "*"
	}
	return false
}
