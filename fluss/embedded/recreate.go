package embedded

import (
	"context"
	"os"
	"slices"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

var _ fluss.TableRecreator = (*Store)(nil)

// RecreateTable implements fluss.TableRecreator: CreateTable and
// DropTable in one replacement of catalog.json, so that a crash leaves the
// old table or the new one, never neither (TRUNCATE of a log table). The
// old table's files and state are then removed as DropTable removes them
// (Open finishes the removal if a crash interrupts it), and the sequences
// it owned are owned by the new one (followReplace).
func (s *Store) RecreateTable(ctx context.Context, path fluss.TablePath, desc fluss.TableDescriptor) (fluss.TableInfo, error) {
	if err := ctx.Err(); err != nil {
		return fluss.TableInfo{}, err
	}
	norm, err := fluss.ValidateDescriptor(desc)
	if err != nil {
		return fluss.TableInfo{}, err
	}
	s.catMu.Lock()
	if s.tables == nil {
		s.catMu.Unlock()
		return fluss.TableInfo{}, errClosed()
	}
	old, ok := s.tables[path]
	if !ok {
		s.catMu.Unlock()
		return fluss.TableInfo{}, undefinedTable(path)
	}
	info := fluss.TableInfo{Path: path, TableID: s.catalog.NextTableID, SchemaID: 1,
		Descriptor: norm, CreatedAt: s.opts.Now().UnixMilli()}
	entry, err := entryFromInfo(info)
	if err != nil {
		s.catMu.Unlock()
		return fluss.TableInfo{}, sqlerr.Wrap(err, sqlerr.FeatureNotSupported, "%v", err)
	}
	t, err := s.openTable(info, true)
	if err != nil {
		s.catMu.Unlock()
		return fluss.TableInfo{}, err
	}
	prev := s.catalog
	oldID := old.info.TableID
	s.catalog.NextTableID++
	s.catalog.Tables = append(slices.DeleteFunc(slices.Clone(s.catalog.Tables), func(e catalogEntry) bool {
		return e.TableID == oldID || e.isPartitionOf(oldID) // partitions.go
	}), entry)
	if err := s.saveCatalog(); err != nil {
		s.catalog = prev
		s.catMu.Unlock()
		t.closeFiles()
		_ = os.RemoveAll(t.dir)
		return fluss.TableInfo{}, err
	}
	s.tables[path] = t
	parts := s.takePartitionStates(oldID)
	s.autoPartitionLocked(t) // a new table's, as CreateTable runs it
	s.catMu.Unlock()
	ctx = context.WithoutCancel(ctx)                  // past the commit: finished, as Replace
	ferr := s.followReplace(ctx, oldID, info.TableID) // sequences.go
	if err := s.dropStates(ctx, append([]*tableState{old}, parts...)); err != nil {
		return info, err
	}
	return info, ferr
}
