package meta

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/views"
)

// Reconcile brings the metadata in line with the tables the store holds,
// which are the truth: a table's row of grants (keyed by its table id)
// whose table is gone, or was dropped and created again under a new id, is
// swept; so is a view that names a table that is gone (with the views that
// name it); a row or view naming a table that was renamed (found by its
// id in the same database) follows it to its new name; and a table whose
// OwnerProperty names an owner the metadata lacks gets it; a table
// TRUNCATE re-created (fluss.GrantsFromProperty) whose grants are still
// under the old id takes them. These are what a crash between a table change and the
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
	grantsFrom := map[int64]int64{}      // re-created table -> the id whose grants it takes
	carries := func(info fluss.TableInfo) {
		if from, err := strconv.ParseInt(info.Descriptor.CustomProperties[fluss.GrantsFromProperty], 10, 64); err == nil {
			grantsFrom[info.TableID] = from
		}
	}
	resolve := func(p fluss.TablePath) (int64, error) {
		if id, ok := ids[p]; ok {
			return id, nil
		}
		info, err := cat.GetTable(ctx, p)
		switch {
		case err == nil:
			ids[p] = info.TableID
			carries(info)
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
	// whereIs finds a table by id among its database's tables: one renamed
	// (ALTER TABLE ... RENAME TO) before the metadata that names it
	// followed (a crash between the store's commit and this one's).
	listed := map[string][]fluss.TableInfo{}
	whereIs := func(id int64, db string) (fluss.TablePath, bool, error) {
		tables, ok := listed[db]
		if !ok {
			var err error
			if tables, err = cat.ListTables(ctx, db); err != nil && sqlerr.CodeOf(err) != sqlerr.InvalidSchemaName {
				return fluss.TablePath{}, false, err
			}
			listed[db] = tables
		}
		for _, t := range tables {
			if t.TableID == id {
				return t.Path, true, nil
			}
		}
		return fluss.TablePath{}, false, nil
	}
	// moved: grants rows that move to their renamed table's name;
	// follow: views whose definitions name a renamed table anew.
	moved := map[int64]fluss.TablePath{}
	follow := map[fluss.TablePath][][2]fluss.TablePath{}
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
			to, found, err := whereIs(id, p.Database)
			if err != nil {
				return err
			}
			if found {
				moved[id] = to
			} else {
				staleACL[id] = true
			}
		}
	}
	gone := map[fluss.TablePath]bool{}
	retarget := map[fluss.TablePath][][2]int64{} // views to move from a replaced table's id to its successor's
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
					if got != u.TableID && got != 0 && grantsFrom[got] == u.TableID {
						// the table at the path replaced the one the view
						// used (TRUNCATE's re-creation, ALTER TABLE's
						// rewrite: fluss.GrantsFromProperty): the view
						// follows it
						retarget[v.Path] = append(retarget[v.Path], [2]int64{u.TableID, got})
					} else if got != u.TableID {
						to, found, err := whereIs(u.TableID, u.Path.Database)
						if err != nil {
							return err
						}
						if found && !hasMove(follow[v.Path], u.Path) {
							follow[v.Path] = append(follow[v.Path], [2]fluss.TablePath{u.Path, to})
						}
						dangling = !found
					}
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
	for d := range dbs {
		tables, err := cat.ListTables(ctx, d)
		if err != nil {
			continue // only owners to adopt are looked for here: they wait for the next start, or AdoptOwner
		}
		for _, t := range tables {
			carries(t)
			if t.Descriptor.CustomProperties[OwnerProperty] != "" {
				owner[t.TableID] = t
			}
		}
	}
	for p := range follow {
		if gone[p] {
			delete(follow, p) // it also names a table that is gone
		}
	}
	adopt := map[int64]fluss.TableInfo{}
	for id, info := range owner {
		if acl.Owner(id) != info.Descriptor.CustomProperties[OwnerProperty] && acl.Owner(id) == "" {
			adopt[id] = info
		}
	}
	// A table re-created empty (TRUNCATE of a log table) whose grants had
	// not moved to it yet takes them, instead of their being swept.
	carry := map[int64]int64{} // old id -> new id
	hasRow := map[int64]bool{}
	for _, id := range acl.Keys() {
		hasRow[id] = true
	}
	for to, from := range grantsFrom {
		if staleACL[from] && !hasRow[to] {
			carry[from] = to
			delete(staleACL, from)
			delete(adopt, to)
		}
	}
	for p := range retarget {
		if gone[p] {
			delete(retarget, p)
		}
	}
	if len(staleACL) == 0 && len(gone) == 0 && len(adopt) == 0 && len(moved) == 0 && len(follow) == 0 && len(carry) == 0 && len(retarget) == 0 {
		return nil
	}
	return m.Update(ctx, func(tx *Tx) error {
		for p, ids := range retarget {
			v, ok := tx.Views.Get(p)
			if !ok {
				continue
			}
			v.Uses = slices.Clone(v.Uses)
			for i := range v.Uses {
				for _, id := range ids {
					if v.Uses[i].TableID == id[0] {
						v.Uses[i].TableID = id[1]
					}
				}
			}
			if _, err := tx.Views.Create(v, true); err != nil {
				return err
			}
		}
		for p, moves := range follow {
			v, ok := tx.Views.Get(p)
			if !ok {
				continue
			}
			for _, mv := range moves {
				v, _ = FollowRename(v, mv[0], mv[1])
			}
			if _, err := tx.Views.Create(v, true); err != nil {
				return err
			}
		}
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
		for from, to := range carry {
			tx.MoveIndexes(from, to)
			if err := tx.Access.Move(from, to); err != nil {
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

func hasMove(moves [][2]fluss.TablePath, from fluss.TablePath) bool {
	for _, m := range moves {
		if m[0] == from {
			return true
		}
	}
	return false
}

// FollowRename is view v after the relation it uses at from was renamed
// to to: its definition names to (the old name kept as the alias:
// sql.RenameInDefinition), and its uses list says so. ok is false when
// the definition does not name from where a relation name stands.
func FollowRename(v views.View, from, to fluss.TablePath) (_ views.View, ok bool) {
	def, ok := sql.MoveInDefinition(v.Definition, from.Database, from.Table, to.Database, to.Table)
	if ok {
		v.Definition, v.Pretty, v.Plain = def, "", ""
	}
	uses := make([]views.Relation, len(v.Uses))
	for i, u := range v.Uses {
		if u.Path == from {
			u.Path = to
		}
		uses[i] = u
	}
	v.Uses = uses
	return v, ok
}
