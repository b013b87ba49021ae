package engine

import (
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// ALTER TABLE's column actions beyond Fluss's nullable ADD COLUMN, with
// PostgreSQL 15's meaning (fluss/missing.go says how they are kept):
//
//   - ADD COLUMN c type DEFAULT e: e becomes c's default, and, evaluated
//     once now, the value the rows already stored read in c (PostgreSQL's
//     attmissingval), unless e is volatile: PostgreSQL rewrites every row
//     then, which a Fluss log table cannot and a primary-key table would
//     need in one atomic upsert of every row; sqlgate refuses it (0A000)
//     unless the table is empty.
//   - ADD COLUMN ... NOT NULL, ALTER COLUMN c SET NOT NULL: the stored
//     rows (with the statement's missing values) must hold no NULL in c
//     (23502 "contains null values", checked once every action was taken,
//     as PostgreSQL's third phase does), then sqlgate enforces it.
//   - ALTER COLUMN c DROP NOT NULL: undoes a NOT NULL ALTER TABLE set; a
//     primary-key column's is 42P16, and a NOT NULL declared at CREATE
//     TABLE, which is Fluss's own, cannot change (0A000).

// notNullActions collects the columns the statement makes NOT NULL, which
// the stored rows must pass once every action was taken.
type notNullActions struct {
	s      *session
	stored fluss.TableInfo
	names  []string
}

func (s *session) newNotNullActions(info fluss.TableInfo) *notNullActions {
	return &notNullActions{s: s, stored: info}
}

// workTable is the table as changes leave it.
func (n *notNullActions) workTable(changes []fluss.TableChange) (fluss.TableInfo, error) {
	desc, _, err := fluss.ApplyTableChanges(n.stored, changes)
	if err != nil {
		return fluss.TableInfo{}, err
	}
	work := n.stored
	work.Descriptor, work.ArrowSchemas = desc, nil
	return withTypes(n.s.eng.typeReg, work), nil // tables.go: an added enum column's labels
}

// addColumn returns the metadata changes of an added column's DEFAULT and
// NOT NULL (a's), changes being the statement's changes up to and with the
// column's own. dom is the column's domain (nil for other types and
// arrays of a domain): the stored rows read the column's DEFAULT, else
// the domain's, which must meet the domain's constraints (as PostgreSQL
// checks it over the rows), and a NOT NULL domain needs a value there or
// an empty table.
func (n *notNullActions) addColumn(ctx context.Context, changes []fluss.TableChange, a sql.AlterAction, dom *types.Domain) ([]fluss.TableChange, error) {
	if a.DefaultPos == 0 && !a.NotNull && dom == nil {
		return nil, nil
	}
	work, err := n.workTable(changes)
	if err != nil {
		return nil, err
	}
	i := work.ColumnIndex(a.Column)
	var out []fluss.TableChange
	// the expression the stored rows read: the column's DEFAULT, bound
	// once here, else its domain's
	var (
		e        binder.Expr
		volatile bool
	)
	if a.DefaultPos != 0 {
		var display string
		rctx, _ := n.s.regContext(ctx) // regnames.go: its reg* literals resolve now, by the search path
		if display, e, volatile, err = binder.AddColumnDefault(rctx, n.s.eng.tables, work, i, a.Default); err != nil {
			return nil, err
		}
		if display != "" {
			out = append(out, fluss.TableChange{Kind: fluss.ChangeSetProperty, Key: fluss.ColumnDefaultKey(i + 1), Value: display})
		}
	} else if dom != nil && dom.Default != "" {
		if _, e, volatile, err = binder.AddColumnDefault(ctx, n.s.eng.tables, work, i, dom.Default); err != nil {
			return nil, err
		}
	}
	filled := false
	if e != nil {
		switch {
		case volatile:
			if err := n.refuseVolatile(ctx, a.Column); err != nil {
				return nil, err
			}
		default:
			value, text, err := n.s.missingValue(ctx, work, i, e, dom)
			if err != nil {
				return nil, err
			}
			if value != "" {
				key, textKey := fluss.ColumnMissingKeys(i + 1)
				out = append(out, fluss.TableChange{Kind: fluss.ChangeSetProperty, Key: key, Value: value},
					fluss.TableChange{Kind: fluss.ChangeSetProperty, Key: textKey, Value: text})
				filled = true
			}
		}
	}
	if dom != nil && !filled && domainNotNullAt(n.s.eng.typeReg, dom) { // domains.go
		rows, err := n.s.tableHasRows(ctx, n.stored)
		if err != nil {
			return nil, err
		}
		if rows {
			return nil, domainNotNull(dom.QualifiedName())
		}
	}
	if a.NotNull {
		out = append(out, fluss.TableChange{Kind: fluss.ChangeSetProperty, Key: fluss.ColumnNotNullKey(i + 1), Value: "t"})
		n.names = append(n.names, a.Column)
	}
	return out, nil
}

// refuseVolatile is the 0A000 of a volatile DEFAULT added to a table that
// holds rows (an empty one takes it: there is no row to rewrite).
func (n *notNullActions) refuseVolatile(ctx context.Context, column string) error {
	rows, err := n.s.tableHasRows(ctx, n.stored) // domains.go
	if err != nil || !rows {
		return err
	}
	table := n.stored.Path.Table
	if !n.stored.HasPrimaryKey() {
		return sqlerr.New(sqlerr.FeatureNotSupported, "cannot add column \"%s\" to \"%s\" with a volatile DEFAULT: a Fluss log table's stored rows cannot be rewritten to give each its own value", column, table).
			WithHint("Add the column with a constant default or none, or copy the rows into a new table: CREATE TABLE new AS SELECT *, <expr> AS c FROM t.")
	}
	return sqlerr.New(sqlerr.FeatureNotSupported, "cannot add column \"%s\" to \"%s\" with a volatile DEFAULT: sqlgate does not rewrite the stored rows to give each its own value", column, table).
		WithHint("Add the column without a default, then UPDATE t SET c = <expr>, then ALTER TABLE t ALTER COLUMN c SET DEFAULT <expr>.")
}

// missingValue evaluates e (column i's non-volatile default, bound for
// work's table) once: the missing value the stored rows read, as its
// property value (its compacted encoding, "" for NULL) and text. A value
// of a domain column (dom not nil) must meet the domain's constraints.
func (s *session) missingValue(ctx context.Context, work fluss.TableInfo, i int, e binder.Expr, dom *types.Domain) (string, string, error) {
	xs, err := lower.LowerExprs([]binder.Expr{e})
	if err != nil {
		return "", "", err
	}
	rec := array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, 1)
	defer rec.Release()
	// under the session's settings (a float's text follows
	// extra_float_digits), as PostgreSQL evaluates the default
	v, err := xs[0].Eval(&exec.EvalContext{Ctx: s.sessionCtx(ctx), Mem: s.eng.mem}, rec)
	if err != nil {
		return "", "", err
	}
	defer v.Release()
	if v.IsNull(0) {
		return "", "", nil
	}
	if dom != nil {
		if err := validatorOf(s.eng, dom).validate(ctx, dom.QualifiedName(), v); err != nil { // domains.go
			return "", "", err
		}
	}
	col := work.Descriptor.Schema.Columns[i]
	col.Type = col.Type.Nullable()
	// the value as the store keeps it (representation differences converted)
	one := fluss.TableInfo{Path: work.Path, Descriptor: fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{col}}}}
	in := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: col.Name, Type: v.DataType(), Nullable: true}}, nil), []arrow.Array{v}, 1)
	defer in.Release()
	conf, err := fluss.ValidateRecord(one, in)
	if err != nil {
		return "", "", err
	}
	defer conf.Release()
	value, err := fluss.EncodeMissing(col.Type, conf.Column(0), 0)
	if err != nil {
		return "", "", sqlerr.Wrap(err, sqlerr.FeatureNotSupported, "the default of column \"%s\" cannot be kept for the stored rows: %v", col.Name, err)
	}
	text, _, err := pgtypes.AppendValueIn(nil, col.Type, pgtypes.FormatText, conf.Column(0), 0, (&exec.EvalContext{Ctx: ctx}).Location())
	if err != nil {
		return "", "", err
	}
	return value, string(text), nil
}

// setNotNull is ALTER COLUMN c SET NOT NULL over the table changes leave:
// the change that marks it (none when c is NOT NULL already, as
// PostgreSQL checks nothing then).
func (n *notNullActions) setNotNull(changes []fluss.TableChange, a sql.AlterAction) ([]fluss.TableChange, error) {
	work, err := n.workTable(changes)
	if err != nil {
		return nil, err
	}
	i := work.ColumnIndex(a.Column)
	if i < 0 {
		return nil, noColumn(a.Column, work.Path.Table)
	}
	if work.Descriptor.Schema.Columns[i].Type.NotNull {
		return nil, nil
	}
	if !slices.Contains(n.names, a.Column) {
		n.names = append(n.names, a.Column)
	}
	return []fluss.TableChange{{Kind: fluss.ChangeSetProperty, Key: fluss.ColumnNotNullKey(i + 1), Value: "t"}}, nil
}

// dropNotNull is ALTER COLUMN c DROP NOT NULL: the change that undoes a
// NOT NULL ALTER TABLE set (none for a nullable column). A primary-key
// column is 42P16, as in PostgreSQL; a NOT NULL declared at CREATE TABLE
// is Fluss's schema, which Fluss 0.9.1 cannot change (its SchemaUpdate
// refuses every column modification): 0A000.
func (n *notNullActions) dropNotNull(changes []fluss.TableChange, a sql.AlterAction) ([]fluss.TableChange, error) {
	work, err := n.workTable(changes)
	if err != nil {
		return nil, err
	}
	i := work.ColumnIndex(a.Column)
	table := work.Path.Table
	if i < 0 {
		return nil, noColumn(a.Column, table)
	}
	if slices.Contains(work.Descriptor.Schema.PrimaryKey, a.Column) {
		return nil, sqlerr.New(sqlerr.InvalidTableDefinition, "column \"%s\" is in a primary key", a.Column)
	}
	n.names = slices.DeleteFunc(n.names, func(s string) bool { return s == a.Column })
	switch {
	case fluss.MetaOf(work.Descriptor).Column(i).NotNull:
		return []fluss.TableChange{{Kind: fluss.ChangeResetProperty, Key: fluss.ColumnNotNullKey(i + 1)}}, nil
	case work.Descriptor.Schema.Columns[i].Type.NotNull:
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "cannot drop NOT NULL of column \"%s\" of relation \"%s\": it was declared in CREATE TABLE, and Fluss 0.9.1 cannot change a column's nullability", a.Column, table).
			WithHint("Copy the rows into a new table whose column is nullable: CREATE TABLE new (...); INSERT INTO new SELECT * FROM t; then DROP TABLE t.")
	}
	return nil, nil
}

// noColumn is 42703 for a column the table lacks.
func noColumn(column, table string) *sqlerr.Error {
	return sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", column, table)
}

// checkStored fails with PostgreSQL's 23502 when a stored row holds a NULL
// in a column the statement made NOT NULL (or a row the block holds that
// the statement carries, uniquecarry.go), reading the rows as the
// statement's changes leave the table (its added columns' missing values
// included): the first such row in the store's order, its first such
// column in the table's order.
func (n *notNullActions) checkStored(ctx context.Context, changes []fluss.TableChange) error {
	if len(n.names) == 0 {
		return nil
	}
	work, err := n.workTable(changes)
	if err != nil {
		return err
	}
	var idx []int
	for i, c := range work.Descriptor.Schema.Columns {
		if slices.Contains(n.names, c.Name) {
			idx = append(idx, i)
		}
	}
	missing := fluss.MissingOf(work.Descriptor)
	full := work.ArrowSchema()
	failing := -1
	check := func(b arrow.RecordBatch) (bool, error) {
		if int(b.NumCols()) < len(work.Descriptor.Schema.Columns) {
			b.Retain() // (WidenRecord takes a reference; the caller releases its own)
			wide, err := missing.WidenRecord(b, full)
			if err != nil {
				return false, err
			}
			defer wide.Release()
			b = wide
		}
		for r := 0; r < int(b.NumRows()); r++ {
			for _, i := range idx {
				if b.Column(i).IsNull(r) {
					failing = i
					return true, nil
				}
			}
		}
		return false, nil
	}
	if _, err = n.s.anyBatch(ctx, n.stored.Path, nil, check); err != nil {
		return err
	}
	if failing < 0 {
		if err := n.s.eachCarried(n.stored, check); err != nil { // uniquecarry.go: the block's rows
			return err
		}
	}
	if failing >= 0 {
		return sqlerr.New(sqlerr.NotNullViolation, "column \"%s\" of relation \"%s\" contains null values", work.Descriptor.Schema.Columns[failing].Name, work.Path.Table)
	}
	return nil
}
