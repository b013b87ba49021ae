package embedded

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/types"
)

// BenchmarkOneRowCommit is the store's side of W10's transaction at one
// client on bench's table (1,000 rows of id BIGINT PRIMARY KEY, bal BIGINT
// NOT NULL): a lookup of a key, then an atomic group (a COMMIT) upserting
// that key's row, synchronous_commit off and on; and a one-row append to a
// log table (an autocommit INSERT into it): the time, the process's CPU
// time and the allocations per commit, and the pebble flushes and
// compactions per thousand commits (a memtable of append records and state
// filling up).
func BenchmarkOneRowCommit(b *testing.B) {
	b.Run("update/nosyncwait", func(b *testing.B) { benchOneRowUpdate(b, fluss.WithoutSyncWait(ctx), false, 1000) })
	b.Run("update/sync", func(b *testing.B) { benchOneRowUpdate(b, ctx, false, 1000) })
	// The commit point in pebble's synced WAL write, as before commit.wal.
	b.Run("update/sync/pebblewal", func(b *testing.B) { benchOneRowUpdate(b, ctx, true, 1000) })
	// pgbench's W10 table: 100k rows, each commit updating one of them.
	b.Run("update100k/nosyncwait", func(b *testing.B) { benchOneRowUpdate(b, fluss.WithoutSyncWait(ctx), false, 100_000) })
	b.Run("append/nosyncwait", func(b *testing.B) { benchOneRowAppend(b, fluss.WithoutSyncWait(ctx)) })
}

// ledgerDesc is bench's W10 table.
func ledgerDesc(pk bool) fluss.TableDescriptor {
	notNull := types.Int64Type
	notNull.NotNull = true
	id := types.Int64Type
	if pk {
		id = notNull
	}
	d := fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{
		{Name: "id", Type: id}, {Name: "bal", Type: notNull},
	}}, BucketCount: 1}
	if pk {
		d.Schema.PrimaryKey = []string{"id"}
	}
	return d
}

// ledgerRows is n rows of ledgerDesc from id first, balance bal.
func ledgerRows(s *arrow.Schema, first int64, n int, bal int64) arrow.RecordBatch {
	rb := array.NewRecordBuilder(memory.DefaultAllocator, s)
	defer rb.Release()
	for i := int64(0); i < int64(n); i++ {
		rb.Field(0).(*array.Int64Builder).Append(first + i)
		rb.Field(1).(*array.Int64Builder).Append(bal)
	}
	return rb.NewRecordBatch()
}

// benchOneRowUpdate: pebbleWAL commits through pebble's synced WAL write
// instead of the commit log (commitlog.go); the table has rows rows, the
// commits update 256 keys spread over them.
func benchOneRowUpdate(b *testing.B, ctx context.Context, pebbleWAL bool, nrows int) {
	s := openStore(b, b.TempDir())
	defer s.Close()
	s.clog.broken = pebbleWAL
	tb := createTable(b, s, "ledger", ledgerDesc(true))
	sch := tb.Info().ArrowSchema()
	load := ledgerRows(sch, 1, nrows, 0)
	if _, err := tb.Upsert(ctx, load, fluss.UpsertOptions{}); err != nil {
		b.Fatal(err)
	}
	load.Release()
	const n = 256
	rows := make([]arrow.RecordBatch, n)
	keys := make([]arrow.RecordBatch, n)
	for i := range rows {
		rows[i] = ledgerRows(sch, 1+int64(i)*7919%int64(nrows), 1, int64(i))
		keys[i] = keyColumn(rows[i])
	}
	defer func() {
		for i := range rows {
			rows[i].Release()
			keys[i].Release()
		}
	}()
	info := tb.Info()
	w := []fluss.TableWrite{{Path: info.Path, TableID: info.TableID, Kind: fluss.WriteUpsert}}
	proj := []int{1}
	runOneRow(b, s, func(i int) error {
		row, key := rows[i%n], keys[i%n]
		if nrows > n {
			// Keys spread over the whole table, as pgbench's random ids:
			// a memtable's worth of commits rewrites many of its rows.
			row = ledgerRows(sch, 1+int64(uint64(i)*0x9E3779B97F4A7C15%uint64(nrows)), 1, int64(i))
			key = keyColumn(row)
			defer row.Release()
			defer key.Release()
		}
		got, err := tb.Lookup(ctx, key, proj)
		if err != nil {
			return err
		}
		got.Release()
		w[0].Rec = row
		_, err = s.WriteAtomically(ctx, w)
		return err
	})
}

func benchOneRowAppend(b *testing.B, ctx context.Context) {
	s := openStore(b, b.TempDir())
	defer s.Close()
	tb := createTable(b, s, "history", ledgerDesc(false))
	const n = 256
	rows := make([]arrow.RecordBatch, n)
	for i := range rows {
		rows[i] = ledgerRows(tb.Info().ArrowSchema(), int64(i), 1, int64(i))
	}
	defer func() {
		for _, r := range rows {
			r.Release()
		}
	}()
	runOneRow(b, s, func(i int) error {
		_, err := tb.Append(ctx, rows[i%n])
		return err
	})
}

// runOneRow times b.N calls of commit and reports the process's CPU time
// per call and pebble's flushes and compactions per thousand calls.
func runOneRow(b *testing.B, s *Store, commit func(i int) error) {
	m0 := s.db.Metrics()
	flushes, compactions := m0.Flush.Count, m0.Compact.Count
	before := processCPU()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := commit(i); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64((processCPU()-before).Microseconds())/float64(b.N), "cpu-us/op")
	m := s.db.Metrics()
	b.ReportMetric(float64(m.Flush.Count-flushes)*1000/float64(b.N), "flushes/1k")
	b.ReportMetric(float64(m.Compact.Count-compactions)*1000/float64(b.N), "compactions/1k")
	b.ReportMetric(float64(m.Levels[0].TableBytesFlushed-m0.Levels[0].TableBytesFlushed+m.Total().TableBytesCompacted-m0.Total().TableBytesCompacted)/float64(b.N), "sstB/op")
}

// TestOneRowChangelog: one-row writes to a table of fixed-width columns
// (the changelog of an update encoded from the stored rows, preparePKOne)
// leave Fluss's changelog and state: an insert, updates (the second and
// later ones written from the compacted rows once the encoder has the
// two-row prefix), an insert that ignores an existing key, deletes of a
// present and a missing key, through Upsert and Delete and through
// WriteAtomically; and one-row appends to a log table read back in order.
func TestOneRowChangelog(t *testing.T) {
	s := openStore(t, t.TempDir())
	defer s.Close()
	tb := createTable(t, s, "ledger", ledgerDesc(true))
	info := tb.Info()
	sch := info.ArrowSchema()
	keyOf := func(id int64) arrow.RecordBatch {
		r := ledgerRows(sch, id, 1, 0)
		defer r.Release()
		return keyColumn(r)
	}
	steps := []struct {
		name   string
		atomic bool
		w      fluss.TableWrite
	}{
		{name: "insert", w: fluss.TableWrite{Kind: fluss.WriteUpsert, Rec: ledgerRows(sch, 1, 1, 10)}},
		{name: "update", w: fluss.TableWrite{Kind: fluss.WriteUpsert, Rec: ledgerRows(sch, 1, 1, 20)}},
		{name: "update again", atomic: true, w: fluss.TableWrite{Kind: fluss.WriteUpsert, Rec: ledgerRows(sch, 1, 1, -30)}},
		{name: "insert of another key", atomic: true, w: fluss.TableWrite{Kind: fluss.WriteUpsert, Rec: ledgerRows(sch, 7, 1, 70)}},
		{name: "insert ignoring the existing key", w: fluss.TableWrite{Kind: fluss.WriteUpsert, Rec: ledgerRows(sch, 1, 1, 99), Opts: fluss.UpsertOptions{IgnoreExisting: true}}},
		{name: "update a third time", w: fluss.TableWrite{Kind: fluss.WriteUpsert, Rec: ledgerRows(sch, 1, 1, 1<<40)}},
		{name: "delete", atomic: true, w: fluss.TableWrite{Kind: fluss.WriteDelete, Rec: keyOf(1)}},
		{name: "delete of a missing key", w: fluss.TableWrite{Kind: fluss.WriteDelete, Rec: keyOf(2)}},
	}
	for _, st := range steps {
		w := st.w
		w.Path, w.TableID = info.Path, info.TableID
		var err error
		if st.atomic {
			_, err = s.WriteAtomically(ctx, []fluss.TableWrite{w})
		} else {
			_, err = w.Apply(ctx, tb)
		}
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		w.Rec.Release()
	}
	got := changelogLines(t, tb, 0, 3, 4)
	want := "insert 1 10|update_before 1 10|update_after 1 20|update_before 1 20|update_after 1 -30|insert 7 70|" +
		"update_before 1 -30|update_after 1 1099511627776|delete 1 1099511627776"
	if strings.Join(got, "|") != want {
		t.Errorf("changelog\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
	for _, c := range []struct {
		id   int64
		want string
	}{{1, ""}, {7, "70"}, {2, ""}} {
		k := keyOf(c.id)
		rec, err := tb.Lookup(ctx, k, []int{1})
		k.Release()
		if err != nil {
			t.Fatal(err)
		}
		v := ""
		if rec.NumRows() > 0 {
			v = rec.Column(0).ValueStr(0)
		}
		rec.Release()
		if v != c.want {
			t.Errorf("id %d: bal %q, want %q", c.id, v, c.want)
		}
	}

	logT := createTable(t, s, "history", ledgerDesc(false))
	for i := range int64(4) {
		rec := ledgerRows(logT.Info().ArrowSchema(), i, 1, -i*1000)
		if _, err := logT.Append(ctx, rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	sr, err := logT.Scan(ctx, fluss.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer sr.Close()
	got = got[:0]
	for {
		b, err := sr.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			break
		}
		for i := 0; i < int(b.NumRows()); i++ {
			got = append(got, b.Column(0).ValueStr(i)+" "+b.Column(1).ValueStr(i))
		}
		b.Release()
	}
	if want := "0 0|1 -1000|2 -2000|3 -3000"; strings.Join(got, "|") != want {
		t.Errorf("log table rows %q, want %q", strings.Join(got, "|"), want)
	}
}

// BenchmarkOneRowCommitParallel is W10's store side at 8 clients with
// synchronous_commit off: 8 writers, each a lookup and an atomic one-row
// upsert of a random key of a 100k-row table per commit, reporting the
// process's CPU per commit (committer hand-offs included).
func BenchmarkOneRowCommitParallel(b *testing.B) {
	const nrows = 100_000
	c := fluss.WithoutSyncWait(ctx)
	s := openStore(b, b.TempDir())
	defer s.Close()
	tb := createTable(b, s, "ledger", ledgerDesc(true))
	sch := tb.Info().ArrowSchema()
	load := ledgerRows(sch, 1, nrows, 0)
	if _, err := tb.Upsert(c, load, fluss.UpsertOptions{}); err != nil {
		b.Fatal(err)
	}
	load.Release()
	info := tb.Info()
	var seq atomic.Uint64
	before, groups := processCPU(), s.groups.Load()
	b.SetParallelism(4) // 8 writers on 2 cores
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		w := []fluss.TableWrite{{Path: info.Path, TableID: info.TableID, Kind: fluss.WriteUpsert}}
		for pb.Next() {
			i := seq.Add(1)
			row := ledgerRows(sch, 1+int64(i*0x9E3779B97F4A7C15%nrows), 1, int64(i))
			key := keyColumn(row)
			got, err := tb.Lookup(c, key, []int{1})
			if err != nil {
				b.Fatal(err)
			}
			got.Release()
			w[0].Rec = row
			if _, err := s.WriteAtomically(c, w); err != nil {
				b.Fatal(err)
			}
			row.Release()
			key.Release()
		}
	})
	b.StopTimer()
	b.ReportMetric(float64((processCPU()-before).Microseconds())/float64(b.N), "cpu-us/op")
	b.ReportMetric(float64(s.groups.Load()-groups)/float64(b.N), "groups/op")
}
