package functions

import (
	"context"

	"github.com/sqlgate/sqlgate/types"
)

// PartitionedTables is implemented by a CatalogInfo whose tables may be
// partitioned (relkind 'p'): pg_partition_root and pg_partition_tree read
// it. A Fluss PARTITIONED BY table's partitions are no relations: it is
// its own root and its tree's only member. A PostgreSQL-partitioned
// table's are (PartitionRelations).
type PartitionedTables interface {
	Partitioned(ctx context.Context, oid uint32) (bool, error)
}

// PartitionRelations is implemented by a CatalogInfo whose partitions are
// relations (CREATE TABLE p PARTITION OF t): a partition's parent, a
// partitioned table's partitions (one level: Fluss's partitions are not
// partitioned themselves).
type PartitionRelations interface {
	PartitionParent(ctx context.Context, oid uint32) (parent uint32, ok bool, err error)
	PartitionChildren(ctx context.Context, oid uint32) ([]uint32, error)
}

// partitionParent is the parent of the partition oid names (ok false when
// it names none).
func partitionParent(ctx context.Context, c CatalogInfo, oid uint32) (uint32, bool, error) {
	p, ok := c.(PartitionRelations)
	if !ok {
		return 0, false, nil
	}
	return p.PartitionParent(ctx, oid)
}

// partitionTreeRowType is pg_partition_tree's composite: (relid regclass,
// parentrelid regclass, isleaf boolean, level integer).
var partitionTreeRowType = types.T{Kind: types.Row, Fields: []types.Field{
	{Name: "relid", Type: types.RegOf(types.RegClass)}, {Name: "parentrelid", Type: types.RegOf(types.RegClass)},
	{Name: "isleaf", Type: types.BoolType}, {Name: "level", Type: types.Int32Type},
}}

// isPartitioned reports whether oid names a partitioned table.
func isPartitioned(ctx context.Context, c CatalogInfo, oid uint32) (bool, error) {
	p, ok := c.(PartitionedTables)
	if !ok {
		return false, nil
	}
	return p.Partitioned(ctx, oid)
}

func partitionFuncs() []*Func {
	regclass := types.RegOf(types.RegClass)
	return []*Func{{Name: "pg_partition_root", Args: []types.T{regclass}, Ret: regclass, Strict: true,
		Kernel: withCatalog(regclass, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
			// NULL for a relation that is neither a partition nor
			// partitioned, as PostgreSQL answers
			if parent, ok, err := partitionParent(ctx, c, oidArg(a[0])); err != nil || ok {
				return int64(parent), err
			}
			if ok, err := isPartitioned(ctx, c, oidArg(a[0])); !ok || err != nil {
				return nil, err
			}
			return a[0], nil
		})}}
}

// partitionTreeRows is pg_partition_tree(regclass): a partitioned table
// alone at level 0, not a leaf (its Fluss partitions are no relations);
// no rows for any other relation.
func partitionTreeRows(ctx context.Context, args []any) (func() (any, bool, error), error) {
	if args[0] == nil {
		return none, nil
	}
	c, err := catalogOf(ctx)
	if err != nil {
		return nil, err
	}
	var rows []any // each a record's fields ([]any)
	if parent, ok, err := partitionParent(ctx, c, oidArg(args[0])); err != nil {
		return nil, err
	} else if ok { // a partition: its own tree's root, a leaf
		rows = append(rows, []any{args[0], int64(parent), true, int64(0)})
	} else {
		ok, err := isPartitioned(ctx, c, oidArg(args[0]))
		if err != nil || !ok {
			return none, err
		}
		rows = append(rows, []any{args[0], nil, false, int64(0)})
		if pr, ok := c.(PartitionRelations); ok {
			kids, err := pr.PartitionChildren(ctx, oidArg(args[0]))
			if err != nil {
				return nil, err
			}
			for _, k := range kids {
				rows = append(rows, []any{int64(k), args[0], true, int64(1)})
			}
		}
	}
	return listRows(rows), nil
}

// partitionAncestorRows is pg_partition_ancestors(regclass): a partition
// and its parent, a partitioned table alone (its root), no rows for any
// other relation, as PostgreSQL's check_rel_can_be_partition has it.
func partitionAncestorRows(ctx context.Context, args []any) (func() (any, bool, error), error) {
	if args[0] == nil {
		return none, nil
	}
	c, err := catalogOf(ctx)
	if err != nil {
		return nil, err
	}
	var rows []any
	if parent, ok, err := partitionParent(ctx, c, oidArg(args[0])); err != nil {
		return nil, err
	} else if ok {
		rows = []any{args[0], int64(parent)}
	} else if ok, err := isPartitioned(ctx, c, oidArg(args[0])); err != nil {
		return nil, err
	} else if ok {
		rows = []any{args[0]}
	}
	return listRows(rows), nil
}
