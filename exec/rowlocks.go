package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/rowlock"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Row locks in write statements.
//
// A write operator whose table is a RowLocker (a transaction's view of a
// store whose writes all pass through this server) locks every row before it
// writes it, as PostgreSQL does: an INSERT (upsert) locks the keys it
// writes before it reads whether they exist, so what it reads is the newest
// committed state; an UPDATE or DELETE reads its target rows first (the plan
// finds them) and locks them after. A target row that another transaction
// held, or that a commit changed after the statement started reading, may
// be stale: it is not written, and its key goes to Recheck.Deferred. The
// engine then runs the statement's plan a second time, reading the target's
// newest committed rows (and the other tables as it first read them), with
// Recheck.Only set to those keys: only those rows are
// written, each if it still satisfies the WHERE, with its SET computed from
// the newest version. That is PostgreSQL's EvalPlanQual at READ COMMITTED
// (the second pass needs no locks it does not hold already, so it cannot
// find a row stale again). A joined write (UPDATE ... FROM, DELETE ...
// USING, MERGE) does not join again: its first pass keeps the joined rows
// of the deferred targets (Recheck.Keep; MERGE keeps all its join rows),
// and the second evaluates the statement over each target's newest
// version and the same rows of the other tables (recheck.go, merge.go),
// as EvalPlanQual re-checks a row with the source rows it had joined.
// A stale row that a committed UPDATE moved to another key (an UPDATE of
// its primary key) is followed to its newest key (RowLocker.Follow), which
// the second pass re-checks and writes in its place, as EvalPlanQual
// follows a row's update chain; a row deleted (even if inserted again,
// under any key: RowLocker.Deleting, LockGone) is gone. A row the second
// pass passed over stays locked but unwritten (RowLocker.Unwritten). INSERT ... ON CONFLICT locks as
// PostgreSQL's speculative insertion does (RowLocker.LockUpsert): it waits
// for a concurrent writer of a key, not for a locker; DO NOTHING locks only
// the keys it inserts, DO UPDATE its keys in UpsertLock.Mode.

// RowLocker is implemented by tables whose writes take row locks.
type RowLocker interface {
	// LockInsert locks the primary keys of rec's rows (the table's
	// columns) for an insert or upsert, waiting for other transactions. A
	// large write may lock the whole table instead.
	LockInsert(ctx context.Context, rec arrow.RecordBatch) error
	// LockRows locks the rows whose key encodings are keys as how says,
	// and reports the state of each (nil: all LockFresh).
	LockRows(ctx context.Context, keys []string, how RowLock) ([]LockState, error)
	// Follow finds where a locked row that changed under the statement
	// went when a committed UPDATE moved it to another key (PostgreSQL
	// follows a row's update chain to its newest version): that key,
	// locked as how says, or "" when the row did not move.
	Follow(ctx context.Context, key string, how RowLock) (string, error)
	// LockUpsert locks the primary keys of rec's rows (the table's
	// columns) for INSERT ... ON CONFLICT as how says: it waits for the
	// transactions that wrote a row of those keys, then locks the keys
	// it may write.
	LockUpsert(ctx context.Context, rec arrow.RecordBatch, how UpsertLock) error
	// Moving records that the statement moves the rows with the key
	// encodings from to the keys to (an UPDATE of the primary key; all of
	// the statement's moves in one call, as they happen at once), for
	// Follow in the statements that wait for them.
	Moving(from, to []string)
	// Deleting records that the statement deletes the rows with the key
	// encodings keys: their chains end (LockGone for the statements that
	// wait for them, even when a new row takes the key).
	Deleting(keys []string)
	// Unwritten says that the statement locked the rows with the key
	// encodings keys to write them and wrote those it did: the others,
	// which its re-check passed over, stay locked, but not as written.
	Unwritten(keys []string)
}

// RowLock says how LockRows locks.
type RowLock struct {
	Mode rowlock.Mode
	Wait rowlock.Wait
	// Write: the statement writes the rows (their commit stamps them).
	Write bool
}

// UpsertLock says how LockUpsert locks.
type UpsertLock struct {
	// Mode is DO UPDATE's lock on a row it may update: FOR NO KEY UPDATE,
	// or FOR UPDATE when its SET assigns a column of a unique constraint
	// (PostgreSQL's ExecUpdateLockMode).
	Mode rowlock.Mode
	// DoNothing: DO NOTHING, which locks only the keys it inserts.
	DoNothing bool
}

// LockState is what LockRows found of a row.
type LockState uint8

const (
	// LockFresh: locked, and unchanged since the statement started reading.
	LockFresh LockState = iota
	// LockChanged: locked, but it may have changed since the statement
	// read it (it waited for another transaction, or a commit stamped it).
	LockChanged
	// LockSkipped: held by another transaction, and not locked (SKIP LOCKED).
	LockSkipped
	// LockRewritten: LockChanged, after waiting for a transaction that
	// wrote the row and committed (PostgreSQL's TM_Updated after its
	// wait, which even FOR KEY SHARE re-reads).
	LockRewritten
	// LockGone: a transaction that committed since the statement read
	// the row deleted it (PostgreSQL's TM_Deleted): it is passed over,
	// not locked, even when a row with its key was inserted since.
	LockGone
)

// Recheck carries the rows an UPDATE or DELETE must re-read between its two
// passes (see above).
type Recheck struct {
	// Deferred (first pass) collects the key encodings of stale rows.
	Deferred map[string]bool
	// Only, when set (second pass), restricts the writes to these keys.
	Only map[string]bool
	// Moved (first pass) maps a deferred key whose row a concurrent
	// UPDATE moved to another key to the row's newest key (RowLocker's
	// Follow), which Deferred holds too: the second pass re-checks that
	// version.
	Moved map[string]string
	// Keep (first pass of a joined write, binder.Recheck): every source
	// row of a deferred target (a target joined several times comes
	// several times) is kept in Kept, its target's key in columns KeptKey,
	// for RecheckRows. The caller releases Kept.
	Keep    bool
	Kept    []arrow.RecordBatch
	KeptKey []int
	// GoneUnmatched (MERGE's first pass): a target row a commit deleted
	// (LockGone) is deferred too, for the second pass to find it gone and
	// its source row NOT MATCHED, as PostgreSQL's MERGE runs the NOT
	// MATCHED actions for a row concurrently deleted; an UPDATE or DELETE
	// passes over it.
	GoneUnmatched bool
}

// settle ends a second pass (Only) over t: the rows it passed over are
// left locked, but not as written (RowLocker.Unwritten).
func (rc *Recheck) settle(t fluss.Table) {
	l, ok := t.(RowLocker)
	if rc == nil || len(rc.Only) == 0 || !ok {
		return
	}
	keys := make([]string, 0, len(rc.Only))
	for k := range rc.Only {
		keys = append(keys, k)
	}
	l.Unwritten(keys)
}

// keep adds to Kept the rows of b (its target keys in keyCols) whose
// target was deferred.
func (rc *Recheck) keep(ec *EvalContext, kt []types.T, b arrow.RecordBatch, keyCols []int) error {
	if len(rc.Deferred) == 0 || b.NumRows() == 0 {
		return nil
	}
	keys, err := keyStrings(kt, b, keyCols)
	if err != nil {
		return err
	}
	var idx []int32
	for r, k := range keys {
		if rc.Deferred[k] {
			idx = append(idx, int32(r))
		}
	}
	if len(idx) == 0 {
		return nil
	}
	kept, err := takeRows(ec, b, idx)
	if err != nil {
		return err
	}
	rc.Kept = append(rc.Kept, kept)
	rc.KeptKey = keyCols
	return nil
}

// deferKey adds key (a stale row's, locked in mode) to Deferred and, when a
// concurrent UPDATE moved the row to another key, that key too, in Moved.
func (rc *Recheck) deferKey(ctx context.Context, l RowLocker, key string, mode rowlock.Mode) error {
	if rc.Deferred == nil {
		rc.Deferred = map[string]bool{}
	}
	rc.Deferred[key] = true
	to, err := l.Follow(ctx, key, RowLock{Mode: mode, Write: true})
	if err != nil || to == "" {
		return err
	}
	if rc.Moved == nil {
		rc.Moved = map[string]string{}
	}
	rc.Moved[key] = to
	rc.Deferred[to] = true
	return nil
}

// KeyBatch decodes key encodings (as keyStrings makes them) into a batch
// of t's key columns, to look the rows up.
func KeyBatch(mem memory.Allocator, info fluss.TableInfo, keys []string) (arrow.RecordBatch, error) {
	schema := KeySchemaOf(info)
	bld := array.NewRecordBuilder(mem, schema)
	defer bld.Release()
	kt := keyTypes(info)
	builders := bld.Fields()
	for _, k := range keys {
		if err := format.DecodeKey([]byte(k), kt, builders); err != nil {
			return nil, sqlerr.Wrap(err, sqlerr.InternalError, "decoding a key: %v", err)
		}
	}
	return bld.NewRecordBatch(), nil
}

// newestVersions reads the newest version of the target row of each row
// of b (its key in columns keyCols; a row whose key is in moved is read at
// the key it moved to): t's rows (all columns, in table order) and, for
// each row of b, its row there (-1: gone). The caller releases the rows
// (nil when none is found).
func newestVersions(ctx context.Context, ec *EvalContext, t fluss.Table, b arrow.RecordBatch, keyCols []int, moved map[string]string) (arrow.RecordBatch, []int32, error) {
	info := t.Info()
	kt := keyTypes(info)
	keys, err := keyStrings(kt, b, keyCols)
	if err != nil {
		return nil, nil, err
	}
	for r, k := range keys {
		if to, ok := moved[k]; ok {
			keys[r] = to
		}
	}
	probe, err := KeyBatch(ec.Mem, info, keys)
	if err != nil {
		return nil, nil, err
	}
	all := make([]int, len(info.Descriptor.Schema.Columns))
	for i := range all {
		all[i] = i
	}
	found, err := t.Lookup(ctx, probe, all)
	probe.Release()
	if err != nil {
		return nil, nil, err
	}
	at := make([]int32, len(keys))
	for r := range at {
		at[r] = -1
	}
	if found == nil {
		return nil, at, nil
	}
	fk, err := keyStrings(kt, found, keyIndexes(info))
	if err != nil {
		found.Release()
		return nil, nil, err
	}
	row := make(map[string]int32, len(fk))
	for r, k := range fk {
		row[k] = int32(r)
	}
	for r, k := range keys {
		if j, ok := row[k]; ok {
			at[r] = j
		}
	}
	return found, at, nil
}

// keyIndexes returns the table's primary-key columns' positions, in key
// order.
func keyIndexes(info fluss.TableInfo) []int {
	pk := make([]int, 0, len(info.Descriptor.Schema.PrimaryKey))
	for _, k := range info.Descriptor.Schema.PrimaryKey {
		pk = append(pk, info.ColumnIndex(k))
	}
	return pk
}

// keyTypes returns the types of the table's primary-key columns.
func keyTypes(info fluss.TableInfo) []types.T { return appendKeyTypes(nil, info) }

// appendKeyTypes appends the types of the table's primary-key columns to
// ts (an UPDATE's array on its stack).
func appendKeyTypes(ts []types.T, info fluss.TableInfo) []types.T {
	for _, k := range info.Descriptor.Schema.PrimaryKey {
		ts = append(ts, info.Descriptor.Schema.Columns[info.ColumnIndex(k)].Type)
	}
	return ts
}

// keyStrings encodes the primary key held in columns cols of each row of b,
// as the store (and the lock manager) key rows.
func keyStrings(kt []types.T, b arrow.RecordBatch, cols []int) ([]string, error) {
	arrs := make([]arrow.Array, len(cols))
	for i, c := range cols {
		arrs[i] = b.Column(c)
	}
	out := make([]string, b.NumRows())
	var keyBuf [64]byte // key encodings on the stack while short
	buf := keyBuf[:0]
	var err error
	for r := range out {
		if buf, err = format.AppendKey(buf[:0], kt, arrs, r); err != nil {
			return nil, sqlerr.Wrap(err, sqlerr.InternalError, "encoding a key: %v", err)
		}
		out[r] = string(buf)
	}
	return out, nil
}

// lockWritten is what an UPDATE or DELETE does with each batch b of its
// source before it writes it (the target keys in columns keyCols): a
// joined write's repeats of a target row dropped (seen: the keys met so
// far; nil: not joined), the rows locked (lockTargets), and, for a
// joined write's recheck (rc.Keep), the source rows of the deferred
// targets kept. b is released when a new batch is returned.
func lockWritten(ctx context.Context, ec *EvalContext, t fluss.Table, kt []types.T, rc *Recheck, b arrow.RecordBatch, keyCols []int, seen map[string]bool, mode rowlock.Mode) (arrow.RecordBatch, error) {
	var orig arrow.RecordBatch // kept for a recheck (Recheck.Keep)
	if rc != nil && rc.Keep {
		b.Retain()
		orig = b
	}
	var err error
	if seen != nil {
		first, err := firstPerKey(ec, b, keyCols, seen)
		b.Release()
		if err != nil {
			releaseIf(orig)
			return nil, err
		}
		b = first
	}
	if b, err = lockTargets(ctx, ec, t, kt, rc, b, keyCols, mode); err != nil {
		releaseIf(orig)
		return nil, err
	}
	if orig != nil {
		err := rc.keep(ec, kt, orig, keyCols)
		orig.Release()
		if err != nil {
			b.Release()
			return nil, err
		}
	}
	return b, nil
}

// lockTargets locks the target rows of b (their keys in columns keyCols)
// and returns b reduced to the rows to write now: the first pass drops the
// stale ones (into rc.Deferred), the second keeps rc.Only's. b is released
// when a new batch is returned.
func lockTargets(ctx context.Context, ec *EvalContext, t fluss.Table, kt []types.T, rc *Recheck, b arrow.RecordBatch, keyCols []int, mode rowlock.Mode) (arrow.RecordBatch, error) {
	l, ok := t.(RowLocker)
	if !ok || b.NumRows() == 0 {
		return b, nil
	}
	keys, err := keyStrings(kt, b, keyCols)
	if err != nil {
		b.Release()
		return nil, err
	}
	idx := make([]int32, 0, len(keys))
	lock := keys // every row's, unless a second pass names the only ones
	if rc != nil && rc.Only != nil {
		lock = keys[:0:0]
	}
	for r, k := range keys {
		if rc != nil && rc.Only != nil {
			if !rc.Only[k] {
				continue
			}
			lock = append(lock, k)
		}
		idx = append(idx, int32(r))
	}
	changed, err := l.LockRows(ctx, lock, RowLock{Mode: mode, Write: true})
	if err != nil {
		b.Release()
		return nil, err
	}
	if rc != nil && rc.Only != nil {
		// The second pass read these rows after the first had locked
		// them: they are the newest (a "changed" now could only be a
		// stamp that a commit of another key hashed onto).
		changed = nil
	}
	if changed != nil {
		kept := idx[:0]
		for j, r := range idx {
			switch changed[j] {
			case LockFresh:
				kept = append(kept, r)
				continue
			case LockGone:
				if rc == nil || !rc.GoneUnmatched {
					continue // deleted: no second look finds it
				}
			}
			if rc == nil {
				// No second pass can re-read it: never write a stale row.
				b.Release()
				return nil, SerializationFailure()
			}
			if err := rc.deferKey(ctx, l, lock[j], mode); err != nil {
				b.Release()
				return nil, err
			}
		}
		idx = kept
	}
	if len(idx) == int(b.NumRows()) {
		return b, nil
	}
	out, err := takeRows(ec, b, idx)
	b.Release()
	return out, err
}

// SerializationFailure is PostgreSQL's error for a write that met a row
// changed by a concurrent transaction it cannot re-read (40001): a
// statement without a second pass, or a REPEATABLE READ transaction.
func SerializationFailure() error {
	return sqlerr.New(sqlerr.SerializationFailure, "could not serialize access due to concurrent update")
}

// ConcurrentDelete is PostgreSQL's error for an UPDATE or DELETE of a
// REPEATABLE READ transaction whose row a concurrent transaction deleted
// (40001).
func ConcurrentDelete() error {
	return sqlerr.New(sqlerr.SerializationFailure, "could not serialize access due to concurrent delete")
}

// lockInsert locks rec's keys when t takes row locks: for an upsert (how
// set) as LockUpsert does, else FOR UPDATE.
func lockInsert(ctx context.Context, t fluss.Table, rec arrow.RecordBatch, how *UpsertLock) error {
	l, ok := t.(RowLocker)
	switch {
	case !ok || rec.NumRows() == 0:
		return nil
	case how != nil:
		return l.LockUpsert(ctx, rec, *how)
	}
	return l.LockInsert(ctx, rec)
}

// LockRows locks the table rows its input yields, for SELECT ... FOR
// UPDATE and the other locking clauses (binder.LockRows): row by row, in
// input order, stopping once Max rows are out (LIMIT above it), so that no
// row past the limit is locked. A skipped row (SKIP LOCKED) is dropped; a
// row that changed since it was read is read again by key and re-evaluated
// (Cond, then Exprs over the table's columns), or dropped when it is gone
// or no longer qualifies.
type LockRows struct {
	EC    *EvalContext
	Input Operator
	Table fluss.Table
	KeyAt []int
	Mode  rowlock.Mode
	Wait  rowlock.Wait
	Cond  Expr
	Exprs []Expr
	// Max > 0 stops after that many rows; Max < 0 emits none (LIMIT 0).
	Max int64

	emitted int64
	kt      []types.T
}

func (o *LockRows) Schema() *arrow.Schema { return o.Input.Schema() }
func (o *LockRows) Close()                { o.Input.Close() }

func (o *LockRows) Next(ctx context.Context) (arrow.RecordBatch, error) {
	l, ok := o.Table.(RowLocker)
	if !ok {
		return nil, sqlerr.New(sqlerr.InternalError, "table %q cannot lock rows", o.Table.Info().Path.Table)
	}
	if o.kt == nil {
		o.kt = keyTypes(o.Table.Info())
	}
	for {
		if o.Max < 0 || o.Max > 0 && o.emitted >= o.Max {
			return nil, nil
		}
		b, err := o.Input.Next(ctx)
		if err != nil || b == nil {
			return b, err
		}
		out, err := o.lockBatch(ctx, l, b)
		b.Release()
		if err != nil {
			return nil, err
		}
		if out.NumRows() == 0 {
			out.Release()
			continue
		}
		o.emitted += out.NumRows()
		return out, nil
	}
}

// lockBatch locks b's rows one by one and returns those to emit.
func (o *LockRows) lockBatch(ctx context.Context, l RowLocker, b arrow.RecordBatch) (arrow.RecordBatch, error) {
	keys, err := keyStrings(o.kt, b, o.KeyAt)
	if err != nil {
		return nil, err
	}
	var keep []int32
	redone := map[int]arrow.RecordBatch{} // row -> its re-evaluated version
	defer func() {
		for _, r := range redone {
			r.Release()
		}
	}()
	for r, k := range keys {
		if o.Max > 0 && o.emitted+int64(len(keep)) >= o.Max {
			break
		}
		st, err := l.LockRows(ctx, []string{k}, RowLock{Mode: o.Mode, Wait: o.Wait})
		if err != nil {
			return nil, err
		}
		switch {
		case st == nil || st[0] == LockFresh:
			keep = append(keep, int32(r))
		case st[0] == LockChanged || st[0] == LockRewritten:
			// a row a concurrent UPDATE moved to another key is read
			// there (PostgreSQL follows its update chain)
			to, err := l.Follow(ctx, k, RowLock{Mode: o.Mode, Wait: o.Wait})
			if err != nil {
				return nil, err
			}
			if o.Mode == rowlock.KeyShare && to == "" && st[0] == LockChanged {
				// FOR KEY SHARE passes a change that kept the row at
				// its key when it did not wait for its writer:
				// PostgreSQL's heap_lock_tuple locks the version read
				// (TM_Ok, no re-check) and returns it as read; a row
				// gone is skipped
				there, err := o.stillThere(ctx, b, r)
				if err != nil {
					return nil, err
				}
				if there {
					keep = append(keep, int32(r))
				}
				continue
			}
			row, err := o.reread(ctx, b, r, to)
			if err != nil {
				return nil, err
			}
			if row != nil {
				redone[r] = row
				keep = append(keep, int32(r))
			}
		}
	}
	if len(redone) == 0 {
		return takeRows(o.EC, b, keep)
	}
	bld := array.NewRecordBuilder(o.EC.Mem, b.Schema())
	defer bld.Release()
	for c := range b.Schema().Fields() {
		fb := bld.Field(c)
		for _, r := range keep {
			src, i := b.Column(c), int(r)
			if nr, ok := redone[int(r)]; ok {
				src, i = nr.Column(c), 0
			}
			if err := format.AppendFrom(fb, src, i); err != nil {
				return nil, sqlerr.Wrap(err, sqlerr.InternalError, "copying a row: %v", err)
			}
		}
	}
	return bld.NewRecordBatch(), nil
}

// reread reads row r's newest version by its key (or the key encoding
// moved, where a concurrent UPDATE moved it) and re-evaluates it: its
// output row, or nil when it is gone or no longer satisfies Cond.
func (o *LockRows) reread(ctx context.Context, b arrow.RecordBatch, r int, moved string) (arrow.RecordBatch, error) {
	row, err := o.newest(ctx, b, r, moved)
	if err != nil || row == nil {
		return nil, err
	}
	defer row.Release()
	if row.NumRows() == 0 {
		return nil, nil
	}
	return o.reevaluate(b, row)
}

// newest reads row r of b's newest version by its key (or the key
// encoding moved): none, or an empty batch, when it is gone.
func (o *LockRows) newest(ctx context.Context, b arrow.RecordBatch, r int, moved string) (arrow.RecordBatch, error) {
	info := o.Table.Info()
	var key arrow.RecordBatch
	if moved != "" {
		var err error
		if key, err = KeyBatch(o.EC.Mem, info, []string{moved}); err != nil {
			return nil, err
		}
	} else {
		cols := make([]arrow.Array, len(o.KeyAt))
		for i, c := range o.KeyAt {
			cols[i] = array.NewSlice(b.Column(c), int64(r), int64(r+1))
		}
		key = array.NewRecordBatch(KeySchemaOf(info), cols, 1)
		for _, c := range cols {
			c.Release()
		}
	}
	all := make([]int, len(info.Descriptor.Schema.Columns))
	for i := range all {
		all[i] = i
	}
	row, err := o.Table.Lookup(ctx, key, all)
	key.Release()
	return row, err
}

// stillThere reports whether row r of b is still at its key.
func (o *LockRows) stillThere(ctx context.Context, b arrow.RecordBatch, r int) (bool, error) {
	row, err := o.newest(ctx, b, r, "")
	if err != nil || row == nil {
		return false, err
	}
	defer row.Release()
	return row.NumRows() > 0, nil
}

// reevaluate is reread's evaluation of row (one row): nil when it no
// longer satisfies Cond.
func (o *LockRows) reevaluate(b, row arrow.RecordBatch) (arrow.RecordBatch, error) {
	if o.Cond != nil {
		m, err := o.Cond.Eval(o.EC, row)
		if err != nil {
			return nil, err
		}
		bm, isBool := m.(*array.Boolean)
		ok := isBool && bm.IsValid(0) && bm.Value(0)
		m.Release()
		if !ok {
			return nil, nil
		}
	}
	out := make([]arrow.Array, len(o.Exprs))
	for i, e := range o.Exprs {
		var err error
		if out[i], err = e.Eval(o.EC, row); err != nil {
			for _, a := range out[:i] {
				a.Release()
			}
			return nil, err
		}
	}
	rec := array.NewRecordBatch(b.Schema(), out, 1)
	for _, a := range out {
		a.Release()
	}
	return rec, nil
}
