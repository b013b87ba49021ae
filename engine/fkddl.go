package engine

import (
	"context"

	"fmt"
	"github.com/apache/arrow-go/v18/arrow"
	"maps"
	"slices"
	"strings"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// FOREIGN KEY constraints and DDL: ALTER TABLE ... ADD FOREIGN KEY, DROP
// CONSTRAINT and VALIDATE CONSTRAINT (fkAlter, beside altercheck.go's
// CHECK constraints: a property change of the table, the stored rows
// checked first unless NOT VALID); DROP TABLE of a referenced table
// (2BP01, or CASCADE drops the constraints); TRUNCATE of one (0A000 unless
// its referencing tables are truncated too, or CASCADE takes them), as
// PostgreSQL does.

// fkOthers are the foreign keys that reference path from a table outside
// skip (a table's reference to itself, or from a table the statement
// drops or truncates too, is no dependency).
func (s *session) fkOthers(ctx context.Context, path fluss.TablePath, skip map[fluss.TablePath]bool) ([]fkRef, error) {
	idx, err := s.fkIndexNow(ctx)
	if err != nil {
		return nil, err
	}
	var out []fkRef
	for _, r := range idx.referencing[path] {
		if r.child != path && !skip[r.child] {
			out = append(out, r)
		}
	}
	slices.SortStableFunc(out, func(a, b fkRef) int { return strings.Compare(a.fk.Name, b.fk.Name) })
	return out, nil
}

// fkDropDependents is DROP TABLE's rule for the foreign keys referencing
// path: 2BP01 naming them without cascade; with it, the constraints are
// dropped (their tables' metadata) and PostgreSQL's notices returned. The
// caller holds the DDL lock.
func (s *session) fkDropDependents(ctx context.Context, path fluss.TablePath, dropping map[fluss.TablePath]bool, cascade bool) ([]*sqlerr.Error, error) {
	refs, err := s.fkOthers(ctx, path, dropping)
	if err != nil || len(refs) == 0 {
		return nil, err
	}
	if !cascade {
		lines := make([]string, len(refs))
		for i, r := range refs {
			lines[i] = fmt.Sprintf("constraint %s on table %s depends on table %s", r.fk.Name, r.child.Table, path.Table)
		}
		return nil, sqlerr.New(sqlerr.DependentObjectsStillExist, "cannot drop table %s because other objects depend on it", path.Table).
			WithDetail("%s", strings.Join(lines, "\n")).
			WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
	}
	var notices []*sqlerr.Error
	for _, r := range refs {
		if err := s.dropFKey(ctx, r); err != nil {
			return nil, err
		}
		notices = append(notices, sqlerr.New(sqlerr.SuccessfulCompletion, "drop cascades to constraint %s on table %s", r.fk.Name, r.child.Table))
	}
	return notices, nil
}

// dropFKey removes foreign key r from its table's metadata (the caller
// holds the DDL lock).
func (s *session) dropFKey(ctx context.Context, r fkRef) error {
	alt, ok := s.eng.store.(fluss.TableAlterer)
	if !ok {
		return sqlerr.NotSupported("ALTER TABLE on this store")
	}
	info, err := s.eng.storeTable(ctx, r.child)
	if err != nil {
		return err
	}
	changes := fkDropChanges(info, r.fk.Name)
	if len(changes) == 0 {
		return nil
	}
	s.eng.catalog.Add(1)
	_, err = alt.AlterTable(ctx, r.child, changes)
	return err
}

// fkDropChanges are the property changes that remove info's foreign key
// named name (none when it has no such key).
func fkDropChanges(info fluss.TableInfo, name string) []fluss.TableChange {
	_, n, ok := fkNamed(info.Descriptor, name)
	if !ok {
		return nil
	}
	var changes []fluss.TableChange
	for _, key := range slices.Sorted(maps.Keys(fluss.FKeyProperties(n, fluss.ForeignKey{DeleteSetColumns: []int{}, Deferrable: true}))) {
		changes = append(changes, fluss.TableChange{Kind: fluss.ChangeResetProperty, Key: key})
	}
	return changes
}

// fkNamed is d's foreign key named name and the number its metadata keys
// carry (fluss.FKeyNumbers, in MetaOf's order).
func fkNamed(d fluss.TableDescriptor, name string) (fluss.ForeignKey, int, bool) {
	numbers := fluss.FKeyNumbers(d)
	for k, fk := range fluss.MetaOf(d).ForeignKeys {
		if fk.Name == name && k < len(numbers) {
			return fk, numbers[k], true
		}
	}
	return fluss.ForeignKey{}, 0, false
}

// fkTruncate is TRUNCATE's rule for the tables referencing those it
// empties: without CASCADE, 0A000 for the first table that references one
// and is not truncated too; with it, those tables are added (and theirs,
// in turn), each with PostgreSQL's notice. A table with deferred checks
// pending is 55006 first, as PostgreSQL's truncate_check_activity.
func (s *session) fkTruncate(ctx context.Context, infos []fluss.TableInfo, seen map[fluss.TablePath]bool, cascade bool) ([]fluss.TableInfo, []*sqlerr.Error, error) {
	var notices []*sqlerr.Error
	for _, info := range infos { // PostgreSQL's truncate_check_activity, before the foreign keys' rule
		if err := s.fkPendingErr(info.Path); err != nil {
			return nil, nil, err
		}
	}
	for i := 0; i < len(infos); i++ {
		refs, err := s.fkOthers(ctx, infos[i].Path, seen)
		if err != nil {
			return nil, nil, err
		}
		for _, r := range refs {
			if seen[r.child] {
				continue
			}
			if !cascade {
				return nil, nil, sqlerr.New(sqlerr.FeatureNotSupported, "cannot truncate a table referenced in a foreign key constraint").
					WithDetail("Table \"%s\" references \"%s\".", r.child.Table, infos[i].Path.Table).
					WithHint("Truncate table \"%s\" at the same time, or use TRUNCATE ... CASCADE.", r.child.Table)
			}
			info, err := s.eng.storeTable(ctx, r.child)
			if err != nil {
				return nil, nil, err
			}
			if err := s.fkPendingErr(r.child); err != nil {
				return nil, nil, err
			}
			seen[r.child] = true
			infos = append(infos, info)
			notices = append(notices, sqlerr.New(sqlerr.SuccessfulCompletion, "truncate cascades to table \"%s\"", r.child.Table))
		}
	}
	return infos, notices, nil
}

// fkPendingErr is TRUNCATE's 55006 for a table with deferred checks
// pending (fkPendingOn).
func (s *session) fkPendingErr(path fluss.TablePath) error {
	if !s.fkPendingOn(path) {
		return nil
	}
	return sqlerr.New(sqlerr.ObjectInUse, "cannot TRUNCATE \"%s\" because it has pending trigger events", path.Table)
}

// fkPendingOn reports whether the transaction keeps deferred checks of
// the table at path (of its rows, or of the keys deleted from it), which
// PostgreSQL's TRUNCATE refuses (55006): they would check rows it empties.
func (s *session) fkPendingOn(path fluss.TablePath) bool {
	return slices.ContainsFunc(s.fkq.deferred, func(c fkCheck) bool { return c.table.Path == path })
}

// pathSet is paths as a set.
func pathSet(paths []fluss.TablePath) map[fluss.TablePath]bool {
	out := make(map[fluss.TablePath]bool, len(paths))
	for _, p := range paths {
		out[p] = true
	}
	return out
}

// fkAlter runs an ALTER TABLE action on a foreign key of the table (as
// the statement's earlier actions leave it, c.work): ADD, DROP
// CONSTRAINT and VALIDATE CONSTRAINT of one. handled is false for an
// action that is no foreign key's (a CHECK constraint's).
func (s *session) fkAlter(ctx context.Context, c *checkActions, a sql.AlterAction) (changes []fluss.TableChange, handled bool, err error) {
	switch a.Kind {
	case sql.AlterAddForeignKey:
		fk, err := binder.AddForeignKey(ctx, s.eng.tables, c.work, *a.ForeignKey)
		if err != nil {
			return nil, true, err
		}
		if !fk.NotValid {
			c.fkPending = append(c.fkPending, fk)
		}
		props := fluss.FKeyProperties(fluss.NextFKeyNumber(c.work.Descriptor), fk)
		for _, k := range slices.Sorted(maps.Keys(props)) {
			changes = append(changes, fluss.TableChange{Kind: fluss.ChangeSetProperty, Key: k, Value: props[k]})
		}
		return changes, true, nil
	case sql.AlterDropConstraint:
		if changes = fkDropChanges(c.work, a.Constraint); changes == nil {
			return nil, false, nil
		}
		return changes, true, nil
	case sql.AlterValidateConstraint:
		if fk, n, ok := fkNamed(c.work.Descriptor, a.Constraint); ok {
			if !fk.NotValid {
				return nil, true, nil
			}
			if err := s.fkValidate(ctx, c.stored, c.work, fk); err != nil {
				return nil, true, err
			}
			fk.NotValid = false
			key := fluss.FKeyKeyPrefix(n) + "flags"
			if v, ok := fluss.FKeyProperties(n, fk)[key]; ok {
				return []fluss.TableChange{{Kind: fluss.ChangeSetProperty, Key: key, Value: v}}, true, nil
			}
			return []fluss.TableChange{{Kind: fluss.ChangeResetProperty, Key: key}}, true, nil
		}
	}
	return nil, false, nil
}

// fkValidate checks the stored rows of stored's table against fk (bound
// over work's columns: a column the statement adds is NULL in every
// stored row, which passes): 23503 for the first row whose key the
// referenced table lacks, as PostgreSQL's validation reports it.
func (s *session) fkValidate(ctx context.Context, stored, work fluss.TableInfo, fk fluss.ForeignKey) error {
	ncols := len(stored.Descriptor.Schema.Columns)
	if slices.ContainsFunc(fk.Columns, func(c int) bool { return c >= ncols }) {
		return nil
	}
	t, err := s.readTable(ctx, stored.Path)
	if err != nil {
		return err
	}
	return scanEach(ctx, t, fluss.ScanOptions{}, func(b arrow.RecordBatch) (bool, error) { // tables.go
		defer b.Release()
		return false, s.fkParentsExist(ctx, stored, fk, b)
	})
}

// fkFollowRename points the foreign keys that reference the table renamed
// from from at its new name to (a foreign key names its referenced table
// by path). The caller holds the DDL lock.
func (s *session) fkFollowRename(ctx context.Context, from, to fluss.TablePath) error {
	idx, err := s.fkIndexNow(ctx)
	if err != nil {
		return err
	}
	alt, ok := s.eng.store.(fluss.TableAlterer)
	if !ok {
		return nil
	}
	for _, r := range idx.referencing[from] {
		info, err := s.eng.storeTable(ctx, r.child)
		if err != nil {
			return err
		}
		if _, n, ok := fkNamed(info.Descriptor, r.fk.Name); ok {
			p := fluss.FKeyKeyPrefix(n)
			s.eng.catalog.Add(1)
			if _, err := alt.AlterTable(ctx, r.child, []fluss.TableChange{
				{Kind: fluss.ChangeSetProperty, Key: p + "refdb", Value: to.Database},
				{Kind: fluss.ChangeSetProperty, Key: p + "reftable", Value: to.Table},
			}); err != nil {
				return err
			}
		}
	}
	return nil
}
