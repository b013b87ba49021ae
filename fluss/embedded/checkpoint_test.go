package embedded

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/sqlgate/sqlgate/fluss"
)

// bucketGate blocks the first bucket-log fsync once armed, until released.
type bucketGate struct {
	countingSyncer
	armed   atomic.Bool
	blocked chan struct{}
	release chan struct{}
}

func (g *bucketGate) Sync(name string, kind SyncKind, sync func() error) error {
	if kind == SyncFull && strings.HasPrefix(filepath.Base(name), "bucket-") && g.armed.CompareAndSwap(true, false) {
		close(g.blocked)
		<-g.release
	}
	return g.countingSyncer.Sync(name, kind, sync)
}

// appendRecordKeys returns the sequence numbers of the append records in
// pebble's live state.
func appendRecordKeys(t *testing.T, s *Store) []uint64 {
	t.Helper()
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: []byte{prefixAppend}, UpperBound: []byte{prefixAppend + 1}})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var seqs []uint64
	for it.First(); it.Valid(); it.Next() {
		seqs = append(seqs, beUint64(it.Key()[1:]))
	}
	return seqs
}

func beUint64(b []byte) uint64 {
	var v uint64
	for _, c := range b[:8] {
		v = v<<8 | uint64(c)
	}
	return v
}

// TestCheckpointLeavesTokenFree: a checkpoint's bucket-log fsyncs run
// without the committer's token, so writes, waiting for their sync or
// not, commit while one is blocked; once it ends, exactly the records it
// covered are gone, and every row survives
// a Close and a reopen with no record left.
func TestCheckpointLeavesTokenFree(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		ctx  context.Context
	}{
		{name: "durable", ctx: ctx},
		{name: "nosyncwait", ctx: fluss.WithoutSyncWait(ctx)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			g := &bucketGate{blocked: make(chan struct{}), release: make(chan struct{})}
			s, err := Open(dir, Options{Syncer: g, CheckpointBytes: 4 << 10})
			if err != nil {
				t.Fatal(err)
			}
			pt := createTable(t, s, "ckpt_pk", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v"), PrimaryKey: []string{"k"}}, BucketCount: 1})
			k := int32(0)
			upsert := func() {
				t.Helper()
				rec := intRecord([]string{"k", "v"}, []int32{k, k})
				defer rec.Release()
				if _, err := pt.Upsert(tc.ctx, rec, fluss.UpsertOptions{}); err != nil {
					t.Fatal(err)
				}
				k++
			}
			g.armed.Store(true)
			deadline := time.Now().Add(10 * time.Second)
			for g.armed.Load() {
				if time.Now().After(deadline) {
					t.Fatal("no checkpoint started")
				}
				upsert()
			}
			<-g.blocked // a checkpoint waits in its fsync
			before := appendRecordKeys(t, s)
			if len(before) == 0 {
				t.Fatal("no append record to checkpoint")
			}
			done := make(chan struct{})
			go func() {
				defer close(done)
				for range 20 {
					upsert()
				}
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				close(g.release)
				t.Fatal("writes waited for the checkpoint's fsync")
			}
			// The records the checkpoint covers are those written before
			// it, all still there while it waits.
			covered := s.appends.first
			close(g.release)
			for s.appends.running.Load() {
				if time.Now().After(deadline.Add(10 * time.Second)) {
					t.Fatal("the checkpoint did not end")
				}
				time.Sleep(time.Millisecond)
			}
			for _, seq := range appendRecordKeys(t, s) {
				if seq < covered {
					t.Fatalf("append record %d left after the checkpoint that covered records below %d", seq, covered)
				}
			}
			s = reopenClean(t, s, dir)
			defer s.Close()
			if s.appends.next != 0 {
				t.Fatalf("Open found append records up to %d after a clean Close", s.appends.next)
			}
			if got := countRows(t, mustTable(t, s, "ckpt_pk")); got != int(k) {
				t.Fatalf("%d rows after reopening, want %d", got, k)
			}
		})
	}
}

// TestDeferredAppends: a small group's bucket-log bytes, durable in its
// append record, are not written to the file at its commit (durable.go):
// a reader of the log writes them first and sees every row; a crash that
// leaves the file without them (the directory copied while the store is
// open) loses none, Open replaying the records; and at a checkpoint they
// reach the file before its fsync, so the records it drops are on disk.
func TestDeferredAppends(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openStore(t, dir)
	defer func() { s.Close() }()
	tb := createTable(t, s, "deferred", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v")}, BucketCount: 1})
	appendRows := func(tb fluss.Table, from, n int32) {
		t.Helper()
		for k := from; k < from+n; k++ {
			rec := intRecord([]string{"k", "v"}, []int32{k, k})
			_, err := tb.Append(ctx, rec)
			rec.Release()
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	logPath := bucketLogPath(s.tableDir(s.tables[path("deferred")].info.TableID), 0)
	fileSize := func() int64 {
		t.Helper()
		st, err := os.Stat(logPath)
		if err != nil {
			t.Fatal(err)
		}
		return st.Size()
	}
	committed := func(s *Store) int64 {
		ts := s.tables[path("deferred")]
		ts.mu.RLock()
		defer ts.mu.RUnlock()
		return ts.buckets[0].committed
	}
	appendRows(tb, 0, 10)
	if got, c := fileSize(), committed(s); got != 0 || c == 0 {
		t.Fatalf("after 10 one-row appends the log file holds %d bytes of %d committed, want 0 (deferred)", got, c)
	}
	if got := countRows(t, tb); got != 10 {
		t.Fatalf("a scan read %d rows, want 10", got)
	}
	if got, c := fileSize(), committed(s); got != c {
		t.Fatalf("after a scan the log file holds %d bytes, want the %d committed", got, c)
	}
	appendRows(tb, 10, 10)
	if got, c := fileSize(), committed(s); got >= c {
		t.Fatalf("the log file holds %d bytes of %d committed: the later appends were written, not deferred", got, c)
	}
	crashed := t.TempDir()
	copyTree(t, dir, crashed)
	s2 := openStore(t, crashed)
	if c := s2.Corruptions(); len(c) > 0 {
		t.Fatalf("corruptions after the crash: %v", c)
	}
	if got := countRows(t, mustTable(t, s2, "deferred")); got != 20 {
		t.Fatalf("%d rows after the crash, want 20", got)
	}
	if err := s2.Close(); err != nil {
		t.Fatal(err)
	}
	// A checkpoint writes the deferred bytes before its fsync.
	s.opts.CheckpointBytes = 1
	appendRows(tb, 20, 1)
	// The committer goroutine starts it after the writer is answered.
	for deadline := time.Now().Add(10 * time.Second); len(appendRecordKeys(t, s)) > 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("append records %v left: no checkpoint ran", appendRecordKeys(t, s))
		}
	}
	if got, c := fileSize(), committed(s); got != c {
		t.Fatalf("after a checkpoint the log file holds %d bytes of %d committed", got, c)
	}
	s = reopenClean(t, s, dir)
	if got := countRows(t, mustTable(t, s, "deferred")); got != 21 {
		t.Fatalf("%d rows after reopening, want 21", got)
	}
}
