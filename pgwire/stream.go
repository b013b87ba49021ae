package pgwire

import (
	"errors"
	"net"
	"os"
	"time"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// Streaming results (the engine's SUBSCRIBE): a Result whose Next may wait
// for rows that do not exist yet. Before each Next that could wait, the
// server flushes what it has sent (rows reach the client as they are
// committed, not when a buffer fills), and a client that leaves that data
// unread for longer than the result's SendTimeout is cut off: the write
// fails, the connection ends (its protocol state is mid-message), and the
// result's memory is freed; other sessions are not affected. While the
// flush waits the result reads nothing, so its memory stays what it holds
// (the output buffer, FlushThreshold, and its own bound).

// StreamingResult is implemented by results that stream without end.
type StreamingResult interface {
	Result
	// Ready reports whether Next has rows in hand (returns without
	// waiting); the server flushes before a Next that is not ready.
	Ready() bool
	// SendTimeout is how long a flush may wait for the client to take
	// data (0: no limit).
	SendTimeout() time.Duration
}

// codeSubscriberTooSlow is the SQLSTATE of a streaming result ended
// because its client stopped reading (configuration_limit_exceeded).
const codeSubscriberTooSlow sqlerr.Code = "53400"

// beforeStreamWait flushes the output of a streaming result that is about
// to wait for rows.
func (c *conn) beforeStreamWait(res Result) error {
	sr, ok := res.(StreamingResult)
	if !ok || sr.Ready() || len(c.out) == 0 {
		return nil
	}
	limit := sr.SendTimeout()
	if limit > 0 {
		_ = c.nc.SetWriteDeadline(time.Now().Add(limit))
		defer func() { _ = c.nc.SetWriteDeadline(time.Time{}) }()
	}
	err := c.flush()
	var ne net.Error
	if err != nil && (errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()) {
		c.logger.Warn("pgwire: ending a streaming result whose client stopped reading", "send_timeout", limit)
		return sqlerr.New(codeSubscriberTooSlow, "the client did not take the subscription's rows within %s; the subscription was ended", limit).
			WithHint("Read the subscription's rows as they come, or raise sqlgate.subscribe_send_timeout.")
	}
	return err
}
