package embedded

import (
	"context"
	"os"
	"testing"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestRecreateTable: TRUNCATE of a log table replaces it by an empty table
// with a new id under the same name, with the descriptor given, in one
// catalog commit; after a reopen the new table is there, empty, and the
// old one's files are gone. A missing table is 42P01.
func TestRecreateTable(t *testing.T) {
	dir := t.TempDir()
	s := openStore(t, dir)
	ctx := context.Background()
	d := fluss.TableDescriptor{BucketCount: 2, CustomProperties: map[string]string{fluss.OwnerProperty: "alice"}}
	d.Schema.Columns = intCols("a", "b")
	tb := createTable(t, s, "logt", d)
	old, err := s.GetTable(ctx, path("logt"))
	if err != nil {
		t.Fatal(err)
	}
	rec := intRecord([]string{"a", "b"}, []int32{1, 2}, []int32{3, 4})
	if _, err := tb.Append(ctx, rec); err != nil {
		t.Fatal(err)
	}
	rec.Release()
	d.CustomProperties = map[string]string{fluss.OwnerProperty: "alice", fluss.GrantsFromProperty: "1"}
	info, err := s.RecreateTable(ctx, path("logt"), d)
	if err != nil {
		t.Fatal(err)
	}
	if info.TableID == old.TableID || info.Path != old.Path {
		t.Fatalf("re-created as %s id %d, was %s id %d", info.Path, info.TableID, old.Path, old.TableID)
	}
	if _, err := s.RecreateTable(ctx, path("nothere"), d); sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
		t.Errorf("re-creating a missing table: %v, want 42P01", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openStore(t, dir)
	defer s.Close()
	got, err := s.GetTable(ctx, path("logt"))
	if err != nil {
		t.Fatal(err)
	}
	if got.TableID != info.TableID || got.Descriptor.CustomProperties[fluss.GrantsFromProperty] != "1" || got.Descriptor.CustomProperties[fluss.OwnerProperty] != "alice" {
		t.Errorf("after reopening: id %d (want %d), properties %v", got.TableID, info.TableID, got.Descriptor.CustomProperties)
	}
	tb, err = s.Table(ctx, path("logt"))
	if err != nil {
		t.Fatal(err)
	}
	if r, n := scanAll(t, tb, fluss.ScanOptions{}); n != 0 {
		if r != nil {
			r.Release()
		}
		t.Errorf("the re-created table has %d rows", n)
	}
	if _, err := os.Stat(s.tableDir(old.TableID)); !os.IsNotExist(err) {
		t.Errorf("the old table's directory is still there: %v", err)
	}
}
