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
// DELETE, each UPDATE clause's rows (exec.Update: row locks, deferring a
// row a concurrent transaction changed), each INSERT clause's rows
// (exec.Insert with RefuseExisting: a key that exists is 23505, as in
// PostgreSQL, where an upsert would replace it). A second pass re-checks
// the deferred rows alone, as PostgreSQL's EvalPlanQual does (mergeRecheck):
// each join row of a deferred target is evaluated again over the target's
// newest version and the same source row (binder.Merge.Recheck), its WHEN
// clauses from the first; a source row whose target is gone or no longer
// joins it takes the WHEN NOT MATCHED clauses (as PostgreSQL 15's MERGE
// does). The actions then run over those rows only.

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
	ps.recheckPlan, err = lower.PlanIn(ctx, b.Recheck.Plan)
	return err
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
	rc.GoneUnmatched = true
	m := exec.MergeRows{Info: b.Table, KeyCols: b.KeyCols, MatchedAt: b.MatchedAt, SourceFrom: b.MatchedAt + 1, SourceTo: b.ActionAt}
	batches, err := s.mergeJoin(ctx, ps, rt)
	defer func() { releaseBatches(batches) }()
	var rows int64
	if err == nil {
		rows, err = s.mergeActions(ctx, ps, b, t, rt, ec, rc, batches, m)
	}
	if err == nil && len(rc.Deferred) > 0 {
		s.startLocking(s.writeTxn())
		var again []arrow.RecordBatch
		again, err = s.mergeRecheck(ctx, ps, b, t, rt, ec, batches, m, rc)
		defer func() { releaseBatches(again) }()
		if err == nil {
			var n int64
			n, err = s.mergeActions(ctx, ps, b, t, rt, ec, &exec.Recheck{Only: rc.Deferred}, again, m)
			rows += n
		}
	}
	if err != nil {
		return nil, 0, err
	}
	return mergeTags.result(rows, nil), rows, nil
}

// mergeJoin runs a MERGE's join into memory: its rows, each with the WHEN
// clause it picked.
func (s *session) mergeJoin(ctx context.Context, ps *statement, rt *lower.Runtime) ([]arrow.RecordBatch, error) {
	rt.Tables = s.runtimeTables()
	if s.withSnap != nil { // the statement's snapshot (modifyingwith.go)
		rt.Tables = s.withSnap.over(rt.Tables)
	}
	src, err := lower.Build(rt, ps.plan)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	var batches []arrow.RecordBatch
	for {
		x, err := src.Next(ctx)
		if err != nil {
			releaseBatches(batches)
			return nil, err
		}
		if x == nil {
			return batches, nil
		}
		batches = append(batches, x)
	}
}

// mergeRecheck builds the join rows of a MERGE's second pass from its
// first pass's (batches), as PostgreSQL's EvalPlanQual re-checks a target
// row a concurrent transaction changed: each row joined to a target whose
// key is in rc.Deferred is evaluated again over the target's newest version
// and the SAME source row (not a fresh join, which would read the
// source's newer rows or pair the target with others): its ON condition
// and its WHEN clauses, from the first. A target that is gone, or no
// longer joins its source row, leaves that source row NOT MATCHED.
func (s *session) mergeRecheck(ctx context.Context, ps *statement, b *binder.Merge, t *pendingTable, rt *lower.Runtime, ec *exec.EvalContext, batches []arrow.RecordBatch, m exec.MergeRows, rc *exec.Recheck) (out []arrow.RecordBatch, err error) {
	found, gone, err := m.RecheckRows(ctx, ec, t, batches, rc)
	defer func() {
		releaseBatches(found)
		releaseBatches(gone)
		if err != nil {
			releaseBatches(out)
			out = nil
		}
	}()
	if err != nil {
		return nil, err
	}
	run := func(in []arrow.RecordBatch, each func(arrow.RecordBatch) error) error {
		if len(in) == 0 {
			return nil
		}
		b.Recheck.Rel.Set(in)
		defer b.Recheck.Rel.Set(nil)
		rt.Tables = s.runtimeTables()
		op, err := lower.Build(rt, ps.recheckPlan)
		if err != nil {
			return err
		}
		defer op.Close()
		for {
			x, err := op.Next(ctx)
			if err != nil || x == nil {
				return err
			}
			if err := each(x); err != nil {
				return err
			}
		}
	}
	err = run(found, func(x arrow.RecordBatch) error {
		keep, unmatched, err := m.RecheckSplit(ec, x)
		if err != nil {
			return err
		}
		out = append(out, keep)
		if unmatched != nil {
			gone = append(gone, unmatched)
		}
		return nil
	})
	if err != nil {
		return out, err
	}
	err = run(gone, func(x arrow.RecordBatch) error {
		out = append(out, m.Trim(x))
		return nil
	})
	return out, err
}

// mergeActions runs a MERGE's actions over its join rows (batches): those
// of its first pass, with rc collecting the target rows to re-check, or
// of its second (rc.Only).
func (s *session) mergeActions(ctx context.Context, ps *statement, b *binder.Merge, t *pendingTable, rt *lower.Runtime, ec *exec.EvalContext, rc *exec.Recheck, batches []arrow.RecordBatch, m exec.MergeRows) (int64, error) {
	defer b.Rel.Set(nil)
	if err := m.CheckTargets(batches, b.ActionAt, b.Changes, rc.Only); err != nil {
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

func releaseBatches(bs []arrow.RecordBatch) {
	for _, b := range bs {
		b.Release()
	}
}
