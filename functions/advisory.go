package functions

import (
	"context"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// AdvisoryTag names an advisory lock: the bigint key's high and low
// halves (Form 1) or the two integer keys (Form 2), as pg_locks' classid,
// objid and objsubid show them.
type AdvisoryTag struct {
	Class, Object uint32
	Form          uint16
}

// AdvisoryLocks is a session's advisory locks (the engine's, over its lock
// manager), which PostgreSQL's pg_advisory_* functions take and release.
type AdvisoryLocks interface {
	// LockAdvisory takes the lock in share or exclusive mode, held by the
	// session (until unlocked) or by its transaction (until it ends). try
	// does not wait: it reports false when another session holds the lock
	// in a conflicting mode.
	LockAdvisory(ctx context.Context, tag AdvisoryTag, shared, session, try bool) (bool, error)
	// UnlockAdvisory releases one session-level hold of the lock in the
	// mode given; false when the session holds none.
	UnlockAdvisory(tag AdvisoryTag, shared bool) bool
	// UnlockAllAdvisory releases every session-level advisory lock.
	UnlockAllAdvisory()
}

// advisoryFuncs are PostgreSQL 15's advisory lock functions, each over a
// bigint key and over two integer keys.
func advisoryFuncs() []*Func {
	var fs []*Func
	keyForms := [][]types.T{{tInt8}, {tInt4, tInt4}}
	for _, args := range keyForms {
		for _, shared := range []bool{false, true} {
			suffix := ""
			if shared {
				suffix = "_shared"
			}
			add := func(name string, ret types.T, body func(ctx context.Context, a AdvisoryLocks, tag AdvisoryTag) (any, error)) {
				fs = append(fs, &Func{Name: name + suffix, Args: args, Ret: ret, Strict: true, Volatile: true,
					Kernel: rowFunc(ret, true, func(ctx context.Context, vals []any) (any, error) {
						a := sessionOf(ctx).Advisory
						if a == nil {
							return nil, sqlerr.New(sqlerr.FeatureNotSupported, "advisory locks are not available here")
						}
						return body(ctx, a, advisoryTagOf(vals))
					})})
			}
			lock := func(session, try bool) func(ctx context.Context, a AdvisoryLocks, tag AdvisoryTag) (any, error) {
				return func(ctx context.Context, a AdvisoryLocks, tag AdvisoryTag) (any, error) {
					ok, err := a.LockAdvisory(ctx, tag, shared, session, try)
					if err != nil || !try {
						return "", err
					}
					return ok, nil
				}
			}
			add("pg_advisory_lock", types.VoidType, lock(true, false))
			add("pg_advisory_xact_lock", types.VoidType, lock(false, false))
			add("pg_try_advisory_lock", tBool, lock(true, true))
			add("pg_try_advisory_xact_lock", tBool, lock(false, true))
			add("pg_advisory_unlock", tBool, func(ctx context.Context, a AdvisoryLocks, tag AdvisoryTag) (any, error) {
				if a.UnlockAdvisory(tag, shared) {
					return true, nil
				}
				mode := "ExclusiveLock"
				if shared {
					mode = "ShareLock"
				}
				warn(ctx, sqlerr.New(sqlerr.Warning, "you don't own a lock of type %s", mode))
				return false, nil
			})
		}
	}
	return append(fs, &Func{Name: "pg_advisory_unlock_all", Ret: types.VoidType, Volatile: true,
		Kernel: rowFunc(types.VoidType, false, func(ctx context.Context, _ []any) (any, error) {
			if a := sessionOf(ctx).Advisory; a != nil {
				a.UnlockAllAdvisory()
			}
			return "", nil
		})})
}

// advisoryTagOf is the tag of a call's key arguments: one bigint, or two
// integers.
func advisoryTagOf(vals []any) AdvisoryTag {
	if len(vals) == 1 {
		k := uint64(vals[0].(int64))
		return AdvisoryTag{Class: uint32(k >> 32), Object: uint32(k), Form: 1}
	}
	return AdvisoryTag{Class: uint32(int32(vals[0].(int64))), Object: uint32(int32(vals[1].(int64))), Form: 2}
}
