package fluss

import (
	"bytes"
	"encoding/hex"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/types"
)

// TestMissingWidenRow: a compacted row of an older schema widened with
// missing values (some NULL) is byte for byte the row written with those
// values under the new schema, across a null bitmap that grows a byte; the
// Arrow widening gives the same values.
func TestMissingWidenRow(t *testing.T) {
	const old, full = 7, 11
	ts := make([]types.T, full)
	cols := make([]Column, full)
	arrs := make([]arrow.Array, full)
	for i := range ts {
		ts[i] = types.Int32Type
		if i%2 == 1 {
			ts[i] = types.StringType
		}
		cols[i] = Column{Name: string(rune('a' + i)), Type: ts[i]}
		b := array.NewBuilder(memory.DefaultAllocator, ts[i].ArrowType())
		switch {
		case i == 3 || i == 9: // a NULL stored, a NULL missing value
			b.AppendNull()
		case ts[i].Kind == types.String:
			b.(*array.StringBuilder).Append("s" + string(rune('a'+i)))
		default:
			b.(*array.Int32Builder).Append(int32(100 + i))
		}
		arrs[i] = b.NewArray()
		b.Release()
		defer arrs[i].Release()
	}
	d := TableDescriptor{Schema: Schema{Columns: cols}}
	m := TableMeta{Columns: make([]ColumnMeta, full)}
	for i := old; i < full; i++ {
		if arrs[i].IsNull(0) {
			continue
		}
		v, err := EncodeMissing(ts[i], arrs[i], 0)
		if err != nil {
			t.Fatal(err)
		}
		m.Columns[i].Missing, m.Columns[i].MissingText = string(mustHex(t, v)), "x"
	}
	SetTableMeta(&d, m)
	missing := MissingOf(d)
	if missing == nil {
		t.Fatal("no missing values read back")
	}
	oldRow, err := format.AppendRow(nil, ts[:old], arrs[:old], 0)
	if err != nil {
		t.Fatal(err)
	}
	want, err := format.AppendRow(nil, ts, arrs, 0)
	if err != nil {
		t.Fatal(err)
	}
	got, err := missing.WidenRow([]byte{0xee}, oldRow, old, full)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got[1:], want) || got[0] != 0xee {
		t.Fatalf("widened row %x, want %x", got[1:], want)
	}
	// the Arrow widening of a record of the older schema
	fields := make([]arrow.Field, full)
	for i := range fields {
		fields[i] = arrow.Field{Name: cols[i].Name, Type: ts[i].ArrowType(), Nullable: true}
	}
	for _, a := range arrs[:old] {
		a.Retain()
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields[:old], nil), arrs[:old], 1)
	wide, err := missing.WidenRecord(rec, arrow.NewSchema(fields, nil))
	if err != nil {
		t.Fatal(err)
	}
	defer wide.Release()
	for i := old; i < full; i++ {
		if g, w := wide.Column(i).ValueStr(0), arrs[i].ValueStr(0); g != w {
			t.Errorf("column %d: widened %s, want %s", i, g, w)
		}
	}
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
