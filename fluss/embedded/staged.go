package embedded

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/klauspost/compress/s2"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Staged appends (fluss.BulkAppender: COPY FROM STDIN into a log table).
//
// A bulk append encodes each part into log batches as Append does and
// writes them, S2-compressed and unsynced, to a staging file per bucket
// under staging/ (one directory per append), keeping in memory only each
// batch's place and row count: the load's memory is one part, whatever its
// size. Commit hands
// the staged files to the committer, which commits them alone: it copies
// each bucket's batches to the end of its log, stamping their log offsets
// and commit time (both outside the batch CRC), fsyncs the touched logs and
// commits their committed lengths in one synced pebble batch — the commit
// point, as for any write too large for an append record (durable.go).
// Until then the copied bytes lie past the committed length, where no scan
// reads and Open truncates. Discard removes the staging directory, and Open
// removes whatever staging a crash left.

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
	return &stagedAppend{h: h, dir: dir, files: make([]*os.File, n), batches: make([][]stagedBatch, n), sizes: make([]int64, n)}, nil
}

// stagedAppend is one bulk append being staged.
type stagedAppend struct {
	h   *tableHandle
	dir string
	// per bucket: the staging file, its batches, its size
	files   []*os.File
	batches [][]stagedBatch
	sizes   []int64
	rows    int64
	ndv     *ndvDelta
	zbuf    []byte // compression scratch
	err     error  // the first failure: later calls report it
	done    bool   // committed or discarded
}

// stagedBatch is one staged log batch: where it is in its staging file,
// its size there (S2-compressed: the staging holds a load's bytes beside
// the log until the commit ends), its size decoded (raw) and its rows.
type stagedBatch struct {
	pos, size, raw, records int64
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
	a.err = a.add(rec)
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
	a.ndv = a.ndv.fold(sketchRecord(conv, nil))
	for _, bb := range batches {
		b := bb.bucket
		if a.files[b] == nil {
			p := filepath.Join(a.dir, fmt.Sprintf("bucket-%d", b))
			if a.files[b], err = os.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644); err != nil {
				return ioErr(err, "creating %s", p)
			}
		}
		a.zbuf = s2.Encode(a.zbuf[:cap(a.zbuf)], bb.data)
		if _, err := a.files[b].WriteAt(a.zbuf, a.sizes[b]); err != nil {
			return ioErr(err, "staging rows for %s", t.info.Path)
		}
		size := int64(len(a.zbuf))
		a.batches[b] = append(a.batches[b], stagedBatch{pos: a.sizes[b], size: size, raw: int64(len(bb.data)), records: bb.records})
		a.sizes[b] += size
		a.rows += bb.records
	}
	return nil
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
	for _, f := range a.files {
		if f != nil {
			_ = f.Close()
		}
	}
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
		s.log.Error("staged append failed", "table", t.info.Path.Table, "error", err)
		return result{err: err}
	}
	var buf, zbuf []byte
	for b, batches := range a.batches {
		if len(batches) == 0 {
			continue
		}
		bl := t.buckets[b]
		w := &bucketWrite{t: t, b: b, bl: bl, next: bl.next}
		order = append(order, w)
		for _, sb := range batches {
			if int64(cap(zbuf)) < sb.size {
				zbuf = make([]byte, sb.size)
			}
			if _, err := a.files[b].ReadAt(zbuf[:sb.size], sb.pos); err != nil {
				return fail(ioErr(err, "reading the staged rows of %s", t.info.Path))
			}
			if int64(cap(buf)) < sb.raw {
				buf = make([]byte, sb.raw)
			}
			data, err := s2.Decode(buf[:sb.raw], zbuf[:sb.size])
			if err != nil || int64(len(data)) != sb.raw {
				return fail(corrupt("staged rows of %s are damaged: %v", t.info.Path, err))
			}
			format.SetBaseOffset(data, w.next)
			format.SetCommitTimestamp(data, now)
			if _, err := bl.f.WriteAt(data, bl.size+w.size); err != nil {
				return fail(ioErr(err, "writing %s", bl.path))
			}
			w.next += sb.records
			w.size += sb.raw
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
		err = s.commitBatch(batch, !r.async)
	}
	if err != nil {
		return fail(err)
	}
	s.publish(order)
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
