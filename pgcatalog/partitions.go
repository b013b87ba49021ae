package pgcatalog

import (
	"context"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/functions"
)

// Partitioned tables (PARTITIONED BY) show as PostgreSQL shows a
// partitioned table: relkind 'p' in pg_class, a pg_partitioned_table row
// (LIST partitioning: a Fluss partition holds one value per partition key)
// and pg_get_partkeydef, so that psql's \d says "Partitioned table" and
// "Partition key: LIST (dt)". Fluss's partitions are not relations (they
// have no pg_class rows nor pg_inherits rows; SHOW PARTITIONS lists them).

// relkindOf is a stored table's pg_class relkind.
func relkindOf(t fluss.TableInfo) string {
	if t.IsPartitioned() {
		return "p"
	}
	return "r"
}

// partitionedTableRows are pg_partitioned_table's rows.
func (c *Catalog) partitionedTableRows(_ context.Context, s *snapshot) ([]row, error) {
	var rows []row
	for _, t := range s.tables {
		if !t.IsPartitioned() {
			continue
		}
		var nums []int
		classes, colls := []any{}, []any{}
		for _, k := range t.Descriptor.PartitionKeys {
			i := t.ColumnIndex(k)
			nums = append(nums, i+1)
			ct := c.colType(t.Descriptor.Schema.Columns[i].Type)
			colls = append(colls, ct.collation)
			classes = append(classes, c.btreeClass(t.Descriptor.Schema.Columns[i].Type))
		}
		rows = append(rows, row{"partrelid": RelationOID(t.TableID), "partstrat": "l", "partnatts": len(nums),
			"partdefid": 0, "partattrs": int2s(nums), "partclass": classes, "partcollation": colls})
	}
	return rows, nil
}

// PartitionKeyDef is pg_get_partkeydef: "LIST (col, ...)" for a
// partitioned table, none for any other relation.
func (c *Catalog) PartitionKeyDef(ctx context.Context, oid uint32) (string, bool, error) {
	t, index, spec, ok, err := c.relation(ctx, oid)
	if err != nil || !ok || index || spec != nil || !t.IsPartitioned() {
		return "", false, err
	}
	cols := make([]string, len(t.Descriptor.PartitionKeys))
	for i, k := range t.Descriptor.PartitionKeys {
		cols[i] = quoteIdent(k)
	}
	return "LIST (" + strings.Join(cols, ", ") + ")", true, nil
}

var _ functions.PartitionedTables = (*Catalog)(nil)

// Partitioned implements functions.PartitionedTables: whether oid names
// a partitioned table (relkind 'p').
func (c *Catalog) Partitioned(ctx context.Context, oid uint32) (bool, error) {
	if _, isView := c.viewByOID(oid); isView {
		return false, nil
	}
	t, index, sp, ok, err := c.relation(ctx, oid)
	if err != nil || !ok || index || sp != nil {
		return false, err
	}
	return t.IsPartitioned(), nil
}
