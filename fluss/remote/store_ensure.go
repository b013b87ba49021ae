package remote

import (
	"context"

	"github.com/sqlgate/sqlgate/fluss"
)

// EnsureDatabase creates the cluster database of the schema sqlgate calls
// name (under Config.DatabasePrefix, as every schema) unless it exists:
// what the metadata store (package meta) needs for fluss.SystemDatabase,
// so that servers sharing a prefix share their metadata and those of
// other prefixes keep theirs apart.
func (s *Store) EnsureDatabase(ctx context.Context, name string) error {
	return storeErr(s.c.CreateDatabase(ctx, s.clusterDB(name), true), fluss.TablePath{Database: name})
}
