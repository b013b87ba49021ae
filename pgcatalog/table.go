package pgcatalog

import (
	"context"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Column types of the catalog relations (see schema.go).
var (
	tOid  = types.T{Kind: types.Oid}
	tName = types.T{Kind: types.Name}
	// PostgreSQL's one-byte "char" (relkind, contype ...), computed as text
	tChar   = types.QCharType
	tInt2   = types.Int16Type
	tInt4   = types.Int32Type
	tInt8   = types.Int64Type
	tBool   = types.BoolType
	tFloat4 = types.Float32Type
	tFloat8 = types.Float64Type
	tText   = types.StringType
	tYesNo  = types.T{Kind: types.String, Length: 3} // information_schema.yes_or_no
	// information_schema.character_data: a domain over varchar without a
	// limit, which clients see as varchar (1043), not text
	tCharData  = types.T{Kind: types.String, Length: -1}
	tTSTZ      = types.TimestampTZType(6)
	tInterval  = types.T{Kind: types.Interval}
	tBytea     = types.BytesType
	tNumeric   = types.NumericType
	tInt2Arr   = types.ArrayOf(tInt2)
	tOidArr    = types.ArrayOf(tOid)
	tInt2Vec   = types.Int2VectorType // int2vector: printed "2 1", subscripts from 0
	tOidVec    = types.OidVectorType  // oidvector
	tTextArr   = types.ArrayOf(tText)
	tNameArr   = types.ArrayOf(tName)
	tCharArr   = types.ArrayOf(tChar)
	tFloat4Arr = types.ArrayOf(tFloat4)
	// regtype[] (pg_prepared_statements.parameter_types)
	tRegTypeArr = types.ArrayOf(types.RegOf(types.RegType))
	// xid, inet and pg_lsn: transaction IDs, client addresses and WAL
	// positions (pg_stat_activity, pg_replication_slots ...)
	tXid  = types.XidType
	tInet = types.InetType
	tLsn  = types.PgLsnType
	// pg_node_tree, aclitem[], anyarray and regproc columns, with those
	// types on the wire
	tNodeTree = types.PgNodeTreeType
	tAclArr   = types.ArrayOf(types.AclItemType)
	tAnyArray = types.AnyArrayType
	tRegProc  = types.RegOf(types.RegProc)
)

// Schema names as relSpec spells them.
const (
	pgCatalog  = "pg_catalog"
	infoSchema = "information_schema"
)

// col is one column of a catalog relation.
type col struct {
	name string
	t    types.T
}

// relSpec declares one virtual relation.
type relSpec struct {
	schema string
	name   string
	oid    uint32 // PostgreSQL 15's OID of the relation
	kind   rune   // relkind: 'r' catalog table, 'v' view
	cols   []col
}

// row is one generated row: column name -> value (absent = NULL). Values
// are Go values: bool, int (any integer column, oid included), float64,
// string, []byte, time.Time, []any (arrays).
type row map[string]any

// rowsFunc generates a relation's rows from a snapshot of the catalog.
type rowsFunc func(ctx context.Context, s *snapshot) ([]row, error)

// virtualTable is a read-only fluss.Table whose rows are generated at scan
// time.
type virtualTable struct {
	cat  *Catalog
	spec *relSpec
	info fluss.TableInfo
	rows rowsFunc // nil: the relation is always empty
	// session is the session of the statement that opened the table
	// (pg_stat_ssl's row): a scan's reads may run in a context of their own.
	session    functions.Session
	hasSession bool
}

func newVirtualTable(cat *Catalog, spec *relSpec, rows rowsFunc) *virtualTable {
	cols := make([]fluss.Column, len(spec.cols))
	for i, c := range spec.cols {
		cols[i] = fluss.Column{Name: c.name, Type: c.t}
	}
	return &virtualTable{cat: cat, spec: spec, rows: rows, info: fluss.TableInfo{
		Path:       fluss.TablePath{Database: spec.schema, Table: spec.name},
		Descriptor: fluss.TableDescriptor{Schema: fluss.Schema{Columns: cols}},
	}}
}

func (t *virtualTable) Info() fluss.TableInfo { return t.info }

func (t *virtualTable) readOnly() error {
	if t.spec.kind == 'v' {
		return sqlerr.New(sqlerr.FeatureNotSupported, "cannot change view \"%s\"", t.spec.name)
	}
	if t.spec.kind == 'S' {
		return sqlerr.New(sqlerr.WrongObjectType, "cannot change sequence \"%s\"", t.spec.name)
	}
	return sqlerr.New(sqlerr.InsufficientPrivilege, "permission denied for table %s", t.spec.name)
}

func (t *virtualTable) Append(context.Context, arrow.RecordBatch) (fluss.WriteResult, error) {
	return fluss.WriteResult{}, t.readOnly()
}

func (t *virtualTable) Upsert(context.Context, arrow.RecordBatch, fluss.UpsertOptions) (fluss.WriteResult, error) {
	return fluss.WriteResult{}, t.readOnly()
}

func (t *virtualTable) Delete(context.Context, arrow.RecordBatch) (fluss.WriteResult, error) {
	return fluss.WriteResult{}, t.readOnly()
}

// Lookup is never planned (virtual relations have no primary key).
func (t *virtualTable) Lookup(context.Context, arrow.RecordBatch, []int) (arrow.RecordBatch, error) {
	return nil, sqlerr.NotSupported("primary-key lookup on a catalog relation")
}

// Scan generates the rows now, from the live catalog.
func (t *virtualTable) Scan(ctx context.Context, opts fluss.ScanOptions) (fluss.RecordReader, error) {
	var rows []row
	if t.rows != nil {
		if _, ok := functions.SessionIn(ctx); !ok && t.hasSession {
			ctx = functions.WithSession(ctx, t.session)
		}
		snap, err := t.cat.snapshot(ctx)
		if err != nil {
			return nil, err
		}
		if rows, err = t.rows(ctx, snap); err != nil {
			return nil, err
		}
	}
	if opts.Limit > 0 && int64(len(rows)) > opts.Limit {
		rows = rows[:opts.Limit]
	}
	proj := opts.Projection
	if proj == nil {
		proj = make([]int, len(t.spec.cols))
		for i := range proj {
			proj[i] = i
		}
	}
	full := t.info.ArrowSchema()
	fields := make([]arrow.Field, len(proj))
	for i, p := range proj {
		if p < 0 || p >= len(t.spec.cols) {
			return nil, sqlerr.New(sqlerr.InternalError, "projection index %d out of range for %s", p, t.spec.name)
		}
		fields[i] = full.Field(p)
	}
	schema := arrow.NewSchema(fields, nil)
	rec, err := buildRecord(memory.DefaultAllocator, schema, t.spec, proj, rows)
	if err != nil {
		return nil, err
	}
	return &oneBatchReader{schema: schema, rec: rec}, nil
}

// buildRecord turns rows into one Arrow record of the projected columns.
func buildRecord(mem memory.Allocator, schema *arrow.Schema, spec *relSpec, proj []int, rows []row) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, len(proj))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, p := range proj {
		name := spec.cols[p].name
		b := array.NewBuilder(mem, schema.Field(i).Type)
		for _, r := range rows {
			if err := appendAny(b, r[name]); err != nil {
				b.Release()
				return nil, sqlerr.New(sqlerr.InternalError, "%s.%s: %v", spec.name, name, err)
			}
		}
		cols[i] = b.NewArray()
		b.Release()
	}
	return array.NewRecordBatch(schema, cols, int64(len(rows))), nil
}

// appendAny appends a row value (nil = NULL) to a builder of the column's
// Arrow type.
func appendAny(b array.Builder, v any) error {
	if v == nil {
		b.AppendNull()
		return nil
	}
	bad := func() error { return sqlerr.New(sqlerr.InternalError, "cannot store %T in %s", v, b.Type()) }
	switch x := b.(type) {
	case *array.BooleanBuilder:
		bv, ok := v.(bool)
		if !ok {
			return bad()
		}
		x.Append(bv)
	case *array.Int16Builder:
		n, ok := v.(int)
		if !ok {
			return bad()
		}
		x.Append(int16(n))
	case *array.Int32Builder:
		n, ok := v.(int)
		if !ok {
			return bad()
		}
		x.Append(int32(n))
	case *array.Int64Builder:
		n, ok := v.(int)
		if !ok {
			return bad()
		}
		x.Append(int64(n))
	case *array.Uint32Builder:
		switch n := v.(type) {
		case int:
			x.Append(uint32(n))
		case uint32:
			x.Append(n)
		default:
			return bad()
		}
	case *array.Float32Builder:
		f, ok := v.(float64)
		if !ok {
			return bad()
		}
		x.Append(float32(f))
	case *array.Float64Builder:
		f, ok := v.(float64)
		if !ok {
			return bad()
		}
		x.Append(f)
	case *array.StringBuilder:
		s, ok := v.(string)
		if !ok {
			return bad()
		}
		x.Append(s)
	case *array.BinaryBuilder:
		bs, ok := v.([]byte)
		if !ok {
			return bad()
		}
		x.Append(bs)
	case *array.TimestampBuilder:
		tm, ok := v.(time.Time)
		if !ok {
			return bad()
		}
		x.Append(arrow.Timestamp(tm.UnixMicro()))
	case *array.ListBuilder:
		elems, ok := v.([]any)
		if !ok {
			return bad()
		}
		x.Append(true)
		for _, e := range elems {
			if err := appendAny(x.ValueBuilder(), e); err != nil {
				return err
			}
		}
	default:
		return bad()
	}
	return nil
}

// oneBatchReader hands out one record, then the end.
type oneBatchReader struct {
	schema *arrow.Schema
	rec    arrow.RecordBatch
}

func (r *oneBatchReader) Schema() *arrow.Schema { return r.schema }

func (r *oneBatchReader) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rec := r.rec
	r.rec = nil
	if rec == nil {
		return nil, nil
	}
	if rec.NumRows() == 0 { // operators expect no empty batches
		rec.Release()
		return nil, nil
	}
	return rec, nil
}

func (r *oneBatchReader) Close() {
	if r.rec != nil {
		r.rec.Release()
		r.rec = nil
	}
}
