package engine_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

func TestMatviewPrivilegesAndRestart(t *testing.T) {
	dir := t.TempDir()
	rs := roles{"admin": true, "alice": false}
	store, ss := viewEngine(t, dir, rs, "admin", "alice")
	admin, alice := ss[0], ss[1]
	mustRun(t, admin, "CREATE TABLE secret (k INT PRIMARY KEY, v TEXT); INSERT INTO secret VALUES (1, 'a'), (2, 'b')")
	mustRun(t, admin, "CREATE MATERIALIZED VIEW mv AS SELECT k, upper(v) AS u FROM secret")

	wantErr(t, alice, "SELECT * FROM mv", sqlerr.InsufficientPrivilege, "permission denied for materialized view mv")
	wantErr(t, alice, "REFRESH MATERIALIZED VIEW mv", sqlerr.InsufficientPrivilege, "must be owner of materialized view mv")
	wantErr(t, alice, "DROP MATERIALIZED VIEW mv", sqlerr.InsufficientPrivilege, "must be owner of materialized view mv")
	wantErr(t, alice, "ALTER MATERIALIZED VIEW mv RENAME TO mine", sqlerr.InsufficientPrivilege, "must be owner of materialized view mv")
	mustRun(t, admin, "GRANT SELECT ON mv TO alice")
	// the rows are read with the owner's rights: alice needs no grant on secret
	if got := mustRun(t, alice, "SELECT u FROM mv ORDER BY k"); strings.Join(got, ",") != "A,B" {
		t.Errorf("alice through the grant: %v", got)
	}
	wantErr(t, alice, "SELECT * FROM secret", sqlerr.InsufficientPrivilege, "permission denied for table secret")
	mustRun(t, admin, "INSERT INTO secret VALUES (3, 'c'); REFRESH MATERIALIZED VIEW mv")
	mustRun(t, admin, "CREATE MATERIALIZED VIEW empty_mv AS SELECT k FROM secret WITH NO DATA")
	ss[0].Close()
	ss[1].Close()
	store.Close()

	store, ss = viewEngine(t, dir, rs, "admin", "alice")
	admin, alice = ss[0], ss[1]
	if got := mustRun(t, alice, "SELECT u FROM mv ORDER BY k"); strings.Join(got, ",") != "A,B,C" {
		t.Errorf("after restart: %v", got)
	}
	wantErr(t, admin, "SELECT * FROM empty_mv", sqlerr.ObjectNotInPrerequisiteState, `materialized view "empty_mv" has not been populated`)

	// a backing table no view holds (a refresh that crashed before its
	// switch) is swept by the next refresh
	ctx := context.Background()
	orphan := fluss.TablePath{Database: fluss.DefaultDatabase, Table: "sqlgate__mv_99_1"}
	if _, err := store.CreateTable(ctx, orphan, fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{{Name: "k", Type: types.Int32Type}}}}, false); err != nil {
		t.Fatal(err)
	}
	mustRun(t, admin, "REFRESH MATERIALIZED VIEW mv")
	if _, err := store.GetTable(ctx, orphan); sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
		t.Errorf("the orphaned backing table after a refresh: %v", err)
	}
	// the view, its current rows and the ones before are all the backing
	// tables left; DROP takes them
	countBacking := func() int {
		ts, err := store.ListTables(ctx, fluss.DefaultDatabase)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, ti := range ts {
			if strings.HasPrefix(ti.Path.Table, "sqlgate__mv_") {
				n++
			}
		}
		return n
	}
	if n := countBacking(); n != 2 {
		t.Errorf("%d backing tables after two refreshes, want 2 (current and previous)", n)
	}
	mustRun(t, admin, "DROP MATERIALIZED VIEW mv, empty_mv")
	if n := countBacking(); n != 0 {
		t.Errorf("%d backing tables after DROP, want 0", n)
	}
}

// TestMatviewReadersDuringRefresh: sessions reading a materialized view
// while another refreshes it (plainly and CONCURRENTLY) see the rows of one
// refresh, whole, and never an older one after a newer (run with -race
// too: the switch and the sweep share the engine with the readers).
func TestMatviewReadersDuringRefresh(t *testing.T) {
	const rows, generations, readers = 500, 8, 3
	users := []string{"admin"}
	for i := 0; i < readers; i++ {
		users = append(users, "admin")
	}
	_, ss := viewEngine(t, t.TempDir(), roles{"admin": true}, users...)
	w := ss[0]
	fill := func(g int) string {
		return "INSERT INTO base SELECT i, " + strconv.Itoa(g) + " FROM generate_series(1, " + strconv.Itoa(rows) + ") AS s(i)"
	}
	mustRun(t, w, "CREATE TABLE base (k INT PRIMARY KEY, gen INT)")
	mustRun(t, w, fill(0))
	mustRun(t, w, "CREATE MATERIALIZED VIEW mv AS SELECT k, gen FROM base")
	mustRun(t, w, "CREATE UNIQUE INDEX mv_k ON mv (k)")
	var done atomic.Bool
	var wg sync.WaitGroup
	errs := make(chan string, readers)
	for _, r := range ss[1:] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			last := -1
			for !done.Load() {
				got, _, err := run(t, r, "SELECT count(*)::text || ':' || min(gen)::text || ':' || max(gen)::text FROM mv")
				if err != nil {
					errs <- err.Error()
					return
				}
				var n, lo, hi int
				if len(got) != 1 {
					errs <- strings.Join(got, ",")
					return
				}
				if _, err := fmt.Sscanf(got[0], "%d:%d:%d", &n, &lo, &hi); err != nil || n != rows || lo != hi || hi < last {
					errs <- fmt.Sprintf("read %q after generation %d", got[0], last)
					return
				}
				last = hi
			}
		}()
	}
	for g := 1; g <= generations; g++ {
		mustRun(t, w, fill(g))
		if g%2 == 0 {
			mustRun(t, w, "REFRESH MATERIALIZED VIEW CONCURRENTLY mv")
		} else {
			mustRun(t, w, "REFRESH MATERIALIZED VIEW mv")
		}
	}
	done.Store(true)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if got := mustRun(t, w, "SELECT min(gen) FROM mv"); got[0] != strconv.Itoa(generations) {
		t.Errorf("after the refreshes: generation %v", got)
	}
}
