package embedded

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestStagedAppend: a bulk append's parts are invisible until Commit,
// while other writes to the table commit in between; after Commit every
// row is visible once, in a log whose offsets run on (Open checks them),
// and nothing is left in staging/.
func TestStagedAppend(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openStore(t, dir)
	tb := createTable(t, s, "staged", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("id", "k")}, BucketCount: 3, BucketKey: []string{"k"}})
	ap, err := tb.(fluss.BulkAppender).BeginAppend(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for part := range int32(20) {
		rows := make([][]int32, 500)
		for i := range rows {
			rows[i] = []int32{part*1000 + int32(i), int32(i)}
		}
		rec := intRecord([]string{"id", "k"}, rows...)
		if err := ap.Add(ctx, rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
		want += len(rows)
		// A concurrent writer's row, committed at once.
		rec = intRecord([]string{"id", "k"}, []int32{-1 - part, part})
		if _, err := tb.Append(ctx, rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
		want++
	}
	if got := countRows(t, tb); got != 20 {
		t.Fatalf("%d rows visible before Commit, want the 20 committed ones", got)
	}
	res, err := ap.Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows != 10000 {
		t.Fatalf("Commit wrote %d rows, want 10000", res.Rows)
	}
	ap.Discard() // after Commit: nothing
	if got := countRows(t, tb); got != want {
		t.Fatalf("%d rows after Commit, want %d", got, want)
	}
	assertNoStaging(t, dir)
	s = reopenClean(t, s, dir)
	defer s.Close()
	if got := countRows(t, mustTable(t, s, "staged")); got != want {
		t.Fatalf("%d rows after reopening, want %d", got, want)
	}
}

// TestStagedAppendDiscardAndCrash: Discard leaves nothing; staging a crash
// left behind is removed by Open; a table dropped before Commit fails it.
func TestStagedAppendDiscardAndCrash(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openStore(t, dir)
	tb := createTable(t, s, "staged", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("id", "k")}, BucketCount: 2})
	add := func(ap fluss.BulkAppend) {
		t.Helper()
		rec := intRecord([]string{"id", "k"}, []int32{1, 1}, []int32{2, 2})
		defer rec.Release()
		if err := ap.Add(ctx, rec); err != nil {
			t.Fatal(err)
		}
	}
	ap, err := tb.(fluss.BulkAppender).BeginAppend(ctx)
	if err != nil {
		t.Fatal(err)
	}
	add(ap)
	ap.Discard()
	if got := countRows(t, tb); got != 0 {
		t.Fatalf("%d rows after Discard", got)
	}
	assertNoStaging(t, dir)

	// A crash while staging: the files stay until Open.
	ap, err = tb.(fluss.BulkAppender).BeginAppend(ctx)
	if err != nil {
		t.Fatal(err)
	}
	add(ap)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, stagingDir)); len(ents) == 0 {
		t.Fatal("no staging left to test the clean-up with")
	}
	s = openStore(t, dir)
	defer s.Close()
	assertNoStaging(t, dir)
	tb = mustTable(t, s, "staged")
	if got := countRows(t, tb); got != 0 {
		t.Fatalf("%d rows of an uncommitted append after reopening", got)
	}

	ap, err = tb.(fluss.BulkAppender).BeginAppend(ctx)
	if err != nil {
		t.Fatal(err)
	}
	add(ap)
	if err := s.DropTable(ctx, path("staged"), false); err != nil {
		t.Fatal(err)
	}
	_, err = ap.Commit(ctx)
	wantCode(t, err, sqlerr.UndefinedTable, "staged")
	assertNoStaging(t, dir)
}

func countRows(t *testing.T, tb fluss.Table) int {
	t.Helper()
	rec, _ := scanAll(t, tb, fluss.ScanOptions{})
	if rec == nil {
		return 0
	}
	defer rec.Release()
	return int(rec.NumRows())
}

func assertNoStaging(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(dir, stagingDir))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if len(ents) > 0 {
		t.Fatalf("staging holds %d entries", len(ents))
	}
}
