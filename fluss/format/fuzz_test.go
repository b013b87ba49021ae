package format

import (
	"encoding/binary"
	"hash/crc32"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss/internal/fixture"
)

// FuzzDecodeRow checks that no byte string makes the compacted-row decoder
// panic: stored rows come from disk and must fail cleanly when damaged.
func FuzzDecodeRow(f *testing.F) {
	rec := fixture.Record(0, 4)
	defer rec.Release()
	ts := colTypes()
	for i := 0; i < int(rec.NumRows()); i++ {
		row, err := AppendRow(nil, ts, rec.Columns(), i)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(row)
	}
	f.Fuzz(func(t *testing.T, row []byte) {
		rb := array.NewRecordBuilder(memory.DefaultAllocator, rec.Schema())
		defer rb.Release()
		_, _ = DecodeRow(row, ts, rb.Fields())
		_, _ = SplitRow(ts, row)
	})
}

// FuzzDecodeBatch checks that damaged log batches fail cleanly.
func FuzzDecodeBatch(f *testing.F) {
	rec := fixture.Record(0, 4)
	defer rec.Release()
	b, err := EncodeBatch(rec, []ChangeType{Insert, UpdateBefore, UpdateAfter, Delete}, 1)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	dec := NewBatchDecoder(rec.Schema())
	f.Fuzz(func(t *testing.T, b []byte) {
		// Re-seal length and CRC so that mutations reach the Arrow decoder.
		if len(b) >= HeaderSize {
			binary.LittleEndian.PutUint32(b[offLength:], uint32(len(b)-LogOverhead))
			binary.LittleEndian.PutUint32(b[offCRC:], crc32.Checksum(b[offSchemaID:], castagnoli))
		}
		if got, err := dec.Decode(b); err == nil {
			got.Record.Release()
		}
	})
}
