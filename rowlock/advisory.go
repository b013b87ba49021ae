package rowlock

import (
	"context"
	"encoding/binary"
	"time"
)

// Advisory locks: PostgreSQL's pg_advisory_lock family. An advisory lock
// is named by an application's number (one bigint, or two integers), is
// taken in share or exclusive mode, and is held either by the session
// until it unlocks it (the session's NewSessionTxn owner; a rollback does
// not release it) or by the transaction until it ends (the session's
// transaction owner, released with its row locks). Each lock call counts:
// a session that locked a key twice unlocks it twice. Waits for advisory
// locks join the row locks' waits-for graph, so a deadlock between them
// and row locks is found, and honour lock_timeout, statement_timeout and
// cancellation like any lock wait.

// Advisory lock modes on an advisory resource: share and exclusive
// conflict as advisoryConflict says.
const (
	advisoryShare     Mode = 1
	advisoryExclusive Mode = 2
)

// AdvisoryKey is an advisory lock's tag as pg_locks shows it: database,
// classid and objid (the bigint's high and low halves, or the two
// integers), objsubid (Form: 1 for a bigint key, 2 for two integers).
type AdvisoryKey struct {
	Database      uint32
	Class, Object uint32
	Form          uint16
}

// BigintAdvisory is the tag of pg_advisory_lock(key bigint).
func BigintAdvisory(db uint32, key int64) AdvisoryKey {
	return AdvisoryKey{Database: db, Class: uint32(uint64(key) >> 32), Object: uint32(key), Form: 1}
}

// PairAdvisory is the tag of pg_advisory_lock(key1 int, key2 int).
func PairAdvisory(db uint32, key1, key2 int32) AdvisoryKey {
	return AdvisoryKey{Database: db, Class: uint32(key1), Object: uint32(key2), Form: 2}
}

// tag encodes k as a resource key.
func (k AdvisoryKey) tag() string {
	var b [14]byte
	binary.BigEndian.PutUint32(b[0:], k.Database)
	binary.BigEndian.PutUint32(b[4:], k.Class)
	binary.BigEndian.PutUint32(b[8:], k.Object)
	binary.BigEndian.PutUint16(b[12:], k.Form)
	return string(b[:])
}

func decodeAdvisory(tag string) AdvisoryKey {
	b := []byte(tag)
	return AdvisoryKey{Database: binary.BigEndian.Uint32(b[0:]), Class: binary.BigEndian.Uint32(b[4:]),
		Object: binary.BigEndian.Uint32(b[8:]), Form: binary.BigEndian.Uint16(b[12:])}
}

// AdvisoryRequest is one advisory lock request.
type AdvisoryRequest struct {
	Key    AdvisoryKey
	Shared bool
	// Wait is Block (pg_advisory_lock) or SkipLocked (pg_try_advisory_lock).
	Wait            Wait
	Timeout         time.Duration // lock_timeout (0: none)
	DeadlockTimeout time.Duration // deadlock_timeout (0: one second)
	Statement       string
}

func advisoryMode(shared bool) (Mode, int) {
	if shared {
		return advisoryShare, 0
	}
	return advisoryExclusive, 1
}

// LockAdvisory takes an advisory lock for t (a session's transaction
// owner: held until the transaction ends; or its session owner: held until
// unlocked). ok is false when req.Wait is SkipLocked and another session
// holds the lock in a conflicting mode.
func (t *Txn) LockAdvisory(ctx context.Context, req AdvisoryRequest) (ok bool, err error) {
	m := t.m
	m.mu.Lock()
	defer m.mu.Unlock()
	t.begin(req.Statement)
	t.deadlockTimeout = req.DeadlockTimeout
	mode, i := advisoryMode(req.Shared)
	rk := resKey{key: req.Key.tag(), advisory: true}
	out, err := t.acquire(ctx, rk, "", mode, req.Wait, req.Timeout)
	if err != nil || out == Skipped {
		if len(t.held) == 0 {
			t.end()
		}
		return false, err
	}
	h := t.held[rk]
	h.counts[i]++
	t.held[rk] = h
	return true, nil
}

// UnlockAdvisory releases one hold of an advisory lock in the mode given,
// reporting false when t holds none (pg_advisory_unlock's WARNING case).
func (t *Txn) UnlockAdvisory(key AdvisoryKey, shared bool) bool {
	m := t.m
	m.mu.Lock()
	defer m.mu.Unlock()
	rk := resKey{key: key.tag(), advisory: true}
	h, ok := t.held[rk]
	_, i := advisoryMode(shared)
	if !ok || h.counts[i] == 0 {
		return false
	}
	h.counts[i]--
	switch {
	case h.counts == [2]int32{}:
		t.releaseOne(rk)
		if len(t.held) == 0 {
			t.end()
		}
	case i == 1 && h.counts[1] == 0:
		// Exclusive no longer held, share still is: others may share now.
		h.mode = advisoryShare
		t.held[rk] = h
		r := m.res[rk]
		r.holders[r.holderIndex(t)].mode = advisoryShare
		m.wake(r)
	default:
		t.held[rk] = h
	}
	return true
}

// end forgets t's transaction id when it holds nothing (a try that got
// nothing, the last unlock of a session owner). The caller holds m.mu.
func (t *Txn) end() {
	if t.id == 0 || len(t.held) > 0 {
		return
	}
	t.id = 0
	t.stmt = ""
	delete(t.m.owners, t)
}
