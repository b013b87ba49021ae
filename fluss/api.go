package fluss

import (
	"context"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// DefaultDatabase is the database tables live in when a statement names none.
// sqlgate shows it to PostgreSQL clients as the schema "public".
const DefaultDatabase = "public"

// TablePath names a table: database (schema) and table name.
type TablePath struct {
	Database string
	Table    string
}

func (p TablePath) String() string { return p.Database + "." + p.Table }

// Column is one column of a schema.
type Column struct {
	Name    string
	Type    types.T // NotNull carries the column's NOT NULL
	Comment string
}

// Schema is a table's columns and primary key.
type Schema struct {
	Columns []Column
	// PrimaryKey names the primary-key columns in key order; empty for a log table.
	PrimaryKey []string
}

// TableDescriptor is what CREATE TABLE declares.
type TableDescriptor struct {
	Schema Schema
	// BucketCount is bucket.num; 0 means the default (1).
	BucketCount int
	// BucketKey is bucket.key; empty means the primary key (PK tables) or
	// client-side assignment (log tables).
	BucketKey []string
	// PartitionKeys are PARTITIONED BY's columns (partitions.go); empty
	// for a table that is not partitioned.
	PartitionKeys []string
	Comment       string
	Properties    map[string]string
	// CustomProperties are Fluss's custom properties: kept verbatim with
	// the table and never validated, where sqlgate keeps what belongs to a
	// table and must commit with it (its owner: meta.OwnerProperty).
	CustomProperties map[string]string
}

// TableInfo is a created table: its descriptor after validation and
// normalisation (PK columns NOT NULL, defaults applied) plus identity.
type TableInfo struct {
	Path       TablePath
	TableID    int64
	SchemaID   int16
	Descriptor TableDescriptor
	// CreatedAt is the creation time in Unix milliseconds.
	CreatedAt int64
	// ArrowSchemas caches the Arrow schemas planners build from this
	// version of the schema; nil when the catalog keeps none (then they are
	// built each time).
	ArrowSchemas *ArrowSchemas
}

// HasPrimaryKey reports whether the table is a primary-key table.
func (t TableInfo) HasPrimaryKey() bool { return len(t.Descriptor.Schema.PrimaryKey) > 0 }

// PrimaryKeyName is the name PostgreSQL gives a table's primary-key
// constraint and its index, table_pkey: what pg_constraint and pg_index
// list, unique violations name and other constraints may not take.
func PrimaryKeyName(table string) string { return table + "_pkey" }

// PrimaryKeyName is the name of the table's primary-key constraint and
// its index: the one ALTER TABLE ... ADD CONSTRAINT name PRIMARY KEY gave
// it (PrimaryKeyNameProperty), else table_pkey.
func (t TableInfo) PrimaryKeyName() string {
	if n := t.Descriptor.CustomProperties[PrimaryKeyNameProperty]; n != "" {
		return n
	}
	return PrimaryKeyName(t.Path.Table)
}

// ArrowSchema is the Arrow schema that batches written to and read from the
// table carry: the columns' names, order and Arrow types (types.T.ArrowType),
// nullable unless NOT NULL.
func (t TableInfo) ArrowSchema() *arrow.Schema {
	cols := t.Descriptor.Schema.Columns
	fs := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fs[i] = arrow.Field{Name: c.Name, Type: c.Type.ArrowType(), Nullable: !c.Type.NotNull}
	}
	return arrow.NewSchema(fs, nil)
}

// ColumnIndex returns the position of the named column, or -1.
func (t TableInfo) ColumnIndex(name string) int {
	for i, c := range t.Descriptor.Schema.Columns {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// Catalog creates, drops and lists tables. Errors are *sqlerr.Error:
// 42P07 for an existing table, 42P01 for a missing one, 42P16 / 42611 for an
// invalid descriptor (naming the column).
type Catalog interface {
	CreateTable(ctx context.Context, path TablePath, desc TableDescriptor, ignoreIfExists bool) (TableInfo, error)
	DropTable(ctx context.Context, path TablePath, ignoreIfNotExists bool) error
	// GetTable returns the table's info; 42P01 if it does not exist.
	GetTable(ctx context.Context, path TablePath) (TableInfo, error)
	// ListTables lists the tables of a database, sorted by name.
	ListTables(ctx context.Context, database string) ([]TableInfo, error)
	// CreateDatabase creates a database (a PostgreSQL schema); 42P06 if it
	// exists, unless ignoreIfExists.
	CreateDatabase(ctx context.Context, name string, ignoreIfExists bool) error
	// DropDatabase drops a database; 3F000 if it does not exist, unless
	// ignoreIfNotExists. Without cascade a database holding tables is
	// refused with 2BP01; with it, its tables are dropped too, atomically
	// with the database.
	DropDatabase(ctx context.Context, name string, ignoreIfNotExists, cascade bool) error
	// ListDatabases lists the databases' names, sorted; DefaultDatabase is
	// always among them.
	ListDatabases(ctx context.Context) ([]string, error)
}

// Store is a set of tables: the embedded store or a remote cluster.
type Store interface {
	Catalog
	// Table opens a table for reading and writing; 42P01 if it does not exist.
	Table(ctx context.Context, path TablePath) (Table, error)
	Close() error
}

// UpsertOptions modify an upsert into a primary-key table.
type UpsertOptions struct {
	// IgnoreExisting keeps the stored row when its key exists (INSERT ... ON
	// CONFLICT DO NOTHING); otherwise the new row replaces it (Fluss's upsert).
	IgnoreExisting bool
	// TargetColumns, when set, is a partial update: only these columns (which
	// include the primary key) are written; the others keep their stored values
	// (NULL for a new key).
	TargetColumns []string
}

// WriteResult reports what a write did.
type WriteResult struct {
	// Rows is the number of rows written (inserted, replaced or deleted).
	Rows int64
	// Kept, when not nil, lists the rows of an IgnoreExisting upsert's
	// record that were written, in order (the others were skipped): set by
	// a table whose skips the key alone does not decide (a UNIQUE
	// constraint's conflict skips a row too), so that RETURNING lists
	// exactly the rows inserted.
	Kept []int32
}

// ScanOptions choose what a scan reads.
type ScanOptions struct {
	// Projection lists the column indexes to decode, in output order; nil = all.
	Projection []int
	// Limit stops the scan after this many rows; 0 = no limit.
	Limit int64
	// BatchRows is the preferred number of rows per output batch; 0 = store default.
	BatchRows int
	// FromOffset and FromTimestamp (Unix microseconds), for a changelog
	// scan, let the store skip the stored batches whose changes all have a
	// lower log offset (per bucket) or an earlier commit time, without
	// reading them; 0 = no bound. They are hints: rows outside the bounds
	// may still be returned, so the caller keeps its filter.
	FromOffset, FromTimestamp int64
	// Partitions, on a partitioned table, chooses the partitions read
	// (partition pruning): nil reads them all.
	Partitions PartitionFilter
	// Ranges are hints of the caller's filter (ColumnRange, scanpath.go):
	// every range holds for each row the caller keeps.
	Ranges []ColumnRange
	// Top, when set, says the caller keeps only the first rows of the
	// scan in one column's order (TopHint, scanpath.go).
	Top *TopHint
}

// RecordReader streams Arrow records. Next returns (nil, nil) at the end. The
// caller releases each record it receives and calls Close once.
type RecordReader interface {
	Schema() *arrow.Schema
	Next(ctx context.Context) (arrow.RecordBatch, error)
	Close()
}

// Table reads and writes one table. Every write is durable (fsynced, with group
// commit shared by concurrent writers) when the call returns, unless its
// context says not to wait for that (WithoutSyncWait), and atomic: a
// concurrent scan sees all of it or none of it.
//
// Written records must carry the table's column names, order and types
// (TableInfo.ArrowSchema); representation-only differences are converted and
// value-changing ones rejected naming the column, as seed 000 says. A null in a
// NOT NULL column is rejected with 23502 naming the column.
type Table interface {
	Info() TableInfo
	// Append adds rows to a log table. On a primary-key table it fails with 0A000.
	Append(ctx context.Context, rec arrow.RecordBatch) (WriteResult, error)
	// Upsert writes rows to a primary-key table, replacing rows with the same
	// key (or keeping them, see UpsertOptions). On a log table it fails with 0A000.
	Upsert(ctx context.Context, rec arrow.RecordBatch, opts UpsertOptions) (WriteResult, error)
	// Delete removes the rows whose primary keys are given; keys carries the
	// primary-key columns in key order. Missing keys are not an error.
	Delete(ctx context.Context, keys arrow.RecordBatch) (WriteResult, error)
	// Lookup returns the current rows for the given full primary keys (keys
	// carries the primary-key columns in key order), projected; keys that do
	// not exist produce no row.
	Lookup(ctx context.Context, keys arrow.RecordBatch, projection []int) (arrow.RecordBatch, error)
	// Scan reads a consistent snapshot of the table's current rows: every row
	// of a log table, the current state of a primary-key table.
	Scan(ctx context.Context, opts ScanOptions) (RecordReader, error)
}

// RowLookuper is implemented by primary-key tables that can decode one key's
// current row straight into the caller's Arrow builders, without building a
// record per call: what a prepared point lookup (`WHERE pk = $1`) runs once
// per execution. It reads the same state as Lookup.
type RowLookuper interface {
	// LookupRow looks up the primary key in row i of keys (the primary-key
	// columns in key order, as Lookup takes them) and, when it exists,
	// appends its row to dst and returns true: dst[f] receives table column
	// f (nil skips the column) and must have that column's Arrow type
	// (TableInfo.ArrowSchema). A missing key appends nothing. On an error
	// dst may hold part of a row, and the caller should discard it.
	LookupRow(ctx context.Context, keys arrow.RecordBatch, i int, dst []array.Builder) (bool, error)
}

// ReusingLookuper is implemented by primary-key tables whose lookup of one
// key can decode the row into a record kept in the caller's ReuseSlot and
// rewritten by the next lookup through that slot once released: what a
// prepared point lookup whose row goes straight to the client runs, so
// that it builds no arrays per execution.
type ReusingLookuper interface {
	// LookupReusing is Lookup of the one key in keys. Its result may be
	// the record kept in slot, labelled with out (the projection's types,
	// under the caller's names); the caller must then keep nothing of it
	// (no column, no value) past its Release. While the kept record is
	// still held, or when it cannot serve, the result is Lookup's.
	LookupReusing(ctx context.Context, keys arrow.RecordBatch, projection []int, out *arrow.Schema, slot *ReuseSlot) (arrow.RecordBatch, error)
}

// ReuseSlot holds what a ReusingLookuper keeps for its caller (one slot
// per prepared plan). The zero value is empty; it is safe for concurrent
// use.
type ReuseSlot struct{ kept atomic.Value }

// Load returns what the table stored in the slot (nil: nothing).
func (s *ReuseSlot) Load() any { return s.kept.Load() }

// Store keeps v, replacing what the slot held; v is always of one type.
func (s *ReuseSlot) Store(v any) { s.kept.Store(v) }

// BulkUpserter is implemented by primary-key tables that can take one
// upsert in parts, as the caller produces them: what COPY FROM STDIN
// streams. Each part is validated and encoded while the caller reads the
// next, and nothing is written until Commit, which writes every part as one
// Upsert of their rows in order would (one atomic, durable write; of equal
// keys the later row wins).
type BulkUpserter interface {
	BeginUpsert(ctx context.Context) (BulkUpsert, error)
}

// BulkUpsert is one upsert in parts (BulkUpserter). Its methods are called
// from one goroutine.
type BulkUpsert interface {
	// Add queues rec's rows (the table's columns, as Upsert takes them);
	// the caller may release rec when Add returns. The error of a part may
	// be reported by a later Add, or by Commit.
	Add(ctx context.Context, rec arrow.RecordBatch) error
	// Commit writes every part added (none of them on an error). The
	// upsert is finished either way.
	Commit(ctx context.Context) (WriteResult, error)
	// Discard forgets the parts and writes nothing; after Commit it does
	// nothing. A caller that does not commit must discard.
	Discard()
}

// BulkAppender is implemented by log tables that can take one append in
// parts without holding them in memory (what COPY FROM STDIN streams):
// each part is validated, encoded and staged on disk as it comes, nothing
// is visible until Commit, which appends every part as one atomic, durable
// write, and Discard or a crash before Commit leaves nothing behind. The
// returned BulkAppend has BulkUpsert's methods and rules.
type BulkAppender interface {
	BeginAppend(ctx context.Context) (BulkAppend, error)
}

// BulkAppend is one append in parts (BulkAppender).
type BulkAppend interface {
	BulkUpsert
}

// RowEstimator is implemented by tables that can estimate their row count
// from metadata alone, without reading rows: what the planner orders joins
// by. A primary-key table may count the changes written (an upper bound).
type RowEstimator interface {
	EstimateRows() int64
}

// DistinctEstimator is implemented by tables that keep a distinct-count
// estimate per column (a sketch, read without reading rows): what the
// planner estimates equi-join and GROUP BY outputs by. It counts the
// non-null values ever written, so after deletes it is an upper bound; ok
// is false when the table cannot tell.
type DistinctEstimator interface {
	EstimateDistinct(column int) (ndv int64, ok bool)
}

// Changelog metadata columns of a table's $changelog view, as Fluss names
// them; they come before the table's own columns.
const (
	ChangeTypeColumn      = "_change_type"
	LogOffsetColumn       = "_log_offset"
	CommitTimestampColumn = "_commit_timestamp"
)

// ChangelogColumns are the $changelog view's columns: the three metadata
// columns (change type as Fluss spells it: insert, update_before,
// update_after, delete; the record's log offset; the commit time with
// millisecond precision), then the table's columns, all nullable.
func ChangelogColumns(info TableInfo) []Column {
	cols := []Column{
		{Name: ChangeTypeColumn, Type: types.T{Kind: types.String, NotNull: true}},
		{Name: LogOffsetColumn, Type: types.T{Kind: types.Int64, NotNull: true}},
		{Name: CommitTimestampColumn, Type: types.T{Kind: types.TimestampTZ, Precision: 3, NotNull: true}},
	}
	for _, c := range info.Descriptor.Schema.Columns {
		c.Type = c.Type.Nullable()
		cols = append(cols, c)
	}
	return cols
}

// ChangelogScanner is implemented by tables that can read their changelog:
// every change in log order within a bucket, buckets in order, with the
// columns of ChangelogColumns (Projection indexes into those).
type ChangelogScanner interface {
	ScanChangelog(ctx context.Context, opts ScanOptions) (RecordReader, error)
}

// PrefixScanner is implemented by primary-key tables that can read the rows
// of given bucket-key values without reading the whole table (a prefix
// lookup: the bucket key is a subset of the primary key, so its rows share
// one bucket).
type PrefixScanner interface {
	// ScanPrefix reads a consistent snapshot of the current rows whose
	// bucket-key columns equal one of keys' rows (keys carries the
	// bucket-key columns in bucket-key order; a row with a NULL matches
	// nothing, a repeated row counts once), with opts as for Scan.
	ScanPrefix(ctx context.Context, keys arrow.RecordBatch, opts ScanOptions) (RecordReader, error)
}

// WriteKind says what a TableWrite does.
type WriteKind int

// The kinds of TableWrite.
const (
	// WriteAppend appends Rec's rows to a log table.
	WriteAppend WriteKind = iota
	// WriteUpsert writes Rec's rows to a primary-key table (full rows).
	WriteUpsert
	// WriteDelete removes the rows whose primary keys Rec carries.
	WriteDelete
)

// TableWrite is one write of an atomic group (see AtomicWriter).
type TableWrite struct {
	Path TablePath
	// TableID must match the table's current id: a table dropped and
	// re-created since the writes were prepared fails the whole group.
	TableID int64
	Kind    WriteKind
	Rec     arrow.RecordBatch
	// Opts apply to WriteUpsert (IgnoreExisting only: rows are full rows).
	Opts UpsertOptions
}

// Apply runs one write on t with the matching Table call.
func (w TableWrite) Apply(ctx context.Context, t Table) (WriteResult, error) {
	switch w.Kind {
	case WriteAppend:
		return t.Append(ctx, w.Rec)
	case WriteUpsert:
		return t.Upsert(ctx, w.Rec, w.Opts)
	case WriteDelete:
		return t.Delete(ctx, w.Rec)
	}
	return WriteResult{}, sqlerr.New(sqlerr.InternalError, "unknown write kind %d", w.Kind)
}

// AtomicWriter is implemented by stores that can make several writes, over
// several tables, durable and visible at once: a transaction's COMMIT. Either
// every write is applied, in order, or none is (the error says why); a crash
// during the call leaves all or nothing after recovery. A concurrent scan sees
// the group entirely or not at all per table.
type AtomicWriter interface {
	WriteAtomically(ctx context.Context, writes []TableWrite) ([]WriteResult, error)
}

// RowLockable is implemented by stores whose every write passes through
// the one process that opened them (the embedded store: its directory is
// locked by one server), so that this process's row locks (package rowlock)
// order all concurrent writers of a row. A store that other processes
// write too (a Fluss cluster shared by several sqlgate servers) offers no
// conditional write to lock a row between them: it does not implement
// RowLockable (or answers false), and the engine then refuses the
// statements that read a row to write it.
type RowLockable interface {
	RowLocksSerializeWriters() bool
}

// Snapshotter is implemented by stores that can hold one consistent view of
// every table's committed state for as long as a transaction runs: the
// engine takes a Snapshot at a REPEATABLE READ transaction's first statement
// and reads through it until COMMIT, ROLLBACK or the session's end closes it.
// A store without it refuses REPEATABLE READ.
type Snapshotter interface {
	Snapshot(ctx context.Context) (Snapshot, error)
}

// Snapshot is one held view of a store's committed state.
type Snapshot interface {
	// Table returns t as the snapshot sees it (ok): its reads see the
	// state captured when the snapshot was taken (a table created later
	// reads empty), its writes go to t. A table that is not of the
	// snapshot's store (a catalog view) is returned as it is, not ok.
	Table(t Table) (_ Table, ok bool)
	// RowChanged reports how the row of t with the primary key key (its
	// Fluss key encoding, CompactedKeyEncoder's bytes) differs between the
	// snapshot and the newest committed state.
	RowChanged(ctx context.Context, t Table, key []byte) (RowChange, error)
	// Close releases the snapshot; tables it returned must not be read
	// after it.
	Close()
}

// RowChange is how a row differs between a Snapshot and the newest state.
type RowChange int8

const (
	// RowUnchanged: the same values, or absent from both.
	RowUnchanged RowChange = iota
	// RowUpdated: inserted since, or rewritten with other values.
	RowUpdated
	// RowDeleted: in the snapshot, deleted since.
	RowDeleted
)
