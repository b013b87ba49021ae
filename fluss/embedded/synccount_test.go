package embedded

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// countingSyncer counts the syncs made through it, by kind and file.
type countingSyncer struct {
	mu    sync.Mutex
	calls []syncCall
}

type syncCall struct {
	name string
	kind SyncKind
}

func (c *countingSyncer) Sync(name string, kind SyncKind, sync func() error) error {
	c.mu.Lock()
	c.calls = append(c.calls, syncCall{name, kind})
	c.mu.Unlock()
	return sync()
}

// take returns the calls made since the last take and forgets them.
func (c *countingSyncer) take() []syncCall {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.calls
	c.calls = nil
	return out
}

// durable counts the calls that make data durable (fsync, fdatasync).
func durable(calls []syncCall) int {
	n := 0
	for _, c := range calls {
		if c.kind != SyncRange {
			n++
		}
	}
	return n
}

func describe(calls []syncCall) string {
	var out []string
	for _, c := range calls {
		out = append(out, fmt.Sprintf("%s(%s)", c.kind, c.name[strings.LastIndex(c.name, "/")+1:]))
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// TestSyncsPerCommit counts the sync system calls of the commits that
// matter (issue 33): one autocommit write into a primary-key table, one
// into a log table, one transaction over both tables; and concurrent writes,
// whose group commits must share their syncs.
func TestSyncsPerCommit(t *testing.T) {
	ctx := context.Background()
	sc := &countingSyncer{}
	s, err := Open(t.TempDir(), Options{Syncer: sc})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	lt := createTable(t, s, "sync_log", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("id", "k")}, BucketCount: 4})
	pt := createTable(t, s, "sync_pk", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "id"), PrimaryKey: []string{"k"}}, BucketCount: 3})
	sc.take() // creating the tables syncs the catalog and directories
	pkRow := func(k int32) fluss.TableWrite {
		return fluss.TableWrite{Path: path("sync_pk"), TableID: pt.Info().TableID, Kind: fluss.WriteUpsert,
			Rec: intRecord([]string{"k", "id"}, []int32{k, k})}
	}
	logRow := func(k int32) fluss.TableWrite {
		return fluss.TableWrite{Path: path("sync_log"), TableID: lt.Info().TableID, Kind: fluss.WriteAppend,
			Rec: intRecord([]string{"id", "k"}, []int32{k, k})}
	}
	cases := []struct {
		name  string
		write func(k int32) error
		want  int
	}{
		{"autocommit INSERT into a primary-key table", func(k int32) error {
			w := pkRow(k)
			defer w.Rec.Release()
			_, err := w.Apply(ctx, pt)
			return err
		}, 1},
		{"autocommit INSERT into a log table", func(k int32) error {
			w := logRow(k)
			defer w.Rec.Release()
			_, err := w.Apply(ctx, lt)
			return err
		}, 1},
		{"transaction over both tables", func(k int32) error {
			ws := []fluss.TableWrite{logRow(k), pkRow(k)}
			defer ws[0].Rec.Release()
			defer ws[1].Rec.Release()
			_, err := s.WriteAtomically(ctx, ws)
			return err
		}, 1},
	}
	for i, c := range cases {
		// Twice: the first write of a table may differ from the next ones.
		for round := range 2 {
			groups := s.groups.Load()
			if err := c.write(int32(10*i + round)); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			calls := sc.take()
			if g := s.groups.Load() - groups; g != 1 {
				t.Fatalf("%s: %d group commits, want 1", c.name, g)
			}
			t.Logf("%s: %d durable syncs: %s", c.name, durable(calls), describe(calls))
			if got := durable(calls); got != c.want {
				t.Errorf("%s (round %d): %d durable syncs (%s), want %d", c.name, round, got, describe(calls), c.want)
			}
		}
	}
}

// gateSyncer holds the first sync of pebble's write-ahead log after arm
// until release, so that a test can queue writes behind a group commit
// that is syncing.
type gateSyncer struct {
	countingSyncer
	armed   atomic.Bool
	blocked chan struct{}
	release chan struct{}
}

func (g *gateSyncer) Sync(name string, kind SyncKind, sync func() error) error {
	if kind != SyncRange && isWAL(name) && g.armed.CompareAndSwap(true, false) {
		close(g.blocked)
		<-g.release
	}
	return g.countingSyncer.Sync(name, kind, sync)
}

// TestConcurrentTransactionsShareOneSync queues transactions over two
// tables behind a group commit that is syncing: they must be committed by
// one group commit with one sync, each whole, and a transaction that fails
// to prepare (a damaged stored row) must fail whole without taking the
// others with it.
func TestConcurrentTransactionsShareOneSync(t *testing.T) {
	ctx := context.Background()
	g := &gateSyncer{blocked: make(chan struct{}), release: make(chan struct{})}
	s, err := Open(t.TempDir(), Options{Syncer: g})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	lt := createTable(t, s, "share_log", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("id", "k")}, BucketCount: 2})
	pt := createTable(t, s, "share_pk", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "id"), PrimaryKey: []string{"k"}}, BucketCount: 2})
	txn := func(k int32) error {
		ws := []fluss.TableWrite{
			{Path: path("share_log"), TableID: lt.Info().TableID, Kind: fluss.WriteAppend, Rec: intRecord([]string{"id", "k"}, []int32{k, k})},
			{Path: path("share_pk"), TableID: pt.Info().TableID, Kind: fluss.WriteUpsert, Rec: intRecord([]string{"k", "id"}, []int32{k, k})},
		}
		defer ws[0].Rec.Release()
		defer ws[1].Rec.Release()
		_, err := s.WriteAtomically(ctx, ws)
		return err
	}
	// Key 999's stored row is damaged: a transaction rewriting it cannot
	// encode the row's update-before image.
	const bad = 999
	if err := txn(bad); err != nil {
		t.Fatal(err)
	}
	damageStoredRows(t, s, pt.Info().TableID)
	g.take()
	g.armed.Store(true)
	groups := s.groups.Load()
	first := make(chan error, 1)
	go func() { first <- txn(0) }()
	<-g.blocked
	const n = 8
	errs := make(chan error, n+1)
	for k := range int32(n) {
		go func() { errs <- txn(k + 1) }()
	}
	go func() { errs <- txn(bad) }()
	for s.queued.Load() < n+1 {
		time.Sleep(time.Millisecond)
	}
	close(g.release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	failed := 0
	for range n + 1 {
		if err := <-errs; err != nil {
			failed++
			wantCode(t, err, sqlerr.DataCorrupted, "unreadable")
		}
	}
	if failed != 1 {
		t.Fatalf("%d transactions failed, want the one rewriting the damaged row", failed)
	}
	calls := g.take()
	if got := s.groups.Load() - groups; got != 2 {
		t.Errorf("%d group commits for a syncing one and %d queued transactions, want 2", got, n+1)
	}
	if got := durable(calls); got != 2 {
		t.Errorf("%d durable syncs (%s), want 2: one per group commit", got, describe(calls))
	}
	// Both are the commit log's (commitlog.go): the lone first group's and
	// the queued group's of several writers, none of pebble's write-ahead
	// log, whose synced commit would hand the write and sync to pebble's
	// flush goroutine and wait for it.
	for _, c := range calls {
		if c.kind != SyncRange && filepath.Base(c.name) != commitLogName {
			t.Errorf("a group commit synced %s, want only %s (%s)", c.name, commitLogName, describe(calls))
		}
	}
	// Every successful transaction is whole; the failed one left nothing.
	got, _ := scanAll(t, lt, fluss.ScanOptions{})
	ids := int32Values(got, 0)
	if got != nil {
		got.Release()
	}
	slices.Sort(ids)
	want := []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, bad}
	if !slices.Equal(ids, want) {
		t.Fatalf("log table holds %v, want %v (the failed transaction's row absent, its first write's present)", ids, want)
	}
	krec := intRecord([]string{"k"}, []int32{0}, []int32{4}, []int32{8})
	defer krec.Release()
	rows, err := pt.Lookup(ctx, krec, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Release()
	if rows.NumRows() != 3 {
		t.Fatalf("found %d of 3 committed keys", rows.NumRows())
	}
}

// damageStoredRows overwrites every stored row of a table with bytes no
// row decodes from.
func damageStoredRows(t *testing.T, s *Store, tableID int64) {
	t.Helper()
	p := tablePrefix(prefixData, tableID)
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: prefixEnd(p)})
	if err != nil {
		t.Fatal(err)
	}
	var keys [][]byte
	for it.First(); it.Valid(); it.Next() {
		keys = append(keys, slices.Clone(it.Key()))
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	if len(keys) == 0 {
		t.Fatal("no stored rows to damage")
	}
	// A state write of keys no commit marked, as the store's own: the row
	// cache (rowhints.go) drops what it held of them.
	s.iters.beginWrite()
	defer s.iters.endWrite()
	for _, k := range keys {
		if err := s.db.Set(k, []byte{0xff}, pebble.Sync); err != nil {
			t.Fatal(err)
		}
	}
	s.iters.layoutChanged()
}

// isWAL says whether name is a pebble write-ahead log of the store.
func isWAL(name string) bool {
	return strings.HasSuffix(name, ".log") && filepath.Base(filepath.Dir(name)) == "kv" || filepath.Base(name) == commitLogName
}

// TestCloseLeavesNoAppendRecords: Close checkpoints, so a store closed
// cleanly holds no append record for the next Open to replay (and an older
// sqlgate, which knows none, opens it as before).
func TestCloseLeavesNoAppendRecords(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openStore(t, dir)
	pt := createTable(t, s, "close_pk", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "id"), PrimaryKey: []string{"k"}}, BucketCount: 2})
	for k := range int32(10) {
		rec := intRecord([]string{"k", "id"}, []int32{k, k})
		if _, err := pt.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	if s.appends.next != 10 {
		t.Fatalf("%d append records written, want one per write: 10", s.appends.next)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openStore(t, dir)
	defer s.Close()
	if s.appends.next != 0 {
		t.Fatalf("Open found append records up to %d after a clean Close", s.appends.next)
	}
	got, _ := scanAll(t, mustTable(t, s, "close_pk"), fluss.ScanOptions{})
	if got == nil || got.NumRows() != 10 {
		t.Fatalf("rows after reopening: %v", got)
	}
	got.Release()
}

func mustTable(t *testing.T, s *Store, name string) fluss.Table {
	t.Helper()
	tb, err := s.Table(context.Background(), path(name))
	if err != nil {
		t.Fatal(err)
	}
	return tb
}
