package embedded

import (
	"context"
	"slices"
	"sort"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/fluss/internal/fixture"
	"github.com/sqlgate/sqlgate/types"
)

func openStore(t testing.TB, dir string) *Store {
	t.Helper()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatalf("Open(%s): %v", dir, err)
	}
	return s
}

// reopenClean closes s and opens its directory again, failing the test
// on a close error or on corruptions the Open found.
func reopenClean(t testing.TB, s *Store, dir string) *Store {
	t.Helper()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openStore(t, dir)
	if c := s.Corruptions(); len(c) > 0 {
		s.Close()
		t.Fatalf("corruptions after reopening: %v", c)
	}
	return s
}

func path(name string) fluss.TablePath {
	return fluss.TablePath{Database: fluss.DefaultDatabase, Table: name}
}

func allTypesDesc(pk bool, buckets int, bucketKey ...string) fluss.TableDescriptor {
	var d fluss.TableDescriptor
	for _, c := range fixture.AllTypes() {
		d.Schema.Columns = append(d.Schema.Columns, fluss.Column{Name: c.Name, Type: c.Type})
	}
	if pk {
		d.Schema.PrimaryKey = []string{"id"}
	}
	d.BucketCount = buckets
	d.BucketKey = bucketKey
	return d
}

func createTable(t testing.TB, s *Store, name string, d fluss.TableDescriptor) fluss.Table {
	t.Helper()
	ctx := context.Background()
	if _, err := s.CreateTable(ctx, path(name), d, false); err != nil {
		t.Fatalf("CreateTable %s: %v", name, err)
	}
	tb, err := s.Table(ctx, path(name))
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// scanAll reads a whole scan into one record (nil when empty).
func scanAll(t testing.TB, tb fluss.Table, opts fluss.ScanOptions) (arrow.RecordBatch, int) {
	t.Helper()
	r, err := tb.Scan(context.Background(), opts)
	if err != nil {
		t.Fatalf("Scan: %v", err)
	}
	defer r.Close()
	var recs []arrow.RecordBatch
	batches := 0
	for {
		rec, err := r.Next(context.Background())
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		if rec == nil {
			break
		}
		if opts.BatchRows > 0 && rec.NumRows() > int64(opts.BatchRows) {
			t.Fatalf("batch of %d rows, asked for %d", rec.NumRows(), opts.BatchRows)
		}
		batches++
		recs = append(recs, rec)
	}
	if len(recs) == 0 {
		return nil, 0
	}
	out, err := concatRecords(r.Schema(), recs)
	for _, rec := range recs {
		rec.Release()
	}
	if err != nil {
		t.Fatal(err)
	}
	return out, batches
}

// sortByInt32 returns rec's rows ordered by the INT column col.
func sortByInt32(t testing.TB, rec arrow.RecordBatch, col int) arrow.RecordBatch {
	t.Helper()
	ids := rec.Column(col).(*array.Int32)
	order := make([]int, rec.NumRows())
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return ids.Value(order[a]) < ids.Value(order[b]) })
	rb := array.NewRecordBuilder(memory.DefaultAllocator, rec.Schema())
	defer rb.Release()
	for _, i := range order {
		for c, fb := range rb.Fields() {
			if err := format.AppendFrom(fb, rec.Column(c), i); err != nil {
				t.Fatal(err)
			}
		}
	}
	return rb.NewRecordBatch()
}

func int32Values(rec arrow.RecordBatch, col int) []int32 {
	if rec == nil {
		return nil
	}
	return slices.Clone(rec.Column(col).(*array.Int32).Int32Values())
}

// intRecord builds a record of INT columns named names.
func intRecord(names []string, rows ...[]int32) arrow.RecordBatch {
	fs := make([]arrow.Field, len(names))
	for i, n := range names {
		fs[i] = arrow.Field{Name: n, Type: arrow.PrimitiveTypes.Int32, Nullable: true}
	}
	rb := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(fs, nil))
	defer rb.Release()
	for _, r := range rows {
		for c, v := range r {
			rb.Field(c).(*array.Int32Builder).Append(v)
		}
	}
	return rb.NewRecordBatch()
}

func intCols(names ...string) []fluss.Column {
	out := make([]fluss.Column, len(names))
	for i, n := range names {
		out[i] = fluss.Column{Name: n, Type: types.Int32Type}
	}
	return out
}

// changelog reads every record of a table's bucket logs: change type and the
// first column (an INT) of each record.
type logEntry struct {
	bucket int
	change format.ChangeType
	id     int32
	v      int32 // the second column, when it is an INT
	offset int64
}

func readChangelog(t testing.TB, s *Store, name string) []logEntry {
	t.Helper()
	s.catMu.Lock()
	ts := s.tables[path(name)]
	s.catMu.Unlock()
	var out []logEntry
	for b, bl := range ts.buckets {
		ts.mu.RLock()
		limit := bl.committed
		ts.mu.RUnlock()
		r, err := openLogReader(bl.path, limit)
		if err != nil {
			t.Fatal(err)
		}
		dec := ts.decoder.NewReader()
		var pos int64
		for pos < limit {
			batch, size, err := r.batch(dec, pos)
			if err != nil {
				t.Fatal(err)
			}
			ids := batch.Record.Column(0).(*array.Int32)
			var vs *array.Int32
			if batch.Record.NumCols() > 1 {
				vs, _ = batch.Record.Column(1).(*array.Int32)
			}
			for i := 0; i < int(batch.Record.NumRows()); i++ {
				ch := format.AppendOnly
				if batch.Changes != nil {
					ch = batch.Changes[i]
				}
				e := logEntry{bucket: b, change: ch, id: ids.Value(i), offset: batch.Header.BaseOffset + int64(i)}
				if vs != nil {
					e.v = vs.Value(i)
				}
				out = append(out, e)
			}
			batch.Record.Release()
			pos += size
		}
		dec.Release()
		r.close()
	}
	return out
}

// writeRows upserts rec into a primary-key table (pk) or appends it to a
// log table, and releases it.
func writeRows(t *testing.T, tb fluss.Table, pk bool, rec arrow.RecordBatch) {
	t.Helper()
	defer rec.Release()
	var err error
	if pk {
		_, err = tb.Upsert(context.Background(), rec, fluss.UpsertOptions{})
	} else {
		_, err = tb.Append(context.Background(), rec)
	}
	if err != nil {
		t.Fatal(err)
	}
}
