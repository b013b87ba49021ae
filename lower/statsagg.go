package lower

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
)

// Aggregates answered from stored statistics (issue 27): an aggregation
// without GROUP BY, filter or DISTINCT over a whole table, whose
// aggregates are count(*), count(col) and min/max of integer columns, is
// answered, when the plan is built outside a transaction, from the table's
// statistics (fluss.StatsAnswerer: the embedded store's columnar image,
// when it holds the current state) without reading a row. When the store
// cannot answer exactly, the aggregation runs as planned. EXPLAIN ANALYZE
// shows the answer's scan path as "chunk statistics".

// statsAgg is the statistics form of an aggregateNode.
type statsAgg struct {
	path  fluss.TablePath
	cols  []int      // table columns asked about
	items []statItem // one per aggregate, in order
}

// statItem is one aggregate: count(*) (col -1), count(col), min or max.
type statItem struct {
	fn  string
	col int // index into statsAgg.cols; -1 for count(*)
}

// attachStats gives the aggregateNode n (x lowered) its statistics form
// when x qualifies.
func attachStats(x *binder.Aggregate, n Node) {
	agg, ok := n.(*aggregateNode)
	if !ok || len(x.GroupBy) > 0 || len(x.Aggs) == 0 {
		return
	}
	var path fluss.TablePath
	var proj []int
	switch in := x.Input.(type) {
	case *binder.Scan:
		if in.Changelog || in.Binlog {
			return
		}
		path = in.Table.Path
	case *scanProjection:
		if in.changelog {
			return
		}
		path, proj = in.table.Path, in.projection
	default:
		return
	}
	sa := &statsAgg{path: path}
	colAt := map[int]int{}
	for _, c := range x.Aggs {
		if c.Distinct && c.Func == "count" || c.Filter != nil || len(c.OrderBy) > 0 || len(c.Args) > 1 {
			return
		}
		if len(c.Args) == 0 {
			if c.Func != "count" {
				return
			}
			sa.items = append(sa.items, statItem{fn: "count", col: -1})
			continue
		}
		ref, ok := c.Args[0].(*binder.ColumnRef)
		if !ok {
			return
		}
		switch c.Func {
		case "count":
		case "min", "max":
			if !rangeKind(ref.Type()) { // chunkranges.go: int64 statistics
				return
			}
		default:
			return
		}
		tcol := ref.Index
		if proj != nil {
			if tcol >= len(proj) {
				return
			}
			tcol = proj[tcol]
		}
		at, seen := colAt[tcol]
		if !seen {
			at = len(sa.cols)
			colAt[tcol] = at
			sa.cols = append(sa.cols, tcol)
		}
		sa.items = append(sa.items, statItem{fn: c.Func, col: at})
	}
	if len(sa.cols) == 0 {
		sa.cols = []int{} // count(*) alone: no column, but not every column
	}
	agg.stats = sa
}

// build answers the aggregation from the table's statistics, or reports
// false to run it as planned.
func (sa *statsAgg) build(rt *Runtime, out *arrow.Schema) (exec.Operator, bool, error) {
	if !rt.Untransacted || rt.inject != nil || rt.split != nil {
		return nil, false, nil
	}
	t, err := rt.Tables.Table(rt.Ctx, sa.path)
	if err != nil {
		return nil, false, err
	}
	ans, ok := t.(fluss.StatsAnswerer)
	if !ok {
		return nil, false, nil
	}
	st, ok, err := ans.ScanStats(rt.Ctx, sa.cols)
	if err != nil || !ok || len(st.Columns) != len(sa.cols) {
		return nil, false, err
	}
	b := array.NewRecordBuilder(rt.EC.Mem, out)
	defer b.Release()
	for i, it := range sa.items {
		var v int64
		null := false
		switch {
		case it.col < 0:
			v = st.Rows
		case it.fn == "count":
			v = st.Columns[it.col].NonNull
		default:
			cs := st.Columns[it.col]
			if cs.NonNull > 0 && !cs.MinMax {
				return nil, false, nil
			}
			null, v = cs.NonNull == 0, cs.Min
			if it.fn == "max" {
				v = cs.Max
			}
		}
		if !appendInt(b.Field(i), v, null) {
			return nil, false, nil
		}
	}
	return &statsAnswer{rec: b.NewRecordBatch()}, true, nil
}

// appendInt appends v (or NULL) to an integer builder; false for another.
func appendInt(b array.Builder, v int64, null bool) bool {
	if null {
		b.AppendNull()
		return true
	}
	switch b := b.(type) {
	case *array.Int64Builder:
		b.Append(v)
	case *array.Int32Builder:
		b.Append(int32(v))
	case *array.Int16Builder:
		b.Append(int16(v))
	default:
		return false
	}
	return true
}

// statsAnswer returns its one row.
type statsAnswer struct {
	rec arrow.RecordBatch
}

func (o *statsAnswer) Schema() *arrow.Schema { return o.rec.Schema() }

func (o *statsAnswer) Next(context.Context) (arrow.RecordBatch, error) {
	r := o.rec
	o.rec = nil
	return r, nil
}

func (o *statsAnswer) Close() {}

// ScanPath implements exec.PathReporter.
func (o *statsAnswer) ScanPath() (string, int) { return "chunk statistics", 1 }
