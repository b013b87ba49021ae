package pgwire

import (
	"strconv"
	"strings"
	"time"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// Observer is told of every session's life and statements, so that the
// server can show them (pg_stat_activity), count them (metrics) and log
// them (the slow-query log) without pgwire knowing about any of those.
// Config.Observer; nil observes nothing.
type Observer interface {
	// SessionStarted is called once a session is open (after
	// authentication), with what lets the server cancel its statement or
	// end it. The returned SessionObserver receives the session's events,
	// all from the connection's own goroutine.
	SessionStarted(info SessionInfo, ctl SessionControl) SessionObserver
}

// SessionControl is what another session may do to this one
// (pg_cancel_backend, pg_terminate_backend), and what the session's
// observers may ask of it. CancelStatement and Terminate are safe to call
// from any goroutine, at any time, also after the session ended; Setting
// only from within the session's own events (its goroutine).
type SessionControl interface {
	// Setting is the session's current value of a configuration
	// parameter (log_min_duration_statement ...).
	Setting(name string) (string, bool)
	// CancelStatement cancels the running statement, as a CancelRequest
	// does (57014 for it; the session goes on).
	CancelStatement()
	// Terminate ends the session: the running statement, or the wait for
	// the next message, ends with FATAL 57P01 and the connection closes.
	Terminate()
}

// SessionObserver receives one session's events, in order, from the
// connection's goroutine.
type SessionObserver interface {
	// StatementStarted: a statement (a simple Query's statement, or an
	// Execute) begins to run.
	StatementStarted(sql string, at time.Time)
	// StatementDone: it ended (ev.Err nil on success).
	StatementDone(ev StatementEvent)
	// ErrorSent: an error went to the client (whatever raised it: a
	// statement, Parse, Bind, a protocol violation, a FATAL). sql is the
	// statement it belongs to, "" when none.
	ErrorSent(err *sqlerr.Error, sql string)
	// StatusChanged: a ParameterStatus value changed (SET
	// application_name ...).
	StatusChanged(name, value string)
	// Ready: ReadyForQuery was sent with this transaction status.
	Ready(txStatus byte)
	// Ended: the session closed.
	Ended()
}

// StatementEvent describes one finished statement execution.
type StatementEvent struct {
	SQL string
	// Stmt is the statement (for a plan summary, if it offers one).
	Stmt Statement
	// Params are the execution's parameters (nil for a simple Query); they
	// are the connection's, valid only during the call.
	Params   []any
	Start    time.Time
	Duration time.Duration
	// Tag is the CommandComplete tag ("" on error).
	Tag string
	// Rows is the row count the tag reports (0 when it reports none).
	Rows int64
	// BytesSent is what the connection wrote to the client while the
	// statement ran.
	BytesSent int64
	Err       *sqlerr.Error
}

// TagRows is the row count at the end of a CommandComplete tag ("INSERT 0
// 5" -> 5, "SELECT 3" -> 3, "CREATE TABLE" -> 0).
func TagRows(tag string) int64 {
	i := strings.LastIndexByte(tag, ' ')
	if i < 0 {
		return 0
	}
	n, err := strconv.ParseInt(tag[i+1:], 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// noObserver is the SessionObserver of a server without an Observer.
type noObserver struct{}

func (noObserver) StatementStarted(string, time.Time) {}
func (noObserver) StatementDone(StatementEvent)       {}
func (noObserver) ErrorSent(*sqlerr.Error, string)    {}
func (noObserver) StatusChanged(string, string)       {}
func (noObserver) Ready(byte)                         {}
func (noObserver) Ended()                             {}

// observe starts observing the session (serveConn, once it is open).
func (c *conn) observe(info SessionInfo) {
	c.obs = noObserver{}
	if o := c.srv.cfg.Observer; o != nil {
		if so := o.SessionStarted(info, c); so != nil {
			c.obs, c.observed = so, true
		}
	}
}

// Setting implements SessionControl.
func (c *conn) Setting(name string) (string, bool) { return c.session.Status(name) }

// CancelStatement implements SessionControl.
func (c *conn) CancelStatement() { c.cancelRunning() }

// Terminate implements SessionControl: the connection's context ends
// (which cancels a running statement and interrupts a wait for the next
// message) and the client is told FATAL 57P01, as by PostgreSQL's
// pg_terminate_backend.
func (c *conn) Terminate() {
	c.terminated.Store(true)
	c.cancel()
}

// startStatement tells the observer a statement starts and returns when.
func (c *conn) startStatement(sql string) time.Time {
	if !c.observed {
		return time.Time{}
	}
	now := time.Now()
	c.curSQL = sql
	c.stmtBytes = c.bytesOut + int64(len(c.out))
	c.obs.StatementStarted(sql, now)
	return now
}

// endStatement tells the observer the statement begun at start ended.
func (c *conn) endStatement(st Statement, params []any, start time.Time, err error) {
	if !c.observed {
		return
	}
	ev := StatementEvent{SQL: c.curSQL, Stmt: st, Params: params, Start: start, Duration: time.Since(start),
		BytesSent: c.bytesOut + int64(len(c.out)) - c.stmtBytes}
	if err != nil {
		ev.Err, _ = c.classify(err)
	} else {
		ev.Tag, ev.Rows = c.lastTag, TagRows(c.lastTag)
	}
	c.obs.StatementDone(ev)
}

// CopyObserver is an optional SessionObserver interface: the progress of
// a COPY FROM STDIN or TO STDOUT (pg_stat_progress_copy). relOID is the
// table's OID (0 for COPY (query) TO).
type CopyObserver interface {
	CopyStarted(from bool, relOID uint32) CopyProgress
}

// CopyRelation is a CopyStatement that names its table's OID for
// pg_stat_progress_copy.relid: 0 for COPY (query) TO, whose columns may
// still carry the OIDs of the tables they come from.
type CopyRelation interface {
	CopyRelationOID() uint32
}

// CopyProgress receives a running COPY's progress: bytes moved and rows
// written or sent, as they go; Done when it ends.
type CopyProgress interface {
	Add(bytes, tuples int64)
	Done()
}

// NoProgress is a CopyProgress that counts nothing.
type NoProgress struct{}

func (NoProgress) Add(int64, int64) {}
func (NoProgress) Done()            {}

// copyProgress starts reporting the progress of cs.
func (c *conn) copyProgress(cs CopyStatement, from bool) CopyProgress {
	co, ok := c.obs.(CopyObserver)
	if !ok {
		return NoProgress{}
	}
	var rel uint32
	if r, ok := cs.(CopyRelation); ok {
		rel = r.CopyRelationOID()
	} else if cols := cs.CopyColumns(); len(cols) > 0 {
		rel = cols[0].TableOID
	}
	if p := co.CopyStarted(from, rel); p != nil {
		return p
	}
	return NoProgress{}
}
