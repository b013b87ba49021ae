package pgcatalog

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/types"
)

// TestOIDsStableAcrossRestarts: the OIDs of tables, their row types,
// primary-key indexes and constraints, and of pg_proc's functions are the
// same after the store is closed and opened again (clients cache them,
// and OIDs in saved queries must keep naming the same objects).
func TestOIDsStableAcrossRestarts(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	ctx := context.Background()
	snapshot := func(create bool) []string {
		store, err := embedded.Open(dir, embedded.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer store.Close()
		if create {
			for _, d := range []struct {
				name string
				desc fluss.TableDescriptor
			}{
				{"events", fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{{Name: "msg", Type: types.StringType}}}, BucketCount: 1}},
				{"orders", fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{
					{Name: "id", Type: notNull(types.Int64Type)}, {Name: "v", Type: types.StringType}}, PrimaryKey: []string{"id"}}, BucketCount: 2}},
			} {
				if _, err := store.CreateTable(ctx, fluss.TablePath{Database: "public", Table: d.name}, d.desc, false); err != nil {
					t.Fatal(err)
				}
			}
		}
		c := New(store, Options{ServerVersion: "15.8"})
		var out []string
		out = append(out, scanAll(t, c, "pg_catalog", "pg_class", "oid", "relname", "reltype")...)
		out = append(out, scanAll(t, c, "pg_catalog", "pg_constraint", "oid", "conname", "conrelid", "conindid")...)
		out = append(out, scanAll(t, c, "pg_catalog", "pg_proc", "oid", "proname")...)
		slices.Sort(out)
		return out
	}
	before := snapshot(true)
	after := snapshot(false)
	if !slices.Equal(before, after) {
		t.Errorf("OIDs changed across a restart:\nbefore %d rows, after %d", len(before), len(after))
		for i := range min(len(before), len(after)) {
			if before[i] != after[i] {
				t.Errorf("first difference: %q vs %q", before[i], after[i])
				break
			}
		}
	}
	for _, want := range []string{"orders_pkey", "|orders|", "|events|"} {
		if !slices.ContainsFunc(before, func(s string) bool { return strings.Contains(s, want) }) {
			t.Errorf("no row with %q among %d", want, len(before))
		}
	}
}
