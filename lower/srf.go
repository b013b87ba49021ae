package lower

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// tableFuncNode runs a set-returning function in FROM (binder.TableFunc).
type tableFuncNode struct {
	fn   *binder.TableFunc
	args []exec.Expr
	out  *arrow.Schema
}

func lowerTableFunc(x *binder.TableFunc) (Node, error) {
	n := &tableFuncNode{fn: x, out: schemaOf(x.Columns())}
	for _, a := range x.Args {
		la, err := lowerExpr(a)
		if err != nil {
			return nil, err
		}
		n.args = append(n.args, la)
	}
	return n, nil
}

func (n *tableFuncNode) Schema() *arrow.Schema { return n.out }
func (n *tableFuncNode) Inputs() []Node        { return nil }
func (n *tableFuncNode) Build(rt *Runtime) (exec.Operator, error) {
	return &exec.TableFunc{EC: rt.EC, Args: n.args, Rows: n.fn.Func.Rows, Ordinality: n.fn.Ordinality, Out: n.out}, nil
}
func (n *tableFuncNode) Explain() (string, string) {
	parts := ""
	for i, a := range n.args {
		if i > 0 {
			parts += ", "
		}
		parts += a.String()
	}
	if n.fn.Ordinality {
		return "table_function", fmt.Sprintf("%s(%s) with ordinality", n.fn.Func.Name, parts)
	}
	return "table_function", fmt.Sprintf("%s(%s)", n.fn.Func.Name, parts)
}

// projectSetNode runs the set-returning calls of a SELECT list
// (binder.ProjectSet).
type projectSetNode struct {
	input Node
	calls []exec.SetCall
	names []string
	out   *arrow.Schema
}

func lowerProjectSet(x *binder.ProjectSet) (Node, error) {
	in, err := lowerNode(x.Input)
	if err != nil {
		return nil, err
	}
	n := &projectSetNode{input: in, out: schemaOf(x.Columns())}
	for _, c := range x.Calls {
		call := exec.SetCall{Rows: c.Func.Rows}
		for _, a := range c.Args {
			la, err := lowerExpr(a)
			if err != nil {
				return nil, err
			}
			call.Args = append(call.Args, la)
		}
		n.calls = append(n.calls, call)
		n.names = append(n.names, c.Func.Name)
	}
	return n, nil
}

func (n *projectSetNode) Schema() *arrow.Schema { return n.out }
func (n *projectSetNode) Inputs() []Node        { return []Node{n.input} }
func (n *projectSetNode) Build(rt *Runtime) (exec.Operator, error) {
	in, err := Build(rt, n.input)
	if err != nil {
		return nil, err
	}
	return &exec.ProjectSet{EC: rt.EC, Input: in, Calls: n.calls, Out: n.out}, nil
}
func (n *projectSetNode) Explain() (string, string) {
	parts := ""
	for i, c := range n.calls {
		if i > 0 {
			parts += ", "
		}
		args := ""
		for k, a := range c.Args {
			if k > 0 {
				args += ", "
			}
			args += a.String()
		}
		parts += n.names[i] + "(" + args + ")"
	}
	return "project_set", parts
}

// lowerSetReturning lowers the plan nodes of set-returning functions (the
// hook in lowerNode's switch).
func lowerSetReturning(n binder.Node) (Node, error) {
	switch x := n.(type) {
	case *binder.TableFunc:
		return lowerTableFunc(x)
	case *binder.ProjectSet:
		return lowerProjectSet(x)
	case *binder.RowsFrom:
		return lowerRowsFrom(x)
	}
	return nil, sqlerr.New(sqlerr.InternalError, "%T is not a set-returning node", n)
}

// rowsFromNode runs ROWS FROM's functions side by side (binder.RowsFrom).
type rowsFromNode struct {
	inputs     []Node
	ordinality bool
	out        *arrow.Schema
}

func lowerRowsFrom(x *binder.RowsFrom) (Node, error) {
	n := &rowsFromNode{ordinality: x.Ordinality, out: schemaOf(x.Columns())}
	for _, in := range x.Inputs {
		l, err := lowerNode(in)
		if err != nil {
			return nil, err
		}
		n.inputs = append(n.inputs, l)
	}
	return n, nil
}

func (n *rowsFromNode) Schema() *arrow.Schema { return n.out }
func (n *rowsFromNode) Inputs() []Node        { return n.inputs }
func (n *rowsFromNode) Build(rt *Runtime) (exec.Operator, error) {
	ins := make([]exec.Operator, len(n.inputs))
	for i, in := range n.inputs {
		op, err := Build(rt, in)
		if err != nil {
			for _, b := range ins[:i] {
				b.Close()
			}
			return nil, err
		}
		ins[i] = op
	}
	return &exec.RowsFrom{EC: rt.EC, Inputs: ins, Ordinality: n.ordinality, Out: n.out}, nil
}
func (n *rowsFromNode) Explain() (string, string) {
	if n.ordinality {
		return "rows_from", "with ordinality"
	}
	return "rows_from", ""
}
