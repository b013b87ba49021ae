package rowlock

import (
	"context"
	"fmt"
	"hash/maphash"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// Mode is a row-lock strength, weakest first. Each mode blocks a superset of
// what the weaker ones block, so holding a mode covers every weaker one.
type Mode uint8

const (
	// KeyShare is SELECT ... FOR KEY SHARE.
	KeyShare Mode = iota + 1
	// Share is SELECT ... FOR SHARE.
	Share
	// NoKeyUpdate is SELECT ... FOR NO KEY UPDATE, and an UPDATE that
	// changes no key column.
	NoKeyUpdate
	// Update is SELECT ... FOR UPDATE, DELETE, an UPDATE of a key column,
	// and an INSERT (upsert) of the key.
	Update
)

// String names the mode as PostgreSQL's SELECT clause does.
func (m Mode) String() string {
	switch m {
	case KeyShare:
		return "FOR KEY SHARE"
	case Share:
		return "FOR SHARE"
	case NoKeyUpdate:
		return "FOR NO KEY UPDATE"
	case Update:
		return "FOR UPDATE"
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// rowConflict is PostgreSQL's row-lock conflict table (explicit locking,
// "Conflicting Row-Level Locks"): with the modes numbered 1..4 as above,
// two modes conflict exactly when their numbers add up to more than 4.
func rowConflict(a, b Mode) bool { return a+b > 4 }

// TableMode is a table-level lock mode: PostgreSQL's eight, weakest
// first, with its conflict table (explicit locking, "Conflicting Lock
// Modes"). A transaction may hold several modes of one table at once
// (a SELECT's ACCESS SHARE and an UPDATE's ROW EXCLUSIVE), so a table's
// resource keeps, per holder, the set of modes it holds (a bit per mode,
// tableBit) where a row's keeps its strongest mode.
type TableMode uint8

const (
	// AccessShareLock is a read's (SELECT, and the tables a write reads).
	AccessShareLock TableMode = iota + 1
	// RowShareLock is SELECT ... FOR UPDATE/SHARE's, under its row locks.
	RowShareLock
	// RowExclusiveLock is a write's (INSERT, UPDATE, DELETE, MERGE, COPY).
	RowExclusiveLock
	// ShareUpdateExclusiveLock is VACUUM's, ANALYZE's, and some ALTER TABLE
	// actions'.
	ShareUpdateExclusiveLock
	// ShareLock is CREATE INDEX's: writers wait, readers do not.
	ShareLock
	// ShareRowExclusiveLock is CREATE TRIGGER's and ADD FOREIGN KEY's.
	ShareRowExclusiveLock
	// ExclusiveLock admits readers only: a bulk write or an escalation
	// holding the table instead of its rows.
	ExclusiveLock
	// AccessExclusiveLock is DDL's (ALTER TABLE, DROP TABLE, TRUNCATE):
	// it waits for, and holds off, every other lock of the table.
	AccessExclusiveLock
)

var tableModeNames = [...]string{"", "AccessShareLock", "RowShareLock", "RowExclusiveLock", "ShareUpdateExclusiveLock",
	"ShareLock", "ShareRowExclusiveLock", "ExclusiveLock", "AccessExclusiveLock"}

// String names the mode as pg_locks does.
func (m TableMode) String() string {
	if int(m) < len(tableModeNames) && m > 0 {
		return tableModeNames[m]
	}
	return fmt.Sprintf("TableMode(%d)", uint8(m))
}

// ParseTableMode reads a mode as LOCK TABLE's IN ... MODE spells it
// ("ACCESS SHARE", any case, words separated by spaces) or as pg_locks
// names it ("AccessShareLock").
func ParseTableMode(s string) (TableMode, bool) {
	key := strings.ToLower(strings.Join(strings.Fields(s), ""))
	for m := AccessShareLock; m <= AccessExclusiveLock; m++ {
		name := strings.ToLower(tableModeNames[m])
		if key == name || key == strings.TrimSuffix(name, "lock") {
			return m, true
		}
	}
	return 0, false
}

// tableBit is the bit of mode m in a holder's set of table modes.
func tableBit(m TableMode) Mode { return Mode(1) << (m - 1) }

// tableConflicts[m] is the set of modes mode m conflicts with.
var tableConflicts = [...]Mode{
	AccessShareLock:          tableBit(AccessExclusiveLock),
	RowShareLock:             tableBit(ExclusiveLock) | tableBit(AccessExclusiveLock),
	RowExclusiveLock:         tableBit(ShareLock) | tableBit(ShareRowExclusiveLock) | tableBit(ExclusiveLock) | tableBit(AccessExclusiveLock),
	ShareUpdateExclusiveLock: tableBit(ShareUpdateExclusiveLock) | tableBit(ShareLock) | tableBit(ShareRowExclusiveLock) | tableBit(ExclusiveLock) | tableBit(AccessExclusiveLock),
	ShareLock:                tableBit(RowExclusiveLock) | tableBit(ShareUpdateExclusiveLock) | tableBit(ShareRowExclusiveLock) | tableBit(ExclusiveLock) | tableBit(AccessExclusiveLock),
	ShareRowExclusiveLock:    tableBit(RowExclusiveLock) | tableBit(ShareUpdateExclusiveLock) | tableBit(ShareLock) | tableBit(ShareRowExclusiveLock) | tableBit(ExclusiveLock) | tableBit(AccessExclusiveLock),
	ExclusiveLock:            ^(tableBit(AccessShareLock) | 0),
	AccessExclusiveLock:      ^Mode(0),
}

// TableModesConflict reports whether two table lock modes conflict.
func TableModesConflict(a, b TableMode) bool { return tableConflicts[a]&tableBit(b) != 0 }

// tableConflict reports whether two sets of table modes (tableBit's) hold
// a pair of modes that conflict.
func tableConflict(a, b Mode) bool {
	for m := AccessShareLock; m <= AccessExclusiveLock; m++ {
		if a&tableBit(m) != 0 && tableConflicts[m]&b != 0 {
			return true
		}
	}
	return false
}

// advisoryConflict is the advisory locks' conflict table: exclusive
// conflicts with both modes (advisory.go).
func advisoryConflict(a, b Mode) bool { return a == advisoryExclusive || b == advisoryExclusive }

// Wait says what a conflicting request does.
type Wait uint8

const (
	// Block waits for the lock.
	Block Wait = iota
	// NoWait fails at once with 55P03.
	NoWait
	// SkipLocked reports Skipped at once.
	SkipLocked
)

// Outcome is how a lock was obtained.
type Outcome uint8

const (
	// Granted at once.
	Granted Outcome = iota
	// Waited: granted after another transaction released it, so the row
	// may have changed since the caller read it.
	Waited
	// Skipped: held by another transaction, and the request said SkipLocked.
	Skipped
	// Stopped: not locked; a transaction that wrote the row committed
	// while the request waited (Request.StopOnWrite).
	Stopped
)

// Options bounds a Manager.
type Options struct {
	// MaxLocks is how many row locks all transactions may hold together;
	// beyond it a request fails with 53200. 0 means 4,194,304.
	MaxLocks int
	// EscalateAt is how many row locks of one table one transaction holds
	// before it tries to lock the whole table instead. 0 means 4096.
	EscalateAt int
	// StampSlots is the size of the table of version stamps (rounded up to
	// a power of two). 0 means 65,536.
	StampSlots int
	// MaxMoves bounds the log of rows moved to other keys (moves.go).
	// 0 means 65,536.
	MaxMoves int
}

// Manager holds the locks of one server.
type Manager struct {
	opts Options
	seed maphash.Seed

	mu     sync.Mutex
	res    map[resKey]*resource
	count  int // row locks held
	nextID uint64
	// seq is the newest commit's sequence number; stamps[h] the newest
	// sequence number of a commit that wrote a key hashing to h, and
	// tableStamps that of a commit that wrote a table it had locked whole.
	seq         uint64
	stamps      []uint64
	tableStamps map[int64]uint64
	owners      map[*Txn]struct{}
	// moves is the log of committed moves of rows to other keys
	// (moves.go), moveOrder its keys in commit order, movesForgotten the
	// newest sequence number of a move forgotten.
	moves          map[resKey][]move
	moveOrder      []resKey
	movesForgotten uint64
	// written is the log of committed writes of rows (moves.go: the
	// newest commit's sequence number of each row written), writeOrder
	// its entries in commit order, writesForgotten the newest sequence
	// number of a write forgotten.
	written         map[resKey]uint64
	writeOrder      []writeEntry
	writesForgotten uint64
	// spare are resources nobody holds or awaits any more, kept for the
	// next ones (at most maxSpare): a one-row transaction locks its table
	// and its row, two resources and their holder lists made and dropped
	// at every transaction.
	spare []*resource
}

// maxSpare bounds Manager.spare.
const maxSpare = 256

// New returns an empty lock manager.
func New(opts Options) *Manager {
	if opts.MaxLocks <= 0 {
		opts.MaxLocks = 1 << 22
	}
	if opts.EscalateAt <= 0 {
		opts.EscalateAt = 4096
	}
	if opts.MaxMoves <= 0 {
		opts.MaxMoves = 1 << 16
	}
	n := 1 << 16
	if opts.StampSlots > 0 {
		for n = 1; n < opts.StampSlots; n <<= 1 {
		}
	}
	// seq starts at 1: a Request.Since of 0 means "not asked".
	return &Manager{opts: opts, seed: maphash.MakeSeed(), res: map[resKey]*resource{}, seq: 1,
		stamps: make([]uint64, n), tableStamps: map[int64]uint64{}, owners: map[*Txn]struct{}{}}
}

// resKey names a lockable thing: a row (table, key), whole, a table, or,
// advisory, an advisory lock (key is AdvisoryKey.tag's encoding).
type resKey struct {
	table    int64
	key      string
	whole    bool
	advisory bool
}

type resource struct {
	key     resKey
	name    string // the table's name, for messages
	holders []holder
	waiters []*waiter
}

type holder struct {
	t    *Txn
	mode Mode
}

type waiter struct {
	t       *Txn
	mode    Mode
	ready   chan struct{}
	granted bool
	since   time.Time
	// overwritten: a transaction that had written the row committed
	// while this waiter waited (Result.Overwritten).
	overwritten bool
	// stopOnWrite: the wait ends, without the lock, when a transaction
	// that wrote the row commits (Request.StopOnWrite); stopped: it did.
	stopOnWrite, stopped bool
	// write: the lock is granted as a write's (Request.Write), so that
	// AwaitWriters' waiters that look after the grant wait for it.
	write bool
}

func (r *resource) conflicts(a, b Mode) bool {
	switch {
	case r.key.whole:
		return tableConflict(a, b)
	case r.key.advisory:
		return advisoryConflict(a, b)
	}
	return rowConflict(a, b)
}

// covers reports whether a holder's mode have includes want: on a table,
// every mode of the set want is in have; elsewhere a mode covers every
// weaker one.
func (r *resource) covers(have, want Mode) bool {
	if r.key.whole {
		return have&want == want
	}
	return have >= want
}

// join is a holder's mode once it also holds want.
func (r *resource) join(have, want Mode) Mode {
	if r.key.whole {
		return have | want
	}
	return max(have, want)
}

// queued reports whether a request of t for mode must queue behind the
// waiters of r: on a table, as in PostgreSQL, a request that conflicts
// with an earlier waiter's waits behind it (an ALTER TABLE waiting for a
// reader holds off the readers that come after it), unless t already
// holds a lock of the table (it goes ahead, as PostgreSQL lets a lock
// holder pass the waiters it would otherwise deadlock with). Rows and
// advisory locks wait for holders only.
func (r *resource) queued(t *Txn, mode Mode) bool {
	if !r.key.whole || r.holderIndex(t) >= 0 {
		return false
	}
	for _, w := range r.waiters {
		if !t.sameSession(w.t) && tableConflict(w.mode, mode) {
			return true
		}
	}
	return false
}

func (r *resource) holderIndex(t *Txn) int {
	for i, h := range r.holders {
		if h.t == t {
			return i
		}
	}
	return -1
}

// blockers lists the other sessions' owners holding r in a mode that
// conflicts with mode.
func (r *resource) blockers(t *Txn, mode Mode) []*Txn {
	var out []*Txn
	for _, h := range r.holders {
		if !t.sameSession(h.t) && r.blocks(h, mode) {
			out = append(out, h.t)
		}
	}
	if r.key.whole && r.holderIndex(t) < 0 {
		// the waiters ahead of t that it queues behind (queued)
		for _, w := range r.waiters {
			if w.t == t {
				break
			}
			if !t.sameSession(w.t) && tableConflict(w.mode, mode) {
				out = append(out, w.t)
			}
		}
	}
	return out
}

func (r *resource) compatible(t *Txn, mode Mode) bool {
	for _, h := range r.holders {
		if !t.sameSession(h.t) && r.blocks(h, mode) {
			return false
		}
	}
	return true
}

// keyAfterWrite reports whether a FOR KEY SHARE request of t is blocked
// only by holders whose lock is keyAfter (and by no waiter ahead of it):
// PostgreSQL's heap_lock_tuple grants FOR KEY SHARE over the version such
// a holder updated without changing the key, then, to lock the newer
// versions too (heap_lock_updated_tuple), waits for the holder's change
// of the key, with no regard to NOWAIT or SKIP LOCKED. So such a request
// waits whatever its Wait. The caller holds the manager's mutex.
func (r *resource) keyAfterWrite(t *Txn, mode Mode) bool {
	if mode != KeyShare || r.key.whole || r.queued(t, mode) {
		return false
	}
	for _, h := range r.holders {
		if !t.sameSession(h.t) && r.blocks(h, mode) && !h.t.held[r.key].keyAfter {
			return false
		}
	}
	return true
}

// awaitWrite is the mode of AwaitWriters' wait: no lock, only the end of
// every other transaction that wrote the row.
const awaitWrite Mode = 0

// blocks reports whether holder h blocks a request for mode on r: a
// conflicting mode, or, for AwaitWriters (awaitWrite), a holder that wrote
// the row. The caller holds the manager's mutex (h.t.held).
func (r *resource) blocks(h holder, mode Mode) bool {
	if mode == awaitWrite {
		return !r.key.whole && h.t.held[r.key].write
	}
	return r.conflicts(h.mode, mode)
}

// smallHeld is the size of a Txn's held map past which Release replaces it.
const smallHeld = 64

// held is one lock a transaction holds.
type held struct {
	mode  Mode
	write bool
	// keyAfter: the transaction wrote the row under FOR NO KEY UPDATE (an
	// UPDATE of other columns) and then raised its lock to FOR UPDATE (to
	// change its key, delete it, or lock it so): its first new version
	// left the key as it was (see keyAfterWrite).
	keyAfter bool
	// counts, for an advisory lock, is how many times it is held in
	// share (0) and exclusive (1) mode: each lock call needs its unlock.
	counts [2]int32
}

// Txn owns the locks of one transaction of one session. A session keeps its
// Txn across transactions: Release ends a transaction's locks and the next
// lock starts a new transaction (with a new id). Its methods are called from
// the session's goroutine only; Manager.Locks reads it under the manager's
// lock.
type Txn struct {
	m   *Manager
	pid int32
	// The fields below are guarded by m.mu.
	id       uint64 // 0: holds nothing
	held     map[resKey]held
	perTable map[int64]int
	// whole: tables this transaction has locked whole; the value says
	// whether it wrote them.
	whole    map[int64]bool
	waiting  *resource
	waitMode Mode
	stmt     string
	// grown: held passed smallHeld entries in this transaction. A Go map
	// keeps its size after deletions and iterating it walks all of it, so
	// Release then drops the map instead of emptying it: a session that
	// once locked many rows would otherwise pay for them at every commit.
	grown bool
	// deadlockTimeout is the running statement's deadlock_timeout.
	deadlockTimeout time.Duration
	// session marks the owner of a session's session-level advisory
	// locks (NewSessionTxn), which no transaction's end releases; peer
	// links it with the session's transaction owner and back. A session's
	// two owners never conflict with each other, and a deadlock search
	// sees them as one process, as PostgreSQL's lock manager sees one
	// backend.
	session bool
	peer    *Txn
	// moves are the rows this transaction's statements moved to other
	// keys, logged at its commit; moveSets counts the statements
	// (moves.go).
	moves    []pendingMove
	moveSets int
	// marked: a savepoint was made (LocksMark), so lockLog records
	// each row lock's mode before the transaction took or raised it,
	// which RollbackLocks restores (savepoint.go).
	marked  bool
	lockLog []lockUndo
	// overwritten is the last wait's waiter.overwritten; stopped its
	// waiter.stopped; stopOnWrite and writing the running Lock's
	// Request.StopOnWrite and Request.Write.
	overwritten, stopped, stopOnWrite, writing bool
	// waited: the row locks Lock obtained by waiting, with their state
	// before (Unwait).
	waited map[resKey]lockUndo
}

// NewTxn returns the lock owner of a session whose backend process id (as
// pg_locks and deadlock reports show it) is pid.
func (m *Manager) NewTxn(pid int32) *Txn {
	return &Txn{m: m, pid: pid}
}

// NewSessionTxn returns the owner of the session-level advisory locks of
// the session whose transactions' owner is tx (advisory.go).
func (m *Manager) NewSessionTxn(tx *Txn) *Txn {
	m.mu.Lock()
	defer m.mu.Unlock()
	st := &Txn{m: m, pid: tx.pid, session: true, peer: tx}
	tx.peer = st
	return st
}

// sameSession says whether o belongs to t's session: t itself or its peer.
func (t *Txn) sameSession(o *Txn) bool { return o == t || o == t.peer && o != nil }

// waitingOwner is the owner of t's session that waits, if one does: a
// session waits for one lock at a time, for a transaction or a
// session-level lock.
func (t *Txn) waitingOwner() *Txn {
	if t.waiting == nil && t.peer != nil && t.peer.waiting != nil {
		return t.peer
	}
	return t
}

// Seq is the newest commit's sequence number: what a statement (or a
// transaction's snapshot) compares stamps with.
func (m *Manager) Seq() uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.seq
}

func (m *Manager) slot(table int64, key string) int {
	var h maphash.Hash
	h.SetSeed(m.seed)
	var b [8]byte
	for i := range b {
		b[i] = byte(table >> (8 * i))
	}
	h.Write(b[:])
	h.WriteString(key)
	return int(h.Sum64() & uint64(len(m.stamps)-1))
}

// changed reports whether a commit after since may have written the row.
// The caller holds m.mu.
func (m *Manager) changed(table int64, key string, since uint64) bool {
	return m.stamps[m.slot(table, key)] > since || m.tableStamps[table] > since
}

// Changed reports whether a commit with a sequence number above since may
// have written the row (table, key).
func (m *Manager) Changed(table int64, key string, since uint64) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.changed(table, key, since)
}

// Request is one row-lock request.
type Request struct {
	Table int64
	// Name is the table's name, for messages.
	Name string
	// Key is the Fluss key encoding of the row's primary key.
	Key  string
	Mode Mode
	Wait Wait
	// Timeout is lock_timeout (0: none).
	Timeout time.Duration
	// DeadlockTimeout is deadlock_timeout (0: one second): how long a wait
	// lasts before it checks for a deadlock (see acquire).
	DeadlockTimeout time.Duration
	// Write marks the row as written by the transaction: its commit
	// stamps it.
	Write bool
	// Since, when not 0, asks whether the row changed after that sequence
	// number (Result.Changed).
	Since uint64
	// StopOnWrite: a wait for the row ends, without the lock, as soon as
	// a transaction that wrote the row commits (Result.Overwritten, the
	// Outcome Stopped): a REPEATABLE READ transaction fails then, as
	// PostgreSQL's finds the version its snapshot saw updated by a
	// committed transaction (TM_Updated) without waiting for the row's
	// next locker.
	StopOnWrite bool
	// Statement is the text of the statement asking, for deadlock reports
	// and pg_locks.
	Statement string
	// TableMode is the table lock LockRelation and LockWhole take (0:
	// RowExclusiveLock and AccessExclusiveLock).
	TableMode TableMode
}

// Result is the answer to a Request.
type Result struct {
	Outcome Outcome
	// Changed: the row may have changed since Request.Since (a commit
	// stamped it, or the request waited).
	Changed bool
	// Overwritten: the request waited, and a transaction that had
	// written the row (not only locked it) committed meanwhile: the row
	// the caller finds is another version, even if its values are the
	// same (PostgreSQL's TM_Updated or TM_Deleted after a wait).
	Overwritten bool
}

// Lock takes a row lock for the transaction.
func (t *Txn) Lock(ctx context.Context, req Request) (Result, error) {
	m := t.m
	m.mu.Lock()
	defer m.mu.Unlock()
	whole, out, err := t.tableUnder(ctx, req)
	switch {
	case whole:
		return Result{Changed: req.Since != 0 && m.changed(req.Table, req.Key, req.Since)}, nil
	case err != nil || out == Skipped:
		return Result{Outcome: out}, err
	}
	// a wait for the table was for a transaction holding it whole, which
	// may have written the row
	waited := out == Waited
	rk := resKey{table: req.Table, key: req.Key}
	prev, had := t.held[rk]
	t.overwritten, t.stopOnWrite, t.writing = false, req.StopOnWrite, req.Write
	out, err = t.acquire(ctx, rk, req.Name, req.Mode, req.Wait, req.Timeout)
	t.stopOnWrite, t.writing = false, false
	if err != nil || out == Skipped {
		return Result{Outcome: out}, err
	}
	if out == Stopped {
		return Result{Outcome: Stopped, Changed: true, Overwritten: true}, nil
	}
	if out == Waited {
		if t.waited == nil {
			t.waited = map[resKey]lockUndo{}
		}
		t.waited[rk] = lockUndo{rk: rk, prev: prev, had: had}
	}
	if waited {
		out = Waited
	}
	if h := t.held[rk]; req.Write && !h.write {
		h.write = true
		t.held[rk] = h
	}
	if t.marked {
		t.logLock(rk, prev, had)
	}
	res := Result{Outcome: out, Changed: out == Waited || req.Since != 0 && m.changed(req.Table, req.Key, req.Since),
		Overwritten: out == Waited && t.overwritten}
	if !had {
		t.perTable[req.Table]++
		if t.perTable[req.Table] > m.opts.EscalateAt {
			t.escalate(req.Table)
		}
	}
	return res, nil
}

// Unwrite marks the row lock of (table, key) as a lock only: the
// statement that took it to write the row did not write it after all (its
// re-check of the newest version failed), and the transaction has not
// written the row otherwise. PostgreSQL's EvalPlanQual leaves such a row
// locked (heap_lock_tuple) but not updated, so its commit is no write
// that a REPEATABLE READ waiter fails on or an ON CONFLICT check waits for.
func (t *Txn) Unwrite(table int64, key string) {
	m := t.m
	m.mu.Lock()
	defer m.mu.Unlock()
	rk := resKey{table: table, key: key}
	if h, ok := t.held[rk]; ok && h.write {
		h.write = false
		t.held[rk] = h
		if r := m.res[rk]; r != nil {
			m.wake(r) // an ON CONFLICT check waits for writers only
			m.tidy(r)
		}
	}
}

// tableUnder starts a row request of t: the transaction, and the lock of
// the row's table its row locks are taken under (ROW EXCLUSIVE under a
// write's, ROW SHARE under SELECT ... FOR UPDATE's), unless t holds it;
// whole: t holds the table whole, and takes no row lock in it. The caller
// holds m.mu.
func (t *Txn) tableUnder(ctx context.Context, req Request) (whole bool, out Outcome, err error) {
	t.begin(req.Statement)
	t.deadlockTimeout = req.DeadlockTimeout
	if wrote, ok := t.whole[req.Table]; ok {
		t.whole[req.Table] = wrote || req.Write
		return true, Granted, nil
	}
	tk := resKey{table: req.Table, whole: true}
	tm := RowShareLock
	if req.Write {
		tm = RowExclusiveLock
	}
	if h, ok := t.held[tk]; ok && h.mode&tableBit(tm) != 0 {
		return false, Granted, nil
	}
	out, err = t.acquire(ctx, tk, req.Name, tableBit(tm), req.Wait, req.Timeout)
	return false, out, err
}

// LockIntent takes the table's intent lock alone, as PostgreSQL's INSERT
// takes ROW EXCLUSIVE and locks no row: an append to a table without a
// key, or a write before it runs. It is LockRelation in req.TableMode,
// RowExclusiveLock when that is 0.
func (t *Txn) LockIntent(ctx context.Context, req Request) error {
	if req.TableMode == 0 {
		req.TableMode = RowExclusiveLock
	}
	return t.LockRelation(ctx, req)
}

// LockRelation takes the table lock req.TableMode for the transaction,
// held until it ends, waiting (as req.Wait, req.Timeout and the deadlock
// check say) for the transactions holding a conflicting mode and for the
// earlier waiters it conflicts with (queued). Only Table, Name, Wait,
// Timeout, DeadlockTimeout, Statement and TableMode of req are read.
func (t *Txn) LockRelation(ctx context.Context, req Request) error {
	m := t.m
	bit := tableBit(req.TableMode)
	tk := resKey{table: req.Table, whole: true}
	m.mu.Lock()
	defer m.mu.Unlock()
	if h, ok := t.held[tk]; ok && h.mode&bit == bit {
		return nil
	}
	t.begin(req.Statement)
	t.deadlockTimeout = req.DeadlockTimeout
	_, err := t.acquire(ctx, tk, req.Name, bit, req.Wait, req.Timeout)
	if err != nil && len(t.held) == 0 {
		t.end() // (advisory.go)
	}
	return err
}

// AwaitRelation waits until the transaction could take the table lock
// req.TableMode, as LockRelation does, but keeps it only if it already
// held it: a statement bound outside a transaction waits for the DDL that
// holds or awaits its tables, so that it is bound to the table as the DDL
// leaves it, and takes its locks when it runs. It takes the manager's
// mutex once when nothing conflicts.
func (t *Txn) AwaitRelation(ctx context.Context, req Request) error {
	m := t.m
	bit := tableBit(req.TableMode)
	tk := resKey{table: req.Table, whole: true}
	m.mu.Lock()
	defer m.mu.Unlock()
	h, had := t.held[tk]
	if had && h.mode&bit == bit {
		return nil
	}
	if r := m.res[tk]; r == nil || r.compatible(t, bit) && !r.queued(t, bit) {
		return nil
	}
	t.begin(req.Statement)
	t.deadlockTimeout = req.DeadlockTimeout
	_, err := t.acquire(ctx, tk, req.Name, bit, req.Wait, req.Timeout)
	if err == nil {
		if had {
			// back to the modes it held
			r := m.res[tk]
			r.holders[r.holderIndex(t)].mode = h.mode
			t.held[tk] = h
			m.wake(r)
		} else {
			t.releaseOne(tk)
		}
	}
	if len(t.held) == 0 {
		t.end()
	}
	return err
}

// LockTable locks a whole table for the transaction when no other
// transaction holds locks in it, and reports whether it did: a bulk write
// takes one lock instead of one per row. It never waits.
func (t *Txn) LockTable(table int64, name, statement string, write bool) bool {
	m := t.m
	m.mu.Lock()
	defer m.mu.Unlock()
	t.begin(statement)
	if wrote, ok := t.whole[table]; ok {
		t.whole[table] = wrote || write
		return true
	}
	if _, err := t.acquire(context.Background(), resKey{table: table, whole: true}, name, tableBit(ExclusiveLock), NoWait, 0); err != nil {
		if len(t.held) == 0 {
			t.end()
		}
		return false
	}
	t.wholeTable(table, write)
	return true
}

// LockWhole locks a whole table for the transaction in req.TableMode
// (AccessExclusiveLock when 0: DDL's; ExclusiveLock or
// AccessExclusiveLock hold off every other row locker), waiting, as
// req.Wait, req.Timeout and the deadlock check say, for the transactions
// holding conflicting locks in it: a writer of the table then waits for
// this transaction. The table counts as written. Only Table, Name, Wait,
// Timeout, DeadlockTimeout, Statement and TableMode of req are read.
func (t *Txn) LockWhole(ctx context.Context, req Request) error {
	if req.TableMode == 0 {
		req.TableMode = AccessExclusiveLock
	}
	if req.TableMode < ExclusiveLock {
		// other transactions may still lock its rows: the table is not
		// the transaction's alone
		return t.LockRelation(ctx, req)
	}
	m := t.m
	m.mu.Lock()
	defer m.mu.Unlock()
	t.begin(req.Statement)
	t.deadlockTimeout = req.DeadlockTimeout
	tk := resKey{table: req.Table, whole: true}
	if h, ok := t.held[tk]; ok && h.mode&tableBit(req.TableMode) != 0 {
		t.whole[req.Table] = true
		return nil
	}
	if _, err := t.acquire(ctx, tk, req.Name, tableBit(req.TableMode), req.Wait, req.Timeout); err != nil {
		if len(t.held) == 0 {
			t.end()
		}
		return err
	}
	t.wholeTable(req.Table, true)
	return nil
}

// escalate trades the transaction's row locks of table for the whole
// table, when nobody else holds locks in it. The caller holds m.mu.
func (t *Txn) escalate(table int64) {
	r := t.m.res[resKey{table: table, whole: true}]
	if r == nil || !r.compatible(t, tableBit(ExclusiveLock)) {
		return
	}
	if _, err := t.acquire(context.Background(), resKey{table: table, whole: true}, r.name, tableBit(ExclusiveLock), NoWait, 0); err != nil {
		return
	}
	t.wholeTable(table, false)
}

// wholeTable records that t holds table whole and releases its row locks
// there, now covered; the table counts as written when write is set or a
// dropped row lock was written. The caller holds m.mu.
func (t *Txn) wholeTable(table int64, write bool) {
	for k, h := range t.held {
		if !k.whole && !k.advisory && k.table == table {
			write = write || h.write
			t.releaseOne(k)
		}
	}
	delete(t.perTable, table)
	t.whole[table] = write
}

// begin starts the transaction's lock state on its first lock. The caller
// holds m.mu.
func (t *Txn) begin(statement string) {
	if statement != "" {
		t.stmt = statement
	}
	if t.id != 0 {
		return
	}
	t.m.nextID++
	t.id = t.m.nextID
	if t.held == nil {
		t.held = map[resKey]held{}
		t.perTable = map[int64]int{}
		t.whole = map[int64]bool{}
	}
	t.m.owners[t] = struct{}{}
}

// acquire obtains rk in mode, waiting as w says. The caller holds m.mu,
// which acquire releases while it waits.
func (t *Txn) acquire(ctx context.Context, rk resKey, name string, mode Mode, w Wait, timeout time.Duration) (Outcome, error) {
	m := t.m
	r := m.res[rk]
	if r == nil {
		if !rk.whole && m.count >= m.opts.MaxLocks {
			return Granted, sqlerr.New(sqlerr.OutOfMemory, "out of shared memory").
				WithDetail("The server holds %d row locks, its limit.", m.opts.MaxLocks).
				WithHint("Lock or change fewer rows per transaction.")
		}
		if n := len(m.spare); n > 0 {
			r = m.spare[n-1]
			m.spare[n-1] = nil
			m.spare = m.spare[:n-1]
			r.key, r.name = rk, name
		} else {
			r = &resource{key: rk, name: name}
		}
		m.res[rk] = r
	}
	if i := r.holderIndex(t); i >= 0 && r.covers(r.holders[i].mode, mode) {
		return Granted, nil
	}
	if r.compatible(t, mode) && !r.queued(t, mode) {
		m.grant(r, t, mode)
		return Granted, nil
	}
	if w != Block && r.keyAfterWrite(t, mode) {
		w = Block
	}
	switch w {
	case NoWait:
		m.tidy(r)
		if rk.whole {
			return Granted, sqlerr.New(sqlerr.LockNotAvailable, "could not obtain lock on relation \"%s\"", name)
		}
		return Granted, sqlerr.New(sqlerr.LockNotAvailable, "could not obtain lock on row in relation \"%s\"", name)
	case SkipLocked:
		m.tidy(r)
		return Skipped, nil
	}
	if w := r.earlyDeadlock(t, mode); w != nil {
		// PostgreSQL's early deadlock check (JoinWaitQueue): no need to
		// wait deadlock_timeout for a cycle of two on one table
		t.waiting, t.waitMode = r, mode
		err := m.deadlockError([]*Txn{t, w})
		t.waiting = nil
		m.tidy(r)
		return Granted, err
	}
	if err := t.wait(ctx, r, mode, timeout); err != nil {
		return Granted, err
	}
	if t.stopped {
		return Stopped, nil
	}
	return Waited, nil
}

// wait queues t for mode on r until wake grants it (or, for awaitWrite,
// lets it go), as the request's context, its lock_timeout (timeout) and
// the deadlock check allow. The caller holds m.mu, which wait releases
// while it waits. t.overwritten tells, once granted, whether a transaction
// that committed while t waited had written the row.
func (t *Txn) wait(ctx context.Context, r *resource, mode Mode, timeout time.Duration) error {
	m := t.m
	wt := &waiter{t: t, mode: mode, ready: make(chan struct{}), since: time.Now(), stopOnWrite: t.stopOnWrite, write: t.writing}
	t.stopped = false
	r.waiters = append(r.waiters, wt)
	t.waiting, t.waitMode = r, mode
	var timeoutC <-chan time.Time
	if timeout > 0 {
		tm := time.NewTimer(timeout)
		defer tm.Stop()
		timeoutC = tm.C
	}
	// As PostgreSQL does, a wait checks for a deadlock once, when it has
	// lasted deadlock_timeout, and fails itself if it is in a cycle: of
	// the transactions of a deadlock, the one whose check comes first
	// fails, and no cycle is looked for while locks are usually granted
	// quickly.
	dt := t.deadlockTimeout
	if dt <= 0 {
		dt = time.Second
	}
	check := time.NewTimer(dt)
	defer check.Stop()
	checkC := check.C
	m.mu.Unlock()
	var err error
wait:
	for {
		select {
		case <-wt.ready:
			break wait
		case <-ctx.Done():
			err = ctx.Err()
			break wait
		case <-timeoutC:
			err = sqlerr.New(sqlerr.LockNotAvailable, "canceling statement due to lock timeout")
			break wait
		case <-checkC:
			checkC = nil
			m.mu.Lock()
			var cycle []*Txn
			if !wt.granted && !wt.stopped {
				cycle = m.findCycle(t)
			}
			if cycle != nil {
				err = m.deadlockError(cycle)
			}
			m.mu.Unlock()
			if err != nil {
				break wait
			}
		}
	}
	m.mu.Lock()
	t.waiting = nil
	if wt.granted || wt.stopped {
		t.overwritten, t.stopped = wt.overwritten, wt.stopped
		return nil
	}
	r.removeWaiter(wt)
	m.tidy(r)
	return err
}

// AwaitWriters waits, taking no row lock, until no other transaction holds
// the row req names having written it (inserted, updated or deleted it):
// the wait of PostgreSQL's INSERT ... ON CONFLICT for the in-progress
// writer of a conflicting row (check_exclusion_or_unique_constraint under
// a dirty snapshot, which lets mere row lockers through). The table's
// ROW EXCLUSIVE lock is taken as Lock takes it. Result.Overwritten says
// whether a writer it waited for committed.
func (t *Txn) AwaitWriters(ctx context.Context, req Request) (Result, error) {
	m := t.m
	m.mu.Lock()
	defer m.mu.Unlock()
	req.Write, req.Wait = true, Block
	if whole, _, err := t.tableUnder(ctx, req); whole || err != nil {
		return Result{}, err
	}
	r := m.res[resKey{table: req.Table, key: req.Key}]
	if r == nil || r.compatible(t, awaitWrite) {
		return Result{}, nil
	}
	t.overwritten = false
	if err := t.wait(ctx, r, awaitWrite, req.Timeout); err != nil {
		return Result{}, err
	}
	return Result{Outcome: Waited, Overwritten: t.overwritten}, nil
}

// overwrite marks r's waiters: a transaction that wrote the row commits.
// Those that stop on a write (Request.StopOnWrite) leave the queue. The
// caller holds m.mu.
func (m *Manager) overwrite(r *resource) {
	kept := r.waiters[:0]
	for _, w := range r.waiters {
		w.overwritten = true
		if w.stopOnWrite && !w.granted {
			w.stopped = true
			close(w.ready)
			continue
		}
		kept = append(kept, w)
	}
	for i := len(kept); i < len(r.waiters); i++ {
		r.waiters[i] = nil
	}
	r.waiters = kept
}

func (r *resource) removeWaiter(wt *waiter) {
	for i, x := range r.waiters {
		if x == wt {
			r.waiters = append(r.waiters[:i], r.waiters[i+1:]...)
			return
		}
	}
}

// grant gives t the lock (or raises its mode). The caller holds m.mu.
func (m *Manager) grant(r *resource, t *Txn, mode Mode) {
	if i := r.holderIndex(t); i >= 0 {
		if !r.covers(r.holders[i].mode, mode) {
			r.holders[i].mode = r.join(r.holders[i].mode, mode)
			h := t.held[r.key]
			h.keyAfter = h.keyAfter || h.write && h.mode == NoKeyUpdate && mode == Update
			h.mode = r.holders[i].mode
			t.held[r.key] = h
		}
		return
	}
	r.holders = append(r.holders, holder{t: t, mode: mode})
	t.held[r.key] = held{mode: mode}
	if len(t.held) > smallHeld {
		t.grown = true
	}
	if !r.key.whole {
		m.count++
	}
}

// earlyDeadlock is, for a request of t for mode on a table it holds locks
// of, a waiter of the table that waits for t's locks while t would wait
// for the waiter's: a deadlock PostgreSQL reports at once, to the
// requester, rather than after deadlock_timeout. Nil when there is none.
func (r *resource) earlyDeadlock(t *Txn, mode Mode) *Txn {
	i := r.holderIndex(t)
	if !r.key.whole || i < 0 {
		return nil
	}
	mine := r.holders[i].mode
	for _, w := range r.waiters {
		if t.sameSession(w.t) || !tableConflict(w.mode, mine) {
			continue
		}
		if j := r.holderIndex(w.t); j >= 0 && tableConflict(mode, r.holders[j].mode) {
			return w.t
		}
	}
	return nil
}

// wake grants every waiter of r that no holder blocks now, in arrival order.
// A waiter of a row waits for holders only; one of a table also for the
// earlier waiters it conflicts with (queued), unless it holds a lock of the
// table: blockers gives findCycle both kinds of edge. AwaitWriters' waiters
// look last, after the lock waiters were granted (a write's lock as a
// write): a writer woken by the same commit as an INSERT ... ON CONFLICT
// check writes the row before the check looks at it again, as
// PostgreSQL's waiting writer, which holds the tuple lock, goes on at once
// while the speculative insertion starts its index probe over.
func (m *Manager) wake(r *resource) {
	var ahead Mode // the modes of the table's waiters left waiting
	for _, w := range r.waiters {
		if w.mode == awaitWrite {
			continue
		}
		behind := r.key.whole && tableConflict(ahead, w.mode) && r.holderIndex(w.t) < 0
		if !behind && r.compatible(w.t, w.mode) {
			m.grant(r, w.t, w.mode)
			if w.write && !r.key.whole {
				h := w.t.held[r.key]
				h.write = true
				w.t.held[r.key] = h
			}
			w.granted = true
			close(w.ready)
			continue
		}
		ahead |= w.mode
	}
	kept := r.waiters[:0]
	for _, w := range r.waiters {
		if w.mode == awaitWrite && r.compatible(w.t, awaitWrite) {
			w.granted = true // (AwaitWriters takes no lock)
			close(w.ready)
		}
		if !w.granted {
			kept = append(kept, w)
		}
	}
	for i := len(kept); i < len(r.waiters); i++ {
		r.waiters[i] = nil
	}
	r.waiters = kept
}

// tidy forgets r when nobody holds or awaits it.
func (m *Manager) tidy(r *resource) {
	if len(r.holders) == 0 && len(r.waiters) == 0 {
		delete(m.res, r.key)
		if len(m.spare) < maxSpare {
			// No Txn keeps r: t.waiting is only set while r has its waiter.
			clear(r.holders[:cap(r.holders)])
			clear(r.waiters[:cap(r.waiters)])
			*r = resource{holders: r.holders, waiters: r.waiters}
			m.spare = append(m.spare, r)
		}
	}
}

// releaseOne drops t's lock on rk. The caller holds m.mu.
func (t *Txn) releaseOne(rk resKey) {
	m := t.m
	delete(t.held, rk)
	r := m.res[rk]
	if r == nil {
		return
	}
	if i := r.holderIndex(t); i >= 0 {
		r.holders = append(r.holders[:i], r.holders[i+1:]...)
		if !rk.whole {
			m.count--
		}
	}
	m.wake(r)
	m.tidy(r)
}

// Release ends the transaction's locks. When committed (its writes are
// durable and visible), the rows and tables it wrote are stamped first, so
// that a statement that read them before and locks them after sees they
// changed.
func (t *Txn) Release(committed bool) {
	m := t.m
	m.mu.Lock()
	defer m.mu.Unlock()
	t.marked, t.lockLog = false, t.lockLog[:0]
	if t.id == 0 {
		t.clearMoves()
		return
	}
	if committed {
		var seq uint64
		next := func() uint64 {
			if seq == 0 {
				m.seq++
				seq = m.seq
			}
			return seq
		}
		for k, h := range t.held {
			if h.write && !k.whole {
				s := m.slot(k.table, k.key)
				m.stamps[s] = next()
				m.logWrite(k, seq)
				if r := m.res[k]; r != nil {
					m.overwrite(r)
				}
			}
		}
		for table, wrote := range t.whole {
			if wrote {
				m.tableStamps[table] = next()
			}
		}
		if len(t.moves) > 0 {
			m.logMoves(t, next())
		}
	}
	t.clearMoves()
	clear(t.waited)
	for k := range t.held {
		t.releaseOne(k)
	}
	if t.grown {
		t.held, t.grown = map[resKey]held{}, false
	}
	clear(t.perTable)
	clear(t.whole)
	t.id = 0
	t.stmt = ""
	delete(m.owners, t)
}

// ID is the transaction's id while it holds or awaits locks, else 0.
func (t *Txn) ID() uint64 {
	t.m.mu.Lock()
	defer t.m.mu.Unlock()
	return t.id
}

// findCycle looks for a cycle of waits through start, returning the
// waiting owners on it in waiting order (start first). A session's two
// owners (its transaction's and its session-level advisory locks') are one
// node: whichever of them waits is the session's wait. The caller holds
// m.mu.
func (m *Manager) findCycle(start *Txn) []*Txn {
	visited := map[*Txn]bool{}
	var path []*Txn
	var dfs func(t *Txn) bool
	dfs = func(t *Txn) bool {
		w := t.waitingOwner()
		if w.waiting == nil {
			return false
		}
		path = append(path, w)
		for _, b := range w.waiting.blockers(w, w.waitMode) {
			if start.sameSession(b) {
				return true
			}
			if b = b.waitingOwner(); !visited[b] {
				visited[b] = true
				if dfs(b) {
					return true
				}
			}
		}
		path = path[:len(path)-1]
		return false
	}
	if dfs(start) {
		return path
	}
	return nil
}

// deadlockError words a deadlock as PostgreSQL does, with the statements
// of the processes in it (which PostgreSQL writes to the server log).
func (m *Manager) deadlockError(cycle []*Txn) error {
	var d strings.Builder
	for i, t := range cycle {
		next := cycle[(i+1)%len(cycle)]
		if i > 0 {
			d.WriteString("\n")
		}
		if k := t.waiting.key; k.whole {
			fmt.Fprintf(&d, "Process %d waits for %s on relation \"%s\"; blocked by process %d.",
				t.pid, pgMode(k, t.waitMode), t.waiting.name, next.pid)
			continue
		}
		if k := t.waiting.key; k.advisory {
			a := decodeAdvisory(k.key)
			fmt.Fprintf(&d, "Process %d waits for %s on advisory lock [%d,%d,%d,%d]; blocked by process %d.",
				t.pid, pgMode(k, t.waitMode), a.Database, a.Class, a.Object, a.Form, next.pid)
			continue
		}
		fmt.Fprintf(&d, "Process %d waits for ShareLock on transaction %d; blocked by process %d.", t.pid, next.xid(), next.pid)
	}
	for _, t := range cycle {
		fmt.Fprintf(&d, "\nProcess %d: %s", t.pid, t.statement())
	}
	return sqlerr.New(sqlerr.DeadlockDetected, "deadlock detected").WithDetail("%s", d.String()).
		WithHint("See server log for query details.")
}

// xid is the transaction id pg_locks and deadlock reports show for t: a
// session-level owner's is its session's current transaction's.
func (t *Txn) xid() uint64 {
	if t.session && t.peer != nil {
		return t.peer.id
	}
	return t.id
}

// statement is the text of the statement t's session runs (or last ran).
func (t *Txn) statement() string {
	if t.stmt == "" && t.peer != nil {
		return t.peer.stmt
	}
	return t.stmt
}

// LockInfo is one lock held or awaited, as pg_locks shows it.
type LockInfo struct {
	// Kind is "relation", "tuple", "transactionid" or "advisory".
	Kind  string
	Table int64
	// Key is the row's key encoding (tuple locks).
	Key string
	// Mode is PostgreSQL's name of the lock mode.
	Mode      string
	Granted   bool
	PID       int32
	XID       uint64
	WaitStart time.Time
	// Advisory is an advisory lock's tag (Kind "advisory").
	Advisory AdvisoryKey
}

// pgMode names a lock mode as pg_locks does: tuple locks carry the
// heavyweight modes PostgreSQL maps its row-lock modes to.
func pgMode(k resKey, m Mode) string {
	if k.advisory {
		if m == advisoryExclusive {
			return "ExclusiveLock"
		}
		return "ShareLock"
	}
	if k.whole {
		for tm := AccessShareLock; tm <= AccessExclusiveLock; tm++ {
			if m&tableBit(tm) != 0 {
				return tm.String() // (one mode: Locks splits a holder's set)
			}
		}
	}
	switch m {
	case KeyShare:
		return "AccessShareLock"
	case Share:
		return "RowShareLock"
	case NoKeyUpdate:
		return "ExclusiveLock"
	}
	return "AccessExclusiveLock"
}

// Locks lists the locks held and awaited: each transaction's own id, its
// table and row locks, and its waits.
func (m *Manager) Locks() []LockInfo {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []LockInfo
	for t := range m.owners {
		if !t.session && !t.readOnly() {
			out = append(out, LockInfo{Kind: "transactionid", Mode: "ExclusiveLock", Granted: true, PID: t.pid, XID: t.id})
		}
	}
	for k, r := range m.res {
		kind := "tuple"
		switch {
		case k.advisory:
			kind = "advisory"
		case k.whole:
			kind = "relation"
		}
		info := func(t *Txn, mode Mode) LockInfo {
			li := LockInfo{Kind: kind, Table: k.table, Key: k.key, Mode: pgMode(k, mode), PID: t.pid, XID: t.xid()}
			if k.advisory {
				li.Advisory = decodeAdvisory(k.key)
			}
			return li
		}
		for _, h := range r.holders {
			if k.whole {
				// a row per mode held, as PostgreSQL's pg_locks shows them
				for tm := AccessShareLock; tm <= AccessExclusiveLock; tm++ {
					if h.mode&tableBit(tm) != 0 {
						li := info(h.t, tableBit(tm))
						li.Granted = true
						out = append(out, li)
					}
				}
				continue
			}
			li := info(h.t, h.mode)
			li.Granted = true
			out = append(out, li)
			if k.advisory && h.mode == advisoryExclusive {
				// A session holding an advisory lock in both modes shows
				// both, as PostgreSQL's pg_locks does.
				if c := h.t.held[k].counts; c[0] > 0 {
					li.Mode = pgMode(k, advisoryShare)
					out = append(out, li)
				}
			}
		}
		for _, w := range r.waiters {
			li := info(w.t, w.mode)
			if w.mode == awaitWrite {
				// AwaitWriters waits for a writer's transaction, as
				// PostgreSQL's waits for its transaction id's lock
				if bs := r.blockers(w.t, w.mode); len(bs) > 0 {
					li = LockInfo{Kind: "transactionid", Mode: "ShareLock", PID: w.t.pid, XID: bs[0].id}
				}
			}
			li.WaitStart = w.since
			out = append(out, li)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.PID != b.PID {
			return a.PID < b.PID
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.Table != b.Table {
			return a.Table < b.Table
		}
		if a.Key != b.Key {
			return a.Key < b.Key
		}
		if a.Mode != b.Mode {
			return a.Mode < b.Mode
		}
		return a.Granted && !b.Granted
	})
	// A session holding an advisory lock in one mode both for itself and
	// for its transaction is one row, as PostgreSQL keeps one entry per
	// backend and lock.
	return slices.CompactFunc(out, func(a, b LockInfo) bool {
		return a.Kind == "advisory" && b.Kind == a.Kind && a.PID == b.PID && a.Key == b.Key && a.Mode == b.Mode && a.Granted && b.Granted
	})
}

// readOnly reports whether t holds table locks for reading only (ACCESS
// SHARE): a transaction PostgreSQL gives no transaction id, so pg_locks
// shows none. The caller holds m.mu.
func (t *Txn) readOnly() bool {
	if t.waiting != nil && t.waitMode != tableBit(AccessShareLock) {
		return false
	}
	for k, h := range t.held {
		if !k.whole || h.mode != tableBit(AccessShareLock) {
			return false
		}
	}
	return true
}

// Held is how many row locks the server holds (for tests and metrics).
func (m *Manager) Held() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.count
}

// Manager returns the manager t belongs to.
func (t *Txn) Manager() *Manager { return t.m }

// EscalateAt is how many row locks of one table a transaction takes before
// it tries to lock the table whole: a write of that many rows asks for the
// table at once (Txn.LockTable).
func (m *Manager) EscalateAt() int { return m.opts.EscalateAt }
