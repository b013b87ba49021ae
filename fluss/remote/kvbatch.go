package remote

// Interim byte layouts of the KV batches (fluss.md §6), kept here until
// fluss/format has them (the `bytes` helper is adding KvRecordBatch,
// ValueRecordBatch and the value's schema-id prefix there; then this file
// folds onto fluss/format). All integers little-endian.

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// KvRecordBatch header (DefaultKvRecordBatch, magic 0).
const (
	kvOffLength    = 0
	kvOffMagic     = 4
	kvOffCRC       = 5
	kvOffSchemaID  = 9
	kvOffAttrs     = 11
	kvOffWriterID  = 12
	kvOffSequence  = 20
	kvOffCount     = 24
	kvHeaderSize   = 28
	noWriter       = -1
	noSequence     = -1
	logOffWriterID = 32 // V0 log batch (fluss/format's layout)
	logOffSequence = 40
	logOffCRC      = 21
	logOffSchemaID = 25
	logHeaderV0    = 48
)

// KvRecord is one upsert (Row set: a compacted row) or delete (Row nil) of
// the record with the given key (CompactedKeyEncoder bytes).
type KvRecord struct {
	Key []byte
	Row []byte
}

// EncodeKvBatch builds a KvRecordBatch of records written with schemaID,
// not idempotent (writer id and sequence -1; Writer stamps them).
func EncodeKvBatch(schemaID int16, recs []KvRecord) []byte {
	n := kvHeaderSize
	for _, r := range recs {
		n += 4 + binary.MaxVarintLen32 + len(r.Key) + len(r.Row)
	}
	b := make([]byte, kvHeaderSize, n)
	le := binary.LittleEndian
	for _, r := range recs {
		start := len(b)
		b = append(b, 0, 0, 0, 0)
		b = binary.AppendUvarint(b, uint64(len(r.Key)))
		b = append(b, r.Key...)
		b = append(b, r.Row...)
		le.PutUint32(b[start:], uint32(len(b)-start-4))
	}
	le.PutUint32(b[kvOffLength:], uint32(len(b)-4))
	b[kvOffMagic] = 0
	le.PutUint16(b[kvOffSchemaID:], uint16(schemaID))
	b[kvOffAttrs] = 0
	le.PutUint64(b[kvOffWriterID:], uint64(noWriter64))
	le.PutUint32(b[kvOffSequence:], uint32(noSequence32))
	le.PutUint32(b[kvOffCount:], uint32(len(recs)))
	le.PutUint32(b[kvOffCRC:], crc32.Checksum(b[kvOffSchemaID:], castagnoli))
	return b
}

var (
	noWriter64   int64 = noWriter
	noSequence32 int32 = noSequence
)

// stampKv sets a KvRecordBatch's writer id and batch sequence and its CRC.
func stampKv(b []byte, writer int64, seq int32) error {
	if len(b) < kvHeaderSize || b[kvOffMagic] != 0 {
		return fmt.Errorf("not a KvRecordBatch of magic 0")
	}
	le := binary.LittleEndian
	le.PutUint64(b[kvOffWriterID:], uint64(writer))
	le.PutUint32(b[kvOffSequence:], uint32(seq))
	le.PutUint32(b[kvOffCRC:], crc32.Checksum(b[kvOffSchemaID:], castagnoli))
	return nil
}

// stampLog sets a V0 log record batch's writer id and batch sequence and its
// CRC (which covers both).
func stampLog(b []byte, writer int64, seq int32) error {
	if len(b) < logHeaderV0 || b[12] != 0 {
		return fmt.Errorf("not a log record batch of magic 0")
	}
	le := binary.LittleEndian
	le.PutUint64(b[logOffWriterID:], uint64(writer))
	le.PutUint32(b[logOffSequence:], uint32(seq))
	le.PutUint32(b[logOffCRC:], crc32.Checksum(b[logOffSchemaID:], castagnoli))
	return nil
}

// Value is a KV value as Lookup, PrefixLookup and LimitScan return it: the
// schema id its writer used and the row bytes (a compacted row).
type Value struct {
	SchemaID int16
	Row      []byte
}

// ParseValue splits a value into its 2-byte little-endian schema id and row
// (ValueEncoder).
func ParseValue(b []byte) (Value, error) {
	if len(b) < 2 {
		return Value{}, fmt.Errorf("value of %d bytes has no schema id", len(b))
	}
	return Value{SchemaID: int16(binary.LittleEndian.Uint16(b)), Row: b[2:]}, nil
}

// ParseValueBatch splits a ValueRecordBatch (LimitScan of a primary-key
// table): int32 length, int8 magic, int32 count, then per record int32
// length, int16 schema id, row.
func ParseValueBatch(b []byte) ([]Value, error) {
	if len(b) == 0 {
		return nil, nil
	}
	if len(b) < 9 {
		return nil, fmt.Errorf("value batch of %d bytes is shorter than its header", len(b))
	}
	le := binary.LittleEndian
	total := int64(le.Uint32(b)) + 4
	if total > int64(len(b)) || total < 9 {
		return nil, fmt.Errorf("value batch length %d does not match its %d bytes", total, len(b))
	}
	count := int64(le.Uint32(b[5:]))
	if count > (total-9)/6 {
		return nil, fmt.Errorf("value batch claims %d records in %d bytes", count, total)
	}
	out := make([]Value, 0, count)
	p := int64(9)
	for i := int64(0); i < count; i++ {
		if p+4 > total {
			return nil, fmt.Errorf("value batch record %d cut short", i)
		}
		n := int64(le.Uint32(b[p:]))
		p += 4
		if n < 2 || p+n > total {
			return nil, fmt.Errorf("value batch record %d has length %d", i, n)
		}
		v, _ := ParseValue(b[p : p+n])
		out = append(out, v)
		p += n
	}
	return out, nil
}
