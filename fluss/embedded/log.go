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
	buckets  []*bucketLog
	sticky   atomic.Uint64 // bucket choice for log tables without a bucket key

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

	// mu guards the published (committed) view: bucketLog.committed and dropped.
	mu      sync.RWMutex
	dropped bool
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
}

func (t *tableState) closeFiles() {
	for _, b := range t.buckets {
		if b.f != nil {
			_ = b.f.Close()
			b.f = nil
		}
	}
}

func columnIndexes(info fluss.TableInfo, names []string) []int {
	out := make([]int, len(names))
	for i, n := range names {
		out[i] = info.ColumnIndex(n)
	}
	return out
}

// openTable opens (or, with create, creates) the table's bucket logs and
// recovers them against the committed lengths in pebble.
func (s *Store) openTable(info fluss.TableInfo, create bool) (*tableState, error) {
	schema := info.ArrowSchema()
	t := &tableState{info: info, dir: s.tableDir(info.TableID), decoder: format.NewBatchDecoder(schema), schema: schema,
		pkIdx: columnIndexes(info, info.Descriptor.Schema.PrimaryKey), bkIdx: columnIndexes(info, info.Descriptor.BucketKey),
		projs: map[string]*projPlan{}}
	for _, c := range info.Descriptor.Schema.Columns {
		t.colTypes = append(t.colTypes, c.Type)
	}
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
		bl := &bucketLog{path: filepath.Join(t.dir, fmt.Sprintf("bucket-%d.log", b))}
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
		if err := syncDir(t.dir); err != nil {
			t.closeFiles()
			return nil, err
		}
		if err := syncDir(filepath.Dir(t.dir)); err != nil {
			t.closeFiles()
			return nil, err
		}
	}
	return t, nil
}

func encodeCommitted(length, next int64) []byte {
	v := make([]byte, 16)
	binary.LittleEndian.PutUint64(v, uint64(length))
	binary.LittleEndian.PutUint64(v[8:], uint64(next))
	return v
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
		if err := bl.f.Sync(); err != nil {
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
			}
		}
		offset = h.NextOffset()
		pos += h.Size()
	}
	if length > 0 && offset != bl.next {
		s.reportCorruption(corrupt("log file %s ends at log offset %d but %d was committed", bl.path, offset, bl.next))
	}
	return nil
}

// readBatch reads and decodes the batch at pos of the log at path (f open
// for reading), checking that it ends within limit.
func readBatch(f *os.File, path string, dec *format.BatchDecoder, pos, limit int64) (format.Batch, int64, error) {
	hdr := make([]byte, format.HeaderSize)
	if _, err := f.ReadAt(hdr, pos); err != nil {
		return format.Batch{}, 0, corrupt("log file %s is corrupt at byte offset %d: %v", path, pos, err)
	}
	h, err := format.ParseHeader(hdr)
	if err == nil && pos+h.Size() > limit {
		err = fmt.Errorf("batch of %d bytes overruns the committed length %d", h.Size(), limit)
	}
	if err != nil {
		return format.Batch{}, 0, corrupt("log file %s is corrupt at byte offset %d: %v", path, pos, err)
	}
	buf := make([]byte, h.Size())
	if _, err := f.ReadAt(buf, pos); err != nil {
		return format.Batch{}, 0, corrupt("log file %s is corrupt at byte offset %d: %v", path, pos, err)
	}
	batch, err := dec.Decode(buf)
	if err != nil {
		return format.Batch{}, 0, corrupt("log file %s is corrupt at byte offset %d: %v", path, pos, err)
	}
	return batch, h.Size(), nil
}
