package pgwire

import (
	"errors"
	"net"
	"os"
	"time"
)

// Streaming results (the engine's SUBSCRIBE): a Result whose Next may wait
// for rows that do not exist yet. Before each Next that could wait, the
// server flushes what it has sent, so rows reach the client as they are
// committed rather than when a buffer fills. While such a result is being
// sent every write must complete within the result's SendTimeout: a
// client that leaves the data unread that long is cut off (the write
// fails and the connection ends, its protocol state being mid-message),
// and the result's memory is freed; other sessions are not affected.
// While a write waits the result reads nothing, so its memory stays what
// it holds: the output buffer (about FlushThreshold plus one batch's
// rows) and the result's own bound.

// StreamingResult is implemented by results that stream without end.
type StreamingResult interface {
	Result
	// Ready reports whether Next has rows in hand (returns without
	// waiting); the server flushes before a Next that is not ready.
	Ready() bool
	// SendTimeout is how long one write may wait for the client to take
	// data (0: no limit).
	SendTimeout() time.Duration
}

// beforeStreamWait bounds the writes of a streaming result and flushes
// its output when its next rows may have to be waited for.
func (c *conn) beforeStreamWait(res Result) error {
	sr, ok := res.(StreamingResult)
	if !ok {
		return nil
	}
	c.streamSend = sr.SendTimeout()
	if sr.Ready() || len(c.out) == 0 {
		return nil
	}
	return c.flush()
}

// armStreamWrite sets the deadline of the write flush is about to make.
func (c *conn) armStreamWrite() {
	c.setWriteDeadline(time.Now().Add(c.streamSend))
}

// endStream ends the bound once the result stops sending (the
// connection's later writes have none), logging a client cut off by it.
func (c *conn) endStream() {
	if c.streamSend == 0 {
		return
	}
	limit := c.streamSend
	c.streamSend = 0
	var ne net.Error
	if err := c.writeErr; err != nil && (errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()) {
		c.logger.Warn("pgwire: ended a streaming result whose client stopped reading", "send_timeout", limit)
		return
	}
	if c.writeErr == nil {
		c.setWriteDeadline(time.Time{})
	}
}
