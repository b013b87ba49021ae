package format

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
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
	dec := NewTableBatchDecoder(rec.Schema(), colTypes())
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
		b, err := EncodeTableBatch(rec, colTypes(), tc.changes, 1)
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
	b, _ := EncodeTableBatch(rec, colTypes(), nil, 1)
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

// TestProjectedReadMatchesDecodeAndSurvivesDamage: a projected read of
// flat columns returns what Decode does; damaged metadata (every byte of
// it in turn) or a truncated head makes it decline or fail, never panic.
func TestProjectedReadMatchesDecodeAndSurvivesDamage(t *testing.T) {
	rec := fixture.Record(0, 12)
	defer rec.Release()
	dec := NewTableBatchDecoder(rec.Schema(), colTypes())
	proj := []int{0, 1, 3, 6, 9, 11, 12, 13, 15, 18, 20, 21}
	fields := make([]arrow.Field, len(proj))
	for i, c := range proj {
		fields[i] = rec.Schema().Field(c)
	}
	plan, ok := dec.NewProjectionPlan(proj, arrow.NewSchema(fields, nil))
	if !ok {
		t.Fatal("no projection plan for flat columns")
	}
	if _, ok := dec.NewProjectionPlan([]int{22}, arrow.NewSchema([]arrow.Field{rec.Schema().Field(22)}, nil)); ok {
		t.Error("a projection of an ARRAY column got a plan; nested columns are read whole")
	}
	read := func(b []byte) (arrow.RecordBatch, error) { return readProjected(plan, b) }
	for _, changes := range [][]ChangeType{nil, make([]ChangeType, 12)} {
		b, _ := EncodeTableBatch(rec, colTypes(), changes, 1)
		got, err := read(b)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range proj {
			if !array.ApproxEqual(rec.Column(c), got.Column(i), array.WithNaNsEqual(true)) {
				t.Errorf("column %d: got %v, want %v", c, got.Column(i), rec.Column(c))
			}
		}
		got.Release()
		// A head shorter than the metadata asks for more.
		if _, need, ok := ParseLayout(b[:HeaderSize+len(changes)+16]); !ok || need <= HeaderSize+len(changes)+16 {
			t.Errorf("short head: need %d, ok %v", need, ok)
		}
		l, _, _ := ParseLayout(b)
		for i := HeaderSize; i < int(l.BodyOffset); i++ {
			bad := append([]byte(nil), b...)
			bad[i] ^= 0xff
			if r, err := read(bad); err == nil {
				for _, c := range r.Columns() {
					_ = c.String() // every value stays readable
				}
				r.Release()
			}
		}
	}
}

// readProjected does what the store's projected read does, with b holding
// the whole batch: parse the layout, pick the spans, build the columns.
func readProjected(plan *ProjectionPlan, b []byte) (arrow.RecordBatch, error) {
	l, need, ok := ParseLayout(b)
	if !ok || need > 0 {
		return nil, errors.New("declined")
	}
	spans, ok := plan.Spans(&l, 64)
	if !ok {
		return nil, errors.New("declined")
	}
	data := make([][]byte, len(spans))
	for i, s := range spans {
		if l.BodyOffset+s.Off+s.Len > int64(len(b)) {
			return nil, errors.New("span past the batch")
		}
		data[i] = b[l.BodyOffset+s.Off : l.BodyOffset+s.Off+s.Len]
	}
	return plan.Build(&l, spans, data)
}

// flatPlan is a projection plan of the fixture's flat columns.
func flatPlan(dec *BatchDecoder, s *arrow.Schema) *ProjectionPlan {
	proj := []int{0, 1, 3, 6, 9, 11, 12, 13, 15, 18, 20, 21}
	fields := make([]arrow.Field, len(proj))
	for i, c := range proj {
		fields[i] = s.Field(c)
	}
	plan, _ := dec.NewProjectionPlan(proj, arrow.NewSchema(fields, nil))
	return plan
}
