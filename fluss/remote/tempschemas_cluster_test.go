//go:build fluss_cluster

package remote

// The temporary schemas' leases (tempschemas.go) against a real cluster:
// another server sweeps the schemas of a server that died (its lease row
// gone, or unchanged for tempLeaseExpiry), never those of a live one.

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/types"
)

func TestClusterTempSchemasSweptWhenServerDies(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	open := func() *Store {
		s, err := OpenStore(ctx, Config{Bootstrap: strings.Split(bootstrap, ",")})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	desc := fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{{Name: "a", Type: types.T{Kind: types.Int32}}}}}
	// withTemp makes s hold a temporary schema with a table in it.
	withTemp := func(s *Store) string {
		t.Helper()
		if err := s.HoldTempSchemas(ctx); err != nil {
			t.Fatal(err)
		}
		db := s.TempSchema(7)
		if err := s.CreateDatabase(ctx, db, false); err != nil {
			t.Fatal(err)
		}
		if _, err := s.CreateTable(ctx, fluss.TablePath{Database: db, Table: "t"}, desc, false); err != nil {
			t.Fatal(err)
		}
		return db
	}
	exists := func(db string) bool {
		t.Helper()
		dbs, err := open().ListDatabases(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return slices.Contains(dbs, db)
	}
	sweeper := open()
	sweep := func() {
		t.Helper()
		if err := sweeper.SweepTempSchemas(ctx); err != nil {
			t.Fatal(err)
		}
	}

	// Dies without a word: its lease row stays, unchanged.
	dead := open()
	deadDB := withTemp(dead)
	dead.temp.once.Do(func() { close(dead.temp.stop) })
	dead.temp.wg.Wait()
	// Alive: renews its lease.
	live := open()
	liveDB := withTemp(live)
	// Stopped, its lease deleted, but a schema left behind (a session
	// whose drop failed).
	gone := open()
	goneDB := withTemp(gone)
	gone.Close()

	sweep() // first sight of the leases: only the one without a row goes
	if !exists(deadDB) || !exists(liveDB) || exists(goneDB) {
		t.Fatalf("after the first sweep: dead %v, live %v, gone %v; want true, true, false", exists(deadDB), exists(liveDB), exists(goneDB))
	}
	// tempLeaseExpiry passes (as the sweeper's clock sees it); the live
	// server renews meanwhile, the dead one does not.
	sweeper.temp.mu.Lock()
	for tag, seen := range sweeper.temp.seen {
		seen.since = seen.since.Add(-tempLeaseExpiry - time.Second)
		sweeper.temp.seen[tag] = seen
	}
	sweeper.temp.mu.Unlock()
	time.Sleep(5 * time.Millisecond)
	live.temp.mu.Lock()
	err := live.writeLease(ctx)
	live.temp.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	sweep()
	if exists(deadDB) || !exists(liveDB) {
		t.Fatalf("after the lease expired: dead %v, live %v; want false, true", exists(deadDB), exists(liveDB))
	}
	if err := live.DropDatabase(ctx, liveDB, false, true); err != nil {
		t.Fatal(err)
	}
}
