package binder

import (
	"strings"

	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// The polymorphic array functions (array_append, array_prepend,
// array_remove, array_replace, array_position(s), trim_array,
// array_ndims, array_dims, array_fill, width_bucket(x, thresholds)): their
// array and element arguments are unified as PostgreSQL unifies
// anycompatiblearray and anycompatible (the common type of the array's
// element type and the elements'; an unknown literal takes it), then
// bound to functions.ArrayPolyKernel.

// arrayPolyShape says, per argument, what it is: 'a' the array, 'e' an
// element, 'i' an integer, 'I' an integer array.
var arrayPolyShape = map[string][]string{
	"array_append":    {"ae"},
	"array_prepend":   {"ea"},
	"array_remove":    {"ae"},
	"array_replace":   {"aee"},
	"array_position":  {"ae", "aei"},
	"array_positions": {"ae"},
	"trim_array":      {"ai"},
	"array_ndims":     {"a"},
	"array_dims":      {"a"},
	"array_fill":      {"eI"},
	"width_bucket":    {"ea"},
}

// bindArrayPolyCall binds one of them; ok is false for other names and
// argument counts (the ordinary resolution then answers).
func (b *binder) bindArrayPolyCall(n sourceNode, name string, args []Expr) (Expr, bool, error) {
	shapes, found := arrayPolyShape[name]
	if !found {
		return nil, false, nil
	}
	shape := ""
	for _, s := range shapes {
		if len(s) == len(args) {
			shape = s
		}
	}
	if shape == "" {
		return nil, false, nil
	}
	// the element type: the array's element type and the elements', in
	// order; unknowns count only when nothing else does
	var elem types.T
	have := false
	for i, c := range shape {
		t := args[i].Type()
		if isUnknown(t) {
			continue
		}
		switch c {
		case 'a':
			if t.Kind != types.Array {
				return nil, true, b.errAt(n, undefinedCall(name, args))
			}
			t = *t.Elem
		case 'e':
		default:
			continue
		}
		if !have {
			elem, have = t.Nullable(), true
			continue
		}
		c, ok := commonType(elem, t)
		if !ok {
			return nil, true, b.errAt(n, undefinedCall(name, args))
		}
		elem = c
	}
	if !have {
		if name == "array_fill" {
			return nil, true, b.errAt(n, sqlerr.New(sqlerr.DatatypeMismatch, "could not determine polymorphic type because input has type unknown"))
		}
		elem = types.StringType // every argument unknown: text, as PostgreSQL's anycompatible
	}
	if elem.Kind == types.Map || elem.Kind == types.Row && name == "width_bucket" {
		return nil, true, b.errAt(n, undefinedCall(name, args))
	}
	at := types.ArrayOf(elem.Nullable())
	out := make([]Expr, len(args))
	for i, c := range shape {
		var want types.T
		switch c {
		case 'a':
			want = at
		case 'e':
			want = elem.Nullable()
		case 'i':
			want = types.Int32Type
		case 'I':
			want = types.ArrayOf(types.Int32Type)
		}
		e := args[i]
		if isUnknown(e.Type()) {
			var err error
			if e, err = b.coerceUnknown(n, e, want); err != nil {
				return nil, true, err
			}
		} else if c == 'i' && !e.Type().IsInteger() || c == 'I' && (e.Type().Kind != types.Array || !e.Type().Elem.IsInteger()) {
			return nil, true, b.errAt(n, undefinedCall(name, args))
		}
		out[i] = b.castTo(e, want)
	}
	return &FuncCall{Name: name, Args: out, T: functions.ArrayPolyResult(name, elem), Kernel: functions.ArrayPolyKernel(name, elem)}, true, nil
}

func undefinedCall(name string, args []Expr) *sqlerr.Error {
	names := make([]string, len(args))
	for i, a := range args {
		if t := a.Type(); isUnknown(t) {
			names[i] = "unknown"
		} else {
			names[i] = t.PGName()
		}
	}
	return sqlerr.New(sqlerr.UndefinedFunction, "function %s(%s) does not exist", name, strings.Join(names, ", ")).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}
