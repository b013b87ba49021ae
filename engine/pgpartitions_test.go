package engine_test

import (
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
