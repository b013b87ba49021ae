package fluss

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"maps"
	"slices"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// TableChangeKind says what a TableChange does.
type TableChangeKind int

// The changes of ALTER TABLE that Fluss 0.9.1 makes (its coordinator's
// SchemaUpdate adds nullable columns at the end and refuses every other
// column change; AlterTable's config changes set and reset properties),
// plus the comments sqlgate keeps on the embedded store.
const (
	// ChangeSetProperty sets property Key to Value.
	ChangeSetProperty TableChangeKind = iota
	// ChangeResetProperty removes property Key.
	ChangeResetProperty
	// ChangeAddColumn appends Column (nullable) under a new schema id.
	ChangeAddColumn
	// ChangeTableComment sets the table's comment (Comment; "" removes it).
	ChangeTableComment
	// ChangeColumnComment sets column Column.Name's comment.
	ChangeColumnComment
	// ChangeColumnType gives column Column.Name the type Column.Type,
	// which Fluss stores as it stores the old one (ALTER COLUMN TYPE
	// widening varchar(n): the same STRING, a longer limit): no row
	// changes and the schema id stays.
	ChangeColumnType
)

// TableChange is one change of an ALTER TABLE.
type TableChange struct {
	Kind    TableChangeKind
	Key     string
	Value   string
	Column  Column
	Comment string
}

// TableAlterer is implemented by stores that can change a table in place.
// The changes are applied together or not at all; a column added makes a
// new schema id, and rows written under an older schema read NULL in the
// columns added since.
type TableAlterer interface {
	AlterTable(ctx context.Context, path TablePath, changes []TableChange) (TableInfo, error)
}

// alterableTableOptions are the "table." options Fluss 0.9.1's coordinator
// lets AlterTable change (FlussConfigUtils.ALTERABLE_TABLE_OPTIONS);
// properties outside "table." (custom properties) may change freely.
var alterableTableOptions = []string{"table.datalake.enabled", "table.datalake.freshness", "table.log.tiered.local-segments"}

// CheckPropertyChange refuses a property change Fluss 0.9.1 refuses, with
// its reason and what to do instead.
func CheckPropertyChange(key string) error {
	switch strings.ToLower(key) {
	case "bucket.num", "bucket.key", "bucket_num", "bucket_key", "buckets":
		return sqlerr.New(sqlerr.FeatureNotSupported, "cannot change %q of an existing table: Fluss 0.9.1 cannot redistribute a table's buckets", key).
			WithHint("Create a new table WITH the buckets you want and copy the rows: CREATE TABLE new (...) WITH (...); INSERT INTO new SELECT * FROM t.")
	}
	if strings.HasPrefix(key, "table.") && !slices.Contains(alterableTableOptions, key) {
		return sqlerr.New(sqlerr.FeatureNotSupported, "cannot change table option %q of an existing table: Fluss 0.9.1 alters only %s", key, strings.Join(alterableTableOptions, ", ")).
			WithHint("Create a new table WITH the option and copy the rows: CREATE TABLE new (...) WITH (...); INSERT INTO new SELECT * FROM t.")
	}
	return nil
}

// ApplyTableChanges returns the descriptor info's table has after changes,
// and whether its schema (columns) changed. It checks what Fluss 0.9.1
// checks: a new column's name is free (42701) and nullable, and only
// alterable properties change.
func ApplyTableChanges(info TableInfo, changes []TableChange) (TableDescriptor, bool, error) {
	d := info.Descriptor
	d.Schema.Columns = slices.Clone(d.Schema.Columns)
	d.Properties = maps.Clone(d.Properties)
	if d.Properties == nil {
		d.Properties = map[string]string{}
	}
	schemaChanged := false
	for _, c := range changes {
		switch c.Kind {
		case ChangeSetProperty, ChangeResetProperty:
			if err := CheckPropertyChange(c.Key); err != nil {
				return d, false, err
			}
			setProperty(&d, c)
			if c.Kind == ChangeResetProperty {
				resetNotNull(&d, c.Key) // missing.go
			}
		case ChangeAddColumn:
			for _, col := range d.Schema.Columns {
				if col.Name == c.Column.Name {
					return d, false, sqlerr.New(sqlerr.DuplicateColumn, "column \"%s\" of relation \"%s\" already exists", c.Column.Name, info.Path.Table)
				}
			}
			if c.Column.Type.NotNull {
				return d, false, sqlerr.New(sqlerr.FeatureNotSupported, "cannot add NOT NULL column \"%s\": Fluss 0.9.1 adds nullable columns only (the rows already stored have no value for it)", c.Column.Name)
			}
			d.Schema.Columns = append(d.Schema.Columns, c.Column)
			schemaChanged = true
		case ChangeColumnType:
			i := slices.IndexFunc(d.Schema.Columns, func(col Column) bool { return col.Name == c.Column.Name })
			if i < 0 {
				return d, false, sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", c.Column.Name, info.Path.Table)
			}
			if old := d.Schema.Columns[i].Type; old.Kind != c.Column.Type.Kind || old.Kind != types.String || old.Variant != c.Column.Type.Variant {
				return d, false, sqlerr.New(sqlerr.FeatureNotSupported, "cannot change the type of column \"%s\" in place: Fluss 0.9.1 cannot change a column's type", c.Column.Name)
			}
			d.Schema.Columns[i].Type = c.Column.Type
		case ChangeTableComment:
			d.Comment = c.Comment
		case ChangeColumnComment:
			found := false
			for i := range d.Schema.Columns {
				if d.Schema.Columns[i].Name == c.Column.Name {
					d.Schema.Columns[i].Comment = c.Comment
					found = true
				}
			}
			if !found {
				return d, false, sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", c.Column.Name, info.Path.Table)
			}
		}
	}
	if len(d.Properties) == 0 {
		d.Properties = nil
	}
	norm, err := ValidateDescriptor(d)
	if err != nil {
		return d, false, err
	}
	return norm, schemaChanged, nil
}

// WidenRecord returns rec, whose columns are the first of full's (rows
// written under an older schema, before ADD COLUMN), with full's other
// columns appended as NULLs; rec is released.
func WidenRecord(rec arrow.RecordBatch, full *arrow.Schema) arrow.RecordBatch {
	n := int(rec.NumCols())
	cols := make([]arrow.Array, 0, full.NumFields())
	for i := 0; i < n; i++ {
		cols = append(cols, rec.Column(i))
	}
	var made []arrow.Array
	for i := n; i < full.NumFields(); i++ {
		a := array.MakeArrayOfNull(memory.DefaultAllocator, full.Field(i).Type, int(rec.NumRows()))
		made = append(made, a)
		cols = append(cols, a)
	}
	out := array.NewRecordBatch(full, cols, rec.NumRows())
	for _, a := range made {
		a.Release()
	}
	rec.Release()
	return out
}

// setProperty applies a property change to d (whose maps are its own):
// sqlgate's metadata keys (IsMetaProperty) live in the custom properties,
// where MetaOf reads them first and a cluster's AlterTable puts every key
// outside Fluss's table options, so a key reset leaves no copy behind in
// either map; other keys are table properties.
func setProperty(d *TableDescriptor, c TableChange) {
	props := d.Properties
	if IsMetaProperty(c.Key) {
		delete(d.Properties, c.Key) // (where an earlier sqlgate kept metadata)
		d.CustomProperties = maps.Clone(d.CustomProperties)
		if d.CustomProperties == nil {
			d.CustomProperties = map[string]string{}
		}
		props = d.CustomProperties
	}
	if c.Kind == ChangeSetProperty {
		props[c.Key] = c.Value
	} else {
		delete(props, c.Key)
	}
}
