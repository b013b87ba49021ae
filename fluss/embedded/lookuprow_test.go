package embedded

import (
	"context"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// LookupRow decodes the same row Lookup returns into the caller's builders,
// appends nothing for a missing key, skips columns whose builder is nil,
// and refuses builders that do not fit the table.
func TestLookupRow(t *testing.T) {
	ctx := context.Background()
	s, tb := hundredRowPKTable(t)
	schema := tb.Info().ArrowSchema()
	del := keyBatch(41)
	if _, err := tb.Delete(ctx, del); err != nil {
		t.Fatal(err)
	}
	del.Release()
	rl := tb.(fluss.RowLookuper)

	rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer rb.Release()
	all := rb.Fields()
	keys := keyBatch(7, 41, 99, 1000)
	defer keys.Release()
	for _, tc := range []struct {
		row   int
		found bool
	}{{0, true}, {1, false}, {2, true}, {3, false}} {
		ok, err := rl.LookupRow(ctx, keys, tc.row, all)
		if err != nil || ok != tc.found {
			t.Fatalf("key row %d: found %v, %v; want %v", tc.row, ok, err, tc.found)
		}
	}
	got := rb.NewRecordBatch()
	defer got.Release()
	// The rows of keys 7 and 99, as Lookup returns them.
	wk := keyBatch(7, 99)
	defer wk.Release()
	want, err := tb.Lookup(ctx, wk, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer want.Release()
	if !array.RecordEqual(got, want) {
		t.Fatalf("LookupRow built\n%v\nLookup returned\n%v", got, want)
	}

	// Only column s (5) and a (1).
	sb := array.NewStringBuilder(memory.DefaultAllocator)
	defer sb.Release()
	ab := array.NewInt64Builder(memory.DefaultAllocator)
	defer ab.Release()
	some := make([]array.Builder, 6)
	some[1], some[5] = ab, sb
	if ok, err := rl.LookupRow(ctx, keys, 2, some); !ok || err != nil {
		t.Fatalf("projected lookup: %v, %v", ok, err)
	}
	if ab.Len() != 1 || sb.Len() != 1 {
		t.Fatalf("projected lookup appended %d and %d values", ab.Len(), sb.Len())
	}
	a, str := ab.NewInt64Array(), sb.NewStringArray()
	defer a.Release()
	defer str.Release()
	if a.Value(0) != 99%1000 || str.Value(0) != "echo-foxtrot-golf" {
		t.Fatalf("projected lookup of 99: a=%d s=%q", a.Value(0), str.Value(0))
	}

	i32 := array.NewInt32Builder(memory.DefaultAllocator)
	defer i32.Release()
	log := createTable(t, s, "log", sixColDesc(false, 1))
	for _, tc := range []struct {
		name string
		tb   fluss.Table
		row  int
		dst  []array.Builder
		code sqlerr.Code
	}{
		{"too few builders", tb, 0, all[:5], sqlerr.InvalidParameterValue},
		{"wrong builder type", tb, 0, []array.Builder{i32, nil, nil, nil, nil, nil}, sqlerr.DatatypeMismatch},
		{"key row out of range", tb, 4, all, sqlerr.InvalidParameterValue},
		{"negative key row", tb, -1, all, sqlerr.InvalidParameterValue},
		{"log table", log, 0, all, sqlerr.FeatureNotSupported},
	} {
		_, err := tc.tb.(fluss.RowLookuper).LookupRow(ctx, keys, tc.row, tc.dst)
		var se *sqlerr.Error
		if !errors.As(err, &se) || se.Code != tc.code {
			t.Errorf("%s: error %v, want SQLSTATE %s", tc.name, err, tc.code)
		}
	}
	for _, b := range all {
		if b.Len() != 0 {
			t.Fatalf("a refused call appended to a builder")
		}
	}
}

// keyBatch is a record of bigint primary keys.
func keyBatch(ids ...int64) arrow.RecordBatch {
	kb := array.NewInt64Builder(memory.DefaultAllocator)
	defer kb.Release()
	kb.AppendValues(ids, nil)
	col := kb.NewArray()
	defer col.Release()
	return array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil), []arrow.Array{col}, int64(len(ids)))
}

// hundredRowPKTable is a six-column primary-key table of 4 buckets holding
// rows 0..99, and its store (closed when the test ends).
func hundredRowPKTable(t *testing.T) (*Store, fluss.Table) {
	t.Helper()
	s := openStore(t, t.TempDir())
	t.Cleanup(func() { s.Close() })
	tb := createTable(t, s, "pk", sixColDesc(true, 4))
	rec := sixColRecord(tb.Info().ArrowSchema(), 0, 100)
	defer rec.Release()
	if _, err := tb.Upsert(context.Background(), rec, fluss.UpsertOptions{}); err != nil {
		t.Fatal(err)
	}
	return s, tb
}
