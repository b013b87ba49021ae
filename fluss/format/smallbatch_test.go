package format

import (
	"bytes"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// TestSmallBatchEncoder: the batches SmallBatchEncoder writes itself (from
// the second of a row count on) decode to the rows, with their change
// types, as EncodeTableBatch's do, and are its bytes but for the buffers'
// padding; batches it leaves to the writer (nulls, variable or converted
// widths, more rows) are EncodeTableBatch's.
func TestSmallBatchEncoder(t *testing.T) {
	notNull := func(t types.T) types.T { t.NotNull = true; return t }
	cases := []struct {
		name string
		ts   []types.T
		rows string // JSON rows, 3 of them: the batches are cut from them
		// own: batches without nulls are written without the IPC
		// writer; prefix2: so are those of two rows.
		own, prefix2 bool
	}{
		{"bigint pair", []types.T{notNull(types.Int64Type), notNull(types.Int64Type)}, `[{"c0":1,"c1":-5},{"c0":2,"c1":7},{"c0":3,"c1":9}]`, true, true},
		{"narrow and wide", []types.T{types.Int16Type, types.Int32Type, types.Float64Type, types.DateType}, `[{"c0":1,"c1":2,"c2":0.5,"c3":19000},{"c0":-1,"c1":-2,"c2":-1.5,"c3":1},{"c0":7,"c1":8,"c2":9.25,"c3":2}]`, true, true},
		{"decimal", []types.T{types.Int32Type, types.DecimalType(10, 2)}, `[{"c0":1,"c1":"1.25"},{"c0":2,"c1":"-3.50"},{"c0":3,"c1":"0.01"}]`, true, true},
		{"a null", []types.T{types.Int32Type, types.Int64Type}, `[{"c0":1,"c1":null},{"c0":2,"c1":3},{"c0":3,"c1":null}]`, true, false},
		{"text", []types.T{types.Int32Type, types.StringType}, `[{"c0":1,"c1":"a"},{"c0":2,"c1":"bb"},{"c0":3,"c1":""}]`, false, false},
		{"bool", []types.T{types.Int32Type, types.BoolType}, `[{"c0":1,"c1":true},{"c0":2,"c1":false},{"c0":3,"c1":true}]`, false, false},
		{"timestamp in milliseconds", []types.T{types.Int32Type, types.TimestampType(3)}, `[{"c0":1,"c1":"2020-01-01T00:00:00"},{"c0":2,"c1":"2021-01-01T00:00:00"},{"c0":3,"c1":"2022-01-01T00:00:00"}]`, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			schema := schemaOf(tc.ts)
			all, _, err := array.RecordFromJSON(memory.DefaultAllocator, schema, strings.NewReader(tc.rows))
			if err != nil {
				t.Fatal(err)
			}
			defer all.Release()
			dec := NewTableBatchDecoder(schema, tc.ts)
			var enc SmallBatchEncoder
			changes := []ChangeType{UpdateBefore, UpdateAfter, Delete}
			// Rows [lo, hi) twice each: the first of a row count takes the
			// prefix, the second writes it; a slice has an offset.
			for _, cut := range [][2]int64{{0, 2}, {0, 2}, {1, 3}, {1, 2}, {2, 3}, {0, 3}, {0, 3}} {
				rec := all.NewSlice(cut[0], cut[1])
				n := int(rec.NumRows())
				ch := changes[:n]
				want, err := EncodeTableBatch(rec, tc.ts, ch, 3)
				if err != nil {
					t.Fatal(err)
				}
				enc.mu.Lock()
				own := enc.prefixes[n-1] != nil
				enc.mu.Unlock()
				got, err := enc.Encode(rec, tc.ts, ch, 3)
				if err != nil {
					t.Fatal(err)
				}
				nulls := false
				for _, c := range rec.Columns() {
					nulls = nulls || c.NullN() > 0
				}
				if own && !tc.own {
					t.Fatalf("rows %v: a prefix taken", cut)
				}
				if (!own || nulls) && !bytes.Equal(got, want) {
					t.Fatalf("rows %v: the writer's batch differs from EncodeTableBatch's", cut)
				}
				if len(got) != len(want) {
					t.Fatalf("rows %v: %d bytes, want %d", cut, len(got), len(want))
				}
				b, err := dec.Decode(got)
				if err != nil {
					t.Fatalf("rows %v: %v", cut, err)
				}
				if !array.RecordEqual(b.Record, rec) {
					t.Errorf("rows %v: decoded %v, want %v", cut, b.Record, rec)
				}
				if len(b.Changes) != n || !slicesEqualChanges(b.Changes, ch) {
					t.Errorf("rows %v: changes %v, want %v", cut, b.Changes, ch)
				}
				if b.Header.SchemaID != 3 || b.Header.RecordCount != int32(n) {
					t.Errorf("rows %v: header %+v", cut, b.Header)
				}
				b.Record.Release()
				rec.Release()
			}
			enc.mu.Lock()
			taken := enc.prefixes[1] != nil
			enc.mu.Unlock()
			if taken != tc.prefix2 {
				t.Errorf("prefix taken %v, want %v", taken, tc.prefix2)
			}
		})
	}
}

func slicesEqualChanges(a, b []ChangeType) bool {
	return bytes.Equal(changeBytes(a), changeBytes(b))
}

func changeBytes(cs []ChangeType) []byte {
	out := make([]byte, len(cs))
	for i, c := range cs {
		out[i] = byte(c)
	}
	return out
}

// TestSmallBatchEncodeRows: EncodeRows of compacted rows writes Encode's
// bytes for the same rows as an Arrow record, once Encode took the prefix
// of that many rows, and declines (ok false) before that, for a null, and
// for columns it does not decode.
func TestSmallBatchEncodeRows(t *testing.T) {
	notNull := func(t types.T) types.T { t.NotNull = true; return t }
	cases := []struct {
		name string
		ts   []types.T
		rows string // JSON rows, 3 of them
		// own: EncodeRows writes the batches without nulls.
		own bool
	}{
		{"bigint pair", []types.T{notNull(types.Int64Type), notNull(types.Int64Type)}, `[{"c0":1,"c1":-5},{"c0":9223372036854775807,"c1":-9223372036854775808},{"c0":300,"c1":0}]`, true},
		{"every width", []types.T{{Kind: types.Int8}, types.Int16Type, types.Int32Type, types.Int64Type, types.Float32Type, types.Float64Type, types.DateType},
			`[{"c0":-128,"c1":-32768,"c2":-2147483648,"c3":-1,"c4":1.5,"c5":-0.25,"c6":-719162},{"c0":127,"c1":32767,"c2":2147483647,"c3":1234567890123,"c4":-3.75,"c5":1e300,"c6":19000},{"c0":0,"c1":1,"c2":-7,"c3":0,"c4":0,"c5":0,"c6":0}]`, true},
		{"a null", []types.T{types.Int32Type, types.Int64Type}, `[{"c0":1,"c1":null},{"c0":2,"c1":3},{"c0":3,"c1":null}]`, true},
		{"decimal", []types.T{types.Int32Type, types.DecimalType(10, 2)}, `[{"c0":1,"c1":"1.25"},{"c0":2,"c1":"-3.50"},{"c0":3,"c1":"0.01"}]`, false},
		{"text", []types.T{types.Int32Type, types.StringType}, `[{"c0":1,"c1":"a"},{"c0":2,"c1":"bb"},{"c0":3,"c1":""}]`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			all, _, err := array.RecordFromJSON(memory.DefaultAllocator, schemaOf(tc.ts), strings.NewReader(tc.rows))
			if err != nil {
				t.Fatal(err)
			}
			defer all.Release()
			rows := make([][]byte, all.NumRows())
			for i := range rows {
				if rows[i], err = AppendRow(nil, tc.ts, all.Columns(), i); err != nil {
					t.Fatal(err)
				}
			}
			var enc SmallBatchEncoder
			changes := []ChangeType{UpdateBefore, UpdateAfter, Delete}
			wrote := 0
			for _, cut := range [][2]int64{{0, 2}, {0, 2}, {1, 3}, {0, 1}, {2, 3}, {1, 2}, {1, 2}, {0, 3}, {0, 3}} {
				rec := all.NewSlice(cut[0], cut[1])
				n := int(rec.NumRows())
				ch := changes[:n]
				enc.mu.Lock()
				taken := enc.prefixes[n-1] != nil
				enc.mu.Unlock()
				got, ok := enc.EncodeRows(rows[cut[0]:cut[1]], tc.ts, ch, 3)
				nulls := false
				for _, c := range rec.Columns() {
					nulls = nulls || c.NullN() > 0
				}
				if want := taken && tc.own && !nulls; ok != want {
					t.Fatalf("rows %v: ok %v, want %v", cut, ok, want)
				}
				want, err := enc.Encode(rec, tc.ts, ch, 3)
				if err != nil {
					t.Fatal(err)
				}
				if ok {
					wrote++
					if !bytes.Equal(got, want) {
						t.Fatalf("rows %v: EncodeRows wrote\n%x\nwant Encode's\n%x", cut, got, want)
					}
				}
				rec.Release()
			}
			if tc.own != (wrote > 0) {
				t.Errorf("EncodeRows wrote %d batches", wrote)
			}
		})
	}
}

// TestSmallBatchAppendOnly: append-only batches (no change types: a log
// table's rows) are written by SmallBatchEncoder too, with the prefix of a
// changelog batch of as many rows and the other way round, and decode to
// their rows with no change-type vector.
func TestSmallBatchAppendOnly(t *testing.T) {
	ts := []types.T{types.Int64Type, types.Int32Type}
	schema := schemaOf(ts)
	all, _, err := array.RecordFromJSON(memory.DefaultAllocator, schema, strings.NewReader(`[{"c0":1,"c1":2},{"c0":-3,"c1":4}]`))
	if err != nil {
		t.Fatal(err)
	}
	defer all.Release()
	dec := NewTableBatchDecoder(schema, ts)
	var enc SmallBatchEncoder
	for i, changes := range [][]ChangeType{nil, nil, {UpdateBefore, UpdateAfter}, nil} {
		want, err := EncodeTableBatch(all, ts, changes, 2)
		if err != nil {
			t.Fatal(err)
		}
		got, err := enc.Encode(all, ts, changes, 2)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("batch %d: %d bytes, want %d", i, len(got), len(want))
		}
		b, err := dec.Decode(got)
		if err != nil {
			t.Fatalf("batch %d: %v", i, err)
		}
		if !array.RecordEqual(b.Record, all) {
			t.Errorf("batch %d: decoded %v, want %v", i, b.Record, all)
		}
		if b.Header.AppendOnly() != (changes == nil) || len(b.Changes) != len(changes) {
			t.Errorf("batch %d: append-only %v with %d change types, want %d", i, b.Header.AppendOnly(), len(b.Changes), len(changes))
		}
		b.Record.Release()
	}
	enc.mu.Lock()
	taken := enc.prefixes[1] != nil
	enc.mu.Unlock()
	if !taken {
		t.Error("no prefix taken for an append-only batch")
	}
}

// BenchmarkEncodeRows: an UPDATE by key's changelog (before and after
// images of a two-bigint row) encoded from its compacted rows, the one-row
// commit's log batch.
func BenchmarkEncodeRows(b *testing.B) {
	ts := []types.T{types.Int64Type, types.Int64Type}
	all, _, err := array.RecordFromJSON(memory.DefaultAllocator, schemaOf(ts), strings.NewReader(`[{"c0":17,"c1":-5},{"c0":17,"c1":300}]`))
	if err != nil {
		b.Fatal(err)
	}
	defer all.Release()
	rows := make([][]byte, all.NumRows())
	for i := range rows {
		if rows[i], err = AppendRow(nil, ts, all.Columns(), i); err != nil {
			b.Fatal(err)
		}
	}
	var enc SmallBatchEncoder
	changes := []ChangeType{UpdateBefore, UpdateAfter}
	if _, err := enc.Encode(all, ts, changes, 3); err != nil {
		b.Fatal(err)
	}
	if _, ok := enc.EncodeRows(rows, ts, changes, 3); !ok {
		b.Fatal("EncodeRows declined")
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := enc.EncodeRows(rows, ts, changes, 3); !ok {
			b.Fatal("EncodeRows declined")
		}
	}
}
