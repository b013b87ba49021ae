package embedded

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"slices"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/cockroachdb/pebble/v2"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/sqlerr"
)

type reqKind int

const (
	reqAppend reqKind = iota
	reqUpsert
	reqDelete
	reqDrop
	reqGroup // an atomic group of writes (atomic.go)
)

// bucketBatch is one encoded log batch bound for a bucket.
type bucketBatch struct {
	bucket  int
	data    []byte
	records int64
}

// pkRow is one row of an upsert or delete, encoded by the caller.
type pkRow struct {
	bucket int
	// key is the row's pebble key: prefixData, table, bucket, then the
	// CompactedKeyEncoder bytes of the primary key.
	key []byte
	row []byte // compacted row (upserts only)
}

// request is one write call (or a drop) waiting for the committer.
type request struct {
	table   *tableState
	kind    reqKind
	batches []bucketBatch // appends
	rows    []pkRow       // upserts and deletes
	opts    fluss.UpsertOptions
	target  []bool // partial update: which columns the upsert writes
	// rec, for a full-row upsert, is the validated record rows were encoded
	// from (row i of rec is rows[i]); the caller keeps it alive until done.
	rec  arrow.RecordBatch
	ndv  *ndvDelta // what the write adds to the distinct-count sketches
	done chan result
	// atomic: the request belongs to an atomic group (atomic.go);
	// group is a reqGroup's requests, groupRows what each one wrote.
	atomic    bool
	group     []*request
	groupRows int64
}

type result struct {
	rows int64
	err  error
}

// maxGroup bounds how many queued requests one group commit takes.
const maxGroup = 512

// submit queues r and waits for its result. Once queued, a request is
// waited for even if ctx ends, so a write's outcome is never left unknown.
func (s *Store) submit(ctx context.Context, r *request) (result, error) {
	if res, ok := collect(ctx, r); ok {
		return res, nil
	}
	select {
	case s.reqs <- r:
	case <-s.quit:
		return result{}, errClosed()
	case <-ctx.Done():
		return result{}, ctx.Err()
	}
	select {
	case res := <-r.done:
		return res, nil
	case <-s.committed:
		select {
		case res := <-r.done:
			return res, nil
		default:
			return result{}, errClosed()
		}
	}
}

func (s *Store) commitLoop() {
	defer close(s.committed)
	for {
		select {
		case <-s.quit:
			for {
				select {
				case r := <-s.reqs:
					r.done <- result{err: errClosed()}
				default:
					return
				}
			}
		case r := <-s.reqs:
			group := []*request{r}
		fill:
			for len(group) < maxGroup {
				select {
				case r := <-s.reqs:
					group = append(group, r)
				default:
					break fill
				}
			}
			s.runGroup(group)
		}
	}
}

// runGroup commits a group; a drop splits it so that it is ordered after
// the writes queued before it.
func (s *Store) runGroup(group []*request) {
	var pending []*request
	for _, r := range group {
		if r.kind == reqDrop {
			s.commit(pending)
			pending = nil
			r.done <- result{err: s.drop(r.table)}
			continue
		}
		if r.kind == reqGroup {
			s.commit(pending)
			pending = nil
			s.commitGroup(r)
			continue
		}
		pending = append(pending, r)
	}
	s.commit(pending)
}

func (s *Store) drop(t *tableState) error {
	t.mu.Lock()
	t.dropped = true
	t.mu.Unlock()
	t.closeFiles()
	if err := s.deleteTableState(t.info.TableID); err != nil {
		return err
	}
	if err := removeAll(t.dir); err != nil {
		return err
	}
	return nil
}

// bucketWrite collects what one group appends to one bucket log.
type bucketWrite struct {
	t    *tableState
	b    int
	bl   *bucketLog
	data []byte
	next int64
}

// commit writes a group: prepare every request (reading the primary-key
// state from pebble and from the overlays of the group's earlier requests,
// and writing the new state into one pebble batch), append the batches to
// the bucket logs, fsync each touched log once, commit the state and the new
// committed lengths in one synced pebble batch, publish, reply.
func (s *Store) commit(reqs []*request) {
	if len(reqs) == 0 {
		return
	}
	s.groups.Add(1)
	// The batch is not indexed: a request reads the state the previous
	// groups committed straight from pebble, and what earlier requests of
	// this group wrote from their overlays (indexing every key of a bulk
	// write cost more than writing it).
	size, rowCount := 64, 0
	for _, r := range reqs {
		rowCount += len(r.rows)
		for _, pr := range r.rows {
			size += len(pr.key) + len(pr.row) + 16 // + kind and two varint lengths
		}
	}
	// A group that will be ingested collects its state as entries; a
	// smaller one writes a batch (which may still reach IngestBytes).
	var kv stateWriter
	var batch *pebble.Batch
	var bulk *bulkState
	if s.opts.IngestBytes > 0 && size >= s.opts.IngestBytes {
		bulk = &bulkState{entries: make([]kvEntry, 0, rowCount+16)}
		kv = bulk
	} else {
		batch = s.db.NewBatchWithSize(size)
		defer batch.Close()
		kv = batch
	}
	overlays := map[*tableState][]*overlay{}
	results := make([]result, len(reqs))
	live := make([]bool, len(reqs))
	writes := map[*bucketLog]*bucketWrite{}
	var order []*bucketWrite
	now := s.opts.Now().UnixMilli()
	for i, r := range reqs {
		t := r.table
		t.mu.RLock()
		dropped := t.dropped
		t.mu.RUnlock()
		if dropped {
			results[i].err = undefinedTable(t.info.Path)
			continue
		}
		batches, rows := r.batches, int64(0)
		var err error
		if r.kind == reqAppend {
			for _, b := range batches {
				rows += b.records
			}
		} else {
			var ov *overlay
			batches, rows, ov, err = s.preparePK(kv, r, overlays[t])
			if err == nil && ov != nil {
				overlays[t] = append(overlays[t], ov)
			}
		}
		if err != nil {
			results[i].err = err
			continue
		}
		for _, bb := range batches {
			bl := t.buckets[bb.bucket]
			w := writes[bl]
			if w == nil {
				w = &bucketWrite{t: t, b: bb.bucket, bl: bl, next: bl.next}
				writes[bl] = w
				order = append(order, w)
			}
			format.SetBaseOffset(bb.data, w.next)
			format.SetCommitTimestamp(bb.data, now)
			w.next += bb.records
			if w.data == nil {
				w.data = bb.data // a bulk write's one batch: not copied
			} else {
				w.data = append(w.data, bb.data...)
			}
		}
		results[i].rows = rows
		live[i] = true
	}
	if failAtomic(reqs, results) {
		for i, r := range reqs {
			r.done <- results[i]
		}
		return
	}
	fail := func(err error) {
		for _, w := range order {
			_ = w.bl.f.Truncate(w.bl.size)
		}
		for i := range reqs {
			if live[i] {
				results[i] = result{err: err}
			}
		}
	}
	err := s.writeLogs(order)
	if err == nil {
		// Folded before the state commits so that a sketch persisted in
		// this batch covers it; a failed commit leaves them over-counted,
		// which an estimate tolerates.
		err = s.foldNDV(kv, reqs, live)
	}
	if err == nil {
		for _, w := range order {
			if err = kv.Set(bucketKey(prefixCommitted, w.t.info.TableID, w.b), encodeCommitted(w.bl.size+int64(len(w.data)), w.next), nil); err != nil {
				break
			}
		}
	}
	if err == nil && (bulk != nil && len(bulk.entries) > 0 || batch != nil && !batch.Empty()) {
		s.iters.beginWrite()
		switch {
		case bulk != nil:
			if ierr := s.ingestEntries(sortEntries(bulk.entries)); ierr != nil {
				err = ioErr(ierr, "ingesting the key-value state")
			}
		case s.opts.IngestBytes > 0 && batch.Len() >= s.opts.IngestBytes:
			if ierr := s.ingestBatch(batch); ierr != nil {
				err = ioErr(ierr, "ingesting the key-value state")
			}
		default:
			if cerr := batch.Commit(pebble.Sync); cerr != nil {
				err = ioErr(cerr, "committing the key-value state")
			}
		}
		s.iters.endWrite()
	}
	if err != nil {
		s.log.Error("group commit failed", "error", err)
		fail(err)
	} else {
		s.publish(order)
	}
	for i, r := range reqs {
		r.done <- results[i]
	}
}

// writeLogs appends each bucket's data and fsyncs the touched files, in
// parallel when there are several.
func (s *Store) writeLogs(order []*bucketWrite) error {
	for _, w := range order {
		if w.bl.f == nil {
			return undefinedTable(w.t.info.Path)
		}
		if _, err := w.bl.f.WriteAt(w.data, w.bl.size); err != nil {
			return ioErr(err, "writing %s", w.bl.path)
		}
	}
	if len(order) == 1 {
		if err := order[0].bl.f.Sync(); err != nil {
			return ioErr(err, "syncing %s", order[0].bl.path)
		}
		return nil
	}
	errs := make([]error, len(order))
	var wg sync.WaitGroup
	for i, w := range order {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := w.bl.f.Sync(); err != nil {
				errs[i] = ioErr(err, "syncing %s", w.bl.path)
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// publish makes a committed group visible to scans, table by table, so a
// scan sees a write call entirely or not at all.
func (s *Store) publish(order []*bucketWrite) {
	byTable := map[*tableState][]*bucketWrite{}
	var tables []*tableState
	for _, w := range order {
		if byTable[w.t] == nil {
			tables = append(tables, w.t)
		}
		byTable[w.t] = append(byTable[w.t], w)
	}
	for _, t := range tables {
		t.mu.Lock()
		for _, w := range byTable[t] {
			w.bl.size += int64(len(w.data))
			w.bl.next = w.next
			w.bl.committed = w.bl.size
		}
		t.mu.Unlock()
	}
}

// changelog is one bucket's part of a request's changelog.
type changelog struct {
	changes []format.ChangeType
	rows    [][]byte
	// src[i] is the request row whose record row is entry i, as long as
	// every entry is an insert of a request row as given (fromRec); the
	// batch is then cut from the request's Arrow record instead of decoded
	// back from compacted rows.
	src     []int32
	fromRec bool
}

// overlay is the state one request of a group left for the keys it wrote,
// in key order: what later requests of the same group must read instead of
// pebble, which does not have it yet.
type overlay struct {
	keys    [][]byte
	vals    [][]byte
	present []bool
}

// get returns the overlay's entry for k, if it has one.
func (o *overlay) get(k []byte) (v []byte, present, ok bool) {
	i, found := slices.BinarySearchFunc(o.keys, k, bytes.Compare)
	if !found {
		return nil, false, false
	}
	return o.vals[i], o.present[i], true
}

// preparePK turns an upsert or delete into changelog batches per bucket and
// state updates in kv, and returns the overlay of what it wrote. Nothing
// reaches kv unless the whole request succeeds.
//
// The request's keys are ordered once (equal keys stay in request order) and
// numbered: every key's previous value is read in one ordered pass (see
// readStored), and the rows are then applied in request order against
// per-key slots, without a map per row.
func (s *Store) preparePK(kv stateWriter, r *request, prior []*overlay) ([]bucketBatch, int64, *overlay, error) {
	t := r.table
	n := len(r.rows)
	order := sortKeys(r.rows)
	// slot[i] numbers row i's key; keys[g] is key g, in key order.
	slot := make([]int32, n)
	keys := make([][]byte, 0, n)
	for i, ri := range order {
		if i == 0 || !bytes.Equal(r.rows[ri].key, r.rows[order[i-1]].key) {
			keys = append(keys, r.rows[ri].key)
		}
		slot[ri] = int32(len(keys) - 1)
	}
	order = nil
	cur, exists, err := s.readStored(t, keys, prior)
	if err != nil {
		return nil, 0, nil, err
	}
	touched := make([]bool, len(keys))
	logs := make([]*changelog, len(t.buckets))
	var rows int64
	for i, pr := range r.rows {
		g := slot[i]
		old, had := cur[g], exists[g]
		cl := logs[pr.bucket]
		if cl == nil {
			// Sized for the common case, every row an insert into one bucket.
			size := n / len(t.buckets)
			cl = &changelog{fromRec: r.rec != nil, changes: make([]format.ChangeType, 0, size), rows: make([][]byte, 0, size)}
			if cl.fromRec {
				cl.src = make([]int32, 0, size)
			}
			logs[pr.bucket] = cl
		}
		switch r.kind {
		case reqDelete:
			if !had {
				continue
			}
			cl.changes = append(cl.changes, format.Delete)
			cl.rows = append(cl.rows, old)
			cl.fromRec = false
			cur[g], exists[g] = nil, false
		case reqUpsert:
			if had && r.opts.IgnoreExisting {
				continue
			}
			row := pr.row
			if r.target != nil {
				if row, err = mergePartial(t, old, had, pr.row, r.target); err != nil {
					return nil, 0, nil, err
				}
			}
			if had {
				cl.changes = append(cl.changes, format.UpdateBefore, format.UpdateAfter)
				cl.rows = append(cl.rows, old, row)
				cl.fromRec = false
			} else {
				cl.changes = append(cl.changes, format.Insert)
				cl.rows = append(cl.rows, row)
				if cl.fromRec {
					cl.src = append(cl.src, int32(i))
				}
			}
			cur[g], exists[g] = row, true
		}
		touched[g] = true
		rows++
	}
	var out []bucketBatch
	for b, cl := range logs {
		if cl == nil || len(cl.rows) == 0 {
			continue
		}
		data, err := encodeChangelog(t, cl, r.rec)
		if err != nil {
			return nil, 0, nil, err
		}
		out = append(out, bucketBatch{bucket: b, data: data, records: int64(len(cl.rows))})
		cl.rows, cl.src = nil, nil // free for GC while the group commits
	}
	ov := &overlay{keys: make([][]byte, 0, len(keys)), vals: make([][]byte, 0, len(keys)), present: make([]bool, 0, len(keys))}
	for g, k := range keys {
		if !touched[g] {
			continue
		}
		var err error
		if exists[g] {
			err = kv.Set(k, cur[g], nil)
		} else {
			err = kv.Delete(k, nil)
		}
		if err != nil {
			return nil, 0, nil, ioErr(err, "updating the state of %s", t.info.Path)
		}
		ov.keys = append(ov.keys, k)
		ov.vals = append(ov.vals, cur[g])
		ov.present = append(ov.present, exists[g])
	}
	return out, rows, ov, nil
}

// sortKeys returns the indexes of rows ordered by key, equal keys in row
// order. It sorts fixed-size prefixes (the 16 bytes after the table prefix:
// bucket and the key's first 12 bytes, zero-padded) and compares whole keys
// only on a tie: comparing the keys themselves through the rows cost more
// than the rest of a bulk write's preparation. The rows are distributed by
// bucket in one pass and each bucket sorted alone, unless its rows are in
// key order already (keys whose bytes follow the load's order; BIGINT key
// bytes are VLQ, which does not).
func sortKeys(rows []pkRow) []int32 {
	es := make([]keyEntry, len(rows))
	var pad [16]byte
	for i, r := range rows {
		k := r.key[min(len(r.key), 9):]
		if len(k) < 16 {
			pad = [16]byte{}
			copy(pad[:], k)
			k = pad[:]
		}
		es[i] = keyEntry{hi: binary.BigEndian.Uint64(k), lo: binary.BigEndian.Uint64(k[8:]), i: int32(i)}
	}
	cmpEntries := func(a, b keyEntry) int {
		switch {
		case a.hi != b.hi:
			return cmp.Compare(a.hi, b.hi)
		case a.lo != b.lo:
			return cmp.Compare(a.lo, b.lo)
		}
		if c := bytes.Compare(rows[a.i].key, rows[b.i].key); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	}
	sortOne := func(seg []keyEntry) {
		if !slices.IsSortedFunc(seg, cmpEntries) {
			slices.SortFunc(seg, cmpEntries)
		}
	}
	if sorted, segs := byBucket(es); sorted != nil {
		es = sorted
		if len(es) >= parallelSortRows {
			parallel(len(segs), func(i int) { sortOne(segs[i]) })
		} else {
			for _, seg := range segs {
				sortOne(seg)
			}
		}
	} else {
		sortOne(es)
	}
	out := make([]int32, len(es))
	for i, e := range es {
		out[i] = e.i
	}
	return out
}

// parallelSortRows is the size from which sortKeys sorts buckets on
// several cores.
const parallelSortRows = 64 << 10

// keyEntry is sortKeys' view of a row: its key's first 16 bytes after the
// table prefix (the bucket in hi's top 32 bits) and its index.
type keyEntry struct {
	hi, lo uint64
	i      int32
}

// byBucket distributes es by bucket (a stable counting sort on hi's top
// 32 bits) and returns them with each bucket's entries (in row order), or
// nil when es is short or the buckets are too many for a count per bucket.
func byBucket(es []keyEntry) ([]keyEntry, [][]keyEntry) {
	const maxBuckets = 1 << 16
	if len(es) < 1024 {
		return nil, nil
	}
	top := uint64(0)
	for _, e := range es {
		top = max(top, e.hi>>32)
	}
	if top >= maxBuckets {
		return nil, nil
	}
	ends := make([]int, top+1) // bucket b's entries end at ends[b]
	for _, e := range es {
		ends[e.hi>>32]++
	}
	for b := 1; b < len(ends); b++ {
		ends[b] += ends[b-1]
	}
	var segs [][]keyEntry
	out := make([]keyEntry, len(es))
	fill := make([]int, len(ends)) // the next slot of each bucket
	for b := range ends {
		if b > 0 {
			fill[b] = ends[b-1]
		}
		if ends[b] > fill[b] {
			segs = append(segs, out[fill[b]:ends[b]])
		}
	}
	for _, e := range es {
		b := e.hi >> 32
		out[fill[b]] = e
		fill[b]++
	}
	return out, segs
}

// readStored returns the current value of each key (keys in key order,
// distinct): from the newest prior overlay that has it, else from pebble's
// committed state. Pebble is read with one iterator in a merge with the
// keys: a key below the iterator's position is absent without a seek, so
// writing new keys into an empty table (or past its last key) reads nothing
// after the first seek, and sequential seeks reuse pebble's position.
func (s *Store) readStored(t *tableState, keys [][]byte, prior []*overlay) ([][]byte, []bool, error) {
	vals := make([][]byte, len(keys))
	exists := make([]bool, len(keys))
	p := tablePrefix(prefixData, t.info.TableID)
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: prefixEnd(p)})
	if err != nil {
		return nil, nil, ioErr(err, "reading the state of %s", t.info.Path)
	}
	defer it.Close()
	// Values are copied into one buffer and sliced once it stops growing.
	var buf []byte
	var at []int // per key: end offset in buf, or -1
	positioned, exhausted := false, false
outer:
	for g, k := range keys {
		for j := len(prior) - 1; j >= 0; j-- {
			if v, present, ok := prior[j].get(k); ok {
				vals[g], exists[g] = v, present
				continue outer
			}
		}
		if exhausted {
			continue
		}
		if positioned {
			c := bytes.Compare(it.Key(), k)
			if c > 0 {
				continue
			}
			if c == 0 {
				at = markValue(at, g, len(keys))
				buf = append(buf, it.Value()...)
				at[g] = len(buf)
				exists[g] = true
				continue
			}
		}
		if !it.SeekGE(k) {
			exhausted = true
			continue
		}
		positioned = true
		if bytes.Equal(it.Key(), k) {
			at = markValue(at, g, len(keys))
			buf = append(buf, it.Value()...)
			at[g] = len(buf)
			exists[g] = true
		}
	}
	if err := it.Error(); err != nil {
		return nil, nil, ioErr(err, "reading the state of %s", t.info.Path)
	}
	start := 0
	for g, end := range at {
		if end >= 0 {
			vals[g] = buf[start:end:end]
			start = end
		}
	}
	return vals, exists, nil
}

// markValue makes at (the value end offsets of readStored) long enough,
// filling new entries with -1 (no value read from pebble).
func markValue(at []int, g, n int) []int {
	if at == nil {
		at = make([]int, n)
		for i := range at {
			at[i] = -1
		}
	}
	return at
}

// mergePartial builds the row a partial update leaves: target columns from
// the new row, the others from the stored row (NULL for a new key, which a
// NOT NULL column refuses).
func mergePartial(t *tableState, old []byte, exists bool, row []byte, target []bool) ([]byte, error) {
	nf, err := format.SplitRow(t.colTypes, row)
	if err != nil {
		return nil, sqlerr.Wrap(err, sqlerr.InternalError, "partial update: %v", err)
	}
	var of [][]byte
	if exists {
		if of, err = format.SplitRow(t.colTypes, old); err != nil {
			return nil, corrupt("stored row of %s is unreadable: %v", t.info.Path, err)
		}
	}
	merged := make([][]byte, len(nf))
	for i := range nf {
		switch {
		case target[i]:
			merged[i] = nf[i]
		case exists:
			merged[i] = of[i]
		case t.colTypes[i].NotNull:
			return nil, sqlerr.New(sqlerr.NotNullViolation, "null value in column \"%s\" of relation \"%s\" violates not-null constraint",
				t.info.Descriptor.Schema.Columns[i].Name, t.info.Path.Table)
		}
	}
	return format.JoinRow(nil, merged), nil
}

// encodeChangelog encodes a bucket's changelog rows as one log batch with
// full row images: cut from the request's record when every entry is an
// insert of a request row (a bulk load), else decoded from the compacted rows.
func encodeChangelog(t *tableState, cl *changelog, rec arrow.RecordBatch) ([]byte, error) {
	var out arrow.RecordBatch
	if cl.fromRec && rec != nil && len(cl.src) == len(cl.rows) {
		var err error
		if out, err = takeRows(t, rec, cl.src); err != nil {
			return nil, err
		}
	} else {
		rb := array.NewRecordBuilder(memory.DefaultAllocator, t.schema)
		defer rb.Release()
		for _, row := range cl.rows {
			if _, err := format.DecodeRow(row, t.colTypes, rb.Fields()); err != nil {
				return nil, corrupt("stored row of %s is unreadable: %v", t.info.Path, err)
			}
		}
		out = rb.NewRecordBatch()
	}
	defer out.Release()
	data, err := format.EncodeBatch(out, cl.changes, t.info.SchemaID)
	if err != nil {
		return nil, sqlerr.Wrap(err, sqlerr.InternalError, "encoding the changelog of %s: %v", t.info.Path, err)
	}
	return data, nil
}

// takeRows returns the rows idx (ascending) of rec: rec itself when idx is
// every row in order.
func takeRows(t *tableState, rec arrow.RecordBatch, idx []int32) (arrow.RecordBatch, error) {
	whole := len(idx) == int(rec.NumRows())
	for i, v := range idx {
		if !whole {
			break
		}
		whole = v == int32(i)
	}
	if whole {
		rec.Retain()
		return rec, nil
	}
	ib := array.NewInt32Builder(memory.DefaultAllocator)
	ib.AppendValues(idx, nil)
	ind := ib.NewArray()
	ib.Release()
	defer ind.Release()
	cols := make([]arrow.Array, rec.NumCols())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for c := range cols {
		a, err := compute.TakeArray(context.Background(), rec.Column(c), ind)
		if err != nil {
			return nil, sqlerr.Wrap(err, sqlerr.InternalError, "cutting the changelog of %s: %v", t.info.Path, err)
		}
		cols[c] = a
	}
	return array.NewRecordBatch(t.schema, cols, int64(len(idx))), nil
}
