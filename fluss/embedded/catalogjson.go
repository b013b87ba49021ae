package embedded

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"

	"github.com/sqlgate/sqlgate/fluss"
)

// The catalog file keeps each table in Fluss's table JSON shape
// (fluss.MarshalStoreTableJSON: TableDescriptorJsonSerde / SchemaJsonSerde /
// DataTypeJsonSerde, plus sqlgate's VARCHAR(n) limit as STRING's length),
// wrapped with the identity Fluss keeps in ZooKeeper (path, id, schema id,
// creation time). Files written before nested ROW fields carried Fluss's
// field ids (and with column ids that did not count them) read the same:
// ids are not read back.

type catalogFile struct {
	FormatVersion int   `json:"format_version"`
	NextTableID   int64 `json:"next_table_id"`
	// Databases are the databases created (CREATE SCHEMA) besides
	// fluss.DefaultDatabase, which always exists; a catalog written before
	// databases were kept has none, and the databases its tables name are
	// taken as created (normalizeDatabases).
	Databases []string       `json:"databases,omitempty"`
	Tables    []catalogEntry `json:"tables"`
}

// normalizeDatabases makes c.Databases the sorted set of created
// databases: those listed, and those a table names, without the default.
func (c *catalogFile) normalizeDatabases() {
	seen := map[string]bool{fluss.DefaultDatabase: true}
	var out []string
	add := func(db string) {
		if !seen[db] {
			seen[db] = true
			out = append(out, db)
		}
	}
	for _, db := range c.Databases {
		add(db)
	}
	for _, e := range c.Tables {
		add(e.Database)
	}
	sort.Strings(out)
	c.Databases = out
}

// hasDatabase reports whether db exists in c.
func (c *catalogFile) hasDatabase(db string) bool {
	return db == fluss.DefaultDatabase || slices.Contains(c.Databases, db)
}

type catalogEntry struct {
	Database  string          `json:"database_name"`
	Table     string          `json:"table_name"`
	TableID   int64           `json:"table_id"`
	SchemaID  int16           `json:"schema_id"`
	CreatedAt int64           `json:"created_at"`
	Desc      json.RawMessage `json:"table_descriptor"`
	// SchemaColumns[id-1] is the number of columns of schema id, for a
	// table whose schema ALTER TABLE changed (alter.go); absent otherwise.
	SchemaColumns []int `json:"schema_column_counts,omitempty"`
	// Partition, set, makes the entry a partition of a partitioned table
	// (partitions.go): TableID is the partition's id, Desc is empty.
	Partition *partitionRef `json:"partition,omitempty"`
}

func entryFromInfo(info fluss.TableInfo) (catalogEntry, error) {
	desc, err := fluss.MarshalStoreTableJSON(info.Descriptor)
	if err != nil {
		return catalogEntry{}, fmt.Errorf("table %s: %w", info.Path, err)
	}
	return catalogEntry{Database: info.Path.Database, Table: info.Path.Table, TableID: info.TableID,
		SchemaID: info.SchemaID, CreatedAt: info.CreatedAt, Desc: desc}, nil
}

func infoFromEntry(e catalogEntry) (fluss.TableInfo, error) {
	d, err := fluss.ParseTableJSON(e.Desc)
	if err != nil {
		return fluss.TableInfo{}, fmt.Errorf("table %s.%s: %w", e.Database, e.Table, err)
	}
	return fluss.TableInfo{Path: fluss.TablePath{Database: e.Database, Table: e.Table}, TableID: e.TableID,
		SchemaID: e.SchemaID, CreatedAt: e.CreatedAt, Descriptor: d}, nil
}
