package embedded

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2"
)

// One durable sync per commit group.
//
// A group commit of small writes makes one sync: pebble's write-ahead log
// is the single point of durability. The group's log batches are written
// to the bucket logs without a sync, and the same bytes ride in the group's
// pebble batch as an append record ('a' seq -> where each batch went and
// its bytes) beside the primary-key state and the logs' committed lengths;
// the batch's synced commit (one fdatasync of pebble's WAL) is the commit
// point. A bucket log is made durable later and for many groups at once: a
// checkpoint (after Options.CheckpointBytes of records, and at Close) fsyncs
// every bucket log written since the previous one and then deletes the
// records it covers; its fsyncs run in a goroutine of their own, without
// the committer's token, while later groups commit (checkpointPlan). On Open, before the logs are checked against their
// committed lengths, every append record still in pebble is written again
// at its place (replayAppends): the bytes a crash or a power loss took from
// the page cache come back, bytes that were there are rewritten unchanged
// (a bucket log is only ever appended to, and a record exists only for a
// committed append), and the logs are fsynced before the records go.
//
// A group whose log bytes pass appendRecordMax (a bulk load, a large
// statement) does not copy them into pebble: its bucket logs are fsynced
// before its state commits, as before, two or more syncs whose cost is the
// load's writing, not its commit.
//
// Why pebble's WAL rather than a commit log of our own: the state must be
// logged anyway (pebble's WAL, synced or not, writes it), so a second log
// would write every state change twice; pebble's WAL is already checksummed
// record by record and group-committed, and recovering it is pebble's. The
// cost is that the appended bytes pass through pebble's memtable, where a
// checkpoint mostly deletes them before a flush would write them out. A
// synced group's batch, append record included, is made durable by the
// store's commit log instead (commitlog.go): the same bytes, synced
// without pebble's hand-off to its flush goroutine; pebble's WAL still
// writes them, unsynced, and recovery commits again what it lost.
//
// A store closed cleanly holds no append record (Close checkpoints), so the
// layout version is unchanged: an older sqlgate opens it as before.

const (
	// prefixAppend keys the append records: 'a' seq(8).
	prefixAppend = 'a'
	// appendRecordMax is the most log bytes a group copies into its append
	// record; a larger group fsyncs its bucket logs.
	appendRecordMax = 1 << 20
	// defaultCheckpointBytes is how many bytes of append records
	// accumulate before a checkpoint makes the bucket logs durable and
	// drops them (Options.CheckpointBytes): at most an eighth of pebble's
	// memtable (4 to 16 MiB, memTableSize), so that a checkpoint's
	// deletion mostly meets its records in the memtable, where a flush
	// drops them instead of writing them out, and recovery replays at most
	// about that much. The records a
	// flush meets before their checkpoint (half a window on average) are
	// written out, and compacted away after it: with 2 MiB they were about
	// 60% of the bytes flushed and compacted under one-row commits to a
	// small table (BenchmarkOneRowCommit's sstB/op, 49 -> 16 at 512 KiB),
	// for a bucket-log fsync per checkpoint (at W10's ~500 bytes a commit,
	// one per ~1,000 commits).
	defaultCheckpointBytes = 512 << 10
	// appendEntryHeader is an append entry's header: table(8) bucket(4)
	// position(8) length(8).
	appendEntryHeader = 28
	// appendBufMax is the largest record buffer the committer keeps for
	// the next group's record.
	appendBufMax = 64 << 10
)

// appendLog is the committer's bookkeeping of append records.
type appendLog struct {
	next  uint64 // the next record's sequence number
	first uint64 // the oldest record not yet checkpointed
	bytes int64  // record bytes since the last checkpoint
	// dirty are the bucket logs written since the last checkpoint.
	dirty map[*bucketLog]bool
	// buf is the memory the committer encodes append records in (kept
	// when at most appendBufMax: a group of small writes, every commit).
	buf []byte
	// broken: a checkpoint's fsync failed. The page cache may have
	// dropped the failed pages as if written, so no record is deleted for
	// the rest of the process: the next Open replays them.
	broken atomic.Bool
	// running: a checkpoint's goroutine syncs and deletes (wg waits for
	// it).
	running atomic.Bool
	wg      sync.WaitGroup
}

func appendKey(seq uint64) []byte {
	k := make([]byte, appendKeyLen)
	putAppendKey(k, seq)
	return k
}

// appendKeyLen is an append record key's length.
const appendKeyLen = 9

// putAppendKey is appendKey into k (appendKeyLen bytes).
func putAppendKey(k []byte, seq uint64) {
	k[0] = prefixAppend
	binary.BigEndian.PutUint64(k[1:], seq)
}

// bucketLogPath is bucket b's log file in a table's directory.
func bucketLogPath(tableDir string, b int) string {
	return filepath.Join(tableDir, fmt.Sprintf("bucket-%d.log", b))
}

// groupLogBytes is what a group appends to the bucket logs.
func groupLogBytes(order []*bucketWrite) int64 {
	var n int64
	for _, w := range order {
		n += w.size
	}
	return n
}

// appendRecord encodes the append record of a group's bucket writes, each
// at its log's current end, into rec's memory (grown when short).
func appendRecord(rec []byte, order []*bucketWrite) []byte {
	size := 0
	for _, w := range order {
		size += appendEntryHeader + int(w.size)
	}
	rec = slices.Grow(rec[:0], size)
	for _, w := range order {
		rec = binary.BigEndian.AppendUint64(rec, uint64(w.t.info.TableID))
		rec = binary.BigEndian.AppendUint32(rec, uint32(w.b))
		rec = binary.BigEndian.AppendUint64(rec, uint64(w.bl.size))
		rec = binary.BigEndian.AppendUint64(rec, uint64(w.size))
		for _, c := range w.chunks {
			rec = append(rec, c...)
		}
	}
	return rec
}

// appendEntry is one bucket write of an append record.
type appendEntry struct {
	table  int64
	bucket int
	pos    int64
	data   []byte
}

// parseAppendRecord splits an append record into its entries (data points
// into rec).
func parseAppendRecord(rec []byte) ([]appendEntry, error) {
	var out []appendEntry
	for len(rec) > 0 {
		if len(rec) < appendEntryHeader {
			return nil, errors.New("truncated entry header")
		}
		e := appendEntry{table: int64(binary.BigEndian.Uint64(rec)), bucket: int(binary.BigEndian.Uint32(rec[8:])),
			pos: int64(binary.BigEndian.Uint64(rec[12:]))}
		n := binary.BigEndian.Uint64(rec[20:])
		rec = rec[appendEntryHeader:]
		if n > uint64(len(rec)) || e.pos < 0 {
			return nil, errors.New("entry overruns the record")
		}
		e.data, rec = rec[:n], rec[n:]
		out = append(out, e)
	}
	return out, nil
}

// logGroupAppends writes a group's log batches to the bucket logs without
// a sync and adds their append record to batch, whose synced commit makes
// them durable.
func (s *Store) logGroupAppends(order []*bucketWrite, batch *pebble.Batch) error {
	if err := s.appendLogs(order); err != nil {
		return err
	}
	// The batch copies the record: it is built in the committer's buffer
	// (a group commits at a time), as its key is on the stack.
	rec := appendRecord(s.appends.buf, order)
	if cap(rec) <= appendBufMax {
		s.appends.buf = rec
	}
	var k [appendKeyLen]byte
	putAppendKey(k[:], s.appends.next)
	if err := batch.Set(k[:], rec, nil); err != nil {
		return ioErr(err, "recording the group's log appends")
	}
	s.appends.next++
	s.appends.bytes += int64(len(rec))
	if s.appends.dirty == nil {
		s.appends.dirty = map[*bucketLog]bool{}
	}
	for _, w := range order {
		s.appends.dirty[w.bl] = true
	}
	return nil
}

// maybeCheckpoint starts a checkpoint once enough append records
// accumulated and none is running: its fsyncs run in a goroutine of their
// own, without the committer's token (checkpointPlan). Committer only, its
// token held.
func (s *Store) maybeCheckpoint() {
	if s.appends.bytes < s.opts.CheckpointBytes || s.appends.running.Load() {
		return
	}
	p, ok := s.planCheckpoint()
	if !ok {
		return
	}
	s.appends.running.Store(true)
	s.appends.wg.Add(1)
	go func() {
		defer s.appends.wg.Done()
		defer s.appends.running.Store(false)
		s.runCheckpoint(p)
	}()
}

// checkpoint fsyncs the bucket logs written since the last checkpoint and
// then deletes the append records that covered them, waiting for the one
// running first (Close). Committer only, its token held.
func (s *Store) checkpoint() {
	s.appends.wg.Wait()
	if p, ok := s.planCheckpoint(); ok {
		s.runCheckpoint(p)
	}
}

// checkpointPlan is one checkpoint: the bucket logs to fsync and the
// append records [first, next) to delete after. A checkpoint's fsyncs took
// the committer's token for 1.7-5.3 ms every 150-200 ms under W10 at 8
// clients (perf trace, bench/LEDGER.md 2026-12-06, wal38), every writer
// waiting on them; they need no token: the records they cover were all
// written by groups that ended before the plan, and a group committed
// during them writes records of later sequence numbers and marks its logs
// for the next checkpoint.
type checkpointPlan struct {
	files       []*os.File
	paths       []string
	first, next uint64
}

// planCheckpoint takes what a checkpoint covers out of the committer's
// bookkeeping. Committer only, its token held.
func (s *Store) planCheckpoint() (checkpointPlan, bool) {
	a := &s.appends
	if a.broken.Load() || a.next == a.first {
		return checkpointPlan{}, false
	}
	p := checkpointPlan{first: a.first, next: a.next}
	for bl := range a.dirty {
		if bl.f != nil { // else dropped since: nothing to keep
			p.files = append(p.files, bl.f)
			p.paths = append(p.paths, bl.path)
		}
	}
	a.first = a.next
	a.bytes = 0
	clear(a.dirty)
	return p, true
}

// runCheckpoint fsyncs a plan's bucket logs and deletes its records. A
// sync failure is logged and leaves every record from then on for the next
// Open to replay (broken); a failed deletion leaves the plan's.
func (s *Store) runCheckpoint(p checkpointPlan) {
	if err := s.syncFiles(p.files, p.paths); err != nil {
		s.appends.broken.Store(true)
		s.log.Error("checkpoint: a bucket log sync failed; its appends stay recorded for the next start to replay", "error", err)
		return
	}
	b := s.db.NewBatch()
	defer b.Close()
	err := b.DeleteRange(appendKey(p.first), appendKey(p.next), nil)
	if err == nil {
		// Not synced: a lost deletion only replays bytes already durable.
		err = b.Commit(pebble.NoSync)
	}
	if err != nil {
		s.log.Error("checkpoint: deleting append records failed; they will be replayed", "error", err)
	}
}

// syncFiles fsyncs a checkpoint's bucket logs, in parallel when there are
// several. A log closed since the plan (its table dropped or replaced)
// has nothing left to keep.
func (s *Store) syncFiles(files []*os.File, paths []string) error {
	one := func(i int) error {
		err := s.sync(paths[i], SyncFull, files[i].Sync)
		if err != nil && !errors.Is(err, os.ErrClosed) {
			return ioErr(err, "syncing %s", paths[i])
		}
		return nil
	}
	if len(files) == 1 {
		return one(0)
	}
	errs := make([]error, len(files))
	var wg sync.WaitGroup
	for i := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = one(i)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// replayAppends writes every append record still in pebble back into the
// bucket logs of live tables, fsyncs them and deletes the records. It runs
// on Open before the logs are checked against their committed lengths,
// which the records' own batches set.
func (s *Store) replayAppends() error {
	live := map[int64]bool{}
	for _, e := range s.catalog.Tables {
		live[e.TableID] = true
	}
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: []byte{prefixAppend}, UpperBound: []byte{prefixAppend + 1}})
	if err != nil {
		return ioErr(err, "reading the log append records")
	}
	files := map[string]*os.File{}
	defer func() {
		for _, f := range files {
			_ = f.Close()
		}
	}()
	records := 0
	for it.First(); it.Valid(); it.Next() {
		records++
		if len(it.Key()) != 9 {
			_ = it.Close()
			return corrupt("log append record key %x is malformed", it.Key())
		}
		s.appends.next = max(s.appends.next, binary.BigEndian.Uint64(it.Key()[1:])+1)
		ents, err := parseAppendRecord(it.Value())
		if err != nil {
			_ = it.Close()
			return corrupt("log append record %x is malformed: %v", it.Key(), err)
		}
		for _, e := range ents {
			if !live[e.table] {
				continue // dropped since: its files are gone or going
			}
			p := bucketLogPath(s.tableDir(e.table), e.bucket)
			f := files[p]
			if f == nil {
				if f, err = os.OpenFile(p, os.O_RDWR, 0); errors.Is(err, os.ErrNotExist) {
					continue // openTable reports a missing log
				} else if err != nil {
					_ = it.Close()
					return ioErr(err, "opening %s", p)
				}
				files[p] = f
			}
			if _, err := f.WriteAt(e.data, e.pos); err != nil {
				_ = it.Close()
				return ioErr(err, "replaying appends into %s", p)
			}
		}
	}
	if err := it.Close(); err != nil {
		return ioErr(err, "reading the log append records")
	}
	if records == 0 {
		return nil
	}
	for p, f := range files {
		if err := s.sync(p, SyncFull, f.Sync); err != nil {
			return ioErr(err, "syncing %s", p)
		}
	}
	b := s.db.NewBatch()
	defer b.Close()
	if err := b.DeleteRange([]byte{prefixAppend}, []byte{prefixAppend + 1}, nil); err != nil {
		return ioErr(err, "deleting replayed append records")
	}
	if err := b.Commit(pebble.Sync); err != nil {
		return ioErr(err, "deleting replayed append records")
	}
	s.appends.first = s.appends.next
	s.log.Info("replayed log appends", "records", records, "files", len(files), "next", strconv.FormatUint(s.appends.next, 10))
	return nil
}

// recordAppends says whether a group's log appends ride in its state
// batch: when there are some, they are small, and the batch will be
// committed, not ingested.
func (s *Store) recordAppends(order []*bucketWrite, batch *pebble.Batch) bool {
	n := groupLogBytes(order)
	if n == 0 || n > appendRecordMax {
		return false
	}
	return s.opts.IngestBytes <= 0 || batch.Len()+int(n)+len(order)*appendEntryHeader+64 < s.opts.IngestBytes
}
