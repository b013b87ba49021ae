package embedded

import (
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
// through the store's Syncer.
type syncFS struct {
	vfs.FS
	syncer Syncer
}

func (fs syncFS) wrap(name string, f vfs.File, err error) (vfs.File, error) {
	if err != nil {
		return nil, err
	}
	return syncFile{File: f, name: name, syncer: fs.syncer}, nil
}

func (fs syncFS) Create(name string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.Create(name, category)
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
