package format

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss/internal/fixture"
	"github.com/sqlgate/sqlgate/types"
)

// FuzzEncodeBatch drives the log batch writer with records built from the
// fuzzer's bytes (nulls, NaN, empty and long strings, extreme integers)
// and fixture records over every type, with fuzzer-chosen change types:
// every record must encode, and decode back to exactly the same rows and
// changes.
func FuzzEncodeBatch(f *testing.F) {
	f.Add([]byte{}, int32(0), uint8(0))
	f.Add([]byte("\x00\x01\x02\x03\xff\xfe\x80\x7f hello\x00world"), int32(7), uint8(3))
	f.Add([]byte{0xff, 0xf8, 0, 0, 0, 0, 0, 1, 0x7f, 0xf0, 0, 0, 0, 0, 0, 0}, int32(-5), uint8(9))
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "y", Type: arrow.BinaryTypes.Binary, Nullable: true},
	}, nil)
	dec := NewTableBatchDecoder(schema, []types.T{types.Int64Type, types.Float64Type, types.StringType, types.BoolType, types.BytesType})
	f.Fuzz(func(t *testing.T, data []byte, firstID int32, n uint8) {
		// A record from the bytes: each row takes 9 bytes (a null mask
		// byte and 8 value bytes) while they last.
		rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		defer rb.Release()
		rows := 0
		for p := 0; p+9 <= len(data) && rows < 200; p += 9 {
			mask, v := data[p], data[p+1:p+9]
			u := binary.LittleEndian.Uint64(v)
			add := func(col int, fn func()) {
				if mask&(1<<col) != 0 {
					rb.Field(col).AppendNull()
				} else {
					fn()
				}
			}
			add(0, func() { rb.Field(0).(*array.Int64Builder).Append(int64(u)) })
			add(1, func() { rb.Field(1).(*array.Float64Builder).Append(math.Float64frombits(u)) })
			add(2, func() { rb.Field(2).(*array.StringBuilder).Append(string(v[:u%9])) })
			add(3, func() { rb.Field(3).(*array.BooleanBuilder).Append(u&1 == 1) })
			add(4, func() { rb.Field(4).(*array.BinaryBuilder).Append(data[p : p+int(u%10)]) })
			rows++
		}
		rec := rb.NewRecordBatch()
		defer rec.Release()
		roundTrip(t, dec, rec, changesFrom(data, rows))

		fx := fixture.Record(firstID, int(n%40))
		defer fx.Release()
		roundTrip(t, NewTableBatchDecoder(fx.Schema(), colTypes()), fx, changesFrom(data, int(fx.NumRows())))
	})
}

// changesFrom picks change types for rows records from data, or none (an
// append-only batch) when data is short.
func changesFrom(data []byte, rows int) []ChangeType {
	if len(data) < rows || len(data)%2 == 0 {
		return nil
	}
	out := make([]ChangeType, rows)
	kinds := []ChangeType{Insert, UpdateBefore, UpdateAfter, Delete}
	for i := range out {
		out[i] = kinds[int(data[i])%len(kinds)]
	}
	return out
}

func roundTrip(t *testing.T, dec *BatchDecoder, rec arrow.RecordBatch, changes []ChangeType) {
	t.Helper()
	b, err := EncodeTableBatch(rec, dec.ts, changes, 3)
	if err != nil {
		t.Fatalf("encode %d rows: %v", rec.NumRows(), err)
	}
	got, err := dec.Decode(b)
	if err != nil {
		t.Fatalf("decode what was encoded: %v", err)
	}
	defer got.Record.Release()
	if rec.NumRows() != got.Record.NumRows() || rec.NumCols() != got.Record.NumCols() {
		t.Fatalf("round trip: %dx%d became %dx%d", rec.NumRows(), rec.NumCols(), got.Record.NumRows(), got.Record.NumCols())
	}
	for c := 0; c < int(rec.NumCols()); c++ {
		// ApproxEqual with NaNs equal: a NaN must come back a NaN.
		if !array.ApproxEqual(rec.Column(c), got.Record.Column(c), array.WithNaNsEqual(true), array.WithAbsTolerance(0)) {
			t.Fatalf("round trip changed column %s:\n%v\n%v", rec.ColumnName(c), rec.Column(c), got.Record.Column(c))
		}
	}
	if len(changes) > 0 {
		for i, c := range changes {
			if got.Changes[i] != c {
				t.Fatalf("change %d: %v, want %v", i, got.Changes[i], c)
			}
		}
	}
}
