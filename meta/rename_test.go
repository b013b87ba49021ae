package meta

import (
	"testing"

	"github.com/sqlgate/sqlgate/access"
	"github.com/sqlgate/sqlgate/fluss"
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
