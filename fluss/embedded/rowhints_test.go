package embedded

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
)

// TestRowHints: a commit takes the stored row of a key it writes from the
// row cache (rowhints.go), where the point lookup that read it or the
// commit that wrote it left it, only when no write since may have changed
// it; the changelog's before image is the stored row either way, and a
// lookup returns the latest row.
func TestRowHints(t *testing.T) {
	type step struct {
		op    string // lookup, upsert, delete
		id, v int32
	}
	cases := []struct {
		name  string
		steps []step
		// wantUsed counts the writes that took the row from the cache:
		// every write of a key the table holds (the rows 1..4 were
		// written, so their commits left them in the cache).
		wantUsed int64
		// wantLog is the changelog after the rows 1..4 were inserted.
		wantLog string
	}{
		{"lookup then update", []step{{"lookup", 1, 0}, {"upsert", 1, 50}}, 1, "-U1:10 +U1:50"},
		{"another key written between", []step{{"lookup", 1, 0}, {"upsert", 2, 60}, {"upsert", 1, 50}}, 2, "-U2:20 +U2:60 -U1:10 +U1:50"},
		{"the key written between", []step{{"lookup", 1, 0}, {"upsert", 1, 70}, {"upsert", 1, 50}}, 2, "-U1:10 +U1:70 -U1:70 +U1:50"},
		{"the key deleted between", []step{{"lookup", 1, 0}, {"delete", 1, 0}, {"upsert", 1, 50}}, 1, "-D1:10 +I1:50"},
		{"deleted after the lookup", []step{{"lookup", 1, 0}, {"delete", 1, 0}}, 1, "-D1:10"},
		{"looked up again after a write", []step{{"lookup", 1, 0}, {"upsert", 1, 70}, {"lookup", 1, 0}, {"upsert", 1, 50}}, 2, "-U1:10 +U1:70 -U1:70 +U1:50"},
		{"no lookup", []step{{"upsert", 1, 50}}, 1, "-U1:10 +U1:50"},
		{"deleted then looked up", []step{{"delete", 1, 0}, {"lookup", 1, 0}, {"upsert", 1, 50}}, 1, "-D1:10 +I1:50"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			model := map[int32]int32{1: 10, 2: 20, 3: 30, 4: 40}
			s := openStore(t, t.TempDir())
			defer s.Close()
			tb := createTable(t, s, "h", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("id", "v"), PrimaryKey: []string{"id"}}})
			for id := int32(1); id <= 4; id++ {
				rec := intRecord([]string{"id", "v"}, []int32{id, id * 10})
				if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
					t.Fatal(err)
				}
				rec.Release()
			}
			before := len(readChangelog(t, s, "h"))
			for _, st := range tc.steps {
				var err error
				switch st.op {
				case "lookup":
					keys := intRecord([]string{"id"}, []int32{st.id})
					var got interface{ Release() }
					got, err = tb.Lookup(ctx, keys, nil)
					if err == nil {
						rec := got.(arrow.RecordBatch)
						v, ok := model[st.id]
						if ok != (rec.NumRows() == 1) || (ok && rec.Column(1).(*array.Int32).Value(0) != v) {
							t.Errorf("lookup of %d: %d rows, want %v (%d)", st.id, rec.NumRows(), ok, v)
						}
						got.Release()
					}
					keys.Release()
				case "upsert":
					rec := intRecord([]string{"id", "v"}, []int32{st.id, st.v})
					_, err = tb.Upsert(ctx, rec, fluss.UpsertOptions{})
					rec.Release()
					model[st.id] = st.v
				case "delete":
					keys := intRecord([]string{"id"}, []int32{st.id})
					_, err = tb.Delete(ctx, keys)
					keys.Release()
					delete(model, st.id)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			log := ""
			for _, e := range readChangelog(t, s, "h")[before:] {
				if log != "" {
					log += " "
				}
				log += fmt.Sprintf("%s%d:%d", map[format.ChangeType]string{format.Insert: "+I", format.UpdateBefore: "-U", format.UpdateAfter: "+U", format.Delete: "-D"}[e.change], e.id, e.v)
			}
			if log != tc.wantLog {
				t.Errorf("changelog %q, want %q", log, tc.wantLog)
			}
			if used := s.hints.used.Load(); used != tc.wantUsed {
				t.Errorf("%d rows from hints, want %d", used, tc.wantUsed)
			}
		})
	}
}

// TestRowHintFloor: a state write of unmarked keys, or a group's batch
// after another write ran since its prepare started, voids every row the
// cache holds from before it ends; a group's batch with nothing between
// keeps the rows of keys it did not mark, and its own once published; a
// read's row fills the cache only when no write started since it read.
func TestRowHintFloor(t *testing.T) {
	k := []byte("k")
	cases := []struct {
		name string
		// read says whether the read happens during a write.
		during bool
		write  func(c *iterCache, h *rowHints)
		want   string // the row the cache answers, "" for none
	}{
		{"no write", false, func(*iterCache, *rowHints) {}, "row"},
		{"unmarked write", false, func(c *iterCache, _ *rowHints) { c.beginWrite(); c.endWrite() }, ""},
		{"group batch", false, func(c *iterCache, h *rowHints) {
			base, _ := c.writeSeq()
			h.begin()
			c.beginWriteAfter(base)
			c.endWrite()
			h.publish()
		}, "row"},
		{"group batch of the key", false, func(c *iterCache, h *rowHints) {
			base, _ := c.writeSeq()
			h.begin()
			h.markWritten([]kvEntry{{key: k, value: []byte("new")}}, base+2)
			c.beginWriteAfter(base)
			c.endWrite()
			h.publish()
		}, "new"},
		{"group batch of the key, not published", false, func(c *iterCache, h *rowHints) {
			base, _ := c.writeSeq()
			h.begin()
			h.markWritten([]kvEntry{{key: k, value: []byte("new")}}, base+2)
			c.beginWriteAfter(base)
			c.endWrite()
		}, ""},
		{"group batch deleting the key", false, func(c *iterCache, h *rowHints) {
			base, _ := c.writeSeq()
			h.begin()
			h.markWritten([]kvEntry{{key: k, del: true}}, base+2)
			c.beginWriteAfter(base)
			c.endWrite()
			h.publish()
		}, ""},
		{"group batch after another write", false, func(c *iterCache, h *rowHints) {
			base, _ := c.writeSeq()
			h.begin()
			h.markWritten([]kvEntry{{key: []byte("other"), value: []byte("new")}}, base+2)
			c.beginWrite()
			c.endWrite()
			c.beginWriteAfter(base)
			c.endWrite()
			h.publish()
		}, ""},
		{"invalidate", false, func(c *iterCache, _ *rowHints) { c.invalidate() }, "row"},
		{"during a write", true, nil, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var c iterCache
			c.closed = true // no pebble: takeSeq only reads wseq
			var h rowHints
			if tc.during {
				c.beginWrite()
			}
			_, seq, _ := c.takeSeq(k, true)
			h.record(k, []byte("row"), seq, c.currentSeq)
			if tc.during {
				c.endWrite()
			} else {
				tc.write(&c, &h)
			}
			_, floor := c.writeSeq()
			row, ok := h.stored(k, floor, nil)
			if string(row) != tc.want || ok != (tc.want != "") {
				t.Errorf("cache answers %q (%v), want %q", row, ok, tc.want)
			}
		})
	}
}

// TestRowHintFill: a point read's row does not fill the cache when a state
// write started after the read took its wseq, or while a group's keys are
// out of the cache.
func TestRowHintFill(t *testing.T) {
	k := []byte("k")
	cases := []struct {
		name string
		// between runs after the read took its wseq, before it fills.
		between func(c *iterCache, h *rowHints)
		ok      bool
	}{
		{"nothing", func(*iterCache, *rowHints) {}, true},
		{"a write started", func(c *iterCache, _ *rowHints) { c.beginWrite() }, false},
		{"a write ended", func(c *iterCache, _ *rowHints) { c.beginWrite(); c.endWrite() }, false},
		{"a group's keys are out", func(c *iterCache, h *rowHints) {
			base, _ := c.writeSeq()
			h.begin()
			h.markWritten([]kvEntry{{key: []byte("other"), value: []byte("new")}}, base+2)
		}, false},
		{"a group published", func(c *iterCache, h *rowHints) {
			h.begin()
			h.markWritten([]kvEntry{{key: []byte("other"), value: []byte("new")}}, 2)
			h.publish()
		}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var c iterCache
			c.closed = true
			var h rowHints
			_, seq, _ := c.takeSeq(k, true)
			tc.between(&c, &h)
			h.record(k, []byte("row"), seq, c.currentSeq)
			_, ok := h.get(k, 0, nil)
			if ok != tc.ok {
				t.Errorf("filled %v, want %v", ok, tc.ok)
			}
		})
	}
}

// TestRowCacheConcurrent: point lookups served by the row cache never
// return a row older than the last commit acknowledged before they started,
// nor one never written, under concurrent writers (single rows, batches of
// many keys that void the cache, deletes) and a cache small enough to evict
// (CacheBytes 1 MiB: 64 KiB of slots).
func TestRowCacheConcurrent(t *testing.T) {
	ctx := context.Background()
	s, err := Open(t.TempDir(), Options{CacheBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tb := createTable(t, s, "c", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("id", "v"), PrimaryKey: []string{"id"}}})
	const keys, writers, readers = 2000, 3, 3
	rounds := 300
	if testing.Short() {
		rounds = 60
	}
	// Each id has one writer, which writes its round as the value:
	// started[id] is the last write begun of id and acked[id] the last
	// one acknowledged, as the round (an upsert) or minus the round (a
	// delete); 0 = never written.
	var started, acked [keys]atomic.Int32
	var wg sync.WaitGroup
	errs := make(chan error, writers+readers)
	done := make(chan struct{})
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 1))
			for r := 1; r <= rounds; r++ {
				var rows [][]int32
				switch {
				case r%50 == 0: // many keys: more than half the slots
					for id := int32(w); id < keys; id += writers {
						rows = append(rows, []int32{id, int32(r)})
					}
				default:
					for range 1 + rng.IntN(3) {
						id := int32(rng.IntN(keys/writers)*writers + w)
						rows = append(rows, []int32{id, int32(r)})
					}
				}
				if r%7 == 0 {
					id := rows[0][0]
					started[id].Store(int32(-r))
					keys := intRecord([]string{"id"}, []int32{id})
					_, err := tb.Delete(ctx, keys)
					keys.Release()
					if err != nil {
						errs <- err
						return
					}
					acked[id].Store(int32(-r))
					continue
				}
				for _, row := range rows {
					started[row[0]].Store(row[1])
				}
				rec := intRecord([]string{"id", "v"}, rows...)
				_, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{})
				rec.Release()
				if err != nil {
					errs <- err
					return
				}
				for _, row := range rows {
					acked[row[0]].Store(row[1])
				}
			}
		}()
	}
	var rwg sync.WaitGroup
	for rd := 0; rd < readers; rd++ {
		rwg.Add(1)
		go func() {
			defer rwg.Done()
			rng := rand.New(rand.NewPCG(uint64(rd), 2))
			for {
				select {
				case <-done:
					return
				default:
				}
				id := int32(rng.IntN(keys))
				before := acked[id].Load()
				k := intRecord([]string{"id"}, []int32{id})
				got, err := tb.Lookup(ctx, k, nil)
				k.Release()
				if err != nil {
					errs <- err
					return
				}
				v, n := int32(0), got.NumRows()
				if n == 1 {
					v = got.Column(1).(*array.Int32).Value(0)
				}
				got.Release()
				// With no write of id begun since the lookup started, it
				// must read exactly the last one acknowledged; else no
				// older one.
				exact := started[id].Load() == before
				switch {
				case exact && before > 0 && (n != 1 || v != before):
					errs <- fmt.Errorf("key %d read %d (%d rows), committed %d before the lookup", id, v, n, before)
					return
				case exact && before < 0 && n != 0:
					errs <- fmt.Errorf("key %d read %d, deleted before the lookup", id, v)
					return
				case n == 1 && v < before:
					errs <- fmt.Errorf("key %d read %d, committed %d before the lookup", id, v, before)
					return
				case n == 1 && before < 0 && v < -before:
					errs <- fmt.Errorf("key %d read %d, deleted in round %d before the lookup", id, v, -before)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(done)
	rwg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if s.hints.hits.Load() == 0 {
		t.Error("no lookup was answered from the row cache")
	}
}

// BenchmarkUpdateByKey is W10's storage side at one client: a lookup of a
// key of a 100k-row table (uniform), then a synced write of its row, with
// the row cache and without it (every lookup after a commit a pebble Get):
// the time and the process's CPU time per lookup and write.
func BenchmarkUpdateByKey(b *testing.B) {
	for _, cache := range []bool{true, false} {
		b.Run(fmt.Sprintf("cache=%v", cache), func(b *testing.B) {
			s := openStore(b, b.TempDir())
			defer s.Close()
			if !cache {
				s.hints.bytes = -1
			}
			tb := createTable(b, s, "u", benchDesc(true))
			load := benchRecord(tb.Info().ArrowSchema(), 0, 100_000)
			if _, err := tb.Upsert(ctx, load, fluss.UpsertOptions{}); err != nil {
				b.Fatal(err)
			}
			load.Release()
			const n = 256
			rows := make([]arrow.RecordBatch, n)
			keys := make([]arrow.RecordBatch, n)
			for i := range rows {
				id := int64(i) * 7919 % 100_000
				rows[i] = benchRecord(tb.Info().ArrowSchema(), id, 1)
				keys[i] = rows[i].NewSlice(0, 1)
			}
			defer func() {
				for i := range rows {
					rows[i].Release()
					keys[i].Release()
				}
			}()
			proj := []int{0}
			hits := s.hints.hits.Load()
			before := processCPU()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				got, err := tb.Lookup(ctx, keyColumn(keys[i%n]), proj)
				if err != nil {
					b.Fatal(err)
				}
				got.Release()
				if _, err := tb.Upsert(ctx, rows[i%n], fluss.UpsertOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64((processCPU()-before).Microseconds())/float64(b.N), "cpu-us/op")
			b.ReportMetric(float64(s.hints.hits.Load()-hits)/float64(b.N), "cached/op")
		})
	}
}

// keyColumn is the first column of rec as a record of its own.
func keyColumn(rec arrow.RecordBatch) arrow.RecordBatch {
	return array.NewRecordBatch(arrow.NewSchema([]arrow.Field{rec.Schema().Field(0)}, nil), []arrow.Array{rec.Column(0)}, rec.NumRows())
}
