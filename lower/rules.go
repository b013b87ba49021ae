package lower

import (
	"slices"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// rule is one named rewrite of the logical plan.
type rule struct {
	name  string
	apply func(binder.Node) binder.Node
}

// rules run in this order. The point-lookup rule runs before projection
// pushdown because it needs the filter directly above the scan, and before
// join ordering, whose estimates then count the keys a lookup reads.
var rules = []rule{
	// First: no rule moves anything into the input it never reads.
	{"degenerate_grouping", degenerateGroupings}, // aggprune.go
	{"subquery_decorrelation", decorrelateRule},  // decorrelate.go: subqueries become joins the rules below then place
	// Before simplify_boolean, which folds the IS NOT NULL of the
	// constants it adds (a NULL one empties the aggregation's input).
	{"minmax_constants", minmaxConstants}, // planagg.go
	// Constant conditions go next, so that no rule moves a filter that
	// is always true or makes its subtree empty.
	{"simplify_boolean", simplifyBoolean},
	// Filters move into joins and below them first, so that the access-path
	// rules see each table's own predicates directly above its scan.
	// An ON condition's conjuncts over one input go below the join
	// first, then WHERE's: PostgreSQL distributes a join's quals to the
	// relations as it meets the join in the FROM tree, before the WHERE
	// of the query level holding it (deconstruct_jointree), and order_qual_clauses
	// keeps that order among conjuncts of equal cost, so a WHERE
	// conjunct that fails is not computed for a row the ON one rejects.
	// join_condition_pushdown runs again after filter_into_join, for the
	// outer joins that WHERE reduced to inner ones.
	{"on_condition_pushdown", pushJoinConditions},
	{"filter_into_join", filterIntoJoin},
	{"join_condition_pushdown", pushJoinConditions},
	{"filter_pushdown", pushFilters},
	{"primary_key_lookup", primaryKeyLookup},
	{"join_order", nil},            // needs the planning's row estimates: estimatedRules
	{"outer_join_build_side", nil}, // buildside.go
	// Projections merge first, so that sorts meet, joins see what the
	// projection above them reads, and so do scans.
	{"projection_elimination", eliminateProjections},
	{"join_input_pruning", pruneJoinInputs},
	{"sort_elimination", eliminateSorts},
	// After join order and input pruning, which it needs settled (it reads
	// the join's final inputs and their estimates), and before projection
	// pushdown, which then narrows the scans below the new aggregation.
	{"aggregation_pushdown", nil}, // aggpush.go
	// After aggregation pushdown (which reads the aggregation right above
	// its join) and before projection pushdown, which keeps the scans
	// it narrows narrow.
	{"aggregate_input_pruning", pruneAggregateInputs}, // aggprune.go
	// After input pruning, which narrows a derived table's projection
	// to what an aggregation above it reads.
	{"aggregate_output_pruning", pruneAggregateOutputs}, // aggprune.go
	// After the pruning rules, which have dropped the derived tables'
	// outputs nothing reads, and before projection pushdown, which then
	// narrows the scans below what stays: a derived table's expressions
	// are computed over the join's output rows, as PostgreSQL computes
	// them once it has pulled the derived table up.
	{"late_projection", lateProjections}, // lateproject.go
	{"projection_pushdown", projectionPushdown},
	{"bucket_key_lookup", bucketKeyLookup}, // accesspath.go
	{"changelog_bounds", changelogBounds},  // accesspath.go
	// After projection pushdown, which needs the projection directly
	// above the scan; lowering then finds the scan right below the limit.
	{"limit_pushdown", pushLimits},
	// Last: it marks the scans the access-path rules chose (partitions.go).
	{"partition_pruning", partitionPruning},
}

// estimatedRules are the rules that read row estimates, by name; their
// entry in rules says where they run.
var estimatedRules = map[string]func(*estimator, binder.Node) binder.Node{
	"join_order":            (*estimator).orderJoins,
	"aggregation_pushdown":  (*estimator).pushAggregates,
	"outer_join_build_side": (*estimator).outerBuildSide,
}

// optimize applies every rule and checks that each kept the output schema.
func optimize(n binder.Node) (binder.Node, error) {
	return optimizeWith(n, newEstimator(Options{}), nil)
}

// optimizeWith applies the rules not disabled, estimating with e. No rule
// may change the plan's output schema; it is checked once, on the result
// (each rule is checked only when that fails, to name the rule): planning
// a statement runs a dozen rules, and a check per rule run was a pass over
// the output columns each.
func optimizeWith(n binder.Node, e *estimator, disabled map[string]bool) (binder.Node, error) {
	out, _ := applyRules(n, e, disabled, false)
	if out == n || sameSchema(n.Columns(), out.Columns()) == nil {
		return out, nil
	}
	// The rules are pure functions of the plan: running them again with a
	// check after each finds the one that changed the schema.
	if _, err := applyRules(n, e, disabled, true); err != nil {
		return nil, err
	}
	return nil, sqlerr.New(sqlerr.InternalError, "optimizer rules changed the plan schema: %v", sameSchema(n.Columns(), out.Columns()))
}

// applyRules applies the rules not disabled; with check, it stops at the
// first that changes the output schema, with its error.
func applyRules(n binder.Node, e *estimator, disabled map[string]bool, check bool) (binder.Node, error) {
	for _, r := range rules {
		if disabled[r.name] {
			continue
		}
		in := n
		if r.apply != nil {
			n = r.apply(n)
		} else if f := estimatedRules[r.name]; f != nil {
			n = f(e, n)
		}
		if !check || n == in { // the rule changed nothing (rules copy what they change)
			continue
		}
		if err := sameSchema(in.Columns(), n.Columns()); err != nil {
			return nil, sqlerr.New(sqlerr.InternalError, "optimizer rule %s changed the plan schema: %v", r.name, err)
		}
	}
	return n, nil
}

func sameSchema(a, b []binder.Column) error {
	if len(a) != len(b) {
		return sqlerr.New(sqlerr.InternalError, "%d columns became %d", len(a), len(b))
	}
	for i := range a {
		if a[i].Name != b[i].Name || !a[i].T.Same(&b[i].T) {
			return sqlerr.New(sqlerr.InternalError, "column %d %s %s became %s %s", i, a[i].Name, a[i].T, b[i].Name, b[i].T)
		}
	}
	return nil
}

// rewriteChildren rebuilds n with its inputs rewritten by fn.
func rewriteChildren(n binder.Node, fn func(binder.Node) binder.Node) binder.Node {
	// Every rule runs over the whole plan and most of its nodes come back
	// unchanged: a node is copied only when one of its inputs changed.
	switch x := n.(type) {
	case *binder.Filter:
		if in := fn(x.Input); in != x.Input {
			c := *x
			c.Input = in
			return &c
		}
	case *binder.Project:
		if in := fn(x.Input); in != x.Input {
			c := *x
			c.Input = in
			return &c
		}
	case *binder.Sort:
		if in := fn(x.Input); in != x.Input {
			c := *x
			c.Input = in
			return &c
		}
	case *binder.Limit:
		if in := fn(x.Input); in != x.Input {
			c := *x
			c.Input = in
			return &c
		}
	case *binder.LockRows:
		if in := fn(x.Input); in != x.Input {
			c := *x
			c.Input = in
			return &c
		}
	case *binder.Distinct:
		if in := fn(x.Input); in != x.Input {
			return &binder.Distinct{Input: in}
		}
	case *binder.DistinctOn:
		if in := fn(x.Input); in != x.Input {
			return &binder.DistinctOn{Input: in, Keys: x.Keys}
		}
	case *binder.Aggregate:
		if in := fn(x.Input); in != x.Input {
			c := *x
			c.Input = in
			return &c
		}
	case *binder.Join:
		if l, r := fn(x.Left), fn(x.Right); l != x.Left || r != x.Right {
			c := *x
			c.Left, c.Right = l, r
			return &c
		}
	case *binder.Window:
		if in := fn(x.Input); in != x.Input {
			c := *x
			c.Input = in
			return &c
		}
	case *binder.Lateral:
		// the left input only: the right one reads the left row (OuterRef),
		// which no rule knows how to move
		if l := fn(x.Left); l != x.Left {
			return binder.NewLateral(l, x.Right, x.Outer, x.Type, x.Cond)
		}
	case *binder.SetOp:
		if l, r := fn(x.Left), fn(x.Right); l != x.Left || r != x.Right {
			c := *x
			c.Left, c.Right = l, r
			return &c
		}
	case *binder.CTEScan:
		// the query is rewritten on its own: no rule moves anything into
		// a WITH query that several scans share
		if b := fn(x.Body); b != x.Body {
			return binder.NewCTEScan(x.CTE, b)
		}
	case *binder.RecursiveUnion:
		// each term is rewritten on its own; no rule moves anything
		// across a recursive union (they do not know it)
		if l, r := fn(x.NonRec), fn(x.Rec); l != x.NonRec || r != x.Rec {
			c := *x
			c.NonRec, c.Rec = l, r
			return &c
		}
	}
	return n
}

// scanProjection is a scan that decodes only some columns.
type scanProjection struct {
	table      fluss.TableInfo
	changelog  bool
	projection []int
	cols       []binder.Column
}

func (n *scanProjection) Columns() []binder.Column { return n.cols }
func (n *scanProjection) Children() []binder.Node  { return nil }

// pkLookup reads rows by full primary key.
type pkLookup struct {
	table      fluss.TableInfo
	keys       [][]binder.Expr // per key: one expression per primary-key column, in key order
	projection []int
	cols       []binder.Column
}

func (n *pkLookup) Columns() []binder.Column { return n.cols }
func (n *pkLookup) Children() []binder.Node  { return nil }

// primaryKeyLookup turns Filter(Scan) into a Lookup when the filter's
// conjuncts fix every primary-key column to a constant or parameter
// (col = c). The conjuncts the lookup key answers exactly are dropped; the
// others stay as a filter over the looked-up rows, so the rule never changes
// results, only the access path.
//
// A conjunct col = v is answered exactly when v has the column's own type
// (castToColumn adds no cast): the lookup then finds the row whose stored key
// has v's encoding, and equal encodings are equal values of that type, so
// the looked-up row satisfies col = v. (The converse is the lookup's job: the
// key encoding is canonical for a type, so a row whose key equals v is the
// one stored under v's encoding.) A NULL v matches nothing in both: the
// lookup skips a key with a NULL. Floating-point and CHAR(n) columns keep
// their filter, whose equality is not the encoding's (-0 = +0; blank
// padding).
func primaryKeyLookup(n binder.Node) binder.Node {
	f, ok := n.(*binder.Filter)
	if !ok {
		return rewriteChildren(n, primaryKeyLookup)
	}
	scan, ok := f.Input.(*binder.Scan)
	if !ok || !scan.Table.HasPrimaryKey() || scan.Changelog {
		return rewriteChildren(n, primaryKeyLookup)
	}
	info := scan.Table
	pk := info.Descriptor.Schema.PrimaryKey
	// Planning runs this for every filtered scan of a keyed table, and most
	// do not fix the key: the conjuncts and their matches live in stack
	// buffers, and nothing is allocated until every key column is known to
	// be fixed.
	var conjBuf [16]binder.Expr
	all := appendConjuncts(conjBuf[:0], f.Cond)
	var matchBuf [16]inListMatch
	matches := matchBuf[:0]
	for _, c := range all {
		col, nv := inListColumn(c)
		matches = append(matches, inListMatch{col, nv})
	}
	// from[j]: the first conjunct that fixes key column j (as a map keyed
	// by column, first one wins, would).
	var fromBuf [8]int
	from := fromBuf[:0]
	total, nvals := 1, 0
	for _, name := range pk {
		idx := info.ColumnIndex(name)
		ci := slices.IndexFunc(matches, func(m inListMatch) bool { return m.col != nil && m.col.Index == idx })
		if ci < 0 || total*matches[ci].n > maxLookupKeys {
			return rewriteChildren(n, primaryKeyLookup)
		}
		total *= matches[ci].n
		nvals += matches[ci].n
		from = append(from, ci)
	}
	// each key column's values, cast to the column's type, one after another
	var valBuf [16]binder.Expr
	vals := valBuf[:0]
	var answeredBuf [8]int // conjuncts the lookup keys answer exactly
	answered := answeredBuf[:0]
	for j, name := range pk {
		idx := info.ColumnIndex(name)
		t := info.Descriptor.Schema.Columns[idx].Type
		exact := exactKeyEquality(t)
		start := len(vals)
		vals = appendInValues(vals, all[from[j]])
		for i := start; i < len(vals); i++ {
			v := vals[i]
			vals[i] = castToColumn(v, t)
			exact = exact && vals[i] == v
		}
		if exact {
			answered = append(answered, from[j])
		}
	}
	// The keys are every combination of the key columns' values, the last
	// column varying fastest, in one backing array.
	flat := make([]binder.Expr, total*len(pk))
	keys := make([][]binder.Expr, total)
	for k := range keys {
		key := flat[k*len(pk) : (k+1)*len(pk) : (k+1)*len(pk)]
		rem, off := k, nvals
		for j := len(pk) - 1; j >= 0; j-- {
			nj := matches[from[j]].n
			off -= nj
			key[j] = vals[off+rem%nj]
			rem /= nj
		}
		keys[k] = key
	}
	cols := make([]int, len(scan.Columns()))
	for i := range cols {
		cols[i] = i
	}
	lk := &pkLookup{table: info, keys: keys, projection: cols, cols: scan.Columns()}
	if len(answered) == len(all) {
		return lk
	}
	var restBuf [16]binder.Expr
	rest := restBuf[:0]
	for ci, c := range all {
		if !slices.Contains(answered, ci) {
			rest = append(rest, c)
		}
	}
	if len(rest) == 0 {
		return lk
	}
	return &binder.Filter{Input: lk, Cond: and(rest)}
}

// inListMatch is a conjunct matched by inListColumn: the column it fixes
// (nil: none) and to how many values.
type inListMatch struct {
	col *binder.ColumnRef
	n   int
}

// maxLookupKeys bounds the keys one lookup may read (the product of the
// key columns' IN lists); beyond it a scan with the filter is used.
const maxLookupKeys = 1024

// asColumnInValues matches a conjunct that fixes a column to one value
// (col = v) or to a list (col = v1 OR col = v2 ..., which is how the binder
// binds col IN (v1, v2, ...)), every value of the column's own type.
func asColumnInValues(e binder.Expr) (*binder.ColumnRef, []binder.Expr) {
	b, ok := e.(*binder.BinaryOp)
	if !ok {
		return nil, nil
	}
	switch b.Op {
	case binder.OpEq:
		col, val := asColumnEqualsValue(b)
		if col == nil {
			return nil, nil
		}
		return col, []binder.Expr{val}
	case binder.OpOr:
		lc, lv := asColumnInValues(b.L)
		rc, rv := asColumnInValues(b.R)
		if lc == nil || rc == nil || lc.Index != rc.Index {
			return nil, nil
		}
		return lc, append(lv[:len(lv):len(lv)], rv...)
	}
	return nil, nil
}

// inListColumn is asColumnInValues without building the list: the column
// a conjunct fixes and the number of values (appendInValues then appends
// them), so that a conjunct that fixes no key column costs no allocation.
func inListColumn(e binder.Expr) (*binder.ColumnRef, int) {
	b, ok := e.(*binder.BinaryOp)
	if !ok {
		return nil, 0
	}
	switch b.Op {
	case binder.OpEq:
		if col, _ := asColumnEqualsValue(b); col != nil {
			return col, 1
		}
	case binder.OpOr:
		lc, ln := inListColumn(b.L)
		if lc == nil {
			return nil, 0
		}
		rc, rn := inListColumn(b.R)
		if rc == nil || lc.Index != rc.Index {
			return nil, 0
		}
		return lc, ln + rn
	}
	return nil, 0
}

// appendInValues appends the values of a conjunct inListColumn matched, in
// asColumnInValues' order.
func appendInValues(out []binder.Expr, e binder.Expr) []binder.Expr {
	b := e.(*binder.BinaryOp)
	if b.Op == binder.OpOr {
		return appendInValues(appendInValues(out, b.L), b.R)
	}
	_, v := asColumnEqualsValue(b)
	return append(out, v)
}

// exactKeyEquality reports whether SQL equality on a key column of type t is
// equality of the values' key encodings.
func exactKeyEquality(t types.T) bool {
	switch t.Kind {
	case types.Float32, types.Float64, types.Char:
		return false
	}
	return true
}

// castToColumn makes a key value carry the key column's exact type. The
// comparison already cast both sides to a common type; a key that does not
// fit the column (e.g. 1.5 for a bigint) would fail the cast at run time,
// which is wrong for a WHERE clause, so only exact-type values qualify —
// otherwise the lookup still gets the original value and the residual filter
// decides.
func castToColumn(v binder.Expr, t types.T) binder.Expr {
	if vt := v.Type(); vt.Same(&t) { // (ignores NOT NULL)
		return v
	}
	return &binder.Cast{X: v, T: t.Nullable()}
}

// asColumnEqualsValue matches col = value or value = col where value reads no
// column and col is a plain column of the column's own type.
func asColumnEqualsValue(b *binder.BinaryOp) (*binder.ColumnRef, binder.Expr) {
	try := func(l, r binder.Expr) (*binder.ColumnRef, binder.Expr) {
		col, ok := l.(*binder.ColumnRef)
		if !ok || !isValue(r) {
			return nil, nil
		}
		if rt := r.Type(); !rt.Same(&col.T) { // (ignores NOT NULL)
			return nil, nil
		}
		return col, r
	}
	if c, v := try(b.L, b.R); c != nil {
		return c, v
	}
	return try(b.R, b.L)
}

func isValue(e binder.Expr) bool {
	switch x := e.(type) {
	case *binder.Const, *binder.Param:
		return true
	case *binder.Cast:
		return isValue(x.X)
	}
	return false
}

// conjuncts is e's AND-ed terms in a fresh slice, sized once.
func conjuncts(e binder.Expr) []binder.Expr {
	return appendConjuncts(make([]binder.Expr, 0, countLogicArgs(e, binder.OpAnd, false)), e)
}

// appendConjuncts appends e's AND-ed terms to out, left to right (one
// slice for the whole tree instead of one per AND). An Eager AND (NOT IN's
// items, computed together) is one term.
func appendConjuncts(out []binder.Expr, e binder.Expr) []binder.Expr {
	if b, ok := e.(*binder.BinaryOp); ok && b.Op == binder.OpAnd && !b.Eager {
		return appendConjuncts(appendConjuncts(out, b.L), b.R)
	}
	return append(out, e)
}

// projectionPushdown makes a scan (or lookup) under a Project decode only
// the columns the Project and any Filter between them read.
func projectionPushdown(n binder.Node) binder.Node {
	p, ok := n.(*binder.Project)
	if !ok {
		return rewriteChildren(n, projectionPushdown)
	}
	var filter *binder.Filter
	leaf := p.Input
	if f, ok := leaf.(*binder.Filter); ok {
		filter, leaf = f, f.Input
	}
	var table fluss.TableInfo
	var lookup *pkLookup
	changelog := false
	switch l := leaf.(type) {
	case *binder.Scan:
		if l.Binlog { // a binlog row pairs changes: it reads every column
			return n
		}
		table, changelog = l.Table, l.Changelog
	case *pkLookup:
		table, lookup = l.Table(), l
	default:
		return rewriteChildren(n, projectionPushdown)
	}
	var usedBuf [32]bool
	used := usedBuf[:0]
	if nc := len(leaf.Columns()); nc <= len(usedBuf) {
		used = usedBuf[:nc]
	} else {
		used = make([]bool, nc)
	}
	mark := func(e binder.Expr) {
		binder.Walk(e, func(x binder.Expr) {
			if c, ok := x.(*binder.ColumnRef); ok && c.Index >= 0 && c.Index < len(used) {
				used[c.Index] = true
			}
		})
	}
	for _, e := range p.Exprs {
		mark(e)
	}
	if filter != nil {
		mark(filter.Cond)
	}
	if !slices.Contains(used, false) { // every column is read: nothing to narrow
		return n
	}
	var proj []int
	for i, u := range used {
		if u {
			proj = append(proj, i)
		}
	}
	if len(proj) == 0 {
		// Nothing is read (SELECT 1 FROM t): decode one column anyway,
		// which carries the row count.
		proj = []int{0}
	}
	remap := map[int]int{}
	cols := make([]binder.Column, len(proj))
	for newIdx, old := range proj {
		remap[old] = newIdx
		cols[newIdx] = leaf.Columns()[old]
	}
	var newLeaf binder.Node
	if lookup != nil {
		newLeaf = &pkLookup{table: table, keys: lookup.keys, projection: proj, cols: cols}
	} else {
		newLeaf = &scanProjection{table: table, changelog: changelog, projection: slices.Clone(proj), cols: cols}
	}
	var input binder.Node = newLeaf
	if filter != nil {
		input = &binder.Filter{Input: newLeaf, Cond: remapColumns(filter.Cond, remap)}
	}
	out := &binder.Project{Input: input, Cols: p.Cols}
	for _, e := range p.Exprs {
		out.Exprs = append(out.Exprs, remapColumns(e, remap))
	}
	return out
}

func (n *pkLookup) Table() fluss.TableInfo { return n.table }

// remapColumns rewrites column indexes through remap (copying the tree).
func remapColumns(e binder.Expr, remap map[int]int) binder.Expr {
	if c, ok := e.(*binder.ColumnRef); ok {
		out := *c
		out.Index = remap[c.Index]
		return &out
	}
	out, _ := binder.MapChildren(e, func(x binder.Expr) (binder.Expr, error) { return remapColumns(x, remap), nil })
	return out
}

// filterIntoJoin moves the conjuncts of a filter above a join to where they
// belong: a conjunct over one side's columns only goes below the join on
// that side when that side is not NULL-extended by the join (the left side
// of a LEFT join, either side of an inner join), and one over both sides of
// an inner or cross join becomes
// part of the join condition, so that an equality turns a cross product
// into a hash join. The rule keeps results equal: it never moves a
// predicate across the NULL-extended side of an outer join.
func filterIntoJoin(n binder.Node) binder.Node {
	f, ok := n.(*binder.Filter)
	if !ok {
		if j, ok := n.(*binder.Join); ok {
			n = reduceBelowJoin(j) // outerjoin.go
		}
		return rewriteChildren(n, filterIntoJoin)
	}
	j, ok := f.Input.(*binder.Join)
	if !ok {
		return rewriteChildren(n, filterIntoJoin)
	}
	nl := len(j.Left.Columns())
	if t := reduceOuterJoin(j, conjuncts(f.Cond), nl); t != j.Type { // outerjoin.go
		reduced := *j
		reduced.Type = t
		j = &reduced
		f = &binder.Filter{Input: j, Cond: f.Cond}
		n = f
	}
	if r := reduceBelowJoin(j); r != j {
		j = r
		f = &binder.Filter{Input: j, Cond: f.Cond}
		n = f
	}
	var left, right, both, keep []binder.Expr
	cs := conjuncts(f.Cond)
	if j.Type == binder.InnerJoin || j.Type == binder.CrossJoin {
		all := cs
		if j.Cond != nil {
			all = append(slices.Clip(cs), conjuncts(j.Cond)...)
		}
		cs = append(slices.Clip(cs), impliedConstants(all)...) // equivconst.go
	}
	for _, c := range cs {
		// a subquery by the columns it reads: PostgreSQL's
		// distribute_qual_to_rels puts a qual with a SubPlan at the scan
		// of the one relation it reads, below the join, like any other
		side := sideBits(c, nl, false)
		if side == 0 {
			side = 4
		}
		switch {
		case side == 1 && (j.Type == binder.InnerJoin || j.Type == binder.CrossJoin || j.Type == binder.LeftJoin || j.Type == binder.SemiJoin || j.Type == binder.AntiJoin):
			left = append(left, c)
		case side == 2 && (j.Type == binder.InnerJoin || j.Type == binder.CrossJoin || j.Type == binder.RightJoin):
			right = append(right, c)
		case side == 3 && (j.Type == binder.InnerJoin || j.Type == binder.CrossJoin):
			both = append(both, c)
		default:
			keep = append(keep, c)
		}
	}
	if len(left)+len(right)+len(both) == 0 {
		return rewriteChildren(n, filterIntoJoin)
	}
	nj := *j
	if len(left) > 0 {
		nj.Left = &binder.Filter{Input: j.Left, Cond: and(left)}
	}
	if len(right) > 0 {
		remap := map[int]int{}
		for i := range j.Right.Columns() {
			remap[nl+i] = i
		}
		var rs []binder.Expr
		for _, c := range right {
			rs = append(rs, remapColumns(c, remap))
		}
		nj.Right = &binder.Filter{Input: j.Right, Cond: and(rs)}
	}
	if len(both) > 0 {
		if nj.Cond != nil {
			both = append([]binder.Expr{nj.Cond}, both...)
		}
		nj.Cond = and(both)
		if nj.Type == binder.CrossJoin {
			nj.Type = binder.InnerJoin
		}
	}
	nj.Left, nj.Right = filterIntoJoin(nj.Left), filterIntoJoin(nj.Right)
	var out binder.Node = &nj
	if len(keep) > 0 {
		out = &binder.Filter{Input: out, Cond: and(keep)}
	}
	return out
}

// sidesOf says which join inputs an expression reads: 1 left, 2 right, 3
// both, 4 neither (a constant condition, kept where it is). Subqueries are
// treated as reading both sides, so they stay above the join.
func sidesOf(e binder.Expr, nl int) int {
	if s := sideBits(e, nl, true); s != 0 {
		return s
	}
	return 4
}

// sideBits is the join inputs e's columns come from (bit 1 left, bit 2
// right; nl the left input's width). A subquery counts as both sides when
// subqueryBoth, else as the outer columns it reads (PostgreSQL's
// clause_sides_match_join, fulljoinquals.go).
func sideBits(e binder.Expr, nl int, subqueryBoth bool) int {
	s := 0
	col := func(c *binder.ColumnRef) {
		if c.Index < nl {
			s |= 1
		} else {
			s |= 2
		}
	}
	binder.Walk(e, func(x binder.Expr) {
		switch c := x.(type) {
		case *binder.ColumnRef:
			col(c)
		case *binder.Subquery:
			if subqueryBoth {
				s |= 3
				return
			}
			for _, o := range c.Outer {
				binder.Walk(o, func(y binder.Expr) {
					if oc, ok := y.(*binder.ColumnRef); ok {
						col(oc)
					}
				})
			}
		}
	})
	return s
}

func and(es []binder.Expr) binder.Expr {
	out := es[0]
	if len(es) == 1 {
		return out
	}
	// the ANDs in one array: one allocation however many conjuncts
	ops := make([]binder.BinaryOp, len(es)-1)
	for i, e := range es[1:] {
		ops[i] = binder.BinaryOp{Op: binder.OpAnd, L: out, R: e, T: types.BoolType}
		out = &ops[i]
	}
	return out
}
