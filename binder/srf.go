package binder

import (
	"fmt"
	"sort"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// TableFunc is a set-returning function used as a FROM item: unnest,
// generate_series, generate_subscripts. Its arguments are evaluated once
// per execution (they may read the enclosing query's row in a correlated
// subquery, but not other FROM items: there is no LATERAL); its one value
// column is followed, WITH ORDINALITY, by a bigint row number.
type TableFunc struct {
	Func       *functions.SetFunc
	Args       []Expr
	Ordinality bool
	cols       []Column
}

func (n *TableFunc) Columns() []Column { return n.cols }
func (n *TableFunc) Children() []Node  { return nil }

// bindFuncTable binds a function in FROM, the tree's FuncTable (its
// call, WITH ORDINALITY, its alias, column aliases or column definitions),
// under its alias. ROWS FROM (..) binds in rowsfrom.go, as does unnest of
// more than one array, ROWS FROM of one unnest per array as PostgreSQL
// reads it.
func (b *binder) bindFuncTable(ft *pt.FuncTable) (Node, error) {
	f, alias := ft.Call, ft.Alias.Name
	if f == nil {
		return nil, sqlerr.NotSupported("this function in FROM")
	}
	name, ord, explicit := f.Name, ft.Ordinality, ft.AliasExplicit
	colNames, colDefs := ft.Columns, ft.ColumnDefs
	defer b.refuseSetCalls(fromTopLevel)()
	if ft.RowsFrom || name == "unnest" && len(f.Args) > 1 {
		return b.bindRowsFrom(ft, alias, explicit, ord, colNames, colDefs) // rowsfrom.go
	}
	// The arguments see no FROM item of this level (no LATERAL), but do
	// see the enclosing query of a correlated subquery.
	s := &scope{tables: map[string]bool{}}
	if f.Schema != "" && !b.isUDF(name) {
		// public.generate_series(1, 2): sqlgate's functions are
		// pg_catalog's (calls.go)
		return nil, b.noFunctionInSchema(s, f)
	}
	if functions.IsPopulateRecord(name) {
		return b.bindPopulateTable(s, f, name, alias, ord, colNames, colDefs) // jsonpopulate.go
	}
	if len(colDefs) > 0 || functions.ReturnsRecord(name) {
		return b.bindRecordTableFunc(s, f, f.Args, name, alias, ord, colDefs)
	}
	if n, ok, err := b.bindFileTable(f, name, alias, ord, colNames); ok { // filetables.go
		return n, err
	}
	if n, ok, err := b.bindShowAllSettings(f, name, alias, ord, colNames); ok {
		return n, err
	}
	if n, ok, err := b.bindUDFBatch(s, f, name, alias, ord, colNames); ok { // batchudf.go
		return n, err
	}
	if b.sqlSetFuncName(name) {
		return b.bindSQLSetFromItem(s, f, f.Args, name, alias, explicit, ord, colNames) // sqlsetfunc.go
	}
	if fn := namedFuncName(f); fn != "" && b.sqlSetFuncName(fn) {
		return b.bindNamedSQLSetFromItem(s, f, fn, alias, explicit, ord, colNames) // sqlsetfunc.go
	}
	if !functions.IsSetFunc(name) && len(b.udfs().Tables(name)) == 0 {
		return b.bindScalarFromItem(s, f, f.Args, name, alias, explicit, ord, colNames)
	}
	args, err := b.bindTreeList(s, f.Args)
	if err != nil {
		return nil, err
	}
	if n, ok, err := b.bindUDFTable(f, name, alias, ord, colNames, args); ok {
		return n, err
	}
	return b.bindSetFromFunc(f, f.Args, args, name, alias, explicit, ord, colNames)
}

// bindSetFromFunc binds a set-returning function of the library in FROM,
// its arguments (trees, bound) already bound, under alias: its one column
// (named by the column alias, else by its OUT parameter, else by an
// explicit table alias, else after the function) and the ordinality, or
// one per field of a composite result.
func (b *binder) bindSetFromFunc(f *pt.FuncCall, trees []pt.Expr, args []Expr, name, alias string, explicit, ord bool, colNames []string) (Node, error) {
	ts := make([]types.T, len(args))
	for i, a := range args {
		ts[i] = a.Type()
	}
	sf, err := functions.ResolveSetFunc(name, ts)
	if err != nil {
		return nil, b.errAt(f, sqlerr.As(err))
	}
	for i := range args {
		if isUnknown(args[i].Type()) {
			if args[i], err = b.coerceUnknown(trees[i], args[i], sf.Args[i]); err != nil {
				return nil, err
			}
		} else {
			args[i] = b.castTo(args[i], sf.Args[i])
		}
	}
	return b.setFromFuncNode(f, sf, args, name, alias, explicit, ord, colNames)
}

// setFromFuncNode is the FROM item of set-returning function sf over
// args (cast to its parameters): bindSetFromFunc's columns.
func (b *binder) setFromFuncNode(f *pt.FuncCall, sf *functions.SetFunc, args []Expr, name, alias string, explicit, ord bool, colNames []string) (Node, error) {
	if sf.Ret.Kind == types.Row {
		return b.expandRowTableFunc(f, &TableFunc{Func: sf, Args: args, Ordinality: ord}, alias, colNames)
	}
	first := name
	if sf.OutName != "" {
		first = sf.OutName // an OUT parameter's name, which an alias does not change
	}
	names, err := funcItemNames(first, alias, sf.OutName == "" && explicit, ord, colNames)
	if err != nil {
		return nil, err
	}
	n := &TableFunc{Func: sf, Args: args, Ordinality: ord}
	n.cols = append(n.cols, Column{Name: names[0], T: sf.Ret, Table: alias})
	if ord {
		n.cols = append(n.cols, Column{Name: names[1], T: types.T{Kind: types.Int64, NotNull: true}, Table: alias})
	}
	return n, nil
}

// tooManyAliases is PostgreSQL's error for a column alias list longer
// than a function's columns (with the ordinality) in FROM.
func tooManyAliases(alias string, have, given int) *sqlerr.Error {
	return sqlerr.New(sqlerr.InvalidColumnReference, "table \"%s\" has %d columns available but %d columns specified", alias, have, given)
}

// bindRecordTableFunc binds a function returning record in FROM with its
// column definition list (json_to_record(j) AS x(a int, b text)): the
// function gives rows of the list's types (functions/jsontorecord.go),
// one column per field.
func (b *binder) bindRecordTableFunc(s *scope, f *pt.FuncCall, trees []pt.Expr, name, alias string, ord bool, defs []pt.FuncColumn) (Node, error) {
	switch {
	case !functions.ReturnsRecord(name):
		return nil, b.errAt(defs[0], sqlerr.New(sqlerr.SyntaxError, "a column definition list is only allowed for functions returning \"record\""))
	case len(defs) == 0:
		return nil, b.errAt(f, sqlerr.New(sqlerr.SyntaxError, "a column definition list is required for functions returning \"record\""))
	case ord:
		return nil, b.errAt(defs[0], sqlerr.New(sqlerr.SyntaxError, "WITH ORDINALITY cannot be used with a column definition list").
			WithHint("Put the column definition list inside ROWS FROM()."))
	}
	fields, err := b.columnDefFields(f, defs)
	if err != nil {
		return nil, err
	}
	args, err := b.bindTreeList(s, trees)
	if err != nil {
		return nil, err
	}
	ts := make([]types.T, len(args))
	for i, a := range args {
		ts[i] = a.Type()
	}
	row := types.T{Kind: types.Row, Variant: types.AnonRecord, Fields: fields}
	sf := functions.ResolveRecordFunc(name, ts, row)
	if sf == nil {
		names := make([]string, len(ts))
		for i, t := range ts {
			if isUnknown(t) {
				t = types.StringType
			}
			names[i] = t.PGName()
		}
		return nil, b.errAt(f, sqlerr.New(sqlerr.UndefinedFunction, "function %s(%s) does not exist", name, strings.Join(names, ", ")).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts."))
	}
	for i := range args {
		if isUnknown(args[i].Type()) {
			if args[i], err = b.coerceUnknown(trees[i], args[i], sf.Args[i]); err != nil {
				return nil, err
			}
		} else {
			args[i] = b.castTo(args[i], sf.Args[i])
		}
	}
	return b.expandRowTableFunc(f, &TableFunc{Func: sf, Args: args}, alias, nil)
}

// columnDefFields reads a column definition list: its columns' names
// (each once) and types, nullable.
func (b *binder) columnDefFields(f *pt.FuncCall, defs []pt.FuncColumn) ([]types.Field, error) {
	fields := make([]types.Field, len(defs))
	seen := map[string]bool{}
	for k, d := range defs {
		colName, typeText := d.Name, d.Type
		if seen[colName] {
			return nil, b.errAt(f, sqlerr.New(sqlerr.DuplicateColumn, "column name \"%s\" specified more than once", colName))
		}
		seen[colName] = true
		tn, err := sql.ParseTypeName(typeText)
		if err != nil {
			return nil, b.errAt(f, sqlerr.New(sqlerr.UndefinedObject, "type %q does not exist", typeText))
		}
		t, err := typeFromName(tn)
		if err != nil {
			ct, ok := b.compositeCastTarget(tn) // composite.go
			if !ok {
				return nil, b.errAt(f, sqlerr.As(err))
			}
			t = ct
		}
		fields[k] = types.Field{Name: colName, Type: t.Nullable()}
	}
	return fields, nil
}

// expandRowTableFunc makes the columns of a table function returning a
// composite (_pg_expandarray's (x, n)) one per field, as PostgreSQL does,
// then the ordinality; column aliases rename them in that order.
func (b *binder) expandRowTableFunc(f sourceNode, n *TableFunc, alias string, colNames []string) (Node, error) {
	ret := n.Func.Ret
	n.cols = []Column{{Name: n.Func.Name, T: ret, Table: alias}}
	if n.Ordinality {
		n.cols = append(n.cols, Column{Name: "ordinality", T: types.T{Kind: types.Int64, NotNull: true}, Table: alias})
	}
	p := &Project{Input: n}
	row := &ColumnRef{Index: 0, Name: n.Func.Name, T: ret}
	for k, fl := range ret.Fields {
		ft := fl.Type.Nullable()
		p.Exprs = append(p.Exprs, &FuncCall{Name: "fieldselect", Args: []Expr{row}, T: ft, Kernel: functions.FieldSelectKernel(ft, k)})
		p.Cols = append(p.Cols, Column{Name: fl.Name, T: ft, Table: alias})
	}
	if n.Ordinality {
		p.Exprs = append(p.Exprs, &ColumnRef{Index: 1, Name: "ordinality", T: n.cols[1].T})
		p.Cols = append(p.Cols, Column{Name: "ordinality", T: n.cols[1].T, Table: alias})
	}
	if len(colNames) > len(p.Cols) {
		return nil, tooManyAliases(alias, len(p.Cols), len(colNames))
	}
	for i, c := range colNames {
		p.Cols[i].Name = c
	}
	return p, nil
}

// funcItemNames names the columns of a function of one column in FROM:
// the column alias, else the table alias when byAlias (an explicit one),
// else name; and "ordinality" WITH ORDINALITY (or its column alias). More
// column aliases than columns is 42P10 (tooManyAliases).
func funcItemNames(name, alias string, byAlias, ord bool, colNames []string) ([]string, error) {
	first := name
	if byAlias {
		first = alias
	}
	names := []string{first}
	if ord {
		names = append(names, "ordinality")
	}
	if len(colNames) > len(names) {
		return nil, tooManyAliases(alias, len(names), len(colNames))
	}
	copy(names, colNames)
	return names, nil
}

// bindScalarFromItem binds a function that returns no set, used as a FROM
// item (FROM string_to_array(..) s, FROM current_schema()): PostgreSQL's
// one-row table whose one column is named by the column alias, else the
// table alias, else the function (and, WITH ORDINALITY, a bigint 1).
func (b *binder) bindScalarFromItem(s *scope, f *pt.FuncCall, trees []pt.Expr, name, alias string, explicit, ord bool, colNames []string) (Node, error) {
	if aggregateNames[name] {
		return nil, b.errAt(f, sqlerr.New(sqlerr.GroupingError, "aggregate functions are not allowed in functions in FROM"))
	}
	// the call the marker stands for, where the marker stands
	call := &pt.FuncCall{At: pt.At{Offset: f.Offset}, Name: name, Args: trees}
	if name == sql.NamedNoMatch && len(trees) > 0 {
		if fn, ok := trees[0].(*pt.Literal); ok {
			name = fn.Text // a call in named notation (sqlfunc.go) names its column so
		}
	}
	e, err := b.bindTree(s, call)
	if err != nil {
		return nil, err
	}
	first := name
	if out := b.sqlOutName(name); out != "" {
		first, explicit = out, false // an OUT parameter's name, which an alias does not change
	}
	names, err := funcItemNames(first, alias, explicit, ord, colNames)
	if err != nil {
		return nil, err
	}
	t := e.Type()
	if isUnknown(t) {
		e, t = b.resolveUnknown(e, types.StringType), types.StringType
	}
	if t.Kind == types.Row && len(t.Fields) > 0 {
		return b.expandCompositeFromItem(e, name, alias, ord, colNames)
	}
	p := &Project{Input: &Values{Rows: [][]Expr{{}}}, Exprs: []Expr{e}}
	p.Cols = append(p.Cols, Column{Name: names[0], T: t.Nullable(), Table: alias})
	if ord {
		p.Exprs = append(p.Exprs, &Const{Value: int64(1), T: types.Int64Type})
		p.Cols = append(p.Cols, Column{Name: names[1], T: types.T{Kind: types.Int64, NotNull: true}, Table: alias})
	}
	return p, nil
}

// expandCompositeFromItem is a function returning a composite (its OUT
// parameters: pg_identify_object, pg_sequence_parameters) as a FROM item:
// as PostgreSQL does, one column per field, named by the field unless a
// column alias renames it, then the ordinality. The call runs once, below
// the fields' selection; a NULL result is a row of NULLs.
func (b *binder) expandCompositeFromItem(e Expr, name, alias string, ord bool, colNames []string) (Node, error) {
	t := e.Type()
	in := &Project{Input: &Values{Rows: [][]Expr{{}}}, Exprs: []Expr{e}}
	in.Cols = append(in.Cols, Column{Name: name, T: t.Nullable(), Table: alias})
	p := &Project{Input: in}
	row := &ColumnRef{Index: 0, Name: name, T: t.Nullable()}
	for k, fl := range t.Fields {
		ft := fl.Type.Nullable()
		p.Exprs = append(p.Exprs, &FuncCall{Name: "fieldselect", Args: []Expr{row}, T: ft, Kernel: functions.FieldSelectKernel(ft, k)})
		p.Cols = append(p.Cols, Column{Name: fl.Name, T: ft, Table: alias})
	}
	if ord {
		ot := types.T{Kind: types.Int64, NotNull: true}
		p.Exprs = append(p.Exprs, &Const{Value: int64(1), T: ot})
		p.Cols = append(p.Cols, Column{Name: "ordinality", T: ot, Table: alias})
	}
	if len(colNames) > len(p.Cols) {
		return nil, tooManyAliases(alias, len(p.Cols), len(colNames))
	}
	for i, c := range colNames {
		p.Cols[i].Name = c
	}
	return p, nil
}

// ProjectSet evaluates set-returning functions of a SELECT list (SELECT
// unnest(a), generate_series(1, n) FROM t): for each input row every call
// runs with that row's arguments, and the row repeats once per value of
// the longest result, the shorter ones padded with NULL (PostgreSQL 10's
// lockstep rule); an input row for which every call is empty produces no
// row. Its columns are the input's, then one per call.
type ProjectSet struct {
	Input Node
	Calls []SetCall
	cols  []Column
}

// SetCall is one set-returning call of a ProjectSet, its arguments over
// the ProjectSet's input. Level is how deep it nests: 0 when its
// arguments hold no set-returning call, else one more than the deepest
// they hold (generate_series(1, generate_series(1, 3)) is level 1); each
// level is a ProjectSet of its own over the one below, as PostgreSQL's
// planner stacks them.
type SetCall struct {
	Func  *functions.SetFunc
	Args  []Expr
	Level int
}

func (n *ProjectSet) Columns() []Column { return n.cols }
func (n *ProjectSet) Children() []Node  { return []Node{n.Input} }

// srfRef stands for set-returning call Index until the ProjectSet exists.
type srfRef struct {
	Index int
	Name  string
	T     types.T
	at    sourceNode // the call, where errors about it point
}

func (e *srfRef) Type() types.T  { return e.T }
func (e *srfRef) String() string { return e.Name }

// bindSetCall binds a set-returning function called in a SELECT list (or
// in the arguments of one there).
func (b *binder) bindSetCall(n *pt.FuncCall) (Expr, error) {
	name := n.Name
	st := b.srf
	switch {
	case st == nil:
		return nil, b.errAt(n, sqlerr.New(sqlerr.FeatureNotSupported, "set-returning functions are not allowed here"))
	case st.refuse == fromTopLevel:
		return nil, b.errAt(n, sqlerr.New(sqlerr.FeatureNotSupported, "set-returning functions must appear at top level of FROM"))
	case st.refuse != "":
		return nil, b.errAt(n, sqlerr.New(sqlerr.FeatureNotSupported, "set-returning functions are not allowed in %s", st.refuse))
	case b.agg != nil && b.agg.inCall:
		return nil, b.errAt(n, sqlerr.New(sqlerr.FeatureNotSupported, "aggregate function calls cannot contain set-returning function calls").
			WithHint("You might be able to move the set-returning function into a LATERAL FROM item."))
	case b.win != nil && b.win.inCall:
		return nil, b.errAt(n, sqlerr.New(sqlerr.FeatureNotSupported, "window function calls cannot contain set-returning function calls").
			WithHint("You might be able to move the set-returning function into a LATERAL FROM item."))
	}
	if st.grouped != nil {
		if e, ok := b.groupedSetCall(st, n); ok {
			return e, nil
		}
		if st.grouped.matching {
			return nil, errNotGrouped
		}
	}
	sf, args, err := b.bindSetCallArgs(st, n)
	if err != nil {
		return nil, err
	}
	level := 0
	for _, a := range args {
		walkSetCalls(a, func(r *srfRef) {
			level = max(level, st.calls[r.Index].Level+1)
		})
	}
	st.calls = append(st.calls, SetCall{Func: sf, Args: args, Level: level})
	return &srfRef{Index: len(st.calls) - 1, Name: name, T: setCallType(sf), at: n}, nil
}

// bindSetCallArgs binds a set-returning call's arguments with st's
// binding function, resolves the function and casts the arguments to its
// parameters.
func (b *binder) bindSetCallArgs(st *srfState, n *pt.FuncCall) (*functions.SetFunc, []Expr, error) {
	if n.Name == sql.NamedNoMatch {
		return b.namedSQLSetCallArgs(st, n) // sqlsetfunc.go
	}
	prevIn := st.inCall
	st.inCall = true
	args := make([]Expr, len(n.Args))
	ts := make([]types.T, len(n.Args))
	for i, a := range n.Args {
		e, err := st.bindTree(a)
		if err != nil {
			st.inCall = prevIn
			return nil, nil, err
		}
		args[i], ts[i] = e, e.Type()
	}
	st.inCall = prevIn
	if b.sqlSetFuncName(n.Name) {
		sf, arr, err := b.callSQLSetFunction(n, n.Name, args) // sqlsetfunc.go
		if err != nil {
			return nil, nil, err
		}
		return sf, []Expr{arr}, nil
	}
	sf, err := functions.ResolveSetFunc(n.Name, ts)
	if err != nil {
		return nil, nil, b.errAt(n, sqlerr.As(err))
	}
	for i := range args {
		if isUnknown(args[i].Type()) {
			if args[i], err = b.coerceUnknown(n.Args[i], args[i], sf.Args[i]); err != nil {
				return nil, nil, err
			}
		} else {
			args[i] = b.castTo(args[i], sf.Args[i])
		}
	}
	return sf, args, nil
}

// groupedSetCalls are the set-returning calls of a GROUP BY, evaluated
// by a ProjectSet below the aggregation as PostgreSQL's planner does (one
// input row per value, then grouped): calls, their arguments over the
// ProjectSet's input, and cols, the ProjectSet's column of each. raw binds
// an expression over that input (without the aggregate's rebasing).
// matching is set while a select-list call's arguments are bound raw to
// compare them with the calls.
type groupedSetCalls struct {
	calls    []SetCall
	cols     []int
	raw      func(pt.Expr) (Expr, error)
	matching bool
}

// errNotGrouped ends binding a select-list call raw when a call nested in
// its arguments is none of GROUP BY's: the call then binds as usual.
var errNotGrouped = sqlerr.New(sqlerr.InternalError, "set-returning call not grouped")

// groupedSetCall is the column of GROUP BY's ProjectSet that a
// set-returning call of the select list (or ORDER BY, DISTINCT ON) is:
// the same function over the same arguments is the grouped value, as
// PostgreSQL matches a target to a grouping expression (select
// generate_series(1, 3) g, count(*) .. group by g). ok is false when it
// is none of them, or its arguments hold an aggregate or window call,
// which are over the groups.
func (b *binder) groupedSetCall(st *srfState, n *pt.FuncCall) (Expr, bool) {
	g := st.grouped
	for _, a := range n.Args {
		if b.containsAggregateTree(a) || b.containsWindowTree(a) {
			return nil, false
		}
	}
	prevBind, prevMatching := st.bind, g.matching
	st.bind, g.matching = g.raw, true
	sf, args, err := b.bindSetCallArgs(st, n)
	st.bind, g.matching = prevBind, prevMatching
	if err != nil {
		return nil, false
	}
	for i, c := range g.calls {
		if c.Func.Name == sf.Name && sameExprs(c.Args, args) {
			return &ColumnRef{Index: g.cols[i], Name: n.Name, T: setCallType(sf)}, true
		}
	}
	return nil, false
}

func sameExprs(a, b []Expr) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameExpr(a[i], b[i]) {
			return false
		}
	}
	return true
}

// groupBySetCalls puts GROUP BY's set-returning calls (st, the keys'
// srfRefs to them) in a ProjectSet over input and returns it and the
// grouped calls for the select list's state. The ProjectSet's added
// columns are hidden: no name reaches them.
func (st *srfState) groupBySetCalls(input Node, keys []Expr) (Node, *groupedSetCalls) {
	base := len(input.Columns())
	n, pos := st.addProjectSet(input, keys)
	g := &groupedSetCalls{calls: st.calls}
	for _, p := range pos {
		g.cols = append(g.cols, base+p)
	}
	ps := n
	for {
		p, ok := ps.(*ProjectSet)
		if !ok {
			break
		}
		for i := base; i < len(p.cols); i++ {
			p.cols[i].Hidden = true
		}
		ps = p.Input
	}
	return n, g
}

// setCallType is the type of a set-returning call's values in a SELECT
// list: a composite (jsonb_each's (key, value)) is PostgreSQL's record
// there, which prints as (a,1).
func setCallType(sf *functions.SetFunc) types.T {
	t := sf.Ret
	if t.Kind == types.Row && t.Variant == types.NoVariant {
		t.Variant = types.AnonRecord
	}
	return t
}

// fromTopLevel is the refusal of set-returning calls in the arguments of
// a function in FROM.
const fromTopLevel = "FROM"

// refuseSetCalls makes set-returning calls an error (PostgreSQL's
// check_srf_call_placement) until restore is called: in place (WHERE,
// HAVING, JOIN conditions), or fromTopLevel.
func (b *binder) refuseSetCalls(place string) (restore func()) {
	prev, prevWin := b.srf, b.winPlace
	b.srf = &srfState{refuse: place}
	b.winPlace = place // window calls are refused in the same places
	if place == fromTopLevel {
		b.winPlace = "functions in FROM"
	}
	return func() { b.srf, b.winPlace = prev, prevWin }
}

// walkSetCalls calls fn with each set-returning call e holds.
func walkSetCalls(e Expr, fn func(*srfRef)) {
	if r, ok := e.(*srfRef); ok {
		fn(r)
		return
	}
	MapChildren(e, func(c Expr) (Expr, error) { walkSetCalls(c, fn); return c, nil })
}

// lastSetCall is the set-returning call bound last among those es hold
// (PostgreSQL's p_last_srf over them), nil when they hold none.
func lastSetCall(es ...Expr) *srfRef {
	var last *srfRef
	for _, e := range es {
		if e == nil {
			continue
		}
		walkSetCalls(e, func(r *srfRef) {
			if last == nil || r.Index > last.Index {
				last = r
			}
		})
	}
	return last
}

// refuseSetCallIn is PostgreSQL's error for a set-returning call among
// the arguments es of a conditional construct (CASE, COALESCE), which
// would evaluate it for rows it does not reach: nil when they hold none.
func (b *binder) refuseSetCallIn(what string, es ...Expr) error {
	r := lastSetCall(es...)
	if r == nil {
		return nil
	}
	return b.errAt(r.at, sqlerr.New(sqlerr.FeatureNotSupported, "set-returning functions are not allowed in %s", what).
		WithHint("You might be able to move the set-returning function into a LATERAL FROM item."))
}

// setArgument is coerce_to_boolean's error for a boolean argument (of
// AND, NOT, CASE/WHEN ..., what) that holds a set-returning call: nil when
// e holds none.
func (b *binder) setArgument(n sourceNode, e Expr, what string) error {
	if lastSetCall(e) == nil {
		return nil
	}
	return b.errAt(n, sqlerr.New(sqlerr.DatatypeMismatch, "%s must not return a set", what))
}

// addProjectSet puts the collected calls under the projection, one
// ProjectSet per level (the calls of level 0 over input, those of level 1
// over that ...), and turns the references to them into columns; exprs
// are the projection's.
//
// pos is each call's column after input's.
func (st *srfState) addProjectSet(input Node, exprs []Expr) (Node, []int) {
	base := len(input.Columns())
	order := make([]int, len(st.calls))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool { return st.calls[order[x]].Level < st.calls[order[y]].Level })
	pos := make([]int, len(st.calls)) // a call's column, after base
	for p, i := range order {
		pos[i] = p
	}
	n := input
	for p := 0; p < len(order); {
		level := st.calls[order[p]].Level
		ps := &ProjectSet{Input: n}
		ps.cols = append(ps.cols, n.Columns()...)
		for ; p < len(order) && st.calls[order[p]].Level == level; p++ {
			c := st.calls[order[p]]
			for k, a := range c.Args {
				c.Args[k] = resolveSrfRefs(a, base, pos)
			}
			ps.Calls = append(ps.Calls, c)
			ps.cols = append(ps.cols, Column{Name: fmt.Sprintf("%s_%d", c.Func.Name, p+1), T: setCallType(c.Func)})
		}
		n = ps
	}
	for i, e := range exprs {
		exprs[i] = resolveSrfRefs(e, base, pos)
	}
	return n, pos
}

func resolveSrfRefs(e Expr, base int, pos []int) Expr {
	if r, ok := e.(*srfRef); ok {
		return &ColumnRef{Index: base + pos[r.Index], Name: r.Name, T: r.T}
	}
	out, _ := MapChildren(e, func(c Expr) (Expr, error) { return resolveSrfRefs(c, base, pos), nil })
	return out
}

// bindShowAllSettings binds pg_show_all_settings() (pgAdmin's dashboard
// reads it) as the relation pg_catalog.pg_settings: PostgreSQL defines
// that view as SELECT * FROM pg_show_all_settings(), so the two have the
// same columns and rows. ok is false when name is another function.
func (b *binder) bindShowAllSettings(f *pt.FuncCall, name, alias string, ord bool, colNames []string) (Node, bool, error) {
	if name != "pg_show_all_settings" {
		return nil, false, nil
	}
	if len(f.Args) > 0 { // no such overload: the usual 42883, naming the argument types
		args, err := b.bindTreeList(&scope{tables: map[string]bool{}}, f.Args)
		if err != nil {
			return nil, true, err
		}
		ts := make([]types.T, len(args))
		for i, a := range args {
			ts[i] = a.Type()
		}
		_, err = functions.ResolveSetFunc(name, ts)
		return nil, true, b.errAt(f, sqlerr.As(err))
	}
	if ord {
		return nil, true, b.errAt(f, sqlerr.NotSupported("WITH ORDINALITY on pg_show_all_settings"))
	}
	info, err := b.cat.GetTable(b.ctx, fluss.TablePath{Database: "pg_catalog", Table: "pg_settings"})
	if err != nil {
		if se := sqlerr.As(err); se != nil {
			return nil, true, b.errAt(f, se)
		}
		return nil, true, err
	}
	if alias == "" {
		alias = name
	}
	n, err := relabelAliases(NewScan(info, alias), alias, colNames) // exprbind.go
	return n, true, err
}

// bindUpdateValue binds an UPDATE's SET value, where PostgreSQL refuses a
// set-returning call naming the statement.
func (b *binder) bindUpdateValue(s *scope, e pt.Expr) (Expr, error) {
	defer b.refuseSetCalls("UPDATE")()
	return b.bindTree(s, e)
}

// valuesRowAsSelect is INSERT ... VALUES (row) as INSERT ... SELECT row when
// the one row calls a set-returning function: PostgreSQL transforms a
// single-row VALUES list as a select list, where such a call adds rows (a
// multi-row list refuses it: "not allowed in VALUES"). A DEFAULT cell's
// column is left out of the target columns (tableCols name them when the
// statement lists none), which gives it its default all the same. ins is
// returned when it is not such a statement.
func valuesRowAsSelect(ins *pt.Insert, tableCols []fluss.Column) *pt.Insert {
	if len(ins.Rows) != 1 || ins.Query != nil {
		return ins
	}
	row := ins.Rows[0]
	calls, defaults := false, false
	for _, e := range row {
		_, isDefault := e.(*pt.Default)
		defaults = defaults || isDefault
		calls = calls || callsSetFunction(e)
	}
	if !calls {
		return ins
	}
	targets := ins.Columns
	if defaults && len(targets) == 0 {
		if len(row) > len(tableCols) {
			return ins // VALUES' own error: more expressions than columns
		}
		for _, c := range tableCols[:len(row)] {
			targets = append(targets, &pt.InsertColumn{At: ins.At, Name: c.Name})
		}
	}
	if defaults && len(targets) != len(row) {
		return ins // VALUES' own error
	}
	sel := &pt.Select{At: ins.At}
	sel.With = ins.With
	var cols []*pt.InsertColumn
	for i, e := range row {
		if _, isDefault := e.(*pt.Default); isDefault {
			continue
		}
		sel.Targets = append(sel.Targets, &pt.Target{X: e})
		if defaults {
			cols = append(cols, targets[i])
		}
	}
	out := *ins
	if defaults {
		out.Columns = cols
	}
	out.Rows, out.Query, out.PlainQuery, out.QuerySelect = nil, sel, true, true
	return &out
}

// callsSetFunction reports whether e calls a set-returning function
// outside any subquery (whose own select list may).
func callsSetFunction(e pt.Expr) bool {
	found := false
	pt.Inspect(e, func(n pt.Node) bool {
		switch x := n.(type) {
		case *pt.Subquery, *pt.Exists, *pt.ArraySubquery:
			return false
		case *pt.FuncCall:
			found = found || (x.Over == nil && functions.IsSetFunc(x.Name))
		}
		return !found
	})
	return found
}
