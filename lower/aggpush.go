package lower

import (
	"slices"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/types"
)

// pushAggregates pre-aggregates one input of an inner equi-join below it
// (eager aggregation):
//
//	SELECT c.region, sum(o.amount) FROM orders o JOIN customers c ON o.cust = c.id GROUP BY c.region
//
// becomes the join of orders grouped by (cust) with partial sums against
// customers, then the final grouping by region over the partials. It is
// valid when every aggregate reads only the pre-aggregated side S, and the
// other side O is unique on its join-key columns (its primary key, or an
// aggregation's keys, is among them): each S row then meets at most one O
// row, so the S rows of one pre-group (equal join keys and equal S-side
// grouping columns) all meet the same O row and land in the same final
// group, where the partials combine to what the rows would have given.
//
// Only decomposable aggregates qualify: count (final: the sum of the
// counts, in bigint, 0 when there is none), sum over integers and numerics
// (exact; float sums would change with the order of addition), min and
// max; never DISTINCT, ordered or FILTERed ones. (Float sums and averages
// split as in the parallel path were tried for W7 and left out: at 1M
// events the pre-aggregation into 100k groups cost more CPU than the join
// and the aggregation by country it saved, 144-170 ms against 112-123 ms
// a query.) NULLs keep their meaning: a NULL
// join key joins nothing before or after, a sum of only NULLs is NULL in
// the partial and the final. The rule applies only when the estimates say
// the pre-aggregation at least halves S's rows.
func (e *estimator) pushAggregates(n binder.Node) binder.Node {
	n = rewriteChildren(n, e.pushAggregates)
	if a, ok := n.(*binder.Aggregate); ok {
		if out := e.pushAggregate(a); out != nil {
			return out
		}
	}
	return n
}

// pushableAggregate reports whether call splits into a partial and a final
// aggregate.
func pushableAggregate(call binder.AggCall) bool {
	if call.Distinct || call.Filter != nil || len(call.OrderBy) > 0 {
		return false
	}
	// Below the join the arguments would be computed for rows the join
	// removes too: one that can fail there (1/x, a cast, an overflow)
	// would fail where PostgreSQL, computing them for joined rows only,
	// answers.
	for _, a := range call.Args {
		if canRaise(a) {
			return false
		}
	}
	switch call.Func {
	case "count":
		return len(call.Args) <= 1
	case "min", "max":
		return len(call.Args) == 1
	case "sum":
		if len(call.Args) != 1 {
			return false
		}
		t := call.Args[0].Type()
		return t.IsInteger() || t.Kind == types.Decimal
	}
	return false
}

// finalSum is the final aggregation of partials p of type t (a count's
// partials, or a sum's): a sum, in bigint where the original aggregate is
// bigint (a count, or a sum of smallints and integers: sumIntAcc raises
// 22003 where the total leaves bigint's range, as PostgreSQL's int8 sum
// state does), else in the partials' own type (floats) or numeric.
func finalSum(p binder.Expr, orig types.T) binder.AggCall {
	t := p.Type()
	f := binder.AggCall{Func: "sum", Args: []binder.Expr{p}, T: sumType(t)}
	switch {
	case t.IsFloat():
		f.T = t
	case t.Kind == types.Int64 && orig.Kind == types.Int64:
		f.T = types.Int64Type
	}
	return f
}

// avgOf is the average of a float sum and a count of the same rows: NULL
// where there were none. The sum gets + 0.0 because avg's state starts at
// +0 (float8_accum): PostgreSQL's average of -0 values is 0, where a sum
// starting at its first value is -0 (x + 0.0 is x for every other x).
func avgOf(sum, count binder.Expr, t types.T) binder.Expr {
	n := count
	if !n.Type().Equal(types.Float64Type) {
		n = &binder.Cast{X: n, T: types.Float64Type.Nullable()}
	}
	zero := &binder.Const{Value: 0.0, T: types.Float64Type}
	s := &binder.BinaryOp{Op: binder.OpAdd, L: sum, R: zero, T: types.Float64Type}
	return &binder.Case{Whens: []binder.When{{
		Cond:   &binder.BinaryOp{Op: binder.OpGt, L: n, R: zero, T: types.BoolType},
		Result: &binder.BinaryOp{Op: binder.OpDiv, L: s, R: n, T: types.Float64Type},
	}}, T: t}
}

// sumType is the type of sum over t (PostgreSQL's, for the kinds
// pushableAggregate lets through).
func sumType(t types.T) types.T {
	if t.IsInteger() && t.Kind != types.Int64 {
		return types.Int64Type
	}
	return types.NumericType // sum(bigint) and sum(numeric)
}

func (e *estimator) pushAggregate(a *binder.Aggregate) binder.Node {
	if len(a.Aggs) == 0 {
		return nil
	}
	for _, c := range a.Aggs {
		if !pushableAggregate(c) {
			return nil
		}
	}
	// The aggregate's expressions over the join's columns: through a
	// projection of deterministic expressions, if there is one.
	keys, aggs := slices.Clone(a.GroupBy), slices.Clone(a.Aggs)
	in := a.Input
	if p, ok := in.(*binder.Project); ok {
		for _, x := range p.Exprs {
			if !deterministic(x) {
				return nil
			}
		}
		for i := range keys {
			keys[i] = substitute(keys[i], p.Exprs)
		}
		for i := range aggs {
			aggs[i].Args = slices.Clone(aggs[i].Args)
			for k := range aggs[i].Args {
				aggs[i].Args[k] = substitute(aggs[i].Args[k], p.Exprs)
			}
		}
		in = p.Input
	}
	j, ok := in.(*binder.Join)
	if !ok || j.Type != binder.InnerJoin || j.Cond == nil {
		return nil
	}
	nl := len(j.Left.Columns())
	var pairs [][2]int // join-key columns: left, right (join numbering)
	for _, c := range conjuncts(j.Cond) {
		l, r, ok := equiKey(c, nl)
		if !ok {
			return nil
		}
		lc, lok := l.(*binder.ColumnRef)
		rc, rok := r.(*binder.ColumnRef)
		if !lok || !rok {
			return nil
		}
		pairs = append(pairs, [2]int{lc.Index, rc.Index})
	}
	for _, k := range keys {
		if _, ok := k.(*binder.ColumnRef); !ok {
			return nil
		}
	}
	for side := range 2 { // 0: pre-aggregate the left input, 1: the right
		if out := e.pushInto(a, j, keys, aggs, pairs, side); out != nil {
			return out
		}
	}
	return nil
}

// pushInto pre-aggregates input side (0 left, 1 right) of j, if valid and
// worth it.
func (e *estimator) pushInto(a *binder.Aggregate, j *binder.Join, keys []binder.Expr, aggs []binder.AggCall, pairs [][2]int, side int) binder.Node {
	nl := len(j.Left.Columns())
	S, O := j.Left, j.Right
	lo, hi := 0, nl // S's columns in the join's numbering
	if side == 1 {
		S, O = j.Right, j.Left
		lo, hi = nl, len(j.Columns())
	}
	inS := func(c int) bool { return c >= lo && c < hi }
	for _, c := range aggs {
		for _, arg := range c.Args {
			for _, col := range columnsOf(arg) {
				if !inS(col) {
					return nil
				}
			}
			if !deterministic(arg) {
				return nil
			}
		}
	}
	var oKeys []int // O's join-key columns, O's numbering
	var sCols []int // S's grouping columns (join keys, then S-side keys), join numbering
	for _, p := range pairs {
		s, o := p[0], p[1]
		if side == 1 {
			s, o = p[1], p[0]
		}
		oKeys = append(oKeys, o-(nl-lo)) // O's numbering: less nl when O is the right input
		if !slices.Contains(sCols, s) {
			sCols = append(sCols, s)
		}
	}
	if !uniqueOn(O, oKeys) {
		return nil
	}
	for _, k := range keys {
		if c := k.(*binder.ColumnRef).Index; inS(c) && !slices.Contains(sCols, c) {
			sCols = append(sCols, c)
		}
	}
	// Both inputs narrowed to the columns used above them (projection
	// pushdown then decodes only those), S's grouped into partials.
	oBase := nl - lo // O's column c of the join is O's c - oBase
	var sNeed, oNeed []int
	for _, c := range sCols {
		sNeed = append(sNeed, c-lo)
	}
	for _, c := range aggs {
		for _, arg := range c.Args {
			for _, col := range columnsOf(arg) {
				sNeed = append(sNeed, col-lo)
			}
		}
	}
	oNeed = append(oNeed, oKeys...)
	for _, k := range keys {
		if c := k.(*binder.ColumnRef).Index; !inS(c) {
			oNeed = append(oNeed, c-oBase)
		}
	}
	S, sMap := narrowTo(S, sNeed)
	O, oMap := narrowTo(O, oNeed)
	sc := S.Columns()
	var preKeys []binder.Expr
	for _, c := range sCols {
		i := sMap[c-lo]
		preKeys = append(preKeys, &binder.ColumnRef{Index: i, Name: sc[i].Name, T: sc[i].T})
	}
	partials := make([]binder.AggCall, len(aggs))
	for i, c := range aggs {
		p := binder.AggCall{Func: c.Func, T: c.T}
		for _, arg := range c.Args {
			p.Args = append(p.Args, remapColumns(shiftColumns(arg, -lo), sMap))
		}
		if c.Func == "sum" {
			p.T = sumType(c.Args[0].Type())
		}
		partials[i] = p
	}
	pre := binder.NewAggregate(S, preKeys, partials)
	if e.rows(pre) > e.rows(S)/2 {
		return nil
	}
	// The join of the partials with O, in the original input order; where
	// each of the old join's columns (S's grouping columns, O's) now is.
	np, no := len(pre.Columns()), len(O.Columns())
	pos := map[int]int{}
	sAt := 0 // the first column of the partials in the new join
	if side == 1 {
		sAt = no
	}
	for i, c := range sCols {
		pos[c] = sAt + i
	}
	for old, nw := range oMap {
		if side == 0 {
			pos[old+oBase] = np + nw
		} else {
			pos[old] = nw
		}
	}
	var cond []binder.Expr
	for _, c := range conjuncts(j.Cond) {
		cond = append(cond, remapColumns(c, pos))
	}
	var nj *binder.Join
	if side == 0 {
		nj = binder.NewJoin(pre, O, binder.InnerJoin, and(cond))
	} else {
		nj = binder.NewJoin(O, pre, binder.InnerJoin, and(cond))
	}
	njc := nj.Columns()
	partialAt := func(i int) int { return sAt + len(sCols) + i } // the join column of partial aggregate i
	// The final aggregation over the join, and a projection that gives
	// the original aggregation's columns their types back.
	var finalKeys []binder.Expr
	for _, k := range keys {
		c := pos[k.(*binder.ColumnRef).Index]
		finalKeys = append(finalKeys, &binder.ColumnRef{Index: c, Name: njc[c].Name, T: njc[c].T})
	}
	finals := make([]binder.AggCall, len(partials))
	for i, p := range partials {
		col := partialAt(i)
		ref := &binder.ColumnRef{Index: col, Name: njc[col].Name, T: njc[col].T}
		f := binder.AggCall{Func: p.Func, Args: []binder.Expr{ref}, T: p.T}
		switch p.Func {
		case "count", "sum":
			f = finalSum(ref, p.T)
		}
		finals[i] = f
	}
	final := binder.NewAggregate(nj, finalKeys, finals)
	fc := final.Columns()
	out := &binder.Project{Input: final, Cols: a.Columns()}
	for i := range keys {
		out.Exprs = append(out.Exprs, &binder.ColumnRef{Index: i, Name: fc[i].Name, T: fc[i].T})
	}
	for i, c := range aggs {
		at := len(keys) + i
		var x binder.Expr = &binder.ColumnRef{Index: at, Name: fc[at].Name, T: fc[at].T}
		if !fc[at].T.Equal(c.T) {
			x = &binder.Cast{X: x, T: c.T.Nullable()}
		}
		if c.Func == "count" {
			// no partial count at all (an aggregation without GROUP BY
			// over an empty join) is a count of 0
			x = &binder.Coalesce{Args: []binder.Expr{x, &binder.Const{Value: int64(0), T: types.Int64Type}}, T: c.T}
		}
		out.Exprs = append(out.Exprs, x)
	}
	return out
}

// narrowTo narrows n to the columns in need and says where each is, as
// a join input's pruning does (pruneInput): a derived table below computes
// only what is read, so that an output nothing reads (1/0 beside the key)
// is not computed once the aggregation moved below the join.
func narrowTo(n binder.Node, need []int) (binder.Node, map[int]int) {
	set := make(map[int]bool, len(need))
	for _, c := range need {
		set[c] = true
	}
	return pruneInput(n, set)
}

// uniqueOn reports whether n has at most one row for each value of the
// columns cols: a stored table whose primary key is among them, seen
// through filters and column projections, or an aggregation or DISTINCT
// whose keys are.
func uniqueOn(n binder.Node, cols []int) bool {
	switch x := n.(type) {
	case *binder.Filter:
		return uniqueOn(x.Input, cols)
	case *binder.Project:
		var in []int
		for _, c := range cols {
			if r, ok := x.Exprs[c].(*binder.ColumnRef); ok {
				in = append(in, r.Index)
			}
		}
		return uniqueOn(x.Input, in)
	case *binder.Scan:
		if x.Changelog || x.Binlog {
			return false
		}
		return pkAmong(x.Table.Descriptor.Schema.PrimaryKey, x.Table.ColumnIndex, nil, cols)
	case *scanProjection:
		if x.changelog {
			return false
		}
		return pkAmong(x.table.Descriptor.Schema.PrimaryKey, x.table.ColumnIndex, x.projection, cols)
	case *pkLookup:
		return pkAmong(x.table.Descriptor.Schema.PrimaryKey, x.table.ColumnIndex, x.projection, cols)
	case *prefixLookup:
		return pkAmong(x.table.Descriptor.Schema.PrimaryKey, x.table.ColumnIndex, x.projection, cols)
	case *binder.Aggregate:
		for k := range x.GroupBy {
			if !slices.Contains(cols, k) {
				return false
			}
		}
		return true
	case *binder.Distinct:
		for k := range x.Columns() {
			if !slices.Contains(cols, k) {
				return false
			}
		}
		return true
	}
	return false
}

// pkAmong reports whether every primary-key column is among cols (output
// positions; projection maps them to table columns, nil: the identity).
func pkAmong(pk []string, index func(string) int, projection []int, cols []int) bool {
	if len(pk) == 0 {
		return false
	}
	for _, name := range pk {
		t := index(name)
		found := false
		for _, c := range cols {
			tc := c
			if projection != nil {
				tc = projection[c]
			}
			if tc == t {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
