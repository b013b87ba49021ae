package binder

import (
	"context"
	"reflect"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// bindMapLookup binds m[key] on a Fluss MAP: the value stored under key,
// NULL when the map is NULL or has no such key (as Flink SQL reads a map).
// The key takes the map's key type: an unknown literal is read as it, other
// types are cast where PostgreSQL would cast implicitly. keyNode is the
// key's syntax, for error positions.
func (b *binder) bindMapLookup(keyNode sourceNode, m, key Expr) (Expr, error) {
	kt := m.Type().Key.Nullable()
	var err error
	if isUnknown(key.Type()) {
		if key, err = b.coerceUnknown(keyNode, key, kt); err != nil {
			return nil, err
		}
	} else if key, err = b.coerce(keyNode, key, kt, "map key"); err != nil {
		return nil, err
	}
	elem := m.Type().Elem.Nullable()
	return &FuncCall{Name: "map_lookup", Args: []Expr{m, key}, T: elem, Kernel: mapLookupKernel(elem)}, nil
}

// mapLookupKernel finds each row's key among its map's entries (a linear
// scan: Fluss maps are small, and their keys are not sorted).
func mapLookupKernel(elem types.T) func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		m, ok := args[0].(*array.Map)
		if !ok {
			return nil, sqlerr.New(sqlerr.InternalError, "map lookup over %s", args[0].DataType())
		}
		keys, items := m.Keys(), m.Items()
		bld := array.NewBuilder(mem, elem.ArrowType())
		defer bld.Release()
		bld.Reserve(n)
		for i := 0; i < n; i++ {
			if m.IsNull(i) || args[1].IsNull(i) {
				bld.AppendNull()
				continue
			}
			want := types.ValueAt(args[1], i)
			start, end := m.ValueOffsets(i)
			var found any
			for j := int(start); j < int(end); j++ {
				if reflect.DeepEqual(types.ValueAt(keys, j), want) {
					found = types.ValueAt(items, j)
					break
				}
			}
			if err := types.AppendValue(bld, found); err != nil {
				return nil, err
			}
		}
		return bld.NewArray(), nil
	}
}
