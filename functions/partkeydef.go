package functions

import "context"

// PartitionKeyDefiner is the optional part of a CatalogInfo that knows
// partitioned tables' keys (pg_get_partkeydef); without it the function
// answers NULL, as PostgreSQL does for a table that is not partitioned.
type PartitionKeyDefiner interface {
	PartitionKeyDef(ctx context.Context, oid uint32) (def string, ok bool, err error)
}

var partKeyDefKernel = withCatalog(tText, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
	p, ok := c.(PartitionKeyDefiner)
	if !ok {
		return nil, nil
	}
	return optional(p.PartitionKeyDef(ctx, oidArg(a[0])))
})

// PartitionConstraintDefiner is the optional part of a CatalogInfo that
// knows partitions' constraints (pg_get_partition_constraintdef); without
// it the function answers NULL, as PostgreSQL does for a relation that is
// no partition.
type PartitionConstraintDefiner interface {
	PartitionConstraintDef(ctx context.Context, oid uint32) (def string, ok bool, err error)
}

var partConstraintDefKernel = withCatalog(tText, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
	p, ok := c.(PartitionConstraintDefiner)
	if !ok {
		return nil, nil
	}
	return optional(p.PartitionConstraintDef(ctx, oidArg(a[0])))
})
