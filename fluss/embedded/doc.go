// Package embedded owns sqlgate's default, on-disk Fluss store: a directory
// holding a FORMAT file, the catalog (catalog.json, Fluss's table JSON shape,
// replaced atomically), one log file per table bucket made of Fluss V0 log
// record batches (CRC-32C, Arrow IPC records in Fluss's units, change-type
// vectors), and one pebble database (kv/) holding the current state of
// primary-key tables and every bucket log's committed length. The bytes are
// Fluss 0.9.1's (package format): a primary-key table's key is its
// CompactedKeyEncoder bytes and its value ValueEncoder's, the table's schema
// id (2 bytes) then the CompactedRow. FORMAT says the layout version
// (FormatVersion, 2); a store of another version is refused at Open
// (version 1, before the bytes were Fluss's, with a hint to export and
// reload: converting it would rewrite every batch and value).
//
// Writes go through one committer per store that group-commits: a
// goroutine, or the writer itself when the committer is idle and nothing
// is queued (commit.go: no hand-off to another goroutine and back at one
// writer), the two taking turns by one token; every request queued while
// the previous commit synced — single writes and
// transactions' atomic groups alike, over any number of tables (an atomic
// group prepares as one unit that fails whole, atomic.go) — is written to
// the bucket logs, and one pebble batch records the new primary-key state,
// each touched log's committed length and, for a group of small writes,
// the appended bytes themselves (durable.go). The batch's synced commit is
// the group's one sync (fdatasync of pebble's write-ahead log) and its
// commit point: the bucket logs are fsynced later, many groups at a time,
// by a checkpoint that then drops the copies (its fsyncs run beside the
// next groups, not holding the committer's token), and Open writes any copy
// still present back into its log. A group of more than 1 MiB of log bytes
// fsyncs its logs before its state commits instead of copying them.
// pebble's memtable is a sixteenth of the block cache, 4 to 16 MiB
// (memTableSize, store.go), reserved inside the block cache: one-row
// commits to a large table flush less often, each flush deduping more
// updates of the same keys, and compaction rewrites less per commit.
// A group that waits for its sync, with no unsynced commit before it,
// makes its one sync elsewhere: its batch is written to the store's commit
// log (commit.wal, commitlog.go) and fdatasynced inline by the committer,
// its commit point, and committed to pebble unsynced, because pebble's
// synced commit hands its write and sync to pebble's flush goroutine and
// waits for it (two goroutine wake-ups per group; at one client, two
// thread wake-ups per commit); a lone group with nothing queued makes the
// write and sync raw calls, any other an ordinary sync that frees the
// committer's P for the connections. Open commits again the records
// pebble lost, which a key in each batch names. But after a group of several
// writers, a lone writer waiting for its sync is not committed at once:
// the committer goroutine waits for more requests, until as many writers
// as the last group had or half the last sync's duration (at most 500 µs),
// and commits them as one group (gather.go): committed at once, the lone
// writer's sync split the groups under concurrency (pgbench at 8 clients,
// durable: 43% of the syncs carried one transaction, 3.4 per sync against
// PostgreSQL's 4.5; bench/LEDGER.md). Writes that do not wait for their
// sync are never gathered.
// Fsync-on-every-log was chosen against by measurement (TestSyncsPerCommit:
// an autocommit write made two syncs and a two-table transaction three,
// each transaction alone; now one per group; bench/LEDGER.md has the
// transactions per second). A write returns only after its group's commit;
// a group none of whose writers waits for the sync
// (fluss.WithoutSyncWait: synchronous_commit = off) commits its batch
// unsynced and is synced by the next group that waits or within 200 ms
// (asynccommit.go; that timer's sync does not hold the committer's token,
// so writers commit beside it), and an ingestion never lands on top of
// unsynced groups. Pebble's WAL file and the commit log zero-fill themselves ahead
// of their writes (fsys.go), as PostgreSQL's WAL segments are, so that the
// sync of a commit rewrites data blocks instead of growing the file. A
// commit's small log append and record write, and the commit log's or the
// WAL's sync of a group that commits alone with nothing queued, are
// raw system calls (rawio_linux.go): the
// runtime's ordinary syscall path wakes its monitor thread whenever the
// process had gone idle, which at one client is every commit (measured in
// bench/LEDGER.md: a futex wake-up and sysmon's 20 µs polling for as long
// as the sync lasts, 15% of the server's CPU per transaction).
// Because the committed lengths live in the same pebble commit as the
// state, the state always agrees with the logs, and on Open anything past a
// log's committed length (a torn or unacknowledged tail) is truncated. A group whose state passes
// Options.IngestBytes (a bulk load) is not committed as a batch but built
// into sstables, committed lengths included, and ingested in one atomic,
// durable pebble Ingest (ingest.go): no WAL copy, no flush, and a fresh key
// range lands in the lowest level without later compactions; the logs are
// written and synced while the sstables are built. A bulk upsert
// (fluss.BulkUpserter, bulk.go: COPY FROM STDIN) is encoded and its keys
// sorted part by part while its caller reads the next part (a part of 64k
// rows or more, a Flight SQL ingest's batch, on two cores: bulkencode.go), and committed
// as one request; past Options.StageBytes (32 MiB by default) of encoded rows it
// writes what it holds as a sorted run under staging/ instead
// (stagedupsert.go; uncompressed, read once soon after), and its commit
// merges the runs, and the rows still in memory as the newest, by key
// against the stored state in one pass, alone in the committer: the
// changelog (the inserts each spill also staged from its Arrow records,
// when every key turns out new and once) goes to the end of the bucket
// logs, the new state into non-overlapping sstables, and one pebble
// Ingest of those with the new committed lengths is the commit point. Sorted runs, not the log with commit records, because a
// primary-key table's changelog (insert or update) depends on the state at
// commit and its state is ingested in key order: the rows must be sorted
// by key before any of them can be written. A bulk append
// (fluss.BulkAppender, staged.go: COPY FROM STDIN into a log table)
// writes its encoded batches, as they come, past the committed length of
// each bucket log whose end it could claim (tailclaim.go: no other bulk
// append holds it), stamped with their log offsets and with the device's
// write-back started every 8 MiB (sync_file_range, writeback_linux.go),
// so that its commit writes each batch's
// commit time in place (outside the CRC) and fsyncs what little is left
// (a 1M-row COPY's commit took ~100 ms, copying and syncing ~48 MB;
// bench/LEDGER.md). Any other write to a claimed bucket goes first: the
// committer moves the claimed bytes to the append's staging file and
// cuts them off the log (takeTail), and the append stages that bucket
// from then on, as it stages a bucket it could not claim: on disk, under
// staging/, copied to the end of the log (stamping offsets) by its
// commit. The batches are written as they will be committed, claimed or not:
// the log's own bytes need no sorting. Either way the
// write's memory is bounded whatever its size, it is invisible until its
// commit point, and Open removes the staging, sstables and log tails a
// crash left. The engine stages a large transaction's writes through the
// same two calls (engine/txnspill.go).
//
// A table rewrite (fluss.TableReplacer, replace.go: ALTER TABLE's new
// column types, dropped and renamed columns) fills a table of a new id
// that no catalog entry names, then swaps it in by one catalog write after
// retiring the old state through the committer; a crash before leaves an
// id Open removes (TestCrashReplace). A partitioned table is replaced
// with its partitions, staged beside it and swapped in the same write.
// Past that write a cancelled context stops nothing: the sequences follow
// and the old state goes all the same.
//
// Each table keeps a HyperLogLog sketch per column (ndv.go): writers hash
// their records, the committer folds the hashes in, and the sketches are
// stored in pebble beside the state at most once a second and at Close;
// they answer fluss.DistinctEstimator for the planner.
//
// A held snapshot (fluss.Snapshotter, snapshot.go: a REPEATABLE READ
// transaction's) is a reference to the current read view (a pebble
// snapshot of the durable state, see below) and every log table's
// committed lengths; its tables scan, look up and prefix-scan that state (point
// lookups skip the iterator cache), and RowChanged compares a key's stored
// value in it with the newest.
//
// A primary-key table that full scans read and that is large enough also
// has a columnar image (columnar.go, columnarfile.go): immutable Arrow IPC
// files on disk under columnar/, one per column, of the columns scans asked
// for, in chunks with per-chunk min/max and null counts, decoded from one
// pebble snapshot in the background and written under a temporary name that
// a rename makes complete (Open removes anything else). The image records
// the table's bucket logs' committed lengths, which every state write
// changes in the same pebble commit: a scan whose snapshot has the same
// lengths (a transaction's held one included, and after a restart) reads
// the image one chunk of its columns at a time instead of decoding rows:
// fixed-width columns zero copy from read-only mappings of their files,
// reference-counted per array and retired once the image is replaced and
// its arrays released, the pages behind a scan given back to keep them
// out of the RSS (columnarmap.go); strings with pread.
// A scan of a later state merges on read (columnarmerge.go): the log
// bytes between the image's lengths and its snapshot's name the keys
// written since, each chunk's key range is known from its first key, and
// the chunks a write touched are read from the scan's pebble snapshot
// instead, so the rows are exactly the snapshot's, in the row path's
// order; it also asks for a new image, which is patched from the current
// one (untouched chunks copied, touched ones decoded again) when the writes
// touched at most half its chunks. A snapshot older than the image reads
// pebble. Image builds and full row-store scans of tables that large read
// around the block cache (shrunk to a small window while they run), so one
// pass over a table neither evicts what point lookups use nor leaves the
// process holding a full cache of C memory. A scan with ranges
// (fluss.ScanOptions.Ranges) skips the chunks whose min/max or null counts
// exclude them; one with a top hint (fluss.ScanOptions.Top: ORDER BY col
// LIMIT N) reads the sort column of every chunk, then only the rows
// among the N best (columnartop.go: the state's key order, Fluss's varint
// bytes in hashed buckets, is not SQL order, so no scan reads it in key
// order); and ScanStats answers row and non-null counts and integer
// min/max from the statistics alone. Files an earlier
// process wrote are checked against their CRC-32C once before use; a
// damaged one is refused, naming it, and scans read the row store. SplitScan
// (columnarsplit.go) reads a table in parts over one snapshot for parallel
// workers: whole image chunks, or bucket ranges of the row store.
//
// Reads see durable state only (view.go). pebble makes a committed batch
// visible when it applies it to the memtable, before its write-ahead log
// sync completes, so a reader of the live DB could see a row whose group
// is still syncing: after a power loss the row a reader saw would be gone
// although its writer was never acknowledged (PostgreSQL never shows an
// unflushed synchronous commit). Readers therefore read a read view: a
// pebble snapshot the committer takes after each state write returns (so
// after its sync; for a group committed without waiting for its sync,
// synchronous_commit = off, after its apply, as PostgreSQL shows such a
// commit at once) and publishes before it advances the iterator cache's
// write count, in an atomic pointer with a reference count. Only the
// committer writes state, one group at a time, so there is exactly one
// state between two syncs and the view is the durable state. Point reads,
// the iterator cache's iterators, scans, prefix scans, lookups of several
// keys, follows, the columnar images' builds and a held REPEATABLE READ
// snapshot all take a reference to the current view instead of a snapshot
// or iterator of the live DB; the writer's own prepare reads the live
// state. A view whose last reference is released is closed by the
// committer with others, 16 at a time, newest first, one of them kept
// open for up to a second as the oldest: pebble runs a compaction check
// (allocating, under its DB lock) each time its earliest snapshot closes,
// which would otherwise happen at every commit. The cost is one pebble
// snapshot per group commit (one allocation). The log tables' reads were
// already bounded by committed lengths that the committer publishes after
// the commit returns. A scan iterates a view (a primary-key table) or
// reads each bucket log up to the committed length captured when it
// starts, from a read-only mapping of the log that lasts
// as long as the table (logmap.go; pread where the log cannot be mapped),
// the records' arrays pointing into it (no copy). A batch's CRC is checked
// once per process: by Open, or not at all for a batch this process wrote.
// Such a batch is read by its flat columns' buffers alone (only the
// projected ones; all of them, in place, for a scan of every column of a
// mapped log), without hashing it again; any other batch (Open found it
// damaged or did not check it, SkipVerify; a nested column read; no mapping for
// a scan of every column) is read whole and its CRC checked. Damage done
// to a log behind the store's back after Open is found by the next Open.
// A point lookup of one key reads the row cache first (rowhints.go: rows
// that point reads and commits met lately, kept true by the commits), else
// is one seek of a
// cached pebble iterator, reused only while no state write has happened
// since it was opened (itercache.go; each group's state lands in one atomic
// pebble commit) and kept per sstable key region, so that it has the key's
// sstable open already, except that the first lookup after a write is a
// pebble Get (a write retires every iterator, and under a stream of
// UPDATEs a new iterator per lookup cost ~3x the Get); of several keys one snapshot; fluss.RowLookuper decodes
// one key's row into the caller's builders (lookuprow.go). A bulk load's
// ingested sstables overlap the table's older ones, so once loads pause the
// table's key range is compacted to one level in the background
// (settle.go), which the load's acknowledgement does not wait for. A prefix lookup by bucket
// key (prefix.go) iterates one snapshot over each key's range of its
// bucket; a changelog scan with an offset or time bound steps over the
// batches below it by their headers alone (logrange.go). Within a group, a request reads what the group's earlier
// requests wrote from their overlays, since the batch is not committed yet.
// The row cache (rowhints.go) holds stored rows of primary-key tables by
// key, inline in pointer-free slots taken from the block cache's share: a
// point read that missed fills it when no state write started since it
// read, and a group commit takes the keys it writes out of it before its
// state batch and puts their new rows in once the batch is committed (a
// write of keys no one took out, an ingestion or a table's deletion, voids
// every row from before it). The commit's prepare, which reads each written
// key's stored row for the changelog's before image, takes it from the
// cache too, so an
// UPDATE by key reads its row once. Small changelog batches of fixed-width
// columns are written by the table's format.SmallBatchEncoder, from the
// compacted rows themselves (no Arrow record between) once it has the
// batch's IPC prefix for that many rows; so are a log table's appends of a
// few such rows (a one-row INSERT), from their record.
//
// A follow of a table's changelog (fluss.ChangelogFollower, follow.go:
// SUBSCRIBE) keeps a byte position per bucket and reads what commits past
// it from the log's mapping; publish wakes the table's followers, and a
// follow that starts with a snapshot of a primary-key table starts each
// bucket at the committed length recorded in that snapshot's pebble state.
//
// A partitioned table's partitions (partitions.go) are entries of the
// catalog file with ids of their own, each a tableState with its own
// bucket logs and pebble state, so that creating or dropping one is one
// atomic replacement of the catalog; auto-partitioning runs when the
// table's partitions are listed in a new time unit.
//
// Databases (schemas) are listed in the catalog file. ALTER TABLE
// (alter.go) replaces a table's catalog entry atomically; ADD COLUMN gives
// it a new schema id and records each schema id's column count, and the
// rows and log batches of older schema ids are widened when read
// (storedRow, logScan, the changelog's follower), never rewritten: the
// columns added since read their missing values (fluss/missing.go), NULL
// unless ADD COLUMN gave a default. RENAME TO (rename.go)
// changes the entry's name alone: files and state are keyed by table id.
// Sequences are kept in sequences.json (sequences.go), a second file: a
// table's sequences (SERIAL, identity, OWNED BY) follow the catalog, and
// Open mends what a crash between the two writes left (settleSequences).
//
// It must not know SQL: it implements fluss.Store and returns *sqlerr.Error
// values; it must not reach outside its directory.
package embedded
