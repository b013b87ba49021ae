package embedded

import (
	"context"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// ALTER TABLE ... RENAME TO (fluss.TableRenamer). A table's files and its
// state in pebble are keyed by its table id, not its name, so a rename is
// a change of the catalog alone: its entry's table_name, in one atomic
// replacement of catalog.json. A crash leaves the table under its old
// name or its new one, never both or neither (TestCrashRename). The
// table's state is then replaced as ALTER TABLE replaces it (alter.go):
// the writes queued under the old name are committed first, and a handle
// of the old state refuses further writes, so a statement that resolved
// the old name runs again and finds it gone.

var _ fluss.TableRenamer = (*Store)(nil)

// RenameTable implements fluss.TableRenamer. The sequences the table
// owns follow it after the catalog's commit (followRename; a crash in
// between is mended when the store opens: settleSequences).
func (s *Store) RenameTable(ctx context.Context, from, to fluss.TablePath) (fluss.TableInfo, error) {
	info, err := s.renameTable(ctx, from, to)
	if err != nil {
		return info, err
	}
	return info, s.followRename(ctx, from, to)
}

func (s *Store) renameTable(ctx context.Context, from, to fluss.TablePath) (fluss.TableInfo, error) {
	if err := ctx.Err(); err != nil {
		return fluss.TableInfo{}, err
	}
	s.catMu.Lock()
	defer s.catMu.Unlock()
	old, err := s.tableLocked(from)
	if err != nil {
		return fluss.TableInfo{}, err
	}
	if from.Database != to.Database {
		return fluss.TableInfo{}, sqlerr.New(sqlerr.FeatureNotSupported, "cannot move table \"%s\" to database \"%s\" by renaming it", from.Table, to.Database)
	}
	if _, taken := s.tables[to]; taken {
		return fluss.TableInfo{}, sqlerr.New(sqlerr.DuplicateTable, "relation \"%s\" already exists", to.Table)
	}
	id := old.info.TableID
	err = s.changeEntries(ctx, old, func(e *catalogEntry) {
		if e.TableID == id || e.isPartitionOf(id) { // a partition's entry names its table too
			e.Table = to.Table
		}
	})
	if err != nil {
		return fluss.TableInfo{}, err
	}
	info := old.info
	info.Path = to
	t := old.replaced(info, old.schemaCols)
	delete(s.tables, from)
	s.tables[to] = t
	if err := s.alterPartitionsLocked(ctx, t); err != nil { // partitions.go: their states take the new name
		return fluss.TableInfo{}, err
	}
	return t.info, nil
}
