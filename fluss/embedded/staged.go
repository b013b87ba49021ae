package embedded

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Staged appends (fluss.BulkAppender: COPY FROM STDIN into a log table).
//
// A bulk append encodes each part into log batches as Append does and
// writes them, as they are and unsynced, to a staging file per bucket
// under staging/ (one directory per append), keeping in memory only each
// batch's place and row count: the load's memory is one part, whatever its
// size. A bucket whose log's end the append could claim (tailclaim.go:
// no other claim on it) is not staged: its batches go straight past the
// log's committed length, stamped with their log offsets, and its staging
// file holds them only if another writer took the end back. Commit hands
// the staged files to the committer, which commits them alone: it copies
// each staged bucket's batches to the end of its log, stamping their log
// offsets and commit time (both outside the batch CRC), stamps the commit
// time into a claimed bucket's batches in place, fsyncs the touched logs
// and commits their committed lengths in one synced pebble batch — the
// commit point, as for any write too large for an append record
// (durable.go). Until then the bytes lie past the committed length, where
// no scan reads and Open truncates. Discard cuts a claimed bucket's bytes
// off its log and removes the staging directory, and Open removes whatever
// staging or log tail a crash left.

// stagingDir is where bulk appends stage their batches.
const stagingDir = "staging"

var _ fluss.BulkAppender = (*tableHandle)(nil)

// BeginAppend implements fluss.BulkAppender.
func (h *tableHandle) BeginAppend(ctx context.Context) (fluss.BulkAppend, error) {
	if h.t.info.HasPrimaryKey() {
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "cannot append to primary-key table \"%s\": write it with upserts", h.t.info.Path.Table)
	}
	if err := h.checkLive(); err != nil {
		return nil, err
	}
	dir := filepath.Join(h.s.dir, stagingDir, fmt.Sprintf("%d-%d", h.t.info.TableID, h.s.stagingSeq.Add(1)))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, ioErr(err, "creating %s", dir)
	}
	n := len(h.t.buckets)
	return &stagedAppend{h: h, dir: dir, stagedBatches: newStagedBatches(dir, n), claims: make([]*tailClaim, n), tried: make([]bool, n)}, nil
}

// stagedAppend is one bulk append being staged.
type stagedAppend struct {
	h   *tableHandle
	dir string
	stagedBatches
	ndv *ndvDelta
	// hashes is the sketch's hashing scratch, kept from part to part
	hashes []uint64
	// claims[b] is the append's claim on bucket b's log end (tailclaim.go),
	// tried[b] whether it asked for one; ctx is the current Add's.
	claims []*tailClaim
	tried  []bool
	ctx    context.Context
	err    error // the first failure: later calls report it
	done   bool  // committed or discarded
}

// stagedBatches is log batches staged in a file per bucket under dir, not
// synced (a crash before their commit removes them), read back in order by
// each. The batches are stored as they are, uncompressed, like the staged
// upsert's runs: they are read once, at the commit, mostly from the page
// cache, and an S2 round trip was a quarter of a bulk append's CPU per
// row; the staging takes the batches' own size on disk until the commit
// ends.
type stagedBatches struct {
	dir string
	// per bucket: the staging file, its batches, its size
	files   []*os.File
	batches [][]stagedBatch
	sizes   []int64
	rows    int64
}

func newStagedBatches(dir string, buckets int) stagedBatches {
	return stagedBatches{dir: dir, files: make([]*os.File, buckets), batches: make([][]stagedBatch, buckets), sizes: make([]int64, buckets)}
}

// stagedBatch is one staged log batch: where it is in its staging file,
// its size and its rows.
type stagedBatch struct {
	pos, size, records int64
}

// write stages bbs, each at the end of its bucket's file.
func (sb *stagedBatches) write(t *tableState, bbs []bucketBatch) error {
	for _, bb := range bbs {
		if err := sb.writeOne(t, bb); err != nil {
			return err
		}
	}
	return nil
}

// writeOne stages bb at the end of its bucket's file.
func (sb *stagedBatches) writeOne(t *tableState, bb bucketBatch) error {
	b := bb.bucket
	if sb.files[b] == nil {
		p := filepath.Join(sb.dir, fmt.Sprintf("bucket-%d", b))
		f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return ioErr(err, "creating %s", p)
		}
		sb.files[b] = f
	}
	if _, err := sb.files[b].WriteAt(bb.data, sb.sizes[b]); err != nil {
		return ioErr(err, "staging rows for %s", t.info.Path)
	}
	sb.record(bb)
	return nil
}

// record notes bb as written at the end of its bucket's bytes.
func (sb *stagedBatches) record(bb bucketBatch) {
	b, size := bb.bucket, int64(len(bb.data))
	sb.batches[b] = append(sb.batches[b], stagedBatch{pos: sb.sizes[b], size: size, records: bb.records})
	sb.sizes[b] += size
	sb.rows += bb.records
}

// each calls fn with bucket b's staged batches in order; data is reused
// after fn returns.
func (sb *stagedBatches) each(t *tableState, b int, fn func(data []byte, records int64) error) error {
	var buf []byte
	for _, st := range sb.batches[b] {
		if int64(cap(buf)) < st.size {
			buf = make([]byte, st.size)
		}
		data := buf[:st.size]
		if _, err := sb.files[b].ReadAt(data, st.pos); err != nil {
			return ioErr(err, "reading the staged rows of %s", t.info.Path)
		}
		if err := fn(data, st.records); err != nil {
			return err
		}
	}
	return nil
}

// close closes the staging files (the caller removes dir).
func (sb *stagedBatches) close() {
	for i, f := range sb.files {
		if f != nil {
			_ = f.Close()
			sb.files[i] = nil
		}
	}
}

// Add implements fluss.BulkAppend.
func (a *stagedAppend) Add(ctx context.Context, rec arrow.RecordBatch) error {
	if a.err != nil {
		return a.err
	}
	if a.done {
		return sqlerr.New(sqlerr.InternalError, "bulk append used after it ended")
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	a.ctx = ctx
	a.err = a.add(rec)
	a.ctx = nil
	return a.err
}

func (a *stagedAppend) add(rec arrow.RecordBatch) error {
	t := a.h.t
	if err := a.h.checkLive(); err != nil {
		return err
	}
	conv, err := fluss.ValidateRecordAs(t.info, t.schema, rec)
	if err != nil {
		return err
	}
	defer conv.Release()
	if conv.NumRows() == 0 {
		return nil
	}
	batches, err := encodeAppend(t, conv)
	if err != nil {
		return err
	}
	a.ndv, a.hashes = a.ndv.addRecord(conv, a.hashes)
	for _, bb := range batches {
		if err := a.writeBatch(bb); err != nil {
			return err
		}
	}
	return nil
}

// writeBatch writes bb past its bucket log's end when the append holds
// (or can take) the claim on it, else to the bucket's staging file, after
// the bytes a taken-back claim moved there.
func (a *stagedAppend) writeBatch(bb bucketBatch) error {
	b := bb.bucket
	c := a.claims[b]
	if c == nil && !a.tried[b] {
		a.tried[b] = true
		c = a.claimTail(b)
		a.claims[b] = c
	}
	if c != nil && a.files[b] == nil {
		ok, err := c.write(a.h.s, bb.data, bb.records)
		if err != nil {
			return err
		}
		if ok {
			a.record(bb)
			return nil
		}
		if c.file == nil {
			return sqlerr.New(sqlerr.InternalError, "bulk append to %s lost its staged rows", a.h.t.info.Path)
		}
		a.files[b] = c.file
	}
	return a.writeOne(a.h.t, bb)
}

// Commit implements fluss.BulkAppend.
func (a *stagedAppend) Commit(ctx context.Context) (fluss.WriteResult, error) {
	if a.err != nil {
		a.Discard()
		return fluss.WriteResult{}, a.err
	}
	defer a.Discard()
	if a.rows == 0 {
		return fluss.WriteResult{}, nil
	}
	r := &request{table: a.h.t, kind: reqStaged, staged: a, ndv: a.ndv, done: make(chan result, 1)}
	res, err := a.h.s.submit(ctx, r)
	if err != nil {
		return fluss.WriteResult{}, err
	}
	return fluss.WriteResult{Rows: res.rows}, res.err
}

// Discard implements fluss.BulkAppend.
func (a *stagedAppend) Discard() {
	if a.done {
		return
	}
	a.done = true
	for b, c := range a.claims {
		if c == nil {
			continue
		}
		c.release()
		if c.file != nil && c.file != a.files[b] {
			_ = c.file.Close()
		}
	}
	a.close()
	_ = os.RemoveAll(a.dir)
}

// commitStaged commits a staged append alone (see above) and answers it.
func (s *Store) commitStaged(r *request) {
	s.groups.Add(1)
	r.done <- s.writeStaged(r)
}

func (s *Store) writeStaged(r *request) result {
	t, a := r.table, r.staged
	if err := t.stagedTarget(); err != nil {
		return result{err: err}
	}
	now := s.opts.Now().UnixMilli()
	var order []*bucketWrite
	fail := func(err error) result {
		for _, w := range order {
			_ = w.bl.f.Truncate(w.bl.size)
		}
		for _, c := range a.claims {
			if c != nil {
				c.release() // its bytes cut off the log now, not at Discard
			}
		}
		s.log.Error("staged append failed", "table", t.info.Path.Table, "error", err)
		return result{err: err}
	}
	for b, batches := range a.batches {
		if len(batches) == 0 {
			continue
		}
		bl := t.buckets[b]
		if c := a.claims[b]; c != nil && c.live() {
			// Written in place already (tailclaim.go): the commit time.
			if c.base != bl.size || c.start != bl.next {
				return fail(sqlerr.New(sqlerr.InternalError, "bulk append to %s: its log's end moved under its claim", t.info.Path))
			}
			w := &bucketWrite{t: t, b: b, bl: bl, next: c.next, size: c.size}
			order = append(order, w)
			if err := c.stampCommitTimes(batches, now); err != nil {
				return fail(err)
			}
			continue
		} else if c != nil {
			if c.file == nil {
				return fail(c.err)
			}
			if a.files[b] == nil {
				a.files[b] = c.file
			}
		}
		bl.takeTail() // another append's claim
		w := &bucketWrite{t: t, b: b, bl: bl, next: bl.next}
		order = append(order, w)
		if err := a.each(t, b, w.appendStaged(now)); err != nil {
			return fail(err)
		}
	}
	if err := s.syncLogs(order); err != nil {
		return fail(err)
	}
	batch := s.db.NewBatch()
	defer batch.Close()
	err := s.foldNDV(batch, []*request{r}, []bool{true})
	for _, w := range order {
		if err == nil {
			err = batch.Set(bucketKey(prefixCommitted, t.info.TableID, w.b), encodeCommitted(w.bl.size+w.size, w.next), nil)
		}
	}
	if err == nil {
		err = s.commitBatch(batch, !r.async, true, noMarks) // one request: a lone group
	}
	if err != nil {
		return fail(err)
	}
	s.publish(order)
	for _, c := range a.claims {
		if c != nil {
			c.end() // its bytes are the log's now
		}
	}
	return result{rows: a.rows}
}

// stagedTarget reports why a staged write (committed alone, after the
// table's files were opened) can no longer go to t: an ALTER TABLE or a
// drop since it began.
func (t *tableState) stagedTarget() error {
	t.mu.RLock()
	dropped, altered := t.dropped, t.altered
	t.mu.RUnlock()
	if altered {
		return errAltered(t.info.Path)
	}
	if dropped || t.buckets[0].f == nil {
		return undefinedTable(t.info.Path)
	}
	return nil
}

// appendStaged returns a function writing a staged log batch past the end
// of w's log (and of what w wrote before), stamping its log offset and
// commit time (both outside the batch CRC): unsynced and uncommitted.
func (w *bucketWrite) appendStaged(now int64) func(data []byte, records int64) error {
	return func(data []byte, records int64) error {
		format.SetBaseOffset(data, w.next)
		format.SetCommitTimestamp(data, now)
		if _, err := w.bl.f.WriteAt(data, w.bl.size+w.size); err != nil {
			return ioErr(err, "writing %s", w.bl.path)
		}
		w.next += records
		w.size += int64(len(data))
		return nil
	}
}
