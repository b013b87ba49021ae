package binder

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/udf"
)

// LANGUAGE sql functions (udf.Scalar with SQL set) are expanded where they
// are called, as PostgreSQL's inline_function does for the simple ones: the
// body's final query is bound with the function's parameters as the outer
// scope of a correlated subquery, whose outer values are the call's
// arguments. A body that is one SELECT of one expression without FROM
// becomes that expression over the arguments (no subquery left); any other
// becomes a scalar subquery of its first row (NULL when it has none). Its
// earlier statements, queries without effect, are only checked.

// maxSQLFunctionNesting bounds how deep SQL function calls expand inside
// each other (a chain of distinct functions; a function met again inside
// itself is refused at once).
const maxSQLFunctionNesting = 64

// stackDepthExceeded is PostgreSQL's error for a recursion without end.
// sqlgate expands a call where it stands, so a function that calls itself
// is refused when the call is bound.
func stackDepthExceeded(name string) *sqlerr.Error {
	return sqlerr.New(sqlerr.Code("54001"), "stack depth limit exceeded").
		WithDetail("SQL function \"%s\" calls itself; sqlgate expands LANGUAGE sql functions where they are called, so recursion does not end.", name).
		WithHint("Increase the configuration parameter \"max_stack_depth\" (currently 2048kB), after ensuring the platform's stack depth limit is adequate.")
}

// sqlFuncBody is the text of a function's body as statements.
func sqlFuncBody(f *udf.SQLFunc) string {
	if f.BodyKind == "return" {
		return "SELECT " + f.Body
	}
	return f.Body
}

// returnMismatch is check_sql_fn_retval's error.
func returnMismatch(t types.T, detail string, args ...any) *sqlerr.Error {
	return sqlerr.New(sqlerr.Code("42P13"), "return type mismatch in function declared to return %s", t.PGName()).WithDetail(detail, args...)
}

// CheckSQLFunction binds the body of f, a LANGUAGE sql function, against
// its parameters' types as CREATE FUNCTION validates it (PostgreSQL's
// check_function_bodies): unknown names, type errors and a result that is
// not one column of the declared type fail here.
func CheckSQLFunction(ctx context.Context, cat Catalog, f *udf.Scalar) error {
	b := &binder{ctx: ctx, cat: cat, sqlCheck: true}
	args := make([]Expr, len(f.Args))
	for i, t := range f.Args {
		args[i] = &Param{Index: i, T: t}
	}
	b.params = append([]types.T(nil), f.Args...)
	_, err := b.expandSQLFunction(f, args)
	return err
}

// callSQLFunction binds a call of f with its arguments, already cast to
// the declared types.
func (b *binder) callSQLFunction(n sourceNode, f *udf.Scalar, args []Expr) (Expr, error) {
	if b.funcUses != nil {
		// a view depends on the function (DROP FUNCTION's 2BP01)
		ts := make([]string, len(f.Args))
		for i, t := range f.Args {
			ts[i] = t.PGName()
		}
		if sig := f.Name + "(" + strings.Join(ts, ", ") + ")"; !slices.Contains(*b.funcUses, sig) {
			*b.funcUses = append(*b.funcUses, sig)
		}
	}
	e, err := b.expandSQLFunction(f, args)
	if err != nil {
		if se := sqlerr.As(err); se != nil {
			return nil, b.errAt(n, se.AsUnplaced())
		}
		return nil, err
	}
	return e, nil
}

func (b *binder) expandSQLFunction(f *udf.Scalar, args []Expr) (Expr, error) {
	if f.SQL.SetOf {
		return b.expandSQLSetFunction(f, args) // sqlsetfunc.go
	}
	body, err := b.bindSQLBody(f, args)
	if err != nil || body.recursive {
		if body.recursive {
			// CREATE FUNCTION's check of a body that calls the function:
			// its type is the declared one
			return b.newConst(nil, f.Returns.Nullable()), nil
		}
		return nil, err
	}
	plan, corr, outer := body.plan, body.corr, body.outer
	cols := plan.Columns()
	want := f.Returns.Nullable()
	if rowResult(f) {
		// OUT parameters or a composite: the record, from the first row
		e, err := b.sqlResultRecord(f, cols) // sqlsetfunc.go
		if err != nil {
			return nil, err
		}
		one := &Limit{Input: plan, Count: b.newConst(int64(1), types.Int64Type)}
		q := &Project{Input: one, Exprs: []Expr{e}, Cols: []Column{{Name: f.Name, T: want}}}
		return b.strictCall(f, args, &Subquery{Plan: q, Outer: outer, Mode: ScalarSubquery, T: want}, want), nil
	}
	if len(cols) != 1 {
		return nil, returnMismatch(f.Returns, "Final statement must return exactly one column.")
	}
	// the result, assigned to the declared type (PostgreSQL 13+'s
	// coerce_fn_result_column)
	result := func(e Expr) (Expr, error) { return b.sqlResultColumn(f, e, cols[0].Name, want) }
	var out Expr
	if e, ok := inlinable(plan); ok && inlineSafe(f, e, corr, args) {
		if e, err = result(e); err != nil {
			return nil, err
		}
		if out, err = substituteOuter(e, outer); err != nil {
			return nil, err
		}
	} else {
		one := &Limit{Input: plan, Count: b.newConst(int64(1), types.Int64Type)}
		e, err := result(&ColumnRef{Index: 0, Name: cols[0].Name, T: cols[0].T})
		if err != nil {
			return nil, err
		}
		q := &Project{Input: one, Exprs: []Expr{e}, Cols: []Column{{Name: cols[0].Name, T: e.Type()}}}
		out = &Subquery{Plan: q, Outer: outer, Mode: ScalarSubquery, T: e.Type().Nullable()}
	}
	return b.strictCall(f, args, out, want), nil
}

// sqlResultColumn assigns e, the body's result column col, to the
// declared type want (PostgreSQL 13+'s coerce_fn_result_column): 42P13
// naming the actual type when no assignment cast exists.
func (b *binder) sqlResultColumn(f *udf.Scalar, e Expr, col string, want types.T) (Expr, error) {
	if f.Returns.Kind == types.Unknown {
		return e, nil // an operator's polymorphic result (operfuncs.go)
	}
	out, err := b.assign(nil, e, col, want, "")
	if err != nil {
		if se := sqlerr.As(err); se != nil && se.Code == sqlerr.DatatypeMismatch {
			return nil, returnMismatch(f.Returns, "Actual return type is %s.", e.Type().PGName())
		}
		return nil, err
	}
	return out, nil
}

// strictCall is out, a call of f over args, as a STRICT function's: a
// NULL argument gives null (a NULL of out's type), the body not run.
func (b *binder) strictCall(f *udf.Scalar, args []Expr, out Expr, null types.T) Expr {
	if !f.SQL.Strict || len(args) == 0 {
		return out
	}
	var anyNull Expr
	for _, a := range args {
		var t Expr = &IsNull{X: a}
		if anyNull == nil {
			anyNull = t
		} else {
			anyNull = &BinaryOp{Op: OpOr, L: anyNull, R: t, T: types.BoolType}
		}
	}
	return &Case{Whens: []When{{Cond: anyNull, Result: b.newConst(nil, null)}}, Else: out, T: null}
}

// sqlBody is a LANGUAGE sql function's body bound for a call: the plan
// of its last statement, reading the parameters as slots of corr, and
// outer, the arguments those slots are. recursive is set (nothing else)
// when CREATE FUNCTION's check meets a call of the function itself.
type sqlBody struct {
	plan      Node
	corr      *corrState
	outer     []Expr
	recursive bool
}

// bindSQLBody binds the statements of f's body with its parameters as
// their outer scope, and the values of the parameters the last one reads
// from args.
func (b *binder) bindSQLBody(f *udf.Scalar, args []Expr) (sqlBody, error) {
	for _, o := range b.sqlFuncs {
		if o.Name == f.Name && slices.EqualFunc(o.Args, f.Args, func(x, y types.T) bool { return x.Equal(y) }) || len(b.sqlFuncs) >= maxSQLFunctionNesting {
			if b.sqlCheck {
				// CREATE FUNCTION's check of a body that calls the
				// function: PostgreSQL accepts it (the call recurses
				// when run)
				return sqlBody{recursive: true}, nil
			}
			return sqlBody{}, stackDepthExceeded(f.Name)
		}
	}
	sts, err := sql.NewParser().Parse(sqlFuncBody(f.SQL))
	if err != nil {
		return sqlBody{}, b.bodyError(f, err)
	}
	if len(sts) == 0 {
		return sqlBody{}, returnMismatch(f.Returns, "Function's final statement must be SELECT or INSERT/UPDATE/DELETE RETURNING.")
	}
	// the parameters, as the outer scope of the body's queries: by name,
	// qualified by the function's name too
	ps := &scope{cols: make([]Column, len(f.Args))}
	for i, t := range f.Args {
		name := ""
		if i < len(f.ArgNames) {
			name = f.ArgNames[i]
		}
		ps.cols[i] = Column{Name: name, T: t, Table: f.Name}
	}
	stack := append(append([]*udf.Scalar(nil), b.sqlFuncs...), f)
	var plan Node
	var corr *corrState
	for i, st := range sts {
		if st.Kind != sql.Select || st.AST == nil {
			write := st.Kind == sql.Insert || st.Kind == sql.Update || st.Kind == sql.Delete
			if i == len(sts)-1 && !(write && strings.Contains(strings.ToUpper(st.Text), "RETURNING")) {
				return sqlBody{}, returnMismatch(f.Returns, "Function's final statement must be SELECT or INSERT/UPDATE/DELETE RETURNING.")
			}
			return sqlBody{}, sqlerr.NotSupported("a LANGUAGE sql function whose body is not queries only (" + firstWords(st.Text) + ")")
		}
		sub := &binder{ctx: b.ctx, cat: b.cat, stmt: st, sqlFuncs: stack, sqlParams: ps, sqlCheck: b.sqlCheck}
		sub.outer = ps
		sub.corr = &corrState{outer: ps, slots: map[int]int{}}
		p, ok, err := sub.bindQueryNode(st.AST)
		if !ok && err == nil {
			err = sqlerr.NotSupported("this kind of query in a LANGUAGE sql function")
		}
		if err != nil {
			return sqlBody{}, b.bodyError(f, err)
		}
		plan, corr = p, sub.corr
	}
	// the outer values the body reads: slot k of the parameters' scope is
	// argument k
	outer := make([]Expr, len(corr.refs))
	for i, r := range corr.refs {
		c, ok := r.(*ColumnRef)
		if !ok || c.Index >= len(args) {
			return sqlBody{}, sqlerr.New(sqlerr.InternalError, "SQL function %s: an outer reference that is no parameter", f.Name)
		}
		outer[i] = args[c.Index]
	}
	return sqlBody{plan: plan, corr: corr, outer: outer}, nil
}

// inlinable is the one expression of a plan that is SELECT expr without
// FROM or any other clause.
func inlinable(plan Node) (Expr, bool) {
	p, ok := plan.(*Project)
	if !ok || len(p.Exprs) != 1 {
		return nil, false
	}
	v, ok := p.Input.(*Values)
	if !ok || len(v.Rows) != 1 || len(v.Cols) != 0 {
		return nil, false
	}
	return p.Exprs[0], true
}

// inlineSafe applies the rest of PostgreSQL's inline_function rules to a
// body's one expression e, so that a call is inlined where PostgreSQL's
// is, and otherwise runs as the function over its arguments' values (the
// subquery): there the body is planned with the parameters as unknowns, so
// it neither folds an argument's constant into an error PostgreSQL never
// meets, nor runs at all for a call never made. Not inlined: a body with
// a subquery; a STRICT function's body that is not strict all through (or
// leaves a parameter unread); a body more volatile than the function's
// declaration; a parameter read more than once whose argument is volatile
// or holds a subquery (computed once per call).
func inlineSafe(f *udf.Scalar, e Expr, corr *corrState, args []Expr) bool {
	uses := map[int]int{}
	ok := true
	Walk(e, func(x Expr) {
		switch n := x.(type) {
		case *Subquery, *UDFCall:
			ok = false
		case *OuterRef:
			uses[n.Slot]++
		case *FuncCall:
			if f.SQL.Strict || f.SQL.Volatility == 'i' && n.Volatile {
				ok = false // whether it is strict, or immutable, is not known here
			}
		case *Case, *Coalesce, *IsNull:
			if f.SQL.Strict {
				ok = false
			}
		case *BinaryOp:
			if f.SQL.Strict && (n.Op == OpAnd || n.Op == OpOr) {
				ok = false
			}
		}
	})
	if !ok || f.SQL.Volatility != 'v' && ContainsVolatile(e) {
		return false
	}
	for k, a := range args {
		slot, read := corr.slots[k]
		n := 0
		if read {
			n = uses[slot]
		}
		switch {
		case n == 0 && f.SQL.Strict:
			return false
		case n > 1 && (ContainsVolatile(a) || containsSubquery(a)):
			return false
		}
	}
	return true
}

// containsSubquery reports whether e holds a subquery anywhere.
func containsSubquery(e Expr) bool {
	found := false
	Walk(e, func(x Expr) {
		if _, ok := x.(*Subquery); ok {
			found = true
		}
	})
	return found
}

// substituteOuter replaces the OuterRefs of e (slots of the parameters'
// scope, also in the outer values of the subqueries e holds) by outer's
// values. The plans of those subqueries read their own slots only.
func substituteOuter(e Expr, outer []Expr) (Expr, error) {
	if r, ok := e.(*OuterRef); ok {
		if r.Slot >= len(outer) {
			return nil, sqlerr.New(sqlerr.InternalError, "SQL function: outer slot %d of %d", r.Slot, len(outer))
		}
		return outer[r.Slot], nil
	}
	return MapChildren(e, func(c Expr) (Expr, error) { return substituteOuter(c, outer) })
}

// sqlParamRef is $n (idx n-1) of the SQL function being expanded: a slot
// of the parameters' scope, passed down to the subquery being bound.
func sqlParamRef(c *corrState, idx int) *OuterRef {
	if c.parent == nil {
		return c.slotOf(idx)
	}
	return c.passDown(sqlParamRef(c.parent, idx))
}

// unplaced drops the position of an error of a function's body, whose
// text is not the statement's.
// bodyError is an error of parsing or binding f's body: CREATE FUNCTION's
// check of the function it creates keeps the error's position, made a
// 1-based character position in f's Body (the engine places it in the
// statement, as PostgreSQL's function_parse_error_transpose does); a
// call's has none of its own (callSQLFunction gives it the call's).
func (b *binder) bodyError(f *udf.Scalar, err error) error {
	se := sqlerr.As(err)
	if !b.sqlCheck || len(b.sqlFuncs) > 0 || se == nil || se.Position == 0 {
		return unplaced(err)
	}
	pos := se.Position - (utf8.RuneCountInString(sqlFuncBody(f.SQL)) - utf8.RuneCountInString(f.SQL.Body))
	if pos < 1 {
		pos = 1
	}
	return se.WithPosition(pos)
}

func unplaced(err error) error {
	if se := sqlerr.As(err); se != nil {
		return se.AsUnplaced()
	}
	return err
}

// sqlFuncDefaults completes a call's arguments with the defaults of the
// parameters it leaves out (each bound as written, cast to its type).
func (b *binder) sqlFuncDefaults(f *udf.Scalar, args []Expr) ([]Expr, error) {
	for i := len(args); i < len(f.Args); i++ {
		e, err := b.sqlFuncDefault(f, i)
		if err != nil {
			return nil, err
		}
		args = append(args, e)
	}
	return args, nil
}

// sqlFuncDefault is the default of f's input parameter i, bound as
// written and cast to its type.
func (b *binder) sqlFuncDefault(f *udf.Scalar, i int) (Expr, error) {
	text := ""
	if f.SQL != nil && i < len(f.SQL.Defaults) {
		text = f.SQL.Defaults[i]
	}
	if text == "" {
		return nil, sqlerr.New(sqlerr.InternalError, "function %s: no default for parameter %d", f.Name, i+1)
	}
	x, err := parseExprText(text)
	if err != nil {
		return nil, unplaced(err)
	}
	sub := &binder{ctx: b.ctx, cat: b.cat, stmt: x.st}
	e, err := sub.bindTree(nil, x.tree)
	if err != nil {
		return nil, unplaced(err)
	}
	if e, err = sub.assign(nil, e, strings.ToLower(f.Name), f.Args[i], ""); err != nil {
		return nil, unplaced(err)
	}
	return e, nil
}

// namedSQLFuncCall binds a call in named notation (f(1, b => 2), the
// rewrite's pg__named_nomatch('f', name, arg, ...), an empty name for a
// positional argument: sql/namedargs.go) of
// a LANGUAGE sql function, as PostgreSQL's func_get_detail matches one:
// an overload is a candidate when the positional arguments fill its
// first parameters, each name is one of its other parameters', and each
// parameter left out has a default; the usual resolution picks among
// the candidates by the arguments' types, and the call is the positional
// one with the defaults filled in. ok is false when name is no such
// function or no overload is a candidate (namedNoMatch's 42883).
func (b *binder) namedSQLFuncCall(s *scope, n *pt.FuncCall) (Expr, bool, error) {
	names, trees, ok := namedCallArgs(n)
	if !ok || !b.namedSQLFuncCandidates(n) {
		return nil, false, nil
	}
	args, err := b.bindTreeList(s, trees)
	if err != nil {
		return nil, true, err
	}
	f, full, ok, err := b.resolveNamedSQLFunc(n, names, trees, args)
	if !ok || err != nil {
		return nil, ok, err
	}
	if f.SQL.SetOf {
		return nil, true, b.errAt(n, sqlerr.New(sqlerr.FeatureNotSupported, "set-returning functions are not allowed here"))
	}
	e, err := b.callSQLFunction(n, f, full)
	return e, true, err
}

// namedCallArgs reads the rewrite's pg__named_nomatch('f', name, arg,
// ...): each argument's name ("" positional) and tree.
func namedCallArgs(n *pt.FuncCall) (names []string, trees []pt.Expr, ok bool) {
	if _, ok := n.Args[0].(*pt.Literal); !ok || len(n.Args)%2 != 1 {
		return nil, nil, false
	}
	for i := 1; i+1 < len(n.Args); i += 2 {
		name, _ := n.Args[i].(*pt.Literal)
		if name == nil {
			return nil, nil, false
		}
		names, trees = append(names, name.Text), append(trees, n.Args[i+1])
	}
	return names, trees, true
}

// namedFuncName is the function a call in named notation names ("" for
// none).
func namedFuncName(n *pt.FuncCall) string {
	if n.Name != sql.NamedNoMatch || len(n.Args) == 0 {
		return ""
	}
	if fn, ok := n.Args[0].(*pt.Literal); ok {
		return fn.Text
	}
	return ""
}

// namedSQLFuncCandidates reports whether the call in named notation n
// names LANGUAGE sql functions at all.
func (b *binder) namedSQLFuncCandidates(n *pt.FuncCall) bool {
	for _, f := range b.udfs().Scalars(namedFuncName(n)) {
		if f.SQL != nil {
			return true
		}
	}
	return false
}

// resolveNamedSQLFunc picks the overload a call in named notation (the
// arguments' names, trees and bound values) calls and gives its
// positional arguments, the defaults filled in; ok is false when no
// overload is a candidate (namedNoMatch's 42883).
func (b *binder) resolveNamedSQLFunc(n *pt.FuncCall, names []string, trees []pt.Expr, args []Expr) (*udf.Scalar, []Expr, bool, error) {
	fname := namedFuncName(n)
	var cands []*udf.Scalar
	var slots [][]int // each argument's parameter, per candidate
	for _, f := range b.udfs().Scalars(fname) {
		if f.SQL == nil || f.SQL.Variadic {
			// a VARIADIC function matches a call in named notation only
			// with VARIADIC before its array, as in PostgreSQL (which
			// sqlgate's rewrite refuses: 0A000)
			continue
		}
		if slot, ok := namedSlots(f, names); ok {
			cands, slots = append(cands, f), append(slots, slot)
		}
	}
	if len(cands) == 0 {
		return nil, nil, false, nil
	}
	decls := make([][]types.T, len(cands))
	for k, f := range cands {
		decls[k] = make([]types.T, len(args))
		for i, p := range slots[k] {
			decls[k][i] = f.Args[p]
		}
	}
	k, err := b.resolveUDFArgs(n, func(i int) sourceNode { return trees[i] }, fname, decls, args)
	if se := sqlerr.As(err); se != nil && se.Code == sqlerr.UndefinedFunction {
		return nil, nil, true, b.namedNoMatchArgs(n, fname, names, args) // the arguments named as written
	}
	if err != nil {
		return nil, nil, true, err
	}
	f := cands[k]
	full := make([]Expr, len(f.Args))
	for i, p := range slots[k] {
		full[p] = args[i]
	}
	for p := range full {
		if full[p] == nil {
			if full[p], err = b.sqlFuncDefault(f, p); err != nil {
				return nil, nil, true, b.errAt(n, sqlerr.As(err))
			}
		}
	}
	return f, full, true, nil
}

// namedSlots maps a named-notation call's arguments (names, "" for a
// positional one) to f's input parameters: ok false when a name is not
// one of its parameters', a parameter is given twice, or one without a
// default is left out.
func namedSlots(f *udf.Scalar, names []string) ([]int, bool) {
	slot := make([]int, len(names))
	given := make([]bool, len(f.Args))
	for i, name := range names {
		p := i
		if name != "" {
			p = -1
			for k, pn := range f.ArgNames {
				if pn == name {
					p = k
				}
			}
		}
		if p < 0 || p >= len(f.Args) || given[p] {
			return nil, false
		}
		slot[i], given[p] = p, true
	}
	for p, g := range given {
		if !g && (p >= len(f.SQL.Defaults) || f.SQL.Defaults[p] == "") {
			return nil, false
		}
	}
	return slot, true
}

// TableFunctionUse is one of a table's expressions that calls LANGUAGE
// sql functions directly (PostgreSQL's pg_depend rows of a CHECK
// constraint, a column's DEFAULT, a generated column's expression): DROP
// FUNCTION of one of Funcs is 2BP01 naming it.
type TableFunctionUse struct {
	// Kind is "check", "default" or "generated"; Name the constraint's or
	// the column's name.
	Kind, Name string
	Funcs      []string // signatures, name(types)
}

// TableFunctionUses binds info's CHECK constraints, defaults and
// generation expressions recording the functions each calls. An
// expression that no longer binds (a function it calls is gone) is left
// out: it depends on nothing that exists.
func TableFunctionUses(ctx context.Context, cat Catalog, info fluss.TableInfo) []TableFunctionUse {
	m := fluss.MetaOf(info.Descriptor)
	cols := info.Descriptor.Schema.Columns
	var out []TableFunctionUse
	use := func(kind, name string, bind func(b *binder) error) {
		var funcs []string
		b := &binder{ctx: ctx, cat: cat, funcUses: &funcs}
		if bind(b) == nil && len(funcs) > 0 {
			out = append(out, TableFunctionUse{Kind: kind, Name: name, Funcs: funcs})
		}
	}
	for _, c := range m.Checks {
		use("check", c.Name, func(b *binder) error {
			_, err := b.bindCheckText(c.Expr, info.Path.Table, cols)
			return err
		})
	}
	gen := GeneratedColumns(info)
	for i, c := range cols {
		if cm := m.Column(i); cm.Default != "" {
			use("default", c.Name, func(b *binder) error {
				_, err := b.bindDefaultText(cm.Default, c, info.Path.Table, cmp.Or(info.Path.Database, fluss.DefaultDatabase))
				return err
			})
		}
		if gen != nil && gen[i] {
			use("generated", c.Name, func(b *binder) error {
				_, err := b.bindGenerationText(m.Column(i).Generated, 0, info.Path.Table, cols, gen, i)
				return err
			})
		}
	}
	return out
}
