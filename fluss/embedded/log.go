package embedded

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/cockroachdb/pebble/v2"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/types"
)

// tableState is a table's open files and derived metadata, shared by every
// handle of the table.
type tableState struct {
	info     fluss.TableInfo
	dir      string
	colTypes []types.T
	pkIdx    []int // primary-key column positions, key order
	bkIdx    []int // bucket-key column positions
	decoder  *format.BatchDecoder
	// logEnc writes the table's small changelog batches (an UPDATE by
	// key's before and after images) without arrow-go's IPC writer.
	logEnc  format.SmallBatchEncoder
	buckets []*bucketLog
	sticky  atomic.Uint64 // bucket choice for log tables without a bucket key
	// handle is the state's one tableHandle (Store.Table), made at the
	// first call: a handle is immutable, and a statement asks for its
	// tables several times (an allocation each in a one-row transaction).
	handle atomic.Pointer[tableHandle]

	// Derived once per table so that the per-call paths (point lookups
	// above all) allocate none of it: the table's Arrow schema, the key
	// columns' types, where each bucket-key column sits in the primary key,
	// and the primary key's Arrow types and TableInfo for key validation.
	schema   *arrow.Schema
	pkTypes  []types.T
	bkTypes  []types.T
	bkInPK   []int
	keyArrow []arrow.DataType
	keyInfo  fluss.TableInfo

	// projs caches the output schema and decode targets of each projection
	// that scans and lookups asked for (see projectionFor).
	projMu sync.RWMutex
	projs  map[string]*projPlan
	// all is the plan of every column (projection nil), which point
	// lookups ask for on every call: read without projMu, whose read lock
	// is a write to a cache line every lookup goroutine shares.
	all atomic.Pointer[projPlan]

	// mu guards the published (committed) view: bucketLog.committed and
	// dropped. It is shared with the state an ALTER TABLE replaces this
	// one by (alter.go), which shares the bucket logs.
	mu      *sync.RWMutex
	dropped bool
	// altered: an ALTER TABLE replaced this state (dropped is set too);
	// its handles' writes fail, asking to run the statement again.
	altered bool

	// schemaCols[id-1] is the number of columns of schema id (ADD COLUMN
	// appends columns, so schema id's columns are the first schemaCols[id-1]
	// of the current ones); nil when the table never changed its schema.
	// oldDecoders decode the log batches of the older schemas.
	schemaCols  []int
	oldDecoders map[int16]*format.BatchDecoder
	// missing is what rows of the older schemas read in the columns added
	// since (nil: NULL in each; fluss/missing.go).
	missing *fluss.Missing

	ndv ndvState // per-column distinct-count sketches (ndv.go)

	col tableColumnar // the columnar image (columnar.go)

	// follow wakes the changelog's followers (follow.go); shared, like mu,
	// with the state an ALTER TABLE replaces this one by.
	follow *followSignal
}

// bucketLog is one bucket's log file.
type bucketLog struct {
	path string
	// The committer alone uses f, size and next.
	f    *os.File
	size int64 // bytes written and committed (equal between groups)
	next int64 // next log offset
	// committed is the length scans may read; guarded by tableState.mu.
	committed int64
	// unverified is the length of the log whose CRCs Open did not check
	// (Options.SkipVerify); bad holds the positions of the batches whose
	// CRC failed when Open checked it. Everything else has had its CRC
	// checked by Open or was written by this process, so a scan may read
	// only some of its bytes (a projected read). Both are set by Open only.
	unverified int64
	bad        map[int64]bool
	// maps are the log's mappings that scans read from (logmap.go).
	maps logMaps
	// tail is a bulk append's claim on the log's end (tailclaim.go), set
	// holding the committer's token and under tailMu, which also guards
	// the claim's writes.
	tailMu sync.Mutex
	tail   atomic.Pointer[tailClaim]
}

func (t *tableState) closeFiles() {
	for _, b := range t.buckets {
		b.closeTail(undefinedTable(t.info.Path))
		if b.f != nil {
			_ = b.f.Close()
			b.f = nil
		}
		b.maps.retire()
	}
	if img := t.col.img.Load(); img != nil {
		img.files.maps.retire()
	}
}

func columnIndexes(info fluss.TableInfo, names []string) []int {
	out := make([]int, len(names))
	for i, n := range names {
		out[i] = info.ColumnIndex(n)
	}
	return out
}

// rowSchema is the table's whole-row Arrow schema, the one its
// ArrowSchemas keeps under "w": the engine's pending tables and exec's
// writers build their records with that same schema, which
// fluss.ValidateRecordAs then takes without copying columns.
func rowSchema(info fluss.TableInfo) *arrow.Schema {
	return info.ArrowSchemas.Get([]byte{'w'}, info.ArrowSchema)
}

// openTable opens (or, with create, creates) the table's bucket logs and
// recovers them against the committed lengths in pebble.
func (s *Store) openTable(info fluss.TableInfo, create bool) (*tableState, error) {
	// one cache per table state: a table's schema never changes in place
	info.ArrowSchemas = fluss.NewArrowSchemas()
	schema := rowSchema(info)
	t := &tableState{info: info, dir: s.tableDir(info.TableID), schema: schema,
		pkIdx: columnIndexes(info, info.Descriptor.Schema.PrimaryKey), bkIdx: columnIndexes(info, info.Descriptor.BucketKey),
		projs: map[string]*projPlan{}, mu: &sync.RWMutex{}, follow: &followSignal{}}
	t.ndv.known = create // a new table's sketches cover all its rows
	for _, c := range info.Descriptor.Schema.Columns {
		t.colTypes = append(t.colTypes, c.Type)
	}
	t.decoder = format.NewTableBatchDecoder(schema, t.colTypes)
	t.pkTypes, t.bkTypes = keyTypes(info, t.pkIdx), keyTypes(info, t.bkIdx)
	t.keyInfo.Path = info.Path
	for _, c := range t.pkIdx {
		t.keyInfo.Descriptor.Schema.Columns = append(t.keyInfo.Descriptor.Schema.Columns, info.Descriptor.Schema.Columns[c])
		t.keyArrow = append(t.keyArrow, schema.Field(c).Type)
	}
	for _, c := range t.bkIdx {
		t.bkInPK = append(t.bkInPK, slices.Index(t.pkIdx, c))
	}
	if create {
		if err := os.MkdirAll(t.dir, 0o755); err != nil {
			return nil, ioErr(err, "creating %s", t.dir)
		}
	}
	for b := 0; b < info.Descriptor.BucketCount; b++ {
		bl := &bucketLog{path: bucketLogPath(t.dir, b)}
		t.buckets = append(t.buckets, bl)
		flags := os.O_RDWR
		if create {
			flags |= os.O_CREATE | os.O_EXCL
		}
		f, err := os.OpenFile(bl.path, flags, 0o644)
		if err != nil {
			t.closeFiles()
			if errors.Is(err, os.ErrNotExist) {
				return nil, corrupt("log file %s of table %s is missing", bl.path, info.Path)
			}
			return nil, ioErr(err, "opening %s", bl.path)
		}
		bl.f = f
		if !create {
			if err := s.recoverBucket(t, b); err != nil {
				t.closeFiles()
				return nil, err
			}
		}
	}
	if create {
		if err := s.syncDir(t.dir); err != nil {
			t.closeFiles()
			return nil, err
		}
		if err := s.syncDir(filepath.Dir(t.dir)); err != nil {
			t.closeFiles()
			return nil, err
		}
	}
	return t, nil
}

func encodeCommitted(length, next int64) []byte {
	v := make([]byte, committedLen)
	putCommitted(v, length, next)
	return v
}

// committedLen is the length of an encoded committed length and offset.
const committedLen = 16

// putCommitted is encodeCommitted into v (committedLen bytes).
func putCommitted(v []byte, length, next int64) {
	binary.LittleEndian.PutUint64(v, uint64(length))
	binary.LittleEndian.PutUint64(v[8:], uint64(next))
}

// recoverBucket brings one bucket log in line with its committed length:
// a longer file has an unacknowledged (possibly torn) tail, which is cut; a
// shorter one has lost acknowledged data, which is an error. Then it walks
// the batches, checking framing, offsets and (unless SkipVerify) CRCs.
func (s *Store) recoverBucket(t *tableState, b int) error {
	bl := t.buckets[b]
	var length, next int64
	v, closer, err := s.db.Get(bucketKey(prefixCommitted, t.info.TableID, b))
	switch {
	case err == nil:
		if len(v) != 16 {
			closer.Close()
			return corrupt("committed length record of %s is malformed", bl.path)
		}
		length, next = int64(binary.LittleEndian.Uint64(v)), int64(binary.LittleEndian.Uint64(v[8:]))
		closer.Close()
	case errors.Is(err, pebble.ErrNotFound):
	default:
		return ioErr(err, "reading the committed length of %s", bl.path)
	}
	st, err := bl.f.Stat()
	if err != nil {
		return ioErr(err, "stat %s", bl.path)
	}
	switch {
	case st.Size() < length:
		return corrupt("log file %s is %d bytes long but %d bytes were committed: acknowledged data is missing", bl.path, st.Size(), length)
	case st.Size() > length:
		s.log.Warn("truncating uncommitted tail of a log file", "file", bl.path, "committed", length, "size", st.Size())
		if err := bl.f.Truncate(length); err != nil {
			return ioErr(err, "truncating %s", bl.path)
		}
		if err := s.sync(bl.path, SyncFull, bl.f.Sync); err != nil {
			return ioErr(err, "syncing %s", bl.path)
		}
	}
	bl.size, bl.next, bl.committed = length, next, length
	return s.walkLog(t, bl, length)
}

// walkLog checks the batches of bl up to length. A batch whose CRC fails is
// reported and skipped (its neighbours stay readable); broken framing, after
// which no batch boundary can be trusted, fails Open.
func (s *Store) walkLog(t *tableState, bl *bucketLog, length int64) error {
	var pos, offset int64
	hdr := make([]byte, format.HeaderSize)
	var buf []byte
	for pos < length {
		if _, err := bl.f.ReadAt(hdr, pos); err != nil {
			return corrupt("log file %s: cannot read the batch header at byte offset %d: %v", bl.path, pos, err)
		}
		h, err := format.ParseHeader(hdr)
		if err != nil || pos+h.Size() > length {
			if err == nil {
				err = fmt.Errorf("batch of %d bytes overruns the committed length %d", h.Size(), length)
			}
			return corrupt("log file %s is corrupt at byte offset %d: %v", bl.path, pos, err)
		}
		if h.BaseOffset != offset {
			s.reportCorruption(corrupt("log file %s is corrupt at byte offset %d: batch base offset %d, expected %d", bl.path, pos, h.BaseOffset, offset))
		}
		if !s.opts.SkipVerify {
			if int64(cap(buf)) < h.Size() {
				buf = make([]byte, h.Size())
			}
			buf = buf[:h.Size()]
			if _, err := bl.f.ReadAt(buf, pos); err != nil && !errors.Is(err, io.EOF) {
				return ioErr(err, "reading %s", bl.path)
			}
			if err := format.VerifyBatch(buf); err != nil {
				s.reportCorruption(corrupt("log file %s is corrupt at byte offset %d: %v", bl.path, pos, err))
				if bl.bad == nil {
					bl.bad = map[int64]bool{}
				}
				bl.bad[pos] = true
			}
		}
		offset = h.NextOffset()
		pos += h.Size()
	}
	if s.opts.SkipVerify {
		bl.unverified = length
	}
	if length > 0 && offset != bl.next {
		s.reportCorruption(corrupt("log file %s ends at log offset %d but %d was committed", bl.path, offset, bl.next))
	}
	return nil
}

// logReadAhead is how much of a bucket log a scan reads at once: large
// sequential reads, a few stored batches each. A batch larger than that is
// read whole.
const logReadAhead = 2 << 20

// logReader reads one bucket log's batches in order, up to a committed
// length, with large sequential reads into a chunk. The decoded records
// point into the chunk (format.BatchReader), so a chunk is never reused: a
// refill allocates a new one, and the old one lives on only while records
// cut from it do. When the log is mapped (logmap.go), batches, projected
// reads and headers come from the mapping instead and nothing is copied.
type logReader struct {
	f      *os.File
	path   string
	limit  int64
	mapped []byte   // the log's first limit bytes, mapped; nil = pread only
	maps   *logMaps // where mapped came from
	chunk  []byte   // the file's bytes [base, base+len(chunk))
	base   int64
	// head is a small read of the file at headAt: batch headers and Arrow
	// metadata for projected reads, which do not read whole chunks.
	head   []byte
	headAt int64
}

// headRead is the size of a small read: a batch header and the Arrow
// metadata of a table of a few dozen columns (a longer change-type vector
// or metadata takes a second read). Every byte of it is copied per batch.
const headRead = 4 << 10

func openLogReader(path string, limit int64) (*logReader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, ioErr(err, "opening %s", path)
	}
	return &logReader{f: f, path: path, limit: limit}, nil
}

func (r *logReader) close() {
	if r.f != nil {
		_ = r.f.Close()
		r.f = nil
	}
	r.mapped = nil
	r.chunk = nil
}

// bytesAt returns n bytes of the log at pos (pos+n within the limit),
// reading a new chunk when the current one does not hold them.
func (r *logReader) bytesAt(pos int64, n int64) ([]byte, error) {
	if pos >= 0 && n >= 0 && pos+n <= int64(len(r.mapped)) {
		return r.mapped[pos : pos+n : pos+n], nil
	}
	if pos < r.base || pos+n > r.base+int64(len(r.chunk)) {
		size := min(max(logReadAhead, n), r.limit-pos)
		buf := make([]byte, size)
		if _, err := r.f.ReadAt(buf, pos); err != nil {
			return nil, corrupt("log file %s is corrupt at byte offset %d: %v", r.path, pos, err)
		}
		r.chunk, r.base = buf, pos
	}
	off := pos - r.base
	return r.chunk[off : off+n : off+n], nil
}

// small returns n bytes of the log at pos (pos+n within the limit) from
// the chunk or the last small read if either holds them, else from a new
// small read of at least headRead bytes.
func (r *logReader) small(pos, n int64) ([]byte, error) {
	if pos >= 0 && n >= 0 && pos+n <= int64(len(r.mapped)) {
		return r.mapped[pos : pos+n : pos+n], nil
	}
	if pos >= r.base && pos+n <= r.base+int64(len(r.chunk)) {
		return r.chunk[pos-r.base : pos-r.base+n], nil
	}
	if pos < r.headAt || pos+n > r.headAt+int64(len(r.head)) {
		size := min(max(headRead, n), r.limit-pos)
		if int64(cap(r.head)) < size {
			r.head = make([]byte, size)
		}
		r.head = r.head[:size]
		if _, err := r.f.ReadAt(r.head, pos); err != nil {
			r.head = r.head[:0]
			return nil, corrupt("log file %s is corrupt at byte offset %d: %v", r.path, pos, err)
		}
		r.headAt = pos
	}
	return r.head[pos-r.headAt : pos-r.headAt+n], nil
}

// projected reads only the projected columns of the batch at pos (see
// format.ProjectionPlan) and returns their record and the batch's size; ok
// is false when the batch is better read whole (a compressed or unusual
// batch, or a projection that covers most of its bytes). The caller has
// made sure that the batch's CRC was checked before (bucketLog.bad).
func (r *logReader) projected(plan *format.ProjectionPlan, pos int64) (rec arrow.RecordBatch, size int64, ok bool, err error) {
	h, err := r.header(pos)
	if err != nil {
		return nil, 0, false, err
	}
	n := min(h.Size(), headRead)
	var l format.BatchLayout
	for {
		head, err := r.small(pos, n)
		if err != nil {
			return nil, 0, false, err
		}
		var need int
		if l, need, ok = format.ParseLayout(head); !ok {
			return nil, 0, false, nil
		}
		if need == 0 {
			break
		}
		if int64(need) <= n || int64(need) > h.Size() {
			return nil, 0, false, nil
		}
		n = int64(need)
	}
	// Buffers up to 16 KiB apart are read together: one read instead of two
	// costs less than copying that gap. From a mapping nothing is copied:
	// each buffer is its own span, and any projection is worth it.
	gap := int64(16 << 10)
	if r.mapped != nil {
		gap = 0
	}
	spans, ok := plan.Spans(&l, gap)
	if !ok {
		return nil, 0, false, nil
	}
	var total int64
	for _, s := range spans {
		total += s.Len
	}
	if r.mapped == nil && total*4 > l.BodyBytes()*3 {
		return nil, 0, false, nil
	}
	data := make([][]byte, len(spans))
	for i, s := range spans {
		at := pos + l.BodyOffset + s.Off
		if at >= 0 && s.Len >= 0 && at+s.Len <= int64(len(r.mapped)) {
			// Straight from the mapping, unless Arrow's typed views would
			// see misaligned values (a batch after one whose size is not a
			// multiple of 8).
			if b := r.mapped[at : at+s.Len : at+s.Len]; aligned(b) {
				data[i] = b
				continue
			}
		}
		data[i] = make([]byte, s.Len)
		if _, err := r.f.ReadAt(data[i], at); err != nil {
			return nil, 0, false, corrupt("log file %s is corrupt at byte offset %d: %v", r.path, pos, err)
		}
	}
	rec, err = plan.Build(&l, spans, data)
	if err != nil {
		return nil, 0, false, corrupt("log file %s is corrupt at byte offset %d: %v", r.path, pos, err)
	}
	return rec, h.Size(), true, nil
}

// header parses the header of the batch at pos and checks that the batch
// ends within the limit.
func (r *logReader) header(pos int64) (format.BatchHeader, error) {
	if pos+format.HeaderSize > r.limit {
		return format.BatchHeader{}, corrupt("log file %s is corrupt at byte offset %d: a batch header overruns the committed length %d", r.path, pos, r.limit)
	}
	hdr, err := r.small(pos, format.HeaderSize)
	if err != nil {
		return format.BatchHeader{}, err
	}
	h, err := format.ParseHeader(hdr)
	if err == nil && pos+h.Size() > r.limit {
		err = fmt.Errorf("batch of %d bytes overruns the committed length %d", h.Size(), r.limit)
	}
	if err != nil {
		return format.BatchHeader{}, corrupt("log file %s is corrupt at byte offset %d: %v", r.path, pos, err)
	}
	return h, nil
}

// batch reads, verifies and decodes the batch at pos (sharing the chunk's
// bytes) and returns it with its size.
func (r *logReader) batch(dec *format.BatchReader, pos int64) (format.Batch, int64, error) {
	h, err := r.header(pos)
	if err != nil {
		return format.Batch{}, 0, err
	}
	b, err := r.bytesAt(pos, h.Size())
	if err != nil {
		return format.Batch{}, 0, err
	}
	batch, err := dec.Decode(b)
	if err != nil {
		return format.Batch{}, 0, corrupt("log file %s is corrupt at byte offset %d: %v", r.path, pos, err)
	}
	return batch, h.Size(), nil
}
