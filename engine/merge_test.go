package engine_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestMergeConcurrentIncrements: a MERGE that meets a row another
// transaction changed waits for it and re-applies its WHEN clauses to the
// newest version, as PostgreSQL's EvalPlanQual: no increment is lost,
// whether the other writer is a MERGE or an UPDATE, and a clause whose
// condition the new version fails is not applied.
func TestMergeConcurrentIncrements(t *testing.T) {
	_, session := newEngine(t, openStore(t))
	a, b := session("a"), session("b")
	mustRun(t, a, "CREATE TABLE mc (id INT PRIMARY KEY, n INT)")
	mustRun(t, a, "INSERT INTO mc VALUES (1, 0), (2, 0), (3, 0)")
	const inc = "MERGE INTO mc USING (VALUES (1), (2)) AS s(id) ON mc.id = s.id WHEN MATCHED THEN UPDATE SET n = mc.n + 1 WHEN NOT MATCHED THEN INSERT VALUES (s.id, 1)"
	for _, c := range []struct {
		name, first, second string
		want                []string
	}{
		{"merge after merge", inc, inc, []string{"1 2", "2 2", "3 0"}},
		{"merge after update", "UPDATE mc SET n = n + 10 WHERE id = 1", inc, []string{"1 13", "2 3", "3 0"}},
		{"update after merge", inc, "UPDATE mc SET n = n + 10 WHERE id <= 2", []string{"1 24", "2 14", "3 0"}},
		// the first moves row 1 past the second's condition: its second
		// pass reads the new version and applies no clause to it
		{"condition rechecked", "UPDATE mc SET n = 100 WHERE id = 1",
			"MERGE INTO mc USING (VALUES (1), (3)) AS s(id) ON mc.id = s.id WHEN MATCHED AND mc.n < 50 THEN UPDATE SET n = mc.n + 1", []string{"1 100", "2 14", "3 1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			mustRun(t, a, "BEGIN")
			mustRun(t, a, c.first)
			done := make(chan error, 1)
			go func() {
				_, _, err := run(t, b, c.second)
				done <- err
			}()
			select {
			case err := <-done:
				t.Fatalf("the second writer did not wait for the first: %v", err)
			case <-time.After(200 * time.Millisecond):
			}
			mustRun(t, a, "COMMIT")
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			got := mustRun(t, a, "SELECT id || ' ' || n FROM mc ORDER BY id")
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Fatalf("rows %v, want %v", got, c.want)
			}
		})
	}
}

// TestMergeNoLostUpdate: two sessions MERGE-incrementing the same rows at
// once, each statement its own transaction: every increment counts.
func TestMergeNoLostUpdate(t *testing.T) {
	_, session := newEngine(t, openStore(t))
	a := session("c")
	mustRun(t, a, "CREATE TABLE ml (id INT PRIMARY KEY, n INT)")
	mustRun(t, a, "INSERT INTO ml VALUES (1, 0), (2, 0)")
	const rounds = 40
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for i := 0; i < 2; i++ {
		s := session(fmt.Sprint("w", i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				if _, _, err := run(t, s, "MERGE INTO ml USING (VALUES (1), (2), (3)) AS s(id) ON ml.id = s.id AND s.id < 3 WHEN MATCHED THEN UPDATE SET n = ml.n + 1"); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if got := mustRun(t, a, "SELECT id || ' ' || n FROM ml ORDER BY id"); fmt.Sprint(got) != fmt.Sprint([]string{"1 80", "2 80"}) {
		t.Fatalf("rows %v, want 80 increments each", got)
	}
}

// TestMergePrivileges: MERGE needs, as in PostgreSQL, SELECT on the source
// and on the target (its ON reads it), and the privilege of each action
// it has: INSERT, UPDATE, DELETE (42501 naming the table otherwise).
func TestMergePrivileges(t *testing.T) {
	_, ss := viewEngine(t, t.TempDir(), roles{"admin": true, "u": false}, "admin", "u")
	admin, u := ss[0], ss[1]
	mustRun(t, admin, "CREATE TABLE pt (id INT PRIMARY KEY, v INT)")
	mustRun(t, admin, "CREATE TABLE ps (id INT, v INT)")
	mustRun(t, admin, "INSERT INTO pt VALUES (1, 1); INSERT INTO ps VALUES (1, 5), (2, 6)")
	const (
		upd = "MERGE INTO pt USING ps ON pt.id = ps.id WHEN MATCHED THEN UPDATE SET v = ps.v"
		ins = "MERGE INTO pt USING ps ON pt.id = ps.id WHEN NOT MATCHED THEN INSERT VALUES (ps.id, ps.v)"
		del = "MERGE INTO pt USING ps ON pt.id = ps.id WHEN MATCHED THEN DELETE"
	)
	for _, c := range []struct {
		grant, sql string
		table      string // "": allowed
	}{
		{"", upd, "pt"},
		{"GRANT SELECT ON ps TO u", upd, "pt"},
		{"GRANT UPDATE ON pt TO u", upd, "pt"}, // the join reads pt
		{"GRANT SELECT ON pt TO u", upd, ""},
		{"", ins, "pt"},
		{"", del, "pt"},
		{"GRANT INSERT ON pt TO u", ins, ""},
		{"REVOKE SELECT ON ps FROM u", ins, "ps"},
		{"GRANT SELECT ON ps TO u", "MERGE INTO pt USING ps ON pt.id = ps.id WHEN MATCHED THEN DO NOTHING", ""},
		{"GRANT DELETE ON pt TO u", del, ""},
	} {
		if c.grant != "" {
			mustRun(t, admin, c.grant)
		}
		if c.table == "" {
			if _, _, err := run(t, u, c.sql); err != nil {
				t.Errorf("after %q: %s: %v", c.grant, c.sql, err)
			}
			continue
		}
		wantErr(t, u, c.sql, sqlerr.InsufficientPrivilege, "permission denied for table "+c.table)
	}
}

// TestMergeSelectOnReadColumns: MERGE needs SELECT on its target only
// where it reads the target's columns (ON, a WHEN condition, a SET value),
// as PostgreSQL checks column privileges: dbt's insert-only MERGE ... ON
// FALSE needs INSERT alone, an UPDATE SET v = 7 ON TRUE needs UPDATE alone.
func TestMergeSelectOnReadColumns(t *testing.T) {
	_, ss := viewEngine(t, t.TempDir(), roles{"admin": true, "u": false}, "admin", "u")
	admin, u := ss[0], ss[1]
	mustRun(t, admin, "CREATE TABLE pv (id INT PRIMARY KEY, v INT)")
	mustRun(t, admin, "CREATE TABLE ps (id INT, v INT)")
	mustRun(t, admin, "INSERT INTO pv VALUES (1, 1); INSERT INTO ps VALUES (1, 10), (2, 20)")
	mustRun(t, admin, "GRANT SELECT ON ps TO u; GRANT INSERT, UPDATE ON pv TO u")
	for _, c := range []struct {
		sql     string
		allowed bool
	}{
		{"MERGE INTO pv USING ps ON false WHEN NOT MATCHED THEN INSERT VALUES (ps.id + 100, ps.v)", true},
		{"MERGE INTO pv USING (SELECT 1 AS id) s ON true WHEN MATCHED THEN UPDATE SET v = 7", true},
		{"MERGE INTO pv USING ps ON pv.id = ps.id WHEN NOT MATCHED THEN INSERT VALUES (ps.id + 200, ps.v)", false},
		{"MERGE INTO pv USING ps ON ps.id = 1 WHEN MATCHED AND pv.v > 0 THEN UPDATE SET v = 7", false},
		{"MERGE INTO pv USING (SELECT 1 AS id) s ON true WHEN MATCHED THEN UPDATE SET v = pv.v + 1", false},
	} {
		if !c.allowed {
			wantErr(t, u, c.sql, sqlerr.InsufficientPrivilege, "permission denied for table pv")
		} else if _, _, err := run(t, u, c.sql); err != nil {
			t.Errorf("%s: %v", c.sql, err)
		}
	}
	if got := mustRun(t, admin, "SELECT count(*) FROM pv WHERE v = 7"); fmt.Sprint(got) != "[3]" {
		t.Errorf("rows with v = 7: %v", got)
	}
}

// TestDuplicateKeyDetail: a primary key collision, of MERGE's INSERT (with
// the table, within the statement, on a composite key) and of an UPDATE
// that moves a key, is 23505 with PostgreSQL's DETAIL naming the key.
func TestDuplicateKeyDetail(t *testing.T) {
	_, session := newEngine(t, openStore(t))
	s := session("a")
	mustRun(t, s, "CREATE TABLE dk (a INT, b TEXT, v INT, PRIMARY KEY (a, b)); INSERT INTO dk VALUES (1, 'x', 1), (2, 'y', 2)")
	for _, c := range []struct{ sql, detail string }{
		{"MERGE INTO dk USING (VALUES (1, 'x')) s(a, b) ON false WHEN NOT MATCHED THEN INSERT VALUES (s.a, s.b, 0)", "Key (a, b)=(1, x) already exists."},
		{"MERGE INTO dk USING (VALUES (3, 'z'), (4, 'z'), (3, 'z')) s(a, b) ON false WHEN NOT MATCHED THEN INSERT VALUES (s.a, s.b, 0)", "Key (a, b)=(3, z) already exists."},
		{"UPDATE dk SET a = 2, b = 'y' WHERE a = 1", "Key (a, b)=(2, y) already exists."},
		{"UPDATE dk SET a = 9, b = 'q'", "Key (a, b)=(9, q) already exists."},
	} {
		_, _, err := run(t, s, c.sql)
		if e := sqlerr.As(err); e == nil || e.Code != sqlerr.UniqueViolation || e.Detail != c.detail {
			t.Errorf("%s: %#v, want 23505 %q", c.sql, e, c.detail)
		}
	}
}

// TestMergeReplanned: a prepared MERGE bound again after DDL runs its new
// plans (its join and its actions read one relation of rows together).
func TestMergeReplanned(t *testing.T) {
	_, session := newEngine(t, openStore(t))
	s := session("a")
	mustRun(t, s, "CREATE TABLE mr (id INT PRIMARY KEY, n INT)")
	mustRun(t, s, "INSERT INTO mr VALUES (1, 0)")
	mustRun(t, s, "PREPARE m(int) AS MERGE INTO mr USING (SELECT $1 AS id) q ON mr.id = q.id WHEN MATCHED THEN UPDATE SET n = mr.n + 1 WHEN NOT MATCHED THEN INSERT (id) VALUES (q.id)")
	mustRun(t, s, "EXECUTE m(1)")
	mustRun(t, s, "ALTER TABLE mr ALTER COLUMN n SET DEFAULT 7")
	mustRun(t, s, "EXECUTE m(1)")
	mustRun(t, s, "EXECUTE m(2)")
	if got := mustRun(t, s, "SELECT id || ' ' || n FROM mr ORDER BY id"); fmt.Sprint(got) != fmt.Sprint([]string{"1 2", "2 7"}) {
		t.Fatalf("rows %v", got)
	}
}

// TestMergeRowGoneTakesNotMatched: a MERGE whose target row a concurrent
// transaction deleted (or changed so that it fails the join) runs its WHEN
// NOT MATCHED clauses for that source row, as PostgreSQL 15's does.
func TestMergeRowGoneTakesNotMatched(t *testing.T) {
	_, session := newEngine(t, openStore(t))
	a, b := session("a"), session("b")
	mustRun(t, a, "CREATE TABLE mg (id INT PRIMARY KEY, n INT)")
	mustRun(t, a, "INSERT INTO mg VALUES (1, 0), (2, 0), (3, 0)")
	mustRun(t, a, "BEGIN")
	mustRun(t, a, "DELETE FROM mg WHERE id = 1")
	mustRun(t, a, "UPDATE mg SET n = 100 WHERE id = 2")
	done := make(chan error, 1)
	go func() {
		_, _, err := run(t, b, "MERGE INTO mg USING (VALUES (1), (2), (3)) AS s(id) ON mg.id = s.id AND mg.n < 50 WHEN MATCHED THEN UPDATE SET n = mg.n + 1 WHEN NOT MATCHED THEN INSERT VALUES (s.id + 10, -1)")
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("the MERGE did not wait: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	mustRun(t, a, "COMMIT")
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	want := []string{"2 100", "3 1", "11 -1", "12 -1"}
	if got := mustRun(t, a, "SELECT id || ' ' || n FROM mg ORDER BY id"); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("rows %v, want %v", got, want)
	}
}

// TestMergeRepeatableRead: at REPEATABLE READ, a MERGE that would change a
// row changed since the transaction's snapshot fails with 40001, as an
// UPDATE does (and as PostgreSQL's MERGE does).
func TestMergeRepeatableRead(t *testing.T) {
	_, session := newEngine(t, openStore(t))
	a, b := session("a"), session("b")
	mustRun(t, a, "CREATE TABLE mrr (id INT PRIMARY KEY, n INT)")
	mustRun(t, a, "INSERT INTO mrr VALUES (1, 0)")
	mustRun(t, a, "BEGIN ISOLATION LEVEL REPEATABLE READ")
	mustRun(t, a, "SELECT n FROM mrr")
	mustRun(t, b, "UPDATE mrr SET n = 5 WHERE id = 1")
	wantErr(t, a, "MERGE INTO mrr USING (VALUES (1)) AS s(id) ON mrr.id = s.id WHEN MATCHED THEN UPDATE SET n = mrr.n + 1", sqlerr.SerializationFailure, "could not serialize access")
	mustRun(t, a, "ROLLBACK")
}
