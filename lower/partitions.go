package lower

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/types"
)

// Partition pruning: a scan (or prefix lookup) of a partitioned table under
// a filter whose conjuncts compare a partition-key column with values
// (col = v, col IN (...), col < v, <=, >, >=, BETWEEN, and col <> v or
// NOT (col IN (...)), a DEFAULT partition's condition) reads only the
// partitions whose values can pass them (fluss.ScanOptions.Partitions).
// The filter stays above the scan, so results never change: pruning only
// skips partitions none of whose rows could pass. The values are evaluated
// when the plan is built, so a prepared statement's parameters prune too.
// A value is compared with a partition's in the form Fluss names the
// partition by (fluss.PartitionValue): strings, dates, times, timestamps,
// booleans and bytes order as their names do, integers by number; FLOAT,
// DOUBLE and CHAR keys are left unpruned (their SQL equality is not their
// names' equality: -0.0 = 0.0, blank padding).

// pruneCond is one conjunct: the partition key at key compared by op
// with vals (OpEq: any of them, an IN list; OpNe: none of them, a NOT IN
// list).
type pruneCond struct {
	key  int
	op   binder.Op
	vals []binder.Expr
}

// prunedLeaf marks a scan leaf (binder.Scan, scanProjection or
// prefixLookup) of a partitioned table with the conditions that prune its
// partitions; it lowers to the leaf's own node, pruning.
type prunedLeaf struct {
	leaf  binder.Node
	table fluss.TableInfo
	conds []pruneCond
}

func (n *prunedLeaf) Columns() []binder.Column { return n.leaf.Columns() }
func (n *prunedLeaf) Children() []binder.Node  { return nil }

// prunable reports whether a partition key of type t prunes.
func prunable(t types.T) bool {
	switch t.Kind {
	case types.String, types.Bool, types.Bytes, types.Binary, types.Int8, types.Int16, types.Int32, types.Int64,
		types.Date, types.Time, types.Timestamp, types.TimestampTZ:
		return true
	}
	return false
}

// partitionPruning turns Filter(leaf) into Filter(prunedLeaf(leaf)) for a
// partitioned table's leaf whose filter constrains a partition key.
func partitionPruning(n binder.Node) binder.Node {
	f, ok := n.(*binder.Filter)
	if !ok {
		return rewriteChildren(n, partitionPruning)
	}
	var info fluss.TableInfo
	var proj []int // leaf column -> table column (nil: the same)
	off := 0       // changelog leaves: the metadata columns come first
	switch l := f.Input.(type) {
	case *binder.Scan:
		if l.Binlog {
			return n
		}
		info = l.Table
		if l.Changelog {
			off = len(fluss.ChangelogColumns(fluss.TableInfo{}))
		}
	case *scanProjection:
		info, proj = l.table, l.projection
		if l.changelog {
			off = len(fluss.ChangelogColumns(fluss.TableInfo{}))
		}
	case *prefixLookup:
		info, proj = l.table, l.projection
	default:
		return rewriteChildren(n, partitionPruning)
	}
	if !info.IsPartitioned() {
		return n
	}
	tableColumn := func(i int) int {
		if proj != nil {
			if i >= len(proj) {
				return -1
			}
			i = proj[i]
		}
		return i - off
	}
	keyOf := func(col *binder.ColumnRef) int {
		tc := tableColumn(col.Index)
		if tc < 0 || tc >= len(info.Descriptor.Schema.Columns) {
			return -1
		}
		c := info.Descriptor.Schema.Columns[tc]
		for k, name := range info.Descriptor.PartitionKeys {
			if name == c.Name && prunable(c.Type) {
				return k
			}
		}
		return -1
	}
	var conds []pruneCond
	for _, c := range conjuncts(f.Cond) {
		if col, vals := asColumnInValues(c); col != nil {
			if k := keyOf(col); k >= 0 {
				conds = append(conds, pruneCond{key: k, op: binder.OpEq, vals: vals})
			}
			continue
		}
		if col, op, v := asColumnRange(c); col != nil {
			if k := keyOf(col); k >= 0 {
				conds = append(conds, pruneCond{key: k, op: op, vals: []binder.Expr{v}})
			}
			continue
		}
		if col, vals := asColumnNotInValues(c); col != nil {
			if k := keyOf(col); k >= 0 {
				conds = append(conds, pruneCond{key: k, op: binder.OpNe, vals: vals})
			}
		}
	}
	if len(conds) == 0 {
		return n
	}
	return &binder.Filter{Input: &prunedLeaf{leaf: f.Input, table: info, conds: conds}, Cond: f.Cond}
}

// asColumnNotInValues matches NOT (col IN (v, ...)), col NOT IN (v, ...)
// (col <> v AND ...) and col <> v (v <> col), where the values read no
// column and have the column's type.
func asColumnNotInValues(e binder.Expr) (*binder.ColumnRef, []binder.Expr) {
	switch x := e.(type) {
	case *binder.UnaryOp:
		if x.Op == binder.OpNot {
			return asColumnInValues(x.X)
		}
	case *binder.BinaryOp:
		switch x.Op {
		case binder.OpNe:
			eq := *x
			eq.Op = binder.OpEq
			return asColumnInValues(&eq)
		case binder.OpAnd: // NOT IN's items (an Eager AND, one conjunct)
			lc, lv := asColumnNotInValues(x.L)
			rc, rv := asColumnNotInValues(x.R)
			if lc == nil || rc == nil || lc.Index != rc.Index {
				return nil, nil
			}
			return lc, append(lv[:len(lv):len(lv)], rv...)
		}
	}
	return nil, nil
}

// asColumnRange matches col < v, col <= v, col > v, col >= v (or v op col,
// flipped) where v reads no column and has the column's type.
func asColumnRange(e binder.Expr) (*binder.ColumnRef, binder.Op, binder.Expr) {
	b, ok := e.(*binder.BinaryOp)
	if !ok {
		return nil, 0, nil
	}
	flip := map[binder.Op]binder.Op{binder.OpLt: binder.OpGt, binder.OpLe: binder.OpGe, binder.OpGt: binder.OpLt, binder.OpGe: binder.OpLe}
	if _, ok := flip[b.Op]; !ok {
		return nil, 0, nil
	}
	try := func(l, r binder.Expr) (*binder.ColumnRef, binder.Expr) {
		col, ok := l.(*binder.ColumnRef)
		if !ok || !isValue(r) {
			return nil, nil
		}
		if rt := r.Type(); !rt.Same(&col.T) {
			return nil, nil
		}
		return col, r
	}
	if c, v := try(b.L, b.R); c != nil {
		return c, b.Op, v
	}
	if c, v := try(b.R, b.L); c != nil {
		return c, flip[b.Op], v
	}
	return nil, 0, nil
}

// partitionPrune is the lowered pruning of a scan node.
type partitionPrune struct {
	keys  []string
	types []types.T
	conds []loweredCond
	// shown is what EXPLAIN says of the partitions read, once
	// ResolvePartitions has listed them ("" before).
	shown atomic.Pointer[string]
}

type loweredCond struct {
	key  int
	op   binder.Op
	vals []exec.Expr
}

// lowerPruned lowers a prunedLeaf: its leaf's node, with the pruning.
func lowerPruned(x *prunedLeaf) (Node, error) {
	inner, err := lowerNode(x.leaf)
	if err != nil {
		return nil, err
	}
	p := &partitionPrune{keys: x.table.Descriptor.PartitionKeys}
	for _, k := range p.keys {
		p.types = append(p.types, x.table.Descriptor.Schema.Columns[x.table.ColumnIndex(k)].Type)
	}
	for _, c := range x.conds {
		lc := loweredCond{key: c.key, op: c.op}
		for _, v := range c.vals {
			le, err := lowerExpr(v)
			if err != nil {
				return nil, err
			}
			lc.vals = append(lc.vals, le)
		}
		p.conds = append(p.conds, lc)
	}
	switch n := inner.(type) {
	case *scanNode:
		n.prune = p
	case *prefixNode:
		n.prune = p
	}
	return inner, nil
}

// boundCond is a condition whose values are evaluated, as partition
// values.
type boundCond struct {
	key  int
	op   binder.Op
	vals []string
	// none: a value is NULL or cannot be a partition value, so no
	// partition passes (col = NULL, col < NULL are never true).
	none bool
}

// bind evaluates the conditions' values; ok is false when one cannot be
// evaluated (then nothing is pruned).
// exprs are the values the pruning computes when the scan is built (for
// the report: they run in the scan's context).
func (p *partitionPrune) exprs() []exec.Expr {
	if p == nil {
		return nil
	}
	var out []exec.Expr
	for _, c := range p.conds {
		out = append(out, c.vals...)
	}
	return out
}

func (p *partitionPrune) bind(ec *exec.EvalContext) ([]boundCond, bool) {
	out := make([]boundCond, 0, len(p.conds))
	for _, c := range p.conds {
		bc := boundCond{key: c.key, op: c.op}
		for _, e := range c.vals {
			v, err := exec.EvalScalar(ec, e)
			if err != nil {
				return nil, false
			}
			if v == nil {
				if c.op != binder.OpEq {
					bc.none = true // x NOT IN (NULL, ...) is never true
				}
				continue // x IN (NULL, ...): the NULL matches nothing
			}
			arr, err := types.ConstArray(memory.DefaultAllocator, v, p.types[c.key], 1)
			if err != nil {
				return nil, false
			}
			s, err := fluss.PartitionValue(p.types[c.key], arr, 0, p.keys[c.key])
			arr.Release()
			if err != nil {
				return nil, false
			}
			bc.vals = append(bc.vals, s)
		}
		if c.op == binder.OpEq && len(bc.vals) == 0 {
			bc.none = true
		}
		out = append(out, bc)
	}
	return out, true
}

// filter is the partition filter of the conditions bound with ec's
// parameters; nil (read every partition) when p is nil or a value
// cannot be evaluated.
func (p *partitionPrune) filter(ec *exec.EvalContext) fluss.PartitionFilter {
	if p == nil {
		return nil
	}
	conds, ok := p.bind(ec)
	if !ok {
		return nil
	}
	return func(pi fluss.PartitionInfo) bool {
		for _, c := range conds {
			if c.none || c.key >= len(pi.Values) {
				return false
			}
			if !c.passes(pi.Values[c.key], p.types[c.key]) {
				return false
			}
		}
		return true
	}
}

func (c boundCond) passes(v string, t types.T) bool {
	switch c.op {
	case binder.OpEq:
		return slices.Contains(c.vals, v)
	case binder.OpNe:
		return !slices.Contains(c.vals, v)
	}
	cmp := ComparePartitionValues(v, c.vals[0], t)
	switch c.op {
	case binder.OpLt:
		return cmp < 0
	case binder.OpLe:
		return cmp <= 0
	case binder.OpGt:
		return cmp > 0
	case binder.OpGe:
		return cmp >= 0
	}
	return true
}

// ComparePartitionValues orders two partition values of a key of type t:
// integers by number, the rest as their names (fluss.PartitionValue's
// forms order as their values do). Pruning and the DEFAULT partition's
// listed bounds (engine/pgpartdefault.go) order by it.
func ComparePartitionValues(a, b string, t types.T) int {
	switch t.Kind {
	case types.Int8, types.Int16, types.Int32, types.Int64:
		x, err1 := strconv.ParseInt(a, 10, 64)
		y, err2 := strconv.ParseInt(b, 10, 64)
		if err1 == nil && err2 == nil {
			switch {
			case x < y:
				return -1
			case x > y:
				return 1
			}
			return 0
		}
	}
	return strings.Compare(a, b)
}

// explain is EXPLAIN's description of the pruning: the partitions read
// when ResolvePartitions listed them, else the conditions.
func (p *partitionPrune) explain() string {
	if p == nil {
		return ""
	}
	if s := p.shown.Load(); s != nil {
		return " partitions=" + *s
	}
	parts := make([]string, len(p.conds))
	for i, c := range p.conds {
		vals := make([]string, len(c.vals))
		for j, v := range c.vals {
			vals[j] = v.String()
		}
		switch c.op {
		case binder.OpEq:
			parts[i] = fmt.Sprintf("%s IN (%s)", p.keys[c.key], strings.Join(vals, ", "))
		case binder.OpNe:
			parts[i] = fmt.Sprintf("%s NOT IN (%s)", p.keys[c.key], strings.Join(vals, ", "))
		default:
			parts[i] = fmt.Sprintf("%s %s %s", p.keys[c.key], c.op, vals[0])
		}
	}
	return " partition_filter=[" + strings.Join(parts, " AND ") + "]"
}

// PartitionLister lists a partitioned table's partitions (the store's
// fluss.PartitionCatalog).
type PartitionLister func(ctx context.Context, path fluss.TablePath) ([]fluss.PartitionInfo, error)

// ResolvePartitions lists, for EXPLAIN, the partitions each pruned scan of
// plan reads with ec's parameters, so that its line names them ("[dt=x,
// dt=y] (2 of 5)"). A listing that fails leaves the conditions shown.
func ResolvePartitions(ctx context.Context, plan Node, ec *exec.EvalContext, list PartitionLister) {
	var walk func(n Node)
	walk = func(n Node) {
		var p *partitionPrune
		var path fluss.TablePath
		switch x := n.(type) {
		case *scanNode:
			p, path = x.prune, x.path
		case *prefixNode:
			p, path = x.prune, x.path
		}
		if p != nil {
			// a plan EXPLAIN saw before (a prepared statement's) shows
			// this EXPLAIN's partitions, or its conditions when they
			// cannot be listed
			p.shown.Store(nil)
			if f := p.filter(ec); f != nil {
				if ps, err := list(ctx, path); err == nil {
					var kept []string
					for _, pi := range ps {
						if f(pi) {
							kept = append(kept, fluss.PartitionSpec(p.keys, pi.Values))
						}
					}
					s := fmt.Sprintf("[%s] (%d of %d)", strings.Join(kept, ", "), len(kept), len(ps))
					p.shown.Store(&s)
				}
			}
		}
		for _, in := range n.Inputs() {
			walk(in)
		}
	}
	walk(plan)
}
