package binder

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Enum values (types.Enum) are their labels, Strings; equality, GROUP BY
// and DISTINCT are the labels' equality. Their order is the declaration
// order (pg_enum.enumsortorder), not the labels' text order: comparisons,
// ORDER BY and min/max compare each value's rank instead (enumRank, a
// float8 computed from the type's labels as the statement binds), and
// min/max give the label of the rank back (enumLabel).

// enumRank is e's rank in its enum type's sort order (NULL for NULL).
func (b *binder) enumRank(e Expr) Expr {
	rank := enumRanks(e.Type())
	k := func(_ context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		return ranksOf(mem, args[0].(*array.String), rank), nil
	}
	return &FuncCall{Name: "pg__enum_rank", Args: []Expr{e}, T: types.Float64Type, Kernel: k}
}

// enumRanks is each label's rank in enum type t's sort order: its place
// in the declaration (pg_enum.enumsortorder).
func enumRanks(t types.T) map[string]float64 {
	rank := map[string]float64{}
	if def := t.EnumDef(); def != nil {
		for i, l := range def.Labels {
			rank[l] = float64(i)
		}
	}
	return rank
}

// ranksOf is the ranks (enumRanks) of the labels in; a label a concurrent
// ALTER TYPE added since the statement bound sorts after the others.
func ranksOf(mem memory.Allocator, in *array.String, rank map[string]float64) arrow.Array {
	bld := array.NewFloat64Builder(mem)
	defer bld.Release()
	bld.Reserve(in.Len())
	for i := 0; i < in.Len(); i++ {
		if in.IsNull(i) {
			bld.AppendNull()
			continue
		}
		r, ok := rank[in.Value(i)]
		if !ok {
			r = float64(len(rank))
		}
		bld.Append(r)
	}
	return bld.NewArray()
}

// enumLeaf is the enum type at the bottom of t: t itself when it is an
// enum, its element's (recursively) when t is an array; ok is false when
// there is none.
func enumLeaf(t types.T) (types.T, bool) {
	for t.Kind == types.Array && t.Elem != nil {
		t = *t.Elem
	}
	return t, t.IsEnum()
}

// isEnumArray reports whether t is an array (at any depth) of an enum.
func isEnumArray(t types.T) bool {
	_, ok := enumLeaf(t)
	return ok && t.Kind == types.Array
}

// rankType is t with its enum leaf replaced by float8: the type of
// enumKey's value.
func rankType(t types.T) types.T {
	if t.Kind == types.Array && t.Elem != nil {
		return types.ArrayOf(rankType(*t.Elem).Nullable())
	}
	return types.Float64Type
}

// enumKey is the ordering key of e: an enum's rank (enumRank), an enum
// array's the array of its elements' ranks, of the same shape - arrays of
// ranks compare element by element, as PostgreSQL compares enum arrays
// (array_cmp over enum_cmp). Any other e is its own key.
func (b *binder) enumKey(e Expr) Expr {
	t := e.Type()
	if o, ok := textOrderOf(t); ok {
		return b.textKey(e, o) // inet, pg_lsn, text search types, ranges by their keys (textorder.go)
	}
	if o, ok := textOrderLeaf(t); ok {
		return textKeyArray(e, o) // arrays of them by arrays of keys
	}
	leaf, ok := enumLeaf(t)
	if !ok {
		return e
	}
	if t.IsEnum() {
		return b.enumRank(e)
	}
	rank := enumRanks(leaf)
	rt := rankType(t)
	k := func(_ context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		d, err := rankData(mem, args[0].Data(), rt, rank)
		if err != nil {
			return nil, err
		}
		defer d.Release()
		return array.MakeFromData(d), nil
	}
	return &FuncCall{Name: "pg__enum_rank", Args: []Expr{e}, T: rt, Kernel: k}
}

// rankData is the ranks of the labels in d (utf8 or a list of them, at any
// depth), lists keeping their offsets and validity.
func rankData(mem memory.Allocator, d arrow.ArrayData, t types.T, rank map[string]float64) (arrow.ArrayData, error) {
	return mapListLeaves(d, t, func(d arrow.ArrayData) (arrow.ArrayData, error) {
		in := array.NewStringData(d)
		defer in.Release()
		out := ranksOf(mem, in, rank)
		defer out.Release()
		out.Data().Retain()
		return out.Data(), nil
	})
}

// enumLabel is the label of the rank e (a float8) of the enum type t, or
// when t is an enum array, the array of the labels of e's ranks (enumKey's
// inverse, for min and max).
func (b *binder) enumLabel(e Expr, t types.T) Expr {
	var labels []string
	if leaf, ok := enumLeaf(t); ok {
		if def := leaf.EnumDef(); def != nil {
			labels = def.Labels
		}
	}
	t = t.Nullable()
	k := func(_ context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		d, err := labelData(mem, args[0].Data(), t, labels)
		if err != nil {
			return nil, err
		}
		defer d.Release()
		return array.MakeFromData(d), nil
	}
	return &FuncCall{Name: "pg__enum_label", Args: []Expr{e}, T: t, Kernel: k}
}

// labelData is the labels of the ranks in d (float8 or a list of them, at
// any depth), lists keeping their offsets and validity.
func labelData(mem memory.Allocator, d arrow.ArrayData, t types.T, labels []string) (arrow.ArrayData, error) {
	return mapListLeaves(d, t, func(d arrow.ArrayData) (arrow.ArrayData, error) {
		in := array.NewFloat64Data(d)
		defer in.Release()
		bld := array.NewStringBuilder(mem)
		defer bld.Release()
		for i := 0; i < in.Len(); i++ {
			r := int(in.Value(i))
			if in.IsNull(i) || r < 0 || r >= len(labels) {
				bld.AppendNull()
				continue
			}
			bld.Append(labels[r])
		}
		out := bld.NewArray()
		defer out.Release()
		out.Data().Retain()
		return out.Data(), nil
	})
}

// mapListLeaves is d (of type t: a value, or a list of them at any depth)
// with leaf applied to its innermost values; lists keep their offsets and
// validity, and take t's list types.
func mapListLeaves(d arrow.ArrayData, t types.T, leaf func(arrow.ArrayData) (arrow.ArrayData, error)) (arrow.ArrayData, error) {
	if t.Kind != types.Array {
		return leaf(d)
	}
	children := d.Children()
	if len(children) != 1 {
		return nil, sqlerr.New(sqlerr.InternalError, "enum array of %s", d.DataType())
	}
	child, err := mapListLeaves(children[0], *t.Elem, leaf)
	if err != nil {
		return nil, err
	}
	defer child.Release()
	return array.NewData(t.ArrowType(), d.Len(), d.Buffers(), []arrow.ArrayData{child}, d.NullN(), d.Offset()), nil
}

// isOrdering reports the comparison operators that order (<, <=, >, >=).
func isOrdering(op Op) bool { return op == OpLt || op == OpLe || op == OpGt || op == OpGe }

// enumComparison rewrites an ordering comparison of two values of one enum
// type into a comparison of their ranks; ok is false when l and r are not
// enum values.
func (b *binder) enumComparison(n sourceNode, op Op, l, r Expr, lt, rt types.T) (Expr, Expr, error) {
	if !lt.IsEnum() && !rt.IsEnum() {
		// arrays of one enum type order element by element by
		// declaration: compare their arrays of ranks
		ll, lok := enumLeaf(lt)
		rl, rok := enumLeaf(rt)
		if isOrdering(op) && lok && rok && ll.TypeOID == rl.TypeOID && functions.SamePGType(lt, rt) {
			return b.enumKey(l), b.enumKey(r), nil
		}
		return l, r, nil
	}
	if lt.IsEnum() != rt.IsEnum() || lt.TypeOID != rt.TypeOID {
		if !op.IsComparison() && op != OpIsDistinct && op != OpIsNotDistinct {
			return l, r, nil
		}
		return nil, nil, b.binaryOpError(n, op, lt, rt)
	}
	if !isOrdering(op) {
		return l, r, nil
	}
	return b.enumRank(l), b.enumRank(r), nil
}

// enumFunction is enum_first, enum_last and enum_range over an enum type:
// constants of the type's labels, as PostgreSQL reads them from pg_enum
// (the arguments' values matter only as enum_range's bounds).
func (b *binder) enumFunction(n sourceNode, name string, args []Expr) (Expr, bool, error) {
	switch name {
	case "enum_first", "enum_last", "enum_range":
	case "greatest", "least":
		return b.enumGreatest(n, name, args)
	default:
		return nil, false, nil
	}
	if len(args) == 0 || !args[0].Type().IsEnum() && !(len(args) == 2 && args[1].Type().IsEnum()) {
		return nil, false, nil
	}
	t := args[0].Type()
	if !t.IsEnum() {
		t = args[1].Type()
	}
	t = t.Nullable()
	def := t.EnumDef()
	if def == nil {
		return nil, true, b.errAt(n, sqlerr.New(sqlerr.UndefinedObject, "cache lookup failed for type %d", t.TypeOID))
	}
	labels := def.Labels
	switch {
	case name == "enum_first" && len(args) == 1:
		if len(labels) == 0 {
			return nil, true, b.errAt(n, sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "enum %s contains no values", def.QualifiedName()))
		}
		return b.newConst(labels[0], t), true, nil
	case name == "enum_last" && len(args) == 1:
		if len(labels) == 0 {
			return nil, true, b.errAt(n, sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "enum %s contains no values", def.QualifiedName()))
		}
		return b.newConst(labels[len(labels)-1], t), true, nil
	case name == "enum_range" && len(args) == 1:
		vals := make([]any, len(labels))
		for i, l := range labels {
			vals[i] = l
		}
		return b.newConst(vals, types.ArrayOf(t)), true, nil
	case name == "enum_range" && len(args) == 2:
		lo, hi := args[0], args[1]
		var err error
		if lo, err = b.coerce(n, lo, t, "argument"); err != nil {
			return nil, true, err
		}
		if hi, err = b.coerce(n, hi, t, "argument"); err != nil {
			return nil, true, err
		}
		lc, lok := lo.(*Const)
		hc, hok := hi.(*Const)
		if !lok || !hok {
			return nil, true, b.errAt(n, sqlerr.NotSupported("enum_range of non-constant bounds"))
		}
		from, to := 0, len(labels)-1
		if lc.Value != nil {
			from = def.Rank(lc.Value.(string))
		}
		if hc.Value != nil {
			to = def.Rank(hc.Value.(string))
		}
		vals := []any{}
		for i := from; i <= to && i >= 0; i++ {
			vals = append(vals, labels[i])
		}
		return b.newConst(vals, types.ArrayOf(t)), true, nil
	}
	return nil, false, nil
}

// enumCast is a cast to or from an enum type: from text (and the other
// string types) it is enum_in, which checks each value's label as the
// statement runs; to text a String's own value; between different enum
// types, or an enum and a non-string type, none exists (42846). ok is
// false for casts that involve no enum.
func (b *binder) enumCast(n sourceNode, x Expr, target types.T) (Expr, bool, error) {
	xt := x.Type()
	if !xt.IsEnum() && !target.IsEnum() {
		return nil, false, nil
	}
	noCast := func() (Expr, bool, error) {
		return nil, true, b.errAt(n, sqlerr.New(sqlerr.CannotCoerce, "cannot cast type %s to %s", xt.PGName(), target.PGName()))
	}
	switch {
	case xt.IsEnum() && target.IsEnum():
		if xt.TypeOID != target.TypeOID {
			return noCast()
		}
		return x, true, nil
	case xt.IsEnum():
		if (!target.IsString() || functions.OwnStringType(target)) && target.Kind != types.Name {
			return noCast() // (name is of the string category: an I/O cast)
		}
		return &Cast{X: x, T: target.Nullable()}, true, nil
	case xt.IsString() && !functions.OwnStringType(xt) || xt.Kind == types.Name:
		return b.enumIn(x, target), true, nil
	}
	return noCast()
}

// enumIn is enum_in over a string expression: each value must be one of
// target's labels (22P02 as the statement runs).
func (b *binder) enumIn(x Expr, target types.T) Expr {
	if xt := x.Type(); xt.Kind != types.String || xt.Variant != types.NoVariant {
		x = b.castTo(x, types.StringType)
	}
	def := target.EnumDef()
	name := target.Registry().EnumName(target.TypeOID)
	labels := map[string]bool{}
	if def != nil {
		for _, l := range def.Labels {
			labels[l] = true
		}
	}
	k := func(_ context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		in := args[0].(*array.String)
		for i := 0; i < n; i++ {
			if !in.IsNull(i) && !labels[in.Value(i)] {
				return nil, types.InvalidEnumInput(name, in.Value(i))
			}
		}
		in.Retain()
		return in, nil
	}
	return &FuncCall{Name: "enum_in", Args: []Expr{x}, T: target.Nullable(), Kernel: k}
}

// enumGreatest is GREATEST and LEAST over values of one enum type (unknown
// literals read as it): the label of the greatest or least rank.
func (b *binder) enumGreatest(n sourceNode, name string, args []Expr) (Expr, bool, error) {
	var t *types.T
	for _, a := range args {
		if at := a.Type(); at.IsEnum() {
			t = &at
			break
		}
	}
	if t == nil {
		return nil, false, nil
	}
	ranks := make([]Expr, len(args))
	for i, a := range args {
		at := a.Type()
		switch {
		case isUnknown(at) || at.Kind == types.Null:
			c, err := b.coerceUnknown(n, a, *t)
			if err != nil {
				return nil, true, err
			}
			a = c
		case !at.IsEnum() || at.TypeOID != t.TypeOID:
			return nil, false, nil // the library's resolution reports it
		}
		ranks[i] = b.enumRank(a)
	}
	e, err := b.callFunction(n, name, ranks)
	if err != nil {
		return nil, true, err
	}
	return b.enumLabel(e, *t), true, nil
}
