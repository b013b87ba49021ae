package lower

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// modifyNode heads the EXPLAIN of an INSERT, UPDATE or DELETE, as
// PostgreSQL's ModifyTable node does: the write of its input's rows (the
// plan computing them: an UPDATE's SET expressions are its projection)
// into a table, with the expressions the write evaluates itself
// (ON CONFLICT DO UPDATE's, INSERT's RETURNING). It is never built: the
// engine runs the write over its input's operator.
type modifyNode struct {
	verb  string
	table string
	input Node
	exprs []exec.Expr
}

// Modify is the EXPLAIN plan of a write: verb (INSERT, UPDATE, DELETE) into
// table of source's rows, evaluating exprs itself.
func Modify(verb, table string, source Node, exprs ...[]exec.Expr) Node {
	n := &modifyNode{verb: strings.ToLower(verb), table: table, input: source}
	for _, es := range exprs {
		n.exprs = append(n.exprs, es...)
	}
	return n
}

var emptySchema = arrow.NewSchema(nil, nil)

func (n *modifyNode) Schema() *arrow.Schema     { return emptySchema }
func (n *modifyNode) Inputs() []Node            { return oneInput(&n.input) }
func (n *modifyNode) Explain() (string, string) { return n.verb, "table=" + n.table }
func (n *modifyNode) Build(*Runtime) (exec.Operator, error) {
	return nil, sqlerr.New(sqlerr.InternalError, "a %s node is not built", n.verb)
}

// AnalyzeModify readies rt (its Metrics set) to run the write of modify
// plan root under EXPLAIN ANALYZE: the source plan built next with rt
// reports as root's input. It returns root's metrics, which the caller
// completes with Observe and Finish once the write has run, and the
// context in which the write evaluates its own expressions.
func AnalyzeModify(rt *Runtime, root Node) (*exec.Metrics, *exec.EvalContext) {
	m := &exec.Metrics{Level: rt.MetricsLevel, Kernels: &exec.KernelLog{}}
	rt.Metrics[root] = m
	rt.parent = m
	nr := exec.NodeRequest{Default: rt.EC.Backend, Families: rt.EC.Families}
	if rt.Backends != nil {
		nr = rt.Backends.ForNode(nodeKind(root))
	}
	return m, rt.EC.ForNode(nr, m.Kernels)
}
