package functions

import (
	"context"
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/types"
)

// sleepFuncs are pg_sleep(seconds), pg_sleep_for(interval) and
// pg_sleep_until(timestamptz). A sleep ends early, with the statement's
// error, when the statement is cancelled (pg_cancel_backend, a client's
// CancelRequest, statement_timeout).
func sleepFuncs() []*Func {
	return []*Func{
		{Name: "pg_sleep", Args: []types.T{tFloat8}, Ret: types.VoidType, Strict: true, Volatile: true,
			Kernel: rowFunc(types.VoidType, true, func(ctx context.Context, a []any) (any, error) {
				return "", sleepSeconds(ctx, a[0].(float64))
			})},
		// pg_sleep_for is SQL in PostgreSQL: pg_sleep(extract(epoch from
		// now() + $1) - extract(epoch from clock_timestamp())); now() is
		// the transaction's start, so an interval already passed since
		// then does not sleep.
		{Name: "pg_sleep_for", Args: []types.T{ivT}, Ret: types.VoidType, Strict: true, Volatile: true,
			Kernel: sleepUntil(func(ctx context.Context, a any) (int64, error) {
				return addToTimestamp(clockOf(ctx).TransactionStart.UnixMicro(), a.(arrow.MonthDayNanoInterval), 1, true, LocationOf(ctx))
			})},
		{Name: "pg_sleep_until", Args: []types.T{tstzT}, Ret: types.VoidType, Strict: true, Volatile: true,
			Kernel: sleepUntil(func(_ context.Context, a any) (int64, error) { return a.(int64), nil })},
	}
}

// sleepUntil is a kernel that sleeps until the instant (microseconds since
// the epoch; ±infinity as the largest and smallest) its argument names.
func sleepUntil(at func(ctx context.Context, a any) (int64, error)) Kernel {
	return rowFunc(types.VoidType, true, func(ctx context.Context, a []any) (any, error) {
		us, err := at(ctx, a[0])
		if err != nil {
			return nil, err
		}
		var secs float64
		switch us {
		case math.MaxInt64:
			secs = math.Inf(1)
		case math.MinInt64:
			secs = math.Inf(-1)
		default: // in floats: the difference may not fit an int64
			secs = (float64(us) - float64(time.Now().UnixMicro())) / 1e6
		}
		return "", sleepSeconds(ctx, secs)
	})
}

// sleepSeconds waits secs seconds (none for a negative or NaN secs, for
// ever for +Infinity) or until ctx ends, as pg_sleep's loop does.
func sleepSeconds(ctx context.Context, secs float64) error {
	if !(secs > 0) {
		return ctx.Err()
	}
	var timeout <-chan time.Time
	if secs < math.MaxInt64/float64(time.Second) {
		t := time.NewTimer(time.Duration(secs * float64(time.Second)))
		defer t.Stop()
		timeout = t.C
	}
	select {
	case <-timeout:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
