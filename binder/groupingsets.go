package binder

import (
	"slices"
	"strings"

	pt "github.com/sqlgate/sqlgate/sql/tree"
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

// groupingMarker is the rewrite's marker of a grouping construct.
func groupingMarker(k pt.GroupingKind) string {
	switch k {
	case pt.Rollup:
		return "pg__rollup"
	case pt.Cube:
		return "pg__cube"
	case pt.GroupingSets:
		return "pg__grouping_sets"
	}
	return "pg__empty_set"
}

func isGroupingConstruct(name string) bool {
	switch name {
	case "pg__rollup", "pg__cube", "pg__grouping_sets", "pg__empty_set", groupDistinctMark:
		return true
	}
	return false
}

// bindGroupBy binds the GROUP BY clause (items, and whether it is GROUP
// BY DISTINCT) into st.keys and, when it has grouping constructs, st.sets
// (each a list of key indexes).
func (b *binder) bindGroupBy(st *aggState, in *scope, targets []*pt.Target, items []pt.Expr, distinct bool) error {
	constructs := false
	for _, e := range items {
		switch x := e.(type) {
		case *pt.GroupingSet:
			constructs = true
		case *pt.Row:
			constructs = constructs || !x.Explicit
		}
	}
	if !constructs {
		for i, e := range items {
			k, err := b.bindGroupKey(in, targets, e, listPlace{exprs: items[:i], base: targetsEnd(targets), kw: "group"})
			if err != nil {
				return err
			}
			st.keys = append(st.keys, k)
		}
		return nil
	}
	g := groupingExpander{b: b, st: st, in: in, targets: targets}
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
	b       *binder
	st      *aggState
	in      *scope
	targets []*pt.Target
}

// key binds a grouping expression and returns its key index.
func (g *groupingExpander) key(e pt.Expr) (int, error) {
	k, err := g.b.bindGroupKey(g.in, g.targets, e, listPlace{base: targetsEnd(g.targets), kw: "group"})
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
func (g *groupingExpander) element(e pt.Expr) ([]int, error) {
	if r, ok := e.(*pt.Row); ok && !r.Explicit {
		var set []int
		for _, v := range r.Fields {
			k, err := g.key(v)
			if err != nil {
				return nil, err
			}
			set = union(set, []int{k})
		}
		return set, nil
	}
	if f, ok := e.(*pt.GroupingSet); ok {
		return nil, g.b.misplacedGroupingConstruct(g.in, f, groupingMarker(f.Kind), f.Items)
	}
	k, err := g.key(e)
	if err != nil {
		return nil, err
	}
	return []int{k}, nil
}

// item is the list of grouping sets of one GROUP BY item (or of one
// element of GROUPING SETS, which may nest any of the constructs).
func (g *groupingExpander) item(e pt.Expr) ([][]int, error) {
	f, ok := e.(*pt.GroupingSet)
	if !ok {
		set, err := g.element(e)
		if err != nil {
			return nil, err
		}
		return [][]int{set}, nil
	}
	switch f.Kind {
	case pt.EmptySet:
		return [][]int{{}}, nil
	case pt.GroupingSets:
		var out [][]int
		for _, a := range f.Items {
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
	elems := make([][]int, len(f.Items))
	for i, a := range f.Items {
		set, err := g.element(a)
		if err != nil {
			return nil, err
		}
		elems[i] = set
	}
	if f.Kind == pt.Rollup {
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
// at is the construct, marker its marker's name (pg__rollup ...), args
// its items.
func (b *binder) misplacedGroupingConstruct(s *scope, f pt.Expr, marker string, args []pt.Expr) error {
	name := strings.TrimPrefix(marker, "pg__")
	if name == "empty_set" || name == "group_distinct" {
		return b.errAt(f, sqlerr.New(sqlerr.SyntaxError, "syntax error at or near \")\""))
	}
	if name == "grouping_sets" {
		return b.errAt(f, sqlerr.New(sqlerr.SyntaxError, "syntax error at or near \"SETS\""))
	}
	var names []string
	for _, a := range args {
		e, err := b.bindTree(s, a)
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
func (b *binder) bindGrouping(n *pt.FuncCall) (Expr, error) {
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
	t := types.T{Kind: types.Int32, NotNull: true}
	bad := false
	for i, a := range n.Args {
		e, err := b.bindTree(st.input, a)
		if err != nil {
			return nil, err
		}
		e = b.resolveUnknown(e, types.StringType)
		keys[i] = slices.IndexFunc(st.keys, func(k Expr) bool { return sameExpr(k, e) })
		if keys[i] < 0 && !st.keysUnbound && !bad {
			// reported once every clause is bound (bindSelectTree)
			bad = true
			err := b.errAt(a, sqlerr.New(sqlerr.GroupingError, "arguments to GROUPING must be grouping expressions of the associated query level"))
			switch {
			case st.inHaving && st.badGroupingHaving == nil:
				st.badGroupingHaving = err
			case !st.inHaving && st.badGrouping == nil:
				st.badGrouping = err
			}
		}
	}
	if st.sets == nil || bad || st.keysUnbound {
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
		agg.Grouped, agg.GroupingSet = len(st.keys) > 0, true
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
