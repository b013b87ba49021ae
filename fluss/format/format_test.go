package format

import (
	"bytes"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss/internal/fixture"
	"github.com/sqlgate/sqlgate/types"
)

func colTypes() []types.T {
	var ts []types.T
	for _, c := range fixture.AllTypes() {
		ts = append(ts, c.Type)
	}
	return ts
}

func TestCompactedRowRoundTripAllTypes(t *testing.T) {
	rec := fixture.Record(0, 12)
	defer rec.Release()
	ts := colTypes()
	rb := array.NewRecordBuilder(memory.DefaultAllocator, rec.Schema())
	defer rb.Release()
	for i := 0; i < int(rec.NumRows()); i++ {
		row, err := AppendRow(nil, ts, rec.Columns(), i)
		if err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
		n, err := DecodeRow(row, ts, rb.Fields())
		if err != nil || n != len(row) {
			t.Fatalf("row %d: decode consumed %d of %d: %v", i, n, len(row), err)
		}
		// Split and join must reproduce the bytes.
		fields, err := SplitRow(ts, row)
		if err != nil {
			t.Fatalf("split row %d: %v", i, err)
		}
		if j := JoinRow(nil, fields); !bytes.Equal(j, row) {
			t.Fatalf("row %d: JoinRow(SplitRow) = %x, want %x", i, j, row)
		}
	}
	got := rb.NewRecordBatch()
	defer got.Release()
	for c := range ts {
		if !array.ApproxEqual(rec.Column(c), got.Column(c), array.WithNaNsEqual(true)) {
			t.Errorf("column %s: round trip differs\nwant %v\ngot  %v", rec.ColumnName(c), rec.Column(c), got.Column(c))
		}
	}
	// A truncated row is an error, not a panic.
	row, _ := AppendRow(nil, ts, rec.Columns(), 3)
	for cut := 0; cut < len(row); cut++ {
		rb2 := array.NewRecordBuilder(memory.DefaultAllocator, rec.Schema())
		if _, err := DecodeRow(row[:cut], ts, rb2.Fields()); err == nil {
			t.Errorf("decoding %d of %d bytes succeeded", cut, len(row))
		}
		rb2.Release()
	}
}

func TestKeyEncodingMatchesFluss(t *testing.T) {
	mk := func(tt types.T, app func(b array.Builder)) arrow.Array {
		b := array.NewBuilder(memory.DefaultAllocator, tt.ArrowType())
		app(b)
		return b.NewArray()
	}
	big, _ := decimal128.FromString("-1", 20, 0)
	cases := []struct {
		name string
		t    types.T
		app  func(b array.Builder)
		want []byte
	}{
		{"int 10", types.Int32Type, func(b array.Builder) { b.(*array.Int32Builder).Append(10) }, []byte{0x0a}},
		{"int 300", types.Int32Type, func(b array.Builder) { b.(*array.Int32Builder).Append(300) }, []byte{0xac, 0x02}},
		{"int -1 is 5 bytes", types.Int32Type, func(b array.Builder) { b.(*array.Int32Builder).Append(-1) }, []byte{0xff, 0xff, 0xff, 0xff, 0x0f}},
		{"bigint -1 is 10 bytes", types.Int64Type, func(b array.Builder) { b.(*array.Int64Builder).Append(-1) }, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}},
		{"smallint LE", types.Int16Type, func(b array.Builder) { b.(*array.Int16Builder).Append(0x0102) }, []byte{0x02, 0x01}},
		{"string", types.StringType, func(b array.Builder) { b.(*array.StringBuilder).Append("ab") }, []byte{2, 'a', 'b'}},
		{"decimal p<=18 unscaled", types.DecimalType(10, 2), func(b array.Builder) { b.(*array.Decimal128Builder).Append(decimal128.FromI64(12345)) }, []byte{0xb9, 0x60}},
		{"decimal p>18 BigInteger bytes", types.DecimalType(20, 0), func(b array.Builder) { b.(*array.Decimal128Builder).Append(big) }, []byte{1, 0xff}},
		{"decimal 128", types.DecimalType(20, 0), func(b array.Builder) { b.(*array.Decimal128Builder).Append(decimal128.FromI64(128)) }, []byte{2, 0x00, 0x80}},
		{"timestamp(3) millis", types.TimestampType(3), func(b array.Builder) { b.(*array.TimestampBuilder).Append(1_500_000) }, []byte{0xdc, 0x0b}},
		{"timestamp(6) millis+nanos", types.TimestampType(6), func(b array.Builder) { b.(*array.TimestampBuilder).Append(1_001) }, []byte{0x01, 0xe8, 0x07}},
		{"date", types.DateType, func(b array.Builder) { b.(*array.Date32Builder).Append(1) }, []byte{1}},
	}
	for _, c := range cases {
		a := mk(c.t, c.app)
		got, err := AppendKey(nil, []types.T{c.t}, []arrow.Array{a}, 0)
		a.Release()
		if err != nil || !bytes.Equal(got, c.want) {
			t.Errorf("%s: got %x (%v), want %x", c.name, got, err, c.want)
		}
	}
	// Keys with NULL are refused.
	a := mk(types.Int32Type, func(b array.Builder) { b.AppendNull() })
	defer a.Release()
	if _, err := AppendKey(nil, []types.T{types.Int32Type}, []arrow.Array{a}, 0); err == nil {
		t.Error("a null key column was encoded")
	}
	// Keys are scalar: a nested column is refused, not encoded.
	lt := types.ArrayOf(types.Int32Type)
	l := mk(lt, func(b array.Builder) {
		lb := b.(*array.ListBuilder)
		lb.Append(true)
		lb.ValueBuilder().(*array.Int32Builder).Append(1)
	})
	defer l.Release()
	if _, err := AppendKey(nil, []types.T{lt}, []arrow.Array{l}, 0); err == nil {
		t.Error("a nested key column was encoded")
	}
}

// A point lookup encodes its key into a buffer on its stack: AppendKey must
// not make the buffer escape (one allocation per lookup).
func TestAppendKeyKeepsBufferOnStack(t *testing.T) {
	ib := array.NewInt64Builder(memory.DefaultAllocator)
	ib.Append(1234567)
	ids := ib.NewArray()
	ib.Release()
	defer ids.Release()
	sb := array.NewStringBuilder(memory.DefaultAllocator)
	sb.Append("key")
	strs := sb.NewArray()
	sb.Release()
	defer strs.Release()
	ts := []types.T{types.Int64Type, types.StringType}
	cols := []arrow.Array{ids, strs}
	var n int
	allocs := testing.AllocsPerRun(100, func() {
		var buf [32]byte
		k, err := AppendKey(buf[:0], ts, cols, 0)
		if err != nil {
			t.Fatal(err)
		}
		n = len(k)
	})
	if allocs != 0 || n == 0 {
		t.Errorf("AppendKey into a stack buffer: %v allocations per call (%d bytes); want 0", allocs, n)
	}
}

func TestLogBatchRoundTripAndCRC(t *testing.T) {
	rec := fixture.Record(0, 9)
	defer rec.Release()
	dec := NewTableBatchDecoder(rec.Schema(), colTypes())
	for _, changes := range [][]ChangeType{nil, {Insert, UpdateBefore, UpdateAfter, Delete, Insert, Insert, Insert, Insert, Insert}} {
		b, err := EncodeTableBatch(rec, colTypes(), changes, 7)
		if err != nil {
			t.Fatal(err)
		}
		SetBaseOffset(b, 100)
		SetCommitTimestamp(b, 1234)
		h, err := ParseHeader(b)
		if err != nil {
			t.Fatal(err)
		}
		if h.BaseOffset != 100 || h.CommitTimestamp != 1234 || h.SchemaID != 7 || h.RecordCount != 9 ||
			h.LastOffsetDelta != 8 || h.WriterID != -1 || h.BatchSequence != -1 || h.Size() != int64(len(b)) ||
			h.AppendOnly() != (changes == nil) || h.NextOffset() != 109 {
			t.Fatalf("header %+v", h)
		}
		// The Arrow message starts right after the header (and change vector), with the continuation marker.
		at := HeaderSize + len(changes)
		if !bytes.Equal(b[at:at+4], []byte{0xff, 0xff, 0xff, 0xff}) {
			t.Fatalf("no IPC continuation marker at %d: %x", at, b[at:at+8])
		}
		got, err := dec.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		if !array.RecordApproxEqual(rec, got.Record, array.WithNaNsEqual(true)) {
			t.Errorf("decoded record differs")
		}
		if len(got.Changes) != len(changes) || (changes != nil && got.Changes[3] != Delete) {
			t.Errorf("changes %v, want %v", got.Changes, changes)
		}
		got.Record.Release()
		// Every byte from SchemaId on is covered by the CRC.
		for _, pos := range []int{25, 27, 44, HeaderSize, len(b) / 2, len(b) - 1} {
			c := bytes.Clone(b)
			c[pos] ^= 0x40
			if _, err := dec.Decode(c); err == nil || (pos != 44 && !strings.Contains(err.Error(), "CRC")) {
				t.Errorf("flipping byte %d: err = %v", pos, err)
			}
		}
	}
}
