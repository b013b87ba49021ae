package embedded

import (
	"bufio"
	"bytes"
	"container/heap"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/objstorage/objstorageprovider"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/sqlgate/sqlgate/fluss/format"
)

// Staged upserts: a bulk upsert (bulk.go) larger than Options.StageBytes.
//
// While its encoded parts stay under the budget a bulk upsert is held in
// memory and committed as one group-commit request (the fast path of a
// million-row COPY). Past it, the worker merges the sorted runs it holds
// into one, writes it to a run file under staging/ (key, then value, in key
// order; equal keys in row order; uncompressed) and forgets the parts: the
// upsert's memory is the budget, whatever its size. Commit keeps what is
// left in memory as the newest run (keepTail: not written to a file only
// to be read back) and hands the runs to the committer, which commits them
// alone (like a staged append): it merges the runs by key (ties by run, so
// the rows of one key stay in the order they were written) against the
// table's stored state read with one iterator, and from that one ordered
// pass
//
//   - writes the changelog (an insert for a new key, an update pair for an
//     existing one) to the end of the bucket logs, a log batch per
//     stagedLogRows rows of a bucket, in key order within the load;
//   - writes the new state (each key's last row) into sstables of at most
//     stagedSSTBytes, which do not overlap, since the keys come in order;
//
// then fsyncs the logs and ingests the sstables, with the new committed
// lengths in one more sstable, in one atomic pebble Ingest: the commit
// point.
//
// Most bulk loads insert new keys, each once. For them the changelog is the
// rows themselves as inserts, and each spill also stages it that way,
// encoded from the parts' Arrow records while they are at hand (a log batch
// per part and bucket, uncompressed beside the runs); the commit's merge
// then logs nothing and copies the staged inserts to the logs. Decoding
// every stored row back into Arrow to log it was two thirds of the
// commit's merge in a profile of W8's million-row COPY (bench/LEDGER.md). A key stored or written
// twice makes the merge log from that key on as above, and a second pass
// over the runs logs the keys before it as the inserts they were; a run
// holding a key twice stops the staging of inserts at its spill. Before it the logs' new bytes lie past their committed lengths
// (truncated by Open), the run files are removed by Discard or, after a
// crash, by Open (staging/), and the sstables are removed or, after a
// crash, by Open (ingest/): nothing of the upsert is visible or left.
//
// Sorted runs were chosen over writing the changelog as the rows come (the
// staged append's way): a primary-key table's changelog depends on the
// state when the upsert commits (insert or update), and its state must be
// applied in key order to be ingested, so the rows have to be sorted by key
// before anything of them can be written; the runs are that sort, spilled.

// defaultStageBytes is the encoded size of a bulk upsert held in memory
// before it is staged on disk (Options.StageBytes). The memory it takes is
// about three times that (the rows' slices, the sort's entries, the
// records they came from), and twice that again before a collection: 32
// MiB keeps a load of any size well under a few hundred MiB.
const defaultStageBytes = 32 << 20

// runReadBuf is the read buffer of each run during the commit's merge, and
// runWriteBuf the write buffer of a spill.
const (
	runReadBuf  = 64 << 10
	runWriteBuf = 256 << 10
)

// stagedLogRows is how many rows of one bucket a staged upsert's commit
// gathers into a changelog batch.
const stagedLogRows = 16384

// stagedSSTBytes is the size at which a staged upsert's commit starts a new
// sstable of the state.
const stagedSSTBytes = 128 << 20

// upsertStage is a bulk upsert's sorted runs on disk.
type upsertStage struct {
	dir  string
	runs []string // oldest first
	rows int64
	// spec says inserts is the changelog of every row staged, as it would
	// be if each row inserted a new key: encoded from the rows' Arrow
	// records by spill, while they are at hand. It stops (and inserts is
	// no longer written) at a run with a key twice; the commit uses it
	// when no key of the load was stored or written twice.
	spec    bool
	inserts stagedBatches
	// tail is the rows held in memory at Commit, the newest run (keepTail).
	tail *memRun
}

// stageBudget is the bulk upsert memory from which it stages (0: never).
func (s *Store) stageBudget() int64 {
	switch {
	case s.opts.StageBytes < 0:
		return 0
	case s.opts.StageBytes == 0:
		return defaultStageBytes
	}
	return s.opts.StageBytes
}

// spill writes the parts held in memory as one sorted run and forgets them.
func (b *bulkUpsert) spill() error {
	if b.n == 0 {
		return nil
	}
	s, t := b.h.s, b.h.t
	if b.stage == nil {
		dir := filepath.Join(s.dir, stagingDir, fmt.Sprintf("%d-u%d", t.info.TableID, s.stagingSeq.Add(1)))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return ioErr(err, "creating %s", dir)
		}
		b.stage = &upsertStage{dir: dir, spec: true, inserts: newStagedBatches(dir, len(t.buckets))}
	}
	p := filepath.Join(b.stage.dir, fmt.Sprintf("run-%06d", len(b.stage.runs)))
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return ioErr(err, "creating %s", p)
	}
	// Not synced: a run matters only until the commit that reads it, and
	// a crash before that removes it. Not compressed: a run is read once,
	// by the commit that soon follows, from the page cache, and deleted;
	// S2 on the way out and back was a tenth of the CPU of a million-row
	// Flight ingest in process (flightsql BenchmarkIngest pk/flight's
	// profile, bench/LEDGER.md 2026-12-03) for bytes that stay on disk a
	// few seconds.
	w := bufio.NewWriterSize(f, runWriteBuf)
	sorted := b.mergeAll()
	b.checkRepeats(sorted)
	var hdr [2 * binary.MaxVarintLen64]byte
	for _, e := range sorted {
		pr := b.row(e.i)
		n := binary.PutUvarint(hdr[:], uint64(len(pr.key)))
		n += binary.PutUvarint(hdr[n:], uint64(len(pr.row)))
		_, _ = w.Write(hdr[:n])
		_, _ = w.Write(pr.key)
		if _, err = w.Write(pr.row); err != nil {
			break
		}
	}
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return ioErr(err, "staging rows for %s", t.info.Path)
	}
	if b.stage.spec {
		if err := b.stageInserts(); err != nil {
			return err
		}
	}
	b.stage.runs = append(b.stage.runs, p)
	b.stage.rows += int64(len(sorted))
	b.pool.put(sorted)
	b.runs = nil
	for _, r := range b.recs {
		r.Release()
	}
	b.recs, b.rows, b.starts, b.n, b.bytes = nil, nil, nil, 0, 0
	return nil
}

// checkRepeats gives up the staged inserts (stopSpec) if sorted, the parts
// held in memory in key order, has a key twice. Keys are compared whole only
// where the prefixes the sort kept tie: reading the keys again cost a third
// of the spill.
func (b *bulkUpsert) checkRepeats(sorted []keyEntry) {
	for k := 1; k < len(sorted) && b.stage.spec; k++ {
		p, e := sorted[k-1], sorted[k]
		if p.hi == e.hi && p.lo == e.lo && bytes.Equal(b.key(p.i), b.key(e.i)) {
			b.stage.stopSpec()
		}
	}
}

// keepTail makes the parts held in memory at Commit the stage's newest run
// as they are (memRun), instead of spilling them to a run file that the
// commit would read straight back: the commit's merge reads them from
// memory. Their inserts are staged as a spill's are.
func (b *bulkUpsert) keepTail() error {
	if b.n == 0 {
		return nil
	}
	sorted := b.mergeAll()
	b.checkRepeats(sorted)
	if b.stage.spec {
		if err := b.stageInserts(); err != nil {
			return err
		}
	}
	// The run keeps the parts' rows (Go memory, not the records'): the
	// records are not needed past their staged inserts.
	b.stage.tail = &memRun{sorted: sorted, parts: b.rows, starts: b.starts}
	b.stage.rows += int64(len(sorted))
	// Nor are the sort's pooled slices: no part comes after these. What
	// the merge holds beside them is what a last spill freed before it
	// (bench/LEDGER.md 2026-12-03: the server's peak RSS over a 2M-row
	// COPY into a primary-key table).
	for _, r := range b.recs {
		r.Release()
	}
	b.recs, b.runs, b.pool = nil, nil, entryPool{}
	return nil
}

// stageInserts stages the changelog of the parts held as inserts, a log
// batch per part and bucket: the records are at hand here, and encoding
// them costs a fraction of decoding the stored rows back into Arrow at the
// commit (bench/LEDGER.md, W8).
func (b *bulkUpsert) stageInserts() error {
	t := b.h.t
	srcs := make([][]int32, len(t.buckets))
	var inserts []format.ChangeType
	for k, rec := range b.recs {
		rows := b.rows[k]
		for i := range srcs {
			srcs[i] = srcs[i][:0]
		}
		for i := range rows {
			srcs[rows[i].bucket] = append(srcs[rows[i].bucket], int32(i))
		}
		for len(inserts) < len(rows) {
			inserts = append(inserts, format.Insert)
		}
		for bucket, src := range srcs {
			if len(src) == 0 {
				continue
			}
			bbs, err := cutChangelog(t, bucket, src, inserts[:len(src)], []arrow.RecordBatch{rec})
			if err == nil {
				err = b.stage.inserts.write(t, bbs)
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// stopSpec gives up the staged inserts: some key comes twice.
func (st *upsertStage) stopSpec() {
	st.spec = false
	st.inserts.close()
	for b := range st.inserts.files {
		_ = os.Remove(filepath.Join(st.inserts.dir, fmt.Sprintf("bucket-%d", b)))
	}
}

// discardStage removes a staged upsert's runs.
func (b *bulkUpsert) discardStage() {
	if b.stage != nil {
		b.stage.inserts.close()
		_ = os.RemoveAll(b.stage.dir)
		b.stage = nil
	}
}

// commitStage commits a staged upsert: the runs, and the parts still in
// memory as the newest (keepTail), alone in the committer
// (commitStagedUpsert).
func (b *bulkUpsert) commitStage(ctx context.Context) (int64, error) {
	defer b.discardStage()
	if err := b.keepTail(); err != nil {
		return 0, err
	}
	if err := b.h.checkLive(); err != nil {
		return 0, err
	}
	r := &request{table: b.h.t, kind: reqStagedUpsert, upstage: b.stage, ndv: b.ndv, done: make(chan result, 1)}
	res, err := b.h.s.submit(ctx, r)
	if err != nil {
		return 0, err
	}
	return res.rows, res.err
}

// commitStagedUpsert commits a staged upsert alone and answers it.
func (s *Store) commitStagedUpsert(r *request) {
	s.groups.Add(1)
	// The table's columnar image goes stale by itself: its validity is
	// the bucket logs' committed lengths, which this commit moves.
	res := s.writeStagedUpsert(r)
	r.done <- res
}

func (s *Store) writeStagedUpsert(r *request) result {
	t, st := r.table, r.upstage
	if err := t.stagedTarget(); err != nil { // staged.go
		return result{err: err}
	}
	c := &stagedCommit{s: s, t: t, now: s.opts.Now().UnixMilli(), writes: make([]*bucketWrite, len(t.buckets)), logs: make([]*stagedLog, len(t.buckets))}
	defer c.close()
	rows, err := c.run(st)
	if err == nil {
		err = c.commit(r)
	}
	if err != nil {
		for _, w := range c.order {
			_ = w.bl.f.Truncate(w.bl.size)
		}
		s.log.Error("staged upsert failed", "table", t.info.Path.Table, "error", err)
		return result{err: err}
	}
	s.publish(c.order)
	return result{rows: rows}
}

// stagedCommit is the committer's work on one staged upsert.
type stagedCommit struct {
	s      *Store
	t      *tableState
	now    int64
	writes []*bucketWrite // per bucket, once written
	order  []*bucketWrite
	logs   []*stagedLog // per bucket: the changelog batch being built
	sst    *sstable.Writer
	sstLen int64    // bytes of keys and values written into sst
	paths  []string // the state's sstables, the one being written last
}

// stagedLog is one bucket's changelog batch being built.
type stagedLog struct {
	rb      *array.RecordBuilder
	changes []format.ChangeType
}

func (c *stagedCommit) close() {
	for _, l := range c.logs {
		if l != nil {
			l.rb.Release()
		}
	}
	if c.sst != nil {
		_ = c.sst.Close()
	}
	removeFiles(c.paths) // what Ingest did not move
}

// openRuns opens the stage's runs, merged by key: the files, then the tail
// held in memory (the newest).
func (c *stagedCommit) openRuns(st *upsertStage) (*runHeap, error) {
	h := &runHeap{}
	n := len(st.runs)
	if st.tail != nil {
		n++
	}
	for i := range n {
		var rr *runReader
		var err error
		if i < len(st.runs) {
			rr, err = openRun(st.runs[i], i)
		} else {
			rr = &runReader{mem: st.tail, idx: i}
		}
		if err == nil {
			h.all = append(h.all, rr)
			var ok bool
			if ok, err = rr.next(); ok {
				h.rs = append(h.rs, rr)
			}
		}
		if err != nil {
			h.close()
			return nil, ioErr(err, "reading the staged rows of %s", c.t.info.Path)
		}
	}
	heap.Init(h)
	return h, nil
}

// advance moves the heap's first run to its next entry.
func (c *stagedCommit) advance(h *runHeap) error {
	ok, err := h.rs[0].next()
	if err != nil {
		return ioErr(err, "reading the staged rows of %s", c.t.info.Path)
	}
	if ok {
		heap.Fix(h, 0)
	} else {
		heap.Pop(h)
	}
	return nil
}

// run merges the runs against the stored state, writing the changelog to
// the logs and the state to sstables, and returns the rows written.
//
// When the stage holds its rows' changelog as inserts (upsertStage.spec),
// the merge logs nothing while every key is new and comes once: at the end
// the staged inserts are the changelog, copied to the logs. At the first key
// that is stored or comes twice it logs from there on as usual, and a
// second pass over the runs logs the keys before that one as the inserts
// they were (a new key's only row each).
func (c *stagedCommit) run(st *upsertStage) (int64, error) {
	t := c.t
	h, err := c.openRuns(st)
	if err != nil {
		return 0, err
	}
	defer h.close()
	p := tablePrefix(prefixData, t.info.TableID)
	it, err := c.s.db.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: prefixEnd(p)})
	if err != nil {
		return 0, ioErr(err, "reading the state of %s", t.info.Path)
	}
	defer it.Close()
	positioned, exhausted := false, false
	var key, old []byte
	var rows int64
	spec := st.spec
	var upto []byte // the key at which spec failed
	// The state's sstables are written by a goroutine of their own, in
	// chunks, while the merge goes on (the two are about even).
	sw := c.startStateFeeder()
	defer sw.stop()
	for h.Len() > 0 {
		key = append(key[:0], h.rs[0].key...)
		// The key's stored value, by one iterator moving forward.
		had := false
		old = old[:0]
		if !exhausted {
			if !positioned || bytes.Compare(it.Key(), key) < 0 {
				exhausted = !it.SeekGE(key)
				positioned = true
			}
			if !exhausted && bytes.Equal(it.Key(), key) {
				old, had = append(old, it.Value()...), true
			}
		}
		bucket := int(binary.BigEndian.Uint32(key[9:dataKeyPrefix]))
		first := true
		for h.Len() > 0 && bytes.Equal(h.rs[0].key, key) {
			rr := h.rs[0]
			if spec && had {
				// Stored, or its second row: the staged inserts are not
				// the changelog.
				spec, upto = false, append([]byte(nil), key...)
				if !first {
					// The key's first row, not logged yet, was its insert.
					if err := c.logRow(bucket, format.Insert, old); err != nil {
						return 0, err
					}
				}
			}
			first = false
			if spec {
				// Logged by the staged inserts.
			} else if had {
				if err := c.logRow(bucket, format.UpdateBefore, old); err != nil {
					return 0, err
				}
				if err := c.logRow(bucket, format.UpdateAfter, rr.val); err != nil {
					return 0, err
				}
			} else if err := c.logRow(bucket, format.Insert, rr.val); err != nil {
				return 0, err
			}
			old, had = append(old[:0], rr.val...), true
			rows++
			if err := c.advance(h); err != nil {
				return 0, err
			}
		}
		sw.add(key, old)
	}
	if err := it.Error(); err != nil {
		return 0, ioErr(err, "reading the state of %s", t.info.Path)
	}
	switch {
	case spec:
		if err := c.copyInserts(&st.inserts); err != nil {
			return 0, err
		}
	case upto != nil:
		if err := c.logInserts(st, upto); err != nil {
			return 0, err
		}
	}
	for b := range c.logs {
		if err := c.flushLog(b); err != nil {
			return 0, err
		}
	}
	if err := sw.finish(); err != nil {
		return 0, err
	}
	if c.sst != nil {
		err := c.sst.Close()
		c.sst = nil
		if err != nil {
			return 0, ioErr(err, "writing the state of %s", t.info.Path)
		}
	}
	return rows, nil
}

// logRow adds one changelog row (a stored value) to its bucket's batch,
// writing the batch to the log once it is full.
func (c *stagedCommit) logRow(b int, ct format.ChangeType, v []byte) error {
	t := c.t
	l := c.logs[b]
	if l == nil {
		l = &stagedLog{rb: array.NewRecordBuilder(memory.DefaultAllocator, t.schema)}
		c.logs[b] = l
	}
	row, err := t.storedRow(v)
	if err == nil {
		_, err = format.DecodeRow(row, t.colTypes, l.rb.Fields())
	}
	if err != nil {
		return corrupt("stored row of %s is unreadable: %v", t.info.Path, err)
	}
	l.changes = append(l.changes, ct)
	if len(l.changes) >= stagedLogRows {
		return c.flushLog(b)
	}
	return nil
}

// flushLog writes bucket b's batch being built, if any, past the end of
// its log (unsynced, uncommitted).
func (c *stagedCommit) flushLog(b int) error {
	l := c.logs[b]
	if l == nil || len(l.changes) == 0 {
		return nil
	}
	t := c.t
	rows := len(l.changes)
	data, err := encodeLogBatch(t, l.rb.NewRecordBatch(), l.changes)
	if err != nil {
		return err
	}
	l.changes = l.changes[:0]
	return c.write(b).appendStaged(c.now)(data, int64(rows))
}

// write is bucket b's write, begun on first use.
func (c *stagedCommit) write(b int) *bucketWrite {
	w := c.writes[b]
	if w == nil {
		bl := c.t.buckets[b]
		w = &bucketWrite{t: c.t, b: b, bl: bl, next: bl.next}
		c.writes[b] = w
		c.order = append(c.order, w)
	}
	return w
}

// copyInserts copies the staged inserts to the end of the bucket logs.
func (c *stagedCommit) copyInserts(sb *stagedBatches) error {
	for b, batches := range sb.batches {
		if len(batches) > 0 {
			if err := sb.each(c.t, b, c.write(b).appendStaged(c.now)); err != nil {
				return err
			}
		}
	}
	return nil
}

// logInserts logs, as inserts, the rows of the runs whose keys are before
// upto: keys the merge found new and once each.
func (c *stagedCommit) logInserts(st *upsertStage, upto []byte) error {
	h, err := c.openRuns(st)
	if err != nil {
		return err
	}
	defer h.close()
	for h.Len() > 0 && bytes.Compare(h.rs[0].key, upto) < 0 {
		key := h.rs[0].key
		if err := c.logRow(int(binary.BigEndian.Uint32(key[9:dataKeyPrefix])), format.Insert, h.rs[0].val); err != nil {
			return err
		}
		if err := c.advance(h); err != nil {
			return err
		}
	}
	return nil
}

// setState writes a key's new state into the sstable being written,
// starting a new one past stagedSSTBytes.
func (c *stagedCommit) setState(key, value []byte) error {
	s := c.s
	if c.sst != nil && c.sstLen >= stagedSSTBytes {
		err := c.sst.Close()
		c.sst = nil
		if err != nil {
			return ioErr(err, "writing the state of %s", c.t.info.Path)
		}
	}
	if c.sst == nil {
		dir := filepath.Join(s.dir, ingestDir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return ioErr(err, "creating %s", dir)
		}
		p := filepath.Join(dir, fmt.Sprintf("%06d.sst", s.ingestSeq.Add(1)))
		f, err := s.pebbleOpts.FS.Create(p, vfs.WriteCategoryUnspecified)
		if err != nil {
			return ioErr(err, "creating %s", p)
		}
		c.paths = append(c.paths, p)
		c.sst = sstable.NewWriter(objstorageprovider.NewFileWritable(f), s.pebbleOpts.MakeWriterOptions(0, s.db.TableFormat()))
		c.sstLen = 0
	}
	c.sstLen += int64(len(key) + len(value))
	if err := c.sst.Set(key, value); err != nil {
		return ioErr(err, "writing the state of %s", c.t.info.Path)
	}
	return nil
}

// commit syncs the logs and ingests the state's sstables with the new
// committed lengths and sketches: the commit point.
func (c *stagedCommit) commit(r *request) error {
	s, t := c.s, c.t
	if err := s.syncLogs(c.order); err != nil {
		return err
	}
	meta := &bulkState{}
	err := s.foldNDV(meta, []*request{r}, []bool{true})
	for _, w := range c.order {
		if err == nil {
			err = meta.Set(bucketKey(prefixCommitted, t.info.TableID, w.b), encodeCommitted(w.bl.size+w.size, w.next), nil)
		}
	}
	if err != nil {
		return ioErr(err, "committing the state of %s", t.info.Path)
	}
	groups, _ := meta.groups()
	paths, err := s.buildSSTables(groups)
	c.paths = append(c.paths, paths...)
	if err != nil {
		return ioErr(err, "committing the state of %s", t.info.Path)
	}
	if len(c.paths) == 0 {
		return nil
	}
	s.syncWAL() // asynccommit.go: never on top of unsynced commits
	s.iters.beginWrite()
	err = s.db.Ingest(context.Background(), c.paths)
	s.iters.endWrite()
	if err != nil {
		return ioErr(err, "ingesting the state of %s", t.info.Path)
	}
	s.settle.schedule(t.info.TableID)
	return nil
}

// runReader reads one run's entries in order: a run file's, or the
// stage's tail in memory (mem).
type runReader struct {
	f        *os.File
	r        *bufio.Reader
	mem      *memRun
	at       int // mem's next entry
	idx      int // the run's age: older runs first on equal keys
	key, val []byte
}

// memRun is a staged upsert's rows held in memory at Commit, in key order
// (keepTail): entries numbered as the parts' rows, which starts number.
type memRun struct {
	sorted []keyEntry
	parts  [][]pkRow
	starts []int32
}

func openRun(p string, idx int) (*runReader, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	return &runReader{f: f, r: bufio.NewReaderSize(f, runReadBuf), idx: idx}, nil
}

// next reads the next entry into key and val; false at the end. A memory
// run's key and val are its rows' own bytes, which nothing writes to.
func (rr *runReader) next() (bool, error) {
	if m := rr.mem; m != nil {
		if rr.at >= len(m.sorted) {
			return false, nil
		}
		pr := rowOf(m.parts, m.starts, m.sorted[rr.at].i)
		rr.key, rr.val = pr.key, pr.row
		rr.at++
		return true, nil
	}
	kl, err := binary.ReadUvarint(rr.r)
	if errors.Is(err, io.EOF) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	vl, err := binary.ReadUvarint(rr.r)
	if err != nil {
		return false, err
	}
	rr.key = grow(rr.key, int(kl))
	rr.val = grow(rr.val, int(vl))
	if _, err := io.ReadFull(rr.r, rr.key); err != nil {
		return false, err
	}
	if _, err := io.ReadFull(rr.r, rr.val); err != nil {
		return false, err
	}
	return true, nil
}

// grow returns b resized to n bytes, reusing its memory when it can.
func grow(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}

// runHeap orders run readers by their current key, then by age.
type runHeap struct {
	rs  []*runReader // those not at their end
	all []*runReader
}

func (h *runHeap) Len() int { return len(h.rs) }
func (h *runHeap) Less(i, j int) bool {
	if c := bytes.Compare(h.rs[i].key, h.rs[j].key); c != 0 {
		return c < 0
	}
	return h.rs[i].idx < h.rs[j].idx
}
func (h *runHeap) Swap(i, j int) { h.rs[i], h.rs[j] = h.rs[j], h.rs[i] }
func (h *runHeap) Push(x any)    { h.rs = append(h.rs, x.(*runReader)) }
func (h *runHeap) Pop() any {
	x := h.rs[len(h.rs)-1]
	h.rs = h.rs[:len(h.rs)-1]
	return x
}

func (h *runHeap) close() {
	for _, rr := range h.all {
		if rr.f != nil {
			_ = rr.f.Close()
		}
	}
}

// stateChunk is a run of state entries, keys and values laid end to end.
type stateChunk struct {
	buf  []byte
	ends []int // per entry: key end, value end
}

// stateChunkBytes is the size at which a chunk goes to the writer.
const stateChunkBytes = 1 << 20

// stateFeeder hands the merge's state entries to a goroutine that writes
// them into the sstables (setState), a chunk at a time.
type stateFeeder struct {
	c     *stagedCommit
	cur   *stateChunk
	full  chan *stateChunk
	free  chan *stateChunk
	done  chan error
	ended bool
}

func (c *stagedCommit) startStateFeeder() *stateFeeder {
	w := &stateFeeder{c: c, full: make(chan *stateChunk, 2), free: make(chan *stateChunk, 3), done: make(chan error, 1)}
	for range 3 {
		w.free <- &stateChunk{}
	}
	w.cur = <-w.free
	go func() {
		var err error
		for ch := range w.full {
			if err == nil {
				err = w.write(ch)
			}
			ch.buf, ch.ends = ch.buf[:0], ch.ends[:0]
			w.free <- ch
		}
		w.done <- err
	}()
	return w
}

func (w *stateFeeder) write(ch *stateChunk) error {
	start := 0
	for i := 0; i < len(ch.ends); i += 2 {
		k, v := ch.ends[i], ch.ends[i+1]
		if err := w.c.setState(ch.buf[start:k], ch.buf[k:v]); err != nil {
			return err
		}
		start = v
	}
	return nil
}

// add queues one entry (copied).
func (w *stateFeeder) add(key, value []byte) {
	ch := w.cur
	ch.buf = append(ch.buf, key...)
	ch.ends = append(ch.ends, len(ch.buf))
	ch.buf = append(ch.buf, value...)
	ch.ends = append(ch.ends, len(ch.buf))
	if len(ch.buf) < stateChunkBytes {
		return
	}
	// A failed writer goes on taking chunks (and drops them) until
	// finish or stop: its error comes back from finish.
	w.full <- ch
	w.cur = <-w.free
}

// finish writes what is queued and returns the writer's error.
func (w *stateFeeder) finish() error {
	w.ended = true
	if len(w.cur.ends) > 0 {
		w.full <- w.cur
	}
	close(w.full)
	return <-w.done
}

// stop ends the writer if finish did not (a failed merge).
func (w *stateFeeder) stop() {
	if !w.ended {
		w.ended = true
		close(w.full)
		<-w.done
	}
}
