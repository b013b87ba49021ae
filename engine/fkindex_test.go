package engine_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/pgwire"
)

// listCountingStore counts the listings of a store's databases: each is
// the start of a foreign key index's build (fkindex.go).
type listCountingStore struct {
	fluss.Store
	lists atomic.Int64
}

func (s *listCountingStore) ListDatabases(ctx context.Context) ([]string, error) {
	s.lists.Add(1)
	return s.Store.ListDatabases(ctx)
}

// The index of the store's foreign keys is the Engine's, built once per
// catalog change and shared by its sessions (it was built by each session
// after each DDL: a GetTable per table on a cluster), and read by
// sessions writing at once (run under -race).
func TestForeignKeyIndexSharedBySessions(t *testing.T) {
	inner, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inner.Close() })
	store := &listCountingStore{Store: inner}
	eng := engine.New(store, engine.Options{})
	const n = 4
	var ss []pgwire.Session
	for range n {
		s, err := eng.NewSession(context.Background(), pgwire.SessionInfo{User: "u"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		ss = append(ss, s)
	}
	mustRun(t, ss[0], "CREATE TABLE ip (id int PRIMARY KEY)")
	mustRun(t, ss[0], "CREATE TABLE ic (id int PRIMARY KEY, pid int REFERENCES ip)")
	mustRun(t, ss[0], "INSERT INTO ip SELECT g FROM generate_series(1, 100) g")
	before := store.lists.Load()
	var wg sync.WaitGroup
	errs := make([]error, n)
	for k, s := range ss {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 10 {
				id := k*10 + i + 1
				if _, _, err := run(t, s, fmt.Sprintf("INSERT INTO ic VALUES (%d, %d)", id, id)); err != nil {
					errs[k] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if got := store.lists.Load() - before; got > 1 {
		t.Errorf("%d sessions writing after a DDL built the foreign key index %d times, want at most once", n, got)
	}
	if _, _, err := run(t, ss[1], "INSERT INTO ic VALUES (1000, 1000)"); err == nil {
		t.Error("a row referencing no parent was written")
	}
	if got := mustRun(t, ss[3], "SELECT count(*) FROM ic"); len(got) != 1 || got[0] != "40" {
		t.Errorf("children: %v, want 40", got)
	}
}
