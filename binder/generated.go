package binder

import (
	"context"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Stored generated columns (GENERATED ALWAYS AS (expr) STORED), as
// PostgreSQL 15 has them. The expression is kept in the column's metadata
// (fluss.ColumnMeta.Generated, PostgreSQL text) and the value is stored in
// the Fluss table like any column's: sqlgate computes it on every write
// from the row's other columns, once that row is built, as PostgreSQL's
// ExecComputeStoredGenerated does: a projection over a full new row in
// table order (generatedRow: INSERT's VALUES and SELECT, MERGE's INSERT;
// generatedUpdate: UPDATE's and MERGE's UPDATE's SET), or the same
// expressions over the rows ON CONFLICT DO UPDATE and COPY build
// (engine/generated.go), so that CHECK and NOT NULL see the computed
// value.

// generationKind is PostgreSQL's name of the expression kind in errors.
const generationKind = "column generation expression"

// generationRefusal finds what a generation expression may not contain
// (subqueries, aggregates, window functions, parameters, references to a
// generated column or to the whole row), with PostgreSQL's errors.
type generationRefusal struct {
	b         *binder
	table     string
	generated map[string]bool
	columns   map[string]bool
	err       error
}

func (v *generationRefusal) visit(n pt.Expr) bool {
	if v.err != nil {
		return false
	}
	switch n := n.(type) {
	case *pt.ColumnRef:
		if n.Table != "" && n.Table != v.table {
			return true // the binder's error (missing FROM-clause entry)
		}
		switch {
		case v.generated[n.Name]:
			v.err = v.b.errAt(n, sqlerr.New(sqlerr.InvalidObjectDefinition, "cannot use generated column \"%s\" in %s", n.Name, generationKind).
				WithDetail("A generated column cannot reference another generated column."))
		case n.Table == "" && n.Name == v.table && !v.columns[n.Name]:
			v.err = v.b.errAt(n, errWholeRowGeneration())
		}
	case *pt.Subquery:
		v.err = v.b.errAt(n, sqlerr.New(sqlerr.FeatureNotSupported, "cannot use subquery in %s", generationKind))
	case *pt.FuncCall:
		switch {
		case n.Over != nil:
			v.err = v.b.errAt(n, sqlerr.New(sqlerr.WindowingError, "window functions are not allowed in %ss", generationKind))
		case n.Aggregate:
			v.err = v.b.errAt(n, sqlerr.New(sqlerr.GroupingError, "aggregate functions are not allowed in %ss", generationKind))
		}
	case *pt.Param:
		v.err = v.b.errAt(n, sqlerr.New(sqlerr.UndefinedParameter, "there is no parameter $%d", 1))
	}
	return v.err == nil
}

func errWholeRowGeneration() *sqlerr.Error {
	return sqlerr.New(sqlerr.InvalidObjectDefinition, "cannot use whole-row variable in %s", generationKind).
		WithDetail("This would cause the generated column to depend on its own value.")
}

// stableInPostgres are built-in functions PostgreSQL marks stable
// (provolatile 's'), which sqlgate's library does not flag volatile: a
// generation expression may call neither.
var stableInPostgres = map[string]bool{
	"to_char": true, "to_timestamp": true, "to_date": true, "age": true, "current_setting": true,
	"current_schema": true, "current_schemas": true, "current_database": true, "current_user": true,
	"session_user": true, "current_role": true, "user": true, "timeofday": true, "date_trunc": true,
	"pg_typeof": false, "to_regclass": true, "to_regtype": true, "format": true, "concat": true, "concat_ws": true,
	"array_to_json": false, "row_to_json": false, "to_json": true, "to_jsonb": true, "jsonb_build_object": true,
	"json_build_object": true, "json_build_array": true, "jsonb_build_array": true, "nextval": true,
	"currval": true, "setval": true, "lastval": true, "has_table_privilege": true, "obj_description": true,
	"col_description": true, "pg_get_expr": true, "version": true,
}

// immutable reports whether e calls only immutable functions, as a
// generation expression must (a user-defined function counts as volatile,
// as CREATE FUNCTION's default is).
func immutable(e Expr) bool {
	ok := true
	Walk(e, func(x Expr) {
		switch f := x.(type) {
		case *FuncCall:
			if isWholeRow(f) {
				return
			}
			if f.Volatile || functions.VolatileInPostgres(f.Name) || stableInPostgres[f.Name] {
				ok = false
			}
		case *Cast:
			if stableCast(f.X.Type(), f.T) {
				ok = false
			}
		case *UDFCall, *Subquery:
			ok = false
		}
	})
	return ok
}

// stableCast reports whether PostgreSQL's cast from one type to another
// calls a stable function: the text forms of dates, times and intervals
// (DateStyle, IntervalStyle, TimeZone), of arrays and records (array_out,
// record_out and their inputs are stable), and the conversions through the
// session's time zone. A literal's type is decided when it is bound, not
// cast (Unknown is no text here), as PostgreSQL folds it.
func stableCast(from, to types.T) bool {
	textual := func(k types.Kind) bool { return k == types.String || k == types.Char }
	switch {
	case from.Kind == types.Array && to.Kind == types.Array && from.Elem != nil && to.Elem != nil:
		return stableCast(*from.Elem, *to.Elem)
	case textual(to.Kind):
		switch from.Kind {
		case types.Date, types.Timestamp, types.TimestampTZ, types.Interval, types.Array, types.Row:
			return true
		}
	case textual(from.Kind):
		switch to.Kind {
		case types.Date, types.Time, types.Timestamp, types.TimestampTZ, types.Interval, types.TimeTZ, types.Array, types.Row:
			return true
		}
	case from.Kind == types.TimestampTZ:
		return to.Kind == types.Date || to.Kind == types.Time || to.Kind == types.Timestamp || to.Kind == types.TimeTZ
	case to.Kind == types.TimestampTZ:
		return from.Kind == types.Date || from.Kind == types.Timestamp
	case from.Kind == types.Time:
		return to.Kind == types.TimeTZ
	}
	return false
}

// bindGenerationText binds column i's generation expression (as written at
// CREATE TABLE, pos its position there, or as stored, pos 0) over the
// table's columns, converted to the column's type; gen marks the table's
// generated columns. PostgreSQL's CREATE-time checks come with it.
func (b *binder) bindGenerationText(text string, pos int, table string, cols []fluss.Column, gen []bool, i int) (Expr, error) {
	x, err := parseExprText(text) // exprbind.go
	if err != nil {
		return nil, err
	}
	sub := &binder{ctx: b.ctx, cat: b.cat, stmt: x.st, funcUses: b.funcUses}
	// errors point into "SELECT " + text: move them to the statement's text
	at := func(err error) error {
		se := sqlerr.As(err)
		if se == nil || se.Position == 0 {
			return err
		}
		if pos == 0 {
			return se.WithPosition(0)
		}
		return se.WithPosition(pos + se.Position - 1 - len("SELECT "))
	}
	v := &generationRefusal{b: sub, table: table, generated: map[string]bool{}, columns: map[string]bool{}}
	for k, c := range cols {
		v.columns[c.Name] = true
		if gen[k] {
			v.generated[c.Name] = true
		}
	}
	pt.Walk(x.tree, v.visit)
	if v.err != nil {
		return nil, at(v.err)
	}
	restore := sub.refuseSetCalls(generationKind + "s") // srf.go
	e, err := sub.bindTree(sub.tableScope(table, cols), x.tree)
	restore()
	if err != nil {
		return nil, at(err)
	}
	wholeRow := false
	Walk(e, func(x Expr) {
		if f, ok := x.(*FuncCall); ok && isWholeRow(f) {
			wholeRow = true
		}
	})
	if wholeRow {
		return nil, errWholeRowGeneration().WithPosition(max(pos, 0))
	}
	if !immutable(e) {
		return nil, sqlerr.New(sqlerr.InvalidObjectDefinition, "generation expression is not immutable")
	}
	col := cols[i]
	out, err := sub.assign(nil, e, col.Name, col.Type.Nullable(), table)
	if err != nil {
		if sqlerr.CodeOf(err) == sqlerr.DatatypeMismatch {
			return nil, sqlerr.New(sqlerr.DatatypeMismatch, "column \"%s\" is of type %s but default expression is of type %s", col.Name, col.Type.Nullable().PGName(), e.Type().PGName()).
				WithHint("You will need to rewrite or cast the expression.")
		}
		return nil, at(err)
	}
	return out, nil
}

// GeneratedColumns marks the columns of info that are stored generated
// columns (nil when none is).
func GeneratedColumns(info fluss.TableInfo) []bool {
	if !fluss.HasGeneratedColumn(info.Descriptor) {
		return nil
	}
	meta := fluss.MetaOf(info.Descriptor)
	var gen []bool
	for i := range info.Descriptor.Schema.Columns {
		if meta.Column(i).Generated != "" {
			if gen == nil {
				gen = make([]bool, len(info.Descriptor.Schema.Columns))
			}
			gen[i] = true
		}
	}
	return gen
}

// generationExprs binds info's generation expressions over its columns
// (nil where a column is not generated; nil when none is).
func (b *binder) generationExprs(info fluss.TableInfo) ([]Expr, error) {
	gen := GeneratedColumns(info)
	if gen == nil {
		return nil, nil
	}
	meta := fluss.MetaOf(info.Descriptor)
	cols := info.Descriptor.Schema.Columns
	out := make([]Expr, len(cols))
	for i := range cols {
		if !gen[i] {
			continue
		}
		e, err := b.bindGenerationText(meta.Column(i).Generated, 0, info.Path.Table, cols, gen, i)
		if err != nil {
			return nil, err
		}
		out[i] = e
	}
	return out, nil
}

// generatedRow puts the computation of info's generated columns after
// rows, a node whose first columns are a full new row of the table in
// table order (columns after them pass through): the generated columns'
// values become their expressions over the row. rows is returned as is
// when the table has no generated column.
func (b *binder) generatedRow(info fluss.TableInfo, rows Node) (Node, error) {
	exprs, err := b.generationExprs(info)
	if err != nil || exprs == nil {
		return rows, err
	}
	in := rows.Columns()
	p := &Project{Input: rows, Generated: true}
	for i, c := range in {
		var e Expr = &ColumnRef{Index: i, Name: c.Name, T: c.T}
		if i < len(exprs) && exprs[i] != nil {
			e = exprs[i]
		}
		p.Exprs = append(p.Exprs, e)
		p.Cols = append(p.Cols, c)
	}
	return p, nil
}

// generatedUpdate computes the generated columns of UPDATE's (MERGE's
// UPDATE's) new rows, set: a projection over the rows read whose first
// expressions are the new row in table order. PostgreSQL computes a
// generated column from the new row once it is built
// (ExecComputeStoredGenerated), so the SET values are computed once, in a
// projection of their own under the one that reads them: a volatile SET
// value (random(), nextval) is the value the generated column sees, and
// a constant SET value is not carried into the generation expression,
// where the plan's constant folding would compute it (and raise its
// overflow) with no row updated. The projection under passes the rows
// read through first, at their indexes, so what callers append to the
// result reads set.Input's columns as before.
func (b *binder) generatedUpdate(info fluss.TableInfo, set *Project) (*Project, error) {
	exprs, err := b.generationExprs(info)
	if err != nil || exprs == nil {
		return set, err
	}
	in := set.Input.Columns()
	inner := &Project{Input: set.Input}
	for i, c := range in {
		inner.Exprs = append(inner.Exprs, &ColumnRef{Index: i, Name: c.Name, T: c.T})
		inner.Cols = append(inner.Cols, c)
	}
	at := len(in)
	inner.Exprs = append(inner.Exprs, set.Exprs...)
	inner.Cols = append(inner.Cols, set.Cols...)
	out := &Project{Input: inner, Cols: append([]Column(nil), set.Cols...), Generated: true}
	row := make([]Expr, len(set.Exprs))
	for i, c := range set.Cols {
		row[i] = &ColumnRef{Index: at + i, Name: c.Name, T: c.T}
	}
	for i := range set.Exprs {
		e := row[i]
		if i < len(exprs) && exprs[i] != nil {
			e = replaceColumnRefs(exprs[i], row)
		}
		out.Exprs = append(out.Exprs, e)
	}
	return out, nil
}

// replaceColumnRefs replaces every ColumnRef i of e (a generation
// expression, which has no subquery) by by[i] (a column reference: an
// expression put there would be computed again in each generated column
// that reads it).
func replaceColumnRefs(e Expr, by []Expr) Expr {
	if r, ok := e.(*ColumnRef); ok {
		return by[r.Index]
	}
	out, _ := MapChildren(e, func(c Expr) (Expr, error) { return replaceColumnRefs(c, by), nil })
	return out
}

// refuseGeneratedInsert is INSERT's rule for a generated column: only
// DEFAULT may be written for it (428C9), whatever OVERRIDING says; a
// column named in INSERT ... SELECT's list is refused outright.
func refuseGeneratedInsert(info fluss.TableInfo, provided []int, ins *pt.Insert, query Node) error {
	gen := GeneratedColumns(info)
	for i, pos := range provided {
		if pos < 0 || gen == nil || !gen[i] {
			continue
		}
		if !allDefaultAt(ins, pos, query) { // insert.go
			name := info.Descriptor.Schema.Columns[i].Name
			return sqlerr.New(generatedAlwaysCode, "cannot insert a non-DEFAULT value into column \"%s\"", name).
				WithDetail("Column \"%s\" is a generated column.", name)
		}
	}
	return nil
}

// refuseGeneratedUpdate is UPDATE's (and ON CONFLICT DO UPDATE's) rule
// for a generated column: only SET col = DEFAULT (428C9).
func refuseGeneratedUpdate(info fluss.TableInfo, i int) error {
	if fluss.MetaOf(info.Descriptor).Column(i).Generated == "" {
		return nil
	}
	name := info.Descriptor.Schema.Columns[i].Name
	return sqlerr.New(generatedAlwaysCode, "column \"%s\" can only be updated to DEFAULT", name).
		WithDetail("Column \"%s\" is a generated column.", name)
}

// GenerationExprs binds info's generation expressions over its columns
// (nil where a column is not generated, nil when none is): what COPY FROM
// computes over each batch of rows it builds.
func GenerationExprs(ctx context.Context, cat Catalog, info fluss.TableInfo) ([]Expr, error) {
	return (&binder{ctx: ctx, cat: cat}).generationExprs(info)
}

// bindGeneratedColumn checks CREATE TABLE's generation clause g of column
// i with PostgreSQL's rules and returns the text to keep (as written:
// keptExprText). meta is
// the table's metadata so far: a column LIKE ... INCLUDING GENERATED
// copied is generated too.
func (b *binder) bindGeneratedColumn(g *sql.GeneratedClause, table string, cols []fluss.Column, i int, meta fluss.TableMeta) (string, error) {
	gen := make([]bool, len(cols))
	for k, c := range cols {
		gen[k] = b.stmt.Generated[c.Name] != nil || meta.Column(k).Generated != ""
	}
	if _, err := b.bindGenerationText(g.Expr, g.Pos, table, cols, gen, i); err != nil {
		return "", err
	}
	return keptExprText(g.Expr), nil // coldefs.go
}

// errDefaultAndGenerated is PostgreSQL's refusal of a SERIAL column with
// a generation expression (a SERIAL is a default).
func errDefaultAndGenerated(column, table string, pos int) error {
	return sqlerr.New(sqlerr.SyntaxError, "both default and generation expression specified for column \"%s\" of table \"%s\"", column, table).WithPosition(pos)
}

// generatedAssignment is SET col = value of UPDATE or ON CONFLICT DO
// UPDATE when col (index i) is generated: DEFAULT is allowed (a NULL
// placeholder the generated row's computation replaces), anything else
// is 428C9. gen is nil when the column is not generated.
func (b *binder) generatedAssignment(info fluss.TableInfo, i int, value pt.Expr) (gen Expr, err error) {
	if g := GeneratedColumns(info); g == nil || !g[i] {
		return nil, nil
	}
	if _, ok := value.(*pt.Default); !ok {
		return nil, refuseGeneratedUpdate(info, i)
	}
	return &Const{T: info.Descriptor.Schema.Columns[i].Type.Nullable()}, nil
}

// generatedKey reports whether a primary-key column (pk) is generated:
// an UPDATE may then move the row whatever it sets, so it takes the path
// that deletes the old key.
func generatedKey(info fluss.TableInfo, pk map[int]bool) bool {
	gen := GeneratedColumns(info)
	for i := range gen {
		if gen[i] && pk[i] {
			return true
		}
	}
	return false
}
