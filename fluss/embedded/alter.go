package embedded

import (
	"context"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// ALTER TABLE (fluss.TableAlterer). A table's schema changes as Fluss
// 0.9.1's does: ADD COLUMN appends a nullable column under a new schema id
// (the old rows and log batches stay as written, under their schema id,
// and read the columns added since as their missing values, NULL unless
// ADD COLUMN gave a default (fluss/missing.go): storedRow widens a stored
// value, logScan and the changelog widen an old batch), and properties and comments change
// the descriptor only. The catalog file, replaced atomically, is the one
// place the change is recorded, so a crash leaves the table as it was or
// as altered; its schema_column_counts say how many columns each schema
// id has.
//
// The table's state is replaced, not changed in place (its schema is fixed
// for the readers that hold it): the new state shares the old one's bucket
// logs and lock, and the swap goes through the committer, after the writes
// already queued; a handle of the old state refuses further writes (the
// statement is run again against the new schema).

var _ fluss.TableAlterer = (*Store)(nil)

// AlterTable implements fluss.TableAlterer.
func (s *Store) AlterTable(ctx context.Context, path fluss.TablePath, changes []fluss.TableChange) (fluss.TableInfo, error) {
	if err := ctx.Err(); err != nil {
		return fluss.TableInfo{}, err
	}
	s.catMu.Lock()
	defer s.catMu.Unlock()
	old, err := s.tableLocked(path)
	if err != nil {
		return fluss.TableInfo{}, err
	}
	desc, schemaChanged, err := fluss.ApplyTableChanges(old.info, changes)
	if err != nil {
		return fluss.TableInfo{}, err
	}
	info := old.info
	info.Descriptor, info.ArrowSchemas = desc, nil
	counts := old.schemaCounts()
	if schemaChanged {
		info.SchemaID++
		counts = append(counts, len(desc.Schema.Columns))
	}
	entry, err := entryFromInfo(info)
	if err != nil {
		return fluss.TableInfo{}, sqlerr.Wrap(err, sqlerr.FeatureNotSupported, "%v", err)
	}
	if schemaChanged || old.schemaCols != nil {
		entry.SchemaColumns = counts
	}
	err = s.changeEntries(ctx, old, func(e *catalogEntry) {
		if e.TableID == old.info.TableID {
			*e = entry
		}
	})
	if err != nil {
		return fluss.TableInfo{}, err
	}
	t := old.replaced(info, entry.SchemaColumns)
	s.tables[path] = t
	if err := s.alterPartitionsLocked(ctx, t); err != nil { // partitions.go
		return fluss.TableInfo{}, err
	}
	return t.info, nil
}

// tableLocked is the state of the table at path for a catalog change
// (catMu held): 42P01 when there is none, an error once the store closed.
func (s *Store) tableLocked(path fluss.TablePath) (*tableState, error) {
	if s.tables == nil {
		return nil, errClosed()
	}
	t, ok := s.tables[path]
	if !ok {
		return nil, undefinedTable(path)
	}
	return t, nil
}

// changeEntries writes the catalog with change applied to each entry
// (one atomic catalog write: the table is as it was or as changed), then
// retires old through the committer: the writes queued before are
// committed, and old takes no more. Called with catMu held.
func (s *Store) changeEntries(ctx context.Context, old *tableState, change func(e *catalogEntry)) error {
	prev := s.catalog
	s.catalog.Tables = slices.Clone(s.catalog.Tables)
	for i := range s.catalog.Tables {
		change(&s.catalog.Tables[i])
	}
	if err := s.saveCatalog(); err != nil {
		s.catalog = prev
		return err
	}
	r := &request{table: old, kind: reqAlter, done: make(chan result, 1)}
	res, err := s.submit(context.WithoutCancel(ctx), r)
	if err == nil {
		err = res.err
	}
	return err
}

// schemaCounts is schemaCols, or, for a table that never changed its
// schema, every schema id up to the current one with the current columns.
func (t *tableState) schemaCounts() []int {
	if t.schemaCols != nil {
		return slices.Clone(t.schemaCols)
	}
	out := make([]int, t.info.SchemaID)
	for i := range out {
		out[i] = len(t.colTypes)
	}
	return out
}

// retire is the committer's part of an ALTER TABLE: the writes queued
// before it are committed (runGroup), and the old state takes no more.
func (t *tableState) retire() {
	t.mu.Lock()
	t.dropped, t.altered = true, true
	t.mu.Unlock()
	t.follow.Wake() // follow.go
}

// replaced returns the table's state under info, sharing t's bucket logs,
// lock and distinct-count sketches (a new column starts empty).
func (t *tableState) replaced(info fluss.TableInfo, counts []int) *tableState {
	info.ArrowSchemas = fluss.NewArrowSchemas()
	schema := rowSchema(info)
	n := &tableState{info: info, dir: t.dir, schema: schema, pkIdx: t.pkIdx, bkIdx: t.bkIdx, buckets: t.buckets,
		pkTypes: t.pkTypes, bkTypes: t.bkTypes, bkInPK: t.bkInPK, keyArrow: t.keyArrow, keyInfo: t.keyInfo,
		projs: map[string]*projPlan{}, mu: t.mu, follow: t.follow}
	n.sticky.Store(t.sticky.Load())
	for _, c := range info.Descriptor.Schema.Columns {
		n.colTypes = append(n.colTypes, c.Type)
	}
	n.decoder = format.NewTableBatchDecoder(schema, n.colTypes)
	n.setSchemas(counts)
	t.ndv.mu.Lock()
	n.ndv.known, n.ndv.dirty = t.ndv.known, true
	if t.ndv.regs != nil {
		n.ndv.regs = make([][]uint8, len(n.colTypes))
		copy(n.ndv.regs, t.ndv.regs)
	}
	t.ndv.mu.Unlock()
	return n
}

// setSchemas records the column counts of the table's schema ids (nil:
// one schema) and builds the decoders of the older schemas' log batches.
func (t *tableState) setSchemas(counts []int) {
	t.schemaCols, t.oldDecoders = counts, nil
	t.missing = fluss.MissingOf(t.info.Descriptor)
	for i, n := range counts {
		id := int16(i + 1)
		if id == t.info.SchemaID || n <= 0 || n >= len(t.colTypes) {
			continue
		}
		if t.oldDecoders == nil {
			t.oldDecoders = map[int16]*format.BatchDecoder{}
		}
		t.oldDecoders[id] = format.NewTableBatchDecoder(arrow.NewSchema(t.schema.Fields()[:n], nil), t.colTypes[:n])
	}
}

// columnsOf is the number of columns of schema id; -1 for an id the table
// never had.
func (t *tableState) columnsOf(id int16) int {
	if id == t.info.SchemaID {
		return len(t.colTypes)
	}
	if id >= 1 && int(id) <= len(t.schemaCols) && t.schemaCols[id-1] <= len(t.colTypes) {
		return t.schemaCols[id-1]
	}
	return -1
}

// widenRecord returns rec (the columns of an older schema) with the columns
// added since, under the table's schema: their missing values (NULL
// unless ADD COLUMN gave a default); rec is released.
func (t *tableState) widenRecord(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	out, err := t.missing.WidenRecord(rec, t.schema)
	if err != nil {
		return nil, corrupt("%s: %v", t.info.Path, err)
	}
	return out, nil
}

// widenRow is the compacted row of the table's schema made from row, a
// row of an older schema of n columns: the columns added since read their
// missing values.
func (t *tableState) widenRow(row []byte, n int) ([]byte, error) {
	return t.missing.WidenRow(nil, row, n, len(t.colTypes))
}

// batchReaders are the decoders a log read keeps: one of the table's
// schema and one per older schema it met.
type batchReaders struct {
	cur *format.BatchReader
	old map[*format.BatchDecoder]*format.BatchReader
}

// reader is the reader of t's batches, or of oldDec's when not nil.
func (br *batchReaders) reader(t *tableState, oldDec *format.BatchDecoder) *format.BatchReader {
	if oldDec == nil {
		if br.cur == nil {
			br.cur = t.decoder.NewReader()
		}
		return br.cur
	}
	dec := br.old[oldDec]
	if dec == nil {
		if br.old == nil {
			br.old = map[*format.BatchDecoder]*format.BatchReader{}
		}
		dec = oldDec.NewReader()
		br.old[oldDec] = dec
	}
	return dec
}

func (br *batchReaders) release() {
	if br.cur != nil {
		br.cur.Release()
		br.cur = nil
	}
	for _, r := range br.old {
		r.Release()
	}
	br.old = nil
}

func errOldSchema(t *tableState, id int16) error {
	return fmt.Errorf("data of schema %d in a table of schema %d", id, t.info.SchemaID)
}

// errAltered is the error of a write through a table handle an ALTER TABLE
// retired: nothing was written, and the statement can run again.
func errAltered(path fluss.TablePath) error {
	return sqlerr.New(sqlerr.SerializationFailure, "table \"%s\" was altered while the statement ran; nothing was written", path.Table).
		WithHint("Run the statement again.")
}
