package lower

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/exec/relop"
	"github.com/sqlgate/sqlgate/types"
)

// maxRecursion bounds the iterations of a recursive WITH query: a
// recursive term that never stops producing rows fails with 54000 after
// this many runs instead of running until the client or the disk gives
// out (PostgreSQL has no such bound; statement_timeout and cancel reach
// the loop as well).
const maxRecursion = 1_000_000

// recursiveUnionNode is a recursive WITH query (relop.RecursiveUnion); its
// recursive term is instantiated again for every iteration, over the
// working table its workTableScanNode reads.
type recursiveUnionNode struct {
	name        string
	nonRec, rec Node
	all         bool
	forms       []types.KeyForm // the columns' key forms (relop.RecursiveUnion.Forms)
	wt          *binder.WorkTable
	out         *arrow.Schema
}

// workTableScanNode reads the working table of the recursiveUnionNode
// above it (PostgreSQL's WorkTable Scan).
type workTableScanNode struct {
	name string
	wt   *binder.WorkTable
	out  *arrow.Schema
}

// lowerRecursive lowers a RecursiveUnion and the WorkTableScan of its
// recursive term. The rules of rules.go rewrite each term as a plan of
// its own (rewriteChildren), never across the union.
func lowerRecursive(n binder.Node) (Node, error) {
	switch x := n.(type) {
	case *binder.WorkTableScan:
		return &workTableScanNode{name: x.WT.Name, wt: x.WT, out: schemaOf(x.Columns())}, nil
	case *binder.RecursiveUnion:
		terms := make([]Node, 2)
		for i, t := range []binder.Node{x.NonRec, x.Rec} {
			var err error
			if terms[i], err = lowerNode(t); err != nil {
				return nil, err
			}
		}
		return &recursiveUnionNode{name: x.Name, nonRec: terms[0], rec: terms[1], all: x.All, forms: keyForms(x.Columns(), nil), wt: x.WT, out: schemaOf(x.Columns())}, nil
	}
	return nil, nil
}

func (n *recursiveUnionNode) Schema() *arrow.Schema { return n.out }
func (n *recursiveUnionNode) Inputs() []Node        { return []Node{n.nonRec, n.rec} }
func (n *recursiveUnionNode) Explain() (string, string) {
	if n.all {
		return "recursive_union", n.name + " UNION ALL"
	}
	return "recursive_union", n.name + " UNION"
}

func (n *recursiveUnionNode) Build(rt *Runtime) (exec.Operator, error) {
	nonRec, err := Build(rt, n.nonRec)
	if err != nil {
		return nil, err
	}
	wt := relop.NewWorkTable()
	if rt.workTables == nil {
		rt.workTables = map[*binder.WorkTable]*relop.WorkTable{}
	}
	rt.workTables[n.wt] = wt
	// The first run of the recursive term is built now, so that EXPLAIN
	// ANALYZE links its metrics under this node; later runs add to them.
	first, err := Build(rt, n.rec)
	if err != nil {
		nonRec.Close()
		return nil, err
	}
	op := &relop.RecursiveUnion{Name: n.name, NonRec: nonRec, WT: wt, Out: n.out, All: n.all, Forms: n.forms, MaxIterations: maxRecursion,
		Mem: rt.Mem, SpillDir: rt.SpillDir, Alloc: rt.EC.Mem}
	op.BuildRec = func() (exec.Operator, error) {
		if first != nil {
			f := first
			first = nil
			return f, nil
		}
		rt.workTables[n.wt] = wt
		saved := rt.again
		rt.again = true
		defer func() { rt.again = saved }()
		return Build(rt, n.rec)
	}
	return &closeAlso{Operator: op, also: func() {
		if first != nil {
			first.Close()
		}
	}}, nil
}

// closeAlso closes another operator with its own.
type closeAlso struct {
	exec.Operator
	also func()
}

func (o *closeAlso) Close() {
	o.Operator.Close()
	o.also()
}

func (n *workTableScanNode) Schema() *arrow.Schema     { return n.out }
func (n *workTableScanNode) Inputs() []Node            { return nil }
func (n *workTableScanNode) Explain() (string, string) { return "worktable_scan", n.name }
func (n *workTableScanNode) Build(rt *Runtime) (exec.Operator, error) {
	return &relop.WorkTableScan{WT: rt.workTables[n.wt], Out: n.out}, nil
}
