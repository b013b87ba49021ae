package meta

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/sqlgate/sqlgate/access"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/views"
)

var ctx = context.Background()

func view(db, name string, uses ...views.Relation) views.View {
	return views.View{Path: fluss.TablePath{Database: db, Table: name}, Definition: "SELECT 1",
		Columns: []views.Column{{Name: "x", Type: types.T{Kind: types.Int32}}}, Uses: uses}
}

// Everything a change makes commits together, survives a reopen, and a
// failed change leaves nothing behind.
func TestFileUpdateIsOneCommit(t *testing.T) {
	dir := t.TempDir()
	m, err := OpenFile(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	err = m.Update(ctx, func(tx *Tx) error {
		v, err := tx.Views.Create(view("public", "v"), false)
		if err != nil {
			return err
		}
		if err := tx.Access.SetOwner(v.ACLKey(), v.Path.String(), "alice"); err != nil {
			return err
		}
		if err := tx.Access.Grant(7, "public.t", "bob", access.Select, false); err != nil {
			return err
		}
		tx.Users["alice"] = pgwire.UserEntry{Superuser: true}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err = m.Update(ctx, func(tx *Tx) error {
		if _, err := tx.Views.Create(view("public", "w"), false); err != nil {
			return err
		}
		delete(tx.Users, "alice")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("failed change: %v", err)
	}
	for _, s := range []*Store{m, reopen(t, dir)} {
		v, ok := s.Views().Get(fluss.TablePath{Database: "public", Table: "v"})
		if !ok || s.Access().Owner(v.ACLKey()) != "alice" {
			t.Errorf("view v or its owner missing: %v %q", ok, s.Access().Owner(v.ACLKey()))
		}
		if _, ok := s.Views().Get(fluss.TablePath{Database: "public", Table: "w"}); ok {
			t.Error("the failed change's view is there")
		}
		if !s.Access().Has("bob", 7, access.Select) {
			t.Error("grant missing")
		}
		if ok, super := s.Role("alice"); !ok || !super {
			t.Errorf("user alice: %v %v", ok, super)
		}
	}
}

func reopen(t *testing.T, dir string) *Store {
	t.Helper()
	m, err := OpenFile(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The files of older versions are moved in once, and renamed.
func TestMigratesLegacyFiles(t *testing.T) {
	dir := t.TempDir()
	vs, err := views.Open(filepath.Join(dir, "views.json"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := vs.Create(view("public", "old"), false)
	if err != nil {
		t.Fatal(err)
	}
	acl, err := access.Open(filepath.Join(dir, "privileges.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := acl.SetOwner(v.ACLKey(), v.Path.String(), "carol"); err != nil {
		t.Fatal(err)
	}
	if err := acl.Grant(3, "public.t", "dave", access.Insert, true); err != nil {
		t.Fatal(err)
	}
	m := reopen(t, dir)
	for _, name := range []string{"views.json", "privileges.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s not renamed: %v", name, err)
		}
		if _, err := os.Stat(filepath.Join(dir, name+".migrated")); err != nil {
			t.Errorf("%s.migrated: %v", name, err)
		}
	}
	for _, s := range []*Store{m, reopen(t, dir)} {
		got, ok := s.Views().Get(v.Path)
		if !ok || got.ID != v.ID || s.Access().Owner(v.ACLKey()) != "carol" || !s.Access().CanGrant("dave", 3, access.Insert) {
			t.Errorf("migrated state: view %v %+v, owner %q", ok, got, s.Access().Owner(v.ACLKey()))
		}
	}
	// A new view does not reuse the migrated id.
	if err := m.Update(ctx, func(tx *Tx) error {
		w, err := tx.Views.Create(view("public", "new"), false)
		if err == nil && w.ID <= v.ID {
			t.Errorf("new view id %d, migrated %d", w.ID, v.ID)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

func openEmbedded(t *testing.T) *embedded.Store {
	t.Helper()
	st, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func createTable(t *testing.T, st fluss.Store, name, owner string) fluss.TableInfo {
	t.Helper()
	desc := fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{{Name: "a", Type: types.T{Kind: types.Int32}}}}}
	if owner != "" {
		desc.CustomProperties = map[string]string{OwnerProperty: owner}
	}
	info, err := st.CreateTable(ctx, fluss.TablePath{Database: fluss.DefaultDatabase, Table: name}, desc, false)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// Reconcile repairs what a crash between a table change and its metadata
// commit leaves: the owner of a new table, the grants of a dropped one,
// and the views over a dropped table (and the views over those).
func TestReconcileRepairsTheGapAfterATableChange(t *testing.T) {
	st := openEmbedded(t)
	kept := createTable(t, st, "kept", "alice")
	newer := createTable(t, st, "newer", "bob") // its owner's row never committed
	gone := createTable(t, st, "gone", "alice")
	m := Memory()
	err := m.Update(ctx, func(tx *Tx) error {
		for _, info := range []fluss.TableInfo{kept, gone} {
			if err := tx.Access.SetOwner(info.TableID, info.Path.String(), "alice"); err != nil {
				return err
			}
			if err := tx.Access.Grant(info.TableID, info.Path.String(), "reader", access.Select, false); err != nil {
				return err
			}
		}
		v1, err := tx.Views.Create(view("public", "on_gone", views.Relation{Path: gone.Path, TableID: gone.TableID}), false)
		if err != nil {
			return err
		}
		if _, err := tx.Views.Create(view("public", "on_view", views.Relation{Path: v1.Path, ViewID: v1.ID}), false); err != nil {
			return err
		}
		_, err = tx.Views.Create(view("public", "on_kept", views.Relation{Path: kept.Path, TableID: kept.TableID}), false)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.DropTable(ctx, gone.Path, false); err != nil { // then the "crash"
		t.Fatal(err)
	}
	if err := m.Reconcile(ctx, st); err != nil {
		t.Fatal(err)
	}
	a := m.Access()
	if a.Owner(newer.TableID) != "bob" {
		t.Errorf("owner of newer: %q", a.Owner(newer.TableID))
	}
	if a.Owner(gone.TableID) != "" || a.Has("reader", gone.TableID, access.Select) {
		t.Error("the dropped table's grants were not swept")
	}
	if !a.Has("reader", kept.TableID, access.Select) || a.Owner(kept.TableID) != "alice" {
		t.Error("the kept table lost its grants")
	}
	var names []string
	for _, v := range m.Views().List("") {
		names = append(names, v.Path.Table)
	}
	if len(names) != 1 || names[0] != "on_kept" {
		t.Errorf("views after reconcile: %v, want [on_kept]", names)
	}
	// A table created again under the same name does not inherit.
	again := createTable(t, st, "gone", "carol")
	if err := m.Reconcile(ctx, st); err != nil {
		t.Fatal(err)
	}
	if m.Access().Has("reader", again.TableID, access.Select) || m.Access().Owner(again.TableID) != "carol" {
		t.Error("the re-created table inherited grants, or lacks its owner")
	}
}

// A log table TRUNCATE re-created (a new id, naming the old one in
// fluss.GrantsFromProperty) takes the old id's grants when a crash came
// before they moved; a table merely created again under the name does not
// (above), and one whose grants did move keeps them.
func TestReconcileCarriesGrantsOfARecreatedTable(t *testing.T) {
	st := openEmbedded(t)
	for _, moved := range []bool{false, true} {
		name := fmt.Sprintf("logt_%v", moved)
		old := createTable(t, st, name, "alice")
		m := Memory()
		err := m.Update(ctx, func(tx *Tx) error {
			if err := tx.Access.SetOwner(old.TableID, old.Path.String(), "alice"); err != nil {
				return err
			}
			return tx.Access.Grant(old.TableID, old.Path.String(), "reader", access.Select, false)
		})
		if err != nil {
			t.Fatal(err)
		}
		desc := old.Descriptor
		desc.CustomProperties = maps.Clone(desc.CustomProperties)
		desc.CustomProperties[fluss.GrantsFromProperty] = strconv.FormatInt(old.TableID, 10)
		created, err := st.RecreateTable(ctx, old.Path, desc)
		if err != nil {
			t.Fatal(err)
		}
		if moved {
			if err := m.Update(ctx, func(tx *Tx) error { return tx.Access.Move(old.TableID, created.TableID) }); err != nil {
				t.Fatal(err)
			}
		} // else the "crash"
		if err := m.Reconcile(ctx, st); err != nil {
			t.Fatal(err)
		}
		a := m.Access()
		if !a.Has("reader", created.TableID, access.Select) || a.Owner(created.TableID) != "alice" {
			t.Errorf("moved=%v: the re-created table lacks its grants or owner (owner %q)", moved, a.Owner(created.TableID))
		}
		if slices.Contains(a.Keys(), old.TableID) {
			t.Errorf("moved=%v: the old id's row is still there", moved)
		}
	}
}

// Two stores over one metadata table (two servers over one cluster; here
// the embedded store stands in for the cluster's table API) see each
// other's commits at their next Refresh, deletions included.
func TestTableBackendSharesBetweenStores(t *testing.T) {
	st := openEmbedded(t)
	a, err := OpenTable(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	b, err := OpenTable(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	grant := func(m *Store, revoke bool) {
		t.Helper()
		err := m.Update(ctx, func(tx *Tx) error {
			if revoke {
				return tx.Access.Revoke(9, "public.t", "reader", access.Select, false)
			}
			if _, err := tx.Views.Create(view("public", "v"), false); err != nil {
				return err
			}
			tx.Users["reader"] = pgwire.UserEntry{}
			return tx.Access.Grant(9, "public.t", "reader", access.Select, false)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	grant(a, false)
	if b.Access().Has("reader", 9, access.Select) {
		t.Fatal("b saw the grant before refreshing")
	}
	if err := b.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if _, ok := b.Views().Get(fluss.TablePath{Database: "public", Table: "v"}); !ok || !b.Access().Has("reader", 9, access.Select) {
		t.Fatal("b did not see a's view and grant after Refresh")
	}
	if ok, _ := b.Role("reader"); !ok {
		t.Fatal("b did not see a's user")
	}
	grant(b, true)
	if err := a.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if a.Access().Has("reader", 9, access.Select) {
		t.Fatal("a still sees the revoked grant")
	}
	// Dropping a user deletes its row; a third store loading afresh agrees.
	if err := a.Update(ctx, func(tx *Tx) error { delete(tx.Users, "reader"); return nil }); err != nil {
		t.Fatal(err)
	}
	c, err := OpenTable(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := c.Role("reader"); ok {
		t.Error("a dropped user came back")
	}
	if _, ok := c.Views().Get(fluss.TablePath{Database: "public", Table: "v"}); !ok {
		t.Error("the view is missing from a fresh load")
	}
}

// The users file is imported when it changed, and a user it no longer
// lists goes; users made otherwise stay.
func TestImportUsers(t *testing.T) {
	m := Memory()
	if err := m.Update(ctx, func(tx *Tx) error { tx.Users["sqlrole"] = pgwire.UserEntry{}; return nil }); err != nil {
		t.Fatal(err)
	}
	f := &pgwire.Users{Users: map[string]pgwire.UserEntry{"alice": {SCRAM: "x", Superuser: true}, "bob": {SCRAM: "y"}}}
	if err := m.ImportUsers(ctx, f); err != nil {
		t.Fatal(err)
	}
	if got := m.UserNames(); len(got) != 3 {
		t.Fatalf("users %v", got)
	}
	delete(f.Users, "bob")
	if err := m.ImportUsers(ctx, f); err != nil {
		t.Fatal(err)
	}
	if got := m.UserNames(); len(got) != 2 || got[0] != "alice" || got[1] != "sqlrole" {
		t.Fatalf("after bob left the file: %v", got)
	}
}

// A row of a kind this version does not know (a newer sqlgate's, on a
// shared cluster) is kept through this version's commits.
func TestUnknownRowsAreKept(t *testing.T) {
	st := openEmbedded(t)
	m, err := OpenTable(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	b := m.b.(*tableBackend)
	if err := b.commit(ctx, map[string]string{"sequence/7": `{"next":3}`}, "newer"); err != nil {
		t.Fatal(err)
	}
	if err := m.Update(ctx, func(tx *Tx) error { tx.Users["x"] = pgwire.UserEntry{}; return nil }); err != nil {
		t.Fatal(err)
	}
	rows, _, err := b.load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rows["sequence/7"] != `{"next":3}` || rows["user/x"] == "" {
		t.Errorf("rows after an older server's commit: %v", rows)
	}
}
