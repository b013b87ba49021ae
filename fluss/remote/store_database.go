package remote

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
)

// Which Fluss database a sqlgate schema is. By default a schema is the
// database of its name, "public" included. Config.Database names another
// database to show as "public"; Config.DatabasePrefix makes every schema S
// the database PREFIX+S ("public" too, unless Config.Database is set) and
// hides the databases without the prefix. Either lets several independent
// users of one cluster (or one test run's files, side by side) each have
// schemas of their own. The mapping is applied where a path or a database
// name enters the Store (onCluster, clusterDB) and undone where one leaves
// it (shown, shownDB), so that the engine and pg_catalog only ever see
// sqlgate's names.

// databaseName is what Fluss accepts as a database name
// (TablePath.detectInvalidName: letters, digits, '_' and '-', at most 200).
var databaseName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,200}$`)

// maxPrefix leaves a schema name room within Fluss's 200 characters.
const maxPrefix = 100

// checkDatabase validates Config.Database and Config.DatabasePrefix before
// anything is sent.
func (c *Config) checkDatabase() error {
	if c.Database != "" && !databaseName.MatchString(c.Database) {
		return fmt.Errorf("fluss: database name %q: want 1 to 200 letters, digits, '_' or '-'", c.Database)
	}
	if p := c.DatabasePrefix; p != "" && (len(p) > maxPrefix || !databaseName.MatchString(p)) {
		return fmt.Errorf("fluss: database prefix %q: want 1 to %d letters, digits, '_' or '-'", p, maxPrefix)
	}
	return nil
}

// publicDatabase is the cluster database shown as "public".
func (c *Config) publicDatabase() string {
	if c.Database != "" {
		return c.Database
	}
	return c.DatabasePrefix + fluss.DefaultDatabase
}

// clusterDB is the cluster database of the schema sqlgate calls name.
func (s *Store) clusterDB(name string) string {
	if name == fluss.DefaultDatabase {
		return s.db
	}
	return s.prefix + name
}

// shownDB is the schema name of a cluster database, and whether this Store
// shows it at all.
func (s *Store) shownDB(name string) (string, bool) {
	if name == s.db {
		return fluss.DefaultDatabase, true
	}
	if !strings.HasPrefix(name, s.prefix) {
		return "", false
	}
	return strings.TrimPrefix(name, s.prefix), true
}

// onCluster is the cluster's path of a path the engine names.
func (s *Store) onCluster(p fluss.TablePath) fluss.TablePath {
	p.Database = s.clusterDB(p.Database)
	return p
}

// shown is the engine's view of a table the cluster describes.
func (s *Store) shown(info fluss.TableInfo) fluss.TableInfo {
	if name, ok := s.shownDB(info.Path.Database); ok {
		info.Path.Database = name
	}
	return info
}
