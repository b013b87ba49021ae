package format

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqlgate/sqlgate/fluss/internal/fixture"
)

// TestEncodeCompressedRoundTrip writes every codec a Fluss table declares,
// checks the Arrow message says the codec (or none), and decodes the same
// values with both decoders.
func TestEncodeCompressedRoundTrip(t *testing.T) {
	rec := fixture.Record(0, 50)
	defer rec.Release()
	ts := colTypes()
	dec := NewTableBatchDecoder(rec.Schema(), ts)
	plain, err := EncodeTableBatch(rec, ts, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"NONE", "lz4_frame", "ZSTD", ""} {
		c, err := ParseCompression(name)
		if err != nil {
			t.Fatal(err)
		}
		b, err := EncodeTableBatchCompressed(rec, ts, nil, 1, c)
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		if (c == CompressionNone) != bytes.Equal(b, plain) {
			t.Errorf("%s: same bytes as an uncompressed batch = %v", c, bytes.Equal(b, plain))
		}
		if err := VerifyBatch(b); err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		got, err := dec.Decode(b)
		if err != nil {
			t.Fatalf("%s: decode: %v", c, err)
		}
		if !array.RecordApproxEqual(rec, got.Record, array.WithNaNsEqual(true)) {
			t.Errorf("%s: decoded record differs", c)
		}
		got.Record.Release()
		r := dec.NewReader()
		bt, err := r.Decode(b)
		if err != nil {
			t.Fatalf("%s: BatchReader: %v", c, err)
		}
		if !array.RecordApproxEqual(rec, bt.Record, array.WithNaNsEqual(true)) {
			t.Errorf("%s: BatchReader's record differs", c)
		}
		bt.Record.Release()
		r.Release()
	}
	if c, _ := ParseCompression(""); c != CompressionZstd {
		t.Errorf("default codec %s, want ZSTD (Fluss 0.9.1's default)", c)
	}
	if _, err := ParseCompression("SNAPPY"); err == nil {
		t.Error("an unknown codec parsed")
	}
}
