package embedded

import (
	"context"
	"slices"

	"github.com/sqlgate/sqlgate/fluss"
)

// CreateDatabase implements fluss.Catalog: the database joins the catalog
// file, replaced atomically, so a crash leaves it created or not.
func (s *Store) CreateDatabase(ctx context.Context, name string, ignoreIfExists bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.catMu.Lock()
	defer s.catMu.Unlock()
	if s.tables == nil {
		return errClosed()
	}
	if s.catalog.hasDatabase(name) {
		if ignoreIfExists {
			return nil
		}
		return fluss.DuplicateDatabase(name)
	}
	prev := s.catalog
	s.catalog.Databases = append(slices.Clone(s.catalog.Databases), name)
	slices.Sort(s.catalog.Databases)
	if err := s.saveCatalog(); err != nil {
		s.catalog = prev
		return err
	}
	return nil
}

// DropDatabase implements fluss.Catalog. The database and, with cascade,
// its tables leave the catalog in one atomic replacement of the catalog
// file; the tables' files and state are removed after it, as DropTable
// does (Open finishes the removal after a crash). The default database is
// dropped like any other: it exists again at once (it always exists), empty.
func (s *Store) DropDatabase(ctx context.Context, name string, ignoreIfNotExists, cascade bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.catMu.Lock()
	if s.tables == nil {
		s.catMu.Unlock()
		return errClosed()
	}
	if !s.catalog.hasDatabase(name) {
		s.catMu.Unlock()
		if ignoreIfNotExists {
			return nil
		}
		return fluss.UndefinedDatabase(name)
	}
	var drop []*tableState
	var names []string
	for p, t := range s.tables {
		if p.Database == name {
			drop = append(drop, t)
			names = append(names, p.Table)
		}
	}
	if len(drop) > 0 && !cascade {
		s.catMu.Unlock()
		slices.Sort(names)
		return fluss.DatabaseNotEmpty(name, names)
	}
	prev := s.catalog
	s.catalog.Databases = slices.DeleteFunc(slices.Clone(s.catalog.Databases), func(d string) bool { return d == name })
	s.catalog.Tables = slices.DeleteFunc(slices.Clone(s.catalog.Tables), func(e catalogEntry) bool { return e.Database == name })
	if err := s.saveCatalog(); err != nil {
		s.catalog = prev
		s.catMu.Unlock()
		return err
	}
	for _, t := range drop {
		delete(s.tables, t.info.Path)
		drop = append(drop, s.takePartitionStates(t.info.TableID)...) // partitions.go
	}
	s.catMu.Unlock()
	// Each drop goes through the committer, after the writes already
	// queued for the table (DropTable).
	return s.dropStates(ctx, drop)
}

// ListDatabases implements fluss.Catalog.
func (s *Store) ListDatabases(ctx context.Context) ([]string, error) {
	s.catMu.RLock()
	defer s.catMu.RUnlock()
	out := append([]string{fluss.DefaultDatabase}, s.catalog.Databases...)
	slices.Sort(out)
	return out, nil
}
