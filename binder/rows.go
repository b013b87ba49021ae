package binder

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/functions"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// ROW values. ROW(a, b, ...) and the bare (a, b, ...) are the tree's Row;
// they bind to an anonymous record, a ROW type whose fields are named f1,
// f2, ... as PostgreSQL names them. Assigned to a ROW column (or cast to a
// ROW type) a constructor is re-typed field by field against the target,
// so unknown literals are read as the field's type, as PostgreSQL's
// coerce_record_to_complex does; any other ROW value converts by position
// with assignment casts per field (exec/nestedcast.go).

// ctorInfo remembers how a ROW(...) or MAP[...] constructor was written:
// its arguments as bound before unknown literals were resolved, and their
// syntax nodes (for error positions).
type ctorInfo struct {
	args  []Expr
	nodes []pt.Expr
}

// rememberTreeCtor is rememberCtor (mapvalues.go's name for it).
func (b *binder) rememberTreeCtor(e Expr, args []Expr, nodes []pt.Expr) Expr {
	return b.rememberCtor(e, args, nodes)
}

func (b *binder) rememberCtor(e Expr, args []Expr, nodes []pt.Expr) Expr {
	if b.ctors == nil {
		b.ctors = map[Expr]*ctorInfo{}
	}
	raw := make([]Expr, len(args))
	copy(raw, args)
	b.ctors[e] = &ctorInfo{args: raw, nodes: nodes}
	return e
}

// recordType is the anonymous record type of fields typed ts: marked
// AnonRecord, so that it prints, types and casts to text as PostgreSQL's
// record wherever it goes (pgtypes' record encoder).
func recordType(ts []types.T) types.T {
	fs := make([]types.Field, len(ts))
	for i, t := range ts {
		fs[i] = types.Field{Name: fmt.Sprintf("f%d", i+1), Type: t.Nullable()}
	}
	return types.T{Kind: types.Row, Fields: fs, Variant: types.AnonRecord}
}

// bindRowConstructor binds ROW(a, b, ...) or a bare (a, b, ...) (the
// tree's Row) as an anonymous record.
func (b *binder) bindRowConstructor(s *scope, n *pt.Row, values []pt.Expr) (Expr, error) {
	args, values, err := b.bindRowFields(s, values)
	if err != nil {
		return nil, err
	}
	raw := make([]Expr, len(args))
	copy(raw, args)
	ts := make([]types.T, len(args))
	for i := range args {
		args[i] = b.resolveUnknown(args[i], types.StringType)
		ts[i] = args[i].Type()
	}
	return b.rememberCtor(makeRow(args, recordType(ts)), raw, values), nil
}

// makeRow builds a ROW of t from field expressions already typed as t's
// fields: a constant when every field is one.
func makeRow(args []Expr, t types.T) Expr {
	vals := make([]any, len(args))
	for i, a := range args {
		c, ok := a.(*Const)
		if !ok {
			return &FuncCall{Name: "row", Args: args, T: t, Kernel: rowConstructorKernel(t)}
		}
		vals[i] = c.Value
	}
	return &Const{Value: vals, T: t}
}

// rowConstructorKernel assembles a struct array from its fields' arrays.
func rowConstructorKernel(t types.T) func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		bld := array.NewBuilder(mem, t.ArrowType())
		defer bld.Release()
		bld.Reserve(n)
		vals := make([]any, len(args))
		for i := 0; i < n; i++ {
			for k, a := range args {
				vals[k] = types.ValueAt(a, i)
			}
			if err := types.AppendValue(bld, vals); err != nil {
				return nil, err
			}
		}
		return bld.NewArray(), nil
	}
}

// assignNested handles an assignment (or cast, when col is "") to a ROW or
// MAP type; ok is false when neither side is one, leaving assign's rules.
func (b *binder) assignNested(node sourceNode, e Expr, col string, target types.T, table string) (Expr, bool, error) {
	et := e.Type()
	if target.Kind != types.Row && target.Kind != types.Map || isUnknown(et) {
		return nil, false, nil
	}
	target = target.Nullable()
	mismatch := func(detail string, args ...any) *sqlerr.Error {
		got := et.PGName()
		if et.Kind == types.Row && b.ctors[e] != nil {
			got = "record"
		}
		var err *sqlerr.Error
		if col == "" {
			err = sqlerr.New(sqlerr.CannotCoerce, "cannot cast type %s to %s", got, target.PGName())
		} else {
			err = sqlerr.New(sqlerr.DatatypeMismatch, "column %q is of type %s but expression is of type %s", col, target.PGName(), got).
				WithHint("You will need to rewrite or cast the expression.")
		}
		if detail != "" {
			err = err.WithDetail(detail, args...)
		}
		return b.errAt(node, err)
	}
	if et.Kind != target.Kind {
		return nil, true, mismatch("")
	}
	info := b.ctors[e]
	switch target.Kind {
	case types.Row:
		n := len(target.Fields)
		if info != nil {
			if len(info.args) != n {
				if len(info.args) > n {
					return nil, true, mismatch("Input has too many columns.")
				}
				return nil, true, mismatch("Input has too few columns.")
			}
			out := make([]Expr, n)
			for i, a := range info.args {
				ft := target.Fields[i].Type
				at := info.nodes[i]
				x, err := b.assignField(at, a, col, ft, table, func() *sqlerr.Error {
					return mismatch("Cannot cast type %s to %s in column %d.", a.Type().PGName(), ft.PGName(), i+1)
				})
				if err != nil {
					return nil, true, err
				}
				out[i] = x
			}
			return makeRow(out, target), true, nil
		}
		if len(et.Fields) != n {
			if len(et.Fields) > n {
				return nil, true, mismatch("Input has too many columns.")
			}
			return nil, true, mismatch("Input has too few columns.")
		}
		for i, f := range et.Fields {
			if !assignableType(f.Type, target.Fields[i].Type) {
				return nil, true, mismatch("Cannot cast type %s to %s in column %d.", f.Type.PGName(), target.Fields[i].Type.PGName(), i+1)
			}
		}
	case types.Map:
		if info != nil {
			return b.retargetMap(node, e, info, col, target, table, mismatch)
		}
		if !assignableType(*et.Key, *target.Key) || !assignableType(*et.Elem, *target.Elem) {
			return nil, true, mismatch("")
		}
	}
	return b.castTo(e, target), true, nil
}

// assignField converts one constructor argument to t: an unknown literal
// is read as t, a nested constructor is re-typed, anything else takes an
// assignment cast (fail reports a mismatch naming the column).
func (b *binder) assignField(node sourceNode, a Expr, col string, t types.T, table string, fail func() *sqlerr.Error) (Expr, error) {
	if isUnknown(a.Type()) {
		x, err := b.coerceUnknown(node, a, t)
		if err != nil {
			return nil, err
		}
		return b.castTo(x, t), nil
	}
	if t.Kind == types.Row || t.Kind == types.Map {
		x, ok, err := b.assignNested(node, a, col, t, table)
		if ok {
			return x, err
		}
	}
	if !assignableType(a.Type(), t) {
		return nil, fail()
	}
	if at := a.Type(); boundedString(t.ArrayLeaf()) && !at.Same(&t) {
		// a field (or its array's elements) too long for varchar(n),
		// character(n) or a bit string's typmod is refused, as a column's is
		c := b.newCast(a, t)
		c.Assign = true
		return c, nil
	}
	return b.castTo(a, t), nil
}

// assignableType reports whether PostgreSQL converts from to to in an
// assignment (assign's rule, applied inside ROW and MAP values).
func assignableType(from, to types.T) bool {
	if from.Kind == types.Row || from.Kind == types.Map || to.Kind == types.Row || to.Kind == types.Map {
		ok, _ := nestedCastable(from, to, true)
		return ok
	}
	if from.Kind == types.Array && to.Kind == types.Array {
		return assignableType(*from.Elem, *to.Elem)
	}
	if ok, handled := smallAssignable(from, to); handled && !isUnknown(from) { // smalltypes.go
		return ok
	}
	if ok, handled := assignCastRule(from, to); handled && !isUnknown(from) { // insert.go
		return ok
	}
	return isUnknown(from) || from.Nullable().Equal(to.Nullable()) ||
		(from.IsNumeric() && to.IsNumeric()) ||
		to.IsString() ||
		castable(from, to) && !(from.IsString() && !to.IsString()) && from.Kind != types.Bool && to.Kind != types.Bool
}

// nestedCastable decides casts involving ROW and MAP types (handled is
// false when neither side is one): ROW to ROW by position with the same
// arity, MAP to MAP by key and value, both to and from text (the JSON text
// form) in explicit casts only.
func nestedCastable(a, b types.T, assignment bool) (ok, handled bool) {
	if a.Kind != types.Row && a.Kind != types.Map && b.Kind != types.Row && b.Kind != types.Map {
		return false, false
	}
	if isUnknown(a) {
		return true, true
	}
	if a.IsString() || b.IsString() {
		return !assignment || b.IsString(), true
	}
	if a.Kind != b.Kind {
		return false, true
	}
	if a.Kind == types.Map {
		return assignableOrCastable(*a.Key, *b.Key, assignment) && assignableOrCastable(*a.Elem, *b.Elem, assignment), true
	}
	if len(a.Fields) != len(b.Fields) {
		return false, true
	}
	for i := range a.Fields {
		if !assignableOrCastable(a.Fields[i].Type, b.Fields[i].Type, assignment) {
			return false, true
		}
	}
	return true, true
}

func assignableOrCastable(a, b types.T, assignment bool) bool {
	if assignment {
		return assignableType(a, b)
	}
	return castable(a, b)
}

// castConstructor binds ROW(...)::row<...> and MAP[...]::map<...>: the
// constructor re-typed against the target; ok is false for other casts.
func (b *binder) castConstructor(n sourceNode, x Expr, target types.T) (Expr, bool, error) {
	if b.ctors[x] == nil || x.Type().Kind != target.Kind {
		return nil, false, nil
	}
	return b.assignNested(n, x, "", target, "")
}

// commonInputType is the type e brings to a common type (CASE, COALESCE,
// ARRAY[...]): its own, but for a ROW constructor a record whose fields
// that were untyped literals are still unknown, so that they take the
// other inputs' field types, as PostgreSQL types a constructor's literals
// by the composite it is coerced to: COALESCE(u, ROW(9, 'z')) with u's
// second field an integer reads 'z' as one.
func (b *binder) commonInputType(e Expr) types.T {
	info := b.ctors[e]
	t := e.Type()
	if info == nil || !t.IsAnonRecord() || len(info.args) != len(t.Fields) {
		return t
	}
	ts := make([]types.T, len(info.args))
	for i, a := range info.args {
		ts[i] = b.commonInputType(a)
	}
	return recordType(ts)
}

// castToCommon converts e to the common type t commonInputType took part
// in: a ROW constructor re-typed against t (its literals read as t's
// fields), anything else cast.
func (b *binder) castToCommon(n sourceNode, e Expr, t types.T) (Expr, error) {
	if et := e.Type(); b.ctors[e] != nil && t.IsAnonRecord() && !et.Same(&t) {
		x, ok, err := b.castConstructor(n, e, t)
		if ok || err != nil {
			return x, err
		}
	}
	return b.castTo(e, t), nil
}

// nullTest binds x IS [NOT] NULL. For an anonymous record it is
// PostgreSQL's test of a row value: IS NULL when the record is NULL or
// every field is, IS NOT NULL when it is not NULL and no field is, so
// ROW(1, NULL) is neither. A field is tested as one value, a nested
// record included.
func (b *binder) nullTest(n sourceNode, x Expr, not bool) (Expr, error) {
	t := x.Type()
	if t.IsAnonRecord() && len(t.Fields) == 0 && !not {
		// row() IS NULL: every one of no fields is NULL (ExecEvalRowNull's
		// loop over none), and so is a NULL record's
		return &Const{Value: true, T: types.BoolType}, nil
	}
	if !t.IsAnonRecord() || len(t.Fields) == 0 {
		return &IsNull{X: x, Not: not}, nil
	}
	var acc Expr = &IsNull{X: x, Not: not}
	join := OpOr // NULL, or every field NULL
	var fields Expr
	for k, f := range t.Fields {
		ft := f.Type.Nullable()
		var c Expr = &IsNull{X: &FuncCall{Name: "fieldselect", Args: []Expr{x}, T: ft, Kernel: functions.FieldSelectKernel(ft, k)}, Not: not}
		if fields != nil {
			var err error
			if c, err = b.makeBinary(n, OpAnd, fields, c); err != nil {
				return nil, err
			}
		}
		fields = c
	}
	if not {
		join = OpAnd // not NULL, and no field NULL
	}
	return b.makeBinary(n, join, acc, fields)
}

// bindRowFields binds a row constructor's items, an item alias.* (the
// rewrite's pg__field(alias, '*')) expanded into one field per column of
// alias's row, as PostgreSQL expands it there; values comes back matching
// args (an expanded item once per field).
func (b *binder) bindRowFields(s *scope, values []pt.Expr) ([]Expr, []pt.Expr, error) {
	star := false
	for _, v := range values {
		if fs, ok := v.(*pt.FieldSelect); ok && fs.Field == "*" {
			star = true
		}
	}
	if !star {
		args, err := b.bindTreeList(s, values)
		return args, values, err
	}
	var args []Expr
	var vals []pt.Expr
	for _, v := range values {
		fs, ok := v.(*pt.FieldSelect)
		if !ok || fs.Field != "*" {
			e, err := b.bindTree(s, v)
			if err != nil {
				return nil, nil, err
			}
			args, vals = append(args, e), append(vals, v)
			continue
		}
		e, err := b.bindTree(s, fs.X)
		if err != nil {
			return nil, nil, err
		}
		t := e.Type()
		if t.Kind != types.Row {
			return nil, nil, b.errAt(fs, sqlerr.New(sqlerr.WrongObjectType, "column notation .* applied to type %s, which is not a composite type", t.PGName()))
		}
		for k, f := range t.Fields {
			ft := f.Type.Nullable()
			args = append(args, &FuncCall{Name: "fieldselect", Args: []Expr{e}, T: ft, Kernel: functions.FieldSelectKernel(ft, k)})
			vals = append(vals, v)
		}
	}
	return args, vals, nil
}
