package lower

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// lateralNode is a join whose right input reads the left row (binder's
// Lateral): the right plan is built again for every left row
// (exec.LateralJoin), as a correlated subquery's is.
type lateralNode struct {
	left, right Node
	outer       []exec.Expr
	leftJoin    bool
	cond        exec.Expr
	kind        string
	out         *arrow.Schema
}

func lowerLateral(x *binder.Lateral) (Node, error) {
	l, err := lowerNode(x.Left)
	if err != nil {
		return nil, err
	}
	// the rules rewrite the left input only: the right one is trimmed
	// as a subquery's plan is (its unread aggregates dropped, a
	// degenerate grouping read from nothing), as PostgreSQL plans a
	// LATERAL subquery it does not pull up as a query of its own
	right := trimSubqueryPlan(x.Right)
	r, err := lowerNode(right)
	if err != nil {
		return nil, err
	}
	n := &lateralNode{left: l, right: r, leftJoin: x.Type == binder.LeftJoin, kind: x.Type.String(), out: schemaOf(x.Columns())}
	// a right side that no longer reads the left row (its aggregation
	// became one row read from nothing) computes none of the values it
	// read: PostgreSQL computes a pulled-up derived table's expression
	// inside the LATERAL subquery that reads it (pullup_replace_vars)
	uncorrelated := !nodeCorrelated(right)
	for _, o := range x.Outer {
		if uncorrelated {
			o = nullOf(o.Type())
		}
		lo, err := lowerExpr(o)
		if err != nil {
			return nil, err
		}
		n.outer = append(n.outer, lo)
	}
	if x.Cond != nil {
		if n.cond, err = lowerExpr(x.Cond); err != nil {
			return nil, err
		}
	}
	return n, nil
}

func (n *lateralNode) Schema() *arrow.Schema { return n.out }
func (n *lateralNode) Inputs() []Node        { return []Node{n.left, n.right} }
func (n *lateralNode) Explain() (string, string) {
	parts := make([]string, len(n.outer))
	for i, o := range n.outer {
		parts[i] = o.String()
	}
	d := fmt.Sprintf("%s lateral, per left row: %s", n.kind, strings.Join(parts, ", "))
	if n.cond != nil {
		d += " on " + n.cond.String()
	}
	return "lateral_join", d
}

func (n *lateralNode) Build(rt *Runtime) (exec.Operator, error) {
	l, err := Build(rt, n.left)
	if err != nil {
		return nil, err
	}
	right := n.right
	return &exec.LateralJoin{EC: rt.EC, Left: l, Outer: n.outer, LeftJoin: n.leftJoin, Cond: n.cond, Out: n.out,
		Open: func(ec *exec.EvalContext) (exec.Operator, error) {
			rt0, ok := ec.Env.(*Runtime)
			if !ok {
				return nil, sqlerr.New(sqlerr.InternalError, "LATERAL item run without a runtime")
			}
			sub := *rt0
			sub.Metrics, sub.parent, sub.EC = nil, nil, ec
			return Build(&sub, right)
		}}, nil
}
