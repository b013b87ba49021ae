package binder

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// bindSelect binds a SELECT: FROM, then WHERE, the select list, ORDER BY and
// LIMIT, each by its own clause binder.
func (b *binder) bindSelect(sel *ast.SelectStmt) (Node, error) {
	switch {
	case sel.With != nil:
		return nil, sqlerr.NotSupported("WITH")
	case sel.Kind != ast.SelectStmtKindSelect:
		return nil, sqlerr.NotSupported("VALUES and TABLE statements")
	case sel.GroupBy != nil || sel.Having != nil:
		return nil, sqlerr.NotSupported("GROUP BY and HAVING")
	case sel.Distinct:
		return nil, sqlerr.NotSupported("SELECT DISTINCT")
	case len(sel.WindowSpecs) > 0:
		return nil, sqlerr.NotSupported("WINDOW")
	case sel.LockInfo != nil && sel.LockInfo.LockType != ast.SelectLockNone:
		return nil, sqlerr.NotSupported("SELECT ... FOR UPDATE")
	case sel.SelectIntoOpt != nil:
		return nil, sqlerr.NotSupported("SELECT INTO")
	}
	input, err := b.bindFrom(sel.From)
	if err != nil {
		return nil, err
	}
	if sel.Where != nil {
		if input, err = b.bindWhere(input, sel.Where); err != nil {
			return nil, err
		}
	}
	proj, err := b.bindSelectList(input, sel.Fields)
	if err != nil {
		return nil, err
	}
	visible := len(proj.Cols)
	var out Node = proj
	if sel.OrderBy != nil {
		if out, err = b.bindOrderBy(proj, input, sel.OrderBy); err != nil {
			return nil, err
		}
	}
	if sel.Limit != nil {
		if out, err = b.bindLimit(out, sel.Limit); err != nil {
			return nil, err
		}
	}
	if len(out.Columns()) > visible {
		out = dropHidden(out, visible)
	}
	return out, nil
}

// bindFrom binds the FROM clause: nothing (one empty row) or one table.
func (b *binder) bindFrom(from *ast.TableRefsClause) (Node, error) {
	if from == nil || from.TableRefs == nil {
		return &Values{Rows: [][]Expr{{}}}, nil
	}
	j := from.TableRefs
	if j.Right != nil {
		return nil, sqlerr.NotSupported("joins")
	}
	return b.bindTableSource(j.Left)
}

func (b *binder) bindTableSource(rs ast.ResultSetNode) (Node, error) {
	ts, ok := rs.(*ast.TableSource)
	if !ok {
		if j, ok := rs.(*ast.Join); ok && j.Right == nil {
			return b.bindTableSource(j.Left)
		}
		return nil, sqlerr.NotSupported("this FROM item")
	}
	tn, ok := ts.Source.(*ast.TableName)
	if !ok {
		return nil, sqlerr.NotSupported("subqueries in FROM")
	}
	path := tablePath(tn)
	info, err := b.cat.GetTable(b.ctx, path)
	if err != nil {
		if se := sqlerr.As(err); se != nil {
			return nil, b.errAt(tn, se)
		}
		return nil, err
	}
	alias := ident(ts.AsName)
	if alias == "" {
		alias = path.Table
	}
	return NewScan(info, alias), nil
}

// bindWhere is the WHERE clause binder: its expression must be boolean.
func (b *binder) bindWhere(input Node, where ast.ExprNode) (Node, error) {
	cond, err := b.bindExpr(newScope(input), where)
	if err != nil {
		return nil, err
	}
	if cond, err = b.coerce(where, cond, types.BoolType, "argument of WHERE"); err != nil {
		return nil, err
	}
	return &Filter{Input: input, Cond: cond}, nil
}

// bindSelectList is the SELECT-list binder: it expands wildcards, types each
// expression (an unknown literal becomes text) and names the output columns
// as PostgreSQL does.
func (b *binder) bindSelectList(input Node, fields *ast.FieldList) (*Project, error) {
	s := newScope(input)
	p := &Project{Input: input}
	for _, f := range fields.Fields {
		if f.WildCard != nil {
			table := ident(f.WildCard.Table)
			if table != "" && !s.tables[table] {
				return nil, sqlerr.New(sqlerr.UndefinedTable, "missing FROM-clause entry for table %q", table)
			}
			if table == "" && len(s.cols) == 0 {
				return nil, sqlerr.New(sqlerr.SyntaxError, "SELECT * with no tables specified is not valid")
			}
			for i, c := range s.cols {
				if table != "" && c.Table != table {
					continue
				}
				p.Exprs = append(p.Exprs, &ColumnRef{Index: i, Name: c.Name, T: c.T})
				p.Cols = append(p.Cols, c)
			}
			continue
		}
		e, err := b.bindExpr(s, f.Expr)
		if err != nil {
			return nil, err
		}
		e = b.resolveUnknown(e, types.StringType)
		if e.Type().Kind == types.Null {
			e = &Const{T: types.StringType}
		}
		col := Column{Name: outputName(f), T: e.Type().Nullable()}
		if ref, ok := e.(*ColumnRef); ok {
			src := s.cols[ref.Index]
			col.TableID, col.Ordinal, col.Table = src.TableID, src.Ordinal, src.Table
		}
		p.Exprs = append(p.Exprs, e)
		p.Cols = append(p.Cols, col)
	}
	return p, nil
}

// outputName names a select-list column as PostgreSQL does: the alias, the
// column name for a column reference (also through casts), the type name for
// a cast of anything else, the function name for a call, else ?column?.
func outputName(f *ast.SelectField) string {
	if f.AsName.O != "" {
		return ident(f.AsName)
	}
	return exprName(f.Expr)
}

func exprName(e ast.ExprNode) string {
	switch x := e.(type) {
	case *ast.ColumnNameExpr:
		return ident(x.Name.Name)
	case *ast.ParenthesesExpr:
		return exprName(x.Expr)
	case *ast.FuncCallExpr:
		if x.FnName.L == castFunc && len(x.Args) == 2 {
			if n := exprName(x.Args[0]); n != "?column?" {
				return n
			}
			if v, ok := x.Args[1].(ast.ValueExpr); ok {
				return castOutputName(v)
			}
		}
		return x.FnName.L
	}
	return "?column?"
}

// dropHidden projects away the columns ORDER BY added after the visible ones.
func dropHidden(n Node, visible int) Node {
	cols := n.Columns()[:visible]
	exprs := make([]Expr, visible)
	for i, c := range cols {
		exprs[i] = &ColumnRef{Index: i, Name: c.Name, T: c.T}
	}
	return &Project{Input: n, Exprs: exprs, Cols: cols}
}
