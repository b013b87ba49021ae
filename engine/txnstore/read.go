package txnstore

import (
	"context"
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/internal/arrowrec"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Lookup implements fluss.Table: pending keys answer from the transaction,
// the others from the store.
func (pt *Table) Lookup(ctx context.Context, keys arrow.RecordBatch, projection []int) (arrow.RecordBatch, error) {
	if !pt.info.HasPrimaryKey() {
		return pt.base.Lookup(ctx, keys, projection)
	}
	pt.mu.Lock()
	pt.read = true
	if pt.bulk != nil {
		pt.mu.Unlock()
		return nil, pt.staged("reading")
	}
	if hit, ok, err := pt.lazyHit(keys); ok || err != nil {
		if err != nil || hit.rec == nil {
			pt.mu.Unlock()
			if err != nil {
				return nil, err
			}
			return pt.base.Lookup(ctx, keys, projection)
		}
		return pt.pendingRow(hit, projection), nil
	}
	if err := pt.indexLazy(); err != nil {
		pt.mu.Unlock()
		return nil, err
	}
	if len(pt.rows) == 0 {
		pt.mu.Unlock()
		return pt.base.Lookup(ctx, keys, projection)
	}
	var keyBuf [64]byte // key encodings on the stack while short
	buf := keyBuf[:0]
	var err error
	var ask []int
	var hits []slot
	for i := 0; i < int(keys.NumRows()); i++ {
		if buf, err = pt.keyOf(buf, keys.Columns(), i); err != nil {
			pt.mu.Unlock()
			return nil, err
		}
		s, pending := pt.rows[string(buf)]
		switch {
		case !pending:
			ask = append(ask, i)
		case !s.rec.del:
			hits = append(hits, s)
		}
	}
	if len(ask) == 0 && len(hits) == 1 {
		// One key, written by the transaction (an UPDATE's row read back
		// by the SELECT after it): its pending row, sliced out of the
		// record that holds it, without copying it into a new one. The
		// slice holds the record's buffers, so the record need not be
		// held past it (retainSlots' list and its deferred release were
		// two allocations of this path).
		return pt.pendingRow(hits[0], projection), nil
	}
	// The records stay alive while they are copied, even if a write of
	// the statement stages the table meanwhile (spill.go).
	held := retainSlots(hits)
	defer releaseAll(held)
	pt.mu.Unlock()
	out := pt.projected(projection)
	var fromStore arrow.RecordBatch
	if len(ask) > 0 {
		all := make([]int, keys.NumCols())
		for i := range all {
			all[i] = i
		}
		probe, err := buildRows(keys.Schema(), keys.Column, ask)
		if err != nil {
			return nil, err
		}
		fromStore, err = pt.base.Lookup(ctx, probe, projection)
		probe.Release()
		if err != nil {
			return nil, err
		}
	}
	if len(hits) == 0 {
		return fromStore, nil
	}
	if fromStore != nil {
		defer fromStore.Release()
	}
	return appendRows(out, fromStore, projectionOrAll(projection, pt.schema.NumFields()), hits)
}

// pendingRow is Lookup's answer of one key, pending in hit: the row sliced
// out of the record that holds it. The caller holds mu, which it releases.
func (pt *Table) pendingRow(hit slot, projection []int) arrow.RecordBatch {
	hit.rec.rec.Retain()
	var into *pendingRow // the table's own the first time
	if !pt.firstRowUsed {
		into, pt.firstRowUsed = &pt.firstRow, true
	}
	pt.mu.Unlock()
	row := sliceRow(pt.projected(projection), hit, projectionOrAll(projection, pt.schema.NumFields()), into)
	hit.rec.rec.Release()
	return row
}

// lazyHit answers a lookup of one key while the table's only pending write
// is one unindexed plain upsert of one row (an UPDATE by key, then the
// SELECT of its row): ok, with the row's slot when the key is the row's
// and an empty slot when it is not (the store answers), without indexing
// the row (a map and a key string). The caller holds mu.
func (pt *Table) lazyHit(keys arrow.RecordBatch) (hit slot, ok bool, err error) {
	if keys.NumRows() != 1 || len(pt.rows) != 0 || len(pt.lazy) != 1 || len(pt.recs) != 1 {
		return slot{}, false, nil
	}
	pr := pt.lazy[0]
	if pr.rec.NumRows() != 1 || !pr.current[0] {
		return slot{}, false, nil
	}
	var keyBuf, rowBuf [64]byte
	want, err := pt.keyOf(keyBuf[:0], keys.Columns(), 0)
	if err != nil {
		return slot{}, true, err
	}
	var kc keyColumnsBuf
	have, err := pt.keyOf(rowBuf[:0], pt.keyColumns(kc[:0], pr.rec), 0)
	if err != nil {
		return slot{}, true, err
	}
	if string(want) != string(have) {
		return slot{}, true, nil
	}
	return slot{rec: pr, row: 0}, true, nil
}

// Scan implements fluss.Table: the store's rows whose keys are not pending,
// then the pending rows (or, for a log table, the store's rows then the
// appended ones), as they are when the scan starts.
func (pt *Table) Scan(ctx context.Context, opts fluss.ScanOptions) (fluss.RecordReader, error) {
	return pt.scan(ctx, opts, nil, pt.base.Scan)
}

// scan is Scan over the store rows that baseScan reads, with only the
// pending rows keep accepts (nil: all of them).
func (pt *Table) scan(ctx context.Context, opts fluss.ScanOptions, keep func(slot) bool,
	baseScan func(context.Context, fluss.ScanOptions) (fluss.RecordReader, error)) (fluss.RecordReader, error) {
	pt.mu.Lock()
	pt.read = true
	if pt.bulk != nil {
		pt.mu.Unlock()
		return nil, pt.staged("reading")
	}
	if err := pt.indexLazy(); err != nil {
		pt.mu.Unlock()
		return nil, err
	}
	proj := projectionOrAll(opts.Projection, len(pt.schema.Fields()))
	r := &reader{out: pt.projected(opts.Projection), proj: proj, limit: opts.Limit}
	if pt.info.HasPrimaryKey() {
		if len(pt.rows) == 0 {
			pt.mu.Unlock()
			return baseScan(ctx, opts)
		}
		r.hidden = make(map[string]struct{}, len(pt.rows))
		for k := range pt.rows {
			r.hidden[k] = struct{}{}
		}
		for _, pr := range pt.recs {
			if pr.del {
				continue
			}
			for i, cur := range pr.current {
				if cur && (keep == nil || keep(slot{rec: pr, row: i})) {
					r.pending = append(r.pending, slot{rec: pr, row: i})
				}
			}
		}
		// The store scan must also read the key columns to hide the
		// pending keys; they are dropped from its output.
		r.scanProj = append([]int(nil), proj...)
		for _, k := range pt.keyIdx {
			at := -1
			for j, c := range r.scanProj {
				if c == k {
					at = j
				}
			}
			if at < 0 {
				at = len(r.scanProj)
				r.scanProj = append(r.scanProj, k)
			}
			r.keyAt = append(r.keyAt, at)
		}
		r.keyTypes = pt.keyTypes
	} else {
		if len(pt.appended) == 0 {
			pt.mu.Unlock()
			return baseScan(ctx, opts)
		}
		r.appended = append([]arrow.RecordBatch(nil), pt.appended...)
		r.scanProj = proj
	}
	// The reader keeps the pending records it reads alive: a write of the
	// same statement may stage the table (spill.go) before it is done.
	r.held = append(retainSlots(r.pending), r.appended...)
	for _, a := range r.appended {
		a.Retain()
	}
	pt.mu.Unlock()
	base, err := baseScan(ctx, fluss.ScanOptions{Projection: r.scanProj, BatchRows: opts.BatchRows})
	if err != nil {
		r.Close()
		return nil, err
	}
	r.base = base
	return r, nil
}

// ScanChangelog reads the store's changelog: pending writes have no
// changelog until they commit.
func (pt *Table) ScanChangelog(ctx context.Context, opts fluss.ScanOptions) (fluss.RecordReader, error) {
	cs, ok := pt.base.(fluss.ChangelogScanner)
	if !ok {
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "table %q has no readable changelog", pt.info.Path.Table)
	}
	return cs.ScanChangelog(ctx, opts)
}

// reader merges a store scan with pending rows.
type reader struct {
	out      *arrow.Schema
	proj     []int // table columns of the output
	scanProj []int // table columns the store scan reads
	keyAt    []int // positions of the key columns in the store scan
	keyTypes []types.T
	limit    int64
	emitted  int64
	base     fluss.RecordReader
	hidden   map[string]struct{}
	pending  []slot
	appended []arrow.RecordBatch
	done     bool
	held     []arrow.RecordBatch // retained until Close
}

func (r *reader) Schema() *arrow.Schema { return r.out }

func (r *reader) Close() {
	if r.base != nil {
		r.base.Close()
		r.base = nil
	}
	releaseAll(r.held)
	r.held = nil
}

func (r *reader) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		if r.limit > 0 && r.emitted >= r.limit {
			return nil, nil
		}
		b, err := r.next(ctx)
		if err != nil || b == nil {
			return b, err
		}
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		if r.limit > 0 && r.emitted+b.NumRows() > r.limit {
			cut := b.NewSlice(0, r.limit-r.emitted)
			b.Release()
			b = cut
		}
		r.emitted += b.NumRows()
		return b, nil
	}
}

func (r *reader) next(ctx context.Context) (arrow.RecordBatch, error) {
	if r.base != nil {
		b, err := r.base.Next(ctx)
		if err != nil {
			return nil, err
		}
		if b != nil {
			defer b.Release()
			return r.filterStore(b)
		}
		r.base.Close()
		r.base = nil
	}
	if len(r.appended) > 0 {
		a := r.appended[0]
		r.appended = r.appended[1:]
		cols := make([]arrow.Array, len(r.proj))
		for i, c := range r.proj {
			cols[i] = a.Column(c)
		}
		return array.NewRecordBatch(r.out, cols, a.NumRows()), nil
	}
	if !r.done && len(r.pending) > 0 {
		r.done = true
		return appendRows(r.out, nil, r.proj, r.pending)
	}
	return nil, nil
}

// filterStore drops the store rows whose keys are pending and the extra
// key columns.
func (r *reader) filterStore(b arrow.RecordBatch) (arrow.RecordBatch, error) {
	if r.hidden == nil {
		cols := b.Columns()[:len(r.proj)]
		return array.NewRecordBatch(r.out, cols, b.NumRows()), nil
	}
	keyCols := make([]arrow.Array, len(r.keyAt))
	for i, at := range r.keyAt {
		keyCols[i] = b.Column(at)
	}
	var keep []int
	var keyBuf [64]byte // key encodings on the stack while short
	buf := keyBuf[:0]
	var err error
	for i := 0; i < int(b.NumRows()); i++ {
		if buf, err = format.AppendKey(buf[:0], r.keyTypes, keyCols, i); err != nil {
			return nil, sqlerr.Wrap(err, sqlerr.InternalError, "encoding a key: %v", err)
		}
		if _, hide := r.hidden[string(buf)]; !hide {
			keep = append(keep, i)
		}
	}
	if len(keep) == int(b.NumRows()) {
		return array.NewRecordBatch(r.out, b.Columns()[:len(r.proj)], b.NumRows()), nil
	}
	return buildRows(r.out, b.Column, keep)
}

// projectionOrAll returns proj, or every column index when it is nil.
func projectionOrAll(proj []int, n int) []int {
	if proj != nil {
		return proj
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	return all
}

// projected is projectSchema of the table's schema, kept in the table's
// ArrowSchemas per projection (a prepared SELECT reads the same one at
// every execution).
func (pt *Table) projected(proj []int) *arrow.Schema {
	if proj == nil {
		return pt.schema
	}
	var buf [64]byte
	key := append(buf[:0], 'w')
	for _, c := range proj {
		key = binary.AppendUvarint(key, uint64(c))
	}
	return pt.info.ArrowSchemas.Get(key, func() *arrow.Schema { return projectSchema(pt.schema, proj) })
}

// pendingRow is sliceRow's record: its header, columns and the columns'
// Data in one allocation, where arrow's NewSlice and NewRecordBatch made
// two per column and two for the record (the column arrays themselves
// are still one allocation each).
type pendingRow struct {
	arrowrec.Record
	cols [4]arrow.Array
	data [4]array.Data
}

// sliceRow is the pending row sl projected to the table columns proj, as a
// one-row record of schema s sharing the pending record's buffers.
func sliceRow(s *arrow.Schema, sl slot, proj []int, into *pendingRow) arrow.RecordBatch {
	if r := slicePendingRow(s, sl, proj, into); r != nil {
		return r
	}
	cols := make([]arrow.Array, len(proj))
	for i, c := range proj {
		cols[i] = array.NewSlice(sl.rec.rec.Column(c), int64(sl.row), int64(sl.row)+1)
	}
	out := array.NewRecordBatch(s, cols, 1)
	for _, c := range cols {
		c.Release()
	}
	return out
}

// slicePendingRow is sliceRow as a pendingRow (into, a zero one, when not
// nil): nil when the row has more columns than one holds, or a dictionary
// column (whose slice keeps its dictionary, which NewSlice handles).
func slicePendingRow(s *arrow.Schema, sl slot, proj []int, into *pendingRow) arrow.RecordBatch {
	if len(proj) > len(pendingRow{}.cols) {
		return nil
	}
	src := sl.rec.rec
	for _, c := range proj {
		if src.Column(c).DataType().ID() == arrow.DICTIONARY {
			return nil
		}
	}
	r := into
	if r == nil {
		r = &pendingRow{}
	}
	for i, c := range proj {
		d := src.Column(c).Data()
		nulls := array.UnknownNullCount
		if d.NullN() == 0 {
			nulls = 0
		}
		// Reset retains the buffers and children, as NewSliceData does.
		r.data[i].Reset(d.DataType(), 1, d.Buffers(), d.Children(), nulls, d.Offset()+sl.row)
		r.cols[i] = array.MakeFromData(&r.data[i])
	}
	r.Init(s, r.cols[:len(proj)], 1)
	return r
}

func projectSchema(s *arrow.Schema, proj []int) *arrow.Schema {
	if proj == nil {
		return s
	}
	fields := make([]arrow.Field, len(proj))
	for i, c := range proj {
		fields[i] = s.Field(c)
	}
	return arrow.NewSchema(fields, nil)
}

// buildRows copies rows idx of the columns col(0..) into a record of schema s.
func buildRows(s *arrow.Schema, col func(int) arrow.Array, idx []int) (arrow.RecordBatch, error) {
	b := array.NewRecordBuilder(memory.DefaultAllocator, s)
	defer b.Release()
	for c := range s.Fields() {
		src, fb := col(c), b.Field(c)
		fb.Reserve(len(idx))
		for _, i := range idx {
			if err := format.AppendFrom(fb, src, i); err != nil {
				return nil, sqlerr.Wrap(err, sqlerr.InternalError, "copying a row: %v", err)
			}
		}
	}
	return b.NewRecordBatch(), nil
}

// appendRows returns first's rows (if any) followed by the pending rows,
// projected to the table columns proj.
func appendRows(s *arrow.Schema, first arrow.RecordBatch, proj []int, rows []slot) (arrow.RecordBatch, error) {
	b := array.NewRecordBuilder(memory.DefaultAllocator, s)
	defer b.Release()
	for c, tc := range proj {
		fb := b.Field(c)
		if first != nil {
			for i := 0; i < int(first.NumRows()); i++ {
				if err := format.AppendFrom(fb, first.Column(c), i); err != nil {
					return nil, sqlerr.Wrap(err, sqlerr.InternalError, "copying a row: %v", err)
				}
			}
		}
		for _, sl := range rows {
			if err := format.AppendFrom(fb, sl.rec.rec.Column(tc), sl.row); err != nil {
				return nil, sqlerr.Wrap(err, sqlerr.InternalError, "copying a row: %v", err)
			}
		}
	}
	return b.NewRecordBatch(), nil
}

// retainSlots retains the distinct records the slots point into and
// returns them.
func retainSlots(slots []slot) []arrow.RecordBatch {
	var out []arrow.RecordBatch
	var last *pendingRec
	seen := map[*pendingRec]bool{}
	for _, sl := range slots {
		if sl.rec == last || seen[sl.rec] {
			continue
		}
		last = sl.rec
		seen[sl.rec] = true
		sl.rec.rec.Retain()
		out = append(out, sl.rec.rec)
	}
	return out
}

func releaseAll(recs []arrow.RecordBatch) {
	for _, r := range recs {
		r.Release()
	}
}
