package embedded

import (
	"context"
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
