package embedded

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/sqlgate/sqlgate/fluss"
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
		}, 2},
		{"autocommit INSERT into a log table", func(k int32) error {
			w := logRow(k)
			defer w.Rec.Release()
			_, err := w.Apply(ctx, lt)
			return err
		}, 2},
		{"transaction over both tables", func(k int32) error {
			ws := []fluss.TableWrite{logRow(k), pkRow(k)}
			defer ws[0].Rec.Release()
			defer ws[1].Rec.Release()
			_, err := s.WriteAtomically(ctx, ws)
			return err
		}, 3},
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
