package embedded

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"

	"github.com/cockroachdb/pebble/v2"
)

// The synced commit's log (commit.wal).
//
// A synced pebble commit hands its write-ahead log write and fdatasync to
// pebble's flush goroutine (record.LogWriter's flushLoop) and waits for it
// to answer: at one client that is a thread woken and put back to sleep
// twice per commit (bench/LEDGER.md, 2026-12-04: 4 futex calls and ~9
// context switches per transaction), which PostgreSQL's backend, flushing
// its own commit record, does not pay. So a group that waits for its sync,
// with no unsynced commit before it, writes its pebble batch — the bytes
// pebble would log, the append record of its bucket-log bytes included
// (durable.go) — to this log of the store's own and fdatasyncs it inline:
// that one sync is its commit point. A group that commits alone with
// nothing queued behind it (commitBatch's solo case) makes the write and
// the sync raw calls (rawio_linux.go); any other group (several writers,
// or requests queued behind it) makes the sync an ordinary one, so that
// the runtime hands the committer's P to the connections while the kernel
// waits for the disk (at 8 clients the hand-off to pebble's flush
// goroutine and back had cost each group two goroutine wake-ups:
// bench/LEDGER.md, forty-first session). The batch is then committed to
// pebble without a sync: its record waits in pebble's write-ahead log
// buffer until a block fills or a later synced commit. Groups that do not
// wait for their sync, groups after an unsynced commit, and batches too
// large for a record (commitLogRecordMax) commit as before, by pebble.
//
// Recovery. Pebble recovers a prefix of its commits (its write-ahead log is
// one sequence; a flushed memtable holds every commit below its last). Each
// batch logged here also sets the key commitSeqKey to its record's
// sequence number, so the state pebble recovered says which of these
// records it holds: Open commits the later ones again, in order, before
// the append records are replayed into the bucket logs (replayAppends),
// and syncs them. Re-committing a batch writes its keys again with what
// they held after it, and nothing committed after it is lost, since pebble
// lost all that followed too.
//
// The log is written from its start again once pebble's write-ahead log
// was synced past its records (a synced pebble commit, syncWAL): they are
// all in pebble's durable state then. A record is length(4) crc(4) seq(8)
// then the batch, the CRC-32C over seq and batch; the log is read from its
// start while the records are whole and their sequence numbers consecutive,
// so a torn record, the zeros ahead of the writes, or an older record
// behind the newest ones ends it. It is zero-filled ahead of its writes as
// pebble's is (fsys.go), so that a commit's sync rewrites data blocks. An
// ingestion, whose sstables are durable without the write-ahead log, first
// syncs pebble's log (syncWAL), so that no record here is ever committed
// again over a later ingestion.

const (
	// commitLogName is the log's file in the store's directory.
	commitLogName = "commit.wal"
	// commitLogHeader is a record's header: length(4) crc(4) seq(8).
	commitLogHeader = 16
	// commitLogRecordMax is the largest record written here (header
	// included); a larger batch is committed by pebble. Its write is one
	// raw call (rawWriteMax, fsys.go).
	commitLogRecordMax = rawWriteMax
	// commitLogFillAhead is how far the log is zero-filled past its writes.
	commitLogFillAhead = 1 << 20
)

// commitLogSpan is how far the log is written before a synced group is
// committed by pebble instead, which lets the log start again (a variable
// for the tests of its wrapping).
var commitLogSpan int64 = 4 << 20

// commitSeqKey holds the sequence number of the last batch logged here
// that pebble's state includes.
var commitSeqKey = []byte{'g'}

// commitLog is the committer's: only the holder of its token uses it.
type commitLog struct {
	f    *os.File
	path string
	pos  int64  // where the next record goes
	next uint64 // the next record's sequence number
	// zeroFill's filled is the file's length: records or zeros up to here
	zeroFill
	// behind: pebble's write-ahead log holds commits unsynced that this
	// log alone made durable (syncWAL syncs it before an ingestion).
	behind bool
	// broken: a write or sync failed; the log is not used again.
	broken bool
	// replayed counts the records Open committed again.
	replayed int
	// full counts the synced groups the log had no room left for (pebble
	// commits them, synced, and the log starts again): the tests of its
	// wrapping assert that it filled.
	full int
	buf  []byte
	// syncData is the log's fdatasync as a raw call, syncDataOrdinary
	// through the runtime's syscall path; made once: a closure built per
	// commit escaped to the heap through the Syncer.
	syncData, syncDataOrdinary func() error
}

// takes says whether a group's batch can commit through the log.
func (l *commitLog) takes(batch *pebble.Batch) bool {
	n := int64(batch.Len() + commitLogHeader + 16) // the sequence key
	if l.f == nil || l.broken || n > commitLogRecordMax {
		return false
	}
	if l.pos+n > commitLogSpan {
		l.full++
		return false
	}
	return true
}

// pebbleSynced says that pebble's write-ahead log is durable past every
// record: the log starts again.
func (l *commitLog) pebbleSynced() {
	l.pos, l.behind = 0, false
}

// commitLogged commits a synced group's batch: logged and synced here
// (raw: by raw calls, a lone group with nothing queued), then committed to
// pebble without a sync. A failure to log it commits it through pebble's
// synced write instead, and the log is not used again.
func (s *Store) commitLogged(batch *pebble.Batch, raw bool) error {
	l := &s.clog
	seq := l.next
	l.next++
	var v [8]byte
	binary.BigEndian.PutUint64(v[:], seq)
	if err := batch.Set(commitSeqKey, v[:], nil); err != nil {
		return ioErr(err, "committing the key-value state")
	}
	at := l.pos
	if err := s.writeCommitRecord(seq, batch.Repr(), raw); err != nil {
		l.broken = true
		s.log.Error("the commit log failed; commits go through pebble's write-ahead log", "error", err)
		if err := batch.Commit(pebble.Sync); err != nil {
			return ioErr(err, "committing the key-value state")
		}
		return nil
	}
	if err := batch.Commit(pebble.NoSync); err != nil {
		// Take the durable record back, so that no Open commits it.
		l.broken = true
		if verr := s.voidCommitRecord(at); verr != nil {
			s.log.Error("voiding a commit log record whose commit failed", "error", verr)
		}
		return ioErr(err, "committing the key-value state")
	}
	l.behind = true
	s.walCommits++ // asynccommit.go
	return nil
}

// writeCommitRecord appends one record and syncs it: by a raw call (raw,
// a lone group with nothing queued: its goroutine keeps its P through the
// sync) or an ordinary one (the runtime hands the P to the other
// goroutines while the kernel waits for the disk).
func (s *Store) writeCommitRecord(seq uint64, repr []byte, raw bool) error {
	l := &s.clog
	n := commitLogHeader + len(repr)
	if cap(l.buf) < n {
		l.buf = make([]byte, n, max(n, 4<<10))
	}
	rec := l.buf[:n]
	binary.LittleEndian.PutUint32(rec, uint32(len(repr)))
	binary.LittleEndian.PutUint64(rec[8:], seq)
	copy(rec[commitLogHeader:], repr)
	binary.LittleEndian.PutUint32(rec[4:], crc32.Checksum(rec[8:], crc32c))
	if end := l.pos + int64(n); end > l.filled {
		if err := l.fillTo(l.f, end+commitLogFillAhead); err != nil {
			return err
		}
	}
	if err := writeAt(l.f, rec, l.pos); err != nil {
		return err
	}
	syncData := l.syncData
	if !raw {
		syncData = l.syncDataOrdinary
	}
	if err := s.sync(l.path, SyncData, syncData); err != nil {
		return err
	}
	l.pos += int64(n)
	return nil
}

// voidCommitRecord zeroes the header of the record at off and syncs.
func (s *Store) voidCommitRecord(off int64) error {
	l := &s.clog
	var zero [commitLogHeader]byte
	if _, err := l.f.WriteAt(zero[:], off); err != nil {
		return err
	}
	return s.sync(l.path, SyncData, l.syncData)
}

// commitRecord is one record read back.
type commitRecord struct {
	seq   uint64
	batch []byte
}

// readCommitLog returns the records of a log's bytes, from its start while
// they are whole and consecutive.
func readCommitLog(b []byte) []commitRecord {
	var out []commitRecord
	for len(b) >= commitLogHeader {
		n := int(binary.LittleEndian.Uint32(b))
		if n == 0 || n > len(b)-commitLogHeader {
			break
		}
		if crc32.Checksum(b[8:commitLogHeader+n], crc32c) != binary.LittleEndian.Uint32(b[4:]) {
			break
		}
		seq := binary.LittleEndian.Uint64(b[8:])
		if len(out) > 0 && seq != out[len(out)-1].seq+1 {
			break
		}
		out = append(out, commitRecord{seq: seq, batch: b[commitLogHeader : commitLogHeader+n]})
		b = b[commitLogHeader+n:]
	}
	return out
}

// openCommitLog runs on Open, after pebble recovered and before the append
// records are replayed: it commits again the records pebble lost, syncs
// them, and opens the log for the committer.
func (s *Store) openCommitLog() error {
	l := &s.clog
	l.path = filepath.Join(s.dir, commitLogName)
	var last uint64
	v, closer, err := s.db.Get(commitSeqKey)
	switch {
	case err == nil:
		if len(v) == 8 {
			last = binary.BigEndian.Uint64(v)
		}
		_ = closer.Close()
	case !errors.Is(err, pebble.ErrNotFound):
		return ioErr(err, "reading the commit log's sequence")
	}
	f, err := os.OpenFile(l.path, os.O_RDWR, 0)
	created := errors.Is(err, os.ErrNotExist)
	if created {
		f, err = os.OpenFile(l.path, os.O_RDWR|os.O_CREATE, 0o644)
	}
	if err != nil {
		return ioErr(err, "opening %s", l.path)
	}
	l.f = f
	l.syncData = func() error { return fdatasync(f) }
	l.syncDataOrdinary = func() error { return ordinaryFdatasync(f) }
	if created {
		// The file's name must outlive a power loss before a record in it
		// is a commit point.
		if err := s.sync(l.path, SyncFull, f.Sync); err != nil {
			return ioErr(err, "syncing %s", l.path)
		}
		if err := s.syncDir(s.dir); err != nil {
			return err
		}
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return ioErr(err, "reading %s", l.path)
	}
	l.filled = int64(len(data))
	next := last
	replayed := 0
	for _, r := range readCommitLog(data) {
		next = max(next, r.seq)
		if r.seq <= last {
			continue
		}
		b := s.db.NewBatch()
		err := b.SetRepr(append([]byte(nil), r.batch...))
		if err == nil {
			err = b.Commit(pebble.NoSync)
		}
		_ = b.Close()
		if err != nil {
			return ioErr(err, "committing again the commit log's record %d", r.seq)
		}
		replayed++
	}
	l.replayed = replayed
	if replayed > 0 {
		if err := s.db.LogData(nil, pebble.Sync); err != nil {
			return ioErr(err, "syncing the commit log's replayed records")
		}
		s.log.Info("committed again the commit log's records", "records", replayed)
	}
	l.next = next + 1
	l.pos = 0
	return nil
}

// closeCommitLog closes the log's file (Close, after the committer
// stopped and synced pebble's write-ahead log).
func (s *Store) closeCommitLog() error {
	if s.clog.f == nil {
		return nil
	}
	err := s.clog.f.Close()
	s.clog.f = nil
	return err
}
