package binder

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/functions"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// MAP values. The rewrite turns Flink's MAP['k1', v1, 'k2', v2, ...] into
// pg__map('k1', v1, ...) (sql/mapctor.go). Keys and values each take
// their common type as ARRAY[] elements do (text when all are unknown
// literals); assigned to a MAP column or cast to a MAP type the
// constructor is re-typed against the target's key and value types.
// Fluss map keys are never NULL: a NULL key is 22004.

// bindMapFunction binds cardinality, map_keys and map_values of a MAP;
// ok is false for cardinality of anything else (an array: the ordinary
// function, bound again from its argument's node).
func (b *binder) bindMapFunction(s *scope, n *pt.FuncCall) (Expr, bool, error) {
	if len(n.Args) != 1 {
		return nil, false, nil
	}
	m, err := b.bindTree(s, n.Args[0])
	if err != nil {
		return nil, true, err
	}
	if m.Type().Kind != types.Map {
		if n.Name == "cardinality" {
			return nil, false, nil
		}
		return nil, true, b.errAt(n, sqlerr.New(sqlerr.UndefinedFunction, "function %s(%s) does not exist", n.Name, m.Type().PGName()).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts."))
	}
	return b.mapFunction(n.Name, m), true, nil
}

// bindMapConstructor binds MAP[k1, v1, ..].
func (b *binder) bindMapConstructor(s *scope, n *pt.Map) (Expr, error) {
	if len(n.KeysValues) == 0 {
		// no keys or values: both are text, as when every one is an
		// unknown literal; assigned or cast, it takes the target's types
		t := mapType(types.StringType, types.StringType)
		return b.rememberCtor(&Const{Value: []types.MapEntry{}, T: t}, nil, nil), nil
	}
	if len(n.KeysValues)%2 != 0 {
		return nil, b.errAt(n, sqlerr.New(sqlerr.SyntaxError, "MAP constructor needs an even number of arguments (key, value pairs), not %d", len(n.KeysValues)))
	}
	args, err := b.bindTreeList(s, n.KeysValues)
	if err != nil {
		return nil, err
	}
	raw := make([]Expr, len(args))
	copy(raw, args)
	var kts, vts []types.T
	for i, a := range args {
		if i%2 == 0 {
			if c, ok := a.(*Const); ok && c.Value == nil {
				return nil, b.errAt(n.KeysValues[i], sqlerr.New(sqlerr.NullValueNotAllowed, "map key must not be null"))
			}
			kts = append(kts, a.Type())
		} else {
			vts = append(vts, a.Type())
		}
	}
	common := func(ts []types.T, off int) (types.T, error) {
		t, err := functions.CommonType("MAP", ts)
		if err == nil {
			return t, nil
		}
		at := len(ts) - 1
		for i := 1; i < len(ts); i++ {
			if _, e := functions.CommonType("MAP", ts[:i+1]); e != nil {
				at = i
				break
			}
		}
		return types.T{}, b.errAt(n.KeysValues[2*at+off], sqlerr.As(err))
	}
	kt, err := common(kts, 0)
	if err != nil {
		return nil, err
	}
	vt, err := common(vts, 1)
	if err != nil {
		return nil, err
	}
	for i := range args {
		t := kt
		if i%2 == 1 {
			t = vt
		}
		if _, isParam := args[i].(*Param); isParam && t.Kind == types.String {
			// leave the parameter's type open: an assignment or cast of
			// the map may still give it the target's key or value type
			args[i] = b.resolveUnknown(args[i], t)
		} else if isUnknown(args[i].Type()) {
			if args[i], err = b.coerceUnknown(n.KeysValues[i], args[i], t); err != nil {
				return nil, err
			}
		}
		args[i] = b.castTo(args[i], t)
	}
	return b.rememberTreeCtor(makeMap(args, mapType(kt, vt)), raw, n.KeysValues), nil
}

func mapType(k, v types.T) types.T {
	k = k.Nullable()
	k.NotNull = true
	v = v.Nullable()
	return types.T{Kind: types.Map, Key: &k, Elem: &v}
}

// makeMap builds a MAP of t from alternating key and value expressions
// already typed as t's: a constant when every one is.
func makeMap(args []Expr, t types.T) Expr {
	entries := make([]types.MapEntry, 0, len(args)/2)
	for i := 0; i+1 < len(args); i += 2 {
		k, ok1 := args[i].(*Const)
		v, ok2 := args[i+1].(*Const)
		if !ok1 || !ok2 {
			return &FuncCall{Name: "map", Args: args, T: t, Kernel: mapConstructorKernel(t)}
		}
		entries = append(entries, types.MapEntry{Key: k.Value, Value: v.Value})
	}
	return &Const{Value: entries, T: t}
}

// mapConstructorKernel assembles a map array from alternating key and
// value arrays; a NULL key is 22004.
func mapConstructorKernel(t types.T) func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		bld := array.NewBuilder(mem, t.ArrowType())
		defer bld.Release()
		bld.Reserve(n)
		for i := 0; i < n; i++ {
			entries := make([]types.MapEntry, 0, len(args)/2)
			for k := 0; k+1 < len(args); k += 2 {
				entries = append(entries, types.MapEntry{Key: types.ValueAt(args[k], i), Value: types.ValueAt(args[k+1], i)})
			}
			if err := types.AppendValue(bld, entries); err != nil {
				return nil, err
			}
		}
		return bld.NewArray(), nil
	}
}

// retargetMap re-types a MAP constructor against target's key and value
// types (assignment when col is set, else a cast).
func (b *binder) retargetMap(node sourceNode, e Expr, info *ctorInfo, col string, target types.T, table string, mismatch func(string, ...any) *sqlerr.Error) (Expr, bool, error) {
	out := make([]Expr, len(info.args))
	for i, a := range info.args {
		t := *target.Key
		if i%2 == 1 {
			t = *target.Elem
		}
		x, err := b.assignField(info.nodes[i], a, col, t, table, func() *sqlerr.Error {
			what := "key"
			if i%2 == 1 {
				what = "value"
			}
			return mismatch("Cannot cast map %s of type %s to %s.", what, a.Type().PGName(), t.PGName())
		})
		if err != nil {
			return nil, true, err
		}
		out[i] = x
	}
	return makeMap(out, target), true, nil
}

// mapFunction binds cardinality(m) (the number of entries), map_keys(m) and
// map_values(m) (arrays, in the map's order).
func (b *binder) mapFunction(name string, m Expr) Expr {
	mt := m.Type()
	var t types.T
	switch name {
	case "cardinality":
		t = types.T{Kind: types.Int32}
	case "map_keys":
		t = types.ArrayOf(mt.Key.Nullable())
	default:
		t = types.ArrayOf(mt.Elem.Nullable())
	}
	kernel := func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		bld := array.NewBuilder(mem, t.ArrowType())
		defer bld.Release()
		bld.Reserve(n)
		for i := 0; i < n; i++ {
			v := types.ValueAt(args[0], i)
			if v == nil {
				bld.AppendNull()
				continue
			}
			entries, _ := v.([]types.MapEntry)
			var out any
			switch name {
			case "cardinality":
				out = int64(len(entries))
			case "map_keys", "map_values":
				vals := make([]any, len(entries))
				for k, e := range entries {
					if name == "map_keys" {
						vals[k] = e.Key
					} else {
						vals[k] = e.Value
					}
				}
				out = vals
			}
			if err := types.AppendValue(bld, out); err != nil {
				return nil, err
			}
		}
		return bld.NewArray(), nil
	}
	return &FuncCall{Name: name, Args: []Expr{m}, T: t, Kernel: kernel}
}
