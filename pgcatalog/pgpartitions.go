package pgcatalog

import (
	"context"
	"maps"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"

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
// value other than a plain integer or boolean with its type); of the
// DEFAULT partition the negation of its siblings' values, "(NOT ((col IS
// NOT NULL) AND (col = ANY (ARRAY[v1, v2]))))", NULL when it has none.
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
	name := quoteIdent(key)
	left := name
	if col.Type.Kind == types.String && col.Type.Length > 0 { // varchar(n): compared as text
		left = "(" + name + ")::text"
	}
	value := func(lit string) string {
		if strings.HasPrefix(lit, "'") {
			ct := c.colType(col.Type)
			lit += "::" + c.FormatType(ct.oid, ct.typmod, ct.typmod >= 0)
		}
		return lit
	}
	if !v.Partition.Default {
		return "((" + name + " IS NOT NULL) AND (" + left + " = " + value(v.Partition.Literal()) + "))", true, nil
	}
	// the siblings' values in the order the definition lists them
	// (engine/pgpartdefault.go's defaultWhere: by value)
	lits := map[string]string{}
	for _, w := range partitionViews(c.listViews()) {
		if w.Partition.ParentID == v.Partition.ParentID && !w.Partition.Default && len(w.Partition.Values) == 1 {
			lits[w.Partition.Values[0]] = value(w.Partition.Literal())
		}
	}
	var elems []string
	for _, o := range v.Partition.Others {
		if l, ok := lits[o]; ok {
			elems = append(elems, l)
		}
	}
	switch len(elems) {
	case 0:
		return "", false, nil
	case 1:
		return "(NOT ((" + name + " IS NOT NULL) AND (" + left + " = " + elems[0] + ")))", true, nil
	}
	return "(NOT ((" + name + " IS NOT NULL) AND (" + left + " = ANY (ARRAY[" + strings.Join(elems, ", ") + "]))))", true, nil
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

// A primary key of a PostgreSQL-partitioned table is PostgreSQL's
// partitioned index (relkind 'I') with an index of each partition
// attached to it: each partition shows its own index, named
// partition_pkey as PostgreSQL chooses it, and its own constraint
// (conparentid the parent's), with pg_inherits linking the indexes. Here
// the partition is its parent's Fluss partition, whose key is the
// table's: the rows describe that one key per partition.
const (
	partIndexOIDBase      = firstUserOID + 14*oidStride
	partConstraintOIDBase = firstUserOID + 15*oidStride
)

func partIndexOID(viewID int64) uint32      { return uint32(partIndexOIDBase + viewID) }
func partConstraintOID(viewID int64) uint32 { return uint32(partConstraintOIDBase + viewID) }

// keyedPartition is a partition of a parent with a primary key.
type keyedPartition struct {
	v      views.View
	parent fluss.TableInfo
}

// keyedPartitions are the partitions whose parents (among s's tables)
// have a primary key.
func (c *Catalog) keyedPartitions(s *snapshot) []keyedPartition {
	parts := partitionViews(c.listViews())
	if len(parts) == 0 {
		return nil
	}
	byID := map[int64]fluss.TableInfo{}
	for _, t := range s.tables {
		if t.HasPrimaryKey() && t.PartitionStrategy() != "" {
			byID[t.TableID] = t
		}
	}
	var out []keyedPartition
	for _, v := range parts {
		if t, ok := byID[v.Partition.ParentID]; ok {
			out = append(out, keyedPartition{v: v, parent: t})
		}
	}
	return out
}

// partitionKeyName is the name of a partition's index and constraint.
func partitionKeyName(v views.View) string {
	name := v.Path.Table + "_pkey"
	if len(name) > 63 { // (PostgreSQL's NAMEDATALEN: the relation's name shortened)
		name = v.Path.Table[:63-len("_pkey")] + "_pkey"
	}
	return name
}

// withPartitionKeyRows adds the partitions' indexes and constraints to
// the catalogs that list a table's primary key, and makes a partitioned
// table's own index a partitioned index.
func (c *Catalog) withPartitionKeyRows() {
	wrap := func(name string, more func(s *snapshot, rows []row) []row) {
		c.extendRows(name, func(_ context.Context, s *snapshot, rows []row) []row { return more(s, rows) })
	}
	wrap("pg_class", func(s *snapshot, rows []row) []row {
		kps := c.keyedPartitions(s)
		parents := map[uint32]bool{}
		for _, t := range s.tables {
			if t.HasPrimaryKey() && t.PartitionStrategy() != "" {
				parents[pkIndexOID(t.TableID)] = true
			}
		}
		keyed := map[uint32]bool{}
		for _, kp := range kps {
			keyed[ViewOID(kp.v.ID)] = true
		}
		for _, r := range rows {
			oid, _ := r["oid"].(uint32)
			switch {
			case parents[oid] && r["relkind"] == "i":
				r["relkind"] = "I"
				r["relpages"] = 0
				r["relfilenode"] = 0
			case keyed[oid] && r["relkind"] == "r":
				r["relhasindex"] = true
			}
		}
		for _, kp := range kps {
			ir := classBase(partIndexOID(kp.v.ID), partitionKeyName(kp.v), namespaceOID(kp.v.Path.Database), "i", len(kp.parent.Descriptor.Schema.PrimaryKey))
			ir["relam"] = amBtree
			ir["relowner"] = c.roleOID(c.tableOwner(kp.v.ACLKey()))
			ir["reltuples"] = 0.0
			ir["relpages"] = 1
			ir["relispartition"] = true
			rows = append(rows, ir)
		}
		return rows
	})
	wrap("pg_attribute", func(s *snapshot, rows []row) []row {
		for _, kp := range c.keyedPartitions(s) {
			cols := kp.parent.Descriptor.Schema.Columns
			for k, num := range pkAttnums(kp.parent) {
				r := c.attributeRow(partIndexOID(kp.v.ID), k+1, cols[num-1].Name, cols[num-1].Type)
				r["attnotnull"] = false
				rows = append(rows, r)
			}
		}
		return rows
	})
	wrap("pg_index", func(s *snapshot, rows []row) []row {
		for _, kp := range c.keyedPartitions(s) {
			for _, r := range rows {
				if r["indexrelid"] == pkIndexOID(kp.parent.TableID) {
					ir := maps.Clone(r)
					ir["indexrelid"], ir["indrelid"] = partIndexOID(kp.v.ID), ViewOID(kp.v.ID)
					rows = append(rows, ir)
					break
				}
			}
		}
		return rows
	})
	wrap("pg_indexes", func(s *snapshot, rows []row) []row {
		for _, kp := range c.keyedPartitions(s) {
			rows = append(rows, row{"schemaname": kp.v.Path.Database, "tablename": kp.v.Path.Table, "indexname": partitionKeyName(kp.v),
				"indexdef": partitionIndexDef(kp, 0)})
		}
		return rows
	})
	wrap("pg_constraint", func(s *snapshot, rows []row) []row {
		for _, kp := range c.keyedPartitions(s) {
			for _, r := range rows {
				if r["oid"] == pkConstraintOID(kp.parent.TableID) {
					cr := maps.Clone(r)
					cr["oid"], cr["conname"], cr["connamespace"] = partConstraintOID(kp.v.ID), partitionKeyName(kp.v), namespaceOID(kp.v.Path.Database)
					cr["conrelid"], cr["conindid"], cr["conparentid"] = ViewOID(kp.v.ID), partIndexOID(kp.v.ID), pkConstraintOID(kp.parent.TableID)
					cr["conislocal"], cr["coninhcount"], cr["connoinherit"] = false, 1, false
					rows = append(rows, cr)
					break
				}
			}
		}
		return rows
	})
	// the partition's index and constraint depend on the parent's
	// ('P'), which pg_dump orders the parent's key before (its ADD
	// CONSTRAINT, then each partition's), and on the partition ('S')
	wrap("pg_depend", func(s *snapshot, rows []row) []row {
		dep := func(class, obj, refclass, ref uint32, typ string) row {
			return row{"classid": class, "objid": obj, "objsubid": 0, "refclassid": refclass, "refobjid": ref, "refobjsubid": 0, "deptype": typ}
		}
		for _, kp := range c.keyedPartitions(s) {
			idx, con := partIndexOID(kp.v.ID), partConstraintOID(kp.v.ID)
			rows = append(rows,
				dep(classPgClass, idx, classPgConstraint, con, "i"),
				dep(classPgClass, idx, classPgClass, pkIndexOID(kp.parent.TableID), "P"),
				dep(classPgClass, idx, classPgClass, ViewOID(kp.v.ID), "S"),
				dep(classPgConstraint, con, classPgConstraint, pkConstraintOID(kp.parent.TableID), "P"),
				dep(classPgConstraint, con, classPgClass, ViewOID(kp.v.ID), "S"))
		}
		return rows
	})
	wrap("pg_inherits", func(s *snapshot, rows []row) []row {
		for _, kp := range c.keyedPartitions(s) {
			rows = append(rows, row{"inhrelid": partIndexOID(kp.v.ID), "inhparent": pkIndexOID(kp.parent.TableID), "inhseqno": 1, "inhdetachpending": false})
		}
		return rows
	})
}

// quoteIdents quotes each name.
func quoteIdents(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = quoteIdent(n)
	}
	return out
}

// partitionKeyByOID is the keyed partition whose index (base
// partIndexOIDBase) or constraint (partConstraintOIDBase) oid is.
func (c *Catalog) partitionKeyByOID(ctx context.Context, oid uint32, base int64) (keyedPartition, bool, error) {
	if int64(oid) <= base || int64(oid) >= base+oidStride {
		return keyedPartition{}, false, nil
	}
	v, ok := c.viewByOID(ViewOID(int64(oid) - base))
	if !ok || !v.IsPartition() {
		return keyedPartition{}, false, nil
	}
	return c.keyedParent(ctx, v)
}

// keyedParent is partition v with its parent, when the parent has a
// primary key.
func (c *Catalog) keyedParent(ctx context.Context, v views.View) (keyedPartition, bool, error) {
	parent, index, sp, ok, err := c.relation(ctx, RelationOID(v.Partition.ParentID))
	if err != nil || !ok || index || sp != nil || !parent.HasPrimaryKey() {
		return keyedPartition{}, false, err
	}
	return keyedPartition{v: v, parent: parent}, true, nil
}

// partitionIndexNamed is the OID of the partition index named rel in
// schema.
func (c *Catalog) partitionIndexNamed(ctx context.Context, schema, rel string) (uint32, bool, error) {
	for _, v := range partitionViews(c.listViews()) {
		if v.Path.Database != schema || partitionKeyName(v) != rel {
			continue
		}
		if _, ok, err := c.keyedParent(ctx, v); err != nil || ok {
			return partIndexOID(v.ID), ok, err
		}
	}
	return 0, false, nil
}

// partitionIndexDef is pg_get_indexdef of a partition's index.
func partitionIndexDef(kp keyedPartition, column int) string {
	cols := quoteIdents(kp.parent.Descriptor.Schema.PrimaryKey)
	if column > 0 {
		if column > len(cols) {
			return ""
		}
		return cols[column-1]
	}
	return "CREATE UNIQUE INDEX " + quoteIdent(partitionKeyName(kp.v)) + " ON " + quoteIdent(kp.v.Path.Database) + "." + quoteIdent(kp.v.Path.Table) +
		" USING btree (" + strings.Join(cols, ", ") + ")"
}
