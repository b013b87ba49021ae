package functions

import (
	"context"

	"github.com/sqlgate/sqlgate/types"
)

// PartitionedTables is implemented by a CatalogInfo whose tables may be
// partitioned (relkind 'p'): pg_partition_root and pg_partition_tree read
// it. sqlgate's partitions are no relations, so a partitioned table is
// its own root and its tree's only member.
type PartitionedTables interface {
	Partitioned(ctx context.Context, oid uint32) (bool, error)
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
	ok, err := isPartitioned(ctx, c, oidArg(args[0]))
	if err != nil || !ok {
		return none, err
	}
	done := false
	return func() (any, bool, error) {
		if done {
			return nil, false, nil
		}
		done = true
		return []any{args[0], nil, false, int64(0)}, true, nil
	}, nil
}
