package lower

import (
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
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
	keySchema  *arrow.Schema // the table's bucket-key columns, built once here
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
	return &exec.PrefixScan{EC: rt.EC, Table: t, Keys: n.keys, Options: fluss.ScanOptions{Projection: n.projection}, Out: n.out, KeySchema: n.keySchema}, nil
}

func (n *prefixNode) Explain() (string, string) {
	return "prefix_lookup", fmt.Sprintf("table=%s bucket_key=[%s] keys=%d columns=[%s]", n.path.Table, strings.Join(n.bucketKey, ", "), len(n.keys), fieldNames(n.out))
}
