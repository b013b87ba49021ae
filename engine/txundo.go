package engine

import (
	"context"
	"maps"
	"reflect"
	"slices"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/views"
)

// The inverses a ROLLBACK runs for a transaction block's DDL (txddl.go):
// each statement that has a lossless one gives it (undoWith) once it made
// its change. Those of sqlgate's metadata (functions, types, domains,
// comments) restore what the statement changed there (undoMetaObjects);
// those of a table's in-place changes drop what it added and restore its
// properties (undoTableChange); the rest are sqlgate's own inverse
// statements (undoStatement: DROP of what was created, RENAME back).

// metaObjects are the metadata's objects a statement's undo restores.
type metaObjects struct {
	functions map[string]meta.Function
	types     map[uint32]meta.EnumType
	domains   map[uint32]meta.Domain
	comments  map[string]string
	indexes   map[uint32]meta.Index
}

// metaSnapshot reads the metadata's objects as they are now.
func (s *session) metaSnapshot(ctx context.Context) (metaObjects, error) {
	tx, err := s.eng.meta.Current(ctx)
	if err != nil {
		return metaObjects{}, err
	}
	return metaObjects{functions: tx.Functions, types: tx.Types, domains: tx.Domains, comments: tx.Comments, indexes: tx.Indexes}, nil
}

// undoMetaObjects, inside a block, reads the metadata's objects before the
// running statement changes them; the function it returns, called once the
// statement succeeded, gives the statement the inverse that restores what
// it changed of them (no change: a statement that changed nothing). It is
// for the statements that change only the metadata: CREATE FUNCTION /
// PROCEDURE, CREATE TYPE / DOMAIN, COMMENT ON an object of the metadata's.
func (s *session) undoMetaObjects(ctx context.Context) func() {
	if s.tx == nil || s.undoing {
		return func() {}
	}
	before, err := s.metaSnapshot(ctx)
	if err != nil {
		return func() {} // no inverse: the ROLLBACK warns of it
	}
	return func() {
		after, err := s.metaSnapshot(ctx)
		if err != nil {
			return
		}
		if !changedKeys(before.functions, after.functions) && !changedKeys(before.types, after.types) &&
			!changedKeys(before.domains, after.domains) && !changedKeys(before.comments, after.comments) &&
			!changedKeys(before.indexes, after.indexes) {
			s.changedNothing() // txddl.go
			return
		}
		s.undoWith(func(ctx context.Context) error {
			s.eng.ddl.Lock()
			defer s.eng.ddl.Unlock()
			s.eng.catalog.Add(1)
			err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
				tx.Functions = restoreKeys(tx.Functions, before.functions, after.functions)
				tx.Types = restoreKeys(tx.Types, before.types, after.types)
				tx.Domains = restoreKeys(tx.Domains, before.domains, after.domains)
				tx.Comments = restoreKeys(tx.Comments, before.comments, after.comments)
				tx.Indexes = restoreKeys(tx.Indexes, before.indexes, after.indexes)
				return nil
			})
			s.eng.publishEnumTypes() // enumtypes.go, domains.go: the registries the types feed
			s.eng.publishDomains()
			return err
		})
	}
}

// changedKeys reports whether before and after differ.
func changedKeys[K comparable, V any](before, after map[K]V) bool {
	return !reflect.DeepEqual(before, after) && (len(before) > 0 || len(after) > 0)
}

// restoreKeys gives cur back, of the keys that changed from before to
// after, before's values (a key before lacked goes), and leaves every
// other key as it is now.
func restoreKeys[K comparable, V any](cur, before, after map[K]V) map[K]V {
	if cur == nil {
		cur = map[K]V{}
	}
	for k, v := range after {
		if b, ok := before[k]; !ok {
			delete(cur, k)
		} else if !reflect.DeepEqual(b, v) {
			cur[k] = b
		}
	}
	for k, b := range before {
		if _, ok := after[k]; !ok {
			cur[k] = b
		}
	}
	return cur
}

// undoTableChange, inside a block, gives the running statement, which
// changed the table before was in place (ALTER TABLE's actions that
// add, CREATE UNIQUE INDEX, COMMENT ON a table or column), the inverse:
// drop the constraints, unique indexes and columns it added (sqlgate's
// own DROP statements: a column's drop rewrites the table, whose rows it
// keeps), then give the properties and comments it changed their
// values before. A table the statement replaced (a new id) or moved has
// none.
func (s *session) undoTableChange(ctx context.Context, before fluss.TableInfo) {
	if s.tx == nil || s.undoing {
		return
	}
	after, err := s.eng.storeTable(ctx, before.Path)
	if err != nil || after.TableID != before.TableID {
		return
	}
	if reflect.DeepEqual(before.Descriptor, after.Descriptor) {
		s.changedNothing()
		return
	}
	name := quoteIdent(before.Path.Database) + "." + quoteIdent(before.Path.Table)
	var drops []string
	am := fluss.MetaOf(after.Descriptor)
	had := binder.ConstraintNames(before.Path.Table, fluss.MetaOf(before.Descriptor), false)
	for _, u := range am.Uniques {
		switch {
		case had[u.Name]:
		case u.Index:
			drops = append(drops, "DROP INDEX "+quoteIdent(before.Path.Database)+"."+quoteIdent(u.Name))
		default:
			drops = append(drops, "ALTER TABLE "+name+" DROP CONSTRAINT "+quoteIdent(u.Name))
		}
	}
	for _, c := range am.Checks {
		if !had[c.Name] {
			drops = append(drops, "ALTER TABLE "+name+" DROP CONSTRAINT "+quoteIdent(c.Name))
		}
	}
	for _, c := range am.ForeignKeys {
		if !had[c.Name] {
			drops = append(drops, "ALTER TABLE "+name+" DROP CONSTRAINT "+quoteIdent(c.Name))
		}
	}
	for _, c := range after.Descriptor.Schema.Columns {
		if before.ColumnIndex(c.Name) < 0 {
			drops = append(drops, "ALTER TABLE "+name+" DROP COLUMN "+quoteIdent(c.Name))
		}
	}
	s.undoWith(func(ctx context.Context) error {
		for _, d := range drops {
			if _, err := s.runInternal(ctx, d); err != nil {
				return err
			}
		}
		return s.restoreTable(ctx, before, after)
	})
}

// restoreTable gives the table before was (by its path, since the drops
// of undoTableChange may have made it anew) the properties, the table
// comment and column comments before had where they are still as after
// left them.
func (s *session) restoreTable(ctx context.Context, before, after fluss.TableInfo) error {
	cur, err := s.eng.storeTable(ctx, before.Path)
	if err != nil {
		return err
	}
	var changes []fluss.TableChange
	props := func(b, a, c map[string]string) {
		for _, k := range slices.Sorted(maps.Keys(a)) {
			if bv, ok := b[k]; !ok && c[k] == a[k] {
				changes = append(changes, fluss.TableChange{Kind: fluss.ChangeResetProperty, Key: k})
			} else if ok && bv != a[k] && c[k] == a[k] {
				changes = append(changes, fluss.TableChange{Kind: fluss.ChangeSetProperty, Key: k, Value: bv})
			}
		}
		for _, k := range slices.Sorted(maps.Keys(b)) {
			if _, ok := a[k]; !ok {
				if _, now := c[k]; !now {
					changes = append(changes, fluss.TableChange{Kind: fluss.ChangeSetProperty, Key: k, Value: b[k]})
				}
			}
		}
	}
	props(before.Descriptor.CustomProperties, after.Descriptor.CustomProperties, cur.Descriptor.CustomProperties)
	props(before.Descriptor.Properties, after.Descriptor.Properties, cur.Descriptor.Properties)
	if d := before.Descriptor.Comment; d != after.Descriptor.Comment && cur.Descriptor.Comment == after.Descriptor.Comment {
		changes = append(changes, fluss.TableChange{Kind: fluss.ChangeTableComment, Comment: d})
	}
	for _, c := range before.Descriptor.Schema.Columns {
		i, j := after.ColumnIndex(c.Name), cur.ColumnIndex(c.Name)
		if i < 0 || j < 0 {
			continue
		}
		if a := after.Descriptor.Schema.Columns[i].Comment; a != c.Comment && cur.Descriptor.Schema.Columns[j].Comment == a {
			changes = append(changes, fluss.TableChange{Kind: fluss.ChangeColumnComment, Column: fluss.Column{Name: c.Name}, Comment: c.Comment})
		}
	}
	if len(changes) == 0 {
		return nil
	}
	alt, ok := s.eng.store.(fluss.TableAlterer)
	if !ok {
		return nil
	}
	s.eng.ddl.Lock()
	defer s.eng.ddl.Unlock()
	s.eng.catalog.Add(1)
	_, err = alt.AlterTable(ctx, before.Path, changes)
	return err
}

// undoAlterTable gives an ALTER TABLE of the table before, which
// succeeded, its inverse inside a block: RENAME COLUMN's is the rename
// back; that of actions which only add or set (ADD COLUMN, ADD
// CONSTRAINT, SET / DROP DEFAULT, SET / DROP NOT NULL, SET / RESET of
// properties, VALIDATE CONSTRAINT) is undoTableChange's. A statement with
// another action (DROP COLUMN or CONSTRAINT, ALTER COLUMN TYPE, ADD
// PRIMARY KEY, partitions) has none: what it dropped or converted is gone.
func (s *session) undoAlterTable(ctx context.Context, before fluss.TableInfo, actions []sql.AlterAction) {
	if s.tx == nil || s.undoing || before.TableID == 0 {
		return
	}
	if len(actions) == 1 && actions[0].Kind == sql.AlterRenameColumn {
		a := actions[0]
		s.undoStatement("ALTER TABLE " + quoteIdent(before.Path.Database) + "." + quoteIdent(before.Path.Table) +
			" RENAME COLUMN " + quoteIdent(a.NewName) + " TO " + quoteIdent(a.Column))
		return
	}
	for _, a := range actions {
		switch a.Kind {
		case sql.AlterAddColumn, sql.AlterAddCheck, sql.AlterAddUnique, sql.AlterAddForeignKey, sql.AlterAddUniqueUsingIndex,
			sql.AlterSetDefault, sql.AlterDropDefault, sql.AlterSetNotNull, sql.AlterDropNotNull,
			sql.AlterSetProperties, sql.AlterResetProperties, sql.AlterValidateConstraint, sql.AlterNoOp:
		default:
			return
		}
	}
	s.undoTableChange(ctx, before)
}

// restoreView stores the view v as it was before a CREATE OR REPLACE VIEW
// of the block replaced it (same id, owner and grants).
func (s *session) restoreView(ctx context.Context, v views.View) error {
	s.eng.ddl.Lock()
	defer s.eng.ddl.Unlock()
	s.eng.catalog.Add(1)
	return s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		return tx.Views.Replace(v) // (Create's replace refuses fewer columns)
	})
}

// renamedInBlock gives a rename from → to (of a table, a view or a
// sequence) its inverse, and moves the mark of a table the block created
// (createdMark) with it.
func (s *session) renamedInBlock(kind string, from, to fluss.TablePath) {
	if s.tx == nil || s.undoing {
		return
	}
	for i, p := range s.tx.created {
		if p == from {
			s.tx.created[i] = to
		}
	}
	// (ALTER TABLE renames a view too; only ALTER VIEW moves one)
	stmt := "ALTER TABLE " + quoteIdent(to.Database) + "." + quoteIdent(to.Table) + " RENAME TO " + quoteIdent(from.Table)
	if from.Database != to.Database {
		stmt = "ALTER " + kind + " " + quoteIdent(to.Database) + "." + quoteIdent(to.Table) + " SET SCHEMA " + quoteIdent(from.Database)
	}
	s.undoStatement(stmt)
}
