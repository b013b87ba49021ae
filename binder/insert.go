package binder

import (
	"math"
	"time"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/functions"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// bindInsertTree binds INSERT INTO t [(cols)] VALUES ... | SELECT ...
// against the table's columns: each value is converted to its column's
// type (assignment rules), omitted nullable columns become NULL, and an
// omitted NOT NULL column is rejected here, before anything is written
// (seed 000).
func (b *binder) bindInsertTree(ins *pt.Insert) (Statement, error) {
	if ins.Refused != "" {
		return nil, sqlerr.NotSupported(ins.Refused)
	}
	via, err := b.viewInsert(ins) // viewwrite.go
	if err != nil {
		return nil, err
	}
	tsrc, err := b.bindInsertTarget(ins.Target) // dmledge.go
	if err != nil {
		return nil, err
	}
	scan, ok := tsrc.(*Scan)
	if !ok || scan.Changelog {
		return nil, sqlerr.NotSupported("INSERT into this target")
	}
	if a := ins.Alias; a != "" { // INSERT INTO t AS a: only a names it
		scan = NewScan(scan.Table, a)
		b.noteScan(scan) // the table's name is hidden (scope.go's aliasHiding)
	}
	if ins, err = b.mergeSubscriptedInsert(ins); err != nil { // arrayassign.go
		return nil, err
	}
	ins = valuesRowAsSelect(ins, scan.Table.Descriptor.Schema.Columns) // srf.go
	if ins.With != nil && ins.Query == nil {
		// WITH ... INSERT ... VALUES: the rows' subqueries (and ON
		// CONFLICT's) see the WITH queries; the target does not
		saved := b.ctes
		defer func() { b.ctes = saved }()
		if err := b.bindWriteWith(ins.With, ins); err != nil { // dmledge.go
			return nil, err
		}
	}
	info := scan.Table
	tableCols := info.Descriptor.Schema.Columns
	// target[i] = table column index of the i-th value
	var target []int
	if len(ins.Columns) == 0 {
		target = make([]int, len(tableCols))
		for i := range tableCols {
			target[i] = i
		}
	} else {
		seen := map[int]bool{}
		for _, cn := range ins.Columns {
			name := cn.Name
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
	// The query of INSERT ... SELECT is bound after the column list is
	// checked and before values are matched to the columns, as
	// PostgreSQL's transformInsertStmt does (checkInsertTargets first).
	var query Node
	if ins.Query != nil && ins.Rows == nil {
		if query, err = b.bindInsertSelect(ins); err != nil {
			return nil, err
		}
	}
	b.assignInto = scan // domains.go
	if len(ins.Columns) == 0 {
		// PostgreSQL (transformInsertStmt): without a column list, fewer
		// values than columns fill the leading columns and leave the rest
		// to their defaults; more values are an error reported per row.
		n := len(target)
		switch {
		case ins.Rows != nil:
			n = len(ins.Rows[0])
			for _, row := range ins.Rows[1:] {
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
	overridden, err := b.insertOverride(info, provided, ins, query)
	if err != nil {
		return nil, err
	}
	if err := refuseGeneratedInsert(info, provided, ins, query); err != nil { // generated.go
		return nil, err
	}
	var source Node
	switch {
	case ins.Rows != nil:
		values, err := b.bindInsertRows(ins.Rows, ins.Columns, info, target, provided, overridden, dflt)
		if err != nil {
			return nil, err
		}
		source = values
	case query != nil:
		q := query
		qcols := q.Columns()
		if len(qcols) != len(target) {
			return nil, b.insertCountError(ins, len(qcols), len(target))
		}
		var targets []colTarget
		for i, c := range tableCols {
			targets = append(targets, colTarget{index: i, name: c.Name, t: c.Type})
		}
		copied, err := b.assignUnknownOutputs(q, provided, targets, info.Path.Table)
		if err != nil {
			return nil, err
		}
		qcols = q.Columns()
		p := &Project{Input: q}
		for i, c := range tableCols {
			var e Expr
			if provided[i] < 0 || overridden[i] {
				// only an omitted column's default is bound: a default
				// too long for its column fails where it is used
				var err error
				if e, err = dflt(i); err != nil {
					return nil, err
				}
			}
			if provided[i] >= 0 && !overridden[i] {
				qc := qcols[provided[i]]
				var in Expr = &ColumnRef{Index: provided[i], Name: qc.Name, T: qc.T}
				if k, ok := constantOutput(q, provided[i]); ok { // insertselect.go
					in = k
				} else if k, ok := copied[provided[i]]; ok {
					in = k
				}
				var err error
				at := insertSelectTarget(ins, provided[i], len(qcols)) // insertselect.go
				if e, err = b.assign(at, in, c.Name, c.Type, info.Path.Table); err != nil {
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
	if source, err = b.generatedRow(info, source); err != nil { // generated.go
		return nil, err
	}
	oc := ins.OnConflict
	if oc == nil {
		oc = &pt.OnConflict{}
	}
	err = checkConflictTarget(oc.Target, oc.TargetPos, info)
	if err == nil && b.stmt.ConflictConstraint != "" {
		err = checkConflictConstraint(b.stmt.ConflictConstraint, info) // unique.go
	}
	arbiter := conflictArbiter(oc.Target, b.stmt.ConflictConstraint, info) // unique.go
	if err == nil && oc.TargetWhere != nil {
		err = b.checkTargetWhere(scan, oc.TargetWhere) // upsert.go
	}
	if err != nil {
		return nil, err
	}
	out := &Insert{Table: info, Source: b.finishParams(source), OnConflictDoNothing: oc.DoNothing, Arbiter: arbiter, params: b.params, Via: via}
	out.Volatile = callsVolatile(out.Source)
	if len(oc.Update) > 0 {
		if !info.HasPrimaryKey() {
			return nil, sqlerr.New(sqlerr.InvalidColumnReference, "there is no unique or exclusion constraint matching the ON CONFLICT specification").
				WithDetail("Table %q is a log table (no primary key).", info.Path.Table)
		}
		// the generated columns of the updated rows are computed over
		// them when they are built (engine/generated.go, as
		// exec.Insert.MergeGenerated): merge's are placeholders
		byKey := info.HasPrimaryKey() && arbiter == info.PrimaryKeyName()
		merge, where, err := b.bindOnConflictUpdate(scan, oc.Update, oc.Where, byKey)
		if err != nil {
			return nil, err
		}
		out.OnConflictUpdate, out.OnConflictWhere = merge, where
		out.params = b.params
	}
	if out.ViewChecks, err = b.bindViewChecks(scan); err != nil { // viewcheck.go
		return nil, err
	}
	out.params = b.params
	if ins.Returning != nil {
		ret, err := b.bindReturning(newScope(scan), ins.Returning, ins.With, ins)
		if err != nil {
			if len(oc.Update) > 0 {
				err = excludedOutsideUpdate(err) // upsert.go
			}
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

// bindInsertRows binds INSERT's VALUES rows: each row holds every table
// column (table order), its written values converted to their columns'
// types, the omitted ones' defaults after them.
func (b *binder) bindInsertRows(rows [][]pt.Expr, cols []*pt.InsertColumn, info fluss.TableInfo, target, provided []int, overridden []bool, dflt func(int) (Expr, error)) (*Values, error) {
	tableCols := info.Descriptor.Schema.Columns
	values := &Values{Rows: make([][]Expr, 0, len(rows))}
	// one backing array for all the rows' cells: a 1000-row INSERT makes
	// one allocation here rather than a thousand
	cells := make([]Expr, len(rows)*len(tableCols))
	lc := literalCells{consts: make([]Const, len(rows)*len(target))}
	if len(rows) > 1 {
		// PostgreSQL's place name for a set-returning call in a
		// multi-row VALUES list (srf.go)
		defer b.refuseSetCalls("VALUES")()
	}
	for _, row := range rows {
		if len(row) > len(target) {
			return nil, b.errAt(row[len(target)], sqlerr.New(sqlerr.SyntaxError, "INSERT has more expressions than target columns"))
		}
		if len(row) < len(target) {
			err := sqlerr.New(sqlerr.SyntaxError, "INSERT has more target columns than expressions")
			if len(row) < len(cols) {
				return nil, b.errAt(cols[len(row)], err) // at the first column without a value, as PostgreSQL
			}
			return nil, err
		}
		// The written values first, in the order they are written, then
		// the omitted columns' defaults: PostgreSQL transforms the target
		// list in that order (its rewriter adds the defaults), so a
		// statement's first error is the same.
		out := cells[:len(tableCols):len(tableCols)]
		cells = cells[len(tableCols):]
		for pos, i := range target {
			if overridden[i] {
				continue
			}
			var err error
			if out[i], err = b.bindInsertValue(row[pos], tableCols[i], info.Path.Table, i, dflt, &lc); err != nil {
				return nil, err
			}
		}
		for i := range tableCols {
			if out[i] == nil {
				var err error
				if out[i], err = dflt(i); err != nil {
					return nil, err
				}
			}
		}
		values.Rows = append(values.Rows, out)
	}
	values.Cols = make([]Column, len(tableCols))
	for i, c := range tableCols {
		values.Cols[i] = Column{Name: c.Name, T: c.Type.Nullable()}
	}
	if len(rows) > 1 {
		// PostgreSQL folds a VALUES list's rows in the written column
		// order (the columns not written hold their defaults, folded when
		// the rows are stored: after)
		values.FoldOrder = append(values.FoldOrder, target...)
		for i := range tableCols {
			if provided[i] < 0 {
				values.FoldOrder = append(values.FoldOrder, i)
			}
		}
	}
	return values, nil
}

// bindInsertValue binds one written value of a VALUES row for column c
// (index i): DEFAULT is the column's default, a plain literal of a scalar
// column is read straight into the column's type (literalCell), anything
// else is bound and assigned to the column's type.
func (b *binder) bindInsertValue(node pt.Expr, c fluss.Column, table string, i int, dflt func(int) (Expr, error), lc *literalCells) (Expr, error) {
	switch n := node.(type) {
	case *pt.Default:
		return dflt(i)
	case *pt.Literal:
		if e, ok, err := b.literalCell(n, c.Type.Nullable(), lc); ok {
			return e, err
		}
	}
	e, err := b.bindTree(nil, node)
	if err != nil {
		return nil, err
	}
	return b.assign(node, e, c.Name, c.Type, table)
}

// literalCells is what reading VALUES' literals needs once per statement
// rather than once per cell: the session's zone and the transaction's
// time, which a timestamp literal reads ('now', a zone-less timestamptz),
// and DateStyle's order, which reads a date in numbers only (1/2/2020),
// and IntervalStyle, whose sql_standard reads a leading minus for all fields.
type literalCells struct {
	ready bool
	loc   *time.Location
	now   time.Time
	style types.Style
	// consts are the rows' constants, cut from one array sized for every
	// cell of the statement (the binder's arena hands them out 8 at a
	// time, which for 6000 cells is 750 allocations).
	consts []Const
}

// newConst is the binder's newConst from lc's array.
func (lc *literalCells) newConst(v any, t types.T) *Const {
	if len(lc.consts) == 0 {
		return &Const{Value: v, T: t}
	}
	c := &lc.consts[0]
	lc.consts = lc.consts[1:]
	*c = Const{Value: v, T: t}
	return c
}

// literalCell reads a plain literal written for a column of scalar type t
// (nullable) as assign would, without the general path's steps (a bound
// literal of its own type, then an assignment cast that lower folds): the
// constant of t at once. ok is false where the general path decides more
// than this reads (a ROW, MAP, array, interval or reg* column, a nested
// NOT NULL, a conversion that can fail after binding, such as an integer
// out of a smallint's range), so that its errors stay the general path's.
// A string literal is read by the column type's input function here, as
// coerceUnknown reads it, its 22P02 / 22007 / 22001 positioned at the
// literal.
func (b *binder) literalCell(n *pt.Literal, t types.T, lc *literalCells) (Expr, bool, error) {
	switch t.Kind {
	case types.Array, types.Row, types.Map, types.Interval, types.Unknown, types.Null:
		return nil, false, nil
	}
	if t.Variant != types.NoVariant {
		return nil, false, nil
	}
	switch n.Kind {
	case pt.LitNull:
		return lc.newConst(nil, t), true, nil
	case pt.LitInt:
		v := n.Int
		switch t.Kind {
		case types.Int64:
			return lc.newConst(v, t), true, nil
		case types.Int32:
			if v >= math.MinInt32 && v <= math.MaxInt32 {
				return lc.newConst(v, t), true, nil
			}
		case types.Float64:
			return lc.newConst(float64(v), t), true, nil
		}
	case pt.LitDecimal:
		if t.Kind == types.Float64 {
			// numeric to double precision reads the digits as float8in
			// does (exec's cast: numeric.ToFloat64)
			if f, err := numeric.ParseFloat(n.Text, 64); err == nil {
				return lc.newConst(f, t), true, nil
			}
		}
	case pt.LitString:
		if t.Kind == types.Bool || t.Kind == types.Bytes {
			return nil, false, nil
		}
		if (t.Kind == types.String || t.Kind == types.Unknown) && t.Length <= 0 {
			return lc.newConst(n.Text, t), true, nil
		}
		if !lc.ready {
			lc.loc, lc.now, lc.ready = functions.LocationOf(b.ctx), functions.TransactionTime(b.ctx), true
			lc.style = functions.StyleOf(b.ctx)
		}
		v, err := types.ParseTextStyle(n.Text, t, lc.loc, lc.now, lc.style)
		if err != nil {
			if se := sqlerr.As(err); se != nil {
				return nil, true, b.errAt(n, se)
			}
			return nil, true, err
		}
		return lc.newConst(v, t), true, nil
	}
	return nil, false, nil
}

// allDefaultAt reports whether every VALUES row writes DEFAULT at position
// pos (an INSERT ... SELECT writes the query's values: never all DEFAULT).
func allDefaultAt(ins *pt.Insert, pos int, query Node) bool {
	if query != nil {
		return false
	}
	for _, row := range ins.Rows {
		if _, ok := row[pos].(*pt.Default); !ok {
			return false
		}
	}
	return true
}

// insertOverride applies OVERRIDING { SYSTEM | USER } VALUE and GENERATED
// ALWAYS to an INSERT's provided columns (provided[i] >= 0): it returns
// the columns whose given values are replaced by their default (OVERRIDING
// USER VALUE), and refuses a value other than DEFAULT for a GENERATED
// ALWAYS column unless OVERRIDING SYSTEM VALUE is written (428C9).
func (b *binder) insertOverride(info fluss.TableInfo, provided []int, ins *pt.Insert, query Node) ([]bool, error) {
	meta := fluss.MetaOf(info.Descriptor)
	over := make([]bool, len(provided))
	for i, pos := range provided {
		if pos < 0 {
			continue
		}
		id := meta.Column(i).Identity
		if id == 0 {
			continue
		}
		switch ins.Overriding {
		case "user":
			over[i] = true
			continue
		case "system":
			continue
		}
		if id != 'a' {
			continue
		}
		if !allDefaultAt(ins, pos, query) {
			name := info.Descriptor.Schema.Columns[i].Name
			return nil, sqlerr.New(generatedAlwaysCode, "cannot insert a non-DEFAULT value into column \"%s\"", name).
				WithDetail("Column \"%s\" is an identity column defined as GENERATED ALWAYS.", name).
				WithHint("Use OVERRIDING SYSTEM VALUE to override.")
		}
	}
	return over, nil
}

// textTarget reports a string type anything is assigned to through its
// text (PostgreSQL's automatic I/O conversion to the string category):
// text, varchar, bpchar, name. The types sqlgate also holds as strings
// but PostgreSQL keeps apart (jsonb, uuid, inet, tsvector, an enum, a
// range ...: functions.OwnStringType) take no text by assignment: a text
// expression into a jsonb column is 42804, as an unknown literal is not.
func textTarget(t types.T) bool {
	return t.IsString() && !functions.OwnStringType(t) && t.Variant != types.QChar
}

// assignCastRule decides an assignment where pg_cast's rows, not the
// string category's I/O conversions, do (handled false elsewhere): name,
// text's kin, takes nothing but a string type out of it (its I/O
// conversions to the others are explicit), "char" converts only to and
// from text, varchar and bpchar, and oid, the reg* types and xid as
// oidCastable says (an integer to oid or a reg* type, those to int4 and
// int8, not to int2).
func assignCastRule(from, to types.T) (ok, handled bool) {
	switch {
	case from.Variant == types.QChar || to.Variant == types.QChar:
		return qcharAssignable(from, to), true
	case stringCategory(to):
		return false, false
	case from.Kind == types.Name:
		return false, true
	case from.Variant == types.RegConfig || to.Variant == types.RegConfig:
		return regconfigCastable(from, to)
	case from.Kind == types.Oid || to.Kind == types.Oid:
		return oidCastable(from, to), true
	}
	return false, false
}

// assign converts e to a column's type with PostgreSQL's assignment rules:
// unknown literals are parsed, numeric types convert to each other (range
// checked when the row is built), anything converts to a string type, and
// other mismatches are 42804.
func (b *binder) assign(node sourceNode, e Expr, col string, t types.T, table string) (res Expr, err error) {
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
		textTarget(target) ||
		castable(et, target) && !(et.IsString() && !target.IsString()) && !(textTarget(et) && !textTarget(target)) &&
			et.Kind != types.Bool && target.Kind != types.Bool
	if target.IsBitString() {
		ok = et.IsBitString() // only bit strings assign to one (bitstring.go)
	}
	if ok2, handled := smallAssignable(et, target); handled { // smalltypes.go
		ok = ok2
	}
	if ok2, handled := assignCastRule(et, target); handled {
		ok = ok2
	}
	if !ok {
		return nil, b.errAt(node, sqlerr.New(sqlerr.DatatypeMismatch, "column %q is of type %s but expression is of type %s", col, b.assignTypeName(col, table, target), et.PGName()).
			WithHint("You will need to rewrite or cast the expression."))
	}
	if target.Kind == types.Array && boundedString(target.ArrayLeaf()) && !et.Same(&target) {
		// an array's elements are assigned one by one: each too long for
		// varchar(n)/character(n) (or a bit string's typmod) is refused,
		// where an explicit cast truncates
		c := b.newCast(e, target)
		c.Assign = true
		return c, nil
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
// table column; columns not assigned keep the existing value. where, when
// set, is DO UPDATE's WHERE, bound over the same pair (nil when none).
// byKey: the arbiter is the primary key, so a key column set to its own
// EXCLUDED value (as ORMs' upserts write every column) keeps its value.
func (b *binder) bindOnConflictUpdate(scan *Scan, list []*pt.Assignment, where pt.Expr, byKey bool) ([]Expr, Expr, error) {
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
	// Both rows are in the namespace, as PostgreSQL's
	// transformOnConflictClause adds the target and EXCLUDED: an
	// unqualified name of a table column is in both and so ambiguous
	// (42702), in SET and WHERE alike. EXCLUDED is a composite type's
	// row there, without system columns: those are the target's alone.
	b.excludedScope = sc
	defer func() { b.excludedScope = nil }()
	out := make([]Expr, n)
	pk := map[string]bool{}
	for _, k := range info.Descriptor.Schema.PrimaryKey {
		pk[k] = true
	}
	// PostgreSQL's order (update.go's bindSetList): every SET value,
	// then each target column and its value's conversion, in the order
	// written; DO UPDATE's WHERE; then the rewriter's refusals of a
	// second assignment to a column and of a value for a generated or
	// identity ALWAYS column; sqlgate's own refusal of a primary-key
	// column last
	values := make([]Expr, len(list))
	for k, a := range list {
		if _, isDefault := a.Value.(*pt.Default); !isDefault {
			if err := b.refuseAggregateIn(a.Value, "UPDATE"); err != nil { // upsert.go
				return nil, nil, err
			}
			e, err := b.bindTree(sc, a.Value)
			if err != nil {
				return nil, nil, err
			}
			values[k] = e
		}
		if err := deferredSetError(list, k); err != nil { // update.go
			return nil, nil, err
		}
	}
	at := make([]int, len(list))
	steps := make([]*subscriptedStep, len(list))
	for k, a := range list {
		if a.Table != "" {
			return nil, nil, fieldTargetError(b, a, info) // arrayassign.go
		}
		idx := info.ColumnIndex(a.Column)
		if idx < 0 {
			return nil, nil, b.errAt(a, sqlerr.New(sqlerr.UndefinedColumn, "column %q of relation %q does not exist", a.Column, info.Path.Table))
		}
		at[k] = idx
		if a.Target != nil && values[k] != nil { // col[..] = value: arrayassign.go
			var err error
			if steps[k], err = b.bindSubscriptedTarget(sc, a, values[k], cols[idx].Type, info.Path.Table); err != nil {
				return nil, nil, err
			}
			continue
		}
		if values[k] != nil {
			var err error
			if values[k], err = b.assign(a.Value, values[k], a.Column, cols[idx].Type, info.Path.Table); err != nil {
				return nil, nil, err
			}
		}
	}
	var cond Expr
	if where != nil {
		var err error
		if cond, err = b.bindConflictWhere(sc, where); err != nil { // upsert.go
			return nil, nil, err
		}
	}
	items, err := b.sameColumnItems(list, at, n) // arrayassign.go
	if err != nil {
		return nil, nil, err
	}
	named := make([]int, n) // the first assignment of each column, +1
	for idx, ks := range items {
		if len(ks) > 0 {
			named[idx] = ks[0] + 1
		}
	}
	for idx, k := range named {
		if k == 0 {
			continue
		}
		a := list[k-1]
		if _, isDefault := a.Value.(*pt.Default); !isDefault {
			if err := refuseIdentityUpdate(info, idx); err != nil { // coldefs.go
				return nil, nil, err
			}
		}
		gen, err := b.generatedAssignment(info, idx, a.Value) // generated.go
		if err != nil {
			return nil, nil, err
		}
		out[idx] = gen
	}
	for idx, k := range named {
		if k == 0 || out[idx] != nil {
			continue
		}
		a := list[k-1]
		if pk[a.Column] {
			if ref, ok := values[k-1].(*ColumnRef); ok && byKey && a.Target == nil && len(items[idx]) == 1 && ref.Index == n+idx {
				continue // the conflicting row's key is EXCLUDED's: no change
			}
			return nil, nil, b.errAt(a, sqlerr.New(sqlerr.FeatureNotSupported, "ON CONFLICT DO UPDATE cannot change primary-key column %q", a.Column))
		}
		e := values[k-1]
		if a.Target != nil {
			// each item over the one before, the first over the
			// existing row's value
			var chain []*subscriptedStep
			for _, j := range items[idx] {
				chain = append(chain, steps[j])
			}
			e = applySubscripted(&ColumnRef{Index: idx, Name: cols[idx].Name, T: cols[idx].Type}, chain, cols[idx].Type)
		} else if e == nil { // DEFAULT: the column's default, as UPDATE's
			var err error
			if e, err = b.columnDefault(info, idx); err == nil { // coldefs.go
				e, err = b.assign(a.Value, e, a.Column, cols[idx].Type, info.Path.Table)
			}
			if err != nil {
				return nil, nil, err
			}
		}
		out[idx] = e
	}
	for i, c := range cols {
		if out[i] == nil {
			out[i] = &ColumnRef{Index: i, Name: c.Name, T: c.Type}
		}
		out[i] = finishParamsExpr(b, out[i])
	}
	return out, cond, nil
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

// checkConflictTarget checks that ON CONFLICT (cols) names the primary key
// or a unique constraint's or index's columns (in any order), as
// PostgreSQL requires a matching unique index.
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
	if same || uniqueTargetOf(target, info) { // unique.go
		return nil
	}
	return sqlerr.New(sqlerr.InvalidColumnReference, "there is no unique or exclusion constraint matching the ON CONFLICT specification")
}

// insertCountError is PostgreSQL's 42601 for an INSERT ... query whose
// query has n outputs for want target columns, at the first column
// without a value or the first output without a column (a SELECT's
// select list written without *; PostgreSQL places a set operation's
// or an expanded *'s nowhere it can be told from here).
func (b *binder) insertCountError(ins *pt.Insert, n, want int) error {
	if n < want {
		err := sqlerr.New(sqlerr.SyntaxError, "INSERT has more target columns than expressions")
		if n < len(ins.Columns) {
			return b.errAt(ins.Columns[n], err)
		}
		return err
	}
	err := sqlerr.New(sqlerr.SyntaxError, "INSERT has more expressions than target columns")
	sel, ok := ins.Query.(*pt.Select)
	if !ok || !ins.QuerySelect || len(sel.Targets) != n {
		return err
	}
	for _, t := range sel.Targets {
		if _, star := t.X.(*pt.Star); star {
			return err
		}
	}
	return b.errAt(sel.Targets[want].X, err)
}
