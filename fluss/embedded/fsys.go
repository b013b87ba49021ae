package embedded

import (
	"io"
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// The store's hook on durability. Every call that makes a file durable —
// the store's own (bucket logs, directories, the FORMAT and catalog files)
// and pebble's (its write-ahead log, sstables, manifest), through a vfs.FS
// wrapper — goes through Options.Syncer. The default calls the system
// directly; a test counts the syncs of a commit (one per commit group is
// the design's promise, doc.go), or stops a process at a chosen sync to
// check what recovery makes of it.

// SyncKind says which system call a sync is.
type SyncKind int

const (
	// SyncFull is fsync(2): the file's data and metadata.
	SyncFull SyncKind = iota
	// SyncData is fdatasync(2): the data, and the metadata needed to read it.
	SyncData
	// SyncRange is sync_file_range(2) as pebble uses it (vfs.File.SyncTo):
	// write-back of a prefix, durable only when pebble falls back to a
	// full sync (then it is counted as SyncData).
	SyncRange
)

func (k SyncKind) String() string {
	switch k {
	case SyncFull:
		return "fsync"
	case SyncData:
		return "fdatasync"
	default:
		return "sync_file_range"
	}
}

// Syncer is called for every sync the store makes: name is the file's path
// and sync the system call, which Sync must make (or fail without it).
type Syncer interface {
	Sync(name string, kind SyncKind, sync func() error) error
}

// directSyncer is the default Syncer: the system call, nothing else.
type directSyncer struct{}

func (directSyncer) Sync(_ string, _ SyncKind, sync func() error) error { return sync() }

// sync makes one sync through the store's Syncer.
func (s *Store) sync(name string, kind SyncKind, sync func() error) error {
	return s.opts.Syncer.Sync(name, kind, sync)
}

// syncFS is the vfs.FS given to pebble: files opened through it sync
// through the store's Syncer. solo, when set, is the store's flag that
// the group being committed is alone (filledWAL's raw calls, below).
type syncFS struct {
	vfs.FS
	syncer Syncer
	solo   *atomic.Bool
}

func (fs syncFS) wrap(name string, f vfs.File, err error) (vfs.File, error) {
	if err != nil {
		return nil, err
	}
	return syncFile{File: f, name: name, syncer: fs.syncer}, nil
}

func (fs syncFS) Create(name string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.Create(name, category)
	if err == nil && category == walCategory {
		return newFilledWAL(syncFile{File: f, name: name, syncer: fs.syncer}, 0, fs.solo), nil
	}
	return fs.wrap(name, f, err)
}

func (fs syncFS) Open(name string, opts ...vfs.OpenOption) (vfs.File, error) {
	f, err := fs.FS.Open(name, opts...)
	return fs.wrap(name, f, err)
}

func (fs syncFS) OpenReadWrite(name string, category vfs.DiskWriteCategory, opts ...vfs.OpenOption) (vfs.File, error) {
	f, err := fs.FS.OpenReadWrite(name, category, opts...)
	return fs.wrap(name, f, err)
}

func (fs syncFS) OpenDir(name string) (vfs.File, error) {
	f, err := fs.FS.OpenDir(name)
	return fs.wrap(name, f, err)
}

func (fs syncFS) ReuseForWrite(oldname, newname string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.ReuseForWrite(oldname, newname, category)
	if err == nil && category == walCategory {
		// A recycled log is written over from its start: its old length is
		// already allocated and written.
		fi, serr := f.Stat()
		if serr != nil {
			_ = f.Close()
			return nil, serr
		}
		return newFilledWAL(syncFile{File: f, name: newname, syncer: fs.syncer}, fi.Size(), fs.solo), nil
	}
	return fs.wrap(newname, f, err)
}

func (fs syncFS) Unwrap() vfs.FS { return fs.FS }

// syncFile is a pebble file whose syncs go through a Syncer. (pebble's
// default file on Linux: Sync is fsync, SyncData fdatasync, SyncTo
// sync_file_range or, where that is not trusted, fdatasync.)
type syncFile struct {
	vfs.File
	name   string
	syncer Syncer
}

func (f syncFile) Sync() error {
	return f.syncer.Sync(f.name, SyncFull, f.File.Sync)
}

func (f syncFile) SyncData() error {
	return f.syncer.Sync(f.name, SyncData, f.File.SyncData)
}

func (f syncFile) SyncTo(length int64) (fullSync bool, err error) {
	err = f.syncer.Sync(f.name, SyncRange, func() error {
		var serr error
		fullSync, serr = f.File.SyncTo(length)
		return serr
	})
	return fullSync, err
}

// Pebble's write-ahead log, written over zeros.
//
// The commit point of a group is one fdatasync of pebble's WAL (durable.go).
// On ext4 (and most file systems) an fdatasync after an append must also
// commit the file's new size and the newly allocated or newly written
// extents to the journal, which an fdatasync of blocks written over does
// not (measured on this project's ext4 VM disk, 2,000 400-byte writes each
// followed by fdatasync: p50 178-197 us appending, 154-165 us over zeros;
// dd with O_DSYNC under load, 3.7 ms against 1.9 ms per write). fallocate
// does not help: its extents are "unwritten" and writing them is itself a
// metadata change. PostgreSQL avoids it by zero-filling each WAL segment
// before use; pebble avoids it only for recycled logs, which a store has
// only once memtables were flushed, and a recycled log shorter than what
// is written into it appends again.
//
// So the WAL's file extends itself with zeros ahead of its writes, a
// walFillAhead piece at a time: the sync after an extension pays the
// journal once, and the syncs of the commits that fill the piece rewrite
// data blocks only. Zeros past the last record are what pebble's reader
// meets in a preallocated or recycled log: the end of the log (a zeroed
// chunk with no valid record after it), so recovery reads the same
// records as before.

// walCategory is the write category pebble creates its WAL files with.
const walCategory vfs.DiskWriteCategory = "pebble-wal"

// walFillAhead is how far a WAL file is zero-filled past its writes.
const walFillAhead = 1 << 20

// filledWAL is a WAL file that zero-fills ahead of its sequential writes.
// Pebble calls Write and Sync from one goroutine at a time (vfs.File).
type filledWAL struct {
	syncFile
	pos int64 // where the next Write goes (writes are sequential from 0)
	// zeroFill's filled is the file's length: written data or zeros up to
	// here
	zeroFill
	solo *atomic.Bool // nil: never raw
	// rawSync is the raw fdatasync, made once rather than per commit
	// (a closure given to the Syncer escapes to the heap).
	rawSync func() error
}

func newFilledWAL(f syncFile, size int64, solo *atomic.Bool) *filledWAL {
	w := &filledWAL{syncFile: f, zeroFill: zeroFill{filled: size}, solo: solo}
	w.rawSync = func() error { return rawFdatasync(w.Fd(), w.name) }
	return w
}

// raw reports whether the write and sync of the group now committing are
// made as raw system calls (rawio_linux.go). Why: a system call made the
// ordinary way wakes the runtime's monitor thread (sysmon) when the
// process was idle, and sysmon then polls every 20 µs for as long as the
// sync lasts: with one client, a futex wake-up, a few context switches
// and their CPU on every commit, which the commit's latency pays. The
// price of a raw call is that its goroutine keeps its P while the disk
// works, so the scheduler cannot give that P to another goroutine: only
// worth it, and only taken, when the group is a lone commit with nothing
// queued behind it (Store.commitBatch sets solo), that is when the process
// has little else to run.
func (f *filledWAL) raw() bool { return rawCalls && f.solo != nil && f.solo.Load() }

func (f *filledWAL) Write(p []byte) (int, error) {
	if end := f.pos + int64(len(p)); end > f.filled {
		if err := f.fillTo(f.syncFile, end+walFillAhead); err != nil {
			return 0, err
		}
	}
	var n int
	var err error
	if f.raw() {
		n, err = rawWrite(f.Fd(), f.name, p)
	} else {
		n, err = f.syncFile.Write(p)
	}
	f.pos += int64(n)
	return n, err
}

// rawWriteMax is the largest append written by a raw pwrite(2)
// (rawio_linux.go's writeAt), and the largest commit log record
// (commitlog.go), so that a record's write is one raw call.
const rawWriteMax = 64 << 10

// SyncData is the group's commit point (pebble's LogWriter syncs its log
// with it), through the Syncer as every sync.
func (f *filledWAL) SyncData() error {
	if f.raw() {
		return f.syncer.Sync(f.name, SyncData, f.rawSync)
	}
	return f.syncFile.SyncData()
}

// zeroFill is a file zero-filled ahead of its sequential writes (the
// WAL's and commit.wal): filled is how far it is written, data or zeros.
type zeroFill struct {
	filled int64
	zeros  []byte
}

// fillTo writes zeros into w from filled up to at least to.
func (z *zeroFill) fillTo(w io.WriterAt, to int64) error {
	if z.zeros == nil {
		z.zeros = make([]byte, 256<<10)
	}
	for z.filled < to {
		n, err := w.WriteAt(z.zeros, z.filled)
		z.filled += int64(n)
		if err != nil {
			return err
		}
	}
	return nil
}
