package lower

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/types"
)

// Access paths beyond the point lookup of rules.go.

// prefixLookup reads the rows of a primary-key table whose bucket key is one
// of keys: only those keys' buckets (and, when the bucket key leads the
// primary key, only their key ranges) are read.
type prefixLookup struct {
	table      fluss.TableInfo
	keys       [][]binder.Expr // per key: one expression per bucket-key column, in bucket-key order
	projection []int
	cols       []binder.Column
}

func (n *prefixLookup) Columns() []binder.Column { return n.cols }
func (n *prefixLookup) Children() []binder.Node  { return nil }

// bucketKeyLookup turns Filter(Scan) into Filter(prefixLookup) when the
// table's bucket key is a proper subset of its primary key (bucket.key)
// and the filter's conjuncts fix every bucket-key column to constants or
// parameters (col = v, col IN (...)). The whole filter stays above the
// lookup, so results never change: the lookup only skips rows that cannot
// pass it. It runs after projection pushdown (so it also sees the scan of
// only some columns) and after the point-lookup rule, which takes a filter
// that fixes the whole primary key.
//
// As for point lookups, a value qualifies only when it has the column's
// own type, and floating-point and CHAR(n) bucket keys are left to the
// scan: their SQL equality is not their key encoding's.
func bucketKeyLookup(n binder.Node) binder.Node {
	f, ok := n.(*binder.Filter)
	if !ok {
		return rewriteChildren(n, bucketKeyLookup)
	}
	var info fluss.TableInfo
	var proj []int // leaf column -> table column
	var cols []binder.Column
	switch l := f.Input.(type) {
	case *binder.Scan:
		if l.Changelog || l.Binlog {
			return n
		}
		info, cols = l.Table, l.Columns()
		proj = make([]int, len(cols))
		for i := range proj {
			proj[i] = i
		}
	case *scanProjection:
		if l.changelog {
			return n
		}
		info, proj, cols = l.table, l.projection, l.cols
	default:
		return rewriteChildren(n, bucketKeyLookup)
	}
	bk := info.Descriptor.BucketKey
	pk := info.Descriptor.Schema.PrimaryKey
	if len(pk) == 0 || len(bk) == 0 || len(bk) >= len(pk) {
		return n
	}
	fixed := map[int][]binder.Expr{} // table column -> the values it may take
	for _, c := range conjuncts(f.Cond) {
		col, vals := asColumnInValues(c)
		if col == nil {
			continue
		}
		tc := proj[col.Index]
		if _, dup := fixed[tc]; !dup {
			fixed[tc] = vals
		}
	}
	keys := [][]binder.Expr{nil}
	for _, name := range bk {
		idx := info.ColumnIndex(name)
		vals, ok := fixed[idx]
		t := info.Descriptor.Schema.Columns[idx].Type
		if !ok || !exactKeyEquality(t) || len(keys)*len(vals) > maxLookupKeys {
			return n
		}
		var next [][]binder.Expr
		for _, k := range keys {
			for _, v := range vals {
				next = append(next, append(k[:len(k):len(k)], castToColumn(v, t)))
			}
		}
		keys = next
	}
	return &binder.Filter{Input: &prefixLookup{table: info, keys: keys, projection: slices.Clone(proj), cols: cols}, Cond: f.Cond}
}

// prefixNode is the blueprint of a prefix lookup.
type prefixNode struct {
	path       fluss.TablePath
	bucketKey  []string
	keys       [][]exec.Expr
	projection []int
	out        *arrow.Schema
	keySchema  *arrow.Schema   // the table's bucket-key columns, built once here
	prune      *partitionPrune // the partitions read (partitions.go); nil: all
}

func lowerPrefixLookup(x *prefixLookup) (Node, error) {
	keys := make([][]exec.Expr, len(x.keys))
	for i, k := range x.keys {
		for _, e := range k {
			le, err := lowerExpr(e)
			if err != nil {
				return nil, err
			}
			keys[i] = append(keys[i], le)
		}
	}
	return &prefixNode{path: x.table.Path, bucketKey: x.table.Descriptor.BucketKey, keys: keys, projection: x.projection,
		out: schemaOf(x.Columns()), keySchema: exec.BucketKeySchemaOf(x.table)}, nil
}

func (n *prefixNode) Schema() *arrow.Schema { return n.out }
func (n *prefixNode) Inputs() []Node        { return nil }

func (n *prefixNode) Build(rt *Runtime) (exec.Operator, error) {
	t, err := rt.Tables.Table(rt.Ctx, n.path)
	if err != nil {
		return nil, err
	}
	return &exec.PrefixScan{EC: rt.EC, Table: t, Keys: n.keys, Options: fluss.ScanOptions{Projection: n.projection, Partitions: n.prune.filter(rt.EC)},
		Out: n.out, KeySchema: n.keySchema}, nil
}

func (n *prefixNode) Explain() (string, string) {
	return "prefix_lookup", fmt.Sprintf("table=%s bucket_key=[%s] keys=%d columns=[%s]%s", n.path.Table, strings.Join(n.bucketKey, ", "), len(n.keys), fieldNames(n.out), n.prune.explain())
}

// changelogRange is a changelog scan bounded below by a log offset and/or a
// commit time: the store skips the batches wholly below the bounds.
type changelogRange struct {
	table        fluss.TableInfo
	projection   []int
	cols         []binder.Column
	fromOffset   binder.Expr // nil: no bound
	offsetStrict bool        // _log_offset > v rather than >=
	fromTime     binder.Expr // nil: no bound
}

func (n *changelogRange) Columns() []binder.Column { return n.cols }
func (n *changelogRange) Children() []binder.Node  { return nil }

// changelogBounds turns Filter(changelog scan) into a filter over a bounded
// changelog scan when a conjunct bounds _log_offset (>=, >, =) or
// _commit_timestamp (>=, >, =) from below by a constant or parameter. The
// filter stays: the bounds only let the store skip whole batches (a bucket
// log's batches below the offset, or committed before the time), never
// decide a row.
func changelogBounds(n binder.Node) binder.Node {
	f, ok := n.(*binder.Filter)
	if !ok {
		return rewriteChildren(n, changelogBounds)
	}
	var info fluss.TableInfo
	var proj []int
	var cols []binder.Column
	switch l := f.Input.(type) {
	case *binder.Scan:
		if !l.Changelog || l.Binlog {
			return rewriteChildren(n, changelogBounds)
		}
		info, cols = l.Table, l.Columns()
		proj = make([]int, len(cols))
		for i := range proj {
			proj[i] = i
		}
	case *scanProjection:
		if !l.changelog {
			return n
		}
		info, proj, cols = l.table, l.projection, l.cols
	default:
		return rewriteChildren(n, changelogBounds)
	}
	r := &changelogRange{table: info, projection: slices.Clone(proj), cols: cols}
	for _, c := range conjuncts(f.Cond) {
		col, val, op := asLowerBound(c)
		if col == nil {
			continue
		}
		switch proj[col.Index] {
		case 1: // _log_offset
			if r.fromOffset == nil && val.Type().Kind == types.Int64 {
				r.fromOffset, r.offsetStrict = val, op == binder.OpGt
			}
		case 2: // _commit_timestamp: microseconds at any precision up to 6
			if t := val.Type(); r.fromTime == nil && t.Kind == types.TimestampTZ && t.Precision <= 6 {
				r.fromTime = val
			}
		}
	}
	if r.fromOffset == nil && r.fromTime == nil {
		return n
	}
	return &binder.Filter{Input: r, Cond: f.Cond}
}

// asLowerBound matches col >= v, col > v, col = v and their mirrored forms
// (v <= col, ...), where v reads no row (boundValue); op is the form's
// operator as seen from the column. A timestamptz column may sit under a
// cast to another timestamptz precision (_commit_timestamp >= now() - ...
// compares at microseconds), which keeps its value.
func asLowerBound(e binder.Expr) (*binder.ColumnRef, binder.Expr, binder.Op) {
	b, ok := e.(*binder.BinaryOp)
	if !ok {
		return nil, nil, 0
	}
	column := func(x binder.Expr) *binder.ColumnRef {
		if c, ok := x.(*binder.Cast); ok && c.T.Kind == types.TimestampTZ && c.X.Type().Kind == types.TimestampTZ {
			x = c.X
		}
		col, _ := x.(*binder.ColumnRef)
		return col
	}
	mirror := map[binder.Op]binder.Op{binder.OpGe: binder.OpLe, binder.OpGt: binder.OpLt, binder.OpEq: binder.OpEq}
	for op, mop := range mirror {
		if col := column(b.L); col != nil && b.Op == op && boundValue(b.R) {
			return col, b.R, op
		}
		if col := column(b.R); col != nil && b.Op == mop && boundValue(b.L) {
			return col, b.L, op
		}
	}
	return nil, nil, 0
}

// boundValue reports whether e is computed from constants, parameters,
// non-volatile functions and the transaction's clock only, so that it can
// be evaluated once before the scan. now() and its synonyms are marked
// volatile to keep them from being folded into a prepared plan, but within
// one execution they are one value (PostgreSQL calls them stable).
func boundValue(e binder.Expr) bool {
	ok := true
	binder.Walk(e, func(x binder.Expr) {
		switch c := x.(type) {
		case *binder.Const, *binder.Param, *binder.Cast, *binder.BinaryOp, *binder.UnaryOp, *binder.Case, *binder.Coalesce, *binder.IsNull:
		case *binder.FuncCall:
			ok = ok && (!c.Volatile || stableClock(c.Name))
		default:
			ok = false
		}
	})
	return ok
}

// stableClock reports the clock functions whose value is fixed for a
// transaction (or statement): not clock_timestamp(), which moves.
func stableClock(name string) bool {
	switch name {
	case "now", "current_timestamp", "transaction_timestamp", "statement_timestamp":
		return true
	}
	return false
}

// changelogRangeNode is the blueprint of a bounded changelog scan.
type changelogRangeNode struct {
	path         fluss.TablePath
	projection   []int
	out          *arrow.Schema
	fromOffset   exec.Expr
	offsetStrict bool
	fromTime     exec.Expr
}

func lowerChangelogRange(x *changelogRange) (Node, error) {
	n := &changelogRangeNode{path: x.table.Path, projection: x.projection, out: schemaOf(x.Columns()), offsetStrict: x.offsetStrict}
	var err error
	if x.fromOffset != nil {
		if n.fromOffset, err = lowerExpr(x.fromOffset); err != nil {
			return nil, err
		}
	}
	if x.fromTime != nil {
		if n.fromTime, err = lowerExpr(x.fromTime); err != nil {
			return nil, err
		}
	}
	return n, nil
}

func (n *changelogRangeNode) Schema() *arrow.Schema { return n.out }
func (n *changelogRangeNode) Inputs() []Node        { return nil }

// bound evaluates a bound; NULL or an unusable value is no bound (the
// filter above then decides every row, as without this node).
func (n *changelogRangeNode) bound(rt *Runtime, e exec.Expr) (int64, error) {
	if e == nil {
		return 0, nil
	}
	v, err := exec.EvalScalar(rt.EC, e)
	if err != nil {
		return 0, err
	}
	x, ok := v.(int64)
	if !ok || x < 0 {
		return 0, nil
	}
	return x, nil
}

func (n *changelogRangeNode) Build(rt *Runtime) (exec.Operator, error) {
	off, err := n.bound(rt, n.fromOffset)
	if err != nil {
		return nil, err
	}
	if n.offsetStrict && off < math.MaxInt64 {
		off++
	}
	ts, err := n.bound(rt, n.fromTime)
	if err != nil {
		return nil, err
	}
	t, err := rt.Tables.Table(rt.Ctx, n.path)
	if err != nil {
		return nil, err
	}
	return &exec.TableScan{Table: t, Changelog: true, Options: fluss.ScanOptions{Projection: n.projection, FromOffset: off, FromTimestamp: ts}, Out: n.out}, nil
}

func (n *changelogRangeNode) Explain() (string, string) {
	d := fmt.Sprintf("table=%s columns=[%s]", n.path.Table, fieldNames(n.out))
	if n.fromOffset != nil {
		op := ">="
		if n.offsetStrict {
			op = ">"
		}
		d += " _log_offset" + op + n.fromOffset.String()
	}
	if n.fromTime != nil {
		d += " _commit_timestamp>=" + n.fromTime.String()
	}
	return "changelog_scan", d
}
