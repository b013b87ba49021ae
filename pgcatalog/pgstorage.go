package pgcatalog

import (
	"sort"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/functions"
)

// PostgreSQL catalog state that ALTER TABLE keeps as table metadata and
// that changes no storage (engine/pgstorage.go): REPLICA IDENTITY
// (pg_class.relreplident, pg_index.indisreplident), CLUSTER ON
// (pg_index.indisclustered), SET (fillfactor = ...) and the other storage
// parameters (pg_class.reloptions), ALTER COLUMN SET STATISTICS / STORAGE /
// COMPRESSION (pg_attribute's attstattarget, attstorage, attcompression).

// tableMetaValue reads one of sqlgate's table keys (custom properties,
// or the table properties where an older sqlgate kept metadata).
func tableMetaValue(t fluss.TableInfo, key string) string {
	if v, ok := t.Descriptor.CustomProperties[key]; ok {
		return v
	}
	return t.Descriptor.Properties[key]
}

// replIdent is t's relreplident: 'd' unless REPLICA IDENTITY changed it.
func replIdent(t fluss.TableInfo) string {
	if v := tableMetaValue(t, fluss.ReplicaIdentityKey); v != "" {
		return v
	}
	return "d"
}

// relOptionNames are PostgreSQL's storage parameters of tables: a table
// property of one of these names is shown in pg_class.reloptions (others
// are Fluss's).
var relOptionNames = map[string]bool{"fillfactor": true, "toast_tuple_target": true, "parallel_workers": true,
	"autovacuum_enabled": true, "vacuum_index_cleanup": true, "vacuum_truncate": true, "user_catalog_table": true,
	"log_autovacuum_min_duration": true}

// relOptions is t's reloptions ("name=value", sorted), nil for none.
func relOptions(t fluss.TableInfo) []any {
	var names []string
	for k := range t.Descriptor.Properties {
		lk := strings.ToLower(k)
		if relOptionNames[lk] || strings.HasPrefix(lk, "autovacuum_") || strings.HasPrefix(lk, "toast.") {
			names = append(names, k)
		}
	}
	if len(names) == 0 {
		return nil
	}
	sort.Strings(names)
	out := make([]any, len(names))
	for i, k := range names {
		out[i] = strings.ToLower(k) + "=" + t.Descriptor.Properties[k]
	}
	return out
}

// withStorageMeta sets a column's pg_attribute storage columns from what
// ALTER COLUMN SET STATISTICS / STORAGE / COMPRESSION kept, and its
// collation from CREATE TABLE's COLLATE.
func withStorageMeta(r row, m fluss.ColumnMeta) row {
	if m.StatTarget != "" {
		var n int
		for _, d := range m.StatTarget {
			if d < '0' || d > '9' {
				n = -1
				break
			}
			n = n*10 + int(d-'0')
		}
		r["attstattarget"] = n
	}
	if m.Storage != 0 {
		r["attstorage"] = string(m.Storage)
	}
	if m.Compression != 0 {
		r["attcompression"] = string(m.Compression)
	}
	if m.Collation != "" { // CREATE TABLE's COLLATE (binder/ddl.go)
		for _, c := range functions.Collations() {
			if c.Name == m.Collation {
				r["attcollation"] = c.OID
			}
		}
	}
	return r
}

// markIndexes sets indisreplident and indisclustered on t's pg_index rows
// (its primary key's and unique indexes') named by REPLICA IDENTITY USING
// INDEX and CLUSTER ON.
func (c *Catalog) markIndexes(t fluss.TableInfo, rows []row) {
	mark := func(name, col string) {
		if name == "" {
			return
		}
		oid, ok := c.indexOIDNamed(t, name) // comments.go
		if !ok {
			return
		}
		for _, r := range rows {
			if oidValue(r["indexrelid"]) == oid {
				r[col] = true
			}
		}
	}
	if replIdent(t) == "i" {
		mark(tableMetaValue(t, fluss.ReplicaIndexKey), "indisreplident")
	}
	mark(tableMetaValue(t, fluss.ClusterIndexKey), "indisclustered")
}
