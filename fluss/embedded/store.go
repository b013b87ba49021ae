package embedded

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// FormatVersion is the on-disk layout version this code writes and reads.
// Version 2 writes Fluss 0.9.1's bytes exactly: Arrow units per precision
// in log batches (TIME(0)/TIMESTAMP(0) seconds, (1-3) milliseconds, LTZ
// fields without a zone), TIME as milliseconds of the day in compacted
// rows, Fluss's BinaryArray/BinaryMap and length-prefixed nested rows, and
// ValueEncoder's schema id in front of each stored value. Version 1 (the
// older, sqlgate-specific bytes) is refused: converting a store means
// rewriting every log batch and value, which the older sqlgate's export
// (COPY TO or pg_dump) and a load into a new directory already do.
const FormatVersion = 2

const formatMagic = "sqlgate-embedded-fluss"

// DefaultBatchRows is the number of rows per scan batch when neither
// ScanOptions nor Options say otherwise.
const DefaultBatchRows = 8192

// Options configure a store.
type Options struct {
	// Logger receives recovery and corruption reports; nil discards them.
	Logger *slog.Logger
	// BatchRows is the default number of rows per scan batch (0 = 8192).
	BatchRows int
	// SkipVerify skips reading every log batch's CRC on Open (the framing and
	// the committed lengths are still checked); corrupt batches are then
	// reported when a scan reads them.
	SkipVerify bool
	// Now returns the commit time stamped on log batches; nil = time.Now.
	Now func() time.Time
	// IngestBytes is the size of a group commit's state batch from which
	// it is ingested as sstables instead of committed as a batch (ingest.go):
	// 0 = 8 MiB, negative = never.
	IngestBytes int
	// CacheBytes is the size of the block cache of primary-key state
	// (decompressed pebble blocks): 0 = an eighth of the machine's memory,
	// at least 64 MiB and at most 256 MiB. A point lookup whose blocks are
	// cached reads no file and decompresses nothing. A sixteenth of it
	// holds the rows point reads and commits met lately (rowhints.go): a
	// lookup of one of those reads no block at all.
	CacheBytes int64
	// Syncer makes every sync of the store and of its pebble (fsys.go);
	// nil = the system calls themselves.
	Syncer Syncer
	// CheckpointBytes is how many bytes of small groups' log appends
	// pebble's write-ahead log holds before a checkpoint fsyncs the bucket
	// logs and drops them (durable.go): 0 = 512 KiB.
	CheckpointBytes int64
	// ColumnarMinRows is the table size (EstimateRows) from which a full
	// scan of a primary-key table has its columnar image built
	// (columnar.go): 0 = 65536, negative = never.
	ColumnarMinRows int64
	// ColumnarBytes bounds the columnar images of the store, on disk
	// under columnar/ (columnar.go): 0 = 4 GiB.
	ColumnarBytes int64
	// StageBytes is the encoded size of a bulk upsert (COPY into a
	// primary-key table) held in memory before it is staged on disk as
	// sorted runs (stagedupsert.go): 0 = 64 MiB, negative = never.
	StageBytes int64
	// ParallelEncodeRows is the batch size from which an upsert, and each
	// part of a bulk upsert, encodes its keys and its rows on two cores
	// (table.go, bulkencode.go): 0 = 65536. Tests lower it to reach that
	// path with small batches.
	ParallelEncodeRows int
	// IngestChunk is the most entries one sstable of an ingested group
	// commit holds; a table's longer state is cut into several, written in
	// parallel (ingest.go): 0 = 262144. Tests lower it to reach that path
	// with small loads.
	IngestChunk int
}

// Store is the embedded Fluss store. It implements fluss.Store.
type Store struct {
	dir  string
	opts Options
	log  *slog.Logger
	db   *pebble.DB
	// pebbleOpts are db's options; ingest.go builds sstables with them.
	pebbleOpts *pebble.Options
	// cache is db's block cache, which image builds shrink while they
	// read the whole state (columnar.go: buildCacheWindow).
	cache blockCache
	// ingestSeq numbers the sstables built for ingestion (ingest.go).
	ingestSeq atomic.Int64
	// iters serves point lookups between writes (itercache.go).
	iters iterCache
	// hints keep the rows point lookups read for their commits (rowhints.go).
	hints rowHints
	// groupBase is the state writes' count (iterCache.wseq) when the group
	// being committed started; only the committer (its token held) uses it.
	groupBase uint64
	// walSolo is set while a lone group's synced batch commits (the WAL's
	// raw write and sync, fsys.go).
	walSolo atomic.Bool
	// settle compacts the state of bulk-loaded tables (settle.go).
	settle *settler

	// catMu guards the catalog and the table map: read-locked by the
	// lookups every statement makes (Table, GetTable), which a plain mutex
	// made a convoy of under many concurrent writers.
	catMu   sync.RWMutex
	catalog catalogFile
	tables  map[fluss.TablePath]*tableState

	corruptMu   sync.Mutex
	corruptions []error

	// seqs are the store's sequences (sequences.go).
	seqs seqStore
	// partitions are the partitioned tables' partitions (partitions.go),
	// guarded by catMu.
	partitions partitionMap

	reqs      chan *request
	quit      chan struct{}
	committed chan struct{} // closed when the committer goroutine has exited
	// turn holds the committer's token: whoever took it commits the next
	// group (the committer goroutine, or a writer committing its own
	// request when nothing is queued, commit.go); poke asks the committer
	// for the after-group work of a writer's group.
	turn, poke chan struct{}
	// queued counts the requests sent to reqs and not yet taken into a
	// group (a request the committer holds while it waits for the token
	// included).
	queued    atomic.Int64
	closeOnce sync.Once
	closed    atomic.Bool

	// groups counts group commits (one pebble sync each, durable.go).
	groups atomic.Int64
	// gather is what the last group commit said about the next lone
	// writer (gather.go): how many writers shared the last group, and how
	// long the last synced commit's sync took (committer only).
	lastWriters atomic.Int64
	lastSync    time.Duration
	gatherMax   time.Duration
	// appends is the committer's record of log appends not yet
	// checkpointed (durable.go).
	appends appendLog
	// walDirty: a group committed without a sync since the last synced
	// commit (asynccommit.go); the committer's.
	walDirty bool
	// walSyncArmed: the committer's timer for unsynced commits runs (or
	// was asked for); the token holder's.
	walSyncArmed bool
	// walCommits counts the commits whose durability waits for a sync of
	// pebble's write-ahead log: groups committed unsynced and commit.wal's
	// lone commits (asynccommit.go, timedSyncWAL); the token holder's.
	walCommits uint64
	// clog is the lone commits' log (commitlog.go); the committer's.
	clog commitLog
	// stagingSeq numbers bulk appends' staging directories (staged.go).
	stagingSeq atomic.Int64

	// colCtx ends the columnar image builds, colWG waits for them,
	// colBytes is the images' size on disk, colGen numbers their
	// directories; under colMu, each table's image directory, its size,
	// the directories whose files need no check, and the builds that have
	// the block cache shrunk with the undo of that (columnar.go).
	colCtx      context.Context
	colStop     context.CancelFunc
	colWG       sync.WaitGroup
	colBytes    atomic.Int64
	colGen      atomic.Int64
	colMu       sync.Mutex
	colDirs     map[int64]string
	colSizes    map[int64]int64
	colTrusted  map[string]bool
	colMaps     mapPool // the images' mappings' address ranges (columnarmap.go)
	cacheShrunk int
	cacheUndo   func()
}

var _ fluss.Store = (*Store)(nil)

// Pebble key prefixes.
const (
	prefixCommitted = 'c' // 'c' table(8) bucket(4) -> committed log length(8) next offset(8)
	prefixData      = 'd' // 'd' table(8) bucket(4) key -> compacted row
)

// dataKeyPrefix is the length of a bucket key's prefix: prefix byte,
// table, bucket.
const dataKeyPrefix = 13

func bucketKey(prefix byte, tableID int64, bucket int) []byte {
	k := make([]byte, dataKeyPrefix, dataKeyPrefix+32)
	putBucketKey(k, prefix, tableID, bucket)
	return k
}

// putBucketKey writes the dataKeyPrefix bytes of a bucket key into k.
func putBucketKey(k []byte, prefix byte, tableID int64, bucket int) {
	k[0] = prefix
	binary.BigEndian.PutUint64(k[1:], uint64(tableID))
	binary.BigEndian.PutUint32(k[9:], uint32(bucket))
}

func tablePrefix(prefix byte, tableID int64) []byte {
	k := make([]byte, 9)
	k[0] = prefix
	binary.BigEndian.PutUint64(k[1:], uint64(tableID))
	return k
}

// prefixEnd is the first key after every key starting with p.
func prefixEnd(p []byte) []byte {
	e := slices.Clone(p)
	for i := len(e) - 1; i >= 0; i-- {
		if e[i] != 0xff {
			e[i]++
			return e[:i+1]
		}
	}
	return nil
}

func corrupt(format string, args ...any) *sqlerr.Error {
	return sqlerr.New(sqlerr.DataCorrupted, format, args...)
}

func ioErr(err error, format string, args ...any) *sqlerr.Error {
	code := sqlerr.InternalError
	if errors.Is(err, syscall.ENOSPC) {
		code = sqlerr.DiskFull
	}
	return sqlerr.Wrap(err, code, "%s: %v", fmt.Sprintf(format, args...), err)
}

// Open opens (creating if needed) the store in dir and recovers it: log tails
// past their committed length are truncated, every batch's CRC is checked
// (unless Options.SkipVerify) and corrupt batches are reported by
// Corruptions and by the scans that reach them. A store written by a newer
// format version is refused.
func Open(dir string, opts Options) (*Store, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.BatchRows <= 0 {
		opts.BatchRows = DefaultBatchRows
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Syncer == nil {
		opts.Syncer = directSyncer{}
	}
	if opts.CheckpointBytes <= 0 {
		opts.CheckpointBytes = defaultCheckpointBytes
	}
	s := &Store{dir: dir, opts: opts, log: opts.Logger, tables: map[fluss.TablePath]*tableState{},
		reqs: make(chan *request, 1024), quit: make(chan struct{}), committed: make(chan struct{}),
		turn: make(chan struct{}, 1), poke: make(chan struct{}, 1), gatherMax: gatherMax,
		colDirs: map[int64]string{}, colSizes: map[int64]int64{}, colTrusted: map[string]bool{}}
	if err := os.MkdirAll(filepath.Join(dir, "tables"), 0o755); err != nil {
		return nil, ioErr(err, "creating store directory %s", dir)
	}
	if err := s.checkFormat(); err != nil {
		return nil, err
	}
	if err := s.loadCatalog(); err != nil {
		return nil, err
	}
	// The committed log lengths live in kv/: opening without it would
	// truncate every log to nothing.
	if _, err := os.Stat(filepath.Join(dir, "kv")); errors.Is(err, os.ErrNotExist) && len(s.catalog.Tables) > 0 {
		return nil, corrupt("store %s has tables but its key-value state %s is missing", dir, filepath.Join(dir, "kv"))
	}
	if s.opts.IngestBytes == 0 {
		s.opts.IngestBytes = defaultIngestBytes
	}
	if s.opts.ParallelEncodeRows <= 0 {
		s.opts.ParallelEncodeRows = defaultParallelEncodeRows
	}
	if s.opts.IngestChunk <= 0 {
		s.opts.IngestChunk = defaultIngestChunk
	}
	// sstables a crash left half built were never ingested.
	if err := os.RemoveAll(filepath.Join(dir, ingestDir)); err != nil {
		return nil, ioErr(err, "removing %s", filepath.Join(dir, ingestDir))
	}
	// Bulk appends a crash interrupted were never committed (staged.go).
	if err := os.RemoveAll(filepath.Join(dir, stagingDir)); err != nil {
		return nil, ioErr(err, "removing %s", filepath.Join(dir, stagingDir))
	}
	if s.opts.CacheBytes <= 0 {
		s.opts.CacheBytes = min(max(physicalMemory()/8, minCacheBytes), maxCacheBytes)
	}
	s.pebbleOpts = pebbleOptions(s.log, s.opts.CacheBytes)
	s.pebbleOpts.FS = syncFS{FS: vfs.Default, syncer: s.opts.Syncer, solo: &s.walSolo}
	s.hints.bytes = s.opts.CacheBytes / rowCacheShare
	cache := pebble.NewCache(s.opts.CacheBytes - s.hints.bytes)
	s.pebbleOpts.Cache, s.cache = cache, cache
	// The database holds its own reference from Open on.
	defer cache.Unref()
	// Point lookups keep iterators per sstable key range (itercache.go);
	// pebble tells when its sstables change.
	s.pebbleOpts.AddEventListener(pebble.EventListener{
		CompactionEnd: func(pebble.CompactionInfo) { s.iters.layoutChanged() },
		FlushEnd:      func(pebble.FlushInfo) { s.iters.layoutChanged() },
		TableIngested: func(pebble.TableIngestInfo) { s.iters.layoutChanged() },
	})
	s.pebbleOpts.EnsureDefaults()
	db, err := pebble.Open(filepath.Join(dir, "kv"), s.pebbleOpts)
	if err != nil {
		return nil, ioErr(err, "opening the key-value state in %s", filepath.Join(dir, "kv"))
	}
	s.db = db
	s.iters.db = db
	s.iters.refreshView() // view.go: what recovery's readers read
	// commitlog.go: the lone commits pebble lost, before the append
	// records' replay.
	if err := s.openCommitLog(); err != nil {
		_ = s.closeCommitLog()
		s.iters.dropView()
		_ = db.Close()
		return nil, err
	}
	if err := s.recover(); err != nil {
		_ = s.closeCommitLog()
		s.closeFiles()
		s.iters.dropView()
		_ = db.Close()
		return nil, err
	}
	if err := s.settleSequences(); err != nil { // sequences.go
		_ = s.closeCommitLog()
		s.closeFiles()
		s.iters.dropView()
		_ = db.Close()
		return nil, err
	}
	// Recovery wrote state (the replayed appends) outside endWrite.
	s.iters.refreshView()
	s.settle = newSettler(db, s.log, &s.iters)
	s.colCtx, s.colStop = context.WithCancel(context.Background())
	s.turn <- struct{}{}
	go s.commitLoop()
	return s, nil
}

func (s *Store) checkFormat() error {
	p := filepath.Join(s.dir, "FORMAT")
	b, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		if _, cerr := os.Stat(filepath.Join(s.dir, "catalog.json")); cerr == nil {
			return corrupt("store %s has a catalog but no FORMAT file", s.dir)
		}
		return s.writeFileAtomic(p, fmt.Appendf(nil, "%s %d\n", formatMagic, FormatVersion))
	}
	if err != nil {
		return ioErr(err, "reading %s", p)
	}
	fields := strings.Fields(string(b))
	if len(fields) != 2 || fields[0] != formatMagic {
		return corrupt("%s is not a sqlgate store FORMAT file", p)
	}
	v, err := strconv.Atoi(fields[1])
	if err != nil {
		return corrupt("%s has an unreadable version %q", p, fields[1])
	}
	if v > FormatVersion {
		return sqlerr.New(sqlerr.FeatureNotSupported,
			"store %s has format version %d, newer than the version %d this sqlgate understands; upgrade sqlgate to open it", s.dir, v, FormatVersion)
	}
	if v < FormatVersion {
		return sqlerr.New(sqlerr.FeatureNotSupported,
			"store %s has format version %d, written by an older sqlgate whose bytes differ from Fluss's; this sqlgate reads version %d only", s.dir, v, FormatVersion).
			WithHint("Export the tables with the sqlgate that wrote the store (COPY ... TO or pg_dump) and load them into a new data directory.")
	}
	return nil
}

func (s *Store) loadCatalog() error {
	p := filepath.Join(s.dir, "catalog.json")
	b, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		s.catalog = catalogFile{FormatVersion: FormatVersion, NextTableID: 1}
		return nil
	}
	if err != nil {
		return ioErr(err, "reading %s", p)
	}
	if err := json.Unmarshal(b, &s.catalog); err != nil {
		return corrupt("catalog %s is unreadable: %v", p, err)
	}
	s.catalog.normalizeDatabases()
	return nil
}

func (s *Store) saveCatalog() error {
	b, err := json.MarshalIndent(s.catalog, "", "  ")
	if err != nil {
		return sqlerr.Wrap(err, sqlerr.InternalError, "encoding the catalog: %v", err)
	}
	return s.writeFileAtomic(filepath.Join(s.dir, "catalog.json"), b)
}

// writeFileAtomic replaces path with data: write a temporary file, fsync it,
// rename it over path, fsync the directory.
func (s *Store) writeFileAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return ioErr(err, "writing %s", tmp)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return ioErr(err, "writing %s", tmp)
	}
	if err := s.sync(tmp, SyncFull, f.Sync); err != nil {
		f.Close()
		return ioErr(err, "syncing %s", tmp)
	}
	if err := f.Close(); err != nil {
		return ioErr(err, "closing %s", tmp)
	}
	if err := os.Rename(tmp, path); err != nil {
		return ioErr(err, "renaming %s", tmp)
	}
	return s.syncDir(filepath.Dir(path))
}

func (s *Store) syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return ioErr(err, "opening directory %s", dir)
	}
	defer d.Close()
	if err := s.sync(dir, SyncFull, d.Sync); err != nil {
		return ioErr(err, "syncing directory %s", dir)
	}
	return nil
}

func (s *Store) tableDir(id int64) string {
	return filepath.Join(s.dir, "tables", strconv.FormatInt(id, 10))
}

// recover opens every table's bucket logs, truncates uncommitted tails,
// verifies batches, and removes the leftovers of interrupted drops.
func (s *Store) recover() error {
	if err := s.replayAppends(); err != nil {
		return err
	}
	live := map[int64]bool{}
	for _, e := range s.catalog.Tables {
		if e.Partition != nil {
			continue // recoverPartitions, below
		}
		info, err := infoFromEntry(e)
		if err != nil {
			return corrupt("catalog: %v", err)
		}
		t, err := s.openTable(info, false)
		if err != nil {
			return err
		}
		if e.SchemaColumns != nil {
			if len(e.SchemaColumns) != int(info.SchemaID) {
				return corrupt("catalog: table %s has schema %d but %d schema column counts", info.Path, info.SchemaID, len(e.SchemaColumns))
			}
			t.setSchemas(e.SchemaColumns)
		}
		if err := s.loadNDV(t); err != nil {
			return err
		}
		s.tables[info.Path] = t
		live[info.TableID] = true
	}
	if err := s.recoverPartitions(live); err != nil {
		return err
	}
	// Leftovers of a drop interrupted by a crash: directories and state of
	// tables no longer in the catalog.
	ents, err := os.ReadDir(filepath.Join(s.dir, "tables"))
	if err != nil {
		return ioErr(err, "listing %s", filepath.Join(s.dir, "tables"))
	}
	for _, e := range ents {
		id, err := strconv.ParseInt(e.Name(), 10, 64)
		if err == nil && !live[id] {
			s.log.Info("removing files of a dropped table", "dir", s.tableDir(id))
			if err := os.RemoveAll(s.tableDir(id)); err != nil {
				return ioErr(err, "removing %s", s.tableDir(id))
			}
		}
	}
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: []byte{prefixCommitted}, UpperBound: []byte{prefixCommitted + 1}})
	if err != nil {
		return ioErr(err, "reading committed log lengths")
	}
	var stale []int64
	for it.First(); it.Valid(); it.Next() {
		if id := int64(binary.BigEndian.Uint64(it.Key()[1:9])); !live[id] && !slices.Contains(stale, id) {
			stale = append(stale, id)
		}
	}
	if err := it.Close(); err != nil {
		return ioErr(err, "reading committed log lengths")
	}
	for _, id := range stale {
		if err := s.deleteTableState(id); err != nil {
			return err
		}
	}
	return s.recoverColumnar(live) // columnar.go
}

func (s *Store) deleteTableState(id int64) error {
	b := s.db.NewBatch()
	defer b.Close()
	for _, p := range [][]byte{tablePrefix(prefixCommitted, id), tablePrefix(prefixData, id), tablePrefix(prefixNDV, id)} {
		if err := b.DeleteRange(p, prefixEnd(p), nil); err != nil {
			return ioErr(err, "deleting the state of table %d", id)
		}
	}
	s.iters.beginWrite()
	err := b.Commit(pebble.Sync)
	s.iters.endWrite()
	if err != nil {
		return ioErr(err, "deleting the state of table %d", id)
	}
	return nil
}

// Corruptions lists the corrupt log batches found by Open's verification
// (each an *sqlerr.Error with SQLSTATE XX001 naming file and byte offset).
func (s *Store) Corruptions() []error {
	s.corruptMu.Lock()
	defer s.corruptMu.Unlock()
	return slices.Clone(s.corruptions)
}

func (s *Store) reportCorruption(err error) {
	s.log.Error("log corruption", "error", err)
	s.corruptMu.Lock()
	s.corruptions = append(s.corruptions, err)
	s.corruptMu.Unlock()
}

// CreateTable implements fluss.Catalog.
func (s *Store) CreateTable(ctx context.Context, path fluss.TablePath, desc fluss.TableDescriptor, ignoreIfExists bool) (fluss.TableInfo, error) {
	if err := ctx.Err(); err != nil {
		return fluss.TableInfo{}, err
	}
	norm, err := fluss.ValidateDescriptor(desc)
	if err != nil {
		return fluss.TableInfo{}, err
	}
	s.catMu.Lock()
	defer s.catMu.Unlock()
	if s.tables == nil {
		return fluss.TableInfo{}, errClosed()
	}
	if t, ok := s.tables[path]; ok {
		if ignoreIfExists {
			return t.info, nil
		}
		return fluss.TableInfo{}, sqlerr.New(sqlerr.DuplicateTable, "relation \"%s\" already exists", path.Table)
	}
	if !s.catalog.hasDatabase(path.Database) {
		return fluss.TableInfo{}, fluss.UndefinedDatabase(path.Database)
	}
	info := fluss.TableInfo{Path: path, TableID: s.catalog.NextTableID, SchemaID: 1,
		Descriptor: norm, CreatedAt: s.opts.Now().UnixMilli()}
	entry, err := entryFromInfo(info)
	if err != nil {
		return fluss.TableInfo{}, sqlerr.Wrap(err, sqlerr.FeatureNotSupported, "%v", err)
	}
	t, err := s.openTable(info, true)
	if err != nil {
		return fluss.TableInfo{}, err
	}
	prev := s.catalog
	s.catalog.NextTableID++
	s.catalog.Tables = append(slices.Clone(s.catalog.Tables), entry)
	if err := s.saveCatalog(); err != nil {
		s.catalog = prev
		t.closeFiles()
		_ = os.RemoveAll(t.dir)
		return fluss.TableInfo{}, err
	}
	s.tables[path] = t
	// Fluss's coordinator runs a new table's auto-partitioning at once.
	s.autoPartitionLocked(t) // partitions.go
	return info, nil
}

// DropTable implements fluss.Catalog. The table leaves the catalog first
// (atomically); its files and state are then removed, and Open finishes the
// removal if a crash interrupts it.
func (s *Store) DropTable(ctx context.Context, path fluss.TablePath, ignoreIfNotExists bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.catMu.Lock()
	t, ok := s.tables[path]
	if !ok {
		s.catMu.Unlock()
		if ignoreIfNotExists {
			return nil
		}
		return undefinedTable(path)
	}
	prev := s.catalog
	s.catalog.Tables = slices.DeleteFunc(slices.Clone(s.catalog.Tables), func(e catalogEntry) bool {
		return e.TableID == t.info.TableID || e.isPartitionOf(t.info.TableID) // partitions.go
	})
	if err := s.saveCatalog(); err != nil {
		s.catalog = prev
		s.catMu.Unlock()
		return err
	}
	delete(s.tables, path)
	parts := s.takePartitionStates(t.info.TableID)
	s.catMu.Unlock()
	// The drop goes through the committer so that it is ordered after the
	// writes already queued for the table.
	return s.dropStates(ctx, append([]*tableState{t}, parts...))
}

func undefinedTable(path fluss.TablePath) error {
	return sqlerr.New(sqlerr.UndefinedTable, "relation \"%s\" does not exist", path.Table)
}

func errClosed() error {
	return sqlerr.New(sqlerr.AdminShutdown, "the store is closed")
}

// GetTable implements fluss.Catalog.
func (s *Store) GetTable(ctx context.Context, path fluss.TablePath) (fluss.TableInfo, error) {
	s.catMu.RLock()
	defer s.catMu.RUnlock()
	t, ok := s.tables[path]
	if !ok {
		return fluss.TableInfo{}, undefinedTable(path)
	}
	return t.info, nil
}

// ListTables implements fluss.Catalog.
func (s *Store) ListTables(ctx context.Context, database string) ([]fluss.TableInfo, error) {
	s.catMu.RLock()
	defer s.catMu.RUnlock()
	var out []fluss.TableInfo
	for p, t := range s.tables {
		// (an index table is sqlgate's metadata, fluss.IsIndexTable:
		// found by its path, listed by no catalog)
		if p.Database == database && !fluss.IsIndexTable(p.Table) {
			out = append(out, t.info)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path.Table < out[j].Path.Table })
	return out, nil
}

// ListIndexTables implements fluss.IndexTableLister.
func (s *Store) ListIndexTables(ctx context.Context) ([]fluss.TablePath, error) {
	s.catMu.RLock()
	defer s.catMu.RUnlock()
	var out []fluss.TablePath
	for p := range s.tables {
		if fluss.IsIndexTable(p.Table) {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Table < out[j].Table })
	return out, nil
}

// Table implements fluss.Store.
func (s *Store) Table(ctx context.Context, path fluss.TablePath) (fluss.Table, error) {
	if s.closed.Load() {
		return nil, errClosed()
	}
	s.catMu.RLock()
	defer s.catMu.RUnlock()
	t, ok := s.tables[path]
	if !ok {
		return nil, undefinedTable(path)
	}
	if t.info.IsPartitioned() {
		return s.partitionedTable(t), nil // partitions.go
	}
	return t.handleOf(s), nil
}

// handleOf returns t's handle on s, made once.
func (t *tableState) handleOf(s *Store) *tableHandle {
	if h := t.handle.Load(); h != nil {
		return h
	}
	t.handle.CompareAndSwap(nil, &tableHandle{s: s, t: t})
	return t.handle.Load()
}

// RowLocksSerializeWriters implements fluss.RowLockable: only the server
// that opened the store (pebble locks its directory) writes it.
func (s *Store) RowLocksSerializeWriters() bool { return true }

// Close stops the committer and closes the files and the key-value state.
// Writes already being committed finish; writes still queued fail with
// 57P01, and the store's tables refuse further calls.
func (s *Store) Close() error {
	var err error
	s.closeOnce.Do(func() {
		s.closed.Store(true)
		close(s.quit)
		<-s.committed
		s.closeColumnar()
		serr := s.flushSequences() // sequences.go
		s.catMu.Lock()
		perr := errors.Join(s.persistNDV(), serr)
		s.closeFiles()
		s.tables = nil
		s.catMu.Unlock()
		s.settle.close()
		s.iters.close()
		s.iters.dropView() // view.go
		err = errors.Join(perr, s.closeCommitLog(), s.db.Close())
	})
	return err
}

func (s *Store) closeFiles() {
	for _, t := range s.tables {
		t.closeFiles()
	}
}

// rowCacheShare: the row cache (rowhints.go) takes 1/rowCacheShare of
// Options.CacheBytes, 16 MiB of the largest default cache, room for 128k rows
// of up to ~100 bytes with their keys.
const rowCacheShare = 16

// minCacheBytes is the smallest default block cache (Options.CacheBytes).
const minCacheBytes = 64 << 20

// maxCacheBytes is the largest default block cache. The cache is memory
// outside Go's heap that only grows: a build of a columnar image (or any
// full scan of the row store) passes every block of the table through it,
// so a 10M-row table's state (~600 MiB decompressed) stayed resident and
// kept the process above issue 27's 512 MiB (bench/LEDGER.md). Point
// lookups gained little when the cache went from 64 MiB to an eighth of
// RAM (with one-level indexes, p50 21.0 -> 19.1 µs at 10M rows;
// bench/LEDGER.md, 2026-11-30); blocks missing from it are read from the
// OS page cache, as PostgreSQL's shared_buffers (128 MiB by default)
// leaves them.
const maxCacheBytes = 256 << 20

// pebbleOptions tunes pebble for the state of primary-key tables, whose
// reads are mostly point lookups (one SeekPrefixGE of a cached iterator):
//   - a block cache of cacheBytes, so that the blocks of a working set stay
//     decompressed in memory (a few MiB made nearly every lookup of a large
//     table read and decompress a block);
//   - bloom filters, so that a seek skips the sstables of other levels
//     without reading their blocks, and upserts of new keys read nothing;
//   - one-level indexes up to 1 MiB (sstables up to ~100 MB), so that a
//     seek reads one index block rather than two;
//   - a memtable of memTableSize(cacheBytes).
//
// Larger compaction outputs (fewer sstables per level, so that a lookup
// reopens a level's sstable iterator less often) made lookups and upserts
// of existing keys faster after a bulk load, but the long compactions held
// up L0 and upserts of new keys got ten times slower: pebble's default
// target sizes stay.
// memTableSize is pebble's memtable size for a block cache of cacheBytes:
// a sixteenth of it, from pebble's default 4 MiB up to 16 MiB (at the
// default cache of 256 MiB). pebble reserves its memtables' memory in the
// block cache (at most two while one flushes: MemTableStopWritesThreshold),
// so the store's memory outside Go's heap stays cacheBytes; a larger
// memtable takes up to 2/16 of it from the cached blocks.
//
// Why larger than pebble's 4 MiB: one-row commits to a table larger than a
// memtable's worth of commits (pgbench's 100k-row W10 table: ~500 bytes of
// append record and state a commit) flushed every ~8,000 commits, each
// flush an L0 table of mostly distinct keys that compaction rewrote again;
// at 16 MiB a flush dedupes four times the commits' keys (sstable bytes
// written per commit 110 -> 43, BenchmarkOneRowCommit/update100k) and the
// store's CPU per commit fell ~10%. 32 MiB wrote less still (30 B/op) but
// cost as much CPU as 4 MiB: inserting into a skiplist over a 32 MiB arena
// missed the CPU caches more (pebble's memTable.apply 10% -> 16% of the
// benchmark's CPU). bench/LEDGER.md, 2026-12-06 10:20.
func memTableSize(cacheBytes int64) uint64 {
	return uint64(min(max(cacheBytes/16, 4<<20), 16<<20))
}

func pebbleOptions(l *slog.Logger, cacheBytes int64) *pebble.Options {
	o := &pebble.Options{Logger: pebbleLogger{l}, CacheSize: cacheBytes}
	o.MemTableSize = memTableSize(cacheBytes)
	for i := range o.Levels {
		o.Levels[i].FilterPolicy = bloom.FilterPolicy(10)
		o.Levels[i].IndexBlockSize = 1 << 20
	}
	return o
}

// blockCache is what the store uses of pebble's block cache (an internal
// type of pebble's).
type blockCache interface {
	// Reserve shrinks the cache by n bytes (evicting what no longer fits)
	// until the returned function is called.
	Reserve(n int) func()
	MaxSize() int64
	Unref()
}

// pebbleLogger sends pebble's log lines to slog.
type pebbleLogger struct{ l *slog.Logger }

func (p pebbleLogger) Infof(format string, args ...any) { p.l.Debug(fmt.Sprintf(format, args...)) }
func (p pebbleLogger) Errorf(format string, args ...any) {
	p.l.Error(fmt.Sprintf(format, args...))
}

// Fatalf is called by pebble for broken internal invariants, after which it
// must not continue; the process-wide effect is pebble's contract, not ours.
func (p pebbleLogger) Fatalf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	p.l.Error(msg)
	panic("pebble: " + msg)
}

// keyTypes returns the types of the columns at idx.
func keyTypes(info fluss.TableInfo, idx []int) []types.T {
	out := make([]types.T, len(idx))
	for i, c := range idx {
		out[i] = info.Descriptor.Schema.Columns[c].Type
	}
	return out
}

func (s *Store) removeAll(dir string) error {
	if err := os.RemoveAll(dir); err != nil {
		return ioErr(err, "removing %s", dir)
	}
	return s.syncDir(filepath.Dir(dir))
}
