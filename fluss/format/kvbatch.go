package format

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
)

// The KV formats of PutKv, Lookup, LimitScan and ScanKv (fluss.md §6):
// DefaultKvRecordBatch with its DefaultKvRecords, DefaultValueRecordBatch
// with its DefaultValueRecords, and ValueEncoder's value (a 2-byte schema
// id in front of the row). All integers are little-endian.

// DefaultKvRecordBatch header (magic 0, KvRecordBatchBuilder.writeBatchHeader).
const (
	kvOffLength        = 0
	kvOffMagic         = 4
	kvOffCRC           = 5
	kvOffSchemaID      = 9
	kvOffAttributes    = 11
	kvOffWriterID      = 12
	kvOffBatchSequence = 20
	kvOffRecordCount   = 24

	// KvBatchHeaderSize is the size of a DefaultKvRecordBatch header.
	KvBatchHeaderSize = 28
	// KvMagicV0 is the only KV batch magic (CURRENT_KV_MAGIC_VALUE).
	KvMagicV0 = 0
	// NoWriterID and NoBatchSequence mark a batch of a writer that is not
	// idempotent (LogRecordBatchFormat.NO_WRITER_ID, NO_BATCH_SEQUENCE).
	NoWriterID      = -1
	NoBatchSequence = -1
)

// DefaultValueRecordBatch header (CURRENT_VALUE_BATCH_MAGIC 0).
const (
	valOffLength      = 0
	valOffMagic       = 4
	valOffRecordCount = 5
	// ValueBatchHeaderSize is the size of a DefaultValueRecordBatch header.
	ValueBatchHeaderSize = 9
	// ValueMagicV0 is the only value batch magic.
	ValueMagicV0 = 0
)

// ValueSchemaIDSize is the size of the schema id ValueEncoder puts in front
// of a row: what a KV store keeps as a key's value and what Lookup returns.
const ValueSchemaIDSize = 2

var errShortKv = errors.New("kv record batch is truncated")

// AppendValueHeader appends ValueEncoder's prefix of a value: the row's
// schema id, 2 bytes little-endian. The row's bytes follow it.
func AppendValueHeader(dst []byte, schemaID int16) []byte {
	return binary.LittleEndian.AppendUint16(dst, uint16(schemaID))
}

// SplitValue splits a ValueEncoder value into its schema id and row bytes.
func SplitValue(v []byte) (int16, []byte, error) {
	if len(v) < ValueSchemaIDSize {
		return 0, nil, fmt.Errorf("kv value of %d bytes has no schema id", len(v))
	}
	return int16(binary.LittleEndian.Uint16(v)), v[ValueSchemaIDSize:], nil
}

// KvRecord is one record of a KV batch: a key (CompactedKeyEncoder bytes)
// and its row (CompactedRow bytes), nil for a delete.
type KvRecord struct {
	Key []byte
	Row []byte // nil: delete the key
}

// KvBatchHeader is a decoded DefaultKvRecordBatch header.
type KvBatchHeader struct {
	Length        int32 // bytes after the Length field
	Magic         int8
	CRC           uint32
	SchemaID      int16
	Attributes    int8
	WriterID      int64
	BatchSequence int32
	RecordCount   int32
}

// KvBatchEncoder builds one DefaultKvRecordBatch: Append the records, then
// Finish. The zero value is not ready; use NewKvBatchEncoder.
type KvBatchEncoder struct {
	buf  []byte
	base int // where the batch starts in buf
	n    int32
}

// NewKvBatchEncoder starts a batch in dst (its contents are kept before the
// batch) of rows of schema schemaID, written by writerID with batch sequence
// seq (NoWriterID, NoBatchSequence for a writer that is not idempotent).
func NewKvBatchEncoder(dst []byte, schemaID int16, writerID int64, seq int32) *KvBatchEncoder {
	e := &KvBatchEncoder{}
	e.Reset(dst, schemaID, writerID, seq)
	return e
}

// Reset starts a new batch as NewKvBatchEncoder does, reusing e.
func (e *KvBatchEncoder) Reset(dst []byte, schemaID int16, writerID int64, seq int32) {
	base := len(dst)
	dst = append(dst, make([]byte, KvBatchHeaderSize)...)
	h := dst[base:]
	le := binary.LittleEndian
	h[kvOffMagic] = KvMagicV0
	le.PutUint16(h[kvOffSchemaID:], uint16(schemaID))
	le.PutUint64(h[kvOffWriterID:], uint64(writerID))
	le.PutUint32(h[kvOffBatchSequence:], uint32(seq))
	e.buf, e.base, e.n = dst, base, 0
}

// Append adds a record: key and row (nil row: delete the key).
func (e *KvBatchEncoder) Append(key, row []byte) {
	e.buf = AppendKvRecord(e.buf, key, row)
	e.n++
}

// Len is the batch's size so far, header included.
func (e *KvBatchEncoder) Len() int { return len(e.buf) - e.base }

// Finish completes the header (length, record count, CRC-32C over
// SchemaId..end) and returns dst with the batch appended.
func (e *KvBatchEncoder) Finish() []byte {
	b := e.buf[e.base:]
	le := binary.LittleEndian
	le.PutUint32(b[kvOffLength:], uint32(len(b)-4))
	le.PutUint32(b[kvOffRecordCount:], uint32(e.n))
	le.PutUint32(b[kvOffCRC:], crc32.Checksum(b[kvOffSchemaID:], castagnoli))
	return e.buf
}

// AppendKvRecord appends one DefaultKvRecord: int32 length, unsigned varint
// key length, key, row bytes (none for a delete).
func AppendKvRecord(dst, key, row []byte) []byte {
	n := uvarintLen(uint64(len(key))) + len(key) + len(row)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(n))
	dst = binary.AppendUvarint(dst, uint64(len(key)))
	dst = append(dst, key...)
	return append(dst, row...)
}

func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

// ParseKvBatch checks one whole DefaultKvRecordBatch (b holds exactly the
// batch: its magic, length and CRC) and returns its header and records. The
// records' slices point into b.
func ParseKvBatch(b []byte) (KvBatchHeader, []KvRecord, error) {
	if len(b) < KvBatchHeaderSize {
		return KvBatchHeader{}, nil, fmt.Errorf("kv record batch header needs %d bytes, have %d", KvBatchHeaderSize, len(b))
	}
	le := binary.LittleEndian
	h := KvBatchHeader{
		Length:        int32(le.Uint32(b[kvOffLength:])),
		Magic:         int8(b[kvOffMagic]),
		CRC:           le.Uint32(b[kvOffCRC:]),
		SchemaID:      int16(le.Uint16(b[kvOffSchemaID:])),
		Attributes:    int8(b[kvOffAttributes]),
		WriterID:      int64(le.Uint64(b[kvOffWriterID:])),
		BatchSequence: int32(le.Uint32(b[kvOffBatchSequence:])),
		RecordCount:   int32(le.Uint32(b[kvOffRecordCount:])),
	}
	if h.Magic != KvMagicV0 {
		return h, nil, fmt.Errorf("unsupported kv record batch magic %d", h.Magic)
	}
	if int64(h.Length)+4 != int64(len(b)) {
		return h, nil, fmt.Errorf("kv record batch is %d bytes but its header says %d", len(b), int64(h.Length)+4)
	}
	if got := crc32.Checksum(b[kvOffSchemaID:], castagnoli); got != h.CRC {
		return h, nil, fmt.Errorf("kv record batch CRC-32C mismatch: stored %08x, computed %08x", h.CRC, got)
	}
	// every record takes at least 5 bytes (length, key length)
	if h.RecordCount < 0 || int64(h.RecordCount) > int64(len(b)-KvBatchHeaderSize)/5 {
		return h, nil, fmt.Errorf("kv record batch claims %d records in %d bytes", h.RecordCount, len(b))
	}
	recs := make([]KvRecord, h.RecordCount)
	pos := KvBatchHeaderSize
	for i := range recs {
		r, n, err := parseKvRecord(b[pos:])
		if err != nil {
			return h, nil, fmt.Errorf("kv record %d: %w", i, err)
		}
		recs[i] = r
		pos += n
	}
	if pos != len(b) {
		return h, nil, fmt.Errorf("kv record batch has %d bytes after its %d records", len(b)-pos, h.RecordCount)
	}
	return h, recs, nil
}

func parseKvRecord(b []byte) (KvRecord, int, error) {
	if len(b) < 4 {
		return KvRecord{}, 0, errShortKv
	}
	n := int64(int32(binary.LittleEndian.Uint32(b)))
	if n < 1 || n > int64(len(b)-4) {
		return KvRecord{}, 0, errShortKv
	}
	rec := b[4 : 4+n]
	kl, m := binary.Uvarint(rec)
	if m <= 0 || kl > uint64(len(rec)-m) {
		return KvRecord{}, 0, errShortKv
	}
	r := KvRecord{Key: rec[m : m+int(kl)]}
	if rest := rec[m+int(kl):]; len(rest) > 0 {
		r.Row = rest
	}
	return r, 4 + int(n), nil
}

// ValueRecord is one record of a value batch: a row and its schema id.
type ValueRecord struct {
	SchemaID int16
	Row      []byte
}

// AppendValueBatch appends a DefaultValueRecordBatch of recs: int32
// length, magic, int32 record count, then per record int32 length, int16
// schema id and the row.
func AppendValueBatch(dst []byte, recs []ValueRecord) []byte {
	base := len(dst)
	dst = append(dst, make([]byte, ValueBatchHeaderSize)...)
	le := binary.LittleEndian
	for _, r := range recs {
		dst = le.AppendUint32(dst, uint32(ValueSchemaIDSize+len(r.Row)))
		dst = le.AppendUint16(dst, uint16(r.SchemaID))
		dst = append(dst, r.Row...)
	}
	b := dst[base:]
	le.PutUint32(b[valOffLength:], uint32(len(b)-4))
	b[valOffMagic] = ValueMagicV0
	le.PutUint32(b[valOffRecordCount:], uint32(len(recs)))
	return dst
}

// ParseValueBatch decodes one whole DefaultValueRecordBatch (b holds
// exactly the batch); the rows point into b.
func ParseValueBatch(b []byte) ([]ValueRecord, error) {
	if len(b) < ValueBatchHeaderSize {
		return nil, fmt.Errorf("value record batch header needs %d bytes, have %d", ValueBatchHeaderSize, len(b))
	}
	le := binary.LittleEndian
	length := int64(int32(le.Uint32(b[valOffLength:])))
	if length+4 != int64(len(b)) {
		return nil, fmt.Errorf("value record batch is %d bytes but its header says %d", len(b), length+4)
	}
	if m := b[valOffMagic]; m != ValueMagicV0 {
		return nil, fmt.Errorf("unsupported value record batch magic %d", m)
	}
	cnt := int64(int32(le.Uint32(b[valOffRecordCount:])))
	if cnt < 0 || cnt > int64(len(b)-ValueBatchHeaderSize)/6 {
		return nil, fmt.Errorf("value record batch claims %d records in %d bytes", cnt, len(b))
	}
	recs := make([]ValueRecord, cnt)
	pos := ValueBatchHeaderSize
	for i := range recs {
		if len(b)-pos < 4 {
			return nil, fmt.Errorf("value record %d is truncated", i)
		}
		n := int64(int32(le.Uint32(b[pos:])))
		if n < ValueSchemaIDSize || n > int64(len(b)-pos-4) {
			return nil, fmt.Errorf("value record %d is truncated", i)
		}
		v := b[pos+4 : pos+4+int(n)]
		recs[i] = ValueRecord{SchemaID: int16(le.Uint16(v)), Row: v[ValueSchemaIDSize:]}
		pos += 4 + int(n)
	}
	if pos != len(b) {
		return nil, fmt.Errorf("value record batch has %d bytes after its %d records", len(b)-pos, cnt)
	}
	return recs, nil
}
