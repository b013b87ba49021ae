package binder

import (
	"fmt"

	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// bindValuesTree binds a VALUES query (the rewrite hands TiDB VALUES ROW(..),
// see sql/values.go): constant rows whose columns are column1, column2, ...
// and whose types are resolved across the rows as PostgreSQL resolves them
// for VALUES (the UNION rules: unknown literals take the type the other rows
// fix, text when none does), then its ORDER BY (output columns) and LIMIT.
func (b *binder) bindValuesTree(v *pt.Values) (Node, error) {
	b.setOpBranch, b.keepUnknownOutputs = false, false // not for the subqueries inside
	if v.With != nil {
		saved := b.ctes
		defer func() { b.ctes = saved }()
		if err := b.bindWithTree(v.With, v); err != nil { // exprbind.go
			return nil, err
		}
	}
	if len(v.Rows) == 0 {
		return nil, sqlerr.New(sqlerr.SyntaxError, "syntax error at or near \"VALUES\"")
	}
	defer b.refuseSetCalls("VALUES")() // srf.go
	width := len(v.Rows[0])
	s := &scope{tables: map[string]bool{}}
	rows := make([][]Expr, len(v.Rows))
	for i, row := range v.Rows {
		if len(row) != width {
			err := sqlerr.New(sqlerr.SyntaxError, "VALUES lists must all be the same length")
			if len(row) > 0 {
				return nil, b.errAt(row[0], err)
			}
			return nil, b.errAt(v, err)
		}
		for _, x := range row {
			if _, ok := x.(*pt.Default); ok {
				return nil, b.errAt(x, sqlerr.New(sqlerr.SyntaxError, "DEFAULT is not allowed in this context"))
			}
			e, err := b.bindTree(s, x)
			if err != nil {
				return nil, err
			}
			rows[i] = append(rows[i], e)
		}
	}
	cols := make([]Column, width)
	ins := make([]types.T, len(rows))
	for c := range width {
		// the first row with a known type fixes the column's, every later
		// one must match it (42804 at the first that does not)
		for i := range rows {
			ins[i] = rows[i][c].Type()
		}
		t, bad, serr := selectCommonType("VALUES", ins, false) // exprops.go
		if serr != nil {
			return nil, b.errAt(v.Rows[bad][c], serr)
		}
		var err error
		for i := range rows {
			e := rows[i][c]
			if isUnknown(e.Type()) {
				if e, err = b.coerceUnknown(v.Rows[i][c], e, t); err != nil {
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
	if v.OrderBy != nil {
		// ORDER BY sees the columns by ordinal, name or in any expression,
		// as for SELECT * FROM (VALUES ..) AS "*VALUES*" in PostgreSQL.
		proj := &Project{Input: n}
		for i, c := range cols {
			proj.Exprs = append(proj.Exprs, &ColumnRef{Index: i, Name: c.Name, T: c.T})
			proj.Cols = append(proj.Cols, c)
		}
		in := newScope(n)
		keys, err := b.bindOrderItems(proj, v.OrderBy, func(e pt.Expr) (Expr, error) { return b.bindTree(in, e) }, false)
		if err != nil {
			return nil, err
		}
		n = &Sort{Input: proj, Keys: keys}
	}
	var err error
	if n, err = b.bindLimitClauses(n, &v.QueryClauses, nil); err != nil {
		return nil, err
	}
	if len(n.Columns()) > width {
		n = dropHidden(n, width)
	}
	return n, nil
}
