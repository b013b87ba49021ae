package engine

import (
	"context"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/pgwire"
)

// Queries: SELECT (with a locking clause: rowlocks.go's lockedQuery) and
// EXPLAIN [ANALYZE] of a query.

// execQuery runs a query: one with a locking clause to its end
// (rowlocks.go), any other streamed to the client as it is read.
func (s *session) execQuery(ctx context.Context, ps *statement, st *execState) (pgwire.Result, error) {
	rt := &st.rt
	if ps.locked != nil {
		return s.lockedQuery(ctx, rt, ps)
	}
	op, err := lower.BuildForClient(rt, ps.plan)
	if err != nil {
		return nil, err
	}
	st.res = queryResult{op: op, verb: "SELECT", sess: s, rt: rt}
	return &st.res, nil
}

// execExplain is EXPLAIN [ANALYZE] of a query (of a write:
// explainwrite.go).
func (s *session) execExplain(ctx context.Context, ps *statement, b *binder.Explain, rt *lower.Runtime, backend *exec.BackendRequest) (pgwire.Result, error) {
	s.explainPartitions(ctx, ps.plan, rt.EC) // partitions.go
	if _, ok := b.Statement.(*binder.Query); !ok {
		return s.explainWrite(ctx, ps, b, rt, backend) // explainwrite.go
	}
	if !b.Analyze {
		return explainResult(s.eng, ps.plan, nil, b.Format, backend), nil
	}
	// EXPLAIN ANALYZE runs the plan, discarding its rows, and reports
	// what each node did.
	// The plan is built as for a client (a root scan reads ahead),
	// measuring what METRICS asks (the binder checked the level).
	rt.Metrics = map[lower.Node]*exec.Metrics{}
	rt.MetricsLevel, _ = exec.ParseMetricsLevel(b.Metrics)
	op, err := lower.BuildForClient(rt, ps.plan)
	if err != nil {
		return nil, err
	}
	for {
		batch, err := op.Next(ctx)
		if err != nil {
			op.Close()
			return nil, err
		}
		if batch == nil {
			break
		}
		batch.Release()
	}
	op.Close()
	rt.Metrics[ps.plan].Finish()
	return explainResult(s.eng, ps.plan, rt.Metrics, b.Format, backend), nil
}
