package engine

import (
	"context"
	"slices"
	"strconv"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/views"
)

// ALTER INDEX (sql/alterindex.go) over the indexes sqlgate has: a
// primary key's (named by the table's PrimaryKeyName), a UNIQUE
// constraint's or unique index's (fluss.UniqueConstraint.Name) and a
// materialized view's (views.Index). Each name is metadata — a table's
// custom property, or the view's record — so RENAME TO changes it on
// either store, with nothing to move: the index table of a unique
// constraint is named by ids (fluss.IndexTablePath). A constraint and
// its index share their name, as PostgreSQL renames them together. What
// names an index elsewhere in the table's metadata (REPLICA IDENTITY
// USING INDEX, CLUSTER ON) follows the rename. The other actions have
// nothing to change: SET TABLESPACE pg_default is where every index is,
// OWNER TO is PostgreSQL's WARNING (an index is its table's owner's),
// SET STATISTICS is PostgreSQL's refusal for an index of plain columns,
// and storage parameters are refused (0A000): sqlgate's indexes have none.

// indexRef is an index sqlgate has.
type indexRef struct {
	// table is the index's table (primary key and unique indexes).
	table fluss.TableInfo
	pkey  bool
	// unique is a unique constraint's or index's (neither pkey nor view).
	unique fluss.UniqueConstraint
	// view is a materialized view's index, Matview.Indexes[viewIndex].
	view      *views.View
	viewIndex int
	// plain is CREATE INDEX's index (ddlindex.go), of table.
	plain *meta.Index
}

// name is the index's name.
func (r indexRef) name() string {
	switch {
	case r.view != nil:
		return r.view.Matview.Indexes[r.viewIndex].Name
	case r.plain != nil:
		return r.plain.Name
	case r.pkey:
		return r.table.PrimaryKeyName()
	}
	return r.unique.Name
}

// indexIn finds the index named name in schema db.
func (s *session) indexIn(ctx context.Context, db, name string) (indexRef, bool) {
	ts, err := s.eng.store.ListTables(ctx, db)
	if err == nil {
		for _, t := range ts {
			if t.HasPrimaryKey() && t.PrimaryKeyName() == name {
				return indexRef{table: t, pkey: true}, true
			}
			if !hasUniques(t.Descriptor) {
				continue
			}
			for _, u := range fluss.MetaOf(t.Descriptor).Uniques {
				if u.Name == name {
					return indexRef{table: t, unique: u}, true
				}
			}
		}
	}
	for _, v := range s.eng.meta.Views().List(db) {
		if v.Matview == nil {
			continue
		}
		if i := slices.IndexFunc(v.Matview.Indexes, func(ix views.Index) bool { return ix.Name == name }); i >= 0 {
			return indexRef{view: &v, viewIndex: i}, true
		}
	}
	if ix, t, ok := s.plainIndexIn(ctx, db, name); ok { // ddlindex.go
		return indexRef{table: t, plain: &ix}, true
	}
	return indexRef{}, false
}

// findIndex resolves an index's name as PostgreSQL resolves a
// relation's: in its schema when qualified, else in the first schema of
// the search path that has it.
func (s *session) findIndex(ctx context.Context, n sql.ObjectName) (indexRef, string, bool, error) {
	dbs := []string{n.Schema}
	if n.Schema == "" {
		var err error
		if dbs, err = s.eng.tables.existingPath(s.sessionCtx(ctx)); err != nil {
			return indexRef{}, "", false, err
		}
	}
	for _, db := range dbs {
		if r, ok := s.indexIn(ctx, db, n.Name); ok {
			return r, db, true, nil
		}
	}
	return indexRef{}, "", false, nil
}

// relationNamed reports whether a relation named name exists in db: a
// table, view, sequence or index (the names an index's new name must not
// take: 42P07).
func (s *session) relationNamed(ctx context.Context, db, name string) bool {
	if s.relationAtPath(ctx, fluss.TablePath{Database: db, Table: name}) { // comments.go
		return true
	}
	_, ok := s.indexIn(ctx, db, name)
	return ok
}

// alterIndex runs ALTER INDEX.
func (s *session) alterIndex(ctx context.Context, d *sql.DDLStmt) (pgwire.Result, error) {
	a := d.IndexAction
	r, db, found, err := s.findIndex(ctx, d.Table)
	if err != nil {
		return nil, err
	}
	if !found {
		if a.Kind == sql.IndexRename {
			// ALTER INDEX renames any relation in PostgreSQL, a table too
			if path, err := s.resolvePath(ctx, d.Table); err == nil && s.relationNamed(ctx, path.Database, path.Table) {
				res, err := s.renameRelation(ctx, &sql.DDLStmt{Table: d.Table, Actions: []sql.AlterAction{{Kind: sql.AlterRename, NewName: a.NewName}}})
				if err != nil {
					return nil, err
				}
				return tagOnly("ALTER INDEX"), resClose(res)
			}
		}
		if d.IfExists {
			return noticeResult("ALTER INDEX", skipped("relation", d.Table.Name)), nil
		}
		if path, err := s.resolvePath(ctx, d.Table); err == nil && s.relationAtPath(ctx, path) {
			return nil, sqlerr.New(sqlerr.WrongObjectType, "\"%s\" is not an index", d.Table.Name)
		}
		return nil, sqlerr.UndefinedRelation(d.Table.Name).
			WithHint("sqlgate's indexes are its tables' primary keys, UNIQUE constraints and unique indexes: CREATE INDEX of any other index makes none.")
	}
	if err := s.mayOwnIndex(r); err != nil {
		return nil, err
	}
	switch a.Kind {
	case sql.IndexRename:
		return s.renameIndex(ctx, r, db, a.NewName)
	case sql.IndexSetTablespace:
		switch a.NewName {
		case "pg_default":
			return tagOnly("ALTER INDEX"), nil // where every index is
		case "pg_global":
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "only shared relations can be placed in pg_global tablespace")
		}
		return nil, sqlerr.New(sqlerr.UndefinedObject, "tablespace \"%s\" does not exist", a.NewName)
	case sql.IndexOwner:
		role, err := s.ownerRole(a.NewName)
		if err != nil {
			return nil, err
		}
		owner := s.info.User
		if r.view == nil {
			s.eng.meta.AdoptOwner(r.table)
			owner = s.eng.meta.Access().Owner(r.table.TableID)
		} else {
			owner = s.eng.meta.Access().Owner(r.view.ACLKey())
		}
		if role == owner {
			return tagOnly("ALTER INDEX"), nil
		}
		w := sqlerr.New(sqlerr.Warning, "cannot change owner of index \"%s\"", r.name()).
			WithHint("Change the ownership of the index's table, instead.")
		w.Severity = "WARNING"
		return &noticeTagResult{tagResult: tagResult{tag: "ALTER INDEX"}, notices: []*sqlerr.Error{w}}, nil
	case sql.IndexSetStatistics:
		if r.plain != nil && plainExprColumn(*r.plain, a.Column) {
			return tagOnly("ALTER INDEX"), nil // an expression's statistics: the planner's, which keeps none
		}
		col := s.indexColumnName(r, a.Column)
		if col == "" {
			return nil, sqlerr.New(sqlerr.UndefinedColumn, "column number %s of relation \"%s\" does not exist", a.Column, r.name())
		}
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "cannot alter statistics on non-expression column \"%s\" of index \"%s\"", col, r.name()).
			WithHint("Alter statistics on table column instead.")
	case sql.IndexSetOptions, sql.IndexResetOptions:
		if r.plain != nil {
			return s.setIndexParams(ctx, *r.plain, a) // ddlindex.go
		}
		if _, err := indexParams("btree", a.Params); err != nil { // checked as PostgreSQL checks them first
			return nil, err
		}
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "ALTER INDEX ... SET | RESET (storage parameters) is not supported: sqlgate's indexes have no storage parameters").
			WithHint("Leave the parameters out: an index's fill factor and deduplication are the store's.")
	case sql.IndexDependsOnExtension:
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "ALTER INDEX ... DEPENDS ON EXTENSION is not supported: sqlgate's extensions own no objects")
	}
	return nil, sqlerr.New(sqlerr.InternalError, "unknown ALTER INDEX action %d", a.Kind)
}

// resClose closes a result whose tag is replaced (nil error).
func resClose(res pgwire.Result) error {
	if c, ok := res.(interface{ Close() }); ok {
		c.Close()
	}
	return nil
}

// mayOwnIndex checks that the session owns the index's table (an index's
// owner is its table's).
func (s *session) mayOwnIndex(r indexRef) error {
	if r.view != nil {
		if err := s.mayOwnMatview(*r.view); err != nil {
			return mustOwn("index", r.name())
		}
		return nil
	}
	if err := s.mayDrop(r.table); err != nil {
		return mustOwn("index", r.name())
	}
	return nil
}

// indexColumnName is the name of the index's column numbered n (1-based
// text), "" for none.
func (s *session) indexColumnName(r indexRef, n string) string {
	k := 0
	for _, c := range n {
		if c < '0' || c > '9' {
			return ""
		}
		k = k*10 + int(c-'0')
		if k > 1<<16 {
			return ""
		}
	}
	if r.view != nil {
		cols := r.view.Matview.Indexes[r.viewIndex].Columns
		if k < 1 || k > len(cols) {
			return ""
		}
		return cols[k-1]
	}
	if r.plain != nil {
		if k < 1 || k > len(r.plain.Keys)+len(r.plain.Include) {
			return ""
		}
		if k > len(r.plain.Keys) {
			return r.plain.Include[k-len(r.plain.Keys)-1]
		}
		if r.plain.Keys[k-1].Column == "" {
			return "expr" // an expression's column name
		}
		return r.plain.Keys[k-1].Column
	}
	var cols []int
	if r.pkey {
		for _, name := range r.table.Descriptor.Schema.PrimaryKey {
			cols = append(cols, r.table.ColumnIndex(name))
		}
	} else {
		cols = r.unique.Columns
	}
	if k < 1 || k > len(cols) || cols[k-1] < 0 {
		return ""
	}
	return r.table.Descriptor.Schema.Columns[cols[k-1]].Name
}

// renameIndex gives index r of schema db the name to (and its
// constraint, which shares it).
func (s *session) renameIndex(ctx context.Context, r indexRef, db, to string) (pgwire.Result, error) {
	if err := s.blockDDL("ALTER INDEX", nil); err != nil {
		return nil, err
	}
	if s.relationNamed(ctx, db, to) { // its own name too, as PostgreSQL
		return nil, sqlerr.RelationExists(to)
	}
	if r.view == nil && r.plain == nil && (r.pkey || !r.unique.Index) && slices.Contains(constraintNames(r.table), to) {
		// a constraint's index: the constraint is renamed with it
		return nil, sqlerr.New(sqlerr.DuplicateObject, "constraint \"%s\" for relation \"%s\" already exists", to, r.table.Path.Table)
	}
	if r.view != nil {
		return s.renameMatviewIndex(ctx, r, to)
	}
	if r.plain != nil {
		return tagOnly("ALTER INDEX"), s.renamePlainIndex(ctx, r.plain.OID, to) // ddlindex.go
	}
	if err := s.renameTableIndex(ctx, r, to); err != nil {
		return nil, err
	}
	return tagOnly("ALTER INDEX"), nil
}

// renameTableIndex renames a table's primary key or unique constraint
// (its index with it) in the table's metadata.
func (s *session) renameTableIndex(ctx context.Context, r indexRef, to string) error {
	alt, ok := s.eng.store.(fluss.TableAlterer)
	if !ok {
		return sqlerr.New(sqlerr.FeatureNotSupported, "renaming an index is not supported on this store")
	}
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	defer s.eng.ddl.Unlock()
	info, err := s.eng.storeTable(ctx, r.table.Path) // as it is under the lock
	if err != nil {
		return err
	}
	if info.TableID != r.table.TableID {
		return sqlerr.New(sqlerr.SerializationFailure, "could not serialize access due to concurrent update")
	}
	changes, ok := indexRenameChanges(info, r.name(), to)
	if !ok {
		return sqlerr.New(sqlerr.SerializationFailure, "could not serialize access due to concurrent update").
			WithDetail("Index \"%s\" was dropped or renamed meanwhile.", r.name())
	}
	_, err = alt.AlterTable(ctx, info.Path, changes)
	return err
}

// indexRenameChanges are the metadata changes that rename info's primary
// key or unique constraint from to to, and the index names REPLICA
// IDENTITY USING INDEX and CLUSTER ON keep; ok is false when the table
// has no such constraint.
func indexRenameChanges(info fluss.TableInfo, from, to string) ([]fluss.TableChange, bool) {
	var changes []fluss.TableChange
	switch {
	case info.HasPrimaryKey() && info.PrimaryKeyName() == from:
		changes = append(changes, fluss.TableChange{Kind: fluss.ChangeSetProperty, Key: fluss.PrimaryKeyNameProperty, Value: to})
	default:
		byName, _ := uniqueNumbers(info.Descriptor)
		n, ok := byName[from]
		if !ok {
			return nil, false
		}
		key := fluss.MetaPrefix + "unique." + strconv.Itoa(n) + ".name" // (fluss.UniqueProperties)
		changes = append(changes, fluss.TableChange{Kind: fluss.ChangeSetProperty, Key: key, Value: to})
	}
	for _, k := range []string{fluss.ReplicaIndexKey, fluss.ClusterIndexKey} {
		if info.Descriptor.CustomProperties[k] == from || info.Descriptor.Properties[k] == from {
			changes = append(changes, fluss.TableChange{Kind: fluss.ChangeSetProperty, Key: k, Value: to})
		}
	}
	return changes, true
}

// renameMatviewIndex renames a materialized view's index in its record.
func (s *session) renameMatviewIndex(ctx context.Context, r indexRef, to string) (pgwire.Result, error) {
	from := r.name()
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	defer s.eng.ddl.Unlock()
	err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		cur, ok := tx.Views.Get(r.view.Path)
		if !ok || cur.Matview == nil {
			return sqlerr.UndefinedRelation(from)
		}
		mv := *cur.Matview
		mv.Indexes = slices.Clone(mv.Indexes)
		i := slices.IndexFunc(mv.Indexes, func(ix views.Index) bool { return ix.Name == from })
		if i < 0 {
			return sqlerr.UndefinedRelation(from)
		}
		mv.Indexes[i].Name = to
		_, err := tx.Views.SetMatview(r.view.Path, mv)
		return err
	})
	if err != nil {
		return nil, metaErr(err)
	}
	return tagOnly("ALTER INDEX"), nil
}

// uniqueUsingIndex is ALTER TABLE ... ADD [CONSTRAINT name] UNIQUE USING
// INDEX index: the unique index CREATE UNIQUE INDEX made becomes the
// constraint, renamed to its name (PostgreSQL's NOTICE says so), its
// index table kept as built. PostgreSQL's errors point at the action.
func (s *session) uniqueUsingIndex(ctx context.Context, c *checkActions, a sql.AlterAction) ([]fluss.TableChange, error) {
	work := c.work
	at := func(e *sqlerr.Error) error { return e.WithPosition(a.DefaultPos) }
	byName, _ := uniqueNumbers(work.Descriptor)
	k := slices.IndexFunc(fluss.MetaOf(work.Descriptor).Uniques, func(u fluss.UniqueConstraint) bool { return u.Name == a.NewName })
	if k < 0 {
		if work.HasPrimaryKey() && work.PrimaryKeyName() == a.NewName {
			return nil, at(sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "index \"%s\" is already associated with a constraint", a.NewName))
		}
		if _, ok := s.indexIn(ctx, work.Path.Database, a.NewName); ok {
			return nil, at(sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "index \"%s\" does not belong to table \"%s\"", a.NewName, work.Path.Table))
		}
		return nil, at(sqlerr.New(sqlerr.UndefinedObject, "index \"%s\" does not exist", a.NewName))
	}
	u := fluss.MetaOf(work.Descriptor).Uniques[k]
	if !u.Index {
		return nil, at(sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "index \"%s\" is already associated with a constraint", a.NewName))
	}
	name := a.Constraint
	if name == "" {
		name = a.NewName
	}
	taken := slices.Contains(constraintNames(work), name)
	if taken && name == u.Name {
		// PostgreSQL fails here on its catalog's unique index over
		// constraint names (23505); the name is another constraint's
		return nil, sqlerr.New(sqlerr.DuplicateObject, "constraint \"%s\" for relation \"%s\" already exists", name, work.Path.Table)
	}
	n := byName[u.Name]
	prefix := fluss.MetaPrefix + "unique." + strconv.Itoa(n) + "." // (fluss.UniqueProperties)
	changes := []fluss.TableChange{{Kind: fluss.ChangeResetProperty, Key: prefix + "index"}}
	if name != u.Name {
		c.notices = append(c.notices, sqlerr.New(sqlerr.SuccessfulCompletion, "ALTER TABLE / ADD CONSTRAINT USING INDEX will rename index \"%s\" to \"%s\"", u.Name, name))
		if s.relationNamed(ctx, work.Path.Database, name) {
			return nil, sqlerr.RelationExists(name)
		}
		if taken {
			return nil, sqlerr.New(sqlerr.DuplicateObject, "constraint \"%s\" for relation \"%s\" already exists", name, work.Path.Table)
		}
		changes = append(changes, fluss.TableChange{Kind: fluss.ChangeSetProperty, Key: prefix + "name", Value: name})
	}
	return changes, nil
}
