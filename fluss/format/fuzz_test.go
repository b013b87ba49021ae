package format

import (
	"encoding/binary"
	"hash/crc32"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
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
	// OneRow of some columns of the kinds it builds, stepping over the rest.
	pos := make([]int, len(ts))
	for i := range pos {
		pos[i] = -1
	}
	proj := []int{0, 1, 5, 9, 11, 12, 20}
	fields := make([]arrow.Field, len(proj))
	for o, c := range proj {
		pos[c], fields[o] = o, rec.Schema().Field(c)
	}
	one, ok := NewOneRow(ts, pos, arrow.NewSchema(fields, nil))
	if !ok {
		f.Fatal("OneRow declined flat columns")
	}
	f.Fuzz(func(t *testing.T, row []byte) {
		rb := array.NewRecordBuilder(memory.DefaultAllocator, rec.Schema())
		defer rb.Release()
		_, _ = DecodeRow(row, ts, rb.Fields())
		_, _ = SplitRow(ts, row)
		if r, err := one.Decode(row); err == nil {
			r.Release()
		}
	})
}

// FuzzDecodeBatch checks that damaged log batches fail cleanly.
func FuzzDecodeBatch(f *testing.F) {
	rec := fixture.Record(0, 4)
	defer rec.Release()
	b, err := EncodeTableBatch(rec, colTypes(), []ChangeType{Insert, UpdateBefore, UpdateAfter, Delete}, 1)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	dec := NewTableBatchDecoder(rec.Schema(), colTypes())
	plan := flatPlan(dec, rec.Schema())
	f.Fuzz(func(t *testing.T, b []byte) {
		// Re-seal length and CRC so that mutations reach the Arrow decoder.
		if len(b) >= HeaderSize {
			binary.LittleEndian.PutUint32(b[offLength:], uint32(len(b)-LogOverhead))
			binary.LittleEndian.PutUint32(b[offCRC:], crc32.Checksum(b[offSchemaID:], castagnoli))
		}
		if got, err := dec.Decode(b); err == nil {
			got.Record.Release()
		}
		// The zero-copy reader and the projected read (which the store
		// uses on CRC-checked batches only) fail as cleanly.
		r := dec.NewReader()
		if got, err := r.Decode(b); err == nil {
			got.Record.Release()
		}
		r.Release()
		if got, err := readProjected(plan, b); err == nil {
			for _, c := range got.Columns() {
				_ = c.String()
			}
			got.Release()
		}
	})
}
