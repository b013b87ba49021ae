package binder

import (
	"strings"

	"github.com/sqlgate/sqlgate/functions"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/udf"
)

// UDFCatalog is the optional part of a Catalog that knows the server's Go
// UDFs (package udf); a catalog without it has none.
type UDFCatalog interface {
	UDFs() *udf.Registry
}

// UDFCall calls a scalar Go UDF over its arguments' columns. It is opaque:
// never folded or rewritten; lower/ gives it its own blueprint node.
type UDFCall struct {
	UDF  *udf.Scalar
	Args []Expr
}

func (e *UDFCall) Type() types.T { return e.UDF.Returns.Nullable() }
func (e *UDFCall) String() string {
	parts := make([]string, len(e.Args))
	for i, a := range e.Args {
		parts[i] = a.String()
	}
	return e.UDF.Name + "(" + strings.Join(parts, ", ") + ")"
}

// UDFTable is a record-batch Go UDF used as a FROM item: its arguments are
// evaluated once per execution (like TableFunc's) and its columns are the
// declared output columns.
type UDFTable struct {
	UDF  *udf.Table
	Args []Expr
	cols []Column
}

func (n *UDFTable) Columns() []Column { return n.cols }
func (n *UDFTable) Children() []Node  { return nil }

func (b *binder) udfs() *udf.Registry {
	if c, ok := b.cat.(UDFCatalog); ok {
		return c.UDFs()
	}
	return nil
}

// resolveUDFArgs picks the overload of a UDF for args (the usual function
// resolution: implicit casts, 42883 naming the argument types) and casts
// each argument to its declared type; it returns the overload's index.
func (b *binder) resolveUDFArgs(n sourceNode, argNodes func(i int) sourceNode, name string, decls [][]types.T, args []Expr) (int, error) {
	ts := make([]types.T, len(args))
	for i, a := range args {
		ts[i] = a.Type()
		if ts[i].Kind == types.Null {
			ts[i] = types.UnknownType
		}
	}
	k, want, err := functions.ResolveDeclared(name, decls, ts)
	if err != nil {
		return 0, b.errAt(n, sqlerr.As(err))
	}
	for i := range args {
		if isUnknown(args[i].Type()) {
			if args[i], err = b.coerceUnknown(argNodes(i), args[i], want[i]); err != nil {
				return 0, err
			}
		} else {
			args[i] = b.castTo(args[i], want[i])
		}
	}
	return k, nil
}

// callUDF binds name(args) to a scalar Go UDF when one has that name
// (ok false: none has, resolve it as a built-in).
func (b *binder) callUDF(n sourceNode, name string, args []Expr) (Expr, bool, error) {
	if len(b.udfs().Scalars(name)) == 0 {
		return nil, false, nil
	}
	f, args, err := b.pickUDF(n, name, args)
	if err != nil {
		return nil, true, err
	}
	if f.SQL != nil {
		if f.SQL.SetOf {
			// a name with scalar overloads too binds as a scalar call
			return nil, true, b.errAt(n, sqlerr.NotSupported("a set-returning LANGUAGE sql function whose name has functions returning no set too"))
		}
		e, err := b.callSQLFunction(n, f, args) // sqlfunc.go
		return e, true, err
	}
	return &UDFCall{UDF: f, Args: args}, true, nil
}

// pickUDF picks the scalar UDF named name a call over args resolves to
// (a LANGUAGE sql function may be called without the parameters that
// have defaults) and returns it with the arguments cast to its
// parameters, its defaults added.
func (b *binder) pickUDF(n sourceNode, name string, args []Expr) (*udf.Scalar, []Expr, error) {
	fs := b.udfs().Scalars(name)
	decls := make([][]types.T, 0, len(fs))
	owner := make([]*udf.Scalar, 0, len(fs))
	marked := variadicArg(n) != nil
	for _, f := range fs {
		if decl, ok := variadicDecls(f, len(args), marked); !ok {
			continue
		} else if marked || f.SQL != nil && f.SQL.Variadic {
			decls, owner = append(decls, decl), append(owner, f)
			continue // no defaults with VARIADIC
		}
		decls, owner = append(decls, f.Args), append(owner, f)
		if f.SQL != nil {
			// a call may leave out the parameters that have defaults
			for k := len(f.SQL.Defaults) - 1; k >= 0 && f.SQL.Defaults[k] != ""; k-- {
				decls, owner = append(decls, f.Args[:k]), append(owner, f)
			}
		}
	}
	k, err := b.resolveUDFArgs(n, func(int) sourceNode { return n }, name, decls, args)
	if err != nil {
		return nil, nil, err
	}
	f := owner[k]
	if f.SQL != nil && f.SQL.Variadic && !marked {
		if args, err = b.collectVariadic(f, args); err != nil {
			return nil, nil, b.errAt(n, sqlerr.As(err))
		}
	}
	if f.SQL != nil {
		if args, err = b.sqlFuncDefaults(f, args); err != nil {
			return nil, nil, b.errAt(n, sqlerr.As(err))
		}
	}
	return f, args, nil
}

// bindUDFTable binds a record-batch Go UDF called in FROM (ok false: no
// UDF has that name, resolve a built-in set-returning function). colNames
// are the alias's column names. (A scalar UDF in FROM is PostgreSQL's
// one-row table, bound like any plain function there: srf.go.)
func (b *binder) bindUDFTable(f *pt.FuncCall, name, alias string, ord bool, colNames []string, args []Expr) (Node, bool, error) {
	fs := b.udfs().Tables(name)
	if len(fs) == 0 {
		return nil, false, nil
	}
	if ord {
		return nil, true, b.errAt(f, sqlerr.NotSupported("WITH ORDINALITY on a Go UDF"))
	}
	decls := make([][]types.T, len(fs))
	for i, t := range fs {
		decls[i] = t.Args
	}
	k, err := b.resolveUDFArgs(f, func(i int) sourceNode { return f.Args[i] }, name, decls, args)
	if err != nil {
		return nil, true, err
	}
	t := fs[k]
	if len(colNames) > len(t.Columns) {
		return nil, true, b.errAt(f, sqlerr.New(sqlerr.InvalidColumnReference, "too many column aliases specified for function %s", name))
	}
	n := &UDFTable{UDF: t, Args: args}
	for i, c := range t.Columns {
		cn := c.Name
		if i < len(colNames) {
			cn = colNames[i]
		}
		n.cols = append(n.cols, Column{Name: cn, T: c.Type.Nullable(), Table: alias})
	}
	return n, true, nil
}

// CheckUDFNames refuses UDFs named like a built-in scalar, set-returning,
// aggregate or window function: a call must mean one thing.
func CheckUDFNames(r *udf.Registry) error {
	for _, n := range r.Names() {
		if len(functions.Lookup(n)) > 0 || functions.IsSetFunc(n) || aggregateNames[n] || windowOnly[n] {
			return sqlerr.New(sqlerr.Code("42723"), "UDF %s: a built-in function has that name", n)
		}
	}
	return nil
}

// isUDF reports whether name is a Go UDF of any kind (they have no schema).
func (b *binder) isUDF(name string) bool {
	r := b.udfs()
	return r != nil && (len(r.Scalars(name)) > 0 || len(r.Tables(name)) > 0 || len(r.Batches(name)) > 0)
}
