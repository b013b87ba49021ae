package binder

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/types"
)

// Types kept as their canonical text whose order is not the text's:
// comparisons, ORDER BY, window and aggregate orders, set operations' sort
// keys and min/max read a key in their place (a text whose byte order is
// PostgreSQL's order of the values). Equality, GROUP BY and DISTINCT stay
// the text's, except where keyedEquality says PostgreSQL's equality is
// coarser than the text's: there = and <> compare keys, and GROUP BY,
// DISTINCT, set operations and count(DISTINCT) group by the key
// (bpchargroups.go).
type textOrder struct {
	name  string                       // the key function, as plans show it
	key   func(string) (string, error) // the value's key
	ofKey func(string) (string, error) // the key's value, for min and max; nil where PostgreSQL has neither
	to    types.T                      // the type ofKey returns
	// keyedEquality: = and <> compare keys too (tsquery: operands'
	// weights and prefix marks are not compared, 'a:A' = 'a').
	keyedEquality bool
}

// textOrderOf is t's textOrder; ok is false for a type whose text sorts
// as its values do (or that is not text).
func textOrderOf(t types.T) (o textOrder, ok bool) {
	if t.Kind != types.String {
		return textOrder{}, false
	}
	switch t.Variant {
	case types.Inet, types.Cidr:
		// network_cmp: family, network, mask length, address
		return textOrder{name: "pg__inet_key", key: types.InetKey, ofKey: types.InetOfKey, to: types.InetType}, true
	case types.PgLsn:
		// "0/10" follows "0/9"
		return textOrder{name: "pg__lsn_key", key: types.LSNKey, ofKey: types.LSNOfKey, to: t}, true
	case types.TSVector:
		// tsvector_cmp: stored size first
		return textOrder{name: "pg__tsvector_key", key: types.TSVectorKey}, true
	case types.TSQuery:
		// tsquery_cmp: item count, size, then the tree
		return textOrder{name: "pg__tsquery_key", key: types.TSQueryKey, keyedEquality: true}, true
	case types.RegConfig:
		// oid's order (regconfigops.go); min and max are oid's, not
		// regconfig's
		return textOrder{name: "pg__regconfig_key", key: types.RegConfigKey}, true
	case types.QChar:
		// btcharcmp: the byte, unsigned ('\377', kept as a backslash
		// and digits, after 'a'); PostgreSQL has no min or max of "char"
		return textOrder{name: "pg__char_key", key: types.QCharKey}, true
	}
	if v := t.Variant; v.IsRange() {
		// range_cmp: empty first, then the bounds (types.RangeKey); equal
		// keys for equal ranges of two texts (numrange's [1.0,2) and
		// [1,2)). PostgreSQL has no min or max of a range.
		return textOrder{name: "pg__range_key", key: func(s string) (string, error) {
			return types.RangeKey(s, v)
		}, keyedEquality: true}, true
	}
	if v := t.Variant; v.IsMultirange() {
		// multirange_cmp: range by range (types.MultirangeKey)
		return textOrder{name: "pg__multirange_key", key: func(s string) (string, error) {
			return types.MultirangeKey(s, v)
		}, keyedEquality: true}, true
	}
	return textOrder{}, false
}

// hasTextOrder reports whether t's values order by a key (textOrderOf):
// a keyed type, or an array of one (textOrderLeaf).
func hasTextOrder(t types.T) bool {
	_, ok := textOrderOf(t)
	if !ok {
		_, ok = textOrderLeaf(t)
	}
	return ok
}

// textKey is e's ordering key under o, NULL for NULL.
func (b *binder) textKey(e Expr, o textOrder) Expr { return textKeyExpr(e, o) }

// textKeyExpr is textKey, for the plan rewrites outside a binder
// (bpchargroups.go).
func textKeyExpr(e Expr, o textOrder) Expr {
	return &FuncCall{Name: o.name, Args: []Expr{e}, T: types.StringType, Kernel: stringMapKernel(o.key)}
}

// textOfKey is the value of the key e (min and max of a keyed type).
func (b *binder) textOfKey(e Expr, o textOrder) Expr {
	return &FuncCall{Name: o.name + "_value", Args: []Expr{e}, T: o.to, Kernel: stringMapKernel(o.ofKey)}
}

// textOrderComparison replaces the operands of a comparison of two values
// of one keyed type by their keys where the key decides it: an ordering
// comparison, or = and <> under keyedEquality. Other comparisons keep
// their operands.
func (b *binder) textOrderComparison(op Op, l, r Expr, lt, rt types.T) (Expr, Expr) {
	o, ok := textOrderOf(lt)
	if !ok || lt.Variant != rt.Variant || rt.Kind != types.String {
		return l, r
	}
	if isOrdering(op) || o.keyedEquality && (op == OpEq || op == OpNe || op == OpIsDistinct || op == OpIsNotDistinct) {
		return b.textKey(l, o), b.textKey(r, o)
	}
	return l, r
}

// textOrderLeaf is the textOrder of t's innermost element when t is an
// array (at any depth) of a keyed type; ok is false otherwise.
func textOrderLeaf(t types.T) (textOrder, bool) {
	if t.Kind != types.Array {
		return textOrder{}, false
	}
	for t.Kind == types.Array && t.Elem != nil {
		t = *t.Elem
	}
	return textOrderOf(t)
}

// keyArrayType is t (an array of a keyed type, at any depth) with its
// leaf replaced by text: the type of textKeyArray's value.
func keyArrayType(t types.T) types.T {
	if t.Kind == types.Array && t.Elem != nil {
		return types.ArrayOf(keyArrayType(*t.Elem).Nullable())
	}
	return types.StringType
}

// textKeyArray is the array e (of a keyed type, at any depth) as the array
// of its elements' keys, of the same shape: arrays of keys compare element
// by element as PostgreSQL's array_cmp compares them by the element
// type's comparison.
func textKeyArray(e Expr, o textOrder) Expr {
	t := e.Type()
	kt := keyArrayType(t)
	leaf := stringMapKernel(o.key)
	k := func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		d, err := mapListLeaves(args[0].Data(), kt, func(d arrow.ArrayData) (arrow.ArrayData, error) {
			in := array.NewStringData(d)
			defer in.Release()
			out, err := leaf(ctx, mem, []arrow.Array{in}, in.Len())
			if err != nil {
				return nil, err
			}
			defer out.Release()
			out.Data().Retain()
			return out.Data(), nil
		})
		if err != nil {
			return nil, err
		}
		defer d.Release()
		return array.MakeFromData(d), nil
	}
	return &FuncCall{Name: o.name + "s", Args: []Expr{e}, T: kt, Kernel: k}
}

// keyedOperands replaces x and y, two values (or arrays, at any depth) of
// one keyed type, by their keys (textKey, textKeyArray) where the key
// decides op: an ordering comparison, or an equality under keyedEquality.
// ok is false when they keep their values.
func keyedOperands(op Op, x, y Expr) (Expr, Expr, bool) {
	t := x.Type()
	o, ok := textOrderOf(t)
	if !ok {
		o, ok = textOrderLeaf(t)
	}
	if !ok || !isOrdering(op) && !(o.keyedEquality && (op == OpEq || op == OpNe || op == OpIsDistinct || op == OpIsNotDistinct)) {
		return x, y, false
	}
	key := func(e Expr) Expr {
		if e.Type().Kind == types.Array {
			return textKeyArray(e, o)
		}
		return textKeyExpr(e, o)
	}
	return key(x), key(y), true
}

// keyedGreatest is the kernel of GREATEST (name "greatest") or LEAST of
// values of a keyed type: the value whose key is the greatest (least),
// NULLs skipped, the first of equal ones kept, as PostgreSQL's MinMaxExpr
// keeps its first.
func keyedGreatest(name string, o textOrder) functions.Kernel {
	greatest := name == "greatest"
	return func(_ context.Context, mem memory.Allocator, in []arrow.Array, n int) (arrow.Array, error) {
		cols := make([]*array.String, len(in))
		for i, a := range in {
			cols[i] = a.(*array.String)
		}
		bld := array.NewStringBuilder(mem)
		defer bld.Release()
		bld.Reserve(n)
		for row := 0; row < n; row++ {
			best, bestKey, found := "", "", false
			for _, c := range cols {
				if c.IsNull(row) {
					continue
				}
				v := c.Value(row)
				key, err := o.key(v)
				if err != nil {
					return nil, err
				}
				if !found || greatest && key > bestKey || !greatest && key < bestKey {
					best, bestKey, found = v, key, true
				}
			}
			if !found {
				bld.AppendNull()
				continue
			}
			bld.Append(best)
		}
		return bld.NewArray(), nil
	}
}
