package engine_test

import (
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestPGPartitionErrors: the errors of PostgreSQL's declarative
// partitioning carry PostgreSQL's SQLSTATE, message and DETAIL (the slt
// files cannot see a DETAIL), inside a transaction block as outside: a
// row without a partition is refused at its INSERT, not at COMMIT.
func TestPGPartitionErrors(t *testing.T) {
	s := newSession(t)
	if _, _, err := run(t, s, `CREATE TABLE pt (a int, b text) PARTITION BY LIST (a);
CREATE TABLE pt1 PARTITION OF pt FOR VALUES IN (1);
CREATE TABLE pd (d date, v text) PARTITION BY LIST (d);
CREATE TABLE pd1 PARTITION OF pd FOR VALUES IN ('2024-01-02')`); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		sql, code, msg, detail string
	}{
		{"INSERT INTO pt VALUES (5, 'x')", "23514", `no partition of relation "pt" found for row`, "Partition key of the failing row contains (a) = (5)."},
		{"INSERT INTO pt VALUES (NULL, 'x')", "23514", `no partition of relation "pt" found for row`, "Partition key of the failing row contains (a) = (null)."},
		{"INSERT INTO pd VALUES ('2024-01-03', 'x')", "23514", `no partition of relation "pd" found for row`, "Partition key of the failing row contains (d) = (2024-01-03)."},
		{"INSERT INTO pt1 VALUES (2, 'y')", "23514", `new row for relation "pt1" violates partition constraint`, "Failing row contains (2, y)."},
		{"BEGIN; INSERT INTO pt VALUES (1, 'ok'), (7, 'x')", "23514", `no partition of relation "pt" found for row`, "Partition key of the failing row contains (a) = (7)."},
		{"ROLLBACK; CREATE TABLE pk (a int, b text, PRIMARY KEY (b)) PARTITION BY LIST (a)", "0A000", "unique constraint on partitioned table must include all partitioning columns",
			`PRIMARY KEY constraint on table "pk" lacks column "a" which is part of the partition key.`},
	}
	for _, c := range cases {
		_, _, err := run(t, s, c.sql)
		e := sqlerr.As(err)
		if e == nil || string(e.Code) != c.code || e.Message != c.msg || e.Detail != c.detail {
			t.Errorf("%s: got %v (detail %q), want %s %s (%s)", c.sql, err, detailOf(e), c.code, c.msg, c.detail)
		}
	}
	if _, _, err := run(t, s, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if rows, _, err := run(t, s, "SELECT count(*) FROM pt"); err != nil || len(rows) != 1 || rows[0] != "0" {
		t.Fatalf("rows %v, %v", rows, err)
	}
}

func detailOf(e *sqlerr.Error) string {
	if e == nil {
		return ""
	}
	return e.Detail
}

// TestPGDefaultPartitionRestart: a DEFAULT partition, its rows and a
// detached partition are as they were after a restart (the default's
// constraint over its siblings, the detached table with its rows; the
// catalog rows are pgcatalog's, from the same views: the slt files), and a
// scan of the default reads only the Fluss partitions of the values no
// sibling holds.
func TestPGDefaultPartitionRestart(t *testing.T) {
	dir := t.TempDir()
	rs := roles{"admin": true}
	store, ss := viewEngine(t, dir, rs, "admin")
	s := ss[0]
	mustRun(t, s, `CREATE TABLE p (id int, k text, PRIMARY KEY (id, k)) PARTITION BY LIST (k);
CREATE TABLE p_a PARTITION OF p FOR VALUES IN ('a');
CREATE TABLE p_b PARTITION OF p FOR VALUES IN ('b');
CREATE TABLE p_def PARTITION OF p DEFAULT;
INSERT INTO p VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd');
ALTER TABLE p DETACH PARTITION p_a`)
	s.Close()
	store.Close()

	store, ss = viewEngine(t, dir, rs, "admin")
	defer store.Close()
	s = ss[0]
	defer s.Close()
	if got := strings.Join(mustRun(t, s, "SELECT id || k FROM p ORDER BY id"), ","); got != "2b,3c,4d" {
		t.Errorf("rows after the restart: %s", got)
	}
	if got := strings.Join(mustRun(t, s, "SELECT id || k FROM p_def ORDER BY id"), ","); got != "3c,4d" {
		t.Errorf("the default's rows after the restart: %s", got)
	}
	// the default's constraint is its siblings' values as they were
	wantErr(t, s, "INSERT INTO p_def VALUES (9, 'b')", "23514", `new row for relation "p_def" violates partition constraint`)
	// the detached partition is a table of its own, with its rows
	mustRun(t, s, "INSERT INTO p_a VALUES (6, 'zz')")
	if got := strings.Join(mustRun(t, s, "SELECT id || k FROM p_a ORDER BY id"), ","); got != "1a,6zz" {
		t.Errorf("the detached table's rows: %s", got)
	}
	mustRun(t, s, "INSERT INTO p VALUES (5, 'a')") // the detached value is the default's now
	wantErr(t, s, "CREATE TABLE p_c PARTITION OF p FOR VALUES IN ('c')", "23514", `updated partition constraint for default partition "p_def" would be violated by some row`)
	m := partitionsRe.FindStringSubmatch(strings.Join(mustRun(t, s, "EXPLAIN SELECT * FROM p_def"), "\n"))
	if m == nil || m[1] != "3" || m[2] != "4" { // a, c, d of a, b, c, d
		t.Errorf("EXPLAIN of the default: %v, want 3 of 4 partitions read", m)
	}
	if got := strings.Join(mustRun(t, s, "SELECT id || k FROM p_def ORDER BY id"), ","); got != "3c,4d,5a" {
		t.Errorf("the default's rows: %s", got)
	}
}
