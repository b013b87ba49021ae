package fileio

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Column is a column a file fills: its name and type.
type Column struct {
	Name string
	Type types.T
}

// Conformer turns a file's batches into the batches of the columns it
// fills, by seed 000's rules for an Arrow batch written into a table:
//
//   - the file has those columns, with their names, in their order (and a
//     ROW column's fields likewise);
//   - each column has the column's type. Types that differ only in how they
//     store the same values are converted: large_string, large_binary,
//     large_list, the view types, dictionary encoding, a list element's or a
//     map entry's field names, nullability flags, the zone name of a
//     timestamp with zone (its values are instants either way). Anything
//     that would change a value (another integer width, TIMESTAMP unit or
//     DECIMAL scale) is refused before anything is read;
//   - values are checked where the type alone cannot tell: a CHAR(n)
//     value longer than n (22001, as its text input), padded otherwise.
//     NULLs in NOT NULL columns are left to the write path, which checks
//     them at every level.
//
// Every error names the file and the column.
type Conformer struct {
	file  string
	cols  []Column
	out   *arrow.Schema
	mem   memory.Allocator
	rows  int64 // rows conformed so far, for error positions
	plain bool  // no column needs converting
}

// NewConformer checks the file's schema against cols.
func NewConformer(file string, got *arrow.Schema, cols []Column, mem memory.Allocator) (*Conformer, error) {
	c := &Conformer{file: file, cols: cols, mem: mem, plain: true}
	fs := make([]arrow.Field, len(cols))
	for i, col := range cols {
		fs[i] = arrow.Field{Name: col.Name, Type: col.Type.ArrowType(), Nullable: !col.Type.NotNull}
	}
	c.out = arrow.NewSchema(fs, nil)
	if got.NumFields() != len(cols) {
		names := make([]string, len(cols))
		for i, col := range cols {
			names[i] = col.Name
		}
		return nil, sqlerr.New(BadCopyFileFormat, "file \"%s\" has %d columns, but %d are expected (%s)", file, got.NumFields(), len(cols), strings.Join(names, ", ")).
			WithHint("A file's columns must be the table's (or the COPY column list's), with the same names, in the same order.")
	}
	for i, col := range cols {
		f := got.Field(i)
		if f.Name != col.Name {
			return nil, sqlerr.New(BadCopyFileFormat, "file \"%s\" has column \"%s\" where column \"%s\" is expected", file, f.Name, col.Name).
				WithHint("A file's columns must be the table's (or the COPY column list's), with the same names, in the same order.")
		}
		if err := c.check(col.Name, f.Type, col.Type); err != nil {
			return nil, err
		}
		if !arrow.TypeEqual(f.Type, fs[i].Type) || needsValueCheck(col.Type) {
			c.plain = false
		}
	}
	return c, nil
}

// ReadAs reads a file as its own columns (read_parquet, read_arrow): each
// column of the type TypeOf gives, converted where that widens it.
func ReadAs(file string, got *arrow.Schema, mem memory.Allocator) (*Conformer, []Column, error) {
	cols, err := FileColumns(file, got)
	if err != nil {
		return nil, nil, err
	}
	c := &Conformer{file: file, cols: cols, mem: mem}
	fs := make([]arrow.Field, len(cols))
	for i, col := range cols {
		fs[i] = arrow.Field{Name: col.Name, Type: col.Type.ArrowType(), Nullable: true}
	}
	c.out = arrow.NewSchema(fs, nil)
	return c, cols, nil
}

// Schema is the schema of the conformed batches.
func (c *Conformer) Schema() *arrow.Schema { return c.out }

func (c *Conformer) mismatch(path string, got arrow.DataType, want types.T) error {
	e := sqlerr.New(sqlerr.DatatypeMismatch, "column \"%s\" of file \"%s\" has type %s, which cannot be stored in a column of type %s without changing values", path, c.file, got, want)
	return e.WithHint("Write the file with the column's Arrow type %s; only types that store the same values differently (large_string, dictionary, view types, large_list) are converted.", want.ArrowType())
}

// check reports whether a file column of type got may fill want.
func (c *Conformer) check(path string, got arrow.DataType, want types.T) error {
	if d, ok := got.(*arrow.DictionaryType); ok {
		return c.check(path, d.ValueType, want)
	}
	switch want.Kind {
	case types.String, types.Char:
		switch got.ID() {
		case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
			return nil
		}
	case types.Bytes:
		switch got.ID() {
		case arrow.BINARY, arrow.LARGE_BINARY, arrow.BINARY_VIEW:
			return nil
		}
	case types.Array:
		var elem arrow.DataType
		switch t := got.(type) {
		case *arrow.ListType:
			elem = t.Elem()
		case *arrow.LargeListType:
			elem = t.Elem()
		case *arrow.ListViewType:
			elem = t.Elem()
		case *arrow.LargeListViewType:
			elem = t.Elem()
		}
		if elem != nil {
			return c.check(path+" element", elem, *want.Elem)
		}
	case types.Map:
		if m, ok := got.(*arrow.MapType); ok {
			if err := c.check(path+" key", m.KeyType(), *want.Key); err != nil {
				return err
			}
			return c.check(path+" value", m.ItemType(), *want.Elem)
		}
	case types.Row:
		if s, ok := got.(*arrow.StructType); ok {
			if s.NumFields() != len(want.Fields) {
				return c.mismatch(path, got, want)
			}
			for i, f := range want.Fields {
				gf := s.Field(i)
				if gf.Name != f.Name {
					return sqlerr.New(BadCopyFileFormat, "column \"%s\" of file \"%s\" has field \"%s\" where field \"%s\" is expected", path, c.file, gf.Name, f.Name).
						WithHint("A ROW column's fields must be the table's, with the same names, in the same order.")
				}
				if err := c.check(path+"."+f.Name, gf.Type, f.Type); err != nil {
					return err
				}
			}
			return nil
		}
	case types.TimestampTZ:
		w := want.ArrowType().(*arrow.TimestampType)
		if t, ok := got.(*arrow.TimestampType); ok && t.Unit == w.Unit && t.TimeZone != "" {
			return nil
		}
	default:
		if arrow.TypeEqual(got, want.ArrowType()) {
			return nil
		}
	}
	return c.mismatch(path, got, want)
}

// needsValueCheck reports whether values of t need checking beyond their type.
func needsValueCheck(t types.T) bool {
	switch t.Kind {
	case types.Char:
		return true
	case types.String:
		return t.Length > 0
	case types.Array, types.Map:
		return needsValueCheck(*t.Elem) || (t.Key != nil && needsValueCheck(*t.Key))
	case types.Row:
		for _, f := range t.Fields {
			if needsValueCheck(f.Type) {
				return true
			}
		}
	}
	return false
}

// Apply conforms one of the file's batches (the caller still releases rec).
func (c *Conformer) Apply(ctx context.Context, rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	defer func() { c.rows += rec.NumRows() }()
	if c.plain {
		return array.NewRecordBatch(c.out, rec.Columns(), rec.NumRows()), nil
	}
	cols := make([]arrow.Array, 0, len(c.cols))
	defer func() {
		for _, a := range cols {
			a.Release()
		}
	}()
	for i, col := range c.cols {
		a, err := c.convert(ctx, col.Name, rec.Column(i), col.Type, c.out.Field(i).Type)
		if err != nil {
			return nil, err
		}
		cols = append(cols, a)
	}
	return array.NewRecordBatch(c.out, cols, rec.NumRows()), nil
}

// convert returns a (a new reference) with the type want, whose Arrow type
// is wt; check has accepted a's type.
func (c *Conformer) convert(ctx context.Context, path string, a arrow.Array, want types.T, wt arrow.DataType) (arrow.Array, error) {
	if d, ok := a.(*array.Dictionary); ok {
		dense, err := compute.TakeArray(compute.WithAllocator(ctx, c.mem), d.Dictionary(), d.Indices())
		if err != nil {
			return nil, sqlerr.Wrap(err, sqlerr.InternalError, "column \"%s\" of file \"%s\": %v", path, c.file, err)
		}
		defer dense.Release()
		return c.convert(ctx, path, dense, want, wt)
	}
	switch want.Kind {
	case types.String, types.Char, types.Bytes:
		if a.DataType().ID() != wt.ID() {
			cast, err := compute.CastArray(compute.WithAllocator(ctx, c.mem), a, compute.SafeCastOptions(wt))
			if err != nil {
				return nil, sqlerr.Wrap(err, sqlerr.InternalError, "column \"%s\" of file \"%s\": %v", path, c.file, err)
			}
			defer cast.Release()
			a = cast
		}
		if needsValueCheck(want) {
			return c.checkStrings(path, a.(*array.String), want)
		}
		a.Retain()
		return a, nil
	case types.Array:
		if a.DataType().ID() != arrow.LIST {
			// large_list and the list views become a list of the same
			// elements, converted below.
			elem := a.DataType().(arrow.ListLikeType).ElemField()
			cast, err := compute.CastArray(compute.WithAllocator(ctx, c.mem), a, compute.SafeCastOptions(arrow.ListOfField(elem)))
			if err != nil {
				return nil, sqlerr.Wrap(err, sqlerr.InternalError, "column \"%s\" of file \"%s\": %v", path, c.file, err)
			}
			defer cast.Release()
			a = cast
		}
		ew := wt.(*arrow.ListType).Elem()
		child, err := c.convertData(ctx, path+" element", a.Data().Children()[0], *want.Elem, ew)
		if err != nil {
			return nil, err
		}
		defer child.Release()
		return rebuild(a, wt, []arrow.ArrayData{child}), nil
	case types.Map:
		mw := wt.(*arrow.MapType)
		entries := a.Data().Children()[0]
		kv := entries.Children()
		k, err := c.convertData(ctx, path+" key", kv[0], *want.Key, mw.KeyType())
		if err != nil {
			return nil, err
		}
		defer k.Release()
		v, err := c.convertData(ctx, path+" value", kv[1], *want.Elem, mw.ItemType())
		if err != nil {
			return nil, err
		}
		defer v.Release()
		e := array.NewData(mw.Elem(), entries.Len(), entries.Buffers(), []arrow.ArrayData{k, v}, entries.NullN(), entries.Offset())
		defer e.Release()
		return rebuild(a, wt, []arrow.ArrayData{e}), nil
	case types.Row:
		sw := wt.(*arrow.StructType)
		children := make([]arrow.ArrayData, len(want.Fields))
		defer func() {
			for _, ch := range children {
				if ch != nil {
					ch.Release()
				}
			}
		}()
		for i, f := range want.Fields {
			ch, err := c.convertData(ctx, path+"."+f.Name, a.Data().Children()[i], f.Type, sw.Field(i).Type)
			if err != nil {
				return nil, err
			}
			children[i] = ch
		}
		return rebuild(a, wt, children), nil
	}
	if arrow.TypeEqual(a.DataType(), wt) {
		a.Retain()
		return a, nil
	}
	if sameLayout(a.DataType(), wt) {
		return rebuild(a, wt, a.Data().Children()), nil
	}
	// a widening read_parquet allows (TypeOf): unsigned to a wider signed
	// integer, seconds and milliseconds to the finer unit, date64 to date32
	cast, err := compute.CastArray(compute.WithAllocator(ctx, c.mem), a, compute.SafeCastOptions(wt))
	if err != nil {
		return nil, sqlerr.Wrap(err, sqlerr.NumericValueOutOfRange, "column \"%s\" of file \"%s\": %s", path, c.file, cleanCause(err))
	}
	return cast, nil
}

// sameLayout reports whether arrays of a and b hold the same values in the
// same buffers (they differ at most in a zone name or a field's flags).
func sameLayout(a, b arrow.DataType) bool {
	if a.ID() != b.ID() {
		return false
	}
	switch x := a.(type) {
	case *arrow.TimestampType:
		return x.Unit == b.(*arrow.TimestampType).Unit
	case *arrow.Time32Type:
		return x.Unit == b.(*arrow.Time32Type).Unit
	case *arrow.Time64Type:
		return x.Unit == b.(*arrow.Time64Type).Unit
	}
	return arrow.TypeEqual(a, b)
}

func (c *Conformer) convertData(ctx context.Context, path string, d arrow.ArrayData, want types.T, wt arrow.DataType) (arrow.ArrayData, error) {
	a := array.MakeFromData(d)
	defer a.Release()
	out, err := c.convert(ctx, path, a, want, wt)
	if err != nil {
		return nil, err
	}
	defer out.Release()
	od := out.Data()
	od.Retain()
	return od, nil
}

// rebuild is a's buffers under type t with these children (same layout).
func rebuild(a arrow.Array, t arrow.DataType, children []arrow.ArrayData) arrow.Array {
	d := a.Data()
	nd := array.NewData(t, d.Len(), d.Buffers(), children, d.NullN(), d.Offset())
	defer nd.Release()
	return array.MakeFromData(nd)
}

// checkStrings applies CHAR(n) and VARCHAR(n) to a file's strings, as
// their text input does: excess spaces dropped, other excess refused
// (22001), CHAR(n) padded to n.
func (c *Conformer) checkStrings(path string, a *array.String, want types.T) (arrow.Array, error) {
	b := array.NewStringBuilder(c.mem)
	defer b.Release()
	b.Reserve(a.Len())
	for i := 0; i < a.Len(); i++ {
		if a.IsNull(i) {
			b.AppendNull()
			continue
		}
		v, err := types.ParseText(a.Value(i), want)
		if err != nil {
			e := sqlerr.As(err)
			if e == nil {
				return nil, err
			}
			return nil, sqlerr.New(e.Code, "column \"%s\" of file \"%s\": %s", path, c.file, e.Message).
				WithDetail("%s", c.position(path, i))
		}
		b.Append(v.(string))
	}
	return b.NewArray(), nil
}

// position says where a value is: its row for a top-level column.
func (c *Conformer) position(path string, i int) string {
	for _, col := range c.cols {
		if col.Name == path {
			return fmt.Sprintf("Row %d of the file.", c.rows+int64(i)+1)
		}
	}
	return "In a nested value of the column."
}
