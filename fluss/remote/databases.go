package remote

import (
	"context"
	"sort"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// CreateDatabase implements fluss.Catalog with Fluss's CreateDatabase.
func (s *Store) CreateDatabase(ctx context.Context, name string, ignoreIfExists bool) error {
	err := s.c.CreateDatabase(ctx, s.clusterDB(name), ignoreIfExists)
	if CodeOf(err) == CodeDatabaseAlreadyExist {
		return sqlerr.Wrap(err, sqlerr.DuplicateSchema, "%s", fluss.DuplicateDatabase(name).Message)
	}
	return storeErr(err, fluss.TablePath{Database: name})
}

// DropDatabase implements fluss.Catalog with Fluss's DropDatabase, whose
// cascade drops the tables on the coordinator.
func (s *Store) DropDatabase(ctx context.Context, name string, ignoreIfNotExists, cascade bool) error {
	err := s.c.DropDatabase(ctx, s.clusterDB(name), ignoreIfNotExists, cascade)
	if err == nil {
		s.catalogChanged(ctx) // its tables went with it
	}
	switch CodeOf(err) {
	case CodeDatabaseNotEmpty:
		tables, _ := s.c.ListTables(ctx, s.clusterDB(name))
		sort.Strings(tables)
		e := fluss.DatabaseNotEmpty(name, tables)
		return sqlerr.Wrap(err, e.Code, "%s", e.Message).WithDetail("%s", e.Detail).WithHint("%s", e.Hint)
	case CodeDatabaseNotExist:
		return sqlerr.Wrap(err, sqlerr.InvalidSchemaName, "%s", fluss.UndefinedDatabase(name).Message)
	}
	if err == nil && name == fluss.DefaultDatabase {
		// The default database always exists, as on the embedded store.
		err = s.c.CreateDatabase(ctx, s.db, true)
	}
	return storeErr(err, fluss.TablePath{Database: name})
}

// ListDatabases implements fluss.Catalog with Fluss's ListDatabases: the
// schemas this Store shows (store_database.go).
func (s *Store) ListDatabases(ctx context.Context) ([]string, error) {
	all, err := s.c.ListDatabases(ctx)
	if err != nil {
		return nil, storeErr(err, fluss.TablePath{})
	}
	var names []string
	for _, db := range all {
		if name, ok := s.shownDB(db); ok && name != fluss.SystemDatabase { // sqlgate's own (package meta)
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names, nil
}
