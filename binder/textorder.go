package binder

import (
	"github.com/sqlgate/sqlgate/types"
)

// Types kept as their canonical text whose order is not the text's:
// comparisons, ORDER BY, window and aggregate orders, set operations' sort
// keys and min/max read a key in their place (a text whose byte order is
// PostgreSQL's order of the values). Equality, GROUP BY and DISTINCT stay
// the text's, except where keyedEquality says PostgreSQL's equality is
// coarser than the text's.
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
	}
	return textOrder{}, false
}

// hasTextOrder reports whether t's values order by a key (textOrderOf).
func hasTextOrder(t types.T) bool {
	_, ok := textOrderOf(t)
	return ok
}

// textKey is e's ordering key under o, NULL for NULL.
func (b *binder) textKey(e Expr, o textOrder) Expr {
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
