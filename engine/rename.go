package engine

import (
	"context"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/views"
)

// ALTER TABLE | VIEW ... RENAME TO, as dbt's materializations send it
// (they build a model as name__dbt_tmp, move the old one aside as
// name__dbt_backup and the new one in, then drop the backup), with
// PostgreSQL's rules: ALTER TABLE renames a table or a view, ALTER VIEW a
// view only (42809 for a table); the new name must be free among the
// schema's tables and views (42P07); IF EXISTS turns a missing relation
// into a NOTICE.
//
//   - A view is sqlgate's own: it keeps its id, owner, grants and
//     definition, and moves in one metadata commit, on both stores.
//   - A table on the embedded store is renamed in the store's catalog, one
//     atomic catalog write (fluss/embedded/rename.go); its grants row,
//     keyed by table id, follows in the metadata commit after (a crash
//     between the two is mended by meta.Reconcile, which finds the table
//     by id).
//   - A table on a Fluss cluster cannot be renamed: Fluss 0.9.1's Admin
//     API has no rename (nor does 1.0's). A copy under the new name would
//     not be the same table to anything else reading the cluster (a new
//     table id, new log offsets, Flink jobs and other servers still on the
//     old name) and would take as long as the table is large, so sqlgate
//     refuses with 0A000 and says how to copy it explicitly.
//
// The views over the relation follow it, as PostgreSQL's do (they hold
// its oid): sqlgate keeps a view's definition as written, so each is
// rewritten to name the new name, with the old one as its alias
// (sql.RenameInDefinition), and stored in the same metadata commit as the
// view's rename, or in the commit after the table's (a crash between the
// two leaves them naming the old name; meta.Reconcile finds the table by
// its id at the next start and makes them follow). dbt relies on it: a view model over
// a table model follows the old table to x__dbt_backup and goes with it
// at DROP ... CASCADE (cascade.go).

// renameRelation runs ALTER TABLE | VIEW ... RENAME TO (and ALTER VIEW's
// other forms, which it refuses once it knows the view exists).
func (s *session) renameRelation(ctx context.Context, d *sql.DDLStmt) (pgwire.Result, error) {
	tag := "ALTER TABLE"
	if d.View {
		tag = "ALTER VIEW"
	}
	from, err := s.resolvePath(ctx, d.Table)
	if err != nil {
		return nil, err
	}
	view, isView := s.eng.meta.Views().Get(from)
	isView = isView && !s.droppedInBlock(from)
	var info fluss.TableInfo
	if !isView {
		info, err = s.eng.storeTable(ctx, from)
		if err == nil && s.droppedInBlock(from) { // tablestmts.go dropInBlock
			err = sqlerr.UndefinedRelation(from.Table)
		}
		if err != nil {
			if sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
				return nil, err
			}
			if q, ok := s.eng.store.(fluss.SequenceStore); ok {
				if _, err := q.GetSequence(ctx, from); err == nil {
					switch {
					case d.View:
						return nil, notA("view", from.Table)
					case d.Actions[0].Kind == sql.AlterRename: // ALTER TABLE of a sequence: sequencerename.go
						return s.runSequence(ctx, &sql.SequenceStmt{Op: sql.AlterSequence, Names: []sql.ObjectName{{Schema: from.Database, Name: from.Table}},
							RenameTo: d.Actions[0].NewName}, tag)
					}
				}
			}
			if d.IfExists {
				return noticeResult(tag, skipped("relation", d.Table.Name)), nil
			}
			return nil, sqlerr.UndefinedRelation(d.Table.Name)
		}
		if d.View { // no hint, as PostgreSQL's RangeVarCallbackForAlterRelation
			return nil, notA("view", from.Table)
		}
	}
	a := d.Actions[0]
	if isView && (a.Kind == sql.AlterSetProperties || a.Kind == sql.AlterResetProperties) {
		return s.alterViewOptions(ctx, view, a, "ALTER VIEW") // views.go
	}
	if a.Kind == sql.AlterUnsupported {
		e := sqlerr.New(sqlerr.FeatureNotSupported, "%s", a.Unsupported)
		if a.Instead != "" {
			e = e.WithHint("%s", a.Instead)
		}
		return nil, e
	}
	to := fluss.TablePath{Database: from.Database, Table: a.NewName}
	if a.NewSchema != "" { // ALTER VIEW ... SET SCHEMA (only a view gets here)
		if err := s.schemaExists(ctx, a.NewSchema); err != nil {
			return nil, err
		}
		if to.Database = a.NewSchema; to == from {
			return tagOnly(tag), nil // PostgreSQL: nothing to do
		}
		if s.relationAtPath(ctx, to) {
			return nil, sqlerr.New(sqlerr.DuplicateTable, "relation \"%s\" already exists in schema \"%s\"", to.Table, to.Database)
		}
	}
	if err := s.dropNow(ctx, to); err != nil { // a table this block dropped
		return nil, err
	}
	if _, taken := s.eng.meta.Views().Get(to); taken {
		return nil, sqlerr.RelationExists(to.Table)
	}
	if _, err := s.eng.storeTable(ctx, to); err == nil {
		return nil, sqlerr.RelationExists(to.Table)
	} else if sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
		return nil, err
	}
	if q, ok := s.eng.store.(fluss.SequenceStore); ok {
		if _, err := q.GetSequence(ctx, to); err == nil {
			return nil, sqlerr.RelationExists(to.Table)
		}
	}
	deps, err := followers(s.eng.meta.Views().Dependents(from), from, to)
	if err != nil {
		return nil, err
	}
	if isView {
		return s.renameView(ctx, tag, view, to, deps)
	}
	return s.renameTable(ctx, info, to, deps)
}

// followers are the views over the relation at from, as they read once it
// is named to: their definitions name it so (sql.RenameInDefinition, with
// the old name as the alias), and what they use is at to. PostgreSQL's
// views follow a rename by the relation's oid; these follow it by the
// rewrite. A view whose definition names the relation in a way the
// rewrite does not find refuses the rename (0A000).
func followers(deps []views.View, from, to fluss.TablePath) ([]views.View, error) {
	out := make([]views.View, 0, len(deps))
	for _, d := range deps {
		d, ok := meta.FollowRename(d, from, to)
		if !ok {
			return nil, sqlerr.New(sqlerr.FeatureNotSupported, "cannot rename \"%s\": view \"%s\" depends on it in a way sqlgate cannot rewrite", from.Table, d.Path.Table).
				WithDetail("sqlgate keeps a view's definition as written, and names the renamed relation in it anew.").
				WithHint("Drop the view, rename, and create the view again over the new name.")
		}
		out = append(out, d)
	}
	return out, nil
}

// storeFollowers stores the views that follow a rename (same ids, owners
// and columns).
func storeFollowers(tx *meta.Tx, deps []views.View) error {
	for _, d := range deps {
		if _, err := tx.Views.Create(d, true); err != nil {
			return err
		}
	}
	return nil
}

// renameView moves a view in sqlgate's metadata, its grants row's name
// with it, in one commit.
func (s *session) renameView(ctx context.Context, tag string, v views.View, to fluss.TablePath, deps []views.View) (pgwire.Result, error) {
	if err := s.blockDDL(tag, nil); err != nil {
		return nil, err
	}
	if err := s.mayOwnView(v); err != nil {
		return nil, err
	}
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	defer s.eng.ddl.Unlock()
	err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		renamed, err := tx.Views.Rename(v.Path, to)
		if err != nil {
			return err
		}
		if err := storeFollowers(tx, deps); err != nil {
			return err
		}
		return tx.Access.SetOwner(renamed.ACLKey(), to.String(), tx.Access.Owner(renamed.ACLKey()))
	})
	if err != nil {
		return nil, metaErr(err)
	}
	s.renamedInBlock("VIEW", v.Path, to) // txundo.go
	return tagOnly(tag), nil
}

// renameTable renames a table in the store, then its grants row.
func (s *session) renameTable(ctx context.Context, info fluss.TableInfo, to fluss.TablePath, deps []views.View) (pgwire.Result, error) {
	renamer, ok := s.eng.store.(fluss.TableRenamer)
	if !ok {
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "ALTER TABLE ... RENAME TO is not supported on a Fluss cluster: Fluss 0.9.1 cannot rename a table").
			WithHint("Copy it explicitly: CREATE TABLE %s AS SELECT * FROM %s; then DROP TABLE %s (or name it in a view: CREATE VIEW %s AS SELECT * FROM %s).",
				nameSQL(to.Table), nameSQL(info.Path.Table), nameSQL(info.Path.Table), nameSQL(to.Table), nameSQL(info.Path.Table))
	}
	// Rows this transaction wrote to the table stay valid (same table id,
	// same schema): they follow the rename (followRename), as dbt's
	// CREATE TABLE x__dbt_tmp AS ...; ALTER TABLE x__dbt_tmp RENAME TO x
	// in one block needs.
	if err := s.blockDDL("ALTER TABLE", nil); err != nil {
		return nil, err
	}
	if err := s.mayDrop(info); err != nil { // the owner alone renames, as in PostgreSQL
		return nil, err
	}
	info, err := s.lockDDLTable(ctx, info.Path) // ddllock.go: its writers first
	if err != nil {
		return nil, err
	}
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	defer s.eng.ddl.Unlock()
	if err := keepPrimaryKeyName(ctx, s.eng.store, info); err != nil {
		return nil, err
	}
	renamed, err := renamer.RenameTable(ctx, info.Path, to)
	if err != nil {
		return nil, err
	}
	s.renamedInBlock("TABLE", info.Path, to) // txundo.go
	if err := s.followRename(ctx, renamed); err != nil {
		return nil, err
	}
	if err := s.fkFollowRename(ctx, info.Path, to); err != nil { // fkddl.go
		return nil, err
	}
	err = s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		if err := storeFollowers(tx, deps); err != nil {
			return err
		}
		id := renamed.TableID
		if tx.Access.PathOf(id) == "" {
			return nil // no row: the owner is in the table's properties
		}
		return tx.Access.SetOwner(id, to.String(), tx.Access.Owner(id))
	})
	if err != nil {
		return nil, metaErr(err)
	}
	return tagOnly("ALTER TABLE"), nil
}

// followRename points the rows the session's transaction holds for a
// table at its new name, and its reads at the table's new state, so that
// COMMIT writes them to the renamed table (same id; a table renamed
// again, or dropped, since is caught there by its id).
func (s *session) followRename(ctx context.Context, info fluss.TableInfo) error {
	for _, tx := range []*txn{s.tx, s.implicit, s.undoBlock} {
		if tx == nil {
			continue
		}
		pt, err := tx.pending(info.TableID)
		if pt == nil || err != nil {
			return err
		}
		t, err := s.eng.store.Table(ctx, info.Path)
		if err != nil {
			return err
		}
		pt.Rebase(info, t)
		pt.base = t
	}
	return nil
}

// keepPrimaryKeyName pins the name of a table's primary key (and its
// index), table_pkey, before the table is renamed: PostgreSQL's rename
// leaves the index's name as it was, and a name sqlgate derives from the
// table's would follow it. Set before the rename, so that a crash between
// the two leaves the name it had.
func keepPrimaryKeyName(ctx context.Context, store fluss.Store, info fluss.TableInfo) error {
	alt, ok := store.(fluss.TableAlterer)
	if !ok || !info.HasPrimaryKey() || info.Descriptor.CustomProperties[fluss.PrimaryKeyNameProperty] != "" {
		return nil
	}
	_, err := alt.AlterTable(ctx, info.Path, []fluss.TableChange{{Kind: fluss.ChangeSetProperty, Key: fluss.PrimaryKeyNameProperty, Value: info.PrimaryKeyName()}})
	return err
}
