package lower

import (
	"sync"

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
	runs := rt.cteRuns()
	rows := runs.get(n.cte)
	if rows == nil {
		// Built outside the lock: the body may scan another WITH query.
		body, err := Build(rt, n.body)
		if err != nil {
			return nil, err
		}
		rows = runs.add(n.cte, relop.NewSharedRows(body, n.out, rt.Mem, rt.SpillDir, rt.EC.Mem))
	}
	return &relop.CTEScan{Rows: rows, Out: n.out}, nil
}

// CTERuns are the evaluations of the WITH queries run once in one
// execution. PostgreSQL keeps a WITH query's rows until the statement
// ends, so a scan opened after every earlier one closed (the second of
// two scalar subqueries, ARRAY(...), a correlated subquery's next row)
// reads the same rows: they are held here, shared by every copy of the
// Runtime that a subquery or LATERAL item builds its plan with, until
// Runtime.Close. The zero value is ready to use.
type CTERuns struct {
	// mu guards rows: a subquery may be opened from the goroutines of a
	// parallel operator.
	mu   sync.Mutex
	rows map[*binder.SharedCTE]*relop.SharedRows
}

func (c *CTERuns) get(cte *binder.SharedCTE) *relop.SharedRows {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.rows[cte]
}

// add records rows as cte's evaluation and returns it, unless another
// build recorded one meanwhile: then rows are closed (never read) and
// that one is returned.
func (c *CTERuns) add(cte *binder.SharedCTE, rows *relop.SharedRows) *relop.SharedRows {
	c.mu.Lock()
	prev := c.rows[cte]
	if prev == nil {
		if c.rows == nil {
			c.rows = map[*binder.SharedCTE]*relop.SharedRows{}
		}
		c.rows[cte] = rows
	}
	c.mu.Unlock()
	if prev != nil {
		rows.Close()
		return prev
	}
	return rows
}

// cteRuns returns the execution's WITH query evaluations. Build sets them
// on every Runtime it builds with, before any operator runs (so before
// any goroutine of a parallel operator opens a subquery), and a subquery
// calls it before copying rt so that the copies (each run of the subquery
// builds from its own) share them with rt.
func (rt *Runtime) cteRuns() *CTERuns {
	if rt.CTEs == nil {
		rt.CTEs = &CTERuns{}
	}
	return rt.CTEs
}

// Close frees what the execution holds until its end: the rows of its WITH
// queries run once. It is called after every operator built from rt (or
// a copy of it) is closed; a Runtime closed again, or never used, frees
// nothing.
func (rt *Runtime) Close() {
	runs := rt.CTEs
	if runs == nil {
		return
	}
	runs.mu.Lock()
	rows := runs.rows
	runs.rows = nil
	runs.mu.Unlock()
	for _, r := range rows {
		r.Close()
	}
}
