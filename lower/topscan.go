package lower

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
)

// A top-N (ORDER BY col LIMIT N) of one integer, date or timestamp key
// over a table scan, with only projections between, hands the scan a
// fluss.TopHint: a store that reads stored chunks (the embedded store's
// columnar image) reads each chunk's sort column first and leaves out the
// rows that N rows before them already beat, and so the chunks with none
// the top-N could keep, without reading their other columns. The top-N
// above still decides; the hint only saves reading rows it would drop. The
// embedded store's primary-key order is not SQL order (fluss/format's
// TestKeyEncodingOrder), so ORDER BY <key> LIMIT N takes this path too.
// EXPLAIN shows top_n_hint=COLUMN on the scan's line; EXPLAIN ANALYZE the
// rows the scan handed out and the chunks it left out (chunks_top_pruned).

// scanTop is the hint of the top-N being built, for the scan it names.
type scanTop struct {
	scan *scanNode
	hint fluss.TopHint
}

// hintTop marks the scan that n's hint goes to, for EXPLAIN.
func (n *sortNode) hintTop() {
	if sc, col := n.hintedScan(); sc != nil {
		sc.topHint = sc.out.Field(col).Name
	}
}

// hintedScan returns the scan a top-N n hints, and the scan's output
// column of n's key, when n sorts by one key that projections carry from
// a plain scan's integer, date or timestamp column (nil: none), or from
// such a scan under a filter that is all ranges on its columns (the
// keyset page: WHERE id > $1; the hint then carries the ranges, hintAt).
// Build asks again rather than keep a pointer: later rules may copy the
// nodes.
func (n *sortNode) hintedScan() (*scanNode, int) {
	if len(n.keys) != 1 {
		return nil, 0
	}
	col := n.keys[0].Column
	in := n.input
	for {
		switch x := in.(type) {
		case *filterNode:
			sc, ok := x.input.(*scanNode)
			if !ok || !sc.rangesWhole || x.gate != nil {
				return nil, 0
			}
			in = sc
			continue
		case *projectNode:
			c, ok := x.exprs[col].(*exec.ColExpr)
			if !ok {
				return nil, 0
			}
			col, in = c.Index, x.input
			continue
		case *scanNode:
			if x.changelog || x.binlog || x.limit != 0 {
				return nil, 0
			}
			switch x.out.Field(col).Type.ID() {
			case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.DATE32, arrow.TIMESTAMP:
				return x, col
			}
		}
		return nil, 0
	}
}

// hintAt is n's hint to scan sc (hintedScan's) of top rows in one
// execution, false when it has none: a range of the filter above sc that
// this execution's values leave out (a NULL bound) makes the filter more
// than the ranges the store would check.
func (n *sortNode) hintAt(rt *Runtime, sc *scanNode, col int, top int64) (fluss.TopHint, bool) {
	k := n.keys[0]
	h := fluss.TopHint{Column: col, Desc: k.Desc, NullsFirst: k.NullsFirst, N: top}
	if _, filtered := n.filterAbove(sc); !filtered {
		return h, true
	}
	rs := sc.rangesAt(rt)
	if len(rs) != len(sc.ranges) {
		return fluss.TopHint{}, false
	}
	for i := range rs {
		rs[i].Column = sc.ranges[i].out
	}
	h.Ranges = rs
	return h, true
}

// filterAbove reports whether a filter sits between n and sc.
func (n *sortNode) filterAbove(sc *scanNode) (*filterNode, bool) {
	in := n.input
	for {
		switch x := in.(type) {
		case *projectNode:
			in = x.input
		case *filterNode:
			return x, x.input == sc
		default:
			return nil, false
		}
	}
}
