package engine

import (
	"context"
	"time"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// explainWrite is EXPLAIN [ANALYZE] of an INSERT, UPDATE or DELETE, as
// PostgreSQL's: the write's node over the plan of the rows it writes
// (whose projection computes an UPDATE's SET expressions). ANALYZE runs
// the write, inside the session's transaction rules as the statement
// itself would (an implicit transaction commits it, a block keeps it until
// COMMIT or ROLLBACK), and reports the rows written as the write node's.
func (s *session) explainWrite(ctx context.Context, ps *statement, b *binder.Explain, rt *lower.Runtime, backend *exec.BackendRequest) (pgwire.Result, error) {
	verb, table := "", ""
	switch w := b.Statement.(type) {
	case *binder.Insert:
		verb, table = "INSERT", w.Table.Path.Table
	case *binder.Update:
		verb, table = "UPDATE", w.Table.Path.Table
	case *binder.Delete:
		verb, table = "DELETE", w.Table.Path.Table
	case *binder.Merge:
		verb, table = "MERGE", w.Table.Path.Table
	default:
		return nil, sqlerr.NotSupported("EXPLAIN of this statement")
	}
	root := lower.Modify(verb, table, ps.plan, ps.merge, ps.ret)
	if !b.Analyze {
		return explainResult(s.eng, root, nil, b.Format, backend), nil
	}
	rt.Metrics = map[lower.Node]*exec.Metrics{}
	rt.MetricsLevel, _ = exec.ParseMetricsLevel(b.Metrics)
	m, ec := lower.AnalyzeModify(rt, root)
	var ret *exec.Returned
	if ps.writeCols != nil {
		saved := ps.cols
		ps.cols = ps.writeCols
		ret = ps.returned()
		ps.cols = saved
	}
	start := time.Now()
	res, rows, err := s.runWrite(ctx, ps, b.Statement, rt, ec, ret, &exec.Recheck{})
	if err != nil {
		return nil, err
	}
	res.Close() // its RETURNING rows are not shown, as in PostgreSQL
	m.Observe(0, rows, time.Since(start).Nanoseconds())
	m.Finish()
	return explainResult(s.eng, root, rt.Metrics, b.Format, backend), nil
}
