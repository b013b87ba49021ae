package binder

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// bindInsert binds INSERT INTO t [(cols)] VALUES ... | SELECT ... against the
// table's columns: each value is converted to its column's type (assignment
// rules), omitted nullable columns become NULL, and an omitted NOT NULL
// column is rejected here, before anything is written (seed 000).
func (b *binder) bindInsert(ins *ast.InsertStmt) (Statement, error) {
	switch {
	case ins.IsReplace:
		return nil, sqlerr.NotSupported("REPLACE")
	case ins.Setlist:
		return nil, sqlerr.NotSupported("INSERT ... SET")
	}
	tsrc, err := b.bindResultSet(ins.Table.TableRefs)
	if err != nil {
		return nil, err
	}
	scan, ok := tsrc.(*Scan)
	if !ok || scan.Changelog {
		return nil, sqlerr.NotSupported("INSERT into this target")
	}
	if a := b.stmt.InsertAlias; a != "" { // INSERT INTO t AS a: only a names it
		scan = NewScan(scan.Table, a)
	}
	// The query of INSERT ... SELECT is bound first, as PostgreSQL
	// transforms it before it matches values to target columns.
	var query Node
	if ins.Select != nil && ins.Lists == nil {
		sel, ok := ins.Select.(*ast.SelectStmt)
		if !ok {
			return nil, sqlerr.NotSupported("INSERT from this kind of query")
		}
		if query, err = b.bindInsertSelect(sel); err != nil {
			return nil, err
		}
	}
	info := scan.Table
	tableCols := info.Descriptor.Schema.Columns
	// target[i] = table column index of the i-th value
	var target []int
	if len(ins.Columns) == 0 {
		for i := range tableCols {
			target = append(target, i)
		}
	} else {
		seen := map[int]bool{}
		for _, cn := range ins.Columns {
			name := ident(cn.Name)
			idx := info.ColumnIndex(name)
			if idx < 0 {
				return nil, b.errAt(cn, sqlerr.New(sqlerr.UndefinedColumn, "column %q of relation %q does not exist", name, info.Path.Table))
			}
			if seen[idx] {
				return nil, b.errAt(cn, sqlerr.New(sqlerr.DuplicateColumn, "column %q specified more than once", name))
			}
			seen[idx] = true
			target = append(target, idx)
		}
	}
	if len(ins.Columns) == 0 {
		// PostgreSQL (transformInsertStmt): without a column list, fewer
		// values than columns fill the leading columns and leave the rest
		// to their defaults; more values are an error reported per row.
		n := len(target)
		switch {
		case ins.Lists != nil:
			n = len(ins.Lists[0])
			for _, row := range ins.Lists[1:] {
				if len(row) != n {
					return nil, sqlerr.New(sqlerr.SyntaxError, "VALUES lists must all be the same length")
				}
			}
		case query != nil:
			n = len(query.Columns())
		}
		target = target[:min(n, len(target))]
	}
	provided := make([]int, len(tableCols)) // table column -> value position, -1 if omitted
	for i := range provided {
		provided[i] = -1
	}
	for pos, idx := range target {
		provided[idx] = pos
	}
	// A NOT NULL column left without a value (omitted without a default,
	// DEFAULT, a NULL) is refused by the store's check of each row written
	// (fluss.CheckNotNull), not here: PostgreSQL refuses a row, naming its
	// values, and an INSERT that writes no row succeeds.
	// defaults: the expression each omitted column (or DEFAULT) gets
	defaults := make([]Expr, len(tableCols))
	dflt := func(i int) (Expr, error) {
		if defaults[i] == nil {
			e, err := b.columnDefault(info, i)
			if err != nil {
				return nil, err
			}
			defaults[i] = e
		}
		return defaults[i], nil
	}
	overridden, err := b.identityOverride(info, provided, ins, query)
	if err != nil {
		return nil, err
	}
	var source Node
	switch {
	case ins.Lists != nil:
		values := &Values{}
		for _, row := range ins.Lists {
			if len(row) > len(target) {
				return nil, b.errAt(row[len(target)], sqlerr.New(sqlerr.SyntaxError, "INSERT has more expressions than target columns"))
			}
			if len(row) < len(target) {
				return nil, sqlerr.New(sqlerr.SyntaxError, "INSERT has more target columns than expressions")
			}
			// The written values first, in the order they are written,
			// then the omitted columns' defaults: PostgreSQL transforms
			// the target list in that order (its rewriter adds the
			// defaults), so a statement's first error is the same.
			out := make([]Expr, len(tableCols))
			for pos, i := range target {
				c := tableCols[i]
				if overridden[i] {
					continue
				}
				node := row[pos]
				if _, isDefault := node.(*ast.DefaultExpr); isDefault {
					if out[i], err = dflt(i); err != nil {
						return nil, err
					}
					continue
				}
				e, err := b.bindExpr(nil, node)
				if err != nil {
					return nil, err
				}
				if out[i], err = b.assign(node, e, c.Name, c.Type, info.Path.Table); err != nil {
					return nil, err
				}
			}
			for i := range tableCols {
				if out[i] == nil {
					if out[i], err = dflt(i); err != nil {
						return nil, err
					}
				}
			}
			values.Rows = append(values.Rows, out)
		}
		for _, c := range tableCols {
			values.Cols = append(values.Cols, Column{Name: c.Name, T: c.Type.Nullable()})
		}
		if len(ins.Lists) > 1 {
			// PostgreSQL folds a VALUES list's rows in the written column
			// order (the columns not written hold their defaults, folded
			// when the rows are stored: after)
			values.FoldOrder = append(values.FoldOrder, target...)
			for i := range tableCols {
				if provided[i] < 0 {
					values.FoldOrder = append(values.FoldOrder, i)
				}
			}
		}
		source = values
	case query != nil:
		q := query
		qcols := q.Columns()
		if len(qcols) != len(target) {
			if len(qcols) > len(target) {
				return nil, sqlerr.New(sqlerr.SyntaxError, "INSERT has more expressions than target columns")
			}
			return nil, sqlerr.New(sqlerr.SyntaxError, "INSERT has more target columns than expressions")
		}
		var targets []colTarget
		for i, c := range tableCols {
			targets = append(targets, colTarget{index: i, name: c.Name, t: c.Type})
		}
		if err := b.assignUnknownOutputs(q, provided, targets, info.Path.Table); err != nil {
			return nil, err
		}
		qcols = q.Columns()
		p := &Project{Input: q}
		for i, c := range tableCols {
			e, err := dflt(i)
			if err != nil {
				return nil, err
			}
			if provided[i] >= 0 && !overridden[i] {
				qc := qcols[provided[i]]
				var err error
				if e, err = b.assign(nil, &ColumnRef{Index: provided[i], Name: qc.Name, T: qc.T}, c.Name, c.Type, info.Path.Table); err != nil {
					return nil, err
				}
			}
			p.Exprs = append(p.Exprs, e)
			p.Cols = append(p.Cols, Column{Name: c.Name, T: c.Type.Nullable()})
		}
		source = p
	default:
		return nil, sqlerr.NotSupported("this INSERT form")
	}
	if err := checkConflictTarget(b.stmt.ConflictTarget, b.stmt.ConflictTargetPos, info); err != nil {
		return nil, err
	}
	out := &Insert{Table: info, Source: b.finishParams(source), OnConflictDoNothing: b.stmt.OnConflictDoNothing, params: b.params}
	if len(ins.OnDuplicate) > 0 {
		if !info.HasPrimaryKey() {
			return nil, sqlerr.New(sqlerr.InvalidColumnReference, "there is no unique or exclusion constraint matching the ON CONFLICT specification").
				WithDetail("Table %q is a log table (no primary key).", info.Path.Table)
		}
		merge, err := b.bindOnConflictUpdate(scan, ins.OnDuplicate)
		if err != nil {
			return nil, err
		}
		out.OnConflictUpdate = merge
		out.params = b.params
	}
	if b.stmt.Returning != nil {
		ret, err := b.bindReturning(newScope(scan), b.stmt.Returning)
		if err != nil {
			return nil, err
		}
		for i := range ret.Exprs {
			ret.Exprs[i] = finishParamsExpr(b, ret.Exprs[i])
		}
		out.Returning = &Returning{Cols: ret.Cols, Exprs: ret.Exprs}
		out.params = b.params
	}
	return out, nil
}

// assign converts e to a column's type with PostgreSQL's assignment rules:
// unknown literals are parsed, numeric types convert to each other (range
// checked when the row is built), anything converts to a string type, and
// other mismatches are 42804.
func (b *binder) assign(node ast.Node, e Expr, col string, t types.T, table string) (res Expr, err error) {
	defer func() { // a null at a NOT NULL place inside a ROW/ARRAY/MAP value
		if err == nil {
			err = b.nestedNotNull(node, res, t, col, table)
		}
	}()
	if out, ok, err := b.assignNested(node, e, col, t, table); ok {
		return out, err
	}
	target := t.Nullable()
	et := e.Type()
	if isUnknown(et) {
		out, err := b.coerceUnknown(node, e, target)
		if err != nil {
			return nil, err
		}
		return b.castTo(out, target), nil
	}
	ok := et.Equal(target) ||
		(et.IsNumeric() && target.IsNumeric()) ||
		target.IsString() ||
		castable(et, target) && !(et.IsString() && !target.IsString()) && et.Kind != types.Bool && target.Kind != types.Bool
	if !ok {
		return nil, b.errAt(node, sqlerr.New(sqlerr.DatatypeMismatch, "column %q is of type %s but expression is of type %s", col, target.PGName(), et.PGName()).
			WithHint("You will need to rewrite or cast the expression."))
	}
	if boundedString(target) && !et.Same(&target) {
		// a value too long for varchar(n)/character(n) is refused, where an
		// explicit cast truncates: the value as text, then the length rule
		c := b.newCast(b.castTo(e, types.StringType), target)
		c.Assign = true
		return c, nil
	}
	return b.castTo(e, target), nil
}

// boundedString reports whether t is varchar(n) or character(n), whose
// length an assignment checks.
func boundedString(t types.T) bool {
	return t.Kind == types.Char || t.Kind == types.String && t.Length > 0
}

// bindOnConflictUpdate binds ON CONFLICT ... DO UPDATE SET (TiDB's ON
// DUPLICATE KEY UPDATE): each assignment is an expression over the existing
// row (the table's columns) followed by the proposed row (EXCLUDED.x, which
// the rewrite turns into VALUES(x)). The result has one expression per
// table column; columns not assigned keep the existing value.
func (b *binder) bindOnConflictUpdate(scan *Scan, list []*ast.Assignment) ([]Expr, error) {
	info := scan.Table
	cols := info.Descriptor.Schema.Columns
	n := len(cols)
	sc := &scope{tables: map[string]bool{scan.Alias: true, "excluded": true}}
	for i, c := range cols {
		sc.cols = append(sc.cols, Column{Name: c.Name, T: c.Type, Table: scan.Alias, Ordinal: i + 1})
	}
	for _, c := range cols {
		sc.cols = append(sc.cols, Column{Name: c.Name, T: c.Type, Table: "excluded"})
	}
	// An unqualified name means the existing row's column, as in
	// PostgreSQL; make it unambiguous by resolving it there first.
	b.excludedScope = sc
	defer func() { b.excludedScope = nil }()
	out := make([]Expr, n)
	pk := map[string]bool{}
	for _, k := range info.Descriptor.Schema.PrimaryKey {
		pk[k] = true
	}
	for _, a := range list {
		name := ident(a.Column.Name)
		idx := info.ColumnIndex(name)
		if idx < 0 {
			return nil, b.errAt(a.Column, sqlerr.New(sqlerr.UndefinedColumn, "column %q of relation %q does not exist", name, info.Path.Table))
		}
		if pk[name] {
			return nil, b.errAt(a.Column, sqlerr.New(sqlerr.FeatureNotSupported, "ON CONFLICT DO UPDATE cannot change primary-key column %q", name))
		}
		if out[idx] != nil {
			return nil, b.errAt(a.Column, sqlerr.New(sqlerr.SyntaxError, "multiple assignments to same column %q", name))
		}
		e, err := b.bindExpr(sc, a.Expr)
		if err != nil {
			return nil, err
		}
		if e, err = b.assign(a.Expr, e, name, cols[idx].Type, info.Path.Table); err != nil {
			return nil, err
		}
		out[idx] = e
	}
	for i, c := range cols {
		if out[i] == nil {
			out[i] = &ColumnRef{Index: i, Name: c.Name, T: c.Type}
		}
		out[i] = finishParamsExpr(b, out[i])
	}
	return out, nil
}

// finishParamsExpr stamps final parameter types into one expression.
func finishParamsExpr(b *binder, e Expr) Expr {
	Walk(e, func(x Expr) {
		if p, ok := x.(*Param); ok {
			p.T = b.params[p.Index]
		}
	})
	return e
}

// checkConflictTarget checks that ON CONFLICT (cols) names the primary key,
// a Fluss table's only unique constraint (in any order), as PostgreSQL
// requires a matching unique index.
func checkConflictTarget(target []string, pos int, info fluss.TableInfo) error {
	if target == nil {
		return nil
	}
	pk := info.Descriptor.Schema.PrimaryKey
	for _, c := range target {
		if info.ColumnIndex(c) < 0 {
			return sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" does not exist", c).WithPosition(pos)
		}
	}
	same := len(target) == len(pk)
	for _, k := range pk {
		found := false
		for _, c := range target {
			found = found || c == k
		}
		same = same && found
	}
	if !same {
		return sqlerr.New(sqlerr.InvalidColumnReference, "there is no unique or exclusion constraint matching the ON CONFLICT specification")
	}
	return nil
}
