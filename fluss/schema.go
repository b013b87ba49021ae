package fluss

import (
	"time"

	"fmt"
	"maps"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// MaxBucketCount is Fluss's default max.bucket.num.
const MaxBucketCount = 4096

// MaxDecimalPrecision is the widest DECIMAL Fluss stores.
const MaxDecimalPrecision = 38

// reservedNameCode is PostgreSQL's reserved_name SQLSTATE (sqlerr has no constant for it).
const reservedNameCode sqlerr.Code = "42939"

// ReservedColumnNames are Fluss's system column names
// (TableDescriptorValidation.SYSTEM_COLUMNS); no table may declare them.
var ReservedColumnNames = []string{"__offset", "__timestamp", "__bucket", "_change_type", "_log_offset", "_commit_timestamp"}

// ValidateDescriptor checks a CREATE TABLE descriptor against Fluss's rules
// and returns it normalised: primary-key columns and MAP keys NOT NULL, bucket
// count and bucket key defaulted, unconstrained DECIMAL widened to
// DECIMAL(38, s). The input is not modified.
func ValidateDescriptor(desc TableDescriptor) (TableDescriptor, error) {
	out := TableDescriptor{
		BucketCount: desc.BucketCount,
		BucketKey:   slices.Clone(desc.BucketKey),
		Comment:     desc.Comment,
		Properties:  maps.Clone(desc.Properties),

		CustomProperties: maps.Clone(desc.CustomProperties),
	}
	if len(desc.Schema.Columns) == 0 {
		return TableDescriptor{}, sqlerr.New(sqlerr.InvalidTableDefinition, "a table must have at least one column")
	}
	seen := make(map[string]bool, len(desc.Schema.Columns))
	for _, c := range desc.Schema.Columns {
		if c.Name == "" {
			return TableDescriptor{}, sqlerr.New(sqlerr.InvalidColumnDefinition, "column name must not be empty")
		}
		if slices.Contains(ReservedColumnNames, c.Name) {
			return TableDescriptor{}, sqlerr.New(reservedNameCode, "column name \"%s\" is reserved by Fluss", c.Name)
		}
		if seen[c.Name] {
			return TableDescriptor{}, sqlerr.New(sqlerr.DuplicateColumn, "column \"%s\" specified more than once", c.Name)
		}
		seen[c.Name] = true
		t, err := normaliseType(c.Type, c.Name)
		if err != nil {
			return TableDescriptor{}, err
		}
		out.Schema.Columns = append(out.Schema.Columns, Column{Name: c.Name, Type: t, Comment: c.Comment})
	}
	recordVariants(&out, desc.Schema.Columns)
	index := func(name string) int {
		return slices.IndexFunc(out.Schema.Columns, func(c Column) bool { return c.Name == name })
	}

	inPK := map[string]bool{}
	for _, name := range desc.Schema.PrimaryKey {
		i := index(name)
		if i < 0 {
			return TableDescriptor{}, sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" named in key does not exist", name)
		}
		if inPK[name] {
			return TableDescriptor{}, sqlerr.New(sqlerr.DuplicateColumn, "column \"%s\" appears twice in primary key constraint", name)
		}
		inPK[name] = true
		col := &out.Schema.Columns[i]
		if col.Type.IsNested() {
			return TableDescriptor{}, sqlerr.New(sqlerr.InvalidTableDefinition, "column \"%s\" of type %s cannot be a primary-key column: Fluss keys must be scalar", name, col.Type.Nullable())
		}
		col.Type.NotNull = true
		out.Schema.PrimaryKey = append(out.Schema.PrimaryKey, name)
	}

	if err := validatePartitioning(&out, desc.PartitionKeys); err != nil { // partitions.go
		return TableDescriptor{}, err
	}
	switch {
	case out.BucketCount == 0:
		out.BucketCount = 1
	case out.BucketCount < 0 || out.BucketCount > MaxBucketCount:
		return TableDescriptor{}, sqlerr.New(sqlerr.InvalidTableDefinition, "bucket count %d is out of range: it must be between 1 and %d", out.BucketCount, MaxBucketCount)
	}

	if len(out.BucketKey) == 0 && len(out.Schema.PrimaryKey) > 0 {
		out.BucketKey = slices.Clone(out.Schema.PrimaryKey)
	}
	inBK := map[string]bool{}
	for _, name := range out.BucketKey {
		i := index(name)
		if i < 0 {
			return TableDescriptor{}, sqlerr.New(sqlerr.UndefinedColumn, "bucket key column \"%s\" does not exist", name)
		}
		if inBK[name] {
			return TableDescriptor{}, sqlerr.New(sqlerr.DuplicateColumn, "column \"%s\" appears twice in the bucket key", name)
		}
		inBK[name] = true
		if t := out.Schema.Columns[i].Type; t.IsNested() {
			return TableDescriptor{}, sqlerr.New(sqlerr.InvalidTableDefinition, "column \"%s\" of type %s cannot be a bucket-key column: Fluss keys must be scalar", name, t.Nullable())
		}
		if len(out.Schema.PrimaryKey) > 0 && !inPK[name] {
			return TableDescriptor{}, sqlerr.New(sqlerr.InvalidTableDefinition, "bucket key column \"%s\" is not part of the primary key", name)
		}
	}
	applyVariants(&out)
	return out, nil
}

// normaliseType checks that t is a Fluss type and applies Fluss's defaults.
// col names the column for error messages.
func normaliseType(t types.T, col string) (types.T, error) {
	bad := func(format string, args ...any) error {
		return sqlerr.New(sqlerr.InvalidColumnDefinition, "column \"%s\": %s", col, fmt.Sprintf(format, args...))
	}
	out := types.T{Kind: t.Kind, NotNull: t.NotNull}
	switch t.Kind {
	case types.Bool, types.Int8, types.Int16, types.Int32, types.Int64,
		types.Float32, types.Float64, types.Bytes, types.Date:
	case types.String:
		out.Length = t.Length // VARCHAR(n)'s limit is the binder's business; kept for display
	case types.Decimal:
		p, s := t.Precision, t.Scale
		if p == 0 {
			// Unconstrained NUMERIC: the widest decimal Fluss stores, as ArrowType does.
			p = MaxDecimalPrecision
		}
		if p < 1 || p > MaxDecimalPrecision {
			return types.T{}, bad("DECIMAL precision %d must be between 1 and %d", p, MaxDecimalPrecision)
		}
		if s < 0 || s > p {
			return types.T{}, bad("DECIMAL scale %d must be between 0 and the precision %d", s, p)
		}
		out.Precision, out.Scale = p, s
	case types.Char, types.Binary:
		n := t.Length
		if n == 0 {
			n = 1
		}
		if n < 1 {
			return types.T{}, bad("length %d must be at least 1", t.Length)
		}
		out.Length = n
	case types.Time, types.Timestamp, types.TimestampTZ:
		if t.Precision < 0 || t.Precision > 9 {
			return types.T{}, bad("precision %d must be between 0 and 9", t.Precision)
		}
		out.Precision = t.Precision
	case types.Array:
		if t.Elem == nil {
			return types.T{}, bad("ARRAY has no element type")
		}
		e, err := normaliseType(*t.Elem, col)
		if err != nil {
			return types.T{}, err
		}
		out.Elem = &e
	case types.Map:
		if t.Key == nil || t.Elem == nil {
			return types.T{}, bad("MAP needs a key and a value type")
		}
		k, err := normaliseType(*t.Key, col)
		if err != nil {
			return types.T{}, err
		}
		k.NotNull = true // Fluss map keys are never null
		v, err := normaliseType(*t.Elem, col)
		if err != nil {
			return types.T{}, err
		}
		out.Key, out.Elem = &k, &v
	case types.Row:
		if len(t.Fields) == 0 {
			return types.T{}, bad("ROW must have at least one field")
		}
		names := map[string]bool{}
		for _, f := range t.Fields {
			if f.Name == "" {
				return types.T{}, bad("ROW field name must not be empty")
			}
			if names[f.Name] {
				return types.T{}, sqlerr.New(sqlerr.DuplicateColumn, "column \"%s\": ROW field \"%s\" specified more than once", col, f.Name)
			}
			names[f.Name] = true
			ft, err := normaliseType(f.Type, col+"."+f.Name)
			if err != nil {
				return types.T{}, err
			}
			out.Fields = append(out.Fields, types.Field{Name: f.Name, Type: ft})
		}
	case types.TimeTZ:
		// PostgreSQL's own documentation advises against timetz (an offset
		// without a date cannot follow daylight saving); Fluss has no such
		// type, and the two columns it would take are the user's choice
		return types.T{}, sqlerr.New(sqlerr.FeatureNotSupported, "column \"%s\": type time with time zone cannot be stored in a Fluss table", col).
			WithHint("Use timestamp with time zone (TIMESTAMP_LTZ) for an instant, or time plus a separate column for its zone.")
	default:
		return types.T{}, sqlerr.New(sqlerr.FeatureNotSupported, "column \"%s\": type %s cannot be stored in a Fluss table", col, t)
	}
	return out, nil
}

// ValidateRecord applies seed 000's write rules to a batch written into the
// table described by info. It returns a record carrying exactly
// info.ArrowSchema() (the caller releases it): representation-only
// differences are converted, value-changing ones rejected naming the column,
// and nulls in NOT NULL columns (or NOT NULL ROW fields, array elements, map
// values) rejected with 23502.
func ValidateRecord(info TableInfo, rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	return ValidateRecordAs(info, info.ArrowSchema(), rec)
}

// ValidateRecordAs is ValidateRecord for a caller that keeps
// info.ArrowSchema() already (want; a store's table does): a write of one
// row built the schema again for every call.
func ValidateRecordAs(info TableInfo, want *arrow.Schema, rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	cols := info.Descriptor.Schema.Columns
	got := rec.Schema()
	rel := info.Path.Table
	for i := 0; i < max(len(cols), int(rec.NumCols())); i++ {
		switch {
		case i >= int(rec.NumCols()):
			return nil, sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" of relation \"%s\" is missing from the batch: a batch must have the table's columns in the table's order", cols[i].Name, rel)
		case i >= len(cols):
			return nil, sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", got.Field(i).Name, rel)
		case got.Field(i).Name != cols[i].Name:
			return nil, sqlerr.New(sqlerr.UndefinedColumn, "batch column %d is \"%s\" but column %d of relation \"%s\" is \"%s\": a batch must have the table's columns in the table's order", i+1, got.Field(i).Name, i+1, rel, cols[i].Name)
		}
	}
	out := make([]arrow.Array, len(cols))
	defer func() {
		for _, a := range out {
			if a != nil {
				a.Release()
			}
		}
	}()
	// A record built with want itself (the engine's pending rows, exec's
	// writers, the store after them) has columns of want's types already
	// (array.NewRecordBatch checked them): a column of a flat type is taken
	// as it is; nested ones still go through convertColumn, whose type
	// equality is stricter than arrow's about list elements.
	same := got == want
	for i, c := range cols {
		src := rec.Column(i)
		if _, nested := src.DataType().(arrow.NestedType); same && !nested {
			src.Retain()
			out[i] = src
			continue
		}
		same = false
		conv, err := convertColumn(src, c.Type, want.Field(i).Type)
		if err != nil {
			return nil, sqlerr.Wrap(err, sqlerr.DatatypeMismatch, "column \"%s\" of relation \"%s\" is of type %s but the batch has %s: %v", c.Name, rel, c.Type.Nullable(), src.DataType(), err)
		}
		out[i] = conv
	}
	// Nulls after every column is converted: the report names the whole
	// row, as PostgreSQL's does.
	if err := CheckNotNull(info, out); err != nil {
		return nil, err
	}
	for i, c := range cols {
		if conv := out[i]; hasTimeBelowMillis(c.Type) {
			if path, t, ok := firstTimeBelowMillis(conv, c.Type, c.Name, 0, conv.Len()); !ok {
				return nil, sqlerr.New(sqlerr.DatetimeFieldOverflow, "%s value in column \"%s\" of relation \"%s\" has digits below the millisecond, which Fluss does not store", t, path, rel).
					WithHint("Fluss keeps a TIME of any precision as milliseconds of the day: round the value to TIME(3), or declare the column TIME(3).")
			}
		}
	}
	if same {
		// every column is rec's own: rec serves as it is
		rec.Retain()
		return rec, nil
	}
	return array.NewRecordBatch(want, out, rec.NumRows()), nil
}

// convertColumn returns src as an array of exactly type want (t's Arrow type):
// zero-copy when only nullability flags or list element names differ, a copy
// when the representation differs, an error when values would change.
func convertColumn(src arrow.Array, t types.T, want arrow.DataType) (arrow.Array, error) {
	if err := compatible(src.DataType(), t); err != nil {
		return nil, err
	}
	if sameLayout(src.DataType(), want) {
		d := retype(src.Data(), want)
		defer d.Release()
		return array.MakeFromData(d), nil
	}
	b := array.NewBuilder(memory.DefaultAllocator, want)
	defer b.Release()
	b.Reserve(src.Len())
	for i := 0; i < src.Len(); i++ {
		if err := format.AppendFrom(b, src, i); err != nil {
			return nil, err
		}
	}
	return b.NewArray(), nil
}

// compatible reports whether values of Arrow type dt can be stored in a
// column of type t without changing any value.
func compatible(dt arrow.DataType, t types.T) error {
	if d, ok := dt.(*arrow.DictionaryType); ok {
		return compatible(d.ValueType, t)
	}
	// Built only when needed: every write validates its records, and
	// formatting the types cost more than the rest of the check.
	mismatch := func() error { return fmt.Errorf("%s cannot hold %s values without changing them", dt, t.Nullable()) }
	switch t.Kind {
	case types.String, types.Char:
		switch dt.ID() {
		case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
			return nil
		}
		return mismatch()
	case types.Bytes:
		switch dt.ID() {
		case arrow.BINARY, arrow.LARGE_BINARY, arrow.BINARY_VIEW:
			return nil
		}
		return mismatch()
	case types.Decimal:
		d, ok := dt.(*arrow.Decimal128Type)
		if !ok || int(d.Scale) != t.Scale {
			return fmt.Errorf("%s: a different DECIMAL scale or width would change values", dt)
		}
		if int(d.Precision) > t.Precision {
			return fmt.Errorf("%s: precision %d exceeds the column's %d", dt, d.Precision, t.Precision)
		}
		return nil
	case types.Timestamp, types.TimestampTZ:
		ts, ok := dt.(*arrow.TimestampType)
		if !ok || ts.Unit != types.TimestampUnit(t.Precision) {
			return fmt.Errorf("%s: a different TIMESTAMP unit would change values", dt)
		}
		// Arrow timestamps are UTC instants whatever the zone label, but a
		// zone-less one is a wall-clock value: the two must not mix.
		if (ts.TimeZone == "") != (t.Kind == types.Timestamp) {
			return mismatch()
		}
		return nil
	case types.Array:
		var elem arrow.DataType
		switch l := dt.(type) {
		case *arrow.ListType:
			elem = l.Elem()
		case *arrow.LargeListType:
			elem = l.Elem()
		case *arrow.ListViewType:
			elem = l.Elem()
		case *arrow.LargeListViewType:
			elem = l.Elem()
		default:
			return mismatch()
		}
		return compatible(elem, *t.Elem)
	case types.Map:
		m, ok := dt.(*arrow.MapType)
		if !ok {
			return mismatch()
		}
		if err := compatible(m.KeyType(), *t.Key); err != nil {
			return err
		}
		return compatible(m.ItemType(), *t.Elem)
	case types.Row:
		s, ok := dt.(*arrow.StructType)
		if !ok {
			return mismatch()
		}
		if s.NumFields() != len(t.Fields) {
			return fmt.Errorf("ROW has %d fields but the batch's struct has %d", len(t.Fields), s.NumFields())
		}
		for i, f := range t.Fields {
			if s.Field(i).Name != f.Name {
				return fmt.Errorf("ROW field %d is \"%s\" but the batch's struct field is \"%s\"", i+1, f.Name, s.Field(i).Name)
			}
			if err := compatible(s.Field(i).Type, f.Type); err != nil {
				return fmt.Errorf("ROW field \"%s\": %w", f.Name, err)
			}
		}
		return nil
	}
	if !arrow.TypeEqual(dt, t.ArrowType()) {
		return mismatch()
	}
	return nil
}

// sameLayout reports whether a and b store values in identical buffers, so an
// array of type a can be relabelled as b: they differ at most in nullability
// flags and list/map child names.
func sameLayout(a, b arrow.DataType) bool {
	if a.ID() != b.ID() {
		return false
	}
	switch at := a.(type) {
	case *arrow.ListType:
		return sameLayout(at.Elem(), b.(*arrow.ListType).Elem())
	case *arrow.MapType:
		bt := b.(*arrow.MapType)
		return sameLayout(at.KeyType(), bt.KeyType()) && sameLayout(at.ItemType(), bt.ItemType())
	case *arrow.StructType:
		bt := b.(*arrow.StructType)
		if at.NumFields() != bt.NumFields() {
			return false
		}
		for i := 0; i < at.NumFields(); i++ {
			if at.Field(i).Name != bt.Field(i).Name || !sameLayout(at.Field(i).Type, bt.Field(i).Type) {
				return false
			}
		}
		return true
	case *arrow.TimestampType:
		return at.Unit == b.(*arrow.TimestampType).Unit
	}
	return arrow.TypeEqual(a, b)
}

// retype relabels d (and its children) with type want; buffers are shared.
func retype(d arrow.ArrayData, want arrow.DataType) arrow.ArrayData {
	var childTypes []arrow.DataType
	switch w := want.(type) {
	case *arrow.ListType:
		childTypes = []arrow.DataType{w.Elem()}
	case *arrow.MapType:
		childTypes = []arrow.DataType{w.Elem()} // the entries struct
	case *arrow.StructType:
		for _, f := range w.Fields() {
			childTypes = append(childTypes, f.Type)
		}
	}
	children := make([]arrow.ArrayData, len(d.Children()))
	for i, c := range d.Children() {
		if i < len(childTypes) {
			children[i] = retype(c, childTypes[i])
		} else {
			c.Retain()
			children[i] = c
		}
	}
	out := array.NewData(want, d.Len(), d.Buffers(), children, d.NullN(), d.Offset())
	for _, c := range children {
		c.Release()
	}
	return out
}

// firstNotNullViolation finds a null where t (or a nested type) is NOT NULL
// and returns the path of the offending column or field.
// hasTimeBelowMillis reports whether t is or holds a TIME with a precision
// above 3, whose values may have digits Fluss does not store.
func hasTimeBelowMillis(t types.T) bool {
	switch t.Kind {
	case types.Time:
		return t.Precision > 3
	case types.Array:
		return hasTimeBelowMillis(*t.Elem)
	case types.Map:
		return hasTimeBelowMillis(*t.Key) || hasTimeBelowMillis(*t.Elem)
	case types.Row:
		for _, f := range t.Fields {
			if hasTimeBelowMillis(f.Type) {
				return true
			}
		}
	}
	return false
}

// firstTimeBelowMillis finds a TIME value among a[from:to] (of type t)
// that is not a whole number of milliseconds: Fluss keeps TIME(p) of every
// precision as milliseconds of the day (CompactedRowWriter writes it as an
// int; Fluss's clients truncate to it), so sqlgate refuses such a value
// rather than change it. It returns the column path and the TIME type.
func firstTimeBelowMillis(a arrow.Array, t types.T, path string, from, to int) (string, types.T, bool) {
	if !hasTimeBelowMillis(t) {
		return "", t, true
	}
	for i := from; i < to; i++ {
		if a.IsNull(i) {
			continue
		}
		switch t.Kind {
		case types.Time:
			if v, ok := a.(*array.Time64); ok {
				per := arrow.Time64(1000)
				if v.DataType().(*arrow.Time64Type).Unit == arrow.Nanosecond {
					per = 1_000_000
				}
				if v.Value(i)%per != 0 {
					return path, t, false
				}
			}
		case types.Array:
			l := a.(array.ListLike)
			s, e := l.ValueOffsets(i)
			if p, et, ok := firstTimeBelowMillis(l.ListValues(), *t.Elem, path, int(s), int(e)); !ok {
				return p, et, false
			}
		case types.Map:
			m := a.(*array.Map)
			s, e := m.ValueOffsets(i)
			if p, et, ok := firstTimeBelowMillis(m.Keys(), *t.Key, path+" (map key)", int(s), int(e)); !ok {
				return p, et, false
			}
			if p, et, ok := firstTimeBelowMillis(m.Items(), *t.Elem, path, int(s), int(e)); !ok {
				return p, et, false
			}
		case types.Row:
			st := a.(*array.Struct)
			for f, ft := range t.Fields {
				if p, et, ok := firstTimeBelowMillis(st.Field(f), ft.Type, path+"."+ft.Name, i, i+1); !ok {
					return p, et, false
				}
			}
		}
	}
	return "", t, true
}

// CheckNotNull refuses a batch of info's table (cols: its columns in table
// order, as the table stores them) holding a null in a NOT NULL column, ROW
// field, array element or map value. PostgreSQL's ExecConstraints checks
// row by row, each row's columns in table order: so the report is of the
// first such row, naming its first such column (a path "c.f" for a field),
// with the row's values in the DETAIL (sqlerr.NullInNotNullRow).
func CheckNotNull(info TableInfo, cols []arrow.Array) error {
	return CheckNotNullStyle(info, cols, nil, types.Style{})
}

// CheckNotNullStyle is CheckNotNull in a session whose TimeZone is loc
// and whose output settings are st: the DETAIL prints the row's values
// under them, as PostgreSQL's does (a timestamptz in the session's zone,
// dates and intervals in its DateStyle and IntervalStyle, a float with
// its extra_float_digits). A caller holding the session checks with it before
// the store's own check (CheckNotNull, which has no session) meets the
// row.
func CheckNotNullStyle(info TableInfo, cols []arrow.Array, loc *time.Location, st types.Style) error {
	_, err := NotNullRow(info, cols, loc, st)
	return err
}

// NotNullRow is CheckNotNullStyle that also says which row failed (-1
// with a nil error when none did): a writer of several rows reports the
// first row's failure of any kind (a CHECK's, a unique constraint's), as
// PostgreSQL, which writes a row at a time, does, so it writes the rows
// before it first (exec.Insert).
func NotNullRow(info TableInfo, cols []arrow.Array, loc *time.Location, st types.Style) (int, error) {
	defs := info.Descriptor.Schema.Columns
	row, path := -1, ""
	for c, def := range defs {
		if !holdsNotNull(def.Type) {
			continue
		}
		a := cols[c]
		end := a.Len()
		if row >= 0 {
			end = row // only an earlier row changes the report
		}
		if !def.Type.IsNested() {
			if a.NullN() == 0 {
				continue
			}
			for i := 0; i < end; i++ {
				if a.IsNull(i) {
					row, path = i, def.Name
					break
				}
			}
			continue
		}
		if (!def.Type.NotNull || a.NullN() == 0) && noNullsInside(a) {
			continue // the common case: no null anywhere below the column
		}
		if _, ok := checkNulls(a, def.Type, def.Name, 0, end); ok {
			continue
		}
		for i := 0; i < end; i++ {
			if p, ok := checkNulls(a, def.Type, def.Name, i, i+1); !ok {
				row, path = i, p
				break
			}
		}
	}
	if row < 0 {
		return -1, nil
	}
	return row, sqlerr.NullInNotNullRow(path, info.Path.Table, RowTexts(info, cols, row, loc, st))
}

// RowTexts are row's values of the table's columns cols in their text
// form (nil for NULL), as an error's "Failing row contains" prints them.
func RowTexts(info TableInfo, cols []arrow.Array, row int, loc *time.Location, st types.Style) []*string {
	defs := info.Descriptor.Schema.Columns
	vals := make([]*string, len(defs))
	for c, def := range defs {
		if c >= len(cols) || cols[c].IsNull(row) {
			continue
		}
		t := def.Type.Nullable()
		var s string
		if b, _, err := pgtypes.AppendValueStyle(nil, t, pgtypes.FormatText, cols[c], row, loc, st); err == nil {
			s = string(b)
		} else {
			s = types.FormatTextStyle(types.ValueAt(cols[c], row), t, loc, st)
		}
		vals[c] = &s
	}
	return vals
}

// noNullsInside reports whether a nested array's children (elements, map
// keys and values, fields) hold no null at any depth, reading only their
// null counts; false may also mean nulls outside a's slice.
func noNullsInside(a arrow.Array) bool {
	switch x := a.(type) {
	case *array.Map:
		return x.Keys().NullN() == 0 && x.Items().NullN() == 0 && noNullsInside(x.Keys()) && noNullsInside(x.Items())
	case array.ListLike:
		v := x.ListValues()
		return v.NullN() == 0 && noNullsInside(v)
	case *array.Struct:
		for f := 0; f < x.NumField(); f++ {
			if x.Field(f).NullN() != 0 || !noNullsInside(x.Field(f)) {
				return false
			}
		}
	}
	return true
}

// holdsNotNull reports whether t or any field, element, map key or value
// inside it is NOT NULL.
func holdsNotNull(t types.T) bool {
	if t.NotNull {
		return true
	}
	switch t.Kind {
	case types.Array:
		return holdsNotNull(*t.Elem)
	case types.Map:
		return holdsNotNull(*t.Key) || holdsNotNull(*t.Elem)
	case types.Row:
		for _, f := range t.Fields {
			if holdsNotNull(f.Type) {
				return true
			}
		}
	}
	return false
}

func checkNulls(a arrow.Array, t types.T, path string, from, to int) (string, bool) {
	if !t.IsNested() {
		if !t.NotNull || a.NullN() == 0 {
			return "", true
		}
	}
	for i := from; i < to; i++ {
		if a.IsNull(i) {
			if t.NotNull {
				return path, false
			}
			continue
		}
		switch t.Kind {
		case types.Array:
			l := a.(array.ListLike)
			s, e := l.ValueOffsets(i)
			if p, ok := checkNulls(l.ListValues(), *t.Elem, path, int(s), int(e)); !ok {
				return p, false
			}
		case types.Map:
			m := a.(*array.Map)
			s, e := m.ValueOffsets(i)
			if p, ok := checkNulls(m.Keys(), *t.Key, path+" (map key)", int(s), int(e)); !ok {
				return p, false
			}
			if p, ok := checkNulls(m.Items(), *t.Elem, path, int(s), int(e)); !ok {
				return p, false
			}
		case types.Row:
			st := a.(*array.Struct)
			for f, ft := range t.Fields {
				if p, ok := checkNulls(st.Field(f), ft.Type, path+"."+ft.Name, i, i+1); !ok {
					return p, false
				}
			}
		}
	}
	return "", true
}
