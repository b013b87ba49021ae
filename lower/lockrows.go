package lower

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/rowlock"
)

// lockRowsNode is binder.LockRows: exec.LockRows over its input.
type lockRowsNode struct {
	input Node
	info  fluss.TableInfo
	keyAt []int
	mode  rowlock.Mode
	wait  rowlock.Wait
	cond  exec.Expr
	exprs []exec.Expr
	// limit is the LIMIT right above, if any: no row past it is locked.
	limit *limitNode
}

func lowerLockRows(x *binder.LockRows) (Node, error) {
	in, err := lowerNode(x.Input)
	if err != nil {
		return nil, err
	}
	n := &lockRowsNode{input: in, info: x.Table, keyAt: x.KeyAt, mode: x.Mode, wait: x.Wait}
	if x.Cond != nil {
		if n.cond, err = lowerExpr(x.Cond); err != nil {
			return nil, err
		}
	}
	if n.exprs, err = LowerExprs(x.Exprs); err != nil {
		return nil, err
	}
	return n, nil
}

func (n *lockRowsNode) Schema() *arrow.Schema { return n.input.Schema() }
func (n *lockRowsNode) Inputs() []Node        { return oneInput(&n.input) }

func (n *lockRowsNode) Build(rt *Runtime) (exec.Operator, error) {
	t, err := rt.Tables.Table(rt.Ctx, n.info.Path)
	if err != nil {
		return nil, err
	}
	// most: 0 no limit, -1 none at all (LIMIT 0), else count + offset.
	var most int64
	if n.limit != nil && n.limit.count != nil {
		count, err := n.limit.evalInt(rt, n.limit.count)
		if err != nil {
			return nil, err
		}
		switch {
		case count == 0:
			most = -1
		case count > 0:
			most = count
			if n.limit.offset != nil {
				off, err := n.limit.evalInt(rt, n.limit.offset)
				if err != nil {
					return nil, err
				}
				most += max(off, 0)
			}
		}
	}
	in, err := Build(rt, n.input)
	if err != nil {
		return nil, err
	}
	return &exec.LockRows{EC: rt.EC, Input: in, Table: t, KeyAt: n.keyAt, Mode: n.mode, Wait: n.wait, Cond: n.cond, Exprs: n.exprs, Max: most}, nil
}

// evalInt evaluates a LIMIT or OFFSET expression; NULL is -1 (no limit).
func (n *limitNode) evalInt(rt *Runtime, e exec.Expr) (int64, error) {
	v, err := exec.EvalScalar(rt.EC, e)
	if err != nil || v == nil {
		return -1, err
	}
	return v.(int64), nil
}

func (n *lockRowsNode) Explain() (string, string) {
	d := n.mode.String() + " of " + n.info.Path.Table
	switch n.wait {
	case rowlock.NoWait:
		d += " NOWAIT"
	case rowlock.SkipLocked:
		d += " SKIP LOCKED"
	}
	return "lock_rows", fmt.Sprintf("%s (key columns %v)", d, n.keyAt)
}
