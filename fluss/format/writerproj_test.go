package format

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/fluss/internal/fixture"
	"github.com/sqlgate/sqlgate/types"
)

// TestSetWriter checks that an idempotent writer's id and sequence land in
// the header and that the CRC, which covers them, is recomputed.
func TestSetWriter(t *testing.T) {
	rec := fixture.Record(0, 5)
	defer rec.Release()
	b, err := EncodeTableBatch(rec, colTypes(), nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := ParseHeader(b)
	if err := SetWriter(b, 77, 12); err != nil {
		t.Fatal(err)
	}
	h, err := ParseHeader(b)
	if err != nil {
		t.Fatal(err)
	}
	if h.WriterID != 77 || h.BatchSequence != 12 || h.CRC == before.CRC {
		t.Fatalf("header after SetWriter: writer %d, sequence %d, CRC %08x (was %08x)", h.WriterID, h.BatchSequence, h.CRC, before.CRC)
	}
	if err := VerifyBatch(b); err != nil {
		t.Fatalf("CRC after SetWriter: %v", err)
	}
	b[HeaderSize-1] ^= 1 // another byte the CRC covers
	if err := VerifyBatch(b); err == nil {
		t.Fatal("a damaged batch verified")
	}
	for _, bad := range [][]byte{make([]byte, HeaderSize-1), append([]byte{}, b[:HeaderSize]...)} {
		if len(bad) > offMagic {
			bad[offMagic] = MagicV1
		}
		if err := SetWriter(bad, 1, 1); err == nil {
			t.Errorf("SetWriter of a %d-byte batch of magic %d: no error", len(bad), bad[min(len(bad)-1, offMagic)])
		}
	}
}

// TestServerProjectedSkipsCRC stands in for a Fluss server's projected
// FetchLog: the batch holds only some columns' Arrow but the CRC of the
// whole batch it came from. Only a ServerProjected decoder reads it, with
// the projected values; a damaged length is still an error there.
func TestServerProjectedSkipsCRC(t *testing.T) {
	rec := fixture.Record(0, 6)
	defer rec.Release()
	ts := colTypes()
	full, err := EncodeTableBatch(rec, ts, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	fh, _ := ParseHeader(full)
	cols := []int{0, 2}
	fields := make([]arrow.Field, len(cols))
	arrs := make([]arrow.Array, len(cols))
	pts := make([]types.T, len(cols))
	for i, c := range cols {
		fields[i], arrs[i], pts[i] = rec.Schema().Field(c), rec.Column(c), ts[c]
	}
	prec := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, rec.NumRows())
	defer prec.Release()
	proj, err := EncodeTableBatch(prec, pts, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	// The server keeps the original batch's CRC.
	copy(proj[offCRC:offCRC+4], full[offCRC:offCRC+4])
	if h, _ := ParseHeader(proj); h.CRC != fh.CRC {
		t.Fatal("CRC not carried over")
	}
	dec := NewTableBatchDecoder(prec.Schema(), pts)
	if _, err := dec.Decode(proj); err == nil || !strings.Contains(err.Error(), "CRC") {
		t.Fatalf("checked decoder on a server-projected batch: err = %v, want a CRC mismatch", err)
	}
	got, err := dec.ServerProjected().Decode(proj)
	if err != nil {
		t.Fatalf("ServerProjected decode: %v", err)
	}
	defer got.Record.Release()
	if !array.RecordApproxEqual(prec, got.Record, array.WithNaNsEqual(true)) {
		t.Errorf("projected record differs")
	}
	// The original decoder still checks CRCs (ServerProjected is a copy).
	if _, err := dec.Decode(proj); err == nil {
		t.Error("ServerProjected changed the decoder it was derived from")
	}
	if _, err := dec.ServerProjected().Decode(proj[:len(proj)-1]); err == nil {
		t.Error("a truncated server-projected batch decoded")
	}
	r := dec.ServerProjected().NewReader()
	defer r.Release()
	bt, err := r.Decode(proj)
	if err != nil {
		t.Fatalf("BatchReader of a ServerProjected decoder: %v", err)
	}
	if !array.RecordApproxEqual(prec, bt.Record, array.WithNaNsEqual(true)) {
		t.Errorf("BatchReader's projected record differs")
	}
	bt.Record.Release()
}
