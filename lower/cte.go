package lower

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/exec/relop"
)

// cteScanNode reads the one evaluation of a WITH query that PostgreSQL
// evaluates once (binder/cte.go): every scan of the same binder.SharedCTE
// shares one relop.SharedRows per execution, which the first scan built
// runs from its own copy of the query's plan (the copies are the same plan,
// rewritten by the same rules).
type cteScanNode struct {
	cte  *binder.SharedCTE
	body Node
	out  *arrow.Schema
}

func lowerCTEScan(x *binder.CTEScan) (Node, error) {
	body, err := lowerNode(x.Body)
	if err != nil {
		return nil, err
	}
	return &cteScanNode{cte: x.CTE, body: body, out: schemaOf(x.Columns())}, nil
}

func (n *cteScanNode) Schema() *arrow.Schema     { return n.out }
func (n *cteScanNode) Inputs() []Node            { return []Node{n.body} }
func (n *cteScanNode) Explain() (string, string) { return "cte_scan", n.cte.Name }

func (n *cteScanNode) Build(rt *Runtime) (exec.Operator, error) {
	rows := rt.sharedCTEs[n.cte]
	if rows == nil {
		body, err := Build(rt, n.body)
		if err != nil {
			return nil, err
		}
		rows = relop.NewSharedRows(body, n.out, rt.Mem, rt.SpillDir, rt.EC.Mem)
		if rt.sharedCTEs == nil {
			rt.sharedCTEs = map[*binder.SharedCTE]*relop.SharedRows{}
		}
		rt.sharedCTEs[n.cte] = rows
	}
	rows.Retain()
	cte := n.cte
	return &relop.CTEScan{Rows: rows, Out: n.out, OnLast: func() {
		if rt.sharedCTEs[cte] == rows {
			delete(rt.sharedCTEs, cte) // a later build runs the query again
		}
	}}, nil
}
