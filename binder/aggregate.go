package binder

import (
	"slices"
	"strings"

	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// aggregateNames are the aggregate functions sqlgate knows, by the name
// PostgreSQL uses (TiDB's names are mapped by aggName).
var aggregateNames = map[string]bool{
	"count": true, "sum": true, "avg": true, "min": true, "max": true,
	"bool_and": true, "bool_or": true, "every": true, "string_agg": true, "array_agg": true,
	"bit_and": true, "bit_or": true, "bit_xor": true,
	"stddev": true, "stddev_samp": true, "stddev_pop": true,
	"variance": true, "var_samp": true, "var_pop": true,
	"pg__variance": true, "pg__stddev": true, // VARIANCE( and STDDEV( as sql's rewrite hands them over (aggName)
	// statistics over (Y, X) pairs, float8 as in PostgreSQL (relop/statsagg.go)
	"corr": true, "covar_pop": true, "covar_samp": true, "regr_avgx": true, "regr_avgy": true, "regr_count": true,
	"regr_intercept": true, "regr_r2": true, "regr_slope": true, "regr_sxx": true, "regr_sxy": true, "regr_syy": true,
	// array_agg of the arguments, finished by functions/jsonagg.go
	"json_agg": true, "jsonb_agg": true, "json_object_agg": true, "jsonb_object_agg": true,
	// array_agg of the ranges, finished by functions/ranges.go and
	// functions/multirange.go
	"range_intersect_agg": true, "range_agg": true,
}

// pairStats are the aggregates over (Y, X) pairs of float8.
func pairStats(name string) bool {
	return name == "corr" || strings.HasPrefix(name, "covar_") || strings.HasPrefix(name, "regr_")
}

// aggName maps TiDB's spelling of an aggregate to PostgreSQL's.
func aggName(n string) string {
	n = strings.ToLower(n)
	switch n {
	case "std", "stddev", "pg__stddev": // sql's rewrite of STDDEV(, which TiDB would read as stddev_pop
		return "stddev"
	case "variance", "pg__variance": // sql's rewrite of VARIANCE(, which TiDB would read as var_pop
		return "variance"
	}
	return n
}

// aggState is the aggregate binder's state: it is active while the SELECT
// list, HAVING and ORDER BY of an aggregating query are bound.
type aggState struct {
	input *scope
	keys  []Expr // GROUP BY expressions over the input
	calls []AggCall
	// sets are the grouping sets (key indexes) of GROUP BY with ROLLUP,
	// CUBE or GROUPING SETS; nil for a plain GROUP BY. grouping maps the
	// index in calls of each GROUPING(..) call to its arguments' keys
	// (groupingsets.go).
	sets     [][]int
	grouping map[int][]int
	// inCall is set while an aggregate's arguments are bound (nesting is an error).
	inCall bool
	// ungrouped is the first error of a column neither grouped nor
	// aggregated, which the query reports once every clause is bound;
	// ungroupedHaving HAVING's (inHaving: HAVING is being bound).
	ungrouped, ungroupedHaving error
	inHaving                   bool
	// badGrouping and badGroupingHaving are the first GROUPING(..) whose
	// argument is no grouping expression, in the select list (ORDER BY,
	// windows) and in HAVING: PostgreSQL checks them last too
	// (parseCheckAggregates' finalize_grouping_exprs), each before its
	// part's ungrouped columns
	badGrouping, badGroupingHaving error
	// keysUnbound: GROUP BY is not bound (earlierClauseError's binding of
	// the clauses before it), so GROUPING's arguments, which PostgreSQL
	// checks last, are not checked against keys
	keysUnbound bool
	// funcGrouped are the FROM items whose primary key is grouped, whose
	// columns funcdeps.go made keys too
	funcGrouped []groupedItem
}

// unknownAggArg is the type an untyped literal (or NULL) argument of a
// one-argument aggregate takes where PostgreSQL's candidates decide it
// (func_select_candidate): bool_and's only candidate is boolean; the
// statistics' candidates are all numeric, whose preferred type is double
// precision. min and max have a text candidate, which an unknown prefers
// (resolveUnknown's default).
var unknownAggArg = map[string]types.T{
	"bool_and": types.BoolType, "bool_or": types.BoolType, "every": types.BoolType,
	"stddev": types.Float64Type, "stddev_samp": types.Float64Type, "stddev_pop": types.Float64Type,
	"variance": types.Float64Type, "var_samp": types.Float64Type, "var_pop": types.Float64Type,
}

// ambiguousOnUnknown names the one-argument aggregates whose candidates
// span type categories without a text one (sum and avg: numbers and
// interval; bit_and: integers and bit strings; array_agg: anyarray and
// anynonarray): PostgreSQL cannot choose one for an untyped argument.
var ambiguousOnUnknown = map[string]bool{
	"sum": true, "avg": true, "bit_and": true, "bit_or": true, "bit_xor": true, "array_agg": true,
}

// aggRef stands for output column Index of the Aggregate node (a group key
// or an aggregate) inside an expression bound over the Aggregate's input;
// rebase turns it into a ColumnRef.
type aggRef struct {
	Index int
	Name  string
	T     types.T
}

func (e *aggRef) Type() types.T  { return e.T }
func (e *aggRef) String() string { return e.Name }

// bindAggregateCall binds an aggregate function call of sql/tree in the
// aggregate context and returns a reference to its result column: a call
// TiDB's grammar reads as an aggregate (count, sum, the rewrite's
// agg(args ORDER BY ..) and FILTER), or a call of another of
// aggregateNames (bool_and, string_agg, ...). An ordered-set aggregate
// (WITHIN GROUP) is orderedset.go's.
func (b *binder) bindAggregateCall(s *scope, n *pt.FuncCall) (Expr, error) {
	name := aggName(n.Name)
	if !aggregateNames[name] {
		// lower(DISTINCT x), f(x ORDER BY y) FILTER (..): the lookup's
		// error, else the decoration's
		return nil, b.notAggregateCall(func(e pt.Expr) (Expr, error) { return b.bindTree(s, e) }, n)
	}
	return b.bindAggregateCallFiltered(n, name, n.Args, n.Distinct, n.Filter, n.OrderBy)
}

// aggregatesRefused is the error of an aggregate call where the query
// does not aggregate: the clause refuseAggregates names (an UPDATE's or
// DELETE's WHERE), else "here".
func (b *binder) aggregatesRefused() *sqlerr.Error {
	if b.level != nil && b.level.place != "" {
		return sqlerr.New(sqlerr.GroupingError, "aggregate functions are not allowed in %s", b.level.place)
	}
	return sqlerr.New(sqlerr.GroupingError, "aggregate functions are not allowed here")
}

// bindAggregateCallFiltered registers name(args) [FILTER (WHERE filter)]
// [ORDER BY order] with the aggregate binder; node positions its errors.
func (b *binder) bindAggregateCallFiltered(node sourceNode, name string, args []pt.Expr, distinct bool, filter pt.Expr, order []pt.OrderItem) (Expr, error) {
	if level, nested := b.aggLevel(args, filter, order); level > 0 {
		// an aggregate of an enclosing query (agglevels.go)
		return b.bindOuterAggregate(node, level, nested, func() (Expr, error) {
			return b.bindAggregateCallFiltered(node, name, args, distinct, filter, order)
		})
	}
	switch name {
	case "json_agg", "jsonb_agg", "json_object_agg", "jsonb_object_agg", "range_intersect_agg", "range_agg":
		return b.bindJSONAggregate(node, name, args, distinct, filter, order)
	}
	st := b.agg
	if st == nil {
		return nil, b.errAt(node, b.aggregatesRefused())
	}
	if st.inCall {
		return nil, b.errAt(node, sqlerr.New(sqlerr.GroupingError, "aggregate function calls cannot be nested"))
	}
	st.inCall = true
	defer func() { st.inCall = false }()
	call := AggCall{Func: name, Distinct: distinct}
	if filter != nil {
		f, err := b.bindTree(st.input, filter)
		if err != nil {
			return nil, err
		}
		if f, err = b.coerce(filter, f, types.BoolType, "argument of FILTER"); err != nil {
			return nil, err
		}
		call.Filter = f
	}
	star := name == "count" && len(args) == 1 && isStarArg(args[0]) && !distinct
	// written are the arguments' types before any coercion, which the
	// lookup's error names (string_agg(text, unknown)); pending are the
	// untyped arguments of corr and its kin
	var written []types.T
	var pending []int
	// asWritten are the arguments before the implicit casts to the
	// statistics' double precision, which the ORDER BY of a DISTINCT call
	// may name (PostgreSQL's findTargetlistEntrySQL99 strips implicit
	// coercions)
	var asWritten []Expr
	if !star {
		for _, a := range args {
			e, err := b.bindTree(st.input, a)
			if err != nil {
				return nil, err
			}
			written = append(written, e.Type())
			if pairStats(name) && isUnknown(e.Type()) {
				// typed double precision once the other arguments are
				// known to fit the one candidate (float8, float8)
				pending = append(pending, len(call.Args))
				call.Args = append(call.Args, e)
				continue
			}
			if name == "string_agg" && len(call.Args) == 1 && call.Args[0].Type().Kind == types.Bytes && isUnknown(e.Type()) {
				// string_agg(bytea, unknown) is string_agg(bytea, bytea), the
				// one candidate that takes a bytea value
				if e, err = b.coerceUnknown(a, e, types.BytesType); err != nil {
					return nil, err
				}
			}
			if len(args) == 1 && isUnknown(e.Type()) {
				if t, ok := unknownAggArg[name]; ok {
					if e, err = b.coerceUnknown(a, e, t); err != nil {
						return nil, err
					}
				} else if ambiguousOnUnknown[name] {
					return nil, b.errAt(node, sqlerr.New(sqlerr.AmbiguousFunction, "function %s(unknown) is not unique", name).
						WithHint("Could not choose a best candidate function. You might need to add explicit type casts."))
				}
			}
			e = b.resolveUnknown(e, types.StringType)
			if name == "string_agg" && e.Type().Kind == types.Name {
				e = b.castTo(e, types.StringType) // name -> text, as PostgreSQL's implicit cast
			}
			asWritten = append(asWritten, e)
			if pairStats(name) {
				// corr(Y, X) and friends take double precision: numbers cast
				// implicitly, as PostgreSQL's only candidate.
				if t := e.Type(); t.IsInteger() || t.Kind == types.Decimal || t.IsFloat() {
					e = b.castTo(e, types.Float64Type)
				}
			}
			if distinct {
				if err := b.checkDistinctArg(a, e.Type()); err != nil { // typeops.go
					return nil, err
				}
			}
			if name == "count" && distinct && order == nil && looseEquality(e.Type()) {
				// count(DISTINCT bpchar) counts values equal but for
				// trailing blanks once (bpchargroups.go)
				e = looseKey(e)
			}
			call.Args = append(call.Args, e)
		}
	}
	if len(pending) > 0 {
		for _, a := range call.Args {
			if t := a.Type(); len(call.Args) != 2 || !isUnknown(t) && t.Kind != types.Float64 {
				return nil, b.errAt(node, undefinedCallOf(name, written)) // regr_count(text, unknown)
			}
		}
		for _, i := range pending {
			e, err := b.coerceUnknown(args[i], call.Args[i], types.Float64Type)
			if err != nil {
				return nil, err
			}
			call.Args[i] = e
		}
	}
	if order != nil {
		keys, err := b.bindAggregateOrder(call, order, asWritten...)
		if err != nil {
			return nil, err
		}
		call.OrderBy = keys
	} else if distinct && orderShowsAggregates[name] {
		call.OrderBy = b.distinctOrder(call.Args)
	}
	if name == "string_agg" {
		// string_agg takes text: a bpchar value or separator casts to it
		// implicitly, which drops its trailing blanks (rtrim). After the
		// ORDER BY's binding, which PostgreSQL matches against the
		// arguments as written (string_agg(DISTINCT c, ',' ORDER BY c)).
		for i, a := range call.Args {
			if a.Type().Kind == types.Char {
				call.Args[i] = b.castTo(a, types.StringType)
			}
		}
	}
	var argTypes []types.T
	for _, a := range call.Args {
		argTypes = append(argTypes, a.Type())
	}
	if (name == "min" || name == "max") && len(argTypes) == 1 && argTypes[0].Kind == types.Array {
		if isEnumArray(argTypes[0]) {
			// the least or greatest array of ranks, and its labels (enumops.go)
			call.Args[0] = b.enumKey(call.Args[0])
			e, err := b.bindArrayMinMax(node, name, call)
			if err != nil {
				return nil, err
			}
			return b.enumLabel(e, argTypes[0]), nil
		}
		return b.bindArrayMinMax(node, name, call)
	}
	var enumT *types.T
	if (name == "min" || name == "max") && len(argTypes) == 1 && argTypes[0].IsEnum() {
		// the least or greatest rank, and its label (enumops.go)
		t := argTypes[0]
		enumT = &t
		call.Args[0] = b.enumRank(call.Args[0])
		argTypes[0] = types.Float64Type
	}
	var keyed *textOrder
	if (name == "min" || name == "max") && len(argTypes) == 1 {
		if o, ok := textOrderOf(argTypes[0]); ok && o.ofKey != nil {
			// the least or greatest key, and its value (textorder.go)
			keyed = &o
			call.Args[0] = b.textKey(call.Args[0], o)
			argTypes[0] = types.StringType
		}
	}
	t, err := aggResultType(name, argTypes)
	if err != nil {
		if sqlerr.CodeOf(err) == sqlerr.UndefinedFunction && !star {
			return nil, b.errAt(node, undefinedCallOf(name, written))
		}
		return nil, b.errAt(node, err.(*sqlerr.Error))
	}
	call.T = t
	call.Arrays = name == "array_agg" && len(argTypes) == 1 && argTypes[0].Kind == types.Array
	idx := len(st.keys) + len(st.calls)
	st.calls = append(st.calls, call)
	if enumT != nil {
		return b.enumLabel(&aggRef{Index: idx, Name: name, T: t}, *enumT), nil
	}
	if keyed != nil {
		return b.textOfKey(&aggRef{Index: idx, Name: name, T: t}, *keyed), nil
	}
	return &aggRef{Index: idx, Name: name, T: t}, nil
}

// bindAggregateOrder binds an aggregate's ORDER BY over the aggregate's
// input. As in PostgreSQL, an integer there is a constant, not an ordinal,
// and with DISTINCT every key must be one of the arguments (42P10), as
// bound or as written before an implicit cast (asWritten).
func (b *binder) bindAggregateOrder(call AggCall, order []pt.OrderItem, asWritten ...Expr) ([]SortKey, error) {
	var keys []SortKey
	for _, item := range order {
		e, err := b.bindTree(b.agg.input, item.X)
		if err != nil {
			return nil, err
		}
		e = b.resolveUnknown(e, types.StringType)
		same := func(a Expr) bool { return a.String() == e.String() }
		if call.Distinct && !slices.ContainsFunc(call.Args, same) && !slices.ContainsFunc(asWritten, same) {
			return nil, b.errAt(item.X, sqlerr.New(sqlerr.InvalidColumnReference, "in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list"))
		}
		if err := b.applyUsing(&item, e.Type()); err != nil { // typeops.go
			return nil, err
		}
		if err := b.checkSortable(item.X, e.Type()); err != nil {
			return nil, err
		}
		e = b.enumKey(e) // enums by declaration order (enumops.go)
		keys = append(keys, SortKey{Expr: e, Desc: item.Desc, NullsFirst: nullsFirst(item)})
	}
	return keys, nil
}

// orderShowsAggregates are the aggregates whose result shows their input's
// order.
var orderShowsAggregates = map[string]bool{
	"string_agg": true, "array_agg": true, "json_agg": true, "jsonb_agg": true,
	"json_object_agg": true, "jsonb_object_agg": true,
}

// distinctOrder is the order an aggregate with DISTINCT and no ORDER BY
// reads its input in: PostgreSQL removes duplicates by sorting on the
// arguments, so string_agg(DISTINCT x, ',') lists x ascending (NULLs
// last), not in the order the rows arrive.
func (b *binder) distinctOrder(args []Expr) []SortKey {
	keys := make([]SortKey, 0, len(args))
	for _, e := range args {
		if e.Type().IsEnum() {
			e = b.enumRank(e) // by declaration order (enumops.go)
		}
		keys = append(keys, SortKey{Expr: e})
	}
	return keys
}

// nullsFirst reads an ORDER BY item's NULLS FIRST | LAST, by default
// first when descending, as PostgreSQL sorts.
func nullsFirst(item pt.OrderItem) bool {
	if item.Nulls == "" {
		return item.Desc
	}
	return item.Nulls == "first"
}

// isStarArg recognises the argument count(*) reaches the tree with: the
// literal 1 (TiDB reads count(*) as count(1)).
func isStarArg(e pt.Expr) bool {
	l, ok := e.(*pt.Literal)
	return ok && l.Kind == pt.LitInt && l.Int == 1
}

// aggResultType gives PostgreSQL 15's result type of an aggregate.
func aggResultType(name string, args []types.T) (types.T, error) {
	sig := func() string {
		names := make([]string, len(args))
		for i, a := range args {
			names[i] = a.PGName()
		}
		return name + "(" + strings.Join(names, ", ") + ")"
	}
	noFunc := func() (types.T, error) {
		return types.T{}, sqlerr.New(sqlerr.UndefinedFunction, "function %s does not exist", sig()).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	if name == "count" {
		if len(args) > 1 {
			return noFunc() // count(a, b): MySQL's count of distinct tuples, none in PostgreSQL
		}
		return types.T{Kind: types.Int64, NotNull: true}, nil
	}
	if name == "string_agg" {
		switch {
		case len(args) == 2 && args[0].Kind == types.Bytes && args[1].Kind == types.Bytes:
			return types.BytesType, nil // string_agg(bytea, bytea)
		case len(args) != 2 || !args[0].IsString() || !args[1].IsString():
			return noFunc()
		}
		return types.StringType, nil
	}
	if pairStats(name) {
		if len(args) != 2 || args[0].Kind != types.Float64 || args[1].Kind != types.Float64 {
			return noFunc()
		}
		if name == "regr_count" {
			return types.T{Kind: types.Int64, NotNull: true}, nil
		}
		return types.Float64Type, nil
	}
	if len(args) != 1 {
		return noFunc()
	}
	a := args[0].Nullable()
	switch name {
	case "sum":
		switch {
		case a.IsMoney():
			return a, nil // sum(money) is money
		case a.Kind == types.Int8 || a.Kind == types.Int16 || a.Kind == types.Int32:
			return types.Int64Type, nil
		case a.Kind == types.Int64:
			return types.NumericType, nil
		case a.Kind == types.Decimal:
			return types.NumericType, nil
		case a.IsFloat():
			return a, nil
		case a.Kind == types.Interval:
			return a, nil
		}
	case "avg":
		switch {
		case a.IsInteger(), a.Kind == types.Decimal:
			return types.NumericType, nil
		case a.IsFloat():
			return types.Float64Type, nil
		case a.Kind == types.Interval:
			return a, nil
		}
	case "min", "max":
		// PostgreSQL has no min/max over boolean, bytea, bit strings or
		// the mac types and ranges.
		if !a.IsNested() && a.Kind != types.Bool && a.Kind != types.Bytes && a.Kind != types.Binary && !a.IsBitString() && !a.IsMacAddr() && !a.IsRange() && !a.IsMultirange() {
			if a.Variant.IsReg() {
				// min(regclass) is min(oid): the reg types are binary-
				// coercible to oid, PostgreSQL's only candidate.
				a.Variant = types.NoVariant
			}
			if a.Kind == types.String && a.Variant == types.NoVariant {
				// no min(varchar): varchar is binary-coercible to text
				return types.StringType, nil
			}
			return a, nil
		}
	case "bool_and", "bool_or", "every":
		if a.Kind == types.Bool {
			return types.BoolType, nil
		}
	case "bit_and", "bit_or", "bit_xor":
		if a.IsInteger() && a.Kind != types.Int8 {
			return a, nil
		}
		if a.IsBitString() {
			return types.BitType(0), nil // bit_and(bit) is bit, of varbit too
		}
	case "array_agg":
		return types.ArrayOf(a), nil
	case "stddev", "stddev_samp", "stddev_pop", "variance", "var_samp", "var_pop":
		switch {
		case a.IsFloat():
			return types.Float64Type, nil
		case a.IsInteger() || a.Kind == types.Decimal:
			return types.NumericType, nil
		}
	}
	return noFunc()
}

// rebase rewrites an expression bound over the aggregate's input into one
// over the Aggregate node's output: group-key subtrees and aggregate
// references become column references; any other input column is a
// grouping error, as in PostgreSQL.
func (b *binder) rebase(node sourceNode, e Expr) (Expr, error) {
	st := b.agg
	for i, k := range st.keys {
		if sameExpr(k, e) {
			return &ColumnRef{Index: i, Name: exprLabel(k), T: k.Type()}, nil
		}
	}
	switch x := e.(type) {
	case *aggRef:
		return &ColumnRef{Index: x.Index, Name: x.Name, T: x.T}, nil
	case *Subquery:
		return b.rebaseSubquery(node, x)
	case *ColumnRef:
		c := st.input.cols[x.Index]
		name := c.Name
		if c.Table != "" {
			name = c.Table + "." + c.Name
		}
		if at, ok := b.outerRefAt[x]; ok {
			// a subquery's outer value: PostgreSQL names the subquery,
			// at the column inside it
			if b.implicitRefs[x] {
				at = nil // no position, as PostgreSQL's
			}
			return nil, b.errAt(at, sqlerr.New(sqlerr.GroupingError, "subquery uses ungrouped column %q from outer query", name))
		}
		if b.implicitRefs[x] {
			return nil, groupingError(b, nil, name) // no position, as PostgreSQL's
		}
		return nil, groupingError(b, node, name)
	case *FuncCall:
		if isWholeRow(x) && !st.wholeRowGrouped(x) { // funcdeps.go
			// PostgreSQL groups a whole row as one value: grouping by all
			// of its columns is not grouping by it (unless its table's
			// primary key is grouped)
			return nil, groupingError(b, node, x.Name)
		}
	}
	return MapChildren(e, func(c Expr) (Expr, error) { return b.rebase(node, c) })
}

// rebaseSubquery is rebase of a subquery's operand and outer values. Of
// its ungrouped outer columns it names the first in the text, as
// PostgreSQL's walk of the subquery (select list, then WHERE ...) finds
// it, not the first given a slot (WHERE is bound first).
func (b *binder) rebaseSubquery(node sourceNode, x *Subquery) (Expr, error) {
	c := *x
	if x.X != nil {
		in, err := b.rebase(node, x.X)
		if err != nil {
			return nil, err
		}
		c.X = in
	}
	c.Outer = make([]Expr, len(x.Outer))
	var first error
	firstAt := -1
	for i, o := range x.Outer {
		r, err := b.rebase(node, o)
		if err == nil {
			c.Outer[i] = r
			continue
		}
		at := -1
		if se := sqlerr.As(err); se != nil && se.Position > 0 {
			at = se.Position
		}
		if first == nil || at >= 0 && (firstAt < 0 || at < firstAt) {
			first, firstAt = err, at
		}
	}
	if first != nil {
		return nil, first
	}
	return &c, nil
}

// groupingError is the error of a column (or whole row, "t.*") used
// outside an aggregate and not grouped.
func groupingError(b *binder, node sourceNode, name string) error {
	return b.errAt(node, sqlerr.New(sqlerr.GroupingError, "column %q must appear in the GROUP BY clause or be used in an aggregate function", name))
}

func exprLabel(e Expr) string {
	if c, ok := e.(*ColumnRef); ok {
		return c.Name
	}
	return e.String()
}

// newAggregate builds the Aggregate node once every call is registered.
func (st *aggState) node(input Node) Node {
	if st.sets != nil {
		return st.groupingSetsNode(input)
	}
	return looseAggregate(input, st.keys, st.calls) // bpchar keys without trailing blanks (bpchargroups.go)
}

// bindJSONAggregate binds json_agg(x) and jsonb_agg(x) as array_agg(x)
// and json_object_agg(k, v) and jsonb_object_agg(k, v) as array_agg(k)
// and array_agg(v) (the same ORDER BY and FILTER keep the two in step),
// each finished by a function that writes PostgreSQL's JSON
// (functions/jsonagg.go); range_intersect_agg(r) as array_agg(r) finished
// by the intersection of its ranges (functions/ranges.go).
func (b *binder) bindJSONAggregate(node sourceNode, name string, args []pt.Expr, distinct bool, filter pt.Expr, order []pt.OrderItem) (Expr, error) {
	want := 1
	if strings.HasSuffix(name, "object_agg") {
		want = 2
	}
	if len(args) != want {
		// the lookup's 42883, naming the arguments' types as written
		if b.agg == nil {
			return nil, b.errAt(node, b.aggregatesRefused())
		}
		ts := make([]types.T, len(args))
		for i, a := range args {
			e, err := b.bindTree(b.agg.input, a)
			if err != nil {
				return nil, err
			}
			ts[i] = e.Type()
		}
		return nil, b.errAt(node, undefinedCallOf(name, ts))
	}
	if distinct && want == 2 {
		return b.bindDistinctObjectAgg(node, name, args, filter, order)
	}
	parts, err := b.collectArgs(node, args, distinct, filter, order)
	if err != nil {
		return nil, err
	}
	return b.callFunction(node, "pg__"+name, parts)
}

// collectArgs registers array_agg of each argument, with the call's
// DISTINCT, FILTER and ORDER BY, keeping NULL and unequal arrays (which
// a user's array_agg(anyarray) refuses).
func (b *binder) collectArgs(node sourceNode, args []pt.Expr, distinct bool, filter pt.Expr, order []pt.OrderItem) ([]Expr, error) {
	parts := make([]Expr, len(args))
	for i, a := range args {
		e, err := b.bindAggregateCallFiltered(node, "array_agg", []pt.Expr{a}, distinct, filter, order)
		if err != nil {
			return nil, err
		}
		if r, ok := e.(*aggRef); ok {
			b.agg.calls[r.Index-len(b.agg.keys)].Arrays = false
		}
		parts[i] = e
	}
	return parts, nil
}

// bindDistinctObjectAgg binds json(b)_object_agg(DISTINCT k, v [ORDER BY
// ..]): DISTINCT is over the pair, which PostgreSQL sorts by the ORDER
// BY's keys and then by the arguments not among them
// (transformDistinctClause) and keeps once. Each of the two array_aggs
// is ordered so, and the _distinct finisher (functions/jsonagg.go) drops
// the repeated pairs, which that order puts side by side.
func (b *binder) bindDistinctObjectAgg(node sourceNode, name string, args []pt.Expr, filter pt.Expr, order []pt.OrderItem) (Expr, error) {
	st := b.agg
	if st == nil {
		return nil, b.errAt(node, b.aggregatesRefused())
	}
	// the arguments and ORDER BY as bindAggregateCallFiltered checks them
	// (an equality and order of each argument's type, every key one of
	// the arguments), bound once to read the order
	probe := AggCall{Distinct: true}
	st.inCall = true
	for _, a := range args {
		e, err := b.bindTree(st.input, a)
		if err != nil {
			st.inCall = false
			return nil, err
		}
		e = b.resolveUnknown(e, types.StringType)
		if err := b.checkDistinctArg(a, e.Type()); err != nil {
			st.inCall = false
			return nil, err
		}
		probe.Args = append(probe.Args, e)
	}
	keys, err := b.bindAggregateOrder(probe, order)
	st.inCall = false
	if err != nil {
		return nil, err
	}
	items := slices.Clone(order)
	for i, a := range probe.Args {
		if !slices.ContainsFunc(keys, func(k SortKey) bool { return k.Expr.String() == a.String() }) {
			items = append(items, pt.OrderItem{X: args[i]})
		}
	}
	parts, err := b.collectArgs(node, args, false, filter, items)
	if err != nil {
		return nil, err
	}
	return b.callFunction(node, "pg__"+name+"_distinct", parts)
}

// bindArrayMinMax binds min(anyarray) and max(anyarray) (call, bound as
// min or max) as array_agg of the arrays, keeping NULL ones and any shape,
// finished by functions' pg__array_min or pg__array_max, which picks the
// least or greatest in PostgreSQL's array order (arrayminmax.go).
func (b *binder) bindArrayMinMax(node sourceNode, name string, call AggCall) (Expr, error) {
	st := b.agg
	call.Func, call.Arrays, call.ArrayMinMax = "array_agg", false, name
	call.T = types.ArrayOf(call.Args[0].Type().Nullable())
	idx := len(st.keys) + len(st.calls)
	st.calls = append(st.calls, call)
	return b.callFunction(node, "pg__array_"+name, []Expr{&aggRef{Index: idx, Name: "array_agg", T: call.T}})
}

// AggregateNames are the aggregate functions sqlgate knows by
// PostgreSQL's names (aggregateNames without the rewrite's pg__ forms),
// sorted: tests generate their calls from it.
func AggregateNames() []string {
	var names []string
	for n := range aggregateNames {
		if !strings.HasPrefix(n, "pg__") {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}

// oneRelation reports whether n, a query level's FROM and WHERE as bound,
// is one table's scan under filters and the projections of derived tables
// PostgreSQL pulls up (no volatile output: is_simple_subquery; a derived
// table's ORDER BY, LIMIT, DISTINCT, aggregation, window or set operation
// is a node of its own here): the single RangeTblRef of a relation that
// preprocess_minmax_aggregates asks for. A join, a function or VALUES in
// FROM is not.
func oneRelation(n Node) bool {
	switch x := n.(type) {
	case *Scan:
		return true
	case *Filter:
		return oneRelation(x.Input)
	case *Project:
		return !slices.ContainsFunc(x.Exprs, ContainsVolatile) && oneRelation(x.Input)
	}
	return false
}
