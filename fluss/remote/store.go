package remote

import (
	"context"
	"errors"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Store is a fluss.Store over a Fluss cluster. Every write is acknowledged
// by all in-sync replicas (acks=all) before it returns; there is no
// multi-table atomicity (Store does not implement fluss.AtomicWriter), and a
// write of rows spanning several buckets is one request per bucket, each
// atomic on its own.
type Store struct {
	c *Client
	// writer is the store's one idempotent writer: a writer id per table
	// opened would leave the cluster tracking a writer per statement.
	// Its writes are serialised (sequences must reach a bucket in order).
	writer *Writer
	// rr spreads appends to log tables without a bucket key over buckets.
	rr atomic.Uint32
	// db is the cluster database shown as "public", prefix the one of
	// every other schema's (store_database.go).
	db, prefix string
	// scanRows and leaderWait, when set, replace maxScanRowsPerBucket
	// and defaultLeaderWait (tests).
	scanRows   int
	leaderWait time.Duration
	// schemaCols caches the column counts of tables' older schemas (alter.go).
	schemaCols schemaColumns
	// tables caches table info by path (tablecache.go), trusted for maxAge.
	tables tableCache
	maxAge time.Duration
	// seqs is the sequences' state, replayed from their log (sequences.go).
	seqs seqState
	// temp is this server's lease on its temporary schemas and the
	// sweeper of other servers' (tempschemas.go).
	temp tempLeases
	// written wakes this server's follows of a table (by table id,
	// *fluss.FollowSignal) when this server wrote to it (follow.go).
	written sync.Map
}

// maxScanRowsPerBucket bounds the LimitScan that reads a primary-key
// table's bucket (see Table.Scan): a bucket with at least this many rows
// is read from its changelog instead (scan_replay.go).
const maxScanRowsPerBucket = 1 << 16

// fetchMaxBytes is what one FetchLog asks for.
const fetchMaxBytes = 8 << 20

// OpenStore connects to the cluster (it checks that a server answers) and
// makes sure the database sqlgate shows as "public" (Config.Database)
// exists.
func OpenStore(ctx context.Context, cfg Config) (*Store, error) {
	if err := cfg.checkDatabase(); err != nil {
		return nil, err
	}
	c, err := New(cfg)
	if err != nil {
		return nil, err
	}
	db := cfg.publicDatabase()
	if err := c.CreateDatabase(ctx, db, true); err != nil {
		c.Close()
		return nil, storeErr(err, fluss.TablePath{Database: db})
	}
	s := &Store{c: c, writer: c.NewWriter(), db: db, prefix: cfg.DatabasePrefix, maxAge: orDefault(cfg.TableInfoMaxAge, tableInfoMaxAge)}
	s.temp.init()
	s.temp.wg.Add(1)
	go s.sweepLoop()
	return s, nil
}

// Client is the store's client.
func (s *Store) Client() *Client { return s.c }

// Close stops the temporary schemas' lease and sweeper (tempschemas.go),
// gives back this server's unused sequence values (sequences.go) and
// closes the store's connections.
func (s *Store) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	s.closeTemp(ctx)
	s.releaseSequences(ctx)
	cancel()
	return s.c.Close()
}

// storeErr turns the client's errors into the SQLSTATEs sqlgate reports.
func storeErr(err error, path fluss.TablePath) error {
	if err == nil {
		return nil
	}
	if sqlerr.As(err) != nil {
		return err
	}
	var fe *Error
	if errors.As(err, &fe) {
		switch fe.Code {
		case CodeTableNotExist:
			return sqlerr.Wrap(err, sqlerr.UndefinedTable, "relation \"%s\" does not exist", path.Table)
		case CodeTableAlreadyExist:
			return sqlerr.Wrap(err, sqlerr.DuplicateTable, "relation \"%s\" already exists", path.Table)
		case CodeDatabaseNotExist:
			return sqlerr.Wrap(err, sqlerr.InvalidSchemaName, "schema \"%s\" does not exist", path.Database)
		case CodeAuthenticate:
			return sqlerr.Wrap(err, sqlerr.InvalidAuthorizationSpec, "%v", err)
		case CodeAuthorization:
			return sqlerr.Wrap(err, sqlerr.InsufficientPrivilege, "%v", err)
		case CodeDeletionDisabled:
			return sqlerr.Wrap(err, sqlerr.FeatureNotSupported, "%v", err)
		case CodeUnsupportedVersion:
			return sqlerr.Wrap(err, sqlerr.FeatureNotSupported, "%v", err)
		}
		if fe.Retriable() {
			return sqlerr.Wrap(err, sqlerr.ConnectionFailure, "Fluss cluster unavailable: %v", err)
		}
		return sqlerr.Wrap(err, sqlerr.ExternalRoutineException, "%v", err)
	}
	var ce *ConnError
	if errors.As(err, &ce) || errors.Is(err, ErrClosed) {
		return sqlerr.Wrap(err, sqlerr.ConnectionFailure, "Fluss cluster unavailable: %v", err)
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return sqlerr.Wrap(err, sqlerr.QueryCanceled, "canceling statement: %v", err)
	}
	var pe *ProtocolError
	if errors.As(err, &pe) {
		return sqlerr.Wrap(err, sqlerr.ProtocolViolation, "%v", err)
	}
	return sqlerr.Wrap(err, sqlerr.InternalError, "%v", err)
}

// CreateTable validates and creates a table. A partitioned table, or a
// property Fluss rejects, fails with the server's error.
func (s *Store) CreateTable(ctx context.Context, path fluss.TablePath, desc fluss.TableDescriptor, ignoreIfExists bool) (fluss.TableInfo, error) {
	norm, err := fluss.ValidateDescriptor(desc)
	if err != nil {
		return fluss.TableInfo{}, err
	}
	if err := s.createTable(ctx, s.onCluster(path), norm, ignoreIfExists); err != nil {
		return fluss.TableInfo{}, storeErr(err, path)
	}
	s.catalogChanged(ctx, path)
	return s.GetTable(ctx, path)
}

// DropTable drops a table.
func (s *Store) DropTable(ctx context.Context, path fluss.TablePath, ignoreIfNotExists bool) error {
	err := s.c.DropTable(ctx, s.onCluster(path), ignoreIfNotExists)
	s.catalogChanged(ctx, path)
	return storeErr(err, path)
}

// GetTable returns a table's info, from the cache (tablecache.go) or the
// cluster.
func (s *Store) GetTable(ctx context.Context, path fluss.TablePath) (fluss.TableInfo, error) {
	old, had, fresh := s.cachedTable(path)
	if fresh {
		return old, nil
	}
	gen, pgen := s.cacheGen(path)
	start := time.Now()
	info, err := s.c.GetTableInfo(ctx, s.onCluster(path))
	if err != nil {
		return fluss.TableInfo{}, storeErr(err, path)
	}
	if info.Descriptor.BucketCount <= 0 {
		info.Descriptor.BucketCount = 1
	}
	info = s.shown(withComments(info))
	info.ArrowSchemas = fluss.NewArrowSchemas() // shared by the statements the entry serves
	s.cacheTable(path, info, gen, pgen, start)
	if had && (old.TableID != info.TableID || old.SchemaID != info.SchemaID) {
		s.changedUnannounced(ctx) // changed by a client that is not sqlgate
	}
	return info, nil
}

// ListTables lists a database's tables, sorted by name; a missing database
// has none.
func (s *Store) ListTables(ctx context.Context, database string) ([]fluss.TableInfo, error) {
	names, err := s.c.ListTables(ctx, s.clusterDB(database))
	if CodeOf(err) == CodeDatabaseNotExist {
		return nil, nil
	}
	if err != nil {
		return nil, storeErr(err, fluss.TablePath{Database: database})
	}
	sort.Strings(names)
	out := make([]fluss.TableInfo, 0, len(names))
	for _, n := range names {
		info, err := s.GetTable(ctx, fluss.TablePath{Database: database, Table: n})
		if sqlerr.CodeOf(err) == sqlerr.UndefinedTable {
			continue // dropped meanwhile
		}
		if err != nil {
			return nil, err
		}
		out = append(out, info)
	}
	return out, nil
}

// Table opens a table.
func (s *Store) Table(ctx context.Context, path fluss.TablePath) (fluss.Table, error) {
	info, err := s.GetTable(ctx, path)
	if err != nil {
		return nil, err
	}
	t, err := newTable(s, info)
	if err != nil {
		return nil, err
	}
	if t.oldCols, err = s.oldColumns(ctx, info); err != nil {
		return nil, err
	}
	if info.IsPartitioned() {
		return s.partitionedTable(t) // partitions.go
	}
	return t, nil
}

// table is one table of the cluster, with what encoding its rows needs.
type table struct {
	s      *Store
	info   fluss.TableInfo
	tab    Table
	ts     []types.T // column types
	pk     []int     // primary-key column positions, key order
	bk     []int     // bucket-key column positions
	bkInPK []int     // bucket-key columns' positions within the primary key
	nb     int
	// codec is the log's declared Arrow compression, which log batches are
	// written with (format.Compression says why); codecErr, a declared
	// codec sqlgate does not know, fails writes only.
	codec    format.Compression
	codecErr error
	// oldCols are the column counts of the table's older schemas: rows
	// written under one read NULL in the columns added since.
	oldCols map[int16]int
	// missing is what those rows read in the added columns (nil: NULL in
	// each; fluss/missing.go).
	missing *fluss.Missing
}

func newTable(s *Store, info fluss.TableInfo) (*table, error) {
	t := &table{s: s, info: info, tab: Table{Path: s.onCluster(info.Path), ID: info.TableID}, nb: info.Descriptor.BucketCount}
	t.codec, t.codecErr = format.ParseCompression(info.Descriptor.Properties[format.CompressionProperty])
	t.missing = fluss.MissingOf(info.Descriptor)
	for _, c := range info.Descriptor.Schema.Columns {
		t.ts = append(t.ts, c.Type)
	}
	for _, n := range info.Descriptor.Schema.PrimaryKey {
		t.pk = append(t.pk, info.ColumnIndex(n))
	}
	bkNames := info.Descriptor.BucketKey
	if len(bkNames) == 0 {
		bkNames = info.Descriptor.Schema.PrimaryKey
	}
	for _, n := range bkNames {
		i := info.ColumnIndex(n)
		if i < 0 {
			return nil, sqlerr.New(sqlerr.DataCorrupted, "bucket key column %q of %s is not a column", n, info.Path)
		}
		t.bk = append(t.bk, i)
		t.bkInPK = append(t.bkInPK, slices.Index(t.pk, i))
	}
	return t, nil
}

func (t *table) Info() fluss.TableInfo { return t.info }

func (t *table) typesOf(pos []int) []types.T {
	out := make([]types.T, len(pos))
	for i, p := range pos {
		out[i] = t.ts[p]
	}
	return out
}

func colsOf(rec arrow.RecordBatch, pos []int) []arrow.Array {
	out := make([]arrow.Array, len(pos))
	for i, p := range pos {
		out[i] = rec.Column(p)
	}
	return out
}

// bucketsOf returns each row's bucket: the hash of its bucket-key bytes.
func (t *table) bucketsOf(cols []arrow.Array, ts []types.T, n int) ([]int32, error) {
	out := make([]int32, n)
	var buf []byte
	for i := 0; i < n; i++ {
		var err error
		if buf, err = format.AppendKey(buf[:0], ts, cols, i); err != nil {
			return nil, sqlerr.New(sqlerr.NotNullViolation, "bucket key: %v", err)
		}
		out[i] = int32(format.BucketOf(buf, t.nb))
	}
	return out, nil
}

// Append adds rows to a log table: with a bucket key, each row goes to its
// key's bucket; without, the whole batch goes to one bucket, round robin.
func (t *table) Append(ctx context.Context, rec arrow.RecordBatch) (fluss.WriteResult, error) {
	if t.info.HasPrimaryKey() {
		return fluss.WriteResult{}, errAppendToPK(t.info.Path)
	}
	conv, err := fluss.ValidateRecord(t.info, rec)
	if err != nil {
		return fluss.WriteResult{}, err
	}
	defer conv.Release()
	n := int(conv.NumRows())
	if n == 0 {
		return fluss.WriteResult{}, nil
	}
	parts := map[int32]arrow.RecordBatch{}
	if len(t.info.Descriptor.BucketKey) == 0 {
		conv.Retain()
		parts[int32(t.s.rr.Add(1)%uint32(t.nb))] = conv
	} else {
		buckets, err := t.bucketsOf(colsOf(conv, t.bk), t.typesOf(t.bk), n)
		if err != nil {
			return fluss.WriteResult{}, err
		}
		if parts, err = splitByBucket(conv, buckets); err != nil {
			return fluss.WriteResult{}, err
		}
	}
	defer func() {
		for _, p := range parts {
			p.Release()
		}
	}()
	if t.codecErr != nil {
		return fluss.WriteResult{}, sqlerr.New(sqlerr.FeatureNotSupported, "writing to %s: %v", t.info.Path, t.codecErr)
	}
	for _, b := range sortedBuckets(parts) {
		batch, err := format.EncodeTableBatchCompressed(parts[b], t.ts, nil, t.info.SchemaID, t.codec)
		if err != nil {
			return fluss.WriteResult{}, sqlerr.Wrap(err, sqlerr.InternalError, "encoding log batch: %v", err)
		}
		if _, err := t.s.writer.Append(ctx, t.tab, b, batch); err != nil {
			t.s.wroteTo(t.info.TableID)
			return fluss.WriteResult{}, t.s.noteTableErr(err, t.info.Path)
		}
	}
	t.s.wroteTo(t.info.TableID)
	return fluss.WriteResult{Rows: int64(n)}, nil
}

func sortedBuckets[V any](m map[int32]V) []int32 {
	out := make([]int32, 0, len(m))
	for b := range m {
		out = append(out, b)
	}
	slices.Sort(out)
	return out
}

// splitByBucket cuts rec into one record per bucket, rows in order.
func splitByBucket(rec arrow.RecordBatch, buckets []int32) (map[int32]arrow.RecordBatch, error) {
	builders := map[int32]*array.RecordBuilder{}
	defer func() {
		for _, b := range builders {
			b.Release()
		}
	}()
	for i, bk := range buckets {
		b := builders[bk]
		if b == nil {
			b = array.NewRecordBuilder(memory.DefaultAllocator, rec.Schema())
			builders[bk] = b
		}
		for c := 0; c < int(rec.NumCols()); c++ {
			if err := format.AppendFrom(b.Field(c), rec.Column(c), i); err != nil {
				return nil, err
			}
		}
	}
	out := make(map[int32]arrow.RecordBatch, len(builders))
	for bk, b := range builders {
		out[bk] = b.NewRecordBatch()
	}
	return out, nil
}

// Upsert writes full rows to a primary-key table (a partial update with
// TargetColumns). Rows of one bucket go in one PutKv; of equal keys in one
// call, the later row wins, as Fluss applies a batch's records in order.
func (t *table) Upsert(ctx context.Context, rec arrow.RecordBatch, opts fluss.UpsertOptions) (fluss.WriteResult, error) {
	if !t.info.HasPrimaryKey() {
		return fluss.WriteResult{}, sqlerr.New(sqlerr.FeatureNotSupported, "upsert into log table \"%s\" is not supported", t.info.Path.Table)
	}
	if opts.IgnoreExisting {
		// Fluss has no conditional put: a lookup then a put would let a
		// concurrent writer's row be overwritten.
		return fluss.WriteResult{}, errNoConditionalWrite()
	}
	var target []int32
	for _, n := range opts.TargetColumns {
		i := t.info.ColumnIndex(n)
		if i < 0 {
			return fluss.WriteResult{}, sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", n, t.info.Path.Table)
		}
		target = append(target, int32(i))
	}
	recs := map[int32][]format.KvRecord{}
	if err := t.upsertRecords(rec, recs); err != nil {
		return fluss.WriteResult{}, err
	}
	return t.put(ctx, recs, target, rec.NumRows())
}

// upsertRecords validates rec's rows and adds them to recs as KV records
// (key and full row), by bucket, in row order.
func (t *table) upsertRecords(rec arrow.RecordBatch, recs map[int32][]format.KvRecord) error {
	conv, err := fluss.ValidateRecord(t.info, rec)
	if err != nil {
		return err
	}
	defer conv.Release()
	n := int(conv.NumRows())
	pkTs, pkCols := t.typesOf(t.pk), colsOf(conv, t.pk)
	buckets, err := t.bucketsOf(colsOf(conv, t.bk), t.typesOf(t.bk), n)
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		key, err := format.AppendKey(nil, pkTs, pkCols, i)
		if err != nil {
			return sqlerr.New(sqlerr.NotNullViolation, "primary key: %v", err)
		}
		row, err := format.AppendRow(nil, t.ts, conv.Columns(), i)
		if err != nil {
			return sqlerr.Wrap(err, sqlerr.InternalError, "encoding row: %v", err)
		}
		recs[buckets[i]] = append(recs[buckets[i]], format.KvRecord{Key: key, Row: row})
	}
	return nil
}

func (t *table) put(ctx context.Context, recs map[int32][]format.KvRecord, target []int32, n int64) (fluss.WriteResult, error) {
	for _, b := range sortedBuckets(recs) {
		if _, err := t.s.writer.Put(ctx, t.tab, b, t.info.SchemaID, recs[b], target); err != nil {
			t.s.wroteTo(t.info.TableID)
			return fluss.WriteResult{}, t.s.noteTableErr(err, t.info.Path)
		}
	}
	t.s.wroteTo(t.info.TableID)
	return fluss.WriteResult{Rows: n}, nil
}

// Delete removes rows by primary key (keys: the key columns in key order).
func (t *table) Delete(ctx context.Context, keys arrow.RecordBatch) (fluss.WriteResult, error) {
	if !t.info.HasPrimaryKey() {
		return fluss.WriteResult{}, sqlerr.New(sqlerr.FeatureNotSupported, "delete from log table \"%s\" is not supported", t.info.Path.Table)
	}
	kv := map[int32][]format.KvRecord{}
	if err := t.deleteRecords(keys, kv); err != nil {
		return fluss.WriteResult{}, err
	}
	return t.put(ctx, kv, nil, keys.NumRows())
}

// deleteRecords adds a KV record without a row (a delete) to kv for each
// key, by bucket.
func (t *table) deleteRecords(keys arrow.RecordBatch, kv map[int32][]format.KvRecord) error {
	recs, _, err := t.keysByBucket(keys)
	if err != nil {
		return err
	}
	for b, ks := range recs {
		for _, k := range ks {
			kv[b] = append(kv[b], format.KvRecord{Key: k})
		}
	}
	return nil
}

// keysByBucket encodes each row of keys (the primary-key columns in key
// order) and groups the keys by bucket, with each key's row index.
func (t *table) keysByBucket(keys arrow.RecordBatch) (map[int32][][]byte, map[int32][]int, error) {
	if int(keys.NumCols()) != len(t.pk) {
		return nil, nil, sqlerr.New(sqlerr.InternalError, "%d key columns for a primary key of %d", keys.NumCols(), len(t.pk))
	}
	n := int(keys.NumRows())
	pkTs := t.typesOf(t.pk)
	bkCols := make([]arrow.Array, len(t.bkInPK))
	for i, p := range t.bkInPK {
		bkCols[i] = keys.Column(p)
	}
	buckets, err := t.bucketsOf(bkCols, t.typesOf(t.bk), n)
	if err != nil {
		return nil, nil, err
	}
	out, rows := map[int32][][]byte{}, map[int32][]int{}
	for i := 0; i < n; i++ {
		k, err := format.AppendKey(nil, pkTs, keys.Columns(), i)
		if err != nil {
			return nil, nil, sqlerr.New(sqlerr.NotNullViolation, "primary key: %v", err)
		}
		out[buckets[i]] = append(out[buckets[i]], k)
		rows[buckets[i]] = append(rows[buckets[i]], i)
	}
	return out, rows, nil
}

// Lookup returns the rows of the keys that exist, in keys' order, projected.
func (t *table) Lookup(ctx context.Context, keys arrow.RecordBatch, projection []int) (arrow.RecordBatch, error) {
	if !t.info.HasPrimaryKey() {
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "lookup in log table \"%s\" is not supported", t.info.Path.Table)
	}
	byBucket, rows, err := t.keysByBucket(keys)
	if err != nil {
		return nil, err
	}
	found := make([][]byte, keys.NumRows())
	for _, b := range sortedBuckets(byBucket) {
		vals, err := t.s.c.Lookup(ctx, t.tab, b, byBucket[b])
		if err != nil {
			return nil, t.s.noteTableErr(err, t.info.Path)
		}
		for j, v := range vals {
			found[rows[b][j]] = v
		}
	}
	d := t.newRowDecoder(projection)
	defer d.release()
	for _, v := range found {
		if v == nil {
			continue
		}
		if err := d.addValue(v); err != nil {
			return nil, err
		}
	}
	return d.record(), nil
}

// rowDecoder decodes compacted rows of the current schema into a record of
// the projected columns.
type rowDecoder struct {
	t       *table
	full    []array.Builder // one per table column, nil when not projected
	proj    []int
	schema  *arrow.Schema
	nrows   int
	release func()
}

func (t *table) newRowDecoder(projection []int) *rowDecoder {
	if projection == nil {
		projection = make([]int, len(t.ts))
		for i := range projection {
			projection[i] = i
		}
	}
	full := t.info.ArrowSchema()
	d := &rowDecoder{t: t, full: make([]array.Builder, len(t.ts)), proj: projection}
	fields := make([]arrow.Field, len(projection))
	for i, p := range projection {
		fields[i] = full.Field(p)
		if d.full[p] == nil {
			d.full[p] = array.NewBuilder(memory.DefaultAllocator, full.Field(p).Type)
		}
	}
	d.schema = arrow.NewSchema(fields, nil)
	d.release = func() {
		for _, b := range d.full {
			if b != nil {
				b.Release()
			}
		}
	}
	return d
}

func (d *rowDecoder) addValue(v []byte) error {
	schemaID, row, err := format.SplitValue(v)
	if err != nil {
		return sqlerr.Wrap(err, sqlerr.DataCorrupted, "value of %s: %v", d.t.info.Path, err)
	}
	return d.addRow(schemaID, row)
}

func (d *rowDecoder) addRow(schemaID int16, row []byte) error {
	if schemaID > d.t.info.SchemaID {
		return d.t.errSchemaMoved(schemaID)
	}
	if schemaID != d.t.info.SchemaID {
		n, ok := d.t.oldCols[schemaID]
		if !ok || n > len(d.t.ts) {
			return sqlerr.New(sqlerr.DataCorrupted, "a row of %s has schema %d, which the table (at schema %d) does not have",
				d.t.info.Path, schemaID, d.t.info.SchemaID)
		}
		wide, err := d.t.missing.WidenRow(nil, row, n, len(d.t.ts))
		if err != nil {
			return sqlerr.Wrap(err, sqlerr.DataCorrupted, "row of %s: %v", d.t.info.Path, err)
		}
		row = wide
	}
	if _, err := format.DecodeRow(row, d.t.ts, d.full); err != nil {
		return sqlerr.Wrap(err, sqlerr.DataCorrupted, "row of %s: %v", d.t.info.Path, err)
	}
	d.nrows++
	return nil
}

// record returns the decoded rows; a column projected twice is shared.
func (d *rowDecoder) record() arrow.RecordBatch {
	arrs := map[int]arrow.Array{}
	cols := make([]arrow.Array, len(d.proj))
	for i, p := range d.proj {
		if arrs[p] == nil {
			arrs[p] = d.full[p].NewArray()
		}
		cols[i] = arrs[p]
	}
	rec := array.NewRecordBatch(d.schema, cols, int64(d.nrows))
	for _, a := range arrs {
		a.Release()
	}
	d.nrows = 0
	return rec
}

// Scan reads the table. A log table is read from each bucket's first offset
// up to the high watermark it had when the scan started (ListOffsets, then
// FetchLog). A primary-key table is read with one LimitScan per bucket,
// which returns the bucket's current rows from the tablet server's KV store
// in one answer: Fluss 0.9.1 has no server-side KV scan (1.0's ScanKv), and
// its other way, a KV snapshot's RocksDB files in remote storage plus the
// changelog since, needs the snapshot files' storage. A bucket holding
// maxScanRowsPerBucket rows or more is read from its changelog instead
// (replayBucket), or fails with 0A000 when that no longer starts at offset
// 0, never returning part of it.
func (t *table) Scan(ctx context.Context, opts fluss.ScanOptions) (fluss.RecordReader, error) {
	if t.info.HasPrimaryKey() {
		return t.scanKV(ctx, opts)
	}
	d := t.newRowDecoder(opts.Projection)
	d.release()
	return t.scanLog(ctx, opts, false, d.schema, d.proj)
}

// ScanChangelog implements fluss.ChangelogScanner: every bucket's log, from
// its first offset (or opts.FromOffset) up to the high watermark it had
// when the scan started, with the changelog's metadata columns.
func (t *table) ScanChangelog(ctx context.Context, opts fluss.ScanOptions) (fluss.RecordReader, error) {
	all := fluss.ChangelogColumns(t.info)
	proj := opts.Projection
	if proj == nil {
		proj = make([]int, len(all))
		for i := range proj {
			proj[i] = i
		}
	}
	fields := make([]arrow.Field, len(proj))
	for i, c := range proj {
		if c < 0 || c >= len(all) {
			return nil, sqlerr.New(sqlerr.InvalidColumnReference, "changelog column %d does not exist", c)
		}
		fields[i] = arrow.Field{Name: all[c].Name, Type: all[c].Type.ArrowType(), Nullable: !all[c].Type.NotNull}
	}
	return t.scanLog(ctx, opts, true, arrow.NewSchema(fields, nil), proj)
}

func (t *table) scanLog(ctx context.Context, opts fluss.ScanOptions, changelog bool, schema *arrow.Schema, proj []int) (fluss.RecordReader, error) {
	buckets := make([]int32, t.nb)
	for i := range buckets {
		buckets[i] = int32(i)
	}
	ends, err := t.s.c.ListOffsets(ctx, t.tab, buckets, OffsetLatest, 0)
	if err != nil {
		return nil, t.s.noteTableErr(err, t.info.Path)
	}
	starts, err := t.s.c.ListOffsets(ctx, t.tab, buckets, OffsetEarliest, 0)
	if err != nil {
		return nil, t.s.noteTableErr(err, t.info.Path)
	}
	if changelog {
		for i := range starts {
			starts[i] = max(starts[i], min(opts.FromOffset, ends[i]))
		}
	}
	r := &logReader{t: t, schema: schema, proj: proj, changelog: changelog, logDecoders: t.logDecoders(),
		ends: ends, offsets: starts, limit: opts.Limit}
	if !changelog {
		r.pushDown(t)
	}
	return r, nil
}

func (t *table) scanKV(ctx context.Context, opts fluss.ScanOptions) (fluss.RecordReader, error) {
	d := t.newRowDecoder(opts.Projection)
	defer d.release()
	var out []arrow.RecordBatch
	fail := func(err error) (fluss.RecordReader, error) {
		for _, r := range out {
			r.Release()
		}
		return nil, err
	}
	var n int64 // rows taken
	full := func() bool { return opts.Limit > 0 && n >= opts.Limit }
	for b := int32(0); b < int32(t.nb) && !full(); b++ {
		isLog, recs, err := t.s.c.LimitScan(ctx, t.tab, b, int32(t.s.scanRowsPerBucket()))
		if err != nil {
			return fail(t.s.noteTableErr(err, t.info.Path))
		}
		if isLog {
			return fail(sqlerr.New(sqlerr.DataCorrupted, "LimitScan of primary-key table %s answered log records", t.info.Path))
		}
		var vals []format.ValueRecord
		if len(recs) > 0 { // an empty bucket answers no batch at all
			if vals, err = format.ParseValueBatch(recs); err != nil {
				return fail(sqlerr.Wrap(err, sqlerr.DataCorrupted, "LimitScan of %s: %v", t.info.Path, err))
			}
		}
		if len(vals) >= t.s.scanRowsPerBucket() {
			// LimitScan may have cut the bucket short: read it whole
			// from its changelog instead (scan_replay.go).
			rec, err := t.replayBucket(ctx, b, d)
			if err != nil {
				return fail(err)
			}
			if opts.Limit > 0 && n+rec.NumRows() > opts.Limit {
				s := rec.NewSlice(0, opts.Limit-n)
				rec.Release()
				rec = s
			}
			n += rec.NumRows()
			out = append(out, rec)
			continue
		}
		for _, v := range vals {
			if full() {
				break
			}
			if err := d.addRow(v.SchemaID, v.Row); err != nil {
				return fail(err)
			}
			n++
		}
	}
	rec := d.record()
	out = append(out, rec)
	return &sliceReader{schema: rec.Schema(), recs: out}, nil
}

// sliceReader hands out records it holds.
type sliceReader struct {
	schema *arrow.Schema
	recs   []arrow.RecordBatch
}

func (r *sliceReader) Schema() *arrow.Schema { return r.schema }

func (r *sliceReader) Next(context.Context) (arrow.RecordBatch, error) {
	if len(r.recs) == 0 {
		return nil, nil
	}
	rec := r.recs[0]
	r.recs = r.recs[1:]
	return rec, nil
}

func (r *sliceReader) Close() {
	for _, rec := range r.recs {
		rec.Release()
	}
	r.recs = nil
}

// logReader reads a log table bucket by bucket, one fetched batch at a time.
type logReader struct {
	t      *table
	schema *arrow.Schema
	proj   []int
	// logDecoders decode the fetched batches (dec: the current schema's,
	// perhaps of the projected columns only).
	logDecoders
	// changelog: rows carry the changelog's metadata columns first, and
	// proj indexes into fluss.ChangelogColumns.
	changelog bool
	ends      []int64
	offsets   []int64
	bucket    int
	pending   [][]byte // fetched batches not yet decoded
	limit     int64
	emitted   int64
	// fields are the table columns FetchLog asks for (nil: all;
	// scan_projection.go), proj then indexes into them.
	fields []int32
}

func (r *logReader) Schema() *arrow.Schema { return r.schema }

func (r *logReader) Close() { r.pending = nil }

func (r *logReader) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		if r.limit > 0 && r.emitted >= r.limit {
			return nil, nil
		}
		if len(r.pending) > 0 {
			raw := r.pending[0]
			r.pending = r.pending[1:]
			rec, err := r.decode(raw)
			if err != nil || rec != nil {
				return rec, err
			}
			continue
		}
		if r.bucket >= len(r.ends) {
			return nil, nil
		}
		b := r.bucket
		if r.offsets[b] >= r.ends[b] {
			r.bucket++
			continue
		}
		res, err := r.t.s.c.FetchLog(ctx, r.t.tab, int32(b), r.offsets[b], fetchMaxBytes, r.fields)
		if err != nil {
			return nil, r.t.s.noteTableErr(err, r.t.info.Path)
		}
		if res.Remote {
			r.wholeBatches()
		}
		batches, next, err := cutBatches(res.Records)
		if err != nil {
			return nil, sqlerr.Wrap(err, sqlerr.DataCorrupted, "FetchLog of %s bucket %d: %v", r.t.info.Path, b, err)
		}
		if len(batches) == 0 {
			return nil, sqlerr.New(sqlerr.ProgramLimitExceeded, "a log batch of %s bucket %d at offset %d is larger than a fetch (%d bytes)", r.t.info.Path, b, r.offsets[b], fetchMaxBytes)
		}
		if next <= r.offsets[b] {
			return nil, sqlerr.New(sqlerr.DataCorrupted, "FetchLog of %s bucket %d at offset %d did not advance", r.t.info.Path, b, r.offsets[b])
		}
		r.offsets[b] = next
		r.pending = batches
	}
}

// decode turns one batch into the projected record (nil for an empty batch).
func (r *logReader) decode(raw []byte) (arrow.RecordBatch, error) {
	h, err := format.ParseHeader(raw)
	if err != nil {
		return nil, sqlerr.Wrap(err, sqlerr.DataCorrupted, "log batch of %s: %v", r.t.info.Path, err)
	}
	// Records past the high watermark the scan started at were written
	// after it: a scan reads the table as of its start.
	end := r.ends[r.bucket]
	if h.RecordCount == 0 || h.BaseOffset >= end {
		return nil, nil
	}
	bt, err := r.decodeBatch(raw, h)
	if err != nil {
		return nil, err
	}
	full := bt.Record
	if r.changelog {
		full = fluss.ChangelogRecord(bt)
		bt.Record.Release()
	}
	defer full.Release()
	cols := make([]arrow.Array, len(r.proj))
	for i, p := range r.proj {
		cols[i] = full.Column(p)
	}
	n := min(full.NumRows(), end-h.BaseOffset)
	if r.limit > 0 && r.emitted+n > r.limit {
		n = r.limit - r.emitted
	}
	rec := array.NewRecordBatch(r.schema, cols, full.NumRows())
	if n < rec.NumRows() {
		s := rec.NewSlice(0, n)
		rec.Release()
		rec = s
	}
	r.emitted += n
	return rec, nil
}

// cutBatches splits FetchLog's concatenated batches, dropping a partial one
// at the end, and returns the offset after the last whole batch.
func cutBatches(b []byte) ([][]byte, int64, error) {
	var out [][]byte
	next := int64(-1)
	for len(b) >= format.HeaderSize {
		h, err := format.ParseHeader(b)
		if err != nil {
			return nil, 0, err
		}
		n := h.Size()
		if n > int64(len(b)) {
			break
		}
		out = append(out, b[:n])
		next = h.BaseOffset + int64(h.LastOffsetDelta) + 1
		b = b[n:]
	}
	return out, next, nil
}

var (
	_ fluss.Store            = (*Store)(nil)
	_ fluss.ChangelogScanner = (*table)(nil)
)
