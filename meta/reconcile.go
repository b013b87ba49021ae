package meta

import (
	"context"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/views"
)

// Reconcile brings the metadata in line with the tables the store holds,
// which are the truth: a table's row of grants (keyed by its table id)
// whose table is gone, or was dropped and created again under a new id, is
// swept; so is a view that names a table that is gone (with the views that
// name it); and a table whose OwnerProperty names an owner the metadata
// lacks gets it. These are what a crash between a table change and the
// metadata commit that follows it leaves, and what a server that dropped a
// table on a cluster leaves for the others. The server runs it when it
// starts; it commits only when something changed.
//
// databases are searched for tables missing an owner, besides those the
// metadata names. Only a definite "no such table" sweeps: a store that
// cannot answer fails the call and sweeps nothing.
func (m *Store) Reconcile(ctx context.Context, cat fluss.Catalog, databases ...string) error {
	ids := map[fluss.TablePath]int64{}   // resolved paths: id, or 0 when gone
	owner := map[int64]fluss.TableInfo{} // tables carrying an owner
	resolve := func(p fluss.TablePath) (int64, error) {
		if id, ok := ids[p]; ok {
			return id, nil
		}
		info, err := cat.GetTable(ctx, p)
		switch {
		case err == nil:
			ids[p] = info.TableID
			if info.Descriptor.CustomProperties[OwnerProperty] != "" {
				owner[info.TableID] = info
			}
		case sqlerr.CodeOf(err) == sqlerr.UndefinedTable:
			ids[p] = 0
		default:
			return 0, err
		}
		return ids[p], nil
	}
	acl, vs := m.Access(), m.Views()
	dbs := map[string]bool{fluss.DefaultDatabase: true}
	for _, d := range databases {
		dbs[d] = true
	}
	staleACL := map[int64]bool{}
	for _, id := range acl.Keys() {
		if id < 0 {
			continue // a view's: swept with the view
		}
		p, ok := parsePath(acl.PathOf(id))
		if !ok {
			continue // no path to check it by: kept
		}
		dbs[p.Database] = true
		got, err := resolve(p)
		if err != nil {
			return err
		}
		if got != id {
			staleACL[id] = true
		}
	}
	gone := map[fluss.TablePath]bool{}
	all := vs.List("")
	for changed := true; changed; {
		changed = false
		for _, v := range all {
			if gone[v.Path] {
				continue
			}
			dbs[v.Path.Database] = true
			for _, u := range v.Uses {
				dangling := false
				if u.TableID != 0 {
					got, err := resolve(u.Path)
					if err != nil {
						return err
					}
					dangling = got != u.TableID
				} else if u.ViewID != 0 {
					w, ok := vs.ByID(u.ViewID)
					dangling = !ok || gone[w.Path]
				}
				if dangling {
					gone[v.Path], changed = true, true
					break
				}
			}
		}
	}
	// A grants row whose table is found by id under another name belongs
	// to a table renamed (ALTER TABLE ... RENAME TO) before the row's path
	// followed it (a crash between the store's commit and this one's): it
	// moves to the table's name instead of being swept.
	moved := map[int64]fluss.TablePath{}
	for d := range dbs {
		tables, err := cat.ListTables(ctx, d)
		if err != nil {
			continue // only owners to adopt and renamed tables are looked for here: they wait for the next start
		}
		for _, t := range tables {
			if t.Descriptor.CustomProperties[OwnerProperty] != "" {
				owner[t.TableID] = t
			}
			if staleACL[t.TableID] {
				moved[t.TableID] = t.Path
				delete(staleACL, t.TableID)
			}
		}
	}
	adopt := map[int64]fluss.TableInfo{}
	for id, info := range owner {
		if acl.Owner(id) != info.Descriptor.CustomProperties[OwnerProperty] && acl.Owner(id) == "" {
			adopt[id] = info
		}
	}
	if len(staleACL) == 0 && len(gone) == 0 && len(adopt) == 0 && len(moved) == 0 {
		return nil
	}
	return m.Update(ctx, func(tx *Tx) error {
		for id, p := range moved {
			if err := tx.Access.SetOwner(id, p.String(), tx.Access.Owner(id)); err != nil {
				return err
			}
		}
		for id := range staleACL {
			if err := tx.Access.Forget(id); err != nil {
				return err
			}
		}
		for p := range gone {
			if v, ok := tx.Views.Get(p); ok {
				if err := tx.Views.Drop(p); err != nil {
					return err
				}
				if err := tx.Access.Forget(views.ACLKeyOf(v.ID)); err != nil {
					return err
				}
			}
		}
		for id, info := range adopt {
			if err := tx.Access.SetOwner(id, info.Path.String(), info.Descriptor.CustomProperties[OwnerProperty]); err != nil {
				return err
			}
		}
		return nil
	})
}

// parsePath reads back TablePath.String ("database.table").
func parsePath(s string) (fluss.TablePath, bool) {
	db, t, ok := strings.Cut(s, ".")
	if !ok || db == "" || t == "" {
		return fluss.TablePath{}, false
	}
	return fluss.TablePath{Database: db, Table: t}, true
}
