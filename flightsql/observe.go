package flightsql

import (
	"context"
	"errors"
	"time"

	"github.com/sqlgate/sqlgate/pgwire"
)

// The server's session registry (pg_stat_activity, pg_cancel_backend,
// pg_terminate_backend) lists each Flight SQL connection beside the
// PostgreSQL ones: Config.Observer is told of it when its session opens
// and when it closes, and of every statement one of its sessions runs
// (startStatement), so that pg_stat_activity shows the connection active
// with its query while one runs and pg_cancel_backend reaches it.

// errCancelRequest and errTerminate are the causes of a statement context
// that pg_cancel_backend or pg_terminate_backend ended.
var (
	errCancelRequest = errors.New("cancel request")
	errTerminate     = errors.New("terminate request")
)

// flightControl is what another session may do to a Flight SQL
// connection.
type flightControl struct {
	r *registry
	c *conn
}

// CancelStatement implements pgwire.SessionControl: the connection's
// running statements end with 57014 (their clients get the error, as a
// PostgreSQL client does), the queries still awaiting their DoGet are
// dropped.
func (f flightControl) CancelStatement() {
	f.c.mu.Lock()
	defer f.c.mu.Unlock()
	f.c.cancelRunning(errCancelRequest)
	for h, p := range f.c.pending {
		if p.cancel == nil {
			delete(f.c.pending, h)
		}
	}
}

// Terminate implements pgwire.SessionControl: the running statements end
// with 57P01, the connection closes (its open transactions roll back) and
// its token no longer works.
func (f flightControl) Terminate() {
	f.c.mu.Lock()
	f.c.cancelRunning(errTerminate)
	f.c.mu.Unlock()
	go f.r.drop(f.c.key)
}

// cancelRunning ends the running statements' contexts with cause (c.mu
// held).
func (c *conn) cancelRunning(cause error) {
	for _, cancel := range c.running {
		cancel(cause)
	}
}

// Setting implements pgwire.SessionControl; a Flight SQL connection's
// settings are its sessions', which nobody asks for.
func (f flightControl) Setting(string) (string, bool) { return "", false }

// observe registers c with the observer, if any.
func (r *registry) observe(c *conn, info pgwire.SessionInfo) {
	if r.obs == nil {
		return
	}
	if so := r.obs.SessionStarted(info, flightControl{r: r, c: c}); so != nil {
		c.mu.Lock()
		c.obs = so
		c.mu.Unlock()
	}
}

// startStatement begins one execution of st on sess, a session of the
// connection ctx carries (none: nobody watches): its context ends at the
// session's statement_timeout, or at a pg_cancel_backend (57014) or
// pg_terminate_backend (57P01) of the connection, and the observer sees
// the connection active with the statement's text until end is called
// with the execution's tag and error; end returns the error to report.
// Statements of one connection may run at once on its transactions'
// sessions; it shows idle again when the last one ends.
func startStatement(ctx context.Context, sess pgwire.Session, st pgwire.Statement) (context.Context, func(tag string, err error) error) {
	cctx, cancel := context.WithCancelCause(ctx)
	sctx, stop := statementContext(cctx, sess)
	signalled := func(err error) error {
		if err == nil {
			return nil
		}
		switch context.Cause(cctx) {
		case errCancelRequest:
			return canceledError()
		case errTerminate:
			return shutdownError()
		}
		return err
	}
	c := connOf(ctx)
	if c == nil {
		return sctx, func(_ string, err error) error { stop(); cancel(nil); return err }
	}
	start := time.Now()
	c.mu.Lock()
	c.nextRun++
	id := c.nextRun
	if c.running == nil {
		c.running = map[uint64]context.CancelCauseFunc{}
	}
	c.running[id] = cancel
	if c.obs != nil {
		c.obs.StatementStarted(st.SQL(), start)
	}
	c.mu.Unlock()
	return sctx, func(tag string, err error) error {
		err = signalled(err)
		stop()
		cancel(nil)
		status := sess.TxStatus()
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.running, id)
		if c.obs == nil {
			return err
		}
		ev := pgwire.StatementEvent{SQL: st.SQL(), Stmt: st, Start: start, Duration: time.Since(start)}
		if err != nil {
			ev.Err, _ = sqlErrorOf(err)
		} else {
			ev.Tag, ev.Rows = tag, pgwire.TagRows(tag)
		}
		c.obs.StatementDone(ev)
		if len(c.running) > 0 {
			return err // still active
		}
		if status == 'I' && len(c.txns) > 0 {
			status = 'T' // a transaction of the connection is open
		}
		c.obs.Ready(status)
		return err
	}
}
