package txnstore

import (
	"context"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/rowlock"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Txn is one transaction's pending writes. Its zero value is not ready:
// Init it (or use New). The caller sets the exported fields that say how
// the running statement locks and reads; the rest is the overlay's own.
type Txn struct {
	// order is the transaction's tables in the order it opened them;
	// tables indexes them by id once they are more than indexFrom (a
	// short list is searched: a map was two allocations per transaction
	// of the one table most write).
	tables map[int64]*Table
	order  []*Table
	// bytes estimates the memory the pending records hold; limit bounds it.
	bytes, limit int64
	// spillAt is the size from which the writes are staged on disk when
	// they may be (spill.go; 0: never); spilled is the table staged.
	spillAt int64
	spilled *Table
	// savepoints, innermost last.
	savepoints []savepoint
	// all is every record the transaction retained, released at its end.
	all []arrow.RecordBatch

	// Locks owns the transaction's row locks (nil: the store takes none).
	// The running statement sets Since (the lock manager's commit
	// sequence when it started reading: a row stamped later may have
	// changed under it), Stmt (its text), LockTimeout (lock_timeout) and
	// DeadlockTimeout (deadlock_timeout).
	Locks                        *rowlock.Txn
	Since                        uint64
	Stmt                         string
	LockTimeout, DeadlockTimeout time.Duration

	// Snap is a REPEATABLE READ transaction's snapshot, taken by the
	// caller at its first statement; SnapSeq is the lock manager's commit
	// sequence read just before it, so every commit the snapshot misses
	// is stamped later than SnapSeq (locks.go). Release closes it.
	Snap    fluss.Snapshot
	SnapSeq uint64

	// Recreate replaces a log table by an empty one with the same
	// descriptor, for the COMMIT of a TRUNCATE of it (truncate.go); the
	// caller sets it when it truncates one.
	Recreate func(ctx context.Context, info fluss.TableInfo) (fluss.Table, error)
	// undo is what a rollback runs besides forgetting the pending state
	// (OnRollback); committed says Commit succeeded, so Release runs none.
	undo      []func()
	committed bool
	// atEnd runs at Release (AtEnd).
	atEnd []func()
	// atCommit runs once Commit's writes are durable, before the locks
	// are released (AtCommit).
	atCommit []func(context.Context) error

	// The first backing arrays of order and all, inside the transaction's
	// own allocation: most transactions write one table with a record or
	// two (an UPDATE by key), and appending to nil slices cost one
	// allocation each per transaction.
	orderBuf [1]*Table
	allBuf   [2]arrow.RecordBatch
	// writesBuf backs COMMIT's list of writes (writes) while it has one.
	writesBuf [1]fluss.TableWrite
}

type savepoint struct {
	name   string
	tables map[int64]pendingState
	bytes  int64
	undo   int // len(undo) when it was made
	moves  int // the row locks' moves recorded (rowlock's MovesMark)
	locks  int // the row locks' log (rowlock's LocksMark)
}

// New returns a transaction that holds at most limit bytes of pending
// writes (0: no limit) and stages them on disk from spillAt bytes
// (0: never; see spill.go and SpillLimit).
func New(limit, spillAt int64) *Txn {
	tx := &Txn{}
	tx.Init(limit, spillAt)
	return tx
}

// Init makes tx, a zero Txn (the engine embeds one in its own transaction
// state, so that a transaction costs one allocation), ready as New's.
func (tx *Txn) Init(limit, spillAt int64) {
	tx.limit, tx.spillAt = limit, spillAt
}

// Unlock releases the transaction's row locks: committed says its writes
// are durable and visible, so the rows it wrote are stamped as changed.
func (tx *Txn) Unlock(committed bool) {
	if tx.Locks != nil {
		tx.Locks.Release(committed)
	}
}

// Release drops the transaction's records and staged writes, its
// snapshot and, if it still holds them, its row locks (a rollback, or the
// end of a committed transaction).
func (tx *Txn) Release() {
	if !tx.committed {
		tx.runUndo(0)
	}
	for _, fn := range tx.atEnd {
		fn()
	}
	tx.undo, tx.committed, tx.Recreate, tx.atEnd, tx.atCommit = nil, false, nil, nil, nil
	tx.discardStaged()
	tx.Unlock(false)
	if tx.Snap != nil {
		tx.Snap.Close()
		tx.Snap = nil
	}
	for _, r := range tx.all {
		r.Release()
	}
	clear(tx.allBuf[:])
	tx.all = nil
	tx.tables = nil
	tx.orderBuf[0] = nil
	tx.order = nil
}

// Lookup returns the transaction's view of the table with id, nil when it
// has none.
func (tx *Txn) Lookup(id int64) *Table {
	if tx.tables != nil {
		return tx.tables[id]
	}
	for _, pt := range tx.order {
		if pt.info.TableID == id {
			return pt
		}
	}
	return nil
}

// indexFrom is the number of tables from which a transaction indexes them
// by id (Txn.tables).
const indexFrom = 8

// Tables lists the transaction's views of tables, in the order it opened
// them. The slice is the transaction's own: copy it to Forget while
// iterating.
func (tx *Txn) Tables() []*Table { return tx.order }

// Table returns the pending view of base, creating it on first use.
func (tx *Txn) Table(base fluss.Table) *Table {
	if pt := tx.Lookup(base.Info().TableID); pt != nil {
		return pt
	}
	pt := &Table{}
	tx.Open(pt, base, nil)
	return pt
}

// Open makes pt, a zero Table the caller allocated, the transaction's view
// of base, which it must not have yet. checker checks every row written
// (nil: none); a caller that keeps state of its own with the table passes
// it as the checker and finds it again through Checker.
func (tx *Txn) Open(pt *Table, base fluss.Table, checker Checker) {
	info := base.Info()
	pt.tx, pt.base, pt.newest, pt.info, pt.schema, pt.checker = tx, base, base, info, tableSchema(info), checker
	if tx.Snap != nil {
		// A REPEATABLE READ transaction reads its snapshot; newest
		// confirms a conflict (locks.go).
		pt.base, _ = tx.Snap.Table(base)
	}
	pt.keyIdx, pt.keyTypes = pt.keyIdxBuf[:0], pt.keyTypesBuf[:0]
	for _, name := range info.Descriptor.Schema.PrimaryKey {
		i := info.ColumnIndex(name)
		pt.keyIdx = append(pt.keyIdx, i)
		pt.keyTypes = append(pt.keyTypes, info.Descriptor.Schema.Columns[i].Type)
	}
	if tx.order == nil {
		tx.order = tx.orderBuf[:0]
	}
	tx.order = append(tx.order, pt)
	switch {
	case tx.tables != nil:
		tx.tables[info.TableID] = pt
	case len(tx.order) > indexFrom:
		tx.tables = make(map[int64]*Table, len(tx.order))
		for _, o := range tx.order {
			tx.tables[o.info.TableID] = o
		}
	}
}

// Forget drops the transaction's view of a table it holds no rows for
// (the engine's DDL inside a block: the next statement opens the table as
// the DDL left it).
func (tx *Txn) Forget(pt *Table) {
	delete(tx.tables, pt.info.TableID)
	kept := tx.order[:0]
	for _, o := range tx.order {
		if o != pt {
			kept = append(kept, o)
		}
	}
	tx.order = kept
	for _, sp := range tx.savepoints {
		delete(sp.tables, pt.info.TableID)
	}
}

// tableSchema is info.ArrowSchema(), built once per version of the table's
// schema (kept in its ArrowSchemas): a transaction's first write to a
// table built it again for every transaction, and every validated write
// another.
func tableSchema(info fluss.TableInfo) *arrow.Schema {
	return info.ArrowSchemas.Get([]byte{'w'}, info.ArrowSchema)
}

// keep records r as held by the transaction, counting it against the limit.
func (tx *Txn) keep(r arrow.RecordBatch) error {
	if tx.all == nil {
		tx.all = tx.allBuf[:0]
	}
	tx.all = append(tx.all, r)
	return tx.charge(r)
}

// charge counts r against the limit of uncommitted writes: what the
// transaction holds, or what a streaming COPY has handed the store before
// its commit.
func (tx *Txn) charge(r arrow.RecordBatch) error {
	tx.bytes += RecordBytes(r)
	if tx.limit > 0 && tx.bytes > tx.limit {
		return sqlerr.New(sqlerr.OutOfMemory, "out of memory").
			WithDetail("The transaction holds more than %d bytes of uncommitted writes.", tx.limit).
			WithHint("Commit in smaller transactions (or COPY in smaller parts).")
	}
	return nil
}

// Savepoint records the current state under name (SAVEPOINT).
func (tx *Txn) Savepoint(name string) error {
	if tx.spilled != nil {
		return tx.spilled.staged("SAVEPOINT in a transaction writing")
	}
	sp := savepoint{name: name, tables: map[int64]pendingState{}, bytes: tx.bytes, undo: len(tx.undo)}
	if tx.Locks != nil {
		sp.moves = tx.Locks.MovesMark()
		sp.locks = tx.Locks.LocksMark()
	}
	for _, pt := range tx.order {
		sp.tables[pt.info.TableID] = pt.snapshot()
	}
	tx.savepoints = append(tx.savepoints, sp)
	return nil
}

// FindSavepoint returns the index of the innermost savepoint called name
// (3B001 when there is none).
func (tx *Txn) FindSavepoint(name string) (int, error) {
	for i := len(tx.savepoints) - 1; i >= 0; i-- {
		if tx.savepoints[i].name == name {
			return i, nil
		}
	}
	return 0, sqlerr.New(sqlerr.InvalidSavepointSpecification, "savepoint \"%s\" does not exist", name)
}

// RollbackTo restores savepoint i (which stays defined, as in PostgreSQL)
// and forgets the savepoints made after it.
func (tx *Txn) RollbackTo(i int) {
	sp := tx.savepoints[i]
	tx.savepoints = tx.savepoints[:i+1]
	kept := tx.order[:0]
	for _, pt := range tx.order {
		st, ok := sp.tables[pt.info.TableID]
		if !ok { // first written after the savepoint
			delete(tx.tables, pt.info.TableID)
			continue
		}
		pt.restore(st)
		// The savepoint's copy must survive a second ROLLBACK TO.
		sp.tables[pt.info.TableID] = pt.snapshot()
		kept = append(kept, pt)
	}
	tx.order = kept
	tx.bytes = sp.bytes
	tx.runUndo(sp.undo)
	if tx.Locks != nil {
		tx.Locks.RollbackMoves(sp.moves)
		tx.Locks.RollbackLocks(sp.locks)
	}
}

// FailSavepoint runs the undos registered since the innermost savepoint
// (OnRollback), after an error inside it: PostgreSQL aborts the failed
// subtransaction at the error (AbortSubTransaction), so what it took that
// others can see — a transaction-level advisory lock — goes then, not at
// the ROLLBACK TO that resumes the block; the undos run once (RollbackTo
// finds them gone). Without a savepoint it does nothing: the block's end
// runs them.
func (tx *Txn) FailSavepoint() {
	if n := len(tx.savepoints); n > 0 {
		tx.runUndo(tx.savepoints[n-1].undo)
		// the row locks taken since go too, as PostgreSQL's
		// AbortSubTransaction ends its xid's: the block can only
		// resume by ROLLBACK TO, which discards their writes
		if tx.Locks != nil {
			tx.Locks.RollbackLocks(tx.savepoints[n-1].locks)
		}
	}
}

// ReleaseSavepoint forgets savepoint i and the ones after it (RELEASE
// SAVEPOINT).
func (tx *Txn) ReleaseSavepoint(i int) {
	tx.savepoints = tx.savepoints[:i]
}

// Savepoints is the number of savepoints defined.
func (tx *Txn) Savepoints() int { return len(tx.savepoints) }

// writes lists what COMMIT sends to the store, table by table: a
// truncated primary-key table's deletion of its keys before its rows.
func (tx *Txn) writes(ctx context.Context) ([]fluss.TableWrite, error) {
	out := tx.writesBuf[:0]
	for _, pt := range tx.order {
		if pt.deleteRows() {
			continue // ON COMMIT DELETE ROWS: nothing outlives the commit
		}
		if pt.info.HasPrimaryKey() && pt.Truncated() {
			ws, err := pt.truncateWrites(ctx)
			if err != nil {
				releaseWrites(out)
				return nil, err
			}
			out = append(out, ws...)
		}
		ws, err := pt.writes(out)
		if err != nil {
			return nil, err // pt.writes released out
		}
		out = ws
	}
	return out, nil
}

func releaseWrites(ws []fluss.TableWrite) {
	for _, w := range ws {
		w.Rec.Release()
	}
}

// Commit makes the transaction's writes durable and visible: one write
// through the table's own call (which shares the store's group commit with
// other sessions), several through the store's atomic group.
func (tx *Txn) Commit(ctx context.Context, store fluss.Store) (err error) {
	// The row locks outlive the write: a waiter re-reads the row once the
	// write is visible.
	defer func() {
		if err == nil {
			err = tx.runAtCommit(ctx)
		}
		tx.committed = err == nil
		tx.Unlock(err == nil)
	}()
	if tx.spilled != nil {
		return tx.commitStaged(ctx)
	}
	if err := tx.recreateTruncated(ctx); err != nil {
		return err
	}
	ws, err := tx.writes(ctx)
	if err != nil {
		return err
	}
	defer func() {
		releaseWrites(ws)
		clear(tx.writesBuf[:]) // the records are released: hold none
	}()
	switch len(ws) {
	case 0:
		return nil
	case 1:
		w := ws[0]
		t, err := store.Table(ctx, w.Path)
		if err != nil {
			return err
		}
		if t.Info().TableID != w.TableID {
			return droppedTable(w.Path, w.TableID, t.Info())
		}
		if pt := tx.Lookup(w.TableID); pt != nil {
			if err := checksAdded(pt.info, t.Info()); err != nil {
				return err
			}
		}
		_, err = w.Apply(ctx, t)
		return err
	}
	for _, pt := range tx.order {
		if !pt.HasWrites() {
			continue
		}
		t, err := store.Table(ctx, pt.info.Path)
		if fluss.IsIndexTable(pt.info.Path.Table) && (sqlerr.CodeOf(err) == sqlerr.UndefinedTable || err == nil && t.Info().TableID != pt.info.TableID) {
			return tx.indexChanged(pt.info.Path.Table)
		}
		if err != nil {
			return err
		}
		if t.Info().TableID != pt.info.TableID && rewritten(pt.info.TableID, t.Info()) {
			return droppedTable(pt.info.Path, pt.info.TableID, t.Info())
		}
		if err := checksAdded(pt.info, t.Info()); err != nil {
			return err
		}
	}
	aw, ok := store.(fluss.AtomicWriter)
	if !ok {
		return sqlerr.New(sqlerr.FeatureNotSupported, "this store cannot commit several writes atomically").
			WithHint("Write one table per transaction, in one statement.")
	}
	_, err = aw.WriteAtomically(ctx, ws)
	return err
}

// indexChanged is Commit's error when a unique constraint's index table
// (fluss.IndexTablePath) the transaction wrote was dropped (ALTER TABLE
// ... DROP CONSTRAINT) or made again (TRUNCATE) by another session since:
// 40001 naming the user's table, whose id the index table's name holds
// (the index table itself is sqlgate's metadata, never named to users).
func (tx *Txn) indexChanged(index string) error {
	table := "?"
	if f := strings.Split(index, "$"); len(f) >= 2 {
		if id, err := strconv.ParseInt(f[len(f)-2], 10, 64); err == nil {
			if pt := tx.Lookup(id); pt != nil {
				table = pt.info.Path.Table
			}
		}
	}
	return sqlerr.New(sqlerr.SerializationFailure, "could not serialize access due to concurrent ALTER TABLE or TRUNCATE: the unique constraints of relation \"%s\" changed after this transaction wrote to it", table).
		WithDetail("Nothing was written.").
		WithHint("Run the transaction again.")
}

// checksAdded is Commit's error when a CHECK constraint was added to a
// table after the transaction wrote to it (written is the table as its
// rows were checked, now as the store has it at COMMIT): ALTER TABLE ...
// ADD CONSTRAINT ... CHECK checks the committed rows only, where
// PostgreSQL's would wait for this transaction and check its rows too, so
// the commit fails rather than store rows the constraint may refuse. The
// property maps are compared first: unchanged, they hold the same
// constraints.
func checksAdded(written, now fluss.TableInfo) error {
	same := func(a, b map[string]string) bool { return reflect.ValueOf(a).Pointer() == reflect.ValueOf(b).Pointer() }
	if same(written.Descriptor.CustomProperties, now.Descriptor.CustomProperties) && same(written.Descriptor.Properties, now.Descriptor.Properties) {
		return nil
	}
	had := map[[2]string]bool{}
	for _, c := range fluss.MetaOf(written.Descriptor).Checks {
		had[[2]string{c.Name, c.Expr}] = true
	}
	nowMeta := fluss.MetaOf(now.Descriptor)
	for _, c := range nowMeta.Checks {
		if !had[[2]string{c.Name, c.Expr}] {
			return sqlerr.New(sqlerr.SerializationFailure, "could not serialize access due to concurrent ALTER TABLE: check constraint \"%s\" was added to relation \"%s\" after this transaction wrote to it", c.Name, now.Path.Table).
				WithDetail("Nothing was written: the transaction's rows were checked against the table's constraints as they were.").
				WithHint("Run the transaction again.")
		}
	}
	// a unique constraint added since (engine/uniqueddl.go) has an index
	// the transaction's rows are not in
	hadUnique := map[int]bool{}
	for _, u := range fluss.MetaOf(written.Descriptor).Uniques {
		hadUnique[u.ID] = true
	}
	for _, u := range nowMeta.Uniques {
		if !hadUnique[u.ID] {
			return sqlerr.New(sqlerr.SerializationFailure, "could not serialize access due to concurrent ALTER TABLE: unique constraint \"%s\" was added to relation \"%s\" after this transaction wrote to it", u.Name, now.Path.Table).
				WithDetail("Nothing was written: the transaction's rows were checked against the table's constraints as they were.").
				WithHint("Run the transaction again.")
		}
	}
	return nil
}

// rewritten reports whether now is the table ALTER TABLE rewrote table id
// into, at once or through rewrites in between (the property lists the
// ids, newest first: a writer held up by one rewrite may commit after the
// next).
func rewritten(id int64, now fluss.TableInfo) bool {
	want := strconv.FormatInt(id, 10)
	for from := range strings.SplitSeq(now.Descriptor.CustomProperties[fluss.RewrittenFromProperty], ",") {
		if from == want {
			return true
		}
	}
	return false
}

// droppedTable is Commit's error when the table the transaction wrote
// (id) was dropped and created again under its name since it opened it
// (now): 40001 when ALTER TABLE rewrote it (fluss.RewrittenFromProperty),
// as for a CHECK added meanwhile.
func droppedTable(p fluss.TablePath, id int64, now fluss.TableInfo) error {
	if rewritten(id, now) {
		return sqlerr.New(sqlerr.SerializationFailure, "could not serialize access due to concurrent ALTER TABLE: relation \"%s\" was rewritten after this transaction wrote to it", p.Table).
			WithDetail("Nothing was written: the transaction's rows were made for the table as it was.").
			WithHint("Run the transaction again.")
	}
	return sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "table %q was dropped and re-created during the transaction", p.Table)
}
