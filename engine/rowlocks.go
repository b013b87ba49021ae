package engine

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/access"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/engine/txnstore"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/rowlock"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Row locks and isolation, as the session drives them (the locking itself
// is in package txnstore's Table and exec's write operators; the lock manager
// is package rowlock).

// startLocking prepares tx's lock state for the write statement starting
// now: its text for reports, lock_timeout, and the commit sequence its
// reads start after. It runs before the statement's plan reads anything,
// so a row a later commit wrote is seen as possibly changed.
func (s *session) startLocking(tx *txn) {
	if tx.Locks == nil {
		return
	}
	tx.Stmt = s.stmtText
	tx.LockTimeout = s.lockTimeout.Of(s.setting("lock_timeout"))
	tx.DeadlockTimeout = s.deadlockTimeout.Of(s.setting("deadlock_timeout"))
	tx.Since = s.eng.locks.Seq()
	if tx.Snap != nil {
		// REPEATABLE READ: every read saw the snapshot, so a row changed
		// since it was taken is a conflict (rr.go).
		tx.Since = tx.SnapSeq
	}
}

// needRowLocks refuses a statement that reads rows to write them when the
// store cannot be locked by this server alone: without a lock, a concurrent
// writer's change could be lost.
func (s *session) needRowLocks(what string) error {
	if s.eng.locks != nil {
		return nil
	}
	return notOnThisStore(what).
		WithDetail("Other servers write this store too, and it offers no way to lock a row between them, so a concurrent change could be lost.").
		WithHint("Write whole rows with INSERT (an upsert of the key), or DELETE by key.")
}

// recheckSource is the source of a write statement's second pass: when
// its first pass found rows that changed under it (exec.Recheck.Deferred),
// the caller runs the pass once more over this fresh instance of plan,
// which reads the newest committed rows, writing only those (Recheck.Only):
// PostgreSQL's EvalPlanQual, row by row. The second pass holds the locks of
// every row it may write, so none can change again. The caller runs both
// passes itself, so that the first pass's Recheck stays on its stack
// (handed through a function value, it was one allocation per UPDATE).
// recheckPasses runs a write's pass over src with rc, then, when rows were
// deferred to a second look (their lock was waited for), once more over a
// fresh build of plan that visits only them. run is only called, never
// kept, so the caller's closure stays on its stack.
//
// fr, when set, is what the statement first read of its other tables
// (and of its target, in a subquery): the second pass reads them so, as
// EvalPlanQual re-checks a row against the rest of the plan as first read.
func (s *session) recheckPasses(rt *lower.Runtime, plan lower.Node, src exec.Operator, rc *exec.Recheck, fr *firstRead, run func(exec.Operator, *exec.Recheck) error) error {
	if err := run(src, rc); err != nil || len(rc.Deferred) == 0 {
		return err
	}
	again, err := s.recheckSource(rt, plan, fr)
	if err != nil {
		return err
	}
	return run(again, &exec.Recheck{Only: rc.Deferred})
}

// writePasses runs an UPDATE's or DELETE's passes: a joined write
// re-checks the targets it deferred with the rows it had joined them to,
// any other write runs its plan again over them (recheckPasses).
func (s *session) writePasses(ctx context.Context, rt *lower.Runtime, ec *exec.EvalContext, t fluss.Table, ps *statement, re *binder.Recheck, src exec.Operator, rc *exec.Recheck, run func(exec.Operator, *exec.Recheck) error) error {
	if re != nil {
		return s.joinedRecheckPasses(ctx, rt, ec, t, ps.recheckPlan, re, src, rc, run)
	}
	fr, err := s.takeFirstRead(ctx, ps, t)
	if err != nil {
		return err
	}
	defer fr.release()
	return s.recheckPasses(rt, ps.plan, src, rc, fr, run)
}

// joinedRecheckPasses is recheckPasses for a joined UPDATE ... FROM or
// DELETE ... USING (binder.Recheck): the first pass keeps the source rows
// of the targets it defers, and the second evaluates plan (the write's
// source over rc.Rel) over each one's target in its newest version joined
// with the same rows of the other tables, as the statement first read
// them, as PostgreSQL's EvalPlanQual does: a fresh join would pair a
// changed target with other rows, or read other tables' newer rows.
func (s *session) joinedRecheckPasses(ctx context.Context, rt *lower.Runtime, ec *exec.EvalContext, t fluss.Table, plan lower.Node, re *binder.Recheck, src exec.Operator, rc *exec.Recheck, run func(exec.Operator, *exec.Recheck) error) error {
	rc.Keep = true
	defer func() {
		releaseBatches(rc.Kept) // merge.go
		rc.Kept = nil
	}()
	if err := run(src, rc); err != nil || len(rc.Deferred) == 0 {
		return err
	}
	// the deferred rows are locked: their newest versions stay so
	s.startLocking(s.writeTxn())
	rows, err := exec.RecheckRows(ctx, ec, t, rc, re.At)
	if err != nil {
		return err
	}
	re.Rel.Set(rows)
	defer func() {
		re.Rel.Set(nil)
		releaseBatches(rows)
	}()
	rt.Tables = s.runtimeTables()
	again, err := lower.Build(rt, plan)
	if err != nil {
		return err
	}
	return run(again, &exec.Recheck{Only: rc.Deferred})
}

func (s *session) recheckSource(rt *lower.Runtime, plan lower.Node, fr *firstRead) (exec.Operator, error) {
	tx := s.writeTxn()
	s.startLocking(tx)
	rt.Tables = s.runtimeTables()
	if fr != nil {
		rt.Tables = &firstReadTables{inner: rt.Tables, fr: fr}
	}
	return lower.Build(rt, plan)
}

// firstRead is what a plain UPDATE or DELETE that reads other tables (a
// subquery, IN, EXISTS; its own table again in one) first read of them,
// for its second pass (recheckPasses): PostgreSQL's EvalPlanQual re-checks
// the newest version of a target row against the other relations' rows as
// the statement first read them (the rows its first pass joined, fetched
// again by their row identity; a subplan runs again under the statement's
// snapshot), not their newest rows: a row a concurrent transaction moved
// to a key the subquery did not return then is not followed there, and a
// row whose qualifying column it lowered is still written when the
// subquery's row, as read, qualified it. The store's snapshot taken before
// the first pass reads, under the transaction's pending rows of each
// table as they stood then (txnstore.Table.FrozenAt; the target's frozen
// before the first pass writes it).
type firstRead struct {
	snap   fluss.Snapshot
	target fluss.TablePath
	own    *txnstore.Table // the target's pending rows at the start; nil: not read again
	tables map[fluss.TablePath]fluss.Table
	frozen []*txnstore.Table
}

// takeFirstRead takes the firstRead of a READ COMMITTED UPDATE or DELETE
// of t (nil when it reads no other table, or runs at REPEATABLE READ,
// which fails a changed row instead of re-checking it, or the store
// holds no snapshot). It runs after the first pass's plan is built, before
// it reads.
func (s *session) takeFirstRead(ctx context.Context, ps *statement, t fluss.Table) (*firstRead, error) {
	tx := s.writeTxn()
	sn, ok := s.eng.store.(fluss.Snapshotter)
	if !ok || tx.Locks == nil || tx.Snap != nil || s.withSnap != nil {
		return nil, nil
	}
	target := t.Info().Path
	others, own := 0, 0 // reads of other tables, and of the target
	for _, r := range ps.reads {
		switch {
		case r.view:
		case r.path == target:
			own++
		default:
			others++
		}
	}
	if others == 0 && own < 2 {
		return nil, nil
	}
	snap, err := sn.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	fr := &firstRead{snap: snap, target: target, tables: map[fluss.TablePath]fluss.Table{}}
	if pt, ok := t.(*pendingTable); ok && own > 1 {
		if fr.own, err = pt.FrozenAt(snap); err != nil {
			// a bulk load's staged rows cannot be frozen: the second
			// pass reads the newest rows, as before
			snap.Close()
			return nil, nil
		}
	}
	return fr, nil
}

// table is the table at path p as the statement first read it (inner:
// the transaction's tables now).
func (fr *firstRead) table(ctx context.Context, p fluss.TablePath, inner lower.Tables) (fluss.Table, error) {
	if tb, ok := fr.tables[p]; ok {
		return tb, nil
	}
	if p == fr.target && fr.own != nil {
		return fr.own, nil
	}
	tb, err := inner.Table(ctx, p)
	if err != nil {
		return nil, err
	}
	if pt, ok := tb.(*txnstore.Table); ok {
		// its pending rows are as they stood at the start: only the
		// target's changed since
		f, err := pt.FrozenAt(fr.snap)
		if err != nil {
			return tb, nil
		}
		fr.frozen = append(fr.frozen, f)
		tb = f
	} else {
		tb, _ = fr.snap.Table(tb)
	}
	fr.tables[p] = tb
	return tb, nil
}

func (fr *firstRead) release() {
	if fr == nil {
		return
	}
	for _, f := range fr.frozen {
		f.Release()
	}
	if fr.own != nil {
		fr.own.Release()
	}
	fr.snap.Close()
}

// firstReadTables is lower.Tables of a second pass (recheckSource): the
// first scan of the target built (the plan's target rows, which the
// write reads in their newest versions) reads the transaction's table,
// every other table, and any later scan of the target (a subquery's),
// reads it as first read. A join builds its left side, which holds the
// write's target, first.
type firstReadTables struct {
	inner  lower.Tables
	fr     *firstRead
	target bool // the target's own scan is built
}

func (w *firstReadTables) Table(ctx context.Context, p fluss.TablePath) (fluss.Table, error) {
	if p == w.fr.target && !w.target {
		w.target = true
		return w.inner.Table(ctx, p)
	}
	return w.fr.table(ctx, p, w.inner)
}

// isolationLevel checks a transaction isolation level asked for by BEGIN,
// SET TRANSACTION or a setting, returning it as SHOW spells it. sqlgate runs
// READ COMMITTED (READ UNCOMMITTED is READ COMMITTED in PostgreSQL too) and,
// on a store that can hold a snapshot and lock rows, REPEATABLE READ;
// SERIALIZABLE is refused rather than silently weakened.
func (s *session) isolationLevel(level string) (string, error) {
	switch l := normalizeIsolation(level); l {
	case "read committed", "read uncommitted":
		return l, nil
	case "repeatable read":
		if s.canRepeatableRead() {
			return l, nil
		}
		return "", notOnThisStore("transaction isolation level " + l).
			WithDetail("The store cannot hold a snapshot for a transaction, or other servers write it too, so a transaction could not see one state throughout.").
			WithHint("Use READ COMMITTED, and SELECT ... FOR UPDATE where a transaction must keep what it read unchanged.")
	case "serializable":
		return "", sqlerr.NotSupported("transaction isolation level " + l).
			WithDetail("sqlgate runs transactions at READ COMMITTED or REPEATABLE READ; it has no serializable snapshot isolation (no read-write conflict tracking).").
			WithHint("Use REPEATABLE READ, and SELECT ... FOR UPDATE where a transaction must keep what it read unchanged.")
	default:
		return "", invalidParameterValue("transaction_isolation", level).
			WithHint("Available values: serializable, repeatable read, read committed, read uncommitted.")
	}
}

// setAccessModes applies SET TRANSACTION's or SET SESSION
// CHARACTERISTICS AS TRANSACTION's READ ONLY | READ WRITE and [NOT]
// DEFERRABLE: to the open block, or to the session's defaults (which,
// outside a block, are also what transaction_read_only and
// transaction_deferrable show).
func (s *session) setAccessModes(st *sql.SetStmt) error {
	tx := st.Tx
	set := func(name string, on bool) {
		if st.SessionDefaults {
			s.changeSetting("default_"+name, onOff(on), false) // settingstack.go
			if s.txStatus == 'I' {
				s.setSetting(name, onOff(on))
			}
			return
		}
		if s.tx != nil {
			s.changeSetting(name, onOff(on), false)
		}
	}
	if tx.ReadOnly || tx.ReadWrite {
		if !st.SessionDefaults && tx.ReadWrite {
			if err := s.readWriteChangeable(); err != nil {
				return err
			}
		}
		set("transaction_read_only", tx.ReadOnly)
		if !st.SessionDefaults && s.tx != nil {
			s.tx.readOnly = tx.ReadOnly
		}
	}
	if tx.Deferrable || tx.NotDeferrable {
		set("transaction_deferrable", tx.Deferrable)
	}
	return nil
}

// readWriteChangeable is PostgreSQL's check_transaction_read_only: a
// read-only block becomes read-write only at its top level and before
// its first query (25001 otherwise).
func (s *session) readWriteChangeable() error {
	if s.tx == nil || !s.tx.readOnly {
		return nil
	}
	if s.tx.Savepoints() > 0 {
		return sqlerr.New(sqlerr.ActiveSQLTransaction, "cannot set transaction read-write mode inside a read-only transaction")
	}
	if s.tx.queried {
		return sqlerr.New(sqlerr.ActiveSQLTransaction, "transaction read-write mode must be set before any query")
	}
	return nil
}

// normalizeIsolation spells an isolation level as SHOW does: lower case,
// words separated by one space, quotes dropped. A level already spelt so
// (the setting's own value, which BEGIN reads) comes back as it is, without
// the copy every BEGIN made.
func normalizeIsolation(v string) string {
	if isolationNormal(v) {
		return v
	}
	out := make([]byte, 0, len(v))
	space := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '\'' || c == '"':
			continue
		case c == ' ' || c == '\t' || c == '_' || c == '-':
			space = len(out) > 0
			continue
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		out = append(out, c)
	}
	return string(out)
}

// isolationNormal reports whether v is already as normalizeIsolation
// spells it: lower-case letters, single spaces between words.
func isolationNormal(v string) bool {
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= 'a' && c <= 'z':
		case c == ' ' && i > 0 && i < len(v)-1 && v[i-1] != ' ':
		default:
			return false
		}
	}
	return true
}

// beginIsolation applies BEGIN's isolation level (or the default) to the
// block's transaction_isolation.
func (s *session) beginIsolation(tx *sql.TxStmt) error {
	level := s.setting("default_transaction_isolation")
	if tx != nil && tx.Isolation != "" {
		level = tx.Isolation
	}
	l, err := s.isolationLevel(level)
	if err != nil {
		return err
	}
	s.setSetting("transaction_isolation", l)
	return nil
}

// setTransaction applies SET TRANSACTION / SET SESSION CHARACTERISTICS AS
// TRANSACTION's isolation level.
func (s *session) setTransaction(st *sql.SetStmt) error {
	if st.Tx == nil {
		return nil
	}
	if err := s.setAccessModes(st); err != nil {
		return err
	}
	if st.Tx.Isolation == "" {
		return nil
	}
	l, err := s.isolationLevel(st.Tx.Isolation)
	if err != nil {
		return err
	}
	if !st.SessionDefaults {
		if err := s.isolationChangeable(l); err != nil {
			return err
		}
	}
	if st.SessionDefaults {
		s.setSetting("default_transaction_isolation", l)
	}
	// SET TRANSACTION sets the open block's level; SET SESSION
	// CHARACTERISTICS only the default, which outside a block is also
	// what transaction_isolation shows.
	if st.SessionDefaults == (s.txStatus == 'I') {
		s.setSetting("transaction_isolation", l)
	}
	return nil
}

// lockedQuery runs a SELECT with a locking clause: in the session's
// transaction (an implicit one outside a block), like a write, and to the
// end before it answers, so that its locks are taken (or its NOWAIT error
// raised) while the statement runs and last until its transaction ends.
func (s *session) lockedQuery(ctx context.Context, rt *lower.Runtime, ps *statement) (pgwire.Result, error) {
	if err := s.needRowLocks("SELECT ... FOR UPDATE"); err != nil {
		return nil, err
	}
	// As in PostgreSQL, locking rows takes UPDATE privilege as well.
	if err := s.need(ps.locked.TableID, ps.locked.Path, access.Update); err != nil {
		return nil, err
	}
	if _, err := s.writeTable(ctx, "SELECT FOR UPDATE", *ps.locked); err != nil {
		return nil, err
	}
	rt.Tables = s.runtimeTables()
	rt.Untransacted = false
	op, err := lower.Build(rt, ps.plan)
	if err != nil {
		return nil, err
	}
	defer op.Close()
	res := &batchesOperator{schema: op.Schema()}
	for {
		b, err := op.Next(ctx)
		if err != nil {
			res.Close()
			return nil, err
		}
		if b == nil {
			break
		}
		res.batches = append(res.batches, b)
	}
	return &queryResult{op: res, verb: "SELECT", sess: s}, nil
}

// batchesOperator yields batches already computed.
type batchesOperator struct {
	schema  *arrow.Schema
	batches []arrow.RecordBatch
}

func (o *batchesOperator) Schema() *arrow.Schema { return o.schema }

func (o *batchesOperator) Next(context.Context) (arrow.RecordBatch, error) {
	if len(o.batches) == 0 {
		return nil, nil
	}
	b := o.batches[0]
	o.batches = o.batches[1:]
	return b, nil
}

func (o *batchesOperator) Close() {
	for _, b := range o.batches {
		b.Release()
	}
	o.batches = nil
}

// Locks lists the row locks held and awaited (pg_locks); none when the
// store takes no row locks.
func (e *Engine) Locks() []rowlock.LockInfo {
	if e.locks == nil {
		return nil
	}
	return e.locks.Locks()
}
