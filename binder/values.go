package binder

import (
	"fmt"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// bindValues binds a VALUES query (the rewrite hands TiDB VALUES ROW(..),
// see sql/values.go): constant rows whose columns are column1, column2, ...
// and whose types are resolved across the rows as PostgreSQL resolves them
// for VALUES (the UNION rules: unknown literals take the type the other rows
// fix, text when none does), then its ORDER BY (output columns) and LIMIT.
func (b *binder) bindValues(sel *ast.SelectStmt) (Node, error) {
	if len(sel.Lists) == 0 {
		return nil, sqlerr.New(sqlerr.SyntaxError, "syntax error at or near \"VALUES\"")
	}
	width := len(sel.Lists[0].Values)
	s := &scope{tables: map[string]bool{}}
	rows := make([][]Expr, len(sel.Lists))
	for i, row := range sel.Lists {
		if len(row.Values) != width {
			err := sqlerr.New(sqlerr.SyntaxError, "VALUES lists must all be the same length")
			if len(row.Values) > 0 {
				return nil, b.errAt(row.Values[0], err)
			}
			return nil, b.errAt(row, err)
		}
		for _, v := range row.Values {
			if _, ok := v.(*ast.DefaultExpr); ok {
				return nil, b.errAt(v, sqlerr.New(sqlerr.SyntaxError, "DEFAULT is not allowed in this context"))
			}
			e, err := b.bindExpr(s, v)
			if err != nil {
				return nil, err
			}
			rows[i] = append(rows[i], e)
		}
	}
	cols := make([]Column, width)
	for c := range width {
		t, err := b.valuesColumnType(sel.Lists, rows, c)
		if err != nil {
			return nil, err
		}
		for i := range rows {
			e := rows[i][c]
			if isUnknown(e.Type()) {
				if e, err = b.coerceUnknown(sel.Lists[i].Values[c], e, t); err != nil {
					return nil, err
				}
			} else {
				e = b.castTo(e, t)
			}
			rows[i][c] = e
		}
		cols[c] = Column{Name: fmt.Sprintf("column%d", c+1), T: t}
	}
	var n Node = &Values{Rows: rows, Cols: cols}
	if sel.OrderBy != nil {
		// ORDER BY sees the columns by ordinal, name or in any expression,
		// as for SELECT * FROM (VALUES ..) AS "*VALUES*" in PostgreSQL.
		proj := &Project{Input: n}
		for i, c := range cols {
			proj.Exprs = append(proj.Exprs, &ColumnRef{Index: i, Name: c.Name, T: c.T})
			proj.Cols = append(proj.Cols, c)
		}
		in := newScope(n)
		keys, err := b.bindOrderBy(proj, sel.OrderBy, func(e ast.ExprNode) (Expr, error) { return b.bindExpr(in, e) }, false)
		if err != nil {
			return nil, err
		}
		n = &Sort{Input: proj, Keys: keys}
	}
	var err error
	if sel.Limit != nil {
		if n, err = b.bindLimit(n, sel.Limit); err != nil {
			return nil, err
		}
	}
	if len(n.Columns()) > width {
		n = dropHidden(n, width)
	}
	return n, nil
}

// valuesColumnType resolves column c of a VALUES list: the first row with
// a known type fixes it, every later one must match it (42804 at the first
// that does not), all unknown is text.
func (b *binder) valuesColumnType(lists []*ast.RowExpr, rows [][]Expr, c int) (types.T, error) {
	var (
		t                types.T
		have, sawUnknown bool
	)
	for i := range rows {
		et := rows[i][c].Type()
		if isUnknown(et) {
			sawUnknown = true
			continue
		}
		if !have {
			t, have = et.Nullable(), true
			continue
		}
		nt, ok := commonType(t, et)
		if !ok {
			return types.T{}, b.errAt(lists[i].Values[c], noCommonType("VALUES", t, et))
		}
		t = nt
	}
	if !have {
		return types.StringType, nil
	}
	if sawUnknown && t.Kind == types.Char {
		t.Length = 0 // a literal has no typmod, so the column none (bpchar)
	}
	if t.Kind == types.Int8 {
		t = types.Int16Type // as in makeSetOp: there is no 1-byte integer column type
	}
	return t.Nullable(), nil
}

// colAliasMarker recognizes the derived table the rewrite makes of a
// column alias list (sql/values.go):
// (SELECT pg__colalias('x', ...) FROM (query) AS pg__colalias). It returns
// the query and the names.
func colAliasMarker(rs ast.ResultSetNode) (ast.ResultSetNode, []ast.CIStr, bool) {
	sel, ok := rs.(*ast.SelectStmt)
	if !ok || sel.Fields == nil || len(sel.Fields.Fields) != 1 || sel.From == nil || sel.From.TableRefs == nil ||
		sel.From.TableRefs.Right != nil || sel.Where != nil || sel.With != nil {
		return nil, nil, false
	}
	f, ok := sel.Fields.Fields[0].Expr.(*ast.FuncCallExpr)
	if !ok || f.FnName.L != "pg__colalias" {
		return nil, nil, false
	}
	ts, ok := sel.From.TableRefs.Left.(*ast.TableSource)
	if !ok || ts.AsName.L != "pg__colalias" {
		return nil, nil, false
	}
	names := make([]ast.CIStr, len(f.Args))
	for i, a := range f.Args {
		names[i] = ast.NewCIStr(literalString(a))
	}
	return ts.Source, names, true
}
