package meta

import (
	"maps"
	"strconv"
	"testing"

	"github.com/sqlgate/sqlgate/access"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/views"
)

// TestReconcileFollowsARenamedTable: a table renamed in the store whose
// grants row still names the old path (a crash between the store's commit
// and the metadata's) keeps its grants: Reconcile finds it by id and moves
// the row to its new name, where a dropped table's row would be swept.
func TestReconcileFollowsARenamedTable(t *testing.T) {
	st := openEmbedded(t)
	info := createTable(t, st, "before", "alice")
	m := Memory()
	err := m.Update(ctx, func(tx *Tx) error {
		if err := tx.Access.SetOwner(info.TableID, info.Path.String(), "alice"); err != nil {
			return err
		}
		return tx.Access.Grant(info.TableID, info.Path.String(), "reader", access.Select, false)
	})
	if err != nil {
		t.Fatal(err)
	}
	to := fluss.TablePath{Database: info.Path.Database, Table: "after"}
	if _, err := st.RenameTable(ctx, info.Path, to); err != nil { // then the "crash"
		t.Fatal(err)
	}
	if err := m.Reconcile(ctx, st); err != nil {
		t.Fatal(err)
	}
	a := m.Access()
	if !a.Has("reader", info.TableID, access.Select) || a.Owner(info.TableID) != "alice" {
		t.Fatal("the renamed table lost its grants")
	}
	if got := a.PathOf(info.TableID); got != to.String() {
		t.Fatalf("grants row names %q, want %q", got, to.String())
	}
}

// TestReconcileMakesViewsFollowARenamedTable: a view over a table renamed
// in the store before the view's metadata followed (a crash between the
// two commits) is not swept as dangling: Reconcile finds the table by id
// and rewrites the view to name it.
func TestReconcileMakesViewsFollowARenamedTable(t *testing.T) {
	st := openEmbedded(t)
	info := createTable(t, st, "base", "alice")
	m := Memory()
	v := view("public", "over", views.Relation{Path: info.Path, TableID: info.TableID})
	v.Definition = "SELECT id FROM base WHERE base.id > 1"
	err := m.Update(ctx, func(tx *Tx) error {
		_, err := tx.Views.Create(v, false)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	to := fluss.TablePath{Database: info.Path.Database, Table: "base__dbt_backup"}
	if _, err := st.RenameTable(ctx, info.Path, to); err != nil { // then the "crash"
		t.Fatal(err)
	}
	if err := m.Reconcile(ctx, st); err != nil {
		t.Fatal(err)
	}
	got, ok := m.Views().Get(v.Path)
	if !ok {
		t.Fatal("the view over the renamed table was swept")
	}
	if want := `SELECT id FROM "public"."base__dbt_backup" AS "base" WHERE base.id > 1`; got.Definition != want {
		t.Fatalf("definition %q, want %q", got.Definition, want)
	}
	if len(got.Uses) != 1 || got.Uses[0].Path != to || got.Uses[0].TableID != info.TableID {
		t.Fatalf("uses %+v", got.Uses)
	}
}

// A view over a table that TRUNCATE re-created or ALTER TABLE rewrote (a
// new id at the same path, naming the old one in
// fluss.GrantsFromProperty) follows the new table when a crash came before
// its dependency moved, instead of being swept as a view over a table
// that is gone.
func TestReconcileMakesViewsFollowAReplacedTable(t *testing.T) {
	st := openEmbedded(t)
	old := createTable(t, st, "base", "alice")
	m := Memory()
	v := view("public", "over", views.Relation{Path: old.Path, TableID: old.TableID})
	err := m.Update(ctx, func(tx *Tx) error {
		_, err := tx.Views.Create(v, false)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	desc := old.Descriptor
	desc.CustomProperties = maps.Clone(desc.CustomProperties)
	desc.CustomProperties[fluss.GrantsFromProperty] = strconv.FormatInt(old.TableID, 10)
	created, err := st.RecreateTable(ctx, old.Path, desc) // then the "crash"
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Reconcile(ctx, st); err != nil {
		t.Fatal(err)
	}
	got, ok := m.Views().Get(v.Path)
	if !ok {
		t.Fatal("the view over the replaced table was swept")
	}
	if len(got.Uses) != 1 || got.Uses[0].TableID != created.TableID {
		t.Fatalf("uses %+v, want table id %d", got.Uses, created.TableID)
	}
}
