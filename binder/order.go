package binder

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// bindOrderBy is the ORDER BY binder. Following PostgreSQL, a key is an
// output-column ordinal, else a bare name of an output column, else an
// expression bound like the select list (added to proj as a hidden column;
// with DISTINCT that is an error, since the rows are already distinct).
func (b *binder) bindOrderBy(proj *Project, ob *ast.OrderByClause, bindOut func(ast.ExprNode) (Expr, error), distinct bool) ([]SortKey, error) {
	keys := make([]SortKey, 0, len(ob.Items))
	for _, item := range ob.Items {
		expr, nullsFirst := unwrapNulls(item.Expr, item.Desc)
		idx, err := b.orderKeyColumn(proj, expr)
		if err != nil {
			return nil, err
		}
		if idx < 0 {
			e, err := bindOut(expr)
			if err != nil {
				return nil, err
			}
			e = b.resolveUnknown(e, types.StringType)
			for i, pe := range proj.Exprs {
				if sameExpr(pe, e) {
					idx = i
					break
				}
			}
			if idx < 0 {
				if distinct {
					return nil, b.errAt(expr, sqlerr.New(sqlerr.InvalidColumnReference, "for SELECT DISTINCT, ORDER BY expressions must appear in select list"))
				}
				proj.Exprs = append(proj.Exprs, e)
				proj.Cols = append(proj.Cols, Column{Name: "?sort?", T: e.Type().Nullable()})
				idx = len(proj.Cols) - 1
			}
		}
		c := proj.Cols[idx]
		if c.T.IsNested() {
			return nil, b.errAt(item.Expr, sqlerr.New(sqlerr.UndefinedFunction, "could not identify an ordering operator for type %s", c.T.PGName()))
		}
		keys = append(keys, SortKey{Expr: b.newColumnRef(idx, c.Name, c.T), Desc: item.Desc, NullsFirst: nullsFirst})
	}
	return keys, nil
}

// orderKeyColumn returns the output column an ORDER BY item names by ordinal
// or by alias, or -1 when it is an expression to bind over the input.
func (b *binder) orderKeyColumn(proj *Project, e ast.ExprNode) (int, error) {
	if pos, ok := e.(*ast.PositionExpr); ok && pos.P == nil {
		if pos.N < 1 || pos.N > len(proj.Cols) {
			return 0, b.errAt(e, sqlerr.New(sqlerr.InvalidColumnReference, "ORDER BY position %d is not in select list", pos.N))
		}
		return pos.N - 1, nil
	}
	if lv, _ := literalValue(e); lv != nil {
		if n, ok := lv.(int64); ok {
			if n < 1 || int(n) > len(proj.Cols) {
				return 0, b.errAt(e, sqlerr.New(sqlerr.InvalidColumnReference, "ORDER BY position %d is not in select list", n))
			}
			return int(n) - 1, nil
		}
	}
	if cn, ok := e.(*ast.ColumnNameExpr); ok && cn.Name.Table.O == "" {
		name := ident(cn.Name.Name)
		found := -1
		for i, c := range proj.Cols {
			if c.Name == name {
				if found >= 0 && !sameExpr(proj.Exprs[found], proj.Exprs[i]) {
					return 0, b.errAt(e, sqlerr.New(sqlerr.AmbiguousColumn, "ORDER BY %q is ambiguous", name))
				}
				if found < 0 {
					found = i
				}
			}
		}
		return found, nil
	}
	return -1, nil
}

// sameExpr reports whether two bound expressions are the same computation:
// the same shape, types, constants and column positions (names alone do not
// tell a.id from b.id).
func sameExpr(a, b Expr) bool { return exprKey(a) == exprKey(b) }

// ExprKey renders e with its column positions and types: two expressions
// with the same key compute the same value over the same row.
func ExprKey(e Expr) string { return exprKey(e) }

// exprKey renders an expression with its column positions and types.
func exprKey(e Expr) string {
	var sb strings.Builder
	var walk func(Expr)
	walk = func(e Expr) {
		switch x := e.(type) {
		case *ColumnRef:
			fmt.Fprintf(&sb, "col%d:%s", x.Index, x.T)
			return
		case *OuterRef:
			fmt.Fprintf(&sb, "outer%d:%s", x.Slot, x.T)
			return
		case *Param:
			fmt.Fprintf(&sb, "$%d:%s", x.Index, x.T)
			return
		case *Const:
			fmt.Fprintf(&sb, "const(%T %v):%s", x.Value, x.Value, x.T)
			return
		case *Subquery:
			// Two bindings of the same subquery text are the same value.
			fmt.Fprintf(&sb, "subquery%d(%s;", x.Mode, planKey(x.Plan))
			for _, o := range x.Outer {
				sb.WriteString(exprKey(o) + ",")
			}
			if x.X != nil {
				sb.WriteString(x.Op.String() + exprKey(x.X))
			}
			sb.WriteString(")")
			return
		}
		fmt.Fprintf(&sb, "%T:%s(", e, e.Type())
		if b, ok := e.(*BinaryOp); ok {
			sb.WriteString(b.Op.String())
		}
		if u, ok := e.(*UnaryOp); ok {
			sb.WriteString(u.Op.String())
		}
		if f, ok := e.(*FuncCall); ok {
			sb.WriteString(f.Name)
		}
		if n, ok := e.(*IsNull); ok && n.Not {
			sb.WriteString("not")
		}
		MapChildren(e, func(c Expr) (Expr, error) {
			walk(c)
			sb.WriteString(",")
			return c, nil
		})
		sb.WriteString(")")
	}
	walk(e)
	return sb.String()
}

// bindLimit is the LIMIT/OFFSET binder: constants or parameters of type bigint.
func (b *binder) bindLimit(input Node, l *ast.Limit) (Node, error) {
	lim := &Limit{Input: input}
	bind := func(e ast.ExprNode) (Expr, error) {
		x, err := b.bindExpr(nil, e)
		if err != nil {
			return nil, err
		}
		if isUnknown(x.Type()) {
			return b.coerceUnknown(e, x, types.Int64Type)
		}
		if !x.Type().IsInteger() {
			return nil, b.errAt(e, sqlerr.New(sqlerr.DatatypeMismatch, "argument of LIMIT must be type bigint, not type %s", x.Type().PGName()))
		}
		return b.castTo(x, types.Int64Type), nil
	}
	var err error
	if l.Count != nil {
		if lim.Count, err = bind(l.Count); err != nil {
			return nil, err
		}
	}
	if l.Offset != nil {
		if lim.Offset, err = bind(l.Offset); err != nil {
			return nil, err
		}
	}
	return lim, nil
}

// planKey renders a plan's shape and expressions, to compare subqueries.
func planKey(n Node) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%T(", n)
	if sc, ok := n.(*Scan); ok {
		fmt.Fprintf(&sb, "table%d:%v:%v", sc.Table.TableID, sc.Changelog, sc.Binlog)
	}
	nodeExprs(n, func(e Expr) { sb.WriteString(exprKey(e) + ";") })
	for _, c := range n.Children() {
		sb.WriteString(planKey(c))
	}
	sb.WriteString(")")
	return sb.String()
}

// unwrapNulls reads the pg__nulls(e, 'first'|'last') marker the rewrite
// makes of e NULLS FIRST|LAST. Without one, PostgreSQL's default applies:
// NULLs sort as larger than every value, so they come last ascending and
// first descending. (TiDB's ByItem.NullOrder only says no ASC/DESC was
// written.)
func unwrapNulls(e ast.ExprNode, desc bool) (ast.ExprNode, bool) {
	f, ok := e.(*ast.FuncCallExpr)
	if !ok || f.FnName.L != "pg__nulls" || len(f.Args) != 2 {
		return e, desc
	}
	return f.Args[0], literalString(f.Args[1]) == "first"
}
