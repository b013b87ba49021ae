package engine

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/pgwire"
)

// MERGE (binder.Merge): its join runs once into memory, each row with the
// WHEN clause it picked; no target row may be changed twice (21000); then
// the actions run as the writes they are, each reading those rows: the
// DELETE, each UPDATE clause's rows (exec.Update: row locks, and the
// second pass of a row a concurrent transaction changed), each INSERT
// clause's rows (exec.Insert with RefuseExisting: a key that exists is
// 23505, as in PostgreSQL, where an upsert would replace it). A second pass runs the join again over
// the newest rows and writes only the rows the first pass deferred, each
// with the clause it picks now (PostgreSQL's EvalPlanQual re-evaluates
// the WHEN clauses from the first), and the source rows that joined them
// and join no target row any more, which take the WHEN NOT MATCHED
// clauses (as PostgreSQL 15's MERGE does when a concurrent change made
// its row fail the join).

var mergeTags = newCountTags("MERGE ")

// mergePlans are the lowered plans of a MERGE's actions (its join is
// statement.plan).
type mergePlans struct {
	updates []lower.Node
	del     lower.Node
	inserts []lower.Node
}

// prepareMerge plans a MERGE's join and actions.
func (ps *statement) prepareMerge(ctx context.Context, b *binder.Merge) (err error) {
	if ps.plan, err = lower.PlanIn(ctx, b.Rows); err != nil {
		return err
	}
	mp := &mergePlans{}
	for _, u := range b.Updates {
		p, err := lower.PlanIn(ctx, u.Source)
		if err != nil {
			return err
		}
		mp.updates = append(mp.updates, p)
	}
	if b.Delete != nil {
		if mp.del, err = lower.PlanIn(ctx, b.Delete.Keys); err != nil {
			return err
		}
	}
	for _, ins := range b.Inserts {
		p, err := lower.PlanIn(ctx, ins.Source)
		if err != nil {
			return err
		}
		mp.inserts = append(mp.inserts, p)
	}
	ps.mergePlans = mp
	return nil
}

// mergePass is one pass of a MERGE: its first, or the second over the
// deferred rows (retry set).
type mergePass struct {
	rows  exec.MergeRows
	retry *mergeRetry
}

// mergeRetry is what the second pass writes: the deferred target rows
// (only) and the source rows that joined them (sources).
type mergeRetry struct {
	only, sources map[string]bool
}

// runMerge runs a MERGE (see above) and returns its result and the rows
// it wrote.
func (s *session) runMerge(ctx context.Context, ps *statement, b *binder.Merge, rt *lower.Runtime, ec *exec.EvalContext, rc *exec.Recheck) (pgwire.Result, int64, error) {
	// an UPDATE or DELETE reads rows to write them; an INSERT into a
	// primary-key table reads whether its key exists: both need row locks
	if len(b.Changes) > 0 || len(b.Inserts) > 0 && b.Table.HasPrimaryKey() {
		if err := s.needRowLocks("MERGE"); err != nil {
			return nil, 0, err
		}
	}
	t, err := s.writeTable(rt.Ctx, "MERGE", b.Table)
	if err != nil {
		return nil, 0, err
	}
	pass := &mergePass{rows: exec.MergeRows{Info: b.Table, KeyCols: b.KeyCols, MatchedAt: b.MatchedAt, SourceFrom: b.MatchedAt + 1, SourceTo: b.ActionAt}}
	rows, err := s.mergePass(ctx, ps, b, t, rt, ec, rc, pass)
	if err == nil && pass.retry != nil {
		s.startLocking(s.writeTxn())
		var again int64
		again, err = s.mergePass(ctx, ps, b, t, rt, ec, &exec.Recheck{Only: rc.Deferred}, pass)
		rows += again
	}
	if err != nil {
		return nil, 0, err
	}
	return mergeTags.result(rows, nil), rows, nil
}

// mergePass runs the join and the actions once; on the first pass (pass.retry
// nil) it leaves in pass.retry what a second must write, when its writes
// deferred rows.
func (s *session) mergePass(ctx context.Context, ps *statement, b *binder.Merge, t *pendingTable, rt *lower.Runtime, ec *exec.EvalContext, rc *exec.Recheck, pass *mergePass) (int64, error) {
	rt.Tables = s.runtimeTables()
	if s.withSnap != nil { // the statement's snapshot (modifyingwith.go)
		rt.Tables = s.withSnap.over(rt.Tables)
	}
	src, err := lower.Build(rt, ps.plan)
	if err != nil {
		return 0, err
	}
	var batches []arrow.RecordBatch
	defer func() {
		b.Rel.Set(nil)
		for _, x := range batches {
			x.Release()
		}
	}()
	for {
		x, err := src.Next(ctx)
		if err != nil {
			src.Close()
			return 0, err
		}
		if x == nil {
			break
		}
		batches = append(batches, x)
	}
	src.Close()
	if pass.retry != nil {
		kept, err := pass.rows.Retry(ec, batches, pass.retry.only, pass.retry.sources)
		batches = kept
		if err != nil {
			return 0, err
		}
	}
	if err := pass.rows.CheckTargets(batches, b.ActionAt, b.Changes, rc.Only); err != nil {
		return 0, err
	}
	b.Rel.Set(batches)
	var rows int64
	build := func(plan lower.Node) (exec.Operator, error) { return lower.Build(rt, plan) }
	mp := ps.mergePlans
	if mp.del != nil {
		op, err := build(mp.del)
		if err != nil {
			return rows, err
		}
		del := exec.Delete{EC: ec, Table: t, Source: op, Recheck: rc}
		err = del.Run(ctx)
		rows += del.Rows
		if err != nil {
			return rows, err
		}
	}
	if t.fk != nil && len(mp.updates) > 0 {
		// an UPDATE's deletes of moved keys pair with its next upserts,
		// as a plain UPDATE's do (fk.go); the DELETE's above did not
		t.fk.moving = true
		defer func() {
			if t.fk != nil {
				t.fk.moving = false
			}
		}()
	}
	for i, plan := range mp.updates {
		op, err := build(plan)
		if err != nil {
			return rows, err
		}
		u := b.Updates[i]
		up := exec.Update{EC: ec, Table: t, Source: op, KeyChanged: u.KeyChanged, KeyLock: u.UniqueChanged, Recheck: rc}
		err = up.Run(ctx)
		rows += up.Rows
		if err != nil {
			return rows, err
		}
	}
	if t.fk != nil {
		t.fk.moving = false
	}
	if pass.retry == nil && len(rc.Deferred) > 0 {
		// the rows of the deferred targets' sources, for the second pass
		sources, err := pass.rows.DeferredSources(batches, rc.Deferred)
		if err != nil {
			return rows, err
		}
		pass.retry = &mergeRetry{only: rc.Deferred, sources: sources}
	}
	for _, plan := range mp.inserts {
		op, err := build(plan)
		if err != nil {
			return rows, err
		}
		ins := &exec.Insert{EC: ec, Table: t, Source: op, RefuseExisting: true}
		err = ins.Run(ctx)
		rows += ins.Rows
		if err != nil {
			return rows, err
		}
	}
	return rows, nil
}
