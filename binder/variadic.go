package binder

import (
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/udf"
)

// VARIADIC: a call's last argument written VARIADIC arr (the rewrite's
// pg__variadic(arr) marker: sql/variadic.go) is an array passed whole to
// the function's VARIADIC parameter, as PostgreSQL's func_get_detail
// matches it with expand_variadic off. A LANGUAGE sql function's VARIADIC
// parameter is an array parameter: a plain call collects its trailing
// arguments into one array (at least one), a marked call passes the
// array (pickUDF). A built-in VARIADIC function (concat, format,
// num_nulls, json_build_object, json_extract_path ...) is given the
// array's elements as its arguments when they are known where the call
// is bound (ARRAY[...] or a constant array; a NULL array is the NULL
// result of all but format, which takes it for no arguments, as
// PostgreSQL's functions read their variadic array); any other array (a
// column, a parameter, a subquery's) is read row by row by
// functions.VariadicArrayKernel (runtimeVariadic). A built-in that has
// no VARIADIC overload (an aggregate, abs, lower) is called with the
// array as its last argument, the decoration forgotten, as
// ParseFuncOrColumn does for a function that is not variadic.

// variadicArg is the array of n's last argument when it is written
// VARIADIC (nil otherwise).
func variadicArg(n sourceNode) pt.Expr {
	c, ok := n.(*pt.FuncCall)
	if !ok || len(c.Args) == 0 {
		return nil
	}
	m, ok := c.Args[len(c.Args)-1].(*pt.FuncCall)
	if !ok || m.Name != sql.VariadicMarker || len(m.Args) != 1 {
		return nil
	}
	return m.Args[0]
}

// variadicNotArray is PostgreSQL's error for VARIADIC before an argument
// that is no array.
func (b *binder) variadicNotArray(n sourceNode) error {
	return b.errAt(n, sqlerr.New(sqlerr.DatatypeMismatch, "VARIADIC argument must be an array"))
}

// variadicDecls are the parameter lists a call of f with nargs
// arguments may match: f's own for a call marked VARIADIC (only a
// VARIADIC function takes one), else for a VARIADIC function its fixed
// parameters and then one element per argument left (at least one).
func variadicDecls(f *udf.Scalar, nargs int, marked bool) ([]types.T, bool) {
	variadic := f.SQL != nil && f.SQL.Variadic
	switch {
	case marked:
		return f.Args, variadic
	case !variadic:
		return f.Args, true
	}
	fixed := len(f.Args) - 1
	if nargs <= fixed {
		return nil, false
	}
	decl := append([]types.T(nil), f.Args[:fixed]...)
	for range nargs - fixed {
		decl = append(decl, *f.Args[fixed].Elem)
	}
	return decl, true
}

// collectVariadic makes the arguments of a plain call of f, a VARIADIC
// function, cast to variadicDecls' types, its parameters' values: the
// trailing ones one array.
func (b *binder) collectVariadic(f *udf.Scalar, args []Expr) ([]Expr, error) {
	fixed := len(f.Args) - 1
	arr, err := b.constructArray(*f.Args[fixed].Elem, args[fixed:])
	if err != nil {
		return nil, err
	}
	return append(args[:fixed:fixed], arr), nil
}

// bindBuiltinVariadic binds n, a call of a built-in function whose last
// argument is written VARIADIC, as the call of its array's elements (see
// above).
func (b *binder) bindBuiltinVariadic(s *scope, n *pt.FuncCall, arrTree pt.Expr) (Expr, error) {
	if !hasVariadicOverload(n.Name) {
		// a function that is not VARIADIC is called with the array as
		// its last argument: ParseFuncOrColumn forgets the decoration
		// (max(VARIADIC ARRAY[a]) is max(integer[]), abs(VARIADIC 1) is
		// abs(1))
		plain := *n
		plain.Args = append(n.Args[:len(n.Args)-1:len(n.Args)-1], arrTree)
		return b.bindFuncCallNamed(s, &plain)
	}
	fixed, err := b.bindTreeList(s, n.Args[:len(n.Args)-1])
	if err != nil {
		return nil, err
	}
	arr, err := b.bindTree(s, arrTree)
	if err != nil {
		return nil, err
	}
	t := arr.Type()
	var over *functions.Func // the VARIADIC overload taking as many fixed arguments
	for _, f := range functions.Lookup(n.Name) {
		if f.Variadic && len(f.Args)-1 == len(fixed) {
			over = f
		}
	}
	switch {
	case over == nil || t.Kind != types.Array && over.Args[len(fixed)].Kind != types.UnknownType.Kind:
		// no VARIADIC overload, or an element type no array matches
		return nil, b.errAt(n, undefinedCall(n.Name, append(fixed, arr)))
	case t.Kind != types.Array || t.Elem == nil:
		return nil, b.variadicNotArray(arrTree) // VARIADIC "any"
	}
	elem := t.Elem.Nullable()
	for elem.Kind == types.Array && elem.Elem != nil {
		elem = elem.Elem.Nullable() // a multidimensional array's elements
	}
	var elems []Expr
	switch x := arr.(type) {
	case *Const:
		if x.Value == nil && n.Name != "format" {
			// the function's NULL result: its type is a call's
			e, err := b.callFunction(n, n.Name, append(fixed, &Const{T: elem}))
			if err != nil {
				return nil, err
			}
			return &Const{T: e.Type().Nullable()}, nil
		}
		for _, v := range functions.FlattenArray(x.Value) {
			elems = append(elems, &Const{Value: v, T: elem})
		}
	case *FuncCall:
		if x.Name != "array" || elem.Kind != t.Elem.Kind {
			return b.runtimeVariadic(n, fixed, arr, elem)
		}
		elems = x.Args
	default:
		return b.runtimeVariadic(n, fixed, arr, elem)
	}
	if len(elems) == 0 && len(over.Args) == len(fixed)+1 && n.Name != "format" && n.Name != "json_build_object" &&
		n.Name != "jsonb_build_object" && n.Name != "json_build_array" && n.Name != "jsonb_build_array" {
		return b.noVariadicItems(n, fixed, elem)
	}
	e, err := b.callFunction(n, n.Name, append(fixed[:len(fixed):len(fixed)], elems...))
	if sqlerr.CodeOf(err) == sqlerr.UndefinedFunction {
		// PostgreSQL's lookup names the array, not its elements
		return nil, b.errAt(n, undefinedCall(n.Name, append(fixed, arr)))
	}
	return e, err
}

// hasVariadicOverload reports whether a built-in function of the name
// has a VARIADIC overload.
func hasVariadicOverload(name string) bool {
	for _, f := range functions.Lookup(name) {
		if f.Variadic {
			return true
		}
	}
	return false
}

// runtimeVariadic binds n, a built-in's call whose VARIADIC array arr
// (of elements elem) is known only when it runs, as the call of
// functions.VariadicArrayKernel over the fixed arguments and the array,
// which passes each row's elements. The call over two elements of the
// type gives the fixed arguments' casts, the result type and bind time's
// errors (an element type the function does not take).
func (b *binder) runtimeVariadic(n *pt.FuncCall, fixed []Expr, arr Expr, elem types.T) (Expr, error) {
	probe, err := b.callFunction(n, n.Name, append(fixed[:len(fixed):len(fixed)], &Const{T: elem}, &Const{T: elem}))
	if sqlerr.CodeOf(err) == sqlerr.UndefinedFunction {
		// the function takes no elements of the type: PostgreSQL's
		// lookup names the array
		return nil, b.errAt(n, undefinedCall(n.Name, append(fixed[:len(fixed):len(fixed)], arr)))
	}
	if err != nil {
		return nil, err
	}
	c, ok := probe.(*FuncCall)
	if !ok || len(c.Args) != len(fixed)+2 {
		return nil, b.errAt(n, sqlerr.NotSupported("VARIADIC with an array of values not known where the call is bound, for "+n.Name))
	}
	args := append(c.Args[:len(fixed):len(fixed)], arr)
	fixedTypes := make([]types.T, len(fixed))
	for i, a := range c.Args[:len(fixed)] {
		fixedTypes[i] = a.Type()
	}
	ret := c.T.Nullable()
	return &FuncCall{Name: c.Name, Args: args, T: ret, Volatile: c.Volatile, Kernel: functions.VariadicArrayKernel(c.Name, fixedTypes, arr.Type(), ret)}, nil
}

// noVariadicItems is a built-in's call with an empty VARIADIC array,
// which the library's overloads (one item at least) do not take: what
// PostgreSQL's functions give for no items. concat and concat_ws ignore
// a NULL item, so one stands for none; num_nulls and num_nonnulls count
// none (num_nonnulls of a NULL is 0); a JSON path of no keys is the
// document.
func (b *binder) noVariadicItems(n *pt.FuncCall, fixed []Expr, elem types.T) (Expr, error) {
	null := &Const{T: elem}
	switch n.Name {
	case "num_nulls", "num_nonnulls":
		return b.callFunction(n, "num_nonnulls", []Expr{null})
	case "json_extract_path", "jsonb_extract_path", "json_extract_path_text", "jsonb_extract_path_text":
		e, err := b.callFunction(n, n.Name, append(fixed, null)) // its type and its argument's cast
		if err != nil {
			return nil, err
		}
		doc := fixed[0]
		if c, ok := e.(*FuncCall); ok && len(c.Args) == 2 {
			doc = c.Args[0]
		}
		if doc.Type().Kind != e.Type().Kind || doc.Type().Variant != e.Type().Variant {
			return b.assign(n, doc, n.Name, e.Type().Nullable(), "")
		}
		return doc, nil
	}
	return b.callFunction(n, n.Name, append(fixed, null))
}
