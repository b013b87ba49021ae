package binder

import (
	"context"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/functions"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// PostgreSQL arrays. The rewrite (sql/rewrite.go) turns array syntax into
// markers: ARRAY[a, b] -> pg__array(a, b), x[i] -> pg__subscript(x, i),
// x[lo:hi] -> pg__slice(x, lo, hi) (an omitted bound is pg__open()),
// x op ANY|ALL (arr) -> pg__any|pg__all(x, 'op', arr), ARRAY(SELECT ..)
// -> pg__array_subquery((SELECT ..)), which sql's transformer reads as
// the tree's Array, Subscript, Slice, Quantified and ArraySubquery. Each
// binds to a FuncCall whose kernel is in functions/arrays.go, or to an
// ARRAY subquery.

// bindArrayConstructor types ARRAY[...] as an array of its elements'
// common type (text when every element is an unknown literal).
func (b *binder) bindArrayConstructor(s *scope, n *pt.Array) (Expr, error) {
	if len(n.Elems) == 0 {
		return nil, b.errAt(n, sqlerr.New(sqlerr.IndeterminateDatatype, "cannot determine type of empty array").
			WithHint("Explicitly cast to the desired type, for example ARRAY[]::integer[]."))
	}
	args, err := b.bindTreeList(s, n.Elems)
	if err != nil {
		return nil, err
	}
	ts := make([]types.T, len(args))
	for i, a := range args {
		ts[i] = b.commonInputType(a)
	}
	elem, at, err := functions.CommonTypeAt("ARRAY", ts)
	if err != nil {
		// at the element the whole-list rule refuses, as PostgreSQL
		// points (select_common_type's location)
		if at < 0 || at >= len(n.Elems) {
			at = len(ts) - 1
		}
		return nil, b.errAt(n.Elems[at], sqlerr.As(err))
	}
	for i := range args {
		if isUnknown(args[i].Type()) {
			if args[i], err = b.coerceUnknown(n.Elems[i], args[i], elem); err != nil {
				return nil, err
			}
		} else if args[i], err = b.castToCommon(n.Elems[i], args[i], elem); err != nil {
			return nil, err
		}
	}
	return b.constructArray(elem, args)
}

// bindArrayCast binds ARRAY[...]::T[] as PostgreSQL does (its
// transformArrayExpr given the cast's type): the cast is pushed into the
// constructor, each element cast explicitly to T on its own, so untyped
// literals are read as T (ARRAY[10, 'NaN']::numeric[] is {10,NaN}, where
// typing the elements first would read 'NaN' as an integer) and typed
// elements need only an explicit cast (ARRAY[1, true]::int[] is {1,1}).
// A nested ARRAY[...] is cast the same way; when there is one, the other
// elements are cast to the array type (ARRAY[ARRAY[1], '{2}']::int[]).
// The result has the dimensions of the constructor, not of T: int[] and
// int[][] are one type in PostgreSQL.
func (b *binder) bindArrayCast(s *scope, n *pt.Array, target types.T) (Expr, error) {
	leaf := functions.ArrayLeaf(target)
	if len(n.Elems) == 0 {
		return &Const{Value: []any{}, T: types.ArrayOf(leaf.Nullable())}, nil // ARRAY[]::int[]
	}
	args := make([]Expr, len(n.Elems))
	nested := make([]bool, len(n.Elems))
	subDepth := 0 // the dimensions of the first sub-array
	for i, e := range n.Elems {
		var err error
		if sub, ok := e.(*pt.Array); ok {
			args[i], err = b.bindArrayCast(s, sub, target)
			nested[i] = true
		} else {
			args[i], err = b.bindTree(s, e)
		}
		if err != nil {
			return nil, err
		}
		// an element of an array type is a sub-array too, as in
		// PostgreSQL: ARRAY[ARRAY[]::int[], ARRAY[]::int[]]::int[]
		if t := args[i].Type(); subDepth == 0 && t.Kind == types.Array {
			subDepth = functions.ArrayDepth(t)
		}
	}
	want := leaf
	if subDepth > 0 {
		want = functions.WithArrayDepth(leaf, subDepth)
	}
	for i, e := range n.Elems {
		if nested[i] {
			continue
		}
		var err error
		if args[i], err = b.castBound(e, e, e, args[i], want); err != nil {
			return nil, err
		}
	}
	elem := args[0].Type().Nullable()
	for i, a := range args {
		if functions.ArrayDepth(a.Type()) != functions.ArrayDepth(elem) {
			// ARRAY[ARRAY[1], ARRAY[ARRAY[2]]]::int[], or an array operand
			// of other dimensions than the nested ARRAY[...]
			return nil, sqlerr.New(sqlerr.ArraySubscriptError, "multidimensional arrays must have array expressions with matching dimensions")
		}
		if !a.Type().Nullable().Equal(elem) {
			args[i] = b.castTo(a, elem) // a typmod the elements do not share
		}
	}
	return b.constructArray(elem, args)
}

// constructArray is ARRAY[args...] of elements of type elem: a constant
// when every element is one.
func (b *binder) constructArray(elem types.T, args []Expr) (Expr, error) {
	allConst := true
	vals := make([]any, len(args))
	for i := range args {
		if c, ok := args[i].(*Const); ok {
			vals[i] = c.Value
		} else {
			allConst = false
		}
	}
	t := types.ArrayOf(elem.Nullable())
	if allConst {
		// folded as PostgreSQL folds it (its error has no position):
		// the kernel's dimension checks, ARRAY[ARRAY[1], NULL] is 2202E
		v, err := functions.ArrayConstructorValue(elem.Nullable(), vals)
		if err != nil {
			return nil, sqlerr.As(err)
		}
		return &Const{Value: v, T: t}, nil
	}
	return &FuncCall{Name: "array", Args: args, T: t, Kernel: functions.ArrayConstructorKernel(elem.Nullable())}, nil
}

// arrayOperand binds an expression that must be an array (an unknown
// literal is read as text[] unless want says otherwise).
func (b *binder) arrayOperand(n sourceNode, e Expr, want *types.T) (Expr, error) {
	if isUnknown(e.Type()) {
		t := types.ArrayOf(types.StringType)
		if want != nil {
			t = *want
		}
		return b.coerceUnknown(n, e, t)
	}
	return e, nil
}

// subscriptChain unrolls x[a][b:c]... (written without parentheses, which
// PostgreSQL reads as one multi-dimensional subscript): the base
// expression and the subscripts (*pt.Subscript, *pt.Slice), innermost
// first.
func subscriptChain(n pt.Expr) (pt.Expr, []pt.Expr) {
	var chain []pt.Expr
	base := n
	for {
		var x pt.Expr
		var chained bool
		switch f := base.(type) {
		case *pt.Subscript:
			x, chained = f.X, f.Chained
		case *pt.Slice:
			x, chained = f.X, f.Chained
		default:
			return base, chain
		}
		chain = append([]pt.Expr{base}, chain...)
		base = x
		if !chained {
			return base, chain
		}
	}
}

// subscriptBounds are a subscript's index, or a slice's bounds (nil:
// omitted).
func subscriptBounds(e pt.Expr) []pt.Expr {
	if s, ok := e.(*pt.Slice); ok {
		return []pt.Expr{s.Lo, s.Hi}
	}
	return []pt.Expr{e.(*pt.Subscript).Index}
}

// bindDeepSubscript handles a chain of subscripts deeper than the array's
// nesting, which PostgreSQL allows since its array types do not fix the
// number of dimensions: without a slice the result is NULL (a[1][1] on a
// one-dimensional array), with one an empty array (a[1:2][1]). ok is false
// when the chain is not deeper than the array, which the ordinary
// subscript path binds.
func (b *binder) bindDeepSubscript(s *scope, n pt.Expr) (Expr, bool, error) {
	baseNode, chain := subscriptChain(n)
	if len(chain) < 2 {
		return nil, false, nil
	}
	base, err := b.bindTree(s, baseNode)
	if err != nil {
		return nil, true, err
	}
	depth, scalar := 0, base.Type()
	for scalar.Kind == types.Array {
		depth, scalar = depth+1, *scalar.Elem
	}
	slice := false
	for _, f := range chain {
		_, isSlice := f.(*pt.Slice)
		slice = slice || isSlice
	}
	if depth == 0 {
		return nil, true, b.errAt(n, sqlerr.New(sqlerr.DatatypeMismatch, "cannot subscript type %s because it does not support subscripting", base.Type().PGName()))
	}
	if len(chain) <= depth {
		if slice {
			return nil, true, b.errAt(n, sqlerr.NotSupported("slices of nested arrays"))
		}
		return nil, false, nil
	}
	// type-check every subscript, as PostgreSQL does
	for _, f := range chain {
		for _, a := range subscriptBounds(f) {
			if a == nil {
				continue
			}
			e, err := b.bindTree(s, a)
			if err != nil {
				return nil, true, err
			}
			if _, err := b.subscriptIndex(a, e); err != nil {
				return nil, true, err
			}
		}
	}
	if !slice {
		return &Const{T: scalar.Nullable()}, true, nil
	}
	t := base.Type().Nullable()
	empty := func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		bld := array.NewBuilder(mem, t.ArrowType())
		defer bld.Release()
		for i := 0; i < n; i++ {
			var v any
			if !args[0].IsNull(i) {
				v = []any{}
			}
			if err := types.AppendValue(bld, v); err != nil {
				return nil, err
			}
		}
		return bld.NewArray(), nil
	}
	return &FuncCall{Name: "slice", Args: []Expr{base}, T: t, Kernel: empty}, true, nil
}

// bindSubscript binds x[i]: 1-based, NULL when out of range.
func (b *binder) bindSubscript(s *scope, n *pt.Subscript) (Expr, error) {
	if e, ok, err := b.bindDeepSubscript(s, n); ok {
		return e, err
	}
	x, err := b.bindTree(s, n.X)
	if err != nil {
		return nil, err
	}
	i, err := b.bindTree(s, n.Index)
	if err != nil {
		return nil, err
	}
	if x.Type().Kind == types.Map {
		return b.bindMapLookup(n.Index, x, i)
	}
	arr := x
	if arr.Type().Kind == types.Name {
		// name is a fixed array of 64 "char"s, from 0 (typname[0])
		idx, err := b.subscriptIndex(n.Index, i)
		if err != nil {
			return nil, err
		}
		return &FuncCall{Name: "subscript", Args: []Expr{arr, idx}, T: types.QCharType, Kernel: functions.NameSubscriptKernel()}, nil
	}
	if arr.Type().Kind != types.Array {
		return nil, b.errAt(n, sqlerr.New(sqlerr.DatatypeMismatch, "cannot subscript type %s because it does not support subscripting", arr.Type().PGName()))
	}
	idx, err := b.subscriptIndex(n.Index, i)
	if err != nil {
		return nil, err
	}
	if arr.Type().Variant.IsVector() {
		// int2vector/oidvector subscripts start at 0 (indkey[0] is the
		// first key column); the kernel counts from 1
		idx = &BinaryOp{Op: OpAdd, L: idx, R: &Const{Value: int64(1), T: types.Int64Type}, T: types.Int64Type}
	}
	elem := arr.Type().Elem.Nullable()
	return &FuncCall{Name: "subscript", Args: []Expr{arr, idx}, T: elem, Kernel: functions.SubscriptKernel(elem)}, nil
}

// subscriptIndex brings an array subscript to bigint (PostgreSQL takes
// int4 by an assignment cast: integers of every width, numeric and
// floating-point rounded; others are 42804).
func (b *binder) subscriptIndex(n sourceNode, e Expr) (Expr, error) {
	t := e.Type()
	switch {
	case isUnknown(t):
		i4, err := b.coerceUnknown(n, e, types.Int32Type)
		if err != nil {
			return nil, err
		}
		return b.castTo(i4, types.Int64Type), nil
	case t.IsInteger():
		return b.castTo(e, types.Int64Type), nil
	case t.IsNumeric():
		// numeric, real, double precision: their assignment cast to
		// integer, which rounds (a[1.5] is a[2])
		return b.castTo(b.castTo(e, types.Int32Type), types.Int64Type), nil
	}
	return nil, b.errAt(n, sqlerr.New(sqlerr.DatatypeMismatch, "array subscript must have type integer"))
}

// bindSlice binds x[lo:hi], either bound possibly omitted.
func (b *binder) bindSlice(s *scope, n *pt.Slice) (Expr, error) {
	if e, ok, err := b.bindDeepSubscript(s, n); ok {
		return e, err
	}
	arr, err := b.bindTree(s, n.X)
	if err != nil {
		return nil, err
	}
	if arr.Type().Kind != types.Array {
		return nil, b.errAt(n, sqlerr.New(sqlerr.DatatypeMismatch, "cannot subscript type %s because it does not support subscripting", arr.Type().PGName()))
	}
	args := []Expr{arr}
	has := [2]bool{}
	for i, a := range [2]pt.Expr{n.Lo, n.Hi} {
		if a == nil {
			continue
		}
		e, err := b.bindTree(s, a)
		if err != nil {
			return nil, err
		}
		if e, err = b.subscriptIndex(a, e); err != nil {
			return nil, err
		}
		args = append(args, e)
		has[i] = true
	}
	t := arr.Type().Nullable()
	return &FuncCall{Name: "slice", Args: args, T: t, Kernel: functions.SliceKernel(t, has[0], has[1])}, nil
}

// bindQuantifiedArray binds x op ANY|ALL (array): x and the elements are
// compared in their common type, with SQL's three-valued logic.
func (b *binder) bindQuantifiedArray(s *scope, n *pt.Quantified) (Expr, error) {
	op, all := n.Op, n.All
	x, err := b.bindTree(s, n.X)
	if err != nil {
		return nil, err
	}
	arr, err := b.bindTree(s, n.Right)
	if err != nil {
		return nil, err
	}
	if isUnknown(arr.Type()) {
		elem := types.StringType
		if !isUnknown(x.Type()) {
			elem = operandType(x.Type())
		}
		want := types.ArrayOf(elem)
		if arr, err = b.arrayOperand(n.Right, arr, &want); err != nil {
			return nil, err
		}
	}
	if arr.Type().Kind != types.Array {
		return nil, b.errAt(n.OpAt, sqlerr.New(sqlerr.WrongObjectType, "op ANY/ALL (array) requires array on right side"))
	}
	if po, ok := quantifiedPatternOps[op]; ok {
		return b.bindQuantifiedPattern(n, po, x, arr) // quantpattern.go
	}
	// the element type as PostgreSQL's: the innermost one (3 = ANY
	// (ARRAY[[1,2],[3,4]]) compares 3 with every element of the one
	// array of two dimensions)
	depth := arrayDims(arr.Type())
	elem := functions.ArrayElementType(arr.Type()).Nullable()
	var common types.T
	if x.Type().Kind == types.Row && elem.Kind == types.Row {
		// a record against an array of records: record_eq and
		// record_cmp field by field, which take fields of one type only
		if err := comparableRecords(x.Type(), elem, op == "=" || op == "<>" || op == "!="); err != nil {
			return nil, err
		}
		kernel, err := functions.QuantifiedArrayKernel(op, all, elem, arrayOfDims(elem, depth))
		if err != nil {
			return nil, b.errAt(n, sqlerr.As(err))
		}
		name := "any"
		if all {
			name = "all"
		}
		return &FuncCall{Name: op + " " + name, Args: []Expr{x, arr}, T: types.BoolType, Kernel: kernel}, nil
	}
	if isUnknown(x.Type()) && elem.Variant == types.RegConfig {
		// oid's operators: the literal is an oid (regconfigops.go)
		common = types.T{Kind: types.Oid}
		if x, err = b.coerceUnknown(n, x, common); err != nil {
			return nil, err
		}
	} else if isUnknown(x.Type()) {
		common = elem
		if x, err = b.coerceUnknown(n, x, operandType(elem)); err != nil {
			return nil, err
		}
	} else if regconfigAsOID(x.Type(), elem) {
		common = types.T{Kind: types.Oid} // regconfigops.go
	} else {
		c, ok := commonType(x.Type(), elem)
		if !ok || c.Kind == types.Map || c.Kind == types.Row {
			return nil, b.operatorError(n.OpAt, op, x.Type(), elem)
		}
		common = c
	}
	if common.Kind == types.Char {
		// bpchar compares without its trailing blanks: both sides as
		// text, which drops them, as makeBinary does; a text operand
		// keeps its own (text = text is PostgreSQL's operator then)
		if !isPlainText(x.Type()) {
			x = b.castTo(x, types.T{Kind: types.Char})
		}
		common = types.StringType
	}
	if common.Kind == types.String && common.Variant == types.JSON {
		return nil, b.operatorError(n.OpAt, op, x.Type(), elem) // json has no comparison operators
	}
	if common.IsEnum() && (op == "<" || op == "<=" || op == ">" || op == ">=") {
		// by declaration order: ranks against arrays of ranks (enumops.go)
		x, arr, common, elem = b.enumKey(b.castTo(x, common)), b.enumKey(arr), types.Float64Type, types.Float64Type
	}
	if o, ok := textOrderOf(common); ok && (op == "<" || op == "<=" || op == ">" || op == ">=" || o.keyedEquality && (op == "=" || op == "<>" || op == "!=")) {
		// keys against arrays of keys (textorder.go)
		x = b.textKey(b.castTo(x, common), o)
		if !elem.Equal(common) {
			arr = &Cast{X: arr, T: arrayOfDims(common, depth)}
		}
		arr = textKeyArray(arr, o)
		common, elem = types.StringType, types.StringType
	}
	at := arrayOfDims(common, depth)
	kernel, err := functions.QuantifiedArrayKernel(op, all, common.Nullable(), at)
	if err != nil {
		return nil, b.errAt(n, sqlerr.As(err))
	}
	x = b.castTo(x, common)
	if !elem.Equal(common) {
		arr = &Cast{X: arr, T: at}
	}
	name := "any"
	if all {
		name = "all"
	}
	return &FuncCall{Name: op + " " + name, Args: []Expr{x, arr}, T: types.BoolType, Kernel: kernel}, nil
}

// comparableRecords checks that records a and b can be compared as
// PostgreSQL's record_eq (eq) and record_cmp compare them, with their
// errors (functions/recordcmp.go, recordFieldsError), which have no
// position: PostgreSQL raises them running the comparison.
func comparableRecords(a, c types.T, eq bool) error {
	return recordFieldsError(a, c, eq, true)
}

// comparableRecordLeaves is comparableRecords of two arrays of records:
// PostgreSQL's array_eq and array_cmp compare their elements with
// record_eq and record_cmp, which refuse fields of different types (int
// against numeric, text against varchar), fields without the operator
// (json) and records of different lengths rather than bring them to a
// common type. sameType is false for arrays of two different composite
// types (or one and record[]): anyarray's operators take one array type,
// so there is no operator (42883).
func comparableRecordLeaves(l, r types.T, eq bool) (sameType bool, err error) {
	for l.Kind == types.Array && r.Kind == types.Array && l.Elem != nil && r.Elem != nil {
		l, r = *l.Elem, *r.Elem
	}
	if l.Kind != types.Row || r.Kind != types.Row {
		return true, nil
	}
	if compositeOID(l) != compositeOID(r) {
		return false, nil
	}
	return true, comparableRecords(l, r, eq)
}

// recordArrayName is the name of an array of records in a message: of the
// composite type (qa[]) when its records have one, else record[] (one
// pair of brackets whatever the dimensions: PostgreSQL's array types have
// none).
func recordArrayName(t types.T) string {
	leaf := t
	for leaf.Kind == types.Array && leaf.Elem != nil {
		leaf = *leaf.Elem
	}
	if compositeOID(leaf) != 0 {
		return leaf.Registry().CompositeName(leaf.TypeOID) + "[]"
	}
	return "record[]"
}

// compositeOID is the composite type a record value has (a table's row
// is typed as a record whose TypeOID names the table's type, wholerow.go),
// 0 for an anonymous record.
func compositeOID(t types.T) uint32 {
	if t.TypeOID == 2249 { // record's own OID (pgtypes.OIDRecord)
		return 0
	}
	return t.TypeOID
}

// bindArraySubquery binds ARRAY(SELECT ...): the subquery's one column
// as an array, empty over no rows.
func (b *binder) bindArraySubquery(s *scope, n *pt.ArraySubquery) (Expr, error) {
	plan, outer, err := b.bindSubqueryPlan(s, n.Query)
	if err != nil {
		return nil, err
	}
	cols := plan.Columns()
	if len(cols) != 1 {
		return nil, b.errAt(n, sqlerr.New(sqlerr.SyntaxError, "subquery must return only one column"))
	}
	elem := cols[0].T.Nullable()
	if isUnknown(elem) {
		elem = types.StringType
	}
	return &Subquery{Plan: plan, Outer: outer, Mode: ArraySubquery, T: types.ArrayOf(elem)}, nil
}

// makeArrayComparison binds a op b over two arrays. As PostgreSQL's
// anyarray operators, it takes two arrays of the same type (int[] =
// bigint[] and text[] = varchar[] are 42883), whose typmods may differ
// (both are brought to the common one), and compares them element by
// element in the element type's order (functions.CompareValuesAs: jsonb's,
// numeric by value). json has no comparison: as in PostgreSQL, 42883
// "could not identify an equality operator for type json" (a comparison
// function for < and the like).
func (b *binder) makeArrayComparison(n sourceNode, op Op, l, r Expr) (Expr, error) {
	lt, rt := l.Type(), r.Type()
	if lt.Kind != types.Array || rt.Kind != types.Array || !functions.SamePGType(lt, rt) {
		return nil, b.binaryOpError(n, op, lt, rt)
	}
	if sameType, err := comparableRecordLeaves(lt, rt, equalityOp(op)); !sameType {
		// named as binaryOpError names it: IS [NOT] DISTINCT FROM is =,
		// spelled <=> by the rewrite
		name, tok := op.String(), op.String()
		if op == OpIsDistinct || op == OpIsNotDistinct {
			name, tok = "=", "<=>"
		}
		return nil, b.errAtOperator(n, tok, sqlerr.New(sqlerr.UndefinedFunction, "operator does not exist: %s %s %s", recordArrayName(lt), name, recordArrayName(rt)).
			WithHint("No operator matches the given name and argument types. You might need to add explicit type casts."))
	} else if err != nil {
		return nil, err
	}
	at, err := functions.CommonType("", []types.T{lt, rt})
	if err != nil || at.Elem == nil {
		return nil, b.binaryOpError(n, op, lt, rt)
	}
	elem := *at.Elem
	for leaf := elem; ; leaf = *leaf.Elem {
		if leaf.Kind == types.Map {
			return nil, b.binaryOpError(n, op, lt, rt)
		}
		if leaf.Kind == types.String && leaf.Variant == types.JSON {
			what := "a comparison function"
			if op == OpEq || op == OpNe || op == OpIsDistinct || op == OpIsNotDistinct {
				what = "an equality operator"
			}
			// PostgreSQL finds this out running array_eq (array_cmp), not
			// parsing: the error has no position
			return nil, sqlerr.New(sqlerr.UndefinedFunction, "could not identify %s for type json", what)
		}
		if leaf.Kind != types.Array || leaf.Elem == nil {
			break
		}
	}
	kernel, err := functions.ArrayCompareKernel(op.String(), elem.Nullable())
	if err != nil {
		return nil, b.binaryOpError(n, op, lt, rt)
	}
	at = types.ArrayOf(elem.Nullable())
	return &FuncCall{Name: "array " + op.String(), Args: []Expr{b.castTo(l, at), b.castTo(r, at)}, T: types.BoolType, Kernel: kernel}, nil
}

// makeArrayConcat binds a || b where a side is an array: array || array
// (array_cat: a NULL side gives the other), array || element and
// element || array (array_append / array_prepend).
func (b *binder) makeArrayConcat(n sourceNode, l, r Expr) (Expr, error) {
	lt, rt := l.Type(), r.Type()
	var err error
	switch {
	case lt.Kind == types.Array && isUnknown(rt):
		if r, err = b.coerceUnknown(n, r, lt); err != nil {
			return nil, err
		}
	case rt.Kind == types.Array && isUnknown(lt):
		if l, err = b.coerceUnknown(n, l, rt); err != nil {
			return nil, err
		}
	}
	lt, rt = l.Type(), r.Type()
	var at types.T
	mode := 0 // 0 cat, 1 append, 2 prepend
	switch {
	case lt.Kind == types.Array && rt.Kind == types.Array:
		if arrayDims(lt) > 1 || arrayDims(rt) > 1 {
			// PostgreSQL's array_cat over arrays of any dimensions
			// (int[][] || int[] adds a row; sub-arrays must match)
			if _, ok := resultCommonType(functions.ArrayElementType(lt), functions.ArrayElementType(rt)); !ok {
				return nil, b.operatorError(n, "||", lt, rt)
			}
			return b.callFunction(n, "array_cat", []Expr{l, r})
		}
		c, ok := resultCommonType(*lt.Elem, *rt.Elem)
		if !ok {
			return nil, b.operatorError(n, "||", lt, rt)
		}
		at = types.ArrayOf(c.Nullable())
		l, r = b.castTo(l, at), b.castTo(r, at)
	case lt.Kind == types.Array && arrayDims(lt) > 1:
		// array_append over an array of several dimensions: 22000 unless
		// it is empty, as PostgreSQL's
		if _, ok := resultCommonType(functions.ArrayElementType(lt), rt); !ok {
			return nil, b.operatorError(n, "||", lt, rt)
		}
		e, _, err := b.bindArrayPolyCall(n, "array_append", []Expr{l, r})
		return e, err
	case rt.Kind == types.Array && lt.Kind != types.Array && arrayDims(rt) > 1:
		if _, ok := resultCommonType(lt, functions.ArrayElementType(rt)); !ok {
			return nil, b.operatorError(n, "||", lt, rt)
		}
		e, _, err := b.bindArrayPolyCall(n, "array_prepend", []Expr{l, r})
		return e, err
	case lt.Kind == types.Array:
		c, ok := resultCommonType(*lt.Elem, rt)
		if !ok {
			return nil, b.operatorError(n, "||", lt, rt)
		}
		at, mode = types.ArrayOf(c.Nullable()), 1
		l, r = b.castTo(l, at), b.castTo(r, c.Nullable())
	default:
		c, ok := resultCommonType(lt, *rt.Elem)
		if !ok {
			return nil, b.operatorError(n, "||", lt, rt)
		}
		at, mode = types.ArrayOf(c.Nullable()), 2
		l, r = b.castTo(l, c.Nullable()), b.castTo(r, at)
	}
	return &FuncCall{Name: "array_cat", Args: []Expr{l, r}, T: at, Kernel: arrayConcatKernel(at, mode)}, nil
}

func arrayConcatKernel(at types.T, mode int) functions.Kernel {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		vals := make([]any, n)
		for i := 0; i < n; i++ {
			a, c := types.ValueAt(args[0], i), types.ValueAt(args[1], i)
			switch mode {
			case 0:
				x, _ := a.([]any)
				y, _ := c.([]any)
				if a == nil && c == nil {
					continue
				}
				vals[i] = append(append([]any{}, x...), y...)
			case 1:
				if a == nil {
					vals[i] = []any{c}
					continue
				}
				vals[i] = append(append([]any{}, a.([]any)...), c)
			case 2:
				if c == nil {
					vals[i] = []any{a}
					continue
				}
				vals[i] = append([]any{a}, c.([]any)...)
			}
		}
		bld := array.NewBuilder(mem, at.ArrowType())
		defer bld.Release()
		for _, v := range vals {
			if err := types.AppendValue(bld, v); err != nil {
				return nil, err
			}
		}
		return bld.NewArray(), nil
	}
}

// parseArrayLiteral reads an unknown literal as an array of t's elements.
func (b *binder) parseArrayLiteral(s string, t types.T) (any, error) {
	var loc *time.Location = functions.LocationOf(b.ctx)
	if t.Variant.IsVector() {
		return functions.ParseVector(s, *t.Elem, loc)
	}
	// nested arrays in braces or JSON; date elements in DateStyle's order
	return functions.ParseArrayTextStyle(s, t, loc, functions.StyleOf(b.ctx))
}
