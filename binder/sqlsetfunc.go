package binder

import (
	"context"

	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/udf"
)

// Set-returning LANGUAGE sql functions (RETURNS SETOF type, RETURNS TABLE
// (...)). A call is its body's last query as a subquery over the
// arguments' values (sqlfunc.go's bindSQLBody), all of whose rows are
// collected (ARRAY(SELECT ...) of one record per row) and given back one
// by one by a set-returning function like the library's: so the call
// goes wherever unnest goes, in FROM (a TableFunc: column aliases, WITH
// ORDINALITY, arguments reading the items before it as LATERAL) and in a
// select list (a ProjectSet's call, PostgreSQL's lockstep rule). The body
// runs once per call, as PostgreSQL runs a function it does not inline;
// PostgreSQL inlines some calls in FROM into the query
// (inline_set_returning_function), which gives the same rows.

// sqlSetFuncName reports whether name is a LANGUAGE sql function whose
// overloads all return sets: its calls bind as set-returning calls.
func (b *binder) sqlSetFuncName(name string) bool {
	fs := b.udfs().Scalars(name)
	for _, f := range fs {
		if f.SQL == nil || !f.SQL.SetOf {
			return false
		}
	}
	return len(fs) > 0
}

// sqlSetRecord is the type of the records a set-returning function's
// body rows are collected as: its columns' row for RETURNS TABLE of more
// than one column, else a record of its one value (so that an array
// value stays one element).
func sqlSetRecord(f *udf.Scalar) (t types.T, wrapped bool) {
	if rowResult(f) {
		return f.Returns, false
	}
	return types.T{Kind: types.Row, Fields: []types.Field{{Name: "v", Type: f.Returns.Nullable()}}}, true
}

// expandSQLSetFunction binds a call of f, a set-returning LANGUAGE sql
// function, over args (cast to its parameters) as the array of its rows'
// records (NULL for a STRICT function's NULL argument: no rows).
func (b *binder) expandSQLSetFunction(f *udf.Scalar, args []Expr) (Expr, error) {
	rec, wrapped := sqlSetRecord(f)
	arr := types.ArrayOf(rec)
	body, err := b.bindSQLBody(f, args)
	if err != nil {
		return nil, err
	}
	if body.recursive {
		return b.newConst(nil, arr), nil
	}
	cols := body.plan.Columns()
	col := func(i int) Expr { return &ColumnRef{Index: i, Name: cols[i].Name, T: cols[i].T} }
	var e Expr
	if wrapped {
		if len(cols) != 1 {
			return nil, returnMismatch(f.Returns, "Final statement must return exactly one column.")
		}
		x, err := b.sqlResultColumn(f, col(0), cols[0].Name, f.Returns.Nullable())
		if err != nil {
			return nil, err
		}
		e = makeRow([]Expr{x}, rec)
	} else if e, err = b.sqlResultRecord(f, cols); err != nil {
		return nil, err
	}
	q := &Project{Input: body.plan, Exprs: []Expr{e}, Cols: []Column{{Name: f.Name, T: rec}}}
	out := &Subquery{Plan: q, Outer: body.outer, Mode: ArraySubquery, T: arr}
	return b.strictCall(f, args, out, arr), nil
}

// sqlSetFunc is the set-returning function that gives a call's rows from
// the array expandSQLSetFunction made, of type arr: f's values (the
// records of RETURNS TABLE's columns, else the one value), named after f,
// its one column named after RETURNS TABLE's one column in FROM.
func sqlSetFunc(f *udf.Scalar, arr types.T) *functions.SetFunc {
	_, wrapped := sqlSetRecord(f)
	sf := &functions.SetFunc{Name: f.Name, Args: []types.T{arr}, Ret: f.Returns.Nullable()}
	if len(f.SQL.Columns) == 1 && !f.Returns.IsComposite() {
		sf.OutName = f.SQL.Columns[0].Name
	}
	sf.Rows = func(_ context.Context, args []any) (func() (any, bool, error), error) {
		recs, _ := args[0].([]any)
		i := 0
		return func() (any, bool, error) {
			if i >= len(recs) {
				return nil, false, nil
			}
			v := recs[i]
			i++
			if wrapped {
				fs, _ := v.([]any)
				if len(fs) != 1 {
					return nil, false, sqlerr.New(sqlerr.InternalError, "SQL function %s: a row of %d values", f.Name, len(fs))
				}
				v = fs[0]
			}
			return v, true, nil
		}, nil
	}
	return sf
}

// callSQLSetFunction binds name(args), a set-returning LANGUAGE sql
// function's call (args bound, not yet cast): the function giving its
// rows and its one argument, the array of them.
func (b *binder) callSQLSetFunction(n sourceNode, name string, args []Expr) (*functions.SetFunc, Expr, error) {
	f, args, err := b.pickUDF(n, name, args) // udf.go
	if err != nil {
		return nil, nil, err
	}
	arr, err := b.callSQLFunction(n, f, args)
	if err != nil {
		return nil, nil, err
	}
	return sqlSetFunc(f, arr.Type()), arr, nil
}

// bindSQLSetFromItem binds a set-returning LANGUAGE sql function called
// in FROM (or in ROWS FROM), its arguments trees bound in s.
func (b *binder) bindSQLSetFromItem(s *scope, f *pt.FuncCall, trees []pt.Expr, name, alias string, explicit, ord bool, colNames []string) (Node, error) {
	args, err := b.bindTreeList(s, trees)
	if err != nil {
		return nil, err
	}
	sf, arr, err := b.callSQLSetFunction(f, name, args)
	if err != nil {
		return nil, err
	}
	return b.setFromFuncNode(f, sf, []Expr{arr}, name, alias, explicit, ord, colNames)
}

// namedSQLSetCall binds n, a set-returning LANGUAGE sql function's call
// in named notation, over its arguments bound (as namedCallArgs reads
// them): the function giving its rows and its one argument, the array of
// them.
func (b *binder) namedSQLSetCall(n *pt.FuncCall, names []string, trees []pt.Expr, args []Expr) (*functions.SetFunc, Expr, error) {
	f, full, ok, err := b.resolveNamedSQLFunc(n, names, trees, args) // sqlfunc.go
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return nil, nil, b.namedNoMatchArgs(n, namedFuncName(n), names, args)
	}
	arr, err := b.callSQLFunction(n, f, full)
	if err != nil {
		return nil, nil, err
	}
	return sqlSetFunc(f, arr.Type()), arr, nil
}

// namedSQLSetCallArgs is bindSetCallArgs (srf.go) of a call in named
// notation: the arguments bound with st's binding function.
func (b *binder) namedSQLSetCallArgs(st *srfState, n *pt.FuncCall) (*functions.SetFunc, []Expr, error) {
	names, trees, ok := namedCallArgs(n)
	if !ok {
		return nil, nil, b.errAt(n, sqlerr.New(sqlerr.InternalError, "malformed named-notation call"))
	}
	prevIn := st.inCall
	st.inCall = true
	args := make([]Expr, len(trees))
	for i, a := range trees {
		e, err := st.bindTree(a)
		if err != nil {
			st.inCall = prevIn
			return nil, nil, err
		}
		args[i] = e
	}
	st.inCall = prevIn
	sf, arr, err := b.namedSQLSetCall(n, names, trees, args)
	if err != nil {
		return nil, nil, err
	}
	return sf, []Expr{arr}, nil
}

// bindNamedSQLSetFromItem binds a set-returning LANGUAGE sql function
// called in FROM in named notation (f the rewrite's pg__named_nomatch,
// name the function's).
func (b *binder) bindNamedSQLSetFromItem(s *scope, f *pt.FuncCall, name, alias string, explicit, ord bool, colNames []string) (Node, error) {
	names, trees, ok := namedCallArgs(f)
	if !ok {
		return nil, b.errAt(f, sqlerr.New(sqlerr.InternalError, "malformed named-notation call"))
	}
	args, err := b.bindTreeList(s, trees)
	if err != nil {
		return nil, err
	}
	sf, arr, err := b.namedSQLSetCall(f, names, trees, args)
	if err != nil {
		return nil, err
	}
	if alias == sql.NamedNoMatch {
		alias = name
	}
	return b.setFromFuncNode(f, sf, []Expr{arr}, name, alias, explicit, ord, colNames)
}

// rowResult reports whether f's result is a record of its Columns: more
// than one (OUT parameters, RETURNS TABLE), or a composite type's
// attributes (a table's row type: RETURNS [SETOF] t), however many.
func rowResult(f *udf.Scalar) bool {
	return len(f.SQL.Columns) > 1 || f.Returns.IsComposite()
}

// sqlResultRecord is the record of f's result columns (RETURNS TABLE's
// or the OUT parameters', more than one) made of cols, the columns of
// its body's last query, by check_sql_fn_retval's rules for a composite
// result: as many columns, each assignable to its column's type.
func (b *binder) sqlResultRecord(f *udf.Scalar, cols []Column) (Expr, error) {
	n := len(f.SQL.Columns)
	if len(cols) == 1 && f.Returns.IsComposite() && cols[0].T.TypeOID == f.Returns.TypeOID {
		// the composite's value itself (SELECT t FROM t), as
		// check_sql_fn_retval takes a one-column result of the type
		return &ColumnRef{Index: 0, Name: cols[0].Name, T: cols[0].T}, nil
	}
	switch {
	case len(cols) < n:
		return nil, returnMismatch(f.Returns, "Final statement returns too few columns.")
	case len(cols) > n:
		return nil, returnMismatch(f.Returns, "Final statement returns too many columns.")
	}
	fields := make([]Expr, n)
	for i, c := range f.SQL.Columns {
		want := c.Type.Nullable()
		x, err := b.assign(nil, &ColumnRef{Index: i, Name: cols[i].Name, T: cols[i].T}, cols[i].Name, want, "")
		if err != nil {
			if se := sqlerr.As(err); se != nil && se.Code == sqlerr.DatatypeMismatch {
				return nil, returnMismatch(f.Returns, "Final statement returns %s instead of %s at column %d.", cols[i].T.PGName(), want.PGName(), i+1)
			}
			return nil, err
		}
		fields[i] = x
	}
	return makeRow(fields, f.Returns), nil
}

// sqlOutName is the name of the one OUT parameter of the LANGUAGE sql
// functions named name ("" unless all have one, so named): the column
// such a function gives in FROM.
func (b *binder) sqlOutName(name string) string {
	out := ""
	for i, f := range b.udfs().Scalars(name) {
		if f.SQL == nil || len(f.SQL.Columns) != 1 || f.SQL.SetOf || f.Returns.IsComposite() || i > 0 && f.SQL.Columns[0].Name != out {
			return ""
		}
		out = f.SQL.Columns[0].Name
	}
	return out
}
