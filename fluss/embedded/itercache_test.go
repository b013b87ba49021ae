package embedded

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/sqlgate/sqlgate/fluss"
)

// A point lookup reads through a cached iterator; every write in between
// must be seen by the next lookup, whether it updates, deletes or
// re-inserts the key, and lookups of absent keys find nothing.
func TestPointLookupSeesEveryWrite(t *testing.T) {
	s := openStore(t, t.TempDir())
	defer s.Close()
	ctx := context.Background()
	tb := createTable(t, s, "c", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v"), PrimaryKey: []string{"k"}}, BucketCount: 2})
	lookup := func(k int32) (int32, bool) {
		t.Helper()
		keys := keyRows(k)
		defer keys.Release()
		rec, err := tb.Lookup(ctx, keys, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer rec.Release()
		if rec.NumRows() == 0 {
			return 0, false
		}
		return rec.Column(1).(*array.Int32).Value(0), true
	}
	write := func(del bool, pairs ...int32) {
		t.Helper()
		var err error
		if del {
			rec := keyRows(pairs...)
			_, err = tb.Delete(ctx, rec)
			rec.Release()
		} else {
			rec := kvRows(pairs...)
			_, err = tb.Upsert(ctx, rec, fluss.UpsertOptions{})
			rec.Release()
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, step := range []struct {
		del   bool
		write []int32 // pairs to upsert, or keys to delete
		k     int32
		v     int32
		found bool
	}{
		{false, []int32{1, 10}, 1, 10, true},
		{false, nil, 1, 10, true}, // a repeated lookup, no write between
		{false, nil, 2, 0, false},
		{false, []int32{1, 11, 2, 20}, 1, 11, true},
		{false, nil, 2, 20, true},
		{true, []int32{1}, 1, 0, false},
		{false, nil, 2, 20, true},
		{false, []int32{1, 12}, 1, 12, true},
	} {
		if step.write != nil {
			write(step.del, step.write...)
		}
		// Twice: the second lookup reuses the iterator the first put back.
		for range 2 {
			if v, ok := lookup(step.k); ok != step.found || v != step.v {
				t.Fatalf("after %v (del %v): lookup %d = %d, %v; want %d, %v", step.write, step.del, step.k, v, ok, step.v, step.found)
			}
		}
	}
	if err := s.DropTable(ctx, path("c"), false); err != nil {
		t.Fatal(err)
	}
	tb = createTable(t, s, "c", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v"), PrimaryKey: []string{"k"}}, BucketCount: 2})
	if _, ok := lookup(2); ok {
		t.Fatal("a re-created table shows a row of the dropped one")
	}
}

// The iterator cache keeps an idle iterator per key region (the sstables of
// the fullest level): lookups through it read every key right across the
// regions, after overwrites and deletes, and after compactions that change
// the regions under the idle iterators.
func TestIterCacheRegions(t *testing.T) {
	c, db := openIterCacheDB(t, 16<<10)
	const n = 4000
	key := func(i int) []byte { return fmt.Appendf(nil, "k%06d", i) }
	want := map[int]string{}
	write := func(from, to, step int, val string) {
		t.Helper()
		c.beginWrite()
		defer c.endWrite()
		b := db.NewBatch()
		for i := from; i < to; i += step {
			var err error
			if val == "" {
				err = b.Delete(key(i), nil)
				delete(want, i)
			} else {
				// Incompressible, so that the rows fill many sstables.
				r := rand.New(rand.NewPCG(uint64(i), uint64(len(val))))
				v := fmt.Sprintf("%s%d-%x%x%x%x", val, i, r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64())
				err = b.Set(key(i), []byte(v), nil)
				want[i] = v
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if err := b.Commit(pebble.Sync); err != nil {
			t.Fatal(err)
		}
	}
	compact := func() {
		t.Helper()
		if err := db.Compact(context.Background(), []byte("k"), []byte("l"), false); err != nil {
			t.Fatal(err)
		}
	}
	check := func(step string) {
		t.Helper()
		for i := 0; i < n+10; i += 7 {
			ci, err := c.get(key(i))
			if err != nil || ci == nil {
				t.Fatalf("%s: get: %v, %v", step, ci, err)
			}
			v, cl, err := ci.get(key(i))
			got, found := string(v), err == nil
			if found {
				cl.Close()
			} else if !errors.Is(err, pebble.ErrNotFound) {
				t.Fatalf("%s: key %d: %v", step, i, err)
			}
			c.put(ci)
			if w, ok := want[i]; ok != found || got != w {
				t.Fatalf("%s: key %d = %.12q, %v; want %.12q, %v", step, i, got, found, w, ok)
			}
		}
	}
	for _, s := range []struct {
		name              string
		from, to, step    int
		val               string
		compactAfterwards bool
	}{
		{"load", 0, n, 1, "a", true},
		{"overwrite", 0, n, 3, "b", false},
		{"delete", 1, n, 5, "", false},
		{"compacted", 0, 0, 1, "", true},
		{"re-insert", 1, n, 10, "c", true},
		{"held across a write", 0, n, 2, "d", false},
	} {
		var held *cachedIter
		if s.name == "held across a write" {
			// An iterator in use while a write runs shows the old state:
			// it must not be kept when put back.
			var err error
			if held, err = c.get(key(0)); err != nil {
				t.Fatal(err)
			}
		}
		write(s.from, s.to, s.step, s.val)
		if held != nil {
			c.put(held)
		}
		if s.compactAfterwards {
			compact()
		}
		check(s.name)
		check(s.name + ", again") // through the iterators put back
		c.mu.Lock()
		regions, idle := len(c.bounds)+1, 0
		for _, ci := range c.regions {
			if ci != nil {
				idle++
			}
		}
		c.mu.Unlock()
		if s.compactAfterwards && (regions < 4 || regions > maxRegions || idle != regions) {
			t.Errorf("%s: %d regions, %d with an idle iterator; want 4..%d, all", s.name, regions, idle, maxRegions)
		}
	}
}

// Lookups from several goroutines while writes and compactions run never
// read a state older than the last write committed before they started.
func TestIterCacheConcurrentWrites(t *testing.T) {
	c, db := openIterCacheDB(t, 8<<10)
	const keys, versions, readers = 500, 30, 3
	key := func(i int) []byte { return fmt.Appendf(nil, "k%06d", i) }
	var committed atomic.Int64
	write := func(v int) error {
		c.beginWrite()
		defer c.endWrite()
		b := db.NewBatch()
		for i := range keys {
			r := rand.New(rand.NewPCG(uint64(i), uint64(v)))
			if err := b.Set(key(i), fmt.Appendf(nil, "%08d-%x%x%x", v, r.Uint64(), r.Uint64(), r.Uint64()), nil); err != nil {
				return err
			}
		}
		return b.Commit(pebble.NoSync)
	}
	if err := write(0); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errs := make(chan error, readers+1)
	var wg sync.WaitGroup
	for g := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := g; ctx.Err() == nil; n += 7 {
				floor := committed.Load()
				k := key(n % keys)
				ci, err := c.get(k)
				if err != nil {
					errs <- err
					return
				}
				v, cl, err := ci.get(k)
				if err != nil {
					c.put(ci)
					errs <- fmt.Errorf("key %s: %v", k, err)
					return
				}
				got, perr := strconv.Atoi(string(v[:8]))
				cl.Close()
				c.put(ci)
				if perr != nil || int64(got) < floor {
					errs <- fmt.Errorf("key %s read version %d (%v) after version %d was committed", k, got, perr, floor)
					return
				}
			}
		}()
	}
	for v := 1; v <= versions; v++ {
		if err := write(v); err != nil {
			t.Fatal(err)
		}
		committed.Store(int64(v))
		if v%5 == 0 {
			if err := db.Compact(ctx, []byte("k"), []byte("l"), false); err != nil {
				t.Fatal(err)
			}
		}
	}
	cancel()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// openIterCacheDB opens an in-memory pebble with sstables of targetFileSize
// bytes and an iterator cache told of every flush and compaction, as the
// store wires them; both close when the test ends.
func openIterCacheDB(t *testing.T, targetFileSize int64) (*iterCache, *pebble.DB) {
	t.Helper()
	c := &iterCache{}
	opts := &pebble.Options{FS: vfs.NewMem(), TargetFileSizes: [7]int64{targetFileSize}, Logger: pebbleLogger{slog.New(slog.DiscardHandler)}}
	opts.AddEventListener(pebble.EventListener{
		CompactionEnd: func(pebble.CompactionInfo) { c.layoutChanged() },
		FlushEnd:      func(pebble.FlushInfo) { c.layoutChanged() },
	})
	db, err := pebble.Open("", opts)
	if err != nil {
		t.Fatal(err)
	}
	c.db = db
	c.refreshView() // view.go, as Open does
	t.Cleanup(func() {
		c.close()
		c.dropView()
		db.Close()
	})
	return c, db
}

// A point read makes no iterator for the first read after a write (or
// during one): it reads by Get; the next read before another write makes
// one, and the reads after it reuse it. The steps' second column is
// whether pointIter hands out an iterator.
func TestPointIterAfterWrites(t *testing.T) {
	c, db := openIterCacheDB(t, 1<<20)
	key := []byte("k1")
	if err := db.Set(key, []byte("v"), pebble.Sync); err != nil {
		t.Fatal(err)
	}
	c.refreshView() // a write outside beginWrite and endWrite
	write := func() {
		c.beginWrite()
		if err := db.Set(key, []byte("w"), pebble.Sync); err != nil {
			t.Fatal(err)
		}
		c.endWrite()
	}
	read := func() bool {
		t.Helper()
		ci, _, err := c.pointIter(key)
		if err != nil {
			t.Fatal(err)
		}
		if ci == nil {
			return false
		}
		if _, cl, err := ci.get(key); err != nil {
			t.Fatal(err)
		} else {
			cl.Close()
		}
		c.put(ci)
		return true
	}
	for i, step := range []struct {
		do   func()
		iter bool
	}{
		{nil, true}, // no write since the cache began: an iterator
		{nil, true}, // reused
		{write, false},
		{nil, true}, // no write since the last read without one
		{nil, true},
		{write, false},
		{write, false},
		{c.beginWrite, false}, // a write under way
		{c.endWrite, false},   // gen moved since the last read without one
		{nil, true},
	} {
		if step.do != nil {
			step.do()
		}
		if got := read(); got != step.iter {
			t.Fatalf("step %d: pointIter gave an iterator: %v, want %v", i, got, step.iter)
		}
	}
}
