package pgcatalog

import (
	"context"
	"strings"

	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/views"
)

// The partitions of PostgreSQL-partitioned tables (CREATE TABLE p
// PARTITION OF t FOR VALUES IN (v), engine/pgpartitions.go): sqlgate keeps
// each as a view over its Fluss partition (views.View.Partition) and shows
// it as PostgreSQL shows a partition: a pg_class row of relkind 'r' with
// relispartition and relpartbound (the bound's text, which pg_get_expr
// prints as it is: "FOR VALUES IN (3)"), its columns and row type, a
// pg_inherits row naming its parent, a BASE TABLE in information_schema;
// its parent's relhassubclass is set. So psql's \d+ lists a partitioned
// table's partitions and \d of a partition says whose it is.

// partitionViews are the partitions among vs.
func partitionViews(vs []views.View) []views.View {
	var out []views.View
	for _, v := range vs {
		if v.IsPartition() {
			out = append(out, v)
		}
	}
	return out
}

// notPartitions are vs without the partitions.
func notPartitions(vs []views.View) []views.View {
	out := make([]views.View, 0, len(vs))
	for _, v := range vs {
		if !v.IsPartition() {
			out = append(out, v)
		}
	}
	return out
}

// withPartitionRows adds the partitions' rows to the generators of the
// relations that list them, and sets their parents' relhassubclass.
func (c *Catalog) withPartitionRows() {
	add := map[string]func([]views.View) []row{
		"pg_class":     c.partitionClassRows,
		"pg_attribute": c.viewAttributeRows,
		"pg_type":      c.viewTypeRows,
		"pg_inherits":  partitionInheritsRows,
		"tables":       c.partitionInfoTablesRows,
		"pg_tables":    c.partitionPgTablesRows,
		"columns":      c.partitionInfoColumnsRows,
	}
	for name, fn := range add {
		c.appendViewRows(name, func(context.Context) []row { return fn(partitionViews(c.listViews())) })
	}
	prev := c.rows["pg_class"]
	c.rows["pg_class"] = func(ctx context.Context, s *snapshot) ([]row, error) {
		rows, err := prev(ctx, s)
		if err != nil {
			return nil, err
		}
		parents := map[uint32]bool{}
		for _, v := range partitionViews(c.listViews()) {
			parents[RelationOID(v.Partition.ParentID)] = true
		}
		if len(parents) == 0 {
			return rows, nil
		}
		for _, r := range rows {
			if oid, ok := r["oid"].(uint32); ok && parents[oid] && r["relkind"] == "p" {
				r["relhassubclass"] = true
			}
		}
		return rows, nil
	}
}

func (c *Catalog) partitionClassRows(vs []views.View) []row {
	rows := c.viewClassRows(vs)
	for i, v := range vs {
		r := rows[i]
		r["relkind"] = "r"
		r["relam"] = amHeap
		r["relfilenode"] = ViewOID(v.ID)
		r["relhasrules"] = false
		r["relminmxid"] = 1
		r["relispartition"] = true
		r["relreplident"] = "d"
		r["relpartbound"] = v.Partition.Bound
	}
	return rows
}

func (c *Catalog) partitionPgTablesRows(vs []views.View) []row {
	var rows []row
	for _, v := range vs {
		rows = append(rows, row{"schemaname": v.Path.Database, "tablename": v.Path.Table, "tableowner": c.tableOwner(v.ACLKey()),
			"hasindexes": false, "hasrules": false, "hastriggers": false, "rowsecurity": false})
	}
	return rows
}

func partitionInheritsRows(vs []views.View) []row {
	rows := make([]row, 0, len(vs))
	for _, v := range vs {
		rows = append(rows, row{"inhrelid": ViewOID(v.ID), "inhparent": RelationOID(v.Partition.ParentID), "inhseqno": 1, "inhdetachpending": false})
	}
	return rows
}

func (c *Catalog) partitionInfoTablesRows(vs []views.View) []row {
	var rows []row
	for _, v := range vs {
		rows = append(rows, row{"table_catalog": c.opts.Database, "table_schema": v.Path.Database,
			"table_name": v.Path.Table, "table_type": "BASE TABLE", "is_insertable_into": "YES", "is_typed": "NO"})
	}
	return rows
}

func (c *Catalog) partitionInfoColumnsRows(vs []views.View) []row {
	var rows []row
	for _, v := range vs {
		for i, col := range v.Columns {
			r := c.columnRow(v.Path.Database, v.Path.Table, i+1, col.Name, col.Type) // NOT NULL where its parent's is (engine: setPartitionView)
			r["is_updatable"] = "YES"
			rows = append(rows, r)
		}
	}
	return rows
}

var _ functions.PartitionConstraintDefiner = (*Catalog)(nil)

// PartitionConstraintDef implements functions.PartitionConstraintDefiner:
// pg_get_partition_constraintdef of a partition, "((col IS NOT NULL) AND
// (col = value))" as PostgreSQL prints a LIST partition's constraint (a
// value other than a plain integer or boolean with its type).
func (c *Catalog) PartitionConstraintDef(ctx context.Context, oid uint32) (string, bool, error) {
	v, ok := c.viewByOID(oid)
	if !ok || !v.IsPartition() {
		return "", false, nil
	}
	parent, index, sp, ok, err := c.relation(ctx, RelationOID(v.Partition.ParentID))
	if err != nil || !ok || index || sp != nil || len(parent.Descriptor.PartitionKeys) != 1 {
		return "", false, err
	}
	key := parent.Descriptor.PartitionKeys[0]
	col := parent.Descriptor.Schema.Columns[parent.ColumnIndex(key)]
	value := v.Partition.Literal()
	if strings.HasPrefix(value, "'") {
		ct := c.colType(col.Type)
		value += "::" + FormatType(ct.oid, ct.typmod, ct.typmod >= 0)
	}
	name := quoteIdent(key)
	left := name
	if col.Type.Kind == types.String && col.Type.Length > 0 { // varchar(n): compared as text
		left = "(" + name + ")::text"
	}
	return "((" + name + " IS NOT NULL) AND (" + left + " = " + value + "))", true, nil
}

var _ functions.PartitionRelations = (*Catalog)(nil)

// PartitionParent implements functions.PartitionRelations.
func (c *Catalog) PartitionParent(_ context.Context, oid uint32) (uint32, bool, error) {
	v, ok := c.viewByOID(oid)
	if !ok || !v.IsPartition() {
		return 0, false, nil
	}
	return RelationOID(v.Partition.ParentID), true, nil
}

// PartitionChildren implements functions.PartitionRelations: the
// partitions of the table oid names, by name.
func (c *Catalog) PartitionChildren(_ context.Context, oid uint32) ([]uint32, error) {
	var out []uint32
	for _, v := range partitionViews(c.listViews()) {
		if RelationOID(v.Partition.ParentID) == oid {
			out = append(out, ViewOID(v.ID))
		}
	}
	return out, nil
}
