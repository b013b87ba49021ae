package lower

import (
	"context"
	"runtime"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/exec/relop"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Parallel aggregation (issue 27): an aggregation over a pipeline of
// filters and projections that reads one large primary-key table runs as GOMAXPROCS partial aggregations, each over the same
// pipeline reading one part of a split scan of that table
// (fluss.SplitScanner: one snapshot), and a final aggregation of the
// partials, taken in part order. The choice is made when the plan is
// built (an aggregateNode's par): outside transactions only (a
// transaction's pending writes overlay its scans), on two cores or more,
// and from parallelMinRows rows of the table on; else the aggregation runs
// as planned. EXPLAIN shows the planned aggregation; EXPLAIN ANALYZE adds
// the workers and the scan's path to its line.
//
// The pipeline may join other tables (W7: 10M events joined to 100k
// users): the split table must sit on a side the joins distribute over
// (splitCandidates), and the other tables are read once, before the parts
// start, and replayed to each part, whose join builds its own hash table
// of them — a second build of a small side for a probe of half the large
// one on each core. Reading them once also gives every part the same
// rows. They are bounded (replayMaxRows, a quarter of the split table):
// past that the aggregation stays serial.
//
// Only aggregates that split exactly into a partial and a final qualify:
// count, sum, min, max and avg over floats (sum and count partials). A
// float sum adds in another order than one pass would, as PostgreSQL's
// parallel workers do: the result may differ in the last digits from the
// serial plan's, but not between runs over the same state (the parts are
// fixed by the table's image chunks or buckets, and merged in order).

// parallelMinRows is the table size (EstimateRows) from which an
// aggregation runs in parallel: at 200k rows a scan of the columnar image
// with a filter and an aggregation takes ~5 ms on one core, about ten
// times a goroutine start and join plus the second pipeline's build.
const parallelMinRows = 200_000

// parallelAgg is the parallel form of an aggregateNode.
type parallelAgg struct {
	root Node // the final aggregation (and its casts) over parts
	// scans are the scans of the partial pipeline that may be split (the
	// largest is); others those every part reads whole (a join's other
	// side), read once and replayed to each part.
	scans, others []*scanNode
}

// replayMaxRows bounds a table every part of a parallel aggregation reads
// whole (a join's other side): it is read once into memory and replayed to
// each part, whose join builds its own hash table from it. Past this (or
// past a quarter of the split table) the aggregation stays serial: the
// parts' builds would cost more than the split saves.
const replayMaxRows = 1 << 20

// partsNode runs its partial aggregation once per part of the split scan.
type partsNode struct {
	part Node
	out  *arrow.Schema
}

func (n *partsNode) Schema() *arrow.Schema     { return n.out }
func (n *partsNode) Inputs() []Node            { return []Node{n.part} }
func (n *partsNode) Explain() (string, string) { return "parallel_parts", "" }
func (n *partsNode) Columns() []binder.Column  { return nil }
func (n *partsNode) Build(rt *Runtime) (exec.Operator, error) {
	sp := rt.split
	if sp == nil {
		return nil, sqlerr.New(sqlerr.InternalError, "parallel parts built without a split scan")
	}
	rt.split = nil
	ec := rt.EC
	defer func() { rt.EC, rt.inject = ec, nil }()
	u := &exec.ParallelUnion{Out: n.out, Path: sp.path}
	for i, r := range sp.readers {
		rt.EC = ec.Fork()
		rt.inject = &injectState{scan: sp.scan, t: sp.t, reader: r}
		op, err := Build(rt, n.part)
		if err != nil || rt.inject != nil {
			if err == nil {
				err = sqlerr.New(sqlerr.InternalError, "a parallel part did not read its split scan")
				op.Close()
			}
			for _, p := range u.Parts {
				p.Close()
			}
			for _, rest := range sp.readers[i:] {
				rest.Close()
			}
			return nil, err
		}
		u.Parts = append(u.Parts, op)
	}
	return u, nil
}

// splitState is a split scan the parts are being built over; injectState
// is the part a scanNode of the pipeline reads.
type splitState struct {
	scan    *scanNode
	t       fluss.Table
	readers []fluss.RecordReader
	path    string
}

type injectState struct {
	scan   *scanNode
	t      fluss.Table
	reader fluss.RecordReader
}

// build returns the parallel plan's operator, or false to run the
// aggregation as planned.
func (p *parallelAgg) build(rt *Runtime) (exec.Operator, bool, error) {
	workers := runtime.GOMAXPROCS(0)
	if !rt.Untransacted || workers < 2 || rt.inject != nil || rt.split != nil {
		return nil, false, nil
	}
	var best *scanNode
	var bestT fluss.Table
	var bestRows int64 = -1
	for _, sn := range p.scans {
		if sn.changelog || sn.binlog || sn.limit > 0 {
			return nil, false, nil
		}
		t, err := rt.Tables.Table(rt.Ctx, sn.path)
		if err != nil {
			return nil, false, err
		}
		est, ok := t.(fluss.RowEstimator)
		if !ok {
			continue
		}
		if r := est.EstimateRows(); r > bestRows {
			best, bestT, bestRows = sn, t, r
		}
	}
	if best == nil || bestRows < parallelMinRows {
		return nil, false, nil
	}
	var otherRows int64
	for _, sn := range p.others {
		if sn.changelog || sn.binlog {
			return nil, false, nil
		}
		t, err := rt.Tables.Table(rt.Ctx, sn.path)
		if err != nil {
			return nil, false, err
		}
		est, ok := t.(fluss.RowEstimator)
		if !ok {
			return nil, false, nil
		}
		otherRows += est.EstimateRows()
	}
	if otherRows > replayMaxRows || otherRows > bestRows/4 {
		return nil, false, nil
	}
	ss, ok := bestT.(fluss.SplitScanner)
	if !ok {
		return nil, false, nil
	}
	readers, err := ss.SplitScan(rt.Ctx, fluss.ScanOptions{Projection: best.projection, Ranges: best.rangesAt(rt)}, workers)
	if err != nil || readers == nil {
		return nil, false, err
	}
	// The other scans are read once, now, so that every part joins the
	// same rows (one read each, as the serial plan's).
	replays, err := readReplays(rt, p.others)
	if err != nil {
		for _, r := range readers {
			r.Close()
		}
		return nil, true, err
	}
	rt.replay = replays
	defer func() { rt.replay = nil }()
	path := ""
	if r, ok := readers[0].(fluss.ScanPathReporter); ok {
		path = r.ScanPath()
	}
	rt.split = &splitState{scan: best, t: bestT, readers: readers, path: path}
	// Uninstrumented: EXPLAIN ANALYZE shows the aggregation's line, with
	// the workers and the path, over the plan as it was made; and the
	// workers share no counters.
	metrics := rt.Metrics
	rt.Metrics = nil
	op, err := Build(rt, p.root)
	rt.Metrics = metrics
	if rt.split != nil { // the parts were not built: their readers are ours
		for _, r := range readers {
			r.Close()
		}
		rt.split = nil
		if err == nil {
			op.Close()
			return nil, false, sqlerr.New(sqlerr.InternalError, "a parallel aggregation did not build its parts")
		}
	}
	if err != nil {
		replays.release()
		return nil, true, err
	}
	return &parallelOp{Operator: op, path: path, readers: readers, replays: replays}, true, nil
}

// parallelOp is a parallel aggregation's operator, reporting its workers
// and the chunks its split scan's parts read and skipped.
type parallelOp struct {
	exec.Operator
	path    string
	readers []fluss.RecordReader
	replays replays
}

func (o *parallelOp) Close() {
	o.Operator.Close()
	o.replays.release()
	o.replays = nil
}

// replays are the rows of the scans every part of a parallel aggregation
// reads whole, read once (parallelAgg.build).
type replays map[*scanNode]*replay

type replay struct {
	t    fluss.Table
	recs []arrow.RecordBatch
	sch  *arrow.Schema
}

// readReplays reads each of scans whole.
func readReplays(rt *Runtime, scans []*scanNode) (replays, error) {
	out := replays{}
	for _, sn := range scans {
		if out[sn] != nil {
			continue
		}
		t, err := rt.Tables.Table(rt.Ctx, sn.path)
		if err != nil {
			out.release()
			return nil, err
		}
		r, err := t.Scan(rt.Ctx, sn.scanOptions(rt))
		if err != nil {
			out.release()
			return nil, err
		}
		rp := &replay{t: t, sch: r.Schema()}
		out[sn] = rp
		for {
			rec, err := r.Next(rt.Ctx)
			if err != nil {
				r.Close()
				out.release()
				return nil, err
			}
			if rec == nil {
				break
			}
			rp.recs = append(rp.recs, rec)
		}
		r.Close()
	}
	return out, nil
}

func (rs replays) release() {
	for _, rp := range rs {
		for _, rec := range rp.recs {
			rec.Release()
		}
		rp.recs = nil
	}
}

// replayReader hands out a replay's records (each retained for the
// reader's consumer).
type replayReader struct {
	rp *replay
	i  int
}

func (r *replayReader) Schema() *arrow.Schema { return r.rp.sch }
func (r *replayReader) Close()                {}
func (r *replayReader) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if r.i >= len(r.rp.recs) {
		return nil, nil
	}
	rec := r.rp.recs[r.i]
	r.i++
	rec.Retain()
	return rec, nil
}

// ScanPath implements exec.PathReporter.
func (o *parallelOp) ScanPath() (string, int) { return o.path, len(o.readers) }

// ScanChunks implements exec.ChunkCounter: the parts' counts together.
func (o *parallelOp) ScanChunks() fluss.ChunkCounts {
	var cc fluss.ChunkCounts
	for _, r := range o.readers {
		if c, ok := r.(fluss.ChunkReporter); ok {
			cc = cc.Add(c.ScanChunks())
		}
	}
	return cc
}

// attachParallel gives the aggregateNode n (x lowered) its parallel form
// when x qualifies.
func attachParallel(x *binder.Aggregate, n Node) error {
	agg, ok := n.(*aggregateNode)
	if !ok || len(x.Aggs) == 0 || !splittable(x.Input) {
		return nil
	}
	for _, k := range x.GroupBy {
		if !deterministic(k) {
			return nil
		}
	}
	var partials []binder.AggCall
	at := make([]int, len(x.Aggs)) // each aggregate's first partial
	for i, c := range x.Aggs {
		if c.Distinct || c.Filter != nil || len(c.OrderBy) > 0 || len(c.Args) > 1 {
			return nil
		}
		for _, a := range c.Args {
			if !deterministic(a) {
				return nil
			}
		}
		at[i] = len(partials)
		switch c.Func {
		case "count", "min", "max":
			partials = append(partials, binder.AggCall{Func: c.Func, Args: c.Args, T: c.T})
		case "sum":
			t := c.Args[0].Type()
			switch {
			case t.IsInteger() || t.Kind == types.Decimal:
				partials = append(partials, binder.AggCall{Func: "sum", Args: c.Args, T: sumType(t)})
			case t.IsFloat():
				partials = append(partials, binder.AggCall{Func: "sum", Args: c.Args, T: c.T})
			default:
				return nil
			}
		case "avg":
			if t := c.Args[0].Type(); t.Kind != types.Float64 || c.T.Kind != types.Float64 {
				return nil
			}
			partials = append(partials, binder.AggCall{Func: "sum", Args: c.Args, T: types.Float64Type},
				binder.AggCall{Func: "count", Args: c.Args, T: types.Int64Type})
		default:
			return nil
		}
	}
	partial := binder.NewAggregate(x.Input, x.GroupBy, partials)
	pin, err := lowerNode(x.Input)
	if err != nil {
		return err
	}
	partN, err := lowerAggregateOver(partial, pin)
	if err != nil {
		return err
	}
	scans, others := splitCandidates(pin)
	if len(scans) == 0 {
		return nil
	}
	// The final aggregation over the partials' columns.
	pc := partial.Columns()
	ref := func(cols []binder.Column, i int) *binder.ColumnRef {
		return &binder.ColumnRef{Index: i, Name: cols[i].Name, T: cols[i].T}
	}
	parts := &partsNode{part: partN, out: partN.Schema()}
	nk := len(x.GroupBy)
	var finalKeys []binder.Expr
	for i := range nk {
		finalKeys = append(finalKeys, ref(pc, i))
	}
	var finals []binder.AggCall
	for _, pcall := range partials {
		i := nk + len(finals)
		f := binder.AggCall{Func: pcall.Func, Args: []binder.Expr{ref(pc, i)}, T: pcall.T}
		switch pcall.Func {
		case "count", "sum":
			f = finalSum(ref(pc, i), pcall.T) // aggpush.go
		}
		finals = append(finals, f)
	}
	final := binder.NewAggregate(&partsInput{cols: pc}, finalKeys, finals)
	finalN, err := lowerAggregateOver(final, parts)
	if err != nil {
		return err
	}
	fc := final.Columns()
	var exprs []binder.Expr
	for i := range nk {
		exprs = append(exprs, ref(fc, i))
	}
	for i, c := range x.Aggs {
		j := nk + at[i]
		var e binder.Expr = ref(fc, j)
		cast := func(e binder.Expr, t types.T) binder.Expr {
			if e.Type().Equal(t) {
				return e
			}
			return &binder.Cast{X: e, T: t.Nullable()}
		}
		switch c.Func {
		case "count":
			// no partial at all (no rows, no GROUP BY) is a count of 0
			e = &binder.Coalesce{Args: []binder.Expr{cast(e, types.Int64Type), &binder.Const{Value: int64(0), T: types.Int64Type}}, T: c.T}
		case "avg":
			e = avgOf(e, ref(fc, j+1), c.T) // aggpush.go
		default:
			e = cast(e, c.T)
		}
		exprs = append(exprs, e)
	}
	root := &projectNode{input: finalN, out: agg.out, exprs: make([]exec.Expr, len(exprs))}
	for i, e := range exprs {
		if root.exprs[i], err = lowerExpr(e); err != nil {
			return err
		}
	}
	agg.par = &parallelAgg{root: root, scans: scans, others: others}
	return nil
}

// splitCandidates returns the scans of a pipeline that may be split (the
// union over the parts of the pipeline's rows is its rows when only that
// scan is read in parts), and the others, which every part reads whole. A
// join distributes over a split of its inner side(s) only: both sides of
// an inner join, the preserved side of a left or right join (an unmatched
// row is emitted by the one part holding it) and the emitted side of a
// semi or anti join; neither side of a full join.
func splitCandidates(n Node) (scans, others []*scanNode) {
	var walk func(n Node, ok bool)
	walk = func(n Node, ok bool) {
		if s, isScan := n.(*scanNode); isScan {
			if ok {
				scans = append(scans, s)
			} else {
				others = append(others, s)
			}
		}
		if j, isJoin := n.(*joinNode); isJoin {
			left := ok && (j.typ == relop.InnerJoin || j.typ == relop.LeftJoin || j.typ == relop.SemiJoin || j.typ == relop.AntiJoin)
			right := ok && (j.typ == relop.InnerJoin || j.typ == relop.RightJoin)
			walk(j.left, left)
			walk(j.right, right)
			return
		}
		for _, in := range n.Inputs() {
			walk(in, ok)
		}
	}
	walk(n, true)
	return scans, others
}

// partsInput stands for the partial aggregations' rows under the final
// aggregation (binder.NewAggregate reads its input's columns).
type partsInput struct{ cols []binder.Column }

func (n *partsInput) Columns() []binder.Column { return n.cols }
func (n *partsInput) Children() []binder.Node  { return nil }

// splittable reports whether a pipeline may read one part of its largest
// table per worker with the union of the parts' rows the pipeline's rows:
// filters and projections of deterministic expressions over a table scan.
func splittable(n binder.Node) bool {
	switch x := n.(type) {
	case *binder.Filter:
		return deterministic(x.Cond) && splittable(x.Input)
	case *binder.Project:
		for _, e := range x.Exprs {
			if !deterministic(e) {
				return false
			}
		}
		return splittable(x.Input)
	case *binder.Join:
		// Each part joins its rows of the split table with the other
		// side whole, read once for all parts (parallelAgg.build's
		// replays); which side may be split is splitCandidates'.
		return (x.Cond == nil || deterministic(x.Cond)) && splittable(x.Left) && splittable(x.Right)
	case *binder.Scan:
		return !x.Changelog && !x.Binlog
	case *scanProjection:
		return !x.changelog
	}
	return false
}
