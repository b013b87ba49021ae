package engine

import (
	"context"
	"slices"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// ALTER TABLE [IF EXISTS] t RENAME CONSTRAINT a TO b: a table's
// constraints are named in its metadata (fluss.TableMeta's CHECK, FOREIGN
// KEY and UNIQUE constraints, the primary key's PrimaryKeyNameProperty),
// so the rename is one property change on either store; a UNIQUE
// constraint's and the primary key's index is renamed with it, as
// PostgreSQL does (they share the name: alterindex.go). A unique index
// CREATE UNIQUE INDEX made is no constraint (42704, as PostgreSQL).

// renameConstraint runs it.
func (s *session) renameConstraint(ctx context.Context, d *sql.DDLStmt) (pgwire.Result, error) {
	a := d.Actions[0]
	info, err := s.resolveTable(ctx, d.Table)
	if err != nil {
		if d.IfExists && sqlerr.CodeOf(err) == sqlerr.UndefinedTable {
			return noticeResult("ALTER TABLE", skipped("relation", d.Table.Name)), nil
		}
		return nil, err
	}
	if err := s.blockDDL("ALTER TABLE", nil); err != nil {
		return nil, err
	}
	if err := s.mayDrop(info); err != nil {
		return nil, err
	}
	// PostgreSQL renames a constraint's index first (42P07 for a name a
	// relation has, its own included), then the constraint (42710)
	if slices.Contains(constraintNames(info), a.Constraint) && hasIndex(info, a.Constraint) && s.relationNamed(ctx, info.Path.Database, a.NewName) {
		return nil, sqlerr.RelationExists(a.NewName)
	}
	if _, err := constraintRenameChanges(info, a.Constraint, a.NewName); err != nil {
		return nil, err
	}
	alt, ok := s.eng.store.(fluss.TableAlterer)
	if !ok {
		return nil, sqlerr.NotSupported("ALTER TABLE on this store")
	}
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	defer s.eng.ddl.Unlock()
	now, err := s.eng.storeTable(ctx, info.Path) // as it is under the lock
	if err != nil {
		return nil, err
	}
	changes, err := constraintRenameChanges(now, a.Constraint, a.NewName)
	if err != nil {
		return nil, err
	}
	if _, err := alt.AlterTable(ctx, now.Path, changes); err != nil {
		return nil, err
	}
	return tagOnly("ALTER TABLE"), nil
}

// hasIndex reports whether info's constraint name has an index: its
// primary key, or a UNIQUE constraint.
func hasIndex(info fluss.TableInfo, name string) bool {
	if info.HasPrimaryKey() && info.PrimaryKeyName() == name {
		return true
	}
	return slices.ContainsFunc(fluss.MetaOf(info.Descriptor).Uniques, func(u fluss.UniqueConstraint) bool { return u.Name == name && !u.Index })
}

// constraintNames are the names of info's constraints (a unique index is
// none).
func constraintNames(info fluss.TableInfo) []string {
	var out []string
	if info.HasPrimaryKey() {
		out = append(out, info.PrimaryKeyName())
	}
	m := fluss.MetaOf(info.Descriptor)
	for _, c := range m.Checks {
		out = append(out, c.Name)
	}
	for _, fk := range m.ForeignKeys {
		out = append(out, fk.Name)
	}
	for _, u := range m.Uniques {
		if !u.Index {
			out = append(out, u.Name)
		}
	}
	return out
}

// constraintRenameChanges are the metadata changes that rename info's
// constraint from to to: 42704 when it has none named from, 42710 when
// one is named to already.
func constraintRenameChanges(info fluss.TableInfo, from, to string) ([]fluss.TableChange, error) {
	names := constraintNames(info)
	if !slices.Contains(names, from) {
		return nil, sqlerr.New(sqlerr.UndefinedObject, "constraint \"%s\" for table \"%s\" does not exist", from, info.Path.Table)
	}
	if slices.Contains(names, to) {
		return nil, sqlerr.New(sqlerr.DuplicateObject, "constraint \"%s\" for relation \"%s\" already exists", to, info.Path.Table)
	}
	if hasIndex(info, from) {
		changes, _ := indexRenameChanges(info, from, to) // alterindex.go
		return changes, nil
	}
	set := func(key string) []fluss.TableChange {
		return []fluss.TableChange{{Kind: fluss.ChangeSetProperty, Key: key, Value: to}}
	}
	m := fluss.MetaOf(info.Descriptor)
	if k := slices.IndexFunc(m.Checks, func(c fluss.CheckConstraint) bool { return c.Name == from }); k >= 0 {
		name, _, _ := fluss.CheckKeys(fluss.CheckNumbers(info.Descriptor)[k])
		return set(name), nil
	}
	k := slices.IndexFunc(m.ForeignKeys, func(fk fluss.ForeignKey) bool { return fk.Name == from })
	return set(fluss.FKeyKeyPrefix(fluss.FKeyNumbers(info.Descriptor)[k]) + "name"), nil
}
