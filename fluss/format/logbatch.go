package format

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// The log record batch layouts (DefaultLogRecordBatch,
// LogRecordBatchFormat, fluss.md §5). All header integers are
// little-endian. The offsets below are V0's, which sqlgate writes; V1 (Fluss
// 0.7-0.9: a leader epoch after the commit timestamp) and V2 (Fluss 1.0: the
// leader epoch and a statistics block before the records) are read too.
const (
	offBaseOffset      = 0
	offLength          = 8
	offMagic           = 12
	offCommitTimestamp = 13
	offCRC             = 21
	offSchemaID        = 25
	offAttributes      = 27
	offLastOffsetDelta = 28
	offWriterID        = 32
	offBatchSequence   = 40
	offRecordCount     = 44

	// HeaderSize is the size of a V0 batch header; records start here.
	HeaderSize = 48
	// MaxHeaderSize is the size of the longest fixed header (V2, before
	// its statistics).
	MaxHeaderSize = 56
	// LogOverhead is the part of the header that Length does not count.
	LogOverhead = 12
	// MagicV0 is the batch format sqlgate writes (what Fluss clients write).
	MagicV0 = 0
	// MagicV1 is Fluss 0.9.1's leader-epoch layout (main renumbered it V2
	// and gave magic 1 to a statistics layout without the epoch; a 0.9.1
	// cluster never writes that one).
	MagicV1 = 1
	// MagicV2 is Fluss 1.0's leader epoch plus statistics layout.
	MagicV2 = 2
	// AttrAppendOnly is attribute bit 0: no change-type vector.
	AttrAppendOnly = 1
)

// batchLayout is where a magic's header fields lie. V1 and V2 shift every
// field after the commit timestamp by the 4-byte leader epoch.
type batchLayout struct {
	epoch, shift, statsLen, size int
}

func layoutOf(magic int8) (batchLayout, bool) {
	switch magic {
	case MagicV0:
		return batchLayout{epoch: -1, shift: 0, statsLen: -1, size: HeaderSize}, true
	case MagicV1:
		return batchLayout{epoch: 21, shift: 4, statsLen: -1, size: 52}, true
	case MagicV2:
		return batchLayout{epoch: 21, shift: 4, statsLen: 52, size: MaxHeaderSize}, true
	}
	return batchLayout{}, false
}

// ChangeType is a changelog record's kind (ChangeType.java).
type ChangeType byte

// The change types and their bytes.
const (
	AppendOnly   ChangeType = 0 // +A
	Insert       ChangeType = 1 // +I
	UpdateBefore ChangeType = 2 // -U
	UpdateAfter  ChangeType = 3 // +U
	Delete       ChangeType = 4 // -D
)

func (c ChangeType) String() string {
	switch c {
	case AppendOnly:
		return "+A"
	case Insert:
		return "+I"
	case UpdateBefore:
		return "-U"
	case UpdateAfter:
		return "+U"
	case Delete:
		return "-D"
	}
	return fmt.Sprintf("change(%d)", byte(c))
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// BatchHeader is a decoded batch header.
type BatchHeader struct {
	BaseOffset      int64
	Length          int32
	Magic           int8
	CommitTimestamp int64
	CRC             uint32
	SchemaID        int16
	Attributes      int8
	LastOffsetDelta int32
	WriterID        int64
	BatchSequence   int32
	RecordCount     int32
	// LeaderEpoch is the leader's epoch (V1, V2); -1 for V0.
	LeaderEpoch int32
	// StatisticsLength is the size of a V2 batch's statistics block.
	StatisticsLength int32
	// RecordsOffset is where the records (the change-type vector, then the
	// Arrow message) start, from the batch's start.
	RecordsOffset int
}

// Size is the whole batch's size in bytes.
func (h BatchHeader) Size() int64 { return LogOverhead + int64(h.Length) }

// LastOffset is the offset of the batch's last record: BaseOffset +
// LastOffsetDelta, also for an empty batch (Fluss writes one, RecordCount 0
// and LastOffsetDelta 0, for a PutKv that changed nothing; it takes an
// offset).
func (h BatchHeader) LastOffset() int64 { return h.BaseOffset + int64(h.LastOffsetDelta) }

// NextOffset is the offset after the batch (DefaultLogRecordBatch.nextLogOffset).
func (h BatchHeader) NextOffset() int64 { return h.LastOffset() + 1 }

// AppendOnly reports whether the batch has no change-type vector.
func (h BatchHeader) AppendOnly() bool { return h.Attributes&AttrAppendOnly != 0 }

// ParseHeader decodes the header at the front of b (magic V0, V1 or V2) and
// checks that it is plausible (it does not check the CRC; see VerifyBatch).
func ParseHeader(b []byte) (BatchHeader, error) {
	if len(b) < HeaderSize {
		return BatchHeader{}, fmt.Errorf("batch header needs %d bytes, have %d", HeaderSize, len(b))
	}
	le := binary.LittleEndian
	h := BatchHeader{
		BaseOffset:      int64(le.Uint64(b[offBaseOffset:])),
		Length:          int32(le.Uint32(b[offLength:])),
		Magic:           int8(b[offMagic]),
		CommitTimestamp: int64(le.Uint64(b[offCommitTimestamp:])),
		LeaderEpoch:     -1,
	}
	l, ok := layoutOf(h.Magic)
	if !ok {
		return h, fmt.Errorf("unsupported log batch magic %d", h.Magic)
	}
	if len(b) < l.size {
		return h, fmt.Errorf("batch header of magic %d needs %d bytes, have %d", h.Magic, l.size, len(b))
	}
	o := l.shift
	if l.epoch >= 0 {
		h.LeaderEpoch = int32(le.Uint32(b[l.epoch:]))
	}
	h.CRC = le.Uint32(b[o+offCRC:])
	h.SchemaID = int16(le.Uint16(b[o+offSchemaID:]))
	h.Attributes = int8(b[o+offAttributes])
	h.LastOffsetDelta = int32(le.Uint32(b[o+offLastOffsetDelta:]))
	h.WriterID = int64(le.Uint64(b[o+offWriterID:]))
	h.BatchSequence = int32(le.Uint32(b[o+offBatchSequence:]))
	h.RecordCount = int32(le.Uint32(b[o+offRecordCount:]))
	h.RecordsOffset = l.size
	if l.statsLen >= 0 {
		h.StatisticsLength = int32(le.Uint32(b[l.statsLen:]))
		if h.StatisticsLength < 0 {
			return h, fmt.Errorf("batch statistics length %d", h.StatisticsLength)
		}
		h.RecordsOffset += int(h.StatisticsLength)
	}
	if int64(h.Length) < int64(h.RecordsOffset-LogOverhead) {
		return h, fmt.Errorf("batch length %d is shorter than its header", h.Length)
	}
	if h.RecordCount < 0 || h.LastOffsetDelta < 0 {
		return h, fmt.Errorf("batch of %d records with last offset delta %d", h.RecordCount, h.LastOffsetDelta)
	}
	return h, nil
}

// crcStart is where the CRC-32C's bytes start: the schema id.
func (h BatchHeader) crcStart() int {
	if h.Magic == MagicV0 {
		return offSchemaID
	}
	return offSchemaID + 4
}

// VerifyBatch checks the CRC-32C of a whole batch (b holds exactly one batch).
func VerifyBatch(b []byte) error {
	_, err := checkBatch(b, false)
	return err
}

// checkBatch parses a whole batch's header and checks its length and,
// unless skipCRC, its CRC-32C.
func checkBatch(b []byte, skipCRC bool) (BatchHeader, error) {
	h, err := ParseHeader(b)
	if err != nil {
		return BatchHeader{}, err
	}
	if int64(len(b)) != h.Size() {
		return BatchHeader{}, fmt.Errorf("batch is %d bytes but its header says %d", len(b), h.Size())
	}
	if !skipCRC {
		if got := crc32.Checksum(b[h.crcStart():], castagnoli); got != h.CRC {
			return BatchHeader{}, fmt.Errorf("CRC-32C mismatch: stored %08x, computed %08x", h.CRC, got)
		}
	}
	return h, nil
}

// SetBaseOffset stamps the batch's base offset (outside the CRC, as in Fluss,
// so the log assigns it without re-checksumming).
func SetBaseOffset(b []byte, off int64) {
	binary.LittleEndian.PutUint64(b[offBaseOffset:], uint64(off))
}

// SetCommitTimestamp stamps the commit time in Unix milliseconds (outside the CRC).
func SetCommitTimestamp(b []byte, ms int64) {
	binary.LittleEndian.PutUint64(b[offCommitTimestamp:], uint64(ms))
}

// CommitTimestampSpan returns where SetCommitTimestamp writes in a batch
// and the bytes it writes there for ms: a batch already written to a file
// is stamped with one write of those bytes at that position.
func CommitTimestampSpan(ms int64) (pos int64, field [8]byte) {
	binary.LittleEndian.PutUint64(field[:], uint64(ms))
	return offCommitTimestamp, field
}

// SetWriter stamps an idempotent writer's id and batch sequence into a V0
// batch (as EncodeTableBatch writes it). Both lie inside the CRC-32C (which
// covers SchemaId..end), so the CRC is recomputed: one pass over the batch.
func SetWriter(b []byte, writerID int64, seq int32) error {
	if len(b) < HeaderSize || b[offMagic] != MagicV0 {
		return fmt.Errorf("setting a batch's writer: not a log record batch of magic 0")
	}
	le := binary.LittleEndian
	le.PutUint64(b[offWriterID:], uint64(writerID))
	le.PutUint32(b[offBatchSequence:], uint32(seq))
	le.PutUint32(b[offCRC:], crc32.Checksum(b[offSchemaID:], castagnoli))
	return nil
}

// EncodeTableBatch encodes rec (columns of types ts, in the engine's Arrow
// representation) as one V0 log record batch with BaseOffset 0 and
// CommitTimestamp 0 (the log stamps both), WriterID and BatchSequence -1 (not
// idempotent). changes is nil for an append-only batch, else one change type
// per row. The Arrow is Fluss's (WireType): temporal columns are converted
// to Fluss's units, and a value finer than its column's precision is an
// error. A batch of no rows has no Arrow message, as Fluss writes it.
func EncodeTableBatch(rec arrow.RecordBatch, ts []types.T, changes []ChangeType, schemaID int16) ([]byte, error) {
	if len(ts) != int(rec.NumCols()) {
		return nil, fmt.Errorf("%d column types for a record of %d columns", len(ts), rec.NumCols())
	}
	return encodeBatch(rec, ts, changes, schemaID)
}

// EncodeBatch is EncodeTableBatch of a record whose Arrow is already what
// Fluss writes (WireType of its columns): it is encoded as it is. A
// record in the engine's representation with TIME or TIMESTAMP columns
// needs EncodeTableBatch, whose column types say their Fluss units.
func EncodeBatch(rec arrow.RecordBatch, changes []ChangeType, schemaID int16) ([]byte, error) {
	return encodeBatch(rec, nil, changes, schemaID)
}

// encodeBatch is EncodeTableBatch (nil ts: EncodeBatch) with IPC writer
// options (tests write compressed batches, as Fluss clients may).
func encodeBatch(rec arrow.RecordBatch, ts []types.T, changes []ChangeType, schemaID int16, opts ...ipc.Option) ([]byte, error) {
	n := int(rec.NumRows())
	if changes != nil && len(changes) != n {
		return nil, fmt.Errorf("%d change types for %d rows", len(changes), n)
	}
	var buf bytes.Buffer
	if n == 0 {
		buf.Write(make([]byte, HeaderSize))
	} else {
		wire := rec
		if ts != nil {
			var err error
			if wire, err = wireRecord(rec, ts); err != nil {
				return nil, fmt.Errorf("encoding a log batch: %w", err)
			}
			defer wire.Release()
		}
		payload, err := ipc.GetRecordBatchPayload(wire, opts...)
		if err != nil {
			return nil, fmt.Errorf("encoding arrow record batch: %w", err)
		}
		defer payload.Release()
		buf.Grow(HeaderSize + len(changes) + ipcBodyBound(wire) + 1024)
		buf.Write(make([]byte, HeaderSize))
		for _, c := range changes {
			buf.WriteByte(byte(c))
		}
		if _, err := payload.WritePayload(&buf); err != nil {
			return nil, fmt.Errorf("encoding arrow record batch: %w", err)
		}
	}
	return finishBatch(buf.Bytes(), n, changes, schemaID), nil
}

// finishBatch fills in the header of b, a batch of n records (changes nil:
// append-only) laid out after HeaderSize, and returns b.
func finishBatch(b []byte, n int, changes []ChangeType, schemaID int16) []byte {
	le := binary.LittleEndian
	le.PutUint32(b[offLength:], uint32(len(b)-LogOverhead))
	b[offMagic] = MagicV0
	le.PutUint16(b[offSchemaID:], uint16(schemaID))
	if changes == nil {
		b[offAttributes] = AttrAppendOnly
	}
	last := int32(0)
	if n > 0 {
		last = int32(n - 1)
	}
	le.PutUint32(b[offLastOffsetDelta:], uint32(last))
	le.PutUint64(b[offWriterID:], ^uint64(0))
	le.PutUint32(b[offBatchSequence:], ^uint32(0))
	le.PutUint32(b[offRecordCount:], uint32(n))
	le.PutUint32(b[offCRC:], crc32.Checksum(b[offSchemaID:], castagnoli))
	return b
}

// ipcBodyBound bounds the body of rec's IPC message: its buffers, each
// padded to 8 bytes (the message's flatbuffer metadata is extra), so that
// a batch is encoded into one allocation rather than a buffer doubled a
// dozen times over a bulk write's million rows.
func ipcBodyBound(rec arrow.RecordBatch) int {
	n := 0
	var add func(d arrow.ArrayData)
	add = func(d arrow.ArrayData) {
		for _, b := range d.Buffers() {
			if b != nil {
				n += (b.Len() + 7) &^ 7
			}
		}
		for _, c := range d.Children() {
			add(c)
		}
	}
	for _, c := range rec.Columns() {
		add(c.Data())
	}
	return n
}

// BatchDecoder decodes batches of one table schema. It is safe for
// concurrent use.
type BatchDecoder struct {
	schema    *arrow.Schema // the records it returns: the engine's types
	wire      *arrow.Schema // the batches' Arrow: Fluss's (WireSchema)
	ts        []types.T
	conv      []bool // column i differs between wire and schema
	anyConv   bool
	schemaMsg []byte // the IPC Schema message (of wire) prepended to each batch's RecordBatch message
	// skipCRC: the batches are server-projected (ServerProjected).
	skipCRC bool
}

// ServerProjected returns a decoder like d for the batches of a FetchLog
// that asked the server to project columns: Fluss's server rewrites such a
// batch's Arrow body but keeps the original CRC, so the CRC cannot be
// checked, and Fluss's own client skips it for projected fetches
// (CompletedFetch.maybeEnsureValid). Lengths and the header are still
// checked. Every other batch keeps its CRC check.
func (d *BatchDecoder) ServerProjected() *BatchDecoder {
	c := *d
	c.skipCRC = true
	return &c
}

// NewTableBatchDecoder returns a decoder of batches of a table whose
// columns are s's fields, of types ts (len(ts) == s.NumFields()). The
// records it returns have schema s: Fluss's Arrow units are converted to
// the engine's.
func NewTableBatchDecoder(s *arrow.Schema, ts []types.T) *BatchDecoder {
	if len(ts) != s.NumFields() {
		panic(fmt.Sprintf("format.NewTableBatchDecoder: %d column types for %d fields", len(ts), s.NumFields()))
	}
	d := &BatchDecoder{schema: s, wire: WireSchema(s, ts), ts: ts, conv: make([]bool, len(ts))}
	for i, t := range ts {
		d.conv[i] = needsConv(t)
		d.anyConv = d.anyConv || d.conv[i]
	}
	return d.withSchemaMessage()
}

// NewBatchDecoder returns a decoder of batches whose Arrow has schema s as
// it is (Fluss's units: WireType), without conversion. Records in the
// engine's representation of a table with TIME or TIMESTAMP columns need
// NewTableBatchDecoder.
func NewBatchDecoder(s *arrow.Schema) *BatchDecoder {
	d := &BatchDecoder{schema: s, wire: s, conv: make([]bool, s.NumFields())}
	return d.withSchemaMessage()
}

// withSchemaMessage sets d's IPC Schema message (of its wire schema).
func (d *BatchDecoder) withSchemaMessage() *BatchDecoder {
	p := ipc.GetSchemaPayload(d.wire, memory.DefaultAllocator)
	defer p.Release()
	var buf bytes.Buffer
	// Writing to a bytes.Buffer cannot fail.
	_, _ = p.WritePayload(&buf)
	d.schemaMsg = buf.Bytes()
	return d
}

// fromWire returns rec (as read, of d.wire) in the engine's representation
// (d.schema), taking over the caller's reference to rec.
func (d *BatchDecoder) fromWire(rec arrow.RecordBatch) arrow.RecordBatch {
	if !d.anyConv {
		return rec
	}
	cols := make([]arrow.Array, rec.NumCols())
	for i, c := range rec.Columns() {
		if d.conv[i] {
			cols[i] = fromWire(c, d.ts[i])
		} else {
			cols[i] = c
			c.Retain()
		}
	}
	out := array.NewRecordBatch(d.schema, cols, rec.NumRows())
	for _, c := range cols {
		c.Release()
	}
	rec.Release()
	return out
}

// empty returns the batch of a header without records (Fluss writes no
// Arrow message in it).
func (d *BatchDecoder) empty(h BatchHeader, changes []ChangeType) Batch {
	cols := make([]arrow.Array, d.schema.NumFields())
	for i, f := range d.schema.Fields() {
		cols[i] = array.MakeArrayOfNull(memory.DefaultAllocator, f.Type, 0)
	}
	rec := array.NewRecordBatch(d.schema, cols, 0)
	for _, c := range cols {
		c.Release()
	}
	return Batch{Header: h, Changes: changes, Record: rec}
}

// Batch is a decoded log record batch.
type Batch struct {
	Header BatchHeader
	// Changes holds one change type per record; nil for an append-only batch.
	Changes []ChangeType
	// Record holds the rows; the caller releases it.
	Record arrow.RecordBatch
}

// verifiedParts checks one whole batch (its CRC too unless skipCRC) and
// returns its header, its change-type vector (nil for an append-only batch)
// and the offset of its Arrow message: the part of decoding that
// BatchDecoder.Decode and BatchReader.Decode share.
func verifiedParts(b []byte, skipCRC bool) (BatchHeader, []ChangeType, int, error) {
	h, err := checkBatch(b, skipCRC)
	if err != nil {
		return BatchHeader{}, nil, 0, err
	}
	pos := h.RecordsOffset
	if h.AppendOnly() || h.RecordCount == 0 {
		return h, nil, pos, nil
	}
	if h.RecordCount < 0 || int(h.RecordCount) > len(b)-pos {
		return BatchHeader{}, nil, 0, fmt.Errorf("change-type vector of %d records overruns the batch", h.RecordCount)
	}
	changes := make([]ChangeType, h.RecordCount)
	for i := range changes {
		changes[i] = ChangeType(b[pos+i])
	}
	return h, changes, pos + int(h.RecordCount), nil
}

// Decode verifies and decodes one whole batch.
func (d *BatchDecoder) Decode(b []byte) (Batch, error) {
	h, changes, pos, err := verifiedParts(b, d.skipCRC)
	if err != nil {
		return Batch{}, err
	}
	if h.RecordCount == 0 {
		return d.empty(h, changes), nil
	}
	// Bound what the IPC reader may allocate by the batch's own size, so a
	// damaged (or hostile) length inside the message cannot claim gigabytes.
	limit := int64(len(b) + len(d.schemaMsg))
	mr := ipc.NewMessageReader(&multiReader{parts: [][]byte{d.schemaMsg, b[pos:]}},
		ipc.WithBodySizeLimit(limit), ipc.WithMetadataSizeLimit(limit))
	defer mr.Release()
	alloc := newDecodeAllocator()
	alloc.reset(len(b))
	r, err := ipc.NewReaderFromMessageReader(mr, ipc.WithSchema(d.wire), ipc.WithAllocator(alloc))
	if err != nil {
		return Batch{}, fmt.Errorf("decoding arrow record batch: %w", err)
	}
	defer r.Release()
	if !r.Next() {
		if err := r.Err(); err != nil {
			return Batch{}, fmt.Errorf("decoding arrow record batch: %w", err)
		}
		return Batch{}, fmt.Errorf("decoding arrow record batch: no record")
	}
	rec := r.RecordBatch()
	if rec.NumRows() != int64(h.RecordCount) {
		return Batch{}, fmt.Errorf("batch header says %d records, arrow data has %d", h.RecordCount, rec.NumRows())
	}
	rec.Retain()
	return Batch{Header: h, Changes: changes, Record: d.fromWire(rec)}, nil
}

// multiReader reads a then b without copying them into one slice.
type multiReader struct{ parts [][]byte }

func (m *multiReader) Read(p []byte) (int, error) {
	for len(m.parts) > 0 && len(m.parts[0]) == 0 {
		m.parts = m.parts[1:]
	}
	if len(m.parts) == 0 {
		return 0, io.EOF
	}
	n := copy(p, m.parts[0])
	m.parts[0] = m.parts[0][n:]
	return n, nil
}
