package functions

import (
	"context"
	"time"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// BackendSignals is implemented by a CatalogInfo that reaches the server's
// other sessions (pgcatalog with the server's session registry):
// pg_cancel_backend (terminate false) and pg_terminate_backend, on behalf
// of the session in ctx, with PostgreSQL's privilege rules. ok is false
// when pid is no session (or, with a timeout, when it did not end in
// time).
type BackendSignals interface {
	SignalBackend(ctx context.Context, pid int32, terminate bool, timeout time.Duration) (ok bool, err error)
}

// signalFuncs are pg_cancel_backend(pid) and pg_terminate_backend(pid [,
// timeout]), PostgreSQL 15's administration functions.
func signalFuncs() []*Func {
	signal := func(terminate bool) func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
		return func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
			var timeout int64
			if len(a) > 1 {
				// PostgreSQL 15 keeps the bigint in a C int: what does not
				// fit wraps (9223372036854775807 is -1, so negative)
				timeout = int64(int32(a[1].(int64)))
			}
			if timeout < 0 {
				return nil, sqlerr.New(sqlerr.NumericValueOutOfRange, "\"timeout\" must not be negative") // PostgreSQL 15 says 22003
			}
			bs, ok := c.(BackendSignals)
			if !ok {
				return nil, sqlerr.New(sqlerr.FeatureNotSupported, "signalling other sessions is not available here")
			}
			return bs.SignalBackend(ctx, int32(a[0].(int64)), terminate, time.Duration(timeout)*time.Millisecond)
		}
	}
	return append(blockingFuncs(), []*Func{
		{Name: "pg_cancel_backend", Args: []types.T{tInt4}, Ret: tBool, Strict: true, Volatile: true,
			Kernel: withCatalog(tBool, signal(false))},
		{Name: "pg_terminate_backend", Args: []types.T{tInt4}, Ret: tBool, Strict: true, Volatile: true,
			Kernel: withCatalog(tBool, signal(true))},
		{Name: "pg_terminate_backend", Args: []types.T{tInt4, tInt8}, Ret: tBool, Strict: true, Volatile: true,
			Kernel: withCatalog(tBool, signal(true))},
	}...)
}

// BlockingPIDs is implemented by a CatalogInfo that sees the server's
// locks (pg_blocking_pids).
type BlockingPIDs interface {
	BlockingPIDs(ctx context.Context, pid int32) []int32
}

// blockingFuncs is pg_blocking_pids(pid): the sessions pid waits for, an
// empty array when it waits for none.
func blockingFuncs() []*Func {
	ret := types.ArrayOf(tInt4)
	return []*Func{{Name: "pg_blocking_pids", Args: []types.T{tInt4}, Ret: ret, Strict: true, Volatile: true,
		Kernel: withCatalog(ret, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
			out := []any{}
			if bp, ok := c.(BlockingPIDs); ok {
				for _, p := range bp.BlockingPIDs(ctx, int32(a[0].(int64))) {
					out = append(out, int64(p))
				}
			}
			return out, nil
		})}}
}
