package embedded

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/fluss"
)

// TestReplacePartitionedTable: a partitioned table is replaced with its
// partitions (staged under new ids, swapped in by one catalog write); a
// partition made since the staging makes Replace fail with 40001, and a
// discarded or replaced state leaves no files behind.
func TestReplacePartitionedTable(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openStore(t, dir)
	defer func() { s.Close() }()
	desc := func(v string) fluss.TableDescriptor {
		return fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("p", "k", v), PrimaryKey: []string{"p", "k"}},
			PartitionKeys: []string{"p"}, BucketCount: 2}
	}
	tb := createTable(t, s, "pr", desc("v0"))
	for _, v := range []string{"1", "2"} {
		if err := s.CreatePartition(ctx, path("pr"), []string{v}, false); err != nil {
			t.Fatal(err)
		}
	}
	writeRows(t, tb, true, intRecord([]string{"p", "k", "v0"}, []int32{1, 1, 10}, []int32{2, 1, 20}, []int32{2, 2, 30}))

	// a partition created after the staging: the copy missed its rows
	st, err := s.StageReplacement(ctx, path("pr"), desc("v1"))
	if err != nil {
		t.Fatal(err)
	}
	if err := copyInto(ctx, tb, st.Table()); err != nil {
		t.Fatal(err)
	}
	if err := s.CreatePartition(ctx, path("pr"), []string{"3"}, false); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Replace(ctx, nil); err == nil || !strings.Contains(err.Error(), "could not serialize") {
		t.Fatalf("Replace after a new partition: %v, want 40001", err)
	}
	if err := st.Discard(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.DropPartition(ctx, path("pr"), []string{"3"}, false); err != nil {
		t.Fatal(err)
	}

	st, err = s.StageReplacement(ctx, path("pr"), desc("v1"))
	if err != nil {
		t.Fatal(err)
	}
	if err := copyInto(ctx, tb, st.Table()); err != nil {
		t.Fatal(err)
	}
	info, err := st.Replace(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if info.TableID == tb.Info().TableID || info.Descriptor.Schema.Columns[2].Name != "v1" {
		t.Fatalf("replaced table %+v", info)
	}
	s.Close()
	s = openStore(t, dir)
	parts, err := s.ListPartitions(ctx, path("pr"))
	if err != nil || len(parts) != 2 || parts[0].Name != "1" || parts[1].Name != "2" {
		t.Fatalf("partitions after reopen: %v %v", parts, err)
	}
	nt, err := s.Table(ctx, path("pr"))
	if err != nil {
		t.Fatal(err)
	}
	rec, _ := scanAll(t, nt, fluss.ScanOptions{})
	if rec == nil || rec.NumRows() != 3 {
		t.Fatalf("rows after reopen: %v, want 3", rec)
	}
	rec.Release()
	if got := nt.Info().Descriptor.Schema.Columns[2].Name; got != "v1" {
		t.Fatalf("column after reopen: %s", got)
	}
	ents, _ := os.ReadDir(filepath.Join(dir, "tables"))
	if len(ents) != 3 { // the table's and its two partitions'
		t.Fatalf("table directories %v, want three", ents)
	}
}
