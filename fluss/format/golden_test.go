package format

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"os"
	"strings"
	"testing"
)

// golden loads testdata/golden/fluss-0.9.1.txt: byte vectors written by
// Apache Fluss 0.9.1-incubating's own encoders (testdata/golden/GenGolden.java
// says which encoder made each one and from which values; the tests repeat
// those values).
func golden(t testing.TB) map[string][]byte {
	t.Helper()
	f, err := os.Open("testdata/golden/fluss-0.9.1.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]byte{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, hx, ok := strings.Cut(line, " ")
		if !ok {
			t.Fatalf("bad golden line %q", line)
		}
		b, err := hex.DecodeString(hx)
		if err != nil {
			t.Fatalf("golden %s: %v", name, err)
		}
		out[name] = b
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func goldenVec(t testing.TB, g map[string][]byte, name string) []byte {
	t.Helper()
	b, ok := g[name]
	if !ok {
		t.Fatalf("no golden vector %s", name)
	}
	return b
}

// TestGoldenKvBatch decodes DefaultKvRecordBatches that Fluss's
// KvRecordBatchBuilder wrote and encodes the same records to the same bytes.
func TestGoldenKvBatch(t *testing.T) {
	g := golden(t)
	row := goldenVec(t, g, "row_scalars")
	cases := []struct {
		name     string
		schemaID int16
		writer   int64
		seq      int32
		recs     []KvRecord
	}{
		{"kv_batch_schema3", 3, NoWriterID, NoBatchSequence, []KvRecord{
			{Key: []byte{1, 2}, Row: row},
			{Key: []byte{3}},
			{Key: []byte{4, 5, 6}, Row: []byte{0x02, 0x05}}, // (INT 5, STRING NULL)
		}},
		{"kv_batch_writer77_seq5", 1, 77, 5, []KvRecord{{Key: []byte{9}}}},
	}
	for _, c := range cases {
		want := goldenVec(t, g, c.name)
		h, recs, err := ParseKvBatch(want)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if h.SchemaID != c.schemaID || h.WriterID != c.writer || h.BatchSequence != c.seq || int(h.RecordCount) != len(c.recs) {
			t.Errorf("%s: header %+v", c.name, h)
		}
		if len(recs) != len(c.recs) {
			t.Fatalf("%s: %d records, want %d", c.name, len(recs), len(c.recs))
		}
		for i, r := range recs {
			if !bytes.Equal(r.Key, c.recs[i].Key) || !bytes.Equal(r.Row, c.recs[i].Row) || (r.Row == nil) != (c.recs[i].Row == nil) {
				t.Errorf("%s record %d: key %x row %x, want key %x row %x", c.name, i, r.Key, r.Row, c.recs[i].Key, c.recs[i].Row)
			}
		}
		e := NewKvBatchEncoder([]byte("prefix"), c.schemaID, c.writer, c.seq)
		for _, r := range c.recs {
			e.Append(r.Key, r.Row)
		}
		got := e.Finish()
		if !bytes.HasPrefix(got, []byte("prefix")) || !bytes.Equal(got[6:], want) {
			t.Errorf("%s: encoded\n%x\nwant\n%x", c.name, got[6:], want)
		}
		if e.Len() != len(want) {
			t.Errorf("%s: Len %d, want %d", c.name, e.Len(), len(want))
		}
		// Every damaged or truncated form is an error, not a panic.
		for cut := 0; cut < len(want); cut++ {
			if _, _, err := ParseKvBatch(want[:cut]); err == nil {
				t.Errorf("%s: %d of %d bytes parsed", c.name, cut, len(want))
			}
		}
		for i := range want {
			bad := bytes.Clone(want)
			bad[i] ^= 0x40
			if _, _, err := ParseKvBatch(bad); err == nil {
				t.Errorf("%s: a flipped byte %d parsed", c.name, i)
			}
		}
	}
}

// TestGoldenValues checks ValueEncoder's value and DefaultValueRecordBatch
// against Fluss's bytes.
func TestGoldenValues(t *testing.T) {
	g := golden(t)
	row := goldenVec(t, g, "row_scalars")
	want := goldenVec(t, g, "value_scalars_schema7")
	if got := append(AppendValueHeader(nil, 7), row...); !bytes.Equal(got, want) {
		t.Errorf("value = %x, want %x", got, want)
	}
	id, r, err := SplitValue(want)
	if err != nil || id != 7 || !bytes.Equal(r, row) {
		t.Errorf("SplitValue = %d %x %v", id, r, err)
	}
	if _, _, err := SplitValue(want[:1]); err == nil {
		t.Error("SplitValue of one byte succeeded")
	}

	recs := []ValueRecord{{SchemaID: 2, Row: row}, {SchemaID: 3, Row: []byte{0x02, 0x05}}}
	wantBatch := goldenVec(t, g, "value_batch")
	if got := AppendValueBatch(nil, recs); !bytes.Equal(got, wantBatch) {
		t.Errorf("value batch\n%x\nwant\n%x", got, wantBatch)
	}
	back, err := ParseValueBatch(wantBatch)
	if err != nil || len(back) != 2 {
		t.Fatalf("ParseValueBatch: %v %v", back, err)
	}
	for i := range recs {
		if back[i].SchemaID != recs[i].SchemaID || !bytes.Equal(back[i].Row, recs[i].Row) {
			t.Errorf("value record %d = %+v", i, back[i])
		}
	}
	for cut := 0; cut < len(wantBatch); cut++ {
		if _, err := ParseValueBatch(wantBatch[:cut]); err == nil {
			t.Errorf("%d of %d bytes parsed", cut, len(wantBatch))
		}
	}
	if got := AppendValueBatch(nil, nil); len(got) != ValueBatchHeaderSize {
		t.Errorf("empty value batch = %x", got)
	} else if recs, err := ParseValueBatch(got); err != nil || len(recs) != 0 {
		t.Errorf("empty value batch parsed to %v %v", recs, err)
	}
}
