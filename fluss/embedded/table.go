package embedded

import (
	"context"
	"encoding/binary"
	"errors"
	"slices"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/cockroachdb/pebble/v2"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// tableHandle implements fluss.Table over a tableState.
type tableHandle struct {
	s *Store
	t *tableState
}

var _ fluss.Table = (*tableHandle)(nil)

func (h *tableHandle) Info() fluss.TableInfo { return h.t.info }

func (h *tableHandle) checkLive() error {
	if h.s.closed.Load() {
		return errClosed()
	}
	h.t.mu.RLock()
	defer h.t.mu.RUnlock()
	if h.t.altered {
		return errAltered(h.t.info.Path)
	}
	if h.t.dropped {
		return undefinedTable(h.t.info.Path)
	}
	return nil
}

// Append implements fluss.Table: rows go to buckets by the bucket key's
// Fluss hash, or, without a bucket key, the whole call goes to one bucket
// chosen round-robin (Fluss's sticky assignment, one batch at a time).
func (h *tableHandle) Append(ctx context.Context, rec arrow.RecordBatch) (fluss.WriteResult, error) {
	t := h.t
	if t.info.HasPrimaryKey() {
		return fluss.WriteResult{}, sqlerr.New(sqlerr.FeatureNotSupported, "cannot append to primary-key table \"%s\": write it with upserts", t.info.Path.Table)
	}
	if err := h.checkLive(); err != nil {
		return fluss.WriteResult{}, err
	}
	conv, err := fluss.ValidateRecordAs(t.info, t.schema, rec)
	if err != nil {
		return fluss.WriteResult{}, err
	}
	defer conv.Release()
	n := int(conv.NumRows())
	if n == 0 {
		return fluss.WriteResult{}, nil
	}
	batches, err := encodeAppend(t, conv)
	if err != nil {
		return fluss.WriteResult{}, err
	}
	r := &request{table: t, kind: reqAppend, batches: batches, ndv: sketchRecord(conv, nil), done: make(chan result, 1)}
	res, err := h.s.submit(ctx, r)
	if err != nil {
		return fluss.WriteResult{}, err
	}
	return fluss.WriteResult{Rows: res.rows}, res.err
}

// encodeAppend encodes a validated record's rows as log batches, one per
// bucket they go to.
func encodeAppend(t *tableState, conv arrow.RecordBatch) ([]bucketBatch, error) {
	parts, err := splitByBucket(t, conv)
	if err != nil {
		return nil, err
	}
	var out []bucketBatch
	for b, part := range parts {
		if part == nil {
			continue
		}
		// A few rows of fixed-width columns (a one-row INSERT) skip
		// arrow-go's IPC writer (format.SmallBatchEncoder).
		data, err := t.logEnc.Encode(part, t.colTypes, nil, t.info.SchemaID)
		records := part.NumRows()
		if part != conv {
			part.Release()
		}
		if err != nil {
			return nil, sqlerr.Wrap(err, sqlerr.InternalError, "encoding a log batch for %s: %v", t.info.Path, err)
		}
		out = append(out, bucketBatch{bucket: b, data: data, records: records})
	}
	return out, nil
}

// splitByBucket returns one record per bucket (nil for buckets without
// rows); a record that goes to a single bucket is returned as is.
func splitByBucket(t *tableState, rec arrow.RecordBatch) ([]arrow.RecordBatch, error) {
	nb := len(t.buckets)
	parts := make([]arrow.RecordBatch, nb)
	if len(t.bkIdx) == 0 || nb == 1 {
		parts[int(t.sticky.Add(1)-1)%nb] = rec
		return parts, nil
	}
	bkTypes := keyTypes(t.info, t.bkIdx)
	bkCols := pick(rec, t.bkIdx)
	buckets := make([]int, rec.NumRows())
	var key []byte
	var err error
	for i := range buckets {
		if key, err = format.AppendKey(key[:0], bkTypes, bkCols, i); err != nil {
			return nil, sqlerr.New(sqlerr.NotNullViolation, "bucket key of relation \"%s\" is null in row %d: %v", t.info.Path.Table, i+1, err)
		}
		buckets[i] = format.BucketOf(key, nb)
	}
	if !slices.ContainsFunc(buckets, func(b int) bool { return b != buckets[0] }) {
		parts[buckets[0]] = rec
		return parts, nil
	}
	builders := make([]*array.RecordBuilder, nb)
	defer func() {
		for _, b := range builders {
			if b != nil {
				b.Release()
			}
		}
	}()
	for i, b := range buckets {
		if builders[b] == nil {
			builders[b] = array.NewRecordBuilder(memory.DefaultAllocator, rec.Schema())
		}
		for c, fb := range builders[b].Fields() {
			if err := format.AppendFrom(fb, rec.Column(c), i); err != nil {
				return nil, sqlerr.Wrap(err, sqlerr.InternalError, "splitting rows by bucket: %v", err)
			}
		}
	}
	for b, rb := range builders {
		if rb != nil {
			parts[b] = rb.NewRecordBatch()
		}
	}
	return parts, nil
}

func pick(rec arrow.RecordBatch, idx []int) []arrow.Array {
	return pickInto(make([]arrow.Array, 0, len(idx)), rec, idx)
}

// pickInto is pick appending to dst (a caller's array on the stack for a
// key of a few columns: a one-row write picks its key columns each time).
func pickInto(dst []arrow.Array, rec arrow.RecordBatch, idx []int) []arrow.Array {
	for _, c := range idx {
		dst = append(dst, rec.Column(c))
	}
	return dst
}

func (h *tableHandle) requirePK(op string) error {
	if !h.t.info.HasPrimaryKey() {
		return sqlerr.New(sqlerr.FeatureNotSupported, "cannot %s log table \"%s\": it has no primary key", op, h.t.info.Path.Table)
	}
	return h.checkLive()
}

// encodeKeys returns each row's bucket and pebble key (the data prefix,
// table, bucket, then the primary key's CompactedKeyEncoder bytes). The keys
// share one buffer: a bulk write of a million rows makes a handful of
// allocations here, not a million. Errors number rows from base+1 (the
// part's first row in a bulk upsert).
func encodeKeys(t *tableState, rec arrow.RecordBatch, pkCols, bkCols []arrow.Array, base int) ([]pkRow, error) {
	sameKey := slices.Equal(t.pkIdx, t.bkIdx)
	n := int(rec.NumRows())
	rows := make([]pkRow, n)
	var few [4]int // ends of a few rows' keys, on the stack
	ends := few[:0]
	if n > len(few) {
		ends = make([]int, 0, n)
	}
	ends = ends[:n]
	buf := make([]byte, 0, n*(dataKeyPrefix+12))
	var bk []byte
	for i := range rows {
		start := len(buf)
		buf = append(buf, make([]byte, dataKeyPrefix)...)
		var err error
		if buf, err = format.AppendKey(buf, t.pkTypes, pkCols, i); err != nil {
			return nil, sqlerr.Wrap(err, sqlerr.NotNullViolation, "primary key of relation \"%s\" is null in row %d", t.info.Path.Table, base+i+1)
		}
		if !sameKey {
			if bk, err = format.AppendKey(bk[:0], t.bkTypes, bkCols, i); err != nil {
				return nil, sqlerr.Wrap(err, sqlerr.NotNullViolation, "bucket key of relation \"%s\" is null in row %d", t.info.Path.Table, base+i+1)
			}
			rows[i].bucket = format.BucketOf(bk, len(t.buckets))
		} else {
			rows[i].bucket = format.BucketOf(buf[start+dataKeyPrefix:], len(t.buckets))
		}
		putBucketKey(buf[start:], prefixData, t.info.TableID, rows[i].bucket)
		ends[i] = len(buf)
	}
	start := 0
	for i := range rows {
		rows[i].key = buf[start:ends[i]:ends[i]]
		start = ends[i]
	}
	return rows, nil
}

// encodeOneKey appends to dst the pebble key of row i of keys (the
// primary-key columns, in key order), as encodeKeys would.
func encodeOneKey(t *tableState, keys arrow.RecordBatch, i int, dst []byte) ([]byte, error) {
	var cols [8]arrow.Array
	pk := keys.Columns()
	dst = append(dst, make([]byte, dataKeyPrefix)...)
	var err error
	if dst, err = format.AppendKey(dst, t.pkTypes, pk, i); err != nil {
		return nil, sqlerr.Wrap(err, sqlerr.NotNullViolation, "primary key of relation \"%s\" is null in row %d", t.info.Path.Table, i+1)
	}
	bucket := format.BucketOf(dst[dataKeyPrefix:], len(t.buckets))
	if !slices.Equal(t.pkIdx, t.bkIdx) {
		bk := cols[:0]
		for _, c := range t.bkInPK {
			bk = append(bk, pk[c])
		}
		kb, err := format.AppendKey(nil, t.bkTypes, bk, i)
		if err != nil {
			return nil, sqlerr.Wrap(err, sqlerr.NotNullViolation, "bucket key of relation \"%s\" is null in row %d", t.info.Path.Table, i+1)
		}
		bucket = format.BucketOf(kb, len(t.buckets))
	}
	putBucketKey(dst, prefixData, t.info.TableID, bucket)
	return dst, nil
}

// Upsert implements fluss.Table.
func (h *tableHandle) Upsert(ctx context.Context, rec arrow.RecordBatch, opts fluss.UpsertOptions) (fluss.WriteResult, error) {
	t := h.t
	if err := h.requirePK("upsert into"); err != nil {
		return fluss.WriteResult{}, err
	}
	info := t.info
	var target []bool
	if len(opts.TargetColumns) > 0 {
		target = make([]bool, len(t.colTypes))
		for _, name := range opts.TargetColumns {
			i := info.ColumnIndex(name)
			if i < 0 {
				return fluss.WriteResult{}, sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", name, info.Path.Table)
			}
			target[i] = true
		}
		for _, i := range t.pkIdx {
			if !target[i] {
				return fluss.WriteResult{}, sqlerr.New(sqlerr.InvalidColumnReference,
					"a partial update of \"%s\" must write every primary-key column; \"%s\" is missing", info.Path.Table, info.Descriptor.Schema.Columns[i].Name)
			}
		}
		// Columns the update does not write may carry nulls in the batch
		// whatever their NOT NULL: the stored values are kept.
		cols := slices.Clone(info.Descriptor.Schema.Columns)
		for i := range cols {
			if !target[i] {
				cols[i].Type.NotNull = false
			}
		}
		info.Descriptor.Schema.Columns = cols
	}
	want := t.schema
	if target != nil {
		want = info.ArrowSchema() // its columns' NOT NULL differ
	}
	conv, err := fluss.ValidateRecordAs(info, want, rec)
	if err != nil {
		return fluss.WriteResult{}, err
	}
	defer conv.Release()
	if conv.NumRows() == 0 {
		return fluss.WriteResult{}, nil
	}
	// The keys (with the sketch) and the rows are encoded side by side for
	// a bulk write: both read conv only. A write of a few rows encodes them
	// in turn into enc on the stack: capturing its parts in the parallel
	// jobs' closures cost an allocation each on every write.
	var enc upsertEncoding
	if conv.NumRows() >= int64(h.s.opts.ParallelEncodeRows) {
		e := &upsertEncoding{}
		parallel(2, func(i int) {
			if i == 0 {
				e.encodeKeys(t, conv, target)
			} else {
				e.encodeRows(t, conv)
			}
		})
		enc = *e
	} else {
		enc.encodeKeys(t, conv, target)
		enc.encodeRows(t, conv)
	}
	rows, keyErr, ndv, buf, ends, rowErr := enc.rows, enc.keyErr, enc.ndv, enc.buf, enc.ends, enc.rowErr
	if keyErr != nil {
		return fluss.WriteResult{}, keyErr
	}
	if rowErr != nil {
		return fluss.WriteResult{}, sqlerr.Wrap(rowErr, sqlerr.InternalError, "encoding a row of %s: %v", info.Path, rowErr)
	}
	start := 0
	for i := range rows {
		rows[i].row = buf[start:ends[i]:ends[i]]
		start = ends[i]
	}
	r := &request{table: t, kind: reqUpsert, rows: rows, opts: opts, target: target, ndv: ndv, done: make(chan result, 1)}
	if target == nil {
		// A full-row upsert's rows are conv's rows: the changelog of rows
		// that turn out to be inserts is built from it without decoding.
		r.recs1[0] = conv
		r.recs = r.recs1[:]
	}
	res, err := h.s.submit(ctx, r)
	if err != nil {
		return fluss.WriteResult{}, err
	}
	return fluss.WriteResult{Rows: res.rows}, res.err
}

// upsertEncoding is what Upsert encodes of a record: its keys (with the
// sketch) and its rows.
type upsertEncoding struct {
	rows   []pkRow
	keyErr error
	ndv    *ndvDelta
	buf    []byte
	ends   []int
	rowErr error
}

func (e *upsertEncoding) encodeKeys(t *tableState, conv arrow.RecordBatch, target []bool) {
	var pk, bk [4]arrow.Array
	if e.rows, e.keyErr = encodeKeys(t, conv, pickInto(pk[:0], conv, t.pkIdx), pickInto(bk[:0], conv, t.bkIdx), 0); e.keyErr == nil {
		e.ndv = sketchRecord(conv, target)
	}
}

func (e *upsertEncoding) encodeRows(t *tableState, conv arrow.RecordBatch) {
	e.buf, e.ends, e.rowErr = encodeRows(t, conv)
}

// encodeRows encodes conv's rows into one buffer (sliced by the caller once
// it stops growing at ends).
func encodeRows(t *tableState, conv arrow.RecordBatch) ([]byte, []int, error) {
	n := int(conv.NumRows())
	ends := make([]int, n)
	var buf []byte
	var err error
	cols := conv.Columns()
	for i := range n {
		// a stored value is ValueEncoder's: the schema id, then the row
		buf = format.AppendValueHeader(buf, t.info.SchemaID)
		if buf, err = format.AppendRow(buf, t.colTypes, cols, i); err != nil {
			return nil, nil, err
		}
		ends[i] = len(buf)
		if i == 0 {
			// Sized from the first row, so that a bulk write copies its
			// rows about once instead of at every doubling (bounded: the
			// first row may be much larger than the others).
			buf = slices.Grow(buf, min(len(buf)*n*5/4, 64<<20))
		}
	}
	return buf, ends, nil
}

// defaultParallelEncodeRows is the batch size from which Upsert encodes
// keys and rows on two cores (Options.ParallelEncodeRows).
const defaultParallelEncodeRows = 64 << 10

// keyRecord validates a batch of primary keys (in key order; names are not
// checked) and returns it converted to the key columns' types. Keys that
// already have exactly those types and no nulls (what the executor's point
// lookups send) are returned as they are.
func (h *tableHandle) keyRecord(keys arrow.RecordBatch) (arrow.RecordBatch, error) {
	t := h.t
	pk := t.info.Descriptor.Schema.PrimaryKey
	if int(keys.NumCols()) != len(pk) {
		return nil, sqlerr.New(sqlerr.InvalidColumnReference, "the primary key of \"%s\" has %d columns but %d key columns were given", t.info.Path.Table, len(pk), keys.NumCols())
	}
	exact := true
	for i, c := range keys.Columns() {
		if c.NullN() > 0 || !sameType(c.DataType(), t.keyArrow[i]) {
			exact = false
			break
		}
	}
	if exact {
		keys.Retain()
		return keys, nil
	}
	fields := make([]arrow.Field, len(pk))
	for i := range t.pkIdx {
		fields[i] = arrow.Field{Name: pk[i], Type: keys.Column(i).DataType(), Nullable: true}
	}
	renamed := array.NewRecordBatch(arrow.NewSchema(fields, nil), keys.Columns(), keys.NumRows())
	defer renamed.Release()
	return fluss.ValidateRecord(t.keyInfo, renamed)
}

// sameType is arrow.TypeEqual without its allocation for the parameterless
// types point-lookup keys mostly have.
func sameType(a, b arrow.DataType) bool {
	if a.ID() != b.ID() {
		return false
	}
	switch a.ID() {
	case arrow.BOOL, arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64,
		arrow.STRING, arrow.BINARY, arrow.LARGE_STRING, arrow.LARGE_BINARY, arrow.DATE32:
		return true
	}
	return arrow.TypeEqual(a, b)
}

// Delete implements fluss.Table.
func (h *tableHandle) Delete(ctx context.Context, keys arrow.RecordBatch) (fluss.WriteResult, error) {
	if err := h.requirePK("delete from"); err != nil {
		return fluss.WriteResult{}, err
	}
	t := h.t
	conv, err := h.keyRecord(keys)
	if err != nil {
		return fluss.WriteResult{}, err
	}
	defer conv.Release()
	if conv.NumRows() == 0 {
		return fluss.WriteResult{}, nil
	}
	rows, err := encodeKeys(t, conv, conv.Columns(), pick(conv, t.bkInPK), 0)
	if err != nil {
		return fluss.WriteResult{}, err
	}
	res, err := h.s.submit(ctx, &request{table: t, kind: reqDelete, rows: rows, done: make(chan result, 1)})
	if err != nil {
		return fluss.WriteResult{}, err
	}
	return fluss.WriteResult{Rows: res.rows}, res.err
}

// projPlan is what reading a projection of a table needs: the output
// schema, per table column the output position (-1 = not projected), and a
// pool of record builders for that schema with a row decoder bound to them
// (a lookup returns one row; building a RecordBuilder for it cost more than
// reading the row).
type projPlan struct {
	schema *arrow.Schema
	pos    []int
	pool   sync.Pool // of *lookupBuilder
	// one, when the projected kinds allow, builds a one-key lookup's row
	// without a builder (format.OneRow).
	one *format.OneRow
	// decs are row decoders of every column for LookupRow (lookuprow.go),
	// bound to the caller's builders per call.
	decs sync.Pool // of *format.RowDecoder
	// none unbinds a decoder before it goes back to decs (nil builders,
	// never written), so that the pool keeps no caller's builders alive.
	none []array.Builder
}

// lookupBuilder is a pooled record builder and a decoder bound to its
// fields (the builders stay the same across NewRecordBatch calls).
type lookupBuilder struct {
	rb  *array.RecordBuilder
	dec *format.RowDecoder
}

// maxCachedProjections bounds a table's projection cache; past it, plans
// are built per call (and still correct).
const maxCachedProjections = 256

// projectionFor returns the plan of a projection (nil = every column),
// cached per table: the projections a table sees are those of its prepared
// statements, few and reused.
func projectionFor(t *tableState, projection []int) (*projPlan, error) {
	if projection == nil {
		if p := t.all.Load(); p != nil {
			return p, nil
		}
	}
	var kb [64]byte
	key := kb[:0]
	if projection == nil {
		key = append(key, 'a')
	} else {
		key = append(key, 'p')
		for _, c := range projection {
			key = binary.AppendUvarint(key, uint64(c))
		}
	}
	t.projMu.RLock()
	p := t.projs[string(key)]
	t.projMu.RUnlock()
	if p != nil {
		return p, nil
	}
	schema, pos, err := projectedSchema(t, projection)
	if err != nil {
		return nil, err
	}
	p = &projPlan{schema: schema, pos: pos, none: make([]array.Builder, len(t.colTypes))}
	if one, ok := format.NewOneRow(t.colTypes, pos, schema); ok {
		p.one = one
	}
	p.pool.New = func() any {
		rb := array.NewRecordBuilder(&slabAllocator{}, schema)
		dec := format.NewRowDecoder(t.colTypes)
		dec.Bind(decodeTargets(rb, pos))
		return &lookupBuilder{rb: rb, dec: dec}
	}
	t.projMu.Lock()
	if q := t.projs[string(key)]; q != nil {
		p = q
	} else if len(t.projs) < maxCachedProjections {
		t.projs[string(key)] = p
	}
	t.projMu.Unlock()
	if projection == nil {
		t.all.CompareAndSwap(nil, p)
	}
	return p, nil
}

// projectedSchema returns the schema of the projected columns and, per
// table column, the output position (-1 = not projected).
func projectedSchema(t *tableState, projection []int) (*arrow.Schema, []int, error) {
	full := t.schema
	if projection == nil {
		pos := make([]int, len(t.colTypes))
		for i := range pos {
			pos[i] = i
		}
		return full, pos, nil
	}
	pos := make([]int, len(t.colTypes))
	for i := range pos {
		pos[i] = -1
	}
	fields := make([]arrow.Field, len(projection))
	for o, c := range projection {
		if c < 0 || c >= len(t.colTypes) {
			return nil, nil, sqlerr.New(sqlerr.InvalidColumnReference, "projection column %d is out of range for \"%s\" (%d columns)", c, t.info.Path.Table, len(t.colTypes))
		}
		if pos[c] >= 0 {
			return nil, nil, sqlerr.New(sqlerr.InvalidColumnReference, "projection lists column %d twice", c)
		}
		pos[c] = o
		fields[o] = full.Field(c)
	}
	return arrow.NewSchema(fields, nil), pos, nil
}

// decodeTargets returns, per table column, the builder its values go to (nil = skipped).
func decodeTargets(rb *array.RecordBuilder, pos []int) []array.Builder {
	out := make([]array.Builder, len(pos))
	for c, o := range pos {
		if o >= 0 {
			out[c] = rb.Field(o)
		}
	}
	return out
}

// Lookup implements fluss.Table: point reads of the current state.
//
// One key is read without a snapshot, by a seek of a cached iterator
// (itercache.go) that shows the latest committed state: the committer
// applies each group's state in one atomic pebble batch or ingestion, so the
// row it returns is a whole committed row (never half of a write call's
// rows, which this single row cannot show anyway). Several keys are read from one snapshot so that
// they come from the same state. Either way the row is one whose write has
// reached the synced pebble commit; as with a snapshot, it may become
// visible a moment before its writer's call returns.
func (h *tableHandle) Lookup(ctx context.Context, keys arrow.RecordBatch, projection []int) (arrow.RecordBatch, error) {
	return h.lookup(ctx, keys, projection, nil)
}

// lookup is Lookup, and LookupReusing when reuse is set.
func (h *tableHandle) lookup(ctx context.Context, keys arrow.RecordBatch, projection []int, reuse *reuseArgs) (arrow.RecordBatch, error) {
	return h.lookupIn(ctx, keys, projection, reuse, nil)
}

// lookupIn is lookup, reading held (a transaction's snapshot) when not nil.
func (h *tableHandle) lookupIn(ctx context.Context, keys arrow.RecordBatch, projection []int, reuse *reuseArgs, held *readView) (arrow.RecordBatch, error) {
	if err := h.requirePK("look up rows of"); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	t := h.t
	plan, err := projectionFor(t, projection)
	if err != nil {
		return nil, err
	}
	conv, err := h.keyRecord(keys)
	if err != nil {
		return nil, err
	}
	defer conv.Release()
	if conv.NumRows() == 1 && held == nil {
		return h.lookupOne(plan, conv, reuse)
	}
	rows, err := encodeKeys(t, conv, conv.Columns(), pick(conv, t.bkInPK), 0)
	if err != nil {
		return nil, err
	}
	lb := plan.pool.Get().(*lookupBuilder)
	// A builder goes back to the pool empty: NewRecordBatch resets it, and
	// an error path throws it away rather than return half a row.
	rb := lb.rb
	if len(rows) == 0 {
		return finishLookup(plan, lb, 0), nil
	}
	// Several keys are read from one snapshot, so that their rows come from
	// one state.
	snap := held
	if snap == nil {
		snap = h.s.iters.view()
		defer snap.Close()
	}
	found := 0
	for _, r := range rows {
		v, c, err := snap.Get(r.key)
		if errors.Is(err, pebble.ErrNotFound) {
			continue
		}
		if err != nil {
			rb.Release()
			return nil, ioErr(err, "looking up %s", t.info.Path)
		}
		row, derr := t.storedRow(v)
		if derr == nil {
			_, derr = lb.dec.Decode(row)
		}
		c.Close()
		if derr != nil {
			rb.Release()
			return nil, corrupt("stored row of %s is unreadable: %v", t.info.Path, derr)
		}
		found++
	}
	return finishLookup(plan, lb, found), nil
}

// finishLookup returns the record of the found rows decoded into lb and
// gives lb back to plan's pool.
func finishLookup(plan *projPlan, lb *lookupBuilder, found int) arrow.RecordBatch {
	rec := buildRecord(lb.rb, plan.schema, found)
	if plan.schema.NumFields() == 0 {
		// buildRecord did not drain rb; it holds nothing (no fields).
		lb.rb.Release()
		return rec
	}
	plan.pool.Put(lb)
	return rec
}

// lookupOne is Lookup of one key (the prepared `WHERE id = $1`): the key is
// encoded into a buffer on the stack and read by a seek of a cached
// iterator (itercache.go) rather than a Get's new iterator; the row is
// decoded by plan.one without a record builder when it can be, and into
// reuse's record (LookupReusing) when one is given and free.
func (h *tableHandle) lookupOne(plan *projPlan, keys arrow.RecordBatch, reuse *reuseArgs) (arrow.RecordBatch, error) {
	t := h.t
	var keyBuf [64]byte
	key, err := encodeOneKey(t, keys, 0, keyBuf[:0])
	if err != nil {
		return nil, err
	}
	v, found, r, err := h.s.readPoint(key)
	defer r.done()
	if err != nil {
		return nil, ioErr(err, "looking up %s", t.info.Path)
	}
	if found {
		if v, err = t.storedRow(v); err != nil {
			return nil, corrupt("stored row of %s is unreadable: %v", t.info.Path, err)
		}
	}
	if found && plan.one != nil {
		var rec arrow.RecordBatch
		var derr error
		ok := false
		if kept := reuse.row(plan.one); kept != nil {
			rec, ok, derr = kept.Decode(v)
		}
		if !ok {
			rec, derr = plan.one.Decode(v)
		}
		if derr != nil {
			return nil, corrupt("stored row of %s is unreadable: %v", t.info.Path, derr)
		}
		return rec, nil
	}
	// Absent (the empty record), or a kind plan.one does not build.
	lb := plan.pool.Get().(*lookupBuilder)
	n := 0
	if found {
		if _, derr := lb.dec.Decode(v); derr != nil {
			lb.rb.Release()
			return nil, corrupt("stored row of %s is unreadable: %v", t.info.Path, derr)
		}
		n = 1
	}
	return finishLookup(plan, lb, n), nil
}

// reuseArgs are LookupReusing's slot and the labels of its record.
type reuseArgs struct {
	out  *arrow.Schema
	slot *fluss.ReuseSlot
}

// row is the reusable record of one's rows kept in the slot, made and
// stored there when the slot holds none for one and a.out (the table's
// schema changed, or the slot is new); nil without a slot, or when a.out
// does not fit one's types.
func (a *reuseArgs) row(one *format.OneRow) *format.ReusableRow {
	if a == nil {
		return nil
	}
	if kept, _ := a.slot.Load().(*format.ReusableRow); kept != nil && kept.For(one, a.out) {
		return kept
	}
	kept := one.NewReusable(a.out)
	if kept != nil {
		a.slot.Store(kept)
	}
	return kept
}

// LookupReusing is Lookup of one key whose row may be decoded into the
// record kept in slot (fluss.ReusingLookuper).
func (h *tableHandle) LookupReusing(ctx context.Context, keys arrow.RecordBatch, projection []int, out *arrow.Schema, slot *fluss.ReuseSlot) (arrow.RecordBatch, error) {
	return h.lookup(ctx, keys, projection, &reuseArgs{out: out, slot: slot})
}

// slabAllocator hands the buffers of a pooled lookup builder out of shared
// slabs instead of one Go allocation each: a one-row result needs a dozen
// tiny buffers (validity, values, offsets per column). Memory is never
// reused: a slab is garbage once every array cut from it is, so Free does
// nothing and an array outliving its lookup stays valid.
type slabAllocator struct{ slab []byte }

const (
	slabSize     = 8 << 10
	slabMaxAlloc = 1 << 10 // larger buffers get their own allocation
	slabAlign    = 64      // arrow's buffer alignment
)

func (a *slabAllocator) Allocate(size int) []byte {
	n := (size + slabAlign - 1) &^ (slabAlign - 1)
	if n > slabMaxAlloc {
		return memory.DefaultAllocator.Allocate(size)
	}
	if n > len(a.slab) {
		s := make([]byte, slabSize+slabAlign)
		off := int(-uintptr(unsafe.Pointer(&s[0])) & (slabAlign - 1))
		a.slab = s[off : off+slabSize]
	}
	b := a.slab[:size:n]
	a.slab = a.slab[n:]
	return b
}

func (a *slabAllocator) Reallocate(size int, b []byte) []byte {
	if size <= cap(b) {
		return b[:size]
	}
	nb := a.Allocate(size)
	copy(nb, b)
	return nb
}

func (a *slabAllocator) Free([]byte) {}
