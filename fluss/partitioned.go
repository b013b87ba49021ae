package fluss

import (
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// PartitionedTable is the fluss.Table of a partitioned table over a store's
// partitions (PartitionSource): writes split their rows by partition and
// write each part to its partition (creating a missing one: Fluss's
// dynamic partition creation), reads read the partitions that
// ScanOptions.Partitions keeps, one after another, in name order. Both
// stores use it; what differs is PartitionSource.
type PartitionedTable struct {
	info TableInfo
	src  PartitionSource
	// part are the partition keys' column positions; partInPK their
	// positions within the primary key.
	part, partInPK []int
}

// PartitionSource is what PartitionedTable needs of a store.
type PartitionSource interface {
	// Partitions lists the table's partitions, by name.
	Partitions(ctx context.Context) ([]PartitionInfo, error)
	// Partition returns the partition's table: its rows, with the
	// partitioned table's columns.
	Partition(ctx context.Context, p PartitionInfo) (Table, error)
	// EnsurePartition returns the partition of values, creating it when
	// it does not exist.
	EnsurePartition(ctx context.Context, values []string) (PartitionInfo, error)
	// Write runs the writes of one call to the partitioned table
	// (write calls the partitions' tables): a store that can make them
	// atomic does.
	Write(ctx context.Context, write func(ctx context.Context) (WriteResult, error)) (WriteResult, error)
}

// NewPartitionedTable returns the table of info over src.
func NewPartitionedTable(info TableInfo, src PartitionSource) *PartitionedTable {
	t := &PartitionedTable{info: info, src: src}
	for _, k := range info.Descriptor.PartitionKeys {
		t.part = append(t.part, info.ColumnIndex(k))
		pos := -1
		for j, c := range info.Descriptor.Schema.PrimaryKey {
			if c == k {
				pos = j
			}
		}
		t.partInPK = append(t.partInPK, pos)
	}
	return t
}

var (
	_ Table            = (*PartitionedTable)(nil)
	_ ChangelogScanner = (*PartitionedTable)(nil)
)

// Info implements Table.
func (t *PartitionedTable) Info() TableInfo { return t.info }

// Source is the table's PartitionSource.
func (t *PartitionedTable) Source() PartitionSource { return t.src }

// rowsByPartition groups rec's rows by partition, in the order partitions
// first appear; cols are the partition keys' positions in rec.
func (t *PartitionedTable) rowsByPartition(rec arrow.RecordBatch, cols []int) ([][]string, [][]int, error) {
	var values [][]string
	var rows [][]int
	index := map[string]int{}
	n := int(rec.NumRows())
	vals := make([]string, len(cols))
	for i := 0; i < n; i++ {
		for k, c := range cols {
			ti := t.part[k]
			v, err := PartitionValue(t.info.Descriptor.Schema.Columns[ti].Type, rec.Column(c), i, t.info.Descriptor.PartitionKeys[k])
			if err != nil {
				return nil, nil, err
			}
			vals[k] = v
		}
		name := PartitionName(vals)
		j, ok := index[name]
		if !ok {
			for _, v := range vals {
				if err := ValidatePartitionValue(v, true); err != nil {
					return nil, nil, err
				}
			}
			j = len(values)
			index[name] = j
			values = append(values, append([]string(nil), vals...))
			rows = append(rows, nil)
		}
		rows[j] = append(rows[j], i)
	}
	return values, rows, nil
}

// takeRows is rec's rows at idx, in order (rec itself, retained, when idx
// is every row).
func takeRows(rec arrow.RecordBatch, idx []int) (arrow.RecordBatch, error) {
	if len(idx) == int(rec.NumRows()) {
		rec.Retain()
		return rec, nil
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, rec.Schema())
	defer b.Release()
	for _, i := range idx {
		for c, fb := range b.Fields() {
			if err := format.AppendFrom(fb, rec.Column(c), i); err != nil {
				return nil, sqlerr.Wrap(err, sqlerr.InternalError, "splitting rows by partition: %v", err)
			}
		}
	}
	return b.NewRecordBatch(), nil
}

// write splits rec by the partition keys at cols and applies do to each
// partition's part, creating missing partitions when create is set (a
// delete of a missing partition's keys does nothing).
func (t *PartitionedTable) write(ctx context.Context, rec arrow.RecordBatch, cols []int, create bool,
	do func(ctx context.Context, p Table, part arrow.RecordBatch) (WriteResult, error)) (WriteResult, error) {
	if rec.NumRows() == 0 {
		return WriteResult{}, nil
	}
	values, rows, err := t.rowsByPartition(rec, cols)
	if err != nil {
		return WriteResult{}, err
	}
	// One listing serves the whole call; only a partition missing from it
	// is created (or, for a delete, skipped).
	ps, err := t.src.Partitions(ctx)
	if err != nil {
		return WriteResult{}, err
	}
	existing := make(map[string]PartitionInfo, len(ps))
	for _, p := range ps {
		existing[p.Name] = p
	}
	parts := make([]PartitionInfo, len(values))
	for i, v := range values {
		p, ok := existing[PartitionName(v)]
		if !ok && create {
			if p, err = t.src.EnsurePartition(ctx, v); err != nil {
				return WriteResult{}, err
			}
		}
		parts[i] = p
	}
	return t.src.Write(ctx, func(ctx context.Context) (WriteResult, error) {
		var total WriteResult
		for i, p := range parts {
			if p.Name == "" {
				continue // no such partition: nothing to delete
			}
			pt, err := t.src.Partition(ctx, p)
			if err != nil {
				return WriteResult{}, err
			}
			part, err := takeRows(rec, rows[i])
			if err != nil {
				return WriteResult{}, err
			}
			res, err := do(ctx, pt, part)
			part.Release()
			if err != nil {
				return WriteResult{}, err
			}
			total.Rows += res.Rows
		}
		return total, nil
	})
}

// Append implements Table.
func (t *PartitionedTable) Append(ctx context.Context, rec arrow.RecordBatch) (WriteResult, error) {
	if t.info.HasPrimaryKey() {
		return WriteResult{}, sqlerr.New(sqlerr.FeatureNotSupported, "cannot append to primary-key table \"%s\": write it with upserts", t.info.Path.Table)
	}
	if err := t.checkShape(rec); err != nil {
		return WriteResult{}, err
	}
	return t.write(ctx, rec, t.part, true, func(ctx context.Context, p Table, part arrow.RecordBatch) (WriteResult, error) {
		return p.Append(ctx, part)
	})
}

// Upsert implements Table.
func (t *PartitionedTable) Upsert(ctx context.Context, rec arrow.RecordBatch, opts UpsertOptions) (WriteResult, error) {
	if !t.info.HasPrimaryKey() {
		return WriteResult{}, sqlerr.New(sqlerr.FeatureNotSupported, "upsert into log table \"%s\" is not supported", t.info.Path.Table)
	}
	if err := t.checkShape(rec); err != nil {
		return WriteResult{}, err
	}
	return t.write(ctx, rec, t.part, true, func(ctx context.Context, p Table, part arrow.RecordBatch) (WriteResult, error) {
		return p.Upsert(ctx, part, opts)
	})
}

// checkShape refuses a record without the table's columns before its
// partition columns are read (the partitions' tables validate the rest).
func (t *PartitionedTable) checkShape(rec arrow.RecordBatch) error {
	if int(rec.NumCols()) != len(t.info.Descriptor.Schema.Columns) {
		return sqlerr.New(sqlerr.DatatypeMismatch, "record has %d columns, table \"%s\" has %d", rec.NumCols(), t.info.Path.Table, len(t.info.Descriptor.Schema.Columns))
	}
	return nil
}

// Delete implements Table: keys carry the primary key, which holds the
// partition keys.
func (t *PartitionedTable) Delete(ctx context.Context, keys arrow.RecordBatch) (WriteResult, error) {
	if !t.info.HasPrimaryKey() {
		return WriteResult{}, sqlerr.New(sqlerr.FeatureNotSupported, "delete from log table \"%s\" is not supported", t.info.Path.Table)
	}
	return t.write(ctx, keys, t.partInPK, false, func(ctx context.Context, p Table, part arrow.RecordBatch) (WriteResult, error) {
		phys := t.physicalKeys(part)
		defer phys.Release()
		return p.Delete(ctx, phys)
	})
}

// Lookup implements Table: each key is looked up in its partition; the
// rows come partition by partition.
func (t *PartitionedTable) Lookup(ctx context.Context, keys arrow.RecordBatch, projection []int) (arrow.RecordBatch, error) {
	if !t.info.HasPrimaryKey() {
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "lookup in log table \"%s\" is not supported", t.info.Path.Table)
	}
	schema := projectSchema(t.info.ArrowSchema(), projection)
	var recs []arrow.RecordBatch
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	if keys.NumRows() > 0 {
		values, rows, err := t.rowsByPartition(keys, t.partInPK)
		if err != nil {
			return nil, err
		}
		ps, err := t.src.Partitions(ctx)
		if err != nil {
			return nil, err
		}
		byName := make(map[string]PartitionInfo, len(ps))
		for _, p := range ps {
			byName[p.Name] = p
		}
		for i, v := range values {
			p, ok := byName[PartitionName(v)]
			if !ok {
				continue
			}
			pt, err := t.src.Partition(ctx, p)
			if err != nil {
				return nil, err
			}
			part, err := takeRows(keys, rows[i])
			if err != nil {
				return nil, err
			}
			phys := t.physicalKeys(part)
			part.Release()
			rec, err := pt.Lookup(ctx, phys, projection)
			phys.Release()
			if err != nil {
				return nil, err
			}
			recs = append(recs, rec)
		}
	}
	return concatRecords(schema, recs)
}

// physicalKeys is keys (the primary key's columns) without the partition
// keys: what a partition's table takes (PhysicalInfo).
func (t *PartitionedTable) physicalKeys(keys arrow.RecordBatch) arrow.RecordBatch {
	var fs []arrow.Field
	var cols []arrow.Array
	for i := 0; i < int(keys.NumCols()); i++ {
		if !slices.Contains(t.partInPK, i) {
			fs = append(fs, keys.Schema().Field(i))
			cols = append(cols, keys.Column(i))
		}
	}
	return array.NewRecordBatch(arrow.NewSchema(fs, nil), cols, keys.NumRows())
}

func projectSchema(full *arrow.Schema, projection []int) *arrow.Schema {
	if projection == nil {
		return full
	}
	fs := make([]arrow.Field, len(projection))
	for i, p := range projection {
		fs[i] = full.Field(p)
	}
	return arrow.NewSchema(fs, nil)
}

// concatRecords is recs as one record of schema (an empty one when none).
func concatRecords(schema *arrow.Schema, recs []arrow.RecordBatch) (arrow.RecordBatch, error) {
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for _, r := range recs {
		for i := 0; i < int(r.NumRows()); i++ {
			for c, fb := range b.Fields() {
				if err := format.AppendFrom(fb, r.Column(c), i); err != nil {
					return nil, sqlerr.Wrap(err, sqlerr.InternalError, "combining partitions' rows: %v", err)
				}
			}
		}
	}
	return b.NewRecordBatch(), nil
}

// Scan implements Table: the partitions opts.Partitions keeps, by name.
func (t *PartitionedTable) Scan(ctx context.Context, opts ScanOptions) (RecordReader, error) {
	return t.scan(ctx, opts, projectSchema(t.info.ArrowSchema(), opts.Projection), func(ctx context.Context, p Table, o ScanOptions) (RecordReader, error) {
		return p.Scan(ctx, o)
	})
}

// ScanChangelog implements ChangelogScanner: each kept partition's
// changelog in turn.
func (t *PartitionedTable) ScanChangelog(ctx context.Context, opts ScanOptions) (RecordReader, error) {
	all := ChangelogColumns(t.info)
	fs := make([]arrow.Field, len(all))
	for i, c := range all {
		fs[i] = arrow.Field{Name: c.Name, Type: c.Type.ArrowType(), Nullable: !c.Type.NotNull}
	}
	return t.scan(ctx, opts, projectSchema(arrow.NewSchema(fs, nil), opts.Projection), func(ctx context.Context, p Table, o ScanOptions) (RecordReader, error) {
		cs, ok := p.(ChangelogScanner)
		if !ok {
			return nil, sqlerr.New(sqlerr.FeatureNotSupported, "the changelog of table \"%s\" cannot be read", t.info.Path.Table)
		}
		return cs.ScanChangelog(ctx, o)
	})
}

// ScanPartitions lists the partitions a scan with filter reads.
func (t *PartitionedTable) ScanPartitions(ctx context.Context, filter PartitionFilter) ([]PartitionInfo, error) {
	ps, err := t.src.Partitions(ctx)
	if err != nil {
		return nil, err
	}
	if filter == nil {
		return ps, nil
	}
	out := ps[:0:0]
	for _, p := range ps {
		if filter(p) {
			out = append(out, p)
		}
	}
	return out, nil
}

func (t *PartitionedTable) scan(ctx context.Context, opts ScanOptions, schema *arrow.Schema,
	open func(ctx context.Context, p Table, o ScanOptions) (RecordReader, error)) (RecordReader, error) {
	ps, err := t.ScanPartitions(ctx, opts.Partitions)
	if err != nil {
		return nil, err
	}
	// Each partition is opened when the previous one is read, so that a
	// scan holds one partition's reader at a time; the partitions' tables
	// are taken now, as the scan's snapshot of which partitions exist.
	tables := make([]Table, 0, len(ps))
	for _, p := range ps {
		pt, err := t.src.Partition(ctx, p)
		if sqlerr.CodeOf(err) == sqlerr.UndefinedObject {
			continue // dropped meanwhile
		}
		if err != nil {
			return nil, err
		}
		tables = append(tables, pt)
	}
	return &partitionsReader{schema: schema, tables: tables, opts: opts, open: open}, nil
}

// partitionsReader reads partitions one after another.
type partitionsReader struct {
	schema  *arrow.Schema
	tables  []Table
	opts    ScanOptions
	open    func(ctx context.Context, p Table, o ScanOptions) (RecordReader, error)
	cur     RecordReader
	emitted int64
	// release, when set, is called once by Close.
	release func()
}

func (r *partitionsReader) Schema() *arrow.Schema { return r.schema }

func (r *partitionsReader) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		if r.opts.Limit > 0 && r.emitted >= r.opts.Limit {
			return nil, nil
		}
		if r.cur == nil {
			if len(r.tables) == 0 {
				return nil, nil
			}
			o := r.opts
			o.Partitions = nil
			if o.Limit > 0 {
				o.Limit -= r.emitted
			}
			cur, err := r.open(ctx, r.tables[0], o)
			if err != nil {
				return nil, err
			}
			r.tables, r.cur = r.tables[1:], cur
		}
		rec, err := r.cur.Next(ctx)
		if err != nil {
			return nil, err
		}
		if rec == nil {
			r.cur.Close()
			r.cur = nil
			continue
		}
		if rec.NumRows() == 0 {
			rec.Release()
			continue
		}
		r.emitted += rec.NumRows()
		if !r.schema.Equal(rec.Schema()) {
			// the same columns under the partitioned table's field names
			out := array.NewRecordBatch(r.schema, rec.Columns(), rec.NumRows())
			rec.Release()
			rec = out
		}
		return rec, nil
	}
}

func (r *partitionsReader) Close() {
	if r.cur != nil {
		r.cur.Close()
		r.cur = nil
	}
	r.tables = nil
	if r.release != nil {
		r.release()
		r.release = nil
	}
}

var _ PrefixScanner = (*PartitionedTable)(nil)

// ScanPrefix implements PrefixScanner: the bucket key of a partitioned
// table leaves out its partition keys, so each kept partition is asked
// for the keys (a partition whose table cannot is scanned whole: callers
// keep their filter above a prefix lookup).
func (t *PartitionedTable) ScanPrefix(ctx context.Context, keys arrow.RecordBatch, opts ScanOptions) (RecordReader, error) {
	// The partitions are read after the call returns, when the caller may
	// have released keys.
	keys.Retain()
	r, err := t.scan(ctx, opts, projectSchema(t.info.ArrowSchema(), opts.Projection), func(ctx context.Context, p Table, o ScanOptions) (RecordReader, error) {
		if ps, ok := p.(PrefixScanner); ok {
			return ps.ScanPrefix(ctx, keys, o)
		}
		return p.Scan(ctx, o)
	})
	if err != nil {
		keys.Release()
		return nil, err
	}
	r.(*partitionsReader).release = keys.Release
	return r, nil
}
