package engine

import (
	"context"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/pgcatalog"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// ALTER TABLE ... REPLICA IDENTITY, CLUSTER ON / SET WITHOUT CLUSTER, SET
// WITHOUT OIDS and ALTER COLUMN SET STATISTICS / STORAGE / COMPRESSION,
// which pg_dump writes for tables that had them and migration tools emit.
// They are checked as PostgreSQL checks them (an unknown column 42703, an
// unknown index 42704, a statistics target below -1 or a storage a
// fixed-length type cannot have) and kept as table metadata
// (fluss.ReplicaIdentityKey, ClusterIndexKey, ColumnStorageKeys) that
// pgcatalog shows where psql reads them: pg_class.relreplident,
// pg_index.indisreplident / indisclustered, pg_attribute.attstattarget /
// attstorage / attcompression. They change no storage, because what they
// tune does not exist under Fluss: a replica identity is what PostgreSQL's
// logical decoding writes of an old row (Fluss's changelog always carries
// whole rows, keyed by the primary key); CLUSTER orders a heap by an index
// (sqlgate has no heap, and CLUSTER itself is a no-op); statistics targets
// size ANALYZE's samples (sqlgate keeps no planner statistics); TOAST
// storage and compression choose how a heap tuple stores a long value
// (Fluss's Arrow log and KV files compress whole batches).

// storageTypes are SET STORAGE's kinds by their attstorage letter.
var storageTypes = map[string]byte{"PLAIN": 'p', "EXTERNAL": 'e', "EXTENDED": 'x', "MAIN": 'm'}

// compressionMethods are SET COMPRESSION's methods by their
// attcompression letter (0: the default, none recorded).
var compressionMethods = map[string]byte{"pglz": 'p', "lz4": 'l', "default": 0}

// maxStatTarget is the largest statistics target PostgreSQL keeps; a
// larger one is lowered to it with a WARNING.
const maxStatTarget = 10000

// storageChange is the change of one of these actions; a warning, when
// set, goes to the client with the statement's result.
func (s *session) storageChange(ctx context.Context, info fluss.TableInfo, a sql.AlterAction) ([]fluss.TableChange, *sqlerr.Error, error) {
	set := func(k, v string) fluss.TableChange {
		return fluss.TableChange{Kind: fluss.ChangeSetProperty, Key: k, Value: v}
	}
	reset := func(k string) fluss.TableChange { return fluss.TableChange{Kind: fluss.ChangeResetProperty, Key: k} }
	switch a.Kind {
	case sql.AlterNoOp:
		return nil, nil, nil
	case sql.AlterSetWithoutCluster:
		return []fluss.TableChange{reset(fluss.ClusterIndexKey)}, nil, nil
	case sql.AlterClusterOn:
		if err := s.tableIndex(ctx, info, a.Constraint); err != nil {
			return nil, nil, err
		}
		return []fluss.TableChange{set(fluss.ClusterIndexKey, a.Constraint)}, nil, nil
	case sql.AlterReplicaIdentity:
		if a.NewName == "d" {
			return []fluss.TableChange{reset(fluss.ReplicaIdentityKey), reset(fluss.ReplicaIndexKey)}, nil, nil
		}
		if a.NewName != "i" {
			return []fluss.TableChange{set(fluss.ReplicaIdentityKey, a.NewName), reset(fluss.ReplicaIndexKey)}, nil, nil
		}
		if err := s.tableIndex(ctx, info, a.Constraint); err != nil {
			return nil, nil, err
		}
		if col, ok := nullableIndexColumn(info, a.Constraint); ok {
			return nil, nil, sqlerr.New(sqlerr.WrongObjectType, "index \"%s\" cannot be used as replica identity because column \"%s\" is nullable", a.Constraint, col)
		}
		return []fluss.TableChange{set(fluss.ReplicaIdentityKey, "i"), set(fluss.ReplicaIndexKey, a.Constraint)}, nil, nil
	}
	// PostgreSQL checks a statistics target and a storage name before it
	// looks the column up, a compression method after
	switch a.Kind {
	case sql.AlterSetStatistics:
		if n, err := strconv.Atoi(a.Default); err == nil && n < -1 {
			return nil, nil, sqlerr.New(sqlerr.InvalidParameterValue, "statistics target %d is too low", n)
		}
	case sql.AlterSetStorage:
		if _, ok := storageTypes[strings.ToUpper(a.NewName)]; !ok {
			return nil, nil, sqlerr.New(sqlerr.InvalidParameterValue, "invalid storage type \"%s\"", strings.ToLower(a.NewName))
		}
	}
	i := info.ColumnIndex(a.Column)
	if i < 0 {
		return nil, nil, sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", a.Column, info.Path.Table)
	}
	statKey, storageKey, compressionKey := fluss.ColumnStorageKeys(i + 1)
	col := info.Descriptor.Schema.Columns[i]
	shown := shownColumnType(info, i)
	switch a.Kind {
	case sql.AlterSetStatistics:
		n, err := strconv.Atoi(a.Default)
		if err != nil {
			return nil, nil, sqlerr.New(sqlerr.NumericValueOutOfRange, "value \"%s\" is out of range for type integer", a.Default)
		}
		var warning *sqlerr.Error
		switch {
		case n < -1:
			return nil, nil, sqlerr.New(sqlerr.InvalidParameterValue, "statistics target %d is too low", n)
		case n > maxStatTarget:
			n, warning = maxStatTarget, sqlerr.New(sqlerr.InvalidParameterValue, "lowering statistics target to %d", maxStatTarget)
		case n == -1:
			return []fluss.TableChange{reset(statKey)}, nil, nil
		}
		return []fluss.TableChange{set(statKey, strconv.Itoa(n))}, warning, nil
	case sql.AlterSetStorage:
		letter, ok := storageTypes[strings.ToUpper(a.NewName)]
		if !ok {
			return nil, nil, sqlerr.New(sqlerr.InvalidParameterValue, "invalid storage type \"%s\"", strings.ToLower(a.NewName))
		}
		typ := pgcatalog.TypeStorage(col.Type)
		if typ == 'p' && letter != 'p' {
			return nil, nil, sqlerr.New(sqlerr.FeatureNotSupported, "column data type %s can only have storage PLAIN", shown)
		}
		if letter == typ {
			return []fluss.TableChange{reset(storageKey)}, nil, nil
		}
		return []fluss.TableChange{set(storageKey, string(letter))}, nil, nil
	}
	// PostgreSQL's GetAttributeCompression: DEFAULT always, then the
	// type, then the method's name
	if a.NewName == "default" {
		return []fluss.TableChange{reset(compressionKey)}, nil, nil
	}
	if pgcatalog.TypeStorage(col.Type) == 'p' {
		return nil, nil, sqlerr.New(sqlerr.FeatureNotSupported, "column data type %s does not support compression", shown)
	}
	letter, ok := compressionMethods[a.NewName]
	if !ok || letter == 0 {
		return nil, nil, sqlerr.New(sqlerr.InvalidParameterValue, "invalid compression method \"%s\"", a.NewName)
	}
	return []fluss.TableChange{set(compressionKey, string(letter))}, nil, nil
}

// shownColumnType is column i's type as PostgreSQL names it in messages
// (format_type: "integer", "text").
func shownColumnType(info fluss.TableInfo, i int) string {
	if pg := fluss.MetaOf(info.Descriptor).Column(i).PGType; pg != "" {
		return pg
	}
	return info.Descriptor.Schema.Columns[i].Type.PGName()
}

// tableIndex checks that name is an index of the table (its primary key's
// or a unique one): 42809 for another relation, 42704 for none.
func (s *session) tableIndex(ctx context.Context, info fluss.TableInfo, name string) error {
	if (info.HasPrimaryKey() && info.PrimaryKeyName() == name) || hasUnique(info, name) { // comments.go
		return nil
	}
	if s.relationAtPath(ctx, fluss.TablePath{Database: info.Path.Database, Table: name}) {
		return sqlerr.New(sqlerr.WrongObjectType, "\"%s\" is not an index", name)
	}
	return sqlerr.New(sqlerr.UndefinedObject, "index \"%s\" for table \"%s\" does not exist", name, info.Path.Table)
}

// nullableIndexColumn is the first nullable column of the table's index
// name (a unique index's; a primary key's columns are NOT NULL).
func nullableIndexColumn(info fluss.TableInfo, name string) (string, bool) {
	m := fluss.MetaOf(info.Descriptor)
	for _, u := range m.Uniques {
		if u.Name != name {
			continue
		}
		for _, c := range u.Columns {
			if c < len(info.Descriptor.Schema.Columns) && !info.Descriptor.Schema.Columns[c].Type.NotNull && !m.Column(c).NotNull {
				return info.Descriptor.Schema.Columns[c].Name, true
			}
		}
	}
	return "", false
}

// relOptionBounds are the integer storage parameters of PostgreSQL's
// tables whose bounds ALTER TABLE ... SET (...) checks (22023 outside
// them). They and the other PostgreSQL storage parameters are kept as
// table properties and shown in pg_class.reloptions; any other key is a
// Fluss property.
var relOptionBounds = map[string][2]int{"fillfactor": {10, 100}, "toast_tuple_target": {128, 8160}, "parallel_workers": {0, 1024}}

// checkRelOption refuses a PostgreSQL storage parameter's value PostgreSQL
// refuses.
func checkRelOption(key, value string) error {
	b, ok := relOptionBounds[strings.ToLower(key)]
	if !ok {
		return nil
	}
	n, err := strconv.Atoi(value)
	if err != nil {
		return sqlerr.New(sqlerr.InvalidParameterValue, "invalid value for integer option \"%s\": %s", key, value)
	}
	if n < b[0] || n > b[1] {
		return sqlerr.New(sqlerr.InvalidParameterValue, "value %s out of bounds for option \"%s\"", value, key).
			WithDetail("Valid values are between \"%d\" and \"%d\".", b[0], b[1])
	}
	return nil
}
