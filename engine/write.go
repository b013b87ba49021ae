package engine

import (
	"context"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// INSERT, UPDATE and DELETE: planning what they write (prepareWrite) and
// running them into the transaction's tables (runWrite, writeTable).

// prepareWrite plans an INSERT, UPDATE or DELETE: the plan of the rows it
// writes, the expressions it evaluates itself, and its RETURNING columns.
func (ps *statement) prepareWrite(ctx context.Context, bound binder.Statement) (cols []pgwire.ResultColumn, err error) {
	if ps.viewChecks, err = lowerViewChecks(bound); err != nil {
		return nil, err
	}
	switch b := bound.(type) {
	case *binder.Insert:
		if ps.plan, err = lower.PlanIn(ctx, b.Source); err != nil {
			return nil, err
		}
		if b.OnConflictUpdate != nil {
			// DO UPDATE's WHERE, when written, rides last in the list
			exprs := b.OnConflictUpdate
			if b.OnConflictWhere != nil {
				exprs = append(exprs[:len(exprs):len(exprs)], b.OnConflictWhere)
			}
			merge, ferr := lower.FoldExprs(ctx, exprs)
			if ferr != nil {
				// raised when planned, as PostgreSQL's: each execution
				// fails with it
				ps.plan, merge = lower.Failing(b.Source, ps.plan, ferr), exprs
			}
			if ps.merge, err = lower.LowerExprs(merge); err != nil {
				return nil, err
			}
			ps.mergeWhere = nil
			if b.OnConflictWhere != nil {
				ps.merge, ps.mergeWhere = ps.merge[:len(b.OnConflictUpdate)], ps.merge[len(b.OnConflictUpdate)]
			}
		}
		if b.Returning != nil {
			if ps.ret, err = lower.LowerExprs(b.Returning.Exprs); err != nil {
				return nil, err
			}
			cols = returningColumns(b.Returning)
		}
	case *binder.Update:
		if ps.plan, err = lower.PlanIn(ctx, b.Source); err != nil {
			return nil, err
		}
		if err = ps.prepareRecheck(ctx, b.Recheck); err != nil {
			return nil, err
		}
		cols = returningColumns(b.Returning)
	case *binder.Delete:
		if ps.plan, err = lower.PlanIn(ctx, b.Keys); err != nil {
			return nil, err
		}
		if err = ps.prepareRecheck(ctx, b.Recheck); err != nil {
			return nil, err
		}
		cols = returningColumns(b.Returning)
	case *binder.Merge:
		err = ps.prepareMerge(ctx, b) // merge.go
	}
	return cols, nil
}

// runWrite runs the INSERT, UPDATE or DELETE bound (ps's, or the one its
// EXPLAIN ANALYZE explains) with rt, the write's own expressions in ec, and
// returns its result and the rows it wrote; ret receives its RETURNING rows
// (nil: none). rc is the first pass's Recheck of an UPDATE or DELETE, a
// zero one in the caller's execution state (on the stack here it escaped,
// through the operators, to one allocation per UPDATE).
func (s *session) runWrite(ctx context.Context, ps *statement, bound binder.Statement, rt *lower.Runtime, ec *exec.EvalContext, ret *exec.Returned, rc *exec.Recheck) (pgwire.Result, int64, error) {
	switch b := bound.(type) {
	case *binder.Insert:
		if ps.merge != nil {
			if err := s.needRowLocks("INSERT ... ON CONFLICT DO UPDATE"); err != nil {
				return nil, 0, err
			}
		}
		t, src, err := s.openWrite(rt, "INSERT", ps.plan, b.Table)
		if err != nil {
			return nil, 0, err
		}
		// the partition constraint over the rows as proposed, before the
		// arbiter gives them a conflicting row's key
		src = s.partitionSourceOf(ctx, b.Table, b.Via, src)                          // pgpartitions.go
		src, arbitered := arbiterSourceOf(ec, t, src, b.Arbiter, b.OnConflictUpdate) // uniqueupsert.go
		ins := &exec.Insert{EC: ec, Table: t, Source: src, IgnoreExisting: b.OnConflictDoNothing, Merge: ps.merge, MergeWhere: ps.mergeWhere, Returning: ps.ret, Ret: ret, ViewChecks: ps.viewChecks, Journal: b.Volatile, ProposedChecked: arbitered, ProposedKeys: arbitered, KeyLock: upsertKeyLock(b.Table, b.OnConflictUpdate)}
		if ps.merge != nil && binder.GeneratedColumns(b.Table) != nil {
			// the merged rows' generated columns, computed over them
			// (generated.go)
			if ins.MergeGenerated, err = s.copyGenerated(ctx, b.Table); err != nil {
				return nil, 0, err
			}
		}
		defer arbitrate(t, b.Arbiter)() // unique.go
		if err := ins.Run(ctx); err != nil {
			ret.Release()
			return nil, 0, err
		}
		return insertTags.result(ins.Rows, ret), ins.Rows, nil
	case *binder.Update:
		if err := s.needRowLocks("UPDATE"); err != nil {
			return nil, 0, err
		}
		t, src, err := s.openWrite(rt, "UPDATE", ps.plan, b.Table)
		if err != nil {
			return nil, 0, err
		}
		var rows int64
		pass := func(src exec.Operator, rc *exec.Recheck) error {
			up := exec.Update{EC: ec, Table: t, Source: src, KeyChanged: b.KeyChanged, KeyLock: b.UniqueChanged, Joined: b.Joined, Ret: ret, Recheck: rc, ViewChecks: ps.viewChecks}
			if b.Returning != nil {
				up.RetAt = b.Returning.At
			}
			err := up.Run(ctx)
			rows += up.Rows
			return err
		}
		err = s.writePasses(ctx, rt, ec, t, ps, b.Recheck, src, rc, pass) // rowlocks.go
		if err != nil {
			ret.Release()
			return nil, 0, err
		}
		return updateTags.result(rows, ret), rows, nil
	case *binder.Delete:
		t, src, err := s.openWrite(rt, "DELETE", ps.plan, b.Table)
		if err != nil {
			return nil, 0, err
		}
		var rows int64
		pass := func(src exec.Operator, rc *exec.Recheck) error {
			del := exec.Delete{EC: ec, Table: t, Source: src, Joined: b.Joined, Ret: ret, Recheck: rc}
			if b.Returning != nil {
				del.RetAt = b.Returning.At
			}
			err := del.Run(ctx)
			rows += del.Rows
			return err
		}
		err = s.writePasses(ctx, rt, ec, t, ps, b.Recheck, src, rc, pass) // rowlocks.go
		if err != nil {
			ret.Release()
			return nil, 0, err
		}
		return deleteTags.result(rows, ret), rows, nil
	case *binder.Merge:
		return s.runMerge(ctx, ps, b, rt, ec, rc) // merge.go
	}
	return nil, 0, sqlerr.New(sqlerr.InternalError, "runWrite of %T", bound)
}

// openWrite opens the target table of a write and instantiates the plan
// that feeds it, after checking that writing is allowed here and that the
// table is still the one the statement was bound against.
func (s *session) openWrite(rt *lower.Runtime, verb string, plan lower.Node, info fluss.TableInfo) (fluss.Table, exec.Operator, error) {
	t, err := s.writeTable(rt.Ctx, verb, info)
	if err != nil {
		return nil, nil, err
	}
	// The source reads through the transaction's tables, now including
	// the target.
	rt.Tables = s.runtimeTables()
	if s.withSnap != nil { // the statement's snapshot (modifyingwith.go)
		rt.Tables = s.withSnap.over(rt.Tables)
	}
	src, err := lower.Build(rt, plan)
	if err != nil {
		return nil, nil, err
	}
	return t, src, nil
}

// writeTable opens the target of a write as the transaction sees it,
// checking that the table is still the one the statement was bound against.
func (s *session) writeTable(ctx context.Context, verb string, info fluss.TableInfo) (*pendingTable, error) {
	tx := s.writeTxn()
	if tx.readOnly {
		return nil, readOnlyTransaction(verb)
	}
	s.startLocking(tx)
	pt, err := tx.pending(info.TableID)
	if err != nil {
		return nil, err
	}
	if pt == nil {
		t, err := s.eng.store.Table(ctx, info.Path)
		if err != nil {
			return nil, err
		}
		if t.Info().TableID != info.TableID {
			return nil, tableRecreated(info.Path.Table)
		}
		pt = tx.openPending(t)
	}
	if err := s.attachChecks(ctx, pt); err != nil { // coldefs.go
		return nil, err
	}
	if err := s.attachFKeys(ctx, pt, verb); err != nil { // fk.go
		return nil, err
	}
	if err := s.attachUniques(ctx, pt, tx); err != nil { // unique.go
		return nil, err
	}
	return pt, nil
}

// noTxnBlock refuses a statement that cannot run inside a transaction
// block (25001), as PostgreSQL refuses it: VACUUM, a bare CLUSTER, REINDEX
// of a schema, database or system, REINDEX CONCURRENTLY. Other DDL, and
// TRUNCATE (ddl.go truncateInBlock), run in a block (txddl.go).
func (s *session) noTxnBlock(what string) error {
	if s.txStatus != 'I' {
		return inTransactionBlock(what)
	}
	return nil
}

// prepareRecheck plans a joined UPDATE's or DELETE's recheck (nil: none).
func (ps *statement) prepareRecheck(ctx context.Context, re *binder.Recheck) (err error) {
	ps.recheckPlan = nil
	if re != nil {
		ps.recheckPlan, err = lower.PlanIn(ctx, re.Plan)
	}
	return err
}

// lowerViewChecks lowers the check options of the views an INSERT or
// UPDATE writes through (nil for other statements).
func lowerViewChecks(bound binder.Statement) ([]exec.ViewCheck, error) {
	var checks []binder.ViewCheck
	switch b := bound.(type) {
	case *binder.Insert:
		checks = b.ViewChecks
	case *binder.Update:
		checks = b.ViewChecks
	}
	if len(checks) == 0 {
		return nil, nil
	}
	exprs := make([]binder.Expr, len(checks))
	for i, c := range checks {
		exprs[i] = c.Cond
	}
	es, err := lower.LowerExprs(exprs)
	if err != nil {
		return nil, err
	}
	out := make([]exec.ViewCheck, len(checks))
	for i, c := range checks {
		out[i] = exec.ViewCheck{View: c.View, Cond: es[i], Partition: c.Partition}
	}
	return out, nil
}
