package pgcatalog

import (
	"context"
	"fmt"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
)

// UNIQUE constraints and unique indexes (sqlgate's metadata,
// fluss.UniqueConstraint): each is an index relation (pg_class relkind
// 'i', pg_index indisunique, pg_indexes, pg_get_indexdef) and, unless
// CREATE UNIQUE INDEX made it, a constraint (pg_constraint contype 'u',
// pg_get_constraintdef, information_schema's constraint views), as
// PostgreSQL lists them. The index's OID is firstUserOID + 12<<22 + its
// table's id * 64 + the constraint's id (fluss.UniqueConstraint.ID), the
// constraint's the same in the 13<<22 band: both survive restarts and
// renames. The index table that enforces one (fluss.IndexTablePath) is
// listed by no catalog.

const (
	uniqueIndexOIDBase      = firstUserOID + 12*oidStride
	uniqueConstraintOIDBase = firstUserOID + 13*oidStride
)

func uniqueIndexOID(tableID int64, id int) uint32 {
	return uint32(uniqueIndexOIDBase + tableID*64 + int64(id))
}

func uniqueConstraintOID(tableID int64, id int) uint32 {
	return uint32(uniqueConstraintOIDBase + tableID*64 + int64(id))
}

// uniquesOf are t's unique constraints and indexes.
func uniquesOf(t fluss.TableInfo) []fluss.UniqueConstraint {
	return fluss.MetaOf(t.Descriptor).Uniques
}

// uniqueByOID finds the table and constraint whose index (base
// uniqueIndexOIDBase) or constraint (uniqueConstraintOIDBase) has oid.
func (c *Catalog) uniqueByOID(ctx context.Context, oid uint32, base int64) (fluss.TableInfo, fluss.UniqueConstraint, bool, error) {
	n := int64(oid) - base
	if n < 0 || n >= oidStride {
		return fluss.TableInfo{}, fluss.UniqueConstraint{}, false, nil
	}
	tables, _, err := c.allTables(ctx)
	if err != nil {
		return fluss.TableInfo{}, fluss.UniqueConstraint{}, false, err
	}
	for _, t := range tables {
		if t.TableID != n/64 {
			continue
		}
		for _, u := range uniquesOf(t) {
			if int64(u.ID) == n%64 {
				return t, u, true, nil
			}
		}
	}
	return fluss.TableInfo{}, fluss.UniqueConstraint{}, false, nil
}

// uniqueColumnNames are u's columns' names, quoted as the deparser quotes
// them.
func uniqueColumnNames(t fluss.TableInfo, u fluss.UniqueConstraint) []string {
	cols := make([]string, len(u.Columns))
	for i, n := range u.Columns {
		cols[i] = quoteIdent(t.Descriptor.Schema.Columns[n].Name)
	}
	return cols
}

// uniqueIndexDef is pg_get_indexdef of u's index (column > 0: that key
// column's name alone).
func uniqueIndexDef(t fluss.TableInfo, u fluss.UniqueConstraint, column int, pretty bool) string {
	cols := uniqueColumnNames(t, u)
	if column > 0 {
		if column > len(cols) {
			return ""
		}
		return cols[column-1]
	}
	table := quoteIdent(t.Path.Database) + "." + quoteIdent(t.Path.Table)
	if pretty && t.Path.Database == fluss.DefaultDatabase {
		table = quoteIdent(t.Path.Table)
	}
	return fmt.Sprintf("CREATE UNIQUE INDEX %s ON %s USING btree (%s)", quoteIdent(u.Name), table, strings.Join(cols, ", "))
}

// uniqueClassRows are pg_class's rows of t's unique indexes.
func (c *Catalog) uniqueClassRows(t fluss.TableInfo, owner any) []row {
	var rows []row
	for _, u := range uniquesOf(t) {
		r := classBase(uniqueIndexOID(t.TableID, u.ID), u.Name, namespaceOID(t.Path.Database), "i", len(u.Columns))
		r["relam"], r["relowner"], r["reltuples"], r["relpages"] = amBtree, owner, 0.0, 1
		rows = append(rows, r)
	}
	return rows
}

// uniqueAttributeRows are pg_attribute's rows of t's unique indexes.
func (c *Catalog) uniqueAttributeRows(t fluss.TableInfo) []row {
	var rows []row
	cols := t.Descriptor.Schema.Columns
	for _, u := range uniquesOf(t) {
		for k, n := range u.Columns {
			r := c.attributeRow(uniqueIndexOID(t.TableID, u.ID), k+1, cols[n].Name, cols[n].Type)
			r["attnotnull"] = false
			rows = append(rows, r)
		}
	}
	return rows
}

// uniqueIndexRows are pg_index's rows of t's unique indexes.
func (c *Catalog) uniqueIndexRows(t fluss.TableInfo) []row {
	var rows []row
	for _, u := range uniquesOf(t) {
		nums := attnums(u.Columns) // fkeys.go
		colls := make([]any, len(nums))
		classes := make([]any, len(nums))
		opts := make([]any, len(nums))
		for i, n := range nums {
			ct := c.colType(t.Descriptor.Schema.Columns[n-1].Type)
			colls[i], classes[i], opts[i] = ct.collation, c.btreeClass(t.Descriptor.Schema.Columns[n-1].Type), 0
		}
		rows = append(rows, row{
			"indexrelid": uniqueIndexOID(t.TableID, u.ID), "indrelid": RelationOID(t.TableID), "indnatts": len(nums),
			"indnkeyatts": len(nums), "indisunique": true, "indnullsnotdistinct": false, "indisprimary": false,
			"indisexclusion": false, "indimmediate": true, "indisclustered": false, "indisvalid": true,
			"indcheckxmin": false, "indisready": true, "indislive": true, "indisreplident": false,
			"indkey": int2s(nums), "indcollation": colls, "indclass": classes, "indoption": opts,
		})
	}
	return rows
}

// uniqueIndexesViewRows are pg_indexes' rows of t's unique indexes.
func uniqueIndexesViewRows(t fluss.TableInfo) []row {
	var rows []row
	for _, u := range uniquesOf(t) {
		rows = append(rows, row{"schemaname": t.Path.Database, "tablename": t.Path.Table,
			"indexname": u.Name, "indexdef": uniqueIndexDef(t, u, 0, false)})
	}
	return rows
}

// uniqueConstraintRows are pg_constraint's rows of t's UNIQUE
// constraints (a unique index CREATE UNIQUE INDEX made has none).
func uniqueConstraintRows(t fluss.TableInfo) []row {
	var rows []row
	for _, u := range uniquesOf(t) {
		if u.Index {
			continue
		}
		rows = append(rows, row{
			"oid": uniqueConstraintOID(t.TableID, u.ID), "conname": u.Name, "connamespace": namespaceOID(t.Path.Database), "contype": "u",
			"condeferrable": false, "condeferred": false, "convalidated": true, "conrelid": RelationOID(t.TableID),
			"contypid": 0, "conindid": uniqueIndexOID(t.TableID, u.ID), "conparentid": 0, "confrelid": 0,
			"confupdtype": " ", "confdeltype": " ", "confmatchtype": " ", "conislocal": true, "coninhcount": 0,
			"connoinherit": true, "conkey": int2s(attnums(u.Columns)),
		})
	}
	return rows
}

// uniqueConstraintDef is pg_get_constraintdef of a UNIQUE constraint.
func (c *Catalog) uniqueConstraintDef(ctx context.Context, oid uint32) (string, bool, error) {
	t, u, ok, err := c.uniqueByOID(ctx, oid, uniqueConstraintOIDBase)
	if err != nil || !ok || u.Index {
		return "", false, err
	}
	return "UNIQUE (" + strings.Join(uniqueColumnNames(t, u), ", ") + ")", true, nil
}

// uniqueIndexName is a unique index's name as regclass prints it.
func (c *Catalog) uniqueIndexName(ctx context.Context, oid uint32) (string, bool, error) {
	t, u, ok, err := c.uniqueByOID(ctx, oid, uniqueIndexOIDBase)
	if err != nil || !ok {
		return "", false, err
	}
	if !onPath(ctx, t.Path.Database) {
		return quoteIdent(t.Path.Database) + "." + quoteIdent(u.Name), true, nil
	}
	return quoteIdent(u.Name), true, nil
}

// uniqueIndexNamed finds the OID of t's unique index named rel.
func uniqueIndexNamed(t fluss.TableInfo, rel string) (uint32, bool) {
	for _, u := range uniquesOf(t) {
		if u.Name == rel {
			return uniqueIndexOID(t.TableID, u.ID), true
		}
	}
	return 0, false
}
