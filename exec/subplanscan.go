package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// An uncorrelated x op ANY | ALL (S) that PostgreSQL does not hash (an
// operator other than = ANY, or one whose types have no hash support;
// SubqueryExpr.Hashed says which) is a SubPlan over a Material node of S
// (make_subplan), which ExecScanSubPlan rescans for each outer row that
// evaluates it, reading S's rows one by one: ANY stops at its first true
// comparison, ALL at its first false, and Material reads S itself only
// as far as the furthest row an outer row has needed. So S's rows after
// that are never computed, and an error one of them would raise is not
// the statement's. evalScanned does the same: the rows read so far are
// kept for the execution (ec.subqueries, not complete until S's end),
// and S is read further, batch by batch, only when an outer row's
// comparisons with every row read so far decided nothing. The batches a
// filter or projection in S returns end before a failing row
// (roworder.go), so S fails only when a row needs the failing one.

// scannedRows reads an uncorrelated subquery's rows past those its
// execution has read so far (rows, kept across batches of the outer
// plan): a plan opened when first needed within one Eval, reading past
// the rows an earlier Eval's run read (the plan gives them in the same
// order), closed when that Eval ends.
type scannedRows struct {
	e    *SubqueryExpr
	ec   *EvalContext
	rows *subqueryRows
	op   Operator
}

// more reads S's next batch into rows (rows.complete at S's end).
func (s *scannedRows) more() error {
	ctx := s.ec.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	skip := 0
	if s.op == nil {
		op, err := s.e.Open(s.ec.Untraced())
		if err != nil {
			return err
		}
		s.op, skip = op, s.rows.values.Len()
	}
	for {
		b, err := s.op.Next(ctx)
		if err != nil {
			return err
		}
		if b == nil {
			s.rows.complete = true
			return nil
		}
		c := firstColumn(b)
		if skip >= c.Len() {
			skip -= c.Len()
			c.Release()
			continue
		}
		if skip > 0 {
			tail := array.NewSlice(c, int64(skip), int64(c.Len()))
			c.Release()
			c, skip = tail, 0
		}
		if s.rows.values.Len() == 0 {
			// the first rows (no rows yet are of no type)
			s.rows.values.Release()
			s.rows.values = c
			return nil
		}
		merged, err := array.Concatenate([]arrow.Array{s.rows.values, c}, s.ec.Mem)
		c.Release()
		if err != nil {
			return err
		}
		s.rows.values.Release()
		s.rows.values = merged
		return nil
	}
}

func (s *scannedRows) close() {
	if s.op != nil {
		s.op.Close()
	}
}

// evalScanned is Eval of an uncorrelated x op ANY | ALL that PostgreSQL
// does not hash (see above): per row of batch in order, its comparisons
// with S's rows until one decides, reading S further only when the rows
// read so far decide nothing. X is computed for a row only once S has a
// row (lazyX), as PostgreSQL's testexpr is per inner row.
func (e *SubqueryExpr) evalScanned(ec *EvalContext, batch arrow.RecordBatch) (arrow.Array, error) {
	r, ok := ec.subqueries[e]
	if !ok {
		r = &subqueryRows{values: array.NewNull(0)}
		if ec.subqueries == nil {
			ec.subqueries = map[*SubqueryExpr]*subqueryRows{}
		}
		ec.subqueries[e] = r
	}
	src := &scannedRows{e: e, ec: ec, rows: r}
	defer src.close()
	x := &lazyX{e: e.X, ec: ec, batch: batch}
	defer x.release()
	n := int(batch.NumRows())
	out := newBoolBuilder(ec.Mem, n, true)
	var pc pairCache
	for i := 0; i < n; i++ {
		v, isNull, err := e.scanRow(src, x, &pc, i)
		if err != nil {
			out.finish().Release()
			return nil, err
		}
		if isNull {
			out.setNull(i)
		} else {
			out.set(i, v)
		}
	}
	return out.finish(), nil
}

// scanRow is row i's x op ANY | ALL over S's rows, read as far as it
// decides: ANY true at its first true comparison, ALL false at its
// first false; at S's end, over no row ANY false and ALL true (X never
// computed), else NULL when a comparison was, else ANY false, ALL true.
func (e *SubqueryExpr) scanRow(src *scannedRows, x *lazyX, pc *pairCache, i int) (val, isNull bool, err error) {
	decisive := e.Mode == AnyMode
	from, sawNull := 0, false
	for {
		m := src.rows.values.Len()
		if from == m {
			if src.rows.complete {
				break
			}
			if err := src.more(); err != nil {
				return false, false, err
			}
			continue
		}
		xa, xi, err := x.at(i)
		if err != nil {
			return false, false, err
		}
		pair, err := pc.get(e, xa, src.rows.values)
		if err != nil {
			return false, false, err
		}
		for j := from; j < m; j++ {
			res, null := pair(xi, j)
			switch {
			case null:
				sawNull = true
			case res == decisive:
				return res, false, nil
			}
		}
		from = m
	}
	if sawNull {
		return false, true, nil
	}
	return !decisive, false, nil
}

// pairCache keeps comparePairs' function for X's array and S's rows read
// so far while neither changes (a new one when S is read further or X is
// computed per row).
type pairCache struct {
	x, y arrow.Array
	pair func(i, j int) (bool, bool)
}

func (c *pairCache) get(e *SubqueryExpr, x, y arrow.Array) (func(i, j int) (bool, bool), error) {
	if c.pair != nil && c.x == x && c.y == y {
		return c.pair, nil
	}
	pair, err := comparePairs(e.Op, x, y, e.RowWise)
	if err != nil {
		return nil, err
	}
	c.x, c.y, c.pair = x, y, pair
	return pair, nil
}
