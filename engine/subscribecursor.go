package engine

import (
	"context"
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Cursors over SUBSCRIBE (Materialize's form): DECLARE c CURSOR FOR
// SUBSCRIBE ... inside a transaction block, then FETCH [n | ALL] c [WITH
// (timeout = '1s')]. FETCH waits until at least one row is there (up to
// the timeout when one is given; timeout 0 does not wait) and returns the
// rows in hand then, at most n: it never waits for the n-th row. Such a
// cursor moves forward only (backward motion is 55000 as for any NO SCROLL
// cursor), cannot be WITH HOLD or SCROLL (a subscription has no end to
// materialise), and ends with its transaction like any other cursor; its
// subscription's memory is what subscribe.go states, however long the
// client leaves it unread.

// declareSubscribe declares a cursor over SUBSCRIBE.
func (s *session) declareSubscribe(ctx context.Context, ps *statement, c *sql.CursorStmt, st *sql.Statement, block bool) (pgwire.Result, error) {
	if c.Hold {
		return nil, sqlerr.NotSupported("DECLARE ... WITH HOLD for SUBSCRIBE (a subscription has no end to materialise at COMMIT)")
	}
	if c.Scroll {
		return nil, sqlerr.NotSupported("DECLARE ... SCROLL for SUBSCRIBE (a subscription's rows are read once, forward)")
	}
	qps, err := s.prepareOne(ctx, st, nil)
	if err != nil {
		return nil, err
	}
	sub, err := s.startSubscription(ctx, qps.sub)
	if err != nil {
		return nil, err
	}
	cur := s.newCursor(ps, c, qps.sub.cols, block)
	cur.sub = sub
	s.cursors.add(cur)
	return tagOnly("DECLARE CURSOR"), nil
}

// fetchSubscribe is FETCH / MOVE on a cursor over SUBSCRIBE.
func (s *session) fetchSubscribe(ctx context.Context, cur *cursor, c *sql.CursorStmt) (pgwire.Result, error) {
	count := c.Count
	switch c.Direction {
	case sql.FetchForward:
	case sql.FetchBackward:
		if count >= 0 {
			return nil, scanForwardOnly()
		}
		count = -count
	default:
		return nil, sqlerr.NotSupported("FETCH ABSOLUTE, RELATIVE, FIRST and LAST on a cursor over SUBSCRIBE (FETCH n or FETCH ALL reads the next rows)")
	}
	if count < 0 {
		return nil, scanForwardOnly()
	}
	if count == 0 {
		return nil, sqlerr.NotSupported("FETCH 0 on a cursor over SUBSCRIBE (it has no current row to return again)")
	}
	wait, timed, err := fetchTimeout(c.Timeout)
	if err != nil {
		return nil, err
	}
	out := s.newFetchResult(c)
	var timer <-chan time.Time
	if timed && wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		timer = t.C
	}
	sub := cur.sub
	for out.n < count {
		b, err := sub.next(ctx, false)
		if err != nil {
			out.Close()
			return nil, err
		}
		if b == nil {
			if out.n > 0 || timed && wait <= 0 {
				break
			}
			select {
			case <-sub.follow.Wait():
				continue
			case <-timer:
			case <-ctx.Done():
				out.Close()
				return nil, sqlerr.Wrap(ctx.Err(), sqlerr.QueryCanceled, "canceling statement due to user request")
			}
			break
		}
		if rest := count - out.n; b.NumRows() > rest {
			sub.unread(b.NewSlice(rest, b.NumRows()))
			head := b.NewSlice(0, rest)
			b.Release()
			b = head
		}
		out.n += b.NumRows()
		if c.Move {
			b.Release()
			continue
		}
		out.rows = append(out.rows, b)
	}
	return out, nil
}

// unread puts the rows FETCH did not take back before the queue.
func (r *subscription) unread(b arrow.RecordBatch) {
	r.queue = append([]arrow.RecordBatch{b}, r.queue...)
}

// fetchTimeout reads FETCH's timeout: an interval ('1s', '250ms',
// '1 second'); timed false when none was given.
func fetchTimeout(text string) (time.Duration, bool, error) {
	if text == "" {
		return 0, false, nil
	}
	if d, ok := pgwire.ParseGUCDuration(text); ok {
		if d < 0 {
			return 0, false, negativeTimeout(text)
		}
		return d, true, nil
	}
	iv, err := types.ParseInterval(text)
	if err != nil {
		return 0, false, sqlerr.New(sqlerr.InvalidParameterValue, "invalid FETCH timeout %q", text)
	}
	// the span as whole days (months of 30) and a time of day in [0, 1 day):
	// negative exactly when the days are, and saturated rather than wrapped
	// where it passes what a time.Duration holds
	days, us := types.IntervalSpan(iv)
	if days < 0 {
		return 0, false, negativeTimeout(text)
	}
	if days >= int64(math.MaxInt64/int64(24*time.Hour))-1 {
		return time.Duration(math.MaxInt64), true, nil
	}
	return time.Duration(days)*24*time.Hour + time.Duration(us)*time.Microsecond, true, nil
}

func negativeTimeout(text string) error {
	return sqlerr.New(sqlerr.InvalidParameterValue, "FETCH timeout %q must not be negative", text)
}
