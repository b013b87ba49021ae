package remote

import (
	"fmt"
	"regexp"

	"github.com/sqlgate/sqlgate/fluss"
)

// The Fluss database that sqlgate shows as the schema "public" is
// Config.Database (default: a database named "public"). Naming another one
// lets several independent users of one cluster (or one test run's files,
// side by side) each have a "public" of their own. The mapping is applied
// where a path enters the Store and undone where a TableInfo leaves it, so
// that the engine and pg_catalog only ever see fluss.DefaultDatabase.

// databaseName is what Fluss accepts as a database name
// (TablePath.detectInvalidName: letters, digits, '_' and '-', at most 200).
var databaseName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,200}$`)

// checkDatabase validates Config.Database before anything is sent.
func checkDatabase(name string) error {
	if name == "" || databaseName.MatchString(name) {
		return nil
	}
	return fmt.Errorf("fluss: database name %q: want 1 to 200 letters, digits, '_' or '-'", name)
}

// publicDatabase is the cluster database shown as "public".
func (c *Config) publicDatabase() string {
	if c.Database != "" {
		return c.Database
	}
	return fluss.DefaultDatabase
}

// onCluster is the cluster's path of a path the engine names.
func (s *Store) onCluster(p fluss.TablePath) fluss.TablePath {
	if p.Database == fluss.DefaultDatabase {
		p.Database = s.db
	}
	return p
}

// shown is the engine's view of a table the cluster describes.
func (s *Store) shown(info fluss.TableInfo) fluss.TableInfo {
	if info.Path.Database == s.db {
		info.Path.Database = fluss.DefaultDatabase
	}
	return info
}
