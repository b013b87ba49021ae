package lower

import (
	"math"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/types"
)

// Chunk skipping (issue 27): a filter directly over a table scan hands the
// scan the ranges its conjuncts put on integer columns (col < v, col <= v,
// col = v, col >= v, col > v and mirrored, v read from no row), as
// fluss.ScanOptions.Ranges, evaluated when the plan is built (parameters
// included). A store reading stored chunks with statistics (the embedded
// store's columnar image) leaves out the chunks whose min/max or null
// count exclude a range; the filter stays and decides every row. EXPLAIN
// ANALYZE shows the chunks read and skipped on the scan's line.

// scanRange is one conjunct's bound on a table column.
type scanRange struct {
	col int       // the table column
	out int       // the scan's output column of it
	op  binder.Op // as seen from the column
	val exec.Expr
}

// rangeOps mirrors each usable operator (v op col is col mirror(op) v).
var rangeOps = map[binder.Op]binder.Op{binder.OpLt: binder.OpGt, binder.OpLe: binder.OpGe, binder.OpEq: binder.OpEq,
	binder.OpGe: binder.OpLe, binder.OpGt: binder.OpLt}

// addScanRanges gives sn the ranges of cond's conjuncts.
func addScanRanges(sn *scanNode, cond binder.Expr) error {
	if sn.changelog || sn.binlog {
		return nil
	}
	for _, c := range conjuncts(cond) {
		b, ok := c.(*binder.BinaryOp)
		if !ok {
			continue
		}
		mop, ok := rangeOps[b.Op]
		if !ok {
			continue
		}
		col, val, op := asColumn(b.L), b.R, b.Op
		if col == nil {
			col, val, op = asColumn(b.R), b.L, mop
		}
		if col == nil || !boundValue(val) || !rangeKind(col.Type()) || val.Type().Kind != col.Type().Kind {
			continue
		}
		tcol := col.Index
		if sn.projection != nil {
			if tcol >= len(sn.projection) {
				continue
			}
			tcol = sn.projection[tcol]
		}
		v, err := lowerExpr(val)
		if err != nil {
			return err
		}
		sn.ranges = append(sn.ranges, scanRange{col: tcol, op: op, val: v, out: col.Index})
	}
	return nil
}

func asColumn(e binder.Expr) *binder.ColumnRef {
	c, _ := e.(*binder.ColumnRef)
	return c
}

// rangeKind reports the column types whose stored statistics are int64
// values of the same order as the SQL values.
func rangeKind(t types.T) bool {
	switch t.Kind {
	case types.Int16, types.Int32, types.Int64:
		return true
	}
	return false
}

// rangesAt evaluates the scan's ranges for one execution; a bound that is
// NULL or cannot be evaluated here gives no range (the filter decides).
func (n *scanNode) rangesAt(rt *Runtime) []fluss.ColumnRange {
	var out []fluss.ColumnRange
	for _, r := range n.ranges {
		x, err := exec.EvalScalar(rt.EC, r.val)
		if err != nil {
			continue
		}
		var v int64
		switch x := x.(type) {
		case int16:
			v = int64(x)
		case int32:
			v = int64(x)
		case int64:
			v = x
		default:
			continue
		}
		cr := fluss.ColumnRange{Column: r.col, Lo: math.MinInt64, Hi: math.MaxInt64}
		switch r.op {
		case binder.OpLt:
			if v == math.MinInt64 {
				continue // matches nothing; left to the filter
			}
			cr.Hi = v - 1
		case binder.OpLe:
			cr.Hi = v
		case binder.OpEq:
			cr.Lo, cr.Hi = v, v
		case binder.OpGe:
			cr.Lo = v
		case binder.OpGt:
			if v == math.MaxInt64 {
				continue
			}
			cr.Lo = v + 1
		}
		out = append(out, cr)
	}
	return out
}
