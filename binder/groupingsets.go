package binder

import (
	"slices"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// GROUPING SETS, ROLLUP, CUBE, GROUP BY () and GROUPING(...), with
// PostgreSQL's semantics (parse_agg.c's expand_grouping_sets): a GROUP BY
// list is the cartesian product of its items' lists of grouping sets, a
// plain expression (or a parenthesised list, which PostgreSQL flattens)
// being one set, ROLLUP (e1, .., en) the n+1 prefixes, CUBE the 2^n
// subsets and GROUPING SETS (..) the concatenation of its elements' lists;
// duplicates are kept unless GROUP BY DISTINCT. sql's rewrite hands the
// constructs over as pg__rollup / pg__cube / pg__grouping_sets /
// pg__empty_set / pg__group_distinct markers (sql/groupingsets.go).
//
// The plan is one aggregation pass per grouping set, bound here as a
// UNION ALL of one Aggregate per set, each projected onto the same
// columns (every grouping key, NULL where the set does not group by it,
// then the aggregates, GROUPING(..) a constant per branch). It was chosen
// over expand-then-aggregate (one hash aggregate over every input row
// copied once per set, with a set id key) because it needs no new operator
// in lower/ or exec/: each branch is an ordinary Aggregate, so DISTINCT,
// ORDER BY and FILTER inside aggregates, spilling and the aggregate
// push-down rules apply unchanged, and an empty set is the ordinary
// scalar aggregate that yields one row even over no rows, as PostgreSQL's
// does. The cost is one read of the input per set. HAVING, the select list
// and ORDER BY are bound over the union as over any Aggregate.

// Limits PostgreSQL enforces (parse_agg.c, gram.y).
const (
	maxCubeElements   = 12
	maxGroupingSets   = 4096
	maxGroupingArgs   = 31
	groupDistinctMark = "pg__group_distinct"
)

func isGroupingConstruct(name string) bool {
	switch name {
	case "pg__rollup", "pg__cube", "pg__grouping_sets", "pg__empty_set", groupDistinctMark:
		return true
	}
	return false
}

// bindGroupBy binds the GROUP BY clause into st.keys and, when it has
// grouping constructs, st.sets (each a list of key indexes).
func (b *binder) bindGroupBy(st *aggState, in *scope, fields *ast.FieldList, gb *ast.GroupByClause) error {
	items := make([]ast.ExprNode, 0, len(gb.Items))
	distinct := false
	constructs := false
	for _, it := range gb.Items {
		if f, ok := it.Expr.(*ast.FuncCallExpr); ok && isGroupingConstruct(f.FnName.L) {
			if f.FnName.L == groupDistinctMark {
				distinct = true
				continue
			}
			constructs = true
		}
		if _, ok := it.Expr.(*ast.RowExpr); ok {
			constructs = true
		}
		items = append(items, it.Expr)
	}
	if !constructs {
		for _, e := range items {
			k, err := b.bindGroupKey(in, fields, e)
			if err != nil {
				return err
			}
			st.keys = append(st.keys, k)
		}
		return nil
	}
	g := groupingExpander{b: b, st: st, in: in, fields: fields}
	sets := [][]int{{}}
	for _, e := range items {
		list, err := g.item(e)
		if err != nil {
			return err
		}
		product := make([][]int, 0, len(sets)*len(list))
		for _, s := range sets {
			for _, t := range list {
				product = append(product, union(s, t))
			}
		}
		if len(product) > maxGroupingSets {
			return sqlerr.New(sqlerr.StatementTooComplex, "too many grouping sets present (maximum %d)", maxGroupingSets)
		}
		sets = product
	}
	if distinct {
		seen := map[string]bool{}
		kept := sets[:0]
		for _, s := range sets {
			key := setKey(s)
			if !seen[key] {
				seen[key] = true
				kept = append(kept, s)
			}
		}
		sets = kept
	}
	if len(sets) == 1 && len(sets[0]) == len(st.keys) {
		return nil // one set of every key: a plain GROUP BY (or GROUP BY ())
	}
	st.sets = sets
	return nil
}

// union is s then the elements of t not in s, in key order (a grouping
// set is a set: the order of its keys does not change its groups).
func union(s, t []int) []int {
	out := slices.Clone(s)
	for _, k := range t {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

func setKey(s []int) string {
	var sb strings.Builder
	for _, k := range s {
		sb.WriteByte(byte(k))
		sb.WriteByte(byte(k >> 8))
	}
	return sb.String()
}

// groupingExpander turns GROUP BY items into lists of grouping sets,
// registering each distinct grouping expression as a key.
type groupingExpander struct {
	b      *binder
	st     *aggState
	in     *scope
	fields *ast.FieldList
}

// key binds a grouping expression and returns its key index.
func (g *groupingExpander) key(e ast.ExprNode) (int, error) {
	k, err := g.b.bindGroupKey(g.in, g.fields, e)
	if err != nil {
		return 0, err
	}
	for i, have := range g.st.keys {
		if sameExpr(have, k) {
			return i, nil
		}
	}
	g.st.keys = append(g.st.keys, k)
	return len(g.st.keys) - 1, nil
}

// element is one element of ROLLUP or CUBE, or one plain grouping set:
// an expression, or a parenthesised list of them.
func (g *groupingExpander) element(e ast.ExprNode) ([]int, error) {
	if r, ok := e.(*ast.RowExpr); ok {
		var set []int
		for _, v := range r.Values {
			k, err := g.key(v)
			if err != nil {
				return nil, err
			}
			set = union(set, []int{k})
		}
		return set, nil
	}
	if f, ok := e.(*ast.FuncCallExpr); ok && isGroupingConstruct(f.FnName.L) {
		return nil, g.b.misplacedGroupingConstruct(g.in, f)
	}
	k, err := g.key(e)
	if err != nil {
		return nil, err
	}
	return []int{k}, nil
}

// item is the list of grouping sets of one GROUP BY item (or of one
// element of GROUPING SETS, which may nest any of the constructs).
func (g *groupingExpander) item(e ast.ExprNode) ([][]int, error) {
	f, ok := e.(*ast.FuncCallExpr)
	if !ok || !isGroupingConstruct(f.FnName.L) {
		set, err := g.element(e)
		if err != nil {
			return nil, err
		}
		return [][]int{set}, nil
	}
	switch f.FnName.L {
	case "pg__empty_set":
		return [][]int{{}}, nil
	case "pg__grouping_sets":
		var out [][]int
		for _, a := range f.Args {
			list, err := g.item(a)
			if err != nil {
				return nil, err
			}
			out = append(out, list...)
			if len(out) > maxGroupingSets {
				return nil, sqlerr.New(sqlerr.StatementTooComplex, "too many grouping sets present (maximum %d)", maxGroupingSets)
			}
		}
		return out, nil
	}
	elems := make([][]int, len(f.Args))
	for i, a := range f.Args {
		set, err := g.element(a)
		if err != nil {
			return nil, err
		}
		elems[i] = set
	}
	if f.FnName.L == "pg__rollup" {
		// (e1..en), (e1..en-1), .., ()
		out := make([][]int, 0, len(elems)+1)
		for n := len(elems); n >= 0; n-- {
			var set []int
			for _, s := range elems[:n] {
				set = union(set, s)
			}
			out = append(out, set)
		}
		return out, nil
	}
	if len(elems) > maxCubeElements {
		return nil, g.b.errAt(e, sqlerr.New(sqlerr.TooManyColumns, "CUBE is limited to %d elements", maxCubeElements))
	}
	// every subset, the full one first
	n := len(elems)
	out := make([][]int, 0, 1<<n)
	for mask := (1 << n) - 1; mask >= 0; mask-- {
		var set []int
		for i, s := range elems {
			if mask&(1<<(n-1-i)) != 0 {
				set = union(set, s)
			}
		}
		out = append(out, set)
	}
	return out, nil
}

// misplacedGroupingConstruct is the error for a grouping construct where
// only an expression may stand (ROLLUP inside CUBE, say): PostgreSQL's
// grammar reads it as a call of a function of that name.
func (b *binder) misplacedGroupingConstruct(s *scope, f *ast.FuncCallExpr) error {
	name := strings.TrimPrefix(f.FnName.L, "pg__")
	if name == "empty_set" || name == "group_distinct" {
		return b.errAt(f, sqlerr.New(sqlerr.SyntaxError, "syntax error at or near \")\""))
	}
	if name == "grouping_sets" {
		return b.errAt(f, sqlerr.New(sqlerr.SyntaxError, "syntax error at or near \"SETS\""))
	}
	var names []string
	for _, a := range f.Args {
		e, err := b.bindExpr(s, a)
		if err != nil {
			return err
		}
		names = append(names, b.resolveUnknown(e, types.StringType).Type().PGName())
	}
	return b.errAt(f, sqlerr.New(sqlerr.UndefinedFunction, "function %s(%s) does not exist", name, strings.Join(names, ", ")).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts."))
}

// bindGrouping binds GROUPING(e1, .., en): an integer whose bit n-1-i is
// set when the row's grouping set does not group by ei. Each argument must
// be one of the query's grouping expressions.
func (b *binder) bindGrouping(n *ast.FuncCallExpr) (Expr, error) {
	st := b.agg
	if st == nil {
		return nil, b.errAt(n, sqlerr.New(sqlerr.GroupingError, "arguments to GROUPING must be grouping expressions of the associated query level"))
	}
	if st.inCall {
		return nil, b.errAt(n, sqlerr.New(sqlerr.GroupingError, "aggregate function calls cannot be nested"))
	}
	if len(n.Args) > maxGroupingArgs {
		return nil, b.errAt(n, sqlerr.New(sqlerr.TooManyArguments, "GROUPING must have fewer than %d arguments", maxGroupingArgs+1))
	}
	keys := make([]int, len(n.Args))
	for i, a := range n.Args {
		e, err := b.bindExpr(st.input, a)
		if err != nil {
			return nil, err
		}
		e = b.resolveUnknown(e, types.StringType)
		keys[i] = slices.IndexFunc(st.keys, func(k Expr) bool { return sameExpr(k, e) })
		if keys[i] < 0 {
			return nil, b.errAt(a, sqlerr.New(sqlerr.GroupingError, "arguments to GROUPING must be grouping expressions of the associated query level"))
		}
	}
	t := types.T{Kind: types.Int32, NotNull: true}
	if st.sets == nil {
		return &Const{Value: int64(0), T: t}, nil // every key grouped in every row
	}
	if st.grouping == nil {
		st.grouping = map[int][]int{}
	}
	idx := len(st.keys) + len(st.calls)
	st.grouping[len(st.calls)] = keys
	st.calls = append(st.calls, AggCall{Func: "grouping", T: t})
	return &aggRef{Index: idx, Name: "grouping", T: t}, nil
}

// groupingSetsNode is the Aggregate of a GROUP BY with grouping sets: a
// UNION ALL of one Aggregate per set, each projected onto the columns of
// the whole (every key, then every call).
func (st *aggState) groupingSetsNode(input Node) Node {
	var cols []Column
	for _, k := range st.keys {
		c := Column{Name: exprLabel(k), T: k.Type().Nullable()}
		if ref, ok := k.(*ColumnRef); ok {
			c = st.input.cols[ref.Index]
			c.T = c.T.Nullable()
		}
		cols = append(cols, c)
	}
	var real []AggCall
	realPos := make([]int, len(st.calls))
	for i, call := range st.calls {
		cols = append(cols, Column{Name: call.Func, T: call.T})
		if _, ok := st.grouping[i]; ok {
			continue
		}
		realPos[i] = len(real)
		real = append(real, call)
	}
	var out Node
	// The sets in reverse: the sort above is stable, and PostgreSQL's
	// plans emit the grand total and the shorter sets of a ROLLUP first
	// among rows that tie on ORDER BY.
	for i := len(st.sets) - 1; i >= 0; i-- {
		set := st.sets[i]
		keys := make([]Expr, len(set))
		for i, k := range set {
			keys[i] = st.keys[k]
		}
		agg := NewAggregate(input, keys, real)
		exprs := make([]Expr, 0, len(cols))
		for i := range st.keys {
			if p := slices.Index(set, i); p >= 0 {
				exprs = append(exprs, &ColumnRef{Index: p, Name: cols[i].Name, T: cols[i].T})
			} else {
				exprs = append(exprs, &Const{T: cols[i].T})
			}
		}
		for i, call := range st.calls {
			if args, ok := st.grouping[i]; ok {
				bits := int64(0)
				for _, k := range args {
					bits <<= 1
					if !slices.Contains(set, k) {
						bits |= 1
					}
				}
				exprs = append(exprs, &Const{Value: bits, T: call.T})
				continue
			}
			exprs = append(exprs, &ColumnRef{Index: len(set) + realPos[i], Name: call.Func, T: call.T})
		}
		var branch Node = &Project{Input: agg, Exprs: exprs, Cols: slices.Clone(cols)}
		if out == nil {
			out = branch
		} else {
			out = &SetOp{Left: out, Right: branch, Kind: Union, All: true, cols: slices.Clone(cols)}
		}
	}
	return out
}
