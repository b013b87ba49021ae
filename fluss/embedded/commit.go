package embedded

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"sync"
	"time"

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
	reqGroup  // an atomic group of writes (atomic.go)
	reqStaged // a staged bulk append (staged.go)
	reqAlter  // an ALTER TABLE retiring the table's state (alter.go)
	// a bulk upsert staged on disk (stagedupsert.go)
	reqStagedUpsert
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

// stateBytes is what the row takes in a group's state batch: key, row, and
// the entry's kind and two varint lengths.
func (pr *pkRow) stateBytes() int { return len(pr.key) + len(pr.row) + 16 }

// request is one write call (or a drop) waiting for the committer.
type request struct {
	table   *tableState
	kind    reqKind
	batches []bucketBatch // appends
	rows    []pkRow       // upserts and deletes (see allRows)
	// parts, when set instead of rows, are the rows in parts (a bulk
	// upsert's), laid end to end only when the commit needs them so.
	parts  [][]pkRow
	opts   fluss.UpsertOptions
	target []bool // partial update: which columns the upsert writes
	// recs, for a full-row upsert, are the validated records rows were
	// encoded from, in order (rows[i] is row i of the records laid end to
	// end); the caller keeps them alive until done.
	recs []arrow.RecordBatch
	// recs1 holds a one-record recs in the request itself.
	recs1 [1]arrow.RecordBatch
	// order, when set, is rows' indexes in key order (equal keys in row
	// order), sorted by the caller (a bulk upsert, as its parts came);
	// distinct says its keys are.
	order    []int32
	distinct bool
	// state, for a bulk upsert of distinct keys large enough to be
	// ingested, is its state changes in key order, whose sstables prebuilt
	// is building.
	state    []kvEntry
	prebuilt *prebuiltState
	ndv      *ndvDelta     // what the write adds to the distinct-count sketches
	staged   *stagedAppend // a reqStaged's batches
	upstage  *upsertStage  // a reqStagedUpsert's runs
	done     chan result
	// async: the caller does not wait for the write's sync
	// (fluss.WithoutSyncWait); set for an atomic group's requests too.
	async bool
	// owner is the atomic group (a reqGroup, atomic.go) the request
	// belongs to; group is a reqGroup's requests, groupRows what each one
	// wrote.
	owner     *request
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
	if fluss.SkipsSyncWait(ctx) {
		r.async = true
		for _, g := range r.group {
			g.async = true
		}
	}
	if len(s.reqs) == 0 && !s.gathers(r) {
		select {
		case <-s.turn:
			return s.commitOwn(r)
		default:
		}
	}
	s.queued.Add(1)
	select {
	case s.reqs <- r:
	case <-s.quit:
		s.queued.Add(-1)
		return result{}, errClosed()
	case <-ctx.Done():
		s.queued.Add(-1)
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

// A writer that finds the committer idle (its token free, nothing queued)
// commits its own request and any queued behind it in its own goroutine:
// at one writer, or between bursts, a commit then costs no hand-off to the
// committer goroutine and back, two thread wake-ups of the scheduler per
// commit that PostgreSQL's backends, which flush their own commit record,
// do not pay. The committer goroutine takes the token for every group it
// commits, so groups never overlap; what it does between groups
// (a checkpoint, arming the timer of unsynced commits) it is asked for by
// poke, so that the writer is answered first.

// commitOwn commits r, with whatever is queued, holding the committer's
// token, and gives the token back.
func (s *Store) commitOwn(r *request) (result, error) {
	if s.closed.Load() {
		s.turn <- struct{}{}
		return result{}, errClosed()
	}
	group := s.fillGroup([]*request{r})
	s.runGroup(group)
	if (s.walDirty && !s.walSyncArmed) || s.appends.bytes >= s.opts.CheckpointBytes {
		s.walSyncArmed = s.walDirty
		select {
		case s.poke <- struct{}{}:
		default:
		}
	}
	s.turn <- struct{}{}
	return <-r.done, nil
}

// fillGroup adds to group the requests queued, up to maxGroup.
func (s *Store) fillGroup(group []*request) []*request {
	for len(group) < maxGroup {
		select {
		case r := <-s.reqs:
			s.queued.Add(-1)
			group = append(group, r)
		default:
			return group
		}
	}
	return group
}

func (s *Store) commitLoop() {
	defer close(s.committed)
	// walSync fires when commits acknowledged before their sync have
	// waited asyncSyncDelay for one (asynccommit.go).
	var walSync <-chan time.Time
	// between is the work after a group: a checkpoint starts (its fsyncs
	// run in a goroutine of their own, durable.go), and unsynced commits
	// get their timer.
	between := func() {
		s.maybeCheckpoint()
		switch {
		case !s.walDirty:
			walSync = nil
		case walSync == nil:
			walSync = time.After(asyncSyncDelay)
		}
		s.walSyncArmed = walSync != nil
	}
	for {
		select {
		case <-walSync:
			<-s.turn
			walSync, s.walSyncArmed = nil, false
			// The sync runs without the token (asynccommit.go); the
			// token comes back to it to record what the sync covered.
			if s.timedSyncWAL() {
				between()
			}
			s.turn <- struct{}{}
		case <-s.poke:
			<-s.turn
			between()
			s.turn <- struct{}{}
		case <-s.quit:
			// A writer committing its own group finishes it; the token
			// is not given back, so later writers queue and fail.
			<-s.turn
			// The last appends become durable in their logs, so that the
			// next Open has nothing to replay; and the last commits not
			// synced yet, durable (run after the checkpoint).
			defer s.syncWAL()
			defer s.checkpoint()
			for {
				select {
				case r := <-s.reqs:
					r.done <- result{err: errClosed()}
				default:
					return
				}
			}
		case r := <-s.reqs:
			<-s.turn
			s.queued.Add(-1)
			s.runGroup(s.gather(s.fillGroup([]*request{r})))
			// After the writers were answered.
			between()
			s.turn <- struct{}{}
		}
	}
}

// runGroup commits a group: single writes and atomic groups together (an
// atomic group's requests prepare as one unit, so that it shares the
// group's sync and still commits whole or not at all); a drop or a staged
// bulk append splits it, committed alone after the writes queued before it.
func (s *Store) runGroup(group []*request) {
	var pending, atomics []*request
	writers := 0 // the writers of pending: a single write or an atomic group each
	flush := func() {
		if writers > 0 {
			s.lastWriters.Store(int64(writers))
		}
		s.commit(pending, writers == 1)
		for _, g := range atomics {
			answerGroup(g)
		}
		pending, atomics, writers = nil, nil, 0
	}
	for _, r := range group {
		switch r.kind {
		case reqDrop:
			flush()
			r.done <- result{err: s.drop(r.table)}
		case reqStaged:
			flush()
			s.commitStaged(r)
		case reqStagedUpsert:
			flush()
			s.commitStagedUpsert(r)
		case reqAlter:
			flush()
			r.table.retire()
			r.done <- result{}
		case reqGroup:
			pending = append(pending, r.group...)
			atomics = append(atomics, r)
			writers++
		default:
			pending = append(pending, r)
			writers++
		}
	}
	flush()
}

func (s *Store) drop(t *tableState) error {
	t.mu.Lock()
	t.dropped = true
	t.mu.Unlock()
	t.follow.Wake() // follow.go
	t.closeFiles()
	s.dropImage(t)
	if err := s.deleteTableState(t.info.TableID); err != nil {
		return err
	}
	if err := s.removeAll(t.dir); err != nil {
		return err
	}
	return nil
}

// bucketWrite collects what one group appends to one bucket log.
type bucketWrite struct {
	t  *tableState
	b  int
	bl *bucketLog
	// chunks are the log batches to append, in order: small ones gathered
	// into one buffer (a group of single-row writes is one write call), a
	// bulk write's large ones as they are, not copied.
	chunks [][]byte
	size   int64 // bytes in chunks
	next   int64
	// one holds chunks while there is one (a group of small writes).
	one [1][]byte
}

// ownChunk is the batch size from which bucketWrite keeps a batch as a
// chunk of its own.
const ownChunk = 256 << 10

func (w *bucketWrite) add(data []byte) {
	last := len(w.chunks) - 1
	if last >= 0 && len(data) < ownChunk && len(w.chunks[last]) < ownChunk {
		w.chunks[last] = append(w.chunks[last], data...)
	} else {
		w.chunks = append(w.chunks, data)
	}
	w.size += int64(len(data))
}

// commit writes a group: prepare every request (reading the primary-key
// state from pebble and from the overlays of the group's earlier requests,
// and writing the new state into one pebble batch, or into sorted runs for a
// group large enough to be ingested), append the batches to the bucket logs,
// fsync each touched log once, commit the state and the new committed
// lengths in one synced pebble batch or one ingestion, publish, reply.
// lone: reqs are one writer's (commitBatch).
func (s *Store) commit(reqs []*request, lone bool) {
	if len(reqs) == 0 {
		return
	}
	s.groups.Add(1)
	// The batch is not indexed: a request reads the state the previous
	// groups committed straight from pebble, and what earlier requests of
	// this group wrote from their overlays (indexing every key of a bulk
	// write cost more than writing it).
	size := 64
	for _, r := range reqs {
		for _, rows := range r.rowParts() {
			for _, pr := range rows {
				size += pr.stateBytes()
			}
		}
	}
	// A group that will be ingested collects its state as entries; a
	// smaller one writes a batch (which may still reach IngestBytes).
	var kv stateWriter
	var batch *pebble.Batch
	var bulk *bulkState
	if s.opts.IngestBytes > 0 && size >= s.opts.IngestBytes {
		bulk = &bulkState{}
		kv = bulk
	} else {
		batch = s.db.NewBatchWithSize(size)
		defer batch.Close()
		kv = batch
	}
	results := make([]result, len(reqs))
	live := make([]bool, len(reqs))
	s.groupBase, _ = s.iters.writeSeq()
	s.hints.begin() // rowhints.go
	order, panicked := s.prepareGroup(reqs, kv, results, live)
	if panicked != nil {
		// A bug, not the writes' fault: nothing is on disk yet, so the
		// group fails and the store goes on.
		err := sqlerr.New(sqlerr.InternalError, "internal error: %v", panicked)
		for _, r := range reqs {
			if r.prebuilt != nil {
				r.prebuilt.discard()
			}
			r.done <- result{err: err}
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
	// Folded before the state commits so that a sketch persisted with it
	// covers it; a failed commit leaves them over-counted, which an
	// estimate tolerates.
	err := s.foldNDV(kv, reqs, live)
	for _, w := range order {
		if err != nil {
			break
		}
		if batch != nil {
			err = setCommitted(batch, w)
		} else {
			err = kv.Set(bucketKey(prefixCommitted, w.t.info.TableID, w.b), encodeCommitted(w.bl.size+w.size, w.next), nil)
		}
	}
	switch {
	case err != nil:
	case bulk != nil:
		err = s.commitBulk(order, bulk)
	case s.recordAppends(order, batch):
		// One sync: the batch carries the appends (durable.go).
		if err = s.logGroupAppends(order, batch); err == nil {
			err = s.commitBatch(batch, waitsForSync(reqs, live), lone, s.groupBase)
		}
	default:
		if err = s.writeLogs(order); err == nil && !batch.Empty() {
			err = s.commitBatch(batch, waitsForSync(reqs, live), lone, s.groupBase)
		}
	}
	if err != nil {
		s.log.Error("group commit failed", "error", err)
		fail(err)
	} else {
		s.publish(order)
		s.hints.publish() // rowhints.go: the rows the group wrote
	}
	for _, r := range reqs {
		if r.prebuilt != nil {
			r.prebuilt.discard() // what the ingestion did not take
		}
	}
	for i, r := range reqs {
		r.done <- results[i]
	}
}

// setCommitted records in a group's batch the committed length and next
// log offset of w's bucket once the group's appends land; the batch copies
// its key and value, built on the stack (a bucketKey and an
// encodeCommitted allocate).
func setCommitted(batch *pebble.Batch, w *bucketWrite) error {
	var k [dataKeyPrefix]byte
	var v [committedLen]byte
	putBucketKey(k[:], prefixCommitted, w.t.info.TableID, w.b)
	putCommitted(v[:], w.bl.size+w.size, w.next)
	return batch.Set(k[:], v[:], nil)
}

// prepareGroup prepares each request of a group (primary-key state into
// kv, log batches stamped with their offsets), setting its result or live,
// and returns the bucket writes in order. A panic is recovered and
// returned (logged with its stack): kv may then hold part of a request.
func (s *Store) prepareGroup(reqs []*request, kv stateWriter, results []result, live []bool) (order []*bucketWrite, panicked any) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("preparing a group commit panicked; its writes fail", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			panicked = p
		}
	}()
	overlays := map[*tableState]*priorWrites{}
	writes := map[*bucketLog]*bucketWrite{}
	now := s.opts.Now().UnixMilli()
	// stamp gives a prepared request's batches their log offsets and adds
	// them to the group's bucket writes.
	stamp := func(t *tableState, batches []bucketBatch) {
		for _, bb := range batches {
			bl := t.buckets[bb.bucket]
			w := writes[bl]
			if w == nil {
				bl.takeTail() // a bulk append's claim on its end (tailclaim.go)
				w = &bucketWrite{t: t, b: bb.bucket, bl: bl, next: bl.next}
				w.chunks = w.one[:0]
				writes[bl] = w
				order = append(order, w)
			}
			format.SetBaseOffset(bb.data, w.next)
			format.SetCommitTimestamp(bb.data, now)
			w.next += bb.records
			w.add(bb.data)
		}
	}
	for i := 0; i < len(reqs); {
		r := reqs[i]
		if r.owner != nil {
			// An atomic group: its requests, consecutive, prepare together.
			j := i + 1
			for j < len(reqs) && reqs[j].owner == r.owner {
				j++
			}
			s.prepareUnit(reqs[i:j], kv, overlays, results[i:j], live[i:j], stamp)
			i = j
			continue
		}
		batches, rows, ov, err := s.prepareOne(kv, r, overlays[r.table])
		if err != nil {
			results[i].err = err
		} else {
			// Only the group's later requests read the overlays: the last
			// one's (a group of one, a writer committing its own) is not kept.
			if ov != nil && i+1 < len(reqs) {
				pw := overlays[r.table]
				if pw == nil {
					pw = &priorWrites{}
					overlays[r.table] = pw
				}
				pw.add(ov)
			}
			stamp(r.table, batches)
			results[i].rows = rows
			live[i] = true
		}
		i++
	}
	return order, nil
}

// prepareOne prepares one request: its log batches, its row count, and
// for a primary-key write the overlay of its state changes, written into
// kv. prior are the overlays of the group's earlier requests on its table.
// A request that fails writes nothing into kv.
func (s *Store) prepareOne(kv stateWriter, r *request, prior *priorWrites) ([]bucketBatch, int64, *overlay, error) {
	t := r.table
	t.mu.RLock()
	dropped, altered := t.dropped, t.altered
	t.mu.RUnlock()
	if altered {
		return nil, 0, nil, errAltered(t.info.Path)
	}
	if dropped {
		return nil, 0, nil, undefinedTable(t.info.Path)
	}
	if r.kind == reqAppend {
		rows := int64(0)
		for _, b := range r.batches {
			rows += b.records
		}
		return r.batches, rows, nil, nil
	}
	return s.preparePK(kv, r, prior)
}

// prepareUnit prepares the requests of one atomic group, all or nothing:
// their state goes into a state of its own and their overlays into a copy
// of the group's, both taken into the group only once every request
// prepared; when one fails, every request of the unit fails with its error
// and the group is left as it was.
func (s *Store) prepareUnit(unit []*request, kv stateWriter, overlays map[*tableState]*priorWrites, results []result, live []bool, stamp func(*tableState, []bucketBatch)) {
	sub := &bulkState{}
	// mine layers the unit's own overlays over the group's, which it
	// reads but does not change until every request prepared.
	mine := map[*tableState]*priorWrites{}
	prior := func(t *tableState) *priorWrites {
		if pw, ok := mine[t]; ok {
			return pw
		}
		return overlays[t]
	}
	batches := make([][]bucketBatch, len(unit))
	for k, r := range unit {
		b, rows, ov, err := s.prepareOne(sub, r, prior(r.table))
		if err != nil {
			for k := range unit {
				results[k] = result{err: err}
			}
			return
		}
		if ov != nil {
			pw := mine[r.table]
			if pw == nil {
				pw = &priorWrites{parent: overlays[r.table]}
				mine[r.table] = pw
			}
			pw.add(ov)
		}
		batches[k], results[k].rows = b, rows
	}
	if err := sub.mergeInto(kv); err != nil {
		for k := range unit {
			results[k] = result{err: ioErr(err, "updating the state of %s", unit[k].table.info.Path)}
		}
		return
	}
	for t, pw := range mine {
		overlays[t] = pw.merged()
	}
	for k, r := range unit {
		stamp(r.table, batches[k])
		live[k] = true
	}
}

// commitBulk appends the logs and builds the state's sstables side by side,
// then ingests the sstables: the commit point, once the logs are synced.
func (s *Store) commitBulk(order []*bucketWrite, bulk *bulkState) error {
	logs := make(chan error, 1)
	go func() { logs <- s.writeLogs(order) }()
	groups, prebuilt := bulk.groups()
	paths, err := s.buildSSTables(groups)
	defer removeFiles(paths)
	for _, p := range prebuilt {
		built, perr := p.wait()
		paths, groups = append(paths, built...), append(groups, p.state)
		err = errors.Join(err, perr)
	}
	if lerr := <-logs; lerr != nil {
		return lerr
	}
	if err == nil {
		err = s.ingestSSTables(paths, groups)
	}
	if err != nil {
		return ioErr(err, "ingesting the key-value state")
	}
	return nil
}

// commitBatch commits a group's state batch, synced unless no writer of
// the group waits for the sync (asynccommit.go), or ingests it when it
// grew large. lone: the group has one writer, a single write or an atomic
// group (with nothing queued behind it, its commit.wal write and sync,
// commitlog.go, or its WAL write and sync are raw calls, fsys.go); a
// synced group with no unsynced commit before it is logged in commit.wal. base is
// the state writes' count its prepare marked its keys after (rowhints.go), noMarks
// for a batch of unmarked keys.
func (s *Store) commitBatch(batch *pebble.Batch, wait, lone bool, base uint64) error {
	if s.opts.IngestBytes > 0 && batch.Len() >= s.opts.IngestBytes {
		if err := s.ingestBatch(batch); err != nil {
			return ioErr(err, "ingesting the key-value state")
		}
		return nil
	}
	opts := pebble.Sync
	if !wait {
		opts = pebble.NoSync
	}
	s.iters.beginWriteAfter(base)
	defer s.iters.endWrite()
	solo := wait && lone && len(s.reqs) == 0
	// A synced commit with no unsynced commit before it is logged and
	// synced in this goroutine (commitlog.go): a lone one with nothing
	// queued behind it by raw calls, any other group by an ordinary
	// fdatasync that lets the scheduler run the other connections while
	// the kernel waits for the disk.
	if wait && !s.walDirty && s.clog.takes(batch) {
		start := time.Now()
		err := s.commitLogged(batch, solo)
		s.lastSync = time.Since(start)
		return err
	}
	// Else, with nothing queued, pebble's write and sync of its WAL are
	// raw calls (fsys.go, filledWAL.raw).
	if solo {
		s.walSolo.Store(true)
		defer s.walSolo.Store(false)
	}
	start := time.Now()
	if err := batch.Commit(opts); err != nil {
		return ioErr(err, "committing the key-value state")
	}
	s.walDirty = !wait
	if !wait {
		s.walCommits++ // asynccommit.go
	}
	if wait {
		s.lastSync = time.Since(start)
		s.clog.pebbleSynced()
	}
	return nil
}

// writeLogs appends each bucket's data and fsyncs the touched files, in
// parallel when there are several.
func (s *Store) writeLogs(order []*bucketWrite) error {
	if err := s.appendLogs(order); err != nil {
		return err
	}
	return s.syncLogs(order)
}

// appendLogs writes each bucket's data at the end of its log, unsynced.
func (s *Store) appendLogs(order []*bucketWrite) error {
	for _, w := range order {
		if w.bl.f == nil {
			return undefinedTable(w.t.info.Path)
		}
		off := w.bl.size
		for _, c := range w.chunks {
			if err := writeAt(w.bl.f, c, off); err != nil {
				return ioErr(err, "writing %s", w.bl.path)
			}
			off += int64(len(c))
		}
	}
	return nil
}

// syncLogs fsyncs the touched bucket logs.
func (s *Store) syncLogs(order []*bucketWrite) error {
	bls := make([]*bucketLog, len(order))
	for i, w := range order {
		bls[i] = w.bl
	}
	return s.syncBucketLogs(bls)
}

// syncBucketLogs fsyncs bucket logs, in parallel when there are several
// (a device serves concurrent flushes together).
func (s *Store) syncBucketLogs(bls []*bucketLog) error {
	if len(bls) == 1 {
		if err := s.sync(bls[0].path, SyncFull, bls[0].f.Sync); err != nil {
			return ioErr(err, "syncing %s", bls[0].path)
		}
		return nil
	}
	errs := make([]error, len(bls))
	var wg sync.WaitGroup
	for i, bl := range bls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := s.sync(bl.path, SyncFull, bl.f.Sync); err != nil {
				errs[i] = ioErr(err, "syncing %s", bl.path)
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// publish makes a committed group visible to scans, table by table, so a
// scan sees a write call entirely or not at all.
func (s *Store) publish(order []*bucketWrite) {
	if len(order) <= publishScan {
		publishFew(order)
		return
	}
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
			w.land()
		}
		t.mu.Unlock()
		t.follow.Wake() // follow.go: the new lengths are visible
	}
}

// land advances w's bucket log past the group's committed appends (its
// table's lock held).
func (w *bucketWrite) land() {
	w.bl.size += w.size
	w.bl.next = w.next
	w.bl.committed = w.bl.size
}

// publishScan is the most bucket writes publish groups by table by
// scanning them rather than through a map (which allocates every commit).
const publishScan = 8

// publishFew is publish of a few bucket writes: each table's, found by a
// scan, under one hold of its lock.
func publishFew(order []*bucketWrite) {
	for i, w := range order {
		t := w.t
		if slices.ContainsFunc(order[:i], func(o *bucketWrite) bool { return o.t == t }) {
			continue // published with its table's first
		}
		t.mu.Lock()
		for _, o := range order[i:] {
			if o.t == t {
				o.land()
			}
		}
		t.mu.Unlock()
		t.follow.Wake() // follow.go: the new lengths are visible
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

// deleted records the delete of the stored row old.
func (cl *changelog) deleted(old []byte) {
	cl.changes = append(cl.changes, format.Delete)
	cl.rows = append(cl.rows, old)
	cl.fromRec = false
}

// upserted records row written over the stored row old (had: there was
// one): an update's before and after images, or the insert of request
// row i.
func (cl *changelog) upserted(had bool, old, row []byte, i int32) {
	if had {
		cl.changes = append(cl.changes, format.UpdateBefore, format.UpdateAfter)
		cl.rows = append(cl.rows, old, row)
		cl.fromRec = false
		return
	}
	cl.changes = append(cl.changes, format.Insert)
	cl.rows = append(cl.rows, row)
	if cl.fromRec {
		cl.src = append(cl.src, i)
	}
}

// overlay is the state one request of a group left for the keys it wrote:
// its state changes, in key order (what it also wrote into the group's
// state), which later requests of the same group must read instead of
// pebble, which does not have them yet.
type overlay struct{ entries []kvEntry }

// get returns the overlay's entry for k, if it has one.
func (o *overlay) get(k []byte) (v []byte, present, ok bool) {
	es := o.entries
	// Outside the overlay's key range: the common case of a group's
	// writes to different keys, answered without a search.
	if len(es) == 0 || bytes.Compare(k, es[0].key) < 0 || bytes.Compare(k, es[len(es)-1].key) > 0 {
		return nil, false, false
	}
	i, found := slices.BinarySearchFunc(es, k, func(e kvEntry, k []byte) int { return bytes.Compare(e.key, k) })
	if !found {
		return nil, false, false
	}
	return es[i].value, !es[i].del, true
}

// priorWrites are the overlays a group's earlier requests left on one
// table, which a later request reads before pebble: the newest few as
// they are, older ones folded into one index by key. Searching every
// earlier overlay for every key made a write of many records in one group
// (an INSERT ... SELECT of 100k rows is a hundred records) quadratic.
type priorWrites struct {
	// parent is the group's, under an atomic unit's own (prepareUnit):
	// older than everything here.
	parent *priorWrites
	recent []*overlay // newest last, not in index
	// recentRows counts the entries of recent.
	recentRows int
	index      map[string]kvEntry
}

// foldOverlays is how many overlays priorWrites keeps unindexed, and
// foldSmall how many when they hold at most foldRows entries: a group of
// single-row transactions (each an overlay of a row or two, most often
// outside each other's key range, which get answers with two comparisons)
// then builds no index, whose map and key strings cost more than the
// searches.
const (
	foldOverlays = 4
	foldSmall    = 32
	foldRows     = 64
)

// get returns the newest entry for k: from the recent overlays, newest
// first, then the index, then the parent's. A nil priorWrites has none.
func (p *priorWrites) get(k []byte) (v []byte, present, ok bool) {
	for ; p != nil; p = p.parent {
		for j := len(p.recent) - 1; j >= 0; j-- {
			if v, present, ok := p.recent[j].get(k); ok {
				return v, present, true
			}
		}
		if e, ok := p.index[string(k)]; ok {
			return e.value, !e.del, true
		}
	}
	return nil, false, false
}

// add adds the overlay of the newest request.
func (p *priorWrites) add(ov *overlay) {
	p.recent = append(p.recent, ov)
	p.recentRows += len(ov.entries)
	if len(p.recent) > foldSmall || (len(p.recent) > foldOverlays && p.recentRows > foldRows) {
		p.fold()
	}
}

// fold moves the recent overlays into the index, older first so that a
// newer entry replaces an older one.
func (p *priorWrites) fold() {
	if p.index == nil {
		n := 0
		for _, ov := range p.recent {
			n += len(ov.entries)
		}
		p.index = make(map[string]kvEntry, n)
	}
	for _, ov := range p.recent {
		for _, e := range ov.entries {
			p.index[string(e.key)] = e
		}
	}
	p.recent, p.recentRows = p.recent[:0], 0
}

// merged returns the group's writes with an atomic unit's (p, made over
// them) on top, once the unit prepared whole: the group's own, changed in
// place (nothing else reads them until then), or p alone when the group
// had none.
func (p *priorWrites) merged() *priorWrites {
	q := p.parent
	p.parent = nil
	if q == nil {
		return p
	}
	// Every write of p is newer than q's recent overlays: p's index goes
	// over q's folded whole. A unit of a few overlays (a transaction's
	// writes of a row or a few) only joins q's recent ones, without
	// building q's index for each transaction of a group.
	if len(p.index) > 0 {
		q.fold()
		for k, e := range p.index {
			q.index[k] = e
		}
	}
	for _, ov := range p.recent {
		q.add(ov)
	}
	return q
}

// preparePK turns an upsert or delete into changelog batches per bucket and
// state updates in kv, and returns the overlay of what it wrote. Nothing
// reaches kv unless the whole request succeeds.
//
// The request's keys are ordered once (equal keys stay in request order) and
// numbered: every key's previous value is read in one ordered pass (see
// readStored), and the rows are then applied in request order against
// per-key slots, without a map per row.
func (s *Store) preparePK(kv stateWriter, r *request, prior *priorWrites) ([]bucketBatch, int64, *overlay, error) {
	if r.distinct && r.kind == reqUpsert && r.target == nil && r.recs != nil {
		if out, ov, ok, err := s.prepareNew(kv, r, prior); ok || err != nil {
			return out, int64(len(r.order)), ov, err
		}
	}
	t := r.table
	r.allRows()
	n := len(r.rows)
	if n == 1 {
		return s.preparePKOne(kv, r, prior)
	}
	order := r.order
	if order == nil {
		order = sortKeys(r.rows)
	}
	// slot[i] numbers row i's key; keys[g] is key g, in key order.
	slot := make([]int32, n)
	keys := make([][]byte, 0, n)
	for i, ri := range order {
		if i == 0 || !bytes.Equal(r.rows[ri].key, r.rows[order[i-1]].key) {
			keys = append(keys, r.rows[ri].key)
		}
		slot[ri] = int32(len(keys) - 1)
	}
	order, r.order = nil, nil
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
			// Sized for the common case, every row an insert into one bucket;
			// at least two entries, an UPDATE by key's before and after
			// images (which otherwise grew both slices again).
			size := max(n/len(t.buckets), 2)
			cl = &changelog{fromRec: r.recs != nil, changes: make([]format.ChangeType, 0, size), rows: make([][]byte, 0, size)}
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
			cl.deleted(old)
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
			cl.upserted(had, old, row, int32(i))
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
		bbs, err := encodeChangelog(t, b, cl, r.recs)
		if err != nil {
			return nil, 0, nil, err
		}
		out = append(out, bbs...)
		cl.rows, cl.src = nil, nil // free for GC while the group commits
	}
	ents := make([]kvEntry, 0, len(keys))
	for g, k := range keys {
		if touched[g] {
			ents = append(ents, kvEntry{key: k, value: cur[g], del: !exists[g]})
		}
	}
	ov, err := s.writeState(kv, t, ents, nil)
	if err != nil {
		return nil, 0, nil, err
	}
	return out, rows, ov, nil
}

// writeState writes a request's state entries (in key order; pre, a bulk
// request's prebuilt run, or nil) into the group's state after marking
// them in the row cache (rowhints.go), and returns the overlay later
// requests of the group read them from.
func (s *Store) writeState(kv stateWriter, t *tableState, ents []kvEntry, pre *prebuiltState) (*overlay, error) {
	s.hints.markWritten(ents, s.groupBase+2)
	if err := writeRun(kv, ents, pre); err != nil {
		return nil, ioErr(err, "updating the state of %s", t.info.Path)
	}
	return &overlay{entries: ents}, nil
}

// preparePKOne is preparePK of a request of one row (an UPDATE or DELETE
// by key, a one-row INSERT: W10's commit): the same changelog, state and
// overlay, without the per-key slots, key sort, per-bucket changelogs and
// value buffer that a request of many rows needs, which were a third of a
// one-row commit's allocations.
func (s *Store) preparePKOne(kv stateWriter, r *request, prior *priorWrites) ([]bucketBatch, int64, *overlay, error) {
	t := r.table
	pr := r.rows[0]
	r.order = nil
	old, had, err := s.readOne(t, pr.key, prior)
	if err != nil {
		return nil, 0, nil, err
	}
	// The changelog's one or two entries, in arrays on the stack: built
	// here rather than by changelog's appending methods (deleted,
	// upserted), through which they would move to the heap.
	var changes [2]format.ChangeType
	var images [2][]byte
	n := 0
	fromRec := r.recs != nil
	ent := kvEntry{key: pr.key}
	// changed is false for a request that changes nothing (a delete of a
	// missing key, an insert of an existing one that ignores it): no
	// changelog, no state, an empty overlay.
	changed := false
	switch r.kind {
	case reqDelete:
		if changed = had; changed {
			changes[0], images[0], n = format.Delete, old, 1
			fromRec = false
			ent.del = true
		}
	case reqUpsert:
		if changed = !had || !r.opts.IgnoreExisting; changed {
			row := pr.row
			if r.target != nil {
				if row, err = mergePartial(t, old, had, pr.row, r.target); err != nil {
					return nil, 0, nil, err
				}
			}
			if had {
				changes, images, n = [2]format.ChangeType{format.UpdateBefore, format.UpdateAfter}, [2][]byte{old, row}, 2
				fromRec = false
			} else {
				changes[0], images[0], n = format.Insert, row, 1
			}
			ent.value = row
		}
	}
	if !changed {
		ov, err := s.writeState(kv, t, nil, nil)
		return nil, 0, ov, err
	}
	src := [1]int32{0} // an insert's entry is request row 0
	cl := changelog{changes: changes[:n], rows: images[:n], fromRec: fromRec}
	if fromRec {
		cl.src = src[:]
	}
	out, err := encodeChangelog(t, pr.bucket, &cl, r.recs)
	if err != nil {
		return nil, 0, nil, err
	}
	ov, err := s.writeState(kv, t, []kvEntry{ent}, nil)
	if err != nil {
		return nil, 0, nil, err
	}
	return out, 1, ov, nil
}

// readOne is readStored of one key: its value in the newest prior overlay
// having it, else the stored row the row cache holds for it, else pebble's
// (a copy).
func (s *Store) readOne(t *tableState, k []byte, prior *priorWrites) ([]byte, bool, error) {
	if v, present, ok := prior.get(k); ok {
		return v, present, nil
	}
	// As getStored: the row cache only while no state write happened
	// since the group started.
	if seq, floor := s.iters.writeSeq(); seq == s.groupBase {
		if hint, ok := s.hints.stored(k, floor, nil); ok {
			return hint, true, nil
		}
	}
	v, closer, err := s.db.Get(k)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, ioErr(err, "reading the state of %s", t.info.Path)
	}
	v = bytes.Clone(v)
	_ = closer.Close()
	return v, true, nil
}

// rowParts returns r's rows as parts: its parts, or its rows as one.
func (r *request) rowParts() [][]pkRow {
	if r.parts != nil {
		return r.parts
	}
	return [][]pkRow{r.rows}
}

// allRows lays r's parts end to end as its rows, once, and returns them.
func (r *request) allRows() []pkRow {
	if r.parts != nil {
		rows := make([]pkRow, 0, len(r.order))
		for _, part := range r.parts {
			rows = append(rows, part...)
		}
		r.rows, r.parts = rows, nil
	}
	return r.rows
}

// prepareNew is preparePK of a full-row upsert whose keys the caller sorted
// and found distinct (a bulk upsert), when none of them exists: every row
// is then an insert, so the changelog is the request's records as they are
// (cut by bucket), and the state its keys and rows in key order, with no
// per-key slots. ok is false, and nothing is written, when a key exists.
func (s *Store) prepareNew(kv stateWriter, r *request, prior *priorWrites) (out []bucketBatch, ov *overlay, ok bool, err error) {
	t := r.table
	ents := r.state
	if ents == nil {
		rows := r.allRows()
		ents = make([]kvEntry, len(r.order))
		for g, i := range r.order {
			ents[g] = kvEntry{key: rows[i].key, value: rows[i].row}
		}
	}
	exists := false
	err = s.walkStored(t, len(ents), func(g int) []byte { return ents[g].key }, prior, func(_ int, _ []byte, present, _ bool) bool {
		exists = present
		return !present
	})
	if err != nil || exists {
		return nil, nil, false, err
	}
	n := len(r.order)
	srcs := make([][]int32, len(t.buckets))
	i := int32(0)
	for _, rows := range r.rowParts() {
		for _, pr := range rows {
			if srcs[pr.bucket] == nil {
				srcs[pr.bucket] = make([]int32, 0, n/len(t.buckets))
			}
			srcs[pr.bucket] = append(srcs[pr.bucket], i)
			i++
		}
	}
	inserts := make([]format.ChangeType, n)
	for i := range inserts {
		inserts[i] = format.Insert
	}
	for b, src := range srcs {
		if len(src) == 0 {
			continue
		}
		bbs, err := cutChangelog(t, b, src, inserts[:len(src)], r.recs)
		if err != nil {
			return nil, nil, false, err
		}
		out = append(out, bbs...)
	}
	if ov, err = s.writeState(kv, t, ents, r.prebuilt); err != nil {
		return nil, nil, false, err
	}
	return out, ov, true, nil
}

// sortKeys returns the indexes of rows ordered by key, equal keys in row
// order.
func sortKeys(rows []pkRow) []int32 {
	es := sortedKeyEntries(rows, 0, nil)
	out := make([]int32, len(es))
	for i, e := range es {
		out[i] = e.i
	}
	return out
}

// sortedKeyEntries returns the key entries of rows, numbered from base,
// ordered by key (equal keys in row order). It sorts fixed-size prefixes
// (the 16 bytes after the table prefix: bucket and the key's first 12
// bytes, zero-padded) with a radix sort and compares whole keys only where
// prefixes tie: comparing the keys themselves through the rows cost more
// than the rest of a bulk write's preparation, and a radix sort of
// prefixes most of whose bytes are the same in every row (one bucket,
// BIGINT keys of a few VLQ bytes) takes a handful of passes.
func sortedKeyEntries(rows []pkRow, base int32, pool *entryPool) []keyEntry {
	es := pool.get(len(rows))
	var pad [16]byte
	for i, r := range rows {
		k := r.key[min(len(r.key), 9):]
		if len(k) < 16 {
			pad = [16]byte{}
			copy(pad[:], k)
			k = pad[:]
		}
		es[i] = keyEntry{hi: binary.BigEndian.Uint64(k), lo: binary.BigEndian.Uint64(k[8:]), i: base + int32(i)}
	}
	if !slices.IsSortedFunc(es, comparePrefixes) {
		radixSortEntries(es, pool)
	}
	// Equal prefixes are in row order (the radix sort is stable); order
	// them by whole key.
	cmpEntries := keyOrder(func(i int32) []byte { return rows[i-base].key })
	for i := 0; i < len(es); {
		j := i + 1
		for j < len(es) && es[j].hi == es[i].hi && es[j].lo == es[i].lo {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(es[i:j], cmpEntries)
		}
		i = j
	}
	return es
}

// comparePrefixes orders key entries by prefix, then by row.
func comparePrefixes(a, b keyEntry) int {
	switch {
	case a.hi != b.hi:
		return cmp.Compare(a.hi, b.hi)
	case a.lo != b.lo:
		return cmp.Compare(a.lo, b.lo)
	}
	return cmp.Compare(a.i, b.i)
}

// radixSortEntries sorts es by prefix (hi, then lo), stably: a
// least-significant-digit radix sort on bytes, whose counts are taken in one
// pass, skipping the bytes every entry has the same.
func radixSortEntries(es []keyEntry, pool *entryPool) {
	if len(es) < 2 {
		return
	}
	var counts [16][256]int32 // digit d: byte d%8 of lo (d < 8) or hi
	for _, e := range es {
		for d := range 8 {
			counts[d][byte(e.lo>>(8*d))]++
			counts[8+d][byte(e.hi>>(8*d))]++
		}
	}
	scratch := pool.get(len(es))
	defer pool.put(scratch)
	src, dst := es, scratch
	for d := range 16 {
		next := &counts[d]
		if next[digitOf(es[0], d)] == int32(len(es)) {
			continue // every entry has this byte
		}
		sum := int32(0)
		for b, c := range next {
			next[b] = sum
			sum += c
		}
		shift := uint(d%8) * 8
		if d < 8 {
			for _, e := range src {
				b := byte(e.lo >> shift)
				dst[next[b]] = e
				next[b]++
			}
		} else {
			for _, e := range src {
				b := byte(e.hi >> shift)
				dst[next[b]] = e
				next[b]++
			}
		}
		src, dst = dst, src
	}
	if &src[0] != &es[0] {
		copy(es, src)
	}
}

// entryPool keeps key-entry slices for reuse: a bulk upsert sorts a part
// and merges runs thousands of times, and fresh memory for each cost more
// (page faults, collections) than the sorting. A nil pool allocates.
type entryPool struct{ free [][]keyEntry }

// get returns a slice of n entries (their values are garbage).
func (p *entryPool) get(n int) []keyEntry {
	if p != nil {
		best := -1
		for i, s := range p.free {
			if cap(s) >= n && (best < 0 || cap(s) < cap(p.free[best])) {
				best = i
			}
		}
		if best >= 0 {
			s := p.free[best]
			p.free = slices.Delete(p.free, best, best+1)
			return s[:n]
		}
	}
	return make([]keyEntry, n)
}

// put gives s back for a later get; the caller keeps nothing of it.
func (p *entryPool) put(s []keyEntry) {
	if p != nil && cap(s) > 0 {
		p.free = append(p.free, s)
	}
}

// digitOf is digit d of e as radixSortEntries numbers them.
func digitOf(e keyEntry, d int) byte {
	if d < 8 {
		return byte(e.lo >> (8 * d))
	}
	return byte(e.hi >> (8 * (d - 8)))
}

// keyOrder compares key entries: by prefix, then by whole key (key(i) is
// row i's), then by row.
func keyOrder(key func(i int32) []byte) func(a, b keyEntry) int {
	return func(a, b keyEntry) int {
		if a.hi != b.hi || a.lo != b.lo {
			return comparePrefixes(a, b)
		}
		if c := bytes.Compare(key(a.i), key(b.i)); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	}
}

// keyEntry is sortKeys' view of a row: its key's first 16 bytes after the
// table prefix (the bucket in hi's top 32 bits) and its index.
type keyEntry struct {
	hi, lo uint64
	i      int32
}

// readStored returns the current value of each key (keys in key order,
// distinct): from the newest prior overlay that has it, else from pebble's
// committed state (walkStored).
func (s *Store) readStored(t *tableState, keys [][]byte, prior *priorWrites) ([][]byte, []bool, error) {
	vals := make([][]byte, len(keys))
	exists := make([]bool, len(keys))
	// Values read from pebble are copied into one buffer and sliced once
	// it stops growing.
	var buf []byte
	var at []int // per key: end offset in buf, or -1
	err := s.walkStored(t, len(keys), func(g int) []byte { return keys[g] }, prior, func(g int, v []byte, present, stored bool) bool {
		if !stored {
			vals[g], exists[g] = v, present
			return true
		}
		at = markValue(at, g, len(keys))
		buf = append(buf, v...)
		at[g] = len(buf)
		exists[g] = true
		return true
	})
	if err != nil {
		return nil, nil, err
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

// walkStored calls found for each of n keys (key(g), in key order,
// distinct) that the newest prior overlay having it has (stored false,
// present false for a deleted key), or else pebble's committed state has
// (stored true; v is valid during the call), until found returns false.
// Pebble is read with one iterator: a first seek finds whether any stored
// key is at or above the first key (writing new keys into an empty table,
// or past its last key, then reads nothing more); the keys are then read
// by prefix seeks, which skip every sstable whose bloom filter does not
// have the key. The key encoding does not keep a numeric key's order, so
// new keys of an INSERT fall between stored ones: a plain seek positioned
// itself in every level for each of them (and loaded a data block there).
func (s *Store) walkStored(t *tableState, n int, key func(g int) []byte, prior *priorWrites, found func(g int, v []byte, present, stored bool) bool) error {
	if n <= pointReadKeys {
		return s.getStored(t, n, key, prior, found)
	}
	p := tablePrefix(prefixData, t.info.TableID)
	// Pebble reads the last level's bloom filters only when asked: most
	// keys of a large table live there, and a write of new keys is what
	// the filters are for.
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: prefixEnd(p), UseL6Filters: true})
	if err != nil {
		return ioErr(err, "reading the state of %s", t.info.Path)
	}
	defer it.Close()
	checked, exhausted := false, false
	for g := range n {
		k := key(g)
		if v, present, ok := prior.get(k); ok {
			if !found(g, v, present, false) {
				break
			}
			continue
		}
		if !checked {
			checked = true
			// No stored key at or above k: the rest are new (a prior
			// overlay may still have them).
			exhausted = !it.SeekGE(k)
		}
		if exhausted {
			continue
		}
		if it.SeekPrefixGE(k) && bytes.Equal(it.Key(), k) && !found(g, it.Value(), true, true) {
			break
		}
	}
	if err := it.Error(); err != nil {
		return ioErr(err, "reading the state of %s", t.info.Path)
	}
	return nil
}

// pointReadKeys is the most keys walkStored reads by point gets rather
// than an iterator: a write of a row or a few (an UPDATE by key) costs a
// pebble Get per key, where opening an iterator over the table's state
// cost several times one.
const pointReadKeys = 4

// getStored is walkStored for a few keys: pebble's Get of each, or the row
// a point read kept as its hint when no write since may have changed it
// (rowhints.go): the commit of an UPDATE by key then reads the row once.
func (s *Store) getStored(t *tableState, n int, key func(g int) []byte, prior *priorWrites, found func(g int, v []byte, present, stored bool) bool) error {
	var hint []byte
	seq, floor := s.iters.writeSeq()
	// A state write since the group started (none under the committer's
	// token) leaves the marks behind it: no hints then.
	hints := seq == s.groupBase
	for g := range n {
		k := key(g)
		if v, present, ok := prior.get(k); ok {
			if !found(g, v, present, false) {
				return nil
			}
			continue
		}
		if hints {
			var ok bool
			if hint, ok = s.hints.stored(k, floor, hint[:0]); ok {
				if !found(g, hint, true, true) {
					return nil
				}
				continue
			}
		}
		v, closer, err := s.db.Get(k)
		if errors.Is(err, pebble.ErrNotFound) {
			continue
		}
		if err != nil {
			return ioErr(err, "reading the state of %s", t.info.Path)
		}
		more := found(g, v, true, true)
		_ = closer.Close()
		if !more {
			return nil
		}
	}
	return nil
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
func mergePartial(t *tableState, old []byte, exists bool, value []byte, target []bool) ([]byte, error) {
	row, err := t.storedRow(value)
	if err != nil {
		return nil, sqlerr.Wrap(err, sqlerr.InternalError, "partial update: %v", err)
	}
	nf, err := format.SplitRow(t.colTypes, row)
	if err != nil {
		return nil, sqlerr.Wrap(err, sqlerr.InternalError, "partial update: %v", err)
	}
	var of [][]byte
	if exists {
		if old, err = t.storedRow(old); err == nil {
			of, err = format.SplitRow(t.colTypes, old)
		}
		if err != nil {
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
			return nil, sqlerr.NullInNotNull(t.info.Descriptor.Schema.Columns[i].Name, t.info.Path.Table)
		}
	}
	return format.JoinRow(format.AppendValueHeader(nil, t.info.SchemaID), merged), nil
}

// storedRow returns the row of a stored primary-key value, which is
// ValueEncoder's: the row's schema id (2 bytes, little-endian), then the
// compacted row. A table has one schema, so another id is damage.
func (t *tableState) storedRow(v []byte) ([]byte, error) {
	id, row, err := format.SplitValue(v)
	if err != nil {
		return nil, err
	}
	if id != t.info.SchemaID {
		// written before an ADD COLUMN (alter.go): the added columns are null
		n := t.columnsOf(id)
		if n < 0 {
			return nil, errOldSchema(t, id)
		}
		return t.widenRow(row, n)
	}
	return row, nil
}

// encodeChangelog encodes bucket b's changelog rows as log batches with
// full row images: cut from the request's records when every entry is an
// insert of a request row (a bulk load: a batch per record), else decoded
// from the compacted rows (one batch).
func encodeChangelog(t *tableState, b int, cl *changelog, recs []arrow.RecordBatch) ([]bucketBatch, error) {
	if cl.fromRec && len(recs) > 0 && len(cl.src) == len(cl.rows) {
		return cutChangelog(t, b, cl.src, cl.changes, recs)
	}
	if data, ok := encodeRowsDirect(t, cl); ok {
		return []bucketBatch{{bucket: b, data: data, records: int64(len(cl.rows))}}, nil
	}
	var rec arrow.RecordBatch
	if len(cl.rows) <= pooledChangelogRows {
		// A write of a row or a few (an UPDATE by key: its before and
		// after images) decodes into a pooled builder of the table's
		// rows, as a lookup does, instead of a new one per commit.
		plan, err := projectionFor(t, nil)
		if err != nil {
			return nil, err
		}
		lb := plan.pool.Get().(*lookupBuilder)
		for _, v := range cl.rows {
			row, err := t.storedRow(v)
			if err == nil {
				_, err = lb.dec.Decode(row)
			}
			if err != nil {
				lb.rb.Release() // half a batch: not given back
				return nil, corrupt("stored row of %s is unreadable: %v", t.info.Path, err)
			}
		}
		rec = finishLookup(plan, lb, len(cl.rows))
	} else {
		rb := array.NewRecordBuilder(memory.DefaultAllocator, t.schema)
		defer rb.Release()
		for _, v := range cl.rows {
			row, err := t.storedRow(v)
			if err == nil {
				_, err = format.DecodeRow(row, t.colTypes, rb.Fields())
			}
			if err != nil {
				return nil, corrupt("stored row of %s is unreadable: %v", t.info.Path, err)
			}
		}
		rec = rb.NewRecordBatch()
	}
	data, err := encodeLogBatch(t, rec, cl.changes)
	if err != nil {
		return nil, err
	}
	return []bucketBatch{{bucket: b, data: data, records: int64(len(cl.rows))}}, nil
}

// encodeRowsDirect encodes a changelog of a few rows of fixed-width
// columns (an UPDATE by key's before and after images) from its compacted
// rows straight into the log batch (format.SmallBatchEncoder.EncodeRows),
// without decoding them into an Arrow record for the encoder to copy out
// again: that record's builders and arrays were most of a one-row commit's
// allocations. ok is false when the encoder declines (other column types,
// a null, a row count it has not encoded yet, rows of an older schema).
func encodeRowsDirect(t *tableState, cl *changelog) ([]byte, bool) {
	if len(cl.rows) > pooledChangelogRows {
		return nil, false
	}
	var buf [pooledChangelogRows][]byte
	rows := buf[:len(cl.rows)]
	for i, v := range cl.rows {
		id, row, err := format.SplitValue(v)
		if err != nil || id != t.info.SchemaID {
			return nil, false // the record path widens or reports it
		}
		rows[i] = row
	}
	return t.logEnc.EncodeRows(rows, t.colTypes, cl.changes, t.info.SchemaID)
}

// pooledChangelogRows is the most changelog rows encodeChangelog decodes
// through a pooled lookup builder (whose buffers come from small slabs),
// and encodeRowsDirect encodes straight from compacted rows: a small
// batch, as format.SmallBatchEncoder counts one.
const pooledChangelogRows = format.SmallBatchRows

// cutChangelog encodes bucket b's changelog of rows src of recs (laid end
// to end; ascending, and changed by the call) with their change types, as
// a log batch per record.
func cutChangelog(t *tableState, b int, src []int32, changes []format.ChangeType, recs []arrow.RecordBatch) ([]bucketBatch, error) {
	var out []bucketBatch
	base := int32(0)
	for _, rec := range recs {
		end := base + int32(rec.NumRows())
		k := 0
		for k < len(src) && src[k] < end {
			src[k] -= base // the record's own row
			k++
		}
		if k > 0 {
			part, err := takeRows(t, rec, src[:k])
			if err != nil {
				return nil, err
			}
			data, err := encodeLogBatch(t, part, changes[:k])
			if err != nil {
				return nil, err
			}
			out = append(out, bucketBatch{bucket: b, data: data, records: int64(k)})
		}
		src, changes, base = src[k:], changes[k:], end
	}
	return out, nil
}

// encodeLogBatch encodes rec's rows with their change types as one log
// batch, and releases rec.
func encodeLogBatch(t *tableState, rec arrow.RecordBatch, changes []format.ChangeType) ([]byte, error) {
	defer rec.Release()
	data, err := t.logEnc.Encode(rec, t.colTypes, changes, t.info.SchemaID)
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
