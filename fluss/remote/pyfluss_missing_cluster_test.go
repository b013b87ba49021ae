//go:build fluss_cluster

package remote_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/fluss/remote"
)

// TestClusterPyflussMissingValue: tables sqlgate altered with ADD COLUMN
// ... DEFAULT ... NOT NULL stay ordinary Fluss tables to pyfluss: it reads
// their rows (NULL in the added column of the rows stored before: the
// missing value is sqlgate's metadata) and writes them, NULL included in
// the column whose NOT NULL is sqlgate's (the Fluss column is nullable);
// sqlgate then reads the old rows' missing value, pyfluss's NULL and
// pyfluss's value (fluss/missing.go).
func TestClusterPyflussMissingValue(t *testing.T) {
	python := pyflussPython(t)
	ctx, conn := serveCluster(t)
	suffix := fmt.Sprint(time.Now().UnixNano() % 1e6)
	lg, pk := "mv_log_"+suffix, "mv_pk_"+suffix
	for _, ddl := range []string{
		fmt.Sprintf("CREATE TABLE %s (id int, a text)", lg),
		fmt.Sprintf("CREATE TABLE %s (id int PRIMARY KEY, a text)", pk),
	} {
		mustExec(t, ctx, conn, ddl)
	}
	defer conn.Exec(ctx, "DROP TABLE "+lg)
	defer conn.Exec(ctx, "DROP TABLE "+pk)
	for _, tbl := range []string{lg, pk} {
		mustExec(t, ctx, conn, fmt.Sprintf("INSERT INTO %s VALUES (1, 'x'), (2, 'y')", tbl))
		mustExec(t, ctx, conn, fmt.Sprintf("ALTER TABLE %s ADD COLUMN n int DEFAULT 5 NOT NULL", tbl))
		mustExec(t, ctx, conn, fmt.Sprintf("ALTER TABLE %s ALTER COLUMN n DROP DEFAULT", tbl))
	}
	out := runPyScript(t, python, "testdata/pyfluss_missing.py", remote.ClusterBootstrap(), "public", lg, pk)
	var got struct {
		Log []map[string]any
		PK  []map[string]any
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(got.Log) != 2 || len(got.PK) != 2 {
		t.Fatalf("pyfluss read %s", out)
	}
	for _, r := range append(got.Log, got.PK...) {
		if r["n"] != nil {
			t.Errorf("pyfluss read n = %v in a row stored before the ALTER, want NULL (the missing value is sqlgate's): %s", r["n"], out)
		}
	}
	for _, tbl := range []string{lg, pk} {
		if got, want := queryText(t, ctx, conn, fmt.Sprintf("SELECT id, n FROM %s ORDER BY id", tbl)), "[1 5]\n[2 5]\n[10 <nil>]\n[11 9]"; got != want {
			t.Errorf("%s through sqlgate:\n got %s\nwant %s", tbl, got, want)
		}
	}
}
