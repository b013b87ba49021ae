package format

import (
	"encoding/binary"
	"hash/crc32"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/fluss/internal/fixture"
)

// TestBatchReaderDecodesInPlace: a BatchReader decodes batches of every
// type like Decode does, its fixed-width columns point into the batch bytes
// (no copy), a changelog batch (whose Arrow body is misaligned by the
// change-type vector) decodes too, and a damaged batch is an error after
// which the same reader decodes the next good batch.
func TestBatchReaderDecodesInPlace(t *testing.T) {
	rec := fixture.Record(0, 12)
	defer rec.Release()
	dec := NewBatchDecoder(rec.Schema())
	r := dec.NewReader()
	defer r.Release()
	changes := make([]ChangeType, rec.NumRows())
	for i := range changes {
		changes[i] = ChangeType(1 + i%4)
	}
	for _, tc := range []struct {
		name    string
		changes []ChangeType
	}{{"append-only", nil}, {"changelog", changes}, {"append-only again", nil}} {
		b, err := EncodeBatch(rec, tc.changes, 1)
		if err != nil {
			t.Fatal(err)
		}
		want, err := dec.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.Decode(b)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !array.RecordApproxEqual(want.Record, got.Record, array.WithNaNsEqual(true)) || len(got.Changes) != len(tc.changes) {
			t.Errorf("%s: BatchReader decoded %v, Decode %v", tc.name, got.Record, want.Record)
		}
		if tc.changes == nil {
			// Column 0 (id, int32): its values lie inside b.
			vals := got.Record.Column(0).Data().Buffers()[1].Bytes()
			p, lo := uintptr(unsafe.Pointer(&vals[0])), uintptr(unsafe.Pointer(&b[0]))
			if p < lo || p >= lo+uintptr(len(b)) {
				t.Errorf("%s: column values were copied out of the batch bytes", tc.name)
			}
		}
		want.Record.Release()
		got.Record.Release()
		// A flipped byte in the body fails the CRC; the reader goes on.
		bad := append([]byte(nil), b...)
		bad[len(bad)-5] ^= 0x40
		if _, err := r.Decode(bad); err == nil {
			t.Errorf("%s: a damaged batch decoded", tc.name)
		}
	}
	// A CRC-valid batch whose Arrow message is cut short is an error, not a panic.
	b, _ := EncodeBatch(rec, nil, 1)
	for _, cut := range []int{HeaderSize + 4, HeaderSize + 100, len(b) - 8} {
		short := append([]byte(nil), b[:cut]...)
		putLengthAndCRC(short)
		if _, err := r.Decode(short); err == nil {
			t.Errorf("a batch cut at %d bytes decoded", cut)
		}
	}
	got, err := r.Decode(b)
	if err != nil || got.Record.NumRows() != rec.NumRows() {
		t.Fatalf("after errors: %v", err)
	}
	got.Record.Release()
}

// putLengthAndCRC makes b's header describe b as it is (length and CRC).
func putLengthAndCRC(b []byte) {
	binary.LittleEndian.PutUint32(b[offLength:], uint32(len(b)-LogOverhead))
	binary.LittleEndian.PutUint32(b[offCRC:], crc32.Checksum(b[offSchemaID:], castagnoli))
}
