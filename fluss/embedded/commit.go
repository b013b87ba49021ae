package embedded

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/array"
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
	key    []byte // CompactedKeyEncoder bytes of the primary key
	row    []byte // compacted row (upserts only)
}

// request is one write call (or a drop) waiting for the committer.
type request struct {
	table   *tableState
	kind    reqKind
	batches []bucketBatch // appends
	rows    []pkRow       // upserts and deletes
	opts    fluss.UpsertOptions
	target  []bool // partial update: which columns the upsert writes
	done    chan result
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

// commit writes a group: prepare every request (reading and updating the
// primary-key state through one indexed pebble batch), append the batches to
// the bucket logs, fsync each touched log once, commit the state and the new
// committed lengths in one synced pebble batch, publish, reply.
func (s *Store) commit(reqs []*request) {
	if len(reqs) == 0 {
		return
	}
	s.groups.Add(1)
	kv := s.db.NewIndexedBatch()
	defer kv.Close()
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
			batches, rows, err = s.preparePK(kv, r)
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
			w.data = append(w.data, bb.data...)
		}
		results[i].rows = rows
		live[i] = true
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
		for _, w := range order {
			if err = kv.Set(bucketKey(prefixCommitted, w.t.info.TableID, w.b), encodeCommitted(w.bl.size+int64(len(w.data)), w.next), nil); err != nil {
				break
			}
		}
	}
	if err == nil && !kv.Empty() {
		if cerr := kv.Commit(pebble.Sync); cerr != nil {
			err = ioErr(cerr, "committing the key-value state")
		}
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

type changelog struct {
	changes []format.ChangeType
	rows    [][]byte
}

// preparePK turns an upsert or delete into changelog batches per bucket and
// state updates in kv. Nothing reaches kv unless the whole request succeeds.
func (s *Store) preparePK(kv *pebble.Batch, r *request) ([]bucketBatch, int64, error) {
	t := r.table
	type entry struct {
		v       []byte
		present bool
	}
	local := map[string]entry{}
	stored, err := s.readStored(kv, r)
	if err != nil {
		return nil, 0, err
	}
	get := func(k []byte) ([]byte, bool, error) {
		if e, ok := local[string(k)]; ok {
			return e.v, e.present, nil
		}
		v, ok := stored[string(k)]
		return v, ok, nil
	}
	logs := map[int]*changelog{}
	var order []string
	var rows int64
	for _, pr := range r.rows {
		k := dataKey(t.info.TableID, pr.bucket, pr.key)
		old, exists, err := get(k)
		if err != nil {
			return nil, 0, err
		}
		cl := logs[pr.bucket]
		if cl == nil {
			cl = &changelog{}
			logs[pr.bucket] = cl
		}
		switch r.kind {
		case reqDelete:
			if !exists {
				continue
			}
			cl.changes = append(cl.changes, format.Delete)
			cl.rows = append(cl.rows, old)
			order = remember(local, order, k)
			local[string(k)] = entry{}
		case reqUpsert:
			if exists && r.opts.IgnoreExisting {
				continue
			}
			row := pr.row
			if r.target != nil {
				if row, err = mergePartial(t, old, exists, pr.row, r.target); err != nil {
					return nil, 0, err
				}
			}
			if exists {
				cl.changes = append(cl.changes, format.UpdateBefore, format.UpdateAfter)
				cl.rows = append(cl.rows, old, row)
			} else {
				cl.changes = append(cl.changes, format.Insert)
				cl.rows = append(cl.rows, row)
			}
			order = remember(local, order, k)
			local[string(k)] = entry{v: row, present: true}
		}
		rows++
	}
	var out []bucketBatch
	for b := range t.buckets {
		cl := logs[b]
		if cl == nil || len(cl.rows) == 0 {
			continue
		}
		data, err := encodeChangelog(t, cl)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, bucketBatch{bucket: b, data: data, records: int64(len(cl.rows))})
	}
	for _, k := range order {
		e := local[k]
		var err error
		if e.present {
			err = kv.Set([]byte(k), e.v, nil)
		} else {
			err = kv.Delete([]byte(k), nil)
		}
		if err != nil {
			return nil, 0, ioErr(err, "updating the state of %s", t.info.Path)
		}
	}
	return out, rows, nil
}

// readStored returns the stored rows of the request's keys (as the group
// has left them so far), reading them in key order with one iterator:
// sequential seeks are much cheaper than a pebble Get per row.
func (s *Store) readStored(kv *pebble.Batch, r *request) (map[string][]byte, error) {
	t := r.table
	keys := make([][]byte, len(r.rows))
	for i, pr := range r.rows {
		keys[i] = dataKey(t.info.TableID, pr.bucket, pr.key)
	}
	slices.SortFunc(keys, bytes.Compare)
	keys = slices.CompactFunc(keys, bytes.Equal)
	p := tablePrefix(prefixData, t.info.TableID)
	it, err := kv.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: prefixEnd(p)})
	if err != nil {
		return nil, ioErr(err, "reading the state of %s", t.info.Path)
	}
	defer it.Close()
	out := make(map[string][]byte)
	for _, k := range keys {
		if it.SeekGE(k) && bytes.Equal(it.Key(), k) {
			out[string(k)] = slices.Clone(it.Value())
		}
	}
	if err := it.Error(); err != nil {
		return nil, ioErr(err, "reading the state of %s", t.info.Path)
	}
	return out, nil
}

func dataKey(tableID int64, bucket int, key []byte) []byte {
	return append(bucketKey(prefixData, tableID, bucket), key...)
}

// remember appends k to order the first time the request touches it.
func remember[E any](local map[string]E, order []string, k []byte) []string {
	if _, seen := local[string(k)]; seen {
		return order
	}
	return append(order, string(k))
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
// full row images.
func encodeChangelog(t *tableState, cl *changelog) ([]byte, error) {
	rb := array.NewRecordBuilder(memory.DefaultAllocator, t.info.ArrowSchema())
	defer rb.Release()
	for _, row := range cl.rows {
		if _, err := format.DecodeRow(row, t.colTypes, rb.Fields()); err != nil {
			return nil, corrupt("stored row of %s is unreadable: %v", t.info.Path, err)
		}
	}
	rec := rb.NewRecordBatch()
	defer rec.Release()
	data, err := format.EncodeBatch(rec, cl.changes, t.info.SchemaID)
	if err != nil {
		return nil, sqlerr.Wrap(err, sqlerr.InternalError, "encoding the changelog of %s: %v", t.info.Path, err)
	}
	return data, nil
}
