package pgtypes

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// TestRegAndJSONOIDs: RowDescription carries PostgreSQL's OIDs for the
// reg* and json variants, and their arrays have PostgreSQL's array OIDs.
func TestRegAndJSONOIDs(t *testing.T) {
	cases := []struct {
		t    types.T
		oid  uint32
		size int16
	}{
		{types.RegOf(types.RegClass), 2205, 4},
		{types.RegOf(types.RegType), 2206, 4},
		{types.RegOf(types.RegProc), 24, 4},
		{types.RegOf(types.RegProcedure), 2202, 4},
		{types.RegOf(types.RegNamespace), 4089, 4},
		{types.RegOf(types.RegRole), 4096, 4},
		{types.JSONType, 114, -1},
		{types.JSONBType, 3802, -1},
		{types.ArrayOf(types.RegOf(types.RegClass)), 2210, -1},
		{types.ArrayOf(types.JSONBType), 3807, -1},
		{types.T{Kind: types.Oid}, 26, 4},
	}
	for _, c := range cases {
		oid, _, size := OIDOf(c.t)
		if oid != c.oid || size != c.size {
			t.Errorf("OIDOf(%s) = %d, size %d; want %d, %d", c.t, oid, size, c.oid, c.size)
		}
	}
}

// TestRegEncoderNames: a reg* column prints the namer's name in text
// (the number without a namer, or when the namer knows no such object),
// its uint32 OID in binary; jsonb binary is a version byte and the text.
func TestRegEncoderNames(t *testing.T) {
	mem := memory.NewGoAllocator()
	ob := array.NewUint32Builder(mem)
	ob.AppendValues([]uint32{1259, 7, 1259}, nil)
	oids := ob.NewArray()
	defer oids.Release()
	sb := array.NewStringBuilder(mem)
	sb.Append(`{"a": 1}`)
	sb.Append(`{"a": 1}`)
	sb.Append(`{"a": 1}`)
	js := sb.NewArray()
	defer js.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "r", Type: arrow.PrimitiveTypes.Uint32}, {Name: "j", Type: arrow.BinaryTypes.String}}, nil)
	batch := array.NewRecordBatch(schema, []arrow.Array{oids, js}, 3)
	defer batch.Release()
	cols := []types.T{types.RegOf(types.RegClass), types.JSONBType}

	calls := 0
	namer := func(v types.Variant, oid uint32) (string, bool) {
		calls++
		if v == types.RegClass && oid == 1259 {
			return "pg_class", true
		}
		return "", false
	}
	values := func(e *RowEncoder, row int) []byte {
		if err := e.Reset(batch); err != nil {
			t.Fatal(err)
		}
		return e.AppendDataRow(nil, row)[7:] // after 'D', length, column count
	}
	text, err := NewRowEncoder(cols, nil)
	if err != nil || !text.HasReg() {
		t.Fatalf("text encoder: %v, HasReg %v", err, text.HasReg())
	}
	if got := values(text, 0); !bytes.Contains(got, []byte("\x00\x00\x00\x041259")) {
		t.Errorf("without a namer: %q", got)
	}
	text.SetRegNamer(namer)
	if got := values(text, 0); !bytes.Contains(got, []byte("\x00\x00\x00\x08pg_class")) {
		t.Errorf("regclass 1259: %q", got)
	}
	if got := values(text, 1); !bytes.Contains(got, []byte("\x00\x00\x00\x017")) {
		t.Errorf("regclass 7 (no such relation): %q", got)
	}
	values(text, 2)
	if calls != 2 {
		t.Errorf("namer called %d times for 3 rows of 2 OIDs, want 2 (cached)", calls)
	}
	bin, err := NewRowEncoder(cols, []int16{FormatBinary})
	if err != nil || bin.HasReg() {
		t.Fatalf("binary encoder: %v, HasReg %v", err, bin.HasReg())
	}
	want := []byte("\x00\x00\x00\x04\x00\x00\x04\xeb\x00\x00\x00\x09\x01{\"a\": 1}")
	if got := values(bin, 0); !bytes.Equal(got, want) {
		t.Errorf("binary: %q, want %q", got, want)
	}
}
